#!/usr/bin/env python3
"""Scaling benchmark: does every command's cost grow linearly with its input?

    python3 bench/scale.py                      # every shape, every command, N and 10·N
    python3 bench/scale.py --shapes keys,refs   # some shapes
    python3 bench/scale.py --quick              # fewer runs
    python3 bench/scale.py --markdown           # the table as the README shows it

For each input shape it generates two deterministic trees under target/bench/scale/, one at N
and one at 10·N, times every command on both with hyperfine (medians) and prints the ratio.
Linear cost gives about 10× (a little less, since start-up does not grow); the target is at
most 12×. It reports the median wall-clock time and the mean CPU time (user + system) of each
command; the verdict uses CPU time, which other processes on a shared machine disturb far less
than the wall clock. Shapes (N in brackets):

  keys      one skill file whose frontmatter has N unknown top-level keys (one finding each) [10,000]
  findings  one file with N groups of mixed findings: an unknown key, a misspelled `whenToUse`
            (with a fix), a suppressed key, an unknown rule in a suppression, a broken and an
            escaping reference [1,000]
  refs      one body with N relative links, half to files that exist, half to missing ones
            (lint suggests the nearest name) [1,000]
  lines     one body of N lines [50,000]
  files     N skill files in one root, ~10% duplicate names, each with a finding [1,000]
  desc      one description of N characters (non-ASCII and escapes mixed in) [1,000,000]

With --instructions it counts each command's instructions with valgrind's callgrind instead
(deterministic: the algorithm's growth without the machine's noise or its caches; slow, so
combine it with --scale, e.g. --scale 0.2).

Commands: list (human and json), catalog, catalog --update, show, show --rendered, explain, and
lint in the human, json, sarif and github formats and with --diff. hyperfine comes from
Debian's packages; the script installs it when it can (root + apt-get). Nothing here asserts
timings: it measures and prints, and flags a ratio above the target.
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
OUT = os.path.join(REPO, "target", "bench", "scale")
BIN = os.path.join(REPO, "target", "release", "dsh-skills")
GENERATOR_VERSION = "2"
TARGET = 12.0

WORDS = ("skill review deploy test build release docs pdf table chart image audio video data clean merge "
         "split parse render format check lint audit trace debug profile cache queue stream").split()
NON_ASCII = ["café", "naïve", "Straße", "東京", "数据", "проверка", "😀", "—"]


def ensure_hyperfine():
    if shutil.which("hyperfine"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing hyperfine (Debian package)...", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "hyperfine"], check=True, stdout=subprocess.DEVNULL)
        return
    sys.exit("bench: hyperfine is required (apt-get install hyperfine, or cargo install hyperfine)")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def skill_dir(tree):
    return os.path.join(tree, "proj", ".dsh", "skills")


def whentouse_spelling(i):
    """The i-th distinct spelling that lint reads as a misspelled `whenToUse` (`when_To-use`):
    a case for each letter, then `-`, `_` or nothing between letters (512 × 6,561 spellings)."""
    letters = "whentouse"
    out = []
    for j, ch in enumerate(letters):
        out.append(ch.upper() if (i >> j) & 1 else ch)
        if j < len(letters) - 1:
            out.append(["", "-", "_"][(i >> len(letters)) // 3 ** j % 3])
    return "".join(out)


def gen_keys(tree, n, rng):
    # Fixed-width names: every unit of input is the same size at N and at 10·N.
    keys = "".join(f"x-key-{i:07d}: value {i:07d}\n" for i in range(n))
    write(os.path.join(skill_dir(tree), "victim", "SKILL.md"),
          f"---\nname: victim\ndescription: many keys\n{keys}---\nBody.\n")


def gen_findings(tree, n, rng):
    fm = []
    body = ["# Mixed findings", ""]
    for i in range(n):
        fm.append(f"unknown-{i:07d}: {i:07d}")
        spelling = whentouse_spelling(i)
        if spelling == "whenToUse":  # the right spelling: take one no other group uses
            spelling = whentouse_spelling(1 << 20)
        fm.append(f"{spelling}: when {i}")
        fm.append("# dsh-skills-lint: disable-next-line unknown-key")
        fm.append(f"suppressed-{i:07d}: {i:07d}")
        fm.append(f"# dsh-skills-lint: disable-next-line no-such-rule-{i % 7}")
        body.append(f"See [missing {i:07d}](references/missing-{i:07d}.md) and [outside](../outside-{i:07d}.md).")
    write(os.path.join(skill_dir(tree), "victim", "SKILL.md"),
          "---\nname: victim\ndescription: mixed findings\n" + "\n".join(fm) + "\n---\n" + "\n".join(body) + "\n")


def gen_refs(tree, n, rng):
    d = os.path.join(skill_dir(tree), "victim")
    body = ["# References", ""]
    for i in range(n):
        if i % 2 == 0:
            write(os.path.join(d, "references", f"doc-{i:07d}.md"), f"doc {i:07d}\n")
            body.append(f"Read [doc {i:07d}](references/doc-{i:07d}.md) first.")
        else:
            body.append(f"Then [doc {i:07d}](references/doc-{i:07d}.md) and `scripts/run-{i:07d}.py`.")
    write(os.path.join(d, "SKILL.md"), "---\nname: victim\ndescription: many references\n---\n" + "\n".join(body) + "\n")


def gen_lines(tree, n, rng):
    lines = [" ".join(rng.choice(WORDS) for _ in range(8)) + "." for _ in range(n)]
    write(os.path.join(skill_dir(tree), "victim", "SKILL.md"),
          "---\nname: victim\ndescription: a long body\n---\n" + "\n".join(lines) + "\n")


def gen_files(tree, n, rng):
    names = []
    for i in range(n):
        if names and rng.random() < 0.10:
            name = rng.choice(names)
        else:
            name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i:07d}"
            names.append(name)
        # The folder is named after the index: every skill draws a name-mismatch finding.
        text = (f"---\nname: {name}\ndescription: skill {i} to {rng.choice(WORDS)} {rng.choice(NON_ASCII)}\n"
                f"x-owner: team-{i % 7}\n---\n\nUse it. See [notes](notes-{i:07d}.md).\n")
        write(os.path.join(skill_dir(tree), f"s{i:06d}", "SKILL.md"), text)
    write(os.path.join(tree, ".victim"), names[len(names) // 2])


def gen_desc(tree, n, rng):
    parts = []
    size = 0
    while size < n:
        w = rng.choice(NON_ASCII) if rng.random() < 0.1 else rng.choice(WORDS)
        if rng.random() < 0.01:
            w = "\\e[31m" + w + "\\u202e"
        parts.append(w)
        size += len(w) + 1
    desc = " ".join(parts)[:n]
    desc = desc.rstrip("\\")
    write(os.path.join(skill_dir(tree), "victim", "SKILL.md"),
          f'---\nname: victim\ndescription: "{desc}"\n---\nBody.\n')


SHAPES = {
    "keys": (gen_keys, 10_000),
    "findings": (gen_findings, 1_000),
    "refs": (gen_refs, 1_000),
    "lines": (gen_lines, 50_000),
    "files": (gen_files, 1_000),
    "desc": (gen_desc, 1_000_000),
}


def generate(shape, n):
    tree = os.path.join(OUT, f"{shape}-{n}")
    stamp = os.path.join(tree, ".generated")
    if os.path.exists(stamp) and open(stamp).read() == GENERATOR_VERSION:
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "proj", ".git"))
    os.makedirs(os.path.join(tree, "home", ".dsh"))
    os.makedirs(os.path.join(tree, "home", ".agents"))
    SHAPES[shape][0](tree, n, random.Random(n))
    with open(stamp, "w") as fh:
        fh.write(GENERATOR_VERSION)
    return tree


def commands(tree):
    f = (f"--no-config --cwd {tree}/proj --dsh-home {tree}/home/.dsh --agents-home {tree}/home/.agents "
         f"--color never")
    victim_file = os.path.join(tree, ".victim")
    victim = open(victim_file).read() if os.path.exists(victim_file) else "victim"
    return {
        "list": f"{BIN} list {f}",
        "list --format json": f"{BIN} list --format json {f}",
        "catalog": f"{BIN} catalog --quiet {f}",
        "catalog --update": f"{BIN} catalog --update --quiet {f}",
        "show": f"{BIN} show {victim} {f}",
        "show --rendered": f"{BIN} show {victim} --rendered {f}",
        "explain": f"{BIN} explain {victim} {f}",
        "lint": f"{BIN} lint {f}",
        "lint --format json": f"{BIN} lint --format json {f}",
        "lint --format sarif": f"{BIN} lint --format sarif {f}",
        "lint --format github": f"{BIN} lint --format github {f}",
        "lint --diff": f"{BIN} lint --diff {f}",
    }


def hyperfine(cmds, runs, warmup, export):
    """Per command: (median wall-clock seconds, mean CPU seconds: user + system)."""
    args = ["hyperfine", "-N", "--style", "none", "--warmup", str(warmup), "--runs", str(runs), "-i",
            "--output", "null", "--export-json", export]
    for name, cmd in cmds.items():
        args += ["-n", name, cmd]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(export) as fh:
        return {r["command"]: (r["median"], r["user"] + r["system"]) for r in json.load(fh)["results"]}


def instructions(cmd):
    """Instructions the command executes (callgrind's `Collected`): deterministic, so the ratio
    shows the algorithm's growth without the noise of a shared machine or its caches."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd.split(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in p.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    sys.exit(f"bench: callgrind gave no count for {cmd}:\n{p.stderr[-2000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N by this")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="3 runs, 1 warm-up")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="print the README table")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions with valgrind's callgrind instead of timing (slow: use --scale)")
    a = ap.parse_args()
    if a.instructions:
        if not shutil.which("valgrind"):
            sys.exit("bench: --instructions needs valgrind (apt-get install valgrind)")
    else:
        ensure_hyperfine()
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=REPO, check=True)
    runs, warmup = (3, 1) if a.quick else (a.runs, 1)
    rows = []
    worst = 0.0
    if a.instructions and not a.markdown:
        print(f"{'shape':9} {'N':9} {'command':22} {'instr. at N':>15} {'at 10N':>15} {'ratio':>7}")
    elif not a.markdown:
        print(f"{'shape':9} {'N':9} {'command':22} {'wall at N':>10} {'at 10N':>10} {'ratio':>7}"
              f" {'CPU at N':>10} {'at 10N':>10} {'ratio':>7}")
    for shape in a.shapes.split(","):
        base = max(1, int(SHAPES[shape][1] * a.scale))
        small, big = generate(shape, base), generate(shape, base * 10)
        if a.instructions:
            for name, cmd in commands(small).items():
                i1, i2 = instructions(cmd), instructions(commands(big)[name])
                worst = max(worst, i2 / i1)
                rows.append((shape, base, name, i1, i2, i2 / i1))
                if not a.markdown:
                    flag = "" if i2 / i1 <= TARGET else f"   <-- above {TARGET:g}x"
                    print(f"{shape:9} {base:<9,} {name:22} {i1:>15,} {i2:>15,} {i2 / i1:6.2f}x{flag}", flush=True)
            continue
        t_small = hyperfine(commands(small), runs, warmup, os.path.join(OUT, f"hf-{shape}-{base}.json"))
        t_big = hyperfine(commands(big), runs, warmup, os.path.join(OUT, f"hf-{shape}-{base * 10}.json"))
        for name in commands(small):
            (w1, c1), (w2, c2) = t_small[name], t_big[name]
            wall, cpu = w2 / w1, c2 / max(c1, 1e-4)
            worst = max(worst, cpu)
            rows.append((shape, base, name, w1, w2, wall, c1, c2, cpu))
            if not a.markdown:
                flag = "" if cpu <= TARGET else f"   <-- above {TARGET:g}x"
                print(f"{shape:9} {base:<9,} {name:22} {w1 * 1000:8.1f}ms {w2 * 1000:8.1f}ms {wall:6.2f}x"
                      f" {c1 * 1000:8.1f}ms {c2 * 1000:8.1f}ms {cpu:6.2f}x{flag}", flush=True)
    if a.markdown and a.instructions:
        print("| shape | N | command | instructions at N | at 10·N | ratio |")
        print("|---|---:|---|---:|---:|---:|")
        for shape, n, name, i1, i2, r in rows:
            print(f"| {shape} | {n:,} | `{name}` | {i1 / 1e6:,.1f} M | {i2 / 1e6:,.1f} M | {r:.2f}× |")
    elif a.markdown:
        print("| shape | N | command | wall at N | wall at 10·N | ratio | CPU at N | CPU at 10·N | CPU ratio |")
        print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
        for shape, n, name, w1, w2, wall, c1, c2, cpu in rows:
            print(f"| {shape} | {n:,} | `{name}` | {w1 * 1000:.0f} ms | {w2 * 1000:.0f} ms | {wall:.2f}× "
                  f"| {c1 * 1000:.0f} ms | {c2 * 1000:.0f} ms | {cpu:.2f}× |")
    print(f"\nworst {'instruction' if a.instructions else 'CPU'} ratio: {worst:.2f}x (target: at most {TARGET:g}x; linear is 10x)")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
