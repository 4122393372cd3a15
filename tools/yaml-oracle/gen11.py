#!/usr/bin/env python3
"""`%YAML` directives before a `--- ` document start (the one way a skill's frontmatter reaches
npm yaml with a directive: a plain `---` line closes the frontmatter, `--- ` with a trailing space
or tab does not), with every YAML 1.1 scalar form as values and keys, merges and explicit tags.
Other versions (1.2, 1.3, 2.0, malformed) and no directive are mixed in as controls.
usage: gen11.py N SEED   (N random documents after the fixed list of single-form documents)"""
import json, random, sys

BOOLS = ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
         'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
         'yEs', 'oN', 'nO', 'tRUE', 'oFF', 'YeS', 'ye', 'yess', 'onn']
INTS = ['0b101', '0b_1', '-0b11', '+0b1_0', '0b', '0b2', '0B1', '0b' + '1' * 60, '0b' + '10' * 40,
        '017', '0_17', '-017', '+017', '08', '09', '0_', '00', '-0', '+0', '0', '-00', '0_7_',
        '1_000', '1__0', '_1', '1_', '-1_000', '+1_0', '123456789012345678901234567890',
        '9007199254740993', '1_2_3_4_5_6_7_8_9_0_1_2_3_4_5_6_7',
        '0x1F', '0x_1f', '-0x1F', '+0xff', '0x', '0xg', '0X1', '0x' + 'f' * 20, '0x_',
        '0o17', '0o8', '-0o7', '01777777777777777777777']
SEXA = ['1:30', '1:30:00', '-1:30', '+1:30', '190:20:30', '1_0:30', '1:60', '1:5', '1:05', '1:5:7',
        '12:345', '1:30.5', '1:30.', '1:30._5', '-1:30.5', '1:30:', ':30', '1::30', '20:30:15.75',
        '2:3.4:5', '0:0', '1:59:59', '1:6_0', '99999999999999999999:59', '1:30.5.5', '1:3_0']
FLOATS = ['1.0', '1.', '.5', '.', '-.', '+.', '._', '1_0.5', '1_000.000_1', '1e5', '1E5', '1e+5', '1e-5',
          '1.5e3', '.e5', 'e5', 'E5', '1_e5', '1.e5', '1e', '1e5.5', '6.8523015e+5', '685.230_15e+03',
          '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', '-.nan', '1.0e400', '0.1', '-0.0', '00.5',
          '_1.5', '1._', '+e1', '-.e1', '1.0_0', '0.30000000000000004', '.1_', '1e1_0']
NULLS = ['~', 'null', 'Null', 'NULL', 'nULL', "''", '""', '']
TIMES = ['2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2001-12-15T02:59:43.1Z',
         '2001-12-15 2:59:43.10', '2002-1-1', '2002-13-40', '0000-01-01', '99999-01-01', '2001-12-14T25:61:61',
         '2001-12-14 21:59:43 +05:30', '2001-12-14 21:59:43Z', '2001-12-14  21:59:43', '2001-12-14x',
         '2001-12-14T21:59:43.123456+0', '2001-12-14 21:59:43 +23', '1969-12-31', '0099-06-30',
         '2001-12-14T21:59:43-5:3', '2001-12-14t1:2:3', '2024-02-30']
OTHER = ['<<', '"<<"', "'<<'", 'a<<', 'yes please', 'on-call', 'Y2K', '0b1 x', '"yes"', "'0x1F'", '! yes',
         '!!str on', '!foo on', '[yes, no, 0b1]', '{on: off}', '- y']
TAGGED = ['!!bool yes', '!!bool x', '!!bool Off', '!!bool tRUE', '!!int 0b11', '!!int 1:30', '!!int 0o7', '!!int 1_0',
          '!!int 017', '!!int 0x_F', '!!int 1.5', '!!float 1:30.5', '!!float 1', '!!float 1_0.5', '!!float .',
          '!!float e5', '!!float .inf', '!!null ~', '!!null x', '!!null', '!!str yes', '!!str 0b1',
          '!!timestamp 2001-12-14', '!!timestamp x', '!!timestamp 2001-12-14 1:2:3', '!!merge x', '!!merge <<',
          '!!binary aGVsbG8=', '!!binary', '!!set {a, b}', '!!set [a]', '!!omap [a: 1]', '!!omap {a: 1}',
          '!!pairs [a: 1, a: 2]', '!!pairs {a: 1}', '!!binary {a: 1}', '!!timestamp [a]', '!!merge {}',
          '!!map {a: 1}', '!!seq [a]', '!!seq {a: 1}', '!!map [a]', '!!set a', '!!omap a', '! on',
          '!foo yes', '!<tag:yaml.org,2002:bool> on', '!<tag:yaml.org,2002:int> 0b1', '!!merge', '!!timestamp']
FORMS = BOOLS + INTS + SEXA + FLOATS + NULLS + TIMES + OTHER
KEY_FORMS = [f for f in FORMS + TAGGED if f and not f.startswith(('[', '{', '- ', '!!set', '!!omap', '!!pairs',
                                                                 '!!map', '!!seq', '!!binary {', '!!timestamp [',
                                                                 '!!merge {')) and ' ' in f.strip()
            or f and not f.startswith(('!', '[', '{', '- '))]

DIRECTIVES = [
    '%YAML 1.1\n--- \n', '%YAML 1.1\n---\t\n', '%YAML 1.1\n--- # comment\n', '%YAML 1.1 # c\n--- \n',
    '%YAML 1.1\n---  \n', '%YAML  1.1\n--- \n', '%YAML\t1.1\n--- \n', '# c\n%YAML 1.1\n--- \n',
    '%YAML 1.1\n\n--- \n', '%TAG !e! tag:example.com,2000:\n%YAML 1.1\n--- \n', '%YAML 1.1\n%YAML 1.2\n--- \n',
    '%YAML 1.2\n%YAML 1.1\n--- \n', '%YAML 1.1\n%YAML 1.3\n--- \n', '%YAML 1.1\n%FOO bar\n--- \n',
]
CONTROLS = [
    '%YAML 1.2\n--- \n', '%YAML 1.3\n--- \n', '%YAML 2.0\n--- \n', '%YAML 1.1.1\n--- \n', '%YAML 1.x\n--- \n',
    '%YAML 1.1 1.2\n--- \n', '%YAML\n--- \n', '%YAML 1.0\n--- \n', '%YAML 01.1\n--- \n', '--- \n', '',
    '%YAML 1.1\n',  # no document start line: an error after the document's own errors
    '%YAML 1.1\n...\n', '%YAML 1.1\n--- !!map\n', '%YAML 1.1\n--- {name: a, description: yes}\n',
]

def prefix(r):
    return r.choice(DIRECTIVES) if r.random() < 0.8 else r.choice(CONTROLS)

def form(r):
    c = r.random()
    if c < 0.85: return r.choice(FORMS)
    return r.choice(TAGGED)

def key(r):
    return r.choice(KEY_FORMS)

def merge_block(r):
    return r.choice([
        'base: &b {x: 1, y: 2}\nmetadata:\n  <<: *b\n  y: 3\n',
        'a: &a {x: 1}\nb: &c {z: 2}\nmetadata:\n  <<: [*a, *c]\n',
        'metadata:\n  <<: {x: 1}\n  x: 2\n',
        'metadata:\n  <<: 1\n',
        'metadata:\n  <<:\n',
        'a: &a {x: 1}\nmetadata:\n  !!merge <<: *a\n',
        'a: &a {x: 1}\nmetadata:\n  "<<": *a\n',
        "a: &a {x: 1}\nmetadata:\n  '<<': *a\n",
        'a: &a {x: 1}\nmetadata:\n  !!str <<: *a\n',
        'metadata:\n  ! <<: {a: 1}\n',
        'metadata:\n  !foo <<: {a: 1}\n',
        'metadata:\n  x: <<\n',
        'metadata:\n  - <<\n',
        'metadata:\n  <<: {a: 1}\n  <<: {b: 2}\n',
        'metadata:\n  ? <<\n  : {a: 1}\n',
        'metadata: {<<: {a: 1}, b: 2}\n',
        'metadata: [<<: {a: 1}]\n',
        'a: &a [1]\nmetadata:\n  <<: *a\n',
        'a: &a {x: {y: 1}}\nmetadata:\n  <<: *a\n  x: 2\n',
        'metadata: !!set\n  ? <<\n  ? a\n',
        'metadata:\n  &m <<: {a: 1}\n  b: *m\n',
        'metadata:\n  <<: !!map {a: 1}\n',
        'metadata:\n  <<: [{a: 1}, {a: 2, b: 3}]\n',
        'metadata:\n  !!str <<: x\n  !!str <<: y\n',
        'metadata: !!omap\n  - <<: {a: 1}\n',
    ])

def entry(r, used):
    c = r.random()
    if c < 0.3: k = 'description'
    elif c < 0.45: k = r.choice(["user-invocable", "disable-model-invocation"])
    elif c < 0.55: k = 'whenToUse'
    elif c < 0.75: k = 'metadata'
    elif c < 0.8: k = 'collkey'
    elif c < 0.9: k = 'merge'
    else: k = key(r)
    if k in used or k == 'collkey' and 'metadata' in used:
        return ''
    used.add(k)
    if k == 'collkey':
        used.add('metadata')
    if k == 'metadata':
        keys = []
        for _ in range(r.randint(1, 4)):
            x = key(r)
            if x not in keys: keys.append(x)
        return 'metadata:\n' + ''.join(f'  {x}: {form(r)}\n' for x in keys)
    if k == 'collkey':
        return f'metadata:\n  ? [{form(r)}, {form(r)}]\n  : {form(r)}\n'
    if k == 'merge':
        if 'metadata' in used or 'a' in used or 'base' in used: return ''
        used.update(['metadata', 'a', 'base'])
        return merge_block(r)
    return f'{k}: {form(r)}\n'

def single_form_docs():
    out = []
    for f in FORMS + TAGGED:
        out.append(f'%YAML 1.1\n--- \nname: a\ndescription: {f}\n')
    for f in KEY_FORMS:
        out.append(f'%YAML 1.1\n--- \nname: a\nmetadata:\n  {f}: x\n')
    for f in BOOLS + INTS[:12] + SEXA[:6] + FLOATS[:10] + TIMES[:4]:
        out.append(f'%YAML 1.1\n---\t\nuser-invocable: {f}\nmetadata:\n  {f}: 1\n  k: {f}\n')
    for p in DIRECTIVES + CONTROLS:
        out.append(p + 'name: a\ndescription: yes\nmetadata:\n  0b101: x\n  1_000: y\n  1:30: z\n  on: w\n')
    # duplicate keys: equal values under 1.1
    for a, b in [('yes', 'true'), ('on', 'yes'), ('y', 'Y'), ('0x10', '16'), ('1:30', '90'), ('0b1', '1'),
                 ('017', '15'), ('1_0', '10'), ('.nan', '.nan'), ('~', 'null'), ('-0', '0'), ('0.5', '.5'),
                 ('2001-12-14', '2001-12-14'), ('<<', '<<'), ('off', 'n'), ('1e1', '10'), ('"yes"', 'yes')]:
        out.append(f'%YAML 1.1\n--- \nmetadata:\n  {a}: 1\n  {b}: 2\n')
    # collection-valued keys are stringified (npm yaml's flow stringifier, schema-dependent)
    flat = [f for f in FORMS + TAGGED if f and not f.startswith(('[', '{', '- ', '!!set', '!!omap', '!!pairs',
                                                                 '!!map', '!!seq', '!!binary {', '!!timestamp [',
                                                                 '!!merge {')) and f not in ('!!merge', '!!timestamp')]
    for i in range(0, len(flat), 6):
        chunk = flat[i:i + 6]
        out.append('%YAML 1.1\n--- \nname: a\nmetadata:\n  ? [' + ', '.join(chunk) + ']\n  : x\n')
        out.append('%YAML 1.1\n--- \nname: a\nmetadata:\n  ? {' + ', '.join(f'k{j}: {f}' for j, f in enumerate(chunk)) + '}\n  : x\n')
    for m in [merge_block(random.Random(i)) for i in range(60)]:
        out.append('%YAML 1.1\n--- \nname: a\n' + m)
    return out

def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    r = random.Random(seed)
    docs = single_form_docs() if seed == 101 else []
    for _ in range(n):
        used = {'name'}
        body = 'name: a\n' + ''.join(entry(r, used) for _ in range(r.randint(1, 5)))
        if r.random() < 0.1:
            body = body.replace('\n', '\r\n')
        docs.append(prefix(r) + body)
    json.dump(docs, sys.stdout)

main()
