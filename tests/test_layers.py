#!/usr/bin/env python3
"""test_layers.py SOURCE_ROOT - the layers of docs/ARCHITECTURE.md hold.

Every #include "x.h" in sim/, models/ and plots/ must name a header of the
file's own layer or of a layer it builds on; a header that exists twice, or
a source file outside the table, is an error too.  (The build checks calls:
tests/meson.build links each layer's library alone.)  Prints one line per
violation and a summary; exit 1 when there is any.
"""
import os
import re
import sys

# layer: (directories or files, layers it may use besides itself)
LAYERS = {
    'base': (['sim/engine.c', 'sim/engine.h', 'sim/units.c', 'sim/units.h', 'sim/rng.c',
              'sim/rng.h', 'sim/invariant.h', 'sim/hist.c', 'sim/hist.h', 'sim/figures.c',
              'sim/figures.h', 'sim/slab.c', 'sim/slab.h'], []),
    'core': (['models/core'], ['base']),
    'loader': (['sim/scenario'], ['base', 'core']),
    'node': (['models/node'], ['base', 'core']),
    'workload': (['models/workload'], ['base', 'core', 'loader', 'node']),
    'fabric': (['models/fabric'], ['base', 'core', 'loader', 'node', 'workload']),
    'plots': (['plots'], ['base']),
    'run': (['sim/run.c', 'sim/run.h', 'sim/output.c', 'sim/output.h', 'sim/sweep.c',
             'sim/sweep.h', 'sim/nccltests.c', 'sim/nccltests.h', 'sim/workers.c',
             'sim/workers.h', 'sim/fluidrun.c', 'sim/fluidrun.h', 'sim/iostats.c',
             'sim/iostats.h', 'sim/calibrate.c', 'sim/calibrate.h',
             'sim/compare.c', 'sim/compare.h'], ['base', 'core', 'loader', 'node', 'workload', 'fabric']),
    'cli': (['sim/main.c'], ['base', 'core', 'loader', 'node', 'workload', 'fabric',
                             'plots', 'run']),
}
SCANNED = ['sim', 'models', 'plots']


def layer_of(rel):
    for name, (paths, _) in LAYERS.items():
        for p in paths:
            if rel == p or rel.startswith(p + '/'):
                return name
    return None


def main():
    root = sys.argv[1]
    files, headers = [], {}
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(('.c', '.h')):
                    rel = os.path.relpath(os.path.join(dirpath, n), root)
                    files.append(rel)
                    if n.endswith('.h'):
                        headers.setdefault(n, []).append(rel)
    bad = []
    for name, where in sorted(headers.items()):
        if len(where) > 1:
            bad.append('%s exists twice: %s' % (name, ', '.join(where)))
    edges = 0
    for rel in sorted(files):
        mine = layer_of(rel)
        if mine is None:
            bad.append('%s: in no layer (add it to tests/test_layers.py)' % rel)
            continue
        allowed = {mine} | set(LAYERS[mine][1])
        with open(os.path.join(root, rel)) as f:
            for lineno, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                inc = os.path.basename(m.group(1))
                if inc not in headers:
                    continue  # a generated or system header
                target = layer_of(headers[inc][0])
                edges += 1
                if target not in allowed:
                    bad.append('%s:%d: the %s layer includes %s of the %s layer' %
                               (rel, lineno, mine, inc, target))
    for b in bad:
        print('FAIL: ' + b)
    print('layers: %d files, %d includes, %d violations' % (len(files), edges, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
