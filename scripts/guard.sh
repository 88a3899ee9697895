#!/usr/bin/env bash
# The bits a refactoring must keep: prints one line per guarded output (bench
# signatures per kernel, rollout md5s, database md5s, TD net md5, duel result), for the
# release binaries in BIN (default: $BGKIT_BIN, else target/release). Run it before and after a change
# (e.g. with a worktree of the old commit) and diff the two outputs.
#
#   scripts/guard.sh [BIN] > guard.txt
#
# Needs gnubg's weights and databases (Debian's gnubg, gnubg-data). About 2 minutes on
# 2 cores. Scratch files go to a temporary directory that is removed at the end.
set -euo pipefail
bin=$(cd "${1:-${BGKIT_BIN:-target/release}}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
md5() { md5sum "$1" | cut -c1-8; }
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
kernels=scalar
grep -qw avx2 <<<"$flags" && kernels="$kernels avx2"
grep -qw avx512f <<<"$flags" && kernels="$kernels avx512"
for k in $kernels; do
  for set in default calibrate-boards; do
    extra=(); [ "$set" = calibrate-boards ] && extra=(--calibrate-boards)
    sig=$(BGKIT_SIMD=$k "$bin/evaluator" bench --seconds 0.05 --json "${extra[@]}" 2>/dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["signature"])')
    echo "bench $set $k: $sig"
  done
done
# Rollouts: a few positions of the built-in benchmark mix, fixed seed.
printf 'position_id\n4HPwATDgc/ABMA\nsdsBEyDcDiDATQ\n4NvgkAQfAAAAAA\n34gA8AM+AAAAAA\n' > pos.csv
for threads in 1 2; do
  for inc in "" --incremental; do
    "$bin/datasets" rollout --input pos.csv -o "r$threads$inc.csv" --trials 72 --seed 7 \
      --threads "$threads" $inc --quiet
    echo "rollout 72 trials threads=$threads ${inc:-exact}: $(md5 "r$threads$inc.csv")"
  done
  "$bin/datasets" rollout --input pos.csv -o "p$threads.csv" --trials 36 --plies 1 \
    --truncate 6 --seed 7 --threads "$threads" --quiet
  echo "rollout 1-ply 36 trials threads=$threads: $(md5 "p$threads.csv")"
done
# Databases.
"$bin/gen-bearoff" one-sided -p 6 -c 15 -o os6.bd --quiet
echo "one-sided 6x15: $(md5 os6.bd)"
"$bin/gen-bearoff" one-sided -p 8 -c 15 -o os8.bd --quiet
echo "one-sided 8x15: $(md5 os8.bd)"
"$bin/gen-bearoff" two-sided -p 6 -c 6 -o ts6.bd --quiet
echo "two-sided 6x6: $(md5 ts6.bd)"
for c in 1 2; do
  "$bin/gen-bearoff" hyper -c $c -o hyper$c.bd --quiet
  echo "hyper $c: $(md5 hyper$c.bd)"
done
# TD training, one thread, fixed seed and games: the default scheme (ordered, lag 1,
# since issue 19; the same bytes on any thread count) and evaluation (fused, since
# issue 17), then exact and incremental self-play (the default before, and the mode
# called `fast` before the fused one), then async on one thread (plain online
# learning, the default scheme before; also ordered --lag 0).
"$bin/trainer" td --games 3000 --threads 1 --seed 1 --out td --quiet --bench-every 0 >/dev/null
for f in td/*; do
  case "$f" in *.wd|*.weights) echo "td 3000 games seed 1: $(basename "$f") $(md5 "$f")";; esac
done
for mode in exact incremental; do
  "$bin/trainer" td --games 3000 --threads 1 --seed 1 --out td-$mode --quiet --bench-every 0 --eval $mode >/dev/null
  echo "td 3000 games seed 1 --eval $mode: net.wd $(md5 td-$mode/net.wd)"
done
"$bin/trainer" td --games 3000 --threads 1 --seed 1 --out td-async --quiet --bench-every 0 --parallel async \
  --eval exact >/dev/null
echo "td 3000 games seed 1 --parallel async --eval exact: net.wd $(md5 td-async/net.wd)"
# The fused default on every kernel (the same bits by design).
for k in $kernels; do
  BGKIT_SIMD=$k "$bin/trainer" td --games 300 --threads 1 --seed 1 --out td-$k --quiet --bench-every 0 >/dev/null
  echo "td 300 games seed 1 BGKIT_SIMD=$k: net.wd $(md5 td-$k/net.wd)"
done
# Duel, fixed seed.
echo "duel gnubg vs pubeval 400 games seed 3: $("$bin/trainer" duel --a gnubg:/usr/lib/gnubg/gnubg.wd \
  --b pubeval --games 400 --seed 3 --threads 2 --json --quiet | md5sum | cut -c1-8)"
