#!/usr/bin/env bash
# Interoperability of the portable ELF minidump (docs/portable-elf-minidump.md):
# for every row of `dumpgen --list`, the file dumpconv writes is read by
#
#   - eu-readelf -h -l -n and readelf -a: exit 0, no warning, no error;
#   - eu-elflint: nothing it calls an error but the messages section 9 of
#     the spec documents as unavoidable (our note types; n32's e_flags);
#   - libkdumpfile (tests/kdumpfile_read.c): 1,000 random physical
#     addresses of the PT_LOADs read the bytes dumpkit reads from the
#     source dump;
#   - gdb-multiarch, for every architecture it supports: core-file, then
#     x/8xg at kernel-map and direct-map addresses, and at an address of
#     each window dumpinfo lists (MIPS KSEG0, KSEG1, XKPHYS, CKSEG0,
#     CKSEG1; powerpc64's link-time kernel addresses), gives the words
#     dumpinfo --read-va reads from the source through its page tables
#     and windows;
#
# and converts back and forth byte for byte (native -> portable -> native,
# portable -> native -> portable).  Then dumpconv itself: standard output
# (pipe, regular file, O_APPEND), --force and the refusal to overwrite,
# nothing left after a failed write, a read-only input, --info, --no-virtual,
# more than 65,535 segments (PN_XNUM).
#
# Rows run in parallel (INTEROP_JOBS, default the number of CPUs).
# Needs: binutils (readelf), elfutils (eu-readelf, eu-elflint),
# gdb-multiarch, libkdumpfile-dev (the reader, built by make).  A missing
# tool is a failure, not a skip.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
KDREAD=${KDUMPFILE_READ:-$B/tests/kdumpfile_read}
JOBS=${INTEROP_JOBS:-$(nproc 2>/dev/null || echo 2)}
T=$(mktemp -d "${TMPDIR:-/tmp}/dkinterop.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'rm -rf "$T"; exit 130' INT TERM
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

# --- the tools --------------------------------------------------------------
have_tools=1
for t in readelf:binutils eu-readelf:elfutils eu-elflint:elfutils \
    gdb-multiarch:gdb-multiarch; do
	if command -v "${t%%:*}" >/dev/null 2>&1; then
		ok "${t%%:*} is installed"
	else
		no "${t%%:*} is installed (Debian package ${t#*:})"
		have_tools=0
	fi
done
if [ -x "$KDREAD" ]; then
	ok "the libkdumpfile reader is built ($KDREAD)"
else
	no "the libkdumpfile reader is built (Debian package libkdumpfile-dev)"
	have_tools=0
fi
[ "$have_tools" -eq 1 ] || { echo "$pass passed, $fail failed"; exit 1; }

# The architectures this gdb-multiarch knows, by ELF machine.
gdb_arches=$(gdb-multiarch -nx -batch -ex "set architecture" 2>&1 |
    sed 's/.*Valid arguments are //' | tr ',' '\n' | sed 's/^ *//; s/[ .]*$//')

# readelf -a FILE: exit 0 and no warning or error on stdout or stderr
# (the notes print as hex), except what section 9 of the spec documents:
#  - EM_ARM: readelf 2.40 exits 1, silently, from its unwind-table pass
#    (-u, part of -a) on any ARM file without a section name table; every
#    other part of -a must then exit 0;
#  - PN_XNUM: "[ 0]: Unexpected value (N) in info field.", N the real
#    program header count that the gABI puts in section 0's sh_info.
# Prints what is wrong; nothing if all is well.
readelf_check() {
	local f=$1 log=$2 rc
	readelf -a "$f" > "$log" 2>&1
	rc=$?
	grep -iE "warning|error" "$log" |
	    grep -vE "^readelf: Warning: \[ 0\]: Unexpected value \($(
	    readelf -h "$f" | sed -n 's/.*Number of program headers: *65535 (\([0-9]*\)).*/\1/p'
	    )\) in info field\.$" | head -n 5
	if [ "$rc" -ne 0 ]; then
		if readelf -h "$f" | grep -q "Machine: *ARM$" &&
		    readelf -h -l -S -s -r -d -V -A -I -n "$f" >/dev/null 2>&1; then
			:
		else
			echo "readelf -a: exit $rc"
		fi
	fi
	rm -f "$log"
}

# eu-elflint FILE: what it reports besides what section 9 documents:
#  - "unknown core file note type N" for dumpkit's note types (elflint
#    knows only NT_PRSTATUS .. NT_PRFPXREG in a core file, whatever the
#    owner);
#  - n32: "invalid machine flags: 0x20" (elfutils 0.188 accepts only 0 for
#    EM_MIPS);
#  - PN_XNUM: "loadable segment [N] is executable|writable but contains
#    no executable|writable sections" (with a section header, section 0,
#    elflint looks for sections in every PT_LOAD).
elflint_check() {
	local f=$1 n32=$2
	eu-elflint "$f" 2>&1 |
	    grep -vE '^phdr\[0\]: unknown core file note type 11457658(89|9[0-5]) at offset [0-9]+$' |
	    grep -vE '^loadable segment \[[0-9]+\] is (executable|writable) but contains no (executable|writable) sections$' |
	    { if [ "$n32" = 1 ]; then grep -vxF "invalid machine flags: 0x20"; else cat; fi; } |
	    head -n 5
}
gdb_arch_of() {	# ELF machine name (readelf) -> gdb architecture
	case $1 in
	*X86-64*) echo i386:x86-64 ;;
	*80386*) echo i386 ;;
	*AArch64*) echo aarch64 ;;
	ARM) echo arm ;;
	*MIPS*) echo mips ;;
	*PowerPC64*) echo powerpc:common64 ;;
	*RISC-V*) echo riscv:rv64 ;;
	*"Sparc v9"*) echo sparc:v9 ;;
	*) echo none ;;
	esac
}

# --- one row: everything that reads the portable file -----------------------
# row_check IDX ARCH VERSION VARIANT: prints "ok -"/"not ok -" lines.
row_check() {
	local i=$1 arch=$2 ver=$3 var=$4
	local d=$T/row$i name="$arch v$ver $var"
	local n=$d/native e=$d/elf out rc nv= endian machine gdbarch
	mkdir -p "$d"
	R_ok() { echo "ok - $name: $1"; }
	R_no() { echo "not ok - $name: $1"; [ -n "${2:-}" ] && sed 's/^/#   /' <<<"$2" | head -n 20; }

	if ! out=$("$BIN/dumpgen" --arch "$arch" --version "$ver" --variant "$var" \
	    --mem 48M --seed 5 -q -o "$n" 2>&1); then
		R_no "dumpgen" "$out"; rm -rf "$d"; return
	fi
	if out=$("$BIN/dumpconv" --arch "$arch" -q "$n" -o "$e" 2>&1); then
		R_ok "dumpconv"
	else
		R_no "dumpconv" "$out"
		# The readers are still asked about a file without the
		# virtual segments, if the walk of the kernel map was the
		# problem.
		grep -q -- "--no-virtual" <<<"$out" || { rm -rf "$d"; return; }
		nv=--no-virtual
		"$BIN/dumpconv" --arch "$arch" -q $nv "$n" -o "$e" ||
		    { rm -rf "$d"; return; }
	fi

	# readelf -a and eu-readelf -h -l -n: exit 0, no warning or error
	# (stdout and stderr together; the notes print as hex).
	out=$(readelf_check "$e" "$d/readelf")
	[ -z "$out" ] && R_ok "readelf -a: no warning$([[ $arch == arm* ]] &&
	    echo ' (exit 1 from the ARM unwind pass, documented)')" ||
	    R_no "readelf -a" "$out"
	eu-readelf -h -l -n "$e" > "$d/eu-readelf" 2>&1
	rc=$?
	out=$(grep -iE "warning|error|invalid" "$d/eu-readelf" | head -n 5)
	[ "$rc" -eq 0 ] && [ -z "$out" ] && R_ok "eu-readelf -h -l -n: exit 0, no warning" ||
	    R_no "eu-readelf -h -l -n (exit $rc)" "$out"
	rm -f "$d/readelf" "$d/eu-readelf"

	# eu-elflint: only the messages the spec's section 9 documents.
	out=$(elflint_check "$e" "$([[ $arch == mipsn32* ]] && echo 1)")
	[ -z "$out" ] && R_ok "eu-elflint: only the documented note-type messages$(
	    [[ $arch == mipsn32* ]] && echo ' and n32 e_flags')" ||
	    R_no "eu-elflint: undocumented messages" "$out"

	# libkdumpfile: 1,000 physical addresses, against dumpkit.
	if out=$("$KDREAD" -n 1000 -s "$i" -a "$arch" "$e" "$n" 2>&1); then
		R_ok "libkdumpfile reads 1000 physical addresses as dumpkit does ($(grep -E '^(kphys|machphys):' <<<"$out" | sed 's/: \(.*\)/ \1/' | tr '\n' ';' | sed 's/;$//'))"
	else
		R_no "libkdumpfile" "$out"
	fi

	# gdb-multiarch: x/8xg at kernel-map and direct-map addresses.
	machine=$(readelf -h "$e" | sed -n 's/^ *Machine: *//p')
	endian=$(readelf -h "$e" | grep -q "big endian" && echo big || echo little)
	gdbarch=$(gdb_arch_of "$machine")
	if ! grep -qx "$gdbarch" <<<"$gdb_arches"; then
		R_ok "gdb: skipped, gdb-multiarch does not know $machine"
	else
		gdb_row "$d" "$arch" "$e" "$n" "$endian" "$nv"
	fi

	# Round trips, byte for byte.
	if "$BIN/dumpconv" -q --to native "$e" -o "$d/n2" &&
	    cmp -s "$n" "$d/n2"; then
		R_ok "native -> portable -> native is byte-identical"
	else
		R_no "native -> portable -> native differs"
	fi
	if [ -f "$d/n2" ] && "$BIN/dumpconv" -q $nv --arch "$arch" "$d/n2" \
	    -o "$d/e2" && cmp -s "$e" "$d/e2"; then
		R_ok "portable -> native -> portable is byte-identical"
	else
		R_no "portable -> native -> portable differs"
	fi
	rm -rf "$d"
}

# ult A B: A < B as unsigned 64-bit numbers (bash's are signed).
ult() { (( ($1 ^ (1 << 63)) < ($2 ^ (1 << 63)) )); }

# gdb_row DIR ARCH ELF NATIVE ENDIAN NOVIRTUAL
gdb_row() {
	local d=$1 arch=$2 e=$3 n=$4 endian=$5 nv=$6
	local mask=0xffffffffffffffff nphys loads va dva cands=() kmap=0 dmap=0
	local gdbargs=() want got bad=0 nonzero=0 checked=0 out info
	local kb=0 ke=0 wins=() wnames=() wseen=() wcand=() nwin=0 win=0 w missing=
	case $arch in mips|mipsel|mipsn32|mipsn32el) mask=0xffffffff ;; esac
	info=$("$BIN/dumpinfo" --arch "$arch" -v "$n")
	nphys=$(grep -c '^  pa ' <<<"$info")
	# The kernel map [kb, ke) and the address windows dumpinfo reads
	# (MIPS KSEG0, XKPHYS...; powerpc64's link-time addresses): "start
	# end" each, and the windows' names.
	read -r kb ke < <(awk '$1 == "kernel" && $2 == "map:" { print $3, $5 }' <<<"$info")
	while read -r w; do
		[ -n "$w" ] || continue
		wins+=("${w% *}")
		wnames+=("${w##* }")
		wseen+=(0)	# 0 no address yet, 1 an all-zero one, 2 done
		wcand+=(-1)	# its index in cands
	done < <(awk '$1 == "window:" { name = $2; for (i = 3; i <= NF - 6; i++)
	    name = name "_" $i; print $(NF - 5), $(NF - 3), name }' <<<"$info")
	nwin=${#wins[@]}
	loads=$(readelf -lW "$e" | awk '$1 == "LOAD" { print $3, $5 }')
	# Direct map: physical segments with an address; kernel map: the
	# virtual ones inside [kb, ke), up to 4; windows: the others, one
	# in each window.  Addresses whose bytes are not all zero (one
	# all-zero address is taken if nothing else is found; for a window,
	# if nothing else is found in that window).
	while read -r va size; do
		local k=$((++checked)) off m=$(( va & mask )) which=-1
		if [ "$k" -le "$nphys" ]; then
			[ "$dmap" -ge 3 ] || [ "$((va))" -eq 0 ] && continue
		elif ! ult "$m" "$kb" && ult "$m" "$ke"; then
			[ "$kmap" -ge 4 ] && continue
		else
			for w in "${!wins[@]}"; do
				if ! ult "$m" "${wins[$w]% *}" &&
				    ult "$m" "${wins[$w]#* }"; then
					which=$w
					break
				fi
			done
			if [ "$which" -lt 0 ]; then
				R_no "gdb: virtual segment at $va is in neither the kernel map nor a window"
				bad=$((bad + 1))
				continue
			fi
			[ "${wseen[$which]}" -eq 2 ] && continue
		fi
		for off in 0x40 $(( (size / 2) & ~0xfff )) $(( size - 64 )); do
			local a=$(( va + off )) bytes
			bytes=$("$BIN/dumpinfo" --arch "$arch" --read-va \
			    "$(printf '%#x' $(( a & mask ))):64" --raw "$n" \
			    2>/dev/null | od -An -v -tx8 --endian="$endian" |
			    tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
			[ -z "$bytes" ] && continue
			if [ "$which" -ge 0 ]; then
				if [[ $bytes =~ [1-9a-f] ]]; then
					nonzero=$((nonzero + 1))
					[ "${wseen[$which]}" -eq 0 ] && win=$((win + 1))
					if [ "${wseen[$which]}" -eq 1 ]; then
						cands[${wcand[$which]}]="$(printf '%#x' "$a") $bytes"
					else
						cands+=("$(printf '%#x' "$a") $bytes")
					fi
					wseen[$which]=2
					break
				elif [ "${wseen[$which]}" -eq 0 ]; then
					wcand[$which]=${#cands[@]}
					cands+=("$(printf '%#x' "$a") $bytes")
					wseen[$which]=1
					win=$((win + 1))
				fi
				continue
			fi
			if [[ $bytes =~ [1-9a-f] ]]; then
				nonzero=$((nonzero + 1))
			elif [ ${#cands[@]} -gt 0 ]; then
				continue
			fi
			cands+=("$(printf '%#x' "$a") $bytes")
			if [ "$k" -le "$nphys" ]; then
				dmap=$((dmap + 1))
			else
				kmap=$((kmap + 1))
			fi
			break
		done
	done <<<"$loads"
	# Every window dumpinfo reads has its virtual segments (the fixtures'
	# memory starts at PA 0, which every window reaches), unless the
	# file has none (--no-virtual).
	for w in "${!wins[@]}"; do
		[ "${wseen[$w]}" -eq 0 ] && missing="$missing ${wnames[$w]}"
	done
	if [ -z "$nv" ] && [ -n "$missing" ]; then
		R_no "gdb: no virtual segment of the window(s)$missing"
		bad=$((bad + 1))
	fi
	if [ ${#cands[@]} -eq 0 ]; then
		R_no "gdb: no address to read"
		return
	fi
	# gdb 13 hits an internal error (frame_unwind_find_by_frame) after
	# loading any MIPS core without registers; it can go on past it.
	if [[ $arch == mips* ]]; then
		gdbargs+=(-ex "maint set internal-error quit no"
		    -ex "maint set internal-error corefile no"
		    -ex "maint set internal-error backtrace off")
	fi
	gdbargs+=(-ex "core-file $e")
	for c in "${cands[@]}"; do
		gdbargs+=(-ex "echo @@ ${c%% *}\\n" -ex "x/8xg ${c%% *}")
	done
	out=$(timeout 120 gdb-multiarch -nx -batch "${gdbargs[@]}" 2>&1)
	for c in "${cands[@]}"; do
		local a=${c%% *} w=${c#* }
		want=$(for x in $w; do printf '0x%s ' "$x"; done | sed 's/ $//')
		got=$(awk -v a="@@ $a" '$0 == a { on = 1; next }
		    /^@@ / { on = 0 } on && /^0x[0-9a-f]+[^:]*:/ {
			sub(/^[^:]*:/, ""); for (i = 1; i <= NF; i++) printf "%s ", $i }' \
		    <<<"$out" | sed 's/ $//')
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			R_no "gdb x/8xg $a" "gdb:      $got
dumpinfo: $want
$(grep -vE '^0x[0-9a-f]+ ' <<<"$out" | grep -vE '^@@|^0x' | head -n 5)"
		fi
	done
	[ "$bad" -eq 0 ] && R_ok "gdb-multiarch x/8xg at $kmap kernel-map, $dmap direct-map and $win window addresses$( [ "$nwin" -gt 0 ] && echo " (one in each of ${wnames[*]})") ($nonzero not all zero) reads what dumpinfo reads$([[ $arch == mips* ]] && echo ', past gdb 13'"'"'s MIPS internal error')"
}

# --- every row, JOBS at a time ---------------------------------------------
rows=$("$BIN/dumpgen" --list | tail -n +2)
nrows=0
while read -r fmt arch ver var _; do
	[ "$fmt" = elf ] && continue	# full ELF cores: tests/fullelf.sh
	[ "$fmt" = vmcore ] && continue	# Linux ELF vmcores: tests/vmcore_write.sh
	nrows=$((nrows + 1))
	( row_check "$nrows" "$arch" "$ver" "$var" > "$T/out.$nrows" 2>&1 ) &
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n 2>/dev/null || true
	done
done <<<"$rows"
wait
for i in $(seq 1 "$nrows"); do
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass=$((pass + 1)) ;;
		"not ok - "*) fail=$((fail + 1)) ;;
		esac
		echo "$line"
	done < "$T/out.$i"
done

# --- dumpconv itself ----------------------------------------------------------
N=$T/n E=$T/e
"$BIN/dumpgen" --arch amd64 --version 3 --mem 64M --seed 11 -q -o "$N"
check "dumpconv writes a file" "$BIN/dumpconv" -q "$N" -o "$E"
expect_exit "dumpconv --help" 0 "usage: dumpconv" "$BIN/dumpconv" --help
expect_exit "dumpconv --version" 0 "^dumpconv \(dumpkit\) [0-9]" "$BIN/dumpconv" --version
expect_exit "dumpconv rejects an unknown option" 3 "usage:" "$BIN/dumpconv" --bogus
expect_exit "dumpconv needs -o" 3 "expected one INPUT and -o OUTPUT" "$BIN/dumpconv" "$N"
expect_exit "dumpconv --to other" 3 "expected elf, native or kdump" "$BIN/dumpconv" --to coff "$N" -o "$T/x"

# Standard output: a pipe, a regular file, an O_APPEND file.
"$BIN/dumpconv" -q "$N" -o - | cat > "$T/piped"
check "-o - into a pipe equals the file" cmp "$E" "$T/piped"
"$BIN/dumpconv" -q "$N" -o - > "$T/redir"
check "-o - into a regular file equals the file" cmp "$E" "$T/redir"
: > "$T/app"
"$BIN/dumpconv" -q "$N" -o - >> "$T/app"
check "-o - appended (O_APPEND) equals the file" cmp "$E" "$T/app"
"$BIN/dumpconv" -q --to native "$E" -o - | cat > "$T/npiped"
check "--to native -o - into a pipe equals the source" cmp "$N" "$T/npiped"
rm -f "$T/piped" "$T/redir" "$T/app" "$T/npiped"

# Holes stay holes: the portable file allocates what the source does.
na=$(( $(stat -c %b "$N") * $(stat -c %B "$N") ))
ea=$(( $(stat -c %b "$E") * $(stat -c %B "$E") ))
[ "$ea" -le $(( na + (1 << 20) )) ] && ok "holes kept: $ea bytes allocated, the source $na" \
    || no "holes kept" "portable $ea bytes allocated, source $na"

# An existing output: refused, untouched; --force replaces it.
echo "precious" > "$T/exists"
expect_exit "an existing output is refused" 2 "exists.*--force" \
    "$BIN/dumpconv" -q "$N" -o "$T/exists"
[ "$(cat "$T/exists")" = precious ] && ok "the refused output is untouched" \
    || no "the refused output is untouched"
check "--force replaces it" "$BIN/dumpconv" -q --force "$N" -o "$T/exists"
check "the replacement is the conversion" cmp "$E" "$T/exists"
[ -z "$(ls -A "$T" | grep dumpkit-)" ] && ok "no temporary file left" \
    || no "no temporary file left" "$(ls -A "$T")"

# A write that fails half way leaves nothing at the target.
mkdir "$T/w"
( trap '' XFSZ; ulimit -f 4096; "$BIN/dumpconv" -q "$N" -o "$T/w/out" ) >"$T/w.log" 2>&1
rc=$?
left=$(ls -A "$T/w")
[ "$rc" -eq 2 ] && [ -z "$left" ] && ok "a failed write leaves nothing (exit $rc: $(head -c 120 "$T/w.log"))" \
    || no "a failed write leaves nothing" "exit $rc, left: $left; $(cat "$T/w.log")"
( trap '' XFSZ; ulimit -f 4096; "$BIN/dumpconv" -q --to native "$E" -o "$T/w/out" ) >"$T/w.log" 2>&1
rc=$?
left=$(ls -A "$T/w")
[ "$rc" -eq 2 ] && [ -z "$left" ] && ok "a failed native rebuild leaves nothing (exit $rc)" \
    || no "a failed native rebuild leaves nothing" "exit $rc, left: $left; $(cat "$T/w.log")"
# The same limit, its signal not ignored: dumpconv dies of SIGXFSZ, and
# takes its temporary file with it.
bash -c 'ulimit -f 4096; "$0" -q "$1" -o "$2"; exit $?' "$BIN/dumpconv" "$N" \
    "$T/w/out" >"$T/w.log" 2>&1
rc=$?
left=$(ls -A "$T/w")
[ "$rc" -gt 128 ] && [ -z "$left" ] && ok "killed by SIGXFSZ: nothing left (exit $rc)" \
    || no "killed by SIGXFSZ: nothing left" "exit $rc, left: $left; $(cat "$T/w.log")"
# An input that cannot be read: an error, no output.
head -c 3000 "$N" > "$T/cut"
expect_exit "a damaged input: exit 2, names the file" 2 "$T/cut" \
    "$BIN/dumpconv" -q "$T/cut" -o "$T/w/out"
[ -z "$(ls -A "$T/w")" ] && ok "nothing written for a damaged input" \
    || no "nothing written for a damaged input" "$(ls -A "$T/w")"

# The input is opened read-only: a 0444 file, converted by a user who may
# not write it.
chmod 0444 "$N"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	chmod 0777 "$T/w"
	chmod o+x "$T"
	cp "$BIN/dumpconv" "$T/w/dumpconv"
	check "a read-only input converts (as an unprivileged user)" \
	    setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$T/w/dumpconv" -q "$N" -o "$T/w/ro"
	check "... to the same bytes" cmp "$E" "$T/w/ro"
	rm -f "$T/w/ro" "$T/w/dumpconv"
else
	check "a read-only input converts" "$BIN/dumpconv" -q "$N" -o "$T/w/ro"
	rm -f "$T/w/ro"
fi
chmod 0644 "$N"

# --info says what the conversion writes.
info=$("$BIN/dumpconv" --info "$N")
segs=$(readelf -lW "$E" | grep -c '^  LOAD')
planned=$(awk '/^segments:/ { print $4 + $7 }' <<<"$info")
size=$(awk '/^file size:/ { print $3 }' <<<"$info")
[ "$planned" = "$segs" ] && [ "$size" = "$(stat -c %s "$E")" ] \
    && ok "--info: $planned PT_LOADs, $size bytes, as written" \
    || no "--info matches the file" "$info; file: $segs PT_LOAD, $(stat -c %s "$E") bytes"
expect_exit "--info --to native on a portable file" 0 "output: *native minidump version 3" \
    "$BIN/dumpconv" --info --to native "$E"

# --no-virtual: physical segments only, info flag bit 1 clear.
"$BIN/dumpconv" -q --no-virtual "$N" -o "$T/nv"
nphys=$("$BIN/dumpinfo" -v "$N" | grep -c '^  pa ')
[ "$(readelf -lW "$T/nv" | grep -c '^  LOAD')" = "$nphys" ] \
    && ok "--no-virtual: $nphys physical PT_LOADs only" || no "--no-virtual"
"$BIN/dumpconv" -q --to native "$T/nv" -o "$T/nv.n"
check "--no-virtual round trip" cmp "$N" "$T/nv.n"
rm -f "$T/nv" "$T/nv.n" "$E" "$N"

# More than 65,535 segments: PN_XNUM, read by every tool.
X=$T/x
"$BIN/dumpgen" --arch amd64 --version 3 --mem 1G --alternate --sparse --compact \
    --seed 2 -q -o "$X.n"
check "PN_XNUM: dumpconv" "$BIN/dumpconv" -q "$X.n" -o "$X"
hdr=$(readelf -h "$X" 2>&1)
grep -Eq "Number of program headers: *65535 \(([0-9]+)\)" <<<"$hdr" \
    && ok "PN_XNUM: readelf reads e_phnum 65535 and the real count ($(sed -n 's/.*Number of program headers: *65535 (\([0-9]*\)).*/\1/p' <<<"$hdr"))" \
    || no "PN_XNUM: readelf -h" "$hdr"
out=$(readelf_check "$X" "$T/readelf")
[ -z "$out" ] && ok "PN_XNUM: readelf -a: only the documented sh_info warning" \
    || no "PN_XNUM: readelf -a" "$out"
out=$(eu-readelf -h -l -n "$X" 2>&1 | grep -iE "warning|error|invalid" | head -n 5)
[ -z "$out" ] && ok "PN_XNUM: eu-readelf: no warning" || no "PN_XNUM: eu-readelf" "$out"
out=$(elflint_check "$X" 0)
[ -z "$out" ] && ok "PN_XNUM: eu-elflint: only the documented messages" \
    || no "PN_XNUM: eu-elflint" "$out"
check "PN_XNUM: libkdumpfile" "$KDREAD" -n 1000 "$X" "$X.n"
va=$(readelf -lW "$X" | awk '$1 == "LOAD" { print $3 }' | sed -n 1000p)
want=$("$BIN/dumpinfo" --read-va "$va:16" --raw "$X.n" | od -An -v -tx8 |
    awk '{ printf "0x%s 0x%s", $1, $2 }')
got=$(timeout 300 gdb-multiarch -nx -batch -ex "core-file $X" -ex "x/2xg $va" 2>&1 |
    awk '/^0x[0-9a-f]+:/ { print $2, $3 }')
[ "$got" = "$want" ] && ok "PN_XNUM: gdb reads $va" || no "PN_XNUM: gdb x/2xg $va" "gdb '$got', dumpinfo '$want'"
"$BIN/dumpconv" -q --to native "$X" -o "$X.n2"
check "PN_XNUM: round trip" cmp "$X.n" "$X.n2"
rm -f "$X" "$X.n" "$X.n2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
