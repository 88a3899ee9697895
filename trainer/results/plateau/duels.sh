# The plateau scripts' common part (sourced by rounds.sh, capacity.sh, classwin.sh):
# BIN (release binaries, default target/release), RUN (a run directory of
# scripts/overnight.sh, whose bearoff databases are in RUN/data) and `db`, the
# engine's database arguments; `duels NET` prints NET's 20,000-game duels (DUEL_GAMES),
# seed 11, as "vs pubeval PPG SE vs gnubg PPG SE".
# shellcheck shell=bash
BIN=${BIN:-target/release} RUN=${RUN:?set RUN to a run directory of scripts/overnight.sh}
db=(--bearoff-os "$RUN/data/gnubg_os0.bd" --bearoff-ts "$RUN/data/gnubg_ts0.bd")
duel() { "$BIN/trainer" duel --a "$1" --b "$2" --games "${DUEL_GAMES:-20000}" --seed 11 --json --quiet "${db[@]}" |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print("%+.4f %.4f" % (d["ppg"], d["se"]))'; }
duels() { echo "vs pubeval $(duel "$1" pubeval) vs gnubg $(duel "$1" gnubg:/usr/lib/gnubg/gnubg.wd)"; }
