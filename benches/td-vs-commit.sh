#!/usr/bin/env bash
# Self-play throughput of this tree's `trainer td` against an earlier commit's, on the
# same machine in the same run: issue 17's measure (`trainer td --threads 2 --games
# GAMES --seed 1 --bench-every 0`, the defaults otherwise), the two binaries
# alternated PAIRS times. Prints every run's games/s and the md5 of its net.wd, the
# medians and their ratio. Machines differ (the development machine has changed
# between sessions), so a games/s target set on one machine is compared as this ratio:
# the default commit, b054cc8, is main when issue 17 was filed; the issue quotes 3,100
# games/s for that day (target 5,000: a ratio of 1.61). Both run their defaults: since
# 2026-12-06 this tree's self-play is fused (`--eval fused`), b054cc8's exact, so
# their net.wd differ; `--eval exact` is not passed because b054cc8 has no such flag.
#
#   benches/td-vs-commit.sh [COMMIT] [PAIRS] [GAMES]     (defaults: b054cc8 6 20000)
#
# The earlier commit is built once into target-<first 12 hex digits of COMMIT>/
# (ignored by git) from a temporary worktree. Run it on an otherwise idle machine: the
# runs take both cores.
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
cd "$(dirname "$0")/.."
commit=${1:-b054cc8}
pairs=${2:-6}
games=${3:-20000}
whole_number td-vs-commit.sh PAIRS "$pairs"
whole_number td-vs-commit.sh GAMES "$games"
for n in "$pairs" "$games"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "td-vs-commit.sh: '$n' is not a positive count" >&2; exit 2; }
done
root=$(pwd)
full=$(git rev-parse --verify -q "$commit^{commit}") || {
  echo "td-vs-commit.sh: unknown commit '$commit'" >&2
  exit 2
}
# RUSTFLAGS (e.g. "-C target-cpu=native") builds both binaries alike; the earlier
# commit's then goes to a folder named for the flags too.
flags=""
[ -n "${RUSTFLAGS:-}" ] && flags="-$(printf %s "$RUSTFLAGS" | md5sum | cut -c1-8)"
base_target="$root/target-${full:0:12}$flags"
tmp=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$tmp/src" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

cargo build --release -q -p trainer
ours="${CARGO_TARGET_DIR:-$root/target}/release/trainer"
theirs="$base_target/release/trainer"
if [ ! -x "$theirs" ]; then
  git worktree add -q --detach "$tmp/src" "$full"
  (cd "$tmp/src" && CARGO_TARGET_DIR="$base_target" cargo build --release -q -p trainer)
fi

run() { # BINARY NAME: one run of the measure; prints "NAME games/s md5"
  local out="$tmp/run-$2"
  "$1" td --threads 2 --games "$games" --seed 1 --bench-every 0 --checkpoint-every "$games" \
    --out "$out" --quiet --json >"$tmp/json"
  local rate
  rate=$(sed -E 's/.*"games_per_second":([0-9.]+).*/\1/' "$tmp/json")
  printf '%-12s %8.0f  %s\n' "$2" "$rate" "$(md5sum <"$out/net.wd" | cut -c1-8)"
  rm -rf "$out"
}

printf '%-12s %8s  %s\n' binary games/s net.wd
for _ in $(seq "$pairs"); do
  run "$theirs" "${full:0:7}"
  run "$ours" "this-tree"
done | tee "$tmp/runs"

python3 - "$tmp/runs" "${full:0:7}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def rates(name):
    return [float(r[1]) for r in rows if r[0] == name]
base, ours = rates(sys.argv[2]), rates("this-tree")
mb, mo = statistics.median(base), statistics.median(ours)
print(f"medians: {sys.argv[2]} {mb:.0f}, this tree {mo:.0f} games/s; ratio {mo / mb:.2f}x")
same = len({r[2] for r in rows}) == 1
print("net.wd: " + ("the same bytes from both binaries" if same else "differs between the binaries"))
PY
