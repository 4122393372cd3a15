#!/usr/bin/env bash
# The action's pull-request summary: `dsh-skills diff` of the pull request's base against
# HEAD (the checked-out merge or head commit), in Markdown, appended to the job summary with
# lint's counts; with a token, the one comment of the pull request that carries the marker is
# created or updated (pr-comment.py). Arguments: extra arguments for `dsh-skills diff`.
#
# Environment: GITHUB_EVENT_PATH (pull_request.base.sha), GITHUB_STEP_SUMMARY, RUNNER_TEMP,
# LINT_ERRORS / LINT_WARNINGS (the lint step's outputs), and for the comment GITHUB_TOKEN,
# GITHUB_REPOSITORY, GITHUB_API_URL.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
base="$(python3 -c 'import json,os; print((json.load(open(os.environ["GITHUB_EVENT_PATH"])).get("pull_request") or {}).get("base", {}).get("sha", ""))')"
if [[ -z "$base" ]]; then
  echo "::notice::dsh-skills: not a pull request; no diff"
  exit 0
fi
# A shallow checkout may not hold the base commit.
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  git fetch --quiet --no-tags --depth=1 origin "$base"
fi
out="${RUNNER_TEMP:-/tmp}/dsh-skills-diff.md"
status=0
dsh-skills diff "$base" HEAD --format markdown "$@" > "$out" || status=$?
if [[ $status -gt 1 ]]; then
  exit "$status"
fi
{
  cat "$out"
  if [[ -n "${LINT_ERRORS:-}${LINT_WARNINGS:-}" ]]; then
    echo
    echo "**dsh-skills lint** of the head: ${LINT_ERRORS:-0} error(s), ${LINT_WARNINGS:-0} warning(s)."
  fi
} >> "${GITHUB_STEP_SUMMARY:-/dev/stdout}"
if [[ -n "${GITHUB_TOKEN:-}" ]]; then
  if [[ -n "${LINT_ERRORS:-}${LINT_WARNINGS:-}" ]]; then
    printf '\n**dsh-skills lint** of the head: %s error(s), %s warning(s).\n' "${LINT_ERRORS:-0}" "${LINT_WARNINGS:-0}" >> "$out"
  fi
  python3 "$here/pr-comment.py" "$out"
fi
exit "$status"
