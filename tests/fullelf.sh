#!/usr/bin/env bash
# Full ELF cores (formats/fmt_elf.c, fixtures/gen_elf.c) read by other
# tools.  For every "elf" row of `dumpgen --list`:
#
#   - readelf -lW and eu-readelf -l list exactly the program headers the
#     layout of FORMATS.md 4.1 and fixtures/gen_elf.c's comment give
#     (offsets from round_page(e_phoff + e_phnum * e_phentsize), back to
#     back; PT_DUMP_DELTA on arm; p_paddr all-ones in virtual cores);
#     readelf -h says ET_CORE, OS/ABI 255, no section headers;
#   - readelf -s of the --kernel-out image lists the symbols with the
#     values the layout gives (kernbase, KPML4phys, ...);
#   - dumpinfo --read-pa and --read-va (through the page tables, with
#     --kernel) read the bytes tests/pattern.py computes from the text of
#     docs/fixture-pattern.md, and a VA read without --kernel is refused;
#   - gdb-multiarch x/8xg at a physical (p_vaddr) or virtual address
#     reads the pattern's words;
#   - dumpconv to the portable format (source_format 3) and back gives
#     the core byte for byte (cmp); readelf lists a PT_LOAD per chunk in
#     the portable file, and dumpinfo reads the pattern from it.
#
# Needs binutils, elfutils, gdb-multiarch, python3.  Ends with
# "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
PAT=$(cd "$(dirname "$0")" && pwd)/pattern.py
DZ=$(cd "$(dirname "$0")" && pwd)/dropzero.py
T=$(mktemp -d "${TMPDIR:-/tmp}/dkfullelf.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'rm -rf "$T"; exit 130' INT TERM
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"
SEED=5

for t in readelf eu-readelf gdb-multiarch python3; do
	command -v "$t" >/dev/null 2>&1 && ok "$t is installed" ||
	    no "$t is installed"
done

# The row's layout, as gen_elf.c's comment states it (--mem 32M: H 16M):
# class, phys base, chunks, ktext VA, ktext PA, root variable, gdb arch.
layout() {
	case $1 in
	amd64) echo "64 le 0x1000-0x9f000,0x100000-0x1000000,0x2000000-0x2f00000 0xffffffff80200000 0x200000 KPML4phys i386:x86-64" ;;
	i386) echo "32 le 0x1000-0x9f000,0x100000-0x1000000,0x2000000-0x2f00000 0xc0400000 0x400000 IdlePTD i386" ;;
	i386/pae) echo "32 le 0x1000-0x9f000,0x100000-0x1000000,0x2000000-0x2f00000 0xc0400000 0x400000 IdlePDPT i386" ;;
	arm|arm/nodelta) echo "32 le 0x40000000-0x41000000,0x42000000-0x43000000 0xc0000000 0x40000000 kernel_l1pa arm" ;;
	armeb) echo "32 be 0x40000000-0x41000000,0x42000000-0x43000000 0xc0000000 0x40000000 kernel_l1pa arm" ;;
	powerpc) echo "32 be virtual 0x100000 0x100000 - powerpc:common" ;;
	powerpc64) echo "64 be virtual 0xc000000000100000 0x100000 - powerpc:common64" ;;
	powerpc64le) echo "64 le virtual 0xc000000000100000 0x100000 - powerpc:common64" ;;
	*) echo none ;;
	esac
}

# check_phdrs FILE TOOL ROW CLASS CHUNKS KTEXT_VA: the LOAD (and other)
# lines of TOOL's listing against the layout.
check_phdrs() {
	local f=$1 tool=$2 row=$3 cls=$4 chunks=$5 kva=$6 out
	out=$(if [ "$tool" = readelf ]; then readelf -lW "$f"; else
	    eu-readelf -l "$f"; fi 2>&1) || { no "$row: $tool -l exits 0" "$out"; return; }
	python3 - "$cls" "$chunks" "$kva" "$row" <<EOF && ok "$row: $tool -l lists the program headers of the layout" || no "$row: $tool -l lists the program headers of the layout" "$out"
import sys
cls, chunks, kva, row = int(sys.argv[1]), sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
lines = """$out""".splitlines()
loads = [[int(x, 16) for x in l.split()[1:6]] + [l.split()[6], int(l.split()[7], 16)]
         for l in lines if l.split()[:1] == ["LOAD"]]
other = [l.split() for l in lines if l.split()[:1] and l.split()[0].startswith(("LOOS", "<unknown", "GNU_", "NOTE", "NULL", "0x6fb5d000"))]
eh, ph = (64, 56) if cls == 64 else (52, 32)
def fail(msg):
    print(row, msg); sys.exit(1)
if chunks != "virtual":
    want = [tuple(int(x, 0) for x in c.split("-")) for c in chunks.split(",")]
    delta = row.startswith(("arm", "armeb")) and not row.endswith("nodelta")
    nph = len(want) + (1 if delta else 0)
    off = (eh + nph * ph + 4095) // 4096 * 4096
    if len(loads) != len(want): fail("%d LOADs, want %d" % (len(loads), len(want)))
    for (o, va, pa, fs, ms, fl, al), (s, e) in zip(loads, want):
        if (o, va, pa, fs, ms, fl, al) != (off, s, s, e - s, e - s, "R", 4096):
            fail("LOAD %r, want offset %#x [%#x, %#x)" % ((o, va, pa, fs, ms, fl, al), off, s, e))
        off += e - s
    if delta:
        d = [o for o in other if len(o) >= 4]
        if len(d) != 1 or int(d[0][2], 16) != kva or int(d[0][3], 16) != 0x40000000:
            fail("no PT_DUMP_DELTA with vaddr %#x paddr 0x40000000: %r" % (kva, other))
    elif other:
        fail("unexpected program headers %r" % other)
else:
    ones = (1 << cls) - 1
    off = (eh + len(loads) * ph + 4095) // 4096 * 4096
    if len(loads) != 25: fail("%d LOADs, want 25" % len(loads))
    if loads[0][1] != kva or loads[0][3] != 4 << 20: fail("first LOAD %r" % loads[0])
    for o, va, pa, fs, ms, fl, al in loads:
        if (o, pa, ms, fl, al) != (off, ones, fs, "R", 4096) or fs % 4096:
            fail("LOAD %r, want offset %#x, paddr all-ones" % ((o, va, pa, fs, ms, fl, al), off))
        off += fs
EOF
}

# pattern_addr BASE: the first address BASE + k*4K + 0x40 whose page is
# not zero in the pattern.
pattern_addr() {
	python3 - "$1" <<EOF
import sys; sys.path.insert(0, "$(dirname "$PAT")"); import pattern
a = int(sys.argv[1], 0)
while pattern.mix($SEED ^ 0x5A45524F50414745 ^ (a >> 12)) % 4 != 0: a += 4096
print("%#x" % (a + 0x40))
EOF
}
# words ADDR ENDIAN: the pattern's 8 words at ADDR as gdb prints them.
words() {
	python3 "$PAT" "$SEED" "$1" 64 | python3 -c "
import sys; b = bytes.fromhex(sys.stdin.read())
print(' '.join('0x%016x' % int.from_bytes(b[i:i + 8], '$2' == 'le' and 'little' or 'big') for i in range(0, 64, 8)))"
}
hexof() { od -An -v -tx1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }

rows=$("$BIN/dumpgen" --list | awk '$1 == "elf" { print $2 "/" $4 }')
[ "$(wc -l <<<"$rows")" -ge 9 ] && ok "dumpgen --list has $(wc -l <<<"$rows") elf rows" ||
    no "dumpgen --list has the elf rows" "$rows"
for r in $rows; do
	arch=${r%/*} var=${r#*/} row=$arch; [ "$var" != - ] && row=$arch/$var
	read -r cls endian chunks kva kpa var_sym gdbarch <<<"$(layout "$row")"
	[ "$cls" = none ] && { no "$row: a layout in this script"; continue; }
	f=$T/$arch-$var.core k=$T/$arch-$var.kern
	if ! out=$("$BIN/dumpgen" --format elf --arch "$arch" --variant "$var" \
	    --mem 32M --seed $SEED -q -o "$f" --kernel-out "$k" 2>&1); then
		no "$row: dumpgen --format elf" "$out"; continue
	fi
	ok "$row: dumpgen --format elf writes the core and the kernel"
	h=$(readelf -h "$f" 2>&1)
	if grep -q "Type:.*CORE" <<<"$h" && grep -Eq "OS/ABI:.*(ff|Standalone)" <<<"$h" &&
	    grep -Eq "Number of section headers: +0" <<<"$h" &&
	    grep -q "ELF$cls" <<<"$h"; then
		ok "$row: readelf -h: ELF$cls ET_CORE, OS/ABI 255, no sections"
	else
		no "$row: readelf -h: ELF$cls ET_CORE, OS/ABI 255, no sections" "$h"
	fi
	check_phdrs "$f" readelf "$row" "$cls" "$chunks" "$kva"
	check_phdrs "$f" eu-readelf "$row" "$cls" "$chunks" "$kva"
	# The kernel's symbols: the root variable in the image's last page.
	s=$(readelf -sW "$k" 2>&1)
	if [ "$var_sym" != - ]; then
		want=$(printf '%x' $(( kva + (4 << 20) - 4096 + 0x100 )))
		if awk -v n="$var_sym" -v v="$want" '$8 == n && $2 ~ v"$" { f = 1 } END { exit !f }' <<<"$s"; then
			ok "$row: readelf -s: $var_sym = 0x$want"
		else
			no "$row: readelf -s: $var_sym = 0x$want" "$s"
		fi
	fi
	# Physical and virtual reads against the pattern, and gdb.
	if [ "$chunks" != virtual ]; then
		last=${chunks##*,}
		pa=$(pattern_addr "${last%-*}")
		got=$("$BIN/dumpinfo" --read-pa "$pa:64" --raw "$f" 2>&1 | hexof)
		[ "$got" = "$(python3 "$PAT" $SEED "$pa" 64)" ] &&
		    ok "$row: dumpinfo --read-pa $pa reads the pattern" ||
		    no "$row: dumpinfo --read-pa $pa reads the pattern" "$got"
		gaddr=$pa
		out=$("$BIN/dumpinfo" --read-va "$kva:8" "$f" 2>&1)
		[ $? -ne 0 ] && grep -q -- "--kernel" <<<"$out" &&
		    ok "$row: a VA read without --kernel asks for it" ||
		    no "$row: a VA read without --kernel asks for it" "$out"
		kargs=(--kernel "$k")
	else
		kargs=()
	fi
	pa=$(pattern_addr "$kpa")
	va=$(printf '%#x' $(( kva + pa - kpa )))
	got=$("$BIN/dumpinfo" "${kargs[@]}" --read-va "$va:64" --raw "$f" 2>&1 | hexof)
	[ "$got" = "$(python3 "$PAT" $SEED "$pa" 64)" ] &&
	    ok "$row: dumpinfo --read-va $va (pa $pa) reads the pattern" ||
	    no "$row: dumpinfo --read-va $va (pa $pa) reads the pattern" "$got"
	# The portable format (source_format 3) and back, byte for byte.
	if out=$("$BIN/dumpconv" "$f" -o "$f.pelf" 2>&1) &&
	    out=$("$BIN/dumpconv" --to native "$f.pelf" -o "$f.back" 2>&1) &&
	    cmp "$f" "$f.back" >/dev/null 2>&1; then
		ok "$row: dumpconv to the portable format and back: identical"
	else
		no "$row: dumpconv to the portable format and back: identical" "$out"
	fi
	# dumpcheck reads every page of both: the same memory checksum, one
	# computed from segments in the core's order and one from the
	# portable file's; --pattern says it cannot tell page tables apart
	# rather than pass silently or call them mismatches.
	c1=$("$BIN/dumpcheck" -q --checksum "$f" 2>&1)
	c2=$("$BIN/dumpcheck" -q --checksum "$f.pelf" 2>&1)
	[ -n "${c1##*checksum }" ] && [ "${c1##*checksum }" = "${c2##*checksum }" ] &&
	    [ "${c1#*checksum }" != "$c1" ] &&
	    ok "$row: dumpcheck --checksum: the core and its portable file agree" ||
	    no "$row: dumpcheck --checksum: the core and its portable file agree" "$c1
$c2"
	# --drop-zero: the core's zero pages left out (the page-keep note,
	# the size and the PT_LOADs checked by hand against the core by
	# tests/dropzero.py), the same checksum, a left-out page read as the
	# core's zeros, and the core back byte for byte.
	if out=$("$BIN/dumpconv" --drop-zero "$f" -o "$f.z" 2>&1) &&
	    out=$(python3 "$DZ" "$f" "$f.z" 2>&1); then
		ok "$row: dumpconv --drop-zero, checked against the core: ${out#dropzero: }"
	else
		no "$row: dumpconv --drop-zero, checked against the core" "$out"
	fi
	c3=$("$BIN/dumpcheck" -q --checksum "$f.z" 2>&1)
	[ "${c1##*checksum }" = "${c3##*checksum }" ] &&
	    ok "$row: dumpcheck --checksum: the core and its --drop-zero file agree" ||
	    no "$row: dumpcheck --checksum: the core and its --drop-zero file agree" "$c1
$c3"
	# p_vaddr: the PA of a physical segment, the VA of a virtual one.
	zp= zf=
	read -r zp zf _ <<<"$(readelf -lW "$f.z" 2>/dev/null |
	    awk '$1 == "LOAD" && $5 != $6 { print $3, $5; exit }')"
	if [ -n "$zp" ]; then
		zpa=$(printf '%#x' $(( zp + zf )))
		how=--read-pa; [ "$chunks" = virtual ] && how=--read-va
		a=$("$BIN/dumpinfo" $how "$zpa:64" --raw "$f" 2>&1 | hexof)
		z=$("$BIN/dumpinfo" $how "$zpa:64" --raw "$f.z" 2>&1 | hexof)
		[ "$z" = "$a" ] && [ -z "$(tr -d '0 ' <<<"$z")" ] &&
		    ok "$row: a left-out page, $how $zpa, reads as the core's zeros" ||
		    no "$row: a left-out page, $how $zpa, reads as the core's zeros" "$a / $z"
	else
		no "$row: the --drop-zero file has a PT_LOAD with zeros past p_filesz"
	fi
	if out=$("$BIN/dumpconv" --to native "$f.z" -o "$f.zback" 2>&1) &&
	    cmp "$f" "$f.zback" >/dev/null 2>&1; then
		ok "$row: --drop-zero file back to native: identical to the core"
	else
		no "$row: --drop-zero file back to native: identical to the core" "$out"
	fi
	# A page-keep bitmap claiming one more stored page than the file
	# holds: the reader refuses the file, and dumpcheck says why.
	if [ "$row" = amd64 ] && kb=$(python3 "$DZ" --keep-byte "$f.z"); then
		cp "$f.z" "$f.zc"
		printf '\377' | dd of="$f.zc" bs=1 seek="$kb" conv=notrunc 2>/dev/null
		out=$("$BIN/dumpcheck" "$f.zc" 2>&1); st=$?
		[ $st -eq 1 ] && grep -q "elf.note: a portable full ELF core that does not open:.*page-keep bitmap stores" <<<"$out" &&
		    ok "amd64: a page-keep bitmap claiming pages the file lacks: dumpcheck exit 1, elf.note" ||
		    no "amd64: a page-keep bitmap claiming pages the file lacks: dumpcheck exit 1, elf.note" "$st: $out"
		rm -f "$f.zc"
	fi
	rm -f "$f.zback"
	out=$("$BIN/dumpcheck" --pattern $SEED "$f" 2>&1)
	grep -q "check.incomplete: --pattern is not applied" <<<"$out" &&
	    ok "$row: dumpcheck --pattern on a full core says what it cannot check" ||
	    no "$row: dumpcheck --pattern on a full core says what it cannot check" "$out"
	if [ "$chunks" != virtual ]; then
		want=$(tr ',' '\n' <<<"$chunks" | while IFS=- read -r s e; do
		    printf '%#x %#x\n' "$s" $(( e - s )); done)
		got=$(readelf -lW "$f.pelf" 2>&1 | awk '$1 == "LOAD" { print $4, $5 }' |
		    while read -r p z; do printf '%#x %#x\n' "$p" "$z"; done)
		[ "$got" = "$want" ] && eu-readelf -l "$f.pelf" >/dev/null 2>&1 &&
		    ok "$row: readelf -l of the portable file: a PT_LOAD per chunk" ||
		    no "$row: readelf -l of the portable file: a PT_LOAD per chunk" "$got"
		got=$("$BIN/dumpinfo" --read-pa "$gaddr:64" --raw "$f.pelf" 2>&1 | hexof)
		[ "$got" = "$(python3 "$PAT" $SEED "$gaddr" 64)" ] &&
		    ok "$row: the portable file's --read-pa $gaddr reads the pattern" ||
		    no "$row: the portable file's --read-pa $gaddr reads the pattern" "$got"
	else
		got=$("$BIN/dumpinfo" --read-va "$va:64" --raw "$f.pelf" 2>&1 | hexof)
		[ "$got" = "$(python3 "$PAT" $SEED "$pa" 64)" ] &&
		    ok "$row: the portable file's --read-va $va reads the pattern" ||
		    no "$row: the portable file's --read-va $va reads the pattern" "$got"
	fi
	rm -f "$f.back"
	[ "$chunks" = virtual ] && gaddr=$va && gpa=$pa || gpa=$gaddr
	out=$(timeout 120 gdb-multiarch -nx -batch -ex "set architecture $gdbarch" \
	    -ex "core-file $f" -ex "x/8xg $gaddr" 2>&1)
	got=$(awk '/^0x[0-9a-f]+[^:]*:/ { sub(/^[^:]*:/, ""); for (i = 1; i <= NF; i++) printf "%s ", $i }' \
	    <<<"$out" | sed 's/ $//')
	[ "$got" = "$(words "$gpa" "$endian")" ] &&
	    ok "$row: gdb-multiarch x/8xg $gaddr reads the pattern" ||
	    no "$row: gdb-multiarch x/8xg $gaddr reads the pattern" "$out"
	# gdb reads the portable files by the same addresses (p_vaddr is
	# the PA, as in the core; a virtual core's segments are virtual
	# PT_LOADs), and a left-out page as zeros (p_memsz past p_filesz).
	# With --kernel, the kernel map found through the dumped page tables
	# becomes virtual PT_LOADs too, and gdb reads kernel addresses.
	kv=
	if [ "$chunks" != virtual ]; then
		if out=$("$BIN/dumpconv" -q --kernel "$k" "$f" -o "$f.kelf" 2>&1) &&
		    n=$(readelf -lW "$f.kelf" | awk '$1 == "LOAD" && $3 != $4' | wc -l) &&
		    [ "$n" -gt 0 ]; then
			ok "$row: dumpconv --kernel: $n virtual PT_LOADs (the kernel map)"
			kv="$f.kelf:$va:$(words "$pa" "$endian")"
		else
			no "$row: dumpconv --kernel: virtual PT_LOADs (the kernel map)" "$out"
		fi
	fi
	zero="0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000 0x0000000000000000"
	for g in "$f.pelf:$gaddr:$(words "$gpa" "$endian")" \
	    "$f.z:$gaddr:$(words "$gpa" "$endian")" ${zp:+"$f.z:$zpa:$zero"} \
	    ${kv:+"$kv"}; do
		IFS=: read -r gf ga gw <<<"$g"
		out=$(timeout 120 gdb-multiarch -nx -batch -ex "set architecture $gdbarch" \
		    -ex "core-file $gf" -ex "x/8xg $ga" 2>&1)
		got=$(awk '/^0x[0-9a-f]+[^:]*:/ { sub(/^[^:]*:/, ""); for (i = 1; i <= NF; i++) printf "%s ", $i }' \
		    <<<"$out" | sed 's/ $//')
		[ "$got" = "$gw" ] &&
		    ok "$row: gdb-multiarch x/8xg $ga of ${gf##*.} reads what the core has" ||
		    no "$row: gdb-multiarch x/8xg $ga of ${gf##*.} reads what the core has" "$out"
	done
	rm -f "$f.pelf" "$f.z" "$f.kelf"
done

# A powerpc virtual core preceded by one 512-byte kerneldumpheader (as
# libkvm's powerpc reader allows, FORMATS.md 4.2): the header is peeled
# off and the core read as ever.
f=$T/ppc-leading
if out=$("$BIN/dumpgen" --format elf --arch powerpc --mem 32M --seed $SEED \
    --container leading -q -o "$f" 2>&1) &&
    [ "$(head -c 19 "$f")" = "FreeBSD Kernel Dump" ] &&
    [ "$(tail -c +513 "$f" | head -c 4 | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
	ok "powerpc: dumpgen --container leading: a header, then the core at 512"
	pa=$(pattern_addr 0x100000)
	got=$("$BIN/dumpinfo" --read-va "$pa:64" --raw "$f" 2>&1 | hexof)
	[ "$got" = "$(python3 "$PAT" $SEED "$pa" 64)" ] &&
	    ok "powerpc after a kerneldumpheader: dumpinfo --read-va $pa reads the pattern" ||
	    no "powerpc after a kerneldumpheader: dumpinfo --read-va $pa reads the pattern" "$got"
else
	no "powerpc: dumpgen --container leading" "$out"
fi
# --drop-zero from a portable file that kept its zeros gives what it
# gives from the core; on a minidump it is refused, nothing written.
f=$T/amd64-drop.core
if "$BIN/dumpgen" --format elf --arch amd64 --mem 32M --seed $SEED -q \
    -o "$f" 2>/dev/null && "$BIN/dumpconv" -q "$f" -o "$f.p" &&
    "$BIN/dumpconv" -q --drop-zero "$f.p" -o "$f.pz" &&
    "$BIN/dumpconv" -q --drop-zero "$f" -o "$f.z" && cmp -s "$f.z" "$f.pz" &&
    out=$(python3 "$DZ" "$f" "$f.pz" 2>&1); then
	ok "amd64: --drop-zero of the portable file equals --drop-zero of the core"
else
	no "amd64: --drop-zero of the portable file equals --drop-zero of the core" "${out:-}"
fi
rm -f "$f" "$f.p" "$f.pz" "$f.z"
f=$T/amd64.md
"$BIN/dumpgen" --arch amd64 --mem 32M --seed $SEED -q -o "$f" 2>/dev/null
out=$("$BIN/dumpconv" --drop-zero "$f" -o "$f.elf" 2>&1); st=$?
[ $st -eq 3 ] && [ ! -e "$f.elf" ] && grep -q "drop-zero.*full ELF core" <<<"$out" &&
    ok "dumpconv --drop-zero on a minidump: a usage error (exit 3), nothing written" ||
    no "dumpconv --drop-zero on a minidump: a usage error (exit 3), nothing written" "$st: $out"

# e_machine EM_SPARCV9 (43) on a 64-bit big-endian core: FreeBSD/sparc64
# never wrote ELF cores (FORMATS.md 5), so the reader refuses it rather
# than reading 8 KiB-page memory as 4 KiB pages (found by fuzz_sparc64).
f=$T/sparc64.core
if "$BIN/dumpgen" --format elf --arch powerpc64 --mem 32M --seed $SEED -q \
    -o "$f" 2>/dev/null && printf '\000\053' |
    dd of="$f" bs=1 seek=18 conv=notrunc 2>/dev/null; then
	out=$("$BIN/dumpinfo" "$f" 2>&1); st=$?
	case $st:$out in
	[1-9]*:*"offset 18: e_machine 43 is sparc64"*"never full ELF cores"*)
		ok "a sparc64 ELF core is refused at offset 18 (exit $st)" ;;
	*)	no "a sparc64 ELF core is refused at offset 18" "$st: $out" ;;
	esac
else
	no "a powerpc64 core to patch into sparc64" ""
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
