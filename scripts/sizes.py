#!/usr/bin/env python3
"""sizes.py [ROOT] [--max-lines N] [--max-function N] [--top K]

The size rules of the product code (models/, plots/, sim/): no file over
--max-lines lines (default 1000) and no function over --max-function lines
(default 120, from the line of its name to its closing brace).  Functions are
found by the project's layout (.clang-format: Linux braces): a definition's
opening brace sits alone at column 0 and its closing brace too.  Prints the
--top largest files and functions, then one line per file or function over
its limit; exit 1 when there is any.
"""
import argparse
import os
import re
import sys

SCANNED = ('models', 'plots', 'sim')
NAME = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*\(')


def sources(root):
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith(('.c', '.h')):
                    yield os.path.relpath(os.path.join(dirpath, n), root)


def functions(lines):
    """(name, first line, length) of each function definition"""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() == '{':
            # the signature: back to the line that starts at column 0 with the name
            j = i - 1
            while j > 0 and lines[j][:1] in (' ', '\t') and not lines[j].startswith(' *'):
                j -= 1
            m = NAME.search(lines[j])
            k = i + 1
            while k < len(lines) and not lines[k].startswith('}'):
                k += 1
            if m:
                out.append((m.group(1), j + 1, k - j + 1))
            i = k
        i += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('root', nargs='?', default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap.add_argument('--max-lines', type=int, default=1000)
    ap.add_argument('--max-function', type=int, default=120)
    ap.add_argument('--top', type=int, default=10)
    o = ap.parse_args()
    files, funcs = [], []
    for rel in sources(o.root):
        with open(os.path.join(o.root, rel)) as f:
            lines = f.read().split('\n')
        if lines and lines[-1] == '':
            lines.pop()
        files.append((len(lines), rel))
        if rel.endswith('.c'):
            funcs += [(n, rel, line, name) for name, line, n in functions(lines)]
    files.sort(reverse=True)
    funcs.sort(reverse=True)
    print('largest files:')
    for n, rel in files[:o.top]:
        print('  %5d  %s' % (n, rel))
    print('longest functions:')
    for n, rel, line, name in funcs[:o.top]:
        print('  %5d  %s:%d %s' % (n, rel, line, name))
    bad = ['%s: %d lines (limit %d)' % (rel, n, o.max_lines)
           for n, rel in files if n > o.max_lines]
    bad += ['%s:%d: %s is %d lines (limit %d)' % (rel, line, name, n, o.max_function)
            for n, rel, line, name in funcs if n > o.max_function]
    for b in bad:
        print('OVER: ' + b)
    print('sizes: %d files, %d functions, %d over the limits' % (len(files), len(funcs),
                                                                  len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
