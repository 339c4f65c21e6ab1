#!/usr/bin/env python3
"""test_split.py SIM ROOT - one run split over MPI ranks (the MPI build).

`mpirun -np 2` (and on some, `mpirun -np 3`, oversubscribed) must write,
byte for byte, what `--set sim.threads=1` writes in one process (every file but
stats.csv and events.csv, the cost of the run): on the teaching scenarios
that have more than one unit (default, pause-storm, victim-flow,
rail-optimized with NVLink, ib-victim-flow on InfiniBand, tcp-incast on
TCP, adaptive-routing, storage-vs-allreduce, the first 20 ms of training),
a fat-tree with a link-down fault (also on 2 threads a rank), two whole
training steps of 16 GPUs, and the first 20 soak seeds a split run takes
(tests/soak.py's scenarios and variants, traces with dependencies among
them).  A scenario a split run does not take (a star is one unit) must be
refused before anything runs, exit 2, with the reason.  A rank killed in the middle of a run ends the run on
the others: mpirun exits non-zero, names the rank, and no summary.csv is
written.
"""
import filecmp
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402
from pycheck import check, finish  # noqa: E402

SIM, ROOT = sys.argv[1], sys.argv[2]
MPI = ['mpirun', '--oversubscribe']
if os.geteuid() == 0:
    MPI.append('--allow-run-as-root')

FATTREE = """[sim]
duration = 2ms
[topology]
kind = fat-tree
k = 4
[job.ring]
pattern = ring-allreduce
ranks = 0-15
size = 16MB
[job.a2a]
pattern = alltoall
ranks = 0-7
size = 1MB
schedule = shift
[fault.down]
kind = link-down
link = agg0-core0
start = 50us
duration = 500us
"""


# two training steps of 16 GPUs (tensor, pipeline and data parallel) beside
# a checkpoint incast, with the ideal run: each step's account reads every
# GPU's timeline, which the ranks share at the step's end
TRAINING = """[sim]
duration = 1s
[topology]
kind = rail-optimized
units = 2
servers_per_unit = 2
gpus_per_server = 4
spines = 2
[job.gpt]
pattern = training
ranks = 0-15
layers = 4
hidden = 1024
seq_len = 512
vocab = 8192
global_batch = 8
tp = 2
pp = 2
gpu_tflops = 400
iterations = 2
ideal_network = true
[job.checkpoint]
pattern = incast
dst = 0
senders = 8-15
size = 2MB
start = 100us
"""


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def differing(a, b):
    names = sorted(n for n in os.listdir(a) if n not in ('stats.csv', 'events.csv')
                   and os.path.isfile(os.path.join(a, n)))
    return [n for n in names if not os.path.exists(os.path.join(b, n)) or
            not filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False)]


def refused(q, out):
    """a split run that said why it does not take the scenario, and wrote
    nothing"""
    said = 'not split over ranks' in q.stderr or 'cannot split the run' in q.stderr
    return q.returncode == 2 and said and not os.path.exists(os.path.join(out, 'summary.csv'))


def same_as_one(name, ini, tmp, extra=(), nps=(2, 3)):
    """each split run compared to the run of one process; False when the
    first split run refuses the scenario"""
    ref = None
    for np in nps:
        out = os.path.join(tmp, '%s-np%d' % (name.replace(' ', '-'), np))
        q = run(MPI + ['-np', str(np), SIM, 'run', ini, '-o', out, '--quiet'] + list(extra))
        if ref is None and refused(q, out):
            print('ok: %s: refused by mpirun -np %d before it runs: %s'
                  % (name, np, q.stderr.splitlines()[0]))
            return False
        if ref is None:
            ref = os.path.join(tmp, name.replace(' ', '-') + '-one')
            p = run([SIM, 'run', ini, '-o', ref, '--quiet'] + list(extra) +
                    ['--set', 'sim.threads=1'])
            if not check(os.path.isdir(ref), '%s: the run of one process' % name, p.stderr):
                return True
        check(q.returncode == p.returncode, '%s: mpirun -np %d exits as one process (%d)'
              % (name, np, p.returncode), '%d: %s' % (q.returncode, q.stderr[-400:]))
        d = differing(ref, out)
        check(not d, '%s: mpirun -np %d writes the files of one process' % (name, np), d)
    return True


def killed(tmp):
    """rank 1 killed in the middle of a run"""
    ini = os.path.join(ROOT, 'scenarios', 'default.ini')
    out = os.path.join(tmp, 'killed')
    p = subprocess.Popen(MPI + ['-np', '2', SIM, 'run', ini, '-o', out, '--quiet',
                                '--set', 'sim.duration=1s', '--set', 'job.allreduce.iterations=1000'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    victim = None
    for _ in range(200):  # the ranks: processes whose environment names rank 1
        time.sleep(0.05)
        for pid in os.listdir('/proc'):
            try:
                with open('/proc/%s/environ' % pid, 'rb') as f:
                    env = f.read().split(b'\0')
                with open('/proc/%s/cmdline' % pid, 'rb') as f:
                    cmd = f.read()
            except OSError:
                continue
            if b'OMPI_COMM_WORLD_RANK=1' in env and out.encode() in cmd:
                victim = int(pid)
        if victim and os.path.exists(os.path.join(out, 'flows.csv')):
            break
    check(victim is not None, 'rank 1 of a running split run found')
    if victim:
        time.sleep(0.5)
        os.kill(victim, signal.SIGKILL)
    try:
        so, se = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        so, se = p.communicate()
        check(False, 'the other rank ends when rank 1 is killed', 'still running after 60 s')
        return
    check(p.returncode != 0, 'a killed rank: mpirun exits non-zero', p.returncode)
    check('rank 1' in so + se or 'signal 9' in so + se, 'a killed rank: the message names it',
          (so + se)[-400:])
    check(not os.path.exists(os.path.join(out, 'summary.csv')),
          'a killed rank: no summary.csv is written')


def main():
    if not shutil.which('mpirun'):
        check(False, 'mpirun found', 'sh scripts/deps.sh --mpi installs Open MPI')
        finish('split')
    tmp = tempfile.mkdtemp(prefix='dcqcn-split-')
    # -np 3 (oversubscribed on 2 cores) on some: it costs the most
    for name in ('default', 'pause-storm', 'victim-flow', 'rail-optimized', 'ib-victim-flow',
                 'tcp-incast', 'adaptive-routing', 'storage-vs-allreduce'):
        same_as_one(name, os.path.join(ROOT, 'scenarios', name + '.ini'), tmp,
                    nps=(2, 3) if name in ('default', 'rail-optimized', 'tcp-incast') else (2,))
    ft = os.path.join(tmp, 'fattree.ini')
    with open(ft, 'w') as f:
        f.write(FATTREE)
    same_as_one('fat-tree with a link down', ft, tmp)
    same_as_one('fat-tree on 2 threads a rank', ft, tmp, ['--threads', '2'], nps=(2,))
    tr = os.path.join(tmp, 'training.ini')
    with open(tr, 'w') as f:
        f.write(TRAINING)
    same_as_one('two training steps', tr, tmp)
    # the lesson's first 20 ms (a step takes 81)
    same_as_one('training', os.path.join(ROOT, 'scenarios', 'training.ini'), tmp,
                ['--set', 'sim.duration=20ms'], nps=(2,))
    ok = same_as_one('pfc-vs-dcqcn', os.path.join(ROOT, 'scenarios', 'pfc-vs-dcqcn.ini'), tmp,
                     nps=(2,))
    check(not ok, 'pfc-vs-dcqcn (a star: one unit) is refused by a split run')
    # the first 20 soak seeds whose scenario a split run takes
    split, seed = 0, 0
    while split < 20 and seed < 100:
        seed += 1
        sub = tempfile.mkdtemp(prefix='seed%d-' % seed, dir=tmp)
        text, extra = soak.variant(seed, soak.scenario(seed, sub), sub)
        ini = os.path.join(sub, 'scenario.ini')
        with open(ini, 'w') as f:
            f.write(text)
        split += same_as_one('soak seed %d' % seed, ini, sub, extra, nps=(2,))
    check(split == 20, '20 soak seeds split over ranks (of the first %d)' % seed)
    killed(tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    finish('split')


main()
