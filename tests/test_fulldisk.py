#!/usr/bin/env python3
"""test_fulldisk.py DCQCN_SIM FULLDISK_SO - a full disk under every command that
writes a result file as a whole.

Each command runs once to leave its result files, then again with
tests/fulldisk.c preloaded so that one result file's write fails at its close
with ENOSPC (what a buffered write to a full disk does).  The command must
exit non-zero, name the file and the system's reason ("No space left on
device") on stderr, and leave the earlier file byte for byte: a result is
written under another name and renamed, never rewritten in place.
Prints one line per check; exit 1 when any fails.
"""
import os
import subprocess
import sys
import tempfile

from pycheck import check, finish, star_incast

SIM = sys.argv[1]
SHIM = sys.argv[2]
STAR = star_incast('200KB', '[sim]\nduration = 10ms\n')

RING = """[sim]
duration = 10ms
[topology]
kind = star
hosts = 4
host_link = 100Gbps
[job.ar]
pattern = ring-allreduce
ranks = 0-3
size = 1MB
iterations = 2
"""


def sim(args, full=None):
    env = dict(os.environ)
    if full:
        env['LD_PRELOAD'] = SHIM
        env['DCQCN_FULL_DISK'] = full
        # a sanitizer's runtime wants to come first; the shim comes before it
        env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':verify_asan_link_order=0'
    return subprocess.run([SIM] + args, capture_output=True, text=True, env=env)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def run_case(tmp, star):
    """a run removes its folder's summary.csv when it starts (its presence says the
    run ended): a full disk at it leaves none, and no temporary file"""
    out = os.path.join(tmp, 'run')
    r = sim(['run', star, '-o', out, '-q'])
    check(r.returncode == 0 and os.path.exists(os.path.join(out, 'summary.csv')),
          'run: writes summary.csv', r.stderr[-500:])
    r = sim(['run', star, '-o', out, '-q'], full='summary.csv')
    check(r.returncode == 2 and 'summary.csv' in r.stderr and
          'No space left on device' in r.stderr,
          'run: a full disk at summary.csv: exit 2, the file and the reason named',
          (r.returncode, r.stderr[-500:]))
    check(sorted(f for f in os.listdir(out) if f.startswith('summary')) == [],
          'run: no summary.csv (the run did not end whole) and no temporary one',
          os.listdir(out))


def case(name, args, path, rc_ok=(0,)):
    """args write path (exiting with a status of rc_ok); with path's write
    failing, the command says so and leaves the earlier file"""
    r = sim(args)
    if not check(r.returncode in rc_ok and os.path.exists(path),
                 '%s: writes %s' % (name, os.path.basename(path)), r.stderr[-500:]):
        return
    before = read(path)
    r = sim(args, full=os.path.basename(path))
    check(r.returncode not in (0,) + tuple(rc_ok), '%s: a full disk at %s: exit %d' %
          (name, os.path.basename(path), r.returncode), r.stderr[-500:])
    check(os.path.basename(path) in r.stderr and 'No space left on device' in r.stderr,
          '%s: the message names %s and the reason' % (name, os.path.basename(path)),
          r.stderr[-500:])
    check(os.path.exists(path) and read(path) == before,
          '%s: the earlier %s is left as it was' % (name, os.path.basename(path)))
    left = [f for f in os.listdir(os.path.dirname(path)) if f.endswith('.tmp')]
    check(left == [], '%s: no temporary file is left' % name, left)


def main():
    with tempfile.TemporaryDirectory(prefix='dcqcn-fulldisk-') as tmp:
        star, ring = os.path.join(tmp, 'star.ini'), os.path.join(tmp, 'ring.ini')
        with open(star, 'w') as f:
            f.write(STAR)
        with open(ring, 'w') as f:
            f.write(RING)
        d = lambda n: os.path.join(tmp, n)
        run_case(tmp, star)
        case('sweep', ['sweep', star, '--vary', 'ecn.kmin=50KB,100KB', '-o', d('sweep'), '-q'],
             os.path.join(d('sweep'), 'sweep.csv'))
        case('sweep --shard', ['sweep', star, '--vary', 'ecn.kmin=50KB,100KB', '--shard', '0/1',
                               '-o', d('shard'), '-q'],
             os.path.join(d('shard'), 'shard-0-of-1.txt'))
        case('sweep --merge', ['sweep', '--merge', d('shard'), '-o', d('merged'), '-q'],
             os.path.join(d('merged'), 'sweep.csv'))
        # exit 5: no setting passes; --export-failing writes the recommendation marked
        cal = ['calibrate', ring, '--tune', 'ecn.kmin=50KB:100KB:50KB', '--seeds', '1',
               '--no-plane', '--export-failing', '-o', d('cal'), '-q']
        case('calibrate', cal, os.path.join(d('cal'), 'calibrate.csv'), rc_ok=(0, 5))
        case('calibrate (recommended.ini)', cal, os.path.join(d('cal'), 'recommended.ini'),
             rc_ok=(0, 5))
        case('compare', ['compare', star, '--fabrics', 'roce,infiniband', '--probe', '10',
                         '-o', d('cmp'), '-q'], os.path.join(d('cmp'), 'compare.csv'))
        case('nccl-tests', ['nccl-tests', 'all_reduce_perf', star, '-b', '1M', '-e', '1M',
                            '--out', d('nccl')], os.path.join(d('nccl'), 'nccl-tests.csv'))
        case('check --export', ['check', star, '--export', d('exp')],
             os.path.join(d('exp'), 'cc_params.txt'))
        case('fluid', ['fluid', star, '-o', d('fluid')], os.path.join(d('fluid'), 'summary.csv'))
    finish('fulldisk')


if __name__ == '__main__':
    main()
