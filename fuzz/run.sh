#!/bin/sh
# run.sh -- one short libFuzzer run of one target (called by `make fuzz`).
#
#	FUZZ_B=build-fuzz FUZZ_SECONDS=60 sh fuzz/run.sh BINARY CORPUS [ARGS]
#
# crash-* files of the corpus are inputs that crash the library until a
# bug is fixed: they make the run fail at once, as they should.  With
# FUZZ_SKIP_KNOWN=1 they are left out of the copy, so that the fuzzer
# can look for other bugs meanwhile.
#
# The committed corpus is never written: the fuzzer works on a fresh
# copy in $FUZZ_B/work/NAME, and crash, leak and timeout inputs go to
# $FUZZ_B/artifacts/NAME-* (those of the previous run are removed).
# -max_len is the size of the largest seed (at least 4 KiB): libFuzzer
# would otherwise cut every input to 1 MiB or to the largest seed it
# loads.  Exit status: libFuzzer's, so 0 when
# nothing crashed, leaked or hung.
set -eu

bin=$1
corpus=$2
shift 2
name=$(basename "$bin")
: "${FUZZ_B:=build-fuzz}"
: "${FUZZ_SECONDS:=60}"

work=$FUZZ_B/work/$name
art=$FUZZ_B/artifacts
rm -rf "$work"
mkdir -p "$work" "$art"
rm -f "$art/$name"-*
if [ -d "$corpus" ]; then
	cp "$corpus"/* "$work"/ 2>/dev/null || true
fi
if [ "${FUZZ_SKIP_KNOWN:-0}" = 1 ]; then
	rm -f "$work"/crash-*
fi

max=4096
for f in "$work"/*; do
	[ -f "$f" ] || continue
	n=$(wc -c < "$f")
	[ "$n" -gt "$max" ] && max=$n
done

echo "fuzz: $name for ${FUZZ_SECONDS}s on a copy of $corpus" \
    "($(ls "$work" | wc -l) seeds, -max_len=$max)"
status=0
"$bin" -max_total_time="$FUZZ_SECONDS" -max_len="$max" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/$name-" \
    "$@" "$work" > "$FUZZ_B/$name.log" 2>&1 || status=$?
tail -n 25 "$FUZZ_B/$name.log"
if [ "$status" -ne 0 ]; then
	# The tail may be all stack frames: name the cause and the seed
	# (rerun with -seed=N on the same corpus to reproduce).
	grep -E -m 8 'Seed:|invariant broken|ERROR:|runtime error|SUMMARY' \
	    "$FUZZ_B/$name.log" >&2 || true
	echo "fuzz: $name FAILED (exit $status); log: $FUZZ_B/$name.log," \
	    "inputs: $(ls "$art"/"$name"-* 2>/dev/null | tr '\n' ' ')" >&2
	exit "$status"
fi
echo "fuzz: $name: no crash in ${FUZZ_SECONDS}s"
