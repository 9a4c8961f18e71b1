# scratch.sh -- the benchmarks' scratch directory and how what they
# write goes away; sourced by run.sh and dumpcheck.sh.
#
# Removing a file is not free.  On a file system mounted with `discard`
# (this machine's ext4) freeing a file issues a discard per extent: one
# fsynced 1 GiB conversion of 48k extents took 43 s to delete, and a
# full run once spent hours in rm.  So no removal is ever timed, and the
# costly ones are not waited for:
#
#   drop FILE...     removes now.  For files never fsynced and just
#                    written (cp's outputs): delayed allocation has
#                    given them no blocks yet, so rm costs milliseconds.
#   discard FILE...  for fsynced files (dumpgen's dumps, dumpconv's
#                    outputs, cp followed by sync): renamed into the
#                    trash of its scratch directory, which costs
#                    nothing; the trash is emptied in the run, off the
#                    clock, only when it holds more than BENCH_TRASH_MAX
#                    (default a third of the free space, at most 32G),
#                    so that the disk cannot fill.
#   at exit          the scratch directories are removed by a process of
#                    their own (setsid, in the background), so that
#                    `make bench` does not wait for the file system.
#
# scratch_init PARENT NAME makes $dir (and its trash) in PARENT;
# scratch_add PARENT NAME makes a second one, $dir2 (run.sh's
# BENCH_CONV_DIR); scratch_where DIR says what file system DIR is on.
#
# scratch_parent prints where scratch directories go: $BENCH_DIR, else
# $TMPDIR, else $BENCH_B/bench.  t NAME CMD... times CMD (its standard
# output discarded) into $dir/NAME.t, after a settle when settle_each is
# 1; tmed NAME and tbest NAME print the median and the best of them;
# ratio A B prints A/B to two places ("-" when B is 0), mib BYTES in MiB;
# pratio A B the median over the rounds of A's time over B's in the same
# round (line n of A.t over line n of B.t): times that drift from round
# to round, as this machine's do, cancel in it.
#
# settle, off the clock before a timed command that writes, syncs and
# waits (at most a minute) until the scratch directory's disk has done
# nothing for half a second: the previous command's writeback and the
# discards of an emptied trash are not charged to the next command.

# now_ns: nanoseconds of the wall clock.
now_ns() {
	date +%s%N
}

scratch_init() {
	mkdir -p "$1"
	dir=$(mktemp -d "$1/$2.XXXXXX")
	mkdir "$dir/trash"
	dir2=
	# What discard did, a line each (it runs in subshells too).
	scratch_log=$dir/scratch.log
	: > "$scratch_log"
	trash_max=${BENCH_TRASH_MAX:-}
	if [ -n "$trash_max" ]; then
		trash_max=$(numfmt --from=iec "$trash_max")
	else
		trash_max=$(df -Pk "$dir" | awk 'NR == 2 { m = $4 * 1024 / 3;
		    if (m > 32 * 2^30) m = 32 * 2^30; printf "%.0f", m }')
	fi
	# The disk's counters, for settle (none on tmpfs or overlay).
	st_file=
	st_dev=$(findmnt -n -o SOURCE --target "$dir" 2>/dev/null || true)
	st_dev=${st_dev##*/}
	[ -z "$st_dev" ] || [ ! -r "/sys/class/block/$st_dev/stat" ] ||
	    st_file=/sys/class/block/$st_dev/stat
	trap 'scratch_end' EXIT
	trap 'scratch_end; trap - EXIT; exit 130' INT TERM
	for d in "$1/$2".*; do
		[ "$d" = "$dir" ] || [ ! -d "$d" ] ||
		    echo "bench: $d, an earlier run's, is still being removed:" \
		    "the file system is busy, the figures noisier"
	done
}

scratch_parent() {
	if [ -n "${BENCH_DIR:-}" ]; then
		echo "$BENCH_DIR"
	elif [ -n "${TMPDIR:-}" ]; then
		echo "$TMPDIR"
	else
		echo "${BENCH_B:-build}/bench"
	fi
}

t() {
	t_n=$1
	shift
	[ "${settle_each:-0}" != 1 ] || settle
	t0=$(now_ns)
	"$@" > /dev/null || { echo "bench: $*: exit $?" >&2; return 1; }
	t1=$(now_ns)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' \
	    >> "$dir/$t_n.t"
}
tmed() {
	sort -g "$dir/$1.t" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
tbest() {
	sort -g "$dir/$1.t" | head -n 1
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}
pratio() {
	paste "$dir/$1.t" "$dir/$2.t" | awk 'NF == 2 && $2 > 0 { print $1 / $2 }' |
	    sort -g | awk '{ v[NR] = $1 } END { if (NR > 0)
	    printf "%.2f", v[int((NR + 1) / 2)]; else print "-" }'
}
mib() {
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'
}

# settle: sync, then wait for the disk of $dir to be idle for 0.5 s.
settle() {
	sync
	[ -n "$st_file" ] || return 0
	st_a=$(cat "$st_file")
	st_n=0
	while [ "$st_n" -lt 120 ]; do
		sleep 0.5
		st_b=$(cat "$st_file")
		[ "$st_a" = "$st_b" ] && return 0
		st_a=$st_b
		st_n=$((st_n + 1))
	done
}

scratch_add() {
	mkdir -p "$1"
	dir2=$(mktemp -d "$1/$2.XXXXXX")
	mkdir "$dir2/trash"
}

# scratch_where DIR: "ext4 (rw,relatime,discard,...)", the file system
# DIR is on and its mount options.
scratch_where() {
	findmnt -n -o FSTYPE,OPTIONS --target "$1" 2>/dev/null |
	    awk '{ print $1 " (" $2 ")"; exit }' | grep . ||
	    stat -f -c %T "$1"
}

drop() {
	rm -f "$@"
}

discard() {
	for f in "$@"; do
		[ -e "$f" ] || continue
		if [ -d "${f%/*}/trash" ]; then
			mv -f "$f" "$(mktemp "${f%/*}/trash/f.XXXXXX")"
			echo aside >> "$scratch_log"
		else
			rm -f "$f"
		fi
	done
	used=$(du -sk "$dir/trash" ${dir2:+"$dir2/trash"} |
	    awk '{ s += $1 } END { printf "%.0f", s * 1024 }')
	if [ "$used" -gt "$trash_max" ]; then
		t0=$(now_ns)
		for d in "$dir" ${dir2:+"$dir2"}; do
			rm -rf "$d/trash"
			mkdir "$d/trash"
		done
		t1=$(now_ns)
		echo "emptied $((t1 - t0))" >> "$scratch_log"
	fi
}

# scratch_summary: one line on what was removed, and what it cost.
scratch_summary() {
	awk -v m="$trash_max" '$1 == "aside" { n++ } $1 == "emptied" { e++;
	    c += $2 } END { printf "%d fsynced files set aside untimed; the " \
	    "trash (at most %.1f GiB) emptied %d times in the run, %.1f s, " \
	    "in no figure\n", n, m / 2^30, e, c / 1e9 }' "$scratch_log"
}

scratch_end() {
	[ -n "${dir:-}" ] && [ -d "$dir" ] || return 0
	kib=$(du -sk "$dir" ${dir2:+"$dir2"} | awk '{ s += $1 } END { print s }')
	if command -v setsid > /dev/null 2>&1; then
		setsid rm -rf "$dir" ${dir2:+"$dir2"} < /dev/null > /dev/null \
		    2>&1 &
	else
		nohup rm -rf "$dir" ${dir2:+"$dir2"} < /dev/null > /dev/null \
		    2>&1 &
	fi
	echo "bench: removing $dir${dir2:+ and $dir2} ($((kib / 1024)) MiB" \
	    "allocated) in the background, pid $!; not waited for"
	dir=
}
