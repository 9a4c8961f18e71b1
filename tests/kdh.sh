#!/usr/bin/env bash
# End-to-end tests of kerneldumpheader containers (docs/kerneldumpheader.md):
# device images of every header version in both placements and a vmcore
# with a leading header, made by dumpgen, checked by an independent
# reader written here in Python from FORMATS.md 3 (offsets, big-endian,
# parity, placement rules), then read, converted and checked by the tools;
# text dumps extracted and listed by tar(1); encrypted dumps refused;
# every kdh-* corruption kind found by dumpcheck at its offset.  Ends
# with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkkdh.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

gen() { "$BIN/dumpgen" --mem 32M --compact --seed 5 -q -f "$@"; }

# The independent reader: IMAGE BLOCKSIZE PLACEMENT(new|old|leading)
# prints "version hostname dumplength dump_offset" or fails.
cat > "$T/kdh.py" <<'EOF'
import struct, sys
path, bs, place = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = open(path, 'rb').read()
# FORMATS.md 3.3: (dumplength, dumpextent, dumpkeysize, hostname) offsets
lay = {1: (40, None, None, 60), 2: (40, None, 56, 64),
       3: (40, 48, 64, 73), 4: (40, 496, 56, 64)}
def hdr(off):
    h = b[off:off + 512]
    assert len(h) == 512, "short header at %#x" % off
    assert h[:20].rstrip(b'\0') in (b'FreeBSD Kernel Dump',
        b'FreeBSD Text Dump', b'Cleared Kernel Dump'), "magic at %#x" % off
    x = 0
    for (w,) in struct.iter_unpack('>I', h):
        x ^= w
    assert x == 0, "parity %#x at %#x" % (x, off)
    v = struct.unpack('>I', h[32:36])[0]
    L, E, K, H = lay[v]
    n = struct.unpack('>Q', h[L:L + 8])[0]
    e = struct.unpack('>Q', h[E:E + 8])[0] if E else n
    k = struct.unpack('>I', h[K:K + 4])[0] if K else 0
    host = h[H:H + 64].split(b'\0')[0].decode()
    return h, v, n, e, k, host
if place == 'leading':
    h, v, n, e, k, host = hdr(0)
    data = 512 + k
else:
    th = len(b) - (bs if place == 'new' else 512)
    t, v, n, e, k, host = hdr(th)
    if place == 'new':                  # FORMATS.md 3.4, current
        lh = th - e - k - bs
        data = th - e
    else:                               # FORMATS.md 3.4, old
        lh = th - n - 512
        data = lh + 512
    h = hdr(lh)[0]
    assert h == t, "leader at %#x differs from the trailer" % lh
print(v, host, n, data)
EOF

# --- every version and placement, three byte orders and word sizes ----------
for arch in amd64 armeb riscv64; do
	gen --arch "$arch" -o "$T/plain"
	for spec in "4 512 new" "3 4096 new" "2 512 new" "1 512 old" \
	    "1 4096 old" "4 2048 new" "2 512 leading"; do
		set -- $spec
		what="$arch v$1 bs $2 $3"
		if [ "$3" = leading ]; then
			gen --arch "$arch" --container leading --kdh-version "$1" \
			    -o "$T/img"
		else
			gen --arch "$arch" --container device --kdh-version "$1" \
			    --block-size "$2" --kdh-placement "$3" -o "$T/img"
		fi
		if ! got=$(python3 "$T/kdh.py" "$T/img" "$2" "$3" 2>&1); then
			no "$what: the independent reader" "$got"
			continue
		fi
		set -- $got
		len=$3 off=$4
		[ "$1" = "${spec%% *}" ] && [ "$2" = fixture5.dumpkit.test ] &&
		    [ "$len" -eq "$(stat -c %s "$T/plain")" ] &&
		    cmp -s <(tail -c +$((off + 1)) "$T/img" | head -c "$len") "$T/plain" &&
		    ok "$what: headers, parity and placement by FORMATS.md; the stream is the minidump" ||
		    no "$what: independent reader" "$got"
		"$BIN/dumpconv" -q -f --to native "$T/img" -o "$T/back" 2>"$T/err" &&
		    cmp -s "$T/back" "$T/plain" &&
		    ok "$what: dumpconv --to native gives the minidump byte for byte" ||
		    no "$what: --to native" "$(cat "$T/err")"
		expect_exit "$what: dumpcheck clean" 0 ": 0 errors, 0 warnings" \
		    "$BIN/dumpcheck" --pattern 5 "$T/img"
	done
done

# --- the header shown and carried into the portable format ------------------
gen --arch amd64 --container device -o "$T/dev"
expect_exit "dumpconv --info shows the panic string" 0 \
    "panic: +page fault while in kernel mode \(dumpgen seed 5\)" \
    "$BIN/dumpconv" --info "$T/dev"
expect_exit "dumpconv --info shows the dump time" 0 \
    "dump time: +1767243600 \(2026-01-01 05:00:00 UTC\)" "$BIN/dumpconv" --info "$T/dev"
expect_exit "dumpinfo shows hostname and layer" 0 \
    "hostname: +fixture5.dumpkit.test" "$BIN/dumpinfo" "$T/dev"
"$BIN/dumpconv" -q -f "$T/dev" -o "$T/dev.elf"
n=$(readelf -n "$T/dev.elf" 2>/dev/null | grep -c "0x00000200.*0x444b0008")
[ "$n" -eq 1 ] && ok "readelf: one NT_DK_KDH note (0x444b0008) of 512 bytes" ||
    no "readelf: NT_DK_KDH note" "found $n"
# The note's descriptor is the leader, verbatim (the leader is at 64 KiB).
python3 - "$T/dev.elf" "$T/dev" <<'EOF' && ok "the note's 512 bytes are the device's leader" || no "note bytes"
import sys
e, d = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
leader = d[65536:65536 + 512]
assert leader[:19] == b'FreeBSD Kernel Dump'
assert e.count(leader) == 1
EOF
expect_exit "the portable file still shows the host" 0 \
    "hostname: +fixture5.dumpkit.test" "$BIN/dumpconv" --info "$T/dev.elf"
expect_exit "the portable file is clean" 0 ": 0 errors, 0 warnings" \
    "$BIN/dumpcheck" "$T/dev.elf"

# --- text dumps --------------------------------------------------------------
gen --arch amd64 --textdump -o "$T/text"
expect_exit "a text dump does not open as memory" 2 "text dump.*--to tar" \
    "$BIN/dumpinfo" "$T/text"
expect_exit "dumpconv --to tar" 0 "" "$BIN/dumpconv" -f --to tar "$T/text" -o "$T/text.tar"
names=$(tar tf "$T/text.tar" 2>&1 | tr '\n' ' ')
[ "$names" = "ddb.txt config.txt msgbuf.txt panic.txt version.txt " ] &&
    ok "tar tf lists the text dump's files in order" || no "tar tf" "$names"
[ "$(tar xOf "$T/text.tar" panic.txt)" = "page fault while in kernel mode (dumpgen seed 5)" ] &&
    ok "tar extracts panic.txt" || no "tar xOf panic.txt"
"$BIN/dumpconv" --to tar "$T/text" -o - | tar tf - | grep -qx version.txt &&
    ok "dumpconv --to tar -o -: tar reads it from a pipe" || no "--to tar to stdout"
expect_exit "--to tar on a kernel dump: refused" 3 "expected a text dump" \
    "$BIN/dumpconv" -f --to tar "$T/dev" -o "$T/x.tar"
[ ! -e "$T/x.tar" ] && ok "nothing left behind by a refused --to tar" || no "x.tar left"
expect_exit "dumpcheck: a text dump is noted, not checked" 0 "check.incomplete" \
    "$BIN/dumpcheck" "$T/text"

# Images built by fuzz/seed_kdh.py (Python, from FORMATS.md 3, tar by
# Python's tarfile) read by the tools.
gen --arch amd64 -o "$T/md"
mkdir -p "$T/py"
python3 "$(dirname "$0")/../fuzz/seed_kdh.py" "$T/md" "$T/py"
"$BIN/dumpconv" -q -f --to tar "$T/py/text-v4" -o "$T/py.tar" &&
    [ "$(tar tf "$T/py.tar" | tr '\n' ' ')" = "ddb.txt panic.txt " ] &&
    [ "$(tar xOf "$T/py.tar" ddb.txt)" = "db> bt" ] &&
    ok "a text dump reversed by Python comes out as Python's tar" ||
    no "Python text dump"
for s in current-v1 current-v2 current-v3 current-v4 current-v3-4k \
    current-v4-4k old-v1-4k leading-v2 leading-v4 cleared-v4; do
	"$BIN/dumpconv" -q -f --to native "$T/py/$s" -o "$T/back" 2>"$T/err" &&
	    cmp -s "$T/back" "$T/md" && ok "Python-built $s: the minidump inside" ||
	    no "Python-built $s" "$(cat "$T/err")"
done
for s in bad-parity differ beyond-extent encrypted-v4; do
	expect_exit "Python-built $s: refused" 2 "offset (0|0x[0-9a-f]+):" "$BIN/dumpinfo" "$T/py/$s"
done

# --- encrypted dumps ---------------------------------------------------------
gen --arch amd64 --encrypt -o "$T/enc"
expect_exit "an encrypted dump is refused by dumpinfo" 2 "encrypted dump.*cannot decrypt" \
    "$BIN/dumpinfo" "$T/enc"
expect_exit "an encrypted dump is refused by dumpconv" 2 "encrypted" \
    "$BIN/dumpconv" -f "$T/enc" -o "$T/enc.elf"
expect_exit "dumpconv --info still shows its header" 2 "compression: +none; encrypted" \
    "$BIN/dumpconv" --info "$T/enc"
expect_exit "dumpcheck: kdh.encrypted" 0 "warning .*kdh.encrypted" "$BIN/dumpcheck" "$T/enc"
expect_exit "--encrypt needs version 2+" 3 "version 2 or later" \
    "$BIN/dumpgen" --arch amd64 --encrypt --kdh-version 1 -f -o "$T/x"

# --- every kdh corruption kind, with dumpcheck and the reader ----------------
for k in $("$BIN/dumpgen" --list-corruptions | awk '/^kdh-/ {print $1}'); do
	out=$(gen --arch armeb -v --corrupt "$k" -o "$T/bad" 2>&1)
	line=$(grep "corrupted: $k:" <<<"$out")
	code=$(sed 's/.*reports \([^ ]*\).*/\1/' <<<"$line")
	off=$(sed -n 's/.* at offset \(0x[0-9a-f]*\)$/\1/p' <<<"$line")
	res=$("$BIN/dumpcheck" "$T/bad" 2>&1)
	grep -Eq "^  [a-z]+ +$off +$code:" <<<"$res" &&
	    ok "$k: dumpcheck reports $code at $off" ||
	    no "$k: expected $code at $off" "$out / $res"
done
gen --arch amd64 --corrupt kdh-differ -o "$T/bad"
expect_exit "leader and trailer differ: the reader names the byte" 2 \
    "offset 0x10140: leader and trailer differ" "$BIN/dumpinfo" "$T/bad"
gen --arch amd64 --corrupt kdh-parity -o "$T/bad"
expect_exit "bad parity: the reader says so" 2 "offset 0x10000: kerneldumpheader parity" \
    "$BIN/dumpconv" -f "$T/bad" -o "$T/x"
gen --arch amd64 --cleared -o "$T/bad"
expect_exit "a cleared dump still reads" 0 "kernel dump \(device image, current placement\), trailer cleared" \
    "$BIN/dumpinfo" "$T/bad"

# --- options -----------------------------------------------------------------
expect_exit "--kdh-version 5: exit 3" 3 "1, 2, 3 or 4" \
    "$BIN/dumpgen" --arch amd64 --kdh-version 5 -o "$T/x"
expect_exit "--device-size too small: exit 3" 3 "at least" \
    "$BIN/dumpgen" --arch amd64 --mem 32M --compact --container device --device-size 64K -f -o "$T/x"
expect_exit "--block-size 1000: exit 3" 3 "power of two" \
    "$BIN/dumpgen" --arch amd64 --block-size 1000 -o "$T/x"
expect_exit "an existing output without --force: exit 2, as without --container" 2 "file exists" \
    "$BIN/dumpgen" --arch amd64 --container device -o "$T/dev"
gen --arch amd64 --container device --device-size 16M -o "$T/big"
[ "$(stat -c %s "$T/big")" -eq 16777216 ] && python3 "$T/kdh.py" "$T/big" 512 new >/dev/null &&
    ok "--device-size 16M: the headers at the end of a 16 MiB device" || no "--device-size 16M"
ls "$T" | grep -q 'dumpgen-stream' && no "stream files left behind" ||
    ok "no stream file left behind"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
