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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
