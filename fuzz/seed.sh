#!/bin/sh
# seed.sh -- regenerate the seed corpus of the fuzz targets.
#
#	make fuzz-seed            (builds dumpgen and seedshrink first)
#	DUMPGEN=... SEEDSHRINK=... sh fuzz/seed.sh
#
# fuzz/corpus/minidump: one seed per row of `dumpgen --list` that
# dumpgen can currently write, named ARCH-vVERSION[-VARIANT]: made by
#	dumpgen --compact --mem 32M --dumped 64K --arch A --version V ...
# then cut by seedshrink to a few dozen KiB (same row, version and
# header; a short msgbuf, the start of the page-table area, a handful of
# pages).  A row dumpgen refuses is skipped and reported; if seedshrink
# fails, the dumpgen output is kept whole (run.sh sizes -max_len to the
# largest seed).  Other files of the directory (crash-*, hand-made seeds)
# are left alone.
#
# fuzz/corpus/elfmini: each seed of fuzz/corpus/minidump (crash-* left
# out) converted by dumpconv to a portable ELF minidump, named NAME.elf
# (--arch from the seed's name, which is the row's; the regress-* seeds
# are amd64), and each seed of fuzz/corpus/vmcore converted the same
# way, named vmcore-NAME.elf (the Linux vmcore kind, with its source
# header note), and six of fuzz/corpus/kdump, named kdump-NAME.elf (the
# kdump kind: decoded pages, encoders and records notes).  A seed
# dumpconv refuses is skipped and reported.
#
# fuzz/corpus/vmcore: heads of the real vmcores of tests/data/vmcore.
#
# fuzz/corpus/kernel_elf: the first 64 bytes of /bin/true and of objects
# that clang compiles for several targets, and a few hand-made headers.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=${B:-build}
DUMPGEN=${DUMPGEN:-$B/bin/dumpgen}
SEEDSHRINK=${SEEDSHRINK:-$B/fuzz/seedshrink}
DUMPCONV=${DUMPCONV:-$B/bin/dumpconv}
if [ ! -x "$DUMPGEN" ] || [ ! -x "$SEEDSHRINK" ] || [ ! -x "$DUMPCONV" ]; then
	make -s B="$B" "$B/bin/dumpgen" "$B/fuzz/seedshrink" "$B/bin/dumpconv"
	DUMPGEN=$B/bin/dumpgen
	SEEDSHRINK=$B/fuzz/seedshrink
	DUMPCONV=$B/bin/dumpconv
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dumpkit-seed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

md=fuzz/corpus/minidump
mkdir -p "$md"
made=0 skipped=0 whole=0
"$DUMPGEN" --list | tail -n +2 > "$tmp/list"
while read -r fmt arch ver var desc; do
	[ "$fmt" = minidump ] || continue
	name=$arch-v$ver
	set -- --arch "$arch" --version "$ver"
	if [ "$var" != - ]; then
		name=$name-$var
		set -- "$@" --variant "$var"
	fi
	if ! "$DUMPGEN" --compact --mem 32M --dumped 64K "$@" -q \
	    -o "$tmp/$name" 2> "$tmp/err"; then
		echo "seed: skipped $name: $(cat "$tmp/err")" >&2
		rm -f "$md/$name"
		skipped=$((skipped + 1))
		continue
	fi
	if "$SEEDSHRINK" "$tmp/$name" "$md/$name" > /dev/null 2> "$tmp/err"
	then
		made=$((made + 1))
	else
		echo "seed: $name kept whole: $(cat "$tmp/err")" >&2
		cp "$tmp/$name" "$md/$name"
		whole=$((whole + 1))
	fi
	rm -f "$tmp/$name"
done < "$tmp/list"
echo "seed: $md: $made shrunk, $whole whole, $skipped skipped"

em=fuzz/corpus/elfmini
mkdir -p "$em"
made=0 skipped=0
for f in "$md"/*; do
	name=$(basename "$f")
	case $name in
	crash-*) continue ;;
	regress-*) arch=amd64 ;;
	*) arch=${name%%-v[0-9]*} ;;
	esac
	rm -f "$em/$name.elf"
	if "$DUMPCONV" -q --arch "$arch" "$f" -o "$em/$name.elf" \
	    2> "$tmp/err"; then
		made=$((made + 1))
	else
		echo "seed: skipped $name.elf: $(cat "$tmp/err")" >&2
		skipped=$((skipped + 1))
	fi
done
echo "seed: $em: $made converted, $skipped skipped"
# to_portable SRC OUT: dumpconv SRC to OUT, counted in made or skipped.
to_portable() {
	rm -f "$2"
	if "$DUMPCONV" -q "$1" -o "$2" 2> "$tmp/err"; then
		made=$((made + 1))
	else
		echo "seed: skipped $(basename "$2"): $(cat "$tmp/err")" >&2
		skipped=$((skipped + 1))
	fi
}
# ... and each Linux vmcore seed, converted (source kind 4).
made=0 skipped=0
for f in fuzz/corpus/vmcore/*; do
	name=$(basename "$f")
	case $name in crash-*) continue ;; esac
	to_portable "$f" "$em/vmcore-$name.elf"
done
echo "seed: $em: $made vmcores converted, $skipped skipped"
# ... and some kdump seeds, converted (source kind 5): each layout and
# codec once, plain, flattened, cut and a split part.
made=0 skipped=0
for name in lp64-le-v6-zlib lp64-be-v6-zstd.flat ilp32-le-v4-lzo.cut \
    ilp32pad-be-v3-snappy lp64-le-v5-mixed.flat lp64-le-v6-split; do
	to_portable "fuzz/corpus/kdump/$name" "$em/kdump-$name.elf"
done
echo "seed: $em: $made kdump files converted, $skipped skipped"

# fuzz/corpus/kdwarf: fixture kernels with their DWARF (both byte orders
# and classes; one whose p_pptr lies past struct proc, one stripped of
# it) and a compiler's relocatable object with struct proc.
kd=fuzz/corpus/kdwarf
mkdir -p "$kd"
for a in amd64 mips powerpc64 i386; do
	"$DUMPGEN" -q -f --arch $a --mem 64M -o "$tmp/k.md" --kernel-out "$kd/kernel-$a"
done
"$DUMPGEN" -q -f --arch amd64 --mem 64M -o "$tmp/k.md" --kernel-out "$kd/kernel-amd64-dwarf-damaged" \
    --damage-threads dwarf
objcopy --strip-debug "$kd/kernel-amd64" "$kd/kernel-amd64-stripped"
printf 'struct proc { long a; int p_state; struct proc *p_pptr; } p;\nstruct thread { enum { X } td_state; } t;\n' > "$tmp/p.c"
cc -g -c -o "$kd/gcc-x86_64-rel" "$tmp/p.c"
echo "seed: $kd: $(ls "$kd" | wc -l) kernels and objects"

ke=fuzz/corpus/kernel_elf
mkdir -p "$ke"
head -c 64 /bin/true > "$ke/host-true"
echo 'int dumpkit_seed;' > "$tmp/x.c"
n=0
if command -v clang > /dev/null 2>&1; then
	for t in x86_64-unknown-freebsd i386-unknown-freebsd \
	    armv7-unknown-freebsd-gnueabihf armebv7-unknown-linux-gnueabi \
	    aarch64-unknown-freebsd aarch64_be-unknown-linux-gnu \
	    powerpc64-unknown-freebsd riscv64-unknown-freebsd \
	    mips-unknown-freebsd; do
		if clang --target="$t" -c -o "$tmp/x.o" "$tmp/x.c" \
		    2> /dev/null; then
			head -c 64 "$tmp/x.o" > "$ke/$t"
			n=$((n + 1))
		fi
	done
fi
# Hand-made: a 20-byte x86_64 header, EI_DATA 0, a big-endian EM_ARM
# executable header, and an ELF magic with nothing after it.
printf '\177ELF\002\001\001\011\000\000\000\000\000\000\000\000\002\000\076\000' \
    > "$ke/hand-amd64-20bytes"
printf '\177ELF\001\000\001\000\000\000\000\000\000\000\000\000\000\002\000\050' \
    > "$ke/hand-bad-eidata"
printf '\177ELF\001\002\001\011\000\000\000\000\000\000\000\000\000\002\000\050\000\000\000\001\300\020\000\000\000\000\000\064' \
    > "$ke/hand-armeb-exec"
printf '\177ELF' > "$ke/hand-magic-only"
echo "seed: $ke: $n cross objects, /bin/true, 4 hand-made headers"

# fuzz/corpus/compress: three minidump seeds compressed by the gzip,
# zstd and xz tools (what savecore and users write), two gzip members
# and two zstd frames concatenated, and a zstd frame followed by the zero
# padding of a device's last block.
cz=fuzz/corpus/compress
mkdir -p "$cz"
n=0
for s in amd64-v3 armeb-v2 riscv64-v2; do
	[ -f "$md/$s" ] || continue
	gzip -n -c "$md/$s" > "$cz/$s.gz"
	zstd -q -c "$md/$s" > "$cz/$s.zst"
	xz -c "$md/$s" > "$cz/$s.xz"
	n=$((n + 3))
done
if [ -f "$md/amd64-v3" ]; then
	head -c 4096 "$md/amd64-v3" | gzip -n -c > "$cz/two-members.gz"
	tail -c +4097 "$md/amd64-v3" | gzip -n -c >> "$cz/two-members.gz"
	head -c 4096 "$md/amd64-v3" | zstd -q -c > "$cz/two-frames.zst"
	tail -c +4097 "$md/amd64-v3" | zstd -q -c >> "$cz/two-frames.zst"
	cp "$cz/amd64-v3.zst" "$cz/padded.zst"
	head -c 300 /dev/zero >> "$cz/padded.zst"
	n=$((n + 3))
fi
echo "seed: $cz: $n compressed streams"

# fuzz/corpus/elf: the first 64 KiB (ELF header, program headers, the
# first pages) of a core of every full-ELF row of `dumpgen --list`, and
# the kernel image dumpgen --kernel-out writes for it.
ec=fuzz/corpus/elf
mkdir -p "$ec"
n=0
"$DUMPGEN" --list | awk '$1 == "elf" { print $2, $4 }' > "$tmp/elflist"
while read -r arch var; do
	"$DUMPGEN" --format elf --arch "$arch" --variant "$var" --mem 32M \
	    -q -o "$tmp/core" --kernel-out "$tmp/kern" -f || continue
	head -c 65536 "$tmp/core" > "$ec/$arch-$var.core"
	cp "$tmp/kern" "$ec/$arch-$var.kern"
	n=$((n + 2))
	# Its portable conversion with the zero pages left out (a page-keep
	# note, PT_LOADs with p_memsz past p_filesz).
	"$DUMPCONV" -q -f --drop-zero "$ec/$arch-$var.core" \
	    -o "$ec/$arch-$var.z.elf" && n=$((n + 1))
done < "$tmp/elflist"
echo "seed: $ec: $n full ELF cores, their --drop-zero conversions and" \
    "kernel images"

# fuzz/corpus/kdh: kerneldumpheader containers around the amd64-v3
# minidump seed, built by fuzz/seed_kdh.py from FORMATS.md 3 (device
# images of every version and placement, a leading header, a text dump,
# an encrypted dump, a cleared trailer, and damaged headers).
kc=fuzz/corpus/kdh
mkdir -p "$kc"
if [ -f "$md/amd64-v3" ]; then
	python3 fuzz/seed_kdh.py "$md/amd64-v3" "$kc"
	echo "seed: $kc: $(ls "$kc" | wc -l) containers"
fi

# fuzz/corpus/sparc64: small sparc64 dumps built by fuzz/seed_sparc64.py
# from FORMATS.md 5 (both header styles, truncated, damaged TSB and
# regions), and the portable conversion of one (old.elf: fuzz_elfmini's
# readers' exercise assumes a minidump's page order, so it stays here).
sc=fuzz/corpus/sparc64
mkdir -p "$sc"
python3 fuzz/seed_sparc64.py "$sc"
if [ -n "${DUMPCONV:-}" ]; then
	"$DUMPCONV" -q -f --arch sparc64 "$sc/old" -o "$sc/old.elf"
fi
echo "seed: $sc: $(ls "$sc" | wc -l) sparc64 dumps"

# fuzz/corpus/elf_layer: the first bytes of a portable file (ELF header,
# program headers, notes) and of full cores of both classes and byte
# orders, two kernel images (section headers), and a hand-made PN_XNUM
# file (e_phnum 0xffff, section 0's sh_info 2, a PT_NOTE of one note).
el=fuzz/corpus/elf_layer
mkdir -p "$el"
"$DUMPGEN" --arch amd64 --compact --mem 32M --dumped 64K -q -f -o "$tmp/md"
"$DUMPCONV" -q -f "$tmp/md" -o "$tmp/md.elf"
head -c 8192 "$tmp/md.elf" > "$el/amd64-portable"
for a in i386 armeb powerpc64; do
	"$DUMPGEN" --format elf --arch "$a" --mem 32M -q -f -o "$tmp/core" \
	    --kernel-out "$tmp/kern"
	head -c 1024 "$tmp/core" > "$el/$a-core"
	case $a in powerpc64) ;; *) cp "$tmp/kern" "$el/$a-kernel" ;; esac
done
python3 - "$el/hand-xnum" <<'EOF'
import struct, sys
eh = b'\x7fELF\x02\x01\x01' + bytes(9) + struct.pack('<HHIQQQIHHHHHH',
    4, 62, 1, 0, 128, 64, 0, 64, 56, 0xffff, 64, 1, 0)
sh = struct.pack('<IIQQQQIIQQ', 0, 0, 0, 0, 0, 0, 0, 2, 0, 0)
ph = struct.pack('<IIQQQQQQ', 4, 0, 0x100, 0, 0, 24, 24, 4)
ph += struct.pack('<IIQQQQQQ', 1, 7, 0x1000, 0, 0, 0, 0x1000, 0x1000)
b = eh + sh + ph
b += bytes(0x100 - len(b)) + struct.pack('<III', 8, 4, 0x444b0001)
b += b'dumpkit\0' + bytes([1, 2, 3, 4])
open(sys.argv[1], 'wb').write(b)
EOF
echo "seed: $el: $(ls "$el" | wc -l) ELF headers, notes and section headers"

# fuzz/corpus/vmcore: the first 16 KiB of each real Linux ELF vmcore of
# tests/data/vmcore (QEMU of six architectures, paging with PN_XNUM, the
# kernel's /proc/vmcore, makedumpfile -E), and the smallest one whole.
vc=fuzz/corpus/vmcore
mkdir -p "$vc"
for x in tests/data/vmcore/*.xz; do
	xz -dc "$x" | head -c 16384 > "$vc/$(basename "$x" .xz).head16k"
done
xz -dc tests/data/vmcore/x86_64-fw-part.elf.xz > "$vc/x86_64-fw-part.elf"
# The kernel's vmcore cut inside its program headers and before its
# notes: taken for a vmcore by its ELF header alone.
for n in 84 4080; do
	xz -dc tests/data/vmcore/x86_64-linux-kernel.cut256k.vmcore.xz |
	    head -c $n > "$vc/x86_64-linux-kernel.head$n"
done
echo "seed: $vc: $(ls "$vc" | wc -l) real vmcore heads"
