#!/usr/bin/env python3
"""test_calibration_doc.py DCQCN_SIM SOURCE_ROOT - the example report of
docs/calibration.md tells the truth about the runs it names.

The search behind it takes five minutes; its figures come from single runs of
the embedded default, which take a second each.  The report's "run it:" line
(the recommendation) and the default's own settings are run on seeds 1-3, and
each "per seed" row (judged busbw min % line / ECN marked % / pause frames) must
be what those runs' summary.csv say, to the report's digits; the own settings
must fail and the recommendation pass on every seed, as the report says.
Prints one line per check; exit 1 when any fails.
"""
import csv
import os
import re
import shlex
import subprocess
import sys
import tempfile

from pycheck import check, finish

SIM = sys.argv[1]
ROOT = sys.argv[2]


def report():
    with open(os.path.join(ROOT, 'docs', 'calibration.md')) as f:
        text = f.read()
    block = text[text.index('`dcqcn-sim calibrate -j 2` on the embedded default'):]
    block = block[block.index('```text'):]
    return block[:block.index('\n```\n')]


def run(tmp, name, sets, seed):
    out = os.path.join(tmp, '%s-%d' % (name, seed))
    r = subprocess.run([SIM, 'run', '-o', out, '-q', '--set', 'sim.seed=%d' % seed] + sets,
                       capture_output=True, text=True)
    if not check(r.returncode == 0, '%s, seed %d: runs' % (name, seed), r.stderr[-400:]):
        return None
    with open(os.path.join(out, 'summary.csv')) as f:
        return next(csv.DictReader(f))


def main():
    text = report()
    m = re.search(r'^run it: dcqcn-sim run (.*)$', text, re.M)
    check(m is not None, "the report has its run it: line", text[-600:])
    if not m:
        finish('calibration-doc')
    words = shlex.split(m.group(1))
    sets = [w for w in words if w != '--set']
    check(len(sets) == 6 and all('=' in s for s in sets) and words[::2] == ['--set'] * 6,
          'the run it: line sets the six keys and nothing else', words)
    rec = [a for s in sets for a in ('--set', s)]
    rows = re.findall(r'^  default sim\.seed=(\d)\s+(\S+) / (\S+) / (\d+)\s+(\S+) / (\S+) / (\d+)',
                      text, re.M)
    check([r[0] for r in rows] == ['1', '2', '3'], 'the report has a row per seed', rows)
    with tempfile.TemporaryDirectory(prefix='dcqcn-caldoc-') as tmp:
        for seed, *cells in rows:
            for name, extra, said in (('own', [], cells[:3]), ('recommended', rec, cells[3:])):
                s = run(tmp, name, extra, int(seed))
                if s is None:
                    continue
                got = ['%.1f' % float(s['busbw_judged_min_pct']),
                       '%.2f' % float(s['ecn_mark_pct']), s['pause_frames']]
                check(got == said, '%s, seed %s: the report\'s busbw / marked / pauses are the '
                      'run\'s' % (name, seed), (got, said))
                check(s['criteria_pass'] == ('1' if name == 'recommended' else '0'),
                      '%s, seed %s: %s, as reported' % (name, seed,
                                                        'passes' if name == 'recommended'
                                                        else 'fails'), s['criteria_failed'])
    finish('calibration-doc')


if __name__ == '__main__':
    main()
