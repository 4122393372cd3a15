#!/usr/bin/env python3
"""Benchmark dsh-skills against the I/O floor, side by side, with hyperfine.

    python3 bench/run.py                 # sizes 100, 1000, 10000
    python3 bench/run.py --sizes 1000    # one size
    python3 bench/run.py --quick         # fewer runs
    python3 bench/run.py --bin NEW --against OLD   # two builds side by side (no build)

It builds the release binary, generates deterministic skill trees (bundles and flat files in
all six roots, ~10% duplicate names across roots, ~3% broken files, descriptions of 80-700
characters with non-ASCII text, bodies of 1-4 KB; files and folders named after their skill)
under target/bench/, and times
`list --format json`, `catalog`, `lint` (when the binary has it) and `explain <name>` against
the floor: `find` + `cat` of the same files. It reports medians, ratios to the floor, the time
per skill at 10,000 against 1,000, and peak memory (GNU time's maximum resident set size).
hyperfine comes from Debian's packages; the script installs it when it can (root + apt-get).
Nothing here asserts timings: it measures and prints.
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
OUT = os.path.join(REPO, "target", "bench")
BIN = os.path.join(REPO, "target", "release", "dsh-skills")
GENERATOR_VERSION = "2"

WORDS = ("skill review deploy test build release docs pdf table chart image audio video data "
         "clean merge split parse render format check lint audit trace debug profile cache "
         "queue stream batch sync archive export import convert translate summarize").split()
NON_ASCII = ["café", "naïve", "résumé", "Straße", "über", "東京", "数据", "проверка", "ελληνικά", "😀", "—", "“quotes”"]
ROOTS = ["proj/.dsh/skills", "proj/.agents/skills", "custom", "home/.dsh/skills", "home/.agents/skills", "bundled"]


def ensure_hyperfine():
    if shutil.which("hyperfine"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing hyperfine (Debian package)...", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "hyperfine"], check=True, stdout=subprocess.DEVNULL)
        return
    sys.exit("bench: hyperfine is required (apt-get install hyperfine, or cargo install hyperfine)")


def description(rng):
    target = rng.randint(80, 700)
    parts = []
    while sum(len(p) + 1 for p in parts) < target:
        parts.append(rng.choice(NON_ASCII) if rng.random() < 0.08 else rng.choice(WORDS))
    text = " ".join(parts)[:target].rstrip()
    return text.replace('"', "'")


def body(rng):
    size = rng.randint(1024, 4096)
    lines = ["# Instructions", ""]
    while sum(len(l) + 1 for l in lines) < size:
        lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))) + ".")
    return "\n".join(lines) + "\n"


def generate(n, tree):
    stamp = os.path.join(tree, ".generated")
    if os.path.exists(stamp) and open(stamp).read() == GENERATOR_VERSION:
        return
    shutil.rmtree(tree, ignore_errors=True)
    rng = random.Random(n)
    os.makedirs(os.path.join(tree, "proj", ".git"))
    for r in ROOTS:
        os.makedirs(os.path.join(tree, r), exist_ok=True)
    names = []
    for i in range(n):
        root = ROOTS[i % len(ROOTS)]
        if names and rng.random() < 0.10:
            name = rng.choice(names)  # a duplicate name in another (or the same) root
        else:
            name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
            names.append(name)
        text = f'---\nname: {name}\ndescription: "{description(rng)}"\n'
        if rng.random() < 0.05:
            text += "disable-model-invocation: true\n"
        if rng.random() < 0.2:
            text += f"metadata:\n  owner: team-{i % 7}\n  version: {i % 5}.0\n"
        text += "---\n\n" + body(rng)
        roll = rng.random()
        if roll < 0.01:
            text = text.replace("description: ", "description: broken: ", 1).replace('"', "", 2)
        elif roll < 0.02:
            text = text.replace("name: ", "name: Bad_", 1)
        elif roll < 0.03:
            text = text.replace("---\n", "", 1)
        # Files and folders are named after their skill, as authors name them; a duplicate
        # name that lands in the same root gets a suffix.
        flat = rng.random() < 0.4
        stem = name
        while os.path.exists(os.path.join(tree, root, stem)) or os.path.exists(os.path.join(tree, root, stem + ".md")):
            stem = f"{name}-copy{i}"
        if flat:
            path = os.path.join(tree, root, f"{stem}.md")
        else:
            path = os.path.join(tree, root, stem, "SKILL.md")
            os.makedirs(os.path.dirname(path))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    with open(os.path.join(tree, ".winner"), "w") as fh:
        fh.write(names[len(names) // 2])
    with open(stamp, "w") as fh:
        fh.write(GENERATOR_VERSION)


def flags(tree):
    return (f"--no-config --cwd {tree}/proj --dsh-home {tree}/home/.dsh --agents-home {tree}/home/.agents "
            f"--custom-dir {tree}/custom --bundled-dir {tree}/bundled")


def has_lint():
    out = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
    return "\n  lint" in out


AGAINST = None


def commands(tree):
    f = flags(tree)
    winner = open(os.path.join(tree, ".winner")).read()
    cmds = {
        "floor (find + cat)": f"find {tree} -name '*.md' -type f -print0 | xargs -0 cat > /dev/null",
        "list --format json": f"{BIN} list --format json {f} > /dev/null",
        "catalog": f"{BIN} catalog --quiet {f} > /dev/null",
    }
    if has_lint():
        cmds["lint"] = f"{BIN} lint --format json {f} > /dev/null"
        if AGAINST:
            cmds["lint (against)"] = f"{AGAINST} lint --format json {f} > /dev/null"
            cmds["catalog (against)"] = f"{AGAINST} catalog --quiet {f} > /dev/null"
    cmds["explain"] = f"{BIN} explain {winner} {f} > /dev/null"
    return cmds


def hyperfine(cmds, runs, warmup, export):
    args = ["hyperfine", "--style", "none", "--warmup", str(warmup), "--runs", str(runs), "-i", "--export-json", export]
    for name, cmd in cmds.items():
        args += ["-n", name, cmd]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    with open(export) as fh:
        return {r["command"]: r for r in json.load(fh)["results"]}


def peak_kb(cmd):
    if not os.path.exists("/usr/bin/time"):
        return None
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", cmd], capture_output=True, text=True)
    try:
        return int(p.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--quick", action="store_true", help="fewer runs")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin", help="time this binary (no build)")
    ap.add_argument("--against", help="also time this binary's lint and catalog, in the same hyperfine run")
    a = ap.parse_args()
    global BIN, AGAINST
    if a.bin:
        BIN = os.path.abspath(a.bin)
        a.no_build = True
    if a.against:
        AGAINST = os.path.abspath(a.against)
    ensure_hyperfine()
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=REPO, check=True)
    sizes = [int(s) for s in a.sizes.split(",")]
    rows = []
    per_skill = {}
    for n in sizes:
        tree = os.path.join(OUT, f"tree-{n}")
        generate(n, tree)
        cmds = commands(tree)
        runs = 5 if a.quick else (20 if n >= 10000 else 30)
        res = hyperfine(cmds, runs, 2 if a.quick else 3, os.path.join(OUT, f"hyperfine-{n}.json"))
        floor = res["floor (find + cat)"]["median"]
        for name, cmd in cmds.items():
            med = res[name]["median"]
            kb = peak_kb(cmd)
            rows.append((n, name, med * 1000, med / floor, kb))
            per_skill[(n, name)] = med / n
    version = subprocess.run(["hyperfine", "--style", "none", "-N", "--warmup", "5", "--runs", "50", "--export-json",
                              os.path.join(OUT, "hyperfine-version.json"), f"{BIN} --version"],
                             check=True, stdout=subprocess.DEVNULL)
    vmed = json.load(open(os.path.join(OUT, "hyperfine-version.json")))["results"][0]["median"] * 1000
    print(f"machine: {os.cpu_count()} cores; {subprocess.run(['uname', '-srm'], capture_output=True, text=True).stdout.strip()}")
    print()
    print("| skills | command | median | × floor | peak RSS |")
    print("|---:|---|---:|---:|---:|")
    for n, name, ms, ratio, kb in rows:
        mem = f"{kb / 1024:.1f} MB" if kb else "-"
        print(f"| {n:,} | {name} | {ms:.1f} ms | {ratio:.2f} | {mem} |")
    print(f"| - | --version | {vmed:.2f} ms | - | - |")
    if 1000 in sizes and 10000 in sizes:
        print()
        for name in commands(os.path.join(OUT, "tree-10000")):
            r = per_skill[(10000, name)] / per_skill[(1000, name)]
            print(f"time per skill at 10,000 / at 1,000, {name}: {r:.2f}")


if __name__ == "__main__":
    main()
