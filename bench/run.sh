#!/bin/sh
# run.sh -- the benchmarks of `make bench`, each next to a baseline
# measured in the same run, printed as one table.
#
#  1. dumpgen writes an amd64 version 3 dump of $BENCH_DUMPED (8G) dumped
#     pages of a $BENCH_MEM (10G) machine; three pages in four are zero
#     and become holes.  Baseline: dd writing (and fsyncing, as dumpgen
#     does) as many bytes as the dump's allocated blocks.
#  2. Sequential read of every dumped page (readall --mode all: each run
#     with dk_read_pa in 1 MiB chunks) against `cat FILE > /dev/null`,
#     both with the page cache warm (one cat first), each timed
#     $BENCH_REPEAT times; best and median, ratio readall/cat.
#  3. Random page reads and kvtop lookups on the same dump.
#  4. Peak RSS of opening a dump of a 1 TiB machine (--mem 1T --dumped
#     64M --sparse) with dumpinfo and with readall --mode open, next to
#     the bitmap and pmap sizes, and to the RSS of opening a 32 MiB dump
#     (the constant part); and of converting it with dumpconv.
#  5. dumpconv of the dump of 1. to the portable ELF minidump, next to
#     `cp --sparse=always` of the same file, both with the page cache
#     warm, alternating, each timed $BENCH_REPEAT times (dumpconv also
#     fsyncs its output; a line gives cp followed by `sync FILE` too);
#     best, median, ratio dumpconv/cp; then the way back (--to native).
#  6. Runs: dumps of --mem 2G, 4G and 8G with --alternate (every other
#     page dumped: a quarter, half and one million runs) converted, next
#     to a dump of about as many dumped pages in a few contiguous runs;
#     time per run, and peak RSS next to the bitmap and pmap sizes.  All
#     --sparse: the pages are holes, so the times are the per-run cost
#     (program headers, extent lookups), not the copying.
#
#  7. Compressed dumps: the dump of 1.'s sizes, regenerated, compressed
#     by `gzip -6 -n` and `zstd -3` (the kernel's and the tools' default
#     levels); dumpconv of each to the portable ELF minidump (one
#     decompression pass into a sparse temporary file in TMPDIR, set to
#     the scratch directory, then the conversion) next to `gzip -dc` and
#     `zstd -dc` of the same file to /dev/null, and next to dumpconv of
#     the uncompressed dump; best of $BENCH_REPEAT, page cache warm.
#
# Peak RSS is measured by bench/maxrss (wait4 around the command: the
# tools' whole life), so /usr/bin/time is not needed.
#
# Environment: DUMPGEN, DUMPINFO, READALL, DUMPCONV, MAXRSS (the programs),
# BENCH_REPEAT,
# BENCH_DUMPED, BENCH_MEM, BENCH_FULL_MEM, BENCH_DIR (scratch parent; default $TMPDIR,
# else $BENCH_B/bench).  Every file is removed as soon as it has been
# measured, and the scratch directory at the end.
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPINFO=${DUMPINFO:-$B/bin/dumpinfo}
READALL=${READALL:-$B/bench/readall}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
MAXRSS=${MAXRSS:-$B/bench/maxrss}
REPEAT=${BENCH_REPEAT:-3}
DUMPED=${BENCH_DUMPED:-8G}
MEM=${BENCH_MEM:-10G}
BENCH_FULL_MEM=${BENCH_FULL_MEM:-2G}

if [ -n "${BENCH_DIR:-}" ]; then
	parent=$BENCH_DIR
elif [ -n "${TMPDIR:-}" ]; then
	parent=$TMPDIR
else
	parent=$B/bench
fi
mkdir -p "$parent"
dir=$(mktemp -d "$parent/dumpkit-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'rm -rf "$dir"; exit 130' INT TERM

now_ns() {
	date +%s%N
}

# secs START_NS END_NS
secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

# val LINE KEY: the word after KEY in a "key value" line.
val() {
	echo "$1" | awk -v k="$2" \
	    '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'
}

# best and median of the numbers on stdin
best() {
	sort -g | head -n 1
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

mbps() {
	awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", b / s / 1e6;
	    else print "-" }'
}

mib() {
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'
}

row() {
	printf '  %-44s %14s  %s\n' "$1" "$2" "${3:-}"
}

# timed CMD...: run CMD, print "SECONDS MAXRSS_KIB" (its peak RSS).
timed() {
	"$MAXRSS" "$@" || { echo "bench: $1: exit $?" >&2; return 1; }
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# jsection JSON NAME: the size of section NAME in dumpinfo --json output.
jsection() {
	echo "$1" | tr -d ' \n' | sed 's/},{/}\n{/g' |
	    awk -v n="\"name\":\"$2\"" 'index($0, n) {
		match($0, /"size":[0-9]+/);
		print substr($0, RSTART + 7, RLENGTH - 7); exit }'
}

echo "bench: scratch directory $dir"
big=$dir/amd64-v3-$DUMPED.dmp

# --- 1. dumpgen next to dd -----------------------------------------------
t0=$(now_ns)
"$DUMPGEN" --arch amd64 --version 3 --mem "$MEM" --dumped "$DUMPED" -q \
    -o "$big"
t1=$(now_ns)
gen_s=$(secs "$t0" "$t1")
size=$(stat -c %s "$big")
alloc=$(( $(stat -c %b "$big") * $(stat -c %B "$big") ))
pages=$("$DUMPINFO" --json "$big" | awk -F'[:,]' \
    '/"pages_dumped"/ { gsub(/ /, "", $2); print $2; exit }')

dd_s=-
free_kib=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
if [ $(( free_kib * 1024 )) -gt $(( alloc + (1 << 30) )) ]; then
	t0=$(now_ns)
	dd if=/dev/zero of="$dir/dd.out" bs=1M count=$(( alloc >> 20 )) \
	    conv=fsync 2> /dev/null
	t1=$(now_ns)
	dd_s=$(secs "$t0" "$t1")
	rm -f "$dir/dd.out"
fi

# --- 2. sequential reads, page cache warm --------------------------------
cat "$big" > /dev/null
"$READALL" --mode all "$big" > /dev/null
: > "$dir/cat.t"
: > "$dir/ra.t"
: > "$dir/ra-in.t"
i=0
while [ "$i" -lt "$REPEAT" ]; do
	t0=$(now_ns)
	cat "$big" > /dev/null
	t1=$(now_ns)
	secs "$t0" "$t1" >> "$dir/cat.t"
	echo >> "$dir/cat.t"
	t0=$(now_ns)
	line=$("$READALL" --mode all "$big")
	t1=$(now_ns)
	secs "$t0" "$t1" >> "$dir/ra.t"
	echo >> "$dir/ra.t"
	val "$line" seconds >> "$dir/ra-in.t"
	ra_bytes=$(val "$line" bytes)
	ra_rss=$(val "$line" maxrss_kib)
	i=$((i + 1))
done
cat_best=$(best < "$dir/cat.t")
cat_med=$(median < "$dir/cat.t")
ra_best=$(best < "$dir/ra.t")
ra_med=$(median < "$dir/ra.t")
ra_in_best=$(best < "$dir/ra-in.t")

# --- 3. random access on the same dump -----------------------------------
rnd=$("$READALL" --mode random -n 200000 "$big")
kv=$("$READALL" --mode kvtop -n 1000000 "$big")
kv_mapped=$(echo "$kv" | grep 'kvtop-mapped' || true)
kv_any=$(echo "$kv" | grep 'kvtop-any' || true)
kv_scan=$(echo "$kv" | grep 'kvtop-scan' || true)

# --- 5. dumpconv next to cp, on the same dump ------------------------------
# In memory (/dev/shm) where it has room for the dump's data three times:
# on a disk, freeing the ~500,000 small extents of each fsynced 2 GiB
# output can take a minute, and that is the file system's time, not the
# converter's.  BENCH_CONV_DIR chooses the directory.
conv_parent=${BENCH_CONV_DIR:-}
shm_kib=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
if [ -z "$conv_parent" ] && [ -n "$shm_kib" ] &&
    [ $(( shm_kib * 1024 )) -gt $(( 3 * alloc + (1 << 30) )) ]; then
	conv_parent=/dev/shm
fi
if [ -n "$conv_parent" ]; then
	cdir=$(mktemp -d "$conv_parent/dumpkit-conv.XXXXXX")
	trap 'rm -rf "$dir" "$cdir"' EXIT
	trap 'rm -rf "$dir" "$cdir"; exit 130' INT TERM
	src=$cdir/src.dmp
	cp --sparse=always "$big" "$src"
	rm -f "$big"
	where="in $conv_parent ($(stat -f -c %T "$cdir"))"
else
	cdir=$dir
	src=$big
	where="in $dir ($(stat -f -c %T "$dir"), freeing the outputs not timed)"
fi
out=$cdir/out
: > "$dir/cp.t"
: > "$dir/conv.t"
cat "$src" > /dev/null
i=0
while [ "$i" -lt "$REPEAT" ]; do
	set -- $(timed cp --sparse=always "$src" "$out")
	echo "$1" >> "$dir/cp.t"
	rm -f "$out"
	set -- $(timed "$DUMPCONV" -q "$src" -o "$out")
	echo "$1" >> "$dir/conv.t"
	conv_rss=$2
	i=$((i + 1))
	[ "$i" -lt "$REPEAT" ] && rm -f "$out"
done
conv_alloc=$(( $(stat -c %b "$out") * $(stat -c %B "$out") ))
set -- $(timed "$DUMPCONV" -q --to native "$out" -o "$cdir/back")
back_s=$1 back_rss=$2
cmp -s "$src" "$cdir/back" && back_same=identical || back_same=DIFFERENT
rm -f "$out" "$cdir/back"
set -- $(timed sh -c 'cp --sparse=always "$1" "$2" && sync "$2"' sh \
    "$src" "$out")
cps_best=$1
rm -f "$out"
json_big=$("$DUMPINFO" --json "$src")
rm -f "$src"
cp_best=$(best < "$dir/cp.t")
cp_med=$(median < "$dir/cp.t")
conv_best=$(best < "$dir/conv.t")
conv_med=$(median < "$dir/conv.t")
big_bitmap=$(jsection "$json_big" bitmap)
big_pmap=$(jsection "$json_big" pmap)
rm -f "$big"
[ "$cdir" != "$dir" ] && rm -rf "$cdir"

# --- 6. a million runs, next to a few contiguous ones ----------------------
: > "$dir/runs.t"
for m in 2G 4G 8G; do
	"$DUMPGEN" --arch amd64 --version 3 --mem "$m" --alternate --sparse -q \
	    -o "$dir/alt"
	nruns=$("$DUMPCONV" --info "$dir/alt" | awk '/^segments:/ { print $4 }')
	npg=$("$DUMPINFO" --json "$dir/alt" | awk -F'[:,]' \
	    '/"pages_dumped"/ { gsub(/ /, "", $2); print $2; exit }')
	: > "$dir/alt.t"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		set -- $(timed "$DUMPCONV" -q --force "$dir/alt" -o "$dir/alt.elf")
		echo "$1" >> "$dir/alt.t"
		rss=$2
		i=$((i + 1))
	done
	json=$("$DUMPINFO" --json "$dir/alt")
	echo "$m $nruns $npg $(best < "$dir/alt.t") $rss $(jsection "$json" bitmap) $(jsection "$json" pmap)" >> "$dir/runs.t"
	rm -f "$dir/alt" "$dir/alt.elf"
done
# About as many dumped pages, in a few runs: all of a 4 GiB machine.
alt_pages=$(awk 'END { print $3 }' "$dir/runs.t")
"$DUMPGEN" --arch amd64 --version 3 --mem 4G --dumped 5G --sparse -q \
    -o "$dir/contig"
c_runs=$("$DUMPCONV" --info "$dir/contig" | awk '/^segments:/ { print $4 }')
c_pages=$("$DUMPINFO" --json "$dir/contig" | awk -F'[:,]' \
    '/"pages_dumped"/ { gsub(/ /, "", $2); print $2; exit }')
: > "$dir/contig.t"
i=0
while [ "$i" -lt "$REPEAT" ]; do
	set -- $(timed "$DUMPCONV" -q --force "$dir/contig" -o "$dir/contig.elf")
	echo "$1" >> "$dir/contig.t"
	c_rss=$2
	i=$((i + 1))
done
c_best=$(best < "$dir/contig.t")
rm -f "$dir/contig" "$dir/contig.elf"

# --- 4. opening a dump of a 1 TiB machine --------------------------------
small=$dir/small.dmp
"$DUMPGEN" --arch amd64 --version 3 --mem 32M --dumped 1M --compact -q \
    -o "$small"
const_rss=$(val "$("$READALL" --mode open "$small")" maxrss_kib)
const_di=-
if [ -x /usr/bin/time ]; then
	const_di=$(/usr/bin/time -f %M "$DUMPINFO" "$small" 2>&1 > /dev/null |
	    tail -n 1)
fi
rm -f "$small"

huge=$dir/amd64-v3-1T.dmp
t0=$(now_ns)
"$DUMPGEN" --arch amd64 --version 3 --mem 1T --dumped 64M --sparse -q \
    -o "$huge"
t1=$(now_ns)
huge_gen_s=$(secs "$t0" "$t1")
huge_size=$(stat -c %s "$huge")
json=$("$DUMPINFO" --json "$huge")
section() {
	echo "$json" | tr -d ' \n' | sed 's/},{/}\n{/g' |
	    awk -v n="\"name\":\"$1\"" 'index($0, n) {
		match($0, /"size":[0-9]+/);
		print substr($0, RSTART + 7, RLENGTH - 7); exit }'
}
bitmap=$(section bitmap)
pmap=$(section pmap)
open_line=$("$READALL" --mode open "$huge")
open_rss=$(val "$open_line" maxrss_kib)
open_s=$(val "$open_line" seconds)
di_rss=-
if [ -x /usr/bin/time ]; then
	di_rss=$(/usr/bin/time -f %M "$DUMPINFO" "$huge" 2>&1 > /dev/null |
	    tail -n 1)
fi
set -- $(timed "$DUMPCONV" -q "$huge" -o "$dir/huge.elf")
huge_conv_s=$1 huge_conv_rss=$2
rm -f "$huge" "$dir/huge.elf"

# The rank index next to the bitmap's words: 2 bytes per 512 bits (64
# bytes of bitmap) and 8 bytes per 65536 bits (8 KiB of bitmap).
index=$(( bitmap / 32 + bitmap / 1024 ))

# --- 7. compressed dumps: dumpconv next to gzip -dc and zstd -dc ----------
zsrc=$dir/z.dmp
"$DUMPGEN" --arch amd64 --version 3 --mem "$MEM" --dumped "$DUMPED" -q \
    -o "$zsrc"
z_alloc=$(( $(stat -c %b "$zsrc") * $(stat -c %B "$zsrc") ))
z_free=$(( $(df -Pk "$dir" | awk 'NR == 2 { print $4 }') * 1024 ))
: > "$dir/z.rows"
if [ "$z_free" -gt $(( 5 * z_alloc + (1 << 30) )) ]; then
	gzip -6 -n -c "$zsrc" > "$zsrc.gz"
	zstd -3 -q -c "$zsrc" > "$zsrc.zst"
	# zbest CMD...: the best of $REPEAT runs of CMD (stdout discarded)
	zbest() {
		: > "$dir/z.t"
		i=0
		while [ "$i" -lt "$REPEAT" ]; do
			r=$(timed sh -c '"$@" > /dev/null' sh "$@")
			echo "${r%% *}" >> "$dir/z.t"
			rm -f "$dir/z.elf"
			i=$((i + 1))
		done
		best < "$dir/z.t"
	}
	cat "$zsrc" > /dev/null
	zplain=$(zbest "$DUMPCONV" -q "$zsrc" -o "$dir/z.elf")
	for z in gz zst; do
		tool="gzip -dc"
		[ "$z" = zst ] && tool="zstd -q -dc"
		cat "$zsrc.$z" > /dev/null
		tb=$(zbest $tool "$zsrc.$z")
		cb=$(export TMPDIR="$dir"; zbest "$DUMPCONV" -q "$zsrc.$z" \
		    -o "$dir/z.elf")
		echo "$z $(stat -c %s "$zsrc.$z") $tb $cb" >> "$dir/z.rows"
	done
	rm -f "$zsrc.gz" "$zsrc.zst"
fi
z_size=$(stat -c %s "$zsrc")
rm -f "$zsrc"

# --- 8. full ELF cores: dumpconv, with and without --drop-zero, next to cp
fcore=$dir/full.core
"$DUMPGEN" --format elf --arch amd64 --mem "$BENCH_FULL_MEM" -q -o "$fcore"
f_size=$(stat -c %s "$fcore")
f_alloc=$(( $(stat -c %b "$fcore") * $(stat -c %B "$fcore") ))
cat "$fcore" > /dev/null
# fbest CMD...: the best of $REPEAT runs of CMD, its output removed.
fbest() {
	: > "$dir/f.t"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		rm -f "$dir/f.out"
		r=$(timed "$@")
		echo "${r%% *}" >> "$dir/f.t"
		i=$((i + 1))
	done
	best < "$dir/f.t"
}
f_cp=$(fbest cp --sparse=always "$fcore" "$dir/f.out")
f_conv=$(fbest "$DUMPCONV" -q "$fcore" -o "$dir/f.out")
f_drop=$(fbest "$DUMPCONV" -q --drop-zero "$fcore" -o "$dir/f.out")
f_dsize=$(stat -c %s "$dir/f.out")
set -- $(timed "$DUMPCONV" -q --to native "$dir/f.out" -o "$dir/f.back")
f_back=$1
f_same=no
cmp -s "$fcore" "$dir/f.back" && f_same=yes
rm -f "$fcore" "$dir/f.out" "$dir/f.back"

# --- the table ------------------------------------------------------------
echo
echo "dumpkit benchmarks ($(uname -m), $(nproc) CPUs; best of $REPEAT," \
    "median in brackets; MB = 10^6 bytes)"
echo
echo "amd64 v3 dump: --mem $MEM --dumped $DUMPED: $(mib "$size") MiB," \
    "$(mib "$alloc") MiB allocated (zero pages are holes), $pages pages"
row "dumpgen (write + fsync)" "${gen_s} s" \
    "$(mbps "$size" "$gen_s") MB/s of dump, $(mbps "$alloc" "$gen_s") MB/s of data"
if [ "$dd_s" != - ]; then
	row "dd, $(mib "$alloc") MiB + fsync (baseline)" "${dd_s} s" \
	    "$(mbps "$alloc" "$dd_s") MB/s; dumpgen/dd = $(awk -v a="$gen_s" \
	    -v b="$dd_s" 'BEGIN { printf "%.2f", a / b }')"
else
	row "dd baseline" "skipped" "(not enough free disk)"
fi
echo
echo "sequential read, page cache warm"
row "cat FILE > /dev/null (baseline)" "${cat_best} s" \
    "[$cat_med s] $(mbps "$size" "$cat_best") MB/s"
row "readall --mode all (process)" "${ra_best} s" \
    "[$ra_med s] $(mbps "$ra_bytes" "$ra_best") MB/s, peak RSS ${ra_rss} KiB"
row "readall, read loop only" "${ra_in_best} s" \
    "$(mbps "$ra_bytes" "$ra_in_best") MB/s"
row "ratio readall/cat (time)" "$(awk -v a="$ra_best" -v b="$cat_best" \
    'BEGIN { printf "%.2f", a / b }')" \
    "throughput readall/cat $(awk -v a="$ra_best" -v b="$cat_best" \
    -v x="$ra_bytes" -v y="$size" 'BEGIN { printf "%.2f", (x / a) / (y / b) }')"
echo
echo "random access on the same dump"
row "dk_read_pa, random 4 KiB pages" \
    "$(val "$rnd" pages_per_s) /s" "$(val "$rnd" MBps) MB/s"
if [ -n "$kv_mapped" ]; then
	row "dk_kvtop, random mapped kernel VAs" \
	    "$(val "$kv_mapped" lookups_per_s) /s" \
	    "$(val "$kv_scan" found) mapped pages found in $(val "$kv_scan" seconds) s"
fi
if [ -n "$kv_any" ]; then
	row "dk_kvtop, uniform over the kernel map" \
	    "$(val "$kv_any" lookups_per_s) /s" \
	    "$(val "$kv_any" hits) of $(val "$kv_any" lookups) mapped"
fi
echo
echo "opening a dump of a 1 TiB machine (--mem 1T --dumped 64M --sparse," \
    "$(mib "$huge_size") MiB file, written in ${huge_gen_s} s)"
row "bitmap section" "$(mib "$bitmap") MiB"
row "pmap section (read on demand, not loaded)" "$(mib "$pmap") MiB"
row "rank index (computed)" "$(mib "$index") MiB"
row "constant: open a 32 MiB dump, readall" "$(mib $(( const_rss * 1024 ))) MiB" \
    "dumpinfo: $const_di KiB"
row "peak RSS, readall --mode open" "$(mib $(( open_rss * 1024 ))) MiB" \
    "open took ${open_s} s"
if [ "$di_rss" != - ]; then
	row "peak RSS, dumpinfo FILE" "$(mib $(( di_rss * 1024 ))) MiB"
fi
row "bitmap + index + constant" \
    "$(mib $(( bitmap + index + const_rss * 1024 ))) MiB" \
    "(+ the 1 MiB bitmap read buffer)"
row "peak RSS, dumpconv FILE (to ELF)" "$(mib $(( huge_conv_rss * 1024 ))) MiB" \
    "converted in ${huge_conv_s} s; limit bitmap + pmap + 64 MiB = $(mib $(( bitmap + pmap + (64 << 20) ))) MiB: $(
    [ $(( huge_conv_rss * 1024 )) -lt $(( bitmap + pmap + (64 << 20) )) ] && echo below || echo ABOVE)"
echo
echo "conversion to the portable ELF minidump, the dump of 1. ($(mib "$size") MiB," \
    "$(mib "$alloc") MiB allocated), $where, page cache warm"
row "cp --sparse=always (baseline)" "${cp_best} s" "[$cp_med s] $(mbps "$alloc" "$cp_best") MB/s of data"
row "dumpconv FILE -o OUT (writes, fsyncs)" "${conv_best} s" \
    "[$conv_med s] $(mbps "$alloc" "$conv_best") MB/s; $(mib "$conv_alloc") MiB allocated"
row "ratio dumpconv/cp" "$(ratio "$conv_best" "$cp_best")" "goal: at most 1.2"
row "cp --sparse=always, then sync FILE (once)" "${cps_best} s" \
    "dumpconv/(cp + sync) $(ratio "$conv_best" "$cps_best")"
row "dumpconv --to native (the way back, once)" "${back_s} s" \
    "byte for byte: $back_same; peak RSS $(mib $(( back_rss * 1024 ))) MiB"
row "peak RSS, dumpconv" "$(mib $(( conv_rss * 1024 ))) MiB" \
    "bitmap $(mib "$big_bitmap") MiB, pmap $(mib "$big_pmap") MiB"
echo
echo "runs: --alternate dumps (every other page; --sparse, so the time is per run)"
while read -r m nruns npg t rss bm pm; do
	row "--mem $m: $nruns runs, $npg pages" "${t} s" \
	    "$(awk -v t="$t" -v n="$nruns" 'BEGIN { printf "%.0f ns/run", t / n * 1e9 }'), peak RSS $(mib $(( rss * 1024 ))) MiB (bitmap $(mib "$bm"), pmap $(mib "$pm") MiB)"
done < "$dir/runs.t"
row "marginal cost of a run (8G against 2G)" "$(awk '
    NR == 1 { r1 = $2; t1 = $4 } END { if ($2 > r1) printf "%.0f ns",
    ($4 - t1) / ($2 - r1) * 1e9; else print "-" }' "$dir/runs.t")" \
    "linear: the time is a constant plus this per run"
row "contiguous: $c_runs runs, $c_pages pages" "${c_best} s" \
    "peak RSS $(mib $(( c_rss * 1024 ))) MiB; the 8G alternating dump ($alt_pages pages) takes $(ratio "$(awk 'END { print $4 }' "$dir/runs.t")" "$c_best")x as long"
echo
echo "compressed dumps: --mem $MEM --dumped $DUMPED ($(mib "$z_size") MiB," \
    "$(mib "$z_alloc") MiB allocated), page cache warm, TMPDIR $dir"
if [ -s "$dir/z.rows" ]; then
	row "dumpconv of the uncompressed dump" "${zplain} s"
	while read -r z zsize tb cb; do
		row "$z file: $(mib "$zsize") MiB, $([ "$z" = gz ] && echo "gzip -dc" ||
		    echo "zstd -dc") > /dev/null" "${tb} s" \
		    "$(mbps "$z_size" "$tb") MB/s of dump (baseline)"
		less=$(awk -v a="$cb" -v b="$zplain" 'BEGIN { print a - b }')
		row "dumpconv FILE.$z (decompress + convert)" "${cb} s" \
		    "dumpconv/tool $(ratio "$cb" "$tb"); without the plain conversion's time $(ratio "$less" "$tb")"
	done < "$dir/z.rows"
else
	row "compressed dumps" "skipped" "(not enough free disk: 5x the allocated size)"
fi
echo
echo "full ELF core: amd64, --mem $BENCH_FULL_MEM: $(mib "$f_size") MiB," \
    "$(mib "$f_alloc") MiB allocated, page cache warm"
row "cp --sparse=always (baseline)" "${f_cp} s" "$(mbps "$f_alloc" "$f_cp") MB/s of data"
row "dumpconv FILE -o OUT" "${f_conv} s" "dumpconv/cp $(ratio "$f_conv" "$f_cp")"
row "dumpconv --drop-zero (reads the core twice)" "${f_drop} s" \
    "dumpconv --drop-zero/cp $(ratio "$f_drop" "$f_cp"); file $(mib "$f_dsize") MiB"
row "dumpconv --to native of that (once)" "${f_back} s" "byte for byte: $f_same"
