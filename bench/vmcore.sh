#!/bin/sh
# vmcore.sh -- dumpconv --to elf, the Linux ELF vmcore writer
# (formats/vmcore_write.c), next to baselines measured in the same run:
# cp of the same input and makedumpfile -E -d 0 of it.  Page cache warm
# (one cat first), best and median of $BENCH_REPEAT, alternating.
#
#  1. A generated Linux ELF vmcore of $BENCH_VMCORE_MEM (4G) of RAM
#     (dumpgen --format vmcore, the kernel's style: 4 GiB of RAM and the
#     32 MiB kernel text; three pages in four zero, holes).  The goal:
#     dumpconv --to elf within 1.2 x cp --sparse=always.  A tool that
#     refuses an input (makedumpfile reads kernel structures a fixture
#     may lack) has its row say what it said, and times nothing.
#     Then dumpcheck --checksum of it (its full pass) next to cat.
#  2. dumpinfo of QEMU paging dumps of $BENCH_PAGING_MEMS (256M 1G 4G: up
#     to 10^6 program headers): time and peak memory per header.
#  3. What dumpconv --to elf converts today, a kdump-compressed file:
#     $BENCH_VMCORE_KDUMP (default: the real crash's uncompressed
#     makedumpfile file, $REALDUMPS/mdf/mdf-none-d31.kdump, when
#     ../shared/real-dumps made it), next to cp of it; and the real
#     kernel vmcore ($REALDUMPS/x86_64-linux-kernel.vmcore) through
#     makedumpfile -E -d 0 next to cp and to dumpconv --to elf.
#
# Environment: DUMPGEN, DUMPCONV, DUMPCHECK, DUMPINFO, MAXRSS,
# BENCH_REPEAT, BENCH_VMCORE_MEM, BENCH_PAGING_MEMS,
# BENCH_VMCORE_KDUMP, REALDUMPS (default /tmp/realdumps/dumps),
# BENCH_DIR, BENCH_TRASH_MAX (bench/scratch.sh).
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
DUMPCHECK=${DUMPCHECK:-$B/bin/dumpcheck}
DUMPINFO=${DUMPINFO:-$B/bin/dumpinfo}
MAXRSS=${MAXRSS:-$B/bench/maxrss}
PAGING_MEMS=${BENCH_PAGING_MEMS:-256M 1G 4G}
REPEAT=${BENCH_REPEAT:-3}
VMEM=${BENCH_VMCORE_MEM:-4G}
REALDUMPS=${REALDUMPS:-/tmp/realdumps/dumps}
KDUMP=${BENCH_VMCORE_KDUMP:-$REALDUMPS/mdf/mdf-none-d31.kdump}
KERNEL_VMCORE=$REALDUMPS/x86_64-linux-kernel.vmcore

. "$(dirname "$0")/scratch.sh"
parent=$(scratch_parent)
scratch_init "$parent" vmcore-bench

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
	printf '  %-46s %16s  %s\n' "$1" "$2" "${3:-}"
}

# try NAME COMMAND...: run it once untimed; 0 if it works, else its
# last line of output in $dir/NAME.why.
try() {
	n=$1
	shift
	if "$@" > "$dir/$n.log" 2>&1; then
		return 0
	fi
	grep . "$dir/$n.log" | grep -v "Failed\.$" | tail -n 1 |
	    cut -c1-110 > "$dir/$n.why"
	return 1
}

# once NAME OUT COMMAND...: time COMMAND (which writes OUT) once into
# $dir/NAME.t, then set OUT aside untimed.
once() {
	n=$1
	o=$2
	shift 2
	t0=$(now_ns)
	"$@" > /dev/null 2>&1
	t1=$(now_ns)
	echo "$(secs "$t0" "$t1")" >> "$dir/$n.t"
	discard "$o"
}

# summary NAME: "best s (median m)".
summary() {
	echo "$(best < "$dir/$1.t") s (median $(median < "$dir/$1.t"))"
}

# bench_file LABEL INPUT: cp, dumpconv --to elf and makedumpfile -E -d 0
# of INPUT, alternating $REPEAT times.
bench_file() {
	label=$1
	in=$2
	size=$(stat -c %s "$in")
	alloc=$(du -k "$in" | awk '{ print $1 * 1024 }')
	: > "$dir/cp.t"
	: > "$dir/cpsync.t"
	: > "$dir/conv.t"
	: > "$dir/mdf.t"
	cat "$in" > /dev/null
	conv=0
	mdf=0
	try conv "$DUMPCONV" -q --to elf "$in" -o "$dir/probe.elf" && conv=1
	discard "$dir/probe.elf"
	if command -v makedumpfile > /dev/null 2>&1; then
		try mdf makedumpfile -E -d 0 "$in" "$dir/probe.mdf" && mdf=1
		discard "$dir/probe.mdf"
	else
		echo "makedumpfile is not installed" > "$dir/mdf.why"
	fi
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		once cp "$dir/cp.out" cp --sparse=always "$in" "$dir/cp.out"
		once cpsync "$dir/cp.out" sh -c 'cp --sparse=always "$1" "$2" &&
		    sync "$2"' sh "$in" "$dir/cp.out"
		[ "$conv" = 0 ] || once conv "$dir/conv.out" "$DUMPCONV" -q \
		    --to elf "$in" -o "$dir/conv.out"
		[ "$mdf" = 0 ] || once mdf "$dir/mdf.out" makedumpfile -E \
		    -d 0 "$in" "$dir/mdf.out"
		i=$((i + 1))
	done
	echo
	echo "$label: $(mib "$size") MiB, $(mib "$alloc") MiB allocated," \
	    "page cache warm, best of $REPEAT"
	cpb=$(best < "$dir/cp.t")
	row "cp --sparse=always (baseline)" "$(summary cp)"
	row "cp --sparse=always, then sync FILE" "$(summary cpsync)"
	if [ "$conv" = 1 ]; then
		row "dumpconv --to elf (fsynced)" "$(summary conv)" \
		    "dumpconv/cp $(ratio "$(best < "$dir/conv.t")" "$cpb"), /(cp + sync) $(ratio "$(best < "$dir/conv.t")" "$(best < "$dir/cpsync.t")")"
	else
		row "dumpconv --to elf" "not run" "$(cat "$dir/conv.why")"
	fi
	if [ "$mdf" = 1 ]; then
		row "makedumpfile -E -d 0" "$(summary mdf)" \
		    "makedumpfile/cp $(ratio "$(best < "$dir/mdf.t")" "$cpb")"
		[ "$conv" = 0 ] || row "" "" "dumpconv/makedumpfile $(ratio \
		    "$(best < "$dir/conv.t")" "$(best < "$dir/mdf.t")")"
	else
		row "makedumpfile -E -d 0" "not run" "$(cat "$dir/mdf.why")"
	fi
}

# bench_check INPUT: dumpcheck's full pass (every segment read) next to
# cat INPUT > /dev/null, alternating $REPEAT times.
bench_check() {
	: > "$dir/cat.t"
	: > "$dir/chk.t"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		t0=$(now_ns)
		cat "$1" > /dev/null
		t1=$(now_ns)
		echo "$(secs "$t0" "$t1")" >> "$dir/cat.t"
		t0=$(now_ns)
		"$DUMPCHECK" -q --checksum --no-progress "$1" > /dev/null 2>&1 ||
		    true
		t1=$(now_ns)
		echo "$(secs "$t0" "$t1")" >> "$dir/chk.t"
		i=$((i + 1))
	done
	row "cat FILE > /dev/null (baseline)" "$(summary cat)"
	row "dumpcheck --checksum (the full pass)" "$(summary chk)" \
	    "dumpcheck/cat $(ratio "$(best < "$dir/chk.t")" \
	    "$(best < "$dir/cat.t")")"
}

# bench_open: dumpinfo of QEMU paging dumps (dump-guest-memory -p: a
# PT_LOAD per run of guest pages, PN_XNUM) of each size in
# $BENCH_PAGING_MEMS: time and peak memory against the program headers,
# which should both grow linearly.
bench_open() {
	echo
	echo "QEMU paging vmcores (--producer qemu-7.2-paging): open and" \
	    "summarise (dumpinfo), one run each"
	for m in $PAGING_MEMS; do
		"$DUMPGEN" -q --format vmcore --arch amd64 --producer \
		    qemu-7.2-paging --mem "$m" -o "$dir/paging.vmcore"
		n=$(readelf -h "$dir/paging.vmcore" 2>/dev/null |
		    sed -n 's/.*Number of program headers: *[0-9]* (\([0-9]*\)).*/\1/p')
		[ -n "$n" ] || n=$(readelf -h "$dir/paging.vmcore" |
		    awk '/Number of program headers/ { print $NF }')
		cat "$dir/paging.vmcore" > /dev/null
		set -- $("$MAXRSS" sh -c 'exec "$@" > /dev/null 2>&1' sh \
		    "$DUMPINFO" "$dir/paging.vmcore")
		row "--mem $m: $n program headers" "$1 s" "$(mib \
		    "$(($2 * 1024))") MiB peak; $(awk -v t="$1" -v n="$n" \
		    'BEGIN { printf "%.2f", t * 1e6 / n }') us and $(awk \
		    -v k="$2" -v n="$n" 'BEGIN { printf "%.0f", k * 1024 / n }') bytes per header"
		discard "$dir/paging.vmcore"
	done
}

echo "Linux ELF vmcores: dumpconv --to elf; scratch on $(scratch_where "$dir")"
"$DUMPGEN" -q --format vmcore --arch amd64 --mem "$VMEM" -o "$dir/gen.vmcore"
bench_file "generated x86_64 vmcore, --mem $VMEM" "$dir/gen.vmcore"
bench_check "$dir/gen.vmcore"
discard "$dir/gen.vmcore"
bench_open
if [ -e "$KDUMP" ]; then
	bench_file "kdump-compressed $(basename "$KDUMP")" "$KDUMP"
else
	echo
	echo "kdump-compressed: $KDUMP absent (../shared/real-dumps makes it)"
fi
if [ -e "$KERNEL_VMCORE" ]; then
	bench_file "the real kernel's /proc/vmcore, $(basename "$KERNEL_VMCORE")" \
	    "$KERNEL_VMCORE"
fi
echo
echo "cleanup: $(scratch_summary)"
