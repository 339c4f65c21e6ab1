#!/usr/bin/env python3
"""test_nccltests.py SIM SRCROOT - `dcqcn-sim nccl-tests`, against nccl-tests.

- The table has nccl-tests' layout: one fixed-position parser (the column
  edges of the header's column-name line) reads a real all_reduce_perf
  output and ours; the three header lines are the real ones byte for byte,
  every field of every row ends where its column ends, in nccl-tests'
  number formats.
- On an 8-host leaf-spine at 100 Gbps, sizes 1M..4M: algbw = size / time and
  busbw = algbw x 2(n-1)/n (all-reduce) or x (n-1)/n (all-to-all) within
  the rounding of the printed digits; busbw below the wire's ceiling
  (host_link x mtu / (mtu + the per-packet overhead of models/core/pkt.h));
  times grow with the size; -j 2 prints the same bytes as -j 1, and --out
  the same table; DIR/nccl-tests.csv holds the table's numbers, and its
  times are the means of the job's iterations in DIR/SIZE/collectives.csv;
  the average is the mean busbw; without --out nothing is written.
- The scenario's own jobs and faults are named above the table; --alone
  leaves them out (the rows of the fabric without them, line numbers kept).
- A QP that runs out of retries: the rows say failed, no numbers, exit 5.
- Errors: -b above -e, a bad test name, a size too small for the ranks,
  and more: exit 2 and a message that names the option.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

# a real all_reduce_perf output (nccl-tests 2.13, 8 GPUs)
REAL = (
    "#                                                              out-of-place"
    "                       in-place          \n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong"
    "     time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)      "
    "      (us)  (GB/s)  (GB/s)       \n"
    "     1048576        262144     float     sum      -1    63.35   16.55   31.03      0"
    "    62.96   16.65   31.22      0\n"
    "# Out of bounds values : 0 OK\n"
    "# Avg bus bandwidth    : 130.748 \n")

FABRIC = """[sim]
duration = 50ms
[topology]
kind = leaf-spine
spines = 2
leaves = 2
hosts_per_leaf = 4
host_link = 100Gbps
fabric_link = 100Gbps
"""

# h0's cable fails for good at 20 us: the ring's QPs to h0 run out of retries
BROKEN = """[sim]
duration = 50ms
[topology]
kind = star
hosts = 8
host_link = 100Gbps
[nic]
rto = 100us
ib_retry_cnt = 1
[fault.cut]
kind = link-down
link = h0-sw0
start = 20us
"""

GPUS = 8
passed = failed = 0


def ok(cond, what, detail=''):
    global passed, failed
    if cond:
        passed += 1
        print('ok: ' + what)
    else:
        failed += 1
        print('FAIL: ' + what + (': ' + detail if detail else ''))
    return cond


def header_lines(text):
    """the three column header lines: the ones after a '#' line that name
    out-of-place, size and (B)"""
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if 'out-of-place' in line and i + 2 < len(lines):
            return lines[i:i + 3]
    return []


def column_ends(name_line):
    """where each column ends: the end of each name in the header's name
    line (the '#' is no column)"""
    return [m.end() for m in re.finditer(r'\S+', name_line)][1:]


def parse(text):
    """(header lines, rows, avg line): each row the fields cut at the
    column ends; a field must end at its column's end (right-aligned) and
    hold one token, so that a whitespace split would read the same"""
    head = header_lines(text)
    if len(head) != 3:
        return head, None, None
    ends = column_ends(head[1])
    rows, avg = [], None
    for line in text.split('\n'):
        if line.startswith('# Avg bus bandwidth'):
            avg = line
        if not line or line.startswith('#'):
            continue
        if len(line) != ends[-1]:
            return head, None, 'row of %d characters, not %d: %r' % (len(line), ends[-1], line)
        fields, start = [], 0
        for e in ends:
            f = line[start:e]
            if f[-1] == ' ' or len(f.split()) != 1 or (start and f[0] != ' '):
                return head, None, 'field %r not right-aligned in its column: %r' % (f, line)
            fields.append(f.strip())
            start = e
        if fields != line.split():
            return head, None, 'fixed positions and a whitespace split differ: %r' % line
        rows.append(fields)
    return head, rows, avg


def formats_ok(row):
    """nccl-tests' number formats: %12li %12li %8s %6s %6i, then per
    placement a time of 2, 1 or 0 decimals by its size, %6.2f twice, #wrong"""
    if not (row[0].isdigit() and row[1].isdigit() and row[4] == '-1'):
        return False
    for p in (5, 9):
        t = row[p]
        if not re.fullmatch(r'\d+(\.\d+)?', t):
            return False
        v = float(t)
        want = 0 if v >= 10000 else 1 if v >= 100 else 2
        decimals = len(t.split('.')[1]) if '.' in t else 0
        if decimals != want:
            return False
        if not all(re.fullmatch(r'\d+\.\d\d', x) for x in row[p + 1:p + 3]):
            return False
        if row[p + 3] not in ('0', 'N/A'):
            return False
    return True


def half_unit(t):
    """half of the last printed digit of a time"""
    return 0.5 * 10 ** -(len(t.split('.')[1]) if '.' in t else 0)


def run(sim, args, env=None, cwd=None):
    return subprocess.run([sim, 'nccl-tests'] + args, capture_output=True, text=True, env=env,
                          cwd=cwd)


def pkt_overhead(src):
    """PKT_ROCE_HDR_BYTES + PKT_WIRE_OVERHEAD_BYTES from models/core/pkt.h"""
    text = open(os.path.join(src, 'models', 'core', 'pkt.h')).read()
    get = lambda n: int(re.search(r'#define %s (\d+)' % n, text).group(1))  # noqa: E731
    return get('PKT_ROCE_HDR_BYTES') + get('PKT_WIRE_OVERHEAD_BYTES')


def check_rows(rows, factor, ceiling, label):
    """algbw = size / time, busbw = algbw x factor, within the printed
    digits; busbw below the ceiling; times grow with the size"""
    good = True
    for r in rows:
        size = int(r[0])
        for p in (5, 9):
            t, a, b = r[p], float(r[p + 1]), float(r[p + 2])
            h = half_unit(t)
            lo, hi = size / ((float(t) + h) * 1e3), size / ((float(t) - h) * 1e3)
            good &= ok(lo - 0.005 - 1e-9 <= a <= hi + 0.005 + 1e-9,
                       '%s %d: algbw %s = size / time %s' % (label, size, r[p + 1], t),
                       'want %.4f..%.4f' % (lo, hi))
            good &= ok((a - 0.005) * factor - 0.005 - 1e-9 <= b <= (a + 0.005) * factor + 0.005
                       + 1e-9, '%s %d: busbw %s = algbw x %.4f' % (label, size, r[p + 2], factor))
            good &= ok(b < ceiling, '%s %d: busbw %s below the wire ceiling %.3f GB/s' %
                       (label, size, r[p + 2], ceiling))
    for p in (5, 9):
        times = [float(r[p]) for r in rows]
        good &= ok(all(x < y for x, y in zip(times, times[1:])),
                   '%s: the %s time grows with the size' % (label, 'out-of-place' if p == 5
                                                              else 'in-place'), str(times))
    return good


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def job_times(run_dir):
    """time_us of each iteration of the nccl-tests job, in order"""
    rows = read_csv(os.path.join(run_dir, 'collectives.csv'))
    out = {}
    for r in rows:
        if r['job'] == 'nccl-tests' and r['status'] == 'done':
            out[int(r['iteration'])] = float(r['time_us'])
    return [out[k] for k in sorted(out)]


def check_csv(table_rows, csv_rows, label):
    """the CSV holds the table's numbers (more digits)"""
    good = ok(len(csv_rows) == len(table_rows), '%s: the CSV has a row per size' % label)
    cols = [('oop', 5), ('ip', 9)]
    for tr, cr in zip(table_rows, csv_rows):
        same = [cr['size_B'] == tr[0], cr['count'] == tr[1], cr['type'] == tr[2],
                cr['redop'] == tr[3], cr['root'] == tr[4]]
        for pre, p in cols:
            t = tr[p]
            same.append(abs(float(cr[pre + '_time_us']) - float(t)) <= half_unit(t) + 5e-4)
            same.append(abs(float(cr[pre + '_algbw_GBps']) - float(tr[p + 1])) <= 0.0051)
            same.append(abs(float(cr[pre + '_busbw_GBps']) - float(tr[p + 2])) <= 0.0051)
            same.append(cr[pre + '_wrong'] == tr[p + 3])
        good &= ok(all(same), '%s %s: the CSV row has the table\'s numbers' % (label, tr[0]),
                   '%s vs %s' % (cr, tr))
    return good


def main():
    sim, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix='dcqcn-nccltests-')
    try:
        return body(sim, src, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def body(sim, src, tmp):
    fabric = os.path.join(tmp, 'fabric.ini')
    with open(fabric, 'w') as f:
        f.write(FABRIC)
    broken = os.path.join(tmp, 'broken.ini')
    with open(broken, 'w') as f:
        f.write(BROKEN)
    # runs without --out write nothing: not in TMPDIR, not in the folder
    scratch, cwd = os.path.join(tmp, 'tmpdir'), os.path.join(tmp, 'cwd')
    os.makedirs(scratch)
    os.makedirs(cwd)
    env = dict(os.environ, TMPDIR=scratch)
    mtu = 4096
    ceiling = 100e9 / 8 / 1e9 * mtu / (mtu + pkt_overhead(src))

    # the parser against the real tool's output
    real_head, real_rows, real_avg = parse(REAL)
    ok(real_rows == [['1048576', '262144', 'float', 'sum', '-1', '63.35', '16.55', '31.03',
                      '0', '62.96', '16.65', '31.22', '0']],
       'the fixed-position parser reads the real all_reduce_perf row', str(real_avg))
    ok(real_avg == '# Avg bus bandwidth    : 130.748 ', 'and its average line')

    # all_reduce_perf, 1M..4M, on 8 hosts
    sizes = ['-b', '1M', '-e', '4M', '-f', '2']
    p1 = run(sim, ['all_reduce_perf', fabric] + sizes, env=env, cwd=cwd)
    ok(p1.returncode == 0, 'all_reduce_perf runs', p1.stderr)
    head, rows, avg = parse(p1.stdout)
    ok(head == real_head[:3], 'the three header lines are the real ones, byte for byte',
       '\n'.join(map(repr, head)))
    if not ok(rows is not None, 'every row has nccl-tests\' column positions', str(avg)):
        print(p1.stdout)
        return 1
    ok([r[0] for r in rows] == ['1048576', '2097152', '4194304'], 'sizes 1M, 2M, 4M (binary)')
    ok([r[1] for r in rows] == ['262144', '524288', '1048576'], 'count = size / 4')
    ok(all(r[2:5] == ['float', 'sum', '-1'] for r in rows), 'type float, redop sum, root -1')
    ok(all(formats_ok(r) for r in rows), 'nccl-tests\' number formats', str(rows))
    ok(all(r[8] == '0' and r[12] == '0' for r in rows), '#wrong is 0')
    check_rows(rows, 2 * (GPUS - 1) / GPUS, ceiling, 'all_reduce_perf')
    ok(os.listdir(scratch) == [] and os.listdir(cwd) == [],
       'without --out nothing is left on disk', str(os.listdir(scratch) + os.listdir(cwd)))
    ok(p1.stderr == '', 'nothing on stderr (not a terminal: no progress)', p1.stderr)

    p2 = run(sim, ['all_reduce_perf', fabric] + sizes + ['-j', '2'], env=env)
    ok(p2.returncode == 0 and p2.stdout == p1.stdout, '-j 2 prints the same bytes as -j 1')

    out = os.path.join(tmp, 'out')
    p3 = run(sim, ['all_reduce_perf', fabric] + sizes + ['--out', out])
    ok(p3.returncode == 0 and p3.stdout == p1.stdout, '--out prints the same table')
    csv_rows = read_csv(os.path.join(out, 'nccl-tests.csv'))
    check_csv(rows, csv_rows, 'all_reduce_perf')
    for cr in csv_rows:
        d = os.path.join(out, cr['size_B'])
        times = job_times(d) if os.path.exists(os.path.join(d, 'collectives.csv')) else []
        ok(len(times) == 3 and abs(times[1] - float(cr['oop_time_us'])) < 1e-9 and
           abs(times[2] - float(cr['ip_time_us'])) < 1e-9,
           'DIR/%s/collectives.csv: warm-up, then the out-of-place and in-place times'
           % cr['size_B'], str(times))
        a = float(cr['oop_algbw_GBps'])
        ok(abs(a - int(cr['size_B']) / float(cr['oop_time_us']) / 1e3) <= 6e-4,
           'CSV %s: algbw = size / time' % cr['size_B'])
    busbw = [float(cr[k]) for cr in csv_rows for k in ('oop_busbw_GBps', 'ip_busbw_GBps')]
    m = re.fullmatch(r'# Avg bus bandwidth    : (\S+) ', avg or '')
    ok(m is not None and abs(float(m.group(1)) - sum(busbw) / len(busbw)) <= 1e-3,
       'Avg bus bandwidth is the mean busbw of every row\'s two placements', str(avg))
    ok('# Out of bounds values : 0 OK' in p1.stdout.split('\n'), 'Out of bounds values: 0 OK')

    # all_to_all_perf: redop none, count per GPU, in-place unchecked; -n 2 -w 0
    out2 = os.path.join(tmp, 'a2a')
    p4 = run(sim, ['all_to_all_perf', fabric] + sizes + ['-n', '2', '-w', '0', '--out', out2])
    ok(p4.returncode == 0, 'all_to_all_perf runs', p4.stderr)
    head, rows, avg = parse(p4.stdout)
    if ok(rows is not None and head == real_head[:3],
          'all_to_all_perf: the real header, nccl-tests\' column positions', str(avg)):
        ok([r[1] for r in rows] == [str(int(r[0]) // 4 // GPUS) for r in rows],
           'all_to_all_perf: count = size / 4 / GPUs')
        ok(all(r[3] == 'none' and r[8] == '0' and r[12] == 'N/A' for r in rows),
           'all_to_all_perf: redop none, in-place #wrong N/A as nccl-tests prints it')
        ok(all(formats_ok(r) for r in rows), 'all_to_all_perf: nccl-tests\' number formats')
        check_rows(rows, (GPUS - 1) / GPUS, ceiling, 'all_to_all_perf')
        csv_rows = read_csv(os.path.join(out2, 'nccl-tests.csv'))
        check_csv(rows, csv_rows, 'all_to_all_perf')
        for cr in csv_rows:
            times = job_times(os.path.join(out2, cr['size_B']))
            ok(len(times) == 4 and
               abs(sum(times[:2]) / 2 - float(cr['oop_time_us'])) <= 1e-3 and
               abs(sum(times[2:]) / 2 - float(cr['ip_time_us'])) <= 1e-3,
               'all_to_all_perf -n 2 -w 0, %s: the times are the means of iterations 0-1 and '
               '2-3' % cr['size_B'], str(times))

    # 1 GB on 4 servers x 8 GPUs at 400G (scenarios/rail-optimized.ini alone): 8
    # channels, one per rail, so busbw sits under 8 NICs' wire ceiling, and each
    # rail's share under one NIC's 49.0 GB/s
    rail = os.path.join(src, 'scenarios', 'rail-optimized.ini')
    p6 = run(sim, ['all_reduce_perf', rail, '-b', '1G', '-e', '1G', '-w', '0', '--alone',
                   '--set', 'job.nccl-tests.channels=8', '--set', 'sim.duration=100ms'])
    ok(p6.returncode == 0, 'all_reduce_perf 1G on rail-optimized.ini runs', p6.stderr)
    head, rows, avg = parse(p6.stdout)
    if ok(rows is not None and len(rows) == 1, 'one row for 1G', p6.stdout):
        wire = 400e9 / 8 / 1e9 * mtu / (mtu + pkt_overhead(src))
        busbw = float(rows[0][7])
        ok(0.95 * 8 * wire < busbw < 8 * wire and busbw / 8 < wire,
           '1G on 4 x 8 GPUs: busbw %.2f GB/s under 8 x %.2f GB/s, %.2f per rail'
           % (busbw, wire, busbw / 8))

    # the scenario's own jobs and faults run beside the collective, named above the
    # table; --alone leaves them out: the rows are those of the fabric without them,
    # and an error after a left-out section keeps its line number
    busy = os.path.join(tmp, 'busy.ini')
    with open(busy, 'w') as f:
        f.write(FABRIC + '[job.bg]\npattern = incast\ndst = 0\nsenders = 4-7\nsize = 4MB\n'
                '[fault.slow]\nkind = link-down\nlink = h7-leaf1\nstart = 1ms\n'
                'duration = 1us\n')
    small = ['-b', '1M', '-e', '2M', '-f', '2']
    pb = run(sim, ['all_reduce_perf', busy] + small, env=env)
    pa = run(sim, ['all_reduce_perf', busy] + small + ['--alone'], env=env)
    pf = run(sim, ['all_reduce_perf', fabric] + small, env=env)
    ok(pb.returncode == 0 and
       '\n# in every run beside it, from the scenario (--alone leaves them out): job.bg, '
       'fault.slow\n' in pb.stdout,
       'the scenario\'s own jobs and faults are named above the table', pb.stdout[:400])
    ok('\n# in every run beside it' not in pf.stdout and '--alone' not in pf.stdout,
       'a scenario with no job or fault of its own: no such line', pf.stdout[:300])
    rows_b, rows_a, rows_f = (parse(p.stdout)[1] for p in (pb, pa, pf))
    ok(pa.returncode == 0 and '\n# --alone: the scenario\'s own jobs and faults are left out\n'
       in pa.stdout and rows_a == rows_f and rows_b != rows_f,
       '--alone: the rows of the fabric without the jobs and faults (with them: slower)',
       (rows_a, rows_f, rows_b))
    bad = os.path.join(tmp, 'busy-bad.ini')
    with open(bad, 'w') as f:
        f.write(FABRIC + '[job.bg]\npattern = incast\ndst = 0\nsize = 4MB\n[ecn]\nkmin = 7\n')
    pe = run(sim, ['all_reduce_perf', bad, '--alone'], env=env)
    ok(pe.returncode == 2 and 'busy-bad.ini:15: ecn.kmin' in pe.stderr,  # line 15 of the file
       '--alone: a message after a left-out section keeps its line', pe.stderr)
    pe = run(sim, ['all_reduce_perf', busy, '--alone', '--set', 'job.bg.size=1MB'], env=env)
    ok(pe.returncode == 2 and "--set job.bg.size=1MB: --alone leaves the scenario's jobs" in
       pe.stderr, '--alone: a --set of a left-out job is refused', pe.stderr)

    # a QP out of retries: marked rows, no numbers, exit 5
    p5 = run(sim, ['all_reduce_perf', broken, '-b', '1M', '-e', '1M'], env=env)
    ok(p5.returncode == 5, 'a failed iteration: exit 5', '%d %s' % (p5.returncode, p5.stderr))
    head, rows, avg = parse(p5.stdout)
    ok(rows is not None and len(rows) == 1 and rows[0][5] == 'failed' and rows[0][9] == 'failed'
       and rows[0][6] == 'N/A' and rows[0][11] == 'N/A',
       'a failed iteration: the row says failed and has no numbers', p5.stdout)
    ok('ran out of retries' in p5.stdout and avg is not None and 'N/A' in avg,
       'a failed iteration: a comment says why, no average', p5.stdout)

    # errors: exit 2 and a message naming the option
    errors = [
        (['all_reduce_perf', fabric, '-b', '4M', '-e', '1M'], '-e: 1048576 is below -b (4194304)'),
        (['allreduce_perf', fabric], 'allreduce_perf is not a test; did you mean all_reduce_perf?'),
        (['broadcast_perf', fabric], 'broadcast_perf is not a test (all_reduce_perf or '
                                     'all_to_all_perf)'),
        (['all_reduce_perf', fabric, '-b', '4', '-e', '4'],
         'size 4: job.nccl-tests.size: 4B is below ranks x channels (8 x 1 = 8 B)'),
        (['all_to_all_perf', fabric, '-b', '64', '-e', '64'], 'size 64: all_to_all_perf sends'),
        (['all_reduce_perf', fabric, '-b', '0'], '-b: 0 is not a size (e.g. 1M'),
        (['all_reduce_perf', fabric, '-b', '1MB'], '-b: 1MB is not a size'),
        (['all_reduce_perf', fabric, '-f', '1'], '-f: 1: a step factor, 2-1024'),
        (['all_reduce_perf', fabric, '-g', '9'], '-g: 9 GPUs: the scenario has 8 hosts (2-8)'),
        (['all_reduce_perf', fabric, '-n', '0'], '-n: 0: timed iterations per placement, 1-1000'),
        (['all_reduce_perf', fabric, '--set', 'job.nccl-tests.size=1MB'],
         '--set job.nccl-tests.size: given by -b'),
        (['all_reduce_perf', fabric, '-b', '1M', '--set', 'job.nccl-tests.chanels=2'],
         'did you mean job.nccl-tests.channels?'),
        ([], 'nccl-tests needs a test'),
    ]
    dup = os.path.join(tmp, 'dup.ini')
    with open(dup, 'w') as f:
        f.write(FABRIC + '[job.nccl-tests]\npattern = alltoall\nsize = 1MB\n')
    errors.append((['all_reduce_perf', dup], 'dup.ini:10: [job.nccl-tests]: nccl-tests adds a job'))
    for args, msg in errors:
        p = run(sim, args, env=env)
        ok(p.returncode == 2 and msg in p.stderr and p.stdout == '',
           'error %s: exit 2, "%s"' % (' '.join(args[:1] + args[2:]), msg),
           '%d %r' % (p.returncode, p.stderr))

    # the help
    p = subprocess.run([sim, 'nccl-tests', '--help'], capture_output=True, text=True)
    ok(p.returncode == 0 and p.stdout.startswith('usage: dcqcn-sim nccl-tests') and
       ' -b SIZE ' in p.stdout and p.stderr == '', 'nccl-tests --help prints its usage')
    p = subprocess.run([sim, '--help'], capture_output=True, text=True)
    ok(p.returncode == 0 and '  dcqcn-sim nccl-tests all_reduce_perf|all_to_all_perf' in p.stdout,
       'dcqcn-sim --help lists nccl-tests')
    ok(os.listdir(scratch) == [], 'no run left a temporary directory behind',
       str(os.listdir(scratch)))
    print('nccltests: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
