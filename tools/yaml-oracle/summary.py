#!/usr/bin/env python3
"""Aggregate differential statistics over corpora. usage: summary.py files..."""
import json, sys, os
sys.path.insert(0, os.path.dirname(__file__))
from compare import run, classify
tot = dict(inputs=0, ok_both=0, ok_same=0, ok_value_diff=0, ok_warn_diff=0, rust_accepts=0, rust_rejects=0,
           err_both=0, err_name=0, err_name_msg=0, err_name_pos=0, err_name_msg_pos=0, err_pretty=0, err_pretty_warn=0)
for path in sys.argv[1:]:
    o, r = run(path)
    for a, b in zip(o, r):
        tot['inputs'] += 1
        if 'ok' in a and 'ok' in b:
            tot['ok_both'] += 1
            c = classify(a, b)
            if c is None: tot['ok_same'] += 1
            elif c == 'warnings': tot['ok_warn_diff'] += 1
            else: tot['ok_value_diff'] += 1
        elif 'ok' in a: tot['rust_rejects'] += 1
        elif 'ok' in b: tot['rust_accepts'] += 1
        else:
            tot['err_both'] += 1
            ea, eb = a['err'], b['err']
            n = ea['name'] == eb['name']; m = ea['message'] == eb['message']; p = ea['pos'] == eb['pos']
            tot['err_name'] += n
            tot['err_name_msg'] += n and m
            tot['err_name_pos'] += n and p
            tot['err_name_msg_pos'] += n and m and p
            tot['err_pretty'] += ea['pretty'] == eb['pretty']
            tot['err_pretty_warn'] += ea['pretty'] == eb['pretty'] and a['warnings'] == b['warnings']
print(json.dumps(tot, indent=1))
