#!/usr/bin/env python3
"""dropzero.py -- check a portable file written by dumpconv --drop-zero
against the full ELF core it came from, reading both by hand from
docs/portable-elf-minidump.md (sections 3 and 10.1), not with dumpkit.

    python3 dropzero.py CORE PORTABLE
    python3 dropzero.py --keep-byte PORTABLE   (for corruption tests)

Addresses are physical, or virtual for a powerpc "virtual" core.
Checks: the page-keep note holds the core's data extent size and one bit
per page, set exactly for the pages of the core that are not all zero
(and the partial last page); the info record's flag 0x8 is set; the file
is data_offset plus the stored pages; every physical PT_LOAD's file bytes
are the core's bytes at its p_paddr and its bytes past p_filesz are zeros
in the core; the PT_LOADs (p_memsz) cover exactly what the core's cover
(p_filesz).  Prints one summary line; exit status 1 on any difference.
"""
import struct
import sys

PAGE = 4096
NT_DK_INFO = 0x444B0001
NT_DK_KEEP = 0x444B0005  # NT_DK_BITMAP: the page-keep note of a full core


def fail(msg):
    print("dropzero: " + msg)
    sys.exit(1)


def phdrs(b):
    """(type, offset, address, filesz, memsz) of every program header:
    the address is p_paddr, or p_vaddr where p_paddr is all-ones (the
    segments of a powerpc "virtual" core and of its conversion)."""
    cls, data = b[4], b[5]
    e = ">" if data == 2 else "<"
    out = []
    if cls == 2:
        phoff, = struct.unpack_from(e + "Q", b, 32)
        phentsize, phnum = struct.unpack_from(e + "HH", b, 54)
        for i in range(phnum):
            t, _, off, va, pa, fs, ms, _ = struct.unpack_from(
                e + "IIQQQQQQ", b, phoff + i * phentsize)
            out.append((t, off, va if pa == 2**64 - 1 else pa, fs, ms))
    else:
        phoff, = struct.unpack_from(e + "I", b, 28)
        phentsize, phnum = struct.unpack_from(e + "HH", b, 42)
        for i in range(phnum):
            t, off, va, pa, fs, ms, _, _ = struct.unpack_from(
                e + "IIIIIIII", b, phoff + i * phentsize)
            out.append((t, off, va if pa == 2**32 - 1 else pa, fs, ms))
    return e, out


def merged(ranges):
    out = []
    for s, n in sorted(r for r in ranges if r[1] > 0):
        if out and out[-1][1] == s:
            out[-1][1] = s + n
        else:
            out.append([s, s + n])
    return out


def keep_byte(path):
    """The offset of the first page-keep bitmap byte that is not 0xff."""
    b = open(path, "rb").read()
    e, ph = phdrs(b)
    off, end = ph[0][1], ph[0][1] + ph[0][3]
    while off + 12 <= end:
        namesz, descsz, ntype = struct.unpack_from(e + "III", b, off)
        doff = off + 12 + (namesz + 3) // 4 * 4
        if ntype == NT_DK_KEEP:
            w = doff + 8
            while b[w] == 0xFF:
                w += 1
            return w
        off = doff + (descsz + 3) // 4 * 4
    fail("no page-keep note")


def main():
    if sys.argv[1] == "--keep-byte":
        print(keep_byte(sys.argv[2]))
        return
    core = open(sys.argv[1], "rb").read()
    port = open(sys.argv[2], "rb").read()
    _, cph = phdrs(core)
    cload = [p for p in cph if p[0] == 1 and p[4] > 0]
    first = min(p[1] for p in cload)
    ext = len(core) - first
    npages = (ext + PAGE - 1) // PAGE
    want = []
    for i in range(npages):
        page = core[first + i * PAGE:first + (i + 1) * PAGE]
        want.append(len(page) < PAGE or page.count(0) != PAGE)

    e, pph = phdrs(port)
    if pph[0][0] != 4:
        fail("program header 0 is not PT_NOTE")
    noff, nsize = pph[0][1], pph[0][3]
    notes, off = {}, noff
    while off + 12 <= noff + nsize:
        namesz, descsz, ntype = struct.unpack_from(e + "III", port, off)
        doff = off + 12 + (namesz + 3) // 4 * 4
        if port[off + 12:off + 12 + namesz] == b"dumpkit\0":
            notes[ntype] = port[doff:doff + descsz]
        off = doff + (descsz + 3) // 4 * 4
    info = notes.get(NT_DK_INFO)
    keep = notes.get(NT_DK_KEEP)
    if info is None or keep is None:
        fail("no info note or no page-keep note")
    flags, = struct.unpack_from(e + "I", info, 36)
    data, = struct.unpack_from(e + "Q", info, 88)
    if not flags & 0x8:
        fail("info flags %#x: expected 0x8 (pages left out)" % flags)
    kext, = struct.unpack_from(e + "Q", keep, 0)
    if kext != ext:
        fail("page-keep note: extent %#x, the core's is %#x" % (kext, ext))
    nwords = (npages + 63) // 64
    if len(keep) != 8 + 8 * nwords:
        fail("page-keep note: %d bytes, expected %d" %
             (len(keep), 8 + 8 * nwords))
    words = struct.unpack_from(e + "%dQ" % nwords, keep, 8)
    got = [bool(words[i // 64] >> (i % 64) & 1) for i in range(npages)]
    if got != want:
        i = next(k for k in range(npages) if got[k] != want[k])
        fail("page-keep bit %d is %d; the core's page at %#x is %s" %
             (i, got[i], first + i * PAGE, "not all zero" if want[i]
              else "all zero"))
    stored = sum(min(PAGE, ext - i * PAGE) for i in range(npages) if want[i])
    if len(port) != data + stored:
        fail("file size %#x, expected data_offset %#x + %#x stored" %
             (len(port), data, stored))

    def core_bytes(pa, n):
        """The core's n bytes at address pa, across segments if need be."""
        out = b""
        while n > 0:
            for _, o, p, fs, _ in cload:
                if p <= pa < p + fs:
                    k = min(n, p + fs - pa)
                    out += core[o + pa - p:o + pa - p + k]
                    pa, n = pa + k, n - k
                    break
            else:
                fail("address %#x is in no PT_LOAD of the core" % pa)
        return out

    ploads = [p for p in pph[1:] if p[0] == 1]
    tails = 0
    for _, o, pa, fs, ms in ploads:
        if fs and (o % PAGE or port[o:o + fs] != core_bytes(pa, fs)):
            fail("PT_LOAD pa %#x: its %#x bytes at %#x are not the core's"
                 % (pa, fs, o))
        if ms > fs:
            tails += 1
            if core_bytes(pa + fs, ms - fs).count(0) != ms - fs:
                fail("PT_LOAD pa %#x: past p_filesz, the core's bytes "
                     "[%#x, %#x) are not all zero" % (pa, pa + fs, pa + ms))
    if merged((p[2], p[4]) for p in ploads) != \
            merged((p[2], p[3]) for p in cload):
        fail("the PT_LOADs do not cover what the core's cover")
    print("dropzero: %d of %d pages stored, %d PT_LOADs (%d with zeros "
          "past p_filesz), file %d bytes for the core's %d" %
          (sum(want), npages, len(ploads), tails, len(port), len(core)))


main()
