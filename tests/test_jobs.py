#!/usr/bin/env python3
"""test_jobs.py DCQCN_SIM SOURCE_ROOT - what a run counts per job and per path.

  - flows.csv's path: nvlink exactly for the messages between two GPUs of one
    server (topology.gpus_per_server), network for the others
  - summary.csv's fct_network_* and fct_nvlink_* are the nearest-rank
    percentiles of flows.csv's completed messages of that path, and fct_* of
    all of them (to the histogram's precision, 1/65536)
  - jobs.csv: a row per job; messages and bytes completed are flows.csv's;
    on a lossless fabric network_delivered_bytes is the network messages'
    bytes; goodput = bytes completed x 8 / (last end - first start); an
    incast into one host of a star: every number a closed form
  - events.csv: the events by kind add up to stats.csv's events
Prints one line per check; exit 1 when any fails.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

from pycheck import check, finish, star_incast

SIM = sys.argv[1]
ROOT = sys.argv[2]

# 2 servers of 4 GPUs on one leaf: a ring all-reduce crosses NVLink inside a
# server and the network between them; an incast of 3 x 1 MB beside it
SERVERS = """[sim]
duration = 20ms
[topology]
kind = leaf-spine
spines = 1
leaves = 1
hosts_per_leaf = 8
gpus_per_server = 4
host_link = 100Gbps
fabric_link = 100Gbps
[job.ring]
pattern = ring-allreduce
ranks = 0-7
size = 8MB
iterations = 2
[job.fan]
pattern = incast
dst = 0
senders = 5-7
size = 1MB
"""

STAR = star_incast('2MB', '[nic]\ncc = none\n')


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def nearest_rank(values, pct):
    v = sorted(values)
    return v[max(0, math.ceil(pct / 100 * len(v)) - 1)] if v else None


def close(a, b):
    """b (a percentile from flows.csv, us) within the histogram's bucket of a"""
    return a == '' and b is None or (a != '' and b is not None and
                                      abs(float(a) - b) <= b / 65536 + 0.0011)


def run(tmp, name, text):
    scn, out = os.path.join(tmp, name + '.ini'), os.path.join(tmp, name)
    with open(scn, 'w') as f:
        f.write(text)
    r = subprocess.run([SIM, 'run', scn, '-o', out, '-q'], capture_output=True, text=True)
    check(r.returncode == 0, name + ': runs', r.stderr[-400:])
    return out


def servers(tmp):
    out = run(tmp, 'servers', SERVERS)
    flows = rows(os.path.join(out, 'flows.csv'))
    same = lambda f: int(f['src'][1:]) // 4 == int(f['dst'][1:]) // 4
    check(all((f['path'] == 'nvlink') == same(f) for f in flows) and
          {f['path'] for f in flows} == {'nvlink', 'network'},
          'flows.csv: path is nvlink exactly between GPUs of one server',
          {(f['src'], f['dst'], f['path']) for f in flows if (f['path'] == 'nvlink') != same(f)})
    done = [f for f in flows if f['end_us']]
    s = rows(os.path.join(out, 'summary.csv'))[0]
    for col, sel in (('fct', lambda f: True), ('fct_network', lambda f: f['path'] == 'network'),
                     ('fct_nvlink', lambda f: f['path'] == 'nvlink')):
        fct = [float(f['fct_us']) for f in done if sel(f)]
        for p in (50, 99):
            check(close(s['%s_p%d_us' % (col, p)], nearest_rank(fct, p)),
                  'summary.csv %s_p%d_us is flows.csv\'s nearest rank' % (col, p),
                  (s['%s_p%d_us' % (col, p)], nearest_rank(fct, p)))
    check(float(s['fct_nvlink_p99_us']) < float(s['fct_network_p50_us']),
          'the NVLink messages finish far sooner than the network ones', s)
    jobs = {j['job']: j for j in rows(os.path.join(out, 'jobs.csv'))}
    check(list(jobs) == ['ring', 'fan'], 'jobs.csv: a row per job, in the scenario\'s order',
          list(jobs))
    for name, j in jobs.items():
        mine = [f for f in done if f['job'] == name]
        net = sum(int(f['bytes']) for f in mine if f['path'] == 'network')
        total = sum(int(f['bytes']) for f in mine)
        first = min(float(f['start_us']) for f in mine)
        last = max(float(f['end_us']) for f in mine)
        check(int(j['messages_completed']) == len(mine) and int(j['bytes_completed']) == total,
              '%s: messages and bytes completed are flows.csv\'s' % name, j)
        check(int(j['network_delivered_bytes']) == net and j['drops'] == '0' and
              j['retransmitted_bytes'] == '0',
              '%s: lossless: the network delivered the network messages\' bytes, once' % name,
              (j['network_delivered_bytes'], net))
        check(abs(float(j['first_start_us']) - first) < 1e-3 and
              abs(float(j['last_end_us']) - last) < 1e-3 and
              abs(float(j['goodput_Gbps']) - total * 8 / (last - first) / 1e3) < 1e-3 * max(
                  1, float(j['goodput_Gbps'])),
              '%s: goodput = bytes x 8 / (last end - first start)' % name, j)
        for p in (50, 99):
            fct = [float(f['fct_us']) for f in mine]
            check(close(j['fct_p%d_us' % p], nearest_rank(fct, p)),
                  '%s: fct_p%d_us is its messages\' nearest rank' % (name, p))
    ev = rows(os.path.join(out, 'events.csv'))
    st = rows(os.path.join(out, 'stats.csv'))[0]
    check(sum(int(e['events']) for e in ev) == int(st['events']) and
          all(abs(float(e['per_data_pkt']) - int(e['events']) / int(st['data_pkts'])) < 1e-3
              for e in ev) and {'port.tx', 'port.link', 'nic.tx', 'qp.pace'} <= {e['kind'] for e in ev},
          'events.csv: the kinds add up to stats.csv\'s events, per data packet', ev)
    check(jobs['fan']['fct_nvlink_p50_us'] == '' and jobs['ring']['fct_nvlink_p50_us'] != '',
          'an incast across servers has no NVLink message; the ring has', jobs)


def star(tmp):
    """3 x 2 MB into one 100G port with PFC alone (no rate cuts): the
    receiver's link is the bottleneck and stays busy, so the job's goodput is
    the line's goodput ceiling, x mtu/(mtu+82), less the start-up"""
    out = run(tmp, 'star', STAR)
    j = rows(os.path.join(out, 'jobs.csv'))[0]
    check((j['job'], j['pattern'], j['messages_completed'], j['bytes_completed'],
           j['network_delivered_bytes'], j['drops'], j['fct_nvlink_p99_us']) ==
          ('in', 'incast', '3', '6000000', '6000000', '0', ''),
          'star: 3 messages of 2 MB, all over the network, none dropped', j)
    ceiling = 100 * 4096 / (4096 + 82)
    check(0.9 * ceiling < float(j['goodput_Gbps']) <= ceiling,
          'star: the incast\'s goodput is within 10 %% of the port\'s ceiling %.2f Gbps' % ceiling,
          j['goodput_Gbps'])


def main():
    with tempfile.TemporaryDirectory(prefix='dcqcn-jobs-') as tmp:
        servers(tmp)
        star(tmp)
    finish('jobs')


if __name__ == '__main__':
    main()
