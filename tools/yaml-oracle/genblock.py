#!/usr/bin/env python3
"""Block scalar focused generator. usage: genblock.py N SEED"""
import json, random, sys
def main():
    n = int(sys.argv[1]); r = random.Random(int(sys.argv[2]))
    out = []
    for _ in range(n):
        ctx = r.choice(['map', 'seq', 'nested', 'root', 'seqmap'])
        hdr = r.choice(['|', '>']) + r.choice(['', '', '-', '+']) + r.choice(['', '', '', '1', '2', '4'])
        if r.random() < 0.3:
            hdr = hdr[0] + hdr[1:][::-1]
        hdr += r.choice(['', '', ' # c', '  '])
        base = {'map': 2, 'seq': 2, 'nested': 4, 'root': 1, 'seqmap': 4}[ctx]
        lines = []
        for _ in range(r.randint(0, 6)):
            c = r.random()
            ind = base + r.choice([0, 0, 0, 1, 2, -1, 3])
            if c < 0.15: lines.append('')
            elif c < 0.3: lines.append(' ' * r.randint(0, base + 3))
            elif c < 0.35: lines.append(' ' * max(ind, 0) + '\t' + r.choice(['', 'x']))
            elif c < 0.4: lines.append(' ' * max(ind, 0) + '# x')
            else: lines.append(' ' * max(ind, 0) + r.choice(['text', 'more text', 'a  b', 'x:y', '- item', 'tab\tin', 'end ']))
        body = '\n'.join(lines) + r.choice(['\n', '\n', '\n\n', '', '\n  \n'])
        after = r.choice(['', 'next: 1\n', '# c\n', 'z: 2\n'])
        if ctx == 'map': s = 'k: ' + hdr + '\n' + body + after
        elif ctx == 'seq': s = 'k:\n- ' + hdr + '\n' + body.replace('\n', '\n', ) + ('- x\n' if r.random() < 0.5 else '')
        elif ctx == 'nested': s = 'a:\n  k: ' + hdr + '\n' + body + after
        elif ctx == 'root': s = hdr + '\n' + body
        else: s = '- k: ' + hdr + '\n' + body
        if r.random() < 0.1: s = s.replace('\n', '\r\n')
        out.append(s)
    json.dump(out, sys.stdout)
main()
