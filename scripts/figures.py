#!/usr/bin/env python3
"""figures.py SIM write|check ROOT - the tutorial's figures (docs/figures/),
made by the commands the lessons print, and kept true to the text.

  write ROOT   run each lesson's command, draw its figure as PNG into
               ROOT/docs/figures/NAME.png and as SVG, and record in
               ROOT/docs/figures/figures.txt the command, the PNG's SHA-256
               and the figure's text (title, subtitle, labels: the numbers it
               shows)
  check ROOT   run each command again and draw the SVG: its text must equal
               the recorded text (the PNG was drawn by the code as it is), the
               PNG must be the recorded one, and every claim of the lessons
               about the run (below) must hold: the phrase is in the
               tutorial (and, for lesson 1, the README), and the figure or
               the run's files say the same number
Exit status 0, or 1 with what differs and the command that regenerates:
    python3 scripts/figures.py build/dcqcn-sim write .
"""
import csv
import hashlib
import os
import re
import subprocess
import sys
import tempfile

REGENERATE = 'python3 scripts/figures.py build/dcqcn-sim write .'

# NAME: (the run's arguments after `run`, the figure, claims).  A claim is
# (phrase, where, value): the phrase is in the lesson's text (whitespace
# folded) and the run says value: 'fig' - the figure's text holds value;
# 'sum:COL' - summary.csv's COL is value; 'job:JOB:COL' - counters.csv's
# JOB_COL summed over the run is value; 'wd:N' - pfcwd.csv's row N is value
# (node,port,event as "time_us node port event").
STORM = ['scenarios/pause-storm.ini']
INCAST = ['scenarios/pfc-vs-dcqcn.ini']
ECN = ['scenarios/ecn-thresholds.ini']
FIGURES = [
    ('storm-no-watchdog-pause-map', STORM + ['--set', 'pfcwd.enable=false'], 'pause_map', [
        ('The victim gets 4.8 MB through in 20 ms instead of 200 MB', 'job:victim:delivered_bytes',
         '4837376'),
        ('leaf0 stops sending to h0', 'fig', 'leaf0 → h0'),
        ('pauses spine0; spine0 fills and pauses leaf1', 'fig', 'leaf1 → spine0'),
    ]),
    ('storm-watchdog-pause-map', STORM, 'pause_map', [
        ('With the watchdog (detection 1 ms) leaf0 declares a storm on its port to h0',
         'wd:0', '1500.000 leaf0 h0 storm'),
        ('spine0 declares a storm on its port to leaf0 too, at the same poll', 'wd:1',
         '1500.000 spine0 leaf0 storm'),
        ('restores it at 4 ms', 'wd:2', '4000.000 spine0 leaf0 restore'),
        ("drops 8,529 of the victim's packets", 'job:victim:drops', '8529'),
        ('the victim resends 35.0 MB by go-back-N', 'job:victim:retransmitted_bytes', '34992128'),
        ('still delivers 200.8 MB', 'job:victim:delivered_bytes', '200835072'),
    ]),
    ('incast-pfc-queues', INCAST + ['--set', 'nic.cc=none'], 'queues', [
        ('the ingress PGs pause their senders (14 MB here)', 'fig', '(peak 14445 KB)'),
        ('the switch sends 2,306 pause frames', 'sum:pause_frames', '2306'),
    ]),
    ('incast-dcqcn-queues', INCAST, 'queues', [
        ('19 pause frames', 'sum:pause_frames', '19'),
        ('then oscillates down through the marking band', 'fig', 'ECN Kmax 1500 KB'),
    ]),
    ('ecn-low-rates', ECN, 'rates', [
        ('12.4 % of packets marked, no pause frame', 'fig',
         'whole run: 0 pause frames, 12.43 % of data packets CE-marked'),
    ]),
    ('ecn-high-rates', ECN + ['--set', 'ecn.kmin=12MB', '--set', 'ecn.kmax=16MB'], 'rates', [
        ('fewer marks (9.5 %), 4,672 pause frames', 'fig',
         'whole run: 4672 pause frames, 9.47 % of data packets CE-marked'),
    ]),
]
LESSON_1 = ('storm-no-watchdog-pause-map', 'storm-watchdog-pause-map')
BOILERPLATE = re.compile(r'^(Gnuplot|Produced by GNUPLOT.*|gnuplot_plot_\d+|[-+0-9.,kMG% ]*)$')


def sim_run(sim, root, args, out, fmt):
    r = subprocess.run([sim, 'run'] + args + ['-o', out, '-q', '--plot', '--format', fmt],
                       cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0:
        sys.exit('figures: dcqcn-sim run %s exited %d: %s' % (' '.join(args), r.returncode,
                                                           r.stderr.strip()[-600:]))


def svg_text(path):
    """the figure's words and numbers: every text element but gnuplot's own
    and the tick labels, in order"""
    with open(path, encoding='utf-8') as f:
        svg = f.read()
    out = []
    for t in re.findall(r'>([^<>]+)<', svg):
        t = t.strip().replace('&lt;', '<').replace('&gt;', '>').replace('&amp;', '&')
        if t and not BOILERPLATE.match(t):
            out.append(t)
    return out


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def run_value(d, where, fig):
    if where == 'fig':
        return '\n'.join(fig)
    kind, _, rest = where.partition(':')
    if kind == 'sum':
        with open(os.path.join(d, 'summary.csv')) as f:
            return next(csv.DictReader(f))[rest]
    if kind == 'job':
        job, _, col = rest.partition(':')
        with open(os.path.join(d, 'counters.csv')) as f:
            return str(sum(int(r[job + '_' + col]) for r in csv.DictReader(f)))
    if kind == 'wd':
        with open(os.path.join(d, 'pfcwd.csv')) as f:
            rows = list(csv.DictReader(f))
        n = int(rest)
        return ('%s %s %s %s' % (rows[n]['time_us'], rows[n]['node'], rows[n]['port'],
                                 rows[n]['event'])) if n < len(rows) else '(no such row)'
    raise ValueError(where)


def manifest_entry(name, args, figure, png_sha, fig):
    lines = ['[%s.png]' % name,
             'command = dcqcn-sim run %s --plot (plots/%s.png)' % (' '.join(args), figure),
             'sha256 = %s' % png_sha]
    lines += ['text = ' + t for t in fig]
    return '\n'.join(lines) + '\n'


def parse_manifest(path):
    entries, cur = {}, None
    if not os.path.exists(path):
        return entries
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('[') and line.endswith(']'):
                cur = entries.setdefault(line[1:-1], {'text': []})
            elif cur is not None and ' = ' in line:
                k, v = line.split(' = ', 1)
                if k == 'text':
                    cur['text'].append(v)
                else:
                    cur[k] = v
    return entries


def folded(path):
    with open(path, encoding='utf-8') as f:
        return ' '.join(f.read().split())


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ('write', 'check'):
        sys.exit(__doc__)
    sim, what, root = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
    figdir = os.path.join(root, 'docs', 'figures')
    manifest = os.path.join(figdir, 'figures.txt')
    tutorial = folded(os.path.join(root, 'docs', 'tutorial.md'))
    readme = folded(os.path.join(root, 'README.md'))
    recorded = parse_manifest(manifest) if what == 'check' else {}
    problems, entries = [], []
    with tempfile.TemporaryDirectory(prefix='dcqcn-figures-') as tmp:
        for name, args, figure, claims in FIGURES:
            d = os.path.join(tmp, name)
            sim_run(sim, root, args, d, 'svg')
            fig = svg_text(os.path.join(d, 'plots', figure + '.svg'))
            png = os.path.join(figdir, name + '.png')
            if what == 'write':
                sim_run(sim, root, args, d + '-png', 'png')
                with open(os.path.join(d + '-png', 'plots', figure + '.png'), 'rb') as f:
                    data = f.read()
                with open(png, 'wb') as f:
                    f.write(data)
                entries.append(manifest_entry(name, args, figure, sha256(png), fig))
            else:
                rec = recorded.get(name + '.png')
                if rec is None:
                    problems.append('%s.png: not in docs/figures/figures.txt' % name)
                else:
                    if rec['text'] != fig:
                        problems.append('%s.png: the figure drawn now says %r where the '
                                        'recorded one says %r' % (name, fig, rec['text']))
                    if not os.path.exists(png) or rec.get('sha256') != sha256(png):
                        problems.append('%s.png: not the PNG figures.txt records' % name)
            for phrase, where, value in claims:
                docs = [('docs/tutorial.md', tutorial)]
                if name in LESSON_1:
                    docs.append(('README.md', readme))
                for doc, text in docs:
                    if ' '.join(phrase.split()) not in text:
                        problems.append('%s: "%s" is not in %s' % (name, phrase, doc))
                got = run_value(d, where, fig)
                if (value not in got) if where == 'fig' else (got != value):
                    problems.append('%s: "%s": the run gives %s = %s, the claim expects %s'
                                    % (name, phrase, where, got.replace('\n', ' | '), value))
    if what == 'write':
        with open(manifest, 'w', encoding='utf-8') as f:
            f.write('# docs/figures: the tutorial\'s figures, written by scripts/figures.py '
                    '(do not edit; the figures test checks them)\n')
            f.write('\n'.join(entries))
        print('figures: wrote %d figures and docs/figures/figures.txt' % len(entries))
    for p in problems:
        print('FAIL: ' + p)
    if problems:
        print('%d problems; if the text is right and the code changed the figures, '
              'regenerate them: %s' % (len(problems), REGENERATE))
        return 1
    if what == 'check':
        print('figures: %d figures as recorded, %d claims hold' %
              (len(FIGURES), sum(len(c) for _, _, _, c in FIGURES)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
