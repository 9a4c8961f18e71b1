#!/usr/bin/env python3
"""mkvmcore.py [--zero] NOTES_ELF SIZE OUT -- a Linux ELF vmcore of SIZE
bytes of RAM that makedumpfile -d 1 converts, for bench/kdump.sh.
With --zero every made-up page is zero (a hole): a small file that
makedumpfile reads in a second, for tests/kdump_write.sh.  SIZE is at
least 384M (makedumpfile reads mem_map at 0x17cab000).

NOTES_ELF is an x86_64 ELF vmcore of a real kernel (dumpconv --to elf of
tests/data/linux/real-x86_64.kdump.xz): its notes (VMCOREINFO) and its
stored pages (page tables, init_uts_ns) are copied at their physical
addresses, so that makedumpfile finds the kernel it needs.  Two
VMCOREINFO keys are renamed (PG_hwpoison, PAGE_OFFLINE_MAPCOUNT_VALUE):
makedumpfile would read struct pages for them, and the real file keeps
only 159 pages; SYMBOL(mem_section) becomes SYMBOL(mem_map), or
makedumpfile would leave out everything above the real 384 MiB.  Every other page is made up, in runs, deterministically
(fixed seed): about 45% zero (holes), and the rest kernel-like data
(structures of pointers and small integers), text, code-like bytes,
sparse pages and a few incompressible ones, drawn from pools of pages
with per-page words changed.  PT_LOADs as /proc/vmcore has them: the
kernel text first (overlapping the direct map), then RAM from 4 KiB.
"""
import random
import struct
import sys

PS = 4096
SEED = 14


def size_arg(s):
    m = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * m[s[-1]] if s[-1] in m else int(s)


def read_src(path):
    d = open(path, "rb").read()
    phoff, = struct.unpack_from("<Q", d, 32)
    phnum, = struct.unpack_from("<H", d, 56)
    notes = b""
    pages = {}
    for i in range(phnum):
        t, _, off, va, pa, fsz, msz, _ = struct.unpack_from(
            "<IIQQQQQQ", d, phoff + 56 * i)
        if t == 4:
            notes = bytearray(d[off:off + fsz])
        elif t == 1:
            for p in range(0, fsz, PS):
                b = d[off + p:off + p + PS]
                if b.count(0) != PS:
                    pages[(pa + p) // PS] = b
    for a in (b"NUMBER(PG_hwpoison)", b"NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)"):
        i = notes.find(a)
        if i >= 0:
            notes[i + 7] = ord("X")
    # SPARSEMEM's sections cover only the real guest's 384 MiB: make it
    # FLATMEM (the same pointer, read at the same address), so that the
    # pages above are not memory holes to makedumpfile.
    a = b"SYMBOL(mem_section)=ffff888017cab000"
    i = notes.find(a)
    if i >= 0:
        notes[i:i + len(a)] = b"SYMBOL(mem_map)=0000ffff888017cab000"
    return bytes(notes), pages


def pools(rnd):
    words = ["".join(rnd.choice("etaoinshrdlucmfwypvbgkqjxz")
                     for _ in range(rnd.randint(2, 9))) for _ in range(3000)]
    out = {}
    n = 1024
    st = []
    for _ in range(n):
        b = bytearray()
        base = 0xffff888000000000 + rnd.randrange(1 << 30) * 64
        while len(b) < PS:
            for f in range(8):
                r = rnd.random()
                if r < 0.35:
                    v = base + rnd.randrange(1 << 16) * 8
                elif r < 0.65:
                    v = rnd.randrange(256) if rnd.random() < 0.7 else \
                        rnd.randrange(1 << 32)
                else:
                    v = 0
                b += struct.pack("<Q", v)
        st.append(bytes(b[:PS]))
    out["struct"] = st
    tx = []
    for _ in range(n):
        s = []
        ln = 0
        while ln < PS:
            w = rnd.choice(words) + (" " if rnd.random() < 0.9 else "\n")
            s.append(w)
            ln += len(w)
        tx.append("".join(s).encode()[:PS])
    out["text"] = tx
    ops = [rnd.randrange(256) for _ in range(40)]
    cd = []
    for _ in range(n):
        b = bytearray(PS)
        for i in range(PS):
            b[i] = rnd.choice(ops) if rnd.random() < 0.6 else \
                rnd.randrange(256)
        cd.append(bytes(b))
    out["code"] = cd
    sp = []
    for _ in range(n):
        b = bytearray(PS)
        for _ in range(rnd.randint(1, 24)):
            o = rnd.randrange(PS // 8) * 8
            b[o:o + 8] = struct.pack("<Q", rnd.randrange(1 << 64))
        sp.append(bytes(b))
    out["sparse"] = sp
    return out


KINDS = [("zero", 0.45, 96), ("struct", 0.25, 24), ("text", 0.10, 16),
         ("code", 0.12, 32), ("sparse", 0.03, 4), ("random", 0.05, 8)]


def runs(npages, rnd):
    """[(first pfn, count, kind)] covering [0, npages)."""
    out = []
    pfn = 0
    tot = sum(w for _, w, _ in KINDS)
    while pfn < npages:
        r = rnd.random() * tot
        for k, w, mean in KINDS:
            r -= w
            if r < 0:
                break
        n = min(npages - pfn, max(1, int(rnd.expovariate(1 / mean))))
        # Weights are of pages, not runs: draw kinds by weight / mean.
        out.append((pfn, n, k))
        pfn += n
    return out


def main():
    args = sys.argv[1:]
    only_real = args[:1] == ["--zero"]
    if only_real:
        args = args[1:]
    src, size, path = args[0], size_arg(args[1]), args[2]
    notes, real = read_src(src)
    rnd = random.Random(SEED)
    pool = pools(rnd) if not only_real else {}
    npages = size // PS
    # Kinds drawn per run with probability weight/mean, so that each
    # kind's share of pages is its weight.
    global KINDS
    KINDS = [(k, w / m, m) for k, w, m in KINDS]
    kind = bytearray(npages)
    names = [k for k, _, _ in KINDS]
    for first, n, k in runs(npages, rnd) if not only_real else ():
        kind[first:first + n] = bytes([names.index(k)]) * n

    def page(pfn):
        if pfn in real:
            return real[pfn]
        if only_real:
            return None
        k = names[kind[pfn]]
        if k == "zero":
            return None
        h = (pfn * 0x9E3779B97F4A7C15 + SEED) & ((1 << 64) - 1)
        if k == "random":
            return random.Random(h).randbytes(PS)
        b = bytearray(pool[k][h % 1024])
        for j in range(4):
            o = ((h >> (8 * j)) & 0x1ff) * 8
            b[o:o + 8] = struct.pack("<Q", h ^ (j * 0x1234567))
        return bytes(b)

    ktext = (0x1000000, 0x3430000, 0xffffffff81000000)
    segs = [ktext, (0x1000, 0x9f000 - 0x1000, 0xffff888000001000),
            (0x100000, size - 0x100000, 0xffff888000100000)]
    phnum = 1 + len(segs)
    noff = 64 + 56 * phnum
    off = (noff + len(notes) + PS - 1) // PS * PS
    ph = struct.pack("<IIQQQQQQ", 4, 0, noff, 0, 0, len(notes), len(notes), 0)
    offs = []
    for pa, ln, va in segs:
        ph += struct.pack("<IIQQQQQQ", 1, 7, off, va, pa, ln, ln, 0)
        offs.append(off)
        off += ln
    eh = bytearray(64)
    eh[0:16] = b"\x7fELF\x02\x01\x01" + bytes(9)
    struct.pack_into("<HHIQQQIHHHHHH", eh, 16, 4, 62, 1, 0, 64, 0, 0, 64,
                     56, phnum, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(eh + ph + notes)
        for (pa, ln, va), o in zip(segs, offs):
            for p in range(pa // PS, (pa + ln) // PS):
                b = page(p)
                if b is not None:
                    f.seek(o + p * PS - pa)
                    f.write(b)
        f.truncate(off)


main()
