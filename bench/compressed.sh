#!/bin/sh
# compressed.sh -- compressed inputs next to their decoders (issue 17),
# every row with its baseline measured in the same run:
#
#  An amd64 dump of --mem $BENCH_Z_MEM (1G), compressed by `zstd -3`,
#  `gzip -1` and `xz -1 -T1`.  For each: the decoder alone (`zstd -dc F
#  > /dev/null`, the baseline), the decoder into a file followed by
#  `sync FILE` (dumpconv's output is durable: the baseline of -o OUT),
#  `dumpconv F -o OUT` (fsynced, renamed), `dumpconv F -o - > /dev/null`
#  and `dumpcheck --checksum F`; and the same three on the uncompressed
#  dump, for reference.  The commands alternate, $BENCH_REPEAT (3)
#  rounds, page cache warm; the median is printed, the best in brackets,
#  and each dumpkit row its ratio to the decoder (goal: at most 1.2).
#  A zstd file whose frames declare their size is read in one pass; the
#  last column is what DUMPKIT_TRACE says the stream did (bytes spooled
#  to a temporary file: 0 in one pass), or "spool" for the other path.
#
# BENCH_BASE_BIN, a directory holding another build's dumpconv and
# dumpcheck (another branch's: the figures before a change), adds their
# rows, timed in the same rounds, alternating with the others.
#
# Environment: DUMPGEN, DUMPCONV, DUMPCHECK, BENCH_REPEAT, BENCH_Z_MEM,
# BENCH_BASE_BIN, BENCH_DIR (scratch parent; default $TMPDIR, else
# $BENCH_B/bench).  The scratch (and TMPDIR of the tools, where a spool
# goes) is there.
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
DUMPCHECK=${DUMPCHECK:-$B/bin/dumpcheck}
REPEAT=${BENCH_REPEAT:-3}
ZMEM=${BENCH_Z_MEM:-1G}
BASE=${BENCH_BASE_BIN:-}

. "$(dirname "$0")/scratch.sh"
parent=$(scratch_parent)
scratch_init "$parent" dumpkit-z
TMPDIR=$dir
export TMPDIR

row() {
	printf '  %-44s %8s s [%s]  %s\n' "$1" "$(tmed "$2")" "$(tbest "$2")" "${3:-}"
}
# tosync FILE CMD...: CMD's output into FILE, then sync FILE.
tosync() {
	f=$1
	shift
	"$@" > "$f" && sync "$f"
}
# spooled FILE: what the one-pass stream said, else "spool".
spooled() {
	l=$(DUMPKIT_TRACE=1 "$DUMPCONV" -q "$1" -o - 2>&1 > /dev/null |
	    grep "one pass:" || true)
	if [ -n "$l" ]; then
		echo "$l" | sed 's/.*one pass: //'
	else
		echo "spool (a temporary file in TMPDIR)"
	fi
}

plain=$dir/m.dump
"$DUMPGEN" -a amd64 --mem "$ZMEM" -q -o "$plain"
zstd -3 -q -c "$plain" > "$plain.zst"
gzip -1 -c "$plain" > "$plain.gz"
xz -1 -T1 -c "$plain" > "$plain.xz"
cat "$plain" "$plain.zst" "$plain.gz" "$plain.xz" > /dev/null
i=0
while [ "$i" -lt "$REPEAT" ]; do
	t plain.conv "$DUMPCONV" -q "$plain" -o "$dir/out"
	discard "$dir/out"
	t plain.stdout "$DUMPCONV" -q "$plain" -o -
	t plain.ck "$DUMPCHECK" --checksum "$plain"
	for z in zst gz xz; do
		case $z in
		zst) dec="zstd -q -dc" ;;
		gz) dec="gzip -dc" ;;
		xz) dec="xz -dc" ;;
		esac
		t "$z.dec" $dec "$plain.$z"
		t "$z.decsync" tosync "$dir/dec.out" $dec "$plain.$z"
		discard "$dir/dec.out"
		t "$z.conv" "$DUMPCONV" -q "$plain.$z" -o "$dir/out"
		discard "$dir/out"
		t "$z.stdout" "$DUMPCONV" -q "$plain.$z" -o -
		t "$z.ck" "$DUMPCHECK" --checksum "$plain.$z"
		[ -n "$BASE" ] || continue
		t "$z.bconv" "$BASE/dumpconv" -q "$plain.$z" -o "$dir/out"
		discard "$dir/out"
		t "$z.bstdout" "$BASE/dumpconv" -q "$plain.$z" -o -
		t "$z.bck" "$BASE/dumpcheck" --checksum "$plain.$z"
	done
	i=$((i + 1))
done

echo
echo "compressed inputs next to their decoders: amd64 --mem $ZMEM," \
    "$(stat -c %s "$plain") bytes; median of $REPEAT alternating runs," \
    "best in brackets; scratch and TMPDIR $dir, on $(scratch_where "$dir")"
row "dumpconv FILE -o OUT (uncompressed)" plain.conv
row "dumpconv FILE -o - (uncompressed)" plain.stdout
row "dumpcheck --checksum FILE (uncompressed)" plain.ck
for z in zst gz xz; do
	case $z in
	zst) dec="zstd -dc" ;;
	gz) dec="gzip -dc" ;;
	xz) dec="xz -dc" ;;
	esac
	d=$(tmed "$z.dec")
	ds=$(tmed "$z.decsync")
	echo "  $z ($(stat -c %s "$plain.$z") bytes): $(spooled "$plain.$z")"
	row "$dec FILE > /dev/null (baseline)" "$z.dec"
	row "$dec FILE > F; sync F (baseline of -o OUT)" "$z.decsync"
	row "dumpconv FILE.$z -o OUT" "$z.conv" \
	    "x$(ratio "$(tmed "$z.conv")" "$d") of $dec, x$(ratio "$(tmed "$z.conv")" "$ds") of it + sync"
	row "dumpconv FILE.$z -o - > /dev/null" "$z.stdout" \
	    "x$(ratio "$(tmed "$z.stdout")" "$d") of $dec (goal: 1.2)"
	row "dumpcheck --checksum FILE.$z" "$z.ck" \
	    "x$(ratio "$(tmed "$z.ck")" "$d") of $dec (goal: 1.2)"
	[ -n "$BASE" ] || continue
	row "  before: dumpconv FILE.$z -o OUT" "$z.bconv" \
	    "x$(ratio "$(tmed "$z.bconv")" "$d") of $dec, x$(ratio "$(tmed "$z.bconv")" "$ds") of it + sync"
	row "  before: dumpconv FILE.$z -o -" "$z.bstdout" \
	    "x$(ratio "$(tmed "$z.bstdout")" "$d") of $dec"
	row "  before: dumpcheck --checksum FILE.$z" "$z.bck" \
	    "x$(ratio "$(tmed "$z.bck")" "$d") of $dec"
done
[ -z "$BASE" ] || echo "  (before: $BASE)"
echo "cleanup: $(scratch_summary)"
