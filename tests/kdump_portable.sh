#!/usr/bin/env bash
# makedumpfile's kdump-compressed files in the portable ELF minidump and
# back (source kind 5, docs/portable-elf-minidump.md 10.3), held against
# tools nobody here wrote, against a parse of the source by hand
# (tests/kdump_portable.py, no dumpkit code) and against the source
# file's own bytes.
#
#   - Each source: the real files of tests/data/kdump (makedumpfile's
#     cut mdf-*-d31.head, single --split parts, QEMU's s390x file
#     rearranged by makedumpfile -R), the real crash
#     (tests/data/linux/real-x86_64.kdump.xz), dumpconv --to kdump
#     outputs of each codec and level, and dumpgen --format kdump
#     fixtures of each codec, block size, header version, byte order and
#     ABI, incomplete, excluded, zero, eraseinfo and a --split part.
#     dumpconv to the portable file; --to native gives the source back
#     (cmp); dumpcheck of it exits as the source's does, with errors and
#     warnings where the source has them (the codes are printed: a cut
#     source's file.truncated is the portable file's kdump.incomplete),
#     and its --checksum is the source's; dumpinfo --json reads it;
#     readelf -lnW and eu-readelf -ln open it without a word on stderr,
#     its program header 0 is the PT_NOTE, and readelf -n lists the
#     source's own ELF notes (NT_PRSTATUS, VMCOREINFO, QEMU's: as the
#     Python parse of its offset_note/size_note area finds them).
#     Against the source's header, bitmaps and descriptors parsed in
#     Python: the info note's fields; the source header note (the bytes
#     up to the end of the descriptors), the encoders note's codecs and
#     image size, the records note of a flattened file; the physical
#     PT_LOADs cover exactly the PFNs whose pages the file holds, one per
#     run; the first 200 stored pages, the first 200 a codec encodes and
#     the last 50, decoded in Python (zlib; lzo and snappy by its own
#     decoders; zstd by the zstd tool), equal the portable file's bytes
#     at PFN x block_size, and those of zeros are holes; libkdumpfile
#     reads 1,000 random physical addresses of it equal to dumpkit's
#     reads of the source.  DK_TEST_SAMPLE=N runs one generated fixture
#     in N (tests/sample.h's rule).
#   - Flattened files (QEMU's *.flat, dumpgen's flat): converted and back
#     as above, or refused (exit 2) naming makedumpfile -R; the ok line
#     says which.
#   - The real crash: makedumpfile --dump-dmesg of the portable file
#     prints tests/data/linux/real-x86_64.dmesg exactly; gdb-multiarch
#     reads init_uts_ns at its direct-map address (the PT_LOADs' p_vaddr)
#     and shows the crashed CPU's PC (the copied NT_PRSTATUS).
#   - A --split set given together: refused, naming its parts.
#   - Damage: the encoders note's level, encoder or codec changed, a bit of
#     a page changed: --to native exits 2 with a message and leaves no
#     file (dumpcheck sees the codec the note lacks); the portable file cut
#     inside its page data: dumpinfo, dumpcheck and --to native say what
#     is wrong (exit 1 or 2), never crash.
#   - Nothing lost: dumpconv SRC -o EXISTING (and --to native) without
#     --force refuses and leaves EXISTING as it was.
#
# Needs binutils, elfutils, gdb-multiarch, libkdumpfile (tests/kdumpfile_read),
# makedumpfile, python3, xz, zstd.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
KR=${KDUMPFILE_READ:-$B/tests/kdumpfile_read}
HERE=$(cd "$(dirname "$0")" && pwd)
KDATA=$HERE/data/kdump
LDATA=$HERE/data/linux
tmp=${TMPDIR:-/tmp}
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
T=$(mktemp -d "$tmp/dkkdp.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'rm -rf "$T"; exit 130' INT TERM
. "$HERE/tap.sh"
export DUMPKIT_NO_FSYNC=${DUMPKIT_NO_FSYNC:-1}
SAMPLE=${DK_TEST_SAMPLE:-1}
case $SAMPLE in ''|*[!0-9]*|0) SAMPLE=1 ;; esac
PY() { python3 "$HERE/kdump_portable.py" "$@"; }
NPAGES=200

for t in readelf eu-readelf makedumpfile gdb-multiarch python3 xz zstd cmp; do
	command -v "$t" >/dev/null 2>&1 && ok "$t is installed" ||
	    no "$t is installed"
done
[ -x "$KR" ] && ok "kdumpfile_read is built" ||
    no "kdumpfile_read is built ($KR: make $KR)"

# "SEVERITY CODE" of dumpcheck's findings above note level in $1 (its
# output), one line each, sorted.
sevs() { awk '($1 == "error" || $1 == "warning") && $3 ~ /:$/ {
    print $1, substr($3, 1, length($3) - 1) }' <<<"$1" | sort -u; }
# A crash: killed by a signal (exit 128 + N) or a sanitizer's report.
crashed() { [ "$1" -ge 128 ] || grep -q 'Sanitizer\|runtime error' "$2"; }

# portable NAME SRC [FLAT] [QUIRKS]: the checks of a source (a plain
# file; a flattened one when FLAT is set: refused naming makedumpfile -R,
# or converted and checked as the others).  QUIRKS, a list of words:
#   i386prs  the source's NT_PRSTATUS is i386's 144 bytes in an x86_64
#            dump (QEMU's x86 CPUs not in long mode, firmware guests): the
#            portable file is x86_64's (its info note's), and libkdumpfile
#            refuses it, as it refuses any x86_64 ELF core with that note
#            (dumpconv --to elf writes EM_386 for such a source instead).
#   novirt   the source lacks its page tables (cut, or a split part): the
#            kernel virtual addresses the PT_LOADs' p_vaddr give
#            libkdumpfile are not compared with dumpkit's (kdumpfile_read
#            -x), which translates through the page tables only.
#   layout   the source breaks kdump layout rules (kdump.desc-*): dumpcheck
#            of the portable file checks its content only, and says so
#            (check.incomplete), the layout being the native file's.
# Leaves $T/p.elf.
portable() {
	local d=$1 f=$2 flat=${3:-} quirks=" ${4:-} " p=$T/p.elf out rc a b e1 e2 first held sum
	local cs cp rs rp counts
	rm -f "$p" "$T/back"
	out=$("$BIN/dumpconv" -q "$f" -o "$p" 2>&1); rc=$?
	if [ -n "$flat" ] && [ $rc = 2 ] && grep -q 'makedumpfile -R' <<<"$out" &&
	    grep -qi 'flat' <<<"$out"; then
		ok "$d: flattened: refused for now (exit 2), naming makedumpfile -R"
		[ ! -e "$p" ] && ok "$d: refused: no output file left" ||
		    no "$d: refused: no output file left"
		return 1
	fi
	if [ $rc != 0 ]; then
		no "$d: dumpconv converts it to the portable format" "exit $rc: $out"
		return 1
	fi
	if [ -n "$flat" ]; then
		ok "$d: flattened: converted to the portable format"
	fi
	# Against the hand parse, first (whether pages of zeros are holes: a
	# read through a shared map of a tmpfs file fills the holes it faults
	# in); two lines, the info note's fields and the rest.
	out=$(PY pages "$f" "$p" $NPAGES 2>&1)
	sum=$(tail -1 <<<"$out")
	held=$(sed -n 's/^\([0-9]*\) of [0-9]* pages held.*/\1/p' <<<"$sum")
	[ -n "$held" ] || sum=
	a=$(grep '^info note:' <<<"$out")
	b=$(grep -v '^info note:' <<<"$out" | sed '$d')
	[ -n "$sum" ] && [ -z "$a" ] &&
	    ok "$d: the info note's fields are the source's (Python's parse)" ||
	    no "$d: the info note's fields are the source's (Python's parse)" "$a"
	[ -n "$sum" ] && [ -z "$b" ] &&
	    ok "$d: notes, PT_LOADs and pages against Python's parse of the source: $sum" ||
	    no "$d: notes, PT_LOADs and pages against Python's parse of the source" "$b
$sum"
	"$BIN/dumpconv" -q --to native "$p" -o "$T/back" 2>"$T/err" &&
	    cmp "$f" "$T/back" >"$T/cmp" 2>&1 &&
	    ok "$d: --to native gives the source back, byte for byte" ||
	    no "$d: --to native gives the source back" "$(cat "$T/err" "$T/cmp")
source $(stat -c %s "$f") bytes, back $(stat -c %s "$T/back" 2>/dev/null) bytes"
	rm -f "$T/back"
	# dumpcheck: the source's findings above note level, no more.
	cs=$("$BIN/dumpcheck" --checksum "$f" 2>&1); rs=$?
	cp=$("$BIN/dumpcheck" --checksum "$p" 2>&1); rp=$?
	# The same exit status, and errors and warnings where the source has
	# them: the codes may differ (a cut source's file.truncated is the
	# portable file's kdump.incomplete), and are printed.
	if [ "${quirks#* layout }" != "$quirks" ]; then
		if [ $rp = 0 ] && [ $rs = 1 ] && grep -q 'check.incomplete.*layout rules' <<<"$cp" &&
		    grep -q 'kdump\.desc-' <<<"$cs"; then
			ok "$d: dumpcheck: the source's layout findings ($(sevs "$cs" | tr '\n' ' ' | sed 's/ $//')) are the native file's; the portable file's content passes, and it says its layout is checked natively"
		else
			no "$d: dumpcheck: the source's layout findings, and the portable file's check.incomplete" \
			    "source exit $rs: $(sevs "$cs" | tr '\n' ' ')
portable exit $rp: $(sevs "$cp" | tr '\n' ' ')"
		fi
	elif [ $rs = $rp ] && [ "$(sevs "$cs" | cut -d' ' -f1 | uniq)" = \
	    "$(sevs "$cp" | cut -d' ' -f1 | uniq)" ]; then
		if [ $rs = 0 ] && grep -q ': 0 errors, 0 warnings' <<<"$cp"; then
			ok "$d: dumpcheck of the portable file: no error, no warning"
		else
			ok "$d: dumpcheck of the portable file: exit $rp, as the source's ($(sevs "$cs" | tr '\n' ' ' | sed 's/ $//'); the portable file's: $(sevs "$cp" | tr '\n' ' ' | sed 's/ $//'))"
		fi
	else
		no "$d: dumpcheck of the portable file: the source's findings and exit status" \
		    "source exit $rs: $(sevs "$cs" | tr '\n' ' ')
portable exit $rp: $(sevs "$cp" | tr '\n' ' ')
$(grep -v '^  note' <<<"$cp" | head -8)"
	fi
	a=$(awk '$2 == "checksum" { print $3 }' <<<"$cs")
	b=$(awk '$2 == "checksum" { print $3 }' <<<"$cp")
	[ -n "$a" ] && [ "$a" = "$b" ] &&
	    ok "$d: dumpcheck --checksum is the source's" ||
	    no "$d: dumpcheck --checksum is the source's" "source '$a', portable '$b'"
	# dumpinfo describes it, in JSON too.
	"$BIN/dumpinfo" --json "$p" >"$T/info.json" 2>"$T/err"; rc=$?
	[ $rc = 0 ] && python3 -m json.tool "$T/info.json" >/dev/null 2>>"$T/err" &&
	    ok "$d: dumpinfo --json of the portable file: exit 0, JSON" ||
	    no "$d: dumpinfo --json of the portable file: exit 0, JSON" "exit $rc: $(head -c 600 "$T/err")"
	# ELF tools, and the source's own notes.
	e1=$(readelf -lnW "$p" 2>&1 >/dev/null; echo "exit $?")
	e2=$(eu-readelf -l -n "$p" 2>&1 >/dev/null; echo "exit $?")
	[ "$e1" = "exit 0" ] && [ "$e2" = "exit 0" ] &&
	    ok "$d: readelf -lnW and eu-readelf -ln: no warning" ||
	    no "$d: readelf -lnW and eu-readelf -ln: no warning" "$e1
$e2"
	first=$(readelf -lW "$p" 2>/dev/null | awk '$1 == "NOTE" || $1 == "LOAD" { print $1; exit }')
	readelf -nW "$p" >"$T/rn" 2>/dev/null
	PY notes "$f" >"$T/sn" 2>&1
	PY readelf-notes "$T/rn" >"$T/pn" 2>&1
	counts=$(head -1 "$T/sn")
	if [ "$first" = NOTE ] && tail -n +2 "$T/sn" | cmp -s - "$T/pn"; then
		ok "$d: program header 0 is the PT_NOTE; readelf -n lists the source's $(tail -n +2 "$T/sn" | wc -l) notes (${counts:-?})"
	else
		no "$d: program header 0 is the PT_NOTE; readelf -n lists the source's notes" \
		    "first $first; the source's (Python): $(tail -n +2 "$T/sn" | tr '\n' ' ')
readelf's of the portable file: $(tr '\n' ' ' <"$T/pn")"
	fi
	if [ "${held:-1}" = 0 ]; then
		[ "$(readelf -lW "$p" 2>/dev/null | grep -c '^  LOAD')" = 0 ] &&
		    ok "$d: no page held, no PT_LOAD" ||
		    no "$d: no page held, no PT_LOAD"
	elif [ "${quirks#* i386prs }" != "$quirks" ]; then
		expect_exit "$d: libkdumpfile refuses it for its i386 NT_PRSTATUS in an x86_64 core (a known quirk of the source)" \
		    2 "Wrong PRSTATUS size: 144" "$KR" -e -n 1000 "$p" "$f"
	elif [ "${quirks#* novirt }" != "$quirks" ]; then
		expect_exit "$d: libkdumpfile reads 1000 physical addresses of it as dumpkit reads the source" \
		    0 "machphys: 1000 of 1000 equal" "$KR" -e -x -n 1000 "$p" "$f"
	else
		expect_exit "$d: libkdumpfile reads 1000 addresses of it as dumpkit reads the source" \
		    0 "machphys: 1000 of 1000 equal" "$KR" -e -n 1000 "$p" "$f"
	fi
	return 0
}

# ---------------------------------------------------------------------------
# The real files.

for n in mdf-zlib-d31.head mdf-lzo-d31.head mdf-none-d31.head \
    mdf-split8-lzo-d31.4 mdf-split8-lzo-d31.5 mdf-split4-lzo-d31.2 \
    s390x-fw.kdump-zlib; do
	xz -dc "$KDATA/$n.xz" >"$T/$n"
	q=
	[ "${n#mdf-}" != "$n" ] && q=novirt
	portable "real $n" "$T/$n" "" "$q"
	rm -f "$T/$n"
done
for n in x86_64-fw.kdump-zlib.flat s390x-fw.kdump-zlib.flat \
    riscv64-fw.kdump-zlib.flat ppc64-fw.kdump-zlib.flat; do
	xz -dc "$KDATA/$n.xz" >"$T/$n"
	q=
	[ $n = x86_64-fw.kdump-zlib.flat ] && q=i386prs
	portable "real $n" "$T/$n" flat "$q"
	[ $n = x86_64-fw.kdump-zlib.flat ] || rm -f "$T/$n"
done

# The real crash, and makedumpfile --dump-dmesg of its portable file.
xz -dc "$LDATA/real-x86_64.kdump.xz" >"$T/real.kdump"
if portable "real crash" "$T/real.kdump" "" layout; then
	mv "$T/p.elf" "$T/real.elf"
	# gdb: the direct map (the PT_LOADs' p_vaddr) and the crashed CPU's
	# NT_PRSTATUS, from the copied notes.
	out=$(timeout 120 gdb-multiarch -nx -batch -ex 'set architecture i386:x86-64' \
	    -ex "core-file $T/real.elf" -ex 'x/s 0xffff888002bfb000' 2>&1)
	grep -q '0xffff888002bfb000:[[:space:]]*"Linux"' <<<"$out" &&
	    grep -q '^#0  0xffffffff8' <<<"$out" &&
	    ok "real crash: gdb-multiarch reads init_uts_ns at its direct-map address and the crashed CPU's PC" ||
	    no "real crash: gdb-multiarch reads init_uts_ns at its direct-map address" "$out"
	makedumpfile --dump-dmesg "$T/real.elf" "$T/real.dmesg" >"$T/m.log" 2>&1 &&
	    cmp "$T/real.dmesg" "$LDATA/real-x86_64.dmesg" >>"$T/m.log" 2>&1 &&
	    ok "real crash: makedumpfile --dump-dmesg of the portable file prints the kernel's log" ||
	    no "real crash: makedumpfile --dump-dmesg of the portable file prints the kernel's log" "$(cat "$T/m.log")"
fi

# dumpkit's kdump writer: libdeflate, lzo1x_999, snappy, zstd at levels
# the survey must find (the pages of real firmware guests compress: the
# x86_64 one little-endian, the s390x one big-endian).
xz -dc "$KDATA/s390x-fw.kdump-zlib.xz" >"$T/s390x-fw.kdump"
for c in x86_64-fw.kdump-zlib.flat:zlib:6 x86_64-fw.kdump-zlib.flat:lzo:9 \
    s390x-fw.kdump:lzo:1 s390x-fw.kdump:snappy s390x-fw.kdump:zstd:3; do
	s=${c%%:*} c=${c#*:}
	o=$T/conv-${c/:/}.kdump
	if ! "$BIN/dumpconv" -q --to kdump --compress "$c" \
	    "$T/$s" -o "$o" 2>"$T/err"; then
		no "dumpconv --to kdump --compress $c $s" "$(cat "$T/err")"
		continue
	fi
	q=
	[ "${s#x86_64}" != "$s" ] && q=i386prs
	if portable "dumpconv --to kdump --compress $c ${s%%.*}" "$o" "" "$q"; then
		case $c in
		zlib:6|lzo:9|zstd:3) mv "$T/p.elf" "$T/${c/:/}.elf" ;;
		esac
	fi
	rm -f "$o"
done
rm -f "$T/x86_64-fw.kdump-zlib.flat" "$T/s390x-fw.kdump"

# ---------------------------------------------------------------------------
# Generated fixtures: "ARCH VERSION VARIANT" (fixtures/gen_kdump.c).  A
# 4 KiB pattern page does not compress (stored as it is, flag 0); a larger
# block, three 4 KiB frames in four zero, does, and so does the shared
# zero page.  splitN: part 2 alone.

i=-1
while read -r arch ver var; do
	i=$((i + 1))
	[ "$SAMPLE" -gt 1 ] && [ $((i % SAMPLE)) -ne 0 ] && continue
	d="dumpgen $arch v$ver $var"
	f=$T/g.kdump
	rm -f "$f" "$f".*
	if ! "$BIN/dumpgen" -q --format kdump --arch "$arch" --version "$ver" \
	    --variant "$var" --mem 16M --seed 3 -o "$f" 2>"$T/err"; then
		no "$d: dumpgen writes it" "$(cat "$T/err")"
		continue
	fi
	case $var in
	*split*) mv "$f.2" "$f"; rm -f "$f".* ;;
	esac
	case $var in
	*flat*) portable "$d" "$f" flat ;;
	*) portable "$d" "$f" ;;
	esac
	rm -f "$f" "$T/p.elf"
done <<'EOF'
amd64 6 zlib
amd64 6 lzo,16k
amd64 6 snappy,64k
amd64 6 zstd,8k
amd64 6 none,32k
amd64 1 zlib
amd64 2 lzo
amd64 3 zlib
amd64 4 snappy,8k
amd64 5 zstd
s390x 6 zlib
s390x 4 lzo,64k
powerpc64 6 zstd,64k
i386 6 zlib
i386 3 lzo
arm 6 zlib
arm 5 none
powerpc 6 lzo,16k
amd64 6 incomplete
amd64 6 incomplete,lzo
s390x 6 incomplete,zstd,16k
amd64 6 excluded
amd64 6 excluded,snappy
amd64 6 zero
amd64 6 zero,lzo
s390x 6 zero,zstd
amd64 6 eraseinfo
amd64 6 split3
amd64 6 split4,lzo,excluded
amd64 6 flat
amd64 6 eraseinfo,flat
EOF

# A --split set given together: refused, naming the parts to convert one
# by one (10.3); nothing written.
"$BIN/dumpgen" -q --format kdump --arch amd64 --mem 8M --variant split3 -o "$T/set"
out=$("$BIN/dumpconv" "$T/set.1" "$T/set.2" "$T/set.3" -o "$T/set.elf" 2>&1); rc=$?
if { [ $rc = 2 ] || [ $rc = 3 ]; } && [ ! -e "$T/set.elf" ] &&
    grep -q 'set\.1' <<<"$out" && grep -q 'set\.3' <<<"$out"; then
	ok "a --split set given together: refused (exit $rc), naming its parts, nothing written"
else
	no "a --split set given together: refused, naming its parts, nothing written" \
	    "exit $rc: $out$([ -e "$T/set.elf" ] && echo " (and $T/set.elf written)")"
fi
rm -f "$T/set".*

# ---------------------------------------------------------------------------
# Damage.

# The encoders note changed: --to native refuses, says why, writes nothing.
for x in real:level zlib6:level zlib6:encoder lzo9:encoder zstd3:level \
    real:codec lzo9:codec; do
	src=${x%%:*} kind=${x#*:}
	d="damaged encoders note ($src, $kind)"
	if [ ! -e "$T/$src.elf" ]; then
		no "$d: its portable file was written above"
		continue
	fi
	if ! what=$(PY damage-enc "$T/$src.elf" "$T/bad.elf" "$kind" 2>&1); then
		no "$d: the encoders note found and changed" "$what"
		continue
	fi
	mkdir -p "$T/out"
	rm -rf "$T/out"/* "$T/out"/.[!.]* 2>/dev/null
	out=$("$BIN/dumpconv" --to native "$T/bad.elf" -o "$T/out/back" 2>&1); rc=$?
	left=$(ls -A "$T/out")
	if [ $rc = 2 ] && [ -n "$out" ] && [ -z "$left" ]; then
		ok "$d ($what): --to native exits 2, leaves no file: $(head -1 <<<"$out")"
	else
		no "$d ($what): --to native exits 2, says why, leaves no file" \
		    "exit $rc, files left: '$left', output: $out"
	fi
	"$BIN/dumpcheck" "$T/bad.elf" >"$T/out.txt" 2>&1; rc=$?
	if crashed $rc "$T/out.txt"; then
		no "$d: dumpcheck does not crash" "exit $rc: $(head -5 "$T/out.txt")"
	elif [ $kind = codec ]; then
		# 10.3: dumpcheck checks the encoders note against the
		# descriptors; a codec they use has no entry.
		[ $rc = 1 ] && grep -q '^  error' "$T/out.txt" &&
		    ok "$d: dumpcheck reports it: $(grep -m1 '^  error' "$T/out.txt" | sed 's/^  error *[^ ]* *//' | cut -c1-150)" ||
		    no "$d: dumpcheck reports an error (the descriptors' codec has no encoder)" \
		    "exit $rc: $(head -5 "$T/out.txt")"
	else
		ok "$d: dumpcheck exits $rc, no crash"
	fi
done

# A bit of a page changed in the portable file: its re-encoding, or the
# CRC-32 of the pages the encoders note keeps, says so; --to native
# exits 2 and writes nothing, never a wrong file.
# (dumpgen's pattern pages do not compress: stored as they are.)
"$BIN/dumpgen" -q --format kdump --arch amd64 --mem 8M -o "$T/pl.kdump" &&
    "$BIN/dumpconv" -q "$T/pl.kdump" -o "$T/pl.elf"
for x in real:coded pl:plain; do
	src=${x%%:*} kind=${x#*:}
	d="a bit of a $kind page of the $src portable file changed"
	[ -e "$T/$src.elf" ] || continue
	if ! what=$(PY damage-page "$T/$src.elf" "$T/$src.kdump" "$T/bad.elf" $kind 2>&1); then
		no "$d: such a page found" "$what"
		continue
	fi
	rm -rf "$T/out"; mkdir -p "$T/out"
	out=$("$BIN/dumpconv" --to native "$T/bad.elf" -o "$T/out/back" 2>&1); rc=$?
	left=$(ls -A "$T/out")
	[ $rc = 2 ] && [ -n "$out" ] && [ -z "$left" ] &&
	    ok "$d ($what): --to native exits 2, leaves no file: $(head -1 <<<"$out" | cut -c1-200)" ||
	    no "$d ($what): --to native exits 2, says why, leaves no file" \
	    "exit $rc, files left: '$left', output: $out"
done

# The portable file cut inside its page data.
for src in real zlib6; do
	[ -e "$T/$src.elf" ] || continue
	read -r doff nst psz size <<<"$(PY info "$T/$src.elf")"
	cut=$((doff + nst / 2 * psz + 100))
	d="$src portable file cut at $cut of $size bytes (inside its page data)"
	if [ -z "$doff" ] || [ "$cut" -ge "$size" ]; then
		no "$d: a cut point inside its page data" "data_offset '$doff', size '$size'"
		continue
	fi
	head -c "$cut" "$T/$src.elf" >"$T/cut.elf"
	rm -rf "$T/out"; mkdir -p "$T/out"
	out=$("$BIN/dumpconv" --to native "$T/cut.elf" -o "$T/out/back" 2>&1); rc=$?
	left=$(ls -A "$T/out")
	[ $rc = 2 ] && [ -n "$out" ] && [ -z "$left" ] &&
	    ok "$d: --to native exits 2, leaves no file: $(head -1 <<<"$out" | cut -c1-200)" ||
	    no "$d: --to native exits 2, says why, leaves no file" \
	    "exit $rc, files left: '$left', output: $out"
	"$BIN/dumpcheck" "$T/cut.elf" >"$T/out.txt" 2>&1; rc=$?
	if ! crashed $rc "$T/out.txt" && { [ $rc = 1 ] || [ $rc = 2 ]; }; then
		ok "$d: dumpcheck exits $rc: $(grep -m1 '^  error\|^dumpcheck' "$T/out.txt" | sed 's/^  error *[^ ]* *//' | cut -c1-150)"
	else
		no "$d: dumpcheck exits 1 or 2, says what is wrong" "exit $rc: $(head -5 "$T/out.txt")"
	fi
	"$BIN/dumpinfo" "$T/cut.elf" >"$T/out.txt" 2>&1; rc=$?
	# Exit 0 is fine if it says so: dumpinfo describes what it can.
	said=$(grep -i -m1 'trunc\|cut\|past the end\|ends at\|missing\|incomplete' "$T/out.txt" | cut -c1-200)
	if ! crashed $rc "$T/out.txt" && [ $rc -le 2 ] && [ -n "$said" ]; then
		ok "$d: dumpinfo exits $rc, says so: $said"
	else
		no "$d: dumpinfo says what is wrong (exit 1 or 2, or a warning), no crash" \
		    "exit $rc: $(grep -i 'warning\|error' "$T/out.txt" | head -5)"
	fi
done

# ---------------------------------------------------------------------------
# Nothing lost: an existing output without --force.

"$BIN/dumpgen" -q --format kdump --arch amd64 --mem 8M -o "$T/n.kdump"
printf 'precious bytes\n' >"$T/existing"
cp "$T/existing" "$T/existing.want"
expect_exit "dumpconv SRC -o EXISTING without --force is refused" \
    2 "exists.*--force" "$BIN/dumpconv" "$T/n.kdump" -o "$T/existing"
cmp -s "$T/existing" "$T/existing.want" &&
    ok "dumpconv SRC -o EXISTING: EXISTING is left as it was" ||
    no "dumpconv SRC -o EXISTING: EXISTING is left as it was"
if "$BIN/dumpconv" -q "$T/n.kdump" -o "$T/n.elf" 2>"$T/err"; then
	expect_exit "dumpconv --to native P -o EXISTING without --force is refused" \
	    2 "exists.*--force" "$BIN/dumpconv" --to native "$T/n.elf" -o "$T/existing"
	cmp -s "$T/existing" "$T/existing.want" &&
	    ok "dumpconv --to native P -o EXISTING: EXISTING is left as it was" ||
	    no "dumpconv --to native P -o EXISTING: EXISTING is left as it was"
	"$BIN/dumpconv" -q --force --to native "$T/n.elf" -o "$T/existing" 2>"$T/err" &&
	    cmp -s "$T/existing" "$T/n.kdump" &&
	    ok "dumpconv --force --to native replaces it with the source's bytes" ||
	    no "dumpconv --force --to native replaces it with the source's bytes" "$(cat "$T/err")"
else
	no "dumpconv converts dumpgen amd64 kdump" "$(cat "$T/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
