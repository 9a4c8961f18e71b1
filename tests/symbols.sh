#!/usr/bin/env bash
# The library's interface is what its public headers declare, and
# nothing else:
#  - every symbol the shared library exports (nm -D --defined-only) is a
#    function declared in an installed public header, and every function
#    declared there is exported.  The declared list comes from the
#    headers themselves, through the compiler (gcc -aux-info), not from a
#    list kept here;
#  - every global symbol of the static archive starts with dk_ or
#    dumpkit_, so that a static link cannot collide with a user's names;
#  - no object of the library has writable data (.data, .bss, TLS,
#    common): no global mutable state.
# Then the checks are shown to fail: a library leaking an internal
# function, and one with a mutable static, must be refused, while one
# exporting a function newly declared in a copy of dumpkit.h must pass.
# Ends with "N passed, N failed".
set -u
B=${B:-build}
MAKE=${MAKE:-make}
AUXCC=${AUXCC:-gcc}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dksym.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

cd "$TOP"
headers=$($MAKE -s --no-print-directory B="$B" print-public-headers 2>/dev/null)
LDLIBS=$($MAKE -s --no-print-directory B="$B" print-ldlibs 2>/dev/null)
SO=$B/$($MAKE -s --no-print-directory B="$B" print-soname 2>/dev/null)
AR=$B/libdumpkit.a
if [ -z "$headers" ] || [ ! -f "$SO" ] || [ ! -f "$AR" ]; then
	no "public headers ($headers), $SO and $AR exist"
	echo "$pass passed, $fail failed"
	exit 1
fi

# The functions declared (not defined) in the given headers, one a line.
declared() {
	local src=$T/decl.c aux=$T/decl.aux h
	: >"$src"
	for h in "$@"; do echo "#include \"$(cd "$(dirname "$h")" && pwd)/$(basename "$h")\"" >>"$src"; done
	"$AUXCC" -std=c11 -fsyntax-only -aux-info "$aux" "$src" || return 1
	for h in "$@"; do
		h=$(cd "$(dirname "$h")" && pwd)/$(basename "$h")
		# "/* /path/dumpkit.h:52:NC */ extern T name (args);"
		grep -F "/* $h:" "$aux" | grep -E ':[NO]C \*/' |
		    sed -E 's/^[^*]*\*[^*]*\*\/ *//; s/ \(.*//; s/.*[ *]//'
	done | sort -u
}

# Exported defined symbols of a shared library: "TYPE NAME" lines.
# A sanitizer build's runtime hooks (__asan_*, __ubsan_*) are not ours.
exported() {
	nm -D --defined-only "$1" | awk 'NF == 3 { print $2, $3 }' |
	    grep -Ev ' (__(asan|ubsan|sanitizer|lsan)_|_init$|_fini$|_edata$|_end$|__bss_start$)' |
	    sort -k2
}

# check_exports LIB HEADER...: 0 if LIB exports exactly the functions
# the headers declare; prints what is wrong.
check_exports() {
	local so=$1 rc=0 want got extra gone
	shift
	want=$(declared "$@") || { echo "#   cannot compile $*"; return 1; }
	[ -n "$want" ] || { echo "#   no function declared in $*"; return 1; }
	got=$(exported "$so")
	# Only functions: an exported variable is state, or an ABI trap.
	extra=$(echo "$got" | awk '$1 != "T" && $1 != "W" && $1 != "i" { print $2 " (type " $1 ")" }')
	extra="$extra"$'\n'$(comm -13 <(echo "$want") <(echo "$got" | awk '{ print $2 }' | sort -u))
	gone=$(comm -23 <(echo "$want") <(echo "$got" | awk '{ print $2 }' | sort -u))
	extra=$(echo "$extra" | sed '/^$/d' | sort -u)
	if [ -n "$extra" ]; then
		echo "#   exported but not declared in a public header:" $extra
		rc=1
	fi
	if [ -n "$gone" ]; then
		echo "#   declared in a public header but not exported:" $gone
		rc=1
	fi
	return $rc
}

# check_state ARCHIVE: 0 if no object has writable data; prints them.
check_state() {
	local found
	found=$(objdump -t "$1" | awk '
	    /^In archive/ || /file format/ { obj = $1 }
	    /^[0-9a-f]+ / {
		sec = $0; sub(/^[0-9a-f]+ .......[ \t]+/, "", sec)
		split(sec, f, /[ \t]+/); s = f[1]
		if (s ~ /^\.data\.rel\.ro/) next
		if (s ~ /^\.(data|bss|tdata|tbss)($|\.)/ || s == "*COM*") {
			n = $NF
			if (n != s && n !~ /^__odr_asan\./)
				print obj " " n " (" s ")"
		}
	    }')
	if [ -n "$found" ]; then
		echo "#   writable data (global mutable state):"
		echo "$found" | sed 's/^/#     /'
		return 1
	fi
	return 0
}

# --- the library as built -------------------------------------------------
n=$(exported "$SO" | wc -l)
if out=$(check_exports "$SO" $headers); then
	ok "$SO exports exactly the $n functions of $(echo $headers)"
else
	no "$SO exports exactly the functions of the public headers"
	echo "$out"
fi
# (AddressSanitizer adds a one-byte __odr_asan.NAME marker per global,
# written by its runtime, not by the library: not ours.)
bad=$(nm -g --defined-only "$AR" |
    awk 'NF == 3 && $3 !~ /^(dk_|dumpkit_|__odr_asan\.)/ { print $3 }' | sort -u)
[ -z "$bad" ] && ok "$AR: every global symbol is dk_* or dumpkit_*" \
    || no "$AR: global symbols outside dk_*/dumpkit_*" "$(echo $bad)"
if out=$(check_state "$AR"); then
	ok "$AR: no .data, .bss, TLS or common symbol in any object"
else
	no "$AR: no global mutable state"
	echo "$out"
fi

# --- the checks can fail ------------------------------------------------------
CFLAGS_T="-std=c11 -fPIC -fvisibility=hidden -Iformats"
mkso() {	# mkso OUT SRC: SRC's object and the whole library, as one .so
	cc $CFLAGS_T -c -o "$T/x.o" "$2" &&
	    cc -shared -o "$1" "$T/x.o" -Wl,--whole-archive "$AR" \
	    -Wl,--no-whole-archive $LDLIBS
}

cat >"$T/leak.c" <<'EOF'
#include "dumpkit.h"
/* An internal helper someone forgot to make static or hidden. */
__attribute__((visibility("default"))) int dk_leaked_helper(int);
__attribute__((visibility("default"))) int dk_leaked_helper(int x) { return x + 1; }
EOF
if mkso "$T/leaky.so" "$T/leak.c"; then
	out=$(check_exports "$T/leaky.so" $headers)
	rc=$?
	[ $rc -ne 0 ] && echo "$out" | grep -q dk_leaked_helper \
	    && ok "a leaked internal function is refused, by name" \
	    || no "a leaked internal function is refused" "exit $rc: $out"
else
	no "build the leaky library"
fi

# A copy of dumpkit.h that declares one more function: it passes.
mkdir "$T/inc"
for h in $headers; do cp "$h" "$T/inc/"; done
sed -i 's|^const char     \*dumpkit_version(void);|&\n/* Added later. */\nint dk_added_later(int);|' \
    "$T/inc/dumpkit.h"
cat >"$T/grown.c" <<EOF
#include "$T/inc/dumpkit.h"
__attribute__((visibility("default"))) int dk_added_later(int x) { return x; }
EOF
if ! grep -q dk_added_later "$T/inc/dumpkit.h"; then
	no "add a declaration to a copy of dumpkit.h"
elif mkso "$T/grown.so" "$T/grown.c"; then
	cp_headers=$(for h in $headers; do echo "$T/inc/$(basename "$h")"; done)
	out=$(check_exports "$T/grown.so" $cp_headers)
	rc=$?
	out2=$(check_exports "$T/grown.so" $headers)
	rc2=$?
	[ $rc -eq 0 ] && [ $rc2 -ne 0 ] \
	    && ok "a function newly declared in dumpkit.h passes (and fails without the declaration)" \
	    || no "a newly declared public function" "with: exit $rc $out; without: exit $rc2"
else
	no "build the grown library"
fi

cat >"$T/state.c" <<'EOF'
static int calls;		/* mutable state, shared by every caller */
__thread int dk_last_error;	/* per thread, still global */
int dk_count_calls(void);
int dk_count_calls(void) { return ++calls + dk_last_error; }
EOF
cp "$AR" "$T/state.a"
if cc $CFLAGS_T -c -o "$T/state.o" "$T/state.c" && ar rs "$T/state.a" "$T/state.o" 2>/dev/null; then
	out=$(check_state "$T/state.a")
	rc=$?
	[ $rc -ne 0 ] && echo "$out" | grep -q 'calls' && echo "$out" | grep -q 'dk_last_error' \
	    && ok "a mutable static and a thread-local are found, by name" \
	    || no "mutable state is found" "exit $rc: $out"
else
	no "build the stateful archive"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
