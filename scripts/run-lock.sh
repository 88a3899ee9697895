# Who is using a run directory of the overnight pipeline (sourced by scripts/overnight.sh
# and scripts/slurm/submit.sh). A run on one machine holds a flock on DIR, which the
# tools of its steps inherit; a `submit.sh overnight` on DIR holds it while it submits
# and lists the jobs it submitted in DIR/slurm/jobs, and they count as using DIR while
# they are in Slurm's queue. Also what makes a directory a run's (run_dir) and what
# in it a run created (run_entries).
# shellcheck shell=bash

# run_lock FD DIR TOOL WAIT-OPTION...: opens DIR on descriptor FD (a number) and takes an
# exclusive flock on it (WAIT-OPTION: flock's -n or -w SECONDS). Returns 75, with FD
# closed, when another process holds it. Without flock, or where the filesystem cannot
# lock a directory (NFS, Lustre without flock), returns 0 unlocked, with a warning in
# TOOL's name in the second case.
run_lock() {
  local fd=$1 dir=$2 tool=$3 rc=0
  shift 3
  command -v flock >/dev/null || return 0
  eval "exec $fd<\"\$dir\""
  flock -E 75 "$@" "$fd" 2>/dev/null || rc=$?
  if [ "$rc" = 75 ]; then
    eval "exec $fd<&-"
    return 75
  fi
  [ "$rc" = 0 ] || echo "$tool: warning: cannot lock $dir (flock exit $rc; its filesystem may not support it): going on without the lock" >&2
}

# run_holders DIR: the processes that have DIR open, as "PID (COMMAND)", comma-separated,
# lowest PID first, one per command line (at most 3); the caller should close its own
# descriptor on DIR first.
run_holders() {
  local real pattern pid cmd held=()
  real=$(cd "$1" 2>/dev/null && pwd -P) || return 0
  pattern=$(printf '%s' "$real" | sed 's/[][*?\\]/\\&/g') # find -lname takes a glob
  while read -r pid; do
    [ "$pid" = "$$" ] && continue
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | cut -c1-80) || continue # it may have ended
    # A subshell of a process already listed (the same command line) adds nothing.
    case " ${held[*]} " in *"(${cmd% })"*) continue ;; esac
    held+=("$pid (${cmd% })")
  done < <(find /proc/[0-9]*/fd -maxdepth 1 -lname "$pattern" 2>/dev/null | cut -d/ -f3 | sort -nu)
  local text="" one
  for one in "${held[@]:0:3}"; do text+="${text:+, }$one"; done
  [ ${#held[@]} -le 3 ] || text+=" and $((${#held[@]} - 3)) more"
  printf '%s' "$text"
}

# run_jobs DIR TOOL: the jobs of DIR/slurm/jobs still in Slurm's queue, space-separated
# (the job this runs in left out): every state but those of an ended job. Inside a job
# (the report job, whose dependencies may still be completing when it starts) a
# completing job counts as ended; elsewhere as in the queue (a job being requeued shows
# as completing for a moment). Nothing without that file, or where squeue is missing or
# cannot reach the controller (a warning on stderr, in TOOL's name).
run_jobs() {
  local file="$1/slurm/jobs" ids err rc=0 listed
  [ -s "$file" ] && command -v squeue >/dev/null || return 0
  ids=$(grep -vx "${SLURM_JOB_ID:-none}" "$file" | paste -sd, -) || true
  [ -n "$ids" ] || return 0
  err=$(mktemp)
  # The user's SQUEUE_* defaults must not filter the list.
  listed=$(env -u SQUEUE_ACCOUNT -u SQUEUE_LICENSES -u SQUEUE_LOCAL -u SQUEUE_NAMES -u SQUEUE_PARTITION \
    -u SQUEUE_QOS -u SQUEUE_SIBLING -u SQUEUE_STATES -u SQUEUE_USERS \
    squeue -h --states=all --jobs="$ids" -o '%i %T' 2>"$err") || rc=$?
  # squeue fails with "Invalid job id" when given one id that Slurm no longer knows.
  if [ "$rc" != 0 ] && ! grep -q 'Invalid job id' "$err"; then
    echo "$2: warning: cannot ask Slurm about the jobs in $file: $(head -n 1 "$err")" >&2
  fi
  rm -f "$err"
  local ended='COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY|REVOKED'
  [ -z "${SLURM_JOB_ID:-}" ] || ended+='|COMPLETING'
  printf '%s\n' "$listed" | awk -v ended="^($ended)\$" 'NF && $2 !~ ended { print $1 }' | paste -sd' ' -
}

# run_dir DIR: whether DIR is a run's directory: marked by scripts/overnight.sh
# (DIR/.overnight-run, written before anything else and only into a new or empty
# directory, or a run's), or one from before that mark: DIR/steps with the run's log
# (overnight.log) or the job list of a `submit.sh overnight` (slurm/jobs).
run_dir() {
  [ -f "$1/.overnight-run" ] || { [ -d "$1/steps" ] && { [ -f "$1/overnight.log" ] || [ -f "$1/slurm/jobs" ]; }; }
}

# run_dir_refusal DIR [NOTE]: why DIR cannot take a run, in one line (nothing when it
# can): it must be new, empty or a run's (run_dir), and a directory this user may read
# and write. NOTE is added to the refusal of a folder that holds other files.
run_dir_refusal() {
  [ -e "$1" ] || [ -L "$1" ] || return 0
  if [ ! -d "$1" ]; then
    echo "--dir $1 exists and is not a directory"
  elif ! { [ -r "$1" ] && [ -w "$1" ] && [ -x "$1" ]; }; then
    echo "--dir $1: no permission to read and write in it"
  elif [ -n "$(ls -A -- "$1")" ] && ! run_dir "$1"; then
    echo "$1 holds files and is not a run's directory (no .overnight-run); give a new or empty --dir${2:-}"
  fi
}

# run_mark DIR: marks DIR as a run's (DIR/.overnight-run, written to a temporary name
# and renamed), before anything else a run writes there; run_dir_refusal has let DIR in.
run_mark() {
  [ -f "$1/.overnight-run" ] && return 0
  printf '%s\n' "a run directory of scripts/overnight.sh (--fresh removes what runs created here)" >"$1/.put.$$" &&
    mv -f -- "$1/.put.$$" "$1/.overnight-run"
}

# run_entries DIR: the entries directly in DIR that a run creates (scripts/overnight.sh,
# its Slurm path, scripts/final-fit.sh; with their temporary names, NAME.tmp... and
# .put.*, and the tools' next to their outputs), the mark (.overnight-run) excepted, each
# followed by a NUL: what `overnight.sh --fresh` removes, and nothing else of DIR. A new
# file of the run in DIR belongs here (scripts/test-overnight.sh checks that a finished
# run has no other).
run_entries() {
  local names=(overnight.log logs steps data slurm td 'round-[0-9]*' fit 'fit-start.*' 'fit-round*'
    'bench.jsonl*' 'bench-all.csv*' 'bench-positions.csv*' 'final-*.json*' 'final-games*'
    labels hours clock 'clock.*' rollout-weights 'labels.tmp*' 'hours.tmp*' 'rollout-weights.tmp*'
    'report.md*' .report.md.tmp 'rounds.csv*' .rounds.csv.tmp
    'run-curve.csv*' .run-curve.csv.tmp 'run-curve.png*' '.put.*')
  local expr=() n
  for n in "${names[@]}"; do
    [ ${#expr[@]} = 0 ] || expr+=(-o)
    expr+=(-name "$n")
  done
  find "$1/" -mindepth 1 -maxdepth 1 \( "${expr[@]}" \) -print0
}
