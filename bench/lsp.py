#!/usr/bin/env python3
"""Benchmark `dsh-skills lsp`: diagnostics latency after a didChange, and memory over edits.

    python3 bench/lsp.py                  # 1,000 skills, 2,000 timed edits, 10,000 for memory
    python3 bench/lsp.py --skills 10000   # a bigger workspace
    python3 bench/lsp.py --edits 500 --memory-edits 2000   # quicker

It builds the release binary, generates the same deterministic tree as bench/run.py (skills
in all six roots; the project is the workspace folder), starts the server, opens a typical
SKILL.md of the project root (the median size of the generated files, ~2.5 KB), and then, one
at a time, sends an incremental didChange (typing into the description, then deleting it
again) and waits for the publishDiagnostics of that version. The latency of each edit is the
time from writing the notification to reading its diagnostics, on the client's clock. Memory
is the server's resident set (VmRSS) sampled every 1,000 edits. Nothing asserts timings: it
measures and prints.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (the tree generator)

BIN = run.BIN


class Server:
    def __init__(self, tree):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DSH_")}
        env["HOME"] = os.path.join(tree, "home")
        args = [BIN, "lsp", "--no-config", "--dsh-home", f"{tree}/home/.dsh", "--agents-home", f"{tree}/home/.agents",
                "--custom-dir", f"{tree}/custom", "--bundled-dir", f"{tree}/bundled"]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=tree)
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("bench: the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            m = self.recv()
            if m.get("id") == i and "method" not in m:
                return m
            if "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, version):
        while True:
            m = self.recv()
            if "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri \
                    and m["params"].get("version") == version:
                return m["params"]["diagnostics"]

    def rss_kb(self):
        with open(f"/proc/{self.p.pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def pick_file(tree):
    """The project-root skill file of median size."""
    files = []
    for root in ("proj/.dsh/skills", "proj/.agents/skills"):
        base = os.path.join(tree, root)
        for name in sorted(os.listdir(base)):
            p = os.path.join(base, name)
            p = os.path.join(p, "SKILL.md") if os.path.isdir(p) else p
            if os.path.isfile(p) and open(p, encoding="utf-8").read().startswith("---\nname:"):
                files.append((os.path.getsize(p), p))
    files.sort()
    return files[len(files) // 2][1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--skills", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=2000, help="timed edits")
    ap.add_argument("--memory-edits", type=int, default=10000, help="edits for the memory curve")
    ap.add_argument("--no-build", action="store_true", help="use target/release/dsh-skills as it is")
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=run.REPO, check=True)
    tree = os.path.join(run.OUT, f"tree-{args.skills}")
    run.generate(args.skills, tree)
    path = pick_file(tree)
    text = open(path, encoding="utf-8").read()
    uri = "file://" + path
    s = Server(tree)
    root = os.path.join(tree, "proj")
    s.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {},
                             "workspaceFolders": [{"uri": "file://" + root, "name": "proj"}]})
    s.notify("initialized", {})
    t0 = time.perf_counter()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                                       "text": text}})
    first = s.diagnostics(uri, 1)
    startup = time.perf_counter() - t0
    # Type into the description (line 2) and delete again: the document alternates between two
    # texts, so every edit is linted on the same kind of buffer.
    col = len(text.split("\n")[2]) - 1
    version = 1
    latencies = []
    memory = [(0, s.rss_kb())]
    total = max(args.edits, args.memory_edits)
    for i in range(total):
        version += 1
        if i % 2 == 0:
            change = {"range": {"start": {"line": 2, "character": col}, "end": {"line": 2, "character": col}},
                      "text": "x"}
        else:
            change = {"range": {"start": {"line": 2, "character": col}, "end": {"line": 2, "character": col + 1}},
                      "text": ""}
        t = time.perf_counter()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [change]})
        s.diagnostics(uri, version)
        if i < args.edits:
            latencies.append((time.perf_counter() - t) * 1000)
        if (i + 1) % 1000 == 0:
            memory.append((i + 1, s.rss_kb()))
    s.request("shutdown", None)
    s.notify("exit", None)
    s.p.wait(timeout=60)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"workspace: {args.skills} skills in six roots; file: {os.path.relpath(path, tree)} "
          f"({len(text)} bytes, {len(first)} diagnostics)")
    print(f"first diagnostics after didOpen (discovery included): {startup * 1000:.1f} ms")
    print(f"didChange -> publishDiagnostics over {len(latencies)} edits: median {statistics.median(latencies):.2f} ms, "
          f"p99 {p99:.2f} ms, max {latencies[-1]:.2f} ms")
    print("server memory (VmRSS) by edits: " + ", ".join(f"{n}: {kb / 1024:.1f} MB" for n, kb in memory))


if __name__ == "__main__":
    main()
