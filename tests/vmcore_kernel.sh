#!/usr/bin/env bash
# The fixture kernel of dumpgen --format vmcore (fixtures/gen_linux.c,
# docs/linux-fixture.md): its printk log and its page tables, read by
# dumpinfo and by tools nobody here wrote.
#
#  - dumpinfo --dmesg prints the log the documented formula gives
#    (docs/linux-fixture.md, computed again below in Python), for every
#    row and layout (x86_64 4- and 5-level, i386 PAE and 2-level,
#    aarch64 4/16/64 KiB, riscv64 Sv57/48/39, s390x 3/4/5-level,
#    powerpc64 and powerpc64le radix of 64 and 4 KiB pages and hash
#    (no tables), arm short descriptors), in the lockless ring
#    and the struct printk_log layout (--variant oldlog); the log's text
#    is mapped in vmalloc space, so that it is read through the tables;
#  - makedumpfile --dump-dmesg (x86_64: Debian's is built for it) prints
#    the same bytes from the kernel's and makedumpfile's files;
#  - kernel virtual reads through the page tables alone (QEMU's files
#    with VMCOREINFO: p_vaddr = p_paddr, no virtual segment) give the
#    fixture pattern (tests/pattern.py) at the direct map's and the
#    image's addresses; libkdumpfile's own walk (tests/kdumpfile_read
#    -v) reads the same bytes where it translates the architecture
#    (x86_64, aarch64, s390x, whose VMCOREINFO it finds through the
#    lowcore; i386 with p_vaddr; not powerpc64 radix, which 0.5.1 does
#    not know); an address the tables do not map is refused;
#  - the same arguments give the same bytes.
# DK_TEST_SAMPLE=N runs one case in N.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
KR=${KDUMPFILE_READ:-$B/tests/kdumpfile_read}
HERE=$(cd "$(dirname "$0")" && pwd)
PAT=$HERE/pattern.py
SAMPLE=${DK_TEST_SAMPLE:-1}
export DUMPKIT_NO_FSYNC=1
# Sixty files of 64 MiB of RAM: in memory where there is a tmpfs.
TD=${TMPDIR:-/tmp}
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && TD=/dev/shm
T=$(mktemp -d "$TD/dkvmk.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$HERE/tap.sh"

hexat() {	# FILE VA LEN: dumpinfo's bytes at the kernel VA, in hex
	"$BIN/dumpinfo" --raw --read-va "$2:$3" "$1" 2>"$T/rerr" |
	    od -An -v -tx1 | tr -d ' \n'
}
# The first frame from PA + OFF on, page by page, whose pattern is not
# zero: "OFFSET HEX", its offset from PA and its first LEN bytes.
pick() {	# SEED PA OFF PAGE LEN
	python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from pattern import byte_at
seed, pa, off, page, n = (int(a, 0) for a in sys.argv[2:7])
for k in range(65):
    o = off + k * page
    if byte_at(seed, pa + o) or any(byte_at(seed, pa + o + i) for i in range(16)):
        break
print(o, "".join("%02x" % byte_at(seed, pa + o + i) for i in range(n)))
' "$HERE" "$@"
}

# ROW LAYOUT PAGE RAM DMAP KTEXT_VA KTEXT_PA VMALLOC (- for none)
cases="
amd64 4-level 4096 0 0xffff888000000000 0xffffffff81000000 0x1000000 0xffffc90000000000
amd64 5-level 4096 0 0xff11000000000000 0xffffffff81000000 0x1000000 0xffa0000000000000
aarch64 4k 4096 0x40000000 0xffff000000000000 0xffff800008000000 0x40200000 0xffff800080000000
aarch64 16k 16384 0x40000000 0xffff800000000000 0xffffc00008000000 0x40200000 0xffffc00080000000
aarch64 64k 65536 0x40000000 0xffff000000000000 0xffff800008000000 0x40200000 0xffff800080000000
riscv64 sv57 4096 0x80000000 0xff60000000000000 0xffffffff80000000 0x80200000 0xff20000000000000
riscv64 sv48 4096 0x80000000 0xffffaf8000000000 0xffffffff80000000 0x80200000 0xffff8f8000000000
riscv64 sv39 4096 0x80000000 0xffffffd800000000 0xffffffff80000000 0x80200000 0xffffffc800000000
i386 pae 4096 0 0xc0000000 0xc1000000 0x1000000 0xfc000000
i386 nopae 4096 0 0xc0000000 0xc1000000 0x1000000 0xfc000000
i386 - 4096 0 0xc0000000 - - -
s390x 3-level 4096 0 0 0x100000 0x100000 0x3d000000000
s390x 4-level 4096 0 0 0x100000 0x100000 0x1f000000000000
s390x 5-level 4096 0 0 0x100000 0x100000 0xfff0000000000000
powerpc64 radix 65536 0 0xc000000000000000 0xc000000000000000 0 0xc008000000000000
powerpc64 radix-4k 4096 0 0xc000000000000000 0xc000000000000000 0 0xc008000000000000
powerpc64le radix 65536 0 0xc000000000000000 0xc000000000000000 0 0xc008000000000000
powerpc64le radix-4k 4096 0 0xc000000000000000 0xc000000000000000 0 0xc008000000000000
powerpc64 hash 65536 0 0xc000000000000000 - - -
powerpc64le hash 65536 0 0xc000000000000000 - - -
arm short 4096 0x40000000 0xc0000000 0xc0008000 0x40008000 0xf0000000
"
i=0
while read -r row lay page ram dmap kva kpa vmalloc; do
	[ -n "$row" ] || continue
	for log in lockless oldlog; do
		i=$((i + 1))
		[ $((i % SAMPLE)) -eq 0 ] || continue
		seed=$((i * 7 + 3))
		v=; [ $lay != - ] && v=$lay
		[ $log = oldlog ] && v=${v:+$v,}oldlog
		d="$row${v:+ $v}"
		python3 "$HERE/fixture_log.py" $seed > "$T/want"
		prods="kernel"
		[ $vmalloc != - ] && prods="kernel qemu-7.2-vmcoreinfo"
		[ $row = amd64 ] && prods="kernel makedumpfile qemu-7.2-vmcoreinfo"
		for p in $prods; do
			f=$T/$row-$p.vmcore
			if ! "$BIN/dumpgen" -q -f --format vmcore --arch $row \
			    --producer $p ${v:+--variant $v} --mem 64M \
			    --seed $seed -o "$f" 2>"$T/err"; then
				no "$d $p: dumpgen" "$(cat "$T/err")"
				continue
			fi
			"$BIN/dumpinfo" --dmesg "$f" > "$T/ours" 2>"$T/err"
			cmp -s "$T/ours" "$T/want" && [ ! -s "$T/err" ] &&
			    ok "$d $p: dumpinfo --dmesg is the seed's log" ||
			    no "$d $p: dumpinfo --dmesg" "$(diff "$T/want" "$T/ours" | head; cat "$T/err")"
			if [ $row = amd64 ] && [ $p != qemu-7.2-vmcoreinfo ]; then
				rm -f "$T/mdf"
				makedumpfile --dump-dmesg "$f" "$T/mdf" > "$T/mdf.log" 2>&1
				cmp -s "$T/mdf" "$T/want" &&
				    ok "$d $p: makedumpfile --dump-dmesg prints the same" ||
				    no "$d $p: makedumpfile --dump-dmesg" "$(cat "$T/mdf.log"; diff "$T/want" "$T/mdf" | head)"
			fi
			[ $vmalloc != - ] || continue
			# The text in vmalloc space: libkdumpfile's walk
			# (of i386 where the file has p_vaddr: it reads the
			# tables by their direct-map VA, which QEMU's files
			# do not give it: "Infinite read recursion").
			kr_walks=
			case $row-$p in amd64-*|aarch64-*|i386-kernel|s390x-kernel) kr_walks=1 ;; esac
			case $kr_walks in 1)
				[ -x "$KR" ] || continue
				# Its 8 KiB (two pages of 4 KiB, in reverse
				# physical order), 4 KiB at a time.
				v2=$(printf "0x%x" $((vmalloc + 4096)))
				a=$(hexat "$f" $vmalloc 4096)$(hexat "$f" $v2 4096)
				b=$("$KR" -p $seed -v $vmalloc:4096 "$f" 2>&1)$("$KR" -p $seed -v $v2:4096 "$f" 2>&1)
				[ ${#a} -eq 16384 ] && [ "$a" = "$b" ] &&
				    [ "${a#*7365656420}" != "$a" ] &&
				    ok "$d $p: libkdumpfile reads the log's text in vmalloc space as dumpinfo" ||
				    no "$d $p: libkdumpfile at $vmalloc" "dumpinfo: ${a:0:200} $(cat "$T/rerr")
libkdumpfile: ${b:0:200}" ;;
			esac
			[ $p = qemu-7.2-vmcoreinfo ] || continue
			# No virtual segment: the tables translate everything.
			for where in dmap ktext; do
				if [ $where = dmap ]; then
					base=$dmap; pa=$((ram))
				else
					base=$kva; pa=$((kpa))
				fi
				read -r o want <<<"$(pick $seed $pa $((0x300000)) $page 32)"
				va=$(printf '0x%x' $((base + o)))
				got=$(hexat "$f" $va 32)
				[ "$got" = "$want" ] &&
				    ok "$d $p: $where $va reads the pattern at pa $(printf '%#x' $((pa + o)))" ||
				    no "$d $p: $where $va" "want $want got $got $(cat "$T/rerr")"
				# libkdumpfile refuses QEMU's s390x file (its
				# .shstrtab header swapped): it reads the
				# --to elf file made of it.
				kf=$f kn=
				[ $row = s390x ] && kf=$T/clean.vmcore kn=" of its --to elf file"
				case $row in amd64|aarch64|s390x)
					[ -x "$KR" ] || continue
					[ $row = s390x ] && [ $where = dmap ] &&
					    { "$BIN/dumpconv" -q -f --to elf "$f" -o "$kf" 2>"$T/err" ||
					    no "$d $p: dumpconv --to elf" "$(cat "$T/err")"; }
					got=$("$KR" -p $seed -v $va:32 "$kf" 2>&1)
					[ "$got" = "$want" ] &&
					    ok "$d $p: libkdumpfile's walk reads the same at $va$kn" ||
					    no "$d $p: libkdumpfile at $va" "want $want got $got" ;;
				esac
			done
			# Unmapped: 64 MiB past the text (i386: 32 MiB, inside
			# its 4 GiB).
			off=0x4000000; [ $row = i386 ] && off=0x2000000
			va=$(printf '0x%x' $((vmalloc + off)))
			expect_exit "$d $p: $va, which the tables do not map, is refused" \
			    1 "$va: not mapped" "$BIN/dumpinfo" --raw --read-va $va:16 "$f"
		done
	done
done <<<"$cases"

# 2 GiB of RAM: the direct map in 1 GiB pages (PDPT entries with PS),
# through the tables alone (QEMU's file) and libkdumpfile's walk.
f=$T/big.vmcore
"$BIN/dumpgen" -q -f --format vmcore --arch amd64 --producer qemu-7.2-vmcoreinfo \
    --mem 2G --seed 5 -o "$f"
read -r o want <<<"$(pick 5 $((0x40000000)) $((0x2345000)) 4096 32)"
va=$(printf '0x%x' $((0xffff888040000000 + o)))
got=$(hexat "$f" $va 32)
[ "$got" = "$want" ] && ok "2 GiB: $va (a 1 GiB page) reads the pattern" ||
    no "2 GiB: $va" "want $want got $got $(cat "$T/rerr")"
if [ -x "$KR" ]; then
	got=$("$KR" -p 5 -v $va:32 "$f" 2>&1)
	[ "$got" = "$want" ] && ok "2 GiB: libkdumpfile's walk reads the same at $va" ||
	    no "2 GiB: libkdumpfile at $va" "want $want got $got"
fi
rm -f "$f"

# dumpconv --to kdump of the kernel's vmcore: a kdump file has no
# p_vaddr, so every kernel address, the log's included, goes through the
# tables; dumpinfo prints the log from it, and makedumpfile (built for
# x86_64 here) too.  arm's file is a 64-bit writer's of a 32-bit
# machine: its sub header is told from the i386 layout by what it finds.
for rl in "amd64 5-level" "s390x 4-level" "powerpc64le radix" "powerpc64 radix-4k" "arm short"; do
	set -- $rl
	"$BIN/dumpgen" -q -f --format vmcore --arch $1 --variant $2 --mem 64M \
	    --seed 11 -o "$T/k.vmcore"
	python3 "$HERE/fixture_log.py" 11 > "$T/want"
	if ! "$BIN/dumpconv" -q --to kdump "$T/k.vmcore" -o "$T/k.kdump" 2>"$T/err"; then
		no "dumpconv --to kdump of the $rl vmcore" "$(cat "$T/err")"
		continue
	fi
	"$BIN/dumpinfo" --dmesg "$T/k.kdump" > "$T/ours" 2>&1
	cmp -s "$T/ours" "$T/want" && ok "$rl, its kdump file: dumpinfo --dmesg is the seed's log" ||
	    no "$rl, its kdump file: dumpinfo --dmesg" "$(diff "$T/want" "$T/ours" | head)"
	if [ $1 = amd64 ]; then
		rm -f "$T/mdf"
		makedumpfile --dump-dmesg "$T/k.kdump" "$T/mdf" > "$T/mdf.log" 2>&1
		cmp -s "$T/mdf" "$T/want" && ok "$rl, its kdump file: makedumpfile --dump-dmesg prints the same" ||
		    no "$rl, its kdump file: makedumpfile --dump-dmesg" "$(cat "$T/mdf.log")"
	fi
	rm -f "$T/k.kdump" "$T/k.vmcore"
done

# powerpc64 on the hash MMU (NUMBER(RADIX_MMU)=0, no tables): QEMU's
# file has no p_vaddr, so the log and the image are read through the
# linear map's rule (pa = va - 0xc000000000000000); vmalloc space, which
# the hashed page table maps, is refused, naming why.
for row in powerpc64 powerpc64le; do
	f=$T/hash-$row.vmcore
	"$BIN/dumpgen" -q -f --format vmcore --arch $row --producer qemu-7.2-vmcoreinfo \
	    --variant hash --mem 64M --seed 13 -o "$f"
	python3 "$HERE/fixture_log.py" 13 > "$T/want"
	"$BIN/dumpinfo" --dmesg "$f" > "$T/ours" 2>"$T/err"
	cmp -s "$T/ours" "$T/want" && ok "$row hash qemu: dumpinfo --dmesg through the linear map" ||
	    no "$row hash qemu: dumpinfo --dmesg" "$(diff "$T/want" "$T/ours" | head; cat "$T/err")"
	read -r o want <<<"$(pick 13 0 $((0x300000)) 65536 32)"
	va=$(printf '0x%x' $((0xc000000000000000 + o)))
	got=$(hexat "$f" $va 32)
	[ "$got" = "$want" ] && ok "$row hash qemu: $va reads the pattern at pa $(printf '%#x' $o)" ||
	    no "$row hash qemu: $va" "want $want got $got $(cat "$T/rerr")"
	expect_exit "$row hash qemu: vmalloc space is refused, naming the hash MMU" \
	    1 "a kernel on the hash MMU" "$BIN/dumpinfo" --raw --read-va 0xc008000000000000:16 "$f"
done

# A damaged struct printk_log record (its length made 8, shorter than
# its own header, at every copy of it in the file): the records before
# it are printed, then the error naming it, exit 2 (makedumpfile prints
# the same records, then garbage).
"$BIN/dumpgen" -q -f --format vmcore --arch amd64 --variant oldlog \
    --mem 64M -o "$T/dmg.vmcore"
"$BIN/dumpinfo" --dmesg "$T/dmg.vmcore" > "$T/dmg.want"
for at in $(grep -boa 'seed 1 record 3 level' "$T/dmg.vmcore" | cut -d: -f1); do
	printf '\010\000' | dd of="$T/dmg.vmcore" bs=1 seek=$((at - 16 + 8)) \
	    conv=notrunc status=none
done
"$BIN/dumpinfo" --dmesg "$T/dmg.vmcore" > "$T/dmg.out" 2> "$T/dmg.err"
rc=$?
head -n 3 "$T/dmg.want" | cmp -s - "$T/dmg.out" && [ $rc = 2 ] &&
    grep -q 'length 8, text 71 bytes: expected a length of 16 or more' "$T/dmg.err" &&
    ok "a damaged printk_log record: the three records before it, then the error, exit 2" ||
    no "a damaged printk_log record" "exit $rc; $(cat "$T/dmg.err"); $(cat "$T/dmg.out")"

# The same arguments, the same bytes.
for k in 1 2; do
	"$BIN/dumpgen" -q -f --format vmcore --arch aarch64 --variant 16k,oldlog \
	    --mem 64M --seed 9 -o "$T/same$k"
done
cmp -s "$T/same1" "$T/same2" && ok "dumpgen --variant 16k,oldlog twice: the same bytes" ||
    no "dumpgen twice: the same bytes"
expect_exit "a layout of another row is refused" 3 "layout of amd64" \
    "$BIN/dumpgen" -q -f --format vmcore --arch amd64 --variant sv39 -o "$T/x"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
