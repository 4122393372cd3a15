#!/usr/bin/env python3
"""Compact side-by-side of oracle vs rust for a category. usage: show.py inputs.json CATEGORY [N]"""
import json, sys, os
sys.path.insert(0, os.path.dirname(__file__))
from compare import run, classify
path, cat = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 50
inputs = json.load(open(path))
o, r = run(path)
def fmt(x):
    if 'ok' in x: return 'OK ' + json.dumps(x['ok'])[:100]
    e = x['err']; p = e['pos']
    return f"{e['name']}: {e['message'][:90]} @{p['line']}:{p['col']}" if p else f"{e['name']}: {e['message'][:90]}"
k = 0
for i, (a, b) in enumerate(zip(o, r)):
    if classify(a, b) == cat:
        print(json.dumps(inputs[i])[:120]); print('   O:', fmt(a)); print('   R:', fmt(b))
        k += 1
        if k >= n: break
