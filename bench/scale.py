#!/usr/bin/env python3
"""Scaling benchmark: does every command's cost grow linearly with its input?

    python3 bench/scale.py                      # every shape, every command, N and 10·N
    python3 bench/scale.py --shapes keys,refs   # some shapes
    python3 bench/scale.py --commands 'lint,lint --diff'
    python3 bench/scale.py --cpu --quick        # CPU time only, 3 runs (no valgrind: fast)
    python3 bench/scale.py --markdown           # the table as the README shows it

For each input shape it generates two deterministic trees under target/bench/scale/, one at N
and one at 10·N, runs every command on both and prints the 10·N / N ratio. Linear cost gives
about 10× (a little less, since start-up does not grow); the target is at most 12×.

Two measurements per command:
  instructions  the primary one and the verdict: instructions executed, counted by valgrind's
                cachegrind without cache simulation. Deterministic, so the ratio is the
                algorithm's growth, free of the noise of a shared machine and of its caches.
  CPU time      secondary: user + system time of the process, the minimum of --runs runs after
                a warm-up (other processes only ever add time, so the smallest run is the
                closest to the command's own cost); the N and 10·N runs take turns, so that a
                spell of load falls on both; with the wall-clock ratio beside it. Caches and
                memory bandwidth show here and not in instruction counts.

Shapes (N in brackets):

  keys      one skill file whose frontmatter has N unknown top-level keys (one finding each) [10,000]
  findings  one file with N groups of mixed findings: an unknown key, a misspelled `whenToUse`
            (with a fix), a suppressed key, an unknown rule in a suppression, a broken and an
            escaping reference [1,000]
  refs      one body with N relative links, half to files that exist, half to missing ones
            (lint suggests the nearest name) [1,000]
  lines     one body of N lines [50,000]
  files     N skill files in one root, ~10% duplicate names, each with a finding [1,000]
  desc      one description of N characters (non-ASCII and escapes mixed in) [1,000,000]

Commands: list (human and json), catalog, catalog --update, show, show --rendered, explain, and
lint in the human, json, sarif and github formats and with --diff. valgrind comes from Debian's
packages (apt-get install valgrind); the full run under it takes a quarter of an hour on two
cores. Nothing here asserts timings: it measures and prints, flags a ratio above the target,
and exits 1 when an instruction ratio (or, with --cpu, a CPU-time ratio) is above it.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(REPO, "target", "bench", "scale")
BIN = os.path.join(REPO, "target", "release", "dsh-skills")
GENERATOR_VERSION = "2"
TARGET = 12.0

WORDS = ("skill review deploy test build release docs pdf table chart image audio video data clean merge "
         "split parse render format check lint audit trace debug profile cache queue stream").split()
NON_ASCII = ["café", "naïve", "Straße", "東京", "数据", "проверка", "😀", "—"]


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


def run_once(argv):
    """(wall-clock seconds, CPU seconds: user + system) of one run, output to /dev/null."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


def cpu_times(small, big, runs, warmup):
    """((wall, CPU) at N, (wall, CPU) at 10·N): the minimum of each over `runs` runs after
    `warmup` unmeasured ones. The minimum, not the mean: other processes on a shared machine
    only ever add time, so the smallest run is the closest to the command's own cost. The two
    sizes take turns, run for run, so that a spell of load on the machine falls on both rather
    than on whichever ran during it; the small one runs as many times as fit in the big one's
    time (up to 5 times as often), since a short run is the more easily disturbed."""
    small, big = small.split(), big.split()
    mins = [[float("inf")] * 2, [float("inf")] * 2]
    for i in range(warmup + runs):
        got_big = run_once(big)
        # Small runs for this round: about as much time as the big one took, 1 to 5 of them.
        reps = 1
        got_small = [run_once(small)]
        while reps < 5 and sum(w for w, _ in got_small) < got_big[0] / 2:
            got_small.append(run_once(small))
            reps += 1
        if i < warmup:
            continue
        for w, c in got_small:
            mins[0] = [min(mins[0][0], w), min(mins[0][1], c)]
        mins[1] = [min(mins[1][0], got_big[0]), min(mins[1][1], got_big[1])]
    return tuple(mins[0]), tuple(mins[1])


def instructions(cmd):
    """Instructions the command executes (cachegrind's `I refs`, without cache simulation):
    deterministic, so the ratio shows the algorithm's growth without the noise of a shared
    machine or its caches."""
    p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
                       + cmd.split(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in p.stderr.splitlines():
        if "I refs:" in line or "I   refs:" in line:
            return int(line.split(":")[-1].replace(",", ""))
    sys.exit(f"bench: cachegrind gave no count for {cmd}:\n{p.stderr[-2000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--commands", help="comma-separated command names (default: all)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N by this")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per command (the minimum counts)")
    ap.add_argument("--quick", action="store_true", help="3 runs, 1 warm-up")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin", help="the binary to measure (default: target/release/dsh-skills, built first)")
    ap.add_argument("--markdown", action="store_true", help="also print the README table")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--instructions", action="store_true", help="count instructions only (no timing)")
    mode.add_argument("--cpu", action="store_true", help="time only (no valgrind)")
    a = ap.parse_args()
    count = not a.cpu
    timed = not a.instructions
    if count and not shutil.which("valgrind"):
        sys.exit("bench: instruction counts need valgrind (apt-get install valgrind), or pass --cpu")
    global BIN
    if a.bin:
        BIN = os.path.abspath(a.bin)
    elif not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=REPO, check=True)
    runs, warmup = (3, 1) if a.quick else (a.runs, 1)
    wanted = a.commands.split(",") if a.commands else None
    rows = []
    head = f"{'shape':9} {'N':>10} {'command':22}"
    if count:
        head += f" {'instr. at N':>15} {'at 10N':>15} {'ratio':>7}"
    if timed:
        head += f" {'CPU at N':>10} {'at 10N':>10} {'ratio':>7} {'wall ratio':>10}"
    print(head, flush=True)
    for shape in a.shapes.split(","):
        base = max(1, int(SHAPES[shape][1] * a.scale))
        small, big = generate(shape, base), generate(shape, base * 10)
        for name, cmd in commands(small).items():
            if wanted and name not in wanted:
                continue
            big_cmd = commands(big)[name]
            row = {"shape": shape, "n": base, "name": name}
            if count:
                row["i"] = (instructions(cmd), instructions(big_cmd))
            if timed:
                (w1, c1), (w2, c2) = cpu_times(cmd, big_cmd, runs, warmup)
                row["cpu"], row["wall"] = (c1, c2), (w1, w2)
            rows.append(row)
            line = f"{shape:9} {base:>10,} {name:22}"
            flags = []
            if count:
                i1, i2 = row["i"]
                line += f" {i1:>15,} {i2:>15,} {i2 / i1:6.2f}x"
                if i2 / i1 > TARGET:
                    flags.append("instructions")
            if timed:
                c1, c2 = row["cpu"]
                w1, w2 = row["wall"]
                line += f" {c1 * 1000:8.1f}ms {c2 * 1000:8.1f}ms {c2 / max(c1, 1e-4):6.2f}x {w2 / w1:9.2f}x"
                if c2 / max(c1, 1e-4) > TARGET:
                    flags.append("CPU")
            if flags:
                line += f"   <-- {' and '.join(flags)} above {TARGET:g}x"
            print(line, flush=True)
    ratio = lambda pair: pair[1] / max(pair[0], 1e-4)  # noqa: E731
    if a.markdown:
        shapes = list(dict.fromkeys(r["shape"] for r in rows))
        names = list(dict.fromkeys(r["name"] for r in rows))
        cell = {(r["shape"], r["name"]): r for r in rows}
        what = " · ".join(w for w, on in (("instructions", count), ("CPU time", timed)) if on)
        print(f"\n10·N / N ratio ({what}):\n")
        print("| command | " + " | ".join(f"`{s}`" for s in shapes) + " |")
        print("|---|" + "---:|" * len(shapes))
        ns = {r["shape"]: r["n"] for r in rows}
        print("| N | " + " | ".join(f"{ns[s]:,}" for s in shapes) + " |")
        for name in names:
            cells = []
            for s in shapes:
                r = cell.get((s, name))
                if r is None:
                    cells.append("")
                    continue
                parts = []
                if count:
                    parts.append(f"{ratio(r['i']):.1f}×")
                if timed:
                    parts.append(f"{ratio(r['cpu']):.1f}×")
                cells.append(" · ".join(parts))
            print(f"| `{name}` | " + " | ".join(cells) + " |")
        if timed:
            print("\n| 10·N: CPU time (minimum of runs) | " + " | ".join(f"`{s}`" for s in shapes) + " |")
            print("|---|" + "---:|" * len(shapes))
            for name in names:
                cells = [f"{cell[(s, name)]['cpu'][1] * 1000:.0f} ms" if (s, name) in cell else "" for s in shapes]
                print(f"| `{name}` | " + " | ".join(cells) + " |")
    print()
    worst_i = max((ratio(r["i"]) for r in rows), default=0.0) if count else None
    worst_c = max((ratio(r["cpu"]) for r in rows), default=0.0) if timed else None
    if worst_i is not None:
        print(f"worst instruction ratio: {worst_i:.2f}x (target: at most {TARGET:g}x; linear is 10x)")
    if worst_c is not None:
        print(f"worst CPU-time ratio: {worst_c:.2f}x (minimum of {runs} runs; "
              f"{'secondary: caches and other processes move it' if count else 'the verdict'})")
    # The verdict: instruction counts when measured (deterministic), CPU time otherwise.
    worst = worst_i if worst_i is not None else worst_c
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
