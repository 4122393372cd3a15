#!/usr/bin/env python3
"""Random generator of YAML-ish frontmatter for the differential check.
usage: gen.py N SEED [mode]  (mode: mixed|valid|mutate|flow|block|scalars)"""
import json, random, sys

KEYS = ['name', 'description', 'whenToUse', 'metadata', 'disable-model-invocation', 'user-invocable',
        'a', 'b', 'k', '"q"', "'s'", '1', '0x1', '01', '~', 'null', 'true', '<<', '__proto__', '? x', '-1',
        '1.5', 'é', 'a b', 'a:b', 'a#b', '"a: b"', '&k1 key', '!!str 12', '*k1', '[x, y]', '{x: y}',
        'toString', '2', '10', '007', '.nan', '', 'key ', '- x', 'x\ty']
SCALARS = ['foo', 'foo bar', '"quoted"', "'single'", '"esc \\n \\t \\x41 \\u00e9"', "'it''s'", '123', '0o17',
           '0x1F', '1e3', '1.', '.5', '-0', '+1', 'true', 'False', 'yes', 'on', '~', 'null', 'NULL', '',
           '2001-12-14', '12:30', '1_000', '0b101', '.inf', '-.Inf', '.NaN', 'a: b', 'x # c', 'x#y', 'http://x.y/z',
           '- x', '-x', '? y', ':x', 'x:', '@x', '`x', '%x', '!x y', '&a1 v', '*a1', '*nope', '!!int 12', '!!float 1',
           '!!bool yes', '!!null', '!!str', '!!binary aGVsbG8=', '!!timestamp 2001-12-14', '!local v', '!!set {a, b}',
           '!!omap [a: 1]', '!!pairs [a: 1]', '[]', '{}', '[a, b]', '{a: 1}', '[a, [b, c]]', '{a: [1, 2]}', '[a: b]',
           '{a, b}', '[', '{', ']', '}', '[a,]', '[,a]', '"unterminated', "'unterm", 'a\tb', '\tx', 'x\t',
           '"multi\n  line"', 'plain\n  continued', '"\\q"', '""', "''", '|', '>', '|-', '>+', '|2', 'x ', 'é ü',
           '𝄞', '"𝄞"', 'a,b', 'a]b', 'a}b', '{a: b', '[a, b', '&', '*', '!', '!<tag:x>', '!<!>', '!e!x y',
           '123456789012345678901234567890', '0x' + 'f' * 20, '1e400', '-1e-400', '00', '0o', '08', '0.0', '-.5e+3']
COMMENTS = ['', '', '', ' # comment', ' #', '# x', '  # a: b']
INDENTS = ['', '', '', ' ', '  ', '   ', '    ', '\t', ' \t', '\t ']
BLOCK_SCALAR_BODY = ['  line1\n  line2\n', '  a\n\n  b\n', '   more\n  less\n', '  x\n    y\n  z\n', '\n  after blank\n',
                     '  trail  \n', '  # not a comment\n', '  ---\n', '  x\n ', '\t x\n', '  x\n\t\n']

def scalar(r):
    return r.choice(SCALARS)

def block_value(r, depth, indent):
    c = r.random()
    ind = indent + r.choice(['  ', '  ', ' ', '    ', '\t'])
    if c < 0.35 or depth > 2:
        return ' ' + scalar(r) + r.choice(COMMENTS) + '\n'
    if c < 0.5:
        hdr = r.choice(['|', '>', '|-', '>-', '|+', '>+', '|2', '|1-', '>2+'])
        body = r.choice(BLOCK_SCALAR_BODY)
        body = ''.join(indent + l if l else l for l in body.split('\n')[:-1]) if False else body
        return ' ' + hdr + r.choice(COMMENTS) + '\n' + ''.join(indent + l + '\n' for l in body.rstrip('\n').split('\n'))
    if c < 0.75:
        n = r.randint(0, 3)
        s = r.choice(['', ' &m' + str(r.randint(1, 2)), ' !!map', ' !!set', ' !!omap']) + r.choice(COMMENTS) + '\n'
        for _ in range(n):
            s += ind + r.choice(KEYS) + ':' + block_value(r, depth + 1, ind)
        return s
    n = r.randint(0, 3)
    s = r.choice(['', ' &s1', ' !!seq', ' !!omap', ' !!pairs']) + r.choice(COMMENTS) + '\n'
    seqind = r.choice([indent, ind])
    for _ in range(n):
        s += seqind + '-' + r.choice([' ', ' ', '', '\t', '  ']) + (scalar(r) if r.random() < 0.7 else r.choice(KEYS) + ': ' + scalar(r)) + '\n'
    return s

def flow(r, depth=0):
    if depth > 2 or r.random() < 0.4:
        return scalar(r)
    if r.random() < 0.5:
        items = [flow(r, depth + 1) for _ in range(r.randint(0, 3))]
        sep = r.choice([', ', ',', ' , ', ',\n  '])
        return '[' + sep.join(items) + r.choice(['', ',']) + ']'
    items = [r.choice(KEYS) + r.choice([': ', ':', ' : ']) + flow(r, depth + 1) for _ in range(r.randint(0, 3))]
    return '{' + r.choice([', ', ',', ',\n  ']).join(items) + '}'

def document(r):
    lines = []
    n = r.randint(1, 6)
    for _ in range(n):
        c = r.random()
        ind = r.choice(INDENTS) if r.random() < 0.15 else ''
        if c < 0.08:
            lines.append(ind + r.choice(['# comment', '', '   ', '#']) + '\n')
        elif c < 0.16:
            lines.append(ind + r.choice(KEYS) + ': ' + flow(r) + r.choice(COMMENTS) + '\n')
        elif c < 0.2:
            lines.append(r.choice(['--- \n', '...\n', '--- x\n', '---\tx\n', '----\n', '.. .\n', '%YAML 1.2\n', '... # c\n']))
        else:
            lines.append(ind + r.choice(KEYS) + r.choice([':', ':', ':', ' :', ':\t', ':  ']) + block_value(r, 0, ind))
    s = ''.join(lines)
    if r.random() < 0.1:
        s = s.replace('\n', '\r\n')
    if r.random() < 0.1:
        s = s.rstrip('\n')
    return s

MUT_CHARS = [' ', '\t', '\n', ':', '-', '#', '"', "'", '[', ']', '{', '}', ',', '&', '*', '!', '?', '|', '>', '\\', '%', '@', '`', 'x', '0', '\r', 'é', '\u00a0', '\ufeff']

def mutate(r, s):
    s = list(s)
    for _ in range(r.randint(1, 3)):
        op = r.random()
        if not s:
            s = [r.choice(MUT_CHARS)]
            continue
        i = r.randrange(len(s))
        if op < 0.4:
            s.insert(i, r.choice(MUT_CHARS))
        elif op < 0.7:
            del s[i]
        elif op < 0.85:
            s[i] = r.choice(MUT_CHARS)
        else:
            j = r.randrange(len(s))
            s[i], s[j] = s[j], s[i]
    return ''.join(s)

def main():
    n = int(sys.argv[1]); seed = int(sys.argv[2]); mode = sys.argv[3] if len(sys.argv) > 3 else 'mixed'
    r = random.Random(seed)
    out = []
    for _ in range(n):
        d = document(r)
        m = mode
        if m == 'mixed':
            m = r.choice(['valid', 'valid', 'mutate', 'flow'])
        if m == 'mutate':
            d = mutate(r, d)
        elif m == 'flow':
            d = r.choice(KEYS) + ': ' + flow(r) + '\n' + (d if r.random() < 0.3 else '')
        out.append(d)
    json.dump(out, sys.stdout)

main()
