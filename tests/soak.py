#!/usr/bin/env python3
"""soak.py SIM COUNT [FIRST_SEED] - random scenarios as a property test.

Each seed makes a small random scenario (topology, GPU servers or rails,
buffer, PFC on or off, ECN/DCQCN profile or none, scheduler, 1-3 jobs of
every pattern including traces with dependencies, trees and QPs per
connection, a fault, a watchdog action) and runs it twice.  A stream of its
own (variant) then picks the fabric (RoCE, or the same scenario run with
--fabric infiniband or --fabric ethernet-tcp, each a fifth of the seeds)
and rewires a third of the stars as a links file (topology.kind = file: a
ring or line of switches with the hosts spread over them); the scenarios
scripts/compare-outputs.py takes (scenario()) stay as they are.
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


def variant(seed, text, tmp):
    """the soak's own variant of seed's scenario: (text, extra run options)"""
    v = random.Random(seed * 104729 + 3)
    fabric = v.choice([None, None, None, 'infiniband', 'ethernet-tcp'])
    extra = ['--fabric', fabric] if fabric else []
    lines = text.splitlines()
    links = 'kind = star' in lines and v.random() < 1 / 3
    # no pause frames on those fabrics, no link-down fault on a links file yet
    if ((fabric and 'kind = pause-storm' in lines) or
            (links and 'kind = link-down' in lines)):
        at = lines.index('[fault.f]')
        end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith('[')),
                   len(lines))
        lines = lines[:at] + lines[end:]
        text = '\n'.join(lines) + '\n'

    if not links:
        return text, extra
    hosts = int(next(ln for ln in lines if ln.startswith('hosts = ')).split()[-1])
    rate = next(ln for ln in lines if ln.startswith('host_link = ')).split()[-1]
    m = v.randint(1, max(1, min(4, hosts // 2)))  # every switch holds 2 hosts or more
    rows = ['a,b,rate,cable']
    cable = v.choice([1, 3])  # one rate and cable for every host link
    rows += ['h%d,sw%d,%s,%dm' % (h, (h // 2) % m, rate, cable) for h in range(hosts)]
    fabric_rate = v.choice(['100Gbps', '400Gbps'])  # and one for the switches'
    rows += ['sw%d,sw%d,%s,10m' % (i, (i + 1) % m, fabric_rate)
             for i in range(m if m > 2 else m - 1)]
    with open(os.path.join(tmp, 'links.csv'), 'w') as f:
        f.write('\n'.join(rows) + '\n')
    drop = ('hosts = ', 'host_link = ', 'fabric_link = ', 'host_cable = ')
    out = []
    for ln in lines:
        if ln == 'kind = star':
            out += ['kind = file', 'file = links.csv']
        elif not ln.startswith(drop):
            out.append(ln)
    return '\n'.join(out) + '\n', extra


def main():
    sim, count = sys.argv[1], int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    passed = failed = 0
    for seed in range(first, first + count):
        tmp = tempfile.mkdtemp(prefix='dcqcn-soak-%d-' % seed)
        ini = os.path.join(tmp, 'scenario.ini')
        text, extra = variant(seed, scenario(seed, tmp), tmp)
        with open(ini, 'w') as f:
            f.write(text)
        runs = []
        for k in range(2):
            out = os.path.join(tmp, 'run%d' % k)
            p = subprocess.run([sim, 'run', ini, '-o', out, '--quiet'] + extra,
                               capture_output=True, text=True)
            runs.append((p.returncode, p.stderr.strip(), out))
        problem = next(('exit %d: %s' % (rc, err.splitlines()[-1] if err else '')
                        for rc, err, _ in runs if rc != 0), None)
        if not problem:
            names = sorted(n for n in os.listdir(runs[0][2]) if n.endswith('.csv')
                           and n not in ('stats.csv', 'events.csv'))
            diff = [n for n in names
                    if not filecmp.cmp(os.path.join(runs[0][2], n),
                                       os.path.join(runs[1][2], n), shallow=False)]
            if diff:
                problem = 'two runs differ in ' + ', '.join(diff)
        if problem:
            failed += 1
            print('FAIL: seed %d%s: %s (scenario kept in %s)' % (
                seed, ' ' + ' '.join(extra) if extra else '', problem, tmp))
        else:
            passed += 1
            shutil.rmtree(tmp)
    print('soak: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
