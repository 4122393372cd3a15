#!/bin/bash
# usage: q.sh 'yaml text with \n escapes interpreted by printf %b' ...
args=()
for a in "$@"; do v="$(printf '%bX' "$a")"; args+=("${v%X}"); done
node -e 'const a=process.argv.slice(1); console.log(JSON.stringify(a))' -- "${args[@]}" > /tmp/q.json
node "$(dirname "$0")/oracle.js" /tmp/q.json
