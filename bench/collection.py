#!/usr/bin/env python3
"""Benchmark `lint` from the top of a skill collection, against the I/O floor, side by side.

    python3 bench/collection.py                  # 10,000 skills, three levels deep
    python3 bench/collection.py --skills 1000
    python3 bench/collection.py --noise 1000000  # also: a tree of that many non-skill files
    python3 bench/collection.py --bin NEW --against OLD   # two builds side by side, with ratios

It builds the release binary and generates a deterministic repository under target/bench/:
`.git/`, a README, and N skills as `plugins/p<i>/skills/<name>/SKILL.md` (100 per plugin,
three levels below the top; descriptions of 80-700 characters, bodies of 1-4 KB, a
`references/` file in every tenth skill), then times with hyperfine

  - the floor: `find . -name SKILL.md -print0 | xargs -0 cat > /dev/null`
  - `dsh-skills lint > /dev/null` and `dsh-skills lint --format json > /dev/null`

and reports medians, the ratio to the floor and peak memory (GNU time's maximum resident set
size). With --noise it adds a folder of that many small non-skill files and times `lint` again
(the walk must stay linear). Nothing here asserts timings: it measures and prints. A tree is
kept between runs (a stamp in its `.git/` says what it holds), so the million-file tree is
written once.

Measured on 2026-12-02 on the 2-core VM, at a load average of 16-24 from other builds (wall
times are several times the idle ones; the ratios, taken in one hyperfine run, are what
compare), `python3 bench/collection.py --bin NEW --against OLD --runs 10`, OLD = main at
4e4d83c, NEW = each skill checked on the walker thread that finds it:

    command       median  x floor  peak RSS
    floor       4800.5ms     1.00     2.6MB
    lint        7057.8ms     1.47    29.8MB   (NEW)
    lint-json   7010.9ms     1.46    29.8MB   (NEW)
    lint        13779.2ms    2.87    25.9MB   (OLD)
    lint-json   15007.4ms    3.13    26.0MB   (OLD)
    NEW / OLD (medians): lint 0.512, lint --format json 0.467

Two more runs with the final build (48a920b), load average 15-17: x floor 1.75 and 1.64
(`lint`), 1.07 and 1.61 (`lint-json`) against 1.90 and 4.01, 2.15 and 3.57 for OLD; peak RSS
29.5-29.8 MB against 26 MB.

System calls (`strace -f -c`, 10,000 skills): 111,055 readlink, 71,409 statx, 42,606
getdents64 and 31,353 openat before; 1,055, 21,513, 22,604 and 21,323 after (the floor, `find`
and `cat`: 43,745 newfstatat, 22,408 getdents64, 21,400 openat). CPU (user + system, GNU time)
0.86-0.96 s before, 0.59-0.68 s after; the floor 0.31-0.38 s.

`--noise 1000000` (10,000 skills and 1,000,000 other files in 1,000 folders), one run each,
same load: the floor 12.6 s (0.34 s user, 1.35 s system), `lint` 7.7 s (0.88 s user, 0.57 s
system) against 8.9 s before (0.91 s user, 0.87 s system); output identical. Every entry below
the top is decided from its folder's listing, without a stat (a file costs no more than its
share of one `getdents64`), so the walk is linear in entries and bounded by its entry budget.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BIN = os.path.join(REPO, "target", "release", "dsh-skills")
GENERATOR_VERSION = "1"
WORDS = ("skill review deploy test build release docs pdf table chart image audio video data "
         "clean merge split parse render format check lint audit trace debug profile cache").split()


def generate(top, n, noise):
    stamp = os.path.join(top, ".git", "generated")
    if os.path.exists(stamp) and open(stamp).read() == f"{GENERATOR_VERSION} {n} {noise}":
        return  # made by an earlier run: a tree of a million files takes minutes to write
    if os.path.exists(top):
        shutil.rmtree(top)
    rng = random.Random(25)
    os.makedirs(os.path.join(top, ".git"))
    with open(os.path.join(top, "README.md"), "w") as f:
        f.write("# A collection\n")
    for i in range(n):
        name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
        d = os.path.join(top, "plugins", f"p{i // 100}", "skills", name)
        os.makedirs(d)
        words = []
        while sum(len(w) + 1 for w in words) < rng.randint(80, 700):
            words.append(rng.choice(WORDS))
        body = "\n".join(" ".join(rng.choice(WORDS) for _ in range(12)) for _ in range(rng.randint(12, 48)))
        refs = ""
        if i % 10 == 0:
            os.makedirs(os.path.join(d, "references"))
            with open(os.path.join(d, "references", "guide.md"), "w") as f:
                f.write("# Guide\n")
            refs = "\nRead [the guide](references/guide.md) first.\n"
        with open(os.path.join(d, "SKILL.md"), "w") as f:
            f.write(f"---\nname: {name}\ndescription: {' '.join(words)}\n---\n\n# {name}\n\n{body}\n{refs}")
    if noise:
        for i in range(noise):
            d = os.path.join(top, "noise", f"d{i // 1000}")
            if i % 1000 == 0:
                os.makedirs(d)
            with open(os.path.join(d, f"f{i}.txt"), "w") as f:
                f.write("x\n")
    with open(stamp, "w") as f:
        f.write(f"{GENERATOR_VERSION} {n} {noise}")


def peak_kb(cmd, cwd, env):
    out = subprocess.run(["/usr/bin/time", "-v", "sh", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True)
    for line in out.stderr.splitlines():
        if "Maximum resident set size" in line:
            return int(line.split(":")[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--skills", type=int, default=10000)
    ap.add_argument("--noise", type=int, default=0)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--no-build", action="store_true", help="use target/release/dsh-skills as it is")
    ap.add_argument("--bin", help="time this binary (no build)")
    ap.add_argument("--against", help="also time this binary, interleaved, and print the ratios")
    args = ap.parse_args()
    global BIN
    if args.bin:
        BIN = os.path.abspath(args.bin)
        args.no_build = True
    if not shutil.which("hyperfine"):
        sys.exit("bench: hyperfine is required (apt-get install hyperfine)")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=REPO, check=True)
    top = os.path.join(REPO, "target", "bench", f"collection-{args.skills}-{args.noise}")
    generate(top, args.skills, args.noise)
    home = os.path.join(REPO, "target", "bench", "empty-home")
    os.makedirs(home, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DSH_")}
    env.update(HOME=home, NO_COLOR="1")
    cmds = {
        "floor": "find . -name SKILL.md -print0 | xargs -0 cat > /dev/null",
        "lint": f"{BIN} lint > /dev/null",
        "lint-json": f"{BIN} lint --format json > /dev/null",
    }
    if args.against:
        other = os.path.abspath(args.against)
        cmds["lint-against"] = f"{other} lint > /dev/null"
        cmds["json-against"] = f"{other} lint --format json > /dev/null"
    export = os.path.join(top, "..", "collection-hyperfine.json")
    subprocess.run(
        ["hyperfine", "--warmup", "2", "--runs", str(args.runs), "-i",
         "--export-json", export, *cmds.values()],
        cwd=top, env=env, check=True, stdout=subprocess.DEVNULL,
    )
    results = {r["command"]: r["median"] for r in json.load(open(export))["results"]}
    floor = results[cmds["floor"]]
    print(f"{args.skills} skills three levels deep, {args.noise} non-skill files")
    print(f"{'command':<10} {'median':>9} {'x floor':>8} {'peak RSS':>9}")
    for name, cmd in cmds.items():
        med = results[cmd]
        print(f"{name:<10} {med * 1000:>7.1f}ms {med / floor:>8.2f} {peak_kb(cmd, top, env) / 1024:>7.1f}MB")
    if args.against:
        print(f"{BIN} / {args.against} (medians): "
              f"lint {results[cmds['lint']] / results[cmds['lint-against']]:.3f}, "
              f"lint --format json {results[cmds['lint-json']] / results[cmds['json-against']]:.3f}")


if __name__ == "__main__":
    main()
