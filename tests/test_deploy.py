#!/usr/bin/env python3
"""test_deploy.py DCQCN_SIM SOURCE_ROOT [--sanitized] - calibration that ends in a
deployable answer, from the command line.

  - calibrate on the embedded default finds settings that pass within its
    budget, and its `run it:` line, run, passes with the very figures
    calibrated while the default's own settings fail (under the
    sanitizers, where a default run takes seconds, the same on
    tests/data/calibrate-incast.ini)
  - calibrate's files: calibrate.csv (every point, its figures),
    recommended.ini (loads back), plane.csv, export/, and the figure (a
    missing gnuplot fails); its report's side-by-side figures
  - a start that never finishes in sim.duration: still a passing
    recommendation, which passes a plain run on every seed judged
  - with --switch-config, --nic-config and --set the run line repeats them
    and reproduces the calibrated busbw
  - progress on a terminal; usage errors; nothing passes: exit 5 and no
    export unless --export-failing, which marks every file
  - check --export, then --switch-config and --nic-config of what it wrote,
    gives back the same resolved scenario (the round trip through real
    configurations), and a run and every point of a sweep take them
  - a broken configuration fails with its file and JSON path
Prints one line per check; exit 1 when any fails.
"""
import csv
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

from pycheck import FAILED, check

SIM = sys.argv[1]
ROOT = sys.argv[2]
DATA = os.path.join(ROOT, 'tests', 'data')
# --sanitized (tests/meson.build, in a sanitizer's build): a run of the
# embedded default takes ~10 s there
SANITIZED = '--sanitized' in sys.argv[3:]


def sim(*args):
    return subprocess.run([SIM] + list(args), capture_output=True, text=True)


def summary(d):
    with open(os.path.join(d, 'summary.csv')) as f:
        return next(csv.DictReader(f))


def csv_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def run_it(stdout, tmp, name, *extra):
    """runs the report's `run it:` line (and extra options); its summary row"""
    m = re.search(r'^run it: dcqcn-sim run (.*)$', stdout, re.M)
    if m is None:
        return None
    d = os.path.join(tmp, name)
    r = sim('run', *shlex.split(m.group(1)), *extra, '-o', d, '--quiet')
    return summary(d) if r.returncode == 0 else None


RUNS_LINE = (r': (\d+) runs for (\d+) points \((\d+) start, (\d+) design( \(the whole grid\))?, '
             r'(\d+) refine, (\d+) plane, (\d+) neighbours\); (\d+) rejected by the loader; a full '
             r'grid of the same values is (\d+) points')


def calibrate_passes(tmp):
    # points: the grids' product, the scenario's own values joining them
    if SANITIZED:
        scenario = [os.path.join(DATA, 'calibrate-incast.ini')]
        tunes = ['--tune', 'ecn.kmin=20KB:1.28MB:x4', '--tune', 'ecn.kmax=200KB:12.8MB:x4']
        points = 4 * 4  # 20KB and 200KB are on the grids
    else:
        scenario = []
        tunes = ['--tune', 'ecn.kmin=100KB:800KB:x2', '--tune', 'ecn.kmax=1.6MB:12.8MB:x2']
        points = 5 * 5  # 150KB and 1.5MB join them
    out = os.path.join(tmp, 'cal')
    # one seed and a budget below the grid: a design, then refinement
    r = sim('calibrate', *scenario, *tunes, '--seeds', '1', '--budget', '8', '-j', '2',
            '-o', out)
    check(r.returncode == 0, 'calibrate: a setting passes (exit 0)',
          (r.returncode, r.stderr[-2000:]))
    m = re.search(RUNS_LINE, r.stdout)
    check(m is not None, 'calibrate: runs spent by phase against the grid', r.stdout)
    if m:
        runs, grid = int(m.group(1)), int(m.group(10))
        design, refine = int(m.group(4)), int(m.group(6))
        check(grid == points, 'calibrate: the grid counts every value, the own included', grid)
        check(m.group(5) is None and design <= 4 and design + refine <= 8,
              'calibrate: the design and its refinement stay within --budget', m.group(0))
        rows = csv_rows(os.path.join(out, 'calibrate.csv'))
        spent = sum(int(row['runs']) for row in rows)
        check(spent == runs, 'calibrate.csv: every run of every point', (spent, runs))
        check(rows[0]['phase'] == 'start' and rows[0]['pass'] == '0' and
              rows[0]['note'] == 'own',
              "calibrate.csv: the search starts at the scenario's own settings, which fail",
              rows[0])
        best = [row for row in rows if row['note'] == 'recommended']
        check(len(best) == 1 and best[0]['pass'] == '1', 'calibrate.csv: one recommendation')
        phases = set(row['phase'] for row in rows)
        check({'start', 'design'} <= phases <=
              {'start', 'design', 'refine', 'plane', 'neighbours'},
              'calibrate.csv: the phases of each point', phases)
        # the run line, executed, gives the figures calibrated (one seed)
        got = run_it(r.stdout, tmp, 'plain')
        check(got is not None and got['criteria_pass'] == '1' and best and
              '%.2f' % float(got['busbw_judged_min_pct']) == best[0]['busbw_judged_min_pct'] and
              '%.3f' % float(got['ecn_mark_pct']) == best[0]['ecn_mark_pct'] and
              got['pause_frames'] == best[0]['pause_frames'],
              'the run it: line reproduces the recommendation (busbw, ECN, pauses)',
              (got, best))
    check("the scenario's own settings: FAIL" in r.stdout, "calibrate: reports the own settings")
    for label in ('busbw judged min % line', 'ECN marked % (max)', 'pause frames (max)',
                  'max paused fraction', 'peak queue (max)', 'FCT p99 us (max)',
                  'risk warnings', 'per seed'):
        check(label in r.stdout, 'calibrate: the report shows ' + label)
    m = re.search(r'^(robust|FRAGILE): (\d+) of its (\d+) one-step neighbours pass; the weakest, ',
                  r.stdout, re.M)
    check(m is not None and (m.group(1) == 'robust') == (m.group(2) == m.group(3)),
          "calibrate: reports the recommendation's neighbours", r.stdout)
    own = os.path.join(tmp, 'own')
    r3 = sim('run', *scenario, '-o', own, '--quiet')
    check(r3.returncode == 0 and summary(own)['criteria_pass'] == '0',
          "the scenario's own settings fail a plain run")
    # recommended.ini: a fragment that loads over the scenario
    rec = os.path.join(out, 'recommended.ini')
    with open(rec) as f:
        text = f.read()
    check(text.startswith('# dcqcn-sim calibrate: the recommended settings (pass,') and
          '[ecn]\nkmin = ' in text, 'recommended.ini', text)
    plane = csv_rows(os.path.join(out, 'plane.csv'))
    check(len(plane) == points and sum(p['recommended'] == '1' for p in plane) <= 1,
          'plane.csv: every pair of the two keys', len(plane))
    for name in ('config_db.json', 'cc_params.txt', 'nic-setup.sh', 'nccl.env'):
        path = os.path.join(out, 'export', name)
        with open(path) as f:
            first = f.readline()
        check(os.path.getsize(path) > 0 and 'DOES NOT PASS' not in first,
              'calibrate: export/' + name + ', unmarked')
    # a missing gnuplot fails here, as everywhere in the suite
    png = os.path.join(out, 'plots', 'calibrate.png')
    ok = shutil.which('gnuplot') and os.path.exists(png)
    if ok:
        with open(png, 'rb') as f:
            ok = f.read(8) == b'\x89PNG\r\n\x1a\n'
    check(ok and r.returncode == 0,
          'calibrate: plots/calibrate.png (gnuplot installed: apt-get install gnuplot-nox)')


INCAST = os.path.join(DATA, 'calibrate-incast.ini')
INCAST_TUNES = ['--tune', 'ecn.kmin=20KB:1.28MB:x4', '--tune', 'ecn.kmax=200KB:12.8MB:x4']


def calibrate_unfinished_start(tmp):
    # in 6 ms the scenario's own thresholds leave the ring unfinished (61 %
    # of flows), and so does every point on the lines through them; larger
    # thresholds finish and pass
    out = os.path.join(tmp, 'unfinished')
    r = sim('calibrate', INCAST, '--set', 'sim.duration=6ms', *INCAST_TUNES, '-j', '2',
            '-o', out)
    check(r.returncode == 0 and 'recommended (passes every run, 1 scenario x 3 seeds' in
          r.stdout, 'calibrate: a start that never finishes still finds the passing point',
          (r.returncode, r.stdout[-3000:], r.stderr[-1000:]))
    check(re.search(r"^the scenario's own settings: FAIL, did not finish in sim.duration "
                    r"\(\d+ % of flows\)", r.stdout, re.M) is not None,
          'calibrate: an unfinished point is said so, not given a number', r.stdout)
    rows = csv_rows(os.path.join(out, 'calibrate.csv'))
    unfinished = [row for row in rows if row['binding'] == 'unfinished']
    check(unfinished and all(row['margin'] == '' and float(row['finished_pct']) < 100
                             for row in unfinished) and
          len(set(row['finished_pct'] for row in unfinished)) > 1,
          'calibrate.csv: unfinished points rank by the flows they finished', unfinished[:3])
    # the recommendation passes on every seed it was judged on
    m = re.search(r'^run it: dcqcn-sim run (.*)$', r.stdout, re.M)
    for seed in ('1', '2', '3'):
        got = run_it(r.stdout, tmp, 'seed' + seed, '--set', 'sim.seed=' + seed)
        check(m and got is not None and got['criteria_pass'] == '1',
              'the recommendation passes a plain run on seed ' + seed)


def calibrate_with_configs(tmp):
    # configs and --set shape the fabric: the run line repeats them
    exp = os.path.join(tmp, 'incast-export')
    sim('check', INCAST, '--set', 'ecn.pmax=10%', '--set', 'dcqcn.rpg_ai_rate=20',
        '--export', exp)
    out = os.path.join(tmp, 'cal-configs')
    args = ['--switch-config', os.path.join(exp, 'config_db.json'),
            '--nic-config', os.path.join(exp, 'cc_params.txt'),
            '--set', 'job.burst.size=4MB']
    r = sim('calibrate', INCAST, *args, *INCAST_TUNES, '--seeds', '1', '-j', '2', '-o', out)
    m = re.search(r'^run it: dcqcn-sim run (.*)$', r.stdout, re.M)
    check(r.returncode == 0 and m is not None and
          all(a in shlex.split(m.group(1)) for a in args),
          'calibrate: the run line repeats the configurations and --set', (r.returncode, m))
    best = [row for row in csv_rows(os.path.join(out, 'calibrate.csv'))
            if row['note'] == 'recommended']
    got = run_it(r.stdout, tmp, 'configs-plain')
    check(got is not None and best and
          '%.2f' % float(got['busbw_judged_min_pct']) == best[0]['busbw_judged_min_pct'],
          'the run it: line with configs reproduces the judged busbw',
          (got and got['busbw_judged_min_pct'], best and best[0]['busbw_judged_min_pct']))
    # what deploying it changes against the imported files
    changes = os.path.join(out, 'export', 'changes.txt')
    text = open(changes).read() if os.path.exists(changes) else ''
    check(re.search(r'^WRED_PROFILE\.\w+\.green_max_threshold: 200000 -> \d+$', text, re.M) and
          'NIC: no change' in text, 'calibrate: export/changes.txt against the imports', text)
    # an ambiguous unit's reading, in the report
    r = sim('calibrate', INCAST, '--nic-config', os.path.join(DATA, 'config', 'cc_byte_reset.txt'),
            '--tune', 'ecn.kmax=200KB:400KB', '--seeds', '1', '--no-plane', '-o',
            os.path.join(tmp, 'cal-notes'))
    check('the configurations as read:\n' in r.stdout and
          'rp_byte_reset 32767: read as 64-byte units' in r.stdout,
          "calibrate's report states how an ambiguous unit was read", r.stdout[-1500:])


def calibrate_percent_plane(tmp):
    # a plane over ecn.pmax: its values ("5%") label the figure's tics
    out = os.path.join(tmp, 'pmax')
    r = sim('calibrate', INCAST, '--tune', 'ecn.kmax=200KB:800KB', '--tune', 'ecn.pmax=5%:20%',
            '--seeds', '1', '-o', out)
    check(r.returncode in (0, 5) and os.path.exists(os.path.join(out, 'plots', 'calibrate.png')),
          'calibrate: the figure of a plane over ecn.pmax (values with %)',
          (r.returncode, r.stderr[-600:]))


def calibrate_interrupted(tmp):
    # SIGINT once the design starts: exit 3, calibrate.csv of the points
    # seen, and nothing to deploy unless asked, then marked INTERRUPTED
    for flag in ([], ['--export-failing']):
        out = os.path.join(tmp, 'interrupted' + ''.join(flag))
        p = subprocess.Popen([SIM, 'calibrate', *INCAST_TUNES, '--seeds', '1', '-o', out,
                              *flag], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        for line in p.stderr:
            if line.startswith('calibrate: design'):
                p.send_signal(signal.SIGINT)
                break
        p.stdout.read()
        err = p.stderr.read()
        p.wait()
        first = ''
        path = os.path.join(out, 'export', 'config_db.json')
        if os.path.exists(path):
            with open(path) as f:
                first = f.readline()
        check(p.returncode == 3 and 'interrupted' in err and
              os.path.exists(os.path.join(out, 'calibrate.csv')) and
              (first.startswith('// INTERRUPTED: the search stopped before its neighbour '
                                'check') if flag else not os.path.exists(path)),
              'calibrate interrupted%s: exit 3, %s' % (
                  ' --export-failing' if flag else '',
                  'export/ marked INTERRUPTED' if flag else 'no export/'),
              (p.returncode, err[-500:], first))


def calibrate_progress(tmp):
    # on a terminal: a line that counts runs and says the time left
    if not shutil.which('script'):
        check(False, 'script(1) for a terminal (apt-get install bsdutils)')
        return
    out = os.path.join(tmp, 'tty')
    cmd = ' '.join(shlex.quote(a) for a in [SIM, 'calibrate', INCAST, *INCAST_TUNES,
                                            '--seeds', '1', '--no-plane', '-o', out])
    r = subprocess.run(['script', '-qec', cmd, '/dev/null'], capture_output=True, text=True)
    check(r.returncode == 0 and re.search(r'calibrate: run \d+ of about \d+ \(\w+\), about '
                                          r'\d+m\d\ds left', r.stdout) is not None,
          'calibrate: run N of about M and the time left, on a terminal', r.stdout[-800:])


def calibrate_errors(tmp):
    cases = [
        (['calibrate', '--tune', 'ecn.kmni=1KB:2KB'], 2,
         'dcqcn-sim: --tune ecn.kmni: unknown key; did you mean ecn.kmin?'),
        (['calibrate', '--tune', 'ecn.kmin=1KB:2us'], 2,
         'dcqcn-sim: --tune ecn.kmin: 1KB and 2us are not in the same unit'),
        (['calibrate', '--tune', 'ecn.kmin=1KB:2KB', '--tune', 'ecn.kmin=3KB:4KB'], 2,
         'dcqcn-sim: --tune ecn.kmin given twice'),
        (['calibrate', '--seeds', '0'], 2, 'dcqcn-sim: --seeds 0: seeds per point, 1-16'),
        (['calibrate', '--sedes', '2'], 2, 'dcqcn-sim: unknown option --sedes; did you mean --seeds?'),
        (['calibrate', 'a.ini', 'b.ini'], 2,
         'dcqcn-sim: one scenario at a time (extra argument b.ini; a stress scenario is '
         '--stress b.ini)'),
        (['calibrate', '--stress', os.path.join(tmp, 'missing.ini'), '-o', os.path.join(tmp, 'e')],
         2, 'missing.ini: cannot open'),
        (['calibrate', os.path.join(DATA, 'calibrate-incast.ini'), '--set', 'nic.cc=none',
          '--tune', 'dcqcn.rpg_ai_rate=5:80:x4', '-o', os.path.join(tmp, 'e2')], 2,
         "dcqcn-sim: calibrate: the tuned keys at the scenario's own values: "
         "dcqcn.rpg_ai_rate: only for nic.cc = dcqcn (nic.cc is none; set nic.cc first)"),
    ]
    for args, code, want in cases:
        r = sim(*args)
        check(r.returncode == code and want in r.stderr, 'calibrate error: ' + ' '.join(args[1:]),
              (r.returncode, r.stderr))
    # nothing passes: exit 5, the closest reported, nothing to deploy written
    out = os.path.join(tmp, 'nopass')
    nopass = ['calibrate', INCAST, '--set', 'criteria.min_busbw_pct_line=99%',
              '--tune', 'ecn.kmin=20KB:80KB:x4', '--no-plane', '--seeds', '1', '-o', out]
    r = sim(*nopass)
    check(r.returncode == 5 and 'NO SETTING PASSES' in r.stdout and
          os.path.exists(os.path.join(out, 'calibrate.csv')) and
          not os.path.exists(os.path.join(out, 'recommended.ini')) and
          not os.path.exists(os.path.join(out, 'export')) and
          not os.path.exists(os.path.join(out, 'plane.csv')),
          'calibrate: nothing passes: exit 5, no recommended.ini or export/',
          (r.returncode, r.stdout))
    # asked for: written, every file's first line saying it fails
    r = sim(*nopass, '--export-failing')
    ok = r.returncode == 5
    for name in ('recommended.ini', 'export/config_db.json', 'export/cc_params.txt',
                 'export/nic-setup.sh', 'export/nccl.env'):
        path = os.path.join(out, name)
        first = open(path).readline() if os.path.exists(path) else ''
        ok = ok and re.match(r'(#|//) DOES NOT PASS: no setting passes; this is the closest '
                             r'\(margin -\d+\.\d %, binding: min_busbw_pct_line on '
                             r'calibrate-incast\)', first) is not None
    check(ok, 'calibrate --export-failing: every file marked DOES NOT PASS', r.stdout[-500:])
    # a failing calibration into the same folder removes them again
    r = sim(*nopass)
    check(r.returncode == 5 and not os.path.exists(os.path.join(out, 'export')) and
          not os.path.exists(os.path.join(out, 'recommended.ini')),
          'calibrate: a failing calibration leaves no earlier export behind')


def configs_round_trip(tmp):
    sets = ['--set', 'ecn.kmin=400KB', '--set', 'ecn.kmax=4MB', '--set', 'ecn.pmax=5%',
            '--set', 'pfc.headroom=200KB', '--set', 'buffer.dynamic_th=-2',
            '--set', 'pfcwd.detection_time=400ms', '--set', 'dcqcn.rpg_ai_rate=20',
            '--set', 'dcqcn.rpg_time_reset=100', '--set', 'qos.cnp_dscp=46']
    exp = os.path.join(tmp, 'export')
    scen = os.path.join(ROOT, 'scenarios', 'default.ini')
    r = sim('check', scen, *sets, '--export', exp)
    check(r.returncode == 0 and 'exported to ' + exp in r.stderr, 'check --export', r.stderr)
    want = r.stdout
    r2 = sim('check', scen, '--switch-config', os.path.join(exp, 'config_db.json'),
             '--nic-config', os.path.join(exp, 'cc_params.txt'))
    check(r2.returncode == 0 and r2.stdout == want,
          'check --switch-config, --nic-config of the export: the same scenario',
          r2.stderr[-1500:])
    check('ecn.kmin = 400000B' in r2.stderr and '# ' in r2.stderr,
          'the configurations say what they set, on stderr', r2.stderr[:800])
    # --set still wins over a configuration
    r3 = sim('check', scen, '--switch-config', os.path.join(exp, 'config_db.json'),
             '--set', 'ecn.kmin=300KB')
    check(r3.returncode == 0 and '\nkmin = 300KB\n' in r3.stdout, '--set overrides a configuration')
    # a run and every point of a sweep take them
    run_dir = os.path.join(tmp, 'run')
    small = ['--set', 'job.allreduce.size=4MB', '--set', 'job.allreduce.iterations=1',
             '--set', 'job.burst.size=400KB']
    r4 = sim('run', scen, *small, '--switch-config', os.path.join(exp, 'config_db.json'),
             '-o', run_dir, '--quiet')
    with open(os.path.join(run_dir, 'scenario.ini')) as f:
        text = f.read()
    check(r4.returncode == 0 and '\nkmin = 400KB\n' in text and '\nheadroom = 200KB\n' in text,
          'run --switch-config: scenario.ini holds the imported values', r4.stderr[-500:])
    sw = os.path.join(tmp, 'sweep')
    r5 = sim('sweep', scen, *small, '--nic-config', os.path.join(exp, 'cc_params.txt'),
             '--vary', 'ecn.kmax=2MB,3MB', '-o', sw, '--quiet')
    ok = r5.returncode == 0
    for p in ('p000', 'p001'):
        if ok:
            with open(os.path.join(sw, p, 'scenario.ini')) as f:
                ok = '\nrpg_ai_rate = 20\n' in f.read()
    check(ok, 'sweep --nic-config: every point takes it', r5.stderr[-500:])
    # a broken configuration: its file and JSON path
    r6 = sim('check', scen, '--switch-config', os.path.join(DATA, 'config', 'unmappable.json'))
    check(r6.returncode == 2 and 'unmappable.json: WRED_PROFILE.' in r6.stderr,
          'a broken configuration names its JSON path', r6.stderr)
    r7 = sim('check', scen, '--switch-config', 'a.json', '--switch-config', 'b.json')
    check(r7.returncode == 2 and '--switch-config given twice' in r7.stderr,
          '--switch-config given twice', r7.stderr)
    r8 = sim('run', scen, '--export', exp)
    check(r8.returncode == 2 and '--export is an option of check' in r8.stderr,
          '--export is an option of check', r8.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix='dcqcn-deploy-')
    try:
        calibrate_passes(tmp)
        calibrate_unfinished_start(tmp)
        calibrate_with_configs(tmp)
        calibrate_progress(tmp)
        calibrate_interrupted(tmp)
        calibrate_percent_plane(tmp)
        calibrate_errors(tmp)
        configs_round_trip(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILED:
        print('%d check(s) failed' % len(FAILED))
        return 1
    print('all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
