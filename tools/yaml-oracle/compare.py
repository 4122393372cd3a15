#!/usr/bin/env python3
"""Differential check: run oracle.js and the Rust difftool on the same inputs and
summarise differences. usage: compare.py inputs.json [--show N] [--cat CATEGORY]"""
import json, subprocess, sys, os, collections, re
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def run(inputs_path):
    o = subprocess.run(['node', os.path.join(HERE, 'oracle.js'), inputs_path], capture_output=True, text=True)
    if o.returncode != 0:
        sys.exit('oracle failed: ' + o.stderr[-2000:])
    r = subprocess.run([os.path.join(ROOT, 'target/release/examples/yaml_difftool'), inputs_path], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('difftool failed: ' + r.stderr[-2000:])
    return [json.loads(l) for l in o.stdout.split('\n') if l], [json.loads(l) for l in r.stdout.split('\n') if l]

def norm_json(s):
    if isinstance(s, str) and s.startswith('THROWS'):
        return 'THROWS'
    return s

LONE = re.compile('[\ud800-\udfff]')

def lossy(v):
    """Lone surrogates as U+FFFD (what Node writes for them as UTF-8, and what dsh-skills' JSON
    output writes; the layer's values keep them, `JsStr`)."""
    if isinstance(v, str):
        return LONE.sub('\ufffd', v)
    if isinstance(v, list):
        return [lossy(x) for x in v]
    if isinstance(v, dict):
        return {lossy(k): lossy(x) for k, x in v.items()}
    return v

def classify(o, r):
    if 'ok' in o and 'ok' in r:
        if o['ok'] != r['ok']:
            if lossy(o['ok']) == r['ok'] and o['warnings'] == r['warnings']:
                return 'same-lone-surrogate-as-fffd'
            return 'value'
        oj = json.loads(o['json'], parse_int=lambda x: float(x) if abs(int(x)) >= 2**53 else int(x)) if o['json'] and not o['json'].startswith('THROWS') else None
        # dsh-skills' JSON output writes lone surrogates as U+FFFD (the command-line contract)
        if lossy(oj) != r['json'] and not (o['json'] or '').startswith('THROWS'):
            return 'json'
        if o['warnings'] != r['warnings']:
            return 'warnings'
        return None
    if 'ok' in o:
        return 'rust-rejects'
    if 'ok' in r:
        return 'rust-accepts'
    oe, re_ = o['err'], r['err']
    if oe['name'] != re_['name']:
        return 'err-name'
    if oe['pos'] != re_['pos']:
        return 'err-pos'
    if oe['message'] != re_['message']:
        return 'err-message'
    if oe['pretty'] != re_['pretty']:
        return 'err-pretty'
    if o['warnings'] != r['warnings']:
        return 'err-warnings'
    return None

def main():
    path = sys.argv[1]
    show = 5
    cat = None
    args = sys.argv[2:]
    while args:
        a = args.pop(0)
        if a == '--show': show = int(args.pop(0))
        elif a == '--cat': cat = args.pop(0)
    inputs = json.load(open(path))
    o, r = run(path)
    cats = collections.Counter()
    samples = collections.defaultdict(list)
    for i, (a, b) in enumerate(zip(o, r)):
        c = classify(a, b)
        cats[c or 'same'] += 1
        if c:
            samples[c].append(i)
    total = len(inputs)
    print(f'inputs: {total}  ' + '  '.join(f'{k}: {v}' for k, v in sorted(cats.items())))
    for c, idxs in samples.items():
        if cat and c != cat: continue
        print(f'--- {c} ({len(idxs)})')
        for i in idxs[:show]:
            print('  input :', json.dumps(inputs[i]))
            print('  oracle:', json.dumps(o[i])[:400])
            print('  rust  :', json.dumps(r[i])[:400])

if __name__ == '__main__':
    try:
        main()
    except BrokenPipeError:
        pass
