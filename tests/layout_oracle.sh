#!/usr/bin/env bash
# The compiler oracle of the layout engine (issue 7, docs/dumplayout.md):
# for each ABI, `dumplayout c --abi ABI` writes the native declaration of
# every header (every version) as C, with the engine's offsets, sizes and
# alignments as _Static_asserts; the ABI's real Debian cross-compiler
# compiles it (-c only, freestanding: no libc needed).  Then two readers
# read the object back: tests/layout_dwarf (libdw) must print exactly the
# engine's `dumplayout offsets --abi ABI`, and the object's ELF byte
# order must be the ABI's; pahole (dwarves) prints the same structs and
# its sizes must be the engine's too.
#
#   B=build bash tests/layout_oracle.sh [ABI...]     (default: every ABI)
#   LAYOUT_ORACLE_SHOW=1 ...   also print pahole's view of one header
#
# A missing compiler is a failure that names its Debian package.  Ends
# with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
DWARF=$(cd "$B/tests" && pwd)/layout_dwarf
T=$(mktemp -d "${TMPDIR:-/tmp}/dklayout.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

# name endian cc ccflags, one ABI a line, from the engine's own table.
"$BIN/dumplayout" abis --json | python3 -c '
import json, sys
for a in json.load(sys.stdin)["abis"]:
    print(a["name"], a["endian"], a["cc"], a["ccflags"])
' >"$T/abis" || { echo "not ok - dumplayout abis --json"; exit 1; }

want=("$@")
[ ${#want[@]} -eq 0 ] && mapfile -t want < <(awk '{print $1}' "$T/abis")

# The Debian package of a cross-compiler binary.
pkg_of() {
	case $1 in
	x86_64-linux-gnu-gcc) echo gcc-x86-64-linux-gnu ;;
	*) echo "gcc-${1%-gcc}" | sed 's/_/-/g' ;;
	esac
}

for abi in "${want[@]}"; do
	line=$(awk -v a="$abi" '$1 == a' "$T/abis")
	if [ -z "$line" ]; then
		no "$abi: no such ABI in the engine's table"
		continue
	fi
	read -r _ endian cc flags <<<"$line"
	if ! command -v "$cc" >/dev/null; then
		no "$abi: $cc is not installed (Debian package $(pkg_of "$cc"))"
		continue
	fi
	src=$T/$abi.c obj=$T/$abi.o
	"$BIN/dumplayout" c --abi "$abi" >"$src"
	# shellcheck disable=SC2086
	if ! out=$("$cc" $flags -std=c11 -ffreestanding -g -c -o "$obj" "$src" 2>&1); then
		no "$abi: $cc $flags disagrees with the engine" \
		    "$(grep -E 'static assertion|error' <<<"$out" | head -20)"
		continue
	fi
	n=$(grep -c '^_Static_assert' "$src")
	ok "$abi: $cc $flags accepts all $n _Static_asserts of the engine"

	# Reader 1: DWARF through libdw.
	if ! "$DWARF" "$obj" >"$T/$abi.dwarf" 2>"$T/$abi.err"; then
		no "$abi: layout_dwarf cannot read the object" "$(cat "$T/$abi.err")"
		continue
	fi
	data=$(awk '$1 == "elf-data" {print $2}' "$T/$abi.dwarf")
	[ "$endian" = big-endian ] && wd=MSB || wd=LSB
	[ "$data" = "$wd" ] && ok "$abi: the object is $endian ($data)" ||
	    no "$abi: the object is $data, the engine says $endian"
	"$BIN/dumplayout" offsets --abi "$abi" | sort >"$T/$abi.engine"
	# The structs the engine declared, as DWARF has them.
	awk 'NR == FNR {want[$1] = 1; next} ($1 in want)' "$T/$abi.engine" \
	    "$T/$abi.dwarf" | sort >"$T/$abi.got"
	if d=$(diff "$T/$abi.engine" "$T/$abi.got"); then
		ok "$abi: DWARF (libdw) has the engine's $(wc -l <"$T/$abi.got") offsets, sizes and sizeofs"
	else
		no "$abi: DWARF (libdw) disagrees with the engine (< engine, > DWARF)" "$d"
	fi

	# Reader 2: pahole.
	if command -v pahole >/dev/null; then
		pahole --sizes "$obj" 2>/dev/null | awk '{print $1, "sizeof", $2}' \
		    >"$T/$abi.pahole"
		"$BIN/dumplayout" offsets --abi "$abi" | grep ' sizeof ' >"$T/$abi.esizes"
		if ! grep -q '^dl_' "$T/$abi.pahole"; then
			# pahole reads the names in a relocatable object only
			# where elfutils can relocate it: not mips n32/n64
			# (RELA) with elfutils 0.188, which has no mips
			# backend.  layout_dwarf relocates those by itself.
			echo "# $abi: skip pahole: it cannot read the names in this object (RELA relocations, no elfutils backend)"
		else
			sort -o "$T/$abi.esizes" "$T/$abi.esizes"
			awk 'NR == FNR {want[$1] = 1; next} ($1 in want)' \
			    "$T/$abi.esizes" "$T/$abi.pahole" | sort >"$T/$abi.psizes"
			if d=$(diff "$T/$abi.esizes" "$T/$abi.psizes"); then
				ok "$abi: pahole's sizes are the engine's ($(wc -l <"$T/$abi.psizes") structs)"
			else
				no "$abi: pahole's sizes differ from the engine's (< engine, > pahole)" "$d"
			fi
		fi
		if [ -n "${LAYOUT_ORACLE_SHOW:-}" ]; then
			s=$(awk '$1 ~ /^dl_minidump_powerpc64_v2$/ {print $1; exit}' "$T/$abi.engine")
			[ -n "$s" ] && pahole -C "$s" "$obj" | sed "s/^/# $abi: /"
		fi
	else
		echo "# pahole (Debian dwarves) is not installed: second reader skipped"
	fi
done

# The oracle can fail: i386's answers (uint64_t 4-aligned) under the
# amd64 compiler must be refused, naming a header, the ABI and a field.
if command -v x86_64-linux-gnu-gcc >/dev/null; then
	"$BIN/dumplayout" c --abi i386 >"$T/wrong.c"
	if out=$(x86_64-linux-gnu-gcc -std=c11 -ffreestanding -c -o "$T/wrong.o" "$T/wrong.c" 2>&1); then
		no "the amd64 compiler accepts the engine's i386 answers"
	elif grep -q 'minidump-powerpc64 v1 on i386: the engine puts startkernel at 116' <<<"$out"; then
		ok "the amd64 compiler refuses the engine's i386 answers (startkernel at 116)"
	else
		no "the amd64 compiler refuses i386's answers, but not as expected" "$(head -5 <<<"$out")"
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
