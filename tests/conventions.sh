#!/usr/bin/env bash
# The conventions the five tools share (docs/tools.md), checked on every
# tool: exit statuses, write errors on standard output, --force against
# what is not a regular file, - as input and -o - as output, sizes with
# suffixes, and the progress line on a terminal.  Expected bytes come
# from the same tool writing to a file, from cmp, and from gzip; nothing
# here trusts a tool's own word for what it wrote.  Ends with "N passed,
# N failed".
set -u
B=${B:-build}
BIN=$(cd "$B/bin" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkconv.XXXXXX")
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

tools="dumpinfo dumpcheck dumplayout dumpconv dumpgen"
D=$T/a.dmp
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 5 -q -o "$D" ||
    { no "dumpgen of the test dump"; echo "$pass passed, $fail failed"; exit 1; }
# A dumped physical address: the start of the first run of dumped pages.
PA=$("$BIN/dumpinfo" --verbose "$D" | sed -n 's/^  pa \(0x[0-9a-f]*\) .* at offset.*/\1/p' | head -1)
# What each tool is given as its input, for the tools that take one.
input_cmd() {	# TOOL FILE: the command line that reads FILE
	case $1 in
	dumpinfo|dumpcheck) echo "$BIN/$1 $2" ;;
	dumplayout) echo "$BIN/dumplayout compare $D $2" ;;
	dumpconv) echo "$BIN/dumpconv $2 -o $T/out.elf" ;;
	esac
}

# ---- exit status 3: usage --------------------------------------------
for tool in $tools; do
	expect_exit "$tool: an unknown option is 3" 3 "usage:" \
	    "$BIN/$tool" --no-such-option
done
expect_exit "dumpconv --drop-zero of a minidump is a usage error (3)" 3 \
    "drop-zero" "$BIN/dumpconv" --drop-zero "$D" -o "$T/dz.elf"
[ ! -e "$T/dz.elf" ] && ok "dumpconv --drop-zero of a minidump leaves no file" ||
    no "dumpconv --drop-zero of a minidump leaves no file"
expect_exit "dumpgen --mem not a size is 3" 3 "--mem" \
    "$BIN/dumpgen" --arch amd64 --mem 12Q -o "$T/x.dmp"

# ---- exit status 2: an input unusable --------------------------------
mkdir "$T/dir"
for tool in dumpinfo dumpcheck dumplayout dumpconv; do
	# shellcheck disable=SC2046
	expect_exit "$tool: a missing input is 2" 2 "no-such-file" \
	    $(input_cmd "$tool" "$T/no-such-file")
	expect_exit "$tool: a directory as input is 2" 2 "directory" \
	    $(input_cmd "$tool" "$T/dir")
	expect_exit "$tool: /dev/null as input is 2" 2 "character device" \
	    $(input_cmd "$tool" /dev/null)
done
printf 'hello, not a dump\n' >"$T/text"
for tool in dumpinfo dumpcheck dumpconv; do
	# shellcheck disable=SC2046
	expect_exit "$tool: a file in no format is 2" 2 "not a dump format" \
	    $(input_cmd "$tool" "$T/text")
done

# A file dumpkit recognises but does not read (a Linux process core,
# the headers of a real one) is 2 too, and named for what it is.
core=$(cd "$(dirname "$0")" && pwd)/data/linux-process-core-x86_64.head.xz
for tool in dumpinfo dumpcheck dumpconv; do
	xz -dc "$core" >"$T/core"
	# shellcheck disable=SC2046
	expect_exit "$tool: a process core is 2, named as one" 2 \
	    "Linux process core.*does not read it yet" $(input_cmd "$tool" "$T/core")
done

# makedumpfile's kdump-compressed (a real one cut short, tests/data/kdump):
# dumpcheck validates it, 1 with its findings; dumpinfo reads it.
kd=$(cd "$(dirname "$0")" && pwd)/data/kdump/mdf-zlib-d31.head.xz
xz -dc "$kd" >"$T/k.kdump"
expect_exit "dumpcheck: a cut kdump file is 1, file.truncated" 1 \
    "file.truncated: .*13771 are lost" "$BIN/dumpcheck" "$T/k.kdump"
expect_exit "dumpinfo reads that file" 0 "format: +kdump" "$BIN/dumpinfo" "$T/k.kdump"

# ---- exit status 2: standard output cannot be written -----------------
# Each tool's ordinary output, and --help, into /dev/full.
full() {	# DESC COMMAND...: exit 2 and a message naming standard output
	local d=$1; shift
	local err rc
	err=$("$@" 2>&1 >/dev/full); rc=$?
	if [ "$rc" -eq 2 ] && grep -q "standard output" <<<"$err"; then
		ok "$d"
	else
		no "$d" "exit $rc (wanted 2), stderr: $err"
	fi
}
if [ -w /dev/full ] && ! echo x 2>/dev/null >/dev/full; then
	for tool in $tools; do
		full "$tool --help > /dev/full is 2" "$BIN/$tool" --help
	done
	full "dumpinfo FILE > /dev/full is 2" "$BIN/dumpinfo" "$D"
	full "dumpinfo --json FILE > /dev/full is 2" "$BIN/dumpinfo" --json "$D"
	full "dumpinfo --read-pa --raw > /dev/full is 2" "$BIN/dumpinfo" \
	    --read-pa "$PA":4096 --raw "$D"
	full "dumpcheck FILE > /dev/full is 2" "$BIN/dumpcheck" "$D"
	full "dumpcheck --json FILE > /dev/full is 2" "$BIN/dumpcheck" --json "$D"
	full "dumpcheck --list-codes > /dev/full is 2" "$BIN/dumpcheck" --list-codes
	full "dumplayout list > /dev/full is 2" "$BIN/dumplayout" list
	full "dumplayout compare A B > /dev/full is 2" "$BIN/dumplayout" \
	    compare "$D" "$D"
	full "dumpconv --info > /dev/full is 2" "$BIN/dumpconv" --info "$D"
	full "dumpconv -o - > /dev/full is 2" "$BIN/dumpconv" "$D" -o -
	full "dumpgen --list > /dev/full is 2" "$BIN/dumpgen" --list
	full "dumpgen --list-corruptions > /dev/full is 2" "$BIN/dumpgen" \
	    --list-corruptions
	full "dumpgen -o - > /dev/full is 2" "$BIN/dumpgen" --arch amd64 \
	    --mem 64M -o -
else
	no "/dev/full is not a full device here: the write-error checks did not run"
fi

# ---- --force replaces only a regular file -----------------------------
# The target of each: a symlink (to a file that must stay unchanged), a
# FIFO, a directory, and (as root) a character device made with mknod.
cp "$D" "$T/victim"
victim_sum=$(cksum <"$T/victim")
ln -s victim "$T/link"
mkfifo "$T/fifo"
mkdir "$T/outdir"
targets="link fifo outdir"
if mknod "$T/cdev" c 1 7 2>/dev/null; then	# a second /dev/full
	targets="$targets cdev"
else
	ok "mknod not permitted here (not root): the device target is skipped"
fi
for t in $targets; do
	expect_exit "dumpconv --force onto a $t is refused (2)" 2 \
	    "not a regular file|is a directory" \
	    "$BIN/dumpconv" --force "$D" -o "$T/$t"
	expect_exit "dumpgen --force onto a $t is refused (2)" 2 \
	    "not a regular file|is a directory" \
	    "$BIN/dumpgen" --arch amd64 --mem 64M --force -o "$T/$t"
done
[ -L "$T/link" ] && [ "$(readlink "$T/link")" = victim ] &&
    [ "$(cksum <"$T/victim")" = "$victim_sum" ] &&
    ok "the symlink and the file it names are untouched" ||
    no "the symlink and the file it names are untouched"
[ -p "$T/fifo" ] && ok "the FIFO is still a FIFO" || no "the FIFO is still a FIFO"
if [ -e "$T/cdev" ]; then
	[ -c "$T/cdev" ] && ok "the device node is still a device" ||
	    no "the device node is still a device"
fi
[ -z "$(ls -A "$T/outdir")" ] && ok "nothing was written into the directory" ||
    no "nothing was written into the directory" "$(ls -A "$T/outdir")"
leftover=$(ls -A "$T" | grep -c dumpkit-)
[ "$leftover" -eq 0 ] && ok "no temporary file is left beside the targets" ||
    no "no temporary file is left beside the targets" "$(ls -A "$T")"
"$BIN/dumpconv" -q "$D" -o "$T/regular.elf" &&
    printf 'old' >"$T/regular.elf" &&
    "$BIN/dumpconv" -q --force "$D" -o "$T/regular.elf" &&
    "$BIN/dumpconv" -q "$D" -o "$T/fresh.elf" &&
    cmp -s "$T/regular.elf" "$T/fresh.elf" &&
    ok "--force replaces a regular file" || no "--force replaces a regular file"
expect_exit "without --force an existing file is refused (2)" 2 "file exists" \
    "$BIN/dumpconv" "$D" -o "$T/regular.elf"

# ---- - as input -------------------------------------------------------
"$BIN/dumpinfo" "$D" >"$T/info.file"
"$BIN/dumpinfo" - <"$D" >"$T/info.redir"
cmp -s "$T/info.file" "$T/info.redir" &&
    ok "dumpinfo - < FILE prints what dumpinfo FILE prints" ||
    no "dumpinfo - < FILE prints what dumpinfo FILE prints" \
    "$(diff "$T/info.file" "$T/info.redir")"
cat "$D" | "$BIN/dumpinfo" - >"$T/info.pipe"
cmp -s "$T/info.file" "$T/info.pipe" &&
    ok "dumpinfo - from a pipe prints what dumpinfo FILE prints" ||
    no "dumpinfo - from a pipe prints what dumpinfo FILE prints" \
    "$(diff "$T/info.file" "$T/info.pipe")"
mkdir "$T/tmp"
cat "$D" | TMPDIR=$T/tmp "$BIN/dumpconv" -q - -o "$T/pipe.elf" &&
    "$BIN/dumpconv" -q "$D" -o "$T/file.elf" && cmp -s "$T/pipe.elf" "$T/file.elf" &&
    ok "dumpconv - from a pipe writes the bytes dumpconv FILE writes" ||
    no "dumpconv - from a pipe writes the bytes dumpconv FILE writes"
[ -z "$(ls -A "$T/tmp")" ] && ok "the copy of standard input leaves nothing in TMPDIR" ||
    no "the copy of standard input leaves nothing in TMPDIR" "$(ls -A "$T/tmp")"
gzip -c "$D" | "$BIN/dumpcheck" --pattern 5 - >"$T/check.out" 2>&1 &&
    grep -q "0 errors" "$T/check.out" &&
    ok "gzip -c FILE | dumpcheck --pattern - checks every page" ||
    no "gzip -c FILE | dumpcheck --pattern - checks every page" "$(cat "$T/check.out")"
: | "$BIN/dumpinfo" - >/dev/null 2>"$T/empty.err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "standard input" "$T/empty.err" &&
    ok "an empty standard input is 2, named as standard input" ||
    no "an empty standard input is 2, named as standard input" "exit $rc: $(cat "$T/empty.err")"
out=$(cat "$D" | "$BIN/dumplayout" compare "$D" - 2>&1); rc=$?
[ "$rc" -eq 0 ] && ok "dumplayout compare FILE - reads a pipe" ||
    no "dumplayout compare FILE - reads a pipe" "exit $rc: $out"

# ---- -o - as output ---------------------------------------------------
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 5 -o - >"$T/gen.stdout" 2>"$T/gen.err"
cmp -s "$T/gen.stdout" "$D" && ok "dumpgen -o - writes the bytes dumpgen -o FILE writes" ||
    no "dumpgen -o - writes the bytes dumpgen -o FILE writes"
[ ! -s "$T/gen.err" ] && [ ! -e ./- ] && ok "dumpgen -o - writes no file named -" ||
    no "dumpgen -o - writes no file named -" "$(cat "$T/gen.err")"
"$BIN/dumpgen" --arch amd64 --mem 64M --seed 5 --compress gzip -o - | gzip -dc |
    cmp -s - "$D" && ok "dumpgen --compress gzip -o - | gzip -dc gives the dump" ||
    no "dumpgen --compress gzip -o - | gzip -dc gives the dump"
"$BIN/dumpconv" -q "$D" -o - | cat >"$T/conv.stdout"
cmp -s "$T/conv.stdout" "$T/file.elf" && ok "dumpconv -o - through a pipe writes the file's bytes" ||
    no "dumpconv -o - through a pipe writes the file's bytes"

# ---- sizes ------------------------------------------------------------
"$BIN/dumpgen" --arch amd64 --mem 67108864 --seed 5 -q -o "$T/bytes.dmp"
"$BIN/dumpgen" --arch amd64 --mem 64MiB --seed 5 -q -o "$T/mib.dmp"
cmp -s "$T/bytes.dmp" "$D" && cmp -s "$T/mib.dmp" "$D" &&
    ok "--mem 64M, 64MiB and 67108864 are the same size" ||
    no "--mem 64M, 64MiB and 67108864 are the same size"

# ---- progress, on a terminal only ----------------------------------------
# script(1) gives the tool a pseudo-terminal.  A 320 MiB sparse dump
# (its pages are holes) converts to an output over the 256 MiB threshold.
if command -v script >/dev/null; then
	"$BIN/dumpgen" --arch amd64 --mem 640M --dumped 320M --sparse -q -o "$T/big.dmp"
	script -qec "$BIN/dumpconv $T/big.dmp -o $T/big.elf" /dev/null \
	    >"$T/tty.out" 2>&1
	tr '\r' '\n' <"$T/tty.out" >"$T/tty.lines"
	grep -Eq '^.*dumpconv: .*big.dmp: +[0-9]+%  [0-9.]+ (B|KiB|MiB) of [0-9.]+ MiB' \
	    "$T/tty.lines" && ok "dumpconv draws a progress line on a terminal" ||
	    no "dumpconv draws a progress line on a terminal" "$(cat -v "$T/tty.lines")"
	size=$(stat -c %s "$T/big.elf")
	grep -Eq "dumpconv: .*big.dmp: [0-9.]+ MiB written in [0-9.]+ s" "$T/tty.lines" &&
	    ok "its last line gives what was written and the time" ||
	    no "its last line gives what was written and the time" "$(cat -v "$T/tty.lines")"
	if grep -q "s left" "$T/tty.lines" && ! grep -Eq ' 0 s left|[0-9]{6,} s left' "$T/tty.lines"; then
		ok "a time left, when shown, is neither 0 nor absurd"
	elif ! grep -q "s left" "$T/tty.lines"; then
		ok "no time left shown before a second of work"
	else
		no "a time left, when shown, is neither 0 nor absurd" "$(cat -v "$T/tty.lines")"
	fi
	rm -f "$T/big.elf"
	script -qec "$BIN/dumpconv --quiet $T/big.dmp -o $T/big.elf" /dev/null \
	    >"$T/tty.quiet" 2>&1
	! grep -q "%" "$T/tty.quiet" && ok "--quiet draws no progress line" ||
	    no "--quiet draws no progress line" "$(cat -v "$T/tty.quiet")"
	rm -f "$T/big.elf"
	"$BIN/dumpconv" "$T/big.dmp" -o "$T/big.elf" 2>"$T/notty.err"
	[ ! -s "$T/notty.err" ] && ok "no progress line when stderr is not a terminal" ||
	    no "no progress line when stderr is not a terminal" "$(cat -v "$T/notty.err")"
	script -qec "$BIN/dumpcheck $T/big.dmp" /dev/null >"$T/tty.check" 2>&1
	grep -q "0 errors" "$T/tty.check" && ! grep -q "$(printf '\033')\[K[^\r]*%.*0 errors" "$T/tty.check" &&
	    ok "dumpcheck on a terminal: the progress line is erased before the summary" ||
	    no "dumpcheck on a terminal: the progress line is erased before the summary" "$(cat -v "$T/tty.check")"
	script -qec "$BIN/dumpgen --arch amd64 --mem 640M --dumped 320M --sparse -o $T/big2.dmp" \
	    /dev/null >"$T/tty.gen" 2>&1
	tr '\r' '\n' <"$T/tty.gen" | grep -Eq "dumpgen: .*big2.dmp: 320 MiB written in" &&
	    ok "dumpgen's final progress line gives the exact 320 MiB" ||
	    no "dumpgen's final progress line gives the exact 320 MiB" "$(cat -v "$T/tty.gen")"
	cmp -s "$T/big.dmp" "$T/big2.dmp" && ok "the progress line changes no byte of the dump" ||
	    no "the progress line changes no byte of the dump"
	[ "$size" -gt 0 ] || no "the converted file has a size"
else
	no "script(1) (bsdutils) is missing: the progress checks did not run"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
