#!/usr/bin/env python3
"""Findings by rule on real skill repositories, two binaries side by side (precision check).

    python3 bench/findings.py --before OLD_BIN --after NEW_BIN [--repos /work/repos] [REPO ...]
    python3 bench/findings.py --after BIN --sample 40          # + a sample of reference warnings

For each repository (a folder of --repos; default: every one), it runs `lint --format json`
from the repository's top with a fresh empty home and counts findings by rule and severity,
for each binary, then prints a table of the rules whose counts differ, the totals of the
reference rules (`broken-reference`, `reference-escapes-bundle`) and of `unclosed-code-fence`,
and every finding that only one binary reports (rule, severity, file, line, column, message).

Every `unclosed-code-fence` the last binary reports is checked against an independent CommonMark
parser (markdown-it-py, `pip install markdown-it-py`; skipped with a note when it is missing):
the fence must open a code block that no closing fence ends and that runs to the end of the body.
The reverse is checked too, on the skill files that were linted: a block markdown-it-py finds
unclosed to the end that lint does not report is listed.

With --sample N it prints N reference-rule warnings of the last binary (a seeded random choice
over all repositories) with the line they point at, for review by hand. It measures and prints;
it asserts nothing.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

REF_RULES = ("broken-reference", "reference-escapes-bundle")


def lint(binary, top, env):
    p = subprocess.run([binary, "lint", "--format", "json"], cwd=top, env=env, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"{binary} in {top}: no JSON (exit {p.returncode}): {p.stderr[:400]}")


def counts(doc):
    c = collections.Counter()
    for f in doc["findings"]:
        c[(f["rule"], f["severity"])] += 1
    return c


def body_of(text):
    """(body, 1-based file line of the body's first line), or None without frontmatter."""
    text = text.lstrip("\ufeff")
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r") == "---":
            return "\n".join(lines[i + 1:]), i + 2
    return None


def unclosed_fences(md, body):
    """0-based body lines of fenced blocks that no fence closes and that run to the end."""
    out = []
    last = len(body.rstrip("\n\r \t").split("\n"))
    for t in md.parse(body):
        if t.type != "fence" or not t.map:
            continue
        start, end = t.map
        content_lines = t.content.count("\n")
        # A closed block spans its opening line, its contents and its closing line.
        if end - start == content_lines + 1 and end >= last:
            out.append(start)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="the binary before the change")
    ap.add_argument("--after", required=True, help="the binary after the change")
    ap.add_argument("--repos", default="/work/repos")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or sorted(
        d for d in os.listdir(args.repos) if os.path.isdir(os.path.join(args.repos, d)) and not d.startswith(".")
    )
    bins = [("before", os.path.abspath(args.before))] if args.before else []
    bins.append(("after", os.path.abspath(args.after)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("DSH_")}
    env.update(HOME=tempfile.mkdtemp(prefix="dsh-home-"), NO_COLOR="1")
    try:
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark").enable("table")
    except ImportError:
        md = None
    totals = {label: collections.Counter() for label, _ in bins}
    moved = []
    last_findings = []
    linted = set()
    for name in names:
        top = os.path.join(args.repos, name)
        per = {}
        keyed = {}
        for label, binary in bins:
            doc = lint(binary, top, env)
            per[label] = counts(doc)
            keyed[label] = collections.Counter(
                (f["rule"], f["severity"], f["displayPath"], f["line"], f["column"], f["message"]) for f in doc["findings"]
            )
            totals[label].update(per[label])
            if label == "after":
                last_findings += [dict(f, repo=name) for f in doc["findings"]]
                linted.update(i["path"] for i in doc.get("inputs", []) if isinstance(i, dict) and "path" in i)
        if len(bins) == 2:
            for k in sorted((keyed["before"] - keyed["after"]) + (keyed["after"] - keyed["before"]), key=str):
                moved.append((name, "before only" if keyed["before"][k] > keyed["after"][k] else "after only", k))
        keys = sorted(set().union(*per.values()))
        print(f"== {name}")
        for k in keys:
            row = [per[label].get(k, 0) for label, _ in bins]
            mark = "" if len(set(row)) == 1 else "   <- changed"
            if mark or k[0] in REF_RULES or k[0] == "unclosed-code-fence":
                print(f"  {k[0]:<28} {k[1]:<8} " + " ".join(f"{n:>6}" for n in row) + mark)
    print("== all repositories (" + ", ".join(label for label, _ in bins) + ")")
    for rule in (*REF_RULES, "unclosed-code-fence", "home-path"):
        for sev in ("error", "warning", "info"):
            row = [totals[label].get((rule, sev), 0) for label, _ in bins]
            if any(row):
                print(f"  {rule:<28} {sev:<8} " + " ".join(f"{n:>6}" for n in row))

    if len(bins) == 2:
        print(f"== findings not in both runs (rule, severity, file, line, column, message): {len(moved)}")
        for name, side, k in moved:
            print(f"  {side}: {name}: {k[2]}:{k[3]}:{k[4]} [{k[0]} {k[1]}] {k[5][:140]}")

    # Every reported unclosed fence, checked by markdown-it-py; and the ones it finds that lint does not.
    fences = [f for f in last_findings if f["rule"] == "unclosed-code-fence"]
    print(f"== unclosed-code-fence ({args.after}): {len(fences)}")
    if md is None:
        print("  (markdown-it-py is not installed: not checked)")
    else:
        reported = set()
        for f in fences:
            with open(f["path"], encoding="utf-8", errors="replace") as fh:
                split = body_of(fh.read())
            ok = split is not None and (f["line"] - split[1]) in unclosed_fences(md, split[0])
            reported.add((f["path"], f["line"]))
            print(f"  {'confirmed' if ok else 'NOT CONFIRMED'}: {f['path']}:{f['line']}")
        skill_files = set()
        for name in names:
            for dp, dn, fn in os.walk(os.path.join(args.repos, name)):
                dn[:] = [d for d in dn if d not in (".git", "node_modules")]
                skill_files.update(os.path.join(dp, x) for x in fn if x == "SKILL.md")
        missed = []
        for path in sorted(skill_files):
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    split = body_of(fh.read())
            except OSError:
                continue
            if split is None:
                continue
            for line in unclosed_fences(md, split[0]):
                if (path, line + split[1]) not in reported:
                    missed.append(f"{path}:{line + split[1]}")
        print(f"  unclosed to the end per markdown-it-py, not reported: {len(missed)}")
        for m in missed:
            print(f"    {m}")

    if args.sample:
        warnings = [f for f in last_findings if f["rule"] in REF_RULES and f["severity"] == "warning"]
        rng = random.Random(args.seed)
        chosen = sorted(rng.sample(warnings, min(args.sample, len(warnings))), key=lambda f: (f["path"], f["line"] or 0))
        print(f"== a sample of {len(chosen)} of {len(warnings)} reference-rule warnings (seed {args.seed})")
        for n, f in enumerate(chosen, 1):
            src = ""
            if f["line"]:
                with open(f["path"], encoding="utf-8", errors="replace") as fh:
                    lines = fh.read().split("\n")
                src = lines[f["line"] - 1].strip()[:160] if f["line"] <= len(lines) else ""
            print(f"{n:>3}. {f['repo']}: {f['displayPath']}:{f['line']}:{f['column']} [{f['rule']}] {f['message']}")
            print(f"     label: {f['label']}")
            print(f"     line: {src}")


if __name__ == "__main__":
    main()
