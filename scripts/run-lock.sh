# Who is using a run directory of the overnight pipeline (sourced by scripts/overnight.sh
# and scripts/slurm/submit.sh). A run on one machine holds a flock on DIR, which the
# tools of its steps inherit; a `submit.sh overnight` on DIR holds it while it submits
# and lists the jobs it submitted in DIR/slurm/jobs, and they count as using DIR while
# they are in Slurm's queue.
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
  local real pattern pid cmd out=()
  real=$(cd "$1" 2>/dev/null && pwd -P) || return 0
  pattern=$(printf '%s' "$real" | sed 's/[][*?\\]/\\&/g') # find -lname takes a glob
  while read -r pid; do
    [ "$pid" = "$$" ] && continue
    cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | cut -c1-80) || continue # it may have ended
    # A subshell of a process already listed (the same command line) adds nothing.
    case " ${out[*]} " in *"(${cmd% })"*) continue ;; esac
    out+=("$pid (${cmd% })")
  done < <(find /proc/[0-9]*/fd -maxdepth 1 -lname "$pattern" 2>/dev/null | cut -d/ -f3 | sort -nu)
  local text="" one
  for one in "${out[@]:0:3}"; do text+="${text:+, }$one"; done
  [ ${#out[@]} -le 3 ] || text+=" and $((${#out[@]} - 3)) more"
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
