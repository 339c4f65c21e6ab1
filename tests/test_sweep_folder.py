#!/usr/bin/env python3
"""test_sweep_folder.py DCQCN_SIM SOURCE_ROOT - a sweep's results belong to
its inputs.

  - DIR/sweep-identity.txt records what the sweep is; --resume with other
    --vary values, another --set or an edited scenario is refused (exit 2)
    saying what differs, and the finished points are left as they were; the
    same sweep resumes; without --resume the sweep starts over
  - --resume of a folder with points and no identity (an older version's) is
    refused; of a shard whose description is of another sweep too
  - the scenario is read once: a pipe gives every point the same scenario,
    an edit while the sweep runs changes none of its points
  - DIR/.lock: a second sweep into a folder in use is refused with the
    holder's pid and host; a dead holder's lock is taken over with a note;
    no lock is left behind
  - --merge checks each point's summary.csv, the shard descriptions' run
    lines and the folder's sweep-identity.txt
  - a point that fails names itself, its error.txt and the reason; a
    successful --resume leaves no stale error.txt
Prints one line per check; exit 1 when any fails.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile

from pycheck import FAILED, check

SIM = sys.argv[1]

STAR = """[topology]
kind = star
hosts = 3
host_link = 100Gbps
[job.incast]
pattern = incast
dst = 0
size = 200KB
"""


def sim(*args, **kw):
    r = subprocess.run([SIM] + list(args), capture_output=True, text=True, **kw)
    return r.returncode, r.stdout, r.stderr


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def identity(tmp, scn):
    out = os.path.join(tmp, 'id')
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '-q')
    check(rc == 0, 'a sweep runs', err)
    text = read(os.path.join(out, 'sweep-identity.txt'))
    check('vary = ecn.kmin=50KB,100KB\n' in text and 'scenario_fnv1a = ' in text and
          'points = 2\n' in text, 'sweep-identity.txt records the sweep', text)
    check(not os.path.exists(os.path.join(out, '.lock')), 'no lock left behind')
    csv = read(os.path.join(out, 'sweep.csv'))
    summary = read(os.path.join(out, 'p000', 'summary.csv'))
    for what, args in (('other --vary values', ['--vary', 'ecn.kmin=300KB,100KB']),
                       ('another --set', ['--vary', 'ecn.kmin=50KB,100KB',
                                          '--set', 'sim.seed=9']),
                       ('--repeat', ['--vary', 'ecn.kmin=50KB,100KB', '--repeat', '2'])):
        rc, _, err = sim('sweep', scn, *args, '-o', out, '-q', '--resume')
        check(rc == 2 and 'holds another sweep' in err and 'differ' in err,
              '--resume with ' + what + ': refused, saying what differs', (rc, err))
    edited = os.path.join(tmp, 'edited.ini')
    write(edited, STAR.replace('size = 200KB', 'size = 300KB'))
    rc, _, err = sim('sweep', edited, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '-q',
                     '--resume')
    check(rc == 2 and 'the scenario text differs' in err,
          '--resume of an edited scenario: refused', (rc, err))
    check(read(os.path.join(out, 'sweep.csv')) == csv and
          read(os.path.join(out, 'p000', 'summary.csv')) == summary,
          'a refused --resume leaves the results as they were')
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '-q',
                     '--resume')
    check(rc == 0 and read(os.path.join(out, 'sweep.csv')) == csv,
          'the same sweep resumes', (rc, err))
    rc, outp, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '--resume',
                        '--set', 'nic.ccc=x')
    check(rc == 2 and 'did you mean nic.cc' in err and 'sweep results' not in outp,
          'a refused sweep shows the error, not the folder\'s earlier table', (rc, outp, err))
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=300KB', '-o', out, '-q')
    check(rc == 0 and '300KB' in read(os.path.join(out, 'sweep.csv')) and
          '300KB' in read(os.path.join(out, 'sweep-identity.txt')),
          'without --resume another sweep starts over in the folder', (rc, err))


def old_folder(tmp, scn):
    out = os.path.join(tmp, 'old')
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '-q')
    os.remove(os.path.join(out, 'sweep-identity.txt'))  # as an older version left it
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,300KB', '-o', out, '-q', '--resume')
    check(rc == 2 and 'no sweep-identity.txt' in err and 'leave out --resume' in err and
          '50KB' in read(os.path.join(out, 'sweep.csv')),
          '--resume of a folder with points but no identity: refused, its results kept',
          (rc, err))
    fresh = os.path.join(tmp, 'fresh')
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', fresh, '-q',
                     '--resume')
    check(rc == 0, '--resume into a new folder starts the sweep', err)


def shard_resume(tmp, scn):
    out = os.path.join(tmp, 'sh')
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '--shard', '0/2',
                     '-o', out, '-q')
    check(rc == 0, 'shard 0/2 runs', err)
    os.remove(os.path.join(out, 'sweep-identity.txt'))  # as an older version left it
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,300KB', '--shard', '0/2',
                     '-o', out, '-q', '--resume')
    check(rc == 2 and 'describes another sweep' in err and 'shard-0-of-2.txt' in err,
          '--resume of a shard of another sweep: refused', (rc, err))
    desc = read(os.path.join(out, 'shard-0-of-2.txt'))
    check('300KB' not in desc, 'the refused shard keeps its description', desc)


def pipe(tmp):
    out = os.path.join(tmp, 'pipe')
    r, w = os.pipe()
    os.write(w, STAR.encode())
    os.close(w)
    rc, _, err = sim('sweep', '/dev/fd/%d' % r, '--vary', 'ecn.kmin=50KB,100KB,150KB',
                     '-o', out, '-q', pass_fds=(r,))
    os.close(r)
    check(rc == 0, 'a sweep of a scenario from a pipe runs', err)
    for p in range(3):
        ini = read(os.path.join(out, 'p%03d' % p, 'scenario.ini'))
        check('hosts = 3' in ini and 'job.incast' in ini,
              'point %d of a piped scenario has the pipe\'s scenario' % p)


SLOW = """[topology]
kind = leaf-spine
spines = 2
leaves = 4
hosts_per_leaf = 8
host_link = 100Gbps
fabric_link = 100Gbps
[job.perm]
pattern = permutation
size = 40MB
"""


def edited_meanwhile(tmp):
    """the scenario edited while the sweep runs (after its first point):
    the later points keep the text the sweep started with"""
    scn = os.path.join(tmp, 'slow.ini')
    out = os.path.join(tmp, 'edit')
    write(scn, SLOW)
    proc = subprocess.Popen([SIM, 'sweep', scn, '--vary', 'ecn.kmin=50KB,100KB,150KB', '-o',
                             out, '--set', 'sim.threads=1'], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        if 'point 0 ' in line:
            write(scn, SLOW.replace('size = 40MB', 'size = 1MB'))
            # the sweep still runs (two points to go): its folder is taken
            rc2, _, err2 = sim('sweep', scn, '--vary', 'ecn.kmin=50KB', '-o', out, '-q')
            check(rc2 == 2 and 'pid %d on host %s' % (proc.pid, socket.gethostname()) in err2,
                  'a second sweep into a running one\'s folder: refused with its pid',
                  (rc2, err2))
            break
    proc.stderr.read()
    rc = proc.wait()
    check(rc == 0, 'a sweep whose scenario is edited meanwhile ends', rc)
    for p in range(3):
        ini = read(os.path.join(out, 'p%03d' % p, 'scenario.ini'))
        check('size = 40MB' in ini and 'size = 1MB' not in ini,
              'point %d keeps the scenario the sweep started with' % p)


def lock(tmp, scn):
    out = os.path.join(tmp, 'lk')
    os.makedirs(out)
    host = socket.gethostname()
    write(os.path.join(out, '.lock'), 'pid %d host %s\n' % (os.getpid(), host))
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB', '-o', out, '-q')
    check(rc == 2 and 'in use by another sweep' in err and 'pid %d' % os.getpid() in err and
          host in err, 'a folder in use: refused with the pid and host', (rc, err))
    check(not os.path.exists(os.path.join(out, 'p000')), 'the refused sweep ran nothing')
    dead = subprocess.Popen(['true'])
    dead.wait()
    write(os.path.join(out, '.lock'), 'pid %d host %s\n' % (dead.pid, host))
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB', '-o', out, '-q')
    check(rc == 0 and 'taking over the lock' in err and str(dead.pid) in err,
          'a dead sweep\'s lock is taken over with a note', (rc, err))
    check(not os.path.exists(os.path.join(out, '.lock')), 'the lock is removed at the end')


def merge(tmp, scn):
    out = os.path.join(tmp, 'mg')
    for i in range(2):
        rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB,150KB', '--shard',
                         '%d/2' % i, '-o', out, '-q')
        check(rc == 0, 'shard %d/2 runs' % i, err)
    rc, _, err = sim('sweep', '--merge', out, '-q')
    check(rc == 0, 'the shards merge', err)
    summary = os.path.join(out, 'p001', 'summary.csv')
    good = read(summary)
    lines = good.split('\n')

    def broken(what, damage, words):
        damage()
        rc, _, err = sim('sweep', '--merge', out, '-q')
        check(rc == 2 and 'point 1 (ecn.kmin=100KB)' in err and words in err,
              '--merge of a summary.csv ' + what + ': refused, naming the point', (rc, err))
        if os.path.isdir(summary):
            os.rmdir(summary)
        write(summary, good)

    broken('missing', lambda: os.remove(summary), 'missing')
    broken('empty', lambda: write(summary, ''), 'empty')
    broken('truncated', lambda: write(summary, good[:len(good) - 20]), 'truncated')
    broken('that is a folder', lambda: (os.remove(summary), os.mkdir(summary)),
           'not a regular file')
    broken('of random bytes', lambda: write(summary, lines[0] + '\n' +
                                            lines[1].replace(',', ',\x07', 1) + '\n'),
           'not text')
    broken('with an extra column', lambda: write(summary, lines[0] + '\n' + lines[1] +
                                                 ',7\n'), 'columns')
    desc = os.path.join(out, 'shard-1-of-2.txt')
    text = read(desc)
    for what, extra, words in (('a duplicate', 'run = 1 0\n', 'given twice'),
                               ('an out-of-range', 'run = 99 0\n', 'no such run'),
                               ('another shard\'s', 'run = 0 0\n', 'another shard')):
        write(desc, text + extra)
        rc, _, err = sim('sweep', '--merge', out, '-q')
        check(rc == 2 and words in err and 'shard-1-of-2.txt' in err,
              '--merge of %s run line: refused' % what, (rc, err))
    write(desc, text)
    rc, _, err = sim('sweep', '--merge', out, '-q')
    check(rc == 0, 'the repaired shards merge again', err)
    ident = os.path.join(out, 'sweep-identity.txt')
    good_id = read(ident)
    write(ident, good_id.replace('150KB', '300KB'))
    rc, _, err = sim('sweep', '--merge', out, '-q')
    check(rc == 2 and 'holds another sweep' in err and 'the --vary axes differ' in err,
          '--merge of shards whose folder records another sweep: refused', (rc, err))
    write(ident, good_id)


def failure(tmp, scn):
    out = os.path.join(tmp, 'fail')
    os.makedirs(os.path.join(out, 'p001'))
    os.mkdir(os.path.join(out, 'p001', 'summary.csv'))  # the run cannot write it
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '-q')
    check(rc == 2 and 'point 1 (ecn.kmin=100KB) failed: ' in err and
          os.path.join(out, 'p001', 'error.txt') in err and 'summary.csv' in err,
          'a failed point: its number, its error.txt and the reason', (rc, err))
    check(os.path.getsize(os.path.join(out, 'p001', 'error.txt')) > 0,
          'the failed point\'s error.txt holds the reason')
    os.rmdir(os.path.join(out, 'p001', 'summary.csv'))
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB,100KB', '-o', out, '-q',
                     '--resume')
    check(rc == 0 and not os.path.exists(os.path.join(out, 'p001', 'error.txt')),
          'a successful --resume leaves no stale error.txt', (rc, err))
    deep = os.path.join(tmp, 'd' * 200, 'e' * 200, 'f' * 200)  # > 512 bytes
    os.makedirs(os.path.join(deep, 'p000', 'summary.csv'))
    rc, _, err = sim('sweep', scn, '--vary', 'ecn.kmin=50KB', '-o', deep, '-q')
    check(rc == 2 and os.path.join(deep, 'p000', 'summary.csv') + ': Is a directory' in err,
          'a message about a long output path names it whole, with the reason', (rc, err))


def main():
    tmp = tempfile.mkdtemp(prefix='dcqcn-sweep-folder-')
    try:
        scn = os.path.join(tmp, 'star.ini')
        write(scn, STAR)
        identity(tmp, scn)
        old_folder(tmp, scn)
        shard_resume(tmp, scn)
        pipe(tmp)
        edited_meanwhile(tmp)
        lock(tmp, scn)
        merge(tmp, scn)
        failure(tmp, scn)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILED:
        print('%d check(s) failed' % len(FAILED))
        return 1
    print('all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
