#!/usr/bin/env bash
# End-to-end tests of the kernel log (dumpinfo --dmesg, formats/linux.c)
# against makedumpfile: on the real crash committed in tests/data/linux/
# (README there), dumpinfo --dmesg and makedumpfile --dump-dmesg of the
# same file give the same bytes, and both equal the committed text; the
# summary's last lines and panic come from the log; --json says which
# log it is; a FreeBSD minidump's --dmesg is its --msgbuf; a Linux dump
# without VMCOREINFO says what is missing; damaged logs (the vm-log-*
# kinds) against dumpcheck, dumpinfo --dmesg and makedumpfile, their
# places computed from docs/linux-fixture.md (tests/logring.py); the
# real dumps' logs without a finding.  With REAL_DUMPS=DIR (the
# make-real-dumps.sh output, /tmp/realdumps/dumps), the whole makedumpfile
# files too.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
# The damaged vmcores (64 MiB each) in memory unless TMPDIR says.
TD=${TMPDIR:-/tmp}
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && TD=/dev/shm
T=$(mktemp -d "$TD/dkdmesg.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

D=tests/data/linux
REAL=$D/real-x86_64.kdump.xz
WANT=$D/real-x86_64.dmesg

if ! command -v makedumpfile >/dev/null; then
	no "makedumpfile is installed (Debian package makedumpfile)"
	echo "$pass passed, $fail failed"
	exit 1
fi

xz -dc "$REAL" >"$T/real.kdump"
"$BIN/dumpinfo" --dmesg "$REAL" >"$T/ours" 2>"$T/err"
cmp -s "$T/ours" "$WANT" && [ ! -s "$T/err" ] &&
    ok "dumpinfo --dmesg of the real crash: the committed makedumpfile text, $(wc -l <"$WANT") lines" ||
    no "dumpinfo --dmesg of the real crash" "$(cmp "$T/ours" "$WANT" 2>&1; cat "$T/err")"
makedumpfile --dump-dmesg "$T/real.kdump" "$T/mdf" >"$T/mdf.log" 2>&1
cmp -s "$T/mdf" "$T/ours" &&
    ok "makedumpfile --dump-dmesg of the same file: the same bytes" ||
    no "makedumpfile --dump-dmesg of the same file" "$(cat "$T/mdf.log"; cmp "$T/mdf" "$T/ours" 2>&1)"
"$BIN/dumpinfo" --dmesg "$T/real.kdump" | cmp -s - "$WANT" &&
    ok "--dmesg of the decompressed file: the same" ||
    no "--dmesg of the decompressed file"
"$BIN/dumpinfo" --msgbuf "$REAL" | cmp -s - "$WANT" &&
    ok "--msgbuf of a Linux dump: its kernel log too, not escaped twice" ||
    no "--msgbuf of a Linux dump"

# The same crash as a Linux ELF vmcore (dumpconv --to elf): the vmcore
# reader takes the log through the same kernel page tables, and
# makedumpfile, which reads ELF vmcores on its own, agrees.
if "$BIN/dumpconv" -q --to elf "$T/real.kdump" -o "$T/real.elf" 2>"$T/err"; then
	"$BIN/dumpinfo" --dmesg "$T/real.elf" >"$T/ours.elf" 2>"$T/err"
	cmp -s "$T/ours.elf" "$WANT" &&
	    ok "dumpinfo --dmesg of its ELF vmcore: the committed text" ||
	    no "dumpinfo --dmesg of its ELF vmcore" "$(cmp "$T/ours.elf" "$WANT" 2>&1; cat "$T/err")"
	makedumpfile --dump-dmesg "$T/real.elf" "$T/mdf.elf" >"$T/mdf.log" 2>&1
	cmp -s "$T/mdf.elf" "$WANT" &&
	    ok "makedumpfile --dump-dmesg of that vmcore: the same bytes" ||
	    no "makedumpfile --dump-dmesg of that vmcore" "$(cat "$T/mdf.log")"
else
	no "dumpconv --to elf of the real crash" "$(cat "$T/err")"
fi

# And rewritten by dumpconv --to kdump: makedumpfile reads the log from
# our file as from its own (zero pages of the ring on the shared zero
# page; with --exclude-zero makedumpfile cannot read them, and fails).
if "$BIN/dumpconv" -q --to kdump "$T/real.kdump" -o "$T/re.kdump" 2>"$T/err"; then
	makedumpfile --dump-dmesg "$T/re.kdump" "$T/mdf.re" >"$T/mdf.log" 2>&1
	cmp -s "$T/mdf.re" "$WANT" &&
	    ok "makedumpfile --dump-dmesg of dumpconv --to kdump: the same bytes" ||
	    no "makedumpfile --dump-dmesg of dumpconv --to kdump" "$(cat "$T/mdf.log")"
	"$BIN/dumpinfo" --dmesg "$T/re.kdump" | cmp -s - "$WANT" &&
	    ok "dumpinfo --dmesg of dumpconv --to kdump: the same bytes" ||
	    no "dumpinfo --dmesg of dumpconv --to kdump"
else
	no "dumpconv --to kdump of the real crash" "$(cat "$T/err")"
fi

# The summary: the panic from the log, its last lines.
out=$("$BIN/dumpinfo" "$REAL" 2>&1)
grep -qx 'panic:        "sysrq triggered crash" (kernel log)' <<<"$out" &&
    grep -q '^kernel log (last lines):$' <<<"$out" &&
    grep -qx '  \[    6.203976\]  </TASK>' <<<"$out" &&
    ! grep -q warning <<<"$out" &&
    ok "summary: the panic message and the last lines of the kernel log" ||
    no "summary: the panic and the log's last lines" "$out"
"$BIN/dumpinfo" --json "$REAL" >"$T/j" 2>&1
python3 - "$T/j" <<'PY' && ok "--json: log_format linux-printk, its tail the log's last lines" || no "--json: the kernel log" "$(head -c 2000 "$T/j")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["log_format"] == "linux-printk", j["log_format"]
assert j["msgbuf_tail"].endswith("[    6.203976]  </TASK>\n"), j["msgbuf_tail"][-80:]
assert j["panic_string"] == {"value": "sysrq triggered crash", "source": "kernel log"}, j["panic_string"]
PY

# A FreeBSD dump: --dmesg is --msgbuf.
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 3 -q -f -o "$T/fb.md" 2>/dev/null
"$BIN/dumpinfo" --dmesg "$T/fb.md" >"$T/fb.dmesg"
"$BIN/dumpinfo" --msgbuf "$T/fb.md" >"$T/fb.msgbuf"
cmp -s "$T/fb.dmesg" "$T/fb.msgbuf" && [ -s "$T/fb.dmesg" ] &&
    ok "a FreeBSD minidump: --dmesg prints what --msgbuf prints" ||
    no "a FreeBSD minidump: --dmesg is --msgbuf"
"$BIN/dumpinfo" --json "$T/fb.md" | grep -q '"log_format": "msgbuf"' &&
    ok "--json of a FreeBSD minidump: log_format msgbuf" ||
    no "--json of a FreeBSD minidump: log_format msgbuf"

# No VMCOREINFO (QEMU's kdump of a firmware-only guest); usage.
expect_exit "--dmesg of a Linux dump without VMCOREINFO: exit 2, said" 2 \
    "holds no kernel log dumpkit reads" \
    "$BIN/dumpinfo" --dmesg tests/data/kdump/x86_64-fw.kdump-zlib.flat.xz
expect_exit "--dmesg with --read-pa: usage error" 3 "--dmesg and --read-pa" \
    "$BIN/dumpinfo" --dmesg --read-pa 0 "$REAL"
expect_exit "--dmesg with --json: usage error" 3 "not with --dmesg" \
    "$BIN/dumpinfo" --dmesg --json "$REAL"

# --- Damaged logs: the vm-log-* kinds (docs/dumpcheck.md) ---------------
# On an amd64 fixture kernel of each layout, seed 5: tests/logring.py
# computes from docs/linux-fixture.md alone where each kind's field is in
# the file (every copy of it: the kernel-text PT_LOAD and the direct
# map), checks the undamaged and the damaged value there, and the
# records dumpinfo --dmesg must still print.  dumpcheck must report the
# kind's code at the first copy's offset (the reader's) and no other
# error or warning; on the kdump file of it (dumpconv --to kdump) the
# code without an offset (the page is compressed), on the portable file
# (dumpconv) at the offset of its copy there; dumpinfo --dmesg prints
# those records, then the damage, exit 2.  makedumpfile 1.7.2
# --dump-dmesg on the same file, a second opinion, is recorded: its exit
# status and its text against ours (same: equal; more: ours is the start
# of its text, which goes on past the damage, with garbage where noted).
# KIND LAYOUT MAKEDUMPFILE-STATUS RELATION what makedumpfile does
LOGKINDS='vm-log-ring lockless 0 same prints nothing, says nothing
vm-log-ids lockless 0 more walks from the bad tail_id, skips the 9 descriptors of other ids without a word, prints all 8
vm-log-desc lockless 0 same skips record 3 without a word
vm-log-block lockless 0 other takes the positions modulo the ring: record 2 printed
vm-log-text-len lockless 0 same cuts the text to its block too
vm-log-seq lockless 0 same reads no seq
vm-log-unreadable lockless 1 none fails: cannot convert the virtual address
vm-log-ring oldlog 1 more Index outside log_buf: two lines of garbage first
vm-log-ids oldlog 1 more Index outside log_buf: a line of garbage first
vm-log-text-len oldlog 0 other prints 12 bytes of the next header as record 1 text
vm-log-record oldlog 1 more Index outside log_buf after 100 KB of garbage
vm-log-wrap oldlog 1 more Cycle when parsing dmesg detected, after record 3 again
vm-log-unreadable oldlog 1 none fails: cannot convert the virtual address'
TOP=$(pwd)
for lay in lockless oldlog; do
	v=kernel
	[ "$lay" = oldlog ] && v=kernel,oldlog
	"$BIN/dumpgen" -q --format vmcore --arch amd64 --variant "$v" \
	    --mem 64M --seed 5 -f -o "$T/clean.vmcore"
	out=$("$BIN/dumpcheck" --json "$T/clean.vmcore")
	rc=$?
	[ $rc -eq 0 ] && ! grep -q '"linux\.log-\|kernel log' <<<"$out" &&
	    ok "$lay: the clean fixture's log: no finding, checked to its end" ||
	    no "$lay: the clean fixture's log" "$rc $out"
done
while read -r kind lay mrc rel what; do
	v=kernel
	[ "$lay" = oldlog ] && v=kernel,oldlog
	t="$kind ($lay)"
	if [ ! -s "$T/clean.$lay" ]; then
		"$BIN/dumpgen" -q --format vmcore --arch amd64 --variant "$v" \
		    --mem 64M --seed 5 -f -o "$T/clean.$lay"
	fi
	"$BIN/dumpgen" -q --format vmcore --arch amd64 --variant "$v" \
	    --mem 64M --seed 5 --corrupt "$kind" -f -o "$T/d.vmcore" &&
	    "$BIN/dumpconv" -q -f "$T/d.vmcore" -o "$T/d.elf" &&
	    "$BIN/dumpconv" -q -f --to kdump "$T/d.vmcore" -o "$T/d.kdump" ||
	    { no "$t: written, converted"; continue; }
	if ! want=$(python3 "$TOP/tests/logring.py" "$kind" "$lay" 5 \
	    "$T/d.vmcore" "$T/clean.$lay" "$T/d.elf" "$T" 2>&1); then
		no "$t: the damage where docs/linux-fixture.md puts it" "$want"
		continue
	fi
	read -r code off poff <<<"$want"
	ok "$t: the field at $off (every copy) holds the damage, the clean file the fixture's value"
	for f in vmcore elf kdump; do
		at=$off
		[ $f = elf ] && at=$poff
		[ $f = kdump ] && at=-
		"$BIN/dumpcheck" --json "$T/d.$f" >"$T/j" 2>&1
		rc=$?
		python3 - "$T/j" "$code" "$at" <<'PY' && [ $rc -eq 1 ] &&
import json, sys
j = json.load(open(sys.argv[1]))["files"][0]["findings"]
code, at = sys.argv[2], sys.argv[3]
bad = [(f["code"], f.get("offset")) for f in j if f["severity"] != "note"]
assert bad == [(code, None if at == "-" else at)], bad
PY
		    ok "$t, $f: dumpcheck reports $code at $at, nothing else, exit 1" ||
		    no "$t, $f: dumpcheck: $code at $at" "$rc $(head -c 3000 "$T/j")"
	done
	"$BIN/dumpinfo" --dmesg "$T/d.vmcore" >"$T/ours" 2>"$T/err"
	rc=$?
	cmp -s "$T/ours" "$T/want.dmesg" && [ $rc -eq 2 ] &&
	    grep -q ': the kernel log: ' "$T/err" &&
	    ok "$t: dumpinfo --dmesg prints the $(wc -l <"$T/want.dmesg") lines still readable, then the damage, exit 2" ||
	    no "$t: dumpinfo --dmesg" "rc $rc $(cat "$T/err"; diff "$T/ours" "$T/want.dmesg" | head)"
	rm -f "$T/mdf"
	timeout 60 makedumpfile --dump-dmesg "$T/d.vmcore" "$T/mdf" >"$T/mdf.log" 2>&1
	rc=$?
	case $rel in
	same) cmp -s "$T/mdf" "$T/ours" ;;
	more) [ -s "$T/mdf" ] && ! cmp -s "$T/mdf" "$T/ours" &&
		cmp -s -n "$(wc -c <"$T/ours")" "$T/mdf" "$T/ours" ;;
	other) [ -s "$T/mdf" ] && ! cmp -s "$T/mdf" "$T/ours" ;;
	none) [ ! -e "$T/mdf" ] ;;
	esac && [ $rc -eq "$mrc" ] &&
	    ok "$t: makedumpfile --dump-dmesg exits $mrc, $rel: $what" ||
	    no "$t: makedumpfile --dump-dmesg ($mrc, $rel: $what)" "rc $rc $(cat "$T/mdf.log")"
done <<<"$LOGKINDS"
# The real dumps: their logs have no finding (the real crash's is
# walked to its end; the committed vmcores' cut or partial files lose it
# to the cut: a note, not damage).
for f in "$REAL" tests/data/vmcore/*.xz; do
	out=$("$BIN/dumpcheck" --json "$f" 2>&1)
	! grep -q '"linux\.log-' <<<"$out" &&
	    { [ "$f" != "$REAL" ] || ! grep -q 'kernel log' <<<"$out"; } &&
	    ok "$(basename "$f"): no linux.log-* finding" ||
	    no "$(basename "$f"): a log finding" "$(grep -A3 'linux\.log-\|kernel log' <<<"$out")"
done

# The whole makedumpfile files of a make-real-dumps.sh run, if given.
if [ -n "${REAL_DUMPS:-}" ] && [ -d "$REAL_DUMPS/mdf" ]; then
	for f in mdf-zlib-d31.kdump mdf-lzo-d31.kdump mdf-none-d31.kdump \
	    mdf-lzo-d31.flat; do
		"$BIN/dumpinfo" --dmesg "$REAL_DUMPS/mdf/$f" |
		    cmp -s - "$REAL_DUMPS/mdf/dmesg.txt" &&
		    ok "$f: --dmesg is makedumpfile's dmesg.txt" ||
		    no "$f: --dmesg is makedumpfile's dmesg.txt"
	done
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
