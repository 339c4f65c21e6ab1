#!/usr/bin/env python3
"""test_compare.py DCQCN_SIM SOURCE_ROOT [--sanitized] - `dcqcn-sim compare`:
one scenario on each fabric type, side by side.

  - the latency probe on an idle path gives the closed form: a 4 KB message
    across a star is two serializations, two cables and the switch latency,
    on RoCE and on InfiniBand alike, for every probe message
  - what physics demands of the default's traffic (a ring all-reduce and a
    burst): no drop and no retransmission on RoCE and InfiniBand, pause
    frames on RoCE only, credit stalls on InfiniBand only; on ethernet-tcp
    (when this build has it) drops and retransmitted bytes under the burst
  - compare.csv agrees with each fabric's own summary.csv, the probe is left
    out of the flow completion times, and the skipped keys are named
  - one and two threads write the same compare.csv
  - usage errors and scenarios that cannot be compared
  - run and check --fabric: one scenario as another fabric
Prints one line per check; exit 1 when any fails.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

from pycheck import FAILED, check

SIM = sys.argv[1]
ROOT = sys.argv[2]
DATA = os.path.join(ROOT, 'tests', 'data')
STAR = os.path.join(DATA, 'compare-star.ini')
SANITIZED = '--sanitized' in sys.argv[3:]


def sim(*args):
    return subprocess.run([SIM] + list(args), capture_output=True, text=True)


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def probe_closed_form(tmp):
    """h0 <-> h3 across a star while h1 -> h2 runs: every probe message
    takes exactly 2 x (4096 + 62 + 20) B x 8 / 100 Gbps + 2 x 2 m x 5 ns/m
    + 500 ns of switch latency"""
    out = os.path.join(tmp, 'star')
    r = sim('compare', STAR, '--fabrics', 'roce,infiniband', '--probe', '100', '-o', out)
    check(r.returncode == 0, 'compare on a star runs (exit 0)', (r.returncode, r.stderr))
    rows = rows_of(os.path.join(out, 'compare.csv'))
    check([x['fabric'] for x in rows] == ['roce', 'infiniband'],
          'compare.csv: a row per fabric, in --fabrics order', rows)
    want_us = (2 * 4178 * 8 / 100e9 + 2 * 2 * 5e-9 + 500e-9) * 1e6  # 1.18848 us
    for x in rows:
        check(x['probe_msgs'] == '100',
              x['fabric'] + ': all 100 probe messages ran while the background ran',
              x['probe_msgs'])
        for p in ('probe_p50_us', 'probe_p99_us'):
            check(abs(float(x[p]) - want_us) < 0.001,
                  '%s: %s is the closed form %.5f us' % (x['fabric'], p, want_us), x[p])
    # the probe's QPs do not count in the flow completion times: the one
    # background message (25 MB at 100G) is all there is
    for x in rows:
        fct = float(x['fct_p99_us'])
        floor = 25e6 * 8 / 100e9 * 1e6
        check(floor < fct < floor * 1.03, x['fabric'] + ': fct_p99 is the background flow alone',
              (fct, floor))
    # a missing gnuplot fails here (apt-get install gnuplot-nox, or sh scripts/deps.sh)
    check(shutil.which('gnuplot') and os.path.exists(os.path.join(out, 'plots', 'compare.png')),
          'compare draws plots/compare.png (gnuplot installed: apt-get install gnuplot-nox)')


def default_physics(tmp):
    """the default's ring all-reduce and burst on each fabric (under the
    sanitizers: one smaller iteration, the burst into a smaller buffer)"""
    out = os.path.join(tmp, 'default')
    fabrics = 'roce,infiniband,ethernet-tcp'  # every build has the three
    extra = ['--set', 'job.allreduce.iterations=1', '--set', 'job.allreduce.size=16MB',
             '--set', 'buffer.size=8MB'] if SANITIZED else []
    r = sim('compare', '--fabrics', fabrics, '--probe', '200', '-o', out, *extra)
    check(r.returncode == 0, 'compare on the embedded default runs (exit 0)',
          (r.returncode, r.stderr[-2000:]))
    head = r.stdout.splitlines()[1].split() if len(r.stdout.splitlines()) > 1 else []
    check(head == fabrics.split(','), 'the matrix has a column per fabric, in order', head)
    rows = {x['fabric']: x for x in rows_of(os.path.join(out, 'compare.csv'))}
    for name in ('roce', 'infiniband'):
        x = rows[name]
        check(x['end'] == 'done', name + ': the traffic finished', x['end'])
        check(x['drops'] == '0' and x['retransmitted_bytes'] == '0' and x['rto_timeouts'] == '0',
              name + ': lossless: no drop, no retransmission, no timeout', x)
        check(int(x['probe_msgs']) > 0 and float(x['probe_p50_us']) <= float(x['probe_p99_us']),
              name + ': probe messages under load, p50 <= p99', x)
        s = rows_of(os.path.join(out, name, 'summary.csv'))[0]
        for k in ('retransmitted_bytes', 'rto_timeouts', 'collective_time_us', 'busbw_GBps',
                  'pause_frames', 'credit_stall_us', 'fct_p99_us'):
            check(x[k] == s[k], "%s: compare.csv's %s is the run's summary.csv" % (name, k),
                  (x[k], s[k]))
    for name, x in rows.items():
        # jobs_done_us: the last message of the scenario's jobs, the probe's aside
        flows = rows_of(os.path.join(out, name, 'flows.csv'))
        last = max(float(f['end_us']) for f in flows if f['job'] != 'latency-probe')
        probe = max(float(f['end_us']) for f in flows if f['job'] == 'latency-probe')
        check(abs(float(x['jobs_done_us']) - last) < 0.002 and
              float(x['jobs_done_us']) <= float(x['sim_time_us']),
              "%s: jobs_done_us is the jobs' last message in flows.csv, not the probe's "
              "(%.1f us)" % (name, probe), (x['jobs_done_us'], last))
        s = rows_of(os.path.join(out, name, 'summary.csv'))[0]
        stat = 'busbw_judged_min_pct'  # criteria.busbw_stat = min, the default
        check(x['busbw_judged_pct'] == s[stat] and x['busbw_judged_pct'] != '',
              "%s: busbw_judged_pct is the judged iterations' %s, which the verdict used"
              % (name, stat), (x['busbw_judged_pct'], s[stat]))
    lines = r.stdout.splitlines()
    judged = [l for l in lines if l.startswith('busbw judged')]
    check(len(judged) == 1 and judged[0].split()[2:] ==
          ['%s%%' % ('%.1f' % float(rows[f]['busbw_judged_pct'])) if i % 2 == 0 else '(min)'
           for f in fabrics.split(',') for i in range(2)],
          'the matrix prints the judged busbw of each fabric with its statistic', judged)
    check(any(l.startswith('jobs done') for l in lines) and
          not any(l.startswith('last message done') for l in lines),
          "the matrix's completion row is the jobs', not the run's end", lines[:6])
    check(int(rows['roce']['pause_frames']) > 0 and rows['roce']['credit_stall_us'] == '',
          'roce: PFC pauses under the burst, no credits', rows['roce'])
    check(rows['infiniband']['pause_frames'] == '0' and
          float(rows['infiniband']['credit_stall_us']) > 0,
          'infiniband: credit stalls under the burst, no pause frame', rows['infiniband'])
    x = rows.get('ethernet-tcp', {})
    check(int(x.get('drops') or 0) > 0 and int(x.get('retransmitted_bytes') or 0) > 0,
          'ethernet-tcp: the burst drops packets and TCP retransmits them', x)
    check(x.get('pause_frames') == '0' and x.get('credit_stall_us') == '',
          'ethernet-tcp: no flow control', x)
    # what each fabric ran: its type, the probe, the skipped keys named
    with open(os.path.join(out, 'infiniband', 'scenario.ini')) as f:
        ib = f.read()
    check('[fabric]\ntype = infiniband\n' in ib and '\n[job.latency-probe]\npattern = trace\n'
          in ib, "infiniband's scenario.ini: the fabric and the probe job", ib[:400])
    check(re.search(r'^\[pfc\]\npriorities =\n', ib, re.M) is not None,
          "infiniband's scenario.ini: no PFC priority", ib)
    check(re.search(r'^infiniband: scenarios/default.ini \(embedded\):\d+: pfc.priorities skipped '
                    r'\(credits, not pause frames, keep it lossless\)$', r.stderr, re.M),
          'the keys skipped on infiniband are named with their line', r.stderr[:2000])
    check(re.search(r'^roce: .* skipped \(', r.stderr, re.M) is None,
          'nothing is skipped on roce, the fabric the default is written for', r.stderr[:2000])
    with open(os.path.join(out, 'roce', 'scenario.ini')) as f:
        check('\nduration = 10s\n' in f.read(), 'sim.duration is raised to 10s')


def tutorial_times(tmp):
    """the tutorial's lesson 6 prints compare's jobs-done times on
    tcp-incast, with the probe and without: the runs give them"""
    with open(os.path.join(ROOT, 'docs', 'tutorial.md')) as f:
        text = ' '.join(f.read().split())
    m = re.search(r'`jobs done` row gives ([\d.]+) ms on both \(([\d.]+) and ([\d.]+) ms with '
                  r'`--probe 0`', text)
    check(m is not None, "the tutorial gives compare's times on tcp-incast", '')
    if not m:
        return
    scn = os.path.join(ROOT, 'scenarios', 'tcp-incast.ini')
    got = []
    for probe in ('1000', '0'):
        out = os.path.join(tmp, 'incast-' + probe)
        r = sim('compare', scn, '--fabrics', 'roce,infiniband', '--probe', probe, '-q', '-o', out)
        rows = rows_of(os.path.join(out, 'compare.csv')) if r.returncode == 0 else []
        got += ['%.2f' % (float(x['jobs_done_us']) / 1000) for x in rows]
    want = [m.group(1), m.group(1), m.group(2), m.group(3)]
    check(got == want, "compare's jobs done on tcp-incast (roce, infiniband; with the probe, "
          "then --probe 0) are the tutorial's", (got, want))


def no_probe_footer(tmp):
    """--probe 0: no latency rows and no footer line with nothing to say"""
    out = os.path.join(tmp, 'noprobe')
    r = sim('compare', STAR, '--fabrics', 'roce,infiniband', '--probe', '0', '-o', out)
    lines = r.stdout.splitlines()
    check(r.returncode == 0 and not any(l.startswith('4 KB latency') for l in lines) and
          not any(re.fullmatch(r'\S+:\s*', l) for l in lines),
          '--probe 0: no latency rows, no empty footer line', lines)
    rows = rows_of(os.path.join(out, 'compare.csv'))
    check(all(float(x['jobs_done_us']) <= float(x['sim_time_us']) for x in rows),
          '--probe 0: the jobs end with the run', rows)


def threads_agree(tmp):
    a, b = os.path.join(tmp, 't1'), os.path.join(tmp, 't2')
    ra = sim('compare', STAR, '--fabrics', 'infiniband,roce', '--probe', '50', '--threads', '1',
             '-q', '-o', a)
    rb = sim('compare', STAR, '--fabrics', 'infiniband,roce', '--probe', '50', '--threads', '2',
             '-q', '-o', b)
    check(ra.returncode == 0 and rb.returncode == 0, 'compare -q on 1 and 2 threads',
          (ra.stderr, rb.stderr))
    check(ra.stdout == '' and rb.stdout == '', 'compare -q prints nothing', ra.stdout)
    with open(os.path.join(a, 'compare.csv')) as f, open(os.path.join(b, 'compare.csv')) as g:
        check(f.read() == g.read(), 'compare.csv is the same on 1 and 2 threads')


def errors(tmp):
    r = sim('compare', STAR, '--fabrics', 'roce,ib')
    check(r.returncode == 2 and 'ib is not a fabric (roce, infiniband, ethernet-tcp)' in r.stderr,
          '--fabrics: an unknown fabric is named', r.stderr)
    r = sim('compare', STAR, '--fabrics', 'roce,roce')
    check(r.returncode == 2 and 'roce given twice' in r.stderr, '--fabrics: twice', r.stderr)
    r = sim('compare', STAR, '--probe', '-3')
    check(r.returncode == 2 and '--probe -3: probe messages, 0-100000' in r.stderr,
          '--probe: the valid range', r.stderr)
    r = sim('compare', STAR, '--fabric', 'roce')
    check(r.returncode == 2 and 'did you mean --fabrics' in r.stderr,
          'an unknown option gets did-you-mean', r.stderr)
    clash = os.path.join(tmp, 'clash.ini')
    with open(clash, 'w') as f:
        f.write('[topology]\nkind = star\nhosts = 4\n[job.latency-probe]\npattern = incast\n'
                'dst = 0\nsize = 1MB\n')
    r = sim('compare', clash, '-o', os.path.join(tmp, 'clash'))
    check(r.returncode == 2 and 'has a job named latency-probe' in r.stderr,
          'a job with the probe\'s name is refused', r.stderr)
    storm = os.path.join(tmp, 'storm.ini')
    with open(storm, 'w') as f:
        f.write('[topology]\nkind = star\nhosts = 4\n[pfc]\npriorities = 3\n[job.a]\n'
                'pattern = incast\ndst = 0\nsize = 1MB\n[fault.s]\nkind = pause-storm\n'
                'node = h1\nstart = 0s\n')
    r = sim('compare', storm, '--fabrics', 'roce,infiniband', '-o', os.path.join(tmp, 'storm'))
    check(r.returncode == 2 and
          re.search(r'compare: infiniband: .*storm.ini:\d+: fault.s.kind: pause-storm: not on '
                    r'fabric.type = infiniband', r.stderr),
          'a fault a fabric cannot have stops the comparison, naming the fabric', r.stderr)
    r = sim('compare', STAR, '--fabrics', 'infiniband', '--set', 'ecn.kmin=10KB', '--probe', '0',
            '-o', os.path.join(tmp, 'skip'))
    check(r.returncode == 0 and
          'infiniband: --set ecn.kmin skipped (no ECN marking' in r.stderr,
          'a --set that does not apply to a fabric is skipped for it, and named', r.stderr)
    rows = rows_of(os.path.join(tmp, 'skip', 'compare.csv'))
    check(rows[0]['probe_msgs'] == '0' and rows[0]['probe_p50_us'] == '',
          '--probe 0: no probe', rows)


def run_as_fabric(tmp):
    """run and check --fabric: a scenario as another fabric, its foreign keys skipped"""
    vf = os.path.join(ROOT, 'scenarios', 'victim-flow.ini')
    out = os.path.join(tmp, 'vf-ib')
    r = sim('run', vf, '--fabric', 'infiniband', '--set', 'sim.duration=2ms', '-o', out)
    check(r.returncode == 0, 'run --fabric infiniband of a RoCE scenario', r.stderr)
    check(re.search(r'^infiniband: \S*victim-flow.ini:\d+: nic.cc skipped', r.stderr,
                    re.M) is not None, 'run --fabric names the keys it skips', r.stderr)
    with open(os.path.join(out, 'scenario.ini')) as f:
        text = f.read()
    check('[fabric]\ntype = infiniband\n' in text, "run --fabric: the run's scenario.ini says so")
    s = rows_of(os.path.join(out, 'summary.csv'))[0]
    check(s['pause_frames'] == '0' and s['credit_stall_us'] != '',
          'run --fabric infiniband: credits, no pause frame', s)
    r = sim('check', os.path.join(ROOT, 'scenarios', 'ib-victim-flow.ini'), '--fabric', 'roce')
    check(r.returncode == 0 and '\n[ib]\n' not in r.stdout and 'ib.vl_buffer skipped' in r.stderr,
          'check --fabric roce of an InfiniBand scenario: its [ib] keys skipped',
          r.stderr[:500])
    r = sim('sweep', vf, '--fabric', 'roce', '--vary', 'sim.seed=1,2')
    check(r.returncode == 2 and 'an option of run and check' in r.stderr,
          'sweep --fabric: refused, naming where it applies', r.stderr)
    r = sim('run', vf, '--fabric', 'ib')
    check(r.returncode == 2 and '--fabric ib: not a fabric (roce, infiniband, ethernet-tcp)'
          in r.stderr, 'run --fabric: an unknown fabric', r.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix='dcqcn-compare-')
    try:
        probe_closed_form(tmp)
        default_physics(tmp)
        no_probe_footer(tmp)
        tutorial_times(tmp)
        threads_agree(tmp)
        errors(tmp)
        run_as_fabric(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('%d failed' % len(FAILED))
    sys.exit(1 if FAILED else 0)


main()
