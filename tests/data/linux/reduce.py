#!/usr/bin/env python3
"""reduce.py IN OUT PFN... -- keep only the given pages of a kdump file.

How tests/data/linux/real-x86_64.kdump was made from makedumpfile's
output (see README): a single-file, 64-bit, little-endian kdump-compressed
file (header version 6) is copied byte for byte, except that
  - bitmap 2 keeps the bits of the PFNs given (and set there before),
  - the page descriptors of those pages, as makedumpfile wrote them, are
    written in PFN order at the start of the descriptor table, the rest
    of it zeroed,
  - the data of every other page is zeroed.
The header, sub header, notes, VMCOREINFO, bitmap 1 and the kept pages'
(compressed) data are makedumpfile's.  Zeros cost xz nothing.
"""
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    keep = set(int(x, 0) for x in sys.argv[3:])
    b = bytearray(open(src, 'rb').read())
    assert b[:8] == b'KDUMP   '
    block, sub, bmblocks = struct.unpack_from('<iii', b, 428)
    half = bmblocks // 2 * block
    bm2 = (1 + sub) * block + half
    desc = (1 + sub + bmblocks // 2 * 2) * block
    pfns = [i for i in range(half * 8) if b[bm2 + i // 8] >> (i % 8) & 1]
    descs = [bytes(b[desc + 24 * i:desc + 24 * i + 24])
             for i in range(len(pfns))]
    data_start = min(struct.unpack_from('<q', d, 0)[0] for d in descs)
    kept = [(p, d) for p, d in zip(pfns, descs) if p in keep]
    missing = keep - set(pfns)
    if missing:
        sys.exit('not dumped: ' + ' '.join(hex(p) for p in sorted(missing)))
    b[bm2:bm2 + half] = bytes(half)
    b[desc:desc + 24 * len(descs)] = bytes(24 * len(descs))
    out = bytearray(len(b) - data_start)
    for i, (p, d) in enumerate(kept):
        b[bm2 + p // 8] |= 1 << (p % 8)
        b[desc + 24 * i:desc + 24 * i + 24] = d
        off, size = struct.unpack_from('<qI', d, 0)
        out[off - data_start:off - data_start + size] = \
            b[off:off + size]
    b[data_start:] = out
    open(dst, 'wb').write(b)
    print('%d of %d pages kept' % (len(kept), len(pfns)))


main()
