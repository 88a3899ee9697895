#!/usr/bin/env bash
# Self-play training throughput of `trainer td` (games per second), 128 hidden units,
# from scratch, no benchmarks: gnubg encoding (the default ordered scheme and fused
# evaluation, and async), gnubg encoding with --eval exact (gnubg's bits) and with
# --eval incremental (incremental move lists), gnubg encoding with --prune-moves, and
# the Tesauro encoding, on 1 and 2 threads. Prints wall-clock games/s and games per
# CPU-second (the latter is what a machine shared with other work still measures).
#
#   benches/trainer-throughput.sh [GAMES]
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
cd "$(dirname "$0")/.."
games=${1:-20000}
whole_number trainer-throughput.sh games "$games"
cargo build --release -p trainer >/dev/null
bin=${CARGO_TARGET_DIR:-target}/release/trainer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %7s %10s %12s\n' config threads games/s games/cpu-s
for config in "gnubg" "gnubg --eval exact" "gnubg --eval incremental" "gnubg --parallel async" "gnubg --prune-moves" "tesauro"; do
  for threads in 1 2; do
    out="$tmp/run-$threads-${config// /}"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" td --games "$games" --out "$out" --threads "$threads" \
      --encoding $config --bench-every 0 --checkpoint-every "$games" --quiet --json >"$tmp/json"
    rate=$(sed -E 's/.*"games_per_second":([0-9.]+).*/\1/' "$tmp/json")
    cpu=$(awk '{ print $1 + $2 }' "$tmp/time")
    printf '%-24s %7s %10.0f %12.0f\n' "$config" "$threads" "$rate" "$(awk "BEGIN { print $games / $cpu }")"
  done
done
