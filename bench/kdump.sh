#!/bin/sh
# kdump.sh -- the kdump writer next to makedumpfile and zstd, the same
# input, the same run (issue 14); called by run.sh.
#
# Input: a Linux ELF vmcore of $BENCH_KDUMP_MEM (4G) of RAM that
# makedumpfile reads, made once off the clock by bench/mkvmcore.py from
# the real kernel's notes and page tables (dumpconv --to elf of
# tests/data/linux/real-x86_64.kdump.xz) and made-up pages, about 45%
# zero; or $BENCH_KDUMP_ELF if set (e.g. make-real-dumps.sh's
# mdf/mdf-d31.elf).  Both tools convert that ELF.  Timed, best and
# median of $BENCH_REPEAT, page cache warm, each output durable
# (dumpconv fsyncs; makedumpfile and zstd are followed by sync FILE):
#   makedumpfile -c -d 1 (zlib level 1, zero pages left out);
#   dumpconv --to kdump --compress zlib:1 with 1 and 2 threads;
#   dumpconv --compress zstd:3 with 1 and 2 threads next to
#   zstd -3 -T1 of the raw pages (the ELF, whole-stream: the floor).
# The 1- and 2-thread runs alternate, $BENCH_REPEAT of each but at least
# 5, so that the machine's load weighs on both alike; each row gives the
# best and median wall time and the median CPU time (user + system,
# bench/maxrss -u), and a row the 2-thread speedup: median 1-thread time
# over median 2-thread time, and the same of the CPU times (what the
# second thread costs in work: 1.00 is none), with the load average
# before and after.  BENCH_KDUMP_READ=0 leaves out the reading rows.
# Reading (the issue's row): dumpcheck --checksum of makedumpfile's own
# kdump-zlib file of that input (every page read, decompressed and
# hashed) next to makedumpfile -E of the same file; makedumpfile 1.7.2
# refuses -E of a kdump-compressed file ("'-E' option is disable"), which
# the row then says, so the baselines that read the same pages are
# makedumpfile -F -d 0 FILE > /dev/null (every page read and decompressed,
# written uncompressed to /dev/null as flattened records) and
# makedumpfile -d 0 FILE OUT + sync OUT, and next to them what -E would
# have written, dumpconv --to elf FILE (fsynced).  Then the portable
# file of that kdump file (source kind 5) and its way back, checked.
# Peak RSS of each (bench/maxrss) and the output sizes.
set -eu

B=${BENCH_B:-build}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
DUMPCHECK=${DUMPCHECK:-$B/bin/dumpcheck}
MAXRSS=${MAXRSS:-$B/bench/maxrss}
REPEAT=${BENCH_REPEAT:-3}
KMEM=${BENCH_KDUMP_MEM:-4G}
ELF=${BENCH_KDUMP_ELF:-}
SRC=$(cd "$(dirname "$0")/.." && pwd)

row() {
	printf '  %-44s %14s  %s\n' "$1" "$2" "${3:-}"
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}
mib() {
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'
}
# The machine is shared: the load average next to the figures it weighs on.
load() {
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

echo
if ! command -v makedumpfile >/dev/null 2>&1 ||
    ! command -v zstd >/dev/null 2>&1; then
	row "kdump rows" "skipped" "(needs makedumpfile and zstd)"
	exit 0
fi
dir=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/dkbench-kdump.XXXXXX")
trap 'rm -rf "$dir"' EXIT
if [ -z "$ELF" ]; then
	xz -dc "$SRC/tests/data/linux/real-x86_64.kdump.xz" > "$dir/real.kdump"
	"$DUMPCONV" -q --to elf "$dir/real.kdump" -o "$dir/real.elf" &&
	    python3 "$SRC/bench/mkvmcore.py" "$dir/real.elf" "$KMEM" \
	    "$dir/in.elf" || { row "bench/mkvmcore.py" "failed" ""; exit 0; }
	ELF=$dir/in.elf
fi
echo "kdump writer (issue 14): $ELF"
raw=$ELF
cat "$ELF" > /dev/null

# best_med NAME CMD...: run CMD $REPEAT times (the output $dir/out
# removed before each, off the clock); sets best, med (s), rss (KiB of
# the best run) and size (of $dir/out).
best_med() {
	name=$1; shift
	: > "$dir/times"
	i=0
	while [ $i -lt "$REPEAT" ]; do
		rm -f "$dir/out"
		"$MAXRSS" "$@" >> "$dir/times" 2>/dev/null || {
			echo "bench: $name failed" >&2; return 1; }
		i=$((i + 1))
	done
	best=$(sort -n "$dir/times" | head -n 1 | cut -d' ' -f1)
	rss=$(sort -n "$dir/times" | head -n 1 | cut -d' ' -f2)
	med=$(sort -n "$dir/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	size=$(stat -c %s "$dir/out" 2>/dev/null || echo 0)
}

# makedumpfile ARGS... IN OUT, then sync OUT (a command maxrss runs).
MDF='makedumpfile "$@" >/dev/null 2>&1 && eval "sync \"\${$#}\""'

echo "input: $(mib "$(stat -c %s "$ELF")") MiB ELF, $(mib $(($(stat -c %b "$ELF") * 512))) MiB allocated; $(nproc) CPUs, $(load)"
best_med mdf sh -c "$MDF" sh -c -d 1 "$raw" "$dir/out"
m_best=$best; m_size=$size
mv "$dir/out" "$dir/mdf.kdump"		# the kdump-zlib file the reads read
row "makedumpfile -c -d 1 (baseline)" "${best} s" "[${med} s] ${rss} KiB, $(mib "$size") MiB"
# threads CODEC: dumpconv --to kdump --compress CODEC with --threads 1
# and 2, alternating, $TREPEAT runs of each; sets, for T in 1 2, bT,
# mT (best, median wall s), cT (median CPU s), rT (KiB of the best run)
# and sT (output bytes), and l0, l1 (the load average before, after).
TREPEAT=$REPEAT
[ "$TREPEAT" -ge 5 ] || TREPEAT=5
med_of() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
threads() {
	: > "$dir/t1"; : > "$dir/t2"
	l0=$(cut -d' ' -f1 /proc/loadavg)
	i=0
	while [ $i -lt "$TREPEAT" ]; do
		for t in 1 2; do
			rm -f "$dir/out"
			"$MAXRSS" -u "$DUMPCONV" -q --to kdump --compress "$1" \
			    --threads $t "$raw" -o "$dir/out" >> "$dir/t$t" \
			    2>/dev/null || {
				echo "bench: dumpconv $1 --threads $t failed" >&2
				return 1; }
			eval "s$t=$(stat -c %s "$dir/out")"
		done
		i=$((i + 1))
	done
	l1=$(cut -d' ' -f1 /proc/loadavg)
	for t in 1 2; do
		eval "b$t=$(sort -n "$dir/t$t" | head -n 1 | cut -d' ' -f1)"
		eval "r$t=$(sort -n "$dir/t$t" | head -n 1 | cut -d' ' -f2)"
		eval "m$t=$(cut -d' ' -f1 "$dir/t$t" | med_of)"
		eval "c$t=$(cut -d' ' -f3 "$dir/t$t" | med_of)"
	done
}
# speedup CODEC: the 2-thread row.
speedup() {
	row "dumpconv $1 speedup, 2 threads" "$(ratio "$m1" "$m2")x" \
	    "median 1-thread/2-thread time, $TREPEAT alternating runs each; CPU $(ratio "$c2" "$c1")x of 1 thread's; load average $l0 before, $l1 after"
}
threads zlib:1
for t in 1 2; do
	eval "best=\$b$t med=\$m$t cpu=\$c$t rss=\$r$t size=\$s$t"
	row "dumpconv --to kdump zlib:1 --threads $t" "${best} s" \
	    "[${med} s, CPU ${cpu} s] ${rss} KiB, $(mib "$size") MiB; makedumpfile/dumpconv $(ratio "$m_best" "$best"), size $(ratio "$size" "$m_size")"
done
speedup zlib:1
best_med zstd sh -c 'zstd -q -3 -T1 -c "$1" > "$2" && sync "$2"' sh \
    "$ELF" "$dir/out"
s_best=$best; s_size=$size
row "zstd -3 -T1 of the raw pages (floor)" "${best} s" "[${med} s] ${rss} KiB, $(mib "$size") MiB"
threads zstd:3
for t in 1 2; do
	eval "best=\$b$t med=\$m$t cpu=\$c$t rss=\$r$t size=\$s$t"
	row "dumpconv --to kdump zstd:3 --threads $t" "${best} s" \
	    "[${med} s, CPU ${cpu} s] ${rss} KiB, $(mib "$size") MiB; dumpconv/zstd $(ratio "$best" "$s_best"), size $(ratio "$size" "$s_size")"
done
speedup zstd:3
if [ "${BENCH_KDUMP_READ:-1}" = 0 ]; then
	echo "end of bench/kdump.sh (reading rows left out): $(load)"
	exit 0
fi

# --- reading makedumpfile's kdump-zlib file -------------------------------
kd=$dir/mdf.kdump
cat "$kd" > /dev/null
echo "reading makedumpfile's kdump-zlib file: $(mib "$(stat -c %s "$kd")") MiB," \
    "$(load)"
best_med cat sh -c 'cat "$1" > /dev/null' sh "$kd"
row "cat FILE > /dev/null" "${best} s" "[${med} s]"
best_med dumpcheck sh -c '"$1" --no-progress --checksum "$2" > /dev/null' \
    sh "$DUMPCHECK" "$kd"
c_best=$best
row "dumpcheck --checksum FILE" "${best} s" "[${med} s] ${rss} KiB"
rm -f "$dir/out"
if e_msg=$(makedumpfile -E "$kd" "$dir/out" 2>&1); then
	best_med mdf-E sh -c "$MDF" sh -E "$kd" "$dir/out"
	row "makedumpfile -E FILE OUT (baseline)" "${best} s" \
	    "[${med} s] ${rss} KiB; makedumpfile/dumpcheck $(ratio "$best" "$c_best")"
else
	e_msg=$(echo "$e_msg" | sed -n "s|.*\('-E' option.*\)|\1|p" |
	    sed "s|$kd|FILE|g")
	row "makedumpfile -E FILE OUT" "refused" "(makedumpfile $(makedumpfile \
	    -v 2>&1 | awk 'NR == 1 { print $3 }'): ${e_msg:-failed})"
fi
best_med mdf-F sh -c 'makedumpfile -F -d 0 "$1" > /dev/null 2>&1' sh "$kd"
row "makedumpfile -F -d 0 > /dev/null (baseline)" "${best} s" \
    "[${med} s] ${rss} KiB; makedumpfile/dumpcheck $(ratio "$best" "$c_best")"
best_med mdf-d0 sh -c "$MDF" sh -d 0 "$kd" "$dir/out"
row "makedumpfile -d 0 FILE OUT, sync OUT" "${best} s" \
    "[${med} s] ${rss} KiB, $(mib "$size") MiB"
d0_best=$best
best_med dumpconv-elf "$DUMPCONV" -q --to elf "$kd" -o "$dir/out"
row "dumpconv --to elf FILE -o OUT (fsyncs)" "${best} s" \
    "[${med} s] ${rss} KiB, $(mib "$size") MiB"
# The portable file of makedumpfile's file (source kind 5: every page
# decoded, the encoders found) next to makedumpfile -d 0 (every page
# decoded and written as it is); its way back (every page re-encoded
# with compress2 level 1) next to makedumpfile -c -d 1 (every page
# encoded with compress2 level 1), and checked byte for byte.
best_med dumpconv-port "$DUMPCONV" -q "$kd" -o "$dir/out"
row "dumpconv FILE -o PORTABLE (fsyncs)" "${best} s" \
    "[${med} s] ${rss} KiB, $(mib "$size") MiB; /makedumpfile -d 0 $(ratio "$best" "$d0_best")"
mv "$dir/out" "$dir/port.elf"
best_med dumpconv-back "$DUMPCONV" -q --to native "$dir/port.elf" -o "$dir/out"
if cmp -s "$dir/out" "$kd"; then same="the same bytes"; else same="NOT THE SAME BYTES"; fi
row "dumpconv --to native PORTABLE -o OUT (fsyncs)" "${best} s" \
    "[${med} s] ${rss} KiB, $same; /makedumpfile -c -d 1 $(ratio "$best" "$m_best")"
rm -f "$dir/port.elf"
echo "end of bench/kdump.sh: $(load)"
