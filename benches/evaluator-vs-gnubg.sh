#!/usr/bin/env bash
# Static evaluation speed, side by side with gnubg's own `calibrate` (random contact
# positions, evaluation cache off), one thread each, in the same run. bgkit is timed
# one position per call (as calibrate) and batched (evaluate_all, 64 per call) on its
# built-in positions from random games, and one per call on random boards drawn as
# calibrate draws them (--calibrate-boards: the like-for-like figure).
# Usage: benches/evaluator-vs-gnubg.sh [rounds]   (needs gnubg installed)
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
rounds=${1:-3}
whole_number evaluator-vs-gnubg.sh rounds "$rounds"
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release -q -p evaluator --manifest-path "$root/Cargo.toml"
ours="$root/target/release/evaluator"
command -v /usr/games/gnubg >/dev/null || { echo "gnubg is not installed" >&2; exit 2; }
for r in $(seq "$rounds"); do
  theirs=$(printf 'set threads 1\ncalibrate 30\n' | /usr/games/gnubg -t -q -r 2>/dev/null |
    sed -n 's/.*Calibration result: \([0-9.]*\) static evaluations.*/\1/p')
  read -r mine batched < <("$ours" bench --seconds 3 --threads 1 --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["static_evals_per_sec"], d["static_evals_per_sec_batched"])')
  boards=$("$ours" bench --seconds 3 --threads 1 --json --calibrate-boards |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["static_evals_per_sec"])')
  python3 -c "print(f'round $r: gnubg calibrate {float($theirs):.0f} evals/s; bgkit {float($mine):.0f} ({float($mine)/float($theirs):.2f}x), batched {float($batched):.0f} ({float($batched)/float($theirs):.2f}x), on calibrate-style boards {float($boards):.0f} ({float($boards)/float($theirs):.2f}x)')"
done
