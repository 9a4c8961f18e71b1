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
#  4. Opening dumps of huge machines, $BENCH_HUGE (1T 16T 64T) of RAM
#     with 64 MiB dumped (--dumped 64M --sparse): time and peak RSS of
#     dumpinfo and of readall --mode open, next to the constant (the
#     RSS of opening a 32 MiB dump) and to dd reading the bitmap section
#     (the bytes an open must read); and the 1 TiB one converted.
#  5. dumpconv of the dump of 1. to the portable ELF minidump, next to
#     `cp --sparse=always` of the same file, both with the page cache
#     warm, alternating, each timed $BENCH_REPEAT times (dumpconv also
#     fsyncs its output; a line gives cp followed by `sync FILE` too);
#     best, median, ratio dumpconv/cp; then the way back (--to native).
#  5b. Conversion next to cp at every fragmentation, and the way back
#     from --drop-zero: bench/convcp.sh (`make bench` runs it after this).
#  6. Runs: dumps of --mem 2G, 4G and 8G with --alternate (every other
#     page dumped: a quarter, half and one million runs) converted, next
#     to a dump of about as many dumped pages in a few contiguous runs;
#     time per run, and peak RSS next to the bitmap and pmap sizes.  All
#     --sparse: the pages are holes, so the times are the per-run cost
#     (program headers, extent lookups), not the copying.
#
#  7. Compressed inputs next to their decoders: bench/compressed.sh.
#  9. Kernel-map walks (bench/kmapwalk: the library's probe counter and
#     page-table cache, no output written): the 1 TiB dump of 4., and for
#     each family (amd64 v3, i386, aarch64, arm, mips64, riscv64,
#     powerpc64 hashed and radix) a 64 MiB dump intact, cut where its
#     pages start (every page-table page a tree points at is missing:
#     the issue's truncated radix dump) and with its page-table area
#     overwritten with random bytes: translations asked, table pages
#     read, time, time per translation, and dumpconv's time on the same
#     file (DK_ELIMIT: the walk gave up, as before issue 17).
#
#  8. bench/vmcore.sh: dumpconv --to elf (a Linux ELF vmcore) of a
#     generated 4 GiB vmcore and of real kdump and kernel vmcore files
#     next to cp and makedumpfile -E -d 0 of the same input.
#  9. The kdump writer next to makedumpfile -c -d 1 and zstd -3 -T1, and
#     dumpcheck --checksum of makedumpfile's file next to makedumpfile
#     -E (refused by 1.7.2), -F -d 0 and -d 0 (bench/kdump.sh).
#
# Peak RSS is measured by bench/maxrss (wait4 around the command: the
# tools' whole life), so /usr/bin/time is not needed.
#
# Environment: DUMPGEN, DUMPINFO, READALL, DUMPCONV, MAXRSS, KMAPWALK (the
# programs; without KMAPWALK the walks' counters are not printed),
# BENCH_REPEAT, BENCH_DUMPED, BENCH_MEM, BENCH_HUGE, BENCH_DIR (scratch
# parent; default $TMPDIR, else $BENCH_B/bench), BENCH_CONV_DIR (where 5.
# converts, if not there), BENCH_TRASH_MAX.  No removal is timed, and the
# costly ones (fsynced files) are not waited for: see bench/scratch.sh.
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPINFO=${DUMPINFO:-$B/bin/dumpinfo}
READALL=${READALL:-$B/bench/readall}
KMAPWALK=${KMAPWALK:-$B/bench/kmapwalk}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
MAXRSS=${MAXRSS:-$B/bench/maxrss}
REPEAT=${BENCH_REPEAT:-3}
DUMPED=${BENCH_DUMPED:-8G}
MEM=${BENCH_MEM:-10G}

HUGE=${BENCH_HUGE:-1T 16T 64T}

. "$(dirname "$0")/scratch.sh"
parent=$(scratch_parent)
scratch_init "$parent" dumpkit-bench

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


row() {
	printf '  %-44s %14s  %s\n' "$1" "$2" "${3:-}"
}

# timed CMD...: run CMD, print "SECONDS MAXRSS_KIB" (its peak RSS).
timed() {
	"$MAXRSS" "$@" || { echo "bench: $1: exit $?" >&2; return 1; }
}

# timed_quiet CMD...: the same, CMD's standard output discarded.
timed_quiet() {
	timed sh -c 'exec "$@" > /dev/null' sh "$@"
}


# jsection JSON NAME: the size of section NAME in dumpinfo --json output.
jsection() {
	echo "$1" | tr -d ' \n' | sed 's/},{/}\n{/g' |
	    awk -v n="\"name\":\"$2\"" 'index($0, n) {
		match($0, /"size":[0-9]+/);
		print substr($0, RSTART + 7, RLENGTH - 7); exit }'
}

echo "bench: scratch directory $dir, on $(scratch_where "$dir")"
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
	discard "$dir/dd.out"
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
# On the scratch directory's file system, where the fsync of dumpconv's
# output costs what it costs (on tmpfs it is free, and SEEK_HOLE scans);
# BENCH_CONV_DIR chooses another.  Outputs are set aside untimed.
if [ -n "${BENCH_CONV_DIR:-}" ]; then
	scratch_add "$BENCH_CONV_DIR" dumpkit-conv
	cdir=$dir2
	src=$cdir/src.dmp
	cp --sparse=always "$big" "$src"
	discard "$big"
else
	cdir=$dir
	src=$big
fi
where="in $cdir, on $(scratch_where "$cdir")"
out=$cdir/out
: > "$dir/cp.t"
: > "$dir/conv.t"
cat "$src" > /dev/null
i=0
while [ "$i" -lt "$REPEAT" ]; do
	set -- $(timed cp --sparse=always "$src" "$out")
	echo "$1" >> "$dir/cp.t"
	drop "$out"
	set -- $(timed "$DUMPCONV" -q "$src" -o "$out")
	echo "$1" >> "$dir/conv.t"
	conv_rss=$2
	i=$((i + 1))
	[ "$i" -lt "$REPEAT" ] && discard "$out"
done
conv_alloc=$(( $(stat -c %b "$out") * $(stat -c %B "$out") ))
set -- $(timed "$DUMPCONV" -q --to native "$out" -o "$cdir/back")
back_s=$1 back_rss=$2
cmp -s "$src" "$cdir/back" && back_same=identical || back_same=DIFFERENT
discard "$out" "$cdir/back"
set -- $(timed sh -c 'cp --sparse=always "$1" "$2" && sync "$2"' sh \
    "$src" "$out")
cps_best=$1
discard "$out"
json_big=$("$DUMPINFO" --json "$src")
discard "$src"
cp_best=$(best < "$dir/cp.t")
cp_med=$(median < "$dir/cp.t")
conv_best=$(best < "$dir/conv.t")
conv_med=$(median < "$dir/conv.t")
big_bitmap=$(jsection "$json_big" bitmap)
big_pmap=$(jsection "$json_big" pmap)
discard "$big"

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
		set -- $(timed "$DUMPCONV" -q "$dir/alt" -o "$dir/alt.elf")
		echo "$1" >> "$dir/alt.t"
		rss=$2
		i=$((i + 1))
		discard "$dir/alt.elf"
	done
	json=$("$DUMPINFO" --json "$dir/alt")
	echo "$m $nruns $npg $(best < "$dir/alt.t") $rss $(jsection "$json" bitmap) $(jsection "$json" pmap)" >> "$dir/runs.t"
	discard "$dir/alt"
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
	set -- $(timed "$DUMPCONV" -q "$dir/contig" -o "$dir/contig.elf")
	echo "$1" >> "$dir/contig.t"
	c_rss=$2
	i=$((i + 1))
	discard "$dir/contig.elf"
done
c_best=$(best < "$dir/contig.t")
discard "$dir/contig"

# --- 4. opening dumps of huge machines -----------------------------------
small=$dir/small.dmp
"$DUMPGEN" --arch amd64 --version 3 --mem 32M --dumped 1M --compact -q \
    -o "$small"
const_rss=$(val "$("$READALL" --mode open "$small")" maxrss_kib)
set -- $(timed_quiet "$DUMPINFO" "$small")
const_di=$2
discard "$small"

# The bitmap's bytes, read by dd at the offset dumpinfo gives (the
# least any open must do), next to dumpinfo and readall --mode open.
: > "$dir/huge.rows"
for h in $HUGE; do
	huge=$dir/amd64-v3-$h.dmp
	t0=$(now_ns)
	"$DUMPGEN" --arch amd64 --version 3 --mem "$h" --dumped 64M --sparse \
	    -q -o "$huge"
	t1=$(now_ns)
	json=$("$DUMPINFO" --json "$huge")
	bm_off=$(printf '%d' "$(echo "$json" | tr -d ' \n' |
	    sed 's/},{/}\n{/g' | awk 'index($0, "\"name\":\"bitmap\"") {
		match($0, /"offset":"0x[0-9a-f]+"/);
		print substr($0, RSTART + 10, RLENGTH - 11); exit }')")
	bm_size=$(jsection "$json" bitmap)
	cat "$huge" > /dev/null
	set -- $(timed dd if="$huge" of=/dev/null bs=1M iflag=skip_bytes,count_bytes \
	    skip="$bm_off" count="$bm_size" status=none)
	dd_bm=$1
	set -- $(timed_quiet "$DUMPINFO" "$huge")
	di_s=$1 di_rss=$2
	open_line=$("$READALL" --mode open "$huge")
	echo "$h $(secs "$t0" "$t1") $(stat -c %s "$huge") $(( $(stat -c %b \
	    "$huge") * $(stat -c %B "$huge") )) $bm_size $(jsection "$json" pmap)" \
	    "$dd_bm $di_s $di_rss $(val "$open_line" seconds)" \
	    "$(val "$open_line" maxrss_kib)" >> "$dir/huge.rows"
	if [ "$h" = 1T ]; then
		set -- $(timed "$DUMPCONV" -q "$huge" -o "$dir/huge.elf")
		huge_conv_s=$1 huge_conv_rss=$2
		huge_bitmap=$bm_size huge_pmap=$(jsection "$json" pmap)
		discard "$dir/huge.elf"
	fi
	discard "$huge"
done

# --- 9. kernel-map walks: entries walked and time per entry --------------
# jsect_off JSON NAME: the offset of section NAME in dumpinfo --json, decimal.
jsect_off() {
	printf '%d' "$(echo "$1" | tr -d ' \n' | sed 's/},{/}\n{/g' |
	    awk -v n="\"name\":\"$2\"" 'index($0, n) {
		match($0, /"offset":"0x[0-9a-f]+"/);
		print substr($0, RSTART + 10, RLENGTH - 11); exit }')"
}
# kwalk LABEL FILE: one line of $dir/kmap.rows.
kwalk() {
	kw_line="-"
	if [ -x "$KMAPWALK" ]; then
		kw_line=$("$KMAPWALK" "$2" || echo "-")
	fi
	# dumpconv's own time on the file; a walk that gives up is an error.
	t0=$(now_ns)
	if "$DUMPCONV" -q "$2" -o "$dir/kw.elf" 2> "$dir/kw.err"; then
		kw_conv=ok
	elif grep -q 'translations to walk' "$dir/kw.err"; then
		kw_conv=DK_ELIMIT
	else
		kw_conv=failed
	fi
	t1=$(now_ns)
	discard "$dir/kw.elf"
	echo "$1|$kw_line|$(secs "$t0" "$t1")|$kw_conv" >> "$dir/kmap.rows"
}
: > "$dir/kmap.rows"
"$DUMPGEN" --arch amd64 --version 3 --mem 1T --dumped 64M --sparse -q \
    -o "$dir/kw-1t.dmp"
kwalk "amd64 v3, 1T RAM, 64M dumped (--sparse)" "$dir/kw-1t.dmp"
discard "$dir/kw-1t.dmp"
for kv in "amd64 3 -" "i386 2 -" "aarch64 3 -" "arm 2 -" "mips64 2 -" \
    "riscv64 2 -" "powerpc64 2 -" "powerpc64 2 radix"; do
	set -- $kv
	kf=$dir/kw.dmp
	"$DUMPGEN" --arch "$1" --version "$2" --variant "$3" --mem 64M -q \
	    -o "$kf"
	kl="$1 v$2$([ "$3" = - ] || echo " $3")"
	json=$("$DUMPINFO" --json "$kf")
	pm_off=$(jsect_off "$json" pmap)
	pm_size=$(jsection "$json" pmap)
	pg_off=$(jsect_off "$json" pages)
	kwalk "$kl, intact" "$kf"
	head -c "$pg_off" "$kf" > "$dir/kw-cut.dmp"
	kwalk "$kl, cut where the pages start" "$dir/kw-cut.dmp"
	drop "$dir/kw-cut.dmp"
	cp "$kf" "$dir/kw-noise.dmp"
	head -c "$pm_size" /dev/urandom | dd of="$dir/kw-noise.dmp" bs=4096 \
	    seek="$pm_off" oflag=seek_bytes conv=notrunc status=none
	kwalk "$kl, page-table area random" "$dir/kw-noise.dmp"
	drop "$dir/kw-noise.dmp"
	discard "$kf"
done

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
echo "opening dumps of huge machines (--dumped 64M --sparse; constant: a 32" \
    "MiB dump opens in $(mib $(( const_rss * 1024 ))) MiB, dumpinfo" \
    "$(mib $(( const_di * 1024 ))) MiB)"
while read -r h gen_h fsize falloc bm pm ddbm di dirss op oprss; do
	n="allocated of a $(mib "$fsize") MiB file, written in $gen_h s"
	row "$h RAM: bitmap $(mib "$bm") MiB, pmap $(mib "$pm") MiB" \
	    "$(mib "$falloc") MiB" "$n"
	row "  dd of the bitmap section (baseline)" "${ddbm} s"
	n="x$(ratio "$di" "$ddbm") of dd; peak RSS $(mib $(( dirss * 1024 )))"
	n="$n MiB, x$(ratio "$dirss" "$const_di") of the constant"
	row "  dumpinfo FILE" "${di} s" "$n"
	n="peak RSS $(mib $(( oprss * 1024 ))) MiB,"
	n="$n x$(ratio "$oprss" "$const_rss") of the constant"
	row "  readall --mode open" "${op} s" "$n"
done < "$dir/huge.rows"
if [ -n "${huge_conv_s:-}" ]; then
	n="converted in ${huge_conv_s} s; bitmap $(mib "$huge_bitmap") MiB,"
	n="$n pmap $(mib "$huge_pmap") MiB"
	row "peak RSS, dumpconv of the 1T dump (to ELF)" \
	    "$(mib $(( huge_conv_rss * 1024 ))) MiB" "$n"
fi
echo
echo "kernel-map walks (bench/kmapwalk: translations asked, page-table pages" \
    "read; then dumpconv of the same file, with its output)"
while IFS='|' read -r label kw ct cs; do
	if [ "$kw" != - ]; then
		n="$(val "$kw" probes) translations, $(val "$kw" table_pages)"
		n="$n table pages, $(val "$kw" ns_per_probe) ns each, $(val "$kw" runs)"
		n="$n runs, $(val "$kw" status); dumpconv $ct s $cs"
		row "$label" "$(val "$kw" seconds) s" "$n"
	else
		row "$label" "-" "dumpconv $ct s $cs"
	fi
done < "$dir/kmap.rows"
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
# Thread discovery (issue 15): bench/kthreads.sh, its own scratch.
BENCH_DIR=$dir sh "$(dirname "$0")/kthreads.sh"
DUMPCONV=$DUMPCONV MAXRSS=$MAXRSS BENCH_REPEAT=$REPEAT sh "$(dirname "$0")/kdump.sh" ||
    echo "bench: bench/kdump.sh failed"
echo
echo "cleanup: $(scratch_summary)"
# 8. Linux ELF vmcores: dumpconv --to elf next to cp and makedumpfile -E.
sh "$(dirname "$0")/vmcore.sh" || echo "bench: bench/vmcore.sh failed"
