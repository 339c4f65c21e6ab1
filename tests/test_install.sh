#!/bin/sh
# test_install.sh MESON BUILD_ROOT SOURCE_ROOT - `meson install` gives a
# program that works from any directory: installed into a temporary folder
# (DESTDIR), it runs the embedded default scenario with its figures from
# another directory, finds its own gnuplot scripts (those beside it, not the
# source tree's), still does once its prefix is moved elsewhere (as a user
# prefix is), and its scenarios, man pages and bash and zsh completions are
# in place.
meson="$1"
build="$2"
root="$3"
tmp=$(mktemp -d /tmp/dcqcn-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/testlib.sh"

prefix=$("$meson" introspect "$build" --buildoptions |
	python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
expect 0 "meson install into a temporary folder" "$meson" install -C "$build" --no-rebuild \
	--destdir "$tmp/dest" --quiet
p="$tmp/dest$prefix"
sim="$p/bin/dcqcn-sim"
share="$p/share/dcqcn-sim"
for f in "$sim" "$share/plots/queues.gp" "$share/plots/common.gp" "$share/scenarios/default.ini" \
	"$share/scenarios/pause-storm.ini" "$p/share/man/man1/dcqcn-sim.1" \
	"$p/share/man/man5/dcqcn-sim-scenario.5" "$p/share/zsh/site-functions/_dcqcn-sim"; do
	if [ -e "$f" ]; then ok "installed: ${f#"$p"/}"; else bad "not installed: ${f#"$p"/}"; fi
done
completion=$(find "$p" -path '*bash-completion/completions/dcqcn-sim' | head -1)
if [ -n "$completion" ]; then ok "installed: the bash completion (${completion#"$p"/})"
else bad "no bash completion under $p/share/bash-completion/completions"; fi

mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
expect 0 "--version" "$sim" --version
grep_in "$tmp/out" "(commit " "--version names the commit"
expect 0 "the default scenario with its figures, from another directory" \
	env -u DCQCN_SIM_PLOTS "$sim" run --plot --quiet
for f in summary.csv queues.csv plots/queues.png plots/pause_map.png plots/throughput.png; do
	if [ -s "results/default/$f" ]; then ok "results/default/$f"; else bad "no results/default/$f"; fi
done
expect 0 "an installed scenario by its path" env -u DCQCN_SIM_PLOTS "$sim" check \
	"$share/scenarios/pause-storm.ini"

# moved elsewhere (a prefix of its own, as ~/.local is): the scripts beside it
mv "$p" "$tmp/moved"
sim="$tmp/moved/bin/dcqcn-sim"
expect 0 "a moved install draws its figures" env -u DCQCN_SIM_PLOTS "$sim" plot results/default
# the scripts drawn are those beside the program: without one of them the
# figure fails (the source tree's copy is not taken instead)
mv "$tmp/moved/share/dcqcn-sim/plots/rates.gp" "$tmp/rates.gp"
expect 4 "the figures come from the scripts installed beside the program" \
	env -u DCQCN_SIM_PLOTS "$sim" plot results/default
grep_in "$tmp/err" "rates" "the missing script's figure is named"
finish install
