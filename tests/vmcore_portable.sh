#!/usr/bin/env bash
# Linux ELF vmcores in the portable ELF minidump and back (source kind 4,
# docs/portable-elf-minidump.md 10.2), held against tools nobody here
# wrote and against the source file's own bytes.
#
#   - Every vmcore row of dumpgen --list (each architecture, each
#     producer: the kernel's, makedumpfile -E's, QEMU 7.2's with its
#     quirks, paging with PN_XNUM, ELF32): dumpconv to the portable file;
#     dumpcheck of it has no error and no warning; its --checksum is the
#     source's; dumpconv --to native gives the source back (cmp);
#     readelf -lnW and eu-readelf -ln open it without a word on stderr,
#     its program header 0 is the PT_NOTE and readelf -n finds the
#     source's NT_PRSTATUS and VMCOREINFO notes in it; libkdumpfile reads
#     1,000 random physical addresses (and the kernel virtual addresses of
#     its segments) of it equal to dumpkit's reads of the source, and
#     its physical reads equal to the fixture pattern.  DK_TEST_SAMPLE=N
#     runs one row in N (tests/sample.h's rule).
#   - A source cut short and one with trailing bytes: both come back
#     byte for byte; dumpcheck of the cut one's conversion reports
#     vmcore.load-past-eof as the source's does.
#   - The real vmcores of tests/data/vmcore: to portable and back (cmp),
#     the same --checksum, readelf without a warning, libkdumpfile's 1,000
#     reads of the portable file equal to dumpkit's of the source.
#   - The real crash (tests/data/linux/real-x86_64.kdump.xz; its --to elf
#     is a vmcore): to portable and back (cmp); makedumpfile --dump-dmesg
#     of the portable file prints tests/data/linux/real-x86_64.dmesg
#     exactly, as from the source; libkdumpfile reads 1,000 addresses;
#     gdb-multiarch reads init_uts_ns at its kernel-text and direct-map
#     addresses (the physical PT_LOADs' p_vaddr, and the virtual ones').
#   - Damaged source header notes: dumpconv --to native, dumpinfo and
#     dumpcheck say what is wrong (exit 2, or 1 for dumpcheck's
#     findings), never a crash; a vmcore whose PT_NOTE runs into its first
#     segment's data is refused with the reason.
#
# Needs binutils, elfutils, gdb-multiarch, libkdumpfile
# (tests/kdumpfile_read), makedumpfile, python3, xz.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
KR=${KDUMPFILE_READ:-$B/tests/kdumpfile_read}
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/data/linux
# Scratch in memory where there is /dev/shm (64 MiB fixtures, read
# several times each), unless TMPDIR says.
tmp=${TMPDIR:-/tmp}
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
T=$(mktemp -d "$tmp/dkvmp.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'rm -rf "$T"; exit 130' INT TERM
. "$HERE/tap.sh"
export DUMPKIT_NO_FSYNC=${DUMPKIT_NO_FSYNC:-1}
SEED=7
SAMPLE=${DK_TEST_SAMPLE:-1}
case $SAMPLE in ''|*[!0-9]*|0) SAMPLE=1 ;; esac

for t in readelf eu-readelf makedumpfile gdb-multiarch python3 xz cmp; do
	command -v "$t" >/dev/null 2>&1 && ok "$t is installed" ||
	    no "$t is installed"
done
[ -x "$KR" ] && ok "kdumpfile_read is built" ||
    no "kdumpfile_read is built ($KR: make $KR)"

# The digest dumpcheck --checksum prints for file $1.
digest() { "$BIN/dumpcheck" --checksum "$1" 2>/dev/null |
    awk '$2 == "checksum" { print $3 }'; }
# "CORE VMCOREINFO": readelf -nW's counts of the notes of those owners.
nnotes() { readelf -nW "$1" 2>/dev/null | awk '$1 == "CORE" { c++ }
    $1 == "VMCOREINFO" { v++ } END { print c + 0, v + 0 }'; }

# ---------------------------------------------------------------------------
# Every generated vmcore.

i=-1
while read -r fmt arch ver var desc; do
	[ "$fmt" = vmcore ] || continue
	i=$((i + 1))
	[ "$SAMPLE" -gt 1 ] && [ $((i % SAMPLE)) -ne 0 ] && continue
	d="$arch $var"
	f=$T/src.vmcore p=$T/p.elf
	if ! "$BIN/dumpgen" -q --format vmcore --arch "$arch" --producer "$var" \
	    --mem 64M --seed $SEED -o "$f" 2>"$T/err"; then
		no "$d: dumpgen writes it" "$(cat "$T/err")"
		continue
	fi
	if ! "$BIN/dumpconv" -q "$f" -o "$p" 2>"$T/err"; then
		no "$d: dumpconv converts it to the portable format" "$(cat "$T/err")"
		rm -f "$f"
		continue
	fi
	out=$("$BIN/dumpcheck" --checksum "$p" 2>&1)
	[ $? = 0 ] && grep -q ': 0 errors, 0 warnings' <<<"$out" &&
	    ok "$d: dumpcheck of the portable file: no error, no warning" ||
	    no "$d: dumpcheck of the portable file: no error, no warning" "$out"
	a=$(digest "$f") b=$(awk '$2 == "checksum" { print $3 }' <<<"$out")
	[ -n "$a" ] && [ "$a" = "$b" ] &&
	    ok "$d: dumpcheck --checksum is the source's" ||
	    no "$d: dumpcheck --checksum is the source's" "source '$a', portable '$b'"
	"$BIN/dumpconv" -q --to native "$p" -o "$T/back" 2>"$T/err" &&
	    cmp "$f" "$T/back" >"$T/cmp" 2>&1 &&
	    ok "$d: --to native gives the source back, byte for byte" ||
	    no "$d: --to native gives the source back" "$(cat "$T/err" "$T/cmp")"
	rm -f "$T/back"
	e1=$(readelf -lnW "$p" 2>&1 >/dev/null; echo "exit $?")
	e2=$(eu-readelf -l -n "$p" 2>&1 >/dev/null; echo "exit $?")
	[ "$e1" = "exit 0" ] && [ "$e2" = "exit 0" ] &&
	    ok "$d: readelf -lnW and eu-readelf -ln: no warning" ||
	    no "$d: readelf -lnW and eu-readelf -ln: no warning" "$e1
$e2"
	# p_align 0 on every PT_LOAD, as in the source (crash takes a
	# nonzero one for the page size).
	al=$(readelf -lW "$p" 2>/dev/null | awk '$1 == "LOAD" { print $NF }' | sort -u | tr '\n' ' ')
	[ "$al" = "0 " ] && ok "$d: readelf -l: every PT_LOAD's p_align 0" ||
	    no "$d: readelf -l: every PT_LOAD's p_align 0" "p_align: $al"
	first=$(readelf -lW "$p" 2>/dev/null | awk '$1 == "NOTE" || $1 == "LOAD" { print $1; exit }')
	read -r np vp <<<"$(nnotes "$p")"
	read -r ns vs <<<"$(nnotes "$f")"
	[ "$first" = NOTE ] && [ "$np" = 2 ] && [ "$ns" = 2 ] &&
	    [ "$vp" = "$vs" ] &&
	    ok "$d: program header 0 is the PT_NOTE; readelf -n: the source's 2 NT_PRSTATUS, $vs VMCOREINFO" ||
	    no "$d: program header 0 is the PT_NOTE, with the source's notes" \
	    "first $first; CORE notes $np (source $ns); VMCOREINFO $vp (source $vs)"
	expect_exit "$d: libkdumpfile reads 1000 addresses of it as dumpkit reads the source" \
	    0 "machphys: 1000 of 1000 equal" "$KR" -e -n 1000 "$p" "$f"
	expect_exit "$d: libkdumpfile's physical reads of it are the fixture pattern" \
	    0 "machphys: 300 of 300 equal" "$KR" -p $SEED -n 300 "$p"
	rm -f "$f" "$p"
done < <("$BIN/dumpgen" --list)

# ---------------------------------------------------------------------------
# Cut short, trailing bytes.

"$BIN/dumpgen" -q --format vmcore --arch amd64 --producer kernel --mem 64M \
    --seed $SEED -o "$T/k.vmcore"
"$BIN/dumpgen" -q --format vmcore --arch s390x --producer qemu-7.2 --mem 64M \
    --seed $SEED -o "$T/q.vmcore"
head -c 20000000 "$T/k.vmcore" >"$T/cut.vmcore"
# Cut 100 bytes into the first segment's data.
h=$(readelf -lW "$T/k.vmcore" | awk '$1 == "LOAD" { print $2 }' |
    while read -r o; do echo $((o)); done | sort -n | head -1)
head -c $((h + 100)) "$T/k.vmcore" >"$T/tiny.vmcore"
{ cat "$T/q.vmcore"; printf 'bytes after the last segment\n'; } >"$T/trail.vmcore"
for n in cut tiny trail; do
	"$BIN/dumpconv" -q "$T/$n.vmcore" -o "$T/$n.elf" 2>"$T/err" &&
	    "$BIN/dumpconv" -q --to native "$T/$n.elf" -o "$T/$n.back" 2>>"$T/err" &&
	    cmp "$T/$n.vmcore" "$T/$n.back" >>"$T/err" 2>&1 &&
	    ok "$n vmcore: to portable and back, byte for byte" ||
	    no "$n vmcore: to portable and back, byte for byte" "$(cat "$T/err")"
done
expect_exit "cut vmcore: dumpcheck of its conversion reports the missing bytes" \
    1 "error .*vmcore.load-past-eof" "$BIN/dumpcheck" "$T/cut.elf"
a=$(digest "$T/trail.vmcore") b=$(digest "$T/trail.elf")
[ -n "$a" ] && [ "$a" = "$b" ] &&
    ok "trail vmcore: dumpcheck --checksum is the source's" ||
    no "trail vmcore: dumpcheck --checksum is the source's" "'$a' '$b'"
expect_exit "--drop-zero of a vmcore is refused, named" \
    3 "drop-zero" "$BIN/dumpconv" --drop-zero "$T/k.vmcore" -o "$T/dz.elf"

# ---------------------------------------------------------------------------
# The real crash.

xz -dc "$DATA/real-x86_64.kdump.xz" >"$T/real.kdump"
if "$BIN/dumpconv" -q --to elf "$T/real.kdump" -o "$T/real.vmcore" 2>"$T/err" &&
    "$BIN/dumpconv" -q "$T/real.vmcore" -o "$T/real.elf" 2>>"$T/err" &&
    "$BIN/dumpconv" -q --to native "$T/real.elf" -o "$T/real.back" 2>>"$T/err" &&
    cmp "$T/real.vmcore" "$T/real.back" >>"$T/err" 2>&1; then
	ok "real crash: its vmcore to portable and back, byte for byte"
else
	no "real crash: its vmcore to portable and back, byte for byte" "$(cat "$T/err")"
fi
makedumpfile --dump-dmesg "$T/real.elf" "$T/real.dmesg" >"$T/m.log" 2>&1 &&
    cmp "$T/real.dmesg" "$DATA/real-x86_64.dmesg" >>"$T/m.log" 2>&1 &&
    ok "real crash: makedumpfile --dump-dmesg of the portable file prints the kernel's log" ||
    no "real crash: makedumpfile --dump-dmesg of the portable file prints the kernel's log" "$(cat "$T/m.log")"
expect_exit "real crash: libkdumpfile reads 1000 addresses of the portable file as dumpkit reads the vmcore" \
    0 "machphys: 1000 of 1000 equal" "$KR" -e "$T/real.elf" "$T/real.vmcore"
# init_uts_ns (VMCOREINFO's SYMBOL) at its kernel-text and direct-map
# addresses (PA 0x2bfb000: phys_base 0, KERNELOFFSET 0).
out=$(timeout 120 gdb-multiarch -nx -batch -ex 'set architecture i386:x86-64' \
    -ex "core-file $T/real.elf" -ex 'x/s 0xffffffff82bfb000' \
    -ex 'x/s 0xffff888002bfb000' 2>&1)
[ "$(grep -c ':[[:space:]]*"Linux"$' <<<"$out")" = 2 ] &&
    ok "real crash: gdb-multiarch reads init_uts_ns at its kernel-text and direct-map addresses" ||
    no "real crash: gdb-multiarch reads init_uts_ns at both addresses" "$out"
out=$("$BIN/dumpcheck" "$T/real.elf" 2>&1)
grep -q ': 0 errors, 0 warnings' <<<"$out" &&
    ok "real crash: dumpcheck of the portable file: no error, no warning" ||
    no "real crash: dumpcheck of the portable file: no error, no warning" "$out"

# ---------------------------------------------------------------------------
# The real vmcores of tests/data/vmcore (QEMU 7.2's of six architectures,
# paging with PN_XNUM, the kernel's, makedumpfile -E's; some cut short).

for x in "$HERE"/data/vmcore/*.xz; do
	n=$(basename "$x" .xz)
	xz -dc "$x" >"$T/r.src"
	if "$BIN/dumpconv" -q "$T/r.src" -o "$T/r.elf" 2>"$T/err" &&
	    "$BIN/dumpconv" -q --to native "$T/r.elf" -o "$T/r.back" 2>>"$T/err" &&
	    cmp "$T/r.src" "$T/r.back" >>"$T/err" 2>&1; then
		ok "real $n: to portable and back, byte for byte"
	else
		no "real $n: to portable and back, byte for byte" "$(cat "$T/err")"
		continue
	fi
	a=$(digest "$T/r.src") b=$(digest "$T/r.elf")
	e1=$(readelf -lnW "$T/r.elf" 2>&1 >/dev/null; echo "exit $?")
	[ -n "$a" ] && [ "$a" = "$b" ] && [ "$e1" = "exit 0" ] &&
	    ok "real $n: the source's --checksum; readelf opens it without a warning" ||
	    no "real $n: the source's --checksum; readelf without a warning" "'$a' '$b' $e1"
	expect_exit "real $n: libkdumpfile reads 1000 addresses of it as dumpkit reads the source" \
	    0 "machphys: 1000 of 1000 equal" "$KR" -e -n 1000 "$T/r.elf" "$T/r.src"
	rm -f "$T/r.src" "$T/r.elf" "$T/r.back"
done

# ---------------------------------------------------------------------------
# Damaged source header notes, and a vmcore that cannot be converted.

# damage IN OUT KIND: the source header note of portable file IN damaged.
damage() {
	python3 - "$@" <<'EOF'
import struct, sys
src, out, kind = sys.argv[1], sys.argv[2], sys.argv[3]
b = bytearray(open(src, 'rb').read())
E = '<' if b[5] == 1 else '>'
phoff = struct.unpack_from(E + 'Q', b, 32)[0]
if kind == 'vmcore':
    # Not a portable file: an ELF64 vmcore whose PT_LOADs start inside
    # its PT_NOTE segment.
    pn = struct.unpack_from(E + 'H', b, 56)[0]
    t = [struct.unpack_from(E + 'I', b, phoff + i * 56)[0] for i in range(pn)]
    no = struct.unpack_from(E + 'Q', b, phoff + t.index(4) * 56 + 8)[0]
    for i in range(pn):
        if t[i] == 1:
            struct.pack_into(E + 'Q', b, phoff + i * 56 + 8, no + 4)
    open(out, 'wb').write(b)
    sys.exit(0)
noff = struct.unpack_from(E + 'Q', b, phoff + 8)[0]
nsz = struct.unpack_from(E + 'Q', b, phoff + 32)[0]
o = noff
while o < noff + nsz:
    namesz, descsz, typ = struct.unpack_from(E + 'III', b, o)
    d = o + 12 + (namesz + 3) // 4 * 4
    if typ == 0x444b0002:
        break
    o = d + (descsz + 3) // 4 * 4
n = descsz
c64 = b[d + 4] == 2
Q = 'Q' if c64 else 'I'
ph = struct.unpack_from(E + Q, b, d + (32 if c64 else 28))[0]
pn = struct.unpack_from(E + 'H', b, d + (56 if c64 else 44))[0]
es = 56 if c64 else 32
if kind == 'magic':
    b[d] = 0
elif kind == 'phoff':
    struct.pack_into(E + Q, b, d + (32 if c64 else 28), 0x7fffffff)
elif kind == 'phnum':
    struct.pack_into(E + 'H', b, d + (56 if c64 else 44), 0xfffe)
elif kind == 'descsz':
    struct.pack_into(E + 'I', b, o + 4, n // 2)
elif kind == 'offset':
    for i in range(pn):
        p = d + ph + i * es
        if struct.unpack_from(E + 'I', b, p)[0] == 1:
            struct.pack_into(E + Q, b, p + (8 if c64 else 4), 0)
elif kind == 'cut':
    b = b[:d + n // 2]
open(out, 'wb').write(b)
EOF
}

"$BIN/dumpconv" -q "$T/k.vmcore" -o "$T/k.elf"
"$BIN/dumpconv" -q "$T/q.vmcore" -o "$T/q.elf"
for src in k q; do
	for kind in magic phoff phnum descsz offset cut; do
		d="$src: source header note damaged ($kind)"
		damage "$T/$src.elf" "$T/bad.elf" $kind
		out=$("$BIN/dumpconv" --to native "$T/bad.elf" -o "$T/bad.back" 2>&1)
		rc=$?
		if [ $rc = 2 ] && grep -Eq "source header note|program headers|PT_NOTE|info note|note of type" <<<"$out"; then
			ok "$d: --to native refuses it, saying why"
		elif [ $rc = 0 ] && [ $kind = phnum ]; then
			# A smaller count: headers that still make sense.
			ok "$d: --to native gives the note's bytes back (a count that still makes sense)"
		else
			no "$d: --to native refuses it, saying why" "exit $rc: $out"
		fi
		"$BIN/dumpinfo" "$T/bad.elf" >"$T/out" 2>&1; rc=$?
		[ $rc -lt 3 ] && ok "$d: dumpinfo exits $rc, no crash" ||
		    no "$d: dumpinfo exits < 3" "exit $rc: $(head -5 "$T/out")"
		"$BIN/dumpcheck" "$T/bad.elf" >"$T/out" 2>&1; rc=$?
		[ $rc -lt 3 ] && ok "$d: dumpcheck exits $rc, no crash" ||
		    no "$d: dumpcheck exits < 3" "exit $rc: $(head -5 "$T/out")"
	done
done
damage "$T/k.vmcore" "$T/odd.vmcore" vmcore
expect_exit "a vmcore whose PT_NOTE runs into its first segment's data is refused, named" \
    2 "PT_NOTE segment .* runs into its first PT_LOAD's data" \
    "$BIN/dumpconv" "$T/odd.vmcore" -o "$T/odd.elf"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
