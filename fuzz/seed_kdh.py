#!/usr/bin/env python3
# seed_kdh.py -- the seed corpus of fuzz_kdh (fuzz/corpus/kdh), made from
# a minidump seed by the rules of FORMATS.md 3 (written here, not by
# dumpkit): device images of each header version in the current and the
# old placement (no 64 KiB gap, to stay small), at 512- and 4096-byte
# blocks, a vmcore with a leading header, a text dump (a tar stored
# block-reversed), an encrypted dump, a cleared trailer, and damaged ones
# (parity, leader and trailer differ, dumplength past the extent).
#
#	python3 fuzz/seed_kdh.py MINIDUMP OUTDIR
import io, struct, sys, tarfile

md = open(sys.argv[1], 'rb').read()
out = sys.argv[2]

def header(v, n, bs, key=0, extent=None, magic=b'FreeBSD Kernel Dump',
           comp=0):
    h = bytearray(512)
    extent = n if extent is None else extent
    h[0:len(magic)] = magic
    h[20:25] = b'amd64'
    struct.pack_into('>IIQ', h, 32, v, 2, n)
    host, vs, ps = b'seed.example.org', b'FreeBSD 14.1-RELEASE\n', b'panic'
    if v == 1:
        struct.pack_into('>QI', h, 48, 1700000000, bs)
        h[60:60 + len(host)] = host; h[124:124 + len(vs)] = vs
        h[316:316 + len(ps)] = ps
    elif v == 3:
        struct.pack_into('>QQIIB', h, 48, extent, 1700000000, key, bs, comp)
        h[73:73 + len(host)] = host; h[137:137 + len(vs)] = vs
        h[329:329 + len(ps)] = ps
    else:
        struct.pack_into('>QII', h, 48, 1700000000, key, bs)
        h[64:64 + len(host)] = host; h[128:128 + len(vs)] = vs
        h[320:320 + len(ps)] = ps
        if v == 4:
            h[495] = comp
            struct.pack_into('>Q', h, 496, extent)
    x = 0
    for (w,) in struct.iter_unpack('>I', bytes(h)):
        x ^= w
    struct.pack_into('>I', h, 508, x)
    return bytes(h)

def block(h, bs):
    return h + bytes(bs - 512)

def current(v, data, bs, key=b'', magic=b'FreeBSD Kernel Dump'):
    h = header(v, len(data), bs, len(key), magic=magic)
    return block(h, bs) + key + data + block(h, bs)

def write(name, b):
    open('%s/%s' % (out, name), 'wb').write(b)

for v in (1, 2, 3, 4):
    write('current-v%d' % v, current(v, md, 512))
write('current-v3-4k', current(3, md, 4096))
write('current-v4-4k', current(4, md, 4096))
h = header(1, len(md), 4096)
write('old-v1-4k', h + md + h)
write('leading-v2', header(2, len(md), 512) + md)
# A text dump: a tar, its blocks stored backwards.
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode='w', format=tarfile.USTAR_FORMAT) as t:
    for name, text in (('ddb.txt', b'db> bt\n'), ('panic.txt', b'panic\n')):
        i = tarfile.TarInfo(name); i.size = len(text)
        t.addfile(i, io.BytesIO(text))
tar = buf.getvalue()
tar += bytes(-len(tar) % 512)
rev = b''.join(tar[i:i + 512] for i in range(len(tar) - 512, -1, -512))
write('text-v4', current(4, rev, 512, magic=b'FreeBSD Text Dump'))
# Encrypted: struct kerneldumpkey (AES-256-CBC, 32-byte IV, 256-byte key).
key = bytes([1]) + bytes(range(32)) + struct.pack('>I', 256) + bytes(256)
key += bytes(-len(key) % 512)
write('encrypted-v4', current(4, bytes(b ^ 0x5a for b in md[:8192]), 512,
                              key))
img = bytearray(current(4, md, 512))
img[-512:-492] = b'Cleared Kernel Dump\0'
write('cleared-v4', bytes(img))
img = bytearray(current(4, md, 512)); img[100] ^= 1; img[-512 + 100] ^= 1
write('bad-parity', bytes(img))
img = bytearray(current(4, md, 512)); img[-512 + 330] ^= 1
write('differ', bytes(img))
h = header(4, len(md) + 512, 512, extent=len(md))
write('beyond-extent', block(h, 512) + md + block(h, 512))
write('leading-v4', header(4, len(md), 512) + md)
