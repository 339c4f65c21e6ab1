#!/usr/bin/env python3
"""test_report.py DCQCN_SIM SOURCE_ROOT - report.html, in a real browser.

Tiny folders of each kind (a run with `run --report`, a sweep with
`sweep --report`, a compare, an nccl-tests and a calibrate folder with
`dcqcn-sim report DIR`), and for each page:

  - the HTML is well formed: every element closed and nested properly
    (html.parser; void elements, and SVG's self-closed ones, apart), and
    nothing in it points outside the page (no src=, no http(s) link or
    url(), no @import);
  - Debian's chromium, headless, opens it from file:// through the
    DevTools protocol (--remote-debugging-pipe, no package beyond
    chromium): no console error, no exception, no request but the page
    itself and its inline data: images; the verdict and the figures are in
    the rendered DOM with a size; the screenshot is not blank; it prints
    to A4 pages; on a 390 px phone it is no wider than the screen; a click
    on a sortable column's header sorts the rows.

Then what the pages say: the run's verdict and criteria against its
summary.csv, text from the folder's files escaped, the page of `run
--report` the same as that of `report DIR` (provenance aside), a damaged
folder refused with nothing written, a run into a folder removes the
earlier run's page, and without gnuplot the page is written, says so and
the command exits 4.  chromium missing is a failure that names the package
to install, never a skip.  Prints one line per check; exit 1 when any fails.
"""
import base64
import csv
import fcntl
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

SIM = sys.argv[1]
ROOT = sys.argv[2]
DATA = os.path.join(ROOT, 'tests', 'data')
FAILED = []


def check(cond, what, detail=''):
    print(('ok   ' if cond else 'FAIL ') + what + ('' if cond or not detail else ': ' + detail))
    if not cond:
        FAILED.append(what)
    return cond


def sim(*args, env=None, cwd=None):
    return subprocess.run([SIM, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=300)


# ---- the HTML, well formed ---------------------------------------------------

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
        'track', 'wbr'}


class Nesting(html.parser.HTMLParser):
    """every start tag closed by its own end tag, in order"""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids = [], [], {}

    def pos(self):
        return 'line %d' % self.getpos()[0]

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == 'id':
                if v in self.ids:
                    self.errors.append('%s: id %r used twice' % (self.pos(), v))
                self.ids[v] = 1
        if tag not in VOID:
            self.stack.append((tag, self.pos()))

    def handle_startendtag(self, tag, attrs):
        for k, v in attrs:
            if k == 'id':
                if v in self.ids:
                    self.errors.append('%s: id %r used twice' % (self.pos(), v))
                self.ids[v] = 1

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append('%s: </%s> of a void element' % (self.pos(), tag))
            return
        if not self.stack:
            self.errors.append('%s: </%s> closes nothing' % (self.pos(), tag))
            return
        top, where = self.stack.pop()
        if top != tag:
            self.errors.append('%s: </%s> closes <%s> of %s' % (self.pos(), tag, top, where))

    def close(self):
        super().close()
        for tag, where in self.stack:
            self.errors.append('<%s> of %s never closed' % (tag, where))


def check_html(name, text):
    n = Nesting()
    n.feed(text)
    n.close()
    check(not n.errors, name + ': the HTML is well formed', '; '.join(n.errors[:5]))
    check(text.startswith('<!DOCTYPE html>') and text.rstrip().endswith('</html>'),
          name + ': a whole document')
    outside = re.findall(r'''\bsrc\s*=|(?:href|xlink:href)\s*=\s*["']\s*(?:https?:|//)|'''
                         r'''url\(\s*["']?\s*(?:https?:|//)|@import''', text)
    check(not outside, name + ': nothing points outside the page', ', '.join(outside[:5]))


# ---- a PNG read back (the screenshot) ------------------------------------------

def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG"""
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat = 8, b''
    w = h = ctype = 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def ink(png):
    """the share of pixels that are not the page's white, and the colours seen"""
    w, h, bpp, rows = png_pixels(png)
    dark, colours = 0, set()
    for row in rows[::4]:
        for x in range(0, w * bpp, 4 * bpp):
            px = row[x:x + 3]
            colours.add(bytes(px))
            if sum(px) < 3 * 240:
                dark += 1
    total = len(rows[::4]) * len(range(0, w * bpp, 4 * bpp))
    return dark / max(total, 1), len(colours)


# ---- chromium through the DevTools protocol, over a pipe ----------------------

class Browser:
    def __init__(self, exe, tmp):
        self.cmd_r, self.cmd_w = os.pipe()
        self.res_r, self.res_w = os.pipe()
        cmd_r, res_w = self.cmd_r, self.res_w

        def fds():
            # out of the way first (either may be 3 or 4), then onto 3 and 4
            # (dup2 leaves them inheritable; every other pipe end is not)
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(res_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [exe, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
             '--no-default-browser-check', '--disable-extensions', '--disable-sync',
             '--disable-background-networking', '--disable-component-update',
             '--hide-scrollbars', '--mute-audio', '--remote-debugging-pipe',
             '--user-data-dir=' + os.path.join(tmp, 'chromium-profile'), 'about:blank'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(self.cmd_r)
        os.close(self.res_w)
        self.out = os.fdopen(self.cmd_w, 'wb', buffering=0)
        self.inp = os.fdopen(self.res_r, 'rb', buffering=0)
        self.buf, self.next_id, self.events = b'', 0, []

    def _read(self, deadline):
        while b'\0' not in self.buf:
            if time.time() > deadline:
                raise TimeoutError('chromium did not answer')
            chunk = self.inp.read(65536)
            if not chunk:
                raise EOFError('chromium closed its pipe')
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        self.out.write(json.dumps(msg).encode() + b'\0')
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get('id') == self.next_id:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m.get('result', {})
            self.events.append(m)

    def wait_event(self, method, session, timeout=30):
        deadline = time.time() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get('method') == method and m.get('sessionId') == session:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    def close(self):
        try:
            self.send('Browser.close', timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def open_page(br, path, name, width=1000, height=1400, keep=False):
    """load path, return (errors, requests, DOM facts, screenshot)"""
    target = br.send('Target.createTarget', {'url': 'about:blank'})['targetId']
    s = br.send('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
    for domain in ('Page', 'Runtime', 'Log', 'Network'):
        br.send(domain + '.enable', session=s)
    br.send('Emulation.setDeviceMetricsOverride',
            {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': width < 600},
            session=s)
    br.events.clear()
    url = 'file://' + os.path.abspath(path)
    br.send('Page.navigate', {'url': url}, session=s)
    br.wait_event('Page.loadEventFired', s)
    facts = br.send('Runtime.evaluate', {'returnByValue': True, 'expression': '''(function(){
        var v = document.getElementById('verdict');
        var figs = Array.prototype.map.call(document.querySelectorAll('figure svg'),
            function(e){ var r = e.getBoundingClientRect(); return [r.width, r.height]; });
        return {verdict: v ? v.innerText : null, figures: figs,
                width: document.documentElement.scrollWidth,
                sections: document.querySelectorAll('section').length};
    })()'''}, session=s)['result']['value']
    shot = base64.b64decode(br.send('Page.captureScreenshot', {'format': 'png'},
                                    session=s)['data'])
    # the events that came with the load, then the page closed
    errors, requests = [], []
    for m in br.events:
        if m.get('sessionId') != s:
            continue
        p = m.get('params', {})
        if m['method'] == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
            errors.append('console: %s' % p.get('args'))
        elif m['method'] == 'Runtime.exceptionThrown':
            errors.append('exception: %s' % p.get('exceptionDetails', {}).get('text'))
        elif m['method'] == 'Log.entryAdded' and p['entry'].get('level') == 'error':
            errors.append('log: %s' % p['entry'].get('text'))
        elif m['method'] == 'Network.requestWillBeSent':
            u = p['request']['url']
            if u != url and not u.startswith('data:'):
                requests.append(u)
    if keep:
        br.last_session, br.last_target = s, target
    else:
        br.send('Target.closeTarget', {'targetId': target})
    return errors, requests, facts, shot


def in_browser(br, name, path, verdict_re, min_figures):
    errors, requests, facts, shot = open_page(br, path, name, keep=True)
    check(not errors, name + ': no console error in chromium', '; '.join(errors[:3]))
    check(not requests, name + ': no request but the page itself', ', '.join(requests[:3]))
    check(facts['verdict'] is not None and re.search(verdict_re, facts['verdict']),
          name + ': the verdict is in the rendered page', repr(facts['verdict']))
    big = [f for f in facts['figures'] if f[0] > 200 and f[1] > 100]
    check(len(big) >= min_figures, name + ': %d figures rendered with a size' % min_figures,
          repr(facts['figures']))
    dark, colours = ink(shot)
    check(dark > 0.01 and colours > 3, name + ': the screenshot is not blank',
          '%.3f of pixels inked, %d colours' % (dark, colours))
    # printed: A4 pages (595 x 842 points), as many as the page needs
    pdf = base64.b64decode(br.send('Page.printToPDF', {'paperWidth': 8.27, 'paperHeight': 11.69,
                                                       'printBackground': True},
                                   session=br.last_session, timeout=60)['data'])
    pages = len(re.findall(rb'/Type\s*/Page[^s]', pdf))
    check(pdf.startswith(b'%PDF') and pages >= 1 and re.search(rb'/MediaBox\s*\[0 0 59[45]\.?\d* 84[12]', pdf),
          name + ': prints to A4 (%d pages)' % pages)
    br.send('Target.closeTarget', {'targetId': br.last_target})
    # a phone: the page fits its width (tables scroll inside their own box)
    errors, _, facts, _ = open_page(br, path, name, width=390, height=800)
    check(not errors and facts['width'] <= 400,
          name + ': on a 390 px phone the page is no wider than the screen',
          'scrollWidth %s' % facts['width'])


# ---- the folders ----------------------------------------------------------------

STAR = '''[topology]
kind = star
hosts = 5
host_link = 100Gbps
[job.incast]
pattern = incast
dst = 0
size = 2MB
'''


def main():
    tmp = tempfile.mkdtemp(prefix='dcqcn-report-test-')
    env = dict(os.environ, TMPDIR=tmp)
    exe = shutil.which('chromium') or shutil.which('chromium-browser')
    check(exe is not None, 'chromium is installed',
          'not found on PATH: apt-get install chromium (or sh scripts/deps.sh)')
    star = os.path.join(tmp, 'star.ini')
    with open(star, 'w') as f:
        f.write(STAR)
    pages = []  # (name, path, verdict regex, figures at least)

    run = os.path.join(tmp, 'run')
    r = sim('run', star, '-o', run, '--report', '-q', env=env)
    page = os.path.join(run, 'report.html')
    if check(r.returncode == 0 and os.path.exists(page), 'run --report writes report.html',
             r.stderr):
        pages.append(('run', page, r'^(PASS|FAIL|NOT JUDGED)', 4))
    check_run_page(run, tmp, env)

    sw = os.path.join(tmp, 'sweep')
    r = sim('sweep', star, '-o', sw, '--report', '-q', '--vary',
            'criteria.max_ecn_mark_pct=0,100', '--vary', 'ecn.kmin=50KB,100KB', env=env)
    page = os.path.join(sw, 'report.html')
    if check(r.returncode == 0 and os.path.exists(page), 'sweep --report writes report.html',
             r.stderr):
        pages.append(('sweep', page, r'^FAIL\s+2 of 4 points pass, 2 fail', 2))
        text = open(page).read()
        check('4 points over 2 axes' in text, 'sweep: the axes counted without their base-unit columns')
        check(re.search(r'p000 \(criteria\.max_ecn_mark_pct=0 ecn\.kmin=50KB\): '
                        r'<strong>max_ecn_mark_pct</strong> \(ecn_mark_pct [0-9.]+\)', text),
              'sweep: a failing point is named with its axes, the criterion and the value')
        check('<a href="p003/report.html">p003</a>' in text and
              os.path.exists(os.path.join(sw, 'p003', 'report.html')),
              'sweep --report writes each point\'s page, and the sweep\'s links to it')
        swr = os.path.join(tmp, 'sweep-repeat')
        r = sim('sweep', star, '-o', swr, '--report', '-q', '--vary', 'ecn.kmin=50KB,100KB',
                '--repeat', '2', env=env)
        text = open(os.path.join(swr, 'report.html')).read() if r.returncode == 0 else ''
        check('<a href="p001/r0/report.html">p001</a>' in text and
              os.path.exists(os.path.join(swr, 'p001', 'r1', 'report.html')),
              'sweep --repeat --report: a page per repeat, the point linked to its first',
              r.stderr)
        os.unlink(os.path.join(sw, 'p003', 'report.html'))
        r = sim('report', sw, env=env)
        check(r.returncode == 0 and '<a href="p003/summary.csv">p003</a>' in open(page).read(),
              'report DIR of a sweep: a point without a page links to its summary.csv')
        part = os.path.join(tmp, 'sweep-stopped')
        shutil.copytree(sw, part)
        with open(os.path.join(part, 'sweep.csv')) as f:
            lines = f.readlines()
        with open(os.path.join(part, 'sweep.csv'), 'w') as f:
            f.writelines([l for l in lines if not l.startswith(('0,', '1,'))])
        r = sim('report', part, env=env)
        text2 = open(os.path.join(part, 'report.html')).read()
        check(r.returncode == 0 and '<div class="word">INCOMPLETE</div>' in text2 and
              'Only 2 of the sweep&#39;s 4 points finished' in text2,
              'sweep: a stopped sweep (fewer rows than its points) is marked INCOMPLETE', r.stderr)
        rows = list(csv.DictReader(open(os.path.join(sw, 'sweep.csv'))))
        why = open(os.path.join(sw, 'plots', 'data', 'sweep_pass_why.dat')).read().splitlines()
        check(why == ['xi\tyi\twhy'] + ['0\t%d\tmax_ecn_mark_pct %s' % (i, rows[i]['ecn_mark_pct'])
                                       for i in (0, 1)],
              'sweep_pass: each failing cell says the criterion missed and the value', why)

    cmp = os.path.join(tmp, 'compare')
    r = sim('compare', os.path.join(DATA, 'compare-star.ini'), '-o', cmp, '-q', env=env)
    page = os.path.join(cmp, 'report.html')
    if check(r.returncode == 0 and os.path.exists(page), 'compare writes report.html',
             r.stderr):
        pages.append(('compare', page, r'^(PASS|FAIL|NOT JUDGED)\s+roce: ', 1))
        text = open(page).read()
        summ = list(csv.DictReader(open(os.path.join(cmp, 'roce', 'summary.csv'))))[0]
        check(re.search(r'<tr><td>roce</td><td[^>]*>%s</td>' %
                        re.escape(summ['busbw_judged_min_pct'] or '-'), text),
              "compare: each fabric's judged busbw from its own summary.csv")

    nccl = os.path.join(tmp, 'nccl')
    r = sim('nccl-tests', 'all_reduce_perf', star, '-b', '1M', '-e', '4M', '-f', '2', '-g', '4',
            '--out', nccl, env=env)
    page = os.path.join(nccl, 'report.html')
    if check(r.returncode == 0 and os.path.exists(page),
             'nccl-tests --out DIR writes report.html', r.stderr):
        pages.append(('nccl-tests', page, r'^COMPLETED\s+3 sizes; average bus bandwidth', 1))
        r = sim('plot', nccl, env=env)
        dat = open(os.path.join(nccl, 'plots', 'data', 'nccltests.dat')).read().splitlines()
        rows = list(csv.DictReader(open(os.path.join(nccl, 'nccl-tests.csv'))))
        check(r.returncode == 0 and os.path.getsize(os.path.join(nccl, 'plots', 'nccltests.png'))
              and dat[1].split('\t')[:2] == ['1048576', '1M']
              and [float(x) for x in dat[1].split('\t')[2:4]] ==
              [float(rows[0]['oop_busbw_GBps']), float(rows[0]['ip_busbw_GBps'])],
              'plot of an nccl-tests folder: busbw against size (nccltests.png)', r.stderr + repr(dat[:2]))

    cal = os.path.join(tmp, 'calibrate')
    r = sim('calibrate', os.path.join(DATA, 'calibrate-incast.ini'), '--tune',
            'ecn.kmin=20KB:1.28MB:x4', '--tune', 'ecn.kmax=200KB:12.8MB:x4', '--seeds', '1',
            '-j', '2', '-o', cal, '-q', env=env)
    page = os.path.join(cal, 'report.html')
    if check(r.returncode == 0 and os.path.exists(page), 'calibrate writes report.html',
             r.stderr):
        pages.append(('calibrate', page,
                      r'^(RECOMMENDED|FRAGILE|NO SETTING PASSES|NOT RECOMMENDED)', 1))
        text = open(page).read()
        rows = list(csv.DictReader(open(os.path.join(cal, 'calibrate.csv'))))
        rec = [x for x in rows if x['note'] == 'recommended']
        check(rec and re.search(r'<th>own \(point 0\)</th><th>recommended \(point %s\)</th>'
                                % rec[0]['point'], text) and
              re.search(r'<tr><th>margin</th><td class="n">[-0-9.]+</td><td class="n">%s</td>'
                        % re.escape(rec[0]['margin']), text),
              'calibrate: own and recommended side by side, with their margins')
        # a calibration exported though nothing passes: every file marked
        bad = os.path.join(tmp, 'calibrate-failing')
        shutil.copytree(cal, bad)
        verdict = 'DOES NOT PASS: no setting passes; this is the closest (-3.0 %)'
        for f in ['recommended.ini'] + ['export/' + x for x in os.listdir(os.path.join(bad, 'export'))]:
            path = os.path.join(bad, f)
            body = open(path).read()
            with open(path, 'w') as out:
                out.write(('// ' if f.endswith('.json') else '# ') + verdict + '\n' + body)
        r = sim('report', bad, env=env)
        text = open(os.path.join(bad, 'report.html')).read()
        check(r.returncode == 0 and '<div class="word">NO SETTING PASSES</div>' in text and
              text.count('do not deploy</strong>') == len(os.listdir(os.path.join(bad, 'export'))),
              'calibrate: exports marked with a failing verdict: NO SETTING PASSES, each '
              '"do not deploy"', r.stderr)

    one = os.path.join(tmp, 'calibrate-one-key')  # no plane.csv: a page without a figure
    r = sim('calibrate', os.path.join(DATA, 'calibrate-incast.ini'), '--tune',
            'ecn.kmin=20KB:80KB:x4', '--seeds', '1', '-o', one, '-q', env=env)
    text = open(os.path.join(one, 'report.html')).read() \
        if os.path.exists(os.path.join(one, 'report.html')) else ''
    check(r.returncode in (0, 5) and '<h2' in text and '<svg' not in text,
          'calibrate of one key (no margin plane): its page, without a figure',
          (r.returncode, r.stderr))

    nf = os.path.join(tmp, 'nccl-failed')
    r = sim('nccl-tests', 'all_reduce_perf', star, '-b', '1M', '-e', '4M', '-f', '2', '-g', '4',
            '--set', 'sim.duration=2ms', '--out', nf, env=env)
    text = open(os.path.join(nf, 'report.html')).read() if r.returncode == 5 else ''
    check('<div class="word">FAILED</div>' in text and
          '<li>size 4194304: the run ended: duration at 2000.000 us;' in text,
          'nccl-tests: a size that did not end fails the page, which says how its run ended',
          '%d %s' % (r.returncode, r.stderr))
    r = sim('nccl-tests', 'all_reduce_perf', star, '-b', '1M', '-e', '1M', '--no-report',
            env=env)
    check(r.returncode == 2 and '--no-report: without --out DIR there is no page' in r.stderr,
          'nccl-tests --no-report without --out is refused', r.stderr)
    quiet = os.path.join(tmp, 'compare-no-report')
    r = sim('compare', os.path.join(DATA, 'compare-star.ini'), '-o', quiet, '-q', '--no-report',
            '--fabrics', 'roce', env=env)
    check(r.returncode == 0 and os.path.exists(os.path.join(quiet, 'compare.csv')) and
          not os.path.exists(os.path.join(quiet, 'report.html')),
          'compare --no-report: the results without the page', r.stderr)
    for name, path, _, _ in pages:
        check_html(name, open(path, encoding='utf-8').read())
        print('     %s: %d bytes' % (name, os.path.getsize(path)))
    check(not [n for n in os.listdir(tmp) if n.startswith('dcqcn-report-')],
          'no temporary figure folder is left behind')
    if exe:
        br = Browser(exe, tmp)
        try:
            controls(br, tmp)
            for name, path, verdict, figs in pages:
                in_browser(br, name, path, verdict, figs)
            for name, path, _, _ in pages:
                if name == 'sweep':
                    sorting(br, path)
        finally:
            br.close()
    shutil.rmtree(tmp, ignore_errors=True)
    print('report: %d checks failed' % len(FAILED) if FAILED else 'report: all checks pass')
    return 1 if FAILED else 0


def strip_provenance(text):
    return re.sub(r'<section id="provenance">.*?</section>', '', text, flags=re.S)


def check_run_page(run, tmp, env):
    """what the run's page says, against its folder"""
    page = os.path.join(run, 'report.html')
    if not os.path.exists(page):
        return
    text = open(page, encoding='utf-8').read()
    summary = dict(zip(*[l.rstrip('\n').split(',') for l in open(os.path.join(run,
                                                                               'summary.csv'))]))
    want = {'1': 'PASS', '0': 'FAIL', '': 'NOT JUDGED'}[summary['criteria_pass']]
    check(re.search(r'<div class="word">%s</div>' % want, text),
          'run: the banner says %s, as summary.csv' % want)
    check(len(re.findall(r'<tr><td><code>(max_|min_|jobs_failed)', text)) == 7,
          'run: a row per criterion (7)')
    check('hosts 5, switches 1' in text, "run: check's derived values of the folder's scenario")
    check('<li><strong>job.incast</strong>: pattern = incast;' in text, 'run: a line per job')
    check(re.search(r'<td>incast</td><td>incast</td><td class="n">8000000</td>', text),
          'run: the job table has its delivered bytes from counters.csv')
    check(re.search(r'<text [^>]*>job incast</text>', text) and
          re.search(r'<rect [^>]*fill="#1f77b4"><title>incast iteration 0: 0\.0-[0-9.]+ us'
                    r'</title>', text), 'run: the timeline has the job\'s iteration')
    # run --report and report DIR share one path: the same page
    saved = strip_provenance(text)
    r = sim('report', run, env=env)
    again = strip_provenance(open(page, encoding='utf-8').read())
    check(r.returncode == 0 and again == saved,
          'run: report DIR writes the page run --report wrote (provenance aside)')
    # text from the folder's files is escaped
    with open(os.path.join(run, 'warnings.txt'), 'w') as f:
        f.write('<script>alert(1)</script> & "quotes"\n')
    r = sim('report', run, env=env)
    text = open(page, encoding='utf-8').read()
    check('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;' in text and
          '<script>alert' not in text, 'run: text from warnings.txt is escaped')
    # no gnuplot: the page is written and says so; exit 4
    bare = os.path.join(tmp, 'bin')
    os.makedirs(bare, exist_ok=True)
    r = sim('report', run, env=dict(env, PATH=bare))
    text = open(page, encoding='utf-8').read()
    check(r.returncode == 4 and 'Figures not drawn:' in text and 'gnuplot' in r.stderr,
          'run: without gnuplot the page says the figures are missing, exit 4',
          '%d %s' % (r.returncode, r.stderr))
    # a damaged folder is refused and nothing is written
    damaged = os.path.join(tmp, 'damaged')
    shutil.copytree(run, damaged)
    os.unlink(os.path.join(damaged, 'report.html'))
    with open(os.path.join(damaged, 'summary.csv')) as f:
        head, row = f.read().splitlines()
    with open(os.path.join(damaged, 'summary.csv'), 'w') as f:
        f.write(head.replace('criteria_pass', 'criteria_p') + '\n' + row + '\n')
    r = sim('report', damaged, env=env)
    check(r.returncode == 2 and 'summary.csv: no column criteria_pass' in r.stderr and
          not os.path.exists(os.path.join(damaged, 'report.html')),
          'a summary.csv without criteria_pass is refused, nothing written', r.stderr)
    os.unlink(os.path.join(damaged, 'summary.csv'))
    r = sim('report', damaged, env=env)
    check(r.returncode == 2 and 'not a finished run' in r.stderr,
          'a folder without summary.csv is refused', r.stderr)
    # a run into the folder removes the earlier run's page
    with open(os.path.join(damaged, 'report.html'), 'w') as f:
        f.write('an earlier page')
    r = sim('run', os.path.join(run, 'scenario.ini'), '-o', damaged, '-q', env=env)
    check(r.returncode == 0 and not os.path.exists(os.path.join(damaged, 'report.html')),
          'a run without --report leaves no earlier page in its folder')
    # a job's FCT percentiles, across the network and over NVLink apart
    nv_ini = os.path.join(tmp, 'nv.ini')
    with open(nv_ini, 'w') as f:
        f.write(STAR.replace('hosts = 5', 'hosts = 4\ngpus_per_server = 2'))
    nv = os.path.join(tmp, 'nv')
    r = sim('run', nv_ini, '-o', nv, '-q', '--report', env=env)
    rows = list(csv.DictReader(open(os.path.join(nv, 'flows.csv')))) if r.returncode == 0 else []
    net = sorted(float(x['fct_us']) for x in rows if x['src'] not in ('h0', 'h1'))
    nvl = sorted(float(x['fct_us']) for x in rows if x['src'] == 'h1')
    text = open(os.path.join(nv, 'report.html'), encoding='utf-8').read() if rows else ''
    want = '<td class="n">%.3f / %.3f</td><td class="n">%.3f / %.3f</td></tr>' % (
        net[0] if net else 0, net[-1] if net else 0, nvl[0] if nvl else 0, nvl[-1] if nvl else 0)
    check(len(net) == 2 and len(nvl) == 1 and want in text,
          "run: a job's FCT p50/p99 from flows.csv, the NVLink flow (h1 to h0) apart", want)
    storm = os.path.join(tmp, 'storm')
    r = sim('run', os.path.join(ROOT, 'scenarios', 'pause-storm.ini'), '-o', storm, '-q',
            '--report', env=env)
    text = open(os.path.join(storm, 'report.html'), encoding='utf-8').read() \
        if r.returncode == 0 else ''
    check(re.search(r'<rect [^>]*><title>broken-nic \(pause-storm\): ', text) and
          re.search(r'<rect [^>]*><title>storm on ', text),
          'run: the timeline has the fault and the watchdog\'s storms', r.stderr)
    r = sim('report', run, env=env)  # the page again, with its figures
    check(r.returncode == 0, 'run: report DIR', r.stderr)


def sorting(br, path):
    """a click on a sortable column's header orders the rows by it"""
    target = br.send('Target.createTarget', {'url': 'about:blank'})['targetId']
    s = br.send('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
    br.send('Page.enable', session=s)
    br.send('Page.navigate', {'url': 'file://' + os.path.abspath(path)}, session=s)
    br.wait_event('Page.loadEventFired', s)
    js = '''(function(){
        var t = document.querySelector('table.sortable'), th = t.tHead.rows[0].cells;
        var col = -1;
        for (var i = 0; i < th.length; i++) if (th[i].textContent == 'ecn.kmin_B') col = i;
        function values() { return Array.prototype.map.call(t.tBodies[0].rows,
            function(r){ return parseFloat(r.cells[col].textContent); }); }
        var before = values();
        th[col].click(); var up = values();
        th[col].click(); var down = values();
        return {before: before, up: up, down: down};
    })()'''
    v = br.send('Runtime.evaluate', {'expression': js, 'returnByValue': True},
                session=s)['result'].get('value') or {}
    br.send('Target.closeTarget', {'targetId': target})
    up, down = v.get('up', []), v.get('down', [])
    check(up and up == sorted(up) and up != v.get('before') and down == sorted(up, reverse=True),
          'sweep: a click on a header sorts the points by it, a second click the other way',
          repr(v))


def controls(br, tmp):
    """the browser checks can fail: a page that asks the network, one that
    throws, one that is blank"""
    bad = os.path.join(tmp, 'bad.html')
    with open(bad, 'w') as f:
        f.write('<!DOCTYPE html><html><body><div id="verdict">PASS</div>'
                '<img src="http://127.0.0.1:9/x.png" alt="">'
                '<script>undefined_function();</script></body></html>')
    errors, requests, _, _ = open_page(br, bad, 'control')
    check(requests and any('exception' in e for e in errors),
          'control: a page that requests the network and throws is caught',
          '%s %s' % (requests, errors))
    with open(bad, 'w') as f:
        f.write('<!DOCTYPE html><html><body></body></html>')
    _, _, _, shot = open_page(br, bad, 'control')
    dark, colours = ink(shot)
    check(dark < 0.01, 'control: a blank page is seen blank', '%.3f inked' % dark)
    n = Nesting()
    n.feed('<div><p><span></p></div><figure>')
    n.close()
    check(len(n.errors) >= 2, 'control: misnested and unclosed elements are caught', repr(n.errors))


if __name__ == '__main__':
    sys.exit(main())
