#!/bin/bash
# Differential check over all generated corpora (needs node and yaml@2.9.0: npm install --prefix "$ORACLE_DIR" yaml@2.9.0, default ORACLE_DIR=/work/oracle
# and `cargo build --release --example yaml_difftool`).
set -e
cd "$(dirname "$0")"
mkdir -p /tmp/yamldiff
python3 seeds.py > /tmp/yamldiff/seeds.json
for s in 101 102 103; do
  python3 genreal.py 5000 $s > /tmp/yamldiff/real$s.json
  python3 genblock.py 3000 $s > /tmp/yamldiff/block$s.json
  python3 gen.py 4000 $s > /tmp/yamldiff/mixed$s.json
  python3 genchars.py 3000 $s > /tmp/yamldiff/chars$s.json
  python3 gen11.py 2000 $s > /tmp/yamldiff/y11_$s.json
  python3 genkeys.py 2000 $s > /tmp/yamldiff/keys$s.json
done
for f in /tmp/yamldiff/*.json; do
  printf '%-28s ' "$(basename $f)"
  python3 compare.py "$f" --show 0 | head -1
done
