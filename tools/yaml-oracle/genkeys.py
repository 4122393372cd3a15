#!/usr/bin/env python3
"""Collection-valued keys with comments, blank lines and line breaks between their items (flow
sequences and maps, nested, implicit pairs, props, block collections after `?`), at the top
level and under `metadata:`. usage: genkeys.py N SEED"""
import json, random, sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
R = random.Random(seed)
SCALARS = ['a', 'b', 'c1', '"q"', "'s'", '1', 'null', '*x', '&y v', '!!str t', 'long text value', '""']
SEPS = ['', ' ', ' # c', '\n', '\n\n', '\n# c\n', ' # c1\n# c2\n', '\n\n# c\n\n', ' #', '\n #\n']

def sep():
    return R.choice(SEPS) if R.random() < 0.5 else R.choice(['', ' '])

def flow(depth):
    is_map = R.random() < 0.4
    items = []
    for _ in range(R.randint(0, 3)):
        r = R.random()
        if depth < 2 and r < 0.2:
            it = flow(depth + 1)
        else:
            it = R.choice(SCALARS)
        if is_map or R.random() < 0.2:
            v = flow(depth + 1) if depth < 2 and R.random() < 0.15 else R.choice(SCALARS + [''])
            k = it if R.random() < 0.9 else ''
            if R.random() < 0.2:
                it = k + sep()
            else:
                it = k + sep() + ':' + R.choice([' ', sep() + ' ']) + v
        items.append(sep() + it + sep())
    body = ','.join(items)
    if items and R.random() < 0.2:
        body += ',' + sep()
    o, c = ('{', '}') if is_map else ('[', ']')
    return o + body + c

def block(ind):
    lines = []
    is_map = R.random() < 0.5
    for i in range(R.randint(1, 3)):
        pre = R.choice(['', '', '\n', '# c\n', ' # c\n', '  # c\n']) if i else ''
        v = R.choice(SCALARS) + R.choice(['', '', ' # c', ' #'])
        if is_map:
            k = R.choice(['a', 'b', 'k%d' % i])
            if R.random() < 0.15:
                item = '? ' + k + R.choice(['', ' # c']) + '\n' + ' ' * ind + ': ' + v
            else:
                item = k + ':' + R.choice([' ', ' # c\n' + ' ' * (ind + 2)]) + v
        else:
            item = '- ' + v
        lines.append(''.join((' ' * ind + l if l.strip() else l) + '\n' for l in pre.split('\n')[:-1]) + item)
    return ('\n' + ' ' * ind).join(lines).replace('\n' + ' ' * ind + '\n', '\n\n')

def indent_cont(s, ind):
    return s.replace('\n', '\n' + ' ' * ind)

out = []
for _ in range(n):
    under = R.random() < 0.5
    base = 2 if under else 0
    if R.random() < 0.8:
        key = indent_cont(flow(0), base + 1)
    else:
        key = block(base + 2)
    form = R.random()
    if form < 0.75:
        doc = '? ' + key + '\n' + ' ' * base + ': 1'
    else:
        doc = key + ': 1'
    doc = ('x: &x 1\n' if '*x' in doc else '') + ('metadata:\n  ' + doc if under else doc)
    doc = doc + R.choice(['', '\n', '\nz: 2\n'])
    out.append(doc)
json.dump(out, sys.stdout)
