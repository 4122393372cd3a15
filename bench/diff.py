#!/usr/bin/env python3
"""Benchmark `dsh-skills diff A B` against two `catalog` runs, side by side.

    python3 bench/diff.py                      # 1,000 skills
    python3 bench/diff.py --skills 5000 --runs 5
    python3 bench/diff.py --bin path/to/dsh-skills --no-build

It builds the release binary and generates a deterministic git repository under
target/bench/diff-<N>/: N skills as `.agents/skills/<name>/SKILL.md` (descriptions of 80-700
characters, bodies of 1-4 KB), committed as A; then a tenth of the descriptions reworded, a
tenth of the bodies edited, 2% of the skills removed and as many added, committed as B (the
work tree is left at B), objects packed as in a clone (`--loose` leaves them loose). Then hyperfine times

  - `catalog` twice, one after the other, on the work tree (what diff replaces: a catalog at
    each side, without the checkouts it would need),
  - `diff A B` (both sides read from git objects) and `diff A` (A against the work tree),
  - `diff A B --format json`,

and prints medians and each one's ratio to the two catalog runs. The target is at most 2x.
On a shared machine wall times move with the load, so it also runs the commands in turn
(`--cpu-runs` rounds, interleaved) and prints the median CPU time each one used, user and
system, its git processes included, with the same ratio. Nothing here asserts timings: it
measures and prints.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
WORDS = ("skill review deploy test build release docs pdf table chart image audio video data "
         "clean merge split parse render format check lint audit trace debug profile cache").split()


def git(top, *args):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=top)
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com",
                    "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
                   cwd=top, env=env, check=True, stdout=subprocess.DEVNULL)


def words(rng, lo, hi):
    out = []
    target = rng.randint(lo, hi)
    while sum(len(w) + 1 for w in out) < target:
        out.append(rng.choice(WORDS))
    return " ".join(out)


def write_skill(top, name, description, body):
    d = os.path.join(top, ".agents", "skills", name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "SKILL.md"), "w") as f:
        f.write(f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n")


def generate(top, n, packed):
    if os.path.exists(top):
        shutil.rmtree(top)
    os.makedirs(top)
    rng = random.Random(29)
    git(top, "init", "-q")
    skills = {}
    for i in range(n):
        name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
        body = "\n".join(words(rng, 60, 90) for _ in range(rng.randint(12, 48)))
        skills[name] = [words(rng, 80, 700), body]
        write_skill(top, name, *skills[name])
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "A")
    names = sorted(skills)
    for name in rng.sample(names, n // 10):
        skills[name][0] = words(rng, 80, 700)
        write_skill(top, name, *skills[name])
    for name in rng.sample(names, n // 10):
        skills[name][1] += "\nOne more line.\n"
        write_skill(top, name, *skills[name])
    for name in rng.sample(names, n // 50):
        shutil.rmtree(os.path.join(top, ".agents", "skills", name))
    for i in range(n // 50):
        write_skill(top, f"added-{i}", words(rng, 80, 700), words(rng, 200, 400))
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "B")
    if packed:
        git(top, "gc", "-q")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--skills", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "dsh-skills"))
    ap.add_argument("--no-build", action="store_true", help="use the binary as it is")
    ap.add_argument("--loose", action="store_true", help="leave the objects loose (default: packed, as a clone is)")
    ap.add_argument("--cpu-runs", type=int, default=10, help="interleaved rounds for the CPU times (0: none)")
    args = ap.parse_args()
    if not shutil.which("hyperfine"):
        sys.exit("bench: hyperfine is required (apt-get install hyperfine)")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked"], cwd=REPO, check=True)
    top = os.path.join(REPO, "target", "bench", f"diff-{args.skills}")
    generate(top, args.skills, not args.loose)
    home = os.path.join(REPO, "target", "bench", "empty-home")
    os.makedirs(home, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DSH_")}
    env.update(HOME=home, NO_COLOR="1")
    b = os.path.abspath(args.bin)  # the commands run inside the generated repository
    cmds = {
        "2x catalog": f"{b} catalog -q > /dev/null; {b} catalog -q > /dev/null",
        "diff A B": f"{b} diff HEAD~1 HEAD > /dev/null",
        "diff A": f"{b} diff HEAD~1 > /dev/null",
        "diff A B json": f"{b} diff HEAD~1 HEAD --format json > /dev/null",
    }
    export = os.path.join(top, "..", f"diff-{args.skills}-hyperfine.json")
    subprocess.run(
        ["hyperfine", "--warmup", "2", "--runs", str(args.runs), "--shell=sh",
         "--export-json", export, *cmds.values()],
        cwd=top, env=env, check=True, stdout=subprocess.DEVNULL,
    )
    results = {r["command"]: r["median"] for r in json.load(open(export))["results"]}
    base = results[cmds["2x catalog"]]
    cpu = cpu_times(cmds, top, env, args.cpu_runs)
    print(f"{args.skills} skills, two commits (10% descriptions and 10% bodies changed, 2% removed, 2% added)")
    print(f"{'command':<14} {'median':>9} {'x 2 catalogs':>13} {'cpu':>9} {'x 2 catalogs':>13}")
    for name, cmd in cmds.items():
        med = results[cmd]
        line = f"{name:<14} {med * 1000:>7.1f}ms {med / base:>13.2f}"
        if cpu:
            line += f" {cpu[name] * 1000:>7.1f}ms {cpu[name] / cpu['2x catalog']:>13.2f}"
        print(line)


def cpu_times(cmds, top, env, rounds):
    """Median CPU time (user + system, children included) of each command, run in turn."""
    if rounds <= 0:
        return None
    times = {name: [] for name in cmds}
    for i in range(rounds + 1):
        for name, cmd in cmds.items():
            p = subprocess.Popen(["sh", "-c", cmd], cwd=top, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            if status != 0:
                sys.exit(f"bench: {cmd} failed")
            if i:  # the first round warms the caches
                times[name].append(usage.ru_utime + usage.ru_stime)
    return {name: statistics.median(t) for name, t in times.items()}


if __name__ == "__main__":
    main()
