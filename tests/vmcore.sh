#!/usr/bin/env bash
# Linux ELF vmcores written by programs nobody here wrote (QEMU 7.2
# dump-guest-memory, the Linux 6.1 kernel's /proc/vmcore, makedumpfile
# 1.7.2 -E), committed small in tests/data/vmcore/ (README.md there: what
# each is and what readelf, eu-readelf and libkdumpfile report), read by
# dumpinfo and checked by dumpcheck, against:
#  - readelf -l: the physical ranges are the union of the PT_LOADs'
#    [p_paddr, p_paddr + p_filesz), and a read at a segment's p_paddr is
#    the file's bytes at its p_offset (dd);
#  - libkdumpfile: the bytes it read at fixed addresses of the complete
#    files (README.md), and 1,000 random machine-physical addresses of
#    each committed file it opens (tests/kdumpfile_read.c -e);
#  - eu-readelf -n: the kernel vmcore's NT_PRSTATUS pid, rip and rsp and
#    every VMCOREINFO line, as dumpkit's attributes;
#  - the quirks each producer is known for (shared/real-dumps/README.md)
#    as dumpinfo's "quirks" and dumpcheck's vmcore.quirk.* notes; the
#    complete files clean (no error, no warning), the cut ones with
#    vmcore.load-past-eof and DK_ENOTDUMPED where the bytes are gone.
# With /tmp/realdumps/dumps present (shared/real-dumps/make-real-dumps.sh
# ran), the big files there too.  Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
DATA=$TOP/tests/data/vmcore
KR=${KDUMPFILE_READ:-$B/tests/kdumpfile_read}
REAL=${REALDUMPS:-/tmp/realdumps/dumps}
T=$(mktemp -d "${TMPDIR:-/tmp}/dkvmcore.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$TOP/tests/tap.sh"

for x in "$DATA"/*.xz; do
	xz -dc "$x" > "$T/$(basename "$x" .xz)"
done

# The physical ranges readelf -l gives (the union of LOAD [paddr,
# paddr + filesz)), one "start end" a line, as dumpinfo --json has them.
cat > "$T/ranges.py" <<'EOF'
import json, subprocess, sys
mode, path = sys.argv[1], sys.argv[2]
if mode == 'readelf':
    out = subprocess.run(['readelf', '-l', '-W', path], capture_output=True,
                         text=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD' and int(f[4], 16) > 0:
            segs.append((int(f[3], 16), int(f[3], 16) + int(f[4], 16)))
    segs.sort()
    r = []
    for a, b in segs:
        if r and a <= r[-1][1]:
            r[-1][1] = max(r[-1][1], b)
        else:
            r.append([a, b])
else:
    j = json.load(open(path))
    r = [[int(x['start'], 16), int(x['end'], 16)]
         for x in j['physical_ranges']]
for a, b in r:
    print('%#x %#x' % (a, b))
EOF

# attr FILE NAME: the attribute's value in dumpinfo --json, or "-".
cat > "$T/attr.py" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
for a in j['attributes']:
    if a['name'] == sys.argv[2]:
        print(a['value'])
        break
else:
    print('-')
EOF
attr() { python3 "$T/attr.py" "$T/$1.json" "$2"; }

# The facts of each committed file (README.md): architecture, producer,
# the page size dumpkit must report (0: unknown), its quirks, clean or
# cut short.
facts="
x86_64-fw-part.elf i386 QEMU 4096 ehsize,shdr-first,elf64-em386,no-vmcoreinfo clean
x86_64-linux-part.elf amd64 QEMU 4096 ehsize,shdr-first clean
x86_64-linux-paging-hot.elf amd64 QEMU 4096 ehsize,shdr-first,pn-xnum,aliases clean
s390x-fw.elf s390x QEMU 4096 ehsize,shdr-first,shstrtab-swapped,no-vmcoreinfo clean
ppc64-fw.elf powerpc64 QEMU 0 ehsize,shdr-first,shstrtab-swapped,no-vmcoreinfo clean
riscv64-fw.elf riscv64 QEMU 4096 ehsize,shdr-first,no-vmcoreinfo clean
aarch64-fw.cut4m.elf aarch64 QEMU 0 ehsize,shdr-first,no-vmcoreinfo,truncated cut
x86_64-linux-paging.cut.elf amd64 QEMU 4096 ehsize,shdr-first,pn-xnum,non-canonical,truncated cut
x86_64-linux-kernel.cut256k.vmcore amd64 kernel 4096 truncated cut
mdf-d31.cut256k.elf amd64 makedumpfile 4096 excluded,truncated cut
"
while read -r f arch prod ps quirks state; do
	[ -n "$f" ] || continue
	if ! "$BIN/dumpinfo" --json "$T/$f" > "$T/$f.json" 2> "$T/err"; then
		no "$f: dumpinfo --json" "$(cat "$T/err")"
		continue
	fi
	got=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]));
print(j["format"], j["arch"], j["page_size"])' "$T/$f.json")
	[ "$got" = "vmcore $arch $ps" ] && ok "$f: vmcore $arch, page size $ps" ||
	    no "$f: format, arch, page size" "got $got, wanted vmcore $arch $ps"
	[ "$(attr "$f" producer)" = "$prod" ] && ok "$f: producer $prod" ||
	    no "$f: producer" "got $(attr "$f" producer), wanted $prod"
	[ "$(attr "$f" quirks)" = "$quirks" ] && ok "$f: quirks $quirks" ||
	    no "$f: quirks" "got $(attr "$f" quirks), wanted $quirks"
	python3 "$T/ranges.py" readelf "$T/$f" > "$T/want"
	python3 "$T/ranges.py" json "$T/$f.json" > "$T/got"
	if [ -s "$T/want" ] && cmp -s "$T/want" "$T/got"; then
		ok "$f: physical ranges = readelf -l's PT_LOADs ($(wc -l < "$T/got"))"
	else
		no "$f: physical ranges" "$(diff "$T/want" "$T/got")"
	fi
	# The first segment's first 64 bytes the file holds: dd at p_offset.
	read -r off pa <<<"$(readelf -l -W "$T/$f" 2>/dev/null | python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if f and f[0] == "LOAD" and int(f[4], 16) > 0:
        print(int(f[1], 16), f[3]); break')"
	want=$(dd if="$T/$f" bs=1 skip=$((off)) count=64 status=none | od -An -tx1 |
	    tr -s ' \n' ' ')
	got=$("$BIN/dumpinfo" --raw --read-pa "$pa:64" "$T/$f" 2>&1 | od -An -tx1 |
	    tr -s ' \n' ' ')
	[ -n "$want" ] && [ "$want" = "$got" ] &&
	    ok "$f: pa $pa reads the bytes at p_offset $off" ||
	    no "$f: pa $pa" "want $want got $got"
	"$BIN/dumpcheck" "$T/$f" > "$T/ck" 2>&1; rc=$?
	if [ "$state" = clean ]; then
		grep -q ': 0 errors, 0 warnings' "$T/ck" && [ $rc -eq 0 ] &&
		    ok "$f: dumpcheck: no error, no warning" ||
		    no "$f: dumpcheck clean" "exit $rc: $(cat "$T/ck")"
	else
		grep -q 'error .*vmcore.load-past-eof' "$T/ck" && [ $rc -eq 1 ] &&
		    ok "$f: dumpcheck: vmcore.load-past-eof, exit 1" ||
		    no "$f: dumpcheck cut" "exit $rc: $(cat "$T/ck")"
		[ "$(grep -c '^  \(error\|warning\) ' "$T/ck")" -eq 1 ] &&
		    ok "$f: dumpcheck: nothing else wrong" ||
		    no "$f: dumpcheck: other findings" "$(cat "$T/ck")"
	fi
	# Each quirk its note: vmcore.quirk.* (or its own code).
	for q in ${quirks//,/ }; do
		case $q in
		no-vmcoreinfo) c=vmcore.vmcoreinfo-missing ;;
		non-canonical) c=vmcore.non-canonical ;;
		truncated) c=vmcore.load-past-eof ;;
		*) c=vmcore.quirk.$q ;;
		esac
		grep -q " $c: " "$T/ck" && ok "$f: quirk $q is finding $c" ||
		    no "$f: quirk $q: no $c" "$(cat "$T/ck")"
	done
done <<<"$facts"

# libkdumpfile's reads of the complete files at fixed machine-physical
# addresses (README.md, kdread -m on the files as the script made them).
readat() {	# FILE PA: 16 bytes in hex, or the error
	"$BIN/dumpinfo" --raw --read-pa "$2:16" "$T/$1" 2> "$T/rerr" |
	    od -An -tx1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}
while read -r f pa want; do
	[ -n "$f" ] || continue
	got=$(readat "$f" "$pa")
	[ "$got" = "$want" ] && ok "$f: pa $pa = libkdumpfile's $want" ||
	    no "$f: pa $pa" "got '$got' ($(cat "$T/rerr")), libkdumpfile '$want'"
done <<'EOF'
x86_64-linux-part.elf 0x1000000 48 8d 25 51 3f a0 01 48 8d 3d f2 ff ff ff b9 01
x86_64-linux-kernel.cut256k.vmcore 0x1000000 48 8d 25 51 3f a0 01 48 8d 3d f2 ff ff ff b9 01
mdf-d31.cut256k.elf 0x1000000 48 8d 25 51 3f a0 01 48 8d 3d f2 ff ff ff b9 01
riscv64-fw.elf 0x1000 97 02 00 00 13 86 82 02 73 25 40 f1 83 b5 02 02
riscv64-fw.elf 0x80000000 33 04 05 00 b3 84 05 00 33 09 06 00 ef 00 40 55
aarch64-fw.cut4m.elf 0x40000000 d0 0d fe ed 00 10 00 00 00 00 00 40 00 00 1a 44
EOF
# Where libkdumpfile says "Page not found", dumpkit says not dumped, and
# names why; where a cut file lacks the bytes, dumpkit says so (libkdumpfile
# 0.5.1 reads zeros there: README.md).
while read -r f pa re; do
	[ -n "$f" ] || continue
	expect_exit "$f: pa $pa not dumped" 1 "$re" "$BIN/dumpinfo" --read-pa \
	    "$pa:16" "$T/$f"
done <<'EOF'
x86_64-fw-part.elf 0x100000 in no PT_LOAD
x86_64-linux-paging-hot.elf 0x1000000 in no PT_LOAD
riscv64-fw.elf 0x40000000 in no PT_LOAD
mdf-d31.cut256k.elf 0x100000 past p_filesz of PT_LOAD 8 .p_memsz > p_filesz
x86_64-linux-kernel.cut256k.vmcore 0x1040000 past the end of the truncated file
aarch64-fw.cut4m.elf 0x40400000 past the end of the truncated file
EOF

# 1,000 random machine-physical addresses, libkdumpfile against dumpkit,
# on every committed file libkdumpfile opens (not the big-endian QEMU
# files: it refuses their .shstrtab; not the cut kernel vmcore, where it
# reads the missing direct map as zeros).
if [ -x "$KR" ]; then
	for f in x86_64-fw-part.elf x86_64-linux-part.elf \
	    x86_64-linux-paging-hot.elf riscv64-fw.elf aarch64-fw.cut4m.elf \
	    x86_64-linux-paging.cut.elf mdf-d31.cut256k.elf; do
		out=$("$KR" -e "$T/$f" "$T/$f" 2>&1)
		[ $? -eq 0 ] && grep -q '^machphys: 1000 of 1000 equal' <<<"$out" &&
		    ok "$f: 1000 random reads equal libkdumpfile's" ||
		    no "$f: kdumpfile_read" "$out"
	done
	# (it asks malloc for sh_size, 0x0b00000000000000 bytes: under ASan,
	# a failed malloc must be a NULL, as it is without)
	expect_exit "s390x-fw.elf: libkdumpfile refuses it (the swapped .shstrtab)" \
	    2 "string table" env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
	    "$KR" -e "$T/s390x-fw.elf" "$T/s390x-fw.elf"
else
	no "tests/kdumpfile_read not built ($KR)"
fi

# eu-readelf -n of the kernel's vmcore: NT_PRSTATUS and VMCOREINFO.
f=x86_64-linux-kernel.cut256k.vmcore
eu-readelf -n "$T/$f" > "$T/eu" 2>&1
for r in pid:pid rip:pc rsp:sp; do
	k=${r%%:*} a=${r##*:}
	want=$(grep -o "$k: *[0-9a-fx]*" "$T/eu" | head -1 | awk '{print $2}')
	got=$(attr "$f" "cpu.0.$a")
	[ -n "$want" ] && [ "$(python3 -c 'import sys; print(int(sys.argv[1], 0))' \
	    "$want")" = "$got" ] &&
	    ok "$f: cpu.0.$a = eu-readelf's $k $want" ||
	    no "$f: cpu.0.$a" "got $got, eu-readelf $k $want"
done
n=0 bad=0
while IFS= read -r line; do
	k=${line%%=*} v=${line#*=}
	n=$((n + 1))
	[ "$(attr "$f" "$k")" = "$v" ] || { bad=$((bad + 1)); echo "$k" >> "$T/bad"; }
done < <(sed -n '/VMCOREINFO/,$p' "$T/eu" | sed -n 's/^    \([^ ]*=.*\)$/\1/p')
[ "$n" -gt 100 ] && [ "$bad" -eq 0 ] &&
    ok "$f: the $n VMCOREINFO lines eu-readelf prints are attributes" ||
    no "$f: VMCOREINFO attributes" "$n lines, $bad differ: $(head -5 "$T/bad" 2>/dev/null)"
[ "$(attr "$f" os_release)" = 6.1.0-57-amd64 ] &&
    ok "$f: os_release 6.1.0-57-amd64" || no "$f: os_release"
[ "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]));
print(j["dump_time"]["value"])' "$T/$f.json")" = "$(attr "$f" CRASHTIME)" ] &&
    ok "$f: dump time is VMCOREINFO's CRASHTIME" || no "$f: dump time"

# The kernel's vmcore cut before its notes, or inside its program
# headers (e_phoff then lies past the cut too): no note tells what it
# is, the ELF header alone does (ET_CORE, EI_OSABI 0, EM_X86_64), and
# dumpcheck reports the cut, with readelf's offsets.
f=x86_64-linux-kernel.cut256k.vmcore
noff=$(readelf -lW "$T/$f" | awk '$1 == "NOTE" { print $2; exit }')
phoff=$(readelf -hW "$T/$f" | awk '/Start of program headers/ { print $5 }')
for cut in $((noff - 16)) $((phoff + 20)); do
	head -c "$cut" "$T/$f" > "$T/cut"
	"$BIN/dumpcheck" --json "$T/cut" > "$T/ck.json" 2>&1; rc=$?
	python3 - "$T/ck.json" "$cut" "$noff" "$phoff" <<'PY' > "$T/why"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["files"][0]
cut, noff, phoff = int(sys.argv[2]), int(sys.argv[3], 16), int(sys.argv[4])
got = {(f["code"], int(f["offset"], 16) if f["offset"] else None)
    for f in r["findings"]}
want = {("file.truncated", cut), ("vmcore.phdr-past-eof", 0x20) if
    cut < noff - 16 else ("vmcore.note-malformed", phoff)}
miss = want - got
print("ok" if r["format"] == "vmcore" and not miss else
    "format %s, missing %s, found %s" % (r["format"], sorted(miss),
    sorted(got)))
PY
	[ "$(cat "$T/why")" = ok ] && [ $rc -eq 1 ] &&
	    ok "$f cut at $cut: a vmcore, the cut reported (exit 1)" ||
	    no "$f cut at $cut" "exit $rc: $(cat "$T/why" "$T/ck.json" | head -20)"
done

# The big files the real-dumps script made, when they are here.
if [ -d "$REAL" ]; then
	for p in "$REAL"/*.elf "$REAL"/*.vmcore "$REAL"/mdf/*.elf; do
		[ -f "$p" ] || continue
		b=$(basename "$p")
		out=$("$BIN/dumpcheck" "$p" 2>&1)
		grep -q ': 0 errors, 0 warnings' <<<"$out" &&
		    ok "$REAL: $b: dumpcheck: no error, no warning" ||
		    no "$REAL: $b: dumpcheck" "$out"
		case $b in ppc64-*|s390x-*) continue ;; esac
		[ -x "$KR" ] || continue
		out=$("$KR" -e "$p" "$p" 2>&1)
		[ $? -eq 0 ] && ok "$REAL: $b: 1000 random reads equal libkdumpfile's" ||
		    no "$REAL: $b: kdumpfile_read" "$out"
	done
else
	echo "# $REAL absent: the big real dumps are not checked"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
