#!/usr/bin/env python3
"""Create or update the one pull-request comment that `dsh-skills diff --format markdown` wrote.

    pr-comment.py BODY_FILE

The comment is found again by the hidden marker on the body's first line
(`<!-- dsh-skills diff -->`): the first comment of the pull request holding it is updated, and a
new one is made only when there is none, so a pull request gets one comment however often it
is pushed to. Standard library only (every GitHub-hosted runner has Python 3).

Environment: GITHUB_TOKEN (required), GITHUB_REPOSITORY (owner/name), GITHUB_API_URL (default
https://api.github.com), and the pull request's number from DSH_SKILLS_PR or the event file
GITHUB_EVENT_PATH (`pull_request.number`).
"""
import json
import os
import sys
import urllib.error
import urllib.request

# GitHub refuses comment bodies over 65,536 characters.
MAX_BODY = 65536


def request(method, url, token, payload=None):
    data = None if payload is None else json.dumps(payload).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Accept", "application/vnd.github+json")
    req.add_header("X-GitHub-Api-Version", "2022-11-28")
    req.add_header("User-Agent", "dsh-skills-action")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            text = resp.read().decode()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        detail = e.read().decode(errors="replace")[:500]
        if e.code == 403 and method != "GET":
            # A pull request from a fork runs with a read-only token: the summary stays.
            print(f"::warning::dsh-skills: the token may not comment here ({e.code}: {detail}); "
                  "the report is in the job summary")
            sys.exit(0)
        sys.exit(f"dsh-skills: GitHub API {method} {url} answered {e.code}: {detail}")


def pr_number():
    if os.environ.get("DSH_SKILLS_PR"):
        return int(os.environ["DSH_SKILLS_PR"])
    path = os.environ.get("GITHUB_EVENT_PATH")
    if path and os.path.exists(path):
        with open(path) as f:
            event = json.load(f)
        number = (event.get("pull_request") or {}).get("number")
        if number:
            return int(number)
    sys.exit("dsh-skills: no pull request number (not a pull_request event?)")


def fit(body):
    if len(body) <= MAX_BODY:
        return body
    note = "\n\n… cut: the whole report is in the job summary.\n"
    return body[: MAX_BODY - len(note)] + note


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        body = fit(f.read())
    marker = body.split("\n", 1)[0]
    if not marker.startswith("<!--"):
        sys.exit("dsh-skills: the body does not start with its hidden marker")
    token = os.environ.get("GITHUB_TOKEN") or sys.exit("dsh-skills: GITHUB_TOKEN is empty")
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    repo = os.environ.get("GITHUB_REPOSITORY") or sys.exit("dsh-skills: GITHUB_REPOSITORY is empty")
    number = pr_number()
    existing = None
    page = 1
    while existing is None:
        comments = request("GET", f"{api}/repos/{repo}/issues/{number}/comments?per_page=100&page={page}", token)
        if not comments:
            break
        existing = next((c for c in comments if (c.get("body") or "").startswith(marker)), None)
        page += 1
    if existing:
        done = request("PATCH", f"{api}/repos/{repo}/issues/comments/{existing['id']}", token, {"body": body})
        print(f"dsh-skills: updated comment {done.get('html_url', existing['id'])}")
    else:
        done = request("POST", f"{api}/repos/{repo}/issues/{number}/comments", token, {"body": body})
        print(f"dsh-skills: created comment {done.get('html_url', done.get('id'))}")


if __name__ == "__main__":
    main()
