#!/bin/sh
# kdumpcheck.sh -- dumpcheck --checksum of a kdump-compressed file (every
# page read and decompressed, formats/check_kdump.c) next to baselines
# measured in the same run on the same file, page cache warm (one cat
# first), best and median of $BENCH_REPEAT:
#
#   cat FILE > /dev/null
#   makedumpfile -E FILE OUT   (the issue's baseline: makedumpfile 1.7.2
#                               refuses it, "'-E' option is disable,
#                               because FILE is kdump compressed format";
#                               the row says so when it does)
#   makedumpfile -d 31 FILE OUT  (a re-filter that reads and decompresses
#                               every page and writes them uncompressed,
#                               OUT in the scratch directory)
#
# FILE: $BENCH_KDUMP, default the makedumpfile -c -d 31 file of
# ../shared/real-dumps/make-real-dumps.sh (16 MB) and its uncompressed
# twin when present; without one the table says it was skipped.
# Environment: DUMPCHECK, BENCH_REPEAT, BENCH_KDUMP, BENCH_DIR.
set -eu

B=${BENCH_B:-build}
DUMPCHECK=${DUMPCHECK:-$B/bin/dumpcheck}
REPEAT=${BENCH_REPEAT:-3}
REAL=/tmp/realdumps/dumps/mdf
FILES=${BENCH_KDUMP:-"$REAL/mdf-zlib-d31.kdump $REAL/mdf-none-d31.kdump"}
parent=${BENCH_DIR:-${TMPDIR:-/tmp}}
dir=$(mktemp -d "$parent/kdumpcheck-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

now_ns() { date +%s%N; }
row() { printf '  %-46s %12s  %s\n' "$1" "$2" "${3:-}"; }
stat_of() {	# FILE.t: "best median"
	sort -g "$1" | awk '{ v[NR] = $1 } END {
	    printf "%.3f %.3f", v[1], v[int((NR + 1) / 2)] }'
}
# time_it FILE.t COMMAND...: the command's seconds appended; its status.
time_it() {
	out=$1
	shift
	t0=$(now_ns)
	rc=0
	"$@" > /dev/null 2>&1 || rc=$?
	t1=$(now_ns)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' \
	    >> "$out"
	return "$rc"
}

echo "dumpcheck --checksum of kdump-compressed files ($REPEAT runs, best / median seconds)"
for f in $FILES; do
	if [ ! -f "$f" ]; then
		row "$(basename "$f")" "skipped" "(no such file)"
		continue
	fi
	cat "$f" > /dev/null
	rm -f "$dir"/*.t
	e_rc=0
	for _ in $(seq "$REPEAT"); do
		time_it "$dir/cat.t" sh -c 'cat "$1" > /dev/null' sh "$f"
		time_it "$dir/sum.t" "$DUMPCHECK" --no-progress --checksum "$f"
		if command -v makedumpfile > /dev/null; then
			rm -f "$dir/out.elf" "$dir/out.kdump"
			time_it "$dir/mdfE.t" makedumpfile -E "$f" \
			    "$dir/out.elf" || e_rc=$?
			rm -f "$dir/out.elf"
			time_it "$dir/mdf.t" makedumpfile -d 31 "$f" \
			    "$dir/out.kdump" || true
			rm -f "$dir/out.kdump"
		fi
	done
	echo "$(basename "$f") ($(stat -c %s "$f") bytes)"
	row "cat > /dev/null" "$(stat_of "$dir/cat.t")"
	row "dumpcheck --checksum" "$(stat_of "$dir/sum.t")" \
	    "x$(awk -v a="$(stat_of "$dir/sum.t" | cut -d' ' -f1)" \
	    -v b="$(stat_of "$dir/cat.t" | cut -d' ' -f1)" \
	    'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }') cat"
	if [ -f "$dir/mdf.t" ]; then
		if [ "$e_rc" -ne 0 ]; then
			row "makedumpfile -E FILE OUT" "refused" \
			    "(makedumpfile $(makedumpfile -v 2>&1 | head -1 |
			    awk '{ print $3 }'): exit $e_rc)"
		else
			row "makedumpfile -E FILE OUT" \
			    "$(stat_of "$dir/mdfE.t")"
		fi
		row "makedumpfile -d 31 FILE OUT" "$(stat_of "$dir/mdf.t")" \
		    "dumpcheck x$(awk -v a="$(stat_of "$dir/sum.t" |
		    cut -d' ' -f1)" -v b="$(stat_of "$dir/mdf.t" |
		    cut -d' ' -f1)" 'BEGIN { printf "%.2f", a / b }')"
	else
		row "makedumpfile" "skipped" "(not installed)"
	fi
done
