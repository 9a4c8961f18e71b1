# tap.sh -- sourced by the shell suites: one "ok - DESC" or "not ok -
# DESC" line per check, the diagnostics of a failure indented under it,
# and the counts the suite prints last ("N passed, N failed").
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $1"; }

# no DESC [DIAGNOSTICS]: a failure; at most 40 lines of diagnostics.
no() {
	fail=$((fail + 1))
	echo "not ok - $1"
	[ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2" | head -n 40
	return 0
}

# check DESC COMMAND...: passes if COMMAND exits 0.
check() {
	local d=$1; shift
	local out
	if out=$("$@" 2>&1); then ok "$d"; else no "$d" "$out"; fi
}

# expect_exit DESC STATUS REGEX COMMAND...: the exit status is STATUS
# and stdout plus stderr match the extended regular expression REGEX.
expect_exit() {
	local d=$1 want=$2 re=$3; shift 3
	local out rc
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" -eq "$want" ] && grep -Eq -- "$re" <<<"$out"; then
		ok "$d"
	else
		no "$d" "exit $rc (wanted $want), output: $out"
	fi
}
