#!/bin/sh
# kthreads.sh -- thread discovery (issue 15, docs/kthreads.md): the
# process list of an amd64 dump with $BENCH_THREADS (100000) threads in
# 1,000 processes, walked by dumpinfo --ps --kernel, next to the same
# walk of the 8-thread fixture (the baseline: opening the dump and the
# kernel), best of $BENCH_REPEAT; the issue's bound is 1 s.  Peak RSS
# next to the thread table's size (80 bytes a thread, 72 a process...).
# Then dumpconv --kernel of the big dump next to --no-threads: what the
# notes cost (336 bytes of NT_PRSTATUS a thread, held in memory).
#
# Environment: DUMPGEN, DUMPINFO, DUMPCONV, MAXRSS, BENCH_REPEAT,
# BENCH_THREADS, BENCH_DIR (scratch parent; default $TMPDIR or /tmp).
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPINFO=${DUMPINFO:-$B/bin/dumpinfo}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
MAXRSS=${MAXRSS:-$B/bench/maxrss}
REPEAT=${BENCH_REPEAT:-3}
N=${BENCH_THREADS:-100000}
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/kthreads.XXXXXX")
trap 'rm -rf "$dir"' EXIT

row() {
	printf '  %-44s %14s  %s\n' "$1" "$2" "${3:-}"
}

# best CMD...: the best "SECONDS MAXRSS_KIB" of REPEAT runs, stdout gone.
best() {
	i=0 b=
	while [ $i -lt "$REPEAT" ]; do
		r=$("$MAXRSS" sh -c 'exec "$@" > /dev/null' sh "$@")
		b=$(printf '%s\n%s\n' "$b" "$r" | awk 'NF { if (!s || $1 < s) { s = $1; m = $2 } } END { print s, m }')
		i=$((i + 1))
	done
	echo "$b"
}

mem=$(( (N * 128 / 1048576 + 64) / 32 * 32 + 256 ))M
"$DUMPGEN" -q --arch amd64 --mem "$mem" --sparse -o "$dir/small.md" \
    --kernel-out "$dir/small.k"
"$DUMPGEN" -q --arch amd64 --mem "$mem" --sparse --threads "$N" \
    -o "$dir/big.md" --kernel-out "$dir/big.k"
set -- $(best "$DUMPINFO" --ps --kernel "$dir/small.k" "$dir/small.md")
s_t=$1 s_rss=$2
set -- $(best "$DUMPINFO" --ps --kernel "$dir/big.k" "$dir/big.md")
b_t=$1 b_rss=$2
set -- $(best "$DUMPCONV" -q --force --kernel "$dir/big.k" "$dir/big.md" -o "$dir/t.elf")
c_t=$1 c_rss=$2
set -- $(best "$DUMPCONV" -q --force --no-threads --kernel "$dir/big.k" "$dir/big.md" -o "$dir/n.elf")
n_t=$1 n_rss=$2

echo
echo "thread discovery: amd64 minidump of $mem, fixture kernel (--kernel-out)"
row "dumpinfo --ps, 8 threads (baseline)" "${s_t} s" "peak RSS $s_rss KiB"
row "dumpinfo --ps, $N threads" "${b_t} s" \
    "peak RSS $b_rss KiB: $(awk -v a="$b_rss" -v b="$s_rss" -v n="$N" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }') bytes a thread over the baseline; goal < 1 s"
row "dumpconv --kernel --no-threads, $N" "${n_t} s" "peak RSS $n_rss KiB (baseline)"
row "dumpconv --kernel, $N threads' notes" "${c_t} s" \
    "peak RSS $c_rss KiB; notes $(( $(stat -c %s "$dir/t.elf") - $(stat -c %s "$dir/n.elf") )) bytes"
