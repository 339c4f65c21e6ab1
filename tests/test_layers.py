#!/usr/bin/env python3
"""test_layers.py SOURCE_ROOT - the layers of docs/ARCHITECTURE.md hold.

A layer is a folder.  Every #include "..." in models/, plots/ and sim/ spells
the header's path from the project root ("models/base/engine.h"), and that
path must lie in the file's own layer or in a layer it builds on: the prefix
of the include line says which layer it reaches.  A bare name, a path that
does not exist (nor as the FILE.in a generated header is made from), or a
source file outside every layer is an error too.  (The
build checks calls: tests/meson.build links each layer's library alone.)
Prints one line per violation and a summary; exit 1 when there is any.
"""
import os
import re
import sys

# layer: (folder, layers it may use besides itself), bottom up; a folder
# inside another's is a layer above it (configs/ over the loader)
LAYERS = {
    'base': ('models/base', []),
    'core': ('models/core', ['base']),
    'scenario': ('models/scenario', ['base', 'core']),
    'configs': ('models/scenario/configs', ['base', 'core', 'scenario']),
    'node': ('models/node', ['base', 'core']),
    'workload': ('models/workload', ['base', 'core', 'scenario', 'node']),
    'fabric': ('models/fabric', ['base', 'core', 'scenario', 'node', 'workload']),
    'plots': ('plots', ['base']),
    'report': ('sim/report', ['base', 'core', 'scenario', 'configs', 'plots']),
    'run': ('sim/run', ['base', 'core', 'scenario', 'configs', 'node', 'workload',
                        'fabric']),
    'sweeps': ('sim/sweeps', ['base', 'core', 'scenario', 'configs', 'node', 'workload',
                              'fabric', 'run']),
    'cli': ('sim/cli', ['base', 'core', 'scenario', 'configs', 'node', 'workload', 'fabric',
                        'plots', 'report', 'run', 'sweeps']),
}
SCANNED = ['models', 'plots', 'sim']
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    """the layer of the longest folder that holds rel (configs/ lies in scenario/)"""
    best, name = '', None
    for layer, (folder, _) in LAYERS.items():
        if rel.startswith(folder + '/') and len(folder) > len(best):
            best, name = folder, layer
    return name


def main():
    root = sys.argv[1]
    files = []
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(('.c', '.h')):
                    files.append(os.path.relpath(os.path.join(dirpath, n), root))
    bad = []
    edges = 0
    for rel in sorted(files):
        mine = layer_of(rel)
        if mine is None:
            bad.append('%s: in no layer (add its folder to tests/test_layers.py)' % rel)
            continue
        allowed = {mine} | set(LAYERS[mine][1])
        with open(os.path.join(root, rel)) as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                edges += 1
                target = layer_of(inc)
                if target is None:
                    bad.append('%s:%d: "%s" does not spell a layer\'s path from the root' %
                               (rel, lineno, inc))
                elif not (os.path.isfile(os.path.join(root, inc)) or
                          os.path.isfile(os.path.join(root, inc + '.in'))):
                    # (a header the build writes from FILE.in counts: the cli's version.h)
                    bad.append('%s:%d: "%s" does not exist' % (rel, lineno, inc))
                elif target not in allowed:
                    bad.append('%s:%d: the %s layer includes %s of the %s layer' %
                               (rel, lineno, mine, inc, target))
    for b in bad:
        print('FAIL: ' + b)
    print('layers: %d files, %d includes, %d violations' % (len(files), edges, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
