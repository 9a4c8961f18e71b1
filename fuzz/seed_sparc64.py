#!/usr/bin/env python3
"""Seeds for fuzz/fuzz_sparc64.c: small sparc64 dumps built from
FORMATS.md 5 (not by dumpkit), each at most a few dozen KiB.

usage: seed_sparc64.py OUTDIR

Layout of the base dump: header (40 bytes, big-endian), 2 region
descriptors, padding to dh_hdr_size = 512; region 0 at PA 0x100000 (2
pages, listed first), region 1 at PA 0 (4 pages: the first holds the
TSB of 256 32-byte slots, mask 0xff).  TTEs: 8K, 64K (one copy per 8K
slot), 512K and 4M (first slot only), and an invalid one.
"""
import os
import struct
import sys

PAGE = 8192
V = 1 << 63


def tte(va, size, pa, w=True, x=False):
    tag = (va >> (13 + 3 * size)) << 2 | size
    data = V | size << 61 | pa | (2 if w else 0) | (0x80 if x else 0)
    return tag, data


def dump(garbage=b"\xde\xad\xbe\xef", regions=None, mask=0xff,
         tsb_pa=0x0, extra_slots=()):
    regions = regions or [(0x100000, 2 * PAGE), (0x0, 4 * PAGE)]
    n = len(regions)
    hs = (40 + 24 * n + 511) // 512 * 512
    h = struct.pack(">QQQQi", hs, tsb_pa, 256 * 32, mask, n) + garbage
    off = hs
    mem = {}
    for pa, size in regions:
        h += struct.pack(">QQQ", pa, size, off)
        off += size
        for p in range(pa, pa + size, 8):
            mem[p] = struct.pack(">Q", p ^ 0x5350415243363400)
    h = h.ljust(hs, b"\0")
    slots = {}
    kva = 0xc0000000
    slots[(kva >> 13) & mask] = tte(kva, 0, 0x2000)
    for k in range(8):
        slots[((kva + 0x10000 >> 13) + k) & mask] = tte(kva + 0x10000, 1,
                                                         0x10000)
    slots[(kva + 0x80000 >> 13) & mask] = tte(kva + 0x80000, 2, 0x80000)
    slots[(kva + 0x400000 >> 13) & mask] = tte(kva + 0x400000, 3, 0, False,
                                                True)
    slots[5] = (tte(kva + 0xa000, 0, 0x4000)[0], 0x4002)  # valid bit clear
    for s, v in extra_slots:
        slots[s] = v
    tsb = bytearray(256 * 32)
    for s, (tag, data) in slots.items():
        struct.pack_into(">QQ", tsb, s * 32, tag, data)
    body = b""
    for pa, size in regions:
        chunk = bytearray(b"".join(mem[p] for p in range(pa, pa + size, 8)))
        if tsb_pa >= pa and tsb_pa < pa + size:
            o = tsb_pa - pa
            chunk[o:o + len(tsb)] = tsb
        body += bytes(chunk)
    return h + body


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        "old": dump(),
        "new": dump(garbage=b"\0\0\0\0"),
        "truncated": dump()[:-PAGE // 2],
        "mask-small": dump(mask=0x7f),
        "tsb-outside": dump(tsb_pa=0x200000),
        "overlap": dump(regions=[(0x0, 2 * PAGE), (0x0, 4 * PAGE)]),
        "stray-tte": dump(extra_slots=[(200, tte(0xc0300000, 0, 0x6000))]),
        "one-region": dump(regions=[(0x0, 4 * PAGE)]),
    }
    for name, b in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
