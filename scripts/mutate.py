#!/usr/bin/env python3
"""mutate.py [--all] [--only ID,...] [--keep DIR] - does the test suite notice a
wrong model?

Copies the committed tree (git ls-files) to a scratch folder, builds it, and for
each mutation below: changes one expression of a model (a factor in DCQCN's
cut, its fast recovery, additive and hyper increase, TCP's backoff, WRED's
slope, the PFC threshold and headroom, the fluid model's increase), rebuilds, runs the suites that should notice (every suite with
--all), and puts it back.  A mutation the suites fail on is "killed"; one they
pass is a "survivor": a claim of the model that no test holds.  Prints one
line per mutation and the suites that killed it; exits 1 when one survives
(or a mutation no longer applies: its expression moved, so this list needs
updating), 2 when the unmutated suites fail.

Run it before resolving model work (docs/testing.md#mutations); on two cores
it takes about a minute per mutation.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (id, file, the expression, its mutation, what it breaks, suites that should notice)
MUTATIONS = [
    ('dcqcn-cut', 'models/core/dcqcn.c',
     'double d = ldexp(q->rc_bps * q->alpha, 10 - (int)p->gd);',
     'double d = ldexp(q->rc_bps * q->alpha, 9 - (int)p->gd);',
     "DCQCN's cut twice as deep (Rc alpha / 2^(gd-10) -> 2^(gd-9))",
     ['dcqcn', 'cc', 'scenario-cc', 'validation']),
    ('dcqcn-fast-recovery', 'models/core/dcqcn.c',
     'q->rc_bps = (q->rc_bps + q->rt_bps) / 2;',
     'q->rc_bps = (3 * q->rc_bps + q->rt_bps) / 4;',
     "DCQCN's increase closes a quarter of the gap to Rt, not half (Rc = (Rt + Rc)/2)",
     ['dcqcn', 'validation']),
    ('dcqcn-additive', 'models/core/dcqcn.c',
     'q->rt_bps += p->ai_bps;',
     'q->rt_bps += 2 * p->ai_bps;',
     "DCQCN's additive increase twice R_AI",
     ['dcqcn', 'validation']),
    ('dcqcn-hyper', 'models/core/dcqcn.c',
     ': p->hai_bps;',
     ': 2 * p->hai_bps;',
     "NVIDIA's hyper increase twice R_HAI",
     ['dcqcn', 'validation']),
    ('tcp-backoff', 'models/node/tcp.c',
     't->rto = t->rto * 2 < TCP_RTO_MAX_PS ? t->rto * 2 : TCP_RTO_MAX_PS;',
     't->rto = t->rto < TCP_RTO_MAX_PS ? t->rto : TCP_RTO_MAX_PS;',
     "TCP's RTO no longer doubles on a timeout (RFC 6298 5.5)",
     ['tcp']),
    ('wred-slope', 'models/core/wred.h',
     '? w->pmax_q32 * above / range',
     '? w->pmax_q32 * above / range / 2',
     "WRED's marking probability half its slope",
     ['mmu', 'pfc', 'dcqcn', 'cc', 'teaching', 'validation']),
    ('pfc-threshold', 'models/core/mmu.c',
     '(pg->shared > 0 && pg->shared >= mmu_threshold(p, pool, p->dynamic_th));',
     '(pg->shared > 0 && pg->shared >= 2 * mmu_threshold(p, pool, p->dynamic_th));',
     'XOFF at twice the dynamic threshold',
     ['mmu', 'pfc', 'teaching', 'validation']),
    ('pfc-headroom', 'models/core/pfc.c',
     't.total = 3 * t.wire + t.cable + t.response;',
     't.total = 2 * t.wire + t.cable + t.response;',
     'PFC headroom without the frame the peer has started (3 wire frames -> 2)',
     ['pfc', 'validation']),
    ('fluid-increase', 'models/core/fluid.c',
     'out[1] = -(rt - rc) * a + P->ai_pps * evf;',
     'out[1] = -(rt - rc) * a + 1.3 * P->ai_pps * evf;',
     "the fluid model's additive increase 1.3 times larger (the integrator)",
     ['fluid', 'validation']),
    ('fluid-fixed-point', 'models/core/fluid.c',
     '- P->ai_pps * ev * evf;',
     '- 1.3 * P->ai_pps * ev * evf;',
     "the fluid fixed point's increase term 1.3 times larger (the solver)",
     ['fluid', 'validation']),
]

def run(cmd, cwd, quiet=True):
    return subprocess.run(cmd, cwd=cwd, capture_output=quiet, text=True)


def suites_failed(build, suites):
    """the suites of the list that fail (all of meson's when suites is None;
    those of the list this build does not have are left out)"""
    cmd = ['meson', 'test', '-C', build, '--num-processes', '2', '--print-errorlogs']
    if suites is not None:
        r = run(['meson', 'test', '-C', build, '--list'], cwd=os.path.dirname(build))
        have = set(r.stdout.split())
        suites = [s for s in suites if s in have]
    r = run(cmd + (suites or []), cwd=os.path.dirname(build))
    if r.returncode == 0:
        return []
    failed = []
    for line in r.stdout.splitlines():
        parts = line.split()
        if (len(parts) >= 3 and '/' in parts[0] and parts[2] in ('FAIL', 'ERROR', 'TIMEOUT')
                and parts[1] not in failed):
            failed.append(parts[1])
    return failed or ['(build or meson)']


def main():
    args = sys.argv[1:]
    if '--help' in args or '-h' in args:
        print(__doc__.strip())
        return 0
    unknown = [a for a in args if a.startswith('-') and a not in ('--all', '--only', '--keep')]
    if unknown:
        print('mutate.py: unknown option %s (see --help)' % unknown[0], file=sys.stderr)
        return 2
    every = '--all' in args
    only = None
    keep = None
    if '--only' in args:
        only = set(args[args.index('--only') + 1].split(','))
    if '--keep' in args:
        keep = args[args.index('--keep') + 1]
    tmp = keep or tempfile.mkdtemp(prefix='dcqcn-mutate-')
    files = run(['git', 'ls-files'], ROOT).stdout.split()
    for f in files:
        src, dst = os.path.join(ROOT, f), os.path.join(tmp, f)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    build = os.path.join(tmp, 'build')
    if not os.path.isdir(build):
        r = run(['meson', 'setup', build, '-Dtests=enabled'], tmp)
        if r.returncode:
            print(r.stdout + r.stderr)
            return 2
    print('mutate: the unmutated suites first', flush=True)
    base = suites_failed(build, None)
    if base:
        print('mutate: the suites fail without a mutation: ' + ', '.join(base))
        return 2
    survivors = 0
    for mid, path, old, new, what, suites in MUTATIONS:
        if only and mid not in only:
            continue
        full = os.path.join(tmp, path)
        with open(full) as f:
            text = f.read()
        if text.count(old) != 1:
            print('%-19s NOT APPLIED: its expression is not in %s once; update '
                  'scripts/mutate.py' % (mid, path))
            survivors += 1
            continue
        with open(full, 'w') as f:
            f.write(text.replace(old, new, 1))
        try:
            killed = suites_failed(build, None if every else suites)
        finally:
            with open(full, 'w') as f:
                f.write(text)
        if killed:
            print('%-19s killed by %-30s %s' % (mid, ', '.join(killed), what), flush=True)
        else:
            survivors += 1
            print('%-19s SURVIVED (%s)  %s' % (mid, ', '.join(suites) if not every else 'all',
                                             what), flush=True)
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)
    print('mutate: %d survivor%s' % (survivors, '' if survivors == 1 else 's'))
    return 1 if survivors else 0


if __name__ == '__main__':
    sys.exit(main())
