#!/usr/bin/env bash
# End-to-end tests of dumpcheck, as a user runs it: clean fixtures, every
# corruption kind of `dumpgen --list-corruptions` on a little-endian, a
# big-endian and a radix fixture (dumpgen -v says which finding and
# where), the portable format through dumpconv, the digest, JSON, exit
# statuses.  The full matrix is tests/check_dumpcheck.c.  Ends with
# "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkcheck.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

gen() { "$BIN/dumpgen" --mem 32M --compact --seed 4 -q -f "$@"; }

# --- the tool itself --------------------------------------------------------
expect_exit "--help" 0 "usage: dumpcheck" "$BIN/dumpcheck" --help
expect_exit "--version" 0 "^dumpcheck \(dumpkit\) [0-9]" "$BIN/dumpcheck" --version
expect_exit "unknown option: exit 3" 3 "usage:" "$BIN/dumpcheck" --no-such-option
expect_exit "no file: exit 3" 3 "expected at least one FILE" "$BIN/dumpcheck"
expect_exit "--quick with --checksum: exit 3" 3 "cannot go with" \
    "$BIN/dumpcheck" --quick --checksum x
expect_exit "--max-findings 0: exit 3" 3 "at least 1" "$BIN/dumpcheck" --max-findings 0 x
expect_exit "--list-codes names every severity" 0 "pmap.loop +error" "$BIN/dumpcheck" --list-codes
ncodes=$("$BIN/dumpcheck" --list-codes | wc -l)
ndoc=0
for c in $("$BIN/dumpcheck" --list-codes | awk '{print $1}'); do
	grep -q -- "\`$c\`" "$(dirname "$0")/../docs/dumpcheck.md" && ndoc=$((ndoc + 1))
done
[ "$ndoc" -eq "$ncodes" ] && ok "docs/dumpcheck.md lists all $ncodes codes" ||
    no "docs/dumpcheck.md lists $ndoc of $ncodes codes"

# --- clean fixtures: no error, no warning, with the pattern -----------------
for spec in "amd64 3 -" "amd64 1 -" "i386 2 pae" "armeb 2 -" "aarch64 3 16k" \
    "mips64 2 -" "powerpc64 2 radix" "powerpc64le 1 phyp" "riscv64 2 -"; do
	set -- $spec
	gen --arch "$1" --version "$2" --variant "$3" -o "$T/clean"
	expect_exit "clean $1 v$2 $3: exit 0, no error, no warning" 0 \
	    ": 0 errors, 0 warnings" "$BIN/dumpcheck" --arch "$1" --pattern 4 "$T/clean"
done

# --- every kind on three fixtures: the code, at the offset ------------------
kinds=$("$BIN/dumpgen" --list-corruptions | awk 'NR > 1 && !/^  / {print $1}')
for spec in "amd64 3 -" "armeb 2 -" "powerpc64 2 radix"; do
	set -- $spec
	for k in $kinds; do
		if ! out=$(gen --arch "$1" --version "$2" --variant "$3" -v \
		    --corrupt "$k" -o "$T/bad" 2>&1); then
			grep -q "does not apply" <<<"$out" &&
			    ok "$k on $1 v$2 $3: does not apply, and says why" ||
			    no "$k on $1 v$2 $3: dumpgen" "$out"
			continue
		fi
		line=$(grep "corrupted: $k:" <<<"$out")
		code=$(sed 's/.*reports \([^ ]*\).*/\1/' <<<"$line")
		off=$(sed -n 's/.* at offset \(0x[0-9a-f]*\)$/\1/p' <<<"$line")
		res=$("$BIN/dumpcheck" --arch "$1" --pattern 4 "$T/bad" 2>&1)
		rc=$?
		if grep -Eq "^  [a-z]+ +${off:-[-0-9a-fx]+} +$code:" <<<"$res" &&
		    { [ $rc -eq 1 ] || [ "$code" = pmap.page-not-dumped ] ||
		    [ "$code" = kdh.cleared ] || [ "$code" = kdh.encrypted ]; }; then
			ok "$k on $1 v$2 $3: $code${off:+ at $off}, exit $rc"
		else
			no "$k on $1 v$2 $3: expected $code${off:+ at $off}" "exit $rc: $res"
		fi
	done
done

# --- the portable format: the same findings, the same digest ----------------
gen --arch amd64 --version 3 -o "$T/n"
"$BIN/dumpconv" "$T/n" -o "$T/n.elf" >/dev/null 2>&1
a=$("$BIN/dumpcheck" --checksum "$T/n" | sed -n 's/.*checksum //p')
b=$("$BIN/dumpcheck" --checksum "$T/n.elf" | sed -n 's/.*checksum //p')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "digest of a dump and of its conversion: $a" ||
    no "digest of a dump and of its conversion" "$a vs $b"
"$BIN/dumpconv" --to native "$T/n.elf" -o "$T/n.again" >/dev/null 2>&1
c=$("$BIN/dumpcheck" --checksum "$T/n.again" | sed -n 's/.*checksum //p')
[ "$a" = "$c" ] && ok "digest after the round trip" || no "digest after the round trip" "$a vs $c"
expect_exit "portable, clean" 0 "portable-elf amd64 version 3.*0 errors, 0 warnings" \
    "$BIN/dumpcheck" --pattern 4 "$T/n.elf"
cp "$T/n.elf" "$T/cut.elf"
truncate -s -6000 "$T/cut.elf"
expect_exit "portable, truncated inside a page" 1 "file.truncated: .*physical memory lost" \
    "$BIN/dumpcheck" "$T/cut.elf"

# --- truncation in words: pages missing, the memory lost ---------------------
cp "$T/n" "$T/cut"
truncate -s -10000 "$T/cut"
expect_exit "truncated: pages missing and the physical ranges lost" 1 \
    "file.truncated: .*3 pages .* missing; physical memory lost: \[0x" \
    "$BIN/dumpcheck" "$T/cut"
expect_exit "--quick sees it too" 1 "file.truncated" "$BIN/dumpcheck" --quick "$T/cut"
cp "$T/n" "$T/long"
printf 'trailing' >>"$T/long"
expect_exit "trailing bytes counted" 1 "file.trailing-bytes: .*found 8 more bytes" \
    "$BIN/dumpcheck" "$T/long"
expect_exit "--pattern with the wrong seed" 1 "content.pattern-mismatch" \
    "$BIN/dumpcheck" --pattern 5 "$T/n"

# --- JSON ---------------------------------------------------------------------
gen --arch amd64 --version 3 --corrupt magic -o "$T/m"
js=$("$BIN/dumpcheck" --json --quick "$T/n" "$T/m" 2>/dev/null)
rc=$?
got=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
f = d["files"]
print(d["exit"], f[0]["errors"], f[0]["bytes_read"], f[1]["findings"][0]["code"],
      f[1]["findings"][0]["offset"], f[1]["examined"])' <<<"$js" 2>&1)
[ $rc -eq 1 ] && [ "$got" = "1 0 0 header.magic 0x0 True" ] &&
    ok "--json: one document, --quick reads no page, a magic at 0" ||
    no "--json" "exit $rc: $got"

# --- several files, exit statuses --------------------------------------------
printf 'not a dump\n' >"$T/text"
expect_exit "not a dump: exit 2" 2 "not a dump format dumpkit knows" "$BIN/dumpcheck" "$T/text"
expect_exit "a missing file: exit 2" 2 "No such file" "$BIN/dumpcheck" "$T/none"
out=$("$BIN/dumpcheck" "$T/n" "$T/m" "$T/text" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(grep -c ': minidump amd64\|not examined' <<<"$out")" -eq 3 ] &&
    ok "three files, each reported; the worst status wins (2)" ||
    no "three files" "exit $rc: $out"
expect_exit "clean and broken: exit 1" 1 "header.magic" "$BIN/dumpcheck" "$T/n" "$T/m"
gen --arch amd64 --version 3 --corrupt pattern --corrupt bitmap-beyond-memory -o "$T/two"
out=$("$BIN/dumpcheck" --pattern 4 --max-findings 1 "$T/two" 2>&1)
[ "$(grep -c '^  error' <<<"$out")" -eq 1 ] && grep -q "1 more findings not shown" <<<"$out" &&
    ok "--max-findings 1" || no "--max-findings 1" "$out"
gen --arch mips --version 2 -o "$T/mips"
expect_exit "mips o32/n32 without --arch: exit 3, asks for --arch" 3 "--arch" \
    "$BIN/dumpcheck" "$T/mips"
err=$("$BIN/dumpcheck" "$T/n" 2>&1 >/dev/null)
[ -z "$err" ] && ok "no progress line when stderr is not a terminal" ||
    no "no progress line off a terminal" "$err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
