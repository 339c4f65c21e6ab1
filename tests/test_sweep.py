#!/usr/bin/env python3
"""test_sweep.py DCQCN_SIM SOURCE_ROOT - sweeps people can read, and sweeps
beyond one machine.

  - sweep.csv carries each numeric axis also in its base unit (KEY_B,
    KEY_ps, KEY_bps, KEY_mm, KEY_frac, KEY_n), exactly; enums get none
  - --repeat N: N seeds per point in pNNN/rK; mean, _min and _max of every
    numeric metric; a point passes only if every repeat does
  - --columns picks the table's metrics, with "did you mean"
  - plot DIR of a sweep: the data gnuplot is given, and the PNGs
  - --shard I/N and --merge: byte-identical to -j 1, in one shared folder
    and in one folder per shard, with --repeat too; clear errors for a
    missing shard, another sweep, a point that did not end; --resume of a
    shard
  - the workers of a sweep whose parent is killed (SIGKILL) stop too
Prints one line per check; exit 1 when any fails.
"""
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from pycheck import FAILED, check

SIM = sys.argv[1]
ROOT = sys.argv[2]

STAR = """[topology]
kind = star
hosts = 5
host_link = 100Gbps
[job.incast]
pattern = incast
dst = 0
size = 2MB
"""

# seeds matter here: the permutation and the ECMP salts follow sim.seed
LEAFSPINE = """[topology]
kind = leaf-spine
spines = 2
leaves = 2
hosts_per_leaf = 4
host_link = 100Gbps
fabric_link = 100Gbps
[job.perm]
pattern = permutation
size = 1MB
[criteria]
max_ecn_mark_pct = 0.5
"""


def sim(*args, env=None):
    r = subprocess.run([SIM] + list(args), capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def header(path):
    with open(path) as f:
        return f.readline().rstrip('\n').split(',')


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def base_units(tmp):
    ini = os.path.join(tmp, 'star.ini')
    out = os.path.join(tmp, 'units')
    st, _, err = sim('sweep', ini, '-o', out, '--quiet',
                     '--vary', 'ecn.kmin=50KB,0.1MB',
                     '--vary', 'ecn.pmax=10%,0.5',
                     '--vary', 'sim.duration=1.001s',
                     '--vary', 'topology.host_cable=2.5m',
                     '--vary', 'dcqcn.rpg_time_reset=300',
                     '--vary', 'criteria.max_ecn_mark_pct=2',
                     '--vary', 'nic.cc=dcqcn',
                     '--vary', 'sim.seed=7')
    check(st == 0, 'a sweep over eight kinds of axis', err)
    h = header(os.path.join(out, 'sweep.csv'))
    want = ['point', 'dir', 'ecn.kmin', 'ecn.kmin_B', 'ecn.pmax', 'ecn.pmax_frac',
            'sim.duration', 'sim.duration_ps', 'topology.host_cable', 'topology.host_cable_mm',
            'dcqcn.rpg_time_reset', 'dcqcn.rpg_time_reset_ps', 'criteria.max_ecn_mark_pct',
            'criteria.max_ecn_mark_pct_frac', 'nic.cc', 'sim.seed', 'sim.seed_n', 'sim_time_us']
    check(h[:len(want)] == want, 'each numeric axis is followed by its base-unit column; '
          'an enum has none', h[:len(want)])
    r = rows(os.path.join(out, 'sweep.csv'))
    check([x['ecn.kmin_B'] for x in r] == ['50000'] * 2 + ['100000'] * 2,
          'sizes in bytes (50KB, 0.1MB)', [x['ecn.kmin_B'] for x in r])
    check([x['ecn.pmax_frac'] for x in r] == ['0.1', '0.5'] * 2,
          'fractions as a plain fraction (10% is 0.1)', [x['ecn.pmax_frac'] for x in r])
    check(r[0]['sim.duration_ps'] == '1001000000000', 'times in ps, exactly (1.001s)',
          r[0]['sim.duration_ps'])
    check(r[0]['topology.host_cable_mm'] == '2500', 'lengths in mm (2.5m)')
    check(r[0]['dcqcn.rpg_time_reset_ps'] == '300000000',
          'a bare [dcqcn] number is in its firmware unit (300 us)', r[0]['dcqcn.rpg_time_reset_ps'])
    check(r[0]['criteria.max_ecn_mark_pct_frac'] == '0.02', 'a percentage as a fraction (2 is 0.02)')
    check(r[0]['sim.seed_n'] == '7', 'integers as themselves')
    check(r[0]['ecn.kmin'] == '50KB' and r[2]['ecn.kmin'] == '0.1MB', 'the values as given stay')

    # a rate, and auto (no number: an empty cell)
    out = os.path.join(tmp, 'units2')
    st, _, err = sim('sweep', ini, '-o', out, '--quiet',
                     '--vary', 'topology.host_link=25Gbps,100Gbps',
                     '--vary', 'pfc.headroom=auto,300KB')
    check(st == 0, 'a sweep over a rate and auto', err)
    r = rows(os.path.join(out, 'sweep.csv'))
    check([x['topology.host_link_bps'] for x in r] == ['25000000000'] * 2 + ['100000000000'] * 2,
          'rates in bits per second', [x['topology.host_link_bps'] for x in r])
    check([x['pfc.headroom_B'] for x in r] == ['', '300000'] * 2, 'auto has no number',
          [x['pfc.headroom_B'] for x in r])


def repeats(tmp):
    ini = os.path.join(tmp, 'ls.ini')
    out = os.path.join(tmp, 'rep')
    st, so, err = sim('sweep', ini, '-o', out, '-j', '2', '--vary', 'ecn.kmin=50KB,100KB',
                      '--repeat', '3', '--set', 'sim.seed=5',
                      '--columns', 'fct_p99_us,fct_p99_us_min,fct_p99_us_max,criteria_pass')
    check(st == 0, 'sweep --repeat 3', err)
    for p in ('p000', 'p001'):
        for k in range(3):
            d = os.path.join(out, p, 'r%d' % k)
            ini_txt = open(os.path.join(d, 'scenario.ini')).read()
            check('\nseed = %d\n' % (5 + k) in ini_txt,
                  '%s/r%d ran with sim.seed %d' % (p, k, 5 + k))
    h = header(os.path.join(out, 'sweep.csv'))
    check(h[:8] == ['point', 'dir', 'ecn.kmin', 'ecn.kmin_B', 'sim_time_us', 'sim_time_us_min',
                    'sim_time_us_max', 'end'],
          'with --repeat each numeric metric has _min and _max after it', h[:8])
    check('criteria_pass_min' not in h and 'end_min' not in h and 'criteria_failed_max' not in h,
          'text columns have no _min or _max')
    r = rows(os.path.join(out, 'sweep.csv'))
    check(len(r) == 2, 'a row per point, not per run', len(r))
    differ = False
    for i, p in enumerate(('p000', 'p001')):
        runs = [rows(os.path.join(out, p, 'r%d' % k, 'summary.csv'))[0] for k in range(3)]
        for m in ('fct_p99_us', 'ecn_mark_pct', 'max_queue_bytes', 'data_bytes_delivered'):
            v = [float(x[m]) for x in runs]
            differ |= len(set(v)) > 1
            check(abs(float(r[i][m]) - sum(v) / 3) < 1e-3 * max(1, abs(sum(v) / 3)),
                  '%s %s is the mean of the repeats' % (p, m), (r[i][m], v))
            check(float(r[i][m + '_min']) == min(v) and float(r[i][m + '_max']) == max(v),
                  '%s %s_min and _max' % (p, m), (r[i][m + '_min'], r[i][m + '_max'], v))
        verdicts = [x['criteria_pass'] for x in runs]
        want = '0' if '0' in verdicts else ('1' if all(v == '1' for v in verdicts) else '')
        check(r[i]['criteria_pass'] == want, '%s passes only if every repeat does' % p,
              (r[i]['criteria_pass'], verdicts))
        failed = set()
        for x in runs:
            failed |= set(y for y in x['criteria_failed'].split(';') if y)
        check(set(y for y in r[i]['criteria_failed'].split(';') if y) == failed,
              '%s criteria_failed is the union of the repeats\'' % p)
    check(differ, 'the seeds give the repeats different results')
    check(any(x['criteria_pass'] == '0' for x in r),
          'a point with a failing repeat fails (the scenario is made for it)')
    lines = [l for l in so.splitlines() if l.startswith('  ')]
    check(lines and lines[0].split() == ['point', 'ecn.kmin', 'fct_p99_us', 'fct_p99_us_min',
                                         'fct_p99_us_max', 'criteria_pass'],
          '--columns: the table shows the metrics asked, in that order',
          lines[0] if lines else so)
    check(len(lines) == 3 and lines[1].split()[2] == r[0]['fct_p99_us'],
          'the table\'s rows are sweep.csv\'s', so)
    # without --repeat, no _min
    out1 = os.path.join(tmp, 'rep1')
    st, _, err = sim('sweep', ini, '-o', out1, '-q', '--vary', 'ecn.kmin=50KB', '--repeat', '1')
    check(st == 0 and 'sim_time_us_min' not in header(os.path.join(out1, 'sweep.csv')) and
          os.path.exists(os.path.join(out1, 'p000', 'summary.csv')),
          '--repeat 1 is a plain sweep (pNNN, no _min columns)', err)


def columns(tmp):
    ini = os.path.join(tmp, 'star.ini')
    st, _, err = sim('sweep', ini, '-o', os.path.join(tmp, 'col'), '--vary', 'ecn.kmin=50KB',
                     '--columns', 'ecn_mark_pct,pause_frame_rat')
    check(st == 2 and 'dcqcn-sim: --columns: pause_frame_rat is not a column of sweep.csv; '
          'did you mean pause_frame_rate?' in err, '--columns: an unknown name gets a guess', err)
    check(not os.path.exists(os.path.join(tmp, 'col')), 'nothing ran')
    st, _, err = sim('sweep', ini, '-o', os.path.join(tmp, 'col'), '--vary', 'ecn.kmin=50KB',
                     '--columns', 'ecn_mark_pct_max')
    check(st == 2 and 'ecn_mark_pct_max is not a column' in err,
          '--columns: _max only with --repeat', err)
    st, _, err = sim('sweep', ini, '--vary', 'ecn.kmin=50KB', '--repeat', '0')
    check(st == 2 and '--repeat 0: runs per point, 1-1000' in err, '--repeat 0 is refused', err)
    st, _, err = sim('sweep', ini, '--vary', 'ecn.kmin=50KB', '--shard', '2/2')
    check(st == 2 and '--shard 2/2: I/N, 0 <= I < N' in err, '--shard 2/2 is refused', err)
    st, _, err = sim('sweep', ini, '--vary', 'ecn.kmin=50KB', '--rpeat', '2')
    check(st == 2 and 'did you mean --repeat?' in err, 'a mistyped --repeat gets a guess', err)


def plots(tmp):
    ini = os.path.join(tmp, 'ls.ini')
    out = os.path.join(tmp, 'fig')
    st, _, err = sim('sweep', ini, '-o', out, '-q', '-j', '2',
                     '--vary', 'ecn.kmin=100KB,20KB,50KB', '--vary', 'ecn.pmax=10%,50%',
                     '--vary', 'nic.cc=dcqcn,none', '--repeat', '2')
    check(st == 0, 'a sweep to draw', err)
    env = dict(os.environ)
    have_gnuplot = shutil.which('gnuplot') is not None
    st, so, err = sim('plot', out, env=env)
    r = rows(os.path.join(out, 'sweep.csv'))
    data = os.path.join(out, 'plots', 'data')
    if not have_gnuplot:
        check(st == 4 and 'gnuplot not found' in err, 'plot without gnuplot says so', err)
        return
    check(st == 0, 'plot of a sweep directory', err)
    check('sweep figures in' in so and 'dcqcn-sim plot %s/p000/r0' % out in so,
          'plot says where the figures are and how to draw a point\'s', so)
    dat = open(os.path.join(data, 'sweep_ecn_mark_pct.dat')).read().splitlines()
    hd = dat[0].split('\t')
    check(hd[:2] == ['x', 'xlabel'] and hd[2] == 'ecn.pmax=10%, nic.cc=dcqcn' and
          hd[3:5] == ['ecn.pmax=10%, nic.cc=dcqcn min', 'ecn.pmax=10%, nic.cc=dcqcn max'] and
          len(hd) == 2 + 4 * 3,
          'the metric figure: a line per combination of the other axes, with min and max', hd)
    xs = [l.split('\t')[:2] for l in dat[1:]]
    check(xs == [['20000', '20KB'], ['50000', '50KB'], ['100000', '100KB']],
          'x is the first axis in bytes, sorted, labelled as given', xs)
    for line in dat[1:]:
        f = line.split('\t')
        for k, (pmax, cc) in enumerate([(a, b) for a in ('10%', '50%') for b in ('dcqcn', 'none')]):
            row = [x for x in r if x['ecn.kmin'] == f[1] and x['ecn.pmax'] == pmax and
                   x['nic.cc'] == cc][0]
            got = f[2 + 3 * k: 5 + 3 * k]
            want = [row['ecn_mark_pct'], row['ecn_mark_pct_min'], row['ecn_mark_pct_max']]
            check([float(g) for g in got] == [float(w) for w in want],
                  'sweep_ecn_mark_pct.dat %s %s %s: mean, min, max of sweep.csv' % (f[1], pmax, cc),
                  (got, want))
    pas = open(os.path.join(data, 'sweep_pass.dat')).read().splitlines()
    check(pas[0] == 'xi\tyi\txlabel\tylabel\tpass' and len(pas) == 1 + 3 * 2,
          'the pass map: a cell per value of the first two axes', pas[:2])
    for line in pas[1:]:
        xi, yi, xl, yl, v = line.split('\t')
        cell = [x['criteria_pass'] for x in r if x['ecn.kmin'] == xl and x['ecn.pmax'] == yl]
        want = '0' if '0' in cell else ('1' if all(c == '1' for c in cell) else '0.5')
        check(v == want and xl == ('100KB', '20KB', '50KB')[int(xi)],
              'sweep_pass.dat %s %s: the worst over nic.cc' % (xl, yl), (v, cell))
    vars_ = open(os.path.join(data, 'sweep_ecn_mark_pct.vars')).read()
    check("xkey = 'ecn.kmin'" in vars_ and "xunit = 'B'" in vars_ and 'nseries = 4' in vars_ and
          'bars = 1' in vars_, 'sweep_ecn_mark_pct.vars', vars_)
    for name in ('sweep_ecn_mark_pct', 'sweep_pass'):
        png = os.path.join(out, 'plots', name + '.png')
        check(os.path.exists(png) and read(png)[:8] == b'\x89PNG\r\n\x1a\n', name + '.png drawn')
    check(not os.path.exists(os.path.join(out, 'plots', 'sweep_busbw_judged_min_pct.png')) and
          'skipped sweep_busbw_judged_min_pct.png: busbw_judged_min_pct has no number' in so,
          'a metric with no number is skipped, with a note', so)
    st, so, err = sim('plot', out, '--columns', 'fct_p99_us')
    check(st == 0 and os.path.exists(os.path.join(out, 'plots', 'sweep_fct_p99_us.png')),
          'plot --columns draws the metrics asked', err)
    st, so, err = sim('plot', out, '--columns', 'fct_p99_uss')
    check(st == 2 and 'fct_p99_uss is not a column of sweep.csv; did you mean fct_p99_us?' in err,
          'plot --columns: an unknown name gets a guess', err)
    st, so, err = sim('plot', os.path.join(out, 'p000', 'r0'))
    check(st == 0 and os.path.exists(os.path.join(out, 'p000', 'r0', 'plots', 'queues.png')),
          "a point's own figures stay available", err)


def shards(tmp):
    ini = os.path.join(tmp, 'star.ini')
    vary = ['--vary', 'ecn.kmin=50KB,100KB,150KB', '--vary', 'ecn.pmax=10%,0.5']
    ref = os.path.join(tmp, 'ref')
    st, _, err = sim('sweep', ini, '-o', ref, '-q', '-j', '1', *vary)
    check(st == 0, 'the reference sweep, -j 1', err)
    # one shared folder
    shared = os.path.join(tmp, 'shared')
    for i in range(3):
        st, so, err = sim('sweep', ini, '-o', shared, *vary, '--shard', '%d/3' % i)
        check(st == 0, 'shard %d/3' % i, err)
    check('shard 2/3 of the sweep in' in so and not os.path.exists(os.path.join(shared, 'sweep.csv')),
          'a shard writes its description, not sweep.csv', so)
    desc = open(os.path.join(shared, 'shard-1-of-3.txt')).read()
    check('shard = 1/3\n' in desc and 'run = 1 0\n' in desc and 'run = 4 0\n' in desc and
          'run = 0 ' not in desc, 'shard 1/3 ran points 1 and 4 (p % 3 == 1, from 0)', desc)
    check(sorted(os.listdir(shared)) == ['p000', 'p001', 'p002', 'p003', 'p004', 'p005',
                                         'shard-0-of-3.txt', 'shard-1-of-3.txt', 'shard-2-of-3.txt',
                                         'sweep-identity.txt'],
          'the shards share the folder', os.listdir(shared))
    st, so, err = sim('sweep', '--merge', shared)
    check(st == 0 and read(os.path.join(shared, 'sweep.csv')) == read(os.path.join(ref, 'sweep.csv')),
          'merged in the shared folder: sweep.csv is byte-identical to -j 1', err)
    check('  point  ecn.kmin          ecn.pmax' in so, 'a merge prints the table', so)
    # one folder per shard
    for i in range(2):
        st, _, err = sim('sweep', ini, '-o', os.path.join(tmp, 'sh%d' % i), '-q', *vary,
                         '--shard', '%d/2' % i)
        check(st == 0, 'shard %d/2 in its own folder' % i, err)
    out = os.path.join(tmp, 'merged')
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), os.path.join(tmp, 'sh1'),
                     '-o', out, '-q')
    check(st == 0 and read(os.path.join(out, 'sweep.csv')) == read(os.path.join(ref, 'sweep.csv')),
          'merged from two folders: sweep.csv is byte-identical to -j 1', err)
    check(os.path.islink(os.path.join(out, 'p001')) and
          os.path.exists(os.path.join(out, 'p001', 'summary.csv')),
          'OUT/pNNN links to the point run elsewhere')
    # errors
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), '-o', os.path.join(tmp, 'x'))
    check(st == 2 and '1 of 2 shards missing (1/2)' in err, 'a missing shard is named', err)
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), os.path.join(tmp, 'sh1'))
    check(st == 2 and '--merge of several folders needs -o OUT' in err,
          'several folders need -o', err)
    other = os.path.join(tmp, 'other')
    st, _, err = sim('sweep', ini, '-o', other, '-q', '--vary', 'ecn.kmin=50KB,100KB,150KB',
                     '--vary', 'ecn.pmax=10%,0.6', '--shard', '1/2')
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), other, '-o', os.path.join(tmp, 'y'))
    check(st == 2 and 'is not a shard of the same sweep as' in err and 'the --vary axes differ' in err,
          'shards of another sweep are refused, saying what differs', err)
    ini2 = os.path.join(tmp, 'star2.ini')
    with open(ini2, 'w') as f:
        f.write(STAR.replace('2MB', '3MB'))
    st, _, err = sim('sweep', ini2, '-o', other, '-q', *vary, '--shard', '1/2')
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), other, '-o', os.path.join(tmp, 'y'))
    check(st == 2 and 'the scenario text differs' in err, 'another scenario text is refused', err)
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'nothing-here'))
    check(st == 2 and 'not a folder' in err, 'a merge of a folder that does not exist', err)
    st, _, err = sim('sweep', '--merge', ref)
    check(st == 2 and 'no shard description' in err, 'a merge of a plain sweep folder', err)
    # a point that did not end: named; --resume of the shard finishes it
    sh1 = os.path.join(tmp, 'sh1')
    desc = open(os.path.join(sh1, 'shard-1-of-2.txt')).read()
    with open(os.path.join(sh1, 'shard-1-of-2.txt'), 'w') as f:
        f.write(desc.replace('run = 3 0\n', 'run = 3 3\n'))
    os.remove(os.path.join(sh1, 'p003', 'summary.csv'))
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), sh1, '-o', out, '-q')
    check(st == 2 and 'point 3 (ecn.kmin=100KB, ecn.pmax=0.5) of shard 1/2' in err and
          'did not end' in err, 'a point that did not end is named', err)
    p1 = read(os.path.join(sh1, 'p001', 'stats.csv'))
    st, _, err = sim('sweep', ini, '-o', sh1, *vary, '--shard', '1/2', '--resume')
    check(st == 0 and 'sweep: 2 of 3 points ended before: not run again' in err,
          '--resume of a shard counts what it skips among its own points', err)
    check(read(os.path.join(sh1, 'p001', 'stats.csv')) == p1, '--resume left the ended points alone')
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'sh0'), sh1, '-o', out, '-q')
    check(st == 0 and read(os.path.join(out, 'sweep.csv')) == read(os.path.join(ref, 'sweep.csv')),
          'after --resume the merge is byte-identical to -j 1', err)
    # with --repeat
    ls = os.path.join(tmp, 'ls.ini')
    rv = ['--vary', 'ecn.kmin=50KB,100KB,200KB', '--repeat', '2']
    st, _, err = sim('sweep', ls, '-o', os.path.join(tmp, 'rref'), '-q', *rv)
    for i in range(2):
        st, _, err = sim('sweep', ls, '-o', os.path.join(tmp, 'rsh'), '-q', *rv, '--shard', '%d/2' % i)
        check(st == 0, 'shard %d/2 with --repeat 2' % i, err)
    st, _, err = sim('sweep', '--merge', os.path.join(tmp, 'rsh'), '-q')
    check(st == 0 and read(os.path.join(tmp, 'rsh', 'sweep.csv')) ==
          read(os.path.join(tmp, 'rref', 'sweep.csv')),
          'shards with --repeat merge into the same sweep.csv as -j 1', err)


def children_of(pid):
    """pids whose parent is pid (from /proc)"""
    kids = []
    for d in os.listdir('/proc'):
        if d.isdigit():
            try:
                with open('/proc/%s/stat' % d) as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(')', 1)[1].split()[1]) == pid:
                kids.append(int(d))
    return kids


def alive(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


def orphans(tmp):
    """a sweep parent killed with SIGKILL cannot pass a signal on: its
    workers, which would run their points for many seconds (a 1,024-rank
    all-reduce), stop by themselves within a few seconds"""
    out = os.path.join(tmp, 'orphans')
    p = subprocess.Popen([SIM, 'sweep', os.path.join(ROOT, 'scenarios', 'bench',
                                                    'allreduce-1024.ini'),
                          '-o', out, '--quiet', '--vary', 'sim.seed=1,2', '-j', '2'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids = []
    deadline = time.time() + 30
    while time.time() < deadline and len(kids) < 2:
        time.sleep(0.1)
        kids = children_of(p.pid)
    check(len(kids) == 2, 'sweep -j 2 starts two workers', kids)
    time.sleep(0.5)
    p.kill()
    p.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(alive(k) for k in kids):
        time.sleep(0.1)
    left = [k for k in kids if alive(k)]
    check(not left, 'the workers of a SIGKILLed sweep stop by themselves', left)
    for k in left:
        os.kill(k, signal.SIGKILL)


def main():
    tmp = tempfile.mkdtemp(prefix='dcqcn-sweep-')
    try:
        with open(os.path.join(tmp, 'star.ini'), 'w') as f:
            f.write(STAR)
        with open(os.path.join(tmp, 'ls.ini'), 'w') as f:
            f.write(LEAFSPINE)
        base_units(tmp)
        repeats(tmp)
        columns(tmp)
        plots(tmp)
        shards(tmp)
        orphans(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('sweep: %d failed' % len(FAILED))
    sys.exit(1 if FAILED else 0)


if __name__ == '__main__':
    main()
