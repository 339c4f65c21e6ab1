#!/usr/bin/env python3
"""test_deploy.py DCQCN_SIM SOURCE_ROOT [--sanitized] - calibration that ends in a
deployable answer, from the command line.

  - calibrate on the embedded default finds settings that pass, spends
    fewer runs than the grid, and a plain `run` with them passes while the
    default's own settings fail (under the sanitizers, where a default run
    takes seconds, the same on tests/data/calibrate-incast.ini)
  - calibrate's files: calibrate.csv (every point), recommended.ini (loads
    back), plane.csv, export/, and the figure when gnuplot is present
  - calibrate's usage errors and its exit status when nothing passes
  - check --export, then --switch-config and --nic-config of what it wrote,
    gives back the same resolved scenario (the round trip through real
    configurations), and a run and every point of a sweep take them
  - a broken configuration fails with its file and JSON path
Prints one line per check; exit 1 when any fails.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
ROOT = sys.argv[2]
DATA = os.path.join(ROOT, 'tests', 'data')
FAILED = []
# --sanitized (tests/meson.build, in a sanitizer's build): a run of the
# embedded default takes ~10 s there
SANITIZED = '--sanitized' in sys.argv[3:]


def check(cond, what, detail=''):
    if cond:
        print('ok: ' + what)
    else:
        print('FAIL: ' + what + (': ' + str(detail) if detail else ''))
        FAILED.append(what)


def sim(*args):
    return subprocess.run([SIM] + list(args), capture_output=True, text=True)


def summary(d):
    with open(os.path.join(d, 'summary.csv')) as f:
        return next(csv.DictReader(f))


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
    r = sim('calibrate', *scenario, *tunes, '-j', '2', '-o', out)
    check(r.returncode in (0, 4), 'calibrate: a setting passes (exit 0)',
          (r.returncode, r.stderr[-2000:]))
    m = re.search(r': (\d+) runs for the search \((\d+) points, \d+ rounds?\), (\d+) for the '
                  r"figure's plane; a full grid of the same values is (\d+) runs", r.stdout)
    check(m is not None, 'calibrate: runs spent against the grid', r.stdout)
    if m:
        search, plane, grid = int(m.group(1)), int(m.group(3)), int(m.group(4))
        check(grid == points, 'calibrate: the grid counts every value, the own included', grid)
        check(search < grid, 'calibrate: the search spends fewer runs than the grid',
              (search, grid))
        with open(os.path.join(out, 'calibrate.csv')) as f:
            rows = list(csv.DictReader(f))
        spent = sum(int(row['runs']) for row in rows)
        check(spent == search + plane, 'calibrate.csv: every run of every point',
              (spent, search, plane))
        check(rows[0]['round'] == '0' and rows[0]['pass'] == '0',
              "calibrate.csv: the search starts at the scenario's own settings, which fail",
              rows[0])
        best = [row for row in rows if row['note'] == 'recommended']
        check(len(best) == 1 and best[0]['pass'] == '1', 'calibrate.csv: one recommendation')
    check("the scenario's own settings: FAIL" in r.stdout, "calibrate: reports the own settings")
    m = re.search(r'^(robust|FRAGILE): (\d+) of its (\d+) one-step neighbours pass; the weakest, ',
                  r.stdout, re.M)
    check(m is not None and (m.group(1) == 'robust') == (m.group(2) == m.group(3)),
          "calibrate: reports the recommendation's neighbours", r.stdout)
    with open(os.path.join(out, 'calibrate.csv')) as f:
        phases = set(row['round'] for row in csv.DictReader(f))
    check('neighbours' in phases and 'plane' in phases and '0' in phases,
          'calibrate.csv: the phases of each point', phases)
    m = re.search(r'^run it: dcqcn-sim run (.*)$', r.stdout, re.M)
    check(m is not None, 'calibrate: the run line', r.stdout)
    if not m:
        return
    sets = m.group(1).split()
    check(sets.count('--set') == 2, 'calibrate: the run line sets both keys', sets)
    run_dir = os.path.join(tmp, 'plain')
    r2 = sim('run', *sets, '-o', run_dir, '--quiet')
    check(r2.returncode == 0 and summary(run_dir)['criteria_pass'] == '1',
          'a plain run with the recommendation passes', r2.stderr[-500:])
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
    with open(os.path.join(out, 'plane.csv')) as f:
        plane = list(csv.DictReader(f))
    check(len(plane) == points and sum(p['recommended'] == '1' for p in plane) == 1,
          'plane.csv: every pair of the two keys, the recommendation once', len(plane))
    for name in ('config_db.json', 'cc_params.txt', 'nic-setup.sh', 'nccl.env'):
        check(os.path.getsize(os.path.join(out, 'export', name)) > 0, 'calibrate: export/' + name)
    if shutil.which('gnuplot'):
        png = os.path.join(out, 'plots', 'calibrate.png')
        ok = os.path.exists(png)
        if ok:
            with open(png, 'rb') as f:
                ok = f.read(8) == b'\x89PNG\r\n\x1a\n'
        check(ok and r.returncode == 0, 'calibrate: plots/calibrate.png')


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
    # nothing passes: exit 5, the closest written
    out = os.path.join(tmp, 'nopass')
    r = sim('calibrate', os.path.join(DATA, 'calibrate-incast.ini'),
            '--set', 'criteria.min_busbw_pct_line=99%',
            '--tune', 'ecn.kmin=20KB:80KB:x4', '--no-plane', '-o', out)
    check(r.returncode == 5 and 'NO SETTING PASSES' in r.stdout and
          os.path.exists(os.path.join(out, 'recommended.ini')) and
          not os.path.exists(os.path.join(out, 'plane.csv')),
          'calibrate: nothing passes: exit 5, the closest written', (r.returncode, r.stdout))


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
