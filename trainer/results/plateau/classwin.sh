#!/usr/bin/env bash
# One class's net trained further on a wider window of a run's labels, the other nets
# kept: the class-window ablation of trainer/README.md ("Ablations from the plateau").
# Starts from round LAST's nets (its race/net.wd holds every class), trains CLASS on the
# labels of rounds FIRST..LAST as the pipeline's rounds do (EPOCHS, LR, patience 4,
# plateau 1), then measures as rounds.sh does (20,000-game duels, seed 11).
#
#   classwin.sh OUT CLASS FIRST LAST [INIT]
#
# INIT: the net to start from instead of round LAST's (e.g. an earlier classwin.sh's
# OUT/net/net.wd, to widen two classes).
set -euo pipefail
out=$1 class=$2 first=$3 last=$4
. "$(dirname "$0")/duels.sh"
init=${5:-$RUN/round-$last/race/net.wd}
data=()
for r in $(seq "$first" "$last"); do data+=(--data "$RUN/round-$r/data.bgds"); done
mkdir -p "$out"
"$BIN/trainer" supervised --init "$init" --class "$class" --out "$out/net" "${data[@]}" \
  --epochs "${EPOCHS:-30}" --lr "${LR:-0.0003}" --patience 4 --plateau 1 --quiet --force
echo "$class rounds $first..$last $(duels "$out/net/net.wd")" | tee "$out/log"
