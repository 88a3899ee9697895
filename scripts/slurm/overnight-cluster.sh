# `submit.sh overnight`: scripts/overnight.sh's pipeline as Slurm jobs (sourced by
# submit.sh, whose options and functions it uses). The same tools with the same
# arguments and the same files in DIR: the sampling, the labels (search or rollouts,
# --labels as overnight.sh's) and the benchmark build run as job arrays of --tasks tasks merged afterwards (byte for byte what one
# machine writes), the final duels as parallel jobs, everything else as one job per
# step, each after the one it needs. Each step leaves DIR/steps/NAME.done as
# overnight.sh does, so the last job (scripts/overnight.sh itself, with BGKIT_BIN)
# finds every step done and writes DIR/report.md; that script also resumes on one
# machine whatever the cluster left unfinished, once no job of DIR/slurm/jobs is queued
# (scancel those left waiting on a failed one).
# The sizes are overnight.sh's (scripts/overnight-profiles.sh, sourced by both),
# overridable by the same environment variables.
# shellcheck shell=bash disable=SC2154 # the options and variables of submit.sh, which sources this

# shellcheck source=../overnight-profiles.sh
. "$(dirname "${BASH_SOURCE[0]}")/../overnight-profiles.sh"
if [ "$quick" = 1 ]; then : "${dir:=$(abs overnight-quick)}"; else : "${dir:=$(abs overnight)}"; fi
[ -n "$rounds" ] && ROUNDS=$rounds
# The profile's (or the environment's) ROUNDS, checked as submit.sh checks --rounds.
{ [[ "$ROUNDS" =~ ^[0-9]{1,4}$ ]] && [ "$((10#$ROUNDS))" -le 1000 ]; } ||
  die "ROUNDS must be a whole number from 0 to 1000, got '$ROUNDS'"
ROUNDS=$((10#$ROUNDS))
# The run's labels, as overnight.sh keeps them (DIR/labels).
# (An empty file, which only a write cut short leaves, counts as not written.)
[ -s "$dir/labels" ] && [ -z "$labels" ] && labels=$(cat "$dir/labels")
# Run directories from before --labels rolled out.
if [ -z "$labels" ] && compgen -G "$dir/steps/round-*-rollout.done" >/dev/null; then labels=rollout; fi
: "${labels:=search}"
case "$labels" in search|rollout) ;; *) die "--labels is search or rollout, got '$labels'" ;; esac
if [ -s "$dir/labels" ] && [ "$(cat "$dir/labels")" != "$labels" ]; then
  die "$dir was started with --labels $(cat "$dir/labels") (use another --dir)"
fi
# The other settings overnight.sh keeps, which the cluster's pipeline does not have: a
# run started with them is continued by overnight.sh, not here.
if [ -s "$dir/rollout-weights" ] && [ "$(cat "$dir/rollout-weights")" != current ]; then
  die "$dir was started with --rollout-weights $(cat "$dir/rollout-weights"); submit.sh overnight labels with the current net only (continue it with scripts/overnight.sh, or use another --dir)"
fi
if [ -s "$dir/hours" ]; then
  die "$dir was started with --hours $(cat "$dir/hours"); submit.sh overnight has no time budget (continue it with scripts/overnight.sh, or use another --dir)"
fi
[ -x "$BGKIT_BIN/gen-bearoff" ] || die "no gen-bearoff in BGKIT_BIN=$BGKIT_BIN"
# One run per DIR, as overnight.sh's: refused while a run of overnight.sh (or another
# submission) holds DIR's lock, or an earlier submission's jobs are queued or running.
# The lock is held while the jobs are submitted; DIR/slurm/jobs lists them, and
# overnight.sh (but in the report job) refuses DIR while one of them is in the queue.
# shellcheck source=../run-lock.sh
. "$root/scripts/run-lock.sh"
# DIR is new, empty or a run's (run-lock.sh: run_dir), as for overnight.sh: a folder
# that holds other files is refused before anything is written in it, so that a later
# `overnight.sh --fresh` there never meets a user's files under a run's names.
why=$(run_dir_refusal "$dir")
[ -z "$why" ] || die "$why"
mkdir -p "$dir"
lock_rc=0
run_lock 8 "$dir" submit.sh -n || lock_rc=$?
if [ "$lock_rc" = 75 ]; then
  holders=$(run_holders "$dir")
  die "$dir is in use by a run of overnight.sh or a submission${holders:+ (held by $holders)}; wait for it to end or stop it"
fi
jobs_left=$(run_jobs "$dir" submit.sh)
[ -z "$jobs_left" ] || die "$dir is in use by jobs of an earlier submission still in the queue ($jobs_left); wait for them, or scancel them (jobs waiting on a failed one never start)"
run_mark "$dir"
mkdir -p "$dir/steps" "$dir/logs" "$dir/data" "$dir/slurm"
jobs_file="$dir/slurm/jobs"
: >"$jobs_file"
put "$dir/labels" "$labels"
export DONE_DIR="$dir/steps"
base=$dir/slurm
export WORK=$base
b=$BGKIT_BIN
th=(--threads "$cpus")
os="$dir/data/gnubg_os0.bd"
ts="$dir/data/gnubg_ts0.bd"
dbs=(--bearoff-os "$os" --bearoff-ts "$ts")
gnubg_wd=${GNUBG_WEIGHTS:-/usr/lib/gnubg/gnubg.wd}
have_gnubg=0
[ -f "$gnubg_wd" ] && have_gnubg=1

# ostep NAME TEXT: a serial step of the pipeline (DIR/steps/NAME.done when done).
ostep() { WORK=$base step "$1" "$2" --cpus-per-task="$cpus"; }
# oshard NAME EXT SCRIPT OUT INPUT DONE -- ARGS...: a sharded step's array and merge,
# unless the step DONE that uses OUT is done (DIR/steps/DONE.done: nothing to make,
# also in a directory whose parts an older submit.sh made). Its parts are made again
# when they were made for other arguments (lib.sh), and its merge replaces OUT unless
# this job merged it (as overnight.sh's tools, run with --force).
# shellcheck disable=SC2034 # force is read by sharded (submit.sh)
oshard() {
  local name=$1 ext=$2 script=$3 target=$4 merge_input=$5 done_step=$6 force=1
  shift 7 # NAME EXT SCRIPT OUT INPUT DONE --
  if [ -s "$dir/steps/$done_step.done" ]; then
    echo "submit.sh: $name: step $done_step is done, nothing to submit" >&2
    return 0
  fi
  WORK=$base/$name
  args "${script%.sbatch}" "job=overnight $name
tasks=$tasks" "$@"
  sharded "${script%.sbatch}" "$ext" "$script" "$target" "$merge_input"
  WORK=$base
}

ostep bearoff "$(q "$b/gen-bearoff" one-sided --points 6 -o "$os" --force)
$(q "$b/gen-bearoff" two-sided --points 6 --checkers 6 -o "$ts" --force)
$(q "$b/gen-bearoff" verify --quiet "$os")
$(q "$b/gen-bearoff" verify --quiet "$ts")"
# TD_MINUTES is for the whole run: a requeued TD job gets what is left (as overnight.sh).
# A run is resumable once it has state.json (written after state-N.wd): without it the
# run starts over, --force replacing what a start killed before its first checkpoint left.
ostep td "if [ -f $(q "$dir/td/state.json") ]; then
  left=\$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(max(0.0, float(sys.argv[2]) - s[\"elapsed_seconds\"] / 60))' $(q "$dir/td/state.json" "$TD_MINUTES"))
  if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0.05 else 1)' \"\$left\"; then
    $(q "$b/trainer" td --resume "$dir/td" --games "$TD_GAMES") --minutes \"\$left\" $(q "${th[@]}" "${dbs[@]}")
  fi
else
  $(q "$b/trainer" td --out "$dir/td" --force --games "$TD_GAMES" --minutes "$TD_MINUTES" --bench-every "$TD_BENCH_EVERY" \
  --bench-games "$TD_BENCH_GAMES" --checkpoint-every "$TD_BENCH_EVERY" --hidden "$HIDDEN" "${th[@]}" "${dbs[@]}")
fi"

ref_wd=$gnubg_wd
[ "$have_gnubg" = 0 ] && ref_wd="$dir/td/net.wd"
oshard bench-sample csv sample.sbatch "$dir/bench-all.csv" "" bench-positions -- --weights "$ref_wd" --games "$BENCH_GAMES" \
  --seed 9001 "${dbs[@]}"
ostep bench-positions "awk 'NR == 1 || NR % 10 == 0' $(q "$dir/bench-all.csv") >$(q "$dir/bench-positions.csv")"
oshard bench-build jsonl benchmark.sbatch "$dir/bench.jsonl" "" benchset -- --weights "$ref_wd" --input "$dir/bench-positions.csv" \
  --candidates "$BENCH_CANDIDATES" --trials "$BENCH_TRIALS" --truncate "$BENCH_TRUNCATE" \
  --max-positions "$BENCH_POSITIONS" --seed 9002 "${dbs[@]}"
ostep benchset "test -s $(q "$dir/bench.jsonl")"

# measure NET OUT GAMES: overnight.sh's measure (benchmark ER and a duel with pubeval).
measure() {
  echo "$(q "$b/trainer" benchmark --weights "$1" --set "$dir/bench.jsonl" --json "${th[@]}" "${dbs[@]}") >$(q "$2.er.json")
$(q "$b/trainer" duel --a "$1" --b pubeval --games "$3" --seed 7 --json --quiet "${th[@]}" "${dbs[@]}") >$(q "$2.pubeval.json")"
}
ostep measure-td "$(measure "$dir/td/net.wd" "$dir/td/measure" "$ROUND_DUEL_GAMES")"

current="$dir/td/net.wd"
data_files=()
for r in $(seq 1 "$ROUNDS"); do
  rd="$dir/round-$r"
  mkdir -p "$rd"
  if [ "$labels" = search ]; then games=$LABEL_GAMES; keep=$LABEL_POSITIONS; else games=$SAMPLE_GAMES; keep=$MAX_POSITIONS; fi
  alternatives=0
  [ "$labels" = search ] && alternatives=$ALTERNATIVES
  oshard "round-$r-sampled" csv sample.sbatch "$rd/sampled.csv" "" "round-$r-sample" -- --weights "$current" --games "$games" \
    --seed "$((100 + r))" --alternatives "$alternatives" "${dbs[@]}"
  ostep "round-$r-sample" "head -n $((keep + 1)) $(q "$rd/sampled.csv") >$(q "$rd/positions.csv")"
  if [ "$labels" = search ]; then
    oshard "round-$r-search" bgds label.sbatch "$rd/data.bgds" "$rd/positions.csv" "round-$r-search" -- --weights "$current" \
      --input "$rd/positions.csv" --plies "$LABEL_PLIES" "${dbs[@]}"
  else
    oshard "round-$r-rollout" bgds rollout.sbatch "$rd/data.bgds" "$rd/positions.csv" "round-$r-rollout" -- --weights "$current" \
      --input "$rd/positions.csv" --trials "$ROLLOUT_TRIALS" --truncate "$ROLLOUT_TRUNCATE" --seed "$((200 + r))" "${dbs[@]}"
  fi
  ostep "round-$r-$labels" "$(q "$b/datasets" stats "$rd/data.bgds")
$(q "$b/datasets" stats --json "$rd/data.bgds") >$(q "$rd/stats.json.tmp") && mv -f $(q "$rd/stats.json.tmp" "$rd/stats.json")"
  # As overnight.sh: search rounds train on the last DATA_ROUNDS rounds, rollouts on all.
  data_files+=("$rd/data.bgds")
  if [ "$labels" = search ] && [ "$DATA_ROUNDS" -gt 0 ] && [ "${#data_files[@]}" -gt "$DATA_ROUNDS" ]; then
    data_files=("${data_files[@]: -$DATA_ROUNDS}")
  fi
  init=$current
  for class in contact crashed race; do
    out="$rd/$class"
    # As overnight.sh: on the files holding the class's positions; with none, the net is kept.
    ostep "round-$r-$class" "$(q "$root/scripts/round-supervise.sh" "$b/trainer" "$class" "$init" "$out" "$EPOCHS" "$LR" \
      "${data_files[@]}" -- "${th[@]}")"
    init="$out/net.wd"
  done
  current="$rd/race/net.wd"
  ostep "round-$r-measure" "$(measure "$current" "$rd/measure" "$ROUND_DUEL_GAMES")"
done

# Final duels: one job per net, all at once (every round's net: unlike overnight.sh, which
# after more than 4 rounds plays only the best and the last, the cluster plays them all
# in parallel; the report and ship-net.sh then rank every round).
last=$after
ids=(0)
players=("$dir/td/net.wd")
for r in $(seq 1 "$ROUNDS"); do
  ids+=("$r")
  players+=("$dir/round-$r/race/net.wd")
done
# The final fit, as overnight.sh's (scripts/final-fit.sh), after the last round; its
# final duels after it.
fit_after=$last
if [ "$FIT_HIDDEN" != 0 ] && [ "$ROUNDS" -ge 1 ]; then
  "$root/scripts/final-fit.sh" --stale "$dir" "$ROUNDS" >&2
  ostep fit "$(q "$root/scripts/final-fit.sh" "$b/trainer" "$dir" "$current" "$ROUNDS" "$FIT_HIDDEN" "$FIT_ROUNDS" \
    "$FIT_EPOCHS" "$FIT_LR" -- "${th[@]}")"
  ostep fit-measure "$(measure "$dir/fit/net.wd" "$dir/fit/measure" "$ROUND_DUEL_GAMES")"
  fit_after=$after
  ids+=(fit)
  players+=("$dir/fit/net.wd")
fi
finals=()
for k in "${!players[@]}"; do
  i=${ids[$k]}
  text="$(q "$b/trainer" duel --a "${players[$k]}" --b pubeval --games "$DUEL_GAMES" --seed 11 --json --quiet "${th[@]}" \
    "${dbs[@]}") >$(q "$dir/final-$i-pubeval.json")"
  if [ "$have_gnubg" = 1 ]; then
    text+="
$(q "$b/trainer" duel --a "${players[$k]}" --b "gnubg:$gnubg_wd" --games "$DUEL_GAMES" --seed 11 --json --quiet \
      "${th[@]}" "${dbs[@]}") >$(q "$dir/final-$i-gnubg.json")"
  fi
  after=$last
  [ "$i" = fit ] && after=$fit_after
  ostep "final-$i" "$text"
  finals+=("$after")
done
if [ "$have_gnubg" = 1 ]; then
  text="$(q "$b/trainer" duel --a "gnubg:$gnubg_wd" --b pubeval --games "$DUEL_GAMES" --seed 11 --json --quiet "${th[@]}" \
    "${dbs[@]}") >$(q "$dir/final-gnubg-pubeval.json")
$(q "$b/trainer" benchmark --weights "gnubg:$gnubg_wd" --weights pubeval --set "$dir/bench.jsonl" --json "${th[@]}" \
    "${dbs[@]}") >$(q "$dir/final-reference.er.json")"
else
  text="$(q "$b/trainer" benchmark --weights pubeval --set "$dir/bench.jsonl" --json "${th[@]}") >$(q "$dir/final-reference.er.json")"
fi
after=$last
ostep final-reference "$text"
finals+=("$after")
# The report: overnight.sh itself, which skips every step done above.
after=$(IFS=:; echo "${finals[*]}")
quick_arg=()
[ "$quick" = 1 ] && quick_arg=(--quick)
ostep report-run "$(q env BGKIT_BIN="$b" "$root/scripts/overnight.sh" --dir "$dir" --rounds "$ROUNDS" --labels "$labels" \
  "${quick_arg[@]}")"
echo "submit.sh: overnight in $dir: $((ROUNDS)) round(s), report by job $after -> $dir/report.md" >&2
