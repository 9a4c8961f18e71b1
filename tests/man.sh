#!/usr/bin/env bash
# The manuals: every page passes `mandoc -T lint` without a warning;
# every tool has a page in section 1 whose option list (.It Fl ...)
# holds every option its --help lists, and no option --help does not
# know; each page has the sections a user looks for; libdumpkit.3 names
# every function the public headers declare (gcc -aux-info, as
# tests/symbols.sh) and no other.  Ends with "N passed, N failed".
set -u
B=${B:-build}
MAKE=${MAKE:-make}
AUXCC=${AUXCC:-gcc}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkman.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

cd "$TOP"
if ! command -v mandoc >/dev/null; then
	no "mandoc is installed (Debian: apt-get install mandoc)"
	echo "$pass passed, $fail failed"
	exit 1
fi
tools=$($MAKE -s --no-print-directory B="$B" print-tools 2>/dev/null)
headers=$($MAKE -s --no-print-directory B="$B" print-public-headers 2>/dev/null)

# --- lint -------------------------------------------------------------------
pages=$(ls man/*.[1-8] 2>/dev/null)
[ -n "$pages" ] || no "man/ has pages"
for p in $pages; do
	# Warnings and worse; "STYLE" notes (a cross-reference to a page
	# not installed on this machine) are not failures.
	out=$(mandoc -T lint -W warning "$p" 2>&1 | grep -v 'mandoc\.db')
	rc=${PIPESTATUS[0]}
	[ -z "$out" ] && ok "mandoc -T lint -W warning $p" \
	    || no "mandoc -T lint -W warning $p (exit $rc)" "$(echo "$out" | head -5)"
	for s in NAME SYNOPSIS DESCRIPTION EXAMPLES "SEE ALSO"; do
		grep -q "^\.Sh $s\$" "$p" || no "$p has a $s section"
	done
done

# --- each tool's options, both ways ---------------------------------------------
for t in $tools; do
	p=man/$t.1
	if [ ! -f "$p" ]; then
		no "$t has a manual ($p)"
		continue
	fi
	grep -q '^\.Sh EXIT STATUS$' "$p" || no "$p has an EXIT STATUS section"
	help=$("$B/bin/$t" --help 2>&1) || { no "$t --help exits 0"; continue; }
	# The option lines of --help: "  -a, --arch ARCH   ..." or "      --raw".
	opts=$(echo "$help" | grep -E '^ +-' | grep -oE '(^| )--?[A-Za-z0-9][A-Za-z0-9-]*' |
	    sed 's/^ //' | sort -u)
	# The manual's option list: ".It Fl a , Fl -arch Ar ARCH" -> a, -arch.
	items=$(grep '^\.It' "$p" | grep -oE 'Fl [^ ]+' | awk '{ print $2 }' | sort -u)
	missing=
	for o in $opts; do
		grep -qxF -- "${o#-}" <<<"$items" || missing="$missing $o"
	done
	extra=
	for i in $items; do
		case $i in
		-*) grep -qxF -- "-$i" <<<"$opts" || extra="$extra -$i" ;;
		*) grep -qxF -- "-$i" <<<"$opts" || extra="$extra -$i" ;;
		esac
	done
	n=$(echo "$opts" | wc -w)
	[ "$n" -gt 0 ] && [ -z "$missing" ] && ok "$p lists all $n options of $t --help" \
	    || no "$p lists every option of $t --help" "missing:$missing"
	[ -z "$extra" ] && ok "$p lists no option $t --help lacks" \
	    || no "$p lists options $t --help does not know" "$extra"
done

# --- the conventions each manual documents ------------------------------------
# One command-line style: --help on stdout with status 0; --version as
# "TOOL (dumpkit) VERSION"; -q and -v; a usage error is status 3 with a
# message that starts with the tool's name, not the path it was run by;
# the EXIT STATUS section gives that status.
for t in $tools; do
	p=man/$t.1
	bad=
	"$B/bin/$t" --help >"$T/out" 2>"$T/err" || bad="$bad --help-exit"
	[ -s "$T/out" ] && [ ! -s "$T/err" ] || bad="$bad --help-not-on-stdout"
	v=$("$B/bin/$t" --version 2>&1)
	[[ $v =~ ^$t\ \(dumpkit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || bad="$bad --version:'$v'"
	grep -qE '^ +-q, --quiet' "$T/out" || bad="$bad no-q"
	grep -qE '^ +-v, --verbose' "$T/out" || bad="$bad no-v"
	for a in --no-such-option -Z; do
		"$B/bin/$t" $a >/dev/null 2>"$T/err"
		rc=$?
		[ $rc -eq 3 ] || bad="$bad $a:exit-$rc"
		head -1 "$T/err" | grep -q "^$t: " || bad="$bad $a:'$(head -1 "$T/err")'"
	done
	[ -f "$p" ] && sed -n '/^\.Sh EXIT STATUS/,/^\.Sh /p' "$p" | grep -q '^Usage error' \
	    || bad="$bad manual:no-usage-status"
	[ -z "$bad" ] && ok "$t follows the command-line conventions" \
	    || no "$t follows the command-line conventions" "$bad"
done

# --- the library's page and its headers -------------------------------------
p=man/libdumpkit.3
if [ -f "$p" ] && [ -n "$headers" ]; then
	: >"$T/decl.c"
	for h in $headers; do echo "#include \"$TOP/$h\"" >>"$T/decl.c"; done
	if "$AUXCC" -std=c11 -fsyntax-only -aux-info "$T/aux" "$T/decl.c"; then
		want=$(for h in $headers; do grep -F "/* $TOP/$h:" "$T/aux"; done |
		    grep -E ':[NO]C \*/' |
		    sed -E 's/^[^*]*\*[^*]*\*\/ *//; s/ \(.*//; s/.*[ *]//' | sort -u)
		got=$(grep -E '^\.(Fn|Fo) ' "$p" | awk '{ print $2 }' | sort -u)
		gone=$(comm -23 <(echo "$want") <(echo "$got"))
		extra=$(comm -13 <(echo "$want") <(echo "$got"))
		[ -z "$gone" ] && ok "$p names all $(echo "$want" | wc -l) public functions" \
		    || no "$p names every public function" "missing: $(echo $gone)"
		[ -z "$extra" ] && ok "$p names no function the headers lack" \
		    || no "$p names functions the headers do not declare" "$(echo $extra)"
	else
		no "compile the public headers ($headers)"
	fi
else
	no "$p exists and the public headers are known"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
