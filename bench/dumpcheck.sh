#!/bin/sh
# dumpcheck.sh -- the speed of dumpcheck, next to baselines measured in
# the same run, printed as one table:
#
#  1. An amd64 version 3 dump of $BENCH_DUMPED (8G) dumped pages of a
#     $BENCH_MEM (10G) machine.  The full check (every page read), the
#     full check with --checksum and with --pattern, each against
#     `cat FILE > /dev/null`, page cache warm (one cat first), best and
#     median of $BENCH_REPEAT.  The issue's bound: full <= 1.5 x cat.
#  2. --quick on a dump of a 1 TiB machine (--mem 1T --dumped 64M
#     --sparse): time and peak RSS, next to the bitmap and page-table
#     sizes it is proportional to.
#
# Environment: DUMPGEN, DUMPCHECK (the programs), BENCH_REPEAT,
# BENCH_DUMPED, BENCH_MEM, BENCH_DIR (scratch parent; default $TMPDIR,
# else $BENCH_B/bench).  Files are removed once measured, the scratch
# directory at the end.
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPCHECK=${DUMPCHECK:-$B/bin/dumpcheck}
REPEAT=${BENCH_REPEAT:-3}
DUMPED=${BENCH_DUMPED:-8G}
MEM=${BENCH_MEM:-10G}
SEED=7

if [ -n "${BENCH_DIR:-}" ]; then
	parent=$BENCH_DIR
elif [ -n "${TMPDIR:-}" ]; then
	parent=$TMPDIR
else
	parent=$B/bench
fi
mkdir -p "$parent"
dir=$(mktemp -d "$parent/dumpcheck-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'rm -rf "$dir"; exit 130' INT TERM

now_ns() {
	date +%s%N
}

secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

best() {
	sort -g | head -n 1
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

mib() {
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b;
	    else print "-" }'
}

row() {
	printf '  %-46s %12s  %s\n' "$1" "$2" "${3:-}"
}

# time_it FILE.t COMMAND...: append the command's seconds to FILE.t.
# dumpcheck exits 1 on findings; only 2 and 3 are failures here.
time_it() {
	out=$1
	shift
	t0=$(now_ns)
	rc=0
	"$@" > /dev/null 2>&1 || rc=$?
	t1=$(now_ns)
	if [ "$rc" -ge 2 ]; then
		echo "bench: $* failed (exit $rc)" >&2
		exit 1
	fi
	secs "$t0" "$t1" >> "$out"
	echo >> "$out"
}

echo "bench: scratch directory $dir"
big=$dir/amd64-v3-$DUMPED.dmp
"$DUMPGEN" --arch amd64 --version 3 --mem "$MEM" --dumped "$DUMPED" \
    --seed "$SEED" -q -o "$big"
size=$(stat -c %s "$big")

# --- 1. full checks next to cat, page cache warm ---------------------------
cat "$big" > /dev/null
"$DUMPCHECK" --no-progress "$big" > /dev/null || true
for t in cat full sum pat; do
	: > "$dir/$t.t"
done
i=0
while [ "$i" -lt "$REPEAT" ]; do
	time_it "$dir/cat.t" sh -c 'cat "$1" > /dev/null' sh "$big"
	time_it "$dir/full.t" "$DUMPCHECK" --no-progress "$big"
	time_it "$dir/sum.t" "$DUMPCHECK" --no-progress --checksum "$big"
	time_it "$dir/pat.t" "$DUMPCHECK" --no-progress --pattern "$SEED" \
	    "$big"
	i=$((i + 1))
done
verdict=$("$DUMPCHECK" --no-progress --pattern "$SEED" "$big" | tail -n 1)
rss=-
if [ -x /usr/bin/time ]; then
	rss=$(/usr/bin/time -f %M "$DUMPCHECK" --no-progress "$big" 2>&1 \
	    > /dev/null | tail -n 1)
fi
for t in cat full sum pat; do
	eval "${t}_best=\$(best < \"\$dir/$t.t\")"
	eval "${t}_med=\$(median < \"\$dir/$t.t\")"
done
rm -f "$big"

# --- 2. --quick on a dump of a 1 TiB machine -------------------------------
huge=$dir/amd64-v3-1T.dmp
"$DUMPGEN" --arch amd64 --version 3 --mem 1T --dumped 64M --sparse -q \
    -o "$huge"
huge_size=$(stat -c %s "$huge")
json=$("$DUMPCHECK" --json --quick "$huge" || true)
: > "$dir/quick.t"
i=0
while [ "$i" -lt "$REPEAT" ]; do
	time_it "$dir/quick.t" "$DUMPCHECK" --quick "$huge"
	i=$((i + 1))
done
quick_best=$(best < "$dir/quick.t")
quick_med=$(median < "$dir/quick.t")
qrss=-
if [ -x /usr/bin/time ]; then
	qrss=$(/usr/bin/time -f %M "$DUMPCHECK" --quick "$huge" 2>&1 \
	    > /dev/null | tail -n 1)
fi
qverdict=$("$DUMPCHECK" --quick "$huge" | tail -n 1)
bitmapsize=$(od -An -t u4 -j 32 -N 4 "$huge" | tr -d ' ')
pmapsize=$(od -An -t u4 -j 36 -N 4 "$huge" | tr -d ' ')
bytes_read=$(echo "$json" | awk -F'[:,]' '/"bytes_read"/ { gsub(/ /, "", $2);
    print $2; exit }')
rm -f "$huge"

echo
echo "dumpcheck benchmarks ($(uname -m), $(nproc) CPUs; best of $REPEAT," \
    "median in brackets)"
echo
echo "amd64 v3 dump: --mem $MEM --dumped $DUMPED: $(mib "$size") MiB" \
    "(zero pages are holes); page cache warm"
row "cat FILE > /dev/null (baseline)" "${cat_best} s" "[${cat_med} s]"
row "dumpcheck FILE (every page read)" "${full_best} s" \
    "[${full_med} s] x$(ratio "$full_best" "$cat_best") of cat, peak RSS $rss KiB"
row "dumpcheck --checksum FILE" "${sum_best} s" \
    "[${sum_med} s] x$(ratio "$sum_best" "$cat_best") of cat"
row "dumpcheck --pattern $SEED FILE" "${pat_best} s" \
    "[${pat_med} s] x$(ratio "$pat_best" "$cat_best") of cat"
row "verdict" "" "$verdict"
echo
echo "--quick on a dump of a 1 TiB machine (--mem 1T --dumped 64M --sparse," \
    "$(mib "$huge_size") MiB file)"
row "bitmap section" "$(mib "$bitmapsize") MiB"
row "page-table area" "$(mib "$pmapsize") MiB"
row "dumpcheck --quick FILE" "${quick_best} s" \
    "[${quick_med} s] page data read: $bytes_read bytes, peak RSS $qrss KiB"
row "verdict" "" "$qverdict"
