#!/usr/bin/env bash
# dumpgen --format kdump --corrupt kd-* against dumpcheck --json
# (fixtures/gen_kdump.c, fixtures/corrupt.c, docs/guide-fixtures.md).
#
#  - Every variant below is clean undamaged (exit 0, no finding at all;
#    a split set checked with --set).
#  - Every kd-* kind of dumpgen --list-corruptions --json, on every
#    variant: either dumpgen refuses it with the reason it does not
#    apply (a usage error, "does not apply: WHY"), or dumpcheck --json on the damaged
#    file(s) reports the code dumpgen names and nothing else, at the
#    offset dumpgen names (or, where it names none, without an offset),
#    and exits 1 for an error, 0 for a warning or a note.  Every kind
#    applies to at least one variant.
#  - dumpgen's offsets come from the layout tables; for the header
#    fields and the flattened records they are computed here again from
#    the format alone (disk_dump_header of an LP64 writer: status 424,
#    block_size 428, sub_hdr_size 432, bitmap_blocks 436, max_mapnr 440;
#    of a 32-bit writer, its struct timeval 4-aligned: status 412,
#    block_size 416, sub_hdr_size 420, bitmap_blocks 424, max_mapnr 428;
#    header_version at 8; the flattened form's 4096-byte header, its
#    16-byte big-endian (offset, size) records and its (-1, -1) end
#    marker) and must agree.
#  - Every finding code check_kdump.c can report has a kind, but those
#    listed in NO_KIND with the reason.
# Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkkdx.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

# ARCH VERSION VARIANT: byte orders, header versions 1 to 6, the 64-bit
# and both 32-bit writer layouts (i386's sub header, arm's 8-aligned
# one), block sizes, every codec, the shared zero page, excluded pages,
# flattened files and split sets.
VARIANTS='amd64 6 zlib
s390x 6 lzo,8k
i386 5 snappy
arm 4 zstd,16k
powerpc64 3 none,64k
amd64 2 zlib,zero
aarch64 1 zlib,excluded
amd64 6 flat
powerpc64 6 lzo,flat,16k
i386 4 zstd,flat,zero
amd64 6 split3
i386 4 split2,excluded
s390x 6 split3,zero'

# Codes check_kdump.c reports that no kind makes, and why.
NO_KIND='content.pattern-mismatch only with dumpcheck --pattern SEED, and a stored page of another content is the generic pattern kind of the other formats; here kd-desc-order gives pages other contents (their checksum changes)
kdump.encoders a finding of the portable file of a kdump file (source kind 5), not of a kdump file: tests/kdump_portable.sh damages the encoders note and expects it'

cat > "$T/v.py" <<'EOF'
import json, struct, sys

def records(path):
    """The flattened records: [(dump offset, size, file offset)], end."""
    d = open(path, 'rb').read()
    out, pos = [], 4096
    while True:
        off, size = struct.unpack_from('>qq', d, pos)
        if off == -1 and size == -1:
            return out, pos
        out.append((off, size, pos + 16))
        pos += 16 + size

def at(recs, off):
    if recs is None:
        return off
    for lo, size, phys in recs:
        if lo <= off < lo + size:
            return phys + off - lo
    return None

# Header fields (disk_dump_header): LP64 and 32-bit writers.
FIELDS = {8: {'status': 424, 'block_size': 428, 'sub_hdr_size': 432,
              'bitmap_blocks': 436, 'max_mapnr': 440},
          4: {'status': 412, 'block_size': 416, 'sub_hdr_size': 420,
              'bitmap_blocks': 424, 'max_mapnr': 428}}
KIND_FIELD = {'kd-magic': 4, 'kd-version': 8, 'kd-block-size': 'block_size',
              'kd-sub-hdr-size': 'sub_hdr_size',
              'kd-bitmap-size': 'bitmap_blocks',
              'kd-max-mapnr': 'max_mapnr', 'kd-status': 'status',
              'kd-incomplete-flag': 'status', 'kd-incomplete': 'status'}

def own_offset(kind, clean, flat, long_size):
    """The finding's offset from the format alone, or None if not here."""
    recs, end = records(clean) if flat else (None, None)
    if kind in KIND_FIELD:
        f = KIND_FIELD[kind]
        return at(recs, f if isinstance(f, int) else FIELDS[long_size][f])
    if kind == 'kd-flat-header':
        return 16
    if kind in ('kd-flat-no-end', 'kd-flat-overlap'):
        return end
    if kind == 'kd-flat-trailing-bytes':
        return end + 16
    if kind in ('kd-flat-record', 'kd-flat-record-past-eof'):
        return recs[-1][2] - 16
    return None

cmd = sys.argv[1]
if cmd == 'clean':              # JSON: every file clean
    j = json.load(open(sys.argv[2]))
    bad = [x['code'] for f in j['files'] for x in f.get('findings', [])]
    if j['exit'] != 0 or bad:
        sys.exit('exit %s, findings %s' % (j['exit'], bad))
elif cmd == 'kinds':            # LIST.json: the kd-* kinds
    for k in json.load(open(sys.argv[2])):
        if k['applies_to'].endswith('kdump files only'):
            print(k['kind'])
elif cmd == 'verify':   # JSON KIND CODE OFF CLEAN FLAT LONG
    j = json.load(open(sys.argv[2]))
    kind, code, off = sys.argv[3], sys.argv[4], sys.argv[5]
    off = None if off == '-' else int(off, 0)
    xs = [x for f in j['files'] for x in f.get('findings', [])]
    other = sorted({x['code'] for x in xs} - {code})
    if other or not xs:
        sys.exit('expected %s alone, found %s' % (code,
                 [(x['code'], x.get('offset'), x['message']) for x in xs]))
    offs = [int(x['offset'], 16) if isinstance(x.get('offset'), str)
            else None for x in xs]
    if off not in offs:
        sys.exit('%s: expected at %s, found at %s' % (code, off, offs))
    own = own_offset(kind, sys.argv[6], sys.argv[7] == '1',
                     int(sys.argv[8]))
    if own is not None and own != off:
        sys.exit('dumpgen says %#x, the format says %#x' % (off, own))
    want = 1 if any(x['severity'] == 'error' for x in xs) else 0
    if j['exit'] != want:
        sys.exit('exit %s, wanted %s' % (j['exit'], want))
    print('%s%s' % (code, '' if off is None else ' at %#x' % off) +
          (' (the format: the same)' if own is not None else ''))
EOF
py() { python3 "$T/v.py" "$@"; }

"$BIN/dumpgen" --list-corruptions --json > "$T/list.json"
KINDS=$(py kinds "$T/list.json")
[ -n "$KINDS" ] && ok "$(wc -w <<<"$KINDS") kd-* kinds listed" ||
    no "kd-* kinds listed" "$(head -c 600 "$T/list.json")"

# The parts of a fixture at $1 (one file, or $1.1 ... $1.N).
parts() { if [ -e "$1" ]; then echo "$1"; else ls "$1".[0-9]*; fi; }

declare -A applied covered
while read -r arch ver var; do
	name="$arch v$ver $var"
	base="$T/clean"
	rm -f "$base" "$base".*
	gen=("$BIN/dumpgen" --format kdump --arch "$arch" --version "$ver"
	    --variant "$var" --mem 4M --seed 5)
	if ! "${gen[@]}" -q -o "$base" 2> "$T/err"; then
		no "$name: generated" "$(cat "$T/err")"
		continue
	fi
	mapfile -t files < <(parts "$base")
	set_opt=()
	[ "${#files[@]}" -gt 1 ] && set_opt=(--set)
	"$BIN/dumpcheck" --no-progress --json "${set_opt[@]}" "${files[@]}" \
	    > "$T/c.json" 2> "$T/err"
	if out=$(py clean "$T/c.json" 2>&1); then
		ok "$name: undamaged: clean"
	else
		no "$name: undamaged: clean" "$out $(cat "$T/err")"
	fi
	case $arch in i386|arm) long=4;; *) long=8;; esac
	flat=0
	case $var in *flat*) flat=1;; esac
	for k in $KINDS; do
		out_f="$T/bad"
		rm -f "$out_f" "$out_f".*
		"${gen[@]}" -v --corrupt "$k" -o "$out_f" > "$T/gen" 2> "$T/err"
		rc=$?
		if [ "$rc" -ne 0 ] && grep -q "does not apply" "$T/err"; then
			echo "# $name: $k n/a: $(sed 's/.*: //' "$T/err")"
			continue
		fi
		line=$(grep ": corrupted: $k: " "$T/gen")
		chk=$(sed -n 's/.*: check with: dumpcheck //p' "$T/gen")
		if [ "$rc" -ne 0 ] || [ -z "$line" ] || [ -z "$chk" ]; then
			no "$name: $k: generated" "exit $rc: $(cat "$T/gen" "$T/err")"
			continue
		fi
		code=$(sed -n 's/.*dumpcheck reports \([^ ]*\).*/\1/p' <<<"$line")
		off=$(sed -n 's/.* at offset \(0x[0-9a-f]*\)$/\1/p' <<<"$line")
		# shellcheck disable=SC2086
		"$BIN/dumpcheck" --no-progress --json $chk > "$T/k.json" \
		    2> "$T/err"
		if res=$(py verify "$T/k.json" "$k" "$code" "${off:--}" \
		    "${files[0]}" "$flat" "$long" 2>&1); then
			ok "$name: $k: $res"
			applied[$k]=1
			covered[$code]=1
		else
			no "$name: $k" "$res; $(cat "$T/gen" "$T/err")"
		fi
	done
done <<<"$VARIANTS"

for k in $KINDS; do
	[ -n "${applied[$k]:-}" ] || no "$k applies to no variant of this test"
done

# Every code check_kdump.c reports: its table's, and the generic ones it
# emits.
codes=$( (sed -n 's/^	{ "\(kdump\.[a-z0-9-]*\)", DK_SEV_.*/\1/p' \
    "$TOP/formats/check_kdump.c"
    grep -o 'kemitn\?(&\?k, "[a-z0-9]*\.[a-z0-9-]*"' \
    "$TOP/formats/check_kdump.c" | sed 's/.*"\(.*\)"/\1/'
    grep -o 'kflush(k, "[a-z0-9]*\.[a-z0-9-]*"' \
    "$TOP/formats/check_kdump.c" | sed 's/.*"\(.*\)"/\1/') | sort -u)
n=$(grep -c '^kdump\.' <<<"$codes")
missing=
for c in $codes; do
	[ -n "${covered[$c]:-}" ] && continue
	if grep -q "^$c " <<<"$NO_KIND"; then
		echo "# $c: no kind: $(grep "^$c " <<<"$NO_KIND" | cut -d' ' -f2-)"
		continue
	fi
	missing="$missing $c"
done
[ -z "$missing" ] &&
    ok "every code of check_kdump.c ($n kdump.*, $(($(wc -w <<<"$codes") - n)) generic) has a kind that made it, or is in NO_KIND" ||
    no "codes without a kind:$missing"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
