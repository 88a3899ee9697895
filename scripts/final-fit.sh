#!/usr/bin/env bash
# The overnight pipeline's final fit, shared by scripts/overnight.sh and its Slurm path
# (scripts/slurm/overnight-cluster.sh):
#
#   final-fit.sh TRAINER DIR NET ROUNDS HIDDEN FIT_ROUNDS EPOCHS LR [-- ARGS...]
#   final-fit.sh --stale DIR ROUNDS
#
# The first form trains, in DIR/fit, a contact net of HIDDEN units on the labels of the
# last FIT_ROUNDS (0: all) of rounds 1..ROUNDS (DIR/round-N/data.bgds), starting from
# NET (the last round's net, whose crashed and race nets are kept), as
# scripts/round-supervise.sh trains a round's class (resumed when DIR/fit holds a run;
# ARGS, e.g. threads and --minutes, go to every trainer call). The start is NET copied
# without its sidecar to DIR/fit-start.wd: plain gnubg weights, whose contact net
# --hidden replaces by a fresh one of another size (a trainer model keeps one size for
# all its nets); with HIDDEN equal to NET's size the contact net goes on training.
# FIT_WIDEN=1 (environment): NET's contact net widened to HIDDEN units instead (`trainer
# supervised --widen`: its units kept, fresh ones added with zero output weights; HIDDEN
# must be above NET's size, so not with the quick profile's 64 over 128).
# DIR/fit-round records ROUNDS (and "widen" with FIT_WIDEN=1).
#
# The second form, for a rerun with another number of rounds (or FIT_WIDEN): when
# DIR/fit-round names another, removes the fit (DIR/fit, its start, its final duels and their steps'
# DIR/steps/*.done) so that the caller's steps do it again.
set -euo pipefail
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
# What DIR/fit-round records of a fit after ROUNDS rounds.
fit_key() { if [ "${FIT_WIDEN:-0}" = 1 ]; then echo "$1 widen"; else echo "$1"; fi; }
bad_use() { echo "final-fit.sh: $1 (see --help)" >&2; exit 2; }
if [ "${1:-}" = --stale ]; then
  [ $# -eq 3 ] || bad_use "--stale takes DIR and ROUNDS, got $(($# - 1)) arguments"
  dir=$2 rounds=$3
  if [ -f "$dir/fit-round" ] && [ "$(cat "$dir/fit-round")" != "$(fit_key "$rounds")" ]; then
    echo "final-fit.sh: the final fit in $dir was of $(cat "$dir/fit-round") rounds, now $(fit_key "$rounds"): fitted again"
    rm -rf "$dir/fit" "$dir"/fit-start.* "$dir"/final-fit-*.json "$dir/fit-round" \
      "$dir/steps/fit.done" "$dir/steps/fit-measure.done" "$dir/steps/final-fit.done"
  fi
  exit 0
fi
[ $# -ge 8 ] || bad_use "TRAINER DIR NET ROUNDS HIDDEN FIT_ROUNDS EPOCHS LR needed, got $# arguments"
trainer=$1 dir=$2 net=$3 rounds=$4 hidden=$5 fit_rounds=$6 epochs=$7 lr=$8
shift 8
[ "${1:-}" = -- ] && shift
first=1
[ "$fit_rounds" -gt 0 ] && [ "$rounds" -gt "$fit_rounds" ] && first=$((rounds - fit_rounds + 1))
files=()
for k in $(seq "$first" "$rounds"); do files+=("$dir/round-$k/data.bgds"); done
if [ ! -f "$dir/fit-start.wd" ]; then
  # The text weights too, which round-supervise.sh copies when it keeps the net.
  [ ! -f "${net%.wd}.weights" ] || cp "${net%.wd}.weights" "$dir/fit-start.weights"
  cp "$net" "$dir/fit-start.wd.tmp" && mv -f "$dir/fit-start.wd.tmp" "$dir/fit-start.wd"
fi
fit_key "$rounds" >"$dir/fit-round.tmp" && mv -f "$dir/fit-round.tmp" "$dir/fit-round"
widen=()
[ "${FIT_WIDEN:-0}" = 1 ] && widen=(--widen)
exec "$(dirname "$0")/round-supervise.sh" "$trainer" contact "$dir/fit-start.wd" "$dir/fit" "$epochs" "$lr" \
  "${files[@]}" -- "$@" -- --hidden "$hidden" "${widen[@]}"
