#!/usr/bin/env python3
"""test_qpcache.py SIM - nic.qp_cache changes no output byte.

A QP gives its state up at rest and gets it back (models/node/qpcache.c),
and an all-to-all `all-at-once` makes its messages as each NIC serves them:
small all-to-alls (16 to 64 ranks; all-at-once and shift; on 1 and 2
threads; with DCQCN and without; InfiniBand, with its congestion control
and without; qps_per_connection 2, iterations, skew and a straggler; a run cut by sim.duration, whose unfinished messages
flows.csv lists; a link that fails and comes back; retransmissions; timers of QPs at rest
that fire after their QPs have their state again, in buckets of several times: each must
fire at its own time, or the run stops) run
with a cache of one QP and with every QP kept must write the same bytes in
every file but stats.csv and events.csv (the cost of the run) and
scenario.ini (which names the cache).  Every run must end with its
invariants holding (exit status 0) and, but the one that drops on purpose,
no lossless drop; `check` must print the peak it expects with the cache.
"""
import csv
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

A2A16 = """[topology]
spines = 2
leaves = 4
hosts_per_leaf = 4
host_link = 100Gbps
fabric_link = 100Gbps
[job.a2a]
pattern = alltoall
size = 2MiB
"""

A2A64 = """[topology]
spines = 4
leaves = 4
hosts_per_leaf = 16
host_link = 100Gbps
fabric_link = 100Gbps
[job.a2a]
pattern = alltoall
size = 4MiB
[job.b]
pattern = incast
senders = 1-4
dst = 40
size = 1MB
"""

LINK_DOWN = A2A16 + """[fault.cut]
kind = link-down
link = leaf0-spine0
start = 20us
duration = 100us
"""

# (name, scenario, --set options): each runs with nic.qp_cache = 1 and 0
CASES = [
    ('a16', A2A16, []),
    ('a16-t2', A2A16, ['sim.threads=2']),
    ('a16-shift', A2A16, ['job.a2a.schedule=shift']),
    ('a16-shift-t2', A2A16, ['job.a2a.schedule=shift', 'sim.threads=2']),
    ('a16-q2-it3', A2A16, ['job.a2a.qps_per_connection=2', 'job.a2a.iterations=3']),
    ('a16-skew', A2A16, ['job.a2a.skew=5us', 'job.a2a.iterations=2', 'sim.threads=2']),
    ('a16-straggler', A2A16, ['job.a2a.straggler=h3:20us', 'job.a2a.size=64KiB',
                              'job.a2a.iterations=3', 'output.rates=5']),
    ('a16-nocc', A2A16, ['nic.cc=none', 'job.a2a.iterations=2']),
    ('a16-small', A2A16, ['job.a2a.size=48KiB', 'job.a2a.iterations=2', 'output.rates=0']),
    ('a64', A2A64, ['sim.threads=2', 'job.a2a.iterations=2']),
    ('a64-cut', A2A64, ['sim.duration=30us']),
    ('a64-shift-cut', A2A64, ['sim.duration=30us', 'sim.threads=2',
                              'job.a2a.schedule=shift']),
    ('a64-shift-q2', A2A64, ['job.a2a.schedule=shift', 'job.a2a.qps_per_connection=2',
                             'job.a2a.iterations=2', 'sim.threads=2']),
    ('a16-ib', A2A16, ['fabric.type=infiniband', 'sim.threads=2']),
    ('a16-ib-cc', A2A16, ['fabric.type=infiniband', 'ib.cc=on', 'job.a2a.size=48KiB']),
    ('a16-link-down', LINK_DOWN, ['nic.rto=30us', 'sim.threads=2']),
    ('a16-link-down-shift', LINK_DOWN, ['nic.rto=30us', 'job.a2a.schedule=shift']),
    # timers of QPs at rest that fire after their QPs got their state back
    # with data outstanding (qpcache.c timers_fire), and at rest
    ('a16-rto-live', A2A16, ['nic.rto=20us', 'job.a2a.size=48KiB', 'job.a2a.iterations=3']),
    # timers at rest in several buckets of 4.29 ms (qpcache.c), some of
    # QPs that have their state again when they fire
    ('a16-rto-buckets', A2A16, ['nic.rto=4ms', 'job.a2a.size=32MiB', 'job.a2a.iterations=4',
                                'job.a2a.skew=1ms']),
]

# files that may differ: the run's cost, and the resolved scenario (the cache)
SKIP = ('stats.csv', 'events.csv', 'scenario.ini')


def run(sim, ini, sets, out):
    args = [sim, 'run', ini, '-o', out, '--quiet']
    for s in sets:
        args += ['--set', s]
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stderr


def main():
    sim = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix='qpcache-')
    failures = 0
    try:
        for name, text, sets in CASES:
            ini = os.path.join(tmp, name + '.ini')
            with open(ini, 'w') as f:
                f.write(text)
            outs = {}
            for cache in ('1', '0'):
                out = os.path.join(tmp, '%s-%s' % (name, cache))
                rc, err = run(sim, ini, sets + ['nic.qp_cache=' + cache], out)
                if rc:
                    print('FAIL: %s (nic.qp_cache=%s) exited %d: %s' % (name, cache, rc, err))
                    failures += 1
                outs[cache] = out
            if not all(os.path.isdir(o) for o in outs.values()):
                continue
            files = sorted(set(os.listdir(outs['1'])) | set(os.listdir(outs['0'])))
            bad = [f for f in files if f not in SKIP and not filecmp.cmp(
                os.path.join(outs['1'], f), os.path.join(outs['0'], f), shallow=False)
                if os.path.exists(os.path.join(outs['1'], f)) and
                os.path.exists(os.path.join(outs['0'], f))]
            missing = [f for f in files if f not in SKIP and not (
                os.path.exists(os.path.join(outs['1'], f)) and
                os.path.exists(os.path.join(outs['0'], f)))]
            if bad or missing:
                print('FAIL: %s: %s differ, %s missing' % (name, bad, missing))
                failures += 1
            with open(os.path.join(outs['1'], 'summary.csv')) as f:
                row = next(csv.DictReader(f))
            if 'link-down' not in name and row['drops_lossless'] != '0':
                print('FAIL: %s: %s lossless drops' % (name, row['drops_lossless']))
                failures += 1
            print('ok: %s (%s)' % (name, ' '.join(sets) or 'defaults'))
        # check prints the peak expected once the QPs exceed the cache
        ini = os.path.join(tmp, 'a16.ini')
        c = subprocess.run([sim, 'check', ini, '--set', 'nic.qp_cache=100'],
                           capture_output=True, text=True)
        line = [ln for ln in c.stdout.splitlines() if ln.startswith('# QPs:')]
        if c.returncode or not line or 'more than nic.qp_cache = 100' not in line[0] \
                or 'expected at the peak' not in line[0]:
            print('FAIL: check prints no expected peak: %s' % (line or c.stdout[-300:]))
            failures += 1
        else:
            print('ok: check: %s' % line[0])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('qpcache: %d failed' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
