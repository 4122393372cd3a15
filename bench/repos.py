#!/usr/bin/env python3
"""`lint`, `lint .` and `list` from the top of real skill repositories, as CI runs them.

    python3 bench/repos.py BIN DIR [REPO ...]

DIR holds clones of public skill repositories (one folder each). For each, with a fresh empty
home, it counts the distinct `SKILL.md` files (links resolved, `.git` left out) and prints how
many `lint` and `lint .` read, their exit status and errors, any placement finding (these apply
only inside a root), any README-like file taken for a skill, and how many skills `list` names
as unscanned or loaded. It measures and prints; it asserts nothing.
"""
import json, os, subprocess, sys, tempfile
B = os.path.abspath(sys.argv[1])
BASE = os.path.abspath(sys.argv[2])
repos = sys.argv[3:] or sorted(d for d in os.listdir(BASE) if os.path.isdir(os.path.join(BASE, d)))
PLACEMENT = {'nested-too-deep', 'root-level-skill-md', 'ignored-entry', 'skill-md-case', 'flat-file'}
env = {k: v for k, v in os.environ.items() if not k.startswith('DSH_')}
env.update(HOME=tempfile.mkdtemp(prefix='dsh-home-'), NO_COLOR='1')
def run(repo, *args):
    p = subprocess.run([B, *args], cwd=os.path.join(BASE, repo), env=env, capture_output=True, text=True)
    return p
for r in repos:
    top = os.path.join(BASE, r)
    files = set()
    for dp, dn, fn in os.walk(top):
        dn[:] = [d for d in dn if d != '.git']
        if 'SKILL.md' in fn and os.path.isfile(os.path.join(dp, 'SKILL.md')):
            files.add(os.path.realpath(os.path.join(dp, 'SKILL.md')))
    row = [r, str(len(files))]
    for args in (['lint'], ['lint', '.']):
        p = run(r, *args, '--format', 'json')
        d = json.loads(p.stdout)
        place = [f for f in d['findings'] if f['rule'] in PLACEMENT]
        readme = [f for f in d['findings'] if os.path.basename(f['path']).upper() in ('README.MD', 'AGENTS.MD', 'CLAUDE.MD', 'CONTRIBUTING.MD')]
        row.append(f"{' '.join(args)}: files={d['summary']['files']} ({100*d['summary']['files']/max(1,len(files)):.0f}%) exit={p.returncode} E={d['summary']['errors']} placement={len(place)} readme={len(readme)}")
    p = run(r, 'list', '--format', 'json')
    d = json.loads(p.stdout)
    un = d.get('unscanned') or {}
    named = sum(len(f['skills']) for f in un.get('folders', []))
    loaded = len(d.get('skills', []))
    row.append(f"list: unscanned named={named} loaded={loaded} exit={p.returncode}")
    print(' | '.join(row))
