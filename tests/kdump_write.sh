#!/usr/bin/env bash
# End-to-end tests of the kdump writer (issue 14): dumpconv --to kdump and
# dumpgen --format kdump, read by tools nobody here wrote.
#  - libkdumpfile (tests/kdumpfile_kdump.c) reads every page of our
#    conversion equal to what dumpkit reads from the source: generated
#    minidumps and full ELF cores of several architectures, the real kdump
#    files of tests/data/kdump/ and, where make-real-dumps.sh made them,
#    those of /tmp/realdumps/dumps (REAL_DUMPS);
#  - every codec, and the same bytes for --threads 1, 2 and 4;
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

# --- Every codec; the same bytes with 1, 2 and 4 threads.
for c in zlib zlib:6 lzo lzo:9 snappy zstd zstd:3 none; do
	f="$T/c-$c"
	conv --compress "$c" "$S" -o "$f.1" &&
	    conv --compress "$c" --threads 2 "$S" -o "$f.2" &&
	    conv --compress "$c" --threads 4 "$S" -o "$f.4" || {
		no "dumpconv --to kdump --compress $c"; continue; }
	cmp -s "$f.1" "$f.2" && cmp -s "$f.1" "$f.4" &&
	    ok "$c: the same bytes with --threads 1, 2 and 4" ||
	    no "$c: the same bytes with --threads 1, 2 and 4"
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

# --- Flattened: -o - to a pipe; makedumpfile -R; dumpkit reads it too.
if have makedumpfile; then
	conv "$S" -o - | cat > "$T/flat" &&
	    makedumpfile -R "$T/rearranged" < "$T/flat" >/dev/null 2>&1 &&
	    cmp -s "$T/rearranged" "$T/c-zlib.1" &&
	    ok "makedumpfile -R of our -o - stream is our plain file" ||
	    no "makedumpfile -R of our -o - stream is our plain file"
	read_equal "dumpkit reads our flattened file as the source" \
	    "$T/c-zlib.1" "$T/flat"
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
	expect_exit "ENOSPC: an error that says so" 2 \
	    'No space left on device.*nothing was written' \
	    "$BIN/dumpconv" --to kdump --compress none "$S" -o "$T/full/x"
	[ -z "$(ls -A "$T/full")" ] && ok "ENOSPC: nothing left behind" ||
	    no "ENOSPC: nothing left behind" "$(ls -la "$T/full")"
	umount "$T/full"
else
	echo "# ENOSPC: no small tmpfs can be mounted here; skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
