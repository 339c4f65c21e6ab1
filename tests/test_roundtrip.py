#!/usr/bin/env python3
"""test_roundtrip.py SIM SRCROOT - resolved scenarios always load back.

What `check` prints (the resolved scenario, and the same text a run writes
as scenario.ini) must load again and print the same bytes: over every
teaching and benchmark scenario, every scenario file the tests keep, a
soak subset (random scenarios with traces), a dscp_to_priority of 64
entries (a 300-character line, longer than inih's 199) and a trace under
a path of more than 250 characters.  Only the first line, which names the file it was
resolved from, may differ.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402  (the random scenario generator)

SOAK_SEEDS = 60


def check(sim, path):
    p = subprocess.run([sim, 'check', path], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    sim, src = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix='dcqcn-roundtrip-')
    files = []
    for d in ('scenarios', 'scenarios/bench', 'tests/data'):
        full = os.path.join(src, d)
        files += [os.path.join(full, f) for f in sorted(os.listdir(full)) if f.endswith('.ini')]
    # a dscp_to_priority of 64 entries: one line of about 300 characters
    m = ','.join('%d:%d' % (d, (d * 5 + 1) % 8) for d in range(64))
    long_map = os.path.join(tmp, 'long-map.ini')
    with open(long_map, 'w') as f:
        f.write('[qos]\ndscp_to_priority = %s\n' % m)
    files.append(long_map)
    # a trace under a path of more than 250 characters
    deep = os.path.join(tmp, *(['a-folder-with-a-rather-long-name'] * 7))
    assert len(os.path.join(deep, 't.csv')) > 250
    os.makedirs(deep)
    with open(os.path.join(deep, 't.csv'), 'w') as f:
        f.write('src,dst,bytes,start_us\n0,1,4096,0\n')
    deep_ini = os.path.join(deep, 'trace.ini')
    with open(deep_ini, 'w') as f:
        f.write('[topology]\nkind = star\nhosts = 4\n[job.t]\npattern = trace\nfile = t.csv\n')
    files.append(deep_ini)
    for seed in range(1, SOAK_SEEDS + 1):
        d = os.path.join(tmp, 'soak%d' % seed)
        os.makedirs(d)
        path = os.path.join(d, 'scenario.ini')
        with open(path, 'w') as f:
            f.write(soak.scenario(seed, d))
        files.append(path)
    bad = ok = 0
    for n, path in enumerate(files):
        rc, first, err = check(sim, path)
        if rc != 0:
            print('FAIL: %s: check exits %d: %s' % (path, rc, err.strip()))
            bad += 1
            continue
        again = os.path.join(tmp, 'resolved-%d.ini' % n)  # never in the source tree
        with open(again, 'w') as f:
            f.write(first)
        rc, second, err = check(sim, again)
        if rc != 0:
            print('FAIL: %s: the printed scenario does not load: %s' % (path, err.strip()))
            bad += 1
        elif first.split('\n', 1)[1] != second.split('\n', 1)[1]:
            print('FAIL: %s: printed again, it differs' % path)
            bad += 1
        else:
            ok += 1
    print('roundtrip: %d scenarios print, reload and print the same; %d failed' % (ok, bad))
    if not bad:
        shutil.rmtree(tmp)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
