#!/bin/sh
# convcp.sh -- conversion next to cp (issue 17), every row with its
# baselines measured in the same rounds:
#
#  Fragmentation: an amd64 v3 dump of $BENCH_CONV_DUMPED (1G) dumped of
#  $BENCH_CONV_MEM (2G), and --alternate dumps of $BENCH_RUN_MEMS (256M
#  8G: 29,504 and 1,038,140 runs of one page or a few, their pages
#  stored; the table prints the count).  Each is
#  copied by cp --sparse=never and --sparse=always, alone and followed by
#  `sync FILE` (dumpconv's output is durable, cp's is not), and
#  converted by `dumpconv FILE -o OUT`.
#
#  The way back: a full ELF core of $BENCH_FULL_MEM (2G) converted with
#  and without --drop-zero; the --drop-zero file copied by cp (alone and
#  + sync), the core copied by cp + sync (the rebuilt core's shape: the
#  same holes, one extent per run of kept pages), and `dumpconv --to
#  native` of the --drop-zero file, compared with the core byte for byte.
#
# The commands alternate, $BENCH_CONV_REPEAT (5) rounds (five times as
# many for a dump of less than 512 MiB of data), page cache warm;
# the median is printed, the best in brackets, and the goals are judged
# on medians: the ratio of the medians, and the median of each round's
# ratio (pratio, scratch.sh), which the machine's drift between rounds
# does not move.  Before every timed command, off the clock, `settle` syncs
# and waits for the disk to be idle (bench/scratch.sh), so that no row
# pays for the writeback of the one before.  Even so the figures move:
# on this machine the same cp of 530 MB took 0.19 s or 1.2 s after the
# same settle (page cache grown into memory the host had taken back),
# which is why one best time decides nothing.
#
# Environment: DUMPGEN, DUMPCONV, BENCH_CONV_REPEAT, BENCH_CONV_DUMPED,
# BENCH_CONV_MEM, BENCH_RUN_MEMS, BENCH_FULL_MEM, BENCH_DIR (scratch
# parent; default $TMPDIR, else $BENCH_B/bench).
set -eu

B=${BENCH_B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
REPEAT=${BENCH_CONV_REPEAT:-5}
CONV_DUMPED=${BENCH_CONV_DUMPED:-1G}
CONV_MEM=${BENCH_CONV_MEM:-2G}
RUN_MEMS=${BENCH_RUN_MEMS:-256M 8G}
FULL_MEM=${BENCH_FULL_MEM:-2G}

. "$(dirname "$0")/scratch.sh"
parent=$(scratch_parent)
scratch_init "$parent" dumpkit-convcp

# Every t after a settle (scratch.sh).
settle_each=1

alloc() {
	echo $(( $(stat -c %b "$1") * $(stat -c %B "$1") ))
}
row() {
	printf '  %-46s %8s s [%s]  %s\n' "$1" "$(tmed "$2")" "$(tbest "$2")" "${3:-}"
}
# csync SRC DST: cp --sparse=always, then sync DST.
csync() {
	cp --sparse=always "$1" "$2" && sync "$2"
}
nsync() {
	cp --sparse=never "$1" "$2" && sync "$2"
}

# --- fragmentation ---------------------------------------------------------
# convcp K FILE: the rounds of dump K; its facts to K.facts.  (Not f:
# discard sets it.)
convcp() {
	cc_k=$1 cc_f=$2 cc_o=$dir/out
	cat "$cc_f" > /dev/null
	# A dump of less than 512 MiB of data takes a fraction of a second,
	# where noise weighs most: five times the rounds.
	cc_r=$REPEAT
	[ "$(alloc "$cc_f")" -ge $((512 << 20)) ] || cc_r=$((5 * REPEAT))
	i=0
	while [ "$i" -lt "$cc_r" ]; do
		t "$cc_k.cpn" cp --sparse=never "$cc_f" "$cc_o"
		drop "$cc_o"
		t "$cc_k.cpa" cp --sparse=always "$cc_f" "$cc_o"
		drop "$cc_o"
		t "$cc_k.cpns" nsync "$cc_f" "$cc_o"
		discard "$cc_o"
		t "$cc_k.cpas" csync "$cc_f" "$cc_o"
		discard "$cc_o"
		t "$cc_k.conv" "$DUMPCONV" -q "$cc_f" -o "$cc_o"
		i=$((i + 1))
		[ "$i" -lt "$cc_r" ] && discard "$cc_o"
	done
	echo "$cc_r $(stat -c %s "$cc_f") $(alloc "$cc_f") $(alloc "$cc_o")" \
	    "$("$DUMPCONV" --info "$cc_f" | awk '/^segments:/ { print $4 }')" \
	    > "$dir/$cc_k.facts"
	discard "$cc_o"
}
src=$dir/src.dmp
"$DUMPGEN" --arch amd64 --version 3 --mem "$CONV_MEM" --dumped "$CONV_DUMPED" \
    -q -o "$src"
convcp d0 "$src"
echo "--mem $CONV_MEM --dumped $CONV_DUMPED" > "$dir/kinds"
discard "$src"
n=1
for m in $RUN_MEMS; do
	"$DUMPGEN" --arch amd64 --version 3 --mem "$m" --alternate -q -o "$src"
	convcp "d$n" "$src"
	echo "--mem $m --alternate" >> "$dir/kinds"
	discard "$src"
	n=$((n + 1))
done

# --- the way back from --drop-zero -----------------------------------------
core=$dir/full.core
port=$dir/full.elf
"$DUMPGEN" --format elf --arch amd64 --mem "$FULL_MEM" -q -o "$core"
cat "$core" > /dev/null
i=0
while [ "$i" -lt "$REPEAT" ]; do
	t f.cp cp --sparse=always "$core" "$dir/out"
	drop "$dir/out"
	t f.conv "$DUMPCONV" -q "$core" -o "$dir/out"
	discard "$dir/out"
	discard "$port"
	t f.drop "$DUMPCONV" -q --drop-zero "$core" -o "$port"
	i=$((i + 1))
done
cat "$port" > /dev/null
i=0
while [ "$i" -lt "$REPEAT" ]; do
	t b.pcp cp --sparse=always "$port" "$dir/out"
	drop "$dir/out"
	t b.pcps csync "$port" "$dir/out"
	discard "$dir/out"
	t b.ccps csync "$core" "$dir/out"
	discard "$dir/out"
	discard "$dir/back"
	t b.back "$DUMPCONV" -q --to native "$port" -o "$dir/back"
	i=$((i + 1))
done
same=DIFFERENT
cmp -s "$core" "$dir/back" && same=identical
# extents FILE: the file's extents as FIEMAP lists them (filefrag -v),
# or "-".  Not filefrag's summary, which counts physical fragments: ext4
# puts a sparse file's blocks where its logical offsets say, so 98,423
# extents separated by holes are "18 extents found".
extents() {
	filefrag -v "$1" 2>/dev/null | awk '/^ *[0-9]+:/ { n++ }
	    END { print n == "" ? "-" : n }'
}
back_ext=$(extents "$dir/back")
port_ext=$(extents "$port")

# --- the table ---------------------------------------------------------------
echo
echo "conversion next to cp: median of the alternating rounds, best in" \
    "brackets, each after a sync and an idle disk (off the clock); page" \
    "cache warm; scratch $dir, on $(scratch_where "$dir")"
n=0
while read -r label; do
	k=d$n
	read -r rounds fsize falloc calloc runs < "$dir/$k.facts"
	echo "  $label: $(mib "$fsize") MiB, $(mib "$falloc") MiB allocated," \
	    "$runs runs; output $(mib "$calloc") MiB allocated; $rounds rounds"
	row "cp --sparse=never (baseline)" "$k.cpn"
	row "cp --sparse=always (baseline)" "$k.cpa"
	row "cp --sparse=never + sync FILE (baseline)" "$k.cpns"
	row "cp --sparse=always + sync FILE (baseline)" "$k.cpas"
	c=$(tmed "$k.conv")
	row "dumpconv FILE -o OUT (fsynced)" "$k.conv" \
	    "x$(ratio "$c" "$(tmed "$k.cpas")") of always + sync (the rounds' ratios: x$(pratio "$k.conv" "$k.cpas"); goal: 1.1), x$(ratio "$c" "$(tmed "$k.cpns")") of never + sync, x$(ratio "$c" "$(tmed "$k.cpa")") of always"
	n=$((n + 1))
done < "$dir/kinds"
echo "  full ELF core, amd64 --mem $FULL_MEM: $(mib "$(stat -c %s "$core")")" \
    "MiB, $(mib "$(alloc "$core")") MiB allocated; --drop-zero file" \
    "$(mib "$(stat -c %s "$port")") MiB, $port_ext extents"
row "cp --sparse=always of the core (baseline)" f.cp
row "dumpconv CORE -o OUT" f.conv "x$(ratio "$(tmed f.conv)" "$(tmed f.cp)") of cp"
row "dumpconv --drop-zero CORE -o OUT" f.drop "x$(ratio "$(tmed f.drop)" "$(tmed f.cp)") of cp"
row "cp --sparse=always of that (baseline)" b.pcp
row "cp of that + sync FILE (baseline)" b.pcps
row "cp of the core + sync FILE (baseline)" b.ccps "the rebuilt core's holes and extents"
c=$(tmed b.back)
row "dumpconv --to native of the --drop-zero file" b.back \
    "$same, $back_ext extents; x$(ratio "$c" "$(tmed b.pcp)") of cp, x$(ratio "$c" "$(tmed b.pcps)") of cp + sync, x$(ratio "$c" "$(tmed b.ccps)") of the core's cp + sync (the rounds' ratios: x$(pratio b.back b.ccps))"
discard "$core" "$port" "$dir/back"
echo "cleanup: $(scratch_summary)"
