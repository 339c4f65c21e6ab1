#!/usr/bin/env python3
"""test_docs.py SOURCE_ROOT - the documentation's references resolve.

Checked:
  - every link of README.md and docs/*.md ([text](target), images too) to a
    file of the repository exists, and its #anchor names a heading of that
    file (a bare #anchor: of the same file); links to the web are not
    followed;
  - every path cited in a comment of the code of models/, sim/, plots/,
    tests/ and scripts/ (C, Python, shell, meson and gnuplot files; a path
    from the root: docs/..., models/..., tests/..., and README.md) exists,
    and its #anchor names a heading; "docs/model.md#pfc, #dcqcn" cites two
    anchors of one file.  Not checked: a template (a path that does not exist
    with a capitalised placeholder such as scenarios/NAME.ini) and the
    folders of a run directory that share a name with the repository's
    (plots/data/);
  - the manual is linked together: README.md links every page of docs/, and
    every page of docs/ (but those of NO_NAV) opens with a nav line that links
    the README and every other page;
  - every file path and every function name that docs/ARCHITECTURE.md writes
    in backticks exists: a path (with a '/', or a bare file name such as
    `nic.c`) as a file or folder, a name that is nothing but a C identifier
    as a function or macro defined in some .c or .h of models/, sim/ or
    plots/ (`name(` at the start of a definition).
Anchors follow GitHub's rule: the heading's text without its markdown
marks, lowercased, punctuation dropped (letters, digits, '_' and '-' kept),
spaces to '-'; a repeated heading gets -1, -2, ...
Prints one line per failure and a summary; exit 1 when there is any.
"""
import ast
import io
import os
import re
import sys
import tokenize

COMMENTED = ('models', 'sim', 'plots', 'tests', 'scripts')
DEFINED = ('models', 'sim', 'plots')
SKIPPED = ('tests/fuzz/corpus',)  # inputs, not prose
RUN_DIR = ('plots/data',)  # a run directory's folders, not the repository's
NO_NAV = ('configs.md',)  # edited elsewhere: linked from the others, no nav line yet
PLACEHOLDER = re.compile(r'^[A-Z][A-Z0-9_]+$')
ROOTS = 'docs|models|sim|plots|tests|scripts|scenarios'
CITED = re.compile(r'(?<![\w./-])((?:%s)/[\w./+-]*[\w/]|README\.md)((?:#[\w-]+)?)' % ROOTS)
MORE_ANCHORS = re.compile(r'\s*,\s*#([\w-]+)')
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
FENCE = re.compile(r'^\s*(```|~~~)')
BACKTICK = re.compile(r'`([^`\n]+)`')
IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
PATHLIKE = re.compile(r'^[\w.+-]+(/[\w.+-]*)*$')
FILE_EXT = ('.c', '.h', '.py', '.sh', '.md', '.build', '.gp')


def anchor_of(text):
    """GitHub's anchor of a heading's text"""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link: its text
    text = text.replace('`', '').replace('*', '')
    text = text.lower()
    text = ''.join(c for c in text if c.isalnum() or c in '_- ')
    return text.replace(' ', '-')


class Repo:
    def __init__(self, root):
        self.root = root
        self.anchors = {}  # path -> set of anchors
        self.basenames = None
        self.defined = None

    def exists(self, rel):
        return os.path.exists(os.path.join(self.root, rel))

    def headings(self, rel):
        """the anchors of a markdown file's headings"""
        if rel not in self.anchors:
            seen, found = {}, set()
            fenced = False
            with open(os.path.join(self.root, rel), encoding='utf-8') as f:
                for line in f:
                    if FENCE.match(line):
                        fenced = not fenced
                        continue
                    m = None if fenced else HEADING.match(line)
                    if not m:
                        continue
                    a = anchor_of(m.group(2))
                    n = seen.get(a, 0)
                    seen[a] = n + 1
                    found.add(a if n == 0 else '%s-%d' % (a, n))
            self.anchors[rel] = found
        return self.anchors[rel]

    def check_target(self, rel, anchor):
        """None when rel (from the root) and its anchor exist, else why not"""
        if not self.exists(rel):
            return '%s does not exist' % rel
        if anchor and not rel.endswith('.md'):
            return '%s#%s: an anchor in a file that is not markdown' % (rel, anchor)
        if anchor and anchor not in self.headings(rel):
            return '%s has no heading #%s' % (rel, anchor)
        return None

    def has_basename(self, name):
        if self.basenames is None:
            self.basenames = set()
            for top in COMMENTED + ('docs',):
                for _, _, names in os.walk(os.path.join(self.root, top)):
                    self.basenames.update(names)
            self.basenames.update(os.listdir(self.root))
        return name in self.basenames

    def is_defined(self, name):
        """a function (or function-like macro) of that name is defined or
        declared at file scope in a .c or .h of models/, sim/, plots/"""
        if self.defined is None:
            self.defined = set()
            top_level = re.compile(r'^(?!return\b)[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\(')
            macro = re.compile(r'^#\s*define\s+([A-Za-z_]\w*)\(')
            for rel in walk(self.root, DEFINED, ('.c', '.h')):
                with open(os.path.join(self.root, rel), encoding='utf-8') as f:
                    for line in f:
                        m = macro.match(line) or top_level.match(line)
                        if m:
                            self.defined.add(m.group(1))
        return name in self.defined


def walk(root, tops, exts):
    for top in tops:
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir.startswith(SKIPPED):
                continue
            for n in sorted(names):
                if n.endswith(exts):
                    yield os.path.join(rel_dir, n)


def c_comments(text):
    """(line, text) of every comment of C source, strings and characters skipped"""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append((line, text[i:end]))
        elif text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            out.append((line, text[i:end]))
        elif c in '"\'':
            end = i + 1
            while end < n and text[end] != c and text[end] != '\n':
                end += 2 if text[end] == '\\' else 1
            end += 1
        else:
            end = i + 1
        line += text.count('\n', i, end)
        i = end
    return out


def hash_comments(text):
    """(line, text) of every line comment of a shell, meson or gnuplot file (from
    its first '#' on; a '#' inside a string starts one too, which only adds
    text to check)"""
    out = []
    for k, line in enumerate(text.split('\n'), 1):
        at = line.find('#')
        if at >= 0 and not line.startswith('#!'):
            out.append((k, line[at:]))
    return out


def py_comments(text):
    """(line, text) of the comments and docstrings of a Python file"""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.string))
        tree = ast.parse(text)
    except (SyntaxError, tokenize.TokenError) as e:
        return [(1, 'unparsable: %s' % e)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and node.body:
                out.append((node.body[0].lineno, doc))
    return out


def comments_of(rel, text):
    if rel.endswith(('.c', '.h')):
        return c_comments(text)
    if rel.endswith('.py'):
        return py_comments(text)
    return hash_comments(text)


def template(path):
    """a path that names a placeholder (scenarios/NAME.ini), or a folder of a
    run directory (plots/data/)"""
    if path.rstrip('/').startswith(RUN_DIR):
        return True
    return any(PLACEHOLDER.match(part.split('.')[0]) for part in path.split('/'))


def cited(comment):
    """(offset, path, anchor) of every path from the root a comment cites"""
    for m in CITED.finditer(comment):
        path, anchor = m.group(1), m.group(2)[1:]
        yield m.start(), path, anchor
        if anchor:
            end = m.end()
            a = MORE_ANCHORS.match(comment, end)
            while a:
                yield m.start(), path, a.group(1)
                end = a.end()
                a = MORE_ANCHORS.match(comment, end)


def unfenced_lines(path):
    """(line number, line) of a Markdown file, outside ``` blocks"""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for k, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced:
                yield k, line


def check_links(repo, bad):
    docs = ['README.md'] + sorted(os.path.join('docs', n)
                                  for n in os.listdir(os.path.join(repo.root, 'docs'))
                                  if n.endswith('.md'))
    count = 0
    for rel in docs:
        for k, line in unfenced_lines(os.path.join(repo.root, rel)):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r'^[a-z]+:', target):
                    continue
                count += 1
                path, _, anchor = target.partition('#')
                path = (os.path.normpath(os.path.join(os.path.dirname(rel), path))
                        if path else rel)
                why = repo.check_target(path, anchor)
                if why:
                    bad.append('%s:%d: link %s: %s' % (rel, k, target, why))
    return count


def link_targets(rel, line):
    """the pages (paths from the root) a line of rel links to"""
    out = set()
    for m in LINK.finditer(line):
        target = m.group(1)
        if re.match(r'^[a-z]+:', target) or target.startswith('#'):
            continue
        out.add(os.path.normpath(os.path.join(os.path.dirname(rel), target.partition('#')[0])))
    return out


def check_nav(repo, bad):
    """README links every page; every page's first line links all the others"""
    pages = sorted(os.path.join('docs', n) for n in os.listdir(os.path.join(repo.root, 'docs'))
                   if n.endswith('.md'))
    linked = set()
    for _, line in unfenced_lines(os.path.join(repo.root, 'README.md')):
        linked |= link_targets('README.md', line)
    count = 0
    for page in pages:
        count += 1
        if page not in linked:
            bad.append('README.md: no link to %s' % page)
        if os.path.basename(page) in NO_NAV:
            continue
        with open(os.path.join(repo.root, page), encoding='utf-8') as f:
            first = f.readline()
        nav = link_targets(page, first)
        for want in ['README.md'] + [q for q in pages if q != page]:
            if want not in nav:
                bad.append('%s:1: the nav line has no link to %s' % (page, want))
    return count


def check_citations(repo, bad):
    exts = ('.c', '.h', '.py', '.sh', '.build', '.gp')
    count = 0
    for rel in walk(repo.root, COMMENTED, exts):
        with open(os.path.join(repo.root, rel), encoding='utf-8') as f:
            text = f.read()
        for line, comment in comments_of(rel, text):
            for at, path, anchor in cited(comment):
                if not repo.exists(path) and template(path):
                    continue
                count += 1
                why = repo.check_target(path.rstrip('/'), anchor)
                if why:
                    bad.append('%s:%d: cites %s%s: %s' %
                               (rel, line + comment[:at].count('\n'), path,
                                '#' + anchor if anchor else '', why))
    return count


def check_architecture(repo, bad):
    rel = os.path.join('docs', 'ARCHITECTURE.md')
    count = 0
    for k, line in unfenced_lines(os.path.join(repo.root, rel)):
        for m in BACKTICK.finditer(line):
            name = m.group(1).strip()
            if IDENT.match(name):
                count += 1
                if not repo.is_defined(name):
                    bad.append('%s:%d: `%s` is no function defined under %s' %
                               (rel, k, name, ', '.join(d + '/' for d in DEFINED)))
            elif PATHLIKE.match(name) and ('/' in name or name.endswith(FILE_EXT)):
                count += 1
                ok = (repo.exists(name) if '/' in name
                      else repo.exists(name) or repo.has_basename(name))
                if not ok:
                    bad.append('%s:%d: `%s` does not exist' % (rel, k, name))
    return count


def main():
    if len(sys.argv) != 2:
        print('usage: test_docs.py SOURCE_ROOT', file=sys.stderr)
        return 2
    repo = Repo(sys.argv[1])
    bad = []
    links = check_links(repo, bad) + check_citations(repo, bad)
    pages = check_nav(repo, bad)
    names = check_architecture(repo, bad)
    for b in bad:
        print('FAIL: ' + b)
    print('docs: %d links, %d names, %d pages, %d failures' % (links, names, pages, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
