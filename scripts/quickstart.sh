#!/usr/bin/env bash
# The main job on small built-in defaults: build gnubg's standard bearoff databases
# (one-sided 6x15, two-sided 6x6) into bgkit-data/, check them, and evaluate a few
# positions with them (using gnubg's weights when they are installed). Run again, it
# rebuilds them (--force: the databases in bgkit-data/ are this script's own).
# BGKIT_BIN=DIR: use the bgkit binaries in DIR (no build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${BGKIT_DATA:-$PWD/bgkit-data}
mkdir -p "$data"
# BGKIT_BIN=DIR uses the binaries in DIR instead of building them.
if [ -n "${BGKIT_BIN:-}" ]; then
  bin=$BGKIT_BIN
  for tool in gen-bearoff evaluator; do
    [ -x "$bin/$tool" ] || { echo "quickstart.sh: BGKIT_BIN=$bin has no $tool binary" >&2; exit 2; }
  done
else
  cargo build --release -q -p gen-bearoff -p evaluator --manifest-path "$root/Cargo.toml"
  bin="${CARGO_TARGET_DIR:-$root/target}/release"
fi
"$bin/gen-bearoff" one-sided --points 6 -o "$data/gnubg_os0.bd" --force
"$bin/gen-bearoff" two-sided --points 6 --checkers 6 -o "$data/gnubg_ts0.bd" --force
"$bin/gen-bearoff" verify --quiet "$data/gnubg_os0.bd"
"$bin/gen-bearoff" verify --quiet "$data/gnubg_ts0.bd"
echo "databases in $data:"
ls -l "$data"
weights=/usr/lib/gnubg/gnubg.wd
if [ -f "$weights" ]; then
  echo "opening position, 0-ply, gnubg's weights with the new databases:"
  "$bin/evaluator" eval --weights "$weights" --bearoff-os "$data/gnubg_os0.bd" \
    --bearoff-ts "$data/gnubg_ts0.bd" --position-id 4HPwATDgc/ABMA
else
  echo "(gnubg's weights are not installed: apt-get install gnubg to evaluate positions)"
fi
