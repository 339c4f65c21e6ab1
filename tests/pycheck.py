"""pycheck.py - what the Python tests share: a check prints one line (ok: or
FAIL:) and the failures are counted; finish() prints the last line and exits
1 when any failed; star_incast() is the smallest fabric with congestion, a
4-host star whose h1-h3 send into h0."""
import sys

FAILED = []


def check(cond, what, detail=''):
    """one line for the check; cond itself, so a caller can stop on it"""
    if cond:
        print('ok: ' + what)
    else:
        print('FAIL: ' + what + (': ' + str(detail) if detail else ''))
        FAILED.append(what)
    return cond


def finish(name):
    if FAILED:
        print('%d failed' % len(FAILED))
        sys.exit(1)
    print('%s: all checks passed' % name)


def star_incast(size, head=''):
    """scenario text: `head` (sections of its own), then a 100G star of 4
    hosts and job `in`, h1-h3 sending `size` each to h0"""
    return (head + '[topology]\nkind = star\nhosts = 4\nhost_link = 100Gbps\n'
            '[job.in]\npattern = incast\ndst = 0\nsenders = 1-3\nsize = %s\n' % size)
