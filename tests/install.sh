#!/usr/bin/env bash
# make install into a temporary DESTDIR, then use what was installed as
# another program would: compile and run a small reader with
# `pkg-config --cflags --libs dumpkit` (shared, then static), run each
# installed tool's --version, and check that one version runs through
# the header, the library, the soname's file, dumpkit.pc and the tools.
# Bytes read are compared with tests/pattern.py; the soname with readelf.
# make uninstall must then leave no file of ours, and every file not ours.
# Then the Debian way, LIBDIR=/usr/lib/<multiarch> (with the default
# PREFIX, and with PREFIX=/usr): the libraries, their symlinks and
# dumpkit.pc go there and say so, a reader builds from that dumpkit.pc,
# uninstall with the same LIBDIR removes it all; and the defaults.
# Ends with "N passed, N failed".
set -u
B=${B:-build}
MAKE=${MAKE:-make}
CC=${CC:-cc}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/dkinst.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/tap.sh"

# A prefix other than the default, so that PREFIX is seen to be obeyed.
DEST=$T/root
PREFIX=/opt/dumpkit
R=$DEST$PREFIX
# A file that is not ours, in a directory install writes to.
mkdir -p "$R/bin" && echo keep >"$R/bin/not-dumpkit"

cd "$TOP"
tools=$($MAKE -s --no-print-directory B="$B" print-tools 2>/dev/null)
version=$(sed -n 's/^#define[[:space:]]*DK_VERSION_STRING[[:space:]]*"\(.*\)"/\1/p' \
    formats/dumpkit.h)
if ! $MAKE -s --no-print-directory B="$B" DESTDIR="$DEST" PREFIX="$PREFIX" \
    install >"$T/install.log" 2>&1; then
	no "make install" "$(tail -5 "$T/install.log")"
	echo "$pass passed, $fail failed"
	exit 1
fi
ok "make install DESTDIR=... PREFIX=$PREFIX"
[ -n "$tools" ] && [ -n "$version" ] || no "the tool list and the version" \
    "tools '$tools', version '$version'"

# --- what was installed, where ------------------------------------------
missing=
for f in $(for t in $tools; do echo "bin/$t"; done) lib/libdumpkit.a \
    "lib/libdumpkit.so.$version" include/dumpkit/dumpkit.h \
    include/dumpkit/dkcheck.h lib/pkgconfig/dumpkit.pc; do
	[ -f "$R/$f" ] || missing="$missing $f"
done
for t in $tools; do
	[ -f "$R/share/man/man1/$t.1" ] || missing="$missing share/man/man1/$t.1"
done
[ -f "$R/share/man/man3/libdumpkit.3" ] || missing="$missing share/man/man3/libdumpkit.3"
[ -z "$missing" ] && ok "tools, libraries, headers, dumpkit.pc and manuals installed" \
    || no "installed files" "missing:$missing"
for h in private.h minidump.h bytes.h; do
	[ ! -e "$R/include/dumpkit/$h" ] || no "$h is not installed"
done
# The ABI's number (install.mk): the major number, or 0.MINOR before 1.0.
major=${version%%.*}
[ "$major" = 0 ] && { minor=${version#0.}; major=0.${minor%%.*}; }
l1=$(readlink "$R/lib/libdumpkit.so.$major") l2=$(readlink "$R/lib/libdumpkit.so")
[ "$l1" = "libdumpkit.so.$version" ] && [ "$l2" = "libdumpkit.so.$major" ] \
    && ok "symlinks: libdumpkit.so -> .so.$major -> .so.$version" \
    || no "symlinks" "libdumpkit.so.$major -> '$l1', libdumpkit.so -> '$l2'"
soname=$(readelf -d "$R/lib/libdumpkit.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libdumpkit.so.$major" ] && ok "readelf: SONAME $soname" \
    || no "readelf: SONAME" "got '$soname', want libdumpkit.so.$major"

# --- pkg-config -----------------------------------------------------------
export PKG_CONFIG_PATH=$R/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$DEST
export PKG_CONFIG_LIBDIR=$R/lib/pkgconfig
pcver=$(pkg-config --modversion dumpkit 2>&1)
[ "$pcver" = "$version" ] && ok "pkg-config --modversion dumpkit: $pcver" \
    || no "pkg-config --modversion" "got '$pcver', want '$version'"
flags=$(pkg-config --cflags --libs dumpkit 2>&1)
want=0
for w in "-I$R/include" "-L$R/lib" -ldumpkit; do
	for f in $flags; do [ "$f" = "$w" ] && want=$((want + 1)); done
done
[ $want -eq 3 ] && ok "pkg-config --cflags --libs: $flags" \
    || no "pkg-config --cflags --libs" "$flags"

# --- a program of someone else's, against the installed library ---------
cat >"$T/reader.c" <<'EOF'
/* Print the version, check a dump, and print 64 bytes at each of the
 * first pages of the first run above 2 MiB, as pattern.py does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dumpkit/dumpkit.h>
#include <dumpkit/dkcheck.h>

int
main(int argc, char **argv)
{
	struct dk_check_opts co = { .pattern = 1 };
	struct dk_check_result res;
	struct dk_run_iter it = { 0 };
	struct dk_dump *d;
	struct dk_run r;
	struct dk_err err;
	unsigned char b[64];
	int n = 0;

	printf("version %s %s\n", dumpkit_version(), DK_VERSION_STRING);
	if (argc != 3)
		return 2;
	co.seed = strtoull(argv[2], NULL, 0);
	if (dk_check(argv[1], &co, &res, &err) != DK_OK) {
		fprintf(stderr, "reader: %s\n", err.msg);
		return 1;
	}
	printf("errors %ju\n", (uintmax_t)res.nerrors);
	if (dk_open(argv[1], NULL, &d, &err) != DK_OK) {
		fprintf(stderr, "reader: %s\n", err.msg);
		return 1;
	}
	while (n < 8 && dk_run_next(d, &it, &r)) {
		for (uint64_t pa = r.pa; pa < r.pa + r.len && n < 8;
		    pa += 4096) {
			if (pa < 0x200000)
				break;
			if (dk_read_pa(d, pa + 0x40, b, sizeof(b), &err) != DK_OK) {
				fprintf(stderr, "reader: %s\n", err.msg);
				return 1;
			}
			printf("%#jx", (uintmax_t)pa + 0x40);
			for (size_t i = 0; i < sizeof(b); i++)
				printf(" %02x", b[i]);
			printf("\n");
			n++;
		}
	}
	dk_close(d);
	return n == 8 ? 0 : 1;
}
EOF
DUMP=$T/vmcore.7
"$R/bin/dumpgen" --arch amd64 --version 3 --mem 64M --seed 7 -q -o "$DUMP" \
    || no "the installed dumpgen writes a dump"

# Checks what reader printed: the versions, no finding, the pattern bytes.
check_reader() {
	local what=$1 out=$2 bad=0 n=0 pa bytes want
	if ! grep -qx "version $version $version" "$out"; then
		no "$what: dumpkit_version() and DK_VERSION_STRING are $version" "$(head -1 "$out")"
		return
	fi
	grep -qx "errors 0" "$out" || { no "$what: dk_check --pattern finds no error" "$(cat "$out")"; return; }
	while read -r pa bytes; do
		want=$(python3 "$HERE/pattern.py" 7 "$pa" 64)
		n=$((n + 1))
		[ "$bytes" = "$want" ] || { bad=$((bad + 1)); echo "#   $pa: got $bytes want $want"; }
	done < <(grep '^0x' "$out")
	[ $n -eq 8 ] && [ $bad -eq 0 ] \
	    && ok "$what: version $version, dk_check clean, 8 reads match pattern.py" \
	    || no "$what: reads match pattern.py" "$bad of $n differ"
}

if $CC -std=c11 -Wall -Wextra -Werror -o "$T/reader" "$T/reader.c" \
    $(pkg-config --cflags --libs dumpkit) 2>"$T/cc.log"; then
	ok "cc reader.c \$(pkg-config --cflags --libs dumpkit)"
	needed=$(readelf -d "$T/reader" | sed -n 's/.*(NEEDED).*\[\(libdumpkit[^]]*\)\]/\1/p')
	[ "$needed" = "libdumpkit.so.$major" ] && ok "reader needs libdumpkit.so.$major" \
	    || no "reader's NEEDED" "got '$needed'"
	# The loader must take the installed copy, not one of a build tree.
	loaded=$(LD_LIBRARY_PATH=$R/lib ldd "$T/reader" | awk '/libdumpkit/{print $3}')
	[ "$loaded" = "$R/lib/libdumpkit.so.$major" ] && ok "ldd: the installed library is loaded" \
	    || no "ldd: the installed library is loaded" "got '$loaded'"
	LD_LIBRARY_PATH=$R/lib "$T/reader" "$DUMP" 7 >"$T/shared.out" 2>&1
	check_reader "shared" "$T/shared.out"
else
	no "cc reader.c \$(pkg-config --cflags --libs dumpkit)" "$(head -5 "$T/cc.log")"
fi

# The installed headers alone, as C99 with -pedantic and as C++.
printf '#include <dumpkit/dumpkit.h>\n#include <dumpkit/dkcheck.h>\nint f(void);\nint f(void) { return dumpkit_version() != 0; }\n' >"$T/hdr.c"
cp "$T/hdr.c" "$T/hdr.cc"
if $CC -std=c99 -pedantic -Wall -Wextra -Werror -c -o "$T/hdr.o" "$T/hdr.c" \
    $(pkg-config --cflags dumpkit) 2>"$T/cc.log"; then
	ok "the installed headers compile alone as C99 -pedantic"
else
	no "the installed headers compile alone as C99 -pedantic" "$(head -3 "$T/cc.log")"
fi
if command -v "${CXX:-g++}" >/dev/null; then
	"${CXX:-g++}" -Wall -Wextra -pedantic -Werror -c -o "$T/hdr.o" "$T/hdr.cc" \
	    $(pkg-config --cflags dumpkit) 2>"$T/cc.log" \
	    && ok "the installed headers compile as C++" \
	    || no "the installed headers compile as C++" "$(head -3 "$T/cc.log")"
fi

# The program of libdumpkit.3's EXAMPLES, as a reader copies it.
awk '/tests\/install.sh compiles/ { on = 1 } on && /^\.Bd -literal/ { in_ = 1; next }
    in_ && /^\.Ed/ { exit } in_ { gsub(/\\e/, "\\"); print }' \
    "$R/share/man/man3/libdumpkit.3" >"$T/runs.c"
if [ ! -s "$T/runs.c" ]; then
	no "libdumpkit.3 has an example program"
elif $CC -o "$T/runs" "$T/runs.c" $(pkg-config --cflags --libs dumpkit) 2>"$T/cc.log"; then
	LD_LIBRARY_PATH=$R/lib "$T/runs" "$DUMP" >"$T/runs.out" 2>&1
	rc=$? bad=0 n=0
	while read -r pa bytes; do
		pa=${pa%:}
		want=$("$R/bin/dumpinfo" --read-pa "$pa:16" --raw "$DUMP" | od -An -v -tx1 | xargs)
		[ "$bytes" = "$want" ] || bad=$((bad + 1))
		n=$((n + 1))
	done < <(grep '^0x' "$T/runs.out")
	[ $rc -eq 0 ] && [ "$(head -1 "$T/runs.out")" = "minidump amd64 version 3 (dumpkit $version)" ] \
	    && [ $n -eq 4 ] && [ $bad -eq 0 ] \
	    && ok "libdumpkit.3's example compiles, runs, and reads what dumpinfo reads" \
	    || no "libdumpkit.3's example" "exit $rc, $bad of $n differ: $(head -3 "$T/runs.out")"
else
	no "libdumpkit.3's example compiles" "$(head -5 "$T/cc.log")"
fi

# Static: the archive and Libs.private.
static_libs=$(pkg-config --static --libs-only-l dumpkit | sed 's/-ldumpkit//')
if $CC -std=c11 -Wall -Wextra -Werror -o "$T/reader-static" "$T/reader.c" \
    $(pkg-config --cflags dumpkit) "$R/lib/libdumpkit.a" $static_libs 2>"$T/cc.log"; then
	if readelf -d "$T/reader-static" | grep -q 'NEEDED.*libdumpkit'; then
		no "the static reader does not need libdumpkit.so"
	else
		"$T/reader-static" "$DUMP" 7 >"$T/static.out" 2>&1
		check_reader "static (libdumpkit.a + Libs.private)" "$T/static.out"
	fi
else
	no "cc reader.c libdumpkit.a \$(pkg-config --static --libs)" "$(head -5 "$T/cc.log")"
fi

# --- the installed tools --------------------------------------------------
for t in $tools; do
	out=$("$R/bin/$t" --version 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [ "$out" = "$t (dumpkit) $version" ] && ok "$t --version: $out" \
	    || no "$t --version" "exit $rc, '$out', want '$t (dumpkit) $version'"
done

# --- the guides' install lines ---------------------------------------------
# A newcomer runs a guide's apt-get line and nothing else: it must hold
# the package of every library the build links (GNUmakefile's LDLIBS)
# and of every program the guide's commands run that Debian's minbase
# lacks.  A library or program with no package here is a failure, so
# that a new dependency is given its package once, here.
pkg_of() {
	case $1 in
	-lelf) echo libelf-dev ;; -ldw) echo libdw-dev ;; -lz) echo zlib1g-dev ;;
	-ldeflate) echo libdeflate-dev ;; -llzma) echo liblzma-dev ;;
	-lzstd) echo libzstd-dev ;; -llzo2) echo liblzo2-dev ;;
	-lsnappy) echo libsnappy-dev ;;
	cc) echo gcc ;; pkg-config) echo pkg-config ;; python3) echo python3 ;;
	readelf) echo binutils ;; eu-readelf) echo elfutils ;;
	gdb-multiarch) echo gdb-multiarch ;; makedumpfile) echo makedumpfile ;;
	xz) echo xz-utils ;; zstd) echo zstd ;; -l*) echo "?" ;;
	esac
}
libs=$(sed -n 's/^LDLIBS[[:space:]]*=//p' GNUmakefile)
for g in docs/guide-*.md; do
	have=" $(grep -h '^apt-get update && apt-get install -y ' "$g" |
	    sed 's/.*install -y //') "
	runs=$(awk '/^```sh$/ { on = 1; next } /^```$/ { on = 0; next } on' "$g" |
	    grep -vE '^(apt-get|make|ldconfig|man) ' |
	    grep -oE '(^|[|;&(] *|\$\()[a-z][a-z0-9_.+-]*' | sed 's/^[|;&( $]*//' |
	    sort -u)
	missing=
	for w in make gcc check $libs $runs; do
		p=$(pkg_of "$w")
		[ -z "$p" ] && case $w in make|gcc|check) p=$w ;; esac
		[ -n "$p" ] || continue
		case $have in *" $p "*) ;; *) missing="$missing $w:$p" ;; esac
	done
	[ -z "$missing" ] && ok "$g: its apt-get line installs what the build and its commands need" ||
	    no "$g: its apt-get line installs what the build and its commands need" \
	    "missing (what: package):$missing"
done

# --- the guides, as a newcomer runs them ------------------------------------
# Every ```sh block of docs/guide-*.md, in order, in an empty directory,
# with the installed tools first on PATH; the steps that install
# (apt-get, make, ldconfig, man) were done above.  A command meant to
# fail is written 'CMD; echo "exit $?"' and must not stop the run.
for g in docs/guide-*.md; do
	w=$T/$(basename "$g" .md)
	mkdir -p "$w/tests" && cp tests/pattern.py "$w/tests/"
	awk '/^```sh$/ { on = 1; next } /^```$/ { on = 0; next } on' "$g" |
	    grep -vE '^(apt-get|make|ldconfig|man) ' |
	    sed 's/; echo "exit \$?"$/ || echo "exit $?"/' >"$w/run.sh"
	if [ ! -s "$w/run.sh" ]; then
		no "$g has commands"
		continue
	fi
	(cd "$w" && PATH=$R/bin:$PATH LD_LIBRARY_PATH=$R/lib bash -e run.sh) \
	    >"$w/log" 2>&1 && ok "$g: every command runs" \
	    || no "$g: every command runs" "$(tail -3 "$w/log")"
done

# --- uninstall --------------------------------------------------------------
if $MAKE -s --no-print-directory B="$B" DESTDIR="$DEST" PREFIX="$PREFIX" \
    uninstall >"$T/uninstall.log" 2>&1; then
	left=$(cd "$DEST" && find . \( -type f -o -type l \) ! -path "./${PREFIX#/}/bin/not-dumpkit")
	[ -z "$left" ] && ok "make uninstall leaves no file of ours" \
	    || no "make uninstall leaves no file of ours" "left: $(echo $left)"
	[ -f "$R/bin/not-dumpkit" ] && ok "make uninstall leaves other files" \
	    || no "make uninstall removed a file it did not install"
else
	no "make uninstall" "$(tail -5 "$T/uninstall.log")"
fi

# --- the Debian way: LIBDIR=/usr/lib/<multiarch> ----------------------------
# The libraries, their symlinks and dumpkit.pc follow LIBDIR; the rest
# stays under PREFIX.  Then PREFIX=/usr with it, as a package builds.
ma=$($CC -print-multiarch 2>/dev/null)
[ -n "$ma" ] || ma=$(uname -m)-linux-gnu
LD=/usr/lib/$ma
debian_install() {	# NAME PREFIX ("" for the default): into $T/NAME
	local name=$1 prefix=$2 D=$T/$1 pfx=${2:-/usr/local}
	local args=(B="$B" DESTDIR="$D" LIBDIR="$LD")
	[ -z "$prefix" ] || args+=(PREFIX="$prefix")
	if ! $MAKE -s --no-print-directory "${args[@]}" install >"$T/$name.log" 2>&1; then
		no "make install ${args[*]:1}" "$(tail -5 "$T/$name.log")"
		return
	fi
	ok "make install ${args[*]:1}"
	missing=
	for f in libdumpkit.a "libdumpkit.so.$version" pkgconfig/dumpkit.pc; do
		[ -f "$D$LD/$f" ] || missing="$missing $LD/$f"
	done
	for f in $(for t in $tools; do echo "bin/$t"; done) include/dumpkit/dumpkit.h \
	    share/man/man3/libdumpkit.3; do
		[ -f "$D$pfx/$f" ] || missing="$missing $pfx/$f"
	done
	[ -z "$missing" ] && ok "$name: the libraries and dumpkit.pc in $LD, the rest in $pfx" \
	    || no "$name: installed files" "missing:$missing"
	left=$(ls -d "$D$pfx"/lib/libdumpkit* "$D$pfx"/lib/pkgconfig/dumpkit.pc 2>/dev/null)
	[ -z "$left" ] && ok "$name: no library nor dumpkit.pc in $pfx/lib" \
	    || no "$name: no library nor dumpkit.pc in $pfx/lib" "$left"
	l1=$(readlink "$D$LD/libdumpkit.so.$major") l2=$(readlink "$D$LD/libdumpkit.so")
	[ "$l1" = "libdumpkit.so.$version" ] && [ "$l2" = "libdumpkit.so.$major" ] \
	    && ok "$name: symlinks in $LD: libdumpkit.so -> .so.$major -> .so.$version" \
	    || no "$name: symlinks in $LD" "libdumpkit.so.$major -> '$l1', libdumpkit.so -> '$l2'"
	# What the .pc says, as written and as pkg-config reads it.
	local want_libdir=$LD want_inc='${prefix}/include'
	[ "$pfx" = /usr ] && want_libdir="\${prefix}/lib/$ma"
	grep -qxF "prefix=$pfx" "$D$LD/pkgconfig/dumpkit.pc" &&
	    grep -qxF "libdir=$want_libdir" "$D$LD/pkgconfig/dumpkit.pc" &&
	    grep -qxF "includedir=$want_inc" "$D$LD/pkgconfig/dumpkit.pc" \
	    && ok "$name: dumpkit.pc: prefix=$pfx, libdir=$want_libdir, includedir=$want_inc" \
	    || no "$name: dumpkit.pc's directories" "$(head -4 "$D$LD/pkgconfig/dumpkit.pc")"
	local pc
	pc=$(PKG_CONFIG_LIBDIR=$D$LD/pkgconfig PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR=$D \
	    pkg-config --cflags --libs dumpkit 2>&1)
	if $CC -std=c11 -o "$T/$name.reader" "$T/reader.c" $pc 2>"$T/cc.log" &&
	    LD_LIBRARY_PATH=$D$LD "$T/$name.reader" "$DUMP" 7 >"$T/$name.out" 2>&1; then
		check_reader "$name: reader built with pkg-config ($pc)" "$T/$name.out"
	else
		no "$name: reader built and run with pkg-config ($pc)" \
		    "$(head -5 "$T/cc.log" "$T/$name.out" 2>/dev/null)"
	fi
	if $MAKE -s --no-print-directory "${args[@]}" uninstall >"$T/$name.log" 2>&1; then
		left=$(cd "$D" && find . \( -type f -o -type l \))
		[ -z "$left" ] && ok "$name: make uninstall with the same LIBDIR leaves no file" \
		    || no "$name: make uninstall with the same LIBDIR leaves no file" "left: $(echo $left)"
	else
		no "$name: make uninstall ${args[*]:1}" "$(tail -5 "$T/$name.log")"
	fi
}
debian_install libdir ""
debian_install usr /usr

# The defaults: PREFIX /usr/local, the libraries and dumpkit.pc in
# /usr/local/lib.
dry=$($MAKE -n --no-print-directory B="$B" DESTDIR=/nonexistent install 2>/dev/null)
dflt=$(grep -c '/nonexistent/usr/local/bin' <<<"$dry")
[ "$dflt" -gt 0 ] && ok "PREFIX defaults to /usr/local" || no "PREFIX defaults to /usr/local"
grep -q " /nonexistent/usr/local/lib/\$" <<<"$dry" &&
    grep -q "dumpkit.pc /nonexistent/usr/local/lib/pkgconfig/\$" <<<"$dry" \
    && ok "LIBDIR defaults to /usr/local/lib, dumpkit.pc to /usr/local/lib/pkgconfig" \
    || no "LIBDIR defaults to /usr/local/lib" "$(grep -E 'libdumpkit|dumpkit.pc' <<<"$dry")"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
