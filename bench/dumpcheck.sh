#!/bin/sh
# dumpcheck.sh -- the speed of dumpcheck, next to baselines measured in
# the same run, printed as one table:
#
#  1. An amd64 version 3 dump of $BENCH_DUMPED (8G) dumped pages of a
#     $BENCH_MEM (10G) machine.  The full check (every page read), the
#     full check with --checksum and with --pattern, each against
#     `cat FILE > /dev/null`, page cache warm (one cat first), best and
#     median of $BENCH_REPEAT.  The issue's bound: full <= 1.5 x cat.
#  2. --quick on dumps of huge machines, $BENCH_HUGE (1T 16T 64T) of RAM
#     with 64 MiB dumped (--dumped 64M --sparse): time and peak RSS,
#     next to dd reading the bitmap section (the bytes it must read) and
#     to the bitmap and page-table sizes.
#
# Environment: DUMPGEN, DUMPCHECK, MAXRSS (the programs), BENCH_REPEAT,
# BENCH_DUMPED, BENCH_MEM, BENCH_HUGE, BENCH_DIR (scratch parent; default
# $TMPDIR, else $BENCH_B/bench), BENCH_TRASH_MAX.  No removal is timed,
# and the costly ones are not waited for: see bench/scratch.sh.
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPCHECK=${DUMPCHECK:-$B/bin/dumpcheck}
MAXRSS=${MAXRSS:-$B/bench/maxrss}
HUGE=${BENCH_HUGE:-1T 16T 64T}
REPEAT=${BENCH_REPEAT:-3}
DUMPED=${BENCH_DUMPED:-8G}
MEM=${BENCH_MEM:-10G}
SEED=7

. "$(dirname "$0")/scratch.sh"
parent=$(scratch_parent)
scratch_init "$parent" dumpcheck-bench

secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

best() {
	sort -g | head -n 1
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
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

echo "bench: scratch directory $dir, on $(scratch_where "$dir")"
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
discard "$big"

# --- 2. --quick on dumps of huge machines ---------------------------------
# maxrss RESULT: "SECONDS KIB" of dumpcheck --quick FILE (exit 1 is fine:
# findings); the bitmap section read by dd is the baseline.
: > "$dir/huge.rows"
for h in $HUGE; do
	huge=$dir/amd64-v3-$h.dmp
	"$DUMPGEN" --arch amd64 --version 3 --mem "$h" --dumped 64M --sparse \
	    -q -o "$huge"
	json=$("$DUMPCHECK" --json --quick "$huge" || true)
	bitmapsize=$(od -An -t u4 -j 32 -N 4 "$huge" | tr -d ' ')
	pmapsize=$(od -An -t u4 -j 36 -N 4 "$huge" | tr -d ' ')
	# amd64 v3: header page, msgbuf (msgbufsize at 28), dump_avail
	# (dumpavailsize at 64), each rounded to pages, then the bitmap.
	msgbufsize=$(od -An -t u4 -j 28 -N 4 "$huge" | tr -d ' ')
	availsize=$(od -An -t u4 -j 64 -N 4 "$huge" | tr -d ' ')
	bm_off=$(( 4096 + (msgbufsize + 4095) / 4096 * 4096 +
	    (availsize + 4095) / 4096 * 4096 ))
	cat "$huge" > /dev/null
	: > "$dir/quick.t"
	: > "$dir/dd.t"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		time_it "$dir/dd.t" dd if="$huge" of=/dev/null bs=1M \
		    iflag=skip_bytes,count_bytes skip="$bm_off" \
		    count="$bitmapsize" status=none
		r=$("$MAXRSS" sh -c 'exec "$@" > /dev/null' sh "$DUMPCHECK" \
		    --quick "$huge") || [ $? -eq 1 ]
		echo "${r%% *}" >> "$dir/quick.t"
		qrss=${r#* }
		i=$((i + 1))
	done
	qverdict=$("$DUMPCHECK" --quick "$huge" | tail -n 1)
	bytes_read=$(echo "$json" | awk -F'[:,]' '/"bytes_read"/ {
	    gsub(/ /, "", $2); print $2; exit }')
	echo "$h|$(stat -c %s "$huge")|$bitmapsize|$pmapsize|$(best < \
	    "$dir/dd.t")|$(best < "$dir/quick.t") $(median < \
	    "$dir/quick.t")|$qrss|$bytes_read|$qverdict" >> "$dir/huge.rows"
	discard "$huge"
done

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
echo "--quick on dumps of huge machines (--dumped 64M --sparse), page cache" \
    "warm"
while IFS='|' read -r h hsize bm pm ddb q qrss nread verdict; do
	set -- $q
	row "$h RAM: bitmap $(mib "$bm") MiB, page tables $(mib "$pm") MiB," \
	    "" "a $(mib "$hsize") MiB file"
	row "  dd of the bitmap section (baseline)" "${ddb} s"
	n="[$2 s] x$(ratio "$1" "$ddb") of dd; page data read: $nread bytes,"
	row "  dumpcheck --quick FILE" "$1 s" "$n peak RSS $qrss KiB"
	row "  verdict" "" "$verdict"
done < "$dir/huge.rows"
echo
echo "cleanup: $(scratch_summary)"
