#!/usr/bin/env python3
# kdump_portable.py -- the independent half of tests/kdump_portable.sh:
# makedumpfile's kdump-compressed format and the portable ELF minidump
# (docs/portable-elf-minidump.md 3, 6, 10.3) parsed by hand, with no
# dumpkit code.  The kdump layout is makedumpfile's (diskdump_mod.h):
# formats/fmt_kdump.c's opening comment and formats/kdump_layout.c's
# tables give the same offsets.
#
#   kdump_portable.py notes SRC
#       The ELF notes of the kdump file SRC's offset_note/size_note area
#       (flattened files rearranged first): "CORE-PRSTATUS N VMCOREINFO N"
#       on the first line, then one "OWNER 0xDESCSZ" line per note (the
#       notes readelf -nW must list in the portable file), less dumpkit's.
#   kdump_portable.py readelf-notes READELF_NW_OUTPUT
#       The same lines from readelf -nW's output, less dumpkit's notes.
#   kdump_portable.py pages SRC PORTABLE N
#       Bitmap 2 and the descriptors of SRC against the portable file's
#       info note and physical PT_LOADs: the PFNs the PT_LOADs cover are
#       exactly the pages SRC holds; the first N of those, the first N
#       a codec encodes and the last N/4, decoded here (zlib: Python's zlib; lzo, snappy: the decoders
#       below; zstd: the zstd tool; none: raw) equal the portable file's
#       bytes at PFN * block_size.  Exit 0 with a summary line, 1 with
#       the differences.
#   kdump_portable.py info PORTABLE
#       "data_offset npages_stored page_size size": for cutting the file.
#   kdump_portable.py encoders PORTABLE
#       The encoders note, one "codec=C encoder=E level=L" per codec,
#       then "image=SIZE" and the length of anything after it.
#   kdump_portable.py damage-page PORTABLE SRC OUT coded|plain
#       OUT is PORTABLE with one bit flipped in a page (not of zeros) that
#       SRC stores with a codec (coded) or as it is (plain).
#   kdump_portable.py damage-enc PORTABLE OUT KIND
#       OUT is PORTABLE with its encoders note changed: KIND level (the
#       first codec's level + 1, or 9 -> 8; an encoder without levels
#       gets another encoder of its codec), encoder (the first codec's
#       encoder replaced by another of the same codec), codec (the first
#       entry made another codec's, one no descriptor uses), size (the
#       image size + 4096).  Prints what it changed; exit 1 if nothing could be.
import os
import struct
import subprocess
import sys
import tempfile
import zlib

NT_DK_INFO = 0x444b0001
NT_DK_SOURCE_HEADER = 0x444b0002
NT_DK_ENCODERS = 0x444b000a
NT_DK_RECORDS = 0x444b000b
CODECS = {1: 'zlib', 2: 'lzo', 4: 'snappy', 0x20: 'zstd'}
# Encoder ids of 10.3, per codec, and their levels.
ENCODERS = {1: [(1, range(1, 10)), (2, range(1, 13))], 2: [(3, [0, 1]), (4, [0, 9])],
            4: [(5, [0])], 0x20: [(6, range(1, 23))]}


def die(msg):
    sys.exit('kdump_portable.py: ' + msg)


# ---------------------------------------------------------------------------
# Flattened files (makedumpfile -F): a 4096-byte header, then records of a
# big-endian s64 offset and size and size bytes, ended by offset -1.

def rearrange(b):
    if b[:12] != b'makedumpfile':
        return b
    img = bytearray()
    o = 4096
    while o + 16 <= len(b):
        off, size = struct.unpack_from('>qq', b, o)
        o += 16
        if off == -1:
            break
        if off + size > len(img):
            img.extend(bytes(off + size - len(img)))
        img[off:off + size] = b[o:o + size]
        o += size
    return bytes(img)


# ---------------------------------------------------------------------------
# The kdump file.

class Kdump:
    def __init__(self, path):
        raw = open(path, 'rb').read()
        self.flat = raw[:12] == b'makedumpfile'
        self.raw = raw
        b = self.b = rearrange(raw)
        if b[:8] not in (b'KDUMP   ', b'DISKDUMP'):
            die('%s: not a kdump file' % path)
        for E in '<>':
            v = struct.unpack_from(E + 'i', b, 8)[0]
            if 0 <= v <= 6:
                break
        else:
            die('%s: header_version unreadable' % path)
        self.E, self.version = E, v
        # The LP64 header (block_size at 428) or the 32-bit one (416).
        for bits, at in ((64, 424), (32, 412)):
            st, blk, sub, bmb, mapnr = struct.unpack_from(E + 'IiiII', b, at)
            if 4096 <= blk <= 65536 and blk & (blk - 1) == 0 and \
                    sub >= 1 and bmb > 0 and bmb % 2 == 0:
                break
        else:
            die('%s: no consistent header layout' % path)
        self.bits, self.status, self.block = bits, st, blk
        self.sub_hdr_size, self.bitmap_blocks, self.max_mapnr = sub, bmb, mapnr
        s = blk
        end_sub = (1 + sub) * blk
        self.split, self.start, self.end = 0, 0, None
        self.off_note = self.size_note = 0
        if bits == 64:
            L = dict(split=(12, 'i'), start=(16, 'Q'), end=(24, 'Q'),
                     onote=(48, 'q'), snote=(56, 'Q'), ovmci=(32, 'q'),
                     s64=(80, 'Q'), e64=(88, 'Q'), m64=(96, 'Q'))
        else:
            packed = dict(split=(8, 'i'), start=(12, 'I'), end=(16, 'I'),
                          ovmci=(20, 'q'), onote=(32, 'q'), snote=(40, 'I'),
                          s64=(56, 'Q'), e64=(64, 'Q'), m64=(72, 'Q'))
            pad = dict(split=(8, 'i'), start=(12, 'I'), end=(16, 'I'),
                       ovmci=(24, 'q'), onote=(40, 'q'), snote=(48, 'I'),
                       s64=(72, 'Q'), e64=(80, 'Q'), m64=(88, 'Q'))
            L = packed
            key = 'onote' if v >= 4 else 'ovmci' if v >= 3 else None
            if key:
                o = struct.unpack_from(E + packed[key][1], b, s + packed[key][0])[0]
                if not blk <= o < end_sub:
                    L = pad
        g = lambda k: struct.unpack_from(E + L[k][1], b, s + L[k][0])[0]
        if v >= 2:
            self.split = g('split')
            self.start, self.end = g('start'), g('end')
        if v >= 4:
            self.off_note, self.size_note = g('onote'), g('snote')
        if v >= 6:
            self.start, self.end = g('s64'), g('e64')
            self.max_mapnr = g('m64')
        half = bmb // 2 * blk
        self.off_bm1 = end_sub
        self.off_bm2 = end_sub + half
        self.off_desc = end_sub + 2 * half
        nbits = half * 8
        if not self.split:
            self.start, self.end = 0, min(self.max_mapnr, nbits)
        self.bm1 = b[self.off_bm1:self.off_bm1 + half]
        self.bm2 = b[self.off_bm2:self.off_bm2 + half]

    @staticmethod
    def setbits(bm, lo, hi):
        for i in range(lo // 8, (hi + 7) // 8):
            x = bm[i]
            while x:
                low = x & -x
                pfn = i * 8 + low.bit_length() - 1
                if lo <= pfn < hi:
                    yield pfn
                x ^= low

    def descriptors(self):
        """(pfn, offset, size, flags) for every set bit of bitmap 2 in range."""
        E = self.E
        for k, pfn in enumerate(self.setbits(self.bm2, self.start, self.end)):
            at = self.off_desc + 24 * k
            if at + 24 > len(self.b):
                yield pfn, None, 0, 0
                continue
            off, size, flags = struct.unpack_from(E + 'qII', self.b, at)
            yield pfn, off, size, flags

    def held(self, d):
        """Does the file hold the page of descriptor d?"""
        pfn, off, size, flags = d
        return off is not None and size > 0 and off >= 0 and \
            off + size <= len(self.b) and (flags & 0x27 != 0 or size == self.block)

    def notes(self):
        b, E = self.b, self.E
        o, end = self.off_note, self.off_note + self.size_note
        out = []
        while o + 12 <= end:
            nsz, dsz, typ = struct.unpack_from(E + 'III', b, o)
            name = b[o + 12:o + 12 + nsz].rstrip(b'\0').decode('latin-1')
            nxt = o + 12 + (nsz + 3) // 4 * 4 + (dsz + 3) // 4 * 4
            if nxt > end:
                break
            out.append((name, typ, dsz))
            o = nxt
        return out


# ---------------------------------------------------------------------------
# Page decoders, written from the formats' descriptions (LZO1X: the Linux
# kernel's Documentation/staging/lzo.rst; snappy: format_description.txt).

def lzo1x_decompress(src, want):
    out = bytearray()
    ip = 0

    def copy_match(dist, n):
        p = len(out) - dist
        if p < 0:
            raise ValueError('lzo: distance %d past the start' % dist)
        for k in range(n):
            out.append(out[p + k])

    def zlen(ip, base):
        n = 0
        while src[ip] == 0:
            n += 255
            ip += 1
        return n + base + src[ip], ip + 1

    t = src[0]
    state = 0
    if t > 17:
        n = t - 17
        out += src[1:1 + n]
        ip = 1 + n
        state = 4 if n >= 4 else n
    while True:
        t = src[ip]
        ip += 1
        if t < 16:
            if state == 0:
                n = t
                if n == 0:
                    n, ip = zlen(ip, 15)
                n += 3
                out += src[ip:ip + n]
                ip += n
                state = 4
                continue
            if state < 4:
                dist = (src[ip] << 2) + ((t >> 2) & 3) + 1
                n = 2
            else:
                dist = (src[ip] << 2) + ((t >> 2) & 3) + 2049
                n = 3
            ip += 1
            copy_match(dist, n)
            s = t & 3
        elif t < 32:
            n = t & 7
            if n == 0:
                n, ip = zlen(ip, 7)
            n += 2
            d = src[ip] | src[ip + 1] << 8
            ip += 2
            dist = 16384 + ((t & 8) << 11) + (d >> 2)
            if dist == 16384:
                break
            copy_match(dist, n)
            s = d & 3
        elif t < 64:
            n = t & 31
            if n == 0:
                n, ip = zlen(ip, 31)
            n += 2
            d = src[ip] | src[ip + 1] << 8
            ip += 2
            copy_match((d >> 2) + 1, n)
            s = d & 3
        else:
            if t < 128:
                n = 3 + ((t >> 5) & 1)
            else:
                n = 5 + ((t >> 5) & 3)
            dist = (src[ip] << 3) + ((t >> 2) & 7) + 1
            ip += 1
            copy_match(dist, n)
            s = t & 3
        out += src[ip:ip + s]
        ip += s
        state = s
    if len(out) != want:
        raise ValueError('lzo: %d bytes, not %d' % (len(out), want))
    return bytes(out)


def snappy_decompress(src, want):
    ip, n, shift = 0, 0, 0
    while True:
        c = src[ip]
        ip += 1
        n |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            break
    out = bytearray()
    while ip < len(src):
        tag = src[ip]
        ip += 1
        kind = tag & 3
        if kind == 0:
            ln = tag >> 2
            if ln >= 60:
                k = ln - 59
                ln = int.from_bytes(src[ip:ip + k], 'little')
                ip += k
            ln += 1
            out += src[ip:ip + ln]
            ip += ln
            continue
        if kind == 1:
            ln = ((tag >> 2) & 7) + 4
            off = ((tag >> 5) << 8) | src[ip]
            ip += 1
        elif kind == 2:
            ln = (tag >> 2) + 1
            off = int.from_bytes(src[ip:ip + 2], 'little')
            ip += 2
        else:
            ln = (tag >> 2) + 1
            off = int.from_bytes(src[ip:ip + 4], 'little')
            ip += 4
        p = len(out) - off
        if off == 0 or p < 0:
            raise ValueError('snappy: bad offset %d' % off)
        for k in range(ln):
            out.append(out[p + k])
    if len(out) != n or n != want:
        raise ValueError('snappy: %d bytes, header %d, want %d' % (len(out), n, want))
    return bytes(out)


def zstd_decompress_many(frames, block):
    """The zstd tool decodes the concatenated frames (one per page)."""
    if not frames:
        return []
    r = subprocess.run(['zstd', '-dcq'], input=b''.join(frames),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0 or len(r.stdout) != block * len(frames):
        raise ValueError('zstd -dc: exit %d, %d bytes for %d pages: %s' % (
            r.returncode, len(r.stdout), len(frames), r.stderr.decode()))
    return [r.stdout[i * block:(i + 1) * block] for i in range(len(frames))]


# ---------------------------------------------------------------------------
# The portable file.

class Portable:
    def __init__(self, path):
        self.f = open(path, 'rb')
        self.size = self.f.seek(0, 2)
        # read(), not mmap: a read fault in a tmpfs hole fills it.
        self.f.seek(0)
        self.m = self.f.read()
        m = self.m
        if m[:4] != b'\x7fELF' or m[4] != 2:
            die('%s: not an ELFCLASS64 file' % path)
        E = self.E = '<' if m[5] == 1 else '>'
        phoff, = struct.unpack_from(E + 'Q', m, 32)
        shoff, = struct.unpack_from(E + 'Q', m, 40)
        phnum, = struct.unpack_from(E + 'H', m, 56)
        if phnum == 0xffff:
            phnum, = struct.unpack_from(E + 'I', m, shoff + 44)
        self.ph = [struct.unpack_from(E + 'IIQQQQQQ', m, phoff + 56 * i)
                   for i in range(phnum)]
        self.notes = []
        for p in self.ph:
            if p[0] != 4:
                continue
            o, end = p[2], p[2] + p[5]
            while o + 12 <= end:
                nsz, dsz, typ = struct.unpack_from(E + 'III', m, o)
                name = m[o + 12:o + 12 + nsz].rstrip(b'\0').decode('latin-1')
                d = o + 12 + (nsz + 3) // 4 * 4
                self.notes.append((name, typ, d, dsz, o))
                o = d + (dsz + 3) // 4 * 4
        self.info = None
        for name, typ, d, dsz, _ in self.notes:
            if name == 'dumpkit' and typ == NT_DK_INFO and dsz >= 120:
                self.info = dict(zip(
                    ('version', 'source_format', 'source_version', 'page_size'),
                    struct.unpack_from(E + 'IIII', m, d)))
                self.info['flags'], = struct.unpack_from(E + 'I', m, d + 36)
                (self.info['data_offset'], self.info['npages'],
                 self.info['npages_stored'], self.info['nphys']) = \
                    struct.unpack_from(E + 'QQQQ', m, d + 88)
                break
        loads = [p for p in self.ph if p[0] == 1]
        n = self.info['nphys'] if self.info else len(loads)
        # (paddr, offset, filesz) of the physical PT_LOADs
        self.phys = [(p[4], p[2], p[5]) for p in loads[:n]]
        self.physph = loads[:n]
        self.e_type, self.e_machine = struct.unpack_from(E + 'HH', m, 16)

    def note(self, typ):
        for name, t, d, dsz, o in self.notes:
            if name == 'dumpkit' and t == typ:
                return d, dsz, o
        return None

    def offset_pa(self, pa):
        lo = max(j for j, x in enumerate(self.phys) if x[0] <= pa)
        a, off, sz = self.phys[lo]
        return off + pa - a

    def is_hole(self, o, n):
        """No data in [o, o + n) (SEEK_DATA), or past the end."""
        if o >= self.size:
            return True
        try:
            return os.lseek(self.f.fileno(), o, os.SEEK_DATA) >= o + n
        except OSError:
            return True		# ENXIO: no data after o

    def read_pa(self, pa, n):
        lo, hi = 0, len(self.phys)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.phys[mid][0] <= pa:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            return None
        a, off, sz = self.phys[lo - 1]
        if pa + n > a + sz:
            return None
        o = off + pa - a
        b = self.m[o:o + n]
        return b + bytes(n - len(b))


# ---------------------------------------------------------------------------

def holes_work(path):
    """Does the file system of path keep 4 KiB holes (SEEK_DATA skips them)?"""
    d = os.path.dirname(os.path.abspath(path))
    try:
        fd, t = tempfile.mkstemp(dir=d)
    except OSError:
        return False
    try:
        # A hole of one 4 KiB page between two written ones.
        os.pwrite(fd, b'x', 0)
        os.pwrite(fd, b'x', 8192)
        return os.lseek(fd, 4096, os.SEEK_DATA) == 8192
    except OSError:
        return False
    finally:
        os.close(fd)
        os.unlink(t)


def cmd_notes(src):
    k = Kdump(src)
    ns = [x for x in k.notes() if x[0] != 'dumpkit']
    print('CORE-PRSTATUS %d VMCOREINFO %d' % (
        sum(1 for n, t, _ in ns if n == 'CORE' and t == 1),
        sum(1 for n, t, _ in ns if n == 'VMCOREINFO')))
    for n, t, dsz in ns:
        print('%s 0x%08x' % (n, dsz))


def cmd_readelf_notes(path):
    for line in open(path, encoding='latin-1'):
        w = line.split()
        if len(w) >= 2 and w[1].startswith('0x') and w[0] not in ('Owner', 'dumpkit'):
            print('%s %s' % (w[0], w[1]))


def cmd_info(path):
    p = Portable(path)
    i = p.info
    print(i['data_offset'], i['npages_stored'], i['page_size'], p.size)


def cmd_pages(src, port, n):
    k = Kdump(src)
    p = Portable(port)
    bad = []
    i = p.info
    if i is None:
        die('%s: no info note' % port)
    descs = list(k.descriptors())
    held = [d for d in descs if k.held(d)]
    incomplete = bool(k.status & 8)
    want = dict(version=1, source_format=5, source_version=k.version,
                page_size=k.block,
                # bitmap 2's pages in the file's PFN range (one
                # descriptor each), as the other kinds count the pages
                # their bitmaps mark dumped
                npages=len(descs),
                npages_stored=len(held))
    for f, v in want.items():
        if i[f] != v:
            bad.append('info note: %s %d, the source says %d' % (f, i[f], v))
    trunc = incomplete or len(held) < len(descs)
    if bool(i['flags'] & 4) != trunc:
        bad.append('info note: flags %#x: bit 2 (truncated) %s, but the source '
                   'has %d of %d pages%s' % (i['flags'], 'set' if i['flags'] & 4 else 'clear',
                                             len(held), len(descs),
                                             ', the incomplete flag' if incomplete else ''))
    # The ELF header and the PT_LOADs' fields (sections 1, 2; 10.3).
    if p.E != k.E:
        bad.append('EI_DATA %s, the source is %s-endian' % (
            p.E, 'little' if k.E == '<' else 'big'))
    if p.e_type != 4 or p.ph[0][0] != 4:
        bad.append('e_type %d, program header 0 of type %d' % (p.e_type, p.ph[0][0]))
    # p_vaddr: the direct map, as the kernel's VMCOREINFO gives it
    # (NUMBER(PAGE_OFFSET) less the RAM base), else on x86_64 without
    # KASLR (KERNELOFFSET=0) the fixed 4- or 5-level base; else 0.
    o = k.b.find(b'VMCOREINFO\0', k.off_note, k.off_note + k.size_note) \
        if k.size_note else -1
    vi = {}
    if o >= 0:
        for line in k.b[o + 12:k.off_note + k.size_note].split(b'\n'):
            if b'=' in line:
                key, _, val = line.partition(b'=')
                vi[key.decode('ascii', 'replace')] = val.split(b'\0')[0].decode(
                    'ascii', 'replace')
    dm = 0
    try:
        if 'NUMBER(PAGE_OFFSET)' in vi:
            base = int(vi.get('NUMBER(phys_ram_base)',
                              vi.get('NUMBER(PHYS_OFFSET)', '0')), 0)
            v = int(vi['NUMBER(PAGE_OFFSET)'], 0)
            dm = v - base if v >= base else 0
        elif p.e_machine == 62 and int(vi.get('KERNELOFFSET', 'x'), 16) == 0:
            dm = 0xff11000000000000 if vi.get('NUMBER(pgtable_l5_enabled)') == '1' \
                else 0xffff888000000000
    except ValueError:
        dm = 0
    for t, fl, off, va, pa, fsz, msz, al in p.physph:
        want = pa + dm if dm else 0
        if fl != 7 or fsz != msz or al != k.block or va != want:
            bad.append('PT_LOAD at %#x: p_flags %d, p_filesz %#x, p_memsz %#x, '
                       'p_align %#x, p_vaddr %#x (the direct map, from VMCOREINFO: '
                       '%#x)' % (pa, fl, fsz, msz, al, va, want))
            break
    # The notes of 10.3: the source header note is the (rearranged)
    # file's bytes up to the end of its descriptors; the encoders note
    # names the codecs the stored pages use, and the image's size; the
    # records note (flattened files only) starts with the flattened header.
    m = k.off_desc + 24 * len(descs)
    n2 = p.note(NT_DK_SOURCE_HEADER)
    if n2 is None:
        bad.append('no source header note')
    elif p.m[n2[0]:n2[0] + n2[1]] != k.b[:m]:
        bad.append('the source header note (%#x bytes) is not the source\'s first '
                   '%#x bytes' % (n2[1], m))
    if p.note(NT_DK_ENCODERS) is None:
        bad.append('no encoders note')
    else:
        d0, dsz, ents, o = enc_entries(p)
        used = sorted(set(d[3] & 0x27 for d in held) - {0})
        if sorted(e[1] for e in ents) != used:
            bad.append('the encoders note names codecs %s, the stored pages use %s' % (
                [CODECS[e[1]] for e in ents], [CODECS.get(c, hex(c)) for c in used]))
        size = struct.unpack_from(p.E + 'Q', p.m, o)[0] if o + 8 <= d0 + dsz else None
        if size != len(k.b) and not (k.flat and size is not None and size >= m):
            bad.append('the encoders note says an image of %s bytes, the source\'s is %d' % (
                size, len(k.b)))
    n11 = p.note(NT_DK_RECORDS)
    if k.flat and (n11 is None or p.m[n11[0]:n11[0] + 4096] != k.raw[:4096]):
        bad.append('a flattened source: no records note starting with its 4096-byte header')
    if not k.flat and n11 is not None:
        bad.append('a records note, but the source is not flattened')
    # The PFNs the physical PT_LOADs cover: exactly the held pages.
    cover = []
    prev = None
    for a, off, sz in p.phys:
        if a % k.block or sz % k.block:
            bad.append('PT_LOAD at %#x, %#x bytes: not whole blocks' % (a, sz))
            continue
        if prev is not None and a < prev:
            bad.append('PT_LOAD at %#x: not in ascending p_paddr' % a)
        prev = a + sz
        cover.extend(range(a // k.block, (a + sz) // k.block))
    hp = [d[0] for d in held]
    if cover != hp:
        extra = sorted(set(cover) - set(hp))
        miss = sorted(set(hp) - set(cover))
        bad.append('the physical PT_LOADs cover %d PFNs, the source holds %d: '
                   'extra %s, missing %s' % (len(cover), len(hp),
                                             [hex(x) for x in extra[:8]],
                                             [hex(x) for x in miss[:8]]))
    # Runs: a PT_LOAD per run of consecutive held PFNs.
    runs = sum(1 for j, x in enumerate(hp) if j == 0 or hp[j - 1] != x - 1)
    if len(p.phys) != runs and cover == hp:
        bad.append('%d physical PT_LOADs for %d runs of PFNs' % (len(p.phys), runs))
    # Pages, decoded here.
    # The first n pages, the first n a codec encodes, the last n / 4.
    coded = [d for d in held if d[3] & 0x27][:n]
    pick = sorted(set(held[:n] + coded + held[max(n, len(held) - n // 4):]))
    counts = {}
    zeros = holes = 0
    notholes = []
    sparse = holes_work(port)
    if i['data_offset'] % k.block:
        bad.append('info note: data_offset %#x is not a multiple of the page size'
                   % i['data_offset'])
    zst = [d for d in pick if d[3] & 0x20]
    zdec = {}
    try:
        for d, page in zip(zst, zstd_decompress_many(
                [k.b[d[1]:d[1] + d[2]] for d in zst], k.block)):
            zdec[d[0]] = page
    except (ValueError, OSError) as e:
        bad.append(str(e))
    for d in pick:
        pfn, off, size, flags = d
        data = k.b[off:off + size]
        try:
            if flags & 1:
                page, c = zlib.decompress(data), 'zlib'
            elif flags & 2:
                page, c = lzo1x_decompress(data, k.block), 'lzo'
            elif flags & 4:
                page, c = snappy_decompress(data, k.block), 'snappy'
            elif flags & 0x20:
                if pfn not in zdec:
                    continue
                page, c = zdec[pfn], 'zstd'
            else:
                page, c = data, 'as is'
        except (zlib.error, ValueError, IndexError) as e:
            bad.append('PFN %#x: the source page does not decode here (%s)' % (pfn, e))
            continue
        if len(page) != k.block:
            bad.append('PFN %#x: decodes to %d bytes' % (pfn, len(page)))
            continue
        got = p.read_pa(pfn * k.block, k.block)
        if got is None:
            bad.append('PFN %#x: in no physical PT_LOAD' % pfn)
        elif got != page:
            at = next(j for j in range(k.block) if got[j] != page[j])
            bad.append('PFN %#x (%s): the portable file differs from byte %d' % (pfn, c, at))
        elif sparse and not any(page):
            zeros += 1
            o = p.offset_pa(pfn * k.block)
            if p.is_hole(o, k.block):
                holes += 1
            elif len(notholes) < 4:
                notholes.append(hex(pfn))
        counts[c] = counts.get(c, 0) + 1
    if zeros and holes != zeros:
        bad.append('%d of the %d pages of zeros checked are not holes: PFN %s' % (
            zeros - holes, zeros, ' '.join(notholes)))
    for b in bad[:20]:
        print(b)
    # Always, last: the shell takes the count held from it.
    print('%d of %d pages held, %d PT_LOADs; %s pages %s%s' % (
        len(held), len(descs), len(p.phys),
        ', '.join('%d %s' % (v, c) for c, v in sorted(counts.items())) or 'no',
        'checked' if bad else 'equal',
        '; %d of zeros, holes' % zeros if zeros and not bad else ''))
    if bad:
        sys.exit(1)


def enc_entries(p):
    n = p.note(NT_DK_ENCODERS)
    if n is None:
        die('no encoders note (type %#x)' % NT_DK_ENCODERS)
    d, dsz, _ = n
    ents = []
    o = d
    while o + 16 <= d + dsz:
        codec, enc, lvl, z = struct.unpack_from(p.E + 'IIiI', p.m, o)
        if codec not in CODECS or z != 0:
            break
        ents.append((o, codec, enc, lvl))
        o += 16
    return d, dsz, ents, o


def cmd_encoders(path):
    p = Portable(path)
    d, dsz, ents, o = enc_entries(p)
    for _, c, e, l in ents:
        print('codec=%s encoder=%d level=%d' % (CODECS[c], e, l))
    if o + 8 <= d + dsz:
        print('image=%d' % struct.unpack_from(p.E + 'Q', p.m, o)[0])
    print('after=%d' % (d + dsz - o - 8))


def cmd_damage(path, out, kind):
    p = Portable(path)
    d, dsz, ents, o = enc_entries(p)
    b = bytearray(p.m)
    E = p.E
    if kind == 'codec':
        # The first codec's entry names another codec, consistently (its
        # only encoder, its level): the descriptors' codec has none.
        if not ents:
            sys.exit('no codec in the encoders note')
        at, codec, enc, lvl = ents[0]
        used = set(e[1] for e in ents)
        nc = next(c for c in (4, 0x20, 2, 1) if c not in used)
        ne, ls = ENCODERS[nc][0]
        nl = list(ls)[0]
        struct.pack_into(E + 'IIi', b, at, nc, ne, nl)
        print('%s entry -> %s (encoder %d level %d)' % (CODECS[codec], CODECS[nc], ne, nl))
    elif kind == 'size':
        v, = struct.unpack_from(E + 'Q', b, o)
        struct.pack_into(E + 'Q', b, o, v + 4096)
        print('image size %d -> %d' % (v, v + 4096))
    else:
        if not ents:
            sys.exit('no codec in the encoders note')
        at, codec, enc, lvl = ents[0]
        levels = dict(ENCODERS[codec]).get(enc, [0])
        if kind == 'level' and len(levels) > 1:
            nl = lvl + 1 if lvl + 1 in levels else lvl - 1
            struct.pack_into(E + 'i', b, at + 8, nl)
            print('%s encoder %d: level %d -> %d' % (CODECS[codec], enc, lvl, nl))
        else:
            others = [(e, ls) for e, ls in ENCODERS[codec] if e != enc]
            if not others:
                sys.exit('%s has one encoder, without levels' % CODECS[codec])
            ne, ls = others[0]
            nl = lvl if lvl in ls else list(ls)[-1]
            struct.pack_into(E + 'Ii', b, at + 4, ne, nl)
            print('%s: encoder %d level %d -> encoder %d level %d' % (
                CODECS[codec], enc, lvl, ne, nl))
    open(out, 'wb').write(b)


def cmd_damage_page(path, src, out, kind):
    """OUT: PORTABLE with one bit of a held page changed, one a codec
    encodes (coded) or one stored as it is (plain), not of zeros."""
    k = Kdump(src)
    p = Portable(path)
    for d in k.descriptors():
        if not k.held(d) or bool(d[3] & 0x27) != (kind == 'coded'):
            continue
        o = p.offset_pa(d[0] * k.block)
        if not any(p.m[o:o + k.block]):
            continue
        b = bytearray(p.m)
        b[o + 100] ^= 1
        open(out, 'wb').write(b)
        print('PFN %#x, offset %#x' % (d[0], o + 100))
        return
    sys.exit('no %s page that is not all zeros' % kind)


def main(a):
    if len(a) == 2 and a[0] == 'notes':
        cmd_notes(a[1])
    elif len(a) == 2 and a[0] == 'readelf-notes':
        cmd_readelf_notes(a[1])
    elif len(a) == 4 and a[0] == 'pages':
        cmd_pages(a[1], a[2], int(a[3]))
    elif len(a) == 2 and a[0] == 'info':
        cmd_info(a[1])
    elif len(a) == 2 and a[0] == 'encoders':
        cmd_encoders(a[1])
    elif len(a) == 5 and a[0] == 'damage-page':
        cmd_damage_page(a[1], a[2], a[3], a[4])
    elif len(a) == 4 and a[0] == 'damage-enc':
        cmd_damage(a[1], a[2], a[3])
    else:
        sys.exit('usage: kdump_portable.py notes SRC | readelf-notes FILE | '
                 'pages SRC PORTABLE N | info P | encoders P | damage-enc P OUT KIND | '
                 'damage-page P SRC OUT KIND')


if __name__ == '__main__':
    main(sys.argv[1:])
