#!/usr/bin/env bash
# End-to-end tests of the kdump writer (issue 14): dumpconv --to kdump and
# dumpgen --format kdump, read by tools nobody here wrote.
#  - libkdumpfile (tests/kdumpfile_kdump.c) reads every page of our
#    conversion equal to what dumpkit reads from the source: generated
#    minidumps and full ELF cores of several architectures, the real kdump
#    files of tests/data/kdump/ and, where make-real-dumps.sh made them,
#    those of /tmp/realdumps/dumps (REAL_DUMPS);
#  - every codec, and the same bytes for --threads 1, 2, 3, 4 and 8;
#  - makedumpfile -R rearranges our flattened stream (-o -) into our
#    plain file, byte for byte; makedumpfile --reassemble joins our
#    --split set; makedumpfile -c -d 31 re-filters our conversion of a
#    real makedumpfile dump;
#  - drgn opens our file without a vmlinux and reads physical memory as
#    dumpkit reads the source;
#  - dumpgen --format kdump: versions 1 to 6, both byte orders, the three
#    writer ABIs, 4 to 64 KiB blocks, each codec, and the variants, read by
#    libkdumpfile against the fixture pattern (its formula written again
#    in kdumpfile_kdump.c from docs/fixture-pattern.md);
#  - usage errors, and ENOSPC on a small tmpfs (root only) leaving nothing.
# Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
KK=${KDUMPFILE_KDUMP:-$B/tests/kdumpfile_kdump}
REAL=${REAL_DUMPS:-/tmp/realdumps/dumps}
DATA=$(cd "$(dirname "$0")" && pwd)/data/kdump
T=$(mktemp -d "${TMPDIR:-/tmp}/dkkdw.XXXXXX")
trap 'mountpoint -q "$T/full" 2>/dev/null && umount "$T/full"; rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

conv() { "$BIN/dumpconv" -q --to kdump "$@"; }
have() { command -v "$1" >/dev/null 2>&1; }

# read_equal DESC KDUMP SOURCE...: libkdumpfile reads every page equal.
read_equal() {
	local d=$1; shift
	local out
	if out=$("$KK" "$@" 2>&1); then ok "$d: $out"; else no "$d" "$out"; fi
}

[ -x "$KK" ] || { no "tests/kdumpfile_kdump is built" "$KK"; \
    echo "$pass passed, $fail failed"; exit 1; }

# --- Generated sources of several architectures.
for a in amd64 i386 aarch64 armeb powerpc64 riscv64 mips64; do
	"$BIN/dumpgen" -q --arch "$a" --mem 32M --seed 3 -o "$T/md-$a"
	if conv "$T/md-$a" -o "$T/md-$a.kdump"; then
		read_equal "minidump $a -> kdump, libkdumpfile" \
		    "$T/md-$a.kdump" "$T/md-$a"
	else
		no "dumpconv --to kdump of a $a minidump"
	fi
done
"$BIN/dumpgen" -q --arch amd64 --format elf --mem 32M -o "$T/elf-amd64"
conv "$T/elf-amd64" -o "$T/elf-amd64.kdump" &&
    read_equal "full ELF core amd64 -> kdump" "$T/elf-amd64.kdump" \
    "$T/elf-amd64" || no "dumpconv --to kdump of a full ELF core"
# The source's facts in notes: utsname.machine and the DUMPKIT note.
expect_exit "a FreeBSD source names its machine for libkdumpfile" 0 \
    'machine +"x86_64"' "$BIN/dumpinfo" "$T/md-amd64.kdump"
grep -aq 'SOURCE_FORMAT=minidump' "$T/md-amd64.kdump" &&
    ok "the FreeBSD metadata is in a DUMPKIT note" ||
    no "the FreeBSD metadata is in a DUMPKIT note"

# --- Linux ELF vmcores (committed; QEMU's and makedumpfile -E's).
VMC=$(cd "$(dirname "$0")" && pwd)/data/vmcore
expect_exit "a vmcore of unknown page size is refused, naming --page-size" 2 \
    'page size is not known .*give it with --page-size' \
    conv "$VMC"/ppc64-fw.elf.xz -o "$T/u"
# Given, it is the kdump file's block size: libkdumpfile reads it from
# the header and every page equal; one the dump contradicts is refused.
xz -dc "$VMC"/ppc64-fw.elf.xz > "$T/ppc64-fw.elf"
for ps in 4K 64K; do
	conv --page-size "$ps" "$T/ppc64-fw.elf" -o "$T/ppc64-$ps.kdump" &&
	    read_equal "--page-size $ps: ppc64 QEMU vmcore -> kdump" \
	    "$T/ppc64-$ps.kdump" "$T/ppc64-fw.elf" ||
	    no "dumpconv --to kdump --page-size $ps of ppc64-fw.elf"
done
expect_exit "dumpinfo --page-size 64K of the 64K kdump file agrees" 0 \
    'page size: +65536' "$BIN/dumpinfo" --page-size 64K "$T/ppc64-64K.kdump"
expect_exit "--page-size against the dump's own is refused (status 3)" 3 \
    "--page-size 16384, but the dump's page size is 4096 \\(VMCOREINFO PAGESIZE\\)" \
    "$BIN/dumpinfo" --page-size 16K "$VMC"/x86_64-linux-part.elf.xz
expect_exit "--page-size against the architecture's one size (status 3)" 3 \
    "page size is 4096 \\(the architecture" \
    "$BIN/dumpcheck" --page-size 64K "$VMC"/s390x-fw.elf.xz
expect_exit "--page-size must be a power of two (status 3)" 3 \
    "expected a power of two from 1K to 64K, found '12K'" \
    conv --page-size 12K "$T/ppc64-fw.elf" -o "$T/u"
for f in "$VMC"/s390x-fw.elf.xz \
    "$VMC"/riscv64-fw.elf.xz "$VMC"/x86_64-linux-paging-hot.elf.xz \
    "$REAL"/mdf/mdf-d31.elf "$REAL"/x86_64-linux.elf; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	conv "$f" -o "$T/vmc-$n.kdump" &&
	    read_equal "Linux ELF vmcore $n -> kdump" "$T/vmc-$n.kdump" "$f" ||
	    no "dumpconv --to kdump of $n"
done

# utsname.sysname of a Linux source, read from the header's bytes (12).
[ "$(dd if="$T/vmc-riscv64-fw.elf.xz.kdump" bs=1 skip=12 count=6 \
    2>/dev/null | tr '\0' .)" = "Linux." ] &&
    ok "a Linux ELF vmcore's kdump file says sysname \"Linux\"" ||
    no "a Linux ELF vmcore's kdump file says sysname \"Linux\""

# --- Real kdump files (committed, and the generated real dumps).
for f in "$DATA"/*-fw.kdump-zlib.flat.xz; do
	n=$(basename "$f" .xz)
	conv "$f" -o "$T/$n.kdump" &&
	    read_equal "real $n -> kdump" "$T/$n.kdump" "$f" ||
	    no "dumpconv --to kdump of $n"
done
if [ -d "$REAL" ]; then
	for f in "$REAL"/*.kdump-zlib "$REAL"/mdf/mdf-lzo-d31.kdump \
	    "$REAL"/mdf/mdf-none-d31.kdump; do
		[ -f "$f" ] || continue
		n=$(basename "$f")
		conv "$f" -o "$T/real-$n.kdump" &&
		    read_equal "real $n -> kdump" "$T/real-$n.kdump" "$f" ||
		    no "dumpconv --to kdump of $n"
	done
	if [ -f "$REAL/mdf/mdf-split8-lzo-d31.8" ]; then
		conv "$REAL"/mdf/mdf-split8-lzo-d31.[1-8] -o "$T/real-join8" &&
		    read_equal "makedumpfile's --split 8 set joined by dumpconv" \
		    "$T/real-join8" "$REAL/mdf/mdf-lzo-d31.kdump" ||
		    no "dumpconv joins makedumpfile's --split 8 set"
	fi
else
	echo "# $REAL: no real dumps here (make-real-dumps.sh); skipped"
fi

# The source of the codec, thread, flattened and split checks: a real
# makedumpfile dump if there is one, else the QEMU amd64 firmware dump.
S="$REAL/mdf/mdf-lzo-d31.kdump"
[ -f "$S" ] || S="$DATA/x86_64-fw.kdump-zlib.flat.xz"
[ -f "$S" ] || S="$T/md-amd64"

# --- Every codec; the same bytes with 1, 2, 3, 4 and 8 threads.
for c in zlib zlib:6 lzo lzo:9 snappy zstd zstd:3 none; do
	f="$T/c-$c"
	conv --compress "$c" "$S" -o "$f.1" || {
		no "dumpconv --to kdump --compress $c"; continue; }
	same=yes
	for t in 2 3 4 8; do
		conv --compress "$c" --threads $t "$S" -o "$f.$t" &&
		    cmp -s "$f.1" "$f.$t" || same="no: --threads $t"
		rm -f "$f.$t"
	done
	[ "$same" = yes ] &&
	    ok "$c: the same bytes with --threads 1, 2, 3, 4 and 8" ||
	    no "$c: the same bytes with --threads 1, 2, 3, 4 and 8" "$same"
	read_equal "$c ($(stat -c %s "$f.1") bytes)" "$f.1" "$S"
done
expect_exit "the header names the codec" 0 'status +0x20' \
    "$BIN/dumpinfo" "$T/c-zstd.1"
# Zero pages: by default on one shared page (makedumpfile -d 1), so
# libkdumpfile reads every one; --exclude-zero leaves them out.
conv "$S" -o "$T/kz" && read_equal "default: zero pages read (shared page)" \
    -z "$T/kz" "$S" || no "default: zero pages on one shared page"
conv --exclude-zero "$S" -o "$T/xz" && read_equal "--exclude-zero" \
    "$T/xz" "$S" || no "--exclude-zero"
conv --keep-zero "$S" -o "$T/kk" && read_equal "--keep-zero: each stored" \
    -z "$T/kk" "$S" || no "--keep-zero"

# --- The header's dump level against makedumpfile's on the same input: a
# vmcore of the real kernel (bench/mkvmcore.py --zero: its notes and
# pages at 384 MiB of RAM, the rest zero).  makedumpfile -c -d 1 shares
# one zero page and writes 1, -c -d 0 stores each zero page and writes 0.
# dump_level: the int at block_size (offset 428, LP64) + 8.
dump_level() {
	od -An -tu4 -j $(($(od -An -tu4 -j 428 -N4 "$1") + 8)) -N4 "$1" |
	    tr -d ' '
}
if have makedumpfile && have python3; then
	xz -dc "$(dirname "$0")/data/linux/real-x86_64.kdump.xz" > "$T/rk" &&
	    "$BIN/dumpconv" -q --to elf "$T/rk" -o "$T/rk.elf" &&
	    python3 "$(dirname "$0")/../bench/mkvmcore.py" --zero "$T/rk.elf" \
	    384M "$T/z.elf" &&
	    makedumpfile -c -d 1 "$T/z.elf" "$T/z.d1" >/dev/null 2>&1 &&
	    makedumpfile -c -d 0 "$T/z.elf" "$T/z.d0" >/dev/null 2>&1 ||
	    no "makedumpfile -c -d 1 and -d 0 of bench/mkvmcore.py --zero"
	for x in "default|1|" "--exclude-zero|1|--exclude-zero" \
	    "--keep-zero|0|--keep-zero"; do
		IFS='|' read -r what d opt <<<"$x"
		want=$(dump_level "$T/z.d$d")
		conv $opt "$T/z.elf" -o "$T/z.$d$opt" &&
		    got=$(dump_level "$T/z.$d$opt") &&
		    [ "$want" = "$d" ] && [ "$got" = "$want" ] &&
		    ok "$what: dump level $got, as makedumpfile -c -d $d" ||
		    no "$what: dump level as makedumpfile -c -d $d" \
		    "ours ${got:-?}, makedumpfile's ${want:-?}"
	done
	# How many descriptors point at the most shared page data: 1 when
	# each zero page is stored (-d 0), thousands on a shared zero page.
	shared() {
		python3 -c 'import struct, sys
f = open(sys.argv[1], "rb"); h = f.read(464)
bs, sub, bmb = struct.unpack_from("<III", h, 428)
f.seek((1 + sub + bmb // 2) * bs)	# bitmap 2, then the descriptors
npages = sum(bin(b).count("1") for b in f.read(bmb // 2 * bs))
n = {}
for i in range(npages):
    o = struct.unpack_from("<q", f.read(24))[0]; n[o] = n.get(o, 0) + 1
print(max(n.values()) if n else 0)' "$1"
	}
	s0=$(shared "$T/z.d0") s1=$(shared "$T/z.d1")
	sk=$(shared "$T/z.0--keep-zero") sd=$(shared "$T/z.1")
	[ "$s0" = 1 ] && [ "$sk" = 1 ] && [ "$s1" -gt 1000 ] && [ "$sd" -gt 1000 ] &&
	    ok "zero pages: --keep-zero stores each (as -d 0), the default shares one (as -d 1)" ||
	    no "zero pages stored as makedumpfile -d 0 and -d 1 do" \
	    "most shared: -d 0 $s0, --keep-zero $sk, -d 1 $s1, default $sd"
	rm -f "$T"/z.* "$T"/rk*
fi

# --- Split parts start at multiples of 64 PFNs: crash counts a part's
# bitmap 2 by 64-bit words from start_pfn >> 6 (crash 8.0.2 read every
# page of a set of ours from the wrong descriptor before).  The real
# dump, whose even shares start at PFNs 10901 and 10954; start_pfn is an
# LP64 unsigned long at block_size + 16.
xz -dc "$(dirname "$0")/data/linux/real-x86_64.kdump.xz" > "$T/ra.src"
if conv --split 3 "$T/ra.src" -o "$T/ra"; then
	starts=$(for i in 1 2 3; do od -An -tu8 -j $(($(od -An -tu4 -j 428 \
	    -N4 "$T/ra.$i") + 16)) -N8 "$T/ra.$i"; done | tr -s ' \n' ' ')
	bad=$(for v in $starts; do [ $((v % 64)) = 0 ] || echo "$v"; done)
	[ -n "${starts// /}" ] && [ -z "$bad" ] &&
	    ok "--split 3: each part starts at a multiple of 64 PFNs ($starts)" ||
	    no "--split 3: each part starts at a multiple of 64 PFNs" "$starts"
	read_equal "--split 3 of the real dump, joined" "$T/ra.src" \
	    "$T/ra.1" "$T/ra.2" "$T/ra.3"
else
	no "dumpconv --split 3 of the real dump"
fi
rm -f "$T"/ra*

# --- Flattened: -o - to a pipe; makedumpfile -R; dumpkit reads it too.
if have makedumpfile; then
	conv "$S" -o - | cat > "$T/flat" &&
	    makedumpfile -R "$T/rearranged" < "$T/flat" >/dev/null 2>&1 &&
	    cmp -s "$T/rearranged" "$T/c-zlib.1" &&
	    ok "makedumpfile -R of our -o - stream is our plain file" ||
	    no "makedumpfile -R of our -o - stream is our plain file"
	read_equal "dumpkit reads our flattened file as the source" \
	    "$T/c-zlib.1" "$T/flat"
	# The records' order is the batches': the same stream with 3 threads.
	conv --threads 3 "$S" -o - | cat > "$T/flat3" &&
	    cmp -s "$T/flat" "$T/flat3" &&
	    ok "-o -: the same stream with --threads 1 and 3" ||
	    no "-o -: the same stream with --threads 1 and 3"
	rm -f "$T/flat3"
	# --split 3, joined by makedumpfile --reassemble.
	if conv --split 3 "$S" -o "$T/sp" &&
	    makedumpfile --reassemble "$T/sp.1" "$T/sp.2" "$T/sp.3" \
	    "$T/joined" >/dev/null 2>&1; then
		read_equal "makedumpfile --reassemble of our --split 3" \
		    "$T/joined" "$S"
		read_equal "dumpkit opens our split set as the source" \
		    "$T/joined" "$T/sp.3" "$T/sp.1" "$T/sp.2"
		# Against a conversion of one file of the same pages (the
		# descriptors' room is one per page of the input).
		conv "$T/sp.2" "$T/sp.1" "$T/sp.3" -o "$T/rejoined" &&
		    conv "$T/c-zlib.1" -o "$T/again" &&
		    cmp -s "$T/rejoined" "$T/again" &&
		    ok "dumpconv joins our split set into our plain file" ||
		    no "dumpconv joins our split set into our plain file"
	else
		no "dumpconv --split 3, makedumpfile --reassemble"
	fi
	# Re-filtering needs a real kernel's VMCOREINFO and memory.
	if [ -f "$REAL/mdf/mdf-lzo-d31.kdump" ]; then
		out=$(makedumpfile -c -d 31 "$T/c-zlib.1" "$T/refiltered" 2>&1)
		grep -q "makedumpfile Completed" <<<"$out" &&
		    "$BIN/dumpinfo" "$T/refiltered" >/dev/null &&
		    ok "makedumpfile -c -d 31 re-filters our conversion" ||
		    no "makedumpfile -c -d 31 re-filters our conversion" "$out"
	fi
else
	no "makedumpfile is installed (README's package list)"
fi

# --- nr_cpus of a vmcore's conversion: the header's int at 460 (LP64
# disk_dump_header), read by hand, is the count of NT_PRSTATUS notes
# readelf finds in the source (makedumpfile's rule; crash warns of 0).
"$BIN/dumpgen" -q --format vmcore --arch amd64 --mem 64M -o "$T/cpus.elf" &&
    conv "$T/cpus.elf" -o "$T/cpus.kdump" || no "a 2-CPU vmcore to kdump"
want=$(readelf -n "$T/cpus.elf" | grep -c NT_PRSTATUS)
got=$(python3 -c 'import struct, sys; print(struct.unpack_from("<i", open(sys.argv[1], "rb").read(464), 460)[0])' "$T/cpus.kdump")
[ "$want" -ge 2 ] && [ "$got" = "$want" ] &&
    ok "nr_cpus of a vmcore's conversion: $got, its NT_PRSTATUS notes" ||
    no "nr_cpus of a vmcore's conversion" "header $got, readelf $want"

# --- drgn: opens it without vmlinux, reads physical memory.
PY=/usr/bin/python3
if $PY -c 'import drgn' 2>/dev/null; then
	# drgn needs VMCOREINFO (it says "linux.vmcoreinfo.raw is not set"
	# of a QEMU firmware dump): the real kernel's cut file will do.
	DS=$S
	case $S in *mdf-*) ;; *) DS=$DATA/mdf-lzo-d31.head.xz
		conv "$DS" -o "$T/c-zlib.head" || no "convert $DS" ;; esac
	DK=$T/c-zlib.1
	[ "$DS" = "$S" ] || DK=$T/c-zlib.head
	# drgn picks three pages it reads that are not zero (the first,
	# middle and last below 4 GiB) and writes them out; dumpkit reads
	# the same addresses of the source.
	if $PY - "$DK" "$T/drgn" > "$T/drgn.pas" <<'EOF'
import sys, drgn
p = drgn.Program()
p.set_core_dump(sys.argv[1])
hit = []
for pa in range(0, 1 << 32, 4096):
    try:
        b = p.read(pa, 4096, True)
    except drgn.FaultError:
        continue
    if any(b):
        hit.append((pa, b))
for pa, b in (hit[:1] + hit[len(hit) // 2:len(hit) // 2 + 1] + hit[-1:]):
    open("%s.%x" % (sys.argv[2], pa), "wb").write(b)
    print("%x" % pa)
EOF
	then
		for pa in $(cat "$T/drgn.pas"); do
			"$BIN/dumpinfo" --read-pa "$pa:4096" --raw "$DS" > "$T/want" &&
			    cmp -s "$T/want" "$T/drgn.$pa" &&
			    ok "drgn reads physical 0x$pa of our file as dumpkit does" ||
			    no "drgn reads physical 0x$pa of our file as dumpkit does"
		done
		[ -s "$T/drgn.pas" ] || no "drgn read no page of our file"
	else
		no "drgn opens our file without vmlinux"
	fi
else
	no "python3-drgn is installed (README's package list)"
fi

# --- dumpgen --format kdump, against the pattern.
# Rows: amd64 and s390x (LP64, little and big), i386 (32-bit, packed
# sub header), arm and powerpc (32-bit, 8-aligned, little and big).
M=$((8 << 20))
for a in amd64 s390x i386 arm powerpc; do
	for v in 1 2 3 4 5 6; do
		for x in zlib,4k lzo,16k snappy,64k zstd,8k none,32k; do
			f="$T/g-$a-$v-$x"
			"$BIN/dumpgen" -q --format kdump --arch "$a" --version "$v" \
			    --variant "$x" --mem 8M -o "$f" ||
			    { no "dumpgen --format kdump $a v$v $x"; continue; }
			# libkdumpfile 0.5.1 reads a 32-bit sub header as
			# packed (QEMU's, i386's): version 6's 64-bit PFNs of
			# the 8-aligned one are past where it looks.
			if [ "$v" = 6 ] && { [ "$a" = arm ] || [ "$a" = powerpc ]; }
			then
				# dumpkit reads it, dumpconv rewrites it LP64.
				conv "$f" -o "$f.64" && "$KK" -p 1 -m $M "$f.64" \
				    > "$T/out" 2>&1 && pass=$((pass + 1)) ||
				    no "$a v$v $x: dumpkit, then libkdumpfile" \
				    "$(cat "$T/out")"
				continue
			fi
			"$KK" -p 1 -m $M "$f" > "$T/out" 2>&1 &&
			    pass=$((pass + 1)) ||
			    no "$a v$v $x: libkdumpfile reads the pattern" \
			    "$(cat "$T/out")"
		done
	done
done
echo "ok - dumpgen: 5 rows x 6 versions x 5 codecs and block sizes (counted above)"
gk() { "$BIN/dumpgen" -q --format kdump --arch amd64 --mem 8M "$@"; }
gk --variant excluded -o "$T/gx" && read_equal "excluded pages" \
    -p 1 -m $M -x "$T/gx"
expect_exit "excluded: dump level 31, bitmap 1 keeps them" 0 \
    'dump_level +31' "$BIN/dumpinfo" "$T/gx"
gk --variant zero,lzo -o "$T/gz" && read_equal "the shared zero page" \
    -p 1 -m $M -k "$T/gz"
gk --variant incomplete -o "$T/gi" && read_equal "incomplete: a prefix" \
    -p 1 -m $M -i "$T/gi"
expect_exit "incomplete: the header's flag" 0 'incomplete' \
    "$BIN/dumpinfo" "$T/gi"
# The old "DISKDUMP" signature, header version 0: block 1 all zeros (no
# kdump sub header), every page the fixture pattern (dumpcheck
# --pattern).  libkdumpfile 0.5.1 reads no page of a version 0 file (its
# PFN map is left empty when there is no sub header to read).
for v in diskdump diskdump,lzo,excluded diskdump,snappy,zero; do
	gk --variant "$v" -o "$T/gd" &&
	    [ "$(head -c 8 "$T/gd")" = DISKDUMP ] &&
	    [ "$(od -An -tu4 -j 8 -N4 "$T/gd" | tr -d ' ')" = 0 ] &&
	    [ -z "$(od -An -v -tx1 -j 4096 -N 4096 "$T/gd" | tr -d ' 0\n')" ] &&
	    out=$("$BIN/dumpcheck" --pattern 1 "$T/gd") &&
	    grep -q ' 0 errors' <<<"$out" &&
	    ok "dumpgen --variant $v: DISKDUMP, version 0, block 1 zero, the pattern" ||
	    no "dumpgen --variant $v" "${out:-}"
	rm -f "$T/gd"
done
expect_exit "--variant diskdump takes no --version" 3 'header version 0' \
    gk --variant diskdump --version 6 -o "$T/gd"
if have makedumpfile; then
	gk --variant flat,zstd -o "$T/gf" &&
	    makedumpfile -R "$T/gf.r" < "$T/gf" >/dev/null 2>&1 &&
	    read_equal "flattened (after makedumpfile -R)" -p 1 -m $M "$T/gf.r"
	gk --version 6 --variant split4,snappy -o "$T/gs" &&
	    makedumpfile --reassemble "$T/gs.1" "$T/gs.2" "$T/gs.3" "$T/gs.4" \
	    "$T/gs.j" >/dev/null 2>&1 &&
	    read_equal "split4 (after makedumpfile --reassemble)" -p 1 -m $M \
	    "$T/gs.j" || no "dumpgen split4, makedumpfile --reassemble"
fi

# --- Usage: which --compress set applies.
expect_exit "--to kdump --compress gzip is refused, naming the codecs" 3 \
    'zlib, lzo, snappy, zstd or none' conv --compress gzip "$S" -o "$T/u"
expect_exit "--compress zlib without --to kdump names both sets" 3 \
    'gzip, zstd or xz.*with --to kdump' "$BIN/dumpconv" --compress zlib \
    "$S" -o "$T/u"
expect_exit "a level out of range" 3 'zlib levels are 1 to 9' \
    conv --compress zlib:12 "$S" -o "$T/u"
expect_exit "--threads needs --to kdump" 3 'go with --to kdump' \
    "$BIN/dumpconv" --threads 2 "$S" -o "$T/u"
expect_exit "--info says what would be written" 0 \
    'codec: +zstd level 3' \
    conv --info --compress zstd:3 "$S"
[ ! -e "$T/u" ] && ok "nothing written by a refused command" ||
    no "nothing written by a refused command"
expect_exit "an existing output is not replaced without --force" 2 \
    'file exists' conv "$S" -o "$T/c-zlib.1"

# --- ENOSPC: nothing left at the target, and it says so.
mkdir -p "$T/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=512k tmpfs "$T/full" \
    2>/dev/null; then
	# With 4 threads the failing write is any thread's: each writes
	# the next batch in order when it has compressed one.
	for t in 1 4; do
		expect_exit "ENOSPC, --threads $t: an error that says so" 2 \
		    'No space left on device.*nothing was written' \
		    "$BIN/dumpconv" --to kdump --compress none --threads $t \
		    "$S" -o "$T/full/x"
		[ -z "$(ls -A "$T/full")" ] &&
		    ok "ENOSPC, --threads $t: nothing left behind" ||
		    no "ENOSPC, --threads $t: nothing left behind" \
		    "$(ls -la "$T/full")"
	done
	umount "$T/full"
else
	echo "# ENOSPC: no small tmpfs can be mounted here; skipped"
fi

# --- A signal mid-way: no temporary file, nothing at the target.  A
# 256 MiB core at zstd:19 takes seconds; the signal comes once every
# temporary file exists and the first has bytes.  env --default-signal: a
# background job of a script starts with SIGINT ignored, and dumpconv
# leaves an ignored signal ignored.
"$BIN/dumpgen" -q --arch amd64 --format elf --mem 256M -o "$T/sigsrc"
for x in "INT|130|" "TERM|143|" "INT|130|--split 3" "TERM|143|--split 3"; do
	IFS='|' read -r sig want opt <<<"$x"
	d=$T/sig-$sig-${opt:+split}
	mkdir -p "$d"
	n=1
	[ -n "$opt" ] && n=3
	env --default-signal=INT,TERM "$BIN/dumpconv" -q --to kdump \
	    --compress zstd:19 $opt "$T/sigsrc" -o "$d/out" &
	pid=$!
	for _ in $(seq 250); do
		[ "$(find "$d" -name 'out*.dumpkit-*' | wc -l)" -ge "$n" ] &&
		    [ -n "$(find "$d" -name 'out*.dumpkit-*' -size +0)" ] &&
		    break
		sleep 0.02
	done
	seen=$(ls "$d" | tr '\n' ' ')
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" = "$want" ] && [ -n "$seen" ] && [ -z "$(ls -A "$d")" ] &&
	    ok "SIG$sig ${opt:-one file}: killed mid-way (exit $rc; there were $seen), nothing left" ||
	    no "SIG$sig ${opt:-one file}: nothing left" \
	    "exit $rc (expected $want), before: $seen, after: $(ls -A "$d")"
done

# The eraseinfo (--variant eraseinfo): its offset and size read from the
# sub header by hand (kdump_sub_header of an LP64 writer at block 1:
# offset_eraseinfo int64 at 64, size_eraseinfo u64 at 72), the text at
# that offset the lines docs/kdump-write.md gives, right after the pages;
# makedumpfile -R of the flattened form gives the plain file byte for
# byte; dumpconv --to kdump (another codec) carries the same text.
cat > "$T/erase.py" <<'EOF'
import struct, sys
f = open(sys.argv[1], 'rb').read()
o, n = struct.unpack_from('<qQ', f, 4096 + 64)
sys.stdout.write('%d %d %d\n' % (o, n, len(f)))
sys.stdout.flush()
sys.stdout.buffer.write(f[o:o + n])
EOF
printf 'erase modules size 4096\nerase jiffies_64 size 8\nerase init_task.comm size 16\n' > "$T/erase.want"
"$BIN/dumpgen" -q --format kdump --arch amd64 --mem 16M --variant eraseinfo -o "$T/er.kdump" &&
"$BIN/dumpgen" -q --format kdump --arch amd64 --mem 16M --variant eraseinfo,flat -o "$T/erf.kdump" &&
"$BIN/dumpconv" -q --to kdump --compress lzo -o "$T/erc.kdump" "$T/er.kdump" || no "eraseinfo files written" "exit $?"
for f in er erc; do
	python3 "$T/erase.py" "$T/$f.kdump" > "$T/$f.got"
	read -r o n len < "$T/$f.got"
	if tail -n +2 "$T/$f.got" | cmp -s - "$T/erase.want" && [ $((o + n)) -eq "$len" ] &&
	    [ "$n" -eq "$(wc -c < "$T/erase.want")" ]; then
		ok "eraseinfo of $f.kdump: $n bytes at $o, the file's end, the lines given"
	else
		no "eraseinfo of $f.kdump" "$(head -1 "$T/$f.got")"
	fi
done
makedumpfile -R "$T/erf.plain" < "$T/erf.kdump" > /dev/null 2>&1
cmp -s "$T/erf.plain" "$T/er.kdump" && ok "makedumpfile -R of the flattened eraseinfo file: the plain file" ||
    no "makedumpfile -R of the flattened eraseinfo file" "differs from the plain one"
"$BIN/dumpcheck" -q "$T/er.kdump" && "$BIN/dumpcheck" -q "$T/erf.kdump" &&
    ok "dumpcheck: eraseinfo files clean" || no "dumpcheck: eraseinfo files" "not clean"
expect_exit "dumpgen --variant eraseinfo --version 4: refused" 3 "version 5 on, not 4" "$BIN/dumpgen" -q --format kdump --arch amd64 --mem 16M --variant eraseinfo --version 4 -o "$T/er4.kdump"
# makedumpfile reads our eraseinfo: re-filtering copies the input's into
# its output (it needs a real kernel's VMCOREINFO and memory, as above).
# The real file gets an eraseinfo by hand: text appended, its offset and
# size at sub header bytes 64 and 72.
if [ -f "$REAL/mdf/mdf-lzo-d31.kdump" ] && have makedumpfile; then
	python3 - "$REAL/mdf/mdf-lzo-d31.kdump" "$T/er-real" <<'PY'
import struct, sys
f = bytearray(open(sys.argv[1], 'rb').read())
t = b'erase modules size 4096\nerase jiffies_64 size 8\n'
struct.pack_into('<qQ', f, 4096 + 64, len(f), len(t))
open(sys.argv[2], 'wb').write(f + t)
PY
	head -2 "$T/erase.want" > "$T/er-real.want"
	conv "$T/er-real" -o "$T/er-ours" &&
	    makedumpfile -c -d 31 "$T/er-ours" "$T/er-mdf" >/dev/null 2>&1 &&
	    python3 "$T/erase.py" "$T/er-mdf" | tail -n +2 |
	    cmp -s - "$T/er-real.want" &&
	    ok "makedumpfile -c -d 31 of our conversion keeps our eraseinfo" ||
	    no "makedumpfile -c -d 31 of our conversion keeps our eraseinfo" \
	    "$(python3 "$T/erase.py" "$T/er-mdf" 2>&1 | head -3)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
