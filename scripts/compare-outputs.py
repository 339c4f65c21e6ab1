#!/usr/bin/env python3
"""compare-outputs.py SIM record|compare DIR [--soak N] [--set K=V ...]

Runs a fixed corpus through SIM and keeps (record) or checks (compare) every
output byte for byte: the scenarios in scenarios/ (and the variants the tutorial,
docs/tutorial.md, runs), the benchmark scenarios, `check` of each of them, and the
first N soak scenarios (tests/soak.py, default 200).  stats.csv (wall-clock)
and plots are not compared.

A refactor must leave the outputs identical: record before it, compare after.
A change to the model changes them on purpose: compare shows what moved, then
record again.  Extra --set options are passed to every run (e.g. to compare a
one-thread run against a two-thread one).  Exit status: 0 identical, 1 not.
"""
import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import soak  # noqa: E402  (the random scenario generator)

# inputs are written here in both modes, so that the paths scenario.ini
# records (trace files) are the same; DCQCN_COMPARE_INPUTS moves it, so that
# two checkouts can compare at once
WORK = os.environ.get('DCQCN_COMPARE_INPUTS',
                      os.path.join(tempfile.gettempdir(), 'dcqcn-compare-inputs'))

# benchmarks too long for a comparison (minutes each)
LONG_BENCH = ('allreduce-4096', 'allreduce-8192', 'alltoall-8192')

TUTORIAL = {
    'pause-storm.ini': [['--set', 'pfcwd.enable=false']],
    'pfc-vs-dcqcn.ini': [['--set', 'nic.cc=none']],
    'ecn-thresholds.ini': [['--set', 'ecn.kmin=12MB', '--set', 'ecn.kmax=16MB']],
    'victim-flow.ini': [['--set', 'job.incast.start=1s'], ['--set', 'nic.cc=dcqcn']],
    'headroom.ini': [['--set', 'pfc.headroom=auto']],
}


def corpus(nsoak):
    """(name, scenario path, extra args) of every run"""
    runs = []
    scen = os.path.join(ROOT, 'scenarios')
    for name in sorted(os.listdir(scen)):
        if not name.endswith('.ini'):
            continue
        path = os.path.join(scen, name)
        runs.append((name[:-4], path, []))
        for k, extra in enumerate(TUTORIAL.get(name, [])):
            runs.append(('%s-v%d' % (name[:-4], k + 1), path, extra))
    for sub in ('tests/bench', 'scenarios/bench'):
        d = os.path.join(ROOT, sub)
        if os.path.isdir(d):
            for name in sorted(os.listdir(d)):
                if name.endswith('.ini') and name[:-4] not in LONG_BENCH:
                    runs.append(('bench-' + name[:-4], os.path.join(d, name), []))
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    for seed in range(1, nsoak + 1):
        d = os.path.join(WORK, 'soak%d' % seed)
        os.makedirs(d)
        path = os.path.join(d, 'scenario.ini')
        with open(path, 'w') as f:
            f.write(soak.scenario(seed, d))
        runs.append(('soak%d' % seed, path, []))
    return runs


def produce(sim, runs, out, sets, skip_bench):
    os.makedirs(out, exist_ok=True)
    for name, path, extra in runs:
        if skip_bench and name.startswith('bench-'):
            continue
        d = os.path.join(out, name)
        args = [sim, 'run', path, '-o', d, '--quiet'] + extra + sets
        p = subprocess.run(args, capture_output=True, text=True)
        with open(os.path.join(d if os.path.isdir(d) else out, name + '.exit'
                               if not os.path.isdir(d) else 'exit'), 'w') as f:
            f.write('%d\n%s' % (p.returncode, p.stderr))
        c = subprocess.run([sim, 'check', path] + extra, capture_output=True, text=True)
        with open(os.path.join(out, name + '.check'), 'w') as f:
            f.write('%d\n%s%s' % (c.returncode, c.stdout, c.stderr))
        if os.path.isdir(d):
            for junk in ('stats.csv', 'events.csv', 'plots'):
                p = os.path.join(d, junk)
                if os.path.isdir(p):
                    shutil.rmtree(p)
                elif os.path.exists(p):
                    os.remove(p)


def compare(a, b, subset=False):
    """what differs between a and b; subset: b ran part of a's corpus, so
    what b lacks is not reported"""
    bad = []
    for dirpath, _, files in os.walk(a):
        rel = os.path.relpath(dirpath, a)
        for f in files:
            pa, pb = os.path.join(dirpath, f), os.path.join(b, rel, f)
            if not os.path.exists(pb):
                if subset:
                    continue
                bad.append('%s: missing' % os.path.join(rel, f))
            elif not filecmp.cmp(pa, pb, shallow=False):
                bad.append('%s: differs' % os.path.join(rel, f))
    for dirpath, _, files in os.walk(b):
        rel = os.path.relpath(dirpath, b)
        for f in files:
            if not os.path.exists(os.path.join(a, rel, f)):
                bad.append('%s: new' % os.path.join(rel, f))
    return sorted(bad)


def recorded_soak(d):
    return sum(1 for n in os.listdir(d) if n.startswith('soak') and n.endswith('.check'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('sim')
    ap.add_argument('mode', choices=['record', 'compare'])
    ap.add_argument('dir')
    ap.add_argument('--soak', type=int, default=200)
    ap.add_argument('--set', action='append', default=[])
    ap.add_argument('--no-bench', action='store_true', help='skip the benchmark scenarios')
    o = ap.parse_args()
    sets = [x for kv in o.set for x in ('--set', kv)]
    runs = corpus(o.soak)
    sim = os.path.abspath(o.sim)
    if o.mode == 'record':
        shutil.rmtree(o.dir, ignore_errors=True)
        produce(sim, runs, o.dir, sets, o.no_bench)
        print('recorded %d runs in %s' % (len(runs), o.dir))
        return 0
    fresh = tempfile.mkdtemp(prefix='dcqcn-compare-')
    produce(sim, runs, fresh, sets, o.no_bench)
    bad = compare(o.dir, fresh, subset=o.no_bench or o.soak < recorded_soak(o.dir))
    for line in bad[:200]:
        print(line)
    if bad:
        print('%d files differ (new outputs kept in %s)' % (len(bad), fresh))
        return 1
    shutil.rmtree(fresh)
    print('%d runs: every output identical' % len(runs))
    return 0


if __name__ == '__main__':
    sys.exit(main())
