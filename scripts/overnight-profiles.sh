# The overnight pipeline's sizes, sourced by scripts/overnight.sh and
# scripts/slurm/overnight-cluster.sh (one copy, so the two stay in step): with
# quick=1 the toy profile (minutes), else a night on 2 cores. Each value is a default:
# an environment variable of the same name overrides it (e.g. TD_MINUTES=60).
# SAMPLE_GAMES/MAX_POSITIONS size a round of rollout labels, LABEL_GAMES/LABEL_POSITIONS
# one of search labels (LABEL_PLIES deep; with the positions after each decision's
# ALTERNATIVES next-best moves sampled too); a search round trains on the last
# DATA_ROUNDS rounds' data (0: all; rollout rounds train on all). With --hours, TD gets
# TD_SHARE of the budget. HIDDEN: the hidden units of every net (TD starts them at
# that size and the rounds keep it). The final fit (0 FIT_HIDDEN: none): a fresh contact
# net of FIT_HIDDEN units (HIDDEN: the rounds' net trained on) trained on the last
# FIT_ROUNDS (0: all) rounds' labels (FIT_EPOCHS at most, from learning rate FIT_LR),
# given FIT_SHARE of the budget; FIT_WIDEN=1 (environment, read by final-fit.sh): the
# last round's contact net widened to FIT_HIDDEN units instead of a fresh one.
# OVERNIGHT_TOY=1 (environment; the pipeline's tests, scripts/test-overnight.sh and
# scripts/slurm/test-local.sh): steps of seconds, under the --quick profile.
# shellcheck shell=bash disable=SC2154 # quick: set by the caller
if [ "${OVERNIGHT_TOY:-0}" = 1 ]; then
  : "${SAMPLE_GAMES:=40}" "${MAX_POSITIONS:=600}" "${LABEL_GAMES:=40}" "${LABEL_POSITIONS:=600}"
  : "${BENCH_GAMES:=20}" "${BENCH_POSITIONS:=60}" "${ROUND_DUEL_GAMES:=200}" "${DUEL_GAMES:=400}"
fi
if [ "$quick" = 1 ]; then
  : "${TD_GAMES:=20000}" "${TD_MINUTES:=3}" "${HIDDEN:=128}" "${TD_BENCH_EVERY:=10000}" "${TD_BENCH_GAMES:=400}"
  : "${ROUNDS:=1}" "${SAMPLE_GAMES:=80}" "${MAX_POSITIONS:=3000}" "${ROLLOUT_TRIALS:=12}" "${ROLLOUT_TRUNCATE:=2}"
  : "${LABEL_GAMES:=40}" "${LABEL_POSITIONS:=3000}" "${LABEL_PLIES:=1}" "${DATA_ROUNDS:=2}" "${ALTERNATIVES:=2}"
  : "${TD_SHARE:=0.30}"
  : "${EPOCHS:=12}" "${LR:=0.0003}"
  : "${FIT_HIDDEN:=64}" "${FIT_ROUNDS:=2}" "${FIT_EPOCHS:=150}" "${FIT_LR:=0.001}" "${FIT_SHARE:=0.10}"
  : "${BENCH_GAMES:=40}" "${BENCH_POSITIONS:=150}" "${BENCH_CANDIDATES:=4}" "${BENCH_TRIALS:=18}" "${BENCH_TRUNCATE:=2}"
  : "${ROUND_DUEL_GAMES:=1000}" "${DUEL_GAMES:=2000}"
else
  : "${TD_GAMES:=20000000}" "${TD_MINUTES:=180}" "${HIDDEN:=256}" "${TD_BENCH_EVERY:=100000}" "${TD_BENCH_GAMES:=2000}"
  : "${ROUNDS:=3}" "${SAMPLE_GAMES:=1500}" "${MAX_POSITIONS:=60000}" "${ROLLOUT_TRIALS:=18}" "${ROLLOUT_TRUNCATE:=4}"
  : "${LABEL_GAMES:=4000}" "${LABEL_POSITIONS:=500000}" "${LABEL_PLIES:=1}" "${DATA_ROUNDS:=2}" "${ALTERNATIVES:=2}"
  : "${TD_SHARE:=0.30}"
  : "${EPOCHS:=30}" "${LR:=0.0003}"
  : "${FIT_HIDDEN:=512}" "${FIT_ROUNDS:=8}" "${FIT_EPOCHS:=60}" "${FIT_LR:=0.001}" "${FIT_SHARE:=0.17}"
  : "${BENCH_GAMES:=400}" "${BENCH_POSITIONS:=1500}" "${BENCH_CANDIDATES:=5}" "${BENCH_TRIALS:=36}" "${BENCH_TRUNCATE:=6}"
  : "${ROUND_DUEL_GAMES:=4000}" "${DUEL_GAMES:=20000}"
fi
