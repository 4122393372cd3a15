#!/usr/bin/env python3
"""Random differential check: random short names from a wide character pool, sorted by Node
and by dsh-skills under every locale of gen.py, reporting the first disagreement per locale.
Not a fixture generator; for finding differences worth a case in ladder.py.

    cargo build --release --example collation_difftool
    NODE=/path/to/node22 python3 tools/collation-oracle/explore.py [count] [seed]
"""
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

NODE = os.environ.get("NODE", "node")
TOOL = os.path.join(HERE, "..", "..", "target", "release", "examples", "collation_difftool")

POOL = (
    [chr(c) for c in range(0x21, 0x7F)] + [chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha()]
    + [chr(c) for c in range(0x370, 0x3FF) if chr(c).isalpha()]
    + [chr(c) for c in range(0x400, 0x52F) if chr(c).isalpha()]
    + [chr(c) for c in range(0x531, 0x587) if c not in (0x557, 0x558)] + [chr(c) for c in range(0x5D0, 0x5EB)]
    + [chr(c) for c in range(0x620, 0x64B)] + [chr(c) for c in range(0x671, 0x6D4)]
    + [chr(c) for c in range(0x900, 0x97F)] + [chr(c) for c in range(0x980, 0x9FF)]
    + [chr(c) for c in range(0xB80, 0xBFF)] + [chr(c) for c in range(0xE01, 0xE3A)]
    + [chr(c) for c in range(0xE40, 0xE4E)] + [chr(c) for c in range(0x1E00, 0x1EFF)]
    + [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30FB)]
    + [chr(c) for c in range(0xAC00, 0xAC40)] + list("一乙中国阿啊人日本東东龍龙丨亅丶爱愛")
    + ["\u0301", "\u0308", "\u0327", "\u030c", " ", "-", "_", "."]
)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    names = sorted({"".join(rng.choice(POOL) for _ in range(rng.randint(1, 3))) for _ in range(count)})
    envs = [e for e in gen.locale_cases() if not e["LC_ALL"].endswith(".UTF-8")]
    names_file = os.path.join(HERE, ".explore-names.json")
    with open(names_file, "w", encoding="utf-8") as f:
        json.dump(names, f, ensure_ascii=False)

    def node(env):
        clean = {"PATH": os.environ.get("PATH", "")}
        clean.update(env)
        out = subprocess.run([NODE, os.path.join(HERE, "sort.js"), names_file], env=clean,
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    with ThreadPoolExecutor(max_workers=4) as pool:
        want = list(pool.map(node, envs))
    got_lines = subprocess.run([TOOL], input=json.dumps({"names": names, "envs": envs}),
                               capture_output=True, text=True, check=True).stdout.splitlines()
    os.remove(names_file)
    bad = 0
    for env, w, g in zip(envs, want, map(json.loads, got_lines)):
        if (w["order"], w["equal"]) == (g["order"], g["equal"]):
            continue
        bad += 1
        i = next(i for i in range(len(names)) if w["order"][i] != g["order"][i]
                 or (i and w["equal"][i - 1] != g["equal"][i - 1]))
        show = lambda r: " ".join(repr(names[k]) for k in r["order"][max(0, i - 1):i + 3])
        print(f"{env['LC_ALL']:>12} ({w['locale']}): node {show(w)}\n{'':>14}  ours {show(g)}")
    print(f"{len(envs) - bad}/{len(envs)} locales agree on {len(names)} random names")


if __name__ == "__main__":
    main()
