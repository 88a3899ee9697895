# Shared by bgkit's sbatch templates (sourced from $BGKIT_SLURM/lib.sh): the rules every
# task follows.
#
# * Binaries come from $BGKIT_BIN (a directory on the shared filesystem).
# * A task's arguments are in $WORK/NAME.args, NUL-separated (written by submit.sh), so
#   that any argument survives the trip through the scheduler.
# * $WORK/NAME.job describes the job (submit.sh). A task records it, with its shard,
#   in PART.job before it starts its part; a merge in $WORK/NAME.merged once it wrote
#   its output. Marker files are written to a temporary name and renamed; an empty one
#   counts as absent.
# * Requeue-safe: an array task whose part exists and was made for this job ends at once
#   (it finished before it was requeued); otherwise the tool resumes from its own
#   journal (OUT.partial). A part (or journal) made for another job, which an earlier
#   submission left in $WORK, is made again.
# * Array tasks are numbered 1..N: task K does shard K/N.
# shellcheck shell=bash
set -euo pipefail
: "${BGKIT_BIN:?set BGKIT_BIN to the directory of the bgkit binaries}"
: "${WORK:?set WORK to the work directory of the job, on a shared filesystem}"

say() { printf '%s %s[%s]: %s\n' "$(date -u +%H:%M:%S)" "${SLURM_JOB_NAME:-bgkit}" \
  "${SLURM_ARRAY_TASK_ID:-${SLURM_JOB_ID:-}}" "$*" >&2; }

# read_args NAME: the arguments in $WORK/NAME.args into the array `args`.
read_args() {
  args=()
  if [ -s "$WORK/$1.args" ]; then mapfile -d '' args <"$WORK/$1.args"; fi
}

# put FILE TEXT, same FILE TEXT: marker files.
# shellcheck source=marks.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/marks.sh"
# job_of NAME: the description of NAME's job ($WORK/NAME.job; empty if none).
job_of() { cat "$WORK/$1.job" 2>/dev/null || true; }

# threads: the CPUs Slurm gave this task.
threads() { echo "${SLURM_CPUS_PER_TASK:-1}"; }

# shard_task NAME EXT COMMAND...: runs COMMAND ARGS --shard K/N -o $WORK/NAME-K.EXT.
shard_task() {
  local name=$1 ext=$2
  shift 2
  local k=${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-N}
  local n=${SLURM_ARRAY_TASK_COUNT:?}
  local part="$WORK/$name-$k.$ext"
  local want
  want="$(job_of "$name")
shard=$k/$n"
  if same "$part.job" "$want"; then
    if [ -e "$part" ]; then
      say "shard $k/$n: $part is written already (a rerun after it finished)"
      return 0
    fi
  else
    # Made (or started) for another job, or by a submit.sh that recorded none: made again.
    if [ -e "$part" ] || [ -e "$part.partial" ]; then
      say "shard $k/$n: $part (or its journal) was made for another job: making it again"
    fi
    rm -f "$part" "$part.shard.json" "$part.partial" "$part.partial.json"
    put "$part.job" "$want"
  fi
  read_args "$name"
  local resumed=""
  [ -f "$part.partial" ] && resumed=", resuming from $part.partial"
  say "shard $k/$n -> $part (restarts: ${SLURM_RESTART_COUNT:-0}$resumed)"
  "$@" "${args[@]}" --shard "$k/$n" -o "$part" --threads "$(threads)" --quiet
}

# merge_task NAME EXT OUT [--input FILE]: joins $WORK/NAME-1.EXT ... NAME-$TASKS.EXT
# into OUT (the merge checks that each is its shard of one job). An OUT this job merged
# already is kept (a rerun after it finished); so is one found after this job's merge
# started ($WORK/NAME.merged.started) but before it recorded its end, if it holds what
# the merge writes (the parts are merged again to compare: a file that appeared in that
# window is not taken for the merge's). Any other OUT is replaced only with FORCE=1
# (submit.sh --force), else the task fails, naming it.
merge_task() {
  local name=$1 ext=$2 out=$3
  shift 3
  local want stamp="$WORK/$name.merged" force=() compare=0
  want=$(job_of "$name")
  if [ -e "$out" ] || [ -L "$out" ]; then
    if same "$stamp" "$want"; then
      say "$out is written already (a rerun after it finished)"
      return 0
    elif [ "${FORCE:-0}" = 1 ]; then
      say "$out exists: replacing it (--force)"
      force=(--force)
    elif same "$stamp.started" "$want"; then
      compare=1
    else
      say "$out exists and is not this job's merge: it is left as it is (submit with --force to replace it)"
      return 2
    fi
  fi
  local n=${TASKS:?set TASKS to the number of tasks of the array} parts=() k
  for ((k = 1; k <= n; k++)); do
    local part="$WORK/$name-$k.$ext"
    [ -e "$part" ] || { say "part $part is missing (its task did not finish)"; return 2; }
    same "$part.job" "$want$(printf '\nshard=%s/%s' "$k" "$n")" \
      || { say "part $part was not made for this job (its $part.job differs)"; return 2; }
    parts+=("$part")
  done
  if [ "$compare" = 1 ]; then
    # This job's merge started: OUT is its output if it was stopped before it could record
    # its end. The parts are merged again to compare, into WORK under a name of this
    # task's own that ends in OUT's extension (datasets takes a rollout's format from it).
    local base check="$WORK/$name.merged.check.$$" rc=0
    base=$(basename -- "$out")
    [[ "$base" == ?*.* ]] && check+=".${base##*.}"
    rm -f "$check"
    "$BGKIT_BIN/datasets" merge -o "$check" --quiet "$@" "${parts[@]}" || rc=$?
    if [ "$rc" = 0 ] && [ -f "$out" ] && [ ! -L "$out" ] && cmp -s "$check" "$out"; then
      rm -f "$check"
      put "$stamp" "$want"
      say "$out is written already (a rerun after it finished)"
      return 0
    fi
    rm -f "$check"
    [ "$rc" = 0 ] || return "$rc"
    say "$out exists and is not this job's merge (it differs from the parts merged): it is left as it is (submit with --force to replace it)"
    return 2
  fi
  put "$stamp.started" "$want"
  say "merging ${#parts[@]} parts -> $out"
  "$BGKIT_BIN/datasets" merge -o "$out" "${force[@]}" "$@" "${parts[@]}"
  put "$stamp" "$want"
}
