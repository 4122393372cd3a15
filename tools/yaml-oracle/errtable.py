#!/usr/bin/env python3
"""For inputs where both error: summary and top (rust message -> oracle message) mismatches."""
import json, sys, collections, os
sys.path.insert(0, os.path.dirname(__file__))
from compare import run
path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
inputs = json.load(open(path))
o, r = run(path)
t = collections.Counter(); ex = {}; summ = collections.Counter()
for i, (a, b) in enumerate(zip(o, r)):
    if 'err' in a and 'err' in b:
        mo, mr = a['err']['message'], b['err']['message']
        same_pos = a['err']['pos'] == b['err']['pos']
        summ[('msg-same' if mo == mr else 'msg-diff') + ('/pos-same' if same_pos else '/pos-diff')] += 1
        if mo == mr and same_pos: continue
        k = (mr[:60], mo[:60], 'pos-ok' if same_pos else 'pos-diff')
        t[k] += 1; ex.setdefault(k, i)
print(dict(summ))
for k, v in t.most_common(n):
    print(f'{v:5d} {k[2]:8s} R: {k[0]!r}\n               O: {k[1]!r}\n               e.g. {json.dumps(inputs[ex[k]])[:150]}')
