# testlib.sh - what the shell tests share (sourced; needs $tmp set):
# counters, expect (exit status), grep_in (a pattern in a file), and the
# closing "NAME: N passed, M failed" line.
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# expect STATUS DESCRIPTION CMD...: run CMD, compare its exit status
# (STATUS "nonzero": any failure); its output lands in $tmp/out, $tmp/err
expect() {
	want="$1"; what="$2"; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$want" = nonzero ] && [ "$got" -ne 0 ] || [ "$got" = "$want" ]; then ok "$what"; else
		bad "$what: exit $got, want $want"; sed 's/^/  | /' "$tmp/err" | head -5; fi
}

# grep_in FILE PATTERN DESCRIPTION
grep_in() {
	if grep -q -- "$2" "$1"; then ok "$3"; else bad "$3: no '$2' in $1"; sed 's/^/  | /' "$1" | head -5; fi
}

# finish NAME: the closing line, and the exit status
finish() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
