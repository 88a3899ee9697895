#!/usr/bin/env bash
# Submits bgkit's long jobs to Slurm as job arrays, with their merges and the steps
# after them chained by --dependency=afterok. Prints the id of the last job on stdout
# (wait for it, or give it to --after of the next submission) and what it submitted on
# stderr.
#
#   submit.sh rollout   --tasks N --input POS.csv -o OUT [common] [--force] [-- ROLLOUT-ARGS]
#   submit.sh sample    --tasks N --games G -o OUT.csv [common] [--force] [-- SAMPLE-ARGS]
#   submit.sh benchmark --tasks N --input POS.csv -o OUT.jsonl [common] [--force] [-- BUILD-ARGS]
#   submit.sh tourney   --tasks N FILE [common] [-- RUN-ARGS]
#   submit.sh twosided  --tasks N SPEC -o OUT.bd [common]          (e.g. SPEC 6x8)
#   submit.sh pipeline  --tasks N --games G --dir DIR [--weights W] [--trials T]
#                       [--truncate X] [--seed S] [--epochs E] [common] [--force]
#                       sample -> merge -> rollout -> merge -> supervised --class all
#   submit.sh overnight --tasks N [--quick] [--dir DIR] [--rounds R]
#                       [--labels search|rollout] [--cpus C] [--after JOBID]
#                       scripts/overnight.sh's pipeline, its sampling, labels (or
#                       rollouts) and benchmark build as arrays, its duels in parallel
#                       (refused while DIR is in use: by a run of overnight.sh or a
#                       submission, which holds DIR's lock while it submits, or by
#                       the jobs of an earlier submission, listed in DIR/slurm/jobs);
#                       its work files are in DIR/slurm (no --work)
#   submit.sh requeue JOBID_TASK...   rerun array tasks that were cancelled or failed
#                       (they resume from their journals) and re-arm the jobs waiting
#                       on their arrays (Slurm never releases an afterok dependency on
#                       an array once one of its tasks ended badly)
# common: --work DIR (parts, arguments and logs; default OUT.work or DIR/work),
#         --cpus C (CPUs per task, default 1), --after JOBID (start after that job).
# Every argument is checked before anything is created or submitted; an option the
# job does not use is refused, and so are tool arguments after -- that the scripts
# set themselves (--shard, -o, --threads: use --cpus, --quiet, --input, --games,
# tourney's --workers) or that would break a requeued task's resume (--fresh, --force).
# A job's description (its arguments, --tasks, the input's checksum) is recorded in its
# work directory: submitting the same job again resumes it (finished parts are kept;
# an -o that exists is refused as ever: a finished job has nothing to resume; with
# --force its tasks and merge find their work done), while outputs or parts of a
# submission with other settings are refused, naming them, unless --force, which
# replaces them (the pipeline's net starts over).
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
# shellcheck source=../help.sh
. "$(dirname "$0")/../help.sh" "$@"
# abs PATH: PATH made absolute, creating nothing (an output's directory is made once
# every argument has been checked).
abs() { realpath -m -- "$1"; }
# input_file PATH: an existing file's absolute path; refused, naming PATH, when there is
# no such file.
input_file() {
  [ -e "$1" ] || die "$1: no such file"
  [ -f "$1" ] || die "$1: not a file"
  [ -r "$1" ] || die "$1: not readable"
  realpath -- "$1"
}

[ $# -gt 0 ] || { usage >&2; exit 2; }
job=$1
shift
case "$job" in
  -h|--help) usage; exit 0 ;;
  rollout|sample|benchmark|tourney|twosided|pipeline|overnight|requeue) ;;
  *) die "unknown job '$job' (rollout, sample, benchmark, tourney, twosided, pipeline, overnight, requeue)" ;;
esac
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
seed=1 epochs=10 quick=0 rounds="" labels="" force=0 positional=() extra=() jobs_file="" dashdash=0
# given[OPTION]: the options given, as the user spelled them (for refusing the ones this
# job does not use).
declare -A given=()
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
# shellcheck disable=SC2034 # quick is read by overnight-cluster.sh
while [ $# -gt 0 ]; do
  case "$1" in
    --tasks) need "$@"; tasks=$2; given[tasks]=$1; shift ;;
    --games) need "$@"; games=$2; given[games]=$1; shift ;;
    --input) need "$@"; input=$2; given[input]=$1; shift ;;
    -o|--output) need "$@"; out=$2; given[output]=$1; shift ;;
    --work) need "$@"; work=$2; given[work]=$1; shift ;;
    --cpus) need "$@"; cpus=$2; given[cpus]=$1; shift ;;
    --after) need "$@"; after=$2; given[after]=$1; shift ;;
    --dir) need "$@"; dir=$2; given[dir]=$1; shift ;;
    --weights) need "$@"; weights=$2; given[weights]=$1; shift ;;
    --trials) need "$@"; trials=$2; given[trials]=$1; shift ;;
    --truncate) need "$@"; truncate=$2; given[truncate]=$1; shift ;;
    --seed) need "$@"; seed=$2; given[seed]=$1; shift ;;
    --epochs) need "$@"; epochs=$2; given[epochs]=$1; shift ;;
    --rounds) need "$@"; rounds=$2; given[rounds]=$1; shift ;;
    --labels) need "$@"; labels=$2; given[labels]=$1; shift ;;
    --quick) quick=1; given[quick]=$1 ;;
    --force) force=1; given[force]=$1 ;;
    --) shift; extra=("$@"); dashdash=1; break ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) positional+=("$1") ;;
  esac
  shift
done

# --- every argument is checked here, before anything is created or submitted ---------
# The options each job uses ("extra": tool arguments after --; "positional": FILE/SPEC).
case "$job" in
  rollout|benchmark) uses="tasks input output work cpus after force extra" ;;
  sample) uses="tasks games output work cpus after force extra" ;;
  tourney) uses="tasks positional work cpus after extra" ;;
  twosided) uses="tasks positional output work cpus after" ;;
  pipeline) uses="tasks games dir weights trials truncate seed epochs work cpus after force" ;;
  overnight) uses="tasks quick dir rounds labels cpus after" ;;
esac
for option in "${!given[@]}"; do
  [[ " $uses " == *" $option "* ]] || die "$job does not use ${given[$option]} (see --help)"
done
if [ ${#positional[@]} -gt 0 ] && [[ " $uses " != *" positional "* ]]; then
  die "$job takes no argument '${positional[0]}' (tool arguments go after --; see --help)"
fi
if [ "$dashdash" = 1 ] && [[ " $uses " != *" extra "* ]]; then
  die "$job takes no tool arguments after -- (got '${extra[*]}'; see --help)"
fi
# Tool arguments the scripts give themselves (a second one is refused by the tool, on
# the cluster, after queueing) or that would break a requeued task's resume.
reserved_long="--shard --output --threads --quiet --fresh --force" reserved_short="o j q"
case "$job" in
  rollout|benchmark) reserved_long+=" --input" ;;
  sample) reserved_long+=" --games" ;;
  tourney) reserved_long="--workers --quiet" reserved_short="j q" ;;
esac
why() {
  case "$1" in
    --threads|-j|--workers) echo "the scripts set it from --cpus (use --cpus C)" ;;
    --quiet|-q) echo "the scripts pass --quiet to every task already" ;;
    --shard|--output|-o) echo "the scripts give each task its --shard and -o" ;;
    --input|--games) echo "the scripts pass submit.sh's $1 (give it before --)" ;;
    --fresh) echo "a requeued task would discard its journal instead of resuming" ;;
    --force) echo "to replace an earlier submission's files, give submit.sh --force (before --)" ;;
  esac
}
for a in "${extra[@]}"; do
  name=${a%%=*}
  if [[ "$a" == --* ]] && [[ " $reserved_long " == *" $name "* ]]; then
    die "'$a' after -- is refused: $(why "$name")"
  fi
  # Short options, also in a cluster such as -qj2.
  if [[ "$a" =~ ^-([a-zA-Z]+) ]]; then
    letters=${BASH_REMATCH[1]}
    for ((i = 0; i < ${#letters}; i++)); do
      l=${letters:i:1}
      [[ " $reserved_short " != *" $l "* ]] || die "'$a' after -- is refused: $(why "-$l")"
    done
  fi
done
posint() { [[ "$2" =~ ^[1-9][0-9]{0,8}$ ]] || die "$1 must be a positive whole number, got '$2'"; }
wholenum() { [[ "$2" =~ ^[0-9]{1,18}$ ]] || die "$1 must be a whole number, got '$2'"; }
[ -n "$tasks" ] || die "--tasks N (a positive number) is needed"
posint --tasks "$tasks"
posint --cpus "$cpus"
[ -z "$games" ] || posint --games "$games"
posint --trials "$trials"
posint --epochs "$epochs"
wholenum --seed "$seed"
[ -z "$truncate" ] || wholenum --truncate "$truncate"
# --rounds as scripts/overnight.sh takes it (its report job gets this number).
if [ -n "$rounds" ]; then
  { [[ "$rounds" =~ ^[0-9]{1,4}$ ]] && [ "$((10#$rounds))" -le 1000 ]; } ||
    die "--rounds must be a whole number from 0 to 1000, got '$rounds'"
  rounds=$((10#$rounds)) # 08 is eight rounds, not an octal number
fi
case "$labels" in ""|search|rollout) ;; *) die "--labels is search or rollout, got '$labels'" ;; esac
if [ -n "$after" ] && ! [[ "$after" =~ ^[0-9]+(_[0-9]+)?(:[0-9]+(_[0-9]+)?)*$ ]]; then
  die "--after takes a job id (JOBID, JOBID_TASK, or several joined by ':'), got '$after'"
fi
[ -z "$input" ] || input=$(input_file "$input")
[ -z "$weights" ] || weights=$(input_file "$weights")
[ -z "$out" ] || out=$(abs "$out")
[ -z "$work" ] || work=$(abs "$work")
[ -z "$dir" ] || dir=$(abs "$dir")
for d in "$dir" "$work"; do
  [ -z "$d" ] || [ ! -e "$d" ] || [ -d "$d" ] || die "$d: not a directory"
done
if [ -n "$out" ]; then
  [ ! -d "$out" ] || die "$out: is a directory (-o names the output file)"
  o=$(dirname "$out")
  while [ ! -e "$o" ]; do o=$(dirname "$o"); done
  [ -d "$o" ] || die "$out: $o is not a directory"
fi
for tool in datasets trainer; do
  [ -x "$BGKIT_BIN/$tool" ] || die "no $tool in BGKIT_BIN=$BGKIT_BIN (cargo build --release, or set BGKIT_BIN)"
done

# put FILE TEXT, same FILE TEXT: marker files.
# shellcheck source=marks.sh
. "$here/marks.sh"
# checksum FILE: the file's CRC and size (part of a job's description).
checksum() { cksum <"$1" | cut -d' ' -f1-2; }

# claim RECORD DESCRIPTION WHAT FILE...: the FILEs (those that exist) belong to the
# submission described in RECORD. Without --force they are reused only when RECORD
# holds DESCRIPTION (the same job submitted again: it resumes); otherwise refused,
# naming them and what differs.
claim() {
  local record=$1 desc=$2 what=$3 present=() f
  shift 3
  for f in "$@"; do [ -e "$f" ] && present+=("$f"); done
  [ ${#present[@]} -gt 0 ] || return 0
  same "$record" "$desc" && return 0
  [ "$force" = 1 ] && return 0
  local names="${present[0]}"
  [ ${#present[@]} -eq 1 ] || names+=" (and $((${#present[@]} - 1)) more)"
  if [ -s "$record" ]; then
    local was=() now=() i=0
    mapfile -t was <"$record"
    mapfile -t now <<<"$desc"
    while [ "$i" -lt ${#now[@]} ] && [ "${was[i]:-}" = "${now[i]}" ]; do i=$((i + 1)); done
    die "$names: written by an earlier submission with other settings ('${was[i]:-}' in $record, '${now[i]:-}' now): submit it as it was to resume it, choose another $what, or add --force to replace it"
  fi
  die "$names exists and is not from a submission of this job (no $record): remove it, choose another $what, or add --force to replace it"
}
# A sharded job's description in $WORK: NAME.job (what its parts are made of).
describe() { printf '%s\n' "$@"; }

# --- submitting ----------------------------------------------------------------------

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
# job_text DESCRIPTION ARG...: a job's description with its tasks' arguments.
job_text() {
  local desc=$1
  shift
  printf '%s\nargs=%s' "$desc" "$(printf '%q ' "$@")"
}
# args NAME DESCRIPTION ARG...: the arguments of NAME's tasks, NUL-separated, in
# $WORK/NAME.args, and the job's description in $WORK/NAME.job (job_text): each task's
# part records the description it was made for ($WORK/NAME-K.EXT.job), and a task
# whose part was made for another one makes it again (lib.sh).
args() {
  local name=$1 desc=$2
  shift 2
  mkdir -p "$WORK"
  if [ $# -gt 0 ]; then printf '%s\0' "$@" >"$WORK/$name.args.tmp$$"; else : >"$WORK/$name.args.tmp$$"; fi
  mv -f "$WORK/$name.args.tmp$$" "$WORK/$name.args"
  put "$WORK/$name.job" "$(job_text "$desc" "$@")"
}
fresh_out() {
  [ ! -e "$1" ] || [ "$force" = 1 ] || die "$1 exists (remove it, choose another -o, or add --force to replace it)"
}
# work_files NAME EXT: adds what an earlier submission of NAME left in $WORK (its
# arguments, parts, journals, manifests) to the array `files`.
work_files() {
  local f
  for f in "$WORK/$1.args" "$WORK/$1"-*."$2" "$WORK/$1"-*."$2".*; do
    [ ! -e "$f" ] || files+=("$f")
  done
}

# sharded NAME EXT SCRIPT OUT [INPUT]: the array of NAME's tasks and the merge of its
# parts into OUT after it (replacing an OUT that is not this job's merge only with
# --force); sets $after to the merge.
sharded() {
  local name=$1 ext=$2 script=$3 target=$4 merge_input=${5:-}
  local aid mid
  aid=$(EXT=$ext sub "$script" --array="1-$tasks")
  mid=$(after=$aid cpus=1 NAME=$name EXT=$ext OUT=$target INPUT=$merge_input TASKS=$tasks FORCE=$force \
    sub merge.sbatch)
  echo "submit.sh: $name: array $aid (tasks 1-$tasks) -> merge $mid -> $target" >&2
  after=$mid
}

# step NAME SCRIPT-TEXT [SBATCH-OPTIONS...]: a serial step (step.sbatch) running
# SCRIPT-TEXT; sets $after to it.
step() {
  local name=$1 text=$2
  shift 2
  mkdir -p "$WORK"
  put "$WORK/$name.sh" "$text"
  after=$(STEP=$name sub step.sbatch --job-name="bgkit-$name" "$@")
  echo "submit.sh: step $name: job $after" >&2
}

# q ARG...: the arguments quoted for a step's script.
q() { printf '%q ' "$@"; }

# sharded_job NAME EXT DESCRIPTION ARG...: the checks and files of a rollout, sample or
# benchmark build (the submission is `sharded`).
sharded_job() {
  local name=$1 ext=$2 desc=$3 files=()
  shift 3
  fresh_out "$out"
  export WORK=${work:-$out.work}
  desc="job=$name
tasks=$tasks${desc:+
$desc}"
  work_files "$name" "$ext"
  claim "$WORK/$name.job" "$(job_text "$desc" "$@")" "-o or --work" "${files[@]}"
  mkdir -p "$(dirname "$out")"
  args "$name" "$desc" "$@"
}

case "$job" in
  rollout)
    [ -n "$input" ] && [ -n "$out" ] || die "rollout needs --input and -o"
    sharded_job rollout "${out##*.}" "input=$input $(checksum "$input")" --input "$input" "${extra[@]}"
    sharded rollout "${out##*.}" rollout.sbatch "$out" "$input"
    ;;
  sample)
    [ -n "$games" ] && [ -n "$out" ] || die "sample needs --games and -o"
    sharded_job sample csv "" --games "$games" "${extra[@]}"
    sharded sample csv sample.sbatch "$out"
    ;;
  benchmark)
    [ -n "$input" ] && [ -n "$out" ] || die "benchmark needs --input and -o"
    sharded_job benchmark jsonl "input=$input $(checksum "$input")" --input "$input" "${extra[@]}"
    sharded benchmark jsonl benchmark.sbatch "$out"
    ;;
  tourney)
    [ ${#positional[@]} -eq 1 ] || die "tourney needs the tournament FILE (made by trainer tourney new)"
    file=$(input_file "${positional[0]}")
    export WORK=${work:-$file.work}
    args tourney "job=tourney" --quiet "${extra[@]}"
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
    mkdir -p "$(dirname "$out")" "$db_work"
    levels=$("$BGKIT_BIN/gen-bearoff" two-sided-plan "$spec" --work "$db_work" -q)
    [[ "$levels" =~ ^[0-9]+$ ]] || die "two-sided-plan printed '$levels', not a number of levels"
    after=$(SPEC=$spec DB_WORK=$db_work sub twosided.sbatch --array="1-$tasks")
    echo "submit.sh: twosided $spec: $levels levels, $tasks workers claiming their shards (array $after)" >&2
    after=$(cpus=1 SPEC=$spec DB_WORK=$db_work OUT=$out sub twosided-assemble.sbatch)
    echo "submit.sh: twosided $spec: assembly $after -> $out" >&2
    ;;
  pipeline)
    [ -n "$games" ] && [ -n "$dir" ] || die "pipeline needs --games and --dir"
    init=${weights:-/usr/lib/gnubg/gnubg.wd}
    [ -f "$init" ] || die "$init: no such file (gnubg's weights, the pipeline's default --weights; give --weights W)"
    WORK=${work:-$dir/work}
    export WORK
    # The pipeline's description: a submission of the same one resumes what is in DIR;
    # one with other settings is refused there unless --force.
    w=() wdesc="weights=(gnubg's) $init $(checksum "$init")"
    [ -n "$weights" ] && w=(--weights "$weights") && wdesc="weights=$weights $(checksum "$weights")"
    tr=()
    [ -n "$truncate" ] && tr=(--truncate "$truncate")
    desc="job=pipeline
tasks=$tasks
games=$games
seed=$seed
$wdesc
trials=$trials
truncate=${truncate:-none}
epochs=$epochs"
    record="$WORK/pipeline.job"
    files=("$dir/positions.csv" "$dir/data.bgds" "$dir/net" "$WORK/supervised.done")
    work_files sample csv
    work_files rollout bgds
    claim "$record" "$desc" "--dir" "${files[@]}"
    mkdir -p "$dir" "$WORK"
    # Another pipeline's step is not done for this one (--force).
    same "$record" "$desc" || rm -f "$WORK/supervised.done"
    put "$record" "$desc"
    args sample "$desc" --games "$games" --seed "$seed" "${w[@]}"
    args rollout "$desc" --input "$dir/positions.csv" --trials "$trials" --seed "$seed" "${tr[@]}" "${w[@]}"
    sharded sample csv sample.sbatch "$dir/positions.csv"
    sharded rollout bgds rollout.sbatch "$dir/data.bgds" "$dir/positions.csv"
    # The supervised run resumes when its plan (net/classes.json) is there and was
    # started for this pipeline's description (WORK/supervised.started); otherwise it
    # starts over: the plan of another run is removed first, so that a plan found after
    # a requeue is this run's, and --force replaces only that run's files in net/.
    net="$dir/net"
    started="$WORK/supervised.started"
    step supervised "if [ -f $(q "$net/classes.json") ] && [ -s $(q "$started") ] && cmp -s $(q "$started" "$record"); then
  $(q "$BGKIT_BIN/trainer" supervised --resume "$net" --threads "$cpus")
else
  mkdir -p $(q "$net")
  rm -f $(q "$net/classes.json")
  cp $(q "$record" "$started.tmp") && mv -f $(q "$started.tmp" "$started")
  $(q "$BGKIT_BIN/trainer" supervised --class all --init "$init" --data "$dir/data.bgds" --out "$net" \
      --epochs "$epochs" --threads "$cpus" --force)
fi" --cpus-per-task="$cpus"
    ;;
  overnight)
    source "$here/overnight-cluster.sh"
    ;;
esac
echo "$after"
