#!/usr/bin/env bash
# A fresh contact net of HIDDEN units trained on the labels of rounds FIRST..LAST of a run
# (the crashed and race nets are those of round LAST), then measured as rounds.sh does:
# the capacity ablation of trainer/README.md ("Ablations from the plateau").
#
#   capacity.sh OUT HIDDEN FIRST LAST
#
# WIDEN=1: the contact net is round LAST's widened to HIDDEN units (`trainer supervised
# --widen`: its units kept, fresh ones added with zero output weights) instead of fresh.
set -euo pipefail
out=$1 hidden=$2 first=$3 last=$4
. "$(dirname "$0")/duels.sh"
data=()
for r in $(seq "$first" "$last"); do data+=(--data "$RUN/round-$r/data.bgds"); done
mkdir -p "$out"
# Without its sidecar the round's net is plain gnubg weights, whose contact net
# --hidden restarts afresh when the size differs. So that it always differs, the start's
# contact net is first given another size (one epoch, thrown away but for its size).
cp "$RUN/round-$last/race/net.wd" "$out/start.wd"
widen=()
if [ "${WIDEN:-0}" = 1 ]; then
  widen=(--widen)
else
  other=128
  [ "$hidden" = 128 ] && other=256
  "$BIN/trainer" supervised --init "$out/start.wd" --class contact --hidden "$other" --out "$out/other" "${data[@]}" \
    --epochs 1 --quiet --force
  cp "$out/other/net.wd" "$out/start.wd"
fi
"$BIN/trainer" supervised --init "$out/start.wd" --class contact --hidden "$hidden" "${widen[@]}" --out "$out/net" \
  "${data[@]}" --epochs "${EPOCHS:-40}" --lr 0.001 --patience 4 --plateau 1 --quiet --force
echo "hidden $hidden${widen:+ widened} $(duels "$out/net/net.wd")" | tee "$out/log"
