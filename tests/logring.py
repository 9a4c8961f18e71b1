# The vm-log-* kinds of an amd64 fixture kernel (dumpgen --format vmcore
# --arch amd64 --seed S), computed from docs/linux-fixture.md and the
# kernel's layouts alone, not from dumpkit's reader:
#   logring.py KIND LAYOUT SEED DAMAGED CLEAN PORTABLE OUTDIR
# checks that every copy of the damaged field in DAMAGED holds the value
# the kind writes (and CLEAN the undamaged one), writes OUTDIR/want.dmesg
# (the records dumpinfo --dmesg must still print), and prints
# "CODE OFFSET PORTABLE_OFFSET" (offsets "-" where there is none).
import os, struct, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_log import line, records

kind, layout, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
damaged, clean, portable, out = sys.argv[4:8]
START_KERNEL_MAP = 0xffffffff80000000
TEXT = 8192                     # 2^13 bytes of text, 16 descriptors
L, COUNT = 8, 16

def phdrs(path):
    d = open(path, 'rb').read(1 << 16)
    phoff, = struct.unpack_from('<Q', d, 32)
    phent, phnum = struct.unpack_from('<HH', d, 54)
    loads, note = [], None
    for i in range(phnum):
        t, _, off, va, pa, fsz, _, _ = struct.unpack_from('<IIQQQQQQ', d,
                                                          phoff + i * phent)
        if t == 1:
            loads.append((pa, fsz, off))
        elif t == 4:
            note = (off, fsz)
    return loads, note

def vmcoreinfo(path):
    _, (off, size) = phdrs(path)
    with open(path, 'rb') as f:
        f.seek(off)
        b = f.read(size)
    at = 0
    while at + 12 <= len(b):
        nsz, dsz, _ = struct.unpack_from('<III', b, at)
        name = b[at + 12:at + 12 + nsz].rstrip(b'\0')
        desc = at + 12 + (nsz + 3) // 4 * 4
        if name == b'VMCOREINFO':
            txt = b[desc:desc + dsz].decode()
            return dict(l.split('=', 1) for l in txt.splitlines() if '=' in l)
        at = desc + (dsz + 3) // 4 * 4
    sys.exit('no VMCOREINFO')

def copies(path, pa):
    """Every file offset of physical address pa, the reader's first
    (the PT_LOAD that starts lowest)."""
    loads, _ = phdrs(path)
    hit = sorted((p, off + pa - p) for p, sz, off in loads if p <= pa < p + sz)
    return [o for _, o in hit]

def rd(path, off, n):
    with open(path, 'rb') as f:
        f.seek(off)
        return int.from_bytes(f.read(n), 'little')

vi = vmcoreinfo(clean)
phys_base = int(vi['NUMBER(phys_base)'])
sym = vi['SYMBOL(prb)' if layout == 'lockless' else 'SYMBOL(log_buf)']
page_va = int(sym, 16)                  # the variables at 0 of the log page
page_pa = page_va - START_KERNEL_MAP + phys_base
text_pa = page_pa + 4096                # then the text: 2 pages, reversed

def text_field(i):                      # byte i of the text ring
    return text_pa + (1 - i // 4096) * 4096 + i % 4096

recs = records(seed)                    # tests/fixture_log.py

# Where the records are (docs/linux-fixture.md, "The log").
id0 = 80 + seed % 16
seq0 = 1008 + seed % 16
lpos = 3 * TEXT + TEXT // 2 - 200 - 8 * (seed % 8)
blocks = []                             # lockless: (begin, next, at)
for ts, t in recs:
    blk = (L + len(t) + L - 1) // L * L
    if lpos % TEXT + blk >= TEXT:
        b, at, nxt = lpos, 0, (lpos // TEXT + 1) * TEXT + blk
    else:
        b, at, nxt = lpos, lpos % TEXT, lpos + blk
    blocks.append((b, nxt, at))
    lpos = nxt
first = (TEXT - 300 - 8 * (seed % 8)) & ~3
at, idx = first, []                     # oldlog: each record's index
for ts, t in recs:
    sz = (16 + len(t) + 3) & ~3
    if at + sz + 16 > TEXT:
        at = 0
    idx.append((at, sz))
    at += sz

def desc(i):
    return page_pa + 0x200 + ((id0 + i) % COUNT) * 3 * L

def info(i):
    return page_pa + 0x400 + ((id0 + i) % COUNT) * 88

# kind: (field's PA, its width, undamaged value, damaged value, records
# printed: (index, text) or None where the walk stops at once)
printed = [(i, t) for i, t in enumerate(recs)]
lost = 0xffff888000000000 + (64 << 20) + (2 << 20)
if layout == 'lockless':
    K = {
        'vm-log-ring': (page_pa + 0x100, 4, 4, 14, []),
        'vm-log-ids': (page_pa + 0x100 + 4 * L, L, id0, id0 + 7 - 16, []),
        'vm-log-desc': (desc(3), L, (id0 + 3) | 2 << 62,
                        (id0 + 3 + 16) | 2 << 62,
                        [r for r in printed if r[0] != 3]),
        'vm-log-block': (desc(2) + L, L, blocks[2][0], blocks[2][0],
                         [r for r in printed if r[0] != 2]),
        'vm-log-text-len': (info(1) + 16, 2, len(recs[1][1]), 4096, printed),
        'vm-log-seq': (info(4), 8, seq0 + 4, seq0 + 5, printed),
        'vm-log-unreadable': (page_pa, L, page_va + 0x100, lost, []),
    }
    if kind == 'vm-log-block':          # the damage is next's, two wraps on
        pa = desc(2) + 2 * L
        for o in copies(damaged, pa):
            assert rd(damaged, o, L) == blocks[2][1] + 2 * TEXT, hex(o)
    if kind == 'vm-log-text-len':       # printed cut to the block: padding
        blk = blocks[1][1] - blocks[1][0] if blocks[1][2] else None
        blk = (L + len(recs[1][1]) + L - 1) // L * L
        ts, t = recs[1]
        K[kind] = K[kind][:4] + ([(i, (ts, t + '\0' * (blk - L - len(t)))
                                  if i == 1 else r) for i, r in printed],)
else:
    def rec(i, f):
        return text_field(idx[i][0] + f)
    ts1, t1 = recs[1]
    K = {
        'vm-log-ring': (page_pa + 8, 4, TEXT, TEXT - 192, []),
        'vm-log-ids': (page_pa + 16, 4, first, TEXT, []),
        'vm-log-text-len': (rec(1, 10), 2, len(t1), idx[1][1],
                            [(i, (ts1, t1 + '\0' * (idx[1][1] - 16 - len(t1)))
                              if i == 1 else r) for i, r in printed]),
        'vm-log-record': (rec(2, 8), 2, idx[2][1], 8, printed[:2]),
        'vm-log-wrap': (rec(7, 8), 2, idx[7][1], 0, printed[:7]),
        'vm-log-unreadable': (page_pa, L, 0xffffc90000000000, lost, []),
    }
pa, w, was, now, want = K[kind]
dc, cc = copies(damaged, pa), copies(clean, pa)
assert dc and len(dc) == len(cc), (dc, cc)
for o in cc:
    assert rd(clean, o, w) == was, ('clean', hex(o), hex(rd(clean, o, w)), hex(was))
for o in dc:
    assert rd(damaged, o, w) == now, ('damaged', hex(o), hex(rd(damaged, o, w)), hex(now))
with open(out + '/want.dmesg', 'w') as f:
    f.write(''.join(line(ts, t) for _, (ts, t) in want))
if kind == 'vm-log-unreadable':
    print('linux.log-unreadable - -')
else:
    code = 'linux.log-' + kind[len('vm-log-'):]
    print(code, hex(dc[0]), hex(copies(portable, pa)[0]))
