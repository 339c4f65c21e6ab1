#!/bin/sh
# bench.sh DCQCN_SIM SCENARIO - one timed run; prints events/s, packets/s,
# wall time and peak RSS from stats.csv (performance is measured here, never
# asserted in tests).
set -e
sim="$1"
scenario="$2"
out=$(mktemp -d /tmp/dcqcn-bench-XXXXXX)
trap 'rm -rf "$out"' EXIT
"$sim" run "$scenario" -o "$out" --quiet
echo "benchmark: $(basename "$scenario" .ini)"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
	{ for (i = 1; i <= NF; i++) printf "  %-14s %s\n", h[i], $i }' "$out/stats.csv"
awk -F, 'NR == 2 { printf "  %-14s %s of %s flows, %s B delivered\n", "result", $6, $7, $3 }' \
	"$out/summary.csv"
