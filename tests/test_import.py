#!/usr/bin/env python3
"""test_import.py DCQCN_SIM SOURCE_ROOT - real switch and NIC configurations on
the command line (docs/configs.md):

  - SONiC's own QoS template (yellow and red WRED on) imports: the green
    thresholds set ECN, the yellow and red ones are logged as not applying
  - a dynamic-buffer-model file is refused with one line that says what to
    supply; a shared headroom pool is approximated with its rule's numbers
  - rp_byte_reset's reading is in the import log and in a run's
    scenario.ini as a "# config:" line, for a bare number and a B suffix,
    and a run without configurations has no such line
  - check --export after an import writes changes.txt and the JSON patch:
    "no change" for the export imported again, old -> new after a --set;
    an export without an import writes neither
  - the round trip on every fabric type (RoCE, RoCE with nic.cc = none,
    InfiniBand, Ethernet TCP): export, import, export again gives the same
    files; cc_params.txt only where nic.cc = dcqcn can import it
Prints one line per check; exit 1 when any fails.
"""
import json
import os
import subprocess
import sys
import tempfile

from pycheck import FAILED, check

SIM = sys.argv[1]
ROOT = sys.argv[2]
CFG = os.path.join(ROOT, 'tests', 'data', 'config')
SCEN = os.path.join(ROOT, 'scenarios', 'default.ini')
SMALL = ['--set', 'job.allreduce.size=4MB', '--set', 'job.allreduce.iterations=1',
         '--set', 'job.burst.size=400KB']


def sim(*args):
    return subprocess.run([SIM] + list(args), capture_output=True, text=True)


def value(text, section, key):
    """the value of key in [section] of a printed scenario"""
    cur = None
    for line in text.splitlines():
        if line.startswith('['):
            cur = line.strip('[]')
        elif cur == section and line.startswith(key + ' = '):
            return line[len(key) + 3:]
    return None


def sonic_in():
    r = sim('check', SCEN, '--switch-config', os.path.join(CFG, 'sonic_stock.json'))
    check(r.returncode == 0, "SONiC's stock AZURE_LOSSLESS imports", r.stderr[-800:])
    check((value(r.stdout, 'ecn', 'kmin'), value(r.stdout, 'ecn', 'kmax'),
           value(r.stdout, 'ecn', 'pmax')) == ('1MiB', '2MiB', '5%'),
          'its green thresholds set ECN (1048576 B, 2097152 B, 5%)', r.stdout[:300])
    check('WRED_PROFILE.AZURE_LOSSLESS: yellow and red thresholds do not apply: RoCE traffic '
          'is not colored' in r.stderr and r.stderr.count('does not apply (RoCE traffic is not '
                                                          'colored: all packets are green)') == 6,
          'yellow and red: six values logged as not applying, with why', r.stderr[-1500:])

    r = sim('check', SCEN, '--switch-config', os.path.join(CFG, 'dynamic.json'))
    last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''
    check(r.returncode == 2 and 'BUFFER_PG."Ethernet0|3-4": no headroom profile: the dynamic '
          'buffer model (DEVICE_METADATA.localhost.buffer_model = dynamic)' in last and
          '`show buffer information`' in last and 'BUFFER_PROFILE_TABLE:<name>' in last,
          'the dynamic buffer model: refused, saying what to supply', r.stderr[-1000:])

    for name, size, xoff in (('shared_headroom.json', 24400000, 400000),
                             ('shared_headroom_ratio.json', 24385024, 8 * 96256 // 2)):
        r = sim('check', SCEN, '--switch-config', os.path.join(CFG, name))
        check(r.returncode == 0 and 'buffer.size = %dB' % size in r.stderr and
              'its xoff %dB = %dB' % (xoff, size) in r.stderr and
              value(r.stdout, 'pfc', 'headroom') == '94KiB' and
              '--set pfc.headroom=%dB' % (xoff // 8) in r.stderr,
              '%s: buffer.size = 24000000 + %d B, pfc.headroom = xoff 96256 B' % (name, xoff),
              r.stderr[-1500:])


def byte_reset(tmp):
    # printed: a bare number is the firmware unit, bytes have a unit
    for name, printed, reading in (('cc_byte_reset.txt', '32767', 'read as 64-byte units'),
                                   ('cc_byte_reset_bytes.txt', '32.767KB', 'read as bytes')):
        out = os.path.join(tmp, name)
        r = sim('run', SCEN, *SMALL, '--nic-config', os.path.join(CFG, name), '-o', out,
                '--quiet')
        text = ''
        if r.returncode == 0:
            with open(os.path.join(out, 'scenario.ini')) as f:
                text = f.read()
        notes = [l for l in text.splitlines() if l.startswith('# config: ')]
        got = value(text, 'dcqcn', 'rpg_byte_reset')
        check(r.returncode == 0 and len(notes) == 1 and reading in notes[0] and
              name + ':2: rp_byte_reset 32767' in notes[0] and got == printed,
              '%s: scenario.ini says rp_byte_reset was %s' % (name, reading),
              (r.stderr[-500:], notes, got))
        r = sim('check', SCEN, '--nic-config', os.path.join(CFG, name))
        check(r.returncode == 0 and '\n# ' + os.path.join(CFG, name) + ':2: rp_byte_reset 32767'
              in '\n' + r.stderr and reading in r.stderr and '# config:' not in r.stdout,
              '%s: so does the import log (check: on stderr)' % name, r.stderr[-600:])
    out = os.path.join(tmp, 'plain')
    r = sim('run', SCEN, *SMALL, '-o', out, '--quiet')
    with open(os.path.join(out, 'scenario.ini')) as f:
        check(r.returncode == 0 and '# config:' not in f.read(),
              'a run without configurations: no "# config:" line')


def changes(tmp):
    e1, e2, e3 = (os.path.join(tmp, d) for d in ('e1', 'e2', 'e3'))
    r = sim('check', SCEN, '--set', 'dcqcn.rpg_ai_rate=20', '--export', e1)
    check(r.returncode == 0 and not os.path.exists(os.path.join(e1, 'changes.txt')) and
          not os.path.exists(os.path.join(e1, 'config_db.patch.json')),
          'export without an import: no changes.txt, no patch', r.stderr[-300:])
    cfg = ['--switch-config', os.path.join(e1, 'config_db.json'),
           '--nic-config', os.path.join(e1, 'cc_params.txt')]
    r = sim('check', SCEN, *cfg, '--export', e2)
    with open(os.path.join(e2, 'changes.txt')) as f:
        text = f.read()
    with open(os.path.join(e2, 'config_db.patch.json')) as f:
        patch = json.load(f)
    check(r.returncode == 0 and '\nswitch: no change (' in text and
          '\nNIC: no change (18 values as imported)\n' in text and patch == [],
          'the export imported again: no change, an empty patch', text)
    r = sim('check', SCEN, *cfg, '--set', 'ecn.kmin=400KB', '--set', 'dcqcn.rpg_ai_rate=40',
            '--export', e3)
    with open(os.path.join(e3, 'changes.txt')) as f:
        text = f.read()
    with open(os.path.join(e3, 'config_db.patch.json')) as f:
        patch = json.load(f)
    check(r.returncode == 0 and
          '\nWRED_PROFILE.AZURE_LOSSLESS.green_min_threshold: 150000 -> 400000\n' in text and
          '\nrp_ai_rate: 20 -> 40\n' in text and 'no change' not in text and
          patch == [{'op': 'add', 'path': '/WRED_PROFILE/AZURE_LOSSLESS/green_min_threshold',
                     'value': '400000'}],
          'a --set after the import: old -> new on the switch and the NIC, and its patch',
          (text, patch))


def listing(d):
    return {n: open(os.path.join(d, n), 'rb').read() for n in sorted(os.listdir(d))}


def round_trip(tmp):
    """every fabric type: the export imports onto the same scenario and
    exports the same files again; with nic.cc = none there is no cc_params.txt
    to refuse, and none is left from an earlier export into the folder"""
    cases = [('roce', SCEN, []), ('roce-cc-none', SCEN, ['--set', 'nic.cc=none']),
             ('infiniband', SCEN, ['--fabric', 'infiniband']),
             ('ethernet-tcp', SCEN, ['--fabric', 'ethernet-tcp']),
             ('ib-scenario', os.path.join(ROOT, 'scenarios', 'ib-victim-flow.ini'), []),
             ('tcp-scenario', os.path.join(ROOT, 'scenarios', 'tcp-incast.ini'), [])]
    for name, scen, args in cases:
        e1, e2 = os.path.join(tmp, 'rt-' + name), os.path.join(tmp, 'rt2-' + name)
        r1 = sim('check', scen, *args, '--export', e1)
        nic = os.path.exists(os.path.join(e1, 'cc_params.txt'))
        dcqcn = name in ('roce',)
        check(r1.returncode == 0 and nic == dcqcn and
              ('cc_params.txt' in r1.stderr.splitlines()[-1]) == dcqcn,
              '%s: the export writes cc_params.txt only for nic.cc = dcqcn, and says which '
              'files it wrote' % name, (r1.returncode, os.listdir(e1) if r1.returncode == 0
                                         else '', r1.stderr[-400:]))
        cfg = ['--switch-config', os.path.join(e1, 'config_db.json')]
        if nic:
            cfg += ['--nic-config', os.path.join(e1, 'cc_params.txt')]
        r2 = sim('check', scen, *args, *cfg, '--export', e2)
        ok = r2.returncode == 0
        if ok:
            a, b = listing(e1), listing(e2)
            with open(os.path.join(e2, 'changes.txt')) as f:
                text = f.read()
            ok = (set(b) == set(a) | {'changes.txt', 'config_db.patch.json'} and
                  all(a[n] == b[n] for n in a) and '\nswitch: no change (' in text and
                  ('\nNIC: no change (' in text) == nic)
        check(ok, '%s: the export imported again exports the same files, no change' % name,
              r2.stderr[-400:])
    # one folder, two exports: the second's files alone
    d = os.path.join(tmp, 'rt-again')
    sim('check', SCEN, *cfg_of(os.path.join(tmp, 'rt-roce')), '--export', d)
    r = sim('check', SCEN, '--fabric', 'infiniband', '--export', d)
    check(r.returncode == 0 and sorted(os.listdir(d)) == ['config_db.json', 'nccl.env'] and
          'cc_params.txt: removed, an earlier export' in r.stderr,
          'an export into a folder with an earlier one removes the files it does not write',
          (sorted(os.listdir(d)), r.stderr[-400:]))


def origins(tmp):
    """a run's scenario.ini names the keys the command line and each imported
    configuration set (a --set after an import is the command line's)"""
    out = os.path.join(tmp, 'origins')
    sonic = os.path.join(CFG, 'sonic_stock.json')
    r = sim('run', SCEN, *SMALL, '--switch-config', sonic, '--set', 'ecn.kmin=100KB',
            '-o', out, '--quiet')
    with open(os.path.join(out, 'scenario.ini')) as f:
        lines = [l for l in f.read().splitlines() if l.startswith('# from ')]
    cmd = [l for l in lines if l.startswith('# from the command line')]
    sw = [l for l in lines if l.startswith('# from --switch-config %s: ' % sonic)]
    check(r.returncode == 0 and len(lines) == 2 and cmd and sw and
          cmd[0].endswith(': ecn.kmin') and 'ecn.kmax' in sw[0] and 'ecn.kmin' not in sw[0] and
          'job.' not in cmd[0],
          "scenario.ini names the keys --set and --switch-config gave, the --set's last",
          lines)
    plain = os.path.join(tmp, 'plain')  # run by sonic_in's neighbours: no --set
    r = sim('run', SCEN, '-o', plain + '2', '--quiet', '--set', 'job.allreduce.size=4MB',
            '--set', 'job.allreduce.iterations=1', '--set', 'job.burst.size=400KB')
    with open(os.path.join(plain + '2', 'scenario.ini')) as f:
        check(r.returncode == 0 and '# from ' not in f.read(),
              'a run whose --set name only job keys has no "# from" line')


def cfg_of(d):
    return ['--switch-config', os.path.join(d, 'config_db.json'),
            '--nic-config', os.path.join(d, 'cc_params.txt')]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        sonic_in()
        byte_reset(tmp)
        changes(tmp)
        round_trip(tmp)
        origins(tmp)
    if FAILED:
        print('%d failed' % len(FAILED))
        sys.exit(1)


main()
