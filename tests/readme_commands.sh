#!/bin/sh
# tests/readme_commands.sh [README]: the commands of README.md's first
# ```sh block, one a line (a line ending in a backslash is joined to the
# next), as .ci/run and tests/fresh.sh run them.  Exits 1, saying why,
# unless there are exactly two: the install-build-demo line and
# `make check`.
f=${1:-$(dirname "$0")/../README.md}
out=$(awk '/^```sh$/ { on = 1; next } on && /^```$/ { exit } on' "$f" |
    sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | grep .)
n=$(printf '%s\n' "$out" | grep -c .)
if [ "$n" -ne 2 ]; then
	echo "readme_commands.sh: $f: the first sh block has $n commands, not 2" >&2
	exit 1
fi
printf '%s\n' "$out"
