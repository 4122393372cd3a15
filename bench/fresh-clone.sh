#!/bin/bash
# What a fresh clone costs: clone the repository to a scratch folder, then time the README's
# Quickstart command and `cargo test --locked` with an empty target directory and empty
# integration-check caches. The cargo registry is used as it is (a first-ever Rust build also
# downloads the crates). The load average is logged every 30 s: state it with the figures.
#
# usage: bench/fresh-clone.sh [REPOSITORY] [SCRATCH]   (defaults: this clone, /tmp/dsh-fresh-clone)
set -u
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
scratch=${2:-/tmp/dsh-fresh-clone}
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch" || exit 2
git clone -q "$repo" repo && cd repo || exit 2
echo "commit: $(git log --oneline -1)"
echo "start: $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
( while true; do echo "$(date -u +%T) $(cut -d' ' -f1 /proc/loadavg)"; sleep 30; done ) > ../load.log &
logger=$!
trap 'kill $logger' EXIT
/usr/bin/time -f "quickstart: %e s wall, %U s user, %S s system" env -u CARGO_TARGET_DIR \
  cargo run --release --locked -- catalog --dsh-home demo/home/.dsh --agents-home demo/home/.agents \
  --custom-dir demo/team-skills --bundled-dir demo/bundled > ../quickstart.out 2> ../quickstart.err
tail -1 ../quickstart.err
/usr/bin/time -f "cargo test: %e s wall, %U s user, %S s system" env -u CARGO_TARGET_DIR \
  DSH_SKILLS_TEST_CACHE="$scratch/cache" cargo test --locked > ../test.out 2> ../test.err
echo "cargo test exit status: $?"
tail -1 ../test.err
echo "end: $(date -u +%FT%TZ)"
sort -k2 -n ../load.log | awk '{a[NR]=$2} END {print "load average (1 min): median " a[int((NR+1)/2)] ", max " a[NR]}'
