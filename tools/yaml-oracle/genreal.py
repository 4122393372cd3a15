#!/usr/bin/env python3
"""Realistic frontmatter generator (mostly valid, with typical mistakes).
usage: genreal.py N SEED"""
import json, random, sys

NAMES = ['pdf-tools', 'code-review', 'my-skill', 'a', 'x1', 'Deploy Helper', 'foo_bar', 'skill-2']
WORDS = ['review', 'code', 'the', 'files', 'PDF', 'extract', 'text', 'when', 'user', 'asks', 'about', 'deploy',
         'é', 'naïve', '日本語', '🚀', 'v1.2', 'e.g.', 'don\'t', '"quoted"', 'a/b', 'x=1', '50%', '#tag', 'C#',
         'http://example.com/a?b=c', 'foo@bar.com', '(parens)', '[brackets]', '{braces}', 'a: b', 'key:value',
         '- dash', '~', 'yes', 'no', 'null', '42', '3.14', '1e3', '0x1F', 'true', 'False', '*star', '&amp', '!bang',
         '|pipe', '>gt', '`tick', '@at', '%pct', '? q', 'tab\there', 'trailing ', ' leading', '...', '---']
KEYS = ['name', 'description', 'whenToUse', 'metadata', 'version', 'author', 'license', 'tags', 'allowed-tools',
        'disable-model-invocation', 'user-invocable', 'model', 'color', 'homepage', 'created', 'priority']

def words(r, lo=1, hi=8):
    return ' '.join(r.choice(WORDS) for _ in range(r.randint(lo, hi)))

def scalar(r):
    c = r.random()
    w = words(r)
    if c < 0.3: return w
    if c < 0.45: return '"' + w.replace('\\', '\\\\').replace('"', '\\"') + '"'
    if c < 0.55: return "'" + w.replace("'", "''") + "'"
    if c < 0.65: return r.choice(['true', 'false', 'yes', 'on', '1', '0', '01', '1.0', '-1', '1e21', '0o17', '2024-01-15', '~', 'null', ''])
    if c < 0.75: return r.choice(NAMES)
    return w.replace(': ', ' ')

def block_scalar(r, ind):
    hdr = r.choice(['|', '>', '|-', '>-', '|+', '>+', '|2'])
    lines = []
    for _ in range(r.randint(1, 5)):
        c = r.random()
        if c < 0.15: lines.append('')
        elif c < 0.25: lines.append(ind + '  ' + words(r))
        elif c < 0.3: lines.append(ind + r.choice(['   ', '\t', ' ']))
        else: lines.append(ind + words(r))
    if r.random() < 0.2: lines.append('')
    return ' ' + hdr + '\n' + '\n'.join(lines) + '\n'

def value(r, ind, depth):
    c = r.random()
    if c < 0.55 or depth >= 2:
        return ' ' + scalar(r) + (r.choice(['', '', ' # comment', '  #c']) if r.random() < 0.2 else '') + '\n'
    if c < 0.7:
        return block_scalar(r, ind + '  ')
    if c < 0.8:
        items = [scalar(r).replace(',', ' ') for _ in range(r.randint(0, 4))]
        return ' [' + ', '.join(items) + ']\n'
    if c < 0.9:
        s = '\n'
        sub = ind + r.choice(['  ', '  ', '    ', ' '])
        for _ in range(r.randint(1, 3)):
            s += sub + '-' + value(r, sub + '  ', depth + 1) if r.random() < 0.3 else sub + '- ' + scalar(r) + '\n'
        return s
    s = '\n'
    sub = ind + r.choice(['  ', '  ', '    '])
    for _ in range(r.randint(1, 3)):
        s += sub + r.choice(KEYS) + ':' + value(r, sub, depth + 1)
    return s

MISTAKES = [
    lambda r, s: s.replace('description: ', 'description: ' + words(r, 1, 2) + ': ', 1),
    lambda r, s: s.replace('\n  ', '\n\t', 1),
    lambda r, s: s.replace('\n  ', '\n   ', 1),
    lambda r, s: s.replace(']', '', 1),
    lambda r, s: s.replace('"', '', 1),
    lambda r, s: s + s.split('\n')[0] + '\n',
    lambda r, s: s.replace(': ', ':', 1),
    lambda r, s: s.replace('\n', '\n--- \n', 1),
    lambda r, s: s.replace('\n', '\r\n'),
    lambda r, s: s.rstrip('\n'),
    lambda r, s: s.replace(' #', '#', 1),
    lambda r, s: s.replace(': ', ':\t', 1),
    lambda r, s: s + '...\n',
    lambda r, s: s + r.choice(['# trailing comment\n', '\n\n', '   \n', '\t\n']),
    lambda r, s: s.replace('- ', '-', 1),
    lambda r, s: '  ' + s,
    lambda r, s: s.replace('\n', '\n  ', 1),
]

def doc(r):
    s = ''
    keys = r.sample(KEYS, r.randint(1, 6))
    if 'name' not in keys and r.random() < 0.8: keys.insert(0, 'name')
    for k in keys:
        s += k + ':' + value(r, '', 0)
    if r.random() < 0.35:
        for _ in range(r.randint(1, 2)):
            s = r.choice(MISTAKES)(r, s)
    return s

n = int(sys.argv[1]); seed = int(sys.argv[2])
r = random.Random(seed)
json.dump([doc(r) for _ in range(n)], sys.stdout)
