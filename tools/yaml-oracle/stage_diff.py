#!/usr/bin/env python3
"""Shows where crates/npm-yaml's lexer or CST differs from npm yaml's, input by input.
usage: stage_diff.py CORPUS [N] [lex|cst|scalars]   (needs node and yaml@2.9.0 under $ORACLE_DIR)"""
import difflib, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
rows = subprocess.run(['cargo', 'run', '-q', '-p', 'dsh-skills-npm-yaml', '--example', 'stage_diff', '--'] + sys.argv[1:],
                      check=True, capture_output=True, cwd=HERE).stdout.decode().split('\n')[:-1]
rows = [json.loads(r) for r in rows]
res = subprocess.run(['node', os.path.join(HERE, 'stages.js')], input=json.dumps([r[0] for r in rows]).encode(),
                     check=True, capture_output=True).stdout.decode().split('\n')[:-1]
for (src, lex, cst, sc), line in zip(rows, res):
    nlex, ncst, _, nsc = json.loads(line)
    print('=' * 70)
    print(json.dumps(src))
    for name, ours, theirs in (('lexer', lex, nlex), ('cst', cst, ncst), ('scalars', sc, nsc)):
        if ours != theirs:
            a = ours.replace(' (', '\n(').split('\n') if name == 'cst' else ours.split('\n') if name == 'scalars' else ours.split(' ')
            b = theirs.replace(' (', '\n(').split('\n') if name == 'cst' else theirs.split('\n') if name == 'scalars' else theirs.split(' ')
            print(f'--- {name}: ours / +++ npm yaml')
            for l in difflib.unified_diff(a, b, lineterm='', n=1):
                print(l)
