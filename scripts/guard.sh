#!/usr/bin/env bash
# The bits a refactoring must keep: prints one line per guarded output (bench
# signatures per kernel, rollout md5s, database md5s, TD net md5, duel result). Run it
# before and after a change (e.g. with a worktree of the old commit) and diff the two
# outputs.
#
#   scripts/guard.sh [BIN] > guard.txt
#
# BIN: the directory of the bgkit binaries to guard (evaluator, datasets, gen-bearoff,
# trainer); default $BGKIT_BIN, else this checkout's release binaries, built first
# (cargo build --release, into target/release or $CARGO_TARGET_DIR/release).
# GNUBG_WEIGHTS=FILE: gnubg's weights for the duel (default /usr/lib/gnubg/gnubg.wd).
#
# Needs python3 and gnubg's weights and databases (Debian's gnubg, gnubg-data). About 2
# minutes on 2 cores. Scratch files go to a temporary directory that is removed at the
# end. Any command that fails stops the run: `guard.sh: ... failed` on stderr, naming it,
# and exit 2 (an output that was not computed is never printed as a line to compare).
set -euo pipefail
me=guard.sh
die() { echo "$me: $*" >&2; exit 2; }
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
bin_arg=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --) shift; [ $# -le 1 ] || die "one BIN at most (see --help)"; bin_arg=${1:-}; break ;;
    -?*) die "unknown argument '$1' (see --help)" ;;
    *) [ -z "$bin_arg" ] || die "one BIN at most, got '$bin_arg' and '$1' (see --help)"; bin_arg=$1 ;;
  esac
  shift
done
tools="evaluator datasets gen-bearoff trainer"
command -v python3 >/dev/null || die "python3 is needed and not on PATH"
gnubg_wd=${GNUBG_WEIGHTS:-/usr/lib/gnubg/gnubg.wd}
[ -f "$gnubg_wd" ] || die "no gnubg weights at $gnubg_wd (apt-get install gnubg, or set GNUBG_WEIGHTS)"
# Absolute: the commands run in a scratch directory.
gnubg_wd=$(cd "$(dirname -- "$gnubg_wd")" && pwd)/$(basename -- "$gnubg_wd")
if [ -n "$bin_arg" ] || [ -n "${BGKIT_BIN:-}" ]; then
  given=${bin_arg:-$BGKIT_BIN}
  what=$([ -n "$bin_arg" ] && echo "BIN $given" || echo "BGKIT_BIN=$given")
  bin=$(cd "$given" 2>/dev/null && pwd) || die "$what is not a directory"
else
  command -v cargo >/dev/null || die "cargo is needed to build the binaries (or give BIN, or set BGKIT_BIN)"
  cargo build --release -q -p evaluator -p datasets -p gen-bearoff -p trainer --manifest-path "$root/Cargo.toml" >&2 ||
    die "cargo build failed"
  what="the build"
  bin=$(cd "${CARGO_TARGET_DIR:-$root/target}/release" && pwd)
fi
for tool in $tools; do
  [ -x "$bin/$tool" ] || die "$what has no $tool binary"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# run WHAT COMMAND...: runs COMMAND (stdout to WHAT's file out.N, stderr to err.N); on
# failure stops the run naming WHAT, with the end of its stderr.
n=0
run() {
  local what=$1 rc=0
  shift
  n=$((n + 1))
  "$@" >"out.$n" 2>"err.$n" || rc=$?
  if [ "$rc" != 0 ]; then
    sed 's/^/  /' "err.$n" | tail -n 5 >&2
    die "$what failed (exit $rc): $*"
  fi
}
# show TEXT FILE: prints TEXT and the first 8 hex digits of FILE's md5; a missing or
# empty FILE stops the run.
show() {
  [ -s "$2" ] || die "$2 is missing or empty: no output to guard ($1)"
  local sum
  sum=$(md5sum "$2") || die "cannot read $2"
  echo "$1 ${sum:0:8}"
}

flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
kernels=scalar
grep -qw avx2 <<<"$flags" && kernels="$kernels avx2"
grep -qw avx512f <<<"$flags" && kernels="$kernels avx512"
for k in $kernels; do
  for set in default calibrate-boards; do
    extra=(); [ "$set" = calibrate-boards ] && extra=(--calibrate-boards)
    run "bench $set $k" env BGKIT_SIMD="$k" "$bin/evaluator" bench --seconds 0.05 --json "${extra[@]}"
    sig=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["signature"])' "out.$n") ||
      die "bench $set $k: its --json output has no signature"
    echo "bench $set $k: $sig"
  done
done
# Rollouts: a few positions of the built-in benchmark mix, fixed seed.
printf 'position_id\n4HPwATDgc/ABMA\nsdsBEyDcDiDATQ\n4NvgkAQfAAAAAA\n34gA8AM+AAAAAA\n' > pos.csv
for threads in 1 2; do
  for inc in "" --incremental; do
    run "rollout threads=$threads ${inc:-exact}" "$bin/datasets" rollout --input pos.csv -o "r$threads$inc.csv" \
      --trials 72 --seed 7 --threads "$threads" ${inc:+"$inc"} --quiet
    show "rollout 72 trials threads=$threads ${inc:-exact}:" "r$threads$inc.csv"
  done
  run "rollout 1-ply threads=$threads" "$bin/datasets" rollout --input pos.csv -o "p$threads.csv" --trials 36 \
    --plies 1 --truncate 6 --seed 7 --threads "$threads" --quiet
  show "rollout 1-ply 36 trials threads=$threads:" "p$threads.csv"
done
# Databases.
run "one-sided 6x15" "$bin/gen-bearoff" one-sided -p 6 -c 15 -o os6.bd --quiet
show "one-sided 6x15:" os6.bd
run "one-sided 8x15" "$bin/gen-bearoff" one-sided -p 8 -c 15 -o os8.bd --quiet
show "one-sided 8x15:" os8.bd
run "two-sided 6x6" "$bin/gen-bearoff" two-sided -p 6 -c 6 -o ts6.bd --quiet
show "two-sided 6x6:" ts6.bd
for c in 1 2; do
  run "hyper $c" "$bin/gen-bearoff" hyper -c "$c" -o "hyper$c.bd" --quiet
  show "hyper $c:" "hyper$c.bd"
done
# TD training, one thread, fixed seed and games: the default scheme (ordered, lag 1,
# since issue 19; the same bytes on any thread count) and evaluation (fused, since
# issue 17), then exact and incremental self-play (the default before, and the mode
# called `fast` before the fused one), then async on one thread (plain online
# learning, the default scheme before; also ordered --lag 0).
run "td 3000 games" "$bin/trainer" td --games 3000 --threads 1 --seed 1 --out td --quiet --bench-every 0
nets=0
for f in td/*; do
  case "$f" in *.wd|*.weights) show "td 3000 games seed 1: $(basename "$f")" "$f"; nets=$((nets + 1)) ;; esac
done
[ "$nets" -gt 0 ] || die "td 3000 games wrote no net (td/*.wd, td/*.weights)"
for mode in exact incremental; do
  run "td 3000 games --eval $mode" "$bin/trainer" td --games 3000 --threads 1 --seed 1 --out "td-$mode" --quiet \
    --bench-every 0 --eval "$mode"
  show "td 3000 games seed 1 --eval $mode: net.wd" "td-$mode/net.wd"
done
run "td 3000 games --parallel async" "$bin/trainer" td --games 3000 --threads 1 --seed 1 --out td-async --quiet \
  --bench-every 0 --parallel async --eval exact
show "td 3000 games seed 1 --parallel async --eval exact: net.wd" td-async/net.wd
# The fused default on every kernel (the same bits by design).
for k in $kernels; do
  run "td 300 games BGKIT_SIMD=$k" env BGKIT_SIMD="$k" "$bin/trainer" td --games 300 --threads 1 --seed 1 \
    --out "td-$k" --quiet --bench-every 0
  show "td 300 games seed 1 BGKIT_SIMD=$k: net.wd" "td-$k/net.wd"
done
# Duel, fixed seed.
run "duel gnubg vs pubeval" "$bin/trainer" duel --a "gnubg:$gnubg_wd" --b pubeval --games 400 --seed 3 --threads 2 \
  --json --quiet
show "duel gnubg vs pubeval 400 games seed 3:" "out.$n"
