#!/usr/bin/env bash
# Overnight TD training from scratch (8 hours on all cores), then a 20,000-game
# duplicate-dice duel of the result against pubeval.
#
#   scripts/trainer-overnight.sh [RUN_DIR] [HOURS]
#
# Interrupted? Run the same command again: it resumes from the last checkpoint
# (every 100,000 games) and keeps the time limit of the new session.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-runs/overnight}
hours=${2:-8}
cargo build --release -p trainer
bin=${CARGO_TARGET_DIR:-target}/release/trainer
minutes=$(awk "BEGIN { print $hours * 60 }")
if [ -f "$dir/state.json" ]; then
  "$bin" td --resume "$dir" --games 1000000000 --minutes "$minutes"
else
  "$bin" td --out "$dir" --games 1000000000 --minutes "$minutes" \
    --hidden 128 --alpha 0.2 --anneal 0.3 --lambda 0 \
    --checkpoint-every 100000 --bench-every 100000 --bench-games 4000
fi
"$bin" duel --a "$dir/net.wd" --b pubeval --games 20000 --seed 7 --json | tee "$dir/final-duel.json"
