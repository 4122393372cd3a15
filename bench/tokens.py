#!/usr/bin/env python3
"""What exact token counts cost: each command that shows tokens, and each that does not, timed
side by side against a binary without them (hyperfine), on the demo and on a 10,000-skill tree.

    python3 bench/tokens.py --base /path/to/main/release/dsh-skills
    python3 bench/tokens.py --base OLD --bin NEW --runs 20 --sizes 10000

`--bin` defaults to target/release/dsh-skills (build it first: `cargo build --release`);
`--base` is a release binary of a revision before the tokenizer (e.g. main's, built from
`git archive main` with its own --target-dir). The tree is bench/run.py's (bundles and flat
files in six roots, descriptions of 80-700 characters, bodies of 1-4 KB), generated under
target/bench/. For each command it prints both wall-clock medians and their ratio, the mean CPU
time (user + system) of each, which a busy machine disturbs less, and the peak resident set size
of each (GNU time). Nothing here asserts timings: it measures and prints.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run  # noqa: E402  (the tree generator)

DEMO = (f"--no-config --cwd {REPO} --dsh-home {REPO}/demo/home/.dsh --agents-home {REPO}/demo/home/.agents "
        f"--custom-dir {REPO}/demo/team-skills --bundled-dir {REPO}/demo/bundled")


def commands(flags, winner):
    return {
        "catalog": f"catalog {flags}",
        "catalog --format json": f"catalog --format json {flags}",
        "catalog --quiet": f"catalog --quiet {flags}",
        "list": f"list {flags}",
        "list --format json": f"list --format json {flags}",
        "show": f"show {winner} {flags}",
        "show --format json": f"show {winner} --format json {flags}",
    }


def peak_kb(cmd):
    if not os.path.exists("/usr/bin/time"):
        return None
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd.split(), capture_output=True, text=True)
    try:
        return int(p.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="release binary without exact tokens")
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "dsh-skills"))
    ap.add_argument("--sizes", default="10000", help="tree sizes besides the demo")
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    if not shutil.which("hyperfine"):
        sys.exit("bench: hyperfine is required (apt-get install hyperfine)")
    setups = [("demo", DEMO, "pdf-tools")]
    for n in [int(s) for s in a.sizes.split(",") if s]:
        tree = os.path.join(run.OUT, f"tree-{n}")
        run.generate(n, tree)
        setups.append((f"{n:,} skills", run.flags(tree), open(os.path.join(tree, ".winner")).read()))
    print("| input | command | base (median) | new (median) | new / base | CPU base → new (ratio) | peak RSS base → new |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, flags, winner in setups:
        for name, args in commands(flags, winner).items():
            base, new = f"{a.base} {args}", f"{a.bin} {args}"
            export = os.path.join(run.OUT, "hyperfine-tokens.json")
            subprocess.run(["hyperfine", "-N", "--style", "none", "--warmup", "3", "--runs", str(a.runs), "-i",
                            "--export-json", export, "-n", "base", base, "-n", "new", new],
                           check=True, stdout=subprocess.DEVNULL)
            results = json.load(open(export))["results"]
            res = {r["command"]: r["median"] * 1000 for r in results}
            cpu = {r["command"]: (r["user"] + r["system"]) * 1000 for r in results}
            kb = (peak_kb(base), peak_kb(new))
            mem = " → ".join(f"{k / 1024:.0f} MB" if k else "-" for k in kb)
            print(f"| {label} | {name} | {res['base']:.1f} ms | {res['new']:.1f} ms | "
                  f"{res['new'] / res['base']:.2f} | {cpu['base']:.0f} → {cpu['new']:.0f} ms "
                  f"({cpu['new'] / cpu['base']:.2f}) | {mem} |", flush=True)


if __name__ == "__main__":
    main()
