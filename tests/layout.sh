#!/usr/bin/env bash
# End-to-end tests of dumplayout (docs/dumplayout.md): the tool's
# options and exit statuses, `check` on every header of every format,
# `show` against the layouts FORMATS.md gives by hand (the powerpc64
# hole at 116, sparc64's bytes 36..39), and `compare` on generated
# old/new pairs: amd64 minidump v2 and v3, kerneldumpheader v1 and v4,
# the sparc64 header old (garbage padding) and new (explicit zero pad),
# and copies whose padding bytes were overwritten here.  The compiler
# oracle is tests/layout_oracle.sh.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dklayout.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"
L=$BIN/dumplayout

gen() { "$BIN/dumpgen" --seed 7 -q -f "$@"; }
# poke FILE OFFSET HEX...: overwrite bytes of a copy
poke() {
	local f=$1 off=$2; shift 2
	printf "$(printf '\\x%s' "$@")" | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
}
json_ok() { python3 -c 'import json, sys; json.load(sys.stdin)' 2>&1; }

# --- the tool itself --------------------------------------------------------
expect_exit "--help" 0 "usage: dumplayout" "$L" --help
expect_exit "--version" 0 "^dumplayout \(dumpkit\) [0-9]" "$L" --version
expect_exit "no command: exit 3" 3 "expected a command" "$L"
expect_exit "unknown option: exit 3" 3 "usage:" "$L" --no-such-option
expect_exit "unknown command: exit 3" 3 "unknown command" "$L" frobnicate
expect_exit "show: unknown header: exit 3" 3 "no header named 'nope'.*minidump-amd64" "$L" show nope
expect_exit "--abi: unknown ABI: exit 3" 3 "no ABI named 'vax'" "$L" show minidump-amd64 --abi vax
expect_exit "show: a version the header lacks: exit 3" 3 "has no version 9" \
    "$L" show minidump-i386 --header-version 9
expect_exit "c without --abi: exit 3" 3 "exactly one --abi" "$L" c
expect_exit "compare with one file: exit 3" 3 "wrong number of arguments" "$L" compare x
expect_exit "abis: every ABI of the issue" 0 "mips-n32 .*-mabi=n32" "$L" abis
n=$("$L" abis | grep -cE '^(i386|amd64|armel|armhf|aarch64|mips-o32|mips-n32|mips-n64|powerpc|powerpc64|riscv64|sparc64|s390x) ')
[ "$n" -eq 13 ] && ok "abis lists the 13 ABIs the issue names" || no "abis: $n of 13"

# --- check: every header of every format ------------------------------------
expect_exit "check: every header passes" 0 "^check: .* 0 unexpected" "$L" check
for h in minidump-amd64 minidump-i386 minidump-arm minidump-arm64 minidump-mips \
    minidump-powerpc64 minidump-riscv kerneldumpheader-v1 kerneldumpheader-v4 \
    sparc64-dump-hdr-old sparc64-dump-hdr-new sparc64-dump-reg; do
	"$L" list | grep -q "^$h " && ok "list has $h" || no "list lacks $h"
done
out=$("$L" check 2>&1)
grep -q "^known: minidump-powerpc64 v2, abi powerpc64: hidden padding at 116..119 (4 bytes) after hw_direct_map (int)" <<<"$out" &&
    ok "check names the powerpc64 hole at 116 as known" || no "powerpc64 hole" "$out"
grep -q "^known: sparc64-dump-hdr-old v1, abi sparc64: hidden padding at 36..39 (4 bytes) after dh_nregions (int)" <<<"$out" &&
    ok "check names sparc64's bytes 36..39 as known" || no "sparc64 36..39" "$out"
grep -q "^known: minidump-mips v2, abi mips-o32: tail padding at 68..71" <<<"$out" &&
    ok "check: mips o32 pads v2 to 72 too (uint64_t 8-aligned)" || no "mips o32 tail" "$out"
expect_exit "check -q prints only the summary when all is known" 0 "^check: " "$L" check -q
[ "$("$L" check -q | wc -l)" -eq 1 ] && ok "check -q: one line" || no "check -q: more than one line"
# The powerpc64 header as an i386 kernel would lay it out: uint64_t is
# 4-aligned there, so startkernel moves from 120 to 116.
expect_exit "check --abi i386 minidump-powerpc64: exit 1, field, ABI, both offsets" 1 \
    "ERROR: minidump-powerpc64 v1, abi i386: field startkernel \(uint64_t\) is at offset 116 natively, at offset 120 in the table" \
    "$L" check --abi i386 minidump-powerpc64
expect_exit "check --abi all sparc64-dump-hdr-old: vm_offset_t is 4 bytes on i386" 1 \
    "abi i386: field dh_hdr_size \(vm_offset_t\) is 4 bytes natively, 8 in the table" \
    "$L" check --abi all sparc64-dump-hdr-old
expect_exit "check: the fixed-width sparc64 header lays out alike on every ABI" 0 \
    "0 unexpected" "$L" check --abi all sparc64-dump-hdr-new
expect_exit "check: kerneldumpheader v1..v4 alike on every ABI" 0 "0 unexpected" \
    "$L" check --abi all kerneldumpheader-v1 kerneldumpheader-v2 kerneldumpheader-v3 kerneldumpheader-v4
j=$("$L" check --json)
[ -z "$(json_ok <<<"$j")" ] && grep -q '"unexpected": *0' <<<"$j" &&
    ok "check --json: valid, 0 unexpected" || no "check --json" "$j"

# --- show: pahole's format, against FORMATS.md ------------------------------
out=$("$L" show minidump-powerpc64 --abi powerpc64 --header-version 2)
grep -q "XXX 4 bytes hole" <<<"$out" && grep -q "hw_direct_map;  *\/\*   112     4 \*\/" <<<"$out" &&
    grep -q "startkernel;  *\/\*   120     8 \*\/" <<<"$out" && grep -q "size: 144" <<<"$out" &&
    grep -q "padding: 4" <<<"$out" &&
    ok "show powerpc64 v2: hw_direct_map at 112, hole, startkernel at 120, 144 bytes, 4 of tail" ||
    no "show powerpc64" "$out"
out=$("$L" show minidump-powerpc64 --abi i386 --header-version 1)
grep -q "startkernel;  *\/\*   116     8 \*\/  \/\* table: 120 8 \*\/" <<<"$out" &&
    ok "show on a foreign ABI marks where the table differs" || no "show --abi i386" "$out"
out=$("$L" show sparc64-dump-hdr-old)
grep -q "dh_regions\[\];  *\/\*    40     0 \*\/" <<<"$out" && grep -q "XXX 4 bytes hole" <<<"$out" &&
    ok "show sparc64 old: the hole before dh_regions[] at 40" || no "show sparc64 old" "$out"
j=$("$L" show minidump-i386 --abi i386,i386-pae --json)
[ -z "$(json_ok <<<"$j")" ] && [ "$(grep -c '"abi": "i386' <<<"$j")" -eq 4 ] &&
    ok "show --json: 2 versions x 2 ABIs" || no "show --json" "$j"

# --- compare: generated old/new pairs ---------------------------------------
gen --arch amd64 --version 2 --mem 32M -o "$T/a2"
gen --arch amd64 --version 3 --mem 32M -o "$T/a3"
expect_exit "compare amd64 v2 v3: meaning changes (version, dumpavailsize)" 1 \
    "version +24\+4 +24\+4 +meaning-changes 0x2 -> 0x3" "$L" compare "$T/a2" "$T/a3"
out=$("$L" compare "$T/a2" "$T/a3")
grep -q "dumpavailsize  *- *64+4  *meaning-changes only in NEW" <<<"$out" &&
    grep -q "kernbase  *40+8  *40+8  *same  *0xfffffe0000000000" <<<"$out" &&
    grep -q "^verdict: meaning-changes (2 fields" <<<"$out" &&
    ok "compare amd64 v2 v3: dumpavailsize new at 64, kernbase the same" || no "v2 v3" "$out"
expect_exit "compare a dump with itself: same, exit 0" 0 "^verdict: same" "$L" compare "$T/a3" "$T/a3"
cp "$T/a3" "$T/a3p"; poke "$T/a3p" 68 de ad be ef
expect_exit "compare amd64 v3, tail padding overwritten: padding-only, exit 0" 0 \
    "padding at 68..71; bytes differ \(00000000 -> deadbeef\)" "$L" compare "$T/a3" "$T/a3p"
gen --arch powerpc64 --version 2 --mem 32M -o "$T/p"
cp "$T/p" "$T/pp"; poke "$T/pp" 116 55 55 55 55
out=$("$L" compare "$T/p" "$T/pp"); rc=$?
[ $rc -eq 0 ] && grep -q "padding at 116..119; bytes differ" <<<"$out" &&
    grep -q "^verdict: padding-only (0 fields change meaning, 1 padding range" <<<"$out" &&
    ok "compare powerpc64 v2, garbage in the hole at 116: padding-only" || no "powerpc64 hole" "exit $rc: $out"
cp "$T/p" "$T/pv"; poke "$T/pv" 112 00 00 00 00
expect_exit "compare powerpc64 v2, hw_direct_map changed: meaning changes" 1 \
    "hw_direct_map .*meaning-changes 0x1 -> 0" "$L" compare "$T/p" "$T/pv"

gen --arch sparc64 --variant old --mem 64M -o "$T/sold"
gen --arch sparc64 --variant new --mem 64M -o "$T/snew"
out=$("$L" compare "$T/sold" "$T/snew"); rc=$?
[ $rc -eq 0 ] && grep -q "padding at 36..39; bytes differ" <<<"$out" &&
    grep -q "^verdict: padding-only" <<<"$out" &&
    ok "compare sparc64 old new: only bytes 36..39 differ, padding-only" || no "sparc64 old new" "exit $rc: $out"
new36=$(od -An -tx1 -j36 -N4 "$T/snew" | tr -d ' ')
[ "$new36" = 00000000 ] && ok "sparc64 new: dh_pad is zero in the file" || no "sparc64 new dh_pad: $new36"

gen --arch amd64 --version 3 --mem 32M --container leading --kdh-version 1 -o "$T/k1"
gen --arch amd64 --version 3 --mem 32M --container leading --kdh-version 4 -o "$T/k4"
out=$("$L" compare "$T/k1" "$T/k4"); rc=$?
[ $rc -eq 1 ] && grep -q "^kerneldumpheader: OLD v1, NEW v4" <<<"$out" &&
    grep -q "blocksize  *56+4  *60+4  *meaning-changes moved; same value 0x200" <<<"$out" &&
    grep -q "hostname  *60+64  *64+64  *meaning-changes moved" <<<"$out" &&
    grep -q "dumpextent  *- *496+8  *meaning-changes only in NEW" <<<"$out" &&
    grep -q "dumptime  *48+8  *48+8  *same" <<<"$out" &&
    ok "compare kerneldumpheader v1 v4: same size, every field after 56 moved" ||
    no "kdh v1 v4" "exit $rc: $out"
# The minidump inside is the same dump.
sed -n '/^minidump header/,$p' <<<"$out" | grep -v '^verdict' | grep -q "meaning-changes" &&
    no "kdh v1 v4: the minidump inside differs" "$out" ||
    ok "compare kerneldumpheader v1 v4: the minidump inside is the same"
expect_exit "compare kerneldumpheader v4 with itself: same" 0 "^verdict: same" \
    "$L" compare "$T/k4" "$T/k4"
expect_exit "compare under a header and without: meaning changes" 1 \
    "only OLD is under a kerneldumpheader" "$L" compare "$T/k4" "$T/a3"
j=$("$L" compare --json "$T/sold" "$T/snew")
[ -z "$(json_ok <<<"$j")" ] && grep -q '"verdict": "padding-only"' <<<"$j" &&
    grep -q '"exit": 0' <<<"$j" && ok "compare --json" || no "compare --json" "$j"

expect_exit "compare amd64 with sparc64: exit 3" 3 "one format and architecture" \
    "$L" compare "$T/a3" "$T/sold"
echo "not a dump" >"$T/text"
expect_exit "compare a text file: exit 2" 2 "dumplayout: " "$L" compare "$T/text" "$T/a3"
expect_exit "compare a missing file: exit 2" 2 "No such file" "$L" compare "$T/none" "$T/a3"
gen --arch mips --version 1 --mem 32M -o "$T/m1"
gen --arch mips --version 2 --mem 32M -o "$T/m2"
expect_exit "compare mips o32/n32 without --arch: exit 3, asks for --arch" 3 "--arch" \
    "$L" compare "$T/m1" "$T/m2"
expect_exit "compare mips v1 v2 --arch mips: meaning changes" 1 "^verdict: meaning-changes" \
    "$L" compare --arch mips "$T/m1" "$T/m2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
