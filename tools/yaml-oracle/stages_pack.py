#!/usr/bin/env python3
"""Writes crates/npm-yaml/tests/data/<corpus>.bin.z: every input of the six corpora with npm yaml
2.9.0's answers per stage, for crates/npm-yaml/tests/stages.rs (which runs without Node).

usage: stages_pack.py [OUT_DIR]   (needs node and yaml@2.9.0 under $ORACLE_DIR, default /work/oracle)

Inputs are made exactly as run_all.sh makes them (same generators, counts and seeds). Each file is
three sections, each `u32 length, zlib stream`, holding one record per input, in input order:
    inputs:   u32 len, input (UTF-8)
    hashes:   u32 FNV-1a-32 of the lexer dump, of the CST dump and of the scalars dump (dumps as
              stages.js writes them, UTF-8)
    outcomes: u32 len, outcome (JSON: {"ok": value, "warnings": [...]} or
              {"err": {"code", "pretty": String(e)}, "warnings": [...]}; lone surrogates as \\u escapes)
All integers little-endian. The dumps are stored as hashes: kept whole they would be ~4 MB.
"""
import json, os, struct, subprocess, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '../../crates/npm-yaml/tests/data')

CORPORA = [
    ('real', [['seeds.py']] + [['genreal.py', '5000', s] for s in ('101', '102', '103')]),
    ('block', [['genblock.py', '3000', s] for s in ('101', '102', '103')]),
    ('mixed', [['gen.py', '4000', s] for s in ('101', '102', '103')]),
    ('chars', [['genchars.py', '3000', s] for s in ('101', '102', '103')]),
    ('y11', [['gen11.py', '2000', s] for s in ('101', '102', '103')]),
    ('keys', [['genkeys.py', '2000', s] for s in ('101', '102', '103')]),
]


def fnv1a32(b):
    h = 0x811C9DC5
    for x in b:
        h = ((h ^ x) * 0x01000193) & 0xFFFFFFFF
    return h


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, gens in CORPORA:
        inputs = []
        for g in gens:
            out = subprocess.run(['python3', os.path.join(HERE, g[0])] + g[1:], check=True,
                                 capture_output=True).stdout
            inputs += json.loads(out)
        res = subprocess.run(['node', os.path.join(HERE, 'stages.js')], input=json.dumps(inputs).encode(),
                             check=True, capture_output=True).stdout.decode().split('\n')[:-1]
        assert len(res) == len(inputs), (name, len(res), len(inputs))
        sections = [bytearray(), bytearray(), bytearray()]
        for src, line in zip(inputs, res):
            lex, cst, outcome, scalars = json.loads(line)
            if 'err' in outcome:
                outcome['err'].pop('name', None)
                outcome['err'].pop('pos', None)
            b = src.encode()
            o = json.dumps(outcome, separators=(',', ':')).encode()  # lone surrogates as \u escapes
            sections[0] += struct.pack('<I', len(b)) + b
            sections[1] += struct.pack('<III', fnv1a32(lex.encode()), fnv1a32(cst.encode()),
                                       fnv1a32(scalars.encode('utf-8', 'surrogatepass')))
            sections[2] += struct.pack('<I', len(o)) + o
        data = bytearray()
        for sec in sections:
            z = zlib.compress(bytes(sec), 9)
            data += struct.pack('<I', len(z)) + z
        with open(os.path.join(OUT, name + '.bin'), 'wb') as f:
            f.write(data)
        print(f'{name}: {len(inputs)} inputs, {sum(map(len, sections))} bytes -> {len(data)}')


main()
