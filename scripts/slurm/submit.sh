#!/usr/bin/env bash
# Submits bgkit's long jobs to Slurm as job arrays, with their merges and the steps
# after them chained by --dependency=afterok. Prints the id of the last job on stdout
# (wait for it, or give it to --after of the next submission) and what it submitted on
# stderr.
#
#   submit.sh rollout   --tasks N --input POS.csv -o OUT [common] [-- ROLLOUT-ARGS]
#   submit.sh sample    --tasks N --games G -o OUT.csv [common] [-- SAMPLE-ARGS]
#   submit.sh benchmark --tasks N --input POS.csv -o OUT.jsonl [common] [-- BUILD-ARGS]
#   submit.sh tourney   --tasks N FILE [common] [-- RUN-ARGS]
#   submit.sh twosided  --tasks N SPEC -o OUT.bd [common]          (e.g. SPEC 6x8)
#   submit.sh pipeline  --tasks N --games G --dir DIR [--weights W] [--trials T]
#                       [--truncate X] [--seed S] [--epochs E] [common]
#                       sample -> merge -> rollout -> merge -> supervised --class all
#   submit.sh overnight --tasks N [--quick] [--dir DIR] [--rounds R]
#                       [--labels search|rollout] [common]
#                       scripts/overnight.sh's pipeline, its sampling, labels (or
#                       rollouts) and benchmark build as arrays, its duels in parallel
#                       (refused while DIR is in use: by a run of overnight.sh or a
#                       submission, which holds DIR's lock while it submits, or by
#                       the jobs of an earlier submission, listed in DIR/slurm/jobs)
#   submit.sh requeue JOBID_TASK...   rerun array tasks that were cancelled or failed
#                       (they resume from their journals) and re-arm the jobs waiting
#                       on their arrays (Slurm never releases an afterok dependency on
#                       an array once one of its tasks ended badly)
# common: --work DIR (parts, arguments and logs; default OUT.work or DIR/work),
#         --cpus C (CPUs per task, default 1), --after JOBID (start after that job).
# Partition, time limit, account etc.: Slurm's own SBATCH_* variables
# (SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT).
# Binaries: $BGKIT_BIN (default: target/release of this checkout), on a filesystem
# every node sees, like every file named here.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BGKIT_SLURM=$here
BGKIT_BIN=${BGKIT_BIN:-${CARGO_TARGET_DIR:-$root/target}/release}
[ -d "$BGKIT_BIN" ] && BGKIT_BIN=$(cd "$BGKIT_BIN" && pwd)
export BGKIT_BIN

die() { echo "submit.sh: $*" >&2; exit 2; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
abs() { local d b; d=$(dirname "$1"); b=$(basename "$1"); mkdir -p "$d"; echo "$(cd "$d" && pwd)/$b"; }

[ $# -gt 0 ] || { usage >&2; exit 2; }
job=$1
shift
case "$job" in -h|--help) usage; exit 0 ;; esac
command -v sbatch >/dev/null || die "sbatch is not on PATH (no Slurm here?)"
# The jobs submitted so far: when a later submission fails, submit.sh names them (they
# run on, but the jobs meant to follow them were never submitted).
submitted=$(mktemp)
# shellcheck disable=SC2317 # called by the trap
on_exit() {
  local rc=$?
  if [ "$rc" != 0 ] && [ -s "$submitted" ]; then
    echo "submit.sh: stopped after submitting $(paste -sd' ' "$submitted"): cancel them with scancel $(paste -sd' ' "$submitted")" >&2
  fi
  rm -f "$submitted"
}
trap on_exit EXIT

if [ "$job" = requeue ]; then
  [ $# -gt 0 ] || die "requeue needs array task ids (JOBID_TASK, e.g. 123_4)"
  for task in "$@"; do
    [[ "$task" =~ ^([0-9]+)_([0-9]+)$ ]] || die "'$task' is not an array task id (JOBID_TASK)"
    scontrol requeue "$task"
    # A requeued job waits for a begin time; start it as soon as there is room.
    scontrol update jobid="$task" StartTime=now
    echo "submit.sh: requeued $task" >&2
  done
  # Jobs that wait on one of these arrays: wait on each of its tasks instead.
  for array in $(printf '%s\n' "$@" | cut -d_ -f1 | sort -u); do
    tasks=$(scontrol -o show job "$array" | grep -o 'ArrayTaskId=[0-9]*' | cut -d= -f2 | sort -n \
      | sed "s/^/${array}_/" | paste -sd:)
    squeue -h -t PD -o '%i %E' | while read -r id dep; do
      if [[ "$dep" == *":${array}_"* || "$dep" == *":${array}("* || "$dep" == *":${array},"* ]]; then
        scontrol update jobid="$id" Dependency="afterok:$tasks"
        echo "submit.sh: job $id now waits on afterok:$tasks" >&2
      fi
    done
  done
  exit 0
fi

tasks="" games="" input="" out="" work="" cpus=1 after="" dir="" weights="" trials=36 truncate=""
seed=1 epochs=10 quick=0 rounds="" labels="" positional=() extra=() jobs_file=""
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --tasks) need "$@"; tasks=$2; shift ;;
    --games) need "$@"; games=$2; shift ;;
    --input) need "$@"; input=$(abs "$2"); shift ;;
    -o|--output) need "$@"; out=$(abs "$2"); shift ;;
    --work) need "$@"; work=$(abs "$2"); shift ;;
    --cpus) need "$@"; cpus=$2; shift ;;
    --after) need "$@"; after=$2; shift ;;
    --dir) need "$@"; dir=$(abs "$2"); shift ;;
    --weights) need "$@"; weights=$(abs "$2"); shift ;;
    --trials) need "$@"; trials=$2; shift ;;
    --truncate) need "$@"; truncate=$2; shift ;;
    --seed) need "$@"; seed=$2; shift ;;
    --epochs) need "$@"; epochs=$2; shift ;;
    --rounds) need "$@"; rounds=$2; shift ;;
    --labels) need "$@"; labels=$2; shift ;;
    --quick) quick=1 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) positional+=("$1") ;;
  esac
  shift
done
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || die "--tasks N (a positive number) is needed"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive number"
for tool in datasets trainer; do
  [ -x "$BGKIT_BIN/$tool" ] || die "no $tool in BGKIT_BIN=$BGKIT_BIN (cargo build --release, or set BGKIT_BIN)"
done

# sub SCRIPT [SBATCH-OPTIONS...]: submits SCRIPT with the environment (set VAR=... in
# front), logs in $WORK/logs; prints the job id (and adds it to $jobs_file if set, and
# to $submitted). It runs in a command substitution, where bash does not apply
# `set -e`: each failure is returned explicitly, which stops submit.sh at the caller's
# assignment.
sub() {
  local script=$1 id
  shift
  mkdir -p "$WORK/logs" || return
  local dep=()
  [ -n "$after" ] && dep=(--dependency="afterok:$after")
  id=$(sbatch --parsable --export=ALL --cpus-per-task="$cpus" --output="$WORK/logs/%x-%A_%a.out" \
    "${dep[@]}" "$@" "$here/$script" 8<&-) || return
  id=${id%%;*}
  [[ "$id" =~ ^[0-9]+$ ]] || { echo "submit.sh: sbatch printed '$id', not a job id, for $script" >&2; return 1; }
  echo "$id" >>"$submitted" || return
  [ -z "$jobs_file" ] || echo "$id" >>"$jobs_file" || return
  echo "$id"
}
# args NAME ARG...: the arguments of NAME's tasks, NUL-separated.
args() {
  local name=$1
  shift
  mkdir -p "$WORK"
  if [ $# -gt 0 ]; then printf '%s\0' "$@" >"$WORK/$name.args"; else : >"$WORK/$name.args"; fi
}
fresh_out() { [ ! -e "$1" ] || die "$1 exists (remove it, or choose another -o)"; }

# sharded NAME EXT SCRIPT OUT [INPUT]: the array of NAME's tasks and the merge of its
# parts into OUT after it; sets $after to the merge.
sharded() {
  local name=$1 ext=$2 script=$3 target=$4 merge_input=${5:-}
  local aid mid
  aid=$(EXT=$ext sub "$script" --array="1-$tasks")
  mid=$(after=$aid cpus=1 NAME=$name EXT=$ext OUT=$target INPUT=$merge_input sub merge.sbatch)
  echo "submit.sh: $name: array $aid (tasks 1-$tasks) -> merge $mid -> $target" >&2
  after=$mid
}

# step NAME SCRIPT-TEXT [SBATCH-OPTIONS...]: a serial step (step.sbatch) running
# SCRIPT-TEXT; sets $after to it.
step() {
  local name=$1 text=$2
  shift 2
  mkdir -p "$WORK"
  printf '%s\n' "$text" >"$WORK/$name.sh"
  after=$(STEP=$name sub step.sbatch --job-name="bgkit-$name" "$@")
  echo "submit.sh: step $name: job $after" >&2
}

# q ARG...: the arguments quoted for a step's script.
q() { printf '%q ' "$@"; }

case "$job" in
  rollout)
    [ -n "$input" ] && [ -n "$out" ] || die "rollout needs --input and -o"
    fresh_out "$out"
    export WORK=${work:-$out.work}
    args rollout --input "$input" "${extra[@]}"
    ext=${out##*.}
    sharded rollout "$ext" rollout.sbatch "$out" "$input"
    ;;
  sample)
    [ -n "$games" ] && [ -n "$out" ] || die "sample needs --games and -o"
    fresh_out "$out"
    export WORK=${work:-$out.work}
    args sample --games "$games" "${extra[@]}"
    sharded sample csv sample.sbatch "$out"
    ;;
  benchmark)
    [ -n "$input" ] && [ -n "$out" ] || die "benchmark needs --input and -o"
    fresh_out "$out"
    export WORK=${work:-$out.work}
    args benchmark --input "$input" "${extra[@]}"
    sharded benchmark jsonl benchmark.sbatch "$out"
    ;;
  tourney)
    [ ${#positional[@]} -eq 1 ] || die "tourney needs the tournament FILE (made by trainer tourney new)"
    file=$(abs "${positional[0]}")
    [ -f "$file" ] || die "$file: no such tournament file (trainer tourney new makes one)"
    export WORK=${work:-$file.work}
    args tourney --quiet "${extra[@]}"
    after=$(FILE=$file sub tourney.sbatch --array="1-$tasks")
    echo "submit.sh: tourney: $tasks workers, array $after, on $file" >&2
    ;;
  twosided)
    [ ${#positional[@]} -eq 1 ] && [ -n "$out" ] || die "twosided needs SPEC (e.g. 6x8) and -o"
    fresh_out "$out"
    spec=${positional[0]}
    [ -x "$BGKIT_BIN/gen-bearoff" ] || die "no gen-bearoff in BGKIT_BIN=$BGKIT_BIN"
    "$BGKIT_BIN/gen-bearoff" two-sided --help | grep -q -- --stale-after \
      || die "this gen-bearoff has no two-sided workers (no two-sided --stale-after)"
    export WORK=${work:-$out.work}
    db_work="$WORK/db"
    mkdir -p "$db_work"
    levels=$("$BGKIT_BIN/gen-bearoff" two-sided-plan "$spec" --work "$db_work" -q)
    [[ "$levels" =~ ^[0-9]+$ ]] || die "two-sided-plan printed '$levels', not a number of levels"
    after=$(SPEC=$spec DB_WORK=$db_work sub twosided.sbatch --array="1-$tasks")
    echo "submit.sh: twosided $spec: $levels levels, $tasks workers claiming their shards (array $after)" >&2
    after=$(cpus=1 SPEC=$spec DB_WORK=$db_work OUT=$out sub twosided-assemble.sbatch)
    echo "submit.sh: twosided $spec: assembly $after -> $out" >&2
    ;;
  pipeline)
    [ -n "$games" ] && [ -n "$dir" ] || die "pipeline needs --games and --dir"
    mkdir -p "$dir"
    export WORK=${work:-$dir/work}
    w=()
    [ -n "$weights" ] && w=(--weights "$weights")
    tr=()
    [ -n "$truncate" ] && tr=(--truncate "$truncate")
    args sample --games "$games" --seed "$seed" "${w[@]}"
    sharded sample csv sample.sbatch "$dir/positions.csv"
    args rollout --input "$dir/positions.csv" --trials "$trials" --seed "$seed" "${tr[@]}" "${w[@]}"
    sharded rollout bgds rollout.sbatch "$dir/data.bgds" "$dir/positions.csv"
    init=${weights:-/usr/lib/gnubg/gnubg.wd}
    new=$(q "$BGKIT_BIN/trainer" supervised --class all --init "$init" --data "$dir/data.bgds" --out "$dir/net" \
      --epochs "$epochs" --threads "$cpus")
    step supervised "if [ -d $(q "$dir/net") ]; then $(q "$BGKIT_BIN/trainer" supervised --resume "$dir/net" --threads "$cpus"); else $new; fi" \
      --cpus-per-task="$cpus"
    ;;
  overnight)
    source "$here/overnight-cluster.sh"
    ;;
  *) die "unknown job '$job' (rollout, sample, benchmark, tourney, twosided, pipeline, overnight)" ;;
esac
echo "$after"
