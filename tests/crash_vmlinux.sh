#!/usr/bin/env bash
# crash_vmlinux.sh -- a manual step (make check-crash), not part of make
# check: crash 8 with the Debian kernel's debug vmlinux opens dumpkit's
# conversions of real dumps and says of each exactly what it says of the
# file it was converted from (issue 14).
#
# Needs make-real-dumps.sh's output (its default DBG=1 fetches the
# linux-image-*-dbg package whose vmlinux crash needs):
#   REAL_DUMPS    the dumps (default /tmp/realdumps/dumps)
#   REAL_VMLINUX  the vmlinux of the kernel that crashed (default: the one
#                 under /tmp/realdumps/k-amd64-dbg/usr/lib/debug/boot)
# Without them (or without crash) it says so and exits 77.
#
# For each source, crash runs "sys", "bt", "ps" and "log" on the source
# and on each conversion; the outputs must be equal, but for the DUMPFILE
# line (the file's name) and crash's "[PARTIAL DUMP]" tag of a file with
# excluded pages (an ELF file of the same pages has no tag: crash does
# not know).  Sources and conversions:
#   makedumpfile -c -d 31 (lzo) of the kernel's /proc/vmcore:
#     --to kdump with each codec, the flattened stream (-o -), a --split 3
#     set given together, --to elf, the portable ELF minidump;
#   the kernel's /proc/vmcore itself: --to kdump (zlib), --to elf, the
#     portable ELF minidump;
#   QEMU's kdump-zlib (flattened): --to kdump.
# Ends with "N passed, N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
REAL=${REAL_DUMPS:-/tmp/realdumps/dumps}
VM=${REAL_VMLINUX:-$(ls /tmp/realdumps/k-amd64-dbg/usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)}
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

MDF=$REAL/mdf/mdf-lzo-d31.kdump
KV=$REAL/x86_64-linux-kernel.vmcore
QK=$REAL/x86_64-linux.kdump-zlib
if ! command -v crash >/dev/null 2>&1 || [ -z "$VM" ] || [ ! -f "$VM" ] ||
    [ ! -f "$MDF" ]; then
	echo "# needs crash, REAL_VMLINUX ($VM) and REAL_DUMPS ($REAL) from make-real-dumps.sh; skipped"
	exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/dkcrash.XXXXXX")
trap 'rm -rf "$T"' EXIT

# say FILE...: crash's answers to sys, bt, ps and log, but the DUMPFILE
# or DUMPFILES lines (the files' names, with crash's partial tag).
say() {
	printf 'sys\nbt\nps\nlog\nquit\n' |
	    timeout 300 crash -s "$VM" "$@" 2>&1 |
	    sed -E -e '/^ *DUMPFILES?:/d' -e '\#^ +/[^ ]+( \[PARTIAL DUMP\])?$#d'
}

# same NAME REF FILE...: crash says of FILE... what it said of REF.
same() {
	local d=$1 ref=$2; shift 2
	local out
	say "$@" > "$T/got"
	if out=$(diff "$ref" "$T/got"); then
		ok "$d: crash says the same ($(grep -c '' "$ref") lines; $(grep -m1 'PANIC:' "$ref" | sed 's/^ *//'))"
	else
		no "$d: crash says the same" "$out"
	fi
}

crash_ref() {
	say "$1" > "$2"
	if grep -q 'PANIC:' "$2" && grep -q '^PID:' "$2"; then
		ok "crash reads $(basename "$1"): $(grep -c '' "$2") lines, the panic and the crashed task's backtrace"
	else
		no "crash reads $(basename "$1")" "$(head -20 "$2")"
	fi
}

conv() { "$BIN/dumpconv" -q "$@"; }

crash_ref "$MDF" "$T/mdf.ref"
for c in zlib lzo snappy zstd none; do
	conv --to kdump --compress "$c" "$MDF" -o "$T/m-$c.kdump" &&
	    same "makedumpfile's file, --to kdump --compress $c" \
	    "$T/mdf.ref" "$T/m-$c.kdump" ||
	    no "dumpconv --to kdump --compress $c of $MDF"
done
conv --to kdump -o - "$MDF" > "$T/m.flat" &&
    same "its flattened stream (--to kdump -o -)" "$T/mdf.ref" "$T/m.flat" ||
    no "dumpconv --to kdump -o - of $MDF"
conv --to kdump --split 3 "$MDF" -o "$T/m-split" &&
    same "its --split 3 set, given together" "$T/mdf.ref" \
    "$T/m-split.1" "$T/m-split.2" "$T/m-split.3" ||
    no "dumpconv --to kdump --split 3 of $MDF"
conv --to elf "$MDF" -o "$T/m.elf" &&
    same "its --to elf" "$T/mdf.ref" "$T/m.elf" ||
    no "dumpconv --to elf of $MDF"
conv "$MDF" -o "$T/m.portable" &&
    same "its portable ELF minidump (source kind 5)" "$T/mdf.ref" \
    "$T/m.portable" || no "dumpconv of $MDF to the portable file"

if [ -f "$KV" ]; then
	crash_ref "$KV" "$T/kv.ref"
	conv --to kdump "$KV" -o "$T/kv.kdump" &&
	    same "the kernel's /proc/vmcore, --to kdump" "$T/kv.ref" \
	    "$T/kv.kdump" || no "dumpconv --to kdump of $KV"
	conv --to elf "$KV" -o "$T/kv.elf" &&
	    same "the kernel's /proc/vmcore, --to elf" "$T/kv.ref" \
	    "$T/kv.elf" || no "dumpconv --to elf of $KV"
	conv "$KV" -o "$T/kv.portable" &&
	    same "the kernel's /proc/vmcore, its portable file" \
	    "$T/kv.ref" "$T/kv.portable" ||
	    no "dumpconv of $KV to the portable file"
fi
if [ -f "$QK" ]; then
	crash_ref "$QK" "$T/qk.ref"
	conv --to kdump "$QK" -o "$T/qk.kdump" &&
	    same "QEMU's flattened kdump-zlib, --to kdump" "$T/qk.ref" \
	    "$T/qk.kdump" || no "dumpconv --to kdump of $QK"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
