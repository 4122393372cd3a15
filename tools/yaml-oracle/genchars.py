#!/usr/bin/env python3
"""Unusual characters in every scalar style and position, and flow collections with empty keys
and values (the generators that would have found conformance cases 113-115).
usage: genchars.py N SEED"""
import json, random, sys

# raw characters: U+FEFF, NUL, C0 and C1 controls, DEL, line/paragraph separators, NEL, NBSP,
# zero-width chars, noncharacters, private use (the YAML layer's placeholder range) and astral
RAW = ['\ufeff', '\x00', '\x01', '\x07', '\x08', '\x0b', '\x0c', '\x1b', '\x1f', '\x7f', '\x80',
       '\x85', '\x9b', '\x9f', '\u2028', '\u2029', '\xa0', '\u200b', '\u2060', '\ufffe', '\uffff',
       '\ue000', '\uf8ff', '\U0010fffd', '\U0001f600', '\ufffd', '\t', '\r', '\u3000', '\u0301']
# double-quoted escapes, lone surrogates included
ESC = ['\\ud800', '\\udc00', '\\udbff', '\\ud83d\\ude00', '\\ud83d', '\\ude00x', '\\ud800\\ud800',
       '\\x00', '\\0', '\\ufeff', '\\u2028', '\\N', '\\_', '\\L', '\\P', '\\e', '\\U0010ffff',
       '\\U00110000', '\\x85', '\\t', '\\/', '\\ ']

FLOW = ['{: a}', '{a: }', '{: }', '{a, b}', '[: a]', '[a: ]', '[: ]', '[,]', '{,}', '[a,]', '{a,}',
        '{"": a}', "{'': }", '[{}: a]', '{[]: a}', '{? : }', '[? : ]', '{? a}', '[? a]', '{a: {}: b}',
        '[a: b: c]', '{: {}}', '{{}: }', '[[]: []]', '{a: , b: }', '{"a":b}', '[a, : b]', '{: a, : b}',
        '{a:}', '{:a}', '[ : ]', '{ ? }', '[{: }]', '{a: [: ]}', '{a: {: }}']

BLOCKFLOW = ['a: {}: b', 'a: []: b', 'a: [] : b', ': {}: {}', ': x: y', '- : a', '? : b', ': a',
             'a: {x: 1}: b', '- a: {}: b', 'a: [x,\n  y]: z', 'a: {}:\n  b', '? a: {}: b', ': []: {}',
             'a: &x {}: b', 'a: {} : b: c', 'a: {}: {}: c', 'a: {}\n: b', '- {}: b', '{}: b', '[]: b']

def ch(r):
    return r.choice(RAW)

def plain_word(r):
    w = r.choice(['x', 'ab', 'use for', 'v1', 'a-b'])
    c = ch(r)
    where = r.random()
    if where < 0.33: return c + w
    if where < 0.66: return w[:1] + c + w[1:]
    return w + c

def scalar(r, ctx):
    style = r.choice(['plain', 'plain', 'single', 'double', 'double', 'block', 'empty'])
    if style == 'plain': return plain_word(r)
    if style == 'single': return "'" + plain_word(r).replace("'", "''") + "'"
    if style == 'double':
        parts = [r.choice(ESC) if r.random() < 0.5 else plain_word(r) for _ in range(r.randint(1, 3))]
        return '"' + ''.join(p.replace('"', '\\"') if not p.startswith('\\') else p for p in parts) + '"'
    if style == 'block':
        if ctx != 'value': return plain_word(r)
        return r.choice(['|', '>', '|-', '>+']) + '\n  ' + plain_word(r) + '\n  ' + plain_word(r)
    return ''

def line(r):
    k = r.random()
    if k < 0.35: return scalar(r, 'key') + ': ' + scalar(r, 'value')
    if k < 0.45: return 'name: ' + scalar(r, 'value')
    if k < 0.55: return '- ' + scalar(r, 'value')
    if k < 0.62: return 'k: ' + scalar(r, 'value') + ' # c' + ch(r)
    if k < 0.68: return '# ' + ch(r) + ' comment'
    if k < 0.74: return 'k: &a' + ch(r) + ' v\nj: *a' + ch(r)
    if k < 0.78: return 'k: !t' + ch(r) + ' v'
    if k < 0.84: return ch(r) + 'k: v'
    if k < 0.88: return '  ' + ch(r) + 'k: v'
    if k < 0.92: return 'k:' + ch(r) + ' v'
    return 'k: ' + r.choice(FLOW)

def flow_doc(r):
    parts = []
    for _ in range(r.randint(1, 3)):
        f = r.choice(FLOW)
        if r.random() < 0.3:
            f = f.replace('a', plain_word(r), 1)
        parts.append(f)
    k = r.random()
    if k < 0.4: return 'k: ' + parts[0]
    if k < 0.6: return '- ' + '\n- '.join(parts)
    if k < 0.8: return '\n'.join(f'k{i}: {p}' for i, p in enumerate(parts))
    return r.choice(BLOCKFLOW)

def main():
    n = int(sys.argv[1]); r = random.Random(int(sys.argv[2]))
    out = []
    for i in range(n):
        if i % 3 == 0:
            doc = flow_doc(r)
        else:
            doc = '\n'.join(line(r) for _ in range(r.randint(1, 3)))
        pre = r.random()
        if pre < 0.1: doc = '\ufeff' + doc
        elif pre < 0.15: doc = '---\n' + doc
        elif pre < 0.2: doc = '\ufeff---\n' + ch(r) + doc
        elif pre < 0.25: doc = '# c\n\ufeff' + doc
        doc += r.choice(['\n', '\n', '', '\n\n'])
        out.append(doc)
    json.dump(out, sys.stdout)

if __name__ == '__main__':
    main()
