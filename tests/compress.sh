#!/usr/bin/env bash
# End-to-end tests of compressed dumps (gzip, zstd, xz), as a user runs
# the tools, against the real gzip, zstd and xz: dumpgen --compress,
# dumpconv and dumpcheck on streams made by either side, concatenated
# members, zero padding, damage, TMPDIR.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkz.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

same() {	# same DESC FILE FILE
	if cmp -s "$2" "$3"; then ok "$1"; else no "$1" "$(cmp "$2" "$3" 2>&1)"; fi
}
sum() { "$BIN/dumpcheck" --checksum "$@" 2>/dev/null | sed -n 's/.*checksum //p'; }
gen() { "$BIN/dumpgen" --arch amd64 --mem 64M --compact --seed 4 -q -f "$@"; }
declare -A unz=([gzip]="gzip -dc" [zstd]="zstd -q -dc" [xz]="xz -dc")
declare -A mk=([gzip]="gzip -n -c" [zstd]="zstd -q -c" [xz]="xz -c")
declare -A sfx=([gzip]=gz [zstd]=zst [xz]=xz)

gen -o "$T/plain"
"$BIN/dumpconv" -q "$T/plain" -o "$T/plain.elf"
want=$(sum "$T/plain")
[ -n "$want" ] && ok "plain fixture: digest $want" || no "plain fixture: no digest"

for z in gzip zstd xz; do
	s=${sfx[$z]}
	# --- dumpgen --compress: the tool decodes it to the plain fixture ----
	gen --compress "$z" -o "$T/v.$s"
	${unz[$z]} "$T/v.$s" >"$T/v.out" && same "dumpgen --compress $z: $z -d gives the plain fixture" "$T/v.out" "$T/plain"
	gen --compress "$z" -o "$T/v2.$s"
	same "dumpgen --compress $z: the same bytes twice" "$T/v.$s" "$T/v2.$s"
	expect_exit "dumpinfo reads the $z fixture" 0 "minidump" "$BIN/dumpinfo" "$T/v.$s"
	[ "$(sum "$T/v.$s")" = "$want" ] && ok "dumpcheck --checksum: $z fixture = plain" ||
	    no "dumpcheck --checksum $z" "$(sum "$T/v.$s") vs $want"
	expect_exit "dumpcheck: $z fixture clean" 0 ": 0 errors, 0 warnings" \
	    "$BIN/dumpcheck" --pattern 4 "$T/v.$s"

	# --- a stream the real tool made --------------------------------------
	${mk[$z]} "$T/plain" >"$T/t.$s"
	[ "$(sum "$T/t.$s")" = "$want" ] && ok "dumpcheck --checksum: $z tool's stream = plain" ||
	    no "checksum of the $z tool's stream"
	# --- dumpconv of the compressed input = dumpconv of the plain one -----
	"$BIN/dumpconv" -q -f "$T/t.$s" -o "$T/t.elf" &&
	    same "dumpconv of the $z input = of the plain input" "$T/t.elf" "$T/plain.elf"
	# --- dumpconv --compress: decoded by the tool to the plain output -----
	"$BIN/dumpconv" -q --compress "$z" "$T/plain" -o "$T/c.elf.$s" 2>"$T/err"
	grep -q "need it decompressed first" "$T/err" &&
	    ok "dumpconv --compress $z to ELF: warns about readelf and gdb" ||
	    no "no warning for a compressed ELF output" "$(cat "$T/err")"
	${unz[$z]} "$T/c.elf.$s" >"$T/c.elf" &&
	    same "dumpconv --compress $z (elf): $z -d = plain conversion" "$T/c.elf" "$T/plain.elf"
	[ "$(sum "$T/c.elf.$s")" = "$want" ] && ok "dumpcheck --checksum: compressed ELF = plain" ||
	    no "checksum of the compressed ELF"
	"$BIN/dumpconv" -q --to native --compress "$z" "$T/plain.elf" -o "$T/n.$s"
	${unz[$z]} "$T/n.$s" >"$T/n.out" &&
	    same "dumpconv --to native --compress $z: $z -d = the original dump" "$T/n.out" "$T/plain"
	"$BIN/dumpconv" -q --to native --compress "$z" "$T/plain.elf" -o - >"$T/n2.$s"
	same "--compress to standard output: the same bytes" "$T/n.$s" "$T/n2.$s"
	expect_exit "--force rules: an existing output is kept" 2 "file exists" \
	    "$BIN/dumpconv" -q --to native --compress "$z" "$T/plain.elf" -o "$T/n.$s"

	# --- two members / frames / streams, then zero padding ----------------
	head -c 1000000 "$T/plain" | ${mk[$z]} >"$T/cat.$s"
	tail -c +1000001 "$T/plain" | ${mk[$z]} >>"$T/cat.$s"
	[ "$(sum "$T/cat.$s")" = "$want" ] && ok "$z: two members concatenated" ||
	    no "$z concatenated" "$("$BIN/dumpcheck" "$T/cat.$s" 2>&1)"
	head -c 300 /dev/zero >>"$T/cat.$s"
	expect_exit "$z: zero padding after the stream is a note" 0 \
	    "note +0x[0-9a-f]+ +compress.padding: 300 zero bytes" \
	    "$BIN/dumpcheck" "$T/cat.$s"
	expect_exit "$z: ... and nothing else" 0 "0 errors, 0 warnings, 1 note" \
	    "$BIN/dumpcheck" "$T/cat.$s"
	printf 'x' >>"$T/cat.$s"
	expect_exit "$z: a byte after the padding is an error" 1 "compress.trailing-bytes" \
	    "$BIN/dumpcheck" "$T/cat.$s"
	expect_exit "$z: dumpinfo refuses it, naming the offset" 2 "compressed offset 0x" \
	    "$BIN/dumpinfo" "$T/cat.$s"

	# --- damage: dumpgen says what dumpcheck reports, and where -----------
	for k in "$z-truncated" "$z-corrupt"; do
		out=$("$BIN/dumpgen" --arch amd64 --mem 64M --compact --seed 4 -f -v \
		    --corrupt "$k" -o "$T/bad" 2>&1)
		code=$(sed -n "s/.*corrupted: $k: dumpcheck reports \([^ ]*\).*/\1/p" <<<"$out")
		off=$(sed -n 's/.* at offset \(0x[0-9a-f]*\)$/\1/p' <<<"$out")
		res=$("$BIN/dumpcheck" "$T/bad" 2>&1)
		rc=$?
		if [ -n "$code" ] && [ $rc -eq 1 ] &&
		    grep -Eq "^  error +${off:-0x[0-9a-f]+} +$code:" <<<"$res"; then
			ok "$k: $code${off:+ at $off}, exit 1"
		else
			no "$k: expected ${code:-?}${off:+ at $off}" "$out; exit $rc: $res"
		fi
	done
	size=$(stat -c %s "$T/t.$s")
	head -c $((size / 3)) "$T/t.$s" >"$T/cut.$s"
	expect_exit "$z cut by a third: dumpconv fails, naming the file and offset" 2 \
	    "cut.$s: compressed offset $(printf '%#x' $((size / 3))): .*expected more compressed data" \
	    "$BIN/dumpconv" -q "$T/cut.$s" -o "$T/cut.elf"
	[ ! -e "$T/cut.elf" ] && ok "... and leaves no output" || no "output left after a failure"
done

# --- zstd in one pass (issue 17): the work bounded, not timed ------------------
# A zstd file whose frames declare their size is decoded as dumpconv and
# dumpcheck read it: DUMPKIT_TRACE prints the stream's counters at close.
# Decoded once (decoded = size), nothing spooled, no fallback, and no
# more kept than the dump's metadata (the sections before its pages) and
# one decoder stretch (1 MiB).
zstd -q -c "$T/plain" >"$T/op.zst"
pages_off=$("$BIN/dumpinfo" "$T/plain" | awk '$1 == "pages" { print $3; exit }')
onepass() {	# onepass DESC TRACEFILE: the counters say one pass
	local l n dec kept
	l=$(grep "zstd one pass" "$2")
	n=$(sed -n 's/.*one pass: \([0-9]*\) bytes.*/\1/p' <<<"$l")
	dec=$(sed -n 's/.* \([0-9]*\) decoded in.*/\1/p' <<<"$l")
	kept=$(sed -n 's/.* \([0-9]*\) kept before.*/\1/p' <<<"$l")
	if [ -n "$n" ] && [ "$n" = "$(stat -c %s "$T/plain")" ] && [ "$dec" = "$n" ] &&
	    grep -q " 0 fallbacks, 0 spooled" <<<"$l" &&
	    [ "$kept" -le $((pages_off + (1 << 20))) ]; then
		ok "$1: one pass ($dec bytes decoded, $kept kept, 0 spooled)"
	else
		no "$1: not one pass" "${l:-no trace line}; pages at $pages_off"
	fi
}
DUMPKIT_TRACE=1 "$BIN/dumpconv" -q -f "$T/op.zst" -o "$T/op.elf" 2>"$T/op.trace"
same "one pass: dumpconv of the zstd input = of the plain input" "$T/op.elf" "$T/plain.elf"
onepass "dumpconv FILE.zst -o OUT" "$T/op.trace"
DUMPKIT_TRACE=1 "$BIN/dumpconv" -q "$T/op.zst" -o - 2>"$T/op.trace" >"$T/op2.elf"
same "one pass: to standard output, the same bytes" "$T/op2.elf" "$T/plain.elf"
onepass "dumpconv FILE.zst -o -" "$T/op.trace"
got=$(DUMPKIT_TRACE=1 "$BIN/dumpcheck" --checksum "$T/op.zst" 2>"$T/op.trace" |
    sed -n 's/.*checksum //p')
[ "$got" = "$want" ] && ok "one pass: dumpcheck --checksum = plain" ||
    no "one-pass checksum" "$got vs $want"
onepass "dumpcheck --checksum FILE.zst" "$T/op.trace"
zstd -q -c "$T/plain.elf" >"$T/ope.zst"
"$BIN/dumpconv" -q --to native "$T/ope.zst" -o "$T/ope.back" &&
    same "one pass: --to native of a zstd portable file = the original" "$T/ope.back" "$T/plain"
# A stream from a pipe declares no size: the spool, as before.
zstd -q -c <"$T/plain" >"$T/pipe.zst"
DUMPKIT_TRACE=1 "$BIN/dumpconv" -q "$T/pipe.zst" -o "$T/pipe.elf" 2>"$T/op.trace"
! grep -q "one pass" "$T/op.trace" && grep -q "unlinked file" "$T/op.trace" &&
    ok "a zstd stream without content sizes is spooled" ||
    no "no spool for a sizeless stream" "$(grep zstd "$T/op.trace")"
same "... and converts to the same bytes" "$T/pipe.elf" "$T/plain.elf"
# Damage inside a block: found while converting, or at the checksum;
# the output is not left at the target, nor a temporary file beside it.
mkdir "$T/od"
cp "$T/op.zst" "$T/flip.zst"
size=$(stat -c %s "$T/flip.zst")
printf '\377\377\377\377' | dd of="$T/flip.zst" bs=1 seek=$((size / 2)) conv=notrunc status=none
expect_exit "one pass, a damaged block: dumpconv fails, naming the file and offset" 2 \
    "flip.zst: compressed offset 0x[0-9a-f]+: zstd frame 1" \
    "$BIN/dumpconv" -q "$T/flip.zst" -o "$T/od/flip.elf"
[ -z "$(ls -A "$T/od")" ] && ok "... and leaves nothing in the target directory" ||
    no "left in the target directory" "$(ls -la "$T/od")"
res=$("$BIN/dumpcheck" "$T/flip.zst" 2>&1)
grep -Eq "^  error +0x[0-9a-f]+ +compress.corrupt:" <<<"$res" &&
    [ "$(grep -c compress.corrupt <<<"$res")" = 1 ] &&
    ok "one pass, a damaged block: dumpcheck reports compress.corrupt once" ||
    no "dumpcheck of a damaged one-pass stream" "$res"
head -c $((size - 7)) "$T/op.zst" >"$T/od.zst"
expect_exit "one pass, the last frame cut: dumpconv fails, naming the offset" 2 \
    "od.zst: compressed offset $(printf '%#x' $((size - 7))): .*expected more compressed data" \
    "$BIN/dumpconv" -q "$T/od.zst" -o "$T/od/cut.elf"
[ -z "$(ls -A "$T/od")" ] && ok "... and leaves nothing in the target directory" ||
    no "left after a cut stream" "$(ls -la "$T/od")"

# --- TMPDIR: where the decompressed dump goes, and nothing left there ----------
mkdir "$T/tmp"
TMPDIR=$T/tmp "$BIN/dumpconv" -q "$T/t.gz" -o "$T/x.elf"
[ -z "$(ls -A "$T/tmp")" ] && ok "TMPDIR empty after dumpconv of a .gz" ||
    no "files left in TMPDIR" "$(ls -la "$T/tmp")"
TMPDIR=$T/tmp "$BIN/dumpinfo" "$T/cut.gz" >/dev/null 2>&1
[ -z "$(ls -A "$T/tmp")" ] && ok "TMPDIR empty after a failed open" ||
    no "files left in TMPDIR after a failure" "$(ls -la "$T/tmp")"
expect_exit "TMPDIR that does not exist: a clear error" 2 \
    "temporary file in $T/none.*TMPDIR" env TMPDIR="$T/none" "$BIN/dumpinfo" "$T/t.gz"
expect_exit "--compress bzip2: usage error" 3 "gzip, zstd or xz" \
    "$BIN/dumpconv" --compress bzip2 "$T/plain" -o "$T/y"
expect_exit "--help says what decompression costs" 0 "TMPDIR" "$BIN/dumpconv" --help

# --- gzip header: no name, mtime 0; the tools' own test passes -----------------
hdr=$(od -An -tx1 -N8 "$T/v.gz" | tr -d ' \n')
[ "$hdr" = 1f8b080000000000 ] && ok "gzip header: no name, mtime 0" || no "gzip header" "$hdr"
gzip -t "$T/v.gz" && zstd -q -t "$T/v.zst" && xz -t "$T/v.xz" &&
    ok "gzip -t, zstd -t, xz -t accept our streams" || no "a tool rejects our stream"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
