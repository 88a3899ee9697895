# Shared by bgkit's sbatch templates (sourced from $BGKIT_SLURM/lib.sh): the rules every
# task follows.
#
# * Binaries come from $BGKIT_BIN (a directory on the shared filesystem).
# * A task's arguments are in $WORK/NAME.args, NUL-separated (written by submit.sh), so
#   that any argument survives the trip through the scheduler.
# * Requeue-safe: an array task whose output exists ends at once (it finished before
#   it was requeued); otherwise the tool resumes from its own journal (OUT.partial).
# * Array tasks are numbered 1..N: task K does shard K/N.
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

# threads: the CPUs Slurm gave this task.
threads() { echo "${SLURM_CPUS_PER_TASK:-1}"; }

# shard_task NAME EXT COMMAND...: runs COMMAND ARGS --shard K/N -o $WORK/NAME-K.EXT.
shard_task() {
  local name=$1 ext=$2
  shift 2
  local k=${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-N}
  local n=${SLURM_ARRAY_TASK_COUNT:?}
  local part="$WORK/$name-$k.$ext"
  if [ -e "$part" ]; then
    say "shard $k/$n: $part is written already (a rerun after it finished)"
    return 0
  fi
  read_args "$name"
  local resumed=""
  [ -f "$part.partial" ] && resumed=", resuming from $part.partial"
  say "shard $k/$n -> $part (restarts: ${SLURM_RESTART_COUNT:-0}$resumed)"
  "$@" "${args[@]}" --shard "$k/$n" -o "$part" --threads "$(threads)" --quiet
}

# merge_task NAME EXT OUT [--input FILE]: joins $WORK/NAME-*.EXT into OUT (the merge
# checks that every shard is there exactly once).
merge_task() {
  local name=$1 ext=$2 out=$3
  shift 3
  if [ -e "$out" ]; then
    say "$out is written already (a rerun after it finished)"
    return 0
  fi
  shopt -s nullglob
  local parts=("$WORK/$name"-*."$ext")
  [ ${#parts[@]} -gt 0 ] || { say "no parts $WORK/$name-*.$ext"; return 2; }
  say "merging ${#parts[@]} parts -> $out"
  "$BGKIT_BIN/datasets" merge -o "$out" "$@" "${parts[@]}"
}
