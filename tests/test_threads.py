#!/usr/bin/env python3
"""test_threads.py SIM SRCROOT [--soak N] [--reference SIM1] - one run on 1, 2 and 3
threads, same bytes.

A run cut into partitions (models/fabric/parallel.c) must write every output
file byte for byte as the run on one thread does: the teaching scenarios
(and the tutorial's variants), a fat-tree with a failed link, a leaf-spine
ring all-reduce whose link between partitions fails and comes back, an
all-to-all cut by sim.duration, jobs failed by QPs whose retries ran out,
an InfiniBand leaf-spine (credits across partitions, a link that fails and
comes back), a lossy TCP leaf-spine with DCTCP (drops, fast retransmits and
timeouts across partitions), three of them with adaptive routing, and a
subset of the soak scenarios.
Each also runs on 2 threads cut into 6 partitions (sim.partitions), three a
thread run one after another within each window, as large fabrics are by
default.
--soak N takes the first N soak seeds (default 40; the stars among them
are left out).  --reference SIM1 (a sanitizer's build, ThreadSanitizer's in
scripts/test.sh, whose runs on one thread check nothing of the threads):
the run on one thread is SIM1's, a plain build of the same source, which
writes the same bytes (scripts/compare-outputs.py), and of the cut runs
only those on 3 threads and on 2 threads of 6 partitions.  stats.csv (wall-clock) and events.csv (a parallel run's windows add events) are left out, but its threads column must show that
the run used the threads `check --threads N` plans (N, or fewer when the
fabric has fewer units), check must plan the partitions asked for (at
most the units), and every scenario but the stars must be cut.
"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402  (the random scenario generator)

# (threads, sim.partitions): the first is the reference
THREADS = ((1, None), (2, None), (3, None), (2, 6))
SOAK_SEEDS = 40

FAT_TREE = """[sim]
seed = 7
[topology]
kind = fat-tree
k = 4
host_link = 100Gbps
fabric_link = 100Gbps
[job.perm]
pattern = permutation
size = 2MB
[fault.cut]
kind = link-down
link = edge0-agg0
start = 20us
duration = 100us
"""

RING = """[sim]
seed = 3
[topology]
kind = leaf-spine
spines = 2
leaves = 4
hosts_per_leaf = 4
[job.ring]
pattern = ring-allreduce
size = 4MB
channels = 2
iterations = 2
[fault.flap]
kind = link-down
link = leaf1-spine0
start = 30us
duration = 40us
"""

ALLTOALL = """[sim]
duration = 150us
[topology]
kind = leaf-spine
spines = 2
leaves = 3
hosts_per_leaf = 4
[job.a2a]
pattern = alltoall
size = 256KB
"""

# a pause storm without the watchdog: QPs time out and go to the error
# state, failing both jobs (settled at the end of a window)
QP_ERROR = """[sim]
duration = 50ms
[topology]
spines = 1
leaves = 2
hosts_per_leaf = 4
host_link = 100Gbps
fabric_link = 100Gbps
[buffer]
size = 4MB
[nic]
cc = none
rto = 500us
ib_retry_cnt = 3
[pfcwd]
enable = false
[job.to-broken]
pattern = incast
dst = 0
senders = 4
size = 1GB
[job.train]
pattern = ring-allreduce
ranks = 1,2,5,6
size = 64MB
[fault.broken]
kind = pause-storm
node = h0
start = 100us
"""

# two scalable units of 2 servers x 4 GPUs: NVLink inside a server, rails
# between, units and spines on their own partitions; a tree, a ring with 2
# QPs per connection and an all-to-all whose messages cross units
RAILS = """[sim]
duration = 20ms
[topology]
kind = rail-optimized
units = 2
servers_per_unit = 2
gpus_per_server = 4
spines = 2
[job.tree]
pattern = ring-allreduce
algorithm = tree
channels = 8
size = 8MB
[job.ring]
pattern = ring-allreduce
channels = 4
qps_per_connection = 2
size = 8MB
[job.a2a]
pattern = alltoall
size = 2MB
"""

# InfiniBand: credits between partitions, a small vl_buffer that stalls
# every hop, a fabric link between partitions that fails and comes back
# (its credits start again), a host under a slow-receiver fault
INFINIBAND = """[sim]
duration = 20ms
[topology]
spines = 2
leaves = 3
hosts_per_leaf = 4
fabric_link = 100Gbps
[fabric]
type = infiniband
[ib]
vl_buffer = 12KiB
credit_update_delay = 250ns
[qos]
scheduler = dwrr
[job.train]
pattern = ring-allreduce
ranks = 1-11
size = 16MB
[job.incast]
pattern = incast
dst = 0
senders = 4-11
size = 2MB
[fault.cut]
kind = link-down
link = leaf0-spine1
start = 100us
duration = 300us
[fault.slow]
kind = slow-receiver
node = h5
rate = 40Gbps
start = 50us
duration = 500us
"""

# lossy TCP: drops and fast retransmits across partitions, DCTCP marks,
# delayed-ACK timers on receivers, timeouts after a fabric link fails
TCP = """[sim]
duration = 200ms
[topology]
spines = 2
leaves = 3
hosts_per_leaf = 4
fabric_link = 100Gbps
[buffer]
size = 2MB
[fabric]
type = ethernet-tcp
[ecn]
queues = 3
kmin = 200KB
kmax = 201KB
pmax = 100%
[tcp]
cc = dctcp
rto_min = 1ms
[job.train]
pattern = ring-allreduce
ranks = 1-11
size = 16MB
[job.incast]
pattern = incast
dst = 0
senders = 4-11
size = 2MB
[fault.cut]
kind = link-down
link = leaf0-spine1
start = 100us
duration = 300us
"""

# the tutorial's variants of the teaching scenarios (docs/tutorial.md)
VARIANTS = {
    'rail-optimized.ini': ['--set', 'job.allreduce.algorithm=tree', '--set',
                           'job.allreduce.channels=16', '--set', 'job.allreduce.size=32MB',
                           '--set', 'job.rail3.pattern=permutation', '--set',
                           'job.rail3.ranks=3,11,19,27', '--set', 'job.rail3.size=8MB'],
    'pause-storm.ini': ['--set', 'pfcwd.enable=false'],
    'pfc-vs-dcqcn.ini': ['--set', 'nic.cc=none'],
    'victim-flow.ini': ['--set', 'nic.cc=dcqcn'],
}


def adaptive(text):
    """the scenario with adaptive routing (topology.ecmp = adaptive): switches
    choose by their own queues, receivers take packets out of order"""
    return text.replace('[topology]\n', '[topology]\necmp = adaptive\n', 1)


def runs(src, tmp, nsoak):
    """(name, scenario file, extra arguments)"""
    out = []
    scen = os.path.join(src, 'scenarios')
    for f in sorted(os.listdir(scen)):
        if f.endswith('.ini'):
            # the default scenario runs 21 ms, the training lesson's two steps
            # 150 ms (test_training.c compares whole steps on 1, 2 and 3
            # threads): their first milliseconds are enough here
            extra = (['--set', 'sim.duration=4ms'] if f == 'default.ini' else
                     ['--set', 'sim.duration=10ms'] if f == 'training.ini' else [])
            out.append((f[:-4], os.path.join(scen, f), extra))
            if f in VARIANTS:
                out.append((f[:-4] + '-variant', os.path.join(scen, f), VARIANTS[f]))
    for name, text in (('fat-tree', FAT_TREE), ('ring', RING), ('alltoall', ALLTOALL),
                       ('qp-error', QP_ERROR), ('rails', RAILS),
                       ('infiniband', INFINIBAND), ('tcp', TCP),
                       ('fat-tree-adaptive', adaptive(FAT_TREE)),
                       ('infiniband-adaptive', adaptive(INFINIBAND)),
                       ('tcp-adaptive', adaptive(TCP))):
        path = os.path.join(tmp, name + '.ini')
        with open(path, 'w') as f:
            f.write(text)
        out.append((name, path, []))
    for seed in range(1, nsoak + 1):
        d = os.path.join(tmp, 'soak%d' % seed)
        os.makedirs(d)
        text = soak.scenario(seed, d)
        if 'kind = star' in text:
            continue  # one unit: always one partition
        path = os.path.join(d, 'scenario.ini')
        with open(path, 'w') as f:
            f.write(text)
        out.append(('soak%d' % seed, path, []))
    return out


def star(path):
    with open(path) as f:
        return 'kind = star' in f.read()


def stats_threads(d):
    with open(os.path.join(d, 'stats.csv')) as f:
        head, row = f.read().split('\n')[:2]
    return int(dict(zip(head.split(','), row.split(',')))['threads'])


PLAN = re.compile(r'# threads: (\d+)(?: partitions?|, running (\d+) partitions) of (\d+) units?')


def planned(sim, path, extra):
    """(threads, partitions, units) of the plan `check` prints"""
    p = subprocess.run([sim, 'check', path] + extra, capture_output=True, text=True,
                       check=True)
    m = [PLAN.match(x) for x in p.stdout.splitlines() if x.startswith('# threads: ')][0]
    threads, units = int(m.group(1)), int(m.group(3))
    return threads, int(m.group(2) or threads), units


def files_of(d):
    got = []
    for dirpath, _, files in os.walk(d):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), d)
            if rel not in ('stats.csv', 'events.csv'):
                got.append(rel)
    return sorted(got)


def label_of(n, parts):
    return '%d thread%s' % (n, 's' if n > 1 else '') + \
        (' of %d partitions' % parts if parts else '')


def main():
    sim, src = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    if (len(sys.argv) - 3) % 2 or set(opts) - {'--soak', '--reference'}:
        print(__doc__)
        return 2
    nsoak = int(opts.get('--soak', SOAK_SEEDS))
    ref_sim = opts.get('--reference', sim)
    configs = THREADS if ref_sim == sim else (THREADS[0], (3, None), (2, 6))
    tmp = tempfile.mkdtemp(prefix='dcqcn-threads-')
    failed = checked = 0
    for name, path, extra in runs(src, tmp, nsoak):
        dirs = {}
        for n, parts in configs:
            label = label_of(n, parts)
            cut = ['--threads', str(n)] + (['--set', 'sim.partitions=%d' % parts] if parts
                                           else [])
            d = os.path.join(tmp, 'out', '%s-t%d-p%s' % (name, n, parts))
            p = subprocess.run([ref_sim if n == 1 else sim, 'run', path, '-o', d, '--quiet'] +
                               cut + extra, capture_output=True, text=True)
            if p.returncode != 0:
                print('FAIL: %s on %s: exit %d\n%s' % (name, label, p.returncode, p.stderr))
                failed += 1
                break
            used, (plan, nparts, units) = stats_threads(d), planned(sim, path, cut + extra)
            if used != plan or plan > n or (n > 1 and plan == 1 and not star(path)) or \
                    (parts and not star(path) and nparts != min(parts, units)):
                print('FAIL: %s on %s: %d threads, %d planned, %d partitions of %d units' %
                      (name, label, used, plan, nparts, units))
                failed += 1
            dirs[(n, parts)] = d
        if len(dirs) != len(configs):
            continue
        ref = files_of(dirs[THREADS[0]])
        for key in configs[1:]:
            if files_of(dirs[key]) != ref:
                print('FAIL: %s: files on %s %s, on 1 thread %s' %
                      (name, key, files_of(dirs[key]), ref))
                failed += 1
                continue
            for rel in ref:
                checked += 1
                if not filecmp.cmp(os.path.join(dirs[THREADS[0]], rel),
                                   os.path.join(dirs[key], rel), shallow=False):
                    print('FAIL: %s: %s differs between 1 thread and %s (kept in %s)' %
                          (name, rel, key, tmp))
                    failed += 1
        print('ok: %s: %d files identical on %s' %
              (name, len(ref), ', '.join(label_of(*c) for c in configs)))
    if failed:
        print('%d failures; outputs kept in %s' % (failed, tmp))
        return 1
    shutil.rmtree(tmp)
    print('threads: %d file comparisons, all identical' % checked)
    return 0


if __name__ == '__main__':
    sys.exit(main())
