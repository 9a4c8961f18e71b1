#!/usr/bin/env bash
# How kdump-compressed files' stored pages re-encode (formats/kdump_reenc.c,
# the way back of source kind 5, docs/portable-elf-minidump.md 10.3),
# held against the producers' known encoders and against Python's zlib.
#
#   - The real files of tests/data/kdump and the real crash: the survey
#     finds makedumpfile's and QEMU's encoders (zlib compress2 level 1,
#     lzo1x_1: their source code's calls), and no page and no non-zero
#     byte past the descriptors left over in the whole files; in the cut
#     mdf-*-d31.head files only their partial last page.
#   - Python's zlib (not dumpkit's code) decodes the first stored pages
#     of the real zlib file at the offsets of its descriptors and
#     re-encodes them at level 1: the same bytes.
#   - dumpconv --to kdump at a codec and level: the survey names
#     dumpkit's encoder and that level.
#   - One page of a libdeflate level-9 file replaced (with its descriptor's
#     size) by Python's zlib level-1 encoding of the same page: the survey
#     counts exactly that page, and its bytes, as residue.
#   - A page that does not decode: the survey fails (exit 1) naming the
#     PFN dumpcheck names for it.
#
# Needs python3, xz.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
SURVEY=$(cd "$B/tests" && pwd)/kdump_reenc
DATA=$(cd "$(dirname "$0")/data" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/kdump_reenc.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { echo "ok - $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - $1"; fail=$((fail + 1)); }

# expect FILE 'TEXT' LABEL: the survey of FILE prints TEXT (a fixed string).
expect() {
	local out
	if ! out=$("$SURVEY" "$1" 2>&1); then
		not_ok "$3: $out"
	elif grep -qF -- "$2" <<<"$out"; then
		ok "$3"
	else
		not_ok "$3: expected '$2', found: $(tr '\n' ';' <<<"$out")"
	fi
}

# The real files: encoder, pages, and what is left over.
K=$DATA/kdump
expect "$K/mdf-zlib-d31.head.xz" "zlib 42 pages: zlib compress2 level 1, 0 differ" \
    "makedumpfile -c: compress2 level 1 reproduces its 42 zlib pages"
# (nonzero: the span from the first non-zero byte to the last; here the
# cut page's 1347 bytes, whose last 3 are zero, as the residue keeps it)
expect "$K/mdf-zlib-d31.head.xz" "residue 0 gap 1347 nonzero 1347" \
    "makedumpfile -c, cut: only the partial last page is left over"
expect "$K/mdf-lzo-d31.head.xz" "lzo 35 pages: lzo1x_1 level 1, 0 differ" \
    "makedumpfile -l: lzo1x_1 reproduces its 35 lzo pages"
expect "$K/mdf-none-d31.head.xz" "plain 22 shared 6058" \
    "makedumpfile, no codec: 22 pages as they are, 6058 on the zero page"
for f in mdf-split8-lzo-d31.4 mdf-split8-lzo-d31.5; do
	expect "$K/$f.xz" "lzo1x_1 level 1, 0 differ" \
	    "makedumpfile --split part $f: lzo1x_1, no page left over"
	expect "$K/$f.xz" "residue 0 gap" "$f: residue 0"
done
for f in x86_64-fw.kdump-zlib.flat s390x-fw.kdump-zlib.flat \
    s390x-fw.kdump-zlib riscv64-fw.kdump-zlib.flat ppc64-fw.kdump-zlib.flat; do
	expect "$K/$f.xz" "zlib compress2 level 1, 0 differ" \
	    "QEMU $f: compress2 level 1 reproduces every zlib page"
	# QEMU writes its zero page first, a block of zeros the first
	# descriptor's page comes after and the zero pages' point back at.
	b=4096
	[ "${f#ppc64}" != "$f" ] && b=65536
	expect "$K/$f.xz" "residue 0 gap $b nonzero 0" \
	    "QEMU $f: nothing left over (the zero page: $b zero bytes)"
done
expect "$DATA/linux/real-x86_64.kdump.xz" \
    "zlib 36 pages: zlib compress2 level 1, 0 differ" \
    "the real crash: compress2 level 1 reproduces its 36 zlib pages"
expect "$DATA/linux/real-x86_64.kdump.xz" "residue 0 gap 16208363 nonzero 0" \
    "the real crash: its holes are zeros"

# Python's zlib on the real zlib file's first pages, at its descriptors.
xz -dc "$K/mdf-zlib-d31.head.xz" >"$T/mdf.kdump"
desc=$("$BIN/dumpinfo" "$T/mdf.kdump" 2>/dev/null | awk '$1 == "descriptors" {print $3}')
if python3 - "$T/mdf.kdump" "$desc" >"$T/py.out" 2>&1 <<'PY'
import struct, sys, zlib
f = open(sys.argv[1], 'rb').read()
d = int(sys.argv[2], 16)
same = tried = 0
for i in range(20000):
    off, size, flags, _ = struct.unpack_from('<QIIQ', f, d + 24 * i)
    if flags & 1 and off + size <= len(f):
        page = zlib.decompress(f[off:off + size])
        tried += 1
        same += zlib.compress(page, 1) == f[off:off + size]
    if tried == 10:
        break
print(tried, same)
PY
then
	if [ "$(cat "$T/py.out")" = "10 10" ]; then
		ok "Python's zlib level 1 gives the first 10 zlib pages' bytes"
	else
		not_ok "Python's zlib: tried, same = $(cat "$T/py.out")"
	fi
else
	not_ok "python3: $(cat "$T/py.out")"
fi

# dumpkit's writer: libdeflate, lzo, snappy, zstd at the level given.
src=$K/x86_64-fw.kdump-zlib.flat.xz
for c in zlib:1:"libdeflate level 1" zlib:7:"libdeflate level 7" \
    lzo:1:"lzo1x_1 level 1" lzo:9:"lzo1x_999 level 9" \
    zstd:3:"zstd level 3" snappy::"snappy level 0"; do
	codec=${c%%:*}; rest=${c#*:}; lvl=${rest%%:*}; enc=${rest#*:}
	o=$T/conv-$codec$lvl.kdump
	if ! "$BIN/dumpconv" --to kdump --compress "$codec${lvl:+:$lvl}" \
	    -o "$o" "$src" >/dev/null 2>"$T/err"; then
		not_ok "dumpconv --to kdump $codec:$lvl: $(cat "$T/err")"
		continue
	fi
	expect "$o" "$enc, 0 differ" "dumpconv --to kdump $codec${lvl:+:$lvl}: $enc"
done

# A page whose encoding is not the file's encoder's: residue, exactly it.
if python3 - "$T/conv-zlib7.kdump" "$T/mixed.kdump" \
    "$("$BIN/dumpinfo" "$T/conv-zlib7.kdump" | awk '$1 == "descriptors" {print $3}')" \
    >"$T/py.out" 2>&1 <<'PY'
import struct, sys, zlib
f = bytearray(open(sys.argv[1], 'rb').read())
d = int(sys.argv[3], 16)
n = 0
for i in range(100000):
    at = d + 24 * i
    off, size, flags, _ = struct.unpack_from('<QIIQ', f, at)
    if flags & 1:
        n += 1
        if n >= 40:	# past the sample: re-encoded by the chosen encoder
            page = zlib.decompress(bytes(f[off:off + size]))
            z = zlib.compress(page, 1)
            if len(z) > size or z == f[off:off + size]:
                continue
            f[off:off + len(z)] = z
            f[off + len(z):off + size] = bytes(size - len(z))
            struct.pack_into('<I', f, at + 8, len(z))
            print(len(z))
            break
open(sys.argv[2], 'wb').write(f)
PY
then
	z=$(cat "$T/py.out")
	expect "$T/mixed.kdump" "residue $z " \
	    "one page re-encoded by another encoder: its $z bytes are residue"
	expect "$T/mixed.kdump" "libdeflate level 7, 1 differ" \
	    "one page re-encoded by another encoder: exactly 1 page differs"
else
	not_ok "python3: $(cat "$T/py.out")"
fi

# A page that does not decode: the survey fails naming its offset and the
# PFN dumpcheck names for it (the validator walks the bitmap on its own).
python3 - "$T/conv-zlib7.kdump" "$T/bad.kdump" \
    "$("$BIN/dumpinfo" "$T/conv-zlib7.kdump" 2>/dev/null | awk '$1 == "descriptors" {print $3}')" <<'PY'
import struct, sys
f = bytearray(open(sys.argv[1], 'rb').read())
d = int(sys.argv[3], 16)
n = 0
for i in range(100000):
    off, size, flags, _ = struct.unpack_from('<QIIQ', f, d + 24 * i)
    if flags & 1:
        n += 1
        if n == 50:
            f[off + 2:off + 12] = b'\xff' * 10
            break
open(sys.argv[2], 'wb').write(f)
PY
pfn=$("$BIN/dumpcheck" "$T/bad.kdump" 2>&1 | sed -n 's/.*kdump.page-corrupt: PFN \(0x[0-9a-f]*\).*/\1/p' | head -1)
if out=$("$SURVEY" "$T/bad.kdump" 2>&1); then
	not_ok "a page that does not decode: the survey succeeds: $out"
elif [ -n "$pfn" ] && grep -q "PFN $pfn: .* do not decompress" <<<"$out"; then
	ok "a page that does not decode: exit 1, PFN $pfn as dumpcheck says"
else
	not_ok "a page that does not decode: dumpcheck PFN '$pfn', survey: $out"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
