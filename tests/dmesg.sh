#!/usr/bin/env bash
# End-to-end tests of the kernel log (dumpinfo --dmesg, formats/linux.c)
# against makedumpfile: on the real crash committed in tests/data/linux/
# (README there), dumpinfo --dmesg and makedumpfile --dump-dmesg of the
# same file give the same bytes, and both equal the committed text; the
# summary's last lines and panic come from the log; --json says which
# log it is; a FreeBSD minidump's --dmesg is its --msgbuf; a Linux dump
# without VMCOREINFO says what is missing.  With REAL_DUMPS=DIR (the
# make-real-dumps.sh output, /tmp/realdumps/dumps), the whole makedumpfile
# files too.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkdmesg.XXXXXX")
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
