#!/bin/bash
# kthreads.sh -- the threads of a FreeBSD dump in a plain ELF core (issue
# 15, docs/kthreads.md): dumpgen --kernel-out writes an amd64 minidump
# with a process list, named threads, pcbs and frame-pointer stacks, and
# a FreeBSD-like kernel ELF; dumpconv --kernel turns them into
# NT_PRSTATUS notes; stock gdb-multiarch and readelf read them.
#
# The expected answers are written here by hand from docs/kthreads.md
# ("The fixture"): the threads' table, the register formula
# (seed & 0xffff) << 48 | tid << 8 | pcb word, the frames' functions,
# the panic string.  Damaged lists must fail fast with a clear message,
# and convert with --no-threads.
set -u
B=${B:-build}
. "$(dirname "$0")/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SEED=4660	# 0x1234
GEN="$B/bin/dumpgen -q --arch amd64 --mem 64M --seed $SEED"

for t in gdb-multiarch readelf; do
	command -v $t >/dev/null || { no "$t is installed (README)"; }
done

# Each architecture done end to end: its register names (gdb's) and pcb
# word indices for the formula, and its frames' pc offset (kpc).
run_arch() {	# ARCH
	local A=$1 REGS KPC P END n kid cid syms bad out got want
	case $A in
	amd64) REGS="r15:0 r14:1 r13:2 r12:3 rbx:6" KPC=8 ;;
	i386) REGS="edi:0 esi:1 ebx:4" KPC=8 ;;
	aarch64) REGS="x19:0 x20:1 x21:2 x22:3 x23:4 x24:5 x25:6 x26:7 x27:8 x28:9" KPC=8 ;;
	powerpc64|powerpc64le) REGS=$(for i in $(seq 12 31); do printf 'r%d:%d ' $i $((i - 12)); done) KPC=16 ;;
	riscv64) REGS="gp:2 tp:3 s1:5 s2:6 s3:7 s4:8 s5:9 s6:10 s7:11 s8:12 s9:13 s10:14 s11:15" KPC=16 ;;
	arm|armeb) REGS="r4:0 r5:1 r6:2 r7:3 r8:4 r9:5 r10:6 r12:8" KPC=8 ;;
	mips*) REGS="s0:74 s1:75 s2:76 s3:77 s4:78 s5:79 s6:80 s7:81 gp:86" KPC=16 ;;
	esac
	# The frame after the chain's end: gdb shows pc 0 where a frame
	# pointer chain ends; powerpc's back chain of 0 ends it with none.
	case $A in powerpc64*) END= ;; *) END=1 ;; esac
	$GEN --arch $A -o "$T/$A.md" --kernel-out "$T/$A.k" ||
		no "$A: dumpgen --kernel-out"
	check "$A: dumpconv --kernel" timeout 60 "$B/bin/dumpconv" -q --kernel \
		"$T/$A.k" "$T/$A.md" -o "$T/$A.elf"
	# --info --kernel plans the thread notes too: its size is the file's.
	got=$("$B/bin/dumpconv" --info --kernel "$T/$A.k" "$T/$A.md" |
		sed -n 's/^file size: *\([0-9]*\) bytes$/\1/p')
	[ "$got" = "$(stat -c %s "$T/$A.elf")" ] &&
		ok "$A: dumpconv --info --kernel: the file's size ($got)" ||
		no "$A: dumpconv --info --kernel: the file's size" \
		"--info says '$got', the file has $(stat -c %s "$T/$A.elf")"
	# A 32-bit target gdb reads from ELFCLASS32 only (BFD has no 64-bit
	# ARM target; an ELFCLASS64 MIPS file is n64): the debugger core.
	C=$T/$A.elf
	case $A in arm|armeb|mips|mipsel|mipsn32|mipsn32el)
		C=$T/$A.core
		check "$A: dumpconv --to elf --elf32 --kernel: the debugger core" \
			timeout 60 "$B/bin/dumpconv" -q --to elf --elf32 --kernel \
			"$T/$A.k" "$T/$A.md" -o "$C"
		got=$(readelf -hW "$C" | awk -F: '/Class:|Type:/ { gsub(/^ +/, "", $2); printf "%s;", $2 }')
		[ "$got" = "ELF32;CORE (Core file);" ] && ok "$A: readelf: the debugger core is an ELF32 core" ||
			no "$A: readelf -h of the debugger core" "$got" ;;
	esac

	# readelf: 8 NT_PRSTATUS, one NT_PRPSINFO, the kernel's build-id.
	n=$(readelf -n "$C" | grep -c 'NT_PRSTATUS')
	[ "$n" = 8 ] && ok "$A: readelf: 8 NT_PRSTATUS" || no "$A: readelf: 8 NT_PRSTATUS" "$n"
	n=$(readelf -n "$C" | grep -c 'NT_PRPSINFO')
	[ "$n" = 1 ] && ok "$A: readelf: one NT_PRPSINFO" || no "$A: readelf: NT_PRPSINFO" "$n"
	kid=$(readelf -n "$T/$A.k" | sed -n 's/.*Build ID: //p')
	cid=$(readelf -n "$C" | sed -n 's/.*Build ID: //p')
	[ -n "$kid" ] && [ "$kid" = "$cid" ] && ok "$A: NT_GNU_BUILD_ID is the kernel's ($kid)" ||
		no "$A: NT_GNU_BUILD_ID" "kernel '$kid', core '$cid'"
	# The kernel image has the real kernels' names, in their sections.
	syms=$(readelf -sW "$T/$A.k")
	bad=
	P=8; case $A in i386|arm|armeb|mips|mipsel|mipsn32|mipsn32el) P=4 ;; esac
	for s in allproc:OBJECT:$P dumptid:OBJECT:4 proc_off_p_pid:OBJECT:4 \
		thread_off_td_plist:OBJECT:4 pcb_size:OBJECT:4 mp_maxid:OBJECT:4 \
		panicstr:OBJECT:$P stopped_cpus:OBJECT:128 doadump:FUNC:32 btext:FUNC:32; do
		IFS=: read -r name type size <<<"$s"
		awk -v n="$name" -v t="$type" -v z="$size" \
		    '$8 == n && $4 == t && $3 == z { f = 1 } END { exit !f }' \
		    <<<"$syms" || bad="$bad $name"
	done
	[ -z "$bad" ] && ok "$A: readelf -s: the kernel's symbols, types and sizes" ||
		no "$A: readelf -s: symbols" "missing or wrong:$bad"

	# Without --kernel: no thread notes, and -v says what --kernel adds.
	out=$("$B/bin/dumpconv" -v --arch $A "$T/$A.md" -o "$T/$A.plain" 2>&1)
	n=$(readelf -n "$T/$A.plain" | grep -c 'NT_PRSTATUS')
	[ "$n" = 0 ] && grep -q 'with --kernel FILE' <<<"$out" &&
		ok "$A: without --kernel: no NT_PRSTATUS, and -v says what --kernel adds" ||
		no "$A: without --kernel" "$n notes; $out"

	# gdb-multiarch: threads, registers, backtraces, the panic string.
	"$B/bin/dumpinfo" --threads --gdb --kernel "$T/$A.k" "$T/$A.elf" >"$T/$A.gdb"
	G=(timeout 120 gdb-multiarch -nx -batch -ex "set osabi GNU/Linux"
		-ex "file $T/$A.k" -ex "core-file $C")
	out=$("${G[@]}" -x "$T/$A.gdb" -ex "info threads" 2>&1)
	# The threads, by hand from docs/kthreads.md: gdb id, tid, names, frame.
	want='* 1 LWP 100077 "sh/sh" doadump
2 LWP 100000 "kernel/swapper" mi_switch
3 LWP 100009 "kernel/thread taskq" mi_switch
4 LWP 100002 "init/init" mi_switch
5 LWP 100003 "idle/idle: cpu0" mi_switch
6 LWP 100004 "idle/idle: cpu1" cpustop_handler
7 LWP 100014 "intr/swi4: clock (0)" mi_switch
8 LWP 100071 "csh/csh" mi_switch'
	got=$(sed -n 's/^\(\*\|\) *\([0-9]\+\) \+\(LWP [0-9]\+\) \+\("[^"]*"\) .* in \([a-z_]*\) ().*/\1 \2 \3 \4 \5/p' <<<"$out" | sed 's/^ //')
	[ "$got" = "$want" ] && ok "$A: gdb info threads: the 8 threads with names, the crashed one current" ||
		no "$A: gdb info threads" "got:
	$got
	gdb said:
	$out"

	# info registers of each thread: the formula's values.
	bad=0
	for i in 1:100077 2:100000 3:100009 4:100002 5:100003 6:100004 7:100014 8:100071; do
		IFS=: read -r id tid <<<"$i"
		out=$("${G[@]}" -ex "thread $id" -ex "info registers $(sed 's/:[0-9]*//g' <<<"$REGS")" 2>&1)
		for r in $REGS; do
			IFS=: read -r name w <<<"$r"
			v=$(awk -v n="$name" '{ sub(/:$/, "", $1) } $1 == n { print $2 }' <<<"$out")
			[ "$v" = "$(reg "$tid" "$w")" ] || {
				bad=1; no "$A: gdb info registers $name of thread $id (tid $tid)" \
				    "gdb $v, expected $(reg "$tid" "$w")"; }
		done
	done
	[ $bad = 0 ] && ok "$A: gdb info registers: $(sed 's/:[0-9]*//g' <<<"$REGS") of all 8 threads are the generated pcb values"

	# bt: every frame of the crashed thread's chain, to its end.
	out=$("${G[@]}" -ex 'echo @@\n' -ex "bt" 2>&1)
	got=$(frames <<<"$out")
	want="0 doadump 1 kern_reboot 2 vpanic 3 panic 4 kdb_sysctl_panic 5 sysctl_root_handler_locked 6 amd64_syscall 7 fast_syscall_common ${END:+8 ?? }"
	[ "$got" = "$want" ] && ok "$A: gdb bt: the crashed thread's 8 frames to the chain's end" ||
		no "$A: gdb bt" "got '$got'
	want '$want'
	$out"
	out=$("${G[@]}" -ex "thread 6" -ex "info symbol \$pc" -ex 'echo @@\n' -ex "bt" 2>&1)
	got=$(frames <<<"$out")
	[ "$got" = "0 cpustop_handler 1 ipi_nmi_handler 2 trap 3 sched_idletd 4 fork_exit ${END:+5 ?? }" ] &&
		grep -q "^cpustop_handler + $KPC in section .text" <<<"$out" &&
		ok "$A: gdb: the thread stopped on CPU 1 has stoppcbs[1]'s registers and frames" ||
		no "$A: gdb thread 6" "$out"
	out=$("${G[@]}" -ex 'x/s *(char **)&panicstr' 2>&1 | tail -1)
	grep -q '"kdb_sysctl_panic"$' <<<"$out" && ok "$A: gdb x/s panicstr: the panic string" ||
		no "$A: gdb x/s panicstr" "$out"

	# dumpinfo --ps and --threads, text and JSON, on the dump and its
	# conversion: PID, PPID (the tree, derived here from the seed rule
	# of docs/kthreads.md), STAT (by hand from the fixture's table),
	# threads, command.
	want=$(ps_want)
	for f in $A.md $A.elf; do
		got=$("$B/bin/dumpinfo" --ps --kernel "$T/$A.k" "$T/$f" 2>"$T/$A.err" | awk 'NR > 1 { print $1, $2, $3, $4, $5 }')
		[ "$got" = "$want" ] && [ ! -s "$T/$A.err" ] && ok "$A: dumpinfo --ps $f: PID, PPID, STAT, threads, command" ||
			no "$A: dumpinfo --ps $f" "got:
	$got
	want:
	$want
	stderr: $(cat "$T/$A.err")"
	done
	got=$("$B/bin/dumpinfo" --threads --json --kernel "$T/$A.k" "$T/$A.md" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["panic"], len(d["threads"]), [ (t["tid"], t["registers_from"]) for t in d["threads"] if t["registers_from"] != "td_pcb"], " ".join(t["state"] for t in d["threads"]))')
	[ "$got" = "kdb_sysctl_panic 8 [(100004, 'stoppcbs'), (100077, 'dumppcb')] inhibited runq inhibited can_run running inhibited inhibited running" ] &&
		ok "$A: dumpinfo --threads --json: registers' sources, each thread's state" || no "$A: dumpinfo --threads --json" "$got"

	# The fixture's DWARF: readelf and eu-readelf parse it without a
	# complaint; gdb's layout of the structs is the one documented.
	for r in readelf eu-readelf; do
		out=$($r --debug-dump=info "$T/$A.k" 2>&1 >/dev/null); rc=$?
		[ $rc = 0 ] && [ -z "$out" ] && $r --debug-dump=info "$T/$A.k" | grep -q 'p_pptr' &&
			ok "$A: $r --debug-dump=info: the kernel's DWARF, no complaint" ||
			no "$A: $r --debug-dump=info" "exit $rc: $out"
	done
	out=$(timeout 120 gdb-multiarch -nx -batch -ex "file $T/$A.k" \
		-ex 'print sizeof(struct proc)' -ex 'print sizeof(struct thread)' \
		-ex 'print &((struct proc *)0)->p_pptr' -ex 'print &((struct proc *)0)->p_state' \
		-ex 'print &((struct proc *)0)->p_oppid' -ex 'print &((struct proc *)0)->p_pid' \
		-ex 'print &((struct thread *)0)->td_state' -ex 'print &((struct thread *)0)->td_tid' \
		-ex 'ptype/o struct proc' 2>&1)
	got=$(sed -n 's/^\$[0-9]* = //p' <<<"$out" | tr '\n' ';')
	want="128;128;(struct proc **) 0x38;(enum p_states *) 0x30;(pid_t *) 0x40;(pid_t *) 0x48;(enum td_states *) 0x20;(lwpid_t *) 0x28;"
	lo=$(awk '/\*\/ *struct proc \*p_pptr;$/ { print $2, $4 }' <<<"$out")
	[ "$got" = "$want" ] && [ "$lo" = "56 $P" ] &&
		grep -q 'enum p_states p_state;' <<<"$out" &&
		ok "$A: gdb: sizeof, the members' offsets and ptype/o struct proc (p_pptr at 56, $P bytes) are the fixture's" ||
		no "$A: gdb: the DWARF's layout" "got '$got' ($lo)
	want '$want'
	$out"

	# gdb reads the parent, the states through the core by itself:
	# p_pptr->p_pid, p_state, td_state of each process, as dumpinfo's.
	"$B/bin/dumpinfo" --ps --json --kernel "$T/$A.k" "$T/$A.md" >"$T/$A.ps.json"
	"$B/bin/dumpinfo" --threads --json --kernel "$T/$A.k" "$T/$A.md" >"$T/$A.td.json"
	mapfile -t cmds < <(python3 - "$T/$A.ps.json" "$T/$A.td.json" $P <<'PY'
import json, sys
ps = json.load(open(sys.argv[1]))["processes"]
td = json.load(open(sys.argv[2]))["threads"]
m = (1 << 32) - 1 if sys.argv[3] == "4" else (1 << 64) - 1
for p in ps:
    a = int(p["proc"], 16) & m
    print("print ((struct proc *)%#x)->p_pptr ? ((struct proc *)%#x)->p_pptr->p_pid : 0" % (a, a))
    print("print ((struct proc *)%#x)->p_state" % a)
for t in td:
    print("print ((struct thread *)%#x)->td_state" % (int(t["thread"], 16) & m))
PY
)
	args=()
	for c in "${cmds[@]}"; do args+=(-ex "$c"); done
	out=$("${G[@]}" "${args[@]}" 2>&1 | sed -n 's/^\$[0-9]* = //p' | tr '\n' ' ')
	want=$(python3 - "$T/$A.ps.json" "$T/$A.td.json" <<'PY'
import json, sys
ps = json.load(open(sys.argv[1]))["processes"]
td = json.load(open(sys.argv[2]))["threads"]
prs = ["PRS_NEW", "PRS_NORMAL", "PRS_ZOMBIE"]
tds = ["TDS_INACTIVE", "TDS_INHIBITED", "TDS_CAN_RUN", "TDS_RUNQ", "TDS_RUNNING"]
print(" ".join("%d %s" % (p["ppid"], prs[p["p_state"]]) for p in ps),
      " ".join(tds[t["td_state"]] for t in td), "")
PY
)
	[ "$out" = "$want" ] && ok "$A: gdb through the core: every p_pptr->p_pid, p_state and td_state is dumpinfo's" ||
		no "$A: gdb through the core: parents and states" "gdb '$out'
	dumpinfo '$want'"
}

# The processes dumpinfo --ps must print for seed $SEED: PID, PPID (the
# tree of docs/kthreads.md: proc0 none, init proc0, process k >= 2 the
# process splitmix64(seed ^ 0x7070696475)'s k-1th output mod k, in
# allproc order), STAT, threads, command.
ps_want() {
	python3 - $SEED <<'PY'
import sys
M = (1 << 64) - 1
s = int(sys.argv[1]) ^ 0x7070696475
def nxt():
    global s
    s = (s + 0x9e3779b97f4a7c15) & M
    z = s
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return z ^ (z >> 31)
procs = [(0, "D", 2, "kernel"), (1, "I", 1, "init"),
         (11, "R", 2, "idle"), (12, "W", 1, "intr"),
         (722, "S", 1, "csh"), (723, "R", 1, "sh"),
         (724, "Z", 0, "sleep")]
for k, (pid, stat, thr, comm) in enumerate(procs):
    ppid = 0 if k < 2 else procs[nxt() % k][0]
    print(pid, ppid, stat, thr, comm)
PY
}

reg() {	# TID WORD -> the value (32-bit kernels: the low word, no seed)
	if [ "$A" = i386 ] || [ "$A" = arm ] || [ "$A" = armeb ] || [ "$A" = mips ] || [ "$A" = mipsel ]; then
		printf '0x%x' $(( $1 << 8 | $2 ))
	else
		printf '0x%x' $(( (SEED & 0xffff) << 48 | $1 << 8 | $2 ))
	fi
}
frames() {	# gdb output -> the function of each frame after the @@ mark
	sed -n '/^@@$/,$p' | sed -n 's/^#\([0-9]\+\) .* in \([a-z_0-9?]*\) ().*/\1 \2/p' |
		tr '\n' ' '
}
for A in amd64 i386 aarch64 riscv64 powerpc64 powerpc64le arm armeb mips mipsel mipsn32 mipsn32el mips64 mips64el; do
	run_arch $A
done

# arm: the portable file is ELFCLASS64, and BFD has no 64-bit ARM target:
# gdb-multiarch reads no register of it ("Couldn't find general-purpose
# registers"; gdb reads the debugger core above).  The portable file's
# notes are checked here against the layout written by hand from
# docs/kthreads.md: NT_PRSTATUS of 148 bytes, pr_pid at 24, pr_reg at 72
# (r0-r15, cpsr, orig_r0, 4 bytes each).
A=arm
doadump=$(readelf -sW "$T/arm.k" | awk '$8 == "doadump" { print $2 }')
got=$(python3 - "$T/arm.elf" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb').read()
phoff, = struct.unpack_from('<Q', f, 32)
_, _, off, _, _, size = struct.unpack_from('<IIQQQQ', f, phoff)
at, out = off, []
while at < off + size:
    nsz, dsz, typ = struct.unpack_from('<III', f, at)
    name = f[at + 12:at + 12 + nsz]
    d = at + 12 + (nsz + 3) // 4 * 4
    if name == b'CORE\0' and typ == 1:
        pid, = struct.unpack_from('<i', f, d + 24)
        regs = struct.unpack_from('<18I', f, d + 72)
        out.append('%d %d %#x %#x %#x' % (dsz, pid, regs[4], regs[10], regs[15]))
    at = d + (dsz + 3) // 4 * 4
print(len(out), out[0], out[5])
PY
)
want="8 148 100077 $(reg 100077 0) $(reg 100077 6) 0x$(printf %x $((0x$doadump + 8))) 148 100004 $(reg 100004 0) $(reg 100004 6) 0x$(printf %x $((0x$doadump + 13 * 32 + 8)))"
[ "$got" = "$want" ] && ok "arm: 8 NT_PRSTATUS by the spec's layout: pr_pid, r4, r10, pc of the crashed and the stopped thread" ||
	no "arm: NT_PRSTATUS" "got '$got', want '$want'"
GEN="$GEN --arch amd64"

# The debugger core is for 32-bit kernels: amd64's is refused, nothing written.
$GEN -o "$T/c64.md" --kernel-out "$T/c64.k"
expect_exit "dumpconv --to elf --elf32 --kernel of an amd64 dump: refused, exit 3" 3 \
	"a debugger core of ELFCLASS32 is for a 32-bit kernel, this is amd64" \
	"$B/bin/dumpconv" -q --to elf --elf32 --kernel "$T/c64.k" "$T/c64.md" -o "$T/c64.core"
[ ! -e "$T/c64.core" ] && ok "no file left by the refused debugger core" || no "the refused debugger core left a file"

# A kernel with no process list (a full core's, dumpgen --format elf):
# the conversion goes on without thread notes, and says so unless -q.
$GEN --format elf -o "$T/nolist.core" --kernel-out "$T/nolist.k"
expect_exit "dumpconv --kernel, a kernel without allproc: a warning, exit 0" 0 \
	"warning: no thread notes: .*no symbol allproc" \
	"$B/bin/dumpconv" --kernel "$T/nolist.k" "$T/nolist.core" -o "$T/nolist.elf"
out=$("$B/bin/dumpconv" -q -f --kernel "$T/nolist.k" "$T/nolist.core" -o "$T/nolist.elf" 2>&1)
[ -z "$out" ] && [ "$(readelf -n "$T/nolist.elf" | grep -c NT_PRSTATUS)" = 0 ] &&
	ok "dumpconv -q --kernel, no process list: silent, no NT_PRSTATUS" ||
	no "dumpconv -q --kernel, no process list" "$out"

# Damaged lists: a clear error, quickly; --no-threads converts.
for k in "cycle:a cycle" "unmapped:not readable in the dump" \
	"offset:thread_off_td_tid at 0x[0-9a-f]+ is 0x7fffffff: expected an offset"; do
	IFS=: read -r kind re <<<"$k"
	$GEN -o "$T/$kind.md" --kernel-out "$T/$kind.k" --damage-threads "$kind"
	expect_exit "dumpconv --kernel, damaged list ($kind): exit 2, '$re'" 2 "$re" \
		timeout 20 "$B/bin/dumpconv" -q --kernel "$T/$kind.k" "$T/$kind.md" -o "$T/$kind.elf"
	[ ! -e "$T/$kind.elf" ] || no "no output left by the failed conversion ($kind)"
	check "dumpconv --kernel --no-threads converts the damaged dump ($kind)" \
		timeout 60 "$B/bin/dumpconv" -q --no-threads --kernel "$T/$kind.k" \
		"$T/$kind.md" -o "$T/$kind.elf"
	expect_exit "dumpinfo --threads, damaged list ($kind): exit 2" 2 "$re" \
		timeout 20 "$B/bin/dumpinfo" --threads --kernel "$T/$kind.k" "$T/$kind.md"

	expect_exit "dumpcheck --kernel, damaged list ($kind): kernel.threads, exit 1" 1 \
		"kernel.threads: .*$re" timeout 60 "$B/bin/dumpcheck" --kernel "$T/$kind.k" "$T/$kind.md"
done

# A kernel without DWARF (stripped of .debug_*): the walk as before, PPID
# and STAT "-", and why, once; JSON nulls.
$GEN -o "$T/dw.md" --kernel-out "$T/dw.k"
objcopy --strip-debug "$T/dw.k" "$T/nodw.k"
got=$("$B/bin/dumpinfo" --ps --kernel "$T/nodw.k" "$T/dw.md" 2>"$T/nodw.err" | awk 'NR > 1 { print $2 $3 }' | sort -u)
[ "$got" = "--" ] && [ "$(wc -l <"$T/nodw.err")" = 1 ] &&
	grep -q "^dumpinfo: PPID and STAT are -: $T/nodw.k: no DWARF" "$T/nodw.err" &&
	ok "dumpinfo --ps, a kernel without DWARF: PPID and STAT -, and why, once" ||
	no "dumpinfo --ps without DWARF" "columns '$got'; stderr: $(cat "$T/nodw.err")"
got=$("$B/bin/dumpinfo" --ps --json --kernel "$T/nodw.k" "$T/dw.md" 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["processes"]), {(p["ppid"], p["stat"], p["p_state"]) for p in d["processes"]}, "no DWARF" in d["layout_note"])')
[ "$got" = "7 {(None, None, None)} True" ] && ok "dumpinfo --ps --json without DWARF: ppid, stat null; the note" ||
	no "dumpinfo --ps --json without DWARF" "$got"
# A member the DWARF puts past its struct: not read (no wild read), said;
# dumpcheck's kernel.dwarf-layout.  p_oppid still gives the PPIDs whose
# parent is not proc0 (PID 0, which p_oppid cannot tell from none).
$GEN -o "$T/dwd.md" --kernel-out "$T/dwd.k" --damage-threads dwarf
got=$("$B/bin/dumpinfo" --ps --kernel "$T/dwd.k" "$T/dwd.md" 2>"$T/dwd.err" | awk 'NR > 1 { print $1, $2 }' | tr '\n' ' ')
want=$(ps_want | awk '{ print $1, ($2 == 0 ? "-" : $2) }' | tr '\n' ' ')
[ "$got" = "$want" ] && grep -q "struct proc member p_pptr at offset 0x1000 (8 bytes) lies outside the struct's 128 bytes" "$T/dwd.err" &&
	ok "dumpinfo --ps, p_pptr past struct proc in the DWARF: not read, said; p_oppid's PPIDs" ||
	no "dumpinfo --ps, damaged DWARF" "got '$got', want '$want'; $(cat "$T/dwd.err")"
expect_exit "dumpcheck --kernel, p_pptr past struct proc: kernel.dwarf-layout (a warning), exit 0" 0 \
	"kernel.dwarf-layout: .*p_pptr at offset 0x1000" "$B/bin/dumpcheck" --kernel "$T/dwd.k" "$T/dwd.md"
expect_exit "dumpcheck --kernel's summary counts kernel.dwarf-layout as a warning" 0 \
	": 0 errors, 1 warning, " "$B/bin/dumpcheck" --kernel "$T/dwd.k" "$T/dwd.md"

# dumpcheck --kernel: the matching kernel, one of another build (seed:
# another build-id), one of another layout; in a device image, whose
# kerneldumpheader carries the version string too.
$GEN -o "$T/m.img" --kernel-out "$T/m.k" --container device
expect_exit "dumpcheck --kernel, the dump's own kernel: exit 0" 0 ": 0 errors, 0 warnings, 0 notes" \
	"$B/bin/dumpcheck" --kernel "$T/m.k" "$T/m.img"
$B/bin/dumpgen -q --arch amd64 --mem 64M --seed 99 -o "$T/o.md" --kernel-out "$T/o.k"
expect_exit "dumpcheck --kernel, another build (seed): kernel.build-id-mismatch, exit 1" 1 \
	"kernel.build-id-mismatch: .*build-id $(readelf -n "$T/o.k" | sed -n 's/.*Build ID: //p'), the dump's memory at 0x[0-9a-f]+ has $(readelf -n "$T/m.k" | sed -n 's/.*Build ID: //p')" \
	"$B/bin/dumpcheck" --kernel "$T/o.k" "$T/m.img"
out=$("$B/bin/dumpcheck" --kernel "$T/o.k" "$T/m.img" 2>&1)
grep -q "kernel.version-mismatch: .*kerneldumpheader's versionstring is \"FreeBSD 14.1-RELEASE dumpgen #0: Thu Jan  1 00:00:00 UTC 2026\", the kernel's" <<<"$out" ||
	grep -q "kernel.version-mismatch: .*dumpgen@fixture99" <<<"$out" &&
	ok "dumpcheck --kernel, another build: kernel.version-mismatch (the header's and the memory's version strings)" ||
	no "dumpcheck --kernel: version mismatch" "$out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
