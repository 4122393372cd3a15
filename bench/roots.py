#!/usr/bin/env python3
"""Benchmark `lint` of harness roots filled with real skills, against `list`, `catalog` and the I/O floor.

    python3 bench/roots.py --from CLONE...                # 10,000 skills copied from those trees
    python3 bench/roots.py --from ~/src/skills --skills 5000 --runs 5
    python3 bench/roots.py --from DIR --bin NEW --against OLD   # two builds side by side

`bench/run.py` times the same commands on generated skills; this script times them on skills
that people wrote (long descriptions, many references, scripts and assets beside them). It
finds every skill folder under the `--from` trees (a folder holding `SKILL.md`; `.git` and
`node_modules` skipped, a skill inside a skill left to its bundle) and copies them, round
robin, into the six roots of bench/run.py's layout under target/bench/roots-<N>/ (the
project's `.dsh/skills` and `.agents/skills`, a custom dir, the two personal roots and a
bundled dir) until N skills are there: each pass over the sources is one more copy, its
folders suffixed `-c<k>` and the `name:` line renamed to match (files over 1 MB are not
copied). Then, in rounds that run each command once (alternating, so that a slow minute of a
shared machine falls on every command alike; each time includes starting `sh`, about a
millisecond), after two rounds of warm-up:

  - the floor: `find <tree> -name '*.md' -type f -print0 | xargs -0 cat > /dev/null`
  - `list --format json`, `catalog --quiet`, `lint --format json` and `lint` (human), with
    bench/run.py's flags (`--no-config --cwd proj --dsh-home … --custom-dir … --bundled-dir …`)

and prints medians, ratios to the floor and peak RSS (GNU time). Nothing here asserts
timings: it measures and prints.

On 2026-12-02 (the 2-core VM at a load average of 16, one run each, GNU time; clones of the eight
public skill repositories of README's table), 10,005 skills: the floor 0.7 s of CPU, `list
--format json` 0.4 s and 27 MB, `catalog --quiet` 0.3 s and 29 MB, `lint --format json` 1.8-2.0
s and 52 MB (2.1-2.4 s before the walker-thread check; same output). Most of `lint`'s time is
`bundle::check_references` (Markdown parse of each body, a stat per reference candidate).

Later that day (load average 4-9), `--bin NEW --against OLD --runs 5` with OLD = main at 9a7c241
and NEW = a neighbour's copy found from listings instead of a stat per folder: `lint --format
json` 2.25-2.83x the floor, NEW / OLD medians 0.90 and 1.05 (two runs), `lint` 0.72 and 0.92;
`catalog` 0.50-0.56x; peak RSS 51.9 MB against 50.7 MB. `strace -c -f`: 30,927 statx (10,810
failed) against 115,501 (95,384 failed); CPU 1.7 s against 2.2 s. What is left is each body's
Markdown parse and reference scan (a third of the CPU), which `catalog` does not do.

On 2026-12-03 (an idle machine), `--bin NEW --against OLD` (three runs) with OLD = main at
5ec0ab6 and NEW = a checked file keeping only the lines its findings point into: `lint --format
json` 1.36x, 1.61x and 1.45x the floor (OLD 1.40x, 1.75x, 1.44x), `lint` 1.30x, 1.75x, 1.50x
(OLD 1.45x, 1.75x, 1.40x), peak RSS 39.6-40.1 MB against 47.4-48.2 MB; `catalog` 0.30-0.36x.
5,311 M instructions against 5,485 M (callgrind), 37% of them `pulldown-cmark`'s parse of the
bodies that can hold a reference. 40 MB is reached; 1.2x the floor is not (README, Performance).

Later that day (idle), `--runs 10 --bin NEW --against OLD` with OLD = b0c7f4a and NEW = a broken
reference's sibling copy looked for only in the folders whose directory may hold it: `lint
--format json` 1.33x and 1.35x the floor (OLD 1.44x, 1.56x), `lint` 1.29x and 1.48x (OLD 1.39x,
1.59x), peak RSS 39.0-41.8 MB (OLD 39.2-40.6 MB); 5,600 M -> 5,227 M instructions. With a
code block's lines cut by memchr too (5,111 M), two more runs: NEW / OLD 1.06 and 0.97 (`lint
--format json`), 0.99 and 0.98 (`lint`), 1.36x-1.48x the floor: wall time moves with the VM.

Later still (LTO builds, load average about 1.5), `--runs 10 --bin NEW --against OLD` with OLD =
5ee6880 and NEW = the neighbour search made after every folder's walk, from those walks (no
second listing of each folder), four runs: `lint --format json` 1.39x, 1.28x, 1.13x and 1.25x
the floor (OLD 1.49x, 1.58x, 1.41x, 1.59x), `lint` 1.34x, 1.13x, 1.06x and 1.32x (OLD 1.41x,
1.60x, 1.41x, 1.52x); NEW / OLD medians 0.71-0.95; peak RSS 36.6-37.7 MB against 38.3-39.5 MB.

On 2026-12-03 (alternating rounds), `--runs 10 --bin NEW --against OLD` with OLD = b1cf0c4 and
NEW = entries read across roots while the scanning thread applies them (`par_stream`), two
runs: `lint --format json` 1.11x and 1.20x the floor (OLD 1.17x, 1.18x), `lint` 1.06x and 1.22x
(OLD 1.05x, 1.18x), peak RSS 37.6-37.9 MB (OLD 37.3-37.8 MB): the VM's minutes move the ratios
more than the change does, which 25 interleaved runs put at 2-4%.

Later that day, `--runs 10 --bin NEW --against OLD` with OLD = ba87059 and NEW = pulldown-cmark's
`simd` feature, the sibling search's listings read without `fstat` or heap buffers and the
outside walk beside the subjects' gathering: `lint --format json` 1.18x (OLD 1.21x), `lint`
1.14x (OLD 1.16x), NEW / OLD 0.978 and 0.983. Peak RSS 37.8-38.4 MB against 35.9-36.2 MB, of
which the binary's file-backed pages are most of the difference: NEW had just been copied, and
a binary's fresh file maps more pages (the same bytes peak 1.3 MB higher from a fresh copy).
Compare RSS with both binaries copied at the same moment.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BIN = os.path.join(REPO, "target", "release", "dsh-skills")
ROOTS = ["proj/.dsh/skills", "proj/.agents/skills", "custom", "home/.dsh/skills", "home/.agents/skills", "bundled"]
GENERATOR_VERSION = "1"
MAX_FILE = 1 << 20


def skill_folders(top):
    out = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", "node_modules"))
        if "SKILL.md" in filenames and dirpath != top:
            out.append(dirpath)
            dirnames[:] = []  # a SKILL.md below is this bundle's content
    return out


def copy(src, dst, suffix):
    def ignore(d, names):
        return [n for n in names if n in (".git", "node_modules")
                or (os.path.isfile(os.path.join(d, n)) and os.path.getsize(os.path.join(d, n)) > MAX_FILE)]
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)
    if suffix:
        path = os.path.join(dst, "SKILL.md")
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, FileNotFoundError):
            return
        text = re.sub(r"(?m)^name:\s*(\S.*?)\s*$", lambda m: f"name: {m.group(1).strip(chr(34) + chr(39))}{suffix}",
                      text, count=1)
        open(path, "w", encoding="utf-8").write(text)


def generate(tree, n, sources):
    stamp = os.path.join(tree, ".generated")
    key = f"{GENERATOR_VERSION} {n} " + " ".join(sources)
    if os.path.exists(stamp) and open(stamp).read() == key:
        return
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "proj", ".git"))
    for r in ROOTS:
        os.makedirs(os.path.join(tree, r), exist_ok=True)
    folders = [f for s in sources for f in skill_folders(s)]
    if not folders:
        sys.exit("bench: no skill folder under --from")
    made = 0
    k = 0
    while made < n:
        suffix = f"-c{k}" if k else ""
        for src in folders:
            if made == n:
                break
            root = os.path.join(tree, ROOTS[made % len(ROOTS)])
            name = os.path.basename(src) + suffix
            dst = os.path.join(root, name)
            i = 1
            while os.path.exists(dst):
                dst = os.path.join(root, f"{name}-{i}")
                i += 1
            copy(src, dst, suffix)
            made += 1
        k += 1
    with open(stamp, "w") as fh:
        fh.write(key)


def peak_kb(cmd):
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", cmd], capture_output=True, text=True)
    try:
        return int(p.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return 0


def alternate(cmds, runs, env, warmup=2):
    """Wall-clock medians of `cmds`, run in rounds of one run each (the first command of a round
    moving along), after `warmup` rounds: the VM's slow minutes fall on every command alike,
    not on the one that hyperfine would be running back to back just then."""
    times = {c: [] for c in cmds}
    for r in range(warmup + runs):
        for i in range(len(cmds)):
            c = cmds[(r + i) % len(cmds)]
            t0 = time.perf_counter()
            subprocess.run(c, shell=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r >= warmup:
                times[c].append(time.perf_counter() - t0)
    return {c: statistics.median(t) for c, t in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="sources", nargs="+", required=True, help="trees to copy skill folders from")
    ap.add_argument("--skills", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--no-build", action="store_true", help="use target/release/dsh-skills as it is")
    ap.add_argument("--bin", help="time this binary (no build)")
    ap.add_argument("--against", help="also time this binary, interleaved, and print the ratios")
    args = ap.parse_args()
    global BIN
    if args.bin:
        BIN = os.path.abspath(args.bin)
        args.no_build = True
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=REPO, check=True)
    tree = os.path.join(REPO, "target", "bench", f"roots-{args.skills}")
    generate(tree, args.skills, [os.path.abspath(s) for s in args.sources])
    f = (f"--no-config --cwd {tree}/proj --dsh-home {tree}/home/.dsh --agents-home {tree}/home/.agents "
         f"--custom-dir {tree}/custom --bundled-dir {tree}/bundled")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DSH_")}
    env.update(HOME=os.path.join(tree, "home"), NO_COLOR="1")
    cmds = {
        "floor": f"find {tree} -name '*.md' -type f -print0 | xargs -0 cat > /dev/null",
        "list-json": f"{BIN} list --format json {f} > /dev/null",
        "catalog": f"{BIN} catalog --quiet {f} > /dev/null",
        "lint-json": f"{BIN} lint --format json {f} > /dev/null",
        "lint": f"{BIN} lint {f} > /dev/null",
    }
    if args.against:
        other = os.path.abspath(args.against)
        cmds["lint-json-against"] = f"{other} lint --format json {f} > /dev/null"
        cmds["lint-against"] = f"{other} lint {f} > /dev/null"
    results = alternate(list(cmds.values()), args.runs, env)
    export = os.path.join(tree, "..", f"roots-{args.skills}-times.json")
    with open(export, "w") as fh:
        json.dump({"command": cmds, "median_seconds": {n: results[c] for n, c in cmds.items()}}, fh, indent=1)
    floor = results[cmds["floor"]]
    print(f"{args.skills} skills copied from {', '.join(args.sources)} into six roots")
    print(f"{'command':<18} {'median':>9} {'x floor':>8} {'peak RSS':>9}")
    for name, cmd in cmds.items():
        med = results[cmd]
        print(f"{name:<18} {med * 1000:>7.1f}ms {med / floor:>8.2f} {peak_kb(cmd) / 1024:>7.1f}MB")
    if args.against:
        print(f"{BIN} / {args.against} (medians): "
              f"lint --format json {results[cmds['lint-json']] / results[cmds['lint-json-against']]:.3f}, "
              f"lint {results[cmds['lint']] / results[cmds['lint-against']]:.3f}")


if __name__ == "__main__":
    main()
