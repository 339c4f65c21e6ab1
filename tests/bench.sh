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
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "  %-14s %s of %s flows, %s B delivered, %s pause frames\n", "result",
	  $c["flows_completed"], $c["flows_total"], $c["data_bytes_delivered"], $c["pause_frames"] }' \
	"$out/summary.csv"
