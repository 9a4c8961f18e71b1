#!/usr/bin/env bash
# tests/fresh.sh -- the README's two commands, as written, on a fresh
# Debian root (`make check-fresh`; CI runs it).  The root: mmdebstrap
# --variant=minbase of this machine's Debian release (priority-required
# packages and apt, as Debian's own container image has them, from
# Debian's mirror with the release's updates and security suites).  In
# it, the committed tree (git archive HEAD) in /root/dumpkit, and each
# command of README.md's first ```sh block (tests/readme_commands.sh)
# run there by sh, as root, in an environment of PATH, HOME and
# TERM=dumb only.  Their output is this script's.
#
# The root is entered with chroot in new mount and PID namespaces
# (unshare), with its own /proc, /dev/pts and /dev/shm; /dev holds the
# nodes mmdebstrap made (null, zero, full, random, urandom, tty, ptmx).
# It shares this machine's kernel, network and clock: what that does not
# prove is in README.md, "Testing".
#
# FRESH_SUITE (default: VERSION_CODENAME of /etc/os-release), FRESH_KEEP=1
# (keep the root, and say where), FRESH_CACHE=DIR (keep the downloaded
# .debs in DIR across runs: apt still resolves every package from the
# mirror's current indexes and installs it into the fresh root),
# FRESH_NO_RECOMMENDS=1 (the root's apt installs no recommended
# package, as on a machine set up so).  Needs
# root, unshare and mmdebstrap (the README's list has it).  Ends with
# "N passed, N failed".
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/tap.sh"
SUITE=${FRESH_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}

finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

if [ "$(id -u)" -ne 0 ]; then
	no "tests/fresh.sh runs as root (it makes a root file system and chroots into it)"
	finish
fi
for t in mmdebstrap unshare chroot git; do
	command -v "$t" >/dev/null 2>&1 || { no "$t is installed"; finish; }
done
[ -n "$SUITE" ] || { no "this machine's Debian release (VERSION_CODENAME in /etc/os-release)"; finish; }

T=$(mktemp -d "${TMPDIR:-/tmp}/dkfresh.XXXXXX")
R=$T/root
# Whatever unshare mounted lived in its namespace and is gone with it.
cleanup() {
	if [ "${FRESH_KEEP:-0}" = 1 ]; then
		echo "# kept: $R"
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

# --- a fresh root -----------------------------------------------------------
s=$SECONDS
if mmdebstrap --variant=minbase --quiet "$SUITE" "$R" >"$T/mmdebstrap.log" 2>&1; then
	ok "mmdebstrap --variant=minbase $SUITE: a fresh root ($((SECONDS - s)) s, $(du -sm "$R" | cut -f1) MiB)"
else
	no "mmdebstrap --variant=minbase $SUITE" "$(tail -20 "$T/mmdebstrap.log")"
	finish
fi
# Nothing the README installs is there before it does (gzip and the
# other essential packages are on every Debian system).
pre=$(chroot "$R" dpkg-query -W -f '${Package}\n')
there=
for p in make gcc python3 pkg-config binutils gdb-multiarch clang; do
	grep -qx "$p" <<<"$pre" && there="$there $p"
done
[ -z "$there" ] && ok "the root has none of make, gcc, python3, pkg-config, binutils, gdb-multiarch, clang" \
    || no "the root is not fresh: it has$there"

mkdir -p "$R/root/dumpkit"
if ! (cd "$TOP" && git archive HEAD) | tar -x -C "$R/root/dumpkit"; then
	no "git archive HEAD into the root"
	finish
fi
ok "the committed tree ($(cd "$TOP" && git rev-parse --short HEAD)) in /root/dumpkit"
if ! sh "$R/root/dumpkit/tests/readme_commands.sh" "$R/root/dumpkit/README.md" \
    >"$R/root/readme-commands" 2>"$T/err"; then
	no "README.md's first sh block" "$(cat "$T/err")"
	finish
fi
ok "README.md's first sh block: two commands"
[ -z "${FRESH_CACHE:-}" ] || mkdir -p "$FRESH_CACHE/partial"
# A machine whose apt installs no recommended package.
[ "${FRESH_NO_RECOMMENDS:-0}" != 1 ] ||
    echo 'APT::Install-Recommends "false";' >"$R/etc/apt/apt.conf.d/99no-recommends"

# --- the README's commands, in the root -------------------------------------
cat >"$R/root/run-readme.sh" <<'EOF'
cd /root/dumpkit || exit 1
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	s=$(date +%s)
	echo "== README command $i: $cmd"
	sh -c "$cmd" </dev/null
	rc=$?
	echo "== README command $i: exit $rc after $(( $(date +%s) - s )) s"
	echo "$i $rc $(( $(date +%s) - s ))" >>/root/readme-results
	[ $rc -eq 0 ] || exit 1
done </root/readme-commands
EOF
s=$SECONDS
unshare --mount --pid --fork --kill-child --propagation private sh -c '
	R=$1 C=$2
	mount -t proc proc "$R/proc" &&
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$R/dev/pts" &&
	mount --bind "$R/dev/pts/ptmx" "$R/dev/ptmx" &&
	mount -t tmpfs -o mode=1777 tmpfs "$R/dev/shm" || exit 1
	[ -z "$C" ] || mount --bind "$C" "$R/var/cache/apt/archives" || exit 1
	exec chroot "$R" /usr/bin/env -i HOME=/root TERM=dumb \
	    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	    sh /root/run-readme.sh
' sh "$R" "${FRESH_CACHE:-}"
rc=$?
for i in 1 2; do
	read -r _ st secs < <(awk -v i=$i '$1 == i' "$R/root/readme-results" 2>/dev/null)
	cmd=$(sed -n "${i}p" "$R/root/readme-commands" | tr -s ' ')
	if [ "${st:-}" = 0 ]; then
		ok "in the fresh root, README command $i passes ($secs s): $cmd"
	else
		no "in the fresh root, README command $i passes: $cmd" \
		    "${st:+exit $st after $secs s}${st:-not run (status $rc)}"
	fi
	st= secs=
done
finish
