#!/usr/bin/env bash
# Rounds of expert iteration from a starting net, each measured by 20,000-game duels
# against pubeval and gnubg 0-ply (seed 11): the plateau ablations of trainer/README.md
# ("Ablations from the plateau"). Release binaries in $BIN (default target/release);
# the bearoff databases of the run in $RUN/data (a run of scripts/overnight.sh).
#
#   rounds.sh OUT START_NET ROUNDS VARIANT
#
# VARIANT: one1  - 8,000 games, 1-ply labels, the last 2 rounds' data (the pipeline's rounds)
#          two   - 600 games, 2-ply labels (about 29,000 positions), the last 4 rounds
#          alt2  - 4,000 games plus the positions after 2 next-best moves, 1-ply, last 2
#          lam08 - 8,000 whole games, 1-ply labels mixed into lambda-returns (0.8), last 2
set -euo pipefail
out=$1 cur=$2 rounds=$3 variant=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/duels.sh"
case $variant in
  one1) games=8000 plies=1 window=2 ;;
  two) games=600 plies=2 window=4 ;;
  alt2) games=4000 plies=1 window=2 ;;
  lam08) games=8000 plies=1 window=2 ;;
  *) echo "rounds.sh: unknown variant $variant" >&2; exit 2 ;;
esac
games=${GAMES:-$games}  # smaller for a smoke test
mkdir -p "$out"
data=()
for r in $(seq 1 "$rounds"); do
  rd=$out/r$r
  mkdir -p "$rd"
  if [ ! -f "$rd/l.bgds" ]; then
    if [ "$variant" = lam08 ]; then
      # Prototype (Python, the bgkit module): whole games, then lambda-returns.
      "${PYTHON:-python3}" "$here/lambda_returns.py" "$cur" "$games" $((300 + r)) 0.8 "$rd/l.csv" "$BIN" "$RUN/data"
      "$BIN/datasets" convert "$rd/l.csv" "$rd/l.bgds" && rm -f "$rd/l.csv" "$rd/l.csv."*
    else
      alt=0
      [ "$variant" = alt2 ] && alt=2
      "$BIN/datasets" sample --weights "$cur" --games "$games" --seed $((300 + r)) --alternatives $alt \
        -o "$rd/p.csv" --quiet --force "${db[@]}"
      "$BIN/datasets" label --weights "$cur" --input "$rd/p.csv" --plies "$plies" -o "$rd/l.bgds" --quiet "${db[@]}"
    fi
  fi
  data+=(--data "$rd/l.bgds")
  [ ${#data[@]} -gt $((2 * window)) ] && data=("${data[@]: -$((2 * window))}")
  [ -f "$rd/sup/net.wd" ] || "$BIN/trainer" supervised --init "$cur" --class contact,crashed,race --out "$rd/sup" \
    "${data[@]}" --epochs 30 --lr 0.0003 --patience 4 --plateau 1 --quiet >/dev/null
  cur=$rd/sup/net.wd
  echo "round $r $(duels "$cur")" | tee -a "$out/log"
done
