#!/usr/bin/env bash
# End-to-end tests of the tools, as a user runs them.  Byte values are
# checked against tests/pattern.py, an independent implementation of
# docs/fixture-pattern.md.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
PATTERN="python3 $HERE/pattern.py"
T=$(mktemp -d "${TMPDIR:-/tmp}/dkcli.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

hexbytes() { od -An -v -tx1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }

# --help and --version on every tool.
for tool in dumpgen dumpinfo; do
	expect_exit "$tool --help" 0 "usage: $tool" "$BIN/$tool" --help
	expect_exit "$tool --version" 0 "^$tool \(dumpkit\) [0-9]" "$BIN/$tool" --version
	expect_exit "$tool rejects an unknown option" 3 "usage:" "$BIN/$tool" --no-such-option
done

# Every row of --list generates, and dumpinfo reads it back as that row.
rows=$("$BIN/dumpgen" --list | tail -n +2)
nrows=$(wc -l <<<"$rows")
[ "$nrows" -ge 21 ] && ok "dumpgen --list has $nrows rows" || no "dumpgen --list has $nrows rows"
while read -r fmt arch ver variant _; do
	[ "$fmt" = elf ] && continue	# full ELF cores: tests/fullelf.sh
	[ "$fmt" = vmcore ] && continue	# Linux ELF vmcores: tests/vmcore_write.sh
	f="$T/$arch-$ver-$variant"
	if ! out=$("$BIN/dumpgen" --arch "$arch" --version "$ver" --variant "$variant" \
	    --mem 48M --seed 3 -q -o "$f" 2>&1); then
		no "generate $fmt $arch v$ver $variant" "$out"; continue
	fi
	if ! js=$("$BIN/dumpinfo" --json "$f" 2>&1); then
		# Where the header cannot tell (mips o32/n32), dumpinfo must
		# say so, name this row among the candidates, and take --arch.
		if grep -q "could have been written by.*\b$arch\b" <<<"$js"; then
			ok "$arch v$ver $variant: ambiguous without --arch, and says so"
			js=$("$BIN/dumpinfo" --arch "$arch" --json "$f" 2>&1) ||
			    { no "dumpinfo --arch $arch v$ver $variant" "$js"; continue; }
		else
			no "dumpinfo $arch v$ver $variant" "$js"; continue
		fi
	fi
	got=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["format"], d["arch"], d["version"], d["truncated"])' <<<"$js")
	[ "$got" = "$fmt $arch $ver False" ] && ok "$arch v$ver $variant: dumpinfo --json says '$got'" \
	    || no "$arch v$ver $variant: dumpinfo --json says '$got'"
	rm -f "$f"
done <<<"$rows"

# Determinism and the refusal to overwrite.
"$BIN/dumpgen" --arch amd64 --version 2 --mem 64M --seed 9 -q -o "$T/a"
"$BIN/dumpgen" --arch amd64 --version 2 --mem 64M --seed 9 -q -o "$T/b"
check "same arguments, same bytes" cmp "$T/a" "$T/b"
"$BIN/dumpgen" --arch amd64 --version 2 --mem 64M --seed 10 -q -o "$T/c"
if cmp -s "$T/a" "$T/c"; then no "another seed, other bytes"; else ok "another seed, other bytes"; fi
sum=$(md5sum <"$T/a")
expect_exit "an existing output is refused" 2 "exists.*--force" \
    "$BIN/dumpgen" --arch amd64 --seed 10 -q -o "$T/a"
[ "$(md5sum <"$T/a")" = "$sum" ] && ok "the refused output is untouched" || no "the refused output is untouched"
check "--force replaces it" "$BIN/dumpgen" --arch amd64 --version 2 --mem 64M --seed 10 -q --force -o "$T/a"
check "the replacement is the new dump" cmp "$T/a" "$T/c"
# A write that fails half way leaves nothing behind (file size limit).
mkdir "$T/w"
( trap '' XFSZ; ulimit -f 2048; "$BIN/dumpgen" --arch amd64 --mem 64M -q -o "$T/w/out" ) >"$T/w.log" 2>&1
rc=$?
left=$(ls -A "$T/w")
[ "$rc" -eq 2 ] && [ -z "$left" ] && ok "a failed write leaves no file (exit $rc)" \
    || no "a failed write leaves no file" "exit $rc, left: $left; $(cat "$T/w.log")"
expect_exit "usage error: --mem" 3 "--mem" "$BIN/dumpgen" --arch amd64 --mem lots -o "$T/x"
expect_exit "unknown architecture" 3 "unknown architecture 'vax'" "$BIN/dumpgen" --arch vax -o "$T/x"
expect_exit "unknown variant" 3 "no fixture amd64 version 3 variant pae" \
    "$BIN/dumpgen" --arch amd64 --variant pae -o "$T/x"
# --format: the row's own format or a full core; the kinds of that format.
expect_exit "sparc64 has no minidump" 3 "sparc64 dumps are --format sparc64 or elf" \
    "$BIN/dumpgen" --arch sparc64 --format minidump -o "$T/x"
expect_exit "--format sparc64 is sparc64's" 3 "amd64 dumps are --format minidump or elf" \
    "$BIN/dumpgen" --arch amd64 --format sparc64 -o "$T/x"
expect_exit "a full core takes elf-* kinds" 3 \
    "--corrupt sp64-hdr-size does not apply to full ELF cores \(sparc64 only\)" \
    "$BIN/dumpgen" --arch amd64 --format elf --corrupt sp64-hdr-size -o "$T/x"
expect_exit "a minidump does not take elf-* kinds" 3 \
    "--corrupt elf-overlap does not apply to minidumps \(full ELF cores only\)" \
    "$BIN/dumpgen" --arch amd64 --corrupt elf-overlap -o "$T/x"
expect_exit "sparc64 dumps have one version" 3 "sparc64 dumps have one version, 1, not '2'" \
    "$BIN/dumpgen" --arch sparc64 --version 2 -o "$T/x"
[ ! -e "$T/x" ] && ok "no refused --format left a file" || no "no refused --format left a file"

# Reading memory, compared with the documented pattern.
D="$T/d3"
"$BIN/dumpgen" --arch amd64 --version 3 --mem 256M --seed 7 -q -o "$D"
runs=$("$BIN/dumpinfo" -v "$D" | awk '/^  pa /{print $2, $4}')
n=0 bad=0
while read -r start end; do
	for pa in $(( start )) $(( end - 64 )); do
		pax=$(printf '%#x' "$pa")
		want=$($PATTERN 7 "$pax" 64)
		got=$("$BIN/dumpinfo" --read-pa "$pax:64" --raw "$D" | hexbytes)
		n=$((n + 1))
		# Page-table pages (taken from 1 MiB up, below the kernel
		# image at 2 MiB) hold page tables, not the pattern.
		if [ "$pa" -ge $((0x100000)) ] && [ "$pa" -lt $((0x200000)) ]; then continue; fi
		[ "$got" = "$want" ] || { bad=$((bad + 1)); echo "#   pa $pax: got $got want $want"; }
	done
	[ $n -ge 80 ] && break
done <<<"$runs"
[ $bad -eq 0 ] && [ $n -ge 20 ] && ok "--read-pa --raw matches pattern.py at $n addresses" \
    || no "--read-pa --raw matches pattern.py ($bad of $n differ)"
first=
while read -r start _; do
	if (( start >= 0x200000 )); then first=$(( start )); break; fi
done <<<"$runs"
va=$(printf '%#x' $(( 0xfffff80000000000 + first + 0x40 )))
want=$($PATTERN 7 "$(printf '%#x' $(( first + 0x40 )))" 32)
got=$("$BIN/dumpinfo" --read-va "$va:32" --raw "$D" | hexbytes)
[ "$got" = "$want" ] && ok "--read-va through the direct map matches pattern.py" \
    || no "--read-va through the direct map" "got $got want $want"
"$BIN/dumpinfo" --read-va "$va:32" "$D" | grep -q "^$va:" && ok "the hex dump is addressed by VA" || no "the hex dump is addressed by VA"
expect_exit "unmapped VA: exit 1, address and reason" 1 "0xfffffdffffff0000.*not mapped" \
    "$BIN/dumpinfo" --read-va fffffdffffff0000:8 "$D"
expect_exit "PA in a hole: outside physical memory" 1 "0xa0000.*outside physical memory" \
    "$BIN/dumpinfo" --read-pa a0000:8 "$D"
expect_exit "bad --read-pa argument" 3 "expected one ADDR" "$BIN/dumpinfo" --read-pa xyz "$D"
expect_exit "trace when DUMPKIT_TRACE is set" 0 "dumpkit: .*header @24 version = 0x3" \
    env DUMPKIT_TRACE=1 "$BIN/dumpinfo" --read-va "$va:8" "$D"
quiet=$("$BIN/dumpinfo" --read-va "$va:8" "$D" 2>&1 >/dev/null)
[ -z "$quiet" ] && ok "no trace when DUMPKIT_TRACE is unset" || no "no trace when unset" "$quiet"
expect_exit "summary shows the msgbuf tail" 0 "panic: page fault" "$BIN/dumpinfo" "$D"
expect_exit "the summary's kernel map is the header's" 0 \
    "kernel map:   0xfffffe0000000000 - 0xffffffffc0000000" "$BIN/dumpinfo" "$D"
# A Linux dump records no kernel map (its page tables come from
# VMCOREINFO): the summary says so rather than "0 - 0".
"$BIN/dumpgen" --format vmcore --arch x86_64 --mem 64M -q -o "$T/lx.vmcore"
expect_exit "a Linux dump's kernel map: none recorded" 0 \
    "kernel map:   none recorded" "$BIN/dumpinfo" "$T/lx.vmcore"

# A truncated dump: reported, and its missing pages fail by offset.
last=$(tail -n 1 <<<"$runs" | awk '{print $2}')
cp --sparse=always "$D" "$T/trunc"
truncate -s -8192 "$T/trunc"
expect_exit "a truncated dump is reported" 0 "TRUNCATED" "$BIN/dumpinfo" "$T/trunc"
expect_exit "a page past the end: ETRUNC with the offset" 1 "past the end" \
    "$BIN/dumpinfo" --read-pa "$(printf '%x' $(( last - 4096 ))):8" "$T/trunc"
head -c 100 "$D" >"$T/head"
expect_exit "a header cut short names the section" 2 "offset .*(header|msgbuf)" "$BIN/dumpinfo" "$T/head"
printf 'this is not a dump at all, just text\n' >"$T/text"
expect_exit "not a dump: exit 2, offset 0, expected and found" 2 "offset 0: .*expected" \
    "$BIN/dumpinfo" "$T/text"
expect_exit "a missing file" 2 "No such file" "$BIN/dumpinfo" "$T/none"

# Byte order of an arm dump: from the header, from --kernel, from --arch.
"$BIN/dumpgen" --arch armeb --version 2 --mem 48M -q -o "$T/armeb"
expect_exit "armeb decided by the header" 0 "armeb \(decided by header" "$BIN/dumpinfo" "$T/armeb"
python3 - "$T" <<'PY'
import struct, sys
t = sys.argv[1]
def elf(name, cls, data, machine):
    e = b"\x7fELF" + bytes([cls, data, 1]) + bytes(9)
    fmt = "<" if data == 1 else ">"
    e += struct.pack(fmt + "HHI", 2, machine, 1)
    open(f"{t}/{name}", "wb").write(e + bytes(64 - len(e)))
elf("kernel.armeb", 1, 2, 40)
elf("kernel.amd64", 2, 1, 62)
PY
expect_exit "armeb decided by --kernel" 0 "armeb \(decided by kernel" "$BIN/dumpinfo" --kernel "$T/kernel.armeb" "$T/armeb"
expect_exit "a kernel of another machine is refused" 3 "not a minidump of amd64" \
    "$BIN/dumpinfo" --kernel "$T/kernel.amd64" "$T/armeb"
expect_exit "armeb decided by --arch" 0 "armeb \(decided by option" "$BIN/dumpinfo" --arch armeb "$T/armeb"
expect_exit "--arch arm on a big-endian dump fails at the version" 2 "offset 0x18" \
    "$BIN/dumpinfo" --arch arm "$T/armeb"

# --json of the listings and of dumpconv --info: the same rows and facts
# as the text, and facts checked against what the conversion writes.
want=$("$BIN/dumpgen" --list | awk 'NR > 1 { print $1, $2, $3, $4 }')
got=$("$BIN/dumpgen" --list --json | python3 -c '
import json, sys
for r in json.load(sys.stdin):
    print(r["format"], r["arch"], r["version"], r["variant"] or "-")' 2>&1)
[ -n "$got" ] && [ "$got" = "$want" ] &&
    ok "dumpgen --list --json: the $(wc -l <<<"$got") rows of --list" ||
    no "dumpgen --list --json: the rows of --list" "$got"
want=$("$BIN/dumpgen" --list-corruptions | awk 'NR > 1 && !/^ / { print $1 }')
got=$("$BIN/dumpgen" --list-corruptions --json | python3 -c '
import json, sys
for r in json.load(sys.stdin):
    print(r["kind"])' 2>&1)
[ -n "$got" ] && [ "$got" = "$want" ] &&
    ok "dumpgen --list-corruptions --json: the $(wc -l <<<"$got") kinds" ||
    no "dumpgen --list-corruptions --json: the kinds" "$got"
expect_exit "dumpgen --json alone is a usage error" 3 "--json goes with --list" \
    "$BIN/dumpgen" --json
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 3 -q -o "$T/j.md" \
    --container device --kdh-version 4
if js=$("$BIN/dumpconv" --info --json "$T/j.md") &&
    "$BIN/dumpconv" -q "$T/j.md" -o "$T/j.elf"; then
	loads=$(readelf -lW "$T/j.elf" | grep -c '^ *LOAD')
	got=$(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
o, k = j["output"], j["kerneldumpheader"]
print(o["file_size"], o["physical_loads"] + o["virtual_loads"],
      j["containers"][0]["kind"], k["version"], k["architecture"],
      j["input"]["format"])' "$js" 2>&1)
	want="$(stat -c %s "$T/j.elf") $loads kerneldumpheader 4 amd64 minidump"
	[ "$got" = "$want" ] &&
	    ok "dumpconv --info --json: file size, PT_LOADs (readelf) and the header of what is written" ||
	    no "dumpconv --info --json: file size, PT_LOADs (readelf) and the header of what is written" "got  $got
want $want"
	host=$("$BIN/dumpconv" --info "$T/j.md" | sed -n 's/^  hostname: *//p')
	got=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["kerneldumpheader"]["hostname"])' "$js")
	[ -n "$host" ] && [ "$got" = "$host" ] &&
	    ok "dumpconv --info --json: the hostname the text shows ($host)" ||
	    no "dumpconv --info --json: the hostname the text shows" "$got / $host"
else
	no "dumpconv --info --json of a device image" "$js"
fi
"$BIN/dumpgen" --arch sparc64 --mem 32M -q -o "$T/j.sp" &&
    "$BIN/dumpconv" -q "$T/j.sp" -o "$T/j.sp.elf"
got=$("$BIN/dumpconv" --info --json --to native "$T/j.sp.elf" 2>&1 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["output"]["source"])' 2>&1)
[ "$got" = sparc64 ] &&
    ok "dumpconv --info --json --to native of a portable sparc64 dump: source sparc64" ||
    no "dumpconv --info --json --to native of a portable sparc64 dump: source sparc64" "$got"
expect_exit "dumpconv --info --to native names the source's format" 0 \
    "output: +native sparc64 version" "$BIN/dumpconv" --info --to native "$T/j.sp.elf"
expect_exit "dumpconv --json without --info is a usage error" 3 "--json goes with --info" \
    "$BIN/dumpconv" --json "$T/j.md" -o "$T/j2.elf"


# ===========================================================================
# dumpinfo (issue 16): what a crash-dump user reads first, the message
# buffer oldest first, savecore's info.N, and reads of any length.
# Expected values come from the generator's known fixtures (fixtures/gen.c:
# the msgbuf's lines; fixtures/container.c: hostname "fixtureSEED.dumpkit
# .test", panic "page fault while in kernel mode (dumpgen seed SEED)", dump
# time 2026-01-01 00:00:00 UTC + SEED hours), from GNU date, from dd of the
# file at the offsets the runs give, and from info files and message
# buffers written here by hand in the kernel's and savecore's formats.
# ===========================================================================
I=$T/i16
mkdir -p "$I"
jget() {	# JSON PYTHON-EXPR: print the expression of the document d
	python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2" 2>&1
}

# ---- the four facts at the top, from the kerneldumpheader and the msgbuf
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 3 -q -o "$I/kdh.md" --container device
want_t=$(( $(date -u -d '2026-01-01 00:00:00' +%s) + 3 * 3600 ))
want_iso=$(date -u -d "@$want_t" +%Y-%m-%dT%H:%M:%SZ)
out=$("$BIN/dumpinfo" "$I/kdh.md" 2>&1)
want="panic:        \"page fault while in kernel mode (dumpgen seed 3)\" (kerneldumpheader)
dump time:    $want_t ($want_iso) (kerneldumpheader)
hostname:     \"fixture3.dumpkit.test\" (kerneldumpheader)
version:      \"FreeBSD 14.1-RELEASE dumpgen #0: Thu Jan  1 00:00:00 UTC 2026\" (kerneldumpheader)"
[ "$(head -n 4 <<<"$out")" = "$want" ] &&
    ok "dumpinfo's first four lines: panic, dump time ($want_iso), hostname, version, from the kerneldumpheader" ||
    no "dumpinfo's first four lines: panic, dump time, hostname, version" "$(head -n 4 <<<"$out")"
js=$("$BIN/dumpinfo" --json "$I/kdh.md")
got=$(jget "$js" '[d["panic_string"], d["dump_time"]["value"], d["dump_time"]["utc"], d["dump_time"]["source"], d["hostname"]["value"], d["version_string"]["value"].split("\n")[1]]')
want="[{'value': 'page fault while in kernel mode (dumpgen seed 3)', 'source': 'kerneldumpheader'}, $want_t, '$want_iso', 'kerneldumpheader', 'fixture3.dumpkit.test', '    dumpgen@fixture3:/usr/obj/usr/src/amd64/sys/GENERIC']"
[ "$got" = "$want" ] && ok "dumpinfo --json: the four facts, each with its source, the version string whole" ||
    no "dumpinfo --json: the four facts" "got  $got
want $want"
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 3 -q -o "$I/plain.md"
out=$("$BIN/dumpinfo" "$I/plain.md" 2>&1)
want='panic:        "page fault" (msgbuf)
dump time:    unknown
hostname:     unknown
version:      unknown'
[ "$(head -n 4 <<<"$out")" = "$want" ] &&
    ok "a plain minidump: the panic from the msgbuf's last 'panic: ' line, the rest unknown" ||
    no "a plain minidump: the panic from the msgbuf" "$(head -n 4 <<<"$out")"
got=$(jget "$("$BIN/dumpinfo" --json "$I/plain.md")" '[d["panic_string"], d["dump_time"], d["hostname"], d["version_string"], d["savecore_info"]]')
[ "$got" = "[{'value': 'page fault', 'source': 'msgbuf'}, None, None, None, None]" ] &&
    ok "dumpinfo --json of a plain minidump: unknown facts are null" ||
    no "dumpinfo --json of a plain minidump: unknown facts are null" "$got"

# ---- savecore's info.N beside vmcore.N, in savecore's three shapes ------
# The current printheader() (libxo, "%F %T %z"); the version string runs
# over two lines, as the kernel's has a newline.
mkdir "$I/crash"
cp --sparse=always "$I/plain.md" "$I/crash/vmcore.0"
cat >"$I/crash/info.0" <<'EOF'
Dump header from device: /dev/ada0p3
  Architecture: amd64
  Architecture Version: 2
  Dump Length: 67108864
  Blocksize: 512
  Compression: none
  Dumptime: 2026-01-01 04:00:00 +0100
  Hostname: crash.example.org
  Magic: FreeBSD Kernel Dump
  Version String: FreeBSD 14.1-RELEASE releng/14.1-n267679-10e31f0946d8 GENERIC
    root@releng3.nyi.freebsd.org:/usr/obj/usr/src/amd64.amd64/sys/GENERIC
  Panic String: sleeping thread 0xfffff80003b1c740 owns a non-sleepable lock
  Dump Parity: 2932511798
  Bounds: 0
  Dump Status: good
EOF
want_t=$(date -u -d '2026-01-01 04:00:00 +0100' +%s)
want_iso=$(date -u -d "@$want_t" +%Y-%m-%dT%H:%M:%SZ)
out=$("$BIN/dumpinfo" "$I/crash/vmcore.0" 2>&1)
want="panic:        \"sleeping thread 0xfffff80003b1c740 owns a non-sleepable lock\" (info.0)
dump time:    $want_t ($want_iso) (info.0)
hostname:     \"crash.example.org\" (info.0)
version:      \"FreeBSD 14.1-RELEASE releng/14.1-n267679-10e31f0946d8 GENERIC\" (info.0)"
[ "$(head -n 4 <<<"$out")" = "$want" ] &&
    ok "info.0 beside vmcore.0: panic, hostname, version and the time (+0100 -> $want_iso) from it" ||
    no "info.0 beside vmcore.0: the facts from it" "$(head -n 4 <<<"$out")"
grep -q '^savecore info:  .*crash/info.0 (Dump header from device /dev/ada0p3)$' <<<"$out" &&
    ok "the info file's fields are listed after the header's" ||
    no "the info file's fields are listed" "$out"
js=$("$BIN/dumpinfo" --json "$I/crash/vmcore.0")
got=$(jget "$js" '[d["dump_time"], [d["savecore_info"][k] for k in ("dump_device", "architecture_version", "dump_length_bytes", "dumptime", "dump_parity", "bounds", "dump_status")], d["version_string"]["value"].split("\n")]')
want="[{'value': $want_t, 'utc': '$want_iso', 'local': None, 'source': 'info.0'}, ['/dev/ada0p3', 2, 67108864, '2026-01-01 04:00:00 +0100', 2932511798, 0, 'good'], ['FreeBSD 14.1-RELEASE releng/14.1-n267679-10e31f0946d8 GENERIC', '    root@releng3.nyi.freebsd.org:/usr/obj/usr/src/amd64.amd64/sys/GENERIC']]"
[ "$got" = "$want" ] && ok "dumpinfo --json: savecore_info's fields, the version string's two lines" ||
    no "dumpinfo --json: savecore_info's fields" "got  $got
want $want"
# The libxo savecore before it: ctime(3), local time with no zone.
sed -i 's/^  Dumptime: .*/  Dumptime: Thu Jan  1 04:00:00 2026/' "$I/crash/info.0"
out=$("$BIN/dumpinfo" "$I/crash/vmcore.0" 2>&1)
grep -qx "dump time:    2026-01-01T04:00:00, the saving machine's local time, its zone not recorded (info.0)" <<<"$out" &&
    ok "a ctime Dumptime: the local time, said to have no zone" ||
    no "a ctime Dumptime: the local time, said to have no zone" "$(head -n 4 <<<"$out")"
got=$(jget "$("$BIN/dumpinfo" --json "$I/crash/vmcore.0")" 'd["dump_time"]')
[ "$got" = "{'value': None, 'utc': None, 'local': '2026-01-01T04:00:00', 'source': 'info.0'}" ] &&
    ok "dumpinfo --json of a ctime Dumptime: no epoch, no UTC, the local time" ||
    no "dumpinfo --json of a ctime Dumptime" "$got"
# FreeBSD 10's fprintf: no colon after "device", "Dump Length: NB (N MB)",
# no Compression line; a day of two digits.
cat >"$I/crash/info.0" <<'EOF'
Dump header from device /dev/ad0s1b
  Architecture: amd64
  Architecture Version: 2
  Dump Length: 67108864B (64 MB)
  Blocksize: 512
  Dumptime: Sun Dec 14 23:59:59 2014
  Hostname: old.example.org
  Magic: FreeBSD Kernel Dump
  Version String: FreeBSD 10.1-RELEASE #0 r274401: Tue Nov 11 21:02:49 UTC 2014
    root@releng1.nyi.freebsd.org:/usr/obj/usr/src/sys/GENERIC
  Panic String: page fault
  Dump Parity: 123456789
  Bounds: 4
  Dump Status: good
EOF
got=$(jget "$("$BIN/dumpinfo" --json "$I/crash/vmcore.0" 2>&1)" '[d["hostname"]["value"], d["dump_time"]["local"], d["savecore_info"]["dump_device"], d["savecore_info"]["dump_length_bytes"], d["savecore_info"]["compression"], d["savecore_info"]["bounds"]]')
[ "$got" = "['old.example.org', '2014-12-14T23:59:59', '/dev/ad0s1b', 67108864, None, 4]" ] &&
    ok "FreeBSD 10's info file: device without the colon, 'NB (N MB)', no Compression" ||
    no "FreeBSD 10's info file" "$got"
# A version string cut at the header's 192 bytes has no newline: the
# panic string's line runs on after it.
v='FreeBSD 15.0-CURRENT #0 main-n123456-0123456789ab: Mon Jan 13 10:00:00 UTC 2025 builder@build.example.org:/usr/obj/usr/home/builder/src/amd64.amd64/sys/A-VERY-LONG-KERNEL-CONFIG-NAME-X'
printf 'Dump header from device: /dev/nda0p3\n  Dumptime: 2025-01-13 11:00:00 +0000\n  Hostname: cut.example.org\n  Version String: %s  Panic String: vm_fault: pager read error\n  Dump Parity: 1\n' "$v" >"$I/crash/info.0"
got=$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print([d["version_string"]["value"] == sys.argv[2], d["panic_string"]["value"], d["savecore_info"]["dump_parity"]])' "$("$BIN/dumpinfo" --json "$I/crash/vmcore.0")" "$v" 2>&1)
[ "$got" = "[True, 'vm_fault: pager read error', 1]" ] &&
    ok "a version string cut at 192 bytes: the panic string on its line is read" ||
    no "a version string cut at 192 bytes" "$got"
# savecore's other names: vmcore.N.gz, vmcore.last; --info-file.
printf 'Dump header from device: /dev/ada0p3\n  Hostname: gz.example.org\n' >"$I/crash/info.7"
gzip -c "$I/plain.md" >"$I/crash/vmcore.7.gz"
expect_exit "vmcore.7.gz: info.7 is read" 0 'hostname:     "gz.example.org" \(info.7\)' \
    "$BIN/dumpinfo" "$I/crash/vmcore.7.gz"
ln -s info.7 "$I/crash/info.last"
ln -s vmcore.0 "$I/crash/vmcore.last"
expect_exit "vmcore.last: info.last is read" 0 'hostname:     "gz.example.org" \(info.last\)' \
    "$BIN/dumpinfo" "$I/crash/vmcore.last"
cp --sparse=always "$I/plain.md" "$I/renamed.core"
expect_exit "--info-file names it for a renamed dump" 0 'hostname:     "gz.example.org" \(info.7\)' \
    "$BIN/dumpinfo" --info-file "$I/crash/info.7" "$I/renamed.core"
out=$("$BIN/dumpinfo" "$I/renamed.core" 2>&1)
grep -qx "hostname:     unknown" <<<"$out" && ! grep -q "savecore info" <<<"$out" &&
    ok "a dump not named as savecore names it: no info file is looked for" ||
    no "a dump not named as savecore names it: no info file is looked for" "$out"
# The dump's own kerneldumpheader comes first.
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 5 -q -o "$I/crash/vmcore.5" --container leading
printf 'Dump header from device: /dev/ada0p3\n  Hostname: other.example.org\n  Panic String: not this one\n' >"$I/crash/info.5"
out=$("$BIN/dumpinfo" "$I/crash/vmcore.5" 2>&1)
grep -qx 'hostname:     "fixture5.dumpkit.test" (kerneldumpheader)' <<<"$out" &&
    grep -qx 'panic:        "page fault while in kernel mode (dumpgen seed 5)" (kerneldumpheader)' <<<"$out" &&
    grep -q '^  hostname:     other.example.org$' <<<"$out" &&
    ok "a kerneldumpheader's values come before info.5's, which is still listed" ||
    no "a kerneldumpheader's values come before info.5's" "$out"
# dumpconv --info shows it too, through the same module.
printf 'Dump header from device: /dev/ada0p3\n  Hostname: conv.example.org\n  Dumptime: 2026-01-01 04:00:00 +0100\n' >"$I/crash/info.0"
out=$("$BIN/dumpconv" --info "$I/crash/vmcore.0" 2>&1)
grep -q '^savecore info:  .*crash/info.0 (Dump header from device /dev/ada0p3)$' <<<"$out" &&
    grep -q '^  hostname:     conv.example.org$' <<<"$out" &&
    grep -q "^  dump time:    2026-01-01 04:00:00 +0100 = $want_t (2026-01-01T03:00:00Z)$" <<<"$out" &&
    ok "dumpconv --info lists info.0 beside vmcore.0" || no "dumpconv --info lists info.0 beside vmcore.0" "$out"
got=$(jget "$("$BIN/dumpconv" --info --json "$I/crash/vmcore.0" 2>&1)" '[d["savecore_info"][k] for k in ("hostname", "dumptime_epoch", "dumptime_utc")]')
[ "$got" = "['conv.example.org', $want_t, '2026-01-01T03:00:00Z']" ] &&
    ok "dumpconv --info --json: savecore_info" || no "dumpconv --info --json: savecore_info" "$got"
# An info file savecore could not have written: a warning naming the
# line and its offset, the file not used, exit 0.
bad_info() {	# DESC REGEX: info.0 as on stdin; the warning and the fallback
	cat >"$I/crash/info.0"
	local out rc
	out=$("$BIN/dumpinfo" "$I/crash/vmcore.0" 2>&1); rc=$?
	if [ $rc -eq 0 ] && grep -Eq -- "^dumpinfo: warning: .*info\.0: (offset (0|0x[0-9a-f]+): )?$2; not used$" <<<"$out" &&
	    grep -qx 'panic:        "page fault" (msgbuf)' <<<"$out" &&
	    grep -qx 'hostname:     unknown' <<<"$out"; then
		ok "$1: a warning, the file not used, exit 0"
	else
		no "$1: a warning, the file not used, exit 0" "exit $rc: $out"
	fi
}
printf 'Crash dump of /dev/ada0p3\n  Hostname: x\n' |
    bad_info "another first line" 'offset 0: line 1: expected "Dump header from device: DEVICE" .*found "Crash dump of /dev/ada0p3"'
printf 'Dump header from device: /dev/ada0p3\n  Hostname: x\n  Dumptime: Fri Jan  1 04:00:00 2026\n' |
    bad_info "a ctime weekday that is not the date's" 'offset 0x33: line 3: Dumptime: expected Thu for 2026-01-01, found "Fri"'
printf 'Dump header from device: /dev/ada0p3\n  Dumptime: 2026-02-29 04:00:00 +0000\n' |
    bad_info "no such day (2026 is not a leap year)" 'offset 0x25: line 2: Dumptime: no such time, "2026-02-29 04:00:00 \+0000"'
printf 'Dump header from device: /dev/ada0p3\n  Dumptime: yesterday\n' |
    bad_info "a date in no format savecore writes" 'line 2: Dumptime: expected "YYYY-MM-DD HH:MM:SS \+HHMM" or ctime.s .*, found "yesterday"'
printf 'Dump header from device: /dev/ada0p3\n  Hostname: a\n  Hostname: b\n' |
    bad_info "a field twice" 'offset 0x33: line 3: Hostname: expected once, found again'
printf 'Dump header from device: /dev/ada0p3\n  Bounds: -1\n' |
    bad_info "a number that is not one" 'line 2: Bounds: expected a decimal number below 2\^32, found "-1"'
printf 'Dump header from device: /dev/ada0p3\nHostname: x\n' |
    bad_info "a line without savecore's indent" 'line 2: expected "  Name: value", found "Hostname: x"'
printf '{"crashdump": {"dump_device": "/dev/ada0p3"}}\n' |
    bad_info "savecore --libxo json" "line 1: savecore's JSON output \(savecore --libxo json\): dumpkit reads the text form only"
printf 'Dump header from device: /dev/ada0p3\n  Host\0name: x\n' |
    bad_info "a NUL byte" 'offset 0x2b: expected text \(savecore.s info file\), found a NUL byte'
head -c 20000 /dev/zero | tr '\0' 'x' | bad_info "more than 16 KiB" 'expected savecore.s info file \(under 2 KiB\), found more than 16384 bytes'
rm -f "$I/crash/info.0"; mkdir "$I/crash/info.0"
out=$("$BIN/dumpinfo" "$I/crash/vmcore.0" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "warning: .*info.0: expected savecore's info file, found a directory; not used" <<<"$out" &&
    ok "a directory named info.0: a warning, exit 0" || no "a directory named info.0: a warning, exit 0" "exit $rc: $out"
rmdir "$I/crash/info.0"
printf 'Dump header from device: /dev/ada0p3\n  Dumptime: nope\n' >"$I/crash/info.0"
got=$(jget "$("$BIN/dumpinfo" --json "$I/crash/vmcore.0" 2>/dev/null)" '[d["savecore_info"], "line 2: Dumptime" in d["savecore_info_warning"]]')
[ "$got" = "[None, True]" ] && ok "dumpinfo --json: an unused info file is savecore_info null and its warning" ||
    no "dumpinfo --json: an unused info file is savecore_info null and its warning" "$got"
expect_exit "a missing --info-file: a warning, exit 0" 0 "warning: $I/none: No such file or directory; not used" \
    "$BIN/dumpinfo" --info-file "$I/none" "$I/plain.md"
rm -f "$I/crash/info.0"

# ---- --msgbuf ------------------------------------------------------------
# The generator's msgbuf (fixtures/gen.c), as its section holds it: the
# bytes dd reads at the section's offset, NULs dropped.
sect() {	# FILE NAME: "offset size space" of section NAME
	python3 -c 'import json, sys
for s in json.load(sys.stdin)["sections"]:
    if s["name"] == sys.argv[1]: print(int(s["offset"], 16), s["size"], s["space"])' "$2" <"$1"
}
"$BIN/dumpinfo" --json "$I/plain.md" >"$I/plain.json"
read -r moff msize mspace < <(sect "$I/plain.json" msgbuf)
dd if="$I/plain.md" bs=4096 skip=$((moff / 4096)) count=$(( (msize + 4095) / 4096 )) 2>/dev/null |
    head -c "$msize" | tr -d '\0' >"$I/plain.msgbuf"
"$BIN/dumpinfo" --msgbuf --raw "$I/plain.md" >"$I/plain.raw"
cmp -s "$I/plain.raw" "$I/plain.msgbuf" && [ "$(wc -c <"$I/plain.raw")" -gt 1000 ] &&
    ok "--msgbuf --raw: the msgbuf section's bytes (dd), NULs dropped ($(wc -c <"$I/plain.raw") bytes)" ||
    no "--msgbuf --raw: the msgbuf section's bytes, NULs dropped"
"$BIN/dumpinfo" --msgbuf "$I/plain.md" >"$I/plain.txt"
[ "$(head -n 1 "$I/plain.txt")" = "---<<BOOT>>---" ] &&
    grep -qx 'panic: page fault' "$I/plain.txt" &&
    grep -qx 'dumpgen: minidump amd64 version 3 variant - seed 3' "$I/plain.txt" &&
    grep -q '^Dumping 8 out of 64 MB:\.\.1%' "$I/plain.txt" &&
    [ "$(tail -n 1 "$I/plain.txt" | cut -c1-7)" = "Dumping" ] &&
    ok "--msgbuf: the generator's boot log to its last line, whole" ||
    no "--msgbuf: the generator's boot log" "$(head -3 "$I/plain.txt"; tail -2 "$I/plain.txt")"
grep -q $'\tThe Regents of the University' "$I/plain.txt" && ok "--msgbuf keeps tabs" || no "--msgbuf keeps tabs"
# A ring the kernel wrapped, with its struct msgbuf after it as the kernel
# leaves it (sys/sys/msgbuf.h: msg_ptr, msg_magic 0x063062, msg_size,
# msg_wseq, ...), written here: on an LP64 little-endian amd64 dump and on
# an ILP32 big-endian armeb one.  What must come out is the last msg_size
# bytes the kernel wrote, oldest first; the summary's panic is the last
# one written, though the ring holds it first.
ring() {	# FILE OFF SIZE MODE ENDIAN PTRSIZE: write a msgbuf into FILE; FILE.want
	python3 - "$@" <<'PY'
import struct, sys
path, off, size, mode, end, ptr = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
e = "<" if end == "le" else ">"
if mode == "partial":
    text = b"".join(b"early %04d\n" % i for i in range(100)) + b"panic: short\n"
else:
    text = b"".join(b"<6>line %05d: a boot message\n" % i for i in range(4000))
    text += b"panic: first\n" + b"".join(b"after %05d\n" % i for i in range(300))
    text += b"panic: second\nUptime: 1s\n"
ring = bytearray(size)
for i, c in enumerate(text):
    ring[i % size] = c
wseq = len(text) % (16 * size)
hdr = struct.pack(e + ("I" if ptr == 4 else "Q"), 0xc0a00000 if ptr == 4 else 0xfffff80000be0000)
hdr += struct.pack(e + "IIIIIIiI", 0x063062, size, wseq, wseq, 0, 16 * size, -1, 0)
with open(path, "r+b") as f:
    f.seek(off)
    f.write(ring)
    if mode != "nostruct":
        f.write(hdr)
# Oldest first: the text itself, or its last size bytes if it wrapped;
# as stored if the struct is not there to tell.
want = text if len(text) <= size else text[-size:]
if mode == "nostruct":
    want = bytes(ring)
open(path + ".want", "wb").write(want)
PY
}
for a in amd64:le:8 armeb:be:4; do
	IFS=: read -r arch end ptr <<<"$a"
	f=$I/wrap.$arch
	"$BIN/dumpgen" --arch "$arch" --version 2 --mem 48M --seed 2 -q -o "$f"
	"$BIN/dumpinfo" --json "$f" >"$f.json"
	read -r moff msize mspace < <(sect "$f.json" msgbuf)
	ring "$f" "$moff" "$msize" wrapped "$end" "$ptr"
	"$BIN/dumpinfo" --msgbuf --raw "$f" >"$f.got" 2>"$f.err"
	cmp -s "$f.got" "$f.want" && [ ! -s "$f.err" ] &&
	    ok "$arch: a wrapped msgbuf, unwrapped at msg_wseq (struct msgbuf, $ptr-byte msg_ptr, $end)" ||
	    no "$arch: a wrapped msgbuf, unwrapped at msg_wseq" "$(cmp "$f.got" "$f.want"; cat "$f.err")"
	out=$("$BIN/dumpinfo" "$f" 2>&1)
	grep -qx 'panic:        "second" (msgbuf)' <<<"$out" &&
	    [ "$(tail -n 1 <<<"$out")" = "  Uptime: 1s" ] &&
	    grep -q '^msgbuf (last lines, unwrapped at msg_wseq):$' <<<"$out" &&
	    ok "$arch: the summary's panic is the last one written, its tail the ring's newest lines" ||
	    no "$arch: the summary's panic is the last one written" "$(head -n 1 <<<"$out"; tail -n 3 <<<"$out")"
done
f=$I/wrap.amd64
"$BIN/dumpinfo" --msgbuf "$f" >"$f.txt"
[ "$(sed -n 2p "$f.txt")" = "$(sed -n 2p "$f.want")" ] && grep -q '^<6>line 0' "$f.txt" &&
    ok "--msgbuf keeps the first line of a wrapped ring and the syslog priorities" ||
    no "--msgbuf keeps the first line of a wrapped ring and the syslog priorities" "$(head -n 2 "$f.txt")"
# Not full: msg_wseq below msg_size, NULs after the text.
read -r moff msize mspace < <(sect "$I/wrap.amd64.json" msgbuf)
"$BIN/dumpgen" --arch amd64 --version 2 --mem 48M --seed 2 -q -o "$I/part.md"
ring "$I/part.md" "$moff" "$msize" partial le 8
"$BIN/dumpinfo" --msgbuf --raw "$I/part.md" | cmp -s - "$I/part.md.want" &&
    ok "a msgbuf not yet full: its text, the NULs after it dropped" ||
    no "a msgbuf not yet full: its text"
# Full, and no struct msgbuf to say where it starts: as stored, and a warning.
"$BIN/dumpgen" --arch amd64 --version 2 --mem 48M --seed 2 -q -o "$I/nos.md"
ring "$I/nos.md" "$moff" "$msize" nostruct le 8
"$BIN/dumpinfo" --msgbuf --raw "$I/nos.md" >"$I/nos.got" 2>"$I/nos.err"
cmp -s "$I/nos.got" "$I/nos.md.want" &&
    grep -q "warning: the message buffer is full, and its struct msgbuf .* not in the dump: printed as stored, which may not be oldest first" "$I/nos.err" &&
    ok "a full msgbuf without its struct: as stored, with a warning" ||
    no "a full msgbuf without its struct: as stored, with a warning" "$(cat "$I/nos.err")"
# Bytes that are not text: NULs dropped, controls and backslashes escaped
# (octal), as they are with --raw.
"$BIN/dumpgen" --arch amd64 --version 2 --mem 48M --seed 2 -q -o "$I/ctl.md"
printf 'a\0\0b\001c\\d\033[2J\n\0\0\0' | dd of="$I/ctl.md" bs=1 seek="$moff" conv=notrunc 2>/dev/null
"$BIN/dumpinfo" --msgbuf "$I/ctl.md" | head -n 1 >"$I/ctl.txt"
[ "$(cat "$I/ctl.txt")" = 'ab\001c\\d\033[2J' ] &&
    ok "--msgbuf: NULs dropped, a control byte as \\001, a backslash doubled" ||
    no "--msgbuf: NULs dropped, controls escaped" "$(cat "$I/ctl.txt")"
"$BIN/dumpinfo" --msgbuf --raw "$I/ctl.md" | head -c 11 | hexbytes >"$I/ctl.raw"
[ "$(cat "$I/ctl.raw")" = "61 62 01 63 5c 64 1b 5b 32 4a 0a" ] &&
    ok "--msgbuf --raw: the bytes as they are, NULs dropped" ||
    no "--msgbuf --raw: the bytes as they are" "$(cat "$I/ctl.raw")"
"$BIN/dumpgen" --arch amd64 --format elf --mem 64M -q -o "$I/core.elf"
expect_exit "--msgbuf of a full ELF core: exit 2, no message buffer" 2 \
    "core.elf: a elf dump holds no message buffer dumpkit reads" \
    "$BIN/dumpinfo" --msgbuf "$I/core.elf"
expect_exit "--msgbuf --quiet: nothing printed, exit 0" 0 '^$' "$BIN/dumpinfo" --msgbuf -q "$I/plain.md"
expect_exit "--msgbuf with --json is a usage error" 3 "--json goes with the summary" \
    "$BIN/dumpinfo" --msgbuf --json "$I/plain.md"
expect_exit "--msgbuf with --read-pa is a usage error" 3 "--msgbuf and --read-pa: one at a time" \
    "$BIN/dumpinfo" --msgbuf --read-pa 200000 "$I/plain.md"
expect_exit "--info-file with --msgbuf is a usage error" 3 "--info-file goes with the summary, not with --msgbuf" \
    "$BIN/dumpinfo" --msgbuf --info-file "$I/crash/info.7" "$I/plain.md"
expect_exit "--raw alone is a usage error" 3 "--raw goes with --read-pa, --read-va or --msgbuf" \
    "$BIN/dumpinfo" --raw "$I/plain.md"

# ---- --read-pa / --read-va: sizes, no cap, streamed, partial reads -------
pa=$(printf '%#x' $(( 0x200000 )))
want=$($PATTERN 3 0x201000 4096)
for len in 4K 4096 0x1000 4KiB; do
	got=$("$BIN/dumpinfo" --read-pa "0x201000:$len" --raw "$I/plain.md" | hexbytes)
	[ "$got" = "$want" ] && ok "--read-pa ADDR:$len reads 4096 bytes, as pattern.py has them" ||
	    no "--read-pa ADDR:$len reads 4096 bytes" "$(wc -w <<<"$got") bytes"
done
expect_exit "--read-pa LEN 0 is a usage error" 3 "expected one ADDR" "$BIN/dumpinfo" --read-pa 201000:0 "$I/plain.md"
expect_exit "--read-pa LEN not a size is a usage error" 3 "expected one ADDR.*found '201000:12Q'" \
    "$BIN/dumpinfo" --read-pa 201000:12Q "$I/plain.md"
expect_exit "--read-pa past 2^64 is a usage error" 3 "the range below 2\^64" \
    "$BIN/dumpinfo" --read-pa ffffffffffffffff:2 "$I/plain.md"
expect_exit "--read-pa of the last byte of the address space is a read, not a usage error" 1 \
    "0xffffffffffffffff is outside physical memory" "$BIN/dumpinfo" --read-pa ffffffffffffffff:1 "$I/plain.md"
# A run longer than the old 64 MiB cap: a sparse 512 MiB dump, read 100M
# at once, compared with dd of the file at the run's offset.
"$BIN/dumpgen" --arch amd64 --mem 512M --dumped 512M --sparse --seed 4 -q -o "$I/big.md"
read -r rstart rend roff < <("$BIN/dumpinfo" -v "$I/big.md" | python3 -c '
import sys
best = (0, 0, 0, 0)
for l in sys.stdin:
    f = l.split()
    if l.startswith("  pa ") and f[4] == "at":
        s, e, o = int(f[1], 16), int(f[3], 16), int(f[6], 16)
        best = max(best, (e - s, s, e, o))
print(best[1], best[2], best[3])')
if [ $(( rend - rstart )) -gt $(( 100 << 20 )) ]; then
	"$BIN/dumpinfo" --read-pa "$(printf '%x' "$rstart"):100M" --raw "$I/big.md" | cmp -s - \
	    <(dd if="$I/big.md" iflag=skip_bytes,count_bytes skip="$roff" count=$(( 100 << 20 )) bs=1M 2>/dev/null) &&
	    ok "--read-pa ADDR:100M (past the old 64 MiB cap) --raw: the file's bytes (dd)" ||
	    no "--read-pa ADDR:100M --raw: the file's bytes (dd)"
	# Memory stays bounded: 100 MiB read takes what 1 MiB takes, give or take.
	rss() {	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
	small=$(rss "$BIN/dumpinfo" --read-pa "$(printf '%x' "$rstart"):1M" --raw "$I/big.md")
	large=$(rss "$BIN/dumpinfo" --read-pa "$(printf '%x' "$rstart"):100M" --raw "$I/big.md")
	[ -n "$small" ] && [ -n "$large" ] && [ $(( large - small )) -lt 16384 ] &&
	    ok "--read-pa of 100 MiB runs in the memory of 1 MiB (max RSS $small KiB, $large KiB)" ||
	    no "--read-pa of 100 MiB runs in bounded memory" "max RSS $small KiB, $large KiB"
	# Into a page that is not dumped (runs are as long as they go, so the
	# page at the run's end is not in the dump): the bytes before it,
	# then exit 1, naming the very address and how many bytes came first.
	from=$(( rend - 0x800 ))
	"$BIN/dumpinfo" --read-pa "$(printf '%x' "$from"):2M" --raw "$I/big.md" >"$I/cut.raw" 2>"$I/cut.err"; rc=$?
	dd if="$I/big.md" iflag=skip_bytes,count_bytes skip=$(( roff + rend - rstart - 0x800 )) \
	    count=2048 bs=2048 2>/dev/null >"$I/cut.want"
	grep -Eq "physical address $(printf '%#x' "$rend")(:| is) .*\(the 2048 bytes before it were read and written\)$" "$I/cut.err" &&
	    [ $rc -eq 1 ] && cmp -s "$I/cut.raw" "$I/cut.want" &&
	    ok "a range running out of the dump: its 2048 readable bytes (dd), then exit 1 at $(printf '%#x' "$rend")" ||
	    no "a range running out of the dump: the bytes before it, then exit 1" "exit $rc: $(cat "$I/cut.err")"
	"$BIN/dumpinfo" --read-pa "$(printf '%x' "$from"):2M" "$I/big.md" >"$I/cut.hex" 2>/dev/null
	[ "$(wc -l <"$I/cut.hex")" -eq 128 ] &&
	    [ "$(tail -n 1 "$I/cut.hex" | cut -d: -f1)" = "$(printf '0x%016x' $(( rend - 16 )))" ] &&
	    ok "the hex dump too: 128 lines, up to the last readable byte" ||
	    no "the hex dump of a range running out of the dump" "$(tail -n 1 "$I/cut.hex")"
	# The hex dump across a chunk boundary, from an address that is not
	# 16-aligned: each line as this formatter of the raw bytes has it.
	a=$(( rstart + 3 ))
	"$BIN/dumpinfo" --read-pa "$(printf '%x' "$a"):$(( (1 << 20) + 40 ))" "$I/big.md" >"$I/hex.txt"
	"$BIN/dumpinfo" --read-pa "$(printf '%x' "$a"):$(( (1 << 20) + 40 ))" --raw "$I/big.md" |
	    python3 -c '
import sys
a, b = int(sys.argv[1]), sys.stdin.buffer.read()
for i in range(0, len(b), 16):
    c = b[i:i + 16]
    h = "".join(" %02x" % x if k != 8 else "  %02x" % x for k, x in enumerate(c))
    h += "".join("   " if k != 8 else "    " for k in range(len(c), 16))
    print("0x%016x:%s  |%s|" % (a + i, h, "".join(chr(x) if 32 <= x < 127 else "." for x in c)))
' "$a" >"$I/hex.want"
	cmp -s "$I/hex.txt" "$I/hex.want" && [ "$(wc -l <"$I/hex.txt")" -eq 65539 ] &&
	    ok "the hex dump of 1 MiB + 40 bytes from an odd address: every line, none lost at the chunk boundary" ||
	    no "the hex dump across a chunk boundary" "$(diff "$I/hex.txt" "$I/hex.want" | head -5)"
	if [ -w /dev/full ] && ! echo x 2>/dev/null >/dev/full; then
		err=$(timeout 20 "$BIN/dumpinfo" --read-pa "$(printf '%x' "$rstart"):100M" --raw "$I/big.md" 2>&1 >/dev/full); rc=$?
		[ $rc -eq 2 ] && grep -q "standard output" <<<"$err" &&
		    ok "--read-pa 100M --raw > /dev/full: exit 2 and a message" ||
		    no "--read-pa 100M --raw > /dev/full: exit 2" "exit $rc: $err"
	fi
else
	no "big.md has a run over 100 MiB" "$rstart - $rend"
fi
va=$(printf '%#x' $(( 0xfffff80000000000 + 0x201000 )))
got=$("$BIN/dumpinfo" --read-va "$va:4K" --raw "$I/plain.md" | hexbytes)
[ "$got" = "$($PATTERN 3 0x201000 4096)" ] && ok "--read-va ADDR:4K through the direct map, as pattern.py has it" ||
    no "--read-va ADDR:4K through the direct map"

# ---- every path ends through tool_finish(): stdout's write errors are 2 --
if [ -w /dev/full ] && ! echo x 2>/dev/null >/dev/full; then
	for args in "--msgbuf" "--msgbuf --raw" "--read-pa 201000:4K" "--read-va $va:64" "--info-file $I/crash/info.7" "--json --info-file $I/crash/info.7" "-v"; do
		# shellcheck disable=SC2086
		err=$("$BIN/dumpinfo" $args "$I/plain.md" 2>&1 >/dev/full); rc=$?
		[ $rc -eq 2 ] && grep -q "^dumpinfo: standard output: " <<<"$err" &&
		    ok "dumpinfo ${args//$I\//} FILE > /dev/full: exit 2, standard output named" ||
		    no "dumpinfo ${args//$I\//} FILE > /dev/full: exit 2" "exit $rc: $err"
	done
	err=$("$BIN/dumpinfo" --read-pa a0000:8 "$I/plain.md" 2>&1 >/dev/full); rc=$?
	[ $rc -eq 1 ] && ok "an unreadable address with stdout on /dev/full: still 1 (nothing was written)" ||
	    no "an unreadable address with stdout on /dev/full: still 1" "exit $rc: $err"
	err=$("$BIN/dumpinfo" --version 2>&1 >/dev/full); rc=$?
	[ $rc -eq 2 ] && [ "$(grep -c 'standard output' <<<"$err")" -eq 1 ] &&
	    ok "dumpinfo --version > /dev/full: exit 2, said once" ||
	    no "dumpinfo --version > /dev/full: exit 2, said once" "exit $rc: $err"
fi
"$BIN/dumpinfo" --help | grep -q -- '--msgbuf' && "$BIN/dumpinfo" --help | grep -q -- '--info-file' &&
    ok "--help names --msgbuf and --info-file" || no "--help names --msgbuf and --info-file"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
