#!/usr/bin/env bash
# Linux ELF vmcores: dumpgen --format vmcore's fixtures and dumpconv
# --to elf's output (formats/vmcore_write.c), read by tools nobody here
# wrote.
#
#   - Generated vmcores, every row in the kernel's and QEMU's styles,
#     amd64 in every producer's: readelf -lW lists the PT_LOADs the
#     layout of fixtures/gen_vmcore.c gives, readelf -n two NT_PRSTATUS
#     and VMCOREINFO where the producer has it; libkdumpfile reads 300
#     random physical addresses equal to the fixture pattern and 1,000
#     equal to dumpkit's reads; gdb finds
#     the program counter and stack pointer the notes were given and
#     reads the pattern at a kernel-text address.  The QEMU files behave
#     in readelf, eu-readelf, libkdumpfile and makedumpfile as
#     ../shared/real-dumps/README.md says real QEMU 7.2 files do.
#   - dumpconv --to elf of the real kdump files in tests/data/kdump (and
#     of the whole makedumpfile files of a real crash in
#     $REALDUMPS/mdf, /tmp/realdumps/dumps by default, when present):
#     readelf sees one PT_NOTE first and PT_LOADs with p_filesz ==
#     p_memsz, program headers at 64 and no section headers;
#     libkdumpfile reads 1,000 random physical addresses equal to
#     dumpkit's reads of the source; on the real crash makedumpfile
#     --dump-dmesg of the output prints the log it prints from the
#     original, makedumpfile -c -d 31 of the output gives the same pages
#     (its --to elf is the output, byte for byte), gdb-multiarch reads
#     init_uts_ns at its kernel-text and direct-map addresses.
#   - --vmcoreinfo adds the note (libkdumpfile then knows the page
#     size); --to elf of a FreeBSD dump is still the portable format;
#     misuse is refused.
#
# Needs binutils, elfutils, gdb-multiarch, libkdumpfile, makedumpfile,
# python3, xz.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
KR=${KDUMPFILE_READ:-$B/tests/kdumpfile_read}
HERE=$(cd "$(dirname "$0")" && pwd)
PAT=$HERE/pattern.py
REALDUMPS=${REALDUMPS:-/tmp/realdumps/dumps}
T=$(mktemp -d "${TMPDIR:-/tmp}/dkvmw.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'rm -rf "$T"; exit 130' INT TERM
. "$HERE/tap.sh"
export DUMPKIT_NO_FSYNC=${DUMPKIT_NO_FSYNC:-1}
SEED=7

for t in readelf eu-readelf gdb-multiarch makedumpfile drgn python3 xz; do
	command -v "$t" >/dev/null 2>&1 && ok "$t is installed" ||
	    no "$t is installed"
done
[ -x "$KR" ] && ok "kdumpfile_read is built" ||
    no "kdumpfile_read is built ($KR: make $KR)"

# Count readelf -lW's lines of type $2 in file $1.
nseg() { readelf -lW "$1" 2>/dev/null | awk -v t="$2" '$1 == t' | wc -l; }

# ---------------------------------------------------------------------------
# Generated vmcores.

# The row's facts (gen_vmcore.c's table): byte order, kernel-text VA
# (- none), PA of _stext, gdb architecture.
facts() {
	case $1 in
	amd64) echo "le 0xffffffff81000000 0x1000000 i386:x86-64" ;;
	i386) echo "le - 0x1000000 i386" ;;
	aarch64) echo "le 0xffff800008000000 0x40200000 aarch64" ;;
	powerpc64) echo "be - 0 powerpc:common64" ;;
	powerpc64le) echo "le - 0 powerpc:common64" ;;
	s390x) echo "be - 0x100000 s390:64-bit" ;;
	riscv64) echo "le 0xffffffff80000000 0x80200000 riscv:rv64" ;;
	arm) echo "le - 0x40008000 arm" ;;
	esac
}

gen() {	# ROW PRODUCER: the file's name, made once
	local f=$T/$1-$2.elf
	[ -e "$f" ] || "$BIN/dumpgen" -q --format vmcore --arch "$1" \
	    --producer "$2" --mem 64M --seed $SEED -o "$f" || return 1
	echo "$f"
}

for row in amd64 i386 aarch64 powerpc64 powerpc64le s390x riscv64 arm; do
	read -r e kva kpa garch <<<"$(facts $row)"
	prods="kernel qemu-7.2"
	[ $row = amd64 ] && prods="kernel kernel-novmcoreinfo makedumpfile qemu-7.2 qemu-7.2-vmcoreinfo qemu-7.2-paging"
	[ $row = aarch64 ] && prods="kernel qemu-7.2 qemu-7.2-vmcoreinfo"
	[ $row = s390x ] && prods="kernel qemu-7.2 qemu-7.2-paging"
	for p in $prods; do
		d="$row $p"
		f=$(gen $row $p) || { no "$d: dumpgen writes it"; continue; }
		qemu=0; case $p in qemu*) qemu=1 ;; esac
		vmci=1; case $p in *novmcoreinfo|qemu-7.2|qemu-7.2-paging) vmci=0 ;; esac
		# PT_LOADs: x86 kernel RAM is two chunks, QEMU x86 adds the
		# BIOS; the kernel text adds one; -paging 65,600 aliases.
		case $row in amd64|i386) ram=2 ;; *) ram=1 ;; esac
		want=$ram
		[ $kva != - ] && [ $qemu = 0 ] && want=$((want + 1))
		if [ $p = qemu-7.2-paging ]; then
			want=$((65600 + 1)); [ $kva != - ] && want=$((want + 1))
			case $row in amd64|i386) want=$((want)) ;; esac
		fi
		got=$(nseg "$f" LOAD)
		[ "$got" = "$want" ] && ok "$d: readelf lists $want PT_LOADs" ||
		    no "$d: readelf lists $want PT_LOADs" "$(readelf -lW "$f" 2>&1 | head -20)"
		n=$(readelf -n "$f" 2>/dev/null | grep -c 'NT_PRSTATUS')
		[ "$n" = 2 ] && ok "$d: readelf -n: two NT_PRSTATUS" ||
		    no "$d: readelf -n: two NT_PRSTATUS" "$(readelf -n "$f" 2>&1 | head)"
		n=$(readelf -n "$f" 2>/dev/null | grep -c '^ *VMCOREINFO')
		[ "$n" = $vmci ] && ok "$d: readelf -n: $vmci VMCOREINFO" ||
		    no "$d: readelf -n: $vmci VMCOREINFO" "$(readelf -n "$f" 2>&1 | head)"
		if [ $qemu = 1 ]; then
			h=$(readelf -h "$f" 2>&1)
			grep -q 'Size of this header: *8 (bytes)' <<<"$h" &&
			    grep -q 'Start of program headers: *192' <<<"$h" &&
			    grep -q 'Start of section headers: *64 ' <<<"$h" &&
			    ok "$d: e_ehsize 8, section headers at 64, program headers at 192" ||
			    no "$d: e_ehsize 8, section headers at 64, program headers at 192" "$h"
			# README 1: eu-readelf -n prints no notes.
			[ -z "$(eu-readelf -n "$f" 2>/dev/null | grep -E 'CORE|QEMU')" ] &&
			    ok "$d: eu-readelf -n lists no notes (no SHT_NOTE), as on real QEMU files" ||
			    no "$d: eu-readelf -n lists no notes" "$(eu-readelf -n "$f" 2>&1 | head)"
			# README 1: makedumpfile looks for program headers at 64.
			# (big-endian: it fails before, reading e_shoff unswapped)
			re="Can't get the number of PT_LOAD"
			[ $e = be ] && re="Can't get phnum|$re"
			expect_exit "$d: makedumpfile cannot get the PT_LOADs, as of a real QEMU file" \
			    1 "$re" makedumpfile --dump-dmesg "$f" "$T/dmesg"
		fi
		if [ $qemu = 1 ] && [ $e = be ]; then
			# README 2: the byte-swapped .shstrtab header.
			expect_exit "$d: readelf trips on the little-endian .shstrtab header" \
			    0 "792633534417207296 bytes extends past end of file" readelf -S "$f"
			expect_exit "$d: libkdumpfile refuses it, as real big-endian QEMU files" \
			    2 "string table" "$KR" -n 10 -p $SEED "$f"
			continue
		fi
		if [ $qemu = 1 ] && [ $vmci = 0 ]; then
			case $row in aarch64|riscv64|powerpc64le)
				# README 11: no page size without VMCOREINFO
				# (kdumpfile_read then gives it 4096).
				expect_exit "$d: libkdumpfile has no page size of its own without VMCOREINFO" \
				    0 "arch.page_size set to 4096" "$KR" -n 10 -p $SEED "$f" ;;
			esac
		fi
		# The pattern where the fixture kernel placed nothing (300
		# addresses miss its ~30 pages of tables and log at this seed);
		# dumpkit's reads, 1,000 addresses, wherever.
		expect_exit "$d: libkdumpfile reads the pattern at 300 physical addresses" \
		    0 "machphys: 300 of 300 equal" "$KR" -n 300 -p $SEED "$f"
		expect_exit "$d: libkdumpfile reads 1000 physical addresses as dumpkit does" \
		    0 "machphys: 1000 of 1000 equal" "$KR" -e -n 1000 "$f" "$f"
		if [ $p = kernel ] || [ $p = qemu-7.2 ] && [ $garch = i386:x86-64 ]; then
			out=$(gdb-multiarch -nx -batch -ex "set architecture $garch" \
			    -ex "core-file $f" -ex 'info registers pc sp' 2>&1)
			pc=$(awk '$1 == "rip" || $1 == "pc" {print $2}' <<<"$out")
			[ "$pc" = 0xffffffff811741ba ] || [ $qemu = 1 ] &&
			    ok "$d: gdb: pc is _stext + 0x1741ba" ||
			    no "$d: gdb: pc is _stext + 0x1741ba" "$out"
		fi
		if [ $kva != - ] && [ $qemu = 0 ] && [ $garch = i386:x86-64 ]; then
			# The first frame from +0x123000 whose pattern is not zero.
			for k in $(seq 0 64); do
				o=$((0x123000 + k * 0x1000))
				want=$(python3 "$PAT" $SEED $((kpa + o)) 16 | tr -d ' \n')
				[ "$want" != 00000000000000000000000000000000 ] && break
			done
			addr=$(printf '0x%x' $((kva + o)))
			out=$(gdb-multiarch -nx -batch -ex "set architecture $garch" \
			    -ex "core-file $f" -ex "x/16xb $addr" 2>&1 | grep '^0x' |
			    sed 's/^[^:]*://' | tr -d ' \t' | sed 's/0x//g' | tr -d '\n')
			[ "$out" = "$want" ] && ok "$d: gdb reads the pattern at kernel-text $addr" ||
			    no "$d: gdb reads the pattern at kernel-text $addr" "gdb: $out, pattern.py: $want"
		fi
	done
done

# ---------------------------------------------------------------------------
# dumpconv --to elf of real kdump files.

# clean_vmcore OUT DESC: the layout vmcore_write.c promises.
clean_vmcore() {
	local f=$1 d=$2 h l
	h=$(readelf -hW "$f" 2>&1) || { no "$d: readelf -h" "$h"; return; }
	l=$(readelf -lW "$f" 2>&1)
	grep -q 'Start of program headers: *64 ' <<<"$h" &&
	    grep -q 'Number of section headers: *0' <<<"$h" &&
	    grep -q 'Type: *CORE' <<<"$h" &&
	    ok "$d: ET_CORE, program headers at 64, no section headers" ||
	    no "$d: ET_CORE, program headers at 64, no section headers" "$h"
	awk '$1 == "NOTE" || $1 == "LOAD" {print $1; exit}' <<<"$l" | grep -q NOTE &&
	    [ "$(nseg "$f" NOTE)" = 1 ] &&
	    ok "$d: one PT_NOTE, the first program header" ||
	    no "$d: one PT_NOTE, the first program header" "$l"
	awk '$1 == "LOAD" && $5 != $6 {bad++} END {exit bad > 0}' <<<"$l" &&
	    ok "$d: every PT_LOAD has p_filesz == p_memsz" ||
	    no "$d: every PT_LOAD has p_filesz == p_memsz" "$l"
	eu-readelf -l "$f" >/dev/null 2>&1 && ok "$d: eu-readelf -l reads it" ||
	    no "$d: eu-readelf -l reads it" "$(eu-readelf -l "$f" 2>&1 | head)"
}

vmci_file() {	# a VMCOREINFO of the keys libkdumpfile needs for a row
	printf 'OSRELEASE=6.1.0-added\nPAGESIZE=%s\n' "$1" >"$T/vmci.txt"
	echo "$T/vmci.txt"
}

for x in "$HERE"/data/kdump/*.xz; do
	n=$(basename "$x" .xz)
	xz -dc "$x" >"$T/$n"
	d="--to elf of real $n"
	extra=()
	case $n in riscv64-*|ppc64-*)
		# No VMCOREINFO: libkdumpfile needs the page size from one.
		ps=4096; [ "${n%%-*}" = ppc64 ] && ps=65536
		extra=(--vmcoreinfo "$(vmci_file $ps)") ;;
	esac
	if ! out=$("$BIN/dumpconv" --to elf -q ${extra[@]+"${extra[@]}"} \
	    "$T/$n" -o "$T/$n.elf" 2>&1); then
		no "$d: dumpconv exits 0" "$out"
		continue
	fi
	ok "$d: dumpconv exits 0"
	case $n in mdf-split*) ;; *) clean_vmcore "$T/$n.elf" "$d" ;; esac
	[ "$(readelf -n "$T/$n.elf" 2>/dev/null | grep -c '^ *VMCOREINFO')" -ge 1 ] ||
	    case $n in s390x-*|x86_64-fw*) true ;; *) false ;; esac &&
	    ok "$d: VMCOREINFO carried or added" ||
	    no "$d: VMCOREINFO carried or added" "$(readelf -n "$T/$n.elf" 2>&1 | head)"
	if [ "$("$BIN/dumpinfo" "$T/$n" | awk '$1 == "pages:" {print $2}')" = 0 ]; then
		# A split part that holds no page (tests/data/kdump/README).
		[ "$(nseg "$T/$n.elf" LOAD)" = 0 ] &&
		    ok "$d: a part with no page gives no PT_LOAD" ||
		    no "$d: a part with no page gives no PT_LOAD"
	else
		expect_exit "$d: libkdumpfile reads 1000 physical addresses equal to dumpkit's source" \
		    0 "machphys: 1000 of 1000 equal" "$KR" -e -x "$T/$n.elf" "$T/$n"
	fi
	if [ ${#extra[@]} -gt 0 ]; then
		# The added VMCOREINFO gives libkdumpfile the page size.
		out=$("$KR" -e -x -n 1 "$T/$n.elf" "$T/$n" 2>&1)
		! grep -q 'arch.page_size set' <<<"$out" &&
		    ok "$d: libkdumpfile takes the page size from the added VMCOREINFO" ||
		    no "$d: libkdumpfile takes the page size from the added VMCOREINFO" "$out"
	fi
	rm -f "$T/$n" "$T/$n.elf"
done

# The kdump files check_kdump's writer makes (its fuzz seeds): every
# header layout, byte order and codec, flattened, split, cut.  A file
# without VMCOREINFO gets one giving the page size (libkdumpfile has
# none for 32-bit powerpc).
if [ -x "$B/tests/check_kdump" ]; then
	mkdir "$T/seeds"
	CK_VERBOSITY=silent CHECK_KDUMP_SEEDS=$T/seeds "$B/tests/check_kdump" \
	    >/dev/null 2>&1
	for src in "$T"/seeds/*; do
		n=$(basename "$src"); d="--to elf of check_kdump's $n"
		extra=()
		"$BIN/dumpinfo" "$src" | grep -q '^  PAGESIZE ' ||
		    extra=(--vmcoreinfo "$(vmci_file 4096)")
		check "$d: dumpconv exits 0" "$BIN/dumpconv" --to elf -q \
		    ${extra[@]+"${extra[@]}"} "$src" -o "$T/s.elf" || continue
		if [ "$("$BIN/dumpinfo" "$src" | awk '$1 == "pages:" {print $4}')" = 0 ]; then
			[ "$(nseg "$T/s.elf" LOAD)" = 0 ] &&
			    ok "$d: no page in the file, no PT_LOAD" ||
			    no "$d: no page in the file, no PT_LOAD"
		else
			expect_exit "$d: libkdumpfile reads 1000 physical addresses equal to dumpkit's source" \
			    0 "machphys: 1000 of 1000 equal" "$KR" -e -x -n 1000 "$T/s.elf" "$src"
		fi
		rm -f "$T/s.elf"
	done
else
	no "check_kdump is built, for its kdump files ($B/tests/check_kdump)"
fi

# drgn (python3-drgn) opens the --to elf of a real makedumpfile file as a
# Linux kernel core and reads physical memory as dumpkit reads it.
xz -dc "$HERE/data/kdump/mdf-zlib-d31.head.xz" >"$T/mdf.head"
"$BIN/dumpconv" --to elf -q "$T/mdf.head" -o "$T/drgn.elf" 2>/dev/null
cat >"$T/drgn.py" <<'PY'
import sys
print("flags", prog.flags)
print("bytes", prog.read(0x1000000, 16, True).hex())
PY
out=$(timeout 120 drgn -q -c "$T/drgn.elf" --no-default-symbols "$T/drgn.py" 2>&1)
want=$("$BIN/dumpinfo" --read-pa 0x1000000:16 --raw "$T/mdf.head" | od -An -tx1 | tr -d ' \n')
grep -q IS_LINUX_KERNEL <<<"$out" && grep -q "bytes $want" <<<"$out" &&
    ok "drgn opens --to elf of a real kdump file as a Linux kernel and reads what dumpkit reads" ||
    no "drgn opens --to elf of a real kdump file and reads what dumpkit reads" "$out (dumpinfo: $want)"

# A QEMU kdump file without VMCOREINFO: --vmcoreinfo adds it.
xz -dc "$HERE/data/kdump/x86_64-fw.kdump-zlib.flat.xz" >"$T/fw.kdump"
check "--vmcoreinfo: dumpconv adds the note" "$BIN/dumpconv" --to elf -q \
    --vmcoreinfo "$(vmci_file 4096)" "$T/fw.kdump" -o "$T/fw.elf"
n=$(readelf -n "$T/fw.elf" 2>/dev/null | grep -c '^ *VMCOREINFO')
[ "$n" = 1 ] && ok "--vmcoreinfo: readelf -n lists one VMCOREINFO note" ||
    no "--vmcoreinfo: readelf -n lists one VMCOREINFO note" "$(readelf -n "$T/fw.elf" 2>&1)"
expect_exit "--vmcoreinfo on a dump that has one is refused" 3 "VMCOREINFO already" \
    "$BIN/dumpconv" --to elf --vmcoreinfo "$T/vmci.txt" "$T/mdf.head" -o "$T/x"
expect_exit "a cut kdump file: the pages it lacks are left out, and said" 0 \
    "13771 pages that .* lacks are left out" \
    "$BIN/dumpconv" --to elf "$T/mdf.head" -o "$T/mdf.elf"
printf 'no keys here\n' >"$T/bad.txt"
expect_exit "--vmcoreinfo of a file without KEY=value lines is refused" 2 \
    "expected KEY=value lines" "$BIN/dumpconv" --to elf --vmcoreinfo "$T/bad.txt" \
    "$T/fw.kdump" -o "$T/x"
expect_exit "--elf32 of a 64-bit dump is refused" 3 "ELFCLASS32 is for 32-bit" \
    "$BIN/dumpconv" --to elf --elf32 "$T/fw.kdump" -o "$T/x"
expect_exit "--vmcoreinfo without --to elf is a usage error" 3 "go with --to elf" \
    "$BIN/dumpconv" --vmcoreinfo "$T/vmci.txt" "$T/fw.kdump" -o "$T/x"
expect_exit "--info --to elf says what would be written: EM_386, the CPU not in long mode" 0 \
    "Linux ELF vmcore, ELFCLASS64 little-endian, e_machine 3" \
    "$BIN/dumpconv" --info --to elf "$T/fw.kdump"
expect_exit "--to elf of QEMU's x86_64 firmware dump: ELFCLASS64 EM_386, as QEMU's ELF" 0 \
    "Machine: *Intel 80386" readelf -h "$T/fw.elf"
[ ! -e "$T/x" ] && ok "nothing is written by a refused conversion" ||
    no "nothing is written by a refused conversion"

# --to elf of a FreeBSD dump is the portable ELF minidump, as before.
"$BIN/dumpgen" -q --arch amd64 --mem 64M -o "$T/fb.md"
"$BIN/dumpconv" -q "$T/fb.md" -o "$T/fb.default"
"$BIN/dumpconv" -q --to elf "$T/fb.md" -o "$T/fb.elf"
"$BIN/dumpconv" -q --to portable "$T/fb.md" -o "$T/fb.portable"
cmp -s "$T/fb.default" "$T/fb.elf" && cmp -s "$T/fb.default" "$T/fb.portable" &&
    ok "FreeBSD: --to elf and --to portable write the default, the portable file" ||
    no "FreeBSD: --to elf and --to portable write the default, the portable file"
expect_exit "--vmcoreinfo of a FreeBSD dump is refused" 3 "--vmcoreinfo is for Linux dumps" \
    "$BIN/dumpconv" --to elf --vmcoreinfo "$T/vmci.txt" "$T/fb.md" -o "$T/x"
expect_exit "--elf32 of a FreeBSD dump without --kernel is refused" 3 "--elf32 for Linux dumps and, with --kernel, FreeBSD dumps of 32-bit kernels" \
    "$BIN/dumpconv" --to elf --elf32 "$T/fb.md" -o "$T/x"

# ---------------------------------------------------------------------------
# The whole makedumpfile files of a real crash (../shared/real-dumps).

if [ -d "$REALDUMPS/mdf" ]; then
	for src in "$REALDUMPS"/mdf/mdf-zlib-d31.kdump "$REALDUMPS"/mdf/mdf-lzo-d31.kdump \
	    "$REALDUMPS"/mdf/mdf-none-d31.kdump "$REALDUMPS"/mdf/mdf-lzo-d31.flat; do
		[ -e "$src" ] || continue
		n=$(basename "$src"); d="real crash $n --to elf"
		check "$d: dumpconv exits 0" "$BIN/dumpconv" --to elf -q "$src" -o "$T/o.elf" ||
		    continue
		clean_vmcore "$T/o.elf" "$d"
		expect_exit "$d: libkdumpfile reads 1000 physical addresses equal to dumpkit's source" \
		    0 "machphys: 1000 of 1000 equal" "$KR" -e -x "$T/o.elf" "$src"
		rm -f "$T/a.txt" "$T/b.txt"
		# The original's log; a flattened file makedumpfile cannot
		# read (without -R): the log it printed in the guest.
		makedumpfile --dump-dmesg "$src" "$T/a.txt" >/dev/null 2>&1 ||
		    cp "$REALDUMPS/mdf/dmesg.txt" "$T/a.txt"
		if makedumpfile --dump-dmesg "$T/o.elf" "$T/b.txt" >"$T/m.log" 2>&1 &&
		    [ -s "$T/b.txt" ] && cmp -s "$T/a.txt" "$T/b.txt"; then
			ok "$d: makedumpfile --dump-dmesg prints the log it prints from the original ($(wc -l <"$T/b.txt") lines)"
		else
			no "$d: makedumpfile --dump-dmesg prints the original's log" "$(cat "$T/m.log")"
		fi
		rm -f "$T/re.kdump" "$T/re.elf"
		if makedumpfile -c -d 31 "$T/o.elf" "$T/re.kdump" >"$T/m.log" 2>&1 &&
		    "$BIN/dumpconv" --to elf -q "$T/re.kdump" -o "$T/re.elf" &&
		    cmp -s "$T/o.elf" "$T/re.elf"; then
			ok "$d: makedumpfile -c -d 31 of it keeps the same pages (its --to elf is the same bytes)"
		else
			no "$d: makedumpfile -c -d 31 of it keeps the same pages" "$(tail -5 "$T/m.log")"
		fi
		sym=$("$BIN/dumpinfo" "$src" | awk '$1 == "SYMBOL(init_uts_ns)" {gsub(/"/, "", $2); print $2}')
		if [ -n "$sym" ]; then
			pa=$(printf '0x%x' $((0x$sym - 0xffffffff80000000)))
			want=$("$BIN/dumpinfo" --read-pa $pa:16 --raw "$src" | od -An -tx1 | tr -d ' \n')
			for va in 0x$sym $(printf '0x%x' $((0xffff888000000000 + pa))); do
				got=$(gdb-multiarch -nx -batch -ex 'set architecture i386:x86-64' \
				    -ex "core-file $T/o.elf" -ex "x/16xb $va" 2>&1 | grep '^0x' |
				    sed 's/^[^:]*://' | tr -d ' \t' | sed 's/0x//g' | tr -d '\n')
				[ "$got" = "$want" ] && ok "$d: gdb reads init_uts_ns at $va" ||
				    no "$d: gdb reads init_uts_ns at $va" "gdb: $got, dumpinfo: $want"
			done
		fi
		rm -f "$T/o.elf" "$T/re.kdump" "$T/re.elf"
	done
else
	echo "# $REALDUMPS/mdf absent: the real crash's whole files not tested"
fi

# The real ELF vmcores, QEMU's among them (which makedumpfile refuses),
# once dumpkit reads ELF vmcores (formats/fmt_vmcore.c): --to elf gives
# files makedumpfile, libkdumpfile and gdb take.
for src in "$REALDUMPS"/x86_64-linux.elf "$REALDUMPS"/x86_64-linux-paging.elf \
    "$REALDUMPS"/x86_64-linux-kernel.vmcore "$REALDUMPS"/mdf/mdf-d31.elf \
    "$REALDUMPS"/ppc64-fw.elf "$REALDUMPS"/s390x-fw.elf "$REALDUMPS"/i386-fw.elf \
    "$REALDUMPS"/aarch64-fw.elf "$REALDUMPS"/riscv64-fw.elf; do
	[ -e "$src" ] || continue
	n=$(basename "$src"); d="real $n --to elf"
	if ! out=$("$BIN/dumpconv" --to elf -q "$src" -o "$T/v.elf" 2>&1); then
		grep -q "does not read it yet" <<<"$out" &&
		    echo "# $n: dumpkit does not read ELF vmcores yet: not tested" ||
		    no "$d: dumpconv exits 0" "$out"
		continue
	fi
	ok "$d: dumpconv exits 0"
	clean_vmcore "$T/v.elf" "$d"
	expect_exit "$d: libkdumpfile reads 1000 physical addresses equal to dumpkit's source" \
	    0 "machphys: 1000 of 1000 equal" "$KR" -e -x "$T/v.elf" "$src"
	case $n in x86_64-linux*|mdf-d31.elf)
		rm -f "$T/b.txt"
		makedumpfile --dump-dmesg "$T/v.elf" "$T/b.txt" >"$T/m.log" 2>&1 &&
		    grep -q 'Linux version' "$T/b.txt" &&
		    ok "$d: makedumpfile --dump-dmesg prints the kernel log ($(wc -l <"$T/b.txt") lines)" ||
		    no "$d: makedumpfile --dump-dmesg prints the kernel log" "$(cat "$T/m.log")" ;;
	esac
	rm -f "$T/v.elf"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
