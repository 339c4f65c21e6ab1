#!/bin/sh
# fuzz.sh [SECONDS] - run each libFuzzer harness (tests/fuzz/) for SECONDS
# (default 60) with its dictionary, starting from the seed corpus; needs
# clang (scripts/deps.sh does not install it: apt-get install clang).
# New inputs go to build-fuzz/corpus/NAME, crashes to build-fuzz/crashes/NAME;
# a crash that should stay fixed belongs in tests/fuzz/corpus/NAME, which
# the test suite replays.  Prints each fuzzer's executions, coverage and
# crashes.
set -e
cd "$(dirname "$0")/.."
secs="${1:-60}"
command -v clang >/dev/null || { echo "fuzz.sh: clang not found (apt-get install clang)"; exit 2; }
[ -d build-fuzz ] || CC=clang meson setup build-fuzz -Dfuzz=true >/dev/null
ninja -C build-fuzz tests/fuzz/fuzz-scenario tests/fuzz/fuzz-trace tests/fuzz/fuzz-config \
	tests/fuzz/fuzz-merge >/dev/null
status=0
for name in scenario trace config merge; do
	work="build-fuzz/corpus/$name" crashes="build-fuzz/crashes/$name"
	mkdir -p "$work" "$crashes"
	log="build-fuzz/fuzz-$name.log"
	if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
		"build-fuzz/tests/fuzz/fuzz-$name" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -dict="tests/fuzz/$name.dict" -artifact_prefix="$crashes/" \
		-print_final_stats=1 "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
		result="no crash"
	else
		result="CRASH (see $log and $crashes)"
		status=1
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	echo "fuzz $name: $runs executions in $secs s, $cov edges, corpus $(ls "$work" | wc -l) inputs: $result"
done
exit $status
