#!/usr/bin/env bash
# The overnight pipeline: build the bearoff databases, train a net by TD self-play from
# scratch, improve it in rounds of sample -> label -> supervised training, measure every
# net on a held-out move-error benchmark and in duplicate-dice duels against pubeval and
# gnubg's weights, fit a bigger contact net to the last rounds' labels (FIT_HIDDEN; the
# final fit), and write a markdown report with the plots.
#
#   scripts/overnight.sh [--quick] [--td-only] [--dir DIR] [--rounds N] [--threads T]
#                        [--rollout-weights current|gnubg] [--labels search|rollout]
#                        [--hours H] [--fresh] [--quiet]
#
# --labels: how a round labels its positions: `search` (default), the weights' own 1-ply
# lookahead (LABEL_PLIES; expert iteration: the net learns what its search knows), or
# `rollout`, truncated rollouts (ROLLOUT_TRIALS, ROLLOUT_TRUNCATE). --rollout-weights:
# whose weights label (the current net's, the default, or gnubg's as a teacher). A run
# keeps its --labels, --rollout-weights and --hours (DIR/labels, DIR/rollout-weights,
# DIR/hours): a rerun may leave them out, and one that gives another value is refused.
#
# DIR (default overnight, or overnight-quick with --quick; -td appended with --td-only)
# must be new, empty or a run's directory: a run marks it before it writes anything else
# (DIR/.overnight-run), and a folder that holds other files is refused. Every step logs
# to DIR/logs/<step>.log and leaves DIR/steps/<step>.done when it has finished;
# rerunning the same command after an interruption (even kill -9) skips finished steps
# and resumes the unfinished one (each tool checkpoints). DIR/overnight.log has one line
# per step with its duration (also on stdout, unless --quiet: then a failure alone is
# told, on stderr); DIR/report.md is the result (printed at the end). --fresh starts
# over: it removes what a run created in DIR (the pipeline's files and folders, nothing
# else), and only in a run's directory. One run at a time per DIR (a lock: a second one
# is refused, also with --fresh, and so is a run while DIR's jobs of
# scripts/slurm/submit.sh overnight are queued or running). Sizes are in scripts/overnight-
# profiles.sh (--quick: minutes; default: a night on 2 cores); environment variables
# of the same names override them (e.g. TD_MINUTES=60). --td-only: no
# supervised rounds; TD self-play for the whole night (8 hours unless TD_MINUTES; with
# --hours all of the budget but what the later steps need: the benchmark set's 7 %, 2 %
# for the TD net's measurement and the report, and the final duels' share).
# --hours H: a time budget for the whole run (across interruptions: DIR/clock counts
# the seconds spent): each step gets its share (TD TD_SHARE, 30 %; the benchmark set 7 %; the
# rounds what is left but the final fit's and the final duels' shares, the final fit
# FIT_SHARE (17 %; the rounds keep less for it when their training times say the fit
# needs less: scripts/fit-share.py), the final duels the rest: twice their time at the
# measurements' rate and 3 %, at most 12 %) through the tools' --minutes,
# later rounds are dropped when the time is short, the final duels are sized to the
# time left, and the run ends within the budget plus the last step's overrun (seconds).
# The profile's sizes become upper bounds.
# Needs cargo and python3 (or BGKIT_BIN=DIR: use the bgkit binaries in DIR, no build;
# else it builds them for this CPU into target/native, or with the caller's RUSTFLAGS
# into target/); gnubg's weights are used when installed. Bad arguments are refused
# (exit 2) before anything is written.
set -euo pipefail
unset CDPATH

root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
td_only=0
dir=""
rounds=""
threads=""
fresh=0
quiet=0
# The flags that a run keeps (empty: not given).
f_hours=""
f_labels=""
f_rollout_weights=""
die() { echo "overnight.sh: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --td-only) td_only=1 ;;
    --dir) need "$@"; dir=$2; [ -n "$dir" ] || die "--dir needs a directory, got ''"; shift ;;
    --rounds) need "$@"; rounds=$2; shift ;;
    --threads) need "$@"; threads=$2; shift ;;
    --rollout-weights) need "$@"; f_rollout_weights=$2; shift ;;
    --labels) need "$@"; f_labels=$2; shift ;;
    --hours) need "$@"; f_hours=$2; shift ;;
    --fresh) fresh=1 ;;
    -q|--quiet) quiet=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
case "$f_rollout_weights" in ""|current|gnubg) ;; *) die "--rollout-weights is current or gnubg, got '$f_rollout_weights'" ;; esac
case "$f_labels" in ""|search|rollout) ;; *) die "--labels is search or rollout, got '$f_labels'" ;; esac
if [ -n "$rounds" ]; then
  { [[ "$rounds" =~ ^[0-9]{1,4}$ ]] && [ "$((10#$rounds))" -le 1000 ]; } ||
    die "--rounds must be a whole number from 0 to 1000, got '$rounds'"
  rounds=$((10#$rounds))
fi
if [ -n "$threads" ]; then
  # What the tools accept (cli-support's MAX_THREADS).
  { [[ "$threads" =~ ^[0-9]{1,5}$ ]] && [ "$((10#$threads))" -ge 1 ] && [ "$((10#$threads))" -le 1024 ]; } ||
    die "--threads must be a whole number from 1 to 1024, got '$threads'"
  threads=$((10#$threads))
fi
needed=(python3)
[ -z "${BGKIT_BIN:-}" ] && needed+=(cargo) # BGKIT_BIN: prebuilt binaries, no build
for tool in "${needed[@]}"; do
  command -v "$tool" >/dev/null || die "$tool is needed and not on PATH"
done
# A number of hours: digits with a decimal point or an exponent (no sign, space or _).
hours_re='^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?$'
valid_hours() {
  [[ "$1" =~ $hours_re ]] && python3 -c 'import sys; h = float(sys.argv[1]); sys.exit(0 if 1 / 3600 <= h < 10000 else 1)' "$1" 2>/dev/null
}
if [ -n "$f_hours" ] && ! valid_hours "$f_hours"; then
  die "--hours must be a number of hours from 1/3600 (one second) to 10000, got '$f_hours'"
fi
suffix=""
if [ "$td_only" = 1 ]; then
  if [ -n "$rounds" ] && [ "$rounds" != 0 ]; then
    die "--td-only runs no supervised rounds (drop --rounds)"
  fi
  rounds=0
  suffix="-td"
fi
# BGKIT_BIN=DIR uses the binaries in DIR instead of building them (section 0).
if [ -n "${BGKIT_BIN:-}" ]; then
  bin=$(cd -- "$BGKIT_BIN" 2>/dev/null && pwd) || die "BGKIT_BIN=$BGKIT_BIN is not a directory (the folder of the bgkit binaries, e.g. target/release)"
  for tool in gen-bearoff evaluator datasets trainer; do
    [ -x "$bin/$tool" ] || die "BGKIT_BIN=$BGKIT_BIN has no $tool binary"
  done
fi
gnubg_wd=${GNUBG_WEIGHTS:-/usr/lib/gnubg/gnubg.wd}
have_gnubg=0
[ -f "$gnubg_wd" ] && have_gnubg=1

# TD alone is limited by time only: 8 hours.
if [ "$quick" != 1 ] && [ "$td_only" = 1 ]; then : "${TD_GAMES:=1000000000}" "${TD_MINUTES:=480}"; fi
# shellcheck source=overnight-profiles.sh
. "$root/scripts/overnight-profiles.sh"
if [ "$quick" = 1 ]; then : "${dir:=overnight-quick$suffix}"; else : "${dir:=overnight$suffix}"; fi
[ -n "$rounds" ] && ROUNDS=$rounds
thread_args=()
[ -n "$threads" ] && thread_args=(--threads "$threads")

# --- The run's directory --------------------------------------------------------------
# New, empty, or a run's (scripts/run-lock.sh: run_dir); anything else is refused before
# a file is written, with or without --fresh.
# shellcheck source=run-lock.sh
. "$root/scripts/run-lock.sh"
case "$dir" in -*) die "--dir $dir: a directory name that starts with '-' looks like a flag (write ./$dir)" ;; esac
if [ "$fresh" = 1 ] && [ -d "$dir" ] && [ -x "$dir" ]; then
  real=$(cd -- "$dir" && pwd -P)
  if [ "$real" = / ] || [ "$real" = "$(cd "$root" && pwd -P)" ] || [ "$real" = "$(cd ~ 2>/dev/null && pwd -P)" ]; then
    die "--fresh empties a run's directory, and $dir is not one; give another --dir"
  fi
fi
why=$(run_dir_refusal "$dir" "$([ "$fresh" = 1 ] && echo " (--fresh empties only a run's directory)")")
[ -z "$why" ] || die "$why"

# recorded NAME PATTERN: the value of a setting the run keeps in DIR/NAME when the file
# holds one (matching PATTERN); nothing when it does not (a file left empty or garbled
# by a run killed while writing it counts as not written), or with --fresh.
recorded() {
  local v
  [ "$fresh" = 0 ] && [ -f "$dir/$1" ] || return 0
  v=$(cat -- "$dir/$1" 2>/dev/null) || return 0
  if [[ "$v" =~ $2 ]]; then printf '%s\n' "$v"; fi
}
# settings: the run's --hours, --labels and --rollout-weights: the recorded ones (a flag
# left out keeps them), else the flags' (or the defaults); a flag that differs from the
# recorded value is refused.
hours_checked=""
settings() {
  local rec
  rec=$(recorded hours "$hours_re")
  if [ -n "$rec" ] && [ "$rec" != "$hours_checked" ]; then
    if valid_hours "$rec"; then hours_checked=$rec; else rec=""; fi
  fi
  if [ -n "$rec" ] && [ -n "$f_hours" ] && [ "$rec" != "$f_hours" ] \
    && ! python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "$rec" "$f_hours"; then
    die "$dir was started with --hours $rec (a run keeps its budget; use another --dir)"
  fi
  hours=${rec:-$f_hours}
  if [ -z "$hours" ] && [ "$fresh" = 0 ] && [ -e "$dir/hours" ]; then
    die "$dir/hours does not hold the run's budget (it is empty or garbled): rerun with the run's --hours"
  fi
  rec=$(recorded labels '^(search|rollout)$')
  if [ -n "$rec" ] && [ -n "$f_labels" ] && [ "$rec" != "$f_labels" ]; then
    die "$dir was started with --labels $rec (a run keeps its labels; use another --dir)"
  fi
  labels=${rec:-$f_labels}
  # Run directories from before --labels rolled out.
  if [ -z "$labels" ] && [ "$fresh" = 0 ] && compgen -G "$dir/steps/round-*-rollout.done" >/dev/null; then
    labels=rollout
  fi
  : "${labels:=search}"
  rec=$(recorded rollout-weights '^(current|gnubg)$')
  if [ -n "$rec" ] && [ -n "$f_rollout_weights" ] && [ "$rec" != "$f_rollout_weights" ]; then
    die "$dir was started with --rollout-weights $rec (a run keeps its labelling weights; use another --dir)"
  fi
  rollout_weights=${rec:-${f_rollout_weights:-current}}
  if [ "$rollout_weights" = gnubg ] && [ "$have_gnubg" = 0 ]; then
    die "--rollout-weights gnubg: no gnubg weights at $gnubg_wd (set GNUBG_WEIGHTS)"
  fi
}
settings

mkdir -p -- "$dir" 2>/dev/null || die "cannot create the directory $dir (--dir)"
# One run per DIR: the directory is locked (flock on fd 9, which the steps' tools inherit,
# so a step left running after its script was killed holds it too). A second run waits up
# to 10 s (a killed run's tools may still be exiting), then is refused, naming the
# processes that hold DIR. Where the filesystem cannot lock a directory (NFS, Lustre
# without flock), the run goes on without the lock, saying so. A `submit.sh overnight`
# on DIR whose jobs Slurm still has queued or running also refuses a run here (its last
# job, which runs this script for the report, excepted).
lock_rc=0
run_lock 9 "$dir" overnight.sh -w 10 || lock_rc=$?
if [ "$lock_rc" = 75 ]; then
  holders=$(run_holders "$dir")
  die "$dir is in use by another run or a submission${holders:+ (held by $holders)}; wait for it to end or stop it"
fi
jobs_left=$(run_jobs "$dir" overnight.sh)
if [ -n "$jobs_left" ]; then
  die "$dir is in use by Slurm jobs of submit.sh overnight still in the queue ($jobs_left); wait for them (the last one writes the report), or scancel them to go on here (jobs waiting on a failed one never start)"
fi
# Again, under the lock (a run that held DIR may have recorded its settings meanwhile).
settings
# --fresh removes what a run created in DIR (run-lock.sh: run_entries), nothing else.
if [ "$fresh" = 1 ]; then
  run_entries "$dir" | xargs -0 -r rm -rf --
fi
# put FILE VALUE: FILE holds VALUE (a line), written to a temporary name and renamed.
put() {
  local t="$dir/.put.$BASHPID"
  printf '%s\n' "$2" >"$t" && mv -f -- "$t" "$1"
}
dir=$(cd -- "$dir" && pwd)
# The mark first: only a new or empty directory, or a run's, gets here.
run_mark "$dir"
rm -f -- "$dir"/.put.* "$dir"/clock.* # a killed run's temporary files
mkdir -p "$dir/logs" "$dir/steps" "$dir/data"
mainlog="$dir/overnight.log"

# say TEXT...: TEXT on stdout unless --quiet; a closed stdout (`| head`) never stops the run.
say() { [ "$quiet" = 1 ] || (printf '%s\n' "$*") 2>/dev/null || true; }
# log TEXT...: a timestamped line in DIR/overnight.log, and on stdout (say).
log() {
  local line
  line="$(date -u +%Y-%m-%dT%H:%M:%SZ) $*"
  printf '%s\n' "$line" >>"$mainlog"
  say "$line"
}

# --- The time budget (--hours) -------------------------------------------------------------
# DIR/hours holds the budget of the run (a rerun keeps it); DIR/clock the seconds spent
# in all invocations so far, saved every 2 s and after every step. DIR/labels: the
# run's label source; DIR/rollout-weights: whose weights label (ship-net.sh reads it).
[ -n "$hours" ] && [ -z "$(recorded hours "$hours_re")" ] && put "$dir/hours" "$hours"
[ -n "$(recorded labels '^(search|rollout)$')" ] || put "$dir/labels" "$labels"
[ -n "$(recorded rollout-weights '^(current|gnubg)$')" ] || put "$dir/rollout-weights" "$rollout_weights"
budget_s=""
while_time=0
if [ -n "$hours" ]; then
  budget_s=$(python3 -c 'import sys; print(int(float(sys.argv[1]) * 3600))' "$hours")
  # Time decides; the profile's sizes are upper bounds. Search rounds go on while the
  # time lasts (unless --rounds).
  TD_GAMES=1000000000
  if [ "$labels" = search ] && [ -z "$rounds" ]; then ROUNDS=1000 while_time=1; fi
fi
spent0=$(cat "$dir/clock" 2>/dev/null || true)
[[ "$spent0" =~ ^[0-9]{1,12}$ ]] || spent0=0 # none yet, or garbled: not written
spent0=$((10#$spent0))
epoch0=$(date +%s)
spent() { echo $((spent0 + $(date +%s) - epoch0)); }
save_clock() { local t="$dir/clock.$BASHPID"; spent >"$t" && mv -f "$t" "$dir/clock"; }
if [ -n "$budget_s" ]; then
  ( exec 9<&-; while kill -0 $$ 2>/dev/null; do save_clock; sleep 2; done ) & # not holding the lock
  ticker=$!
  trap 'save_clock; kill $ticker 2>/dev/null || true' EXIT
fi
# budget_minutes SHARE RESERVE: the minutes of a step: SHARE of the budget, at most what
# is left once RESERVE (a share of the budget kept for the steps after it) is set
# aside; at least 0.01 (the tools then do their smallest unit of work).
budget_minutes() {
  python3 -c 'import sys; b, s, share, keep = map(float, sys.argv[1:]); print("%.3f" % max(0.01, min(share * b, b - s - keep * b) / 60))' \
    "$budget_s" "$(spent)" "$1" "$2"
}
# duel_rate: the games per second of the measurements so far (the TD net's, each
# round's and the fit's: ROUND_DUEL_GAMES games against pubeval and the benchmark set
# each, their seconds in DIR/steps/*measure.done), a lower bound on the final duels' rate.
duel_rate() {
  python3 -c 'import glob, sys
d, games = sys.argv[1], float(sys.argv[2])
secs = [open(f).read().strip() for f in glob.glob(d + "/steps/*measure*.done")]
secs = [int(s) for s in secs if s.isdigit()]  # seconds (a marker left garbled: none)
print(games * len(secs) / max(sum(secs), 1) if secs else games)' "$dir" "$ROUND_DUEL_GAMES"
}
# duels_share: the share of the budget kept for the final duels: twice their time at
# duel_rate (at most 6 nets: TD, up to 4 rounds or the best and the last, the fit; each
# against pubeval and gnubg, and gnubg against pubeval; DUEL_GAMES games each) and 3 %
# of the budget, at most 12 %.
duels_share() {
  python3 -c 'import sys; b, rate, most, g = map(float, sys.argv[1:]); print("%.4f" % min(0.12, 0.03 + 2 * (6 * (1 + g) + g) * most / rate / b))' \
    "$budget_s" "$(duel_rate)" "$DUEL_GAMES" "$have_gnubg"
}
# later_share: the share of the budget the steps after the benchmark set keep: 35 %;
# with --td-only what they need: 2 % for the TD net's measurement and the report, and
# the final duels' share.
later_share() {
  if [ "$td_only" = 1 ]; then python3 -c 'import sys; print(0.02 + float(sys.argv[1]))' "$(duels_share)"; else echo 0.35; fi
}
# td_budget_minutes: TD's minutes: TD_SHARE of the budget, 45 % kept for the later
# steps; with --td-only all of it but the benchmark set's 7 % and later_share.
td_budget_minutes() {
  if [ "$td_only" = 1 ]; then
    budget_minutes 1 "$(python3 -c 'import sys; print(0.07 + float(sys.argv[1]))' "$(later_share)")"
  else
    budget_minutes "$TD_SHARE" 0.45
  fi
}
if [ -n "$budget_s" ]; then
  if [ "$td_only" = 1 ]; then
    TD_MINUTES=$(python3 -c 'import sys; print(round(float(sys.argv[1]) * (0.93 - float(sys.argv[2])) / 60, 3))' "$budget_s" "$(later_share)")
  else
    TD_MINUTES=$(python3 -c 'import sys; print(round(float(sys.argv[1]) * float(sys.argv[2]) / 60, 3))' "$budget_s" "$TD_SHARE")
  fi
fi

# step NAME COMMAND...: runs COMMAND (its output to logs/NAME.log) unless NAME is done:
# DIR/steps/NAME.done holds its seconds (a marker left empty or garbled by a kill while
# it was written counts as not written: the step is done again).
step() {
  local name=$1
  shift
  if [[ "$(cat "$dir/steps/$name.done" 2>/dev/null)" =~ ^[0-9]+$ ]]; then
    log "skip  $name (done)"
    return 0
  fi
  log "start $name"
  local t0=$SECONDS rc
  # In a subshell with -e, outside any condition (where bash switches -e off in the
  # functions it calls): a failure of any command of the step's function fails the step,
  # not only its last command's.
  set +e
  (
    set -e
    "$@"
  ) >>"$dir/logs/$name.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" = 0 ]; then
    put "$dir/steps/$name.done" "$((SECONDS - t0))"
    [ -n "$budget_s" ] && save_clock
    log "done  $name ($((SECONDS - t0)) s$([ -n "$budget_s" ] && echo ", $(spent) of $budget_s s of the budget spent"))"
  else
    log "FAIL  $name (exit $rc after $((SECONDS - t0)) s): see $dir/logs/$name.log"
    local last
    last=$(tail -n 5 "$dir/logs/$name.log" | sed 's/^/      /')
    printf '%s\n' "$last" >>"$mainlog"
    say "$last"
    [ "$quiet" = 0 ] || printf 'overnight.sh: step %s failed (exit %s): see %s\n%s\n' "$name" "$rc" "$dir/logs/$name.log" "$last" >&2
    exit "$rc"
  fi
}

log "overnight.sh $([ "$quick" = 1 ] && echo --quick) in $dir: TD for $TD_MINUTES minutes at most, rounds $([ "$while_time" = 1 ] && echo "while the time lasts" || echo "$ROUNDS"), $labels labels by $rollout_weights weights"

# --- 0. Build --------------------------------------------------------------------------
if [ -n "${BGKIT_BIN:-}" ]; then
  log "using the binaries in $bin (BGKIT_BIN)"
else
  # The binaries run where they are built, so they are built for this CPU
  # (target-cpu=native: 1.12-1.15x self-play per core on an AVX-512 EPYC, every output bit
  # the same; trainer/README "Built for the CPU") into target/native, unless RUSTFLAGS
  # is set (RUSTFLAGS= builds portable binaries into target/).
  if [ -z "${RUSTFLAGS+set}" ]; then
    export RUSTFLAGS="-C target-cpu=native"
    export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/native}
  else
    export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
  fi
  bin="$CARGO_TARGET_DIR/release"
  build() { cargo build --release -p gen-bearoff -p evaluator -p datasets -p trainer --manifest-path "$root/Cargo.toml"; }
  log "start build (RUSTFLAGS '${RUSTFLAGS}', into $CARGO_TARGET_DIR)"
  t0=$SECONDS
  build >>"$dir/logs/build.log" 2>&1 || { log "FAIL  build: see $dir/logs/build.log"; exit 2; }
  log "done  build ($((SECONDS - t0)) s)"
fi

# --- 1. Bearoff databases ----------------------------------------------------------------
os="$dir/data/gnubg_os0.bd"
ts="$dir/data/gnubg_ts0.bd"
bearoff() {
  "$bin/gen-bearoff" one-sided --points 6 -o "$os" --force
  "$bin/gen-bearoff" two-sided --points 6 --checkers 6 -o "$ts" --force
  "$bin/gen-bearoff" verify --quiet "$os"
  "$bin/gen-bearoff" verify --quiet "$ts"
}
step bearoff bearoff
dbs=(--bearoff-os "$os" --bearoff-ts "$ts")


# --- 2. TD from scratch ------------------------------------------------------------------
td() {
  if [ -f "$dir/td/state.json" ]; then
    # TD_MINUTES is for the whole run: what the earlier sessions used is subtracted.
    local left
    left=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(max(0.0, float(sys.argv[2]) - s["elapsed_seconds"] / 60))' \
      "$dir/td/state.json" "$TD_MINUTES")
    [ -n "$budget_s" ] && left=$(python3 -c 'import sys; print(min(map(float, sys.argv[1:])))' "$left" "$(td_budget_minutes)")
    if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0.05 else 1)' "$left"; then
      "$bin/trainer" td --resume "$dir/td" --games "$TD_GAMES" --minutes "$left" "${thread_args[@]}" "${dbs[@]}"
    fi
  else
    local m=$TD_MINUTES
    [ -n "$budget_s" ] && m=$(td_budget_minutes)
    # --force: a run killed before its first checkpoint (state.json) may have left the
    # files of its start in DIR/td; they are this step's own, replaced.
    "$bin/trainer" td --out "$dir/td" --force --games "$TD_GAMES" --minutes "$m" --bench-every "$TD_BENCH_EVERY" \
      --bench-games "$TD_BENCH_GAMES" --checkpoint-every "$TD_BENCH_EVERY" --hidden "$HIDDEN" "${thread_args[@]}" "${dbs[@]}"
  fi
}
step td td

# --- 3. The held-out benchmark set ------------------------------------------------------
# Positions from gnubg's self-play (another seed than any training sample), every 10th
# kept; candidates and reference rollouts by gnubg's weights when installed, else by the
# TD net.
ref_wd=$gnubg_wd
[ "$have_gnubg" = 0 ] && ref_wd="$dir/td/net.wd"
benchset() {
  local m1=() m2=()
  # Written (by a rename) before a kill that came ahead of the step's end: done (the
  # journal may be left).
  if [ -f "$dir/bench.jsonl" ]; then
    rm -f "$dir/bench.jsonl.partial" "$dir/bench.jsonl.partial.json"
    return 0
  fi
  local later
  [ -n "$budget_s" ] && later=$(later_share) && m1=(--minutes "$(budget_minutes 0.02 "$(python3 -c 'import sys; print(float(sys.argv[1]) + 0.05)' "$later")")")
  "$bin/datasets" sample --weights "$ref_wd" --games "$BENCH_GAMES" --seed 9001 -o "$dir/bench-all.csv" --force \
    --quiet "${m1[@]}" "${thread_args[@]}" "${dbs[@]}"
  awk 'NR == 1 || NR % 10 == 0' "$dir/bench-all.csv" >"$dir/bench-positions.csv"
  [ -n "$budget_s" ] && m2=(--minutes "$(budget_minutes 0.05 "$later")")
  "$bin/datasets" benchmark build --weights "$ref_wd" --input "$dir/bench-positions.csv" -o "$dir/bench.jsonl" \
    --candidates "$BENCH_CANDIDATES" --trials "$BENCH_TRIALS" --truncate "$BENCH_TRUNCATE" \
    --max-positions "$BENCH_POSITIONS" --seed 9002 --quiet "${m2[@]}" "${thread_args[@]}" "${dbs[@]}"
}
step benchset benchset

# Measures a net: ER on the benchmark set and a duel against pubeval (JSON files).
measure() {
  local net=$1 out=$2 games=$3
  "$bin/trainer" benchmark --weights "$net" --set "$dir/bench.jsonl" --json "${thread_args[@]}" "${dbs[@]}" >"$out.er.json"
  "$bin/trainer" duel --a "$net" --b pubeval --games "$games" --seed 7 --json --quiet "${thread_args[@]}" \
    "${dbs[@]}" >"$out.pubeval.json"
}
step measure-td measure "$dir/td/net.wd" "$dir/td/measure" "$ROUND_DUEL_GAMES"

# --- 4. Rounds of sample -> rollout -> supervised training -------------------------------
# Supervised training of one class's net, new or resumed (scripts/round-supervise.sh:
# on the data files that hold positions of the class; with none, the starting net is kept).
supervise() {
  local class=$1 init=$2 out=$3
  shift 3
  "$root/scripts/round-supervise.sh" "$bin/trainer" "$class" "$init" "$out" "$EPOCHS" "$LR" "$@" -- \
    "${thread_args[@]}" "${minutes_args[@]}"
}

current="$dir/td/net.wd"
data_files=()
rounds_done=0
minutes_args=()
# fit_share R: the share of the budget the rounds keep for the final fit, by rounds 1..R's
# training times: FIT_SHARE, or less when they say the fit needs less
# (scripts/fit-share.py).
fit_share() {
  python3 "$root/scripts/fit-share.py" "$dir" "$budget_s" "$1" "$FIT_SHARE" "$FIT_ROUNDS" "$FIT_EPOCHS" "$HIDDEN" "$FIT_HIDDEN"
}
# What the rounds leave of the budget before round R: duels_share for the final duels,
# and fit_share more for the final fit (section 5) when there is one.
reserve_share() {
  local fit=0
  [ "$FIT_HIDDEN" != 0 ] && fit=$(fit_share "$(($1 - 1))")
  python3 -c 'import sys; print(float(sys.argv[1]) + float(sys.argv[2]))' "$(duels_share)" "$fit"
}
reserve=0
for r in $(seq 1 "$ROUNDS"); do
  rd="$dir/round-$r"
  [ -n "$budget_s" ] && reserve=$(reserve_share "$r")
  # With a budget: a round gets an equal part of what is left once the reserve (the
  # final duels' share, plus fit_share for the final fit) is kept (so time
  # a step did not use goes to the later rounds), at least 35 % / ROUNDS of the budget;
  # of that, sampling 10 %, rollouts 55 %, each class's training 8 %. A round is not
  # started unless 35 % / ROUNDS and the reserve are left (a round begun before an
  # interruption is finished).
  # With search labels a round has the profile's size and rounds go on while the time
  # lasts (or up to --rounds): a round may use all that is left but the reserve, and a new
  # one is started only when that holds 1.2 times the longest round so far (by the
  # budget's clock, round-N/clock: start and end; 5 % of the budget before the first).
  round_share=""
  if [ -n "$budget_s" ] && [ "$labels" = search ]; then
    round_share=$(python3 -c 'import sys; s, b, k = map(float, sys.argv[1:]); print(max(0.001, (b - s - k * b) / b))' "$(spent)" "$budget_s" "$reserve")
    longest=$(python3 -c 'import sys
d, r = sys.argv[1], int(sys.argv[2])
def took(k):
    try:
        a, b = open("%s/round-%d/clock" % (d, k)).read().split()
        return int(b) - int(a)
    except (OSError, ValueError):  # a round of an older run: not timed
        return 0
print(max([took(k) for k in range(1, r)] or [0]))' "$dir" "$r")
    if [ ! -d "$rd" ] && ! python3 -c 'import sys; s, b, longest, k = map(float, sys.argv[1:]); sys.exit(0 if b - s - k * b >= (1.2 * longest or 0.05 * b) else 1)' \
      "$(spent)" "$budget_s" "${longest:-0}" "$reserve"; then
      log "budget: $(spent) of $budget_s s spent, round $r and later dropped"
      break
    fi
  elif [ -n "$budget_s" ]; then
    round_share=$(python3 -c 'import sys; s, b, rounds, r, k = map(float, sys.argv[1:]); print(max(0.35 / rounds, (b - s - k * b) / b / (rounds - r + 1)))' \
      "$(spent)" "$budget_s" "$ROUNDS" "$r" "$reserve")
    if [ ! -d "$rd" ] && ! python3 -c 'import sys; s, b, rounds, k = map(float, sys.argv[1:]); sys.exit(0 if b - s >= (0.35 / rounds + k) * b * 0.9 else 1)' \
      "$(spent)" "$budget_s" "$ROUNDS" "$reserve"; then
      log "budget: $(spent) of $budget_s s spent, round $r and later dropped"
      break
    fi
  fi
  share() { python3 -c 'import sys; print(float(sys.argv[1]) * float(sys.argv[2]))' "$round_share" "$1"; }
  if [ ! -d "$rd" ]; then
    mkdir -p "$rd.tmp" && spent >"$rd.tmp/clock" && mv "$rd.tmp" "$rd"
  fi
  roller=$current
  [ "$rollout_weights" = gnubg ] && roller=$gnubg_wd
  if [ "$labels" = search ]; then games=$LABEL_GAMES; keep=$LABEL_POSITIONS; else games=$SAMPLE_GAMES; keep=$MAX_POSITIONS; fi
  # Search rounds also label the positions after each decision's next-best moves.
  alternatives=0
  [ "$labels" = search ] && alternatives=$ALTERNATIVES
  sample() {
    local m=()
    [ -n "$budget_s" ] && m=(--minutes "$(budget_minutes "$(share 0.10)" "$reserve")")
    "$bin/datasets" sample --weights "$current" --games "$games" --seed "$((100 + r))" -o "$rd/sampled.csv" --force \
      --alternatives "$alternatives" --quiet "${m[@]}" "${thread_args[@]}" "${dbs[@]}"
    head -n "$((keep + 1))" "$rd/sampled.csv" >"$rd/positions.csv"
  }
  step "round-$r-sample" sample
  label() {
    local m=()
    [ -n "$budget_s" ] && m=(--minutes "$(budget_minutes "$(share 0.55)" "$reserve")")
    # Written (by a rename) before a kill that came ahead of the step's end: done.
    if [ -f "$rd/data.bgds" ]; then
      :
    elif [ "$labels" = search ]; then
      "$bin/datasets" label --weights "$roller" --input "$rd/positions.csv" -o "$rd/data.bgds" \
        --plies "$LABEL_PLIES" --quiet "${m[@]}" "${thread_args[@]}" "${dbs[@]}"
    else
      "$bin/datasets" rollout --weights "$roller" --input "$rd/positions.csv" -o "$rd/data.bgds" \
        --trials "$ROLLOUT_TRIALS" --truncate "$ROLLOUT_TRUNCATE" --seed "$((200 + r))" --quiet "${m[@]}" "${thread_args[@]}" "${dbs[@]}"
    fi
    "$bin/datasets" stats "$rd/data.bgds"
    "$bin/datasets" stats --json "$rd/data.bgds" >"$rd/stats.json.tmp" && mv -f "$rd/stats.json.tmp" "$rd/stats.json"
  }
  # The step's name says the label source (a search round is never taken for a rollout's).
  step "round-$r-$labels" label
  # Search rounds train on the last DATA_ROUNDS rounds' data (0: all rounds so far),
  # rollout rounds (a few thousand positions each) on all.
  data_files+=("$rd/data.bgds")
  if [ "$labels" = search ] && [ "$DATA_ROUNDS" -gt 0 ] && [ "${#data_files[@]}" -gt "$DATA_ROUNDS" ]; then
    data_files=("${data_files[@]: -$DATA_ROUNDS}")
  fi
  [ -n "$budget_s" ] && minutes_args=(--minutes "$(budget_minutes "$(share 0.08)" "$reserve")")
  step "round-$r-contact" supervise contact "$current" "$rd/contact" "${data_files[@]}"
  [ -n "$budget_s" ] && minutes_args=(--minutes "$(budget_minutes "$(share 0.08)" "$reserve")")
  step "round-$r-crashed" supervise crashed "$rd/contact/net.wd" "$rd/crashed" "${data_files[@]}"
  [ -n "$budget_s" ] && minutes_args=(--minutes "$(budget_minutes "$(share 0.08)" "$reserve")")
  step "round-$r-race" supervise race "$rd/crashed/net.wd" "$rd/race" "${data_files[@]}"
  current="$rd/race/net.wd"
  step "round-$r-measure" measure "$current" "$rd/measure" "$ROUND_DUEL_GAMES"
  # The round's end on the budget's clock, once (the start is the file's first word).
  [ -f "$rd/clock" ] && [ "$(wc -w <"$rd/clock")" = 1 ] && { printf '%s %s\n' "$(cat "$rd/clock")" "$(spent)" >"$rd/clock.tmp" && mv -f "$rd/clock.tmp" "$rd/clock"; }
  rounds_done=$r
done
ROUNDS=$rounds_done

# --- 5. The final fit ---------------------------------------------------------------------
# A fresh contact net of FIT_HIDDEN units (FIT_WIDEN=1: the last round's, widened)
# trained on the labels of the last FIT_ROUNDS rounds (the crashed and race nets are the
# last round's), in DIR/fit (scripts/final-fit.sh; done again when a rerun has another
# number of rounds or FIT_WIDEN), then
# measured as a round is. Rounds of search labels reach a plateau that a bigger net fitted once to
# several rounds' labels gets past (trainer/README.md, "Ablations from the plateau").
fit_round=""
if [ "$FIT_HIDDEN" != 0 ] && [ "$ROUNDS" -ge 1 ]; then
  stale=$("$root/scripts/final-fit.sh" --stale "$dir" "$ROUNDS")
  [ -z "$stale" ] || log "$stale"
  minutes_args=()
  [ -n "$budget_s" ] && minutes_args=(--minutes "$(budget_minutes "$FIT_SHARE" "$(duels_share)")")
  step fit "$root/scripts/final-fit.sh" "$bin/trainer" "$dir" "$current" "$ROUNDS" "$FIT_HIDDEN" "$FIT_ROUNDS" \
    "$FIT_EPOCHS" "$FIT_LR" -- "${thread_args[@]}" "${minutes_args[@]}"
  step fit-measure measure "$dir/fit/net.wd" "$dir/fit/measure" "$ROUND_DUEL_GAMES"
  fit_round=fit
fi

# --- 6. Final duel table -----------------------------------------------------------------
# The TD net and every round's net; after more than 4 rounds only the best round by its
# round duel against pubeval (the earliest of equals) and the last round.
finalists=(0)
if [ "$ROUNDS" -le 4 ]; then
  for r in $(seq 1 "$ROUNDS"); do finalists+=("$r"); done
elif [ "$ROUNDS" -gt 4 ]; then
  best=$(python3 -c 'import json, sys
d, n = sys.argv[1], int(sys.argv[2])
ppg = [json.load(open("%s/round-%d/measure.pubeval.json" % (d, r)))["ppg"] for r in range(1, n + 1)]
print(1 + max(range(n), key=lambda i: (ppg[i], -i)))' "$dir" "$ROUNDS")
  finalists+=("$best")
  [ "$best" != "$ROUNDS" ] && finalists+=("$ROUNDS")
fi
# And the final fit's net.
[ -n "$fit_round" ] && finalists+=("$fit_round")
players=()
for r in "${finalists[@]}"; do
  case $r in
    0) players+=("$dir/td/net.wd") ;;
    fit) players+=("$dir/fit/net.wd") ;;
    *) players+=("$dir/round-$r/race/net.wd") ;;
  esac
done
# With a budget: the duels' games are sized to the time left (less 3 % of the budget),
# at duel_rate, at most DUEL_GAMES; kept in
# DIR/final-games so that a resumed run plays the same number.
if [ -n "$budget_s" ]; then
  if ! grep -qE '^[0-9]+$' "$dir/final-games" 2>/dev/null; then
    duels=$(( ${#players[@]} * (1 + have_gnubg) + have_gnubg ))
    python3 -c 'import sys
rate, left, duels, most = map(float, sys.argv[1:])
n = int(rate * max(left, 0.0) / duels) // 2 * 2
print(int(min(most, max(100, n))))' \
      "$(duel_rate)" \
      "$(python3 -c 'import sys; b, s = map(float, sys.argv[1:]); print(b - s - 0.03 * b)' "$budget_s" "$(spent)")" \
      "$duels" "$DUEL_GAMES" >"$dir/final-games.tmp"
    mv -f "$dir/final-games.tmp" "$dir/final-games"
  fi
  DUEL_GAMES=$(cat "$dir/final-games")
  log "budget: $(spent) of $budget_s s spent; final duels of $DUEL_GAMES games"
fi
# One step per net (so a rerun with more --rounds plays only the new nets' duels), then
# the reference players.
final_duels() {
  local i=$1 p=$2
  "$bin/trainer" duel --a "$p" --b pubeval --games "$DUEL_GAMES" --seed 11 --json --quiet "${thread_args[@]}" \
    "${dbs[@]}" >"$dir/final-$i-pubeval.json"
  if [ "$have_gnubg" = 1 ]; then
    "$bin/trainer" duel --a "$p" --b "gnubg:$gnubg_wd" --games "$DUEL_GAMES" --seed 11 --json --quiet \
      "${thread_args[@]}" "${dbs[@]}" >"$dir/final-$i-gnubg.json"
  fi
}
reference_duels() {
  if [ "$have_gnubg" = 1 ]; then
    "$bin/trainer" duel --a "gnubg:$gnubg_wd" --b pubeval --games "$DUEL_GAMES" --seed 11 --json --quiet \
      "${thread_args[@]}" "${dbs[@]}" >"$dir/final-gnubg-pubeval.json"
    "$bin/trainer" benchmark --weights "gnubg:$gnubg_wd" --weights pubeval --set "$dir/bench.jsonl" --json \
      "${thread_args[@]}" "${dbs[@]}" >"$dir/final-reference.er.json"
  else
    "$bin/trainer" benchmark --weights pubeval --set "$dir/bench.jsonl" --json "${thread_args[@]}" \
      >"$dir/final-reference.er.json"
  fi
}
for k in "${!players[@]}"; do
  step "final-${finalists[$k]}" final_duels "${finalists[$k]}" "${players[$k]}"
done
step final-reference reference_duels

# --- 7. Report ---------------------------------------------------------------------------
report() {
  python3 "$root/scripts/overnight-report.py" "$dir" "$ROUNDS" "$quick" "$rollout_weights" "$have_gnubg" "$labels" "$LABEL_PLIES"
  "$bin/trainer" curve --input "$dir/run-curve.csv" -o "$dir/run-curve.png" --x minutes --force
}
rm -f "$dir/steps/report.done"
step report report
log "report: $dir/report.md"
(cat "$dir/report.md") 2>/dev/null || true # the result, also with --quiet
