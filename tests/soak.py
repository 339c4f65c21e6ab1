#!/usr/bin/env python3
"""soak.py SIM COUNT [FIRST_SEED] - random scenarios as a property test.

Each seed makes a small random scenario (topology, GPU servers or rails,
buffer, PFC on or off, ECN/DCQCN profile or none, scheduler, 1-3 jobs of
every pattern including traces with dependencies, trees and QPs per
connection, a fault, a watchdog action) and runs it twice.
Every run must end with exit 0 (the simulator checks its invariants at the
end of every run: conservation, pool, buffer accounting; a broken one exits
1) and both runs must write byte-identical results.  The seeds are fixed, so
a failure reproduces: the scenario is kept under the printed directory.
"""
import filecmp
import os
import random
import shutil
import subprocess
import sys
import tempfile


def scenario(seed, tmp):
    r = random.Random(seed)
    kind = r.choice(['leaf-spine', 'fat-tree', 'star'])
    lines = ['[sim]', 'duration = %dus' % r.choice([200, 500, 1000, 3000]),
             'seed = %d' % r.randint(1, 99), '[topology]', 'kind = ' + kind]
    # GPU servers, rails, trees and QPs per connection come from a stream of
    # their own, so that the rest of a seed's scenario stays what it was
    g = random.Random(seed * 7919 + 1)
    if kind == 'leaf-spine':
        lv, hpl = r.randint(1, 4), r.randint(1, 6)
        hpl = max(hpl, 2 if lv == 1 else 1)
        spines = r.randint(1, 3)
        if hpl > 1 and g.random() < 0.3:  # the same hosts as servers on rails
            lines[-1] = 'kind = rail-optimized'
            lines += ['spines = %d' % spines, 'units = 1', 'servers_per_unit = %d' % lv,
                      'gpus_per_server = %d' % hpl]
        else:
            lines += ['spines = %d' % spines, 'leaves = %d' % lv,
                      'hosts_per_leaf = %d' % hpl,
                      'gpus_per_server = %d' % g.choice([d for d in (1, 2, hpl)
                                                          if hpl % d == 0])]
            if g.random() < 0.3:
                lines += ['uplinks_per_spine = 2']
        hosts, link = lv * hpl, 'leaf0-spine0'
    elif kind == 'fat-tree':
        k = r.choice([2, 4])
        lines += ['k = %d' % k]
        hosts, link = k ** 3 // 4, 'edge0-agg0'
    else:
        hosts = r.randint(2, 12)
        lines += ['hosts = %d' % hosts]
        link = 'h1-sw0'
    lines += ['host_link = ' + r.choice(['25Gbps', '100Gbps', '400Gbps']),
              'fabric_link = ' + r.choice(['100Gbps', '400Gbps']),
              'host_cable = %dm' % r.choice([1, 3, 100]),
              'ecmp = ' + r.choice(['flow', 'packet'])]
    lines += ['[buffer]', 'size = ' + r.choice(['4MB', '16MB', '64MB']),
              'dynamic_th = %d' % r.randint(-3, 2)]
    pfc = r.random() < 0.8
    lines += ['[pfc]', 'priorities = ' + ('3' if pfc else '')]
    if pfc and r.random() < 0.3:
        lines += ['headroom = ' + r.choice(['20KB', 'auto'])]
    cc = r.choice(['dcqcn', 'none'])
    lines += ['[nic]', 'cc = ' + cc, 'rto = ' + r.choice(['100us', '1ms'])]
    if cc == 'dcqcn':
        lines += ['[dcqcn]', 'profile = ' + r.choice(['nvidia', 'paper', 'hpcc'])]
    lines += ['[qos]', 'scheduler = ' + r.choice(['strict', 'dwrr'])]
    lines += ['[output]', 'queues = ' + r.choice(['switches', 'all', 'none'])]
    for j in range(r.randint(1, 3)):
        p = r.choice(['incast', 'permutation', 'ring-allreduce', 'alltoall', 'trace'])
        if hosts > 2 and g.random() < 0.15:  # NVMe-oF I/O instead (its own stream)
            lines += ['[job.j%d]' % j, 'pattern = storage',
                      'targets = %d' % g.randrange(hosts),
                      'rw = ' + g.choice(['read', 'write', 'randrw']),
                      'bs = ' + g.choice(['4KiB', '64KiB']),
                      'iodepth = %d' % g.choice([1, 4, 16]),
                      'size = ' + g.choice(['64KiB', '512KiB'])]
            if g.random() < 0.3:
                lines += ['target_iops = 200000']
            if g.random() < 0.3:
                lines += ['runtime = 100us', 'iterations = 2']
            continue
        lines += ['[job.j%d]' % j, 'pattern = ' + p]
        if p == 'incast':
            lines += ['dst = %d' % r.randrange(hosts), 'size = ' + r.choice(['64KB', '1MB'])]
        elif p == 'permutation':
            lines += ['size = ' + r.choice(['64KB', '1MB'])]
        elif p == 'ring-allreduce':
            lines += ['size = ' + r.choice(['256KB', '4MB']), 'channels = %d' % r.randint(1, 2),
                      'iterations = %d' % r.randint(1, 2), 'slice = 64KB',
                      'algorithm = ' + g.choice(['ring', 'ring', 'tree']),
                      'qps_per_connection = %d' % g.choice([1, 1, 2])]
        elif p == 'alltoall':
            lines += ['size = ' + r.choice(['256KB', '2MB']),
                      'schedule = ' + r.choice(['all-at-once', 'shift']),
                      'qps_per_connection = %d' % g.choice([1, 1, 2])]
        else:
            rows = ['src,dst,bytes,start_us,after,dscp']
            for k in range(r.randint(1, 12)):
                a = r.randrange(hosts)
                b = (a + 1 + r.randrange(hosts - 1)) % hosts
                after = str(r.randrange(k)) if k and r.random() < 0.5 else ''
                rows.append('%d,%d,%d,%s,%s,%s' % (a, b, r.choice([1, 5000, 100000, 1000000]),
                                                   r.choice(['0', '1.5', '20']), after,
                                                   r.choice(['', '26', '8'])))
            path = os.path.join(tmp, 'trace%d.csv' % j)
            with open(path, 'w') as f:
                f.write('\n'.join(rows) + '\n')
            lines += ['file = ' + path, 'iterations = %d' % r.randint(1, 3),
                      'compute_gap = 5us']
        if r.random() < 0.3:
            lines += ['dscp = %d' % r.choice([8, 26, 34])]
        if r.random() < 0.3:
            lines += ['skew = 20us']
    if pfc and r.random() < 0.5:
        fault = r.choice(['pause-storm', 'slow-receiver', 'link-down'])
        lines += ['[fault.f]', 'kind = ' + fault, 'start = %dus' % r.choice([0, 50]),
                  'duration = ' + r.choice(['0s', '100us'])]
        if fault == 'link-down':
            lines += ['link = ' + link]
        else:
            lines += ['node = h%d' % r.randrange(hosts)]
            if fault == 'slow-receiver':
                lines += ['rate = 10Gbps']
    if pfc and r.random() < 0.5:
        lines += ['[pfcwd]', 'detection_time = 100us', 'poll_interval = 50us',
                  'restoration_time = 200us',
                  'action = ' + r.choice(['drop', 'forward', 'alert'])]
    return '\n'.join(lines) + '\n'


def main():
    sim, count = sys.argv[1], int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    passed = failed = 0
    for seed in range(first, first + count):
        tmp = tempfile.mkdtemp(prefix='dcqcn-soak-%d-' % seed)
        ini = os.path.join(tmp, 'scenario.ini')
        with open(ini, 'w') as f:
            f.write(scenario(seed, tmp))
        runs = []
        for k in range(2):
            out = os.path.join(tmp, 'run%d' % k)
            p = subprocess.run([sim, 'run', ini, '-o', out, '--quiet'],
                               capture_output=True, text=True)
            runs.append((p.returncode, p.stderr.strip(), out))
        problem = next(('exit %d: %s' % (rc, err.splitlines()[-1] if err else '')
                        for rc, err, _ in runs if rc != 0), None)
        if not problem:
            names = sorted(n for n in os.listdir(runs[0][2]) if n.endswith('.csv')
                           and n != 'stats.csv')
            diff = [n for n in names
                    if not filecmp.cmp(os.path.join(runs[0][2], n),
                                       os.path.join(runs[1][2], n), shallow=False)]
            if diff:
                problem = 'two runs differ in ' + ', '.join(diff)
        if problem:
            failed += 1
            print('FAIL: seed %d: %s (scenario kept in %s)' % (seed, problem, tmp))
        else:
            passed += 1
            shutil.rmtree(tmp)
    print('soak: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
