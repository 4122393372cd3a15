#!/usr/bin/env python3
"""Benchmark `dsh-skills watch`: write → event latency, idle CPU, memory over many events.

    python3 bench/watch.py                      # 1,000 and 10,000 skills
    python3 bench/watch.py --sizes 1000 --edits 50 --events 2000
    python3 bench/watch.py --bin /tmp/old/dsh-skills --no-build   # another build, side by side

For each size it generates a project with that many skill bundles (under target/bench-watch/),
starts the release binary's `watch --format json --no-config` (`$CARGO_TARGET_DIR/release`, else
`target/release`; `--bin` for another), and then:

* latency: rewrites one SKILL.md with a new description, `--edits` times (a different skill
  each time), and times from the write's close to the line that carries the new entry; the
  figure that matters is the time beyond the stability threshold (default 200 ms);
* re-read: the `reread` counts of those events (files and roots read again: 1 and 0 for an edit);
* idle CPU: the process's user+system CPU time over `--idle` seconds with nothing changing;
* memory: resident set size after the start and after `--events` further events (with a 1 ms
  threshold so that they come quickly), sampled along the way; on the first size only.

Nothing here asserts: it measures and prints. Linux only (it reads /proc).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import queue
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
OUT = os.path.join(TARGET, "bench-watch")
BIN = os.path.join(TARGET, "release", "dsh-skills")


def skill_text(name, description, body="Use the skill.\n" * 20):
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}"


def make_tree(size):
    base = os.path.join(OUT, str(size))
    shutil.rmtree(base, ignore_errors=True)
    root = os.path.join(base, "p", ".dsh", "skills")
    os.makedirs(os.path.join(base, "p", ".git"))
    os.makedirs(os.path.join(base, "home"))
    for i in range(size):
        d = os.path.join(root, f"skill-{i:05d}")
        os.makedirs(d)
        with open(os.path.join(d, "SKILL.md"), "w") as f:
            f.write(skill_text(f"skill-{i:05d}", f"Skill number {i}, version 0."))
    return base, root


class Watch:
    def __init__(self, base, threshold):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DSH_")}
        env["HOME"] = os.path.join(base, "home")
        self.proc = subprocess.Popen(
            [BIN, "watch", "--no-config", "--format", "json", "--cwd", os.path.join(base, "p"),
             "--stability-threshold", str(threshold)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line))

    def next(self, pred, timeout=120):
        deadline = time.perf_counter() + timeout
        while True:
            t, line = self.lines.get(timeout=max(0.01, deadline - time.perf_counter()))
            e = json.loads(line)
            if pred(e):
                return t, e

    def cpu(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def has_description(name, description):
    def pred(e):
        if e.get("event") != "catalog" or not e.get("entries"):
            return False
        return any(x["name"] == name and x["description"] == description for x in e["entries"])
    return pred


def bench(size, args):
    base, root = make_tree(size)
    print(f"\n== {size} skills ==")
    w = Watch(base, args.threshold)
    t0 = time.perf_counter()
    w.next(lambda e: e.get("event") == "catalog")
    print(f"start (first catalog): {(time.perf_counter() - t0) * 1000:.0f} ms, RSS {w.rss_kib() / 1024:.1f} MiB")
    latencies, reread = [], []
    for k in range(args.edits):
        i = (k * 7919) % size
        name = f"skill-{i:05d}"
        desc = f"Skill number {i}, edit {k}."
        with open(os.path.join(root, name, "SKILL.md"), "w") as f:
            f.write(skill_text(name, desc))
        wrote = time.perf_counter()
        t, e = w.next(has_description(name, desc))
        latencies.append((t - wrote) * 1000)
        reread.append((e["reread"]["files"], e["reread"]["roots"]))
    over = [l - args.threshold for l in latencies]
    print(f"write → event: median {statistics.median(latencies):.0f} ms, "
          f"max {max(latencies):.0f} ms over {args.edits} edits "
          f"(beyond the {args.threshold} ms threshold: median {statistics.median(over):.0f} ms, "
          f"p90 {sorted(over)[int(len(over) * 0.9) - 1]:.0f} ms)")
    print(f"re-read per edit (files, roots): {sorted(set(reread))}")
    c0 = w.cpu()
    time.sleep(args.idle)
    print(f"idle CPU over {args.idle} s: {(w.cpu() - c0) * 1000:.0f} ms "
          f"({(w.cpu() - c0) / args.idle * 100:.2f} % of one core)")
    w.stop()
    if args.events and size == args.sizes[0]:
        w = Watch(base, 1)
        w.next(lambda e: e.get("event") == "catalog")
        samples = [w.rss_kib()]
        path = os.path.join(root, "skill-00000", "SKILL.md")
        for k in range(args.events):
            desc = f"Memory run {k}."
            with open(path, "w") as f:
                f.write(skill_text("skill-00000", desc))
            w.next(has_description("skill-00000", desc))
            if (k + 1) % max(1, args.events // 5) == 0:
                samples.append(w.rss_kib())
        print("RSS over " + f"{args.events} events (MiB): " + ", ".join(f"{s / 1024:.1f}" for s in samples))
        w.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--edits", type=int, default=30)
    ap.add_argument("--events", type=int, default=10000)
    ap.add_argument("--idle", type=float, default=10.0)
    ap.add_argument("--threshold", type=int, default=200)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin", help="the binary to measure (default: the release build)")
    args = ap.parse_args()
    global BIN
    if args.bin:
        BIN = os.path.abspath(args.bin)
        args.no_build = True
    if not sys.platform.startswith("linux"):
        sys.exit("bench/watch.py reads /proc: Linux only")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--target-dir", TARGET], cwd=REPO, check=True)
    for size in args.sizes:
        bench(size, args)


if __name__ == "__main__":
    main()
