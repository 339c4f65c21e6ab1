#!/usr/bin/env python3
"""Embed a text file as a NUL-terminated C string: embed.py IN OUT SYMBOL."""
import sys

src, dst, symbol = sys.argv[1:4]
data = open(src, 'rb').read()
with open(dst, 'w') as out:
    out.write('/* generated from %s by embed.py: do not edit */\n' % src.split('/')[-1])
    out.write('const char %s[] = {\n' % symbol)
    for i in range(0, len(data), 16):
        out.write('  ' + ''.join('%d,' % b for b in data[i:i + 16]) + '\n')
    out.write('  0\n};\n')
