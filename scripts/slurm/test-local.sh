#!/usr/bin/env bash
# The Slurm test, on a real (one-node) Slurm cluster: starts one with local-cluster.sh,
# submits bgkit's jobs through submit.sh and checks that they give what one process
# gives, then stops the cluster and removes its files.
#
#   scripts/slurm/test-local.sh [--keep]     (--keep: leave the scratch directory)
#
# Checks: a 3-task sampling array + merge equals `datasets sample` byte for byte; a
# 4-task rollout array + merge equals `datasets rollout`, also after one task is killed
# mid-way with scancel and requeued (it resumes from its journal); a tournament played
# by 2 worker tasks has every game recorded once, with the results one process gets;
# a sharded two-sided 6x8 build (one array of 3 workers that claim the shards of each
# level) + assembly has the md5 of `makebearoff -t 6x8`, also after worker 1 is killed
# mid-way with scancel and requeued (another takes its claim over); skipped, saying so,
# when this gen-bearoff has no two-sided workers, or with BGKIT_SLURM_TWOSIDED=skip;
# a submission that sbatch refuses half-way stops submit.sh, naming the jobs it submitted;
# a work directory holding another submission's parts is refused, and with --force its
# parts are made again; bad arguments (a bad --rounds, options or tool arguments a job
# does not take or that the scripts set, a missing --input or --weights, a pipeline
# directory with another run's outputs) are refused before anything is submitted or
# created (a stub sbatch counts the calls); the pipeline's supervised step starts over
# after a start killed before its plan, resumes its own run and replaces another's;
# `submit.sh overnight` at toy sizes gives what scripts/overnight.sh gives on one machine
# (the nets, labels, benchmark set and final duels); while its jobs are queued,
# overnight.sh and a second submission on its directory are refused, and so is a
# submission on the directory of a running overnight.sh.
# Needs slurm-wlm and munge (apt-get install slurm-wlm munge) and the bgkit binaries in
# $BGKIT_BIN (default: target/release, else target/debug). Prints one line per check;
# exit 0 when all pass.
set -euo pipefail
# shellcheck source=../help.sh
. "$(dirname "$0")/../help.sh" "$@"

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
keep=0
case "${1:-}" in
  --keep) keep=1; shift ;;
esac
no_arguments test-local.sh "$@"
target=${CARGO_TARGET_DIR:-$root/target}
if [ -z "${BGKIT_BIN:-}" ]; then
  BGKIT_BIN=$target/release
  [ -x "$BGKIT_BIN/datasets" ] && [ -x "$BGKIT_BIN/trainer" ] || BGKIT_BIN=$target/debug
fi
BGKIT_BIN=$(cd "$BGKIT_BIN" && pwd)
export BGKIT_BIN
for tool in datasets trainer; do
  [ -x "$BGKIT_BIN/$tool" ] || { echo "test-local.sh: no $tool in $BGKIT_BIN (cargo build)" >&2; exit 2; }
done
t0=$SECONDS
scratch=$(mktemp -d /tmp/bgkit-slurm-test.XXXXXX)
export BGKIT_CLUSTER_DIR="$scratch/cluster"
cleanup() {
  "$here/local-cluster.sh" stop --dir "$BGKIT_CLUSTER_DIR" || true
  if [ "$keep" = 1 ]; then echo "scratch kept: $scratch"; else rm -rf "$scratch"; fi
}
trap cleanup EXIT
eval "$("$here/local-cluster.sh" start --dir "$BGKIT_CLUSTER_DIR")"
echo "cluster up: $(sinfo -h -o '%P %D node(s) %c CPUs %T') [$((SECONDS - t0)) s]"
submit() { "$here/submit.sh" "$@" 2>>"$scratch/submit.log"; }
failures=0
pass() { echo "PASS $* [$((SECONDS - t0)) s]"; }
fail() { echo "FAIL $* [$((SECONDS - t0)) s]"; failures=$((failures + 1)); }

# wait_for JOBID SECONDS: until the job has left the queue; fails unless it completed.
wait_for() {
  local id=$1 limit=$2 start=$SECONDS
  while [ -n "$(squeue -h -j "$id" 2>/dev/null)" ]; do
    if [ $((SECONDS - start)) -gt "$limit" ]; then
      echo "job $id still queued after $limit s:" >&2
      squeue >&2
      return 1
    fi
    sleep 1
  done
  local state
  state=$(scontrol -o show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n1 | cut -d= -f2)
  [ "$state" = COMPLETED ] || { echo "job $id ended $state" >&2; return 1; }
}

# requeue_cancelled JOB_TASK: once Slurm has seen the cancelled task end, requeue it
# (submit.sh requeue also re-arms the jobs waiting on its array).
requeue_cancelled() {
  local st
  for _ in $(seq 100); do
    st=$(scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    [ "$st" = CANCELLED ] && break
    sleep 0.1
  done
  submit requeue "$1"
}

D="$BGKIT_BIN/datasets"
T="$BGKIT_BIN/trainer"
cd "$scratch"

# --- sampling: 3 tasks --------------------------------------------------------------
"$D" sample --games 12 --seed 4 -o sample-one.csv --quiet
id=$(submit sample --tasks 3 --games 12 -o sample-slurm.csv -- --seed 4)
if wait_for "$id" 300 && cmp -s sample-one.csv sample-slurm.csv; then
  pass "sample: 3 tasks + merge = one process ($(($(wc -l <sample-one.csv) - 1)) positions, md5 $(md5sum <sample-one.csv | cut -c1-12))"
else
  fail "sample: 3 tasks + merge differ from one process"
fi

# --- a work directory holding the parts of another submission -------------------------
# sample-slurm.csv.work holds the parts of --seed 4: a submission of --seed 5 there is
# refused (exit 2, naming what differs); with --force its tasks make their parts again
# rather than reuse them, and the merge equals one process's --seed 5.
"$D" sample --games 12 --seed 5 -o sample-one5.csv --quiet
stale_rc=0
submit sample --tasks 3 --games 12 -o sample-5.csv --work sample-slurm.csv.work -- --seed 5 >/dev/null || stale_rc=$?
id=$(submit sample --tasks 3 --games 12 -o sample-5.csv --work sample-slurm.csv.work --force -- --seed 5)
if [ "$stale_rc" = 2 ] && wait_for "$id" 300 && cmp -s sample-one5.csv sample-5.csv; then
  remade=$(cat sample-slurm.csv.work/logs/*.out | grep -c 'made for another job: making it again' || true)
  pass "stale parts: a work directory with another submission's parts is refused, with --force its $remade parts are made again (= one process)"
else
  fail "stale parts: refusal exit $stale_rc (want 2), or the forced submission differs from one process"
fi

# --- a refused submission stops submit.sh -------------------------------------------
# An sbatch that refuses the second job (the sampling's merge; as a submit limit would):
# `submit.sh pipeline` must fail there, naming the job it submitted, not go on to
# submit the rollout and training (3 more jobs) with no dependency.
mkdir -p fake-sbatch
printf '#!/bin/sh\nn=$(($(cat "$0.n" 2>/dev/null || echo 0) + 1)); echo "$n" >"$0.n"\n[ "$n" = 2 ] && { echo "sbatch: error: refused (test)" >&2; exit 1; }\necho "$((9000 + n))"\n' \
  >fake-sbatch/sbatch
chmod +x fake-sbatch/sbatch
refused_rc=0
PATH="$scratch/fake-sbatch:$PATH" "$here/submit.sh" pipeline --tasks 2 --games 4 --dir refused >refused.out 2>refused.err \
  || refused_rc=$?
calls=$(cat fake-sbatch/sbatch.n 2>/dev/null || echo 0)
if [ "$refused_rc" != 0 ] && [ "$calls" = 2 ] && grep -q 'refused (test)' refused.err \
  && grep -q 'stopped after submitting 9001: cancel them' refused.err && [ ! -s refused.out ]; then
  pass "refused submission: sbatch's refusal of the merge stops submit.sh (exit $refused_rc, no later job, job 9001 named)"
else
  fail "refused submission: exit $refused_rc after $calls sbatch calls, stdout '$(cat refused.out)', $(tail -n 1 refused.err)"
fi

# --- arguments refused before anything is submitted or created (no cluster needed) -----
# An sbatch that records its calls: each bad submission must exit 2 with one
# `submit.sh: ...` line naming the value, call sbatch 0 times and create nothing.
mkdir -p rec-sbatch args-check
# shellcheck disable=SC2016 # the stub's own text
printf '#!/bin/sh\nn=$(($(cat "$0.n" 2>/dev/null || echo 0) + 1)); echo "$n" >"$0.n"\necho "$((9000 + n))"\n' \
  >rec-sbatch/sbatch
chmod +x rec-sbatch/sbatch
head -n 25 sample-one.csv >args-check/pos.csv
# refused EXPECTED-TEXT SUBMIT-ARGS...: run in args-check/; checks exit 2, the message,
# no sbatch call and no new file.
refused_ok=0 refused_bad=()
refused() {
  local want=$1 rc=0 before after
  shift
  rm -f rec-sbatch/sbatch.n
  before=$(cd args-check && find . | sort)
  (cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" "$@" >../args.out 2>../args.err) || rc=$?
  after=$(cd args-check && find . | sort)
  if [ "$rc" = 2 ] && [ ! -e rec-sbatch/sbatch.n ] && [ "$(wc -l <args.err)" = 1 ] && grep -q '^submit.sh: ' args.err \
    && grep -qF -- "$want" args.err \
    && [ "$before" = "$after" ] && [ ! -s args.out ]; then
    refused_ok=$((refused_ok + 1))
  else
    refused_bad+=("[$*: exit $rc, $(cat rec-sbatch/sbatch.n 2>/dev/null || echo 0) sbatch calls, $(head -n 2 args.err | paste -sd'|')]")
  fi
}
refused "--rounds must be a whole number from 0 to 1000, got 'abc'" overnight --tasks 2 --rounds abc --dir ov
refused "--rounds must be a whole number from 0 to 1000, got '-1'" overnight --tasks 2 --rounds -1 --dir ov
refused "overnight does not use --work" overnight --tasks 2 --work /x --dir ov
refused "overnight does not use --games" overnight --tasks 2 --games 7 --dir ov
refused "overnight does not use -o" overnight --tasks 2 -o f --dir ov
refused "overnight takes no argument 'stray'" overnight --tasks 2 stray --dir ov
refused "overnight takes no tool arguments after --" overnight --tasks 2 --dir ov -- --quiet
refused "'--threads' after -- is refused: the scripts set it from --cpus" rollout --tasks 2 --input pos.csv -o r.csv -- --threads 2
refused "'-q' after -- is refused" rollout --tasks 2 --input pos.csv -o r.csv -- --trials 6 -q
refused "'--quiet' after -- is refused" sample --tasks 2 --games 4 -o s.csv -- --quiet
refused "'--workers' after -- is refused" tourney --tasks 2 pos.csv -- --workers 2
refused "ghost/a/b/pos.csv: no such file" rollout --tasks 2 --input ghost/a/b/pos.csv -o ghost/out.bgds
refused "ghost/w.wd: no such file" pipeline --tasks 2 --games 4 --dir pl --weights ghost/w.wd
refused "--games must be a positive whole number, got '0'" pipeline --tasks 2 --games 0 --dir pl
refused "--after takes a job id" sample --tasks 2 --games 4 -o new/s.csv --after x
refused "twosided takes no tool arguments after --" twosided --tasks 2 6x8 -o ts.bd -- --quiet
# submit.sh overnight takes a new, empty or run's directory (as overnight.sh), and not
# a run started with settings the cluster's pipeline does not have.
mkdir -p args-check/mine/data
echo mine >args-check/mine/data/notes.txt
refused "mine holds files and is not a run's directory" overnight --tasks 2 --quick --dir mine
mkdir -p args-check/rw
: >args-check/rw/.overnight-run
echo gnubg >args-check/rw/rollout-weights
refused "was started with --rollout-weights gnubg" overnight --tasks 2 --quick --dir rw
echo 2.5 >args-check/rw/hours
echo current >args-check/rw/rollout-weights
refused "was started with --hours 2.5" overnight --tasks 2 --quick --dir rw
# A pipeline directory holding another run's outputs: refused, naming them; --force
# submits (the merges replace them, the supervised run starts over).
mkdir -p args-check/pl/net
echo old >args-check/pl/positions.csv
echo old >args-check/pl/data.bgds
refused "pl/positions.csv (and 2 more) exists and is not from a submission of this job" \
  pipeline --tasks 2 --games 4 --dir pl
forced_rc=0
(cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" pipeline --tasks 2 --games 4 --dir pl --force \
  >/dev/null 2>../args.err) || forced_rc=$?
[ "$forced_rc" = 0 ] && [ "$(cat rec-sbatch/sbatch.n)" = 5 ] || refused_bad+=("[pipeline --force: exit $forced_rc]")
# ... and the same pipeline with other settings is refused, naming what differs.
refused "written by an earlier submission with other settings ('games=4' in" pipeline --tasks 2 --games 5 --dir pl
# --rounds 08 is eight rounds (not octal), given to overnight.sh's report job as 8.
rm -f rec-sbatch/sbatch.n
ov_rc=0
(cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" overnight --tasks 2 --quick --rounds 08 --dir ov08 \
  >/dev/null 2>../args.err) || ov_rc=$?
grep -q -- '--rounds 8 ' args-check/ov08/slurm/report-run.sh 2>/dev/null || refused_bad+=("[overnight --rounds 08: exit $ov_rc, $(tail -n 1 args.err)]")
# A sharded step whose result a done step used is not submitted again (nor its parts
# made again, which a directory of an older submit.sh, without part records, would need).
mkdir -p args-check/ovd/steps
: >args-check/ovd/.overnight-run
echo 5 >args-check/ovd/steps/bench-positions.done
rm -f rec-sbatch/sbatch.n
ovd_rc=0
(cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" overnight --tasks 2 --quick --rounds 1 --dir ovd \
  >/dev/null 2>../args.err) || ovd_rc=$?
ovd_calls=$(cat rec-sbatch/sbatch.n 2>/dev/null || echo 0)
rm -f rec-sbatch/sbatch.n
(cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" overnight --tasks 2 --quick --rounds 1 --dir ovd2 \
  >/dev/null 2>../args2.err) || ovd_rc=$?
ovd2_calls=$(cat rec-sbatch/sbatch.n 2>/dev/null || echo 0)
grep -q 'bench-sample: step bench-positions is done, nothing to submit' args.err && [ "$ovd_rc" = 0 ] \
  && [ "$ovd_calls" = $((ovd2_calls - 2)) ] || refused_bad+=("[overnight with bench-positions done: exit $ovd_rc, $ovd_calls against $ovd2_calls sbatch calls]")
if [ ${#refused_bad[@]} = 0 ]; then
  pass "arguments: $refused_ok bad submissions refused (exit 2, one message, no sbatch call, nothing created); pipeline --force over old outputs submits; --rounds 08 is 8; a done step's sharded input is not submitted again"
else
  fail "arguments: ${refused_bad[*]}"
fi

# --- the pipeline's supervised step: resume only this submission's run ------------------
# Its script, run here as its job would: a start killed before the trainer wrote its
# plan (net/ without classes.json) starts over; a run with the plan resumes; after a
# --force submission with other settings the old run is not resumed but replaced.
(cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" pipeline --tasks 2 --games 4 --dir plr --epochs 1 \
  >/dev/null 2>>../args.err)
"$D" rollout --input sample-one.csv -o args-check/plr/data.bgds --trials 2 --truncate 2 --quiet --threads 2
mkdir -p args-check/plr/net/contact
: >args-check/plr/net/contact/checkpoint-1.wd # what a start killed at once leaves
step_log=$scratch/args-step.log
epochs_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["classes"][0]["epochs"])' "$1" 2>/dev/null; }
sup_bad=()
bash -euo pipefail args-check/plr/work/supervised.sh >"$step_log" 2>&1 \
  && [ "$(epochs_of args-check/plr/net/classes.json)" = 1 ] || sup_bad+=("a start over a killed start failed: $(tail -n 1 "$step_log")")
bash -euo pipefail args-check/plr/work/supervised.sh >"$step_log" 2>&1 \
  || sup_bad+=("the resume failed: $(tail -n 1 "$step_log")")
echo 3 >args-check/plr/work/supervised.done
(cd args-check && PATH="$scratch/rec-sbatch:$PATH" "$here/submit.sh" pipeline --tasks 2 --games 4 --dir plr --epochs 2 --force \
  >/dev/null 2>>../args.err)
[ ! -e args-check/plr/work/supervised.done ] || sup_bad+=("the old run's step marker was kept")
bash -euo pipefail args-check/plr/work/supervised.sh >"$step_log" 2>&1 \
  && [ "$(epochs_of args-check/plr/net/classes.json)" = 2 ] || sup_bad+=("after --force with --epochs 2 the run has $(epochs_of args-check/plr/net/classes.json) epochs: $(tail -n 1 "$step_log")")
if [ ${#sup_bad[@]} = 0 ]; then
  pass "pipeline step: a killed start (net/ without classes.json) starts over, a run resumes, another submission's run is replaced (--force)"
else
  fail "pipeline step: ${sup_bad[*]}"
fi

# --- rollout: 4 tasks, one killed mid-way and requeued --------------------------------
head -n 25 sample-one.csv >positions.csv
rargs=(--trials 72 --truncate 6 --seed 3)
"$D" rollout --input positions.csv -o rollout-one.csv "${rargs[@]}" --quiet --threads 2
id=$(submit rollout --tasks 4 --input positions.csv -o rollout-slurm.csv -- "${rargs[@]}")
array=$(grep -o 'array [0-9]*' "$scratch/submit.log" | tail -n1 | cut -d' ' -f2)
part=rollout-slurm.csv.work/rollout-2.csv
# Kill task 2 once it has journalled a result and before it has finished.
killed=0
for _ in $(seq 600); do
  if [ -s "$part.partial" ] && [ ! -e "$part" ]; then
    scancel "${array}_2"
    killed=1
    break
  fi
  [ -e "$part" ] && break
  sleep 0.1
done
if [ "$killed" = 1 ]; then
  done_before=$(wc -l <"$part.partial")
  requeue_cancelled "${array}_2"
  echo "killed task ${array}_2 (scancel) with $done_before journal lines, requeued it"
else
  fail "rollout: task 2 finished before it could be killed (make the rollout longer)"
fi
# The whole step takes seconds; a requeued task left pending (seen once in a run on the
# 2-core machine, 2026-12-07) fails here within CI's time, printing the queue.
if wait_for "$id" 240 && cmp -s rollout-one.csv rollout-slurm.csv; then
  resumed=$(grep -c 'resuming from' rollout-slurm.csv.work/logs/*_2.out || true)
  pass "rollout: 4 tasks + merge = one process, task 2 killed and requeued (resumed from its journal: $resumed) (md5 $(md5sum <rollout-one.csv | cut -c1-12))"
else
  fail "rollout: 4 tasks + merge differ from one process (or did not finish)"
fi
# The merge refuses a missing shard and a duplicated one.
if ! "$D" merge -o bad.csv rollout-slurm.csv.work/rollout-{1,2,4}.csv 2>err.txt && grep -q 'shard 3/4 of the rollout job is missing' err.txt \
  && ! "$D" merge -o bad.csv rollout-slurm.csv.work/rollout-{1,2,3,4,4}.csv 2>err.txt && grep -q 'are both shard 4/4' err.txt; then
  pass "merge: a missing or duplicated shard is refused ($(head -c 90 err.txt))"
else
  fail "merge: a missing or duplicated shard was not refused"
fi

# --- tourney: 2 worker tasks -----------------------------------------------------------
"$T" tourney new tourney-slurm.json --participants pubeval random pubeval-b=pubeval --games-per-pairing 24 --seed 5 >/dev/null
cp tourney-slurm.json tourney-one.json
"$T" tourney run tourney-one.json --workers 2 --quiet >/dev/null
id=$(submit tourney --tasks 2 tourney-slurm.json -- --batch 2)
if wait_for "$id" 600; then
  check=$(python3 - tourney-one.json tourney-slurm.json <<'PY'
import json, sys
def games(path):
    t = json.load(open(path))
    out = {}
    for c in t["schedule"]:
        for r in c["rounds"]:
            for p in r["pairings"]:
                for g in p["games"]:
                    out[g["id"]] = (g.get("result"), g.get("running"))
    return out
one, slurm = games(sys.argv[1]), games(sys.argv[2])
unfinished = [i for i, (r, run) in slurm.items() if r is None or run is not None]
same = all(one[i][0] == slurm[i][0] for i in one)
print(len(slurm), len(unfinished), "same" if same and one.keys() == slurm.keys() else "different")
PY
)
  read -r total unfinished same <<<"$check"
  workers=$(grep -l 'worker on' tourney-slurm.json.work/logs/*.out | wc -l)
  if [ "$unfinished" = 0 ] && [ "$same" = same ] && [ "$workers" = 2 ]; then
    pass "tourney: 2 worker tasks recorded each of the $total games once, results = one process"
  else
    fail "tourney: $total games, $unfinished not recorded, results $same, $workers workers"
  fi
else
  fail "tourney: the workers did not finish"
fi

# --- overnight: scripts/overnight.sh's pipeline as Slurm jobs ---------------------------
# `submit.sh overnight` at toy sizes (2-task arrays, 1 round) against overnight.sh on one
# machine with one thread (the cluster's tasks have 1 CPU each): the report job finishes
# with every step of the one-machine run done, and the TD net, the benchmark set, the
# round's labels and nets, the final fit and every final duel's result are the same
# bytes and numbers (only paths and seconds differ).
toy=(OVERNIGHT_TOY=1 TD_GAMES=4000 TD_MINUTES=60) # scripts/overnight-profiles.sh
id=$(env "${toy[@]}" "$here/submit.sh" overnight --tasks 2 --quick --rounds 1 --dir "$scratch/ov-slurm" 2>>"$scratch/submit.log")
# While its jobs are queued or running, overnight.sh on its directory and a second
# submission there are refused (exit 2), and the list of its jobs stays as it was.
jobs_before=$(cat "$scratch/ov-slurm/slurm/jobs" 2>/dev/null || true)
busy_rc=0 again_rc=0
env "${toy[@]}" "$root/scripts/overnight.sh" --quick --rounds 1 --dir "$scratch/ov-slurm" >ov-busy.log 2>&1 || busy_rc=$?
"$here/submit.sh" overnight --tasks 2 --quick --rounds 1 --dir "$scratch/ov-slurm" >/dev/null 2>ov-again.log || again_rc=$?
if [ "$busy_rc" = 2 ] && grep -q "in use by Slurm jobs .*\b$id\b" ov-busy.log && [ "$again_rc" = 2 ] \
  && grep -q "in use by jobs of an earlier submission" ov-again.log && [ "$(cat "$scratch/ov-slurm/slurm/jobs")" = "$jobs_before" ]; then
  pass "overnight: while its $(wc -l <<<"$jobs_before") jobs are queued, overnight.sh and a second submission on its directory are refused"
else
  fail "overnight: on a directory with queued jobs, overnight.sh gave exit $busy_rc ($(head -n 1 ov-busy.log)), a second submission exit $again_rc ($(head -n 1 ov-again.log))"
fi
env "${toy[@]}" "$root/scripts/overnight.sh" --quick --rounds 1 --threads 1 --dir "$scratch/ov-one" >ov-one.log 2>&1 &
one_pid=$!
# While that run holds its directory, a submission there is refused, naming the run.
for _ in $(seq 600); do
  [ -d "$scratch/ov-one" ] && ! flock -n -s "$scratch/ov-one" true 2>/dev/null && break
  sleep 0.05
done
held_rc=0
"$here/submit.sh" overnight --tasks 2 --quick --rounds 1 --dir "$scratch/ov-one" >/dev/null 2>ov-held.log || held_rc=$?
if [ "$held_rc" = 2 ] && grep -q "in use by a run of overnight.sh .*(held by .*\b$one_pid (" ov-held.log \
  && [ ! -e "$scratch/ov-one/slurm" ]; then
  pass "overnight: a submission on the directory of a running overnight.sh is refused: $(head -n 1 ov-held.log | cut -c1-160)"
else
  fail "overnight: a submission on the directory of a running overnight.sh: exit $held_rc, $(head -n 1 ov-held.log)"
fi
wait "$one_pid" || true
if [ ! -f "$scratch/ov-one/report.md" ]; then
  fail "overnight: the one-machine run failed: $(tail -n 3 ov-one.log)"
elif wait_for "$id" 900 && [ -f "$scratch/ov-slurm/report.md" ]; then
  if diff=$(python3 - "$scratch/ov-one" "$scratch/ov-slurm" <<'PY'
import glob, hashlib, json, os, sys
one, slurm = sys.argv[1:]
def md5(path, skip_header=False):
    if not os.path.exists(path):
        sys.exit("differ: %s is missing" % path)
    with open(path, "rb") as f:
        if skip_header:
            f.readline()  # names the run's own database paths
        return hashlib.md5(f.read()).hexdigest()
steps = lambda d: {f[:-5] for f in os.listdir(os.path.join(d, "steps"))}
bad = sorted(steps(one) - steps(slurm))
files = ["td/net.wd", "round-1/positions.csv", "round-1/data.bgds", "round-1/contact/net.wd",
         "round-1/crashed/net.wd", "round-1/race/net.wd", "fit/net.wd"]
bad += [f for f in files if md5(os.path.join(one, f)) != md5(os.path.join(slurm, f))]
if md5(os.path.join(one, "bench.jsonl"), True) != md5(os.path.join(slurm, "bench.jsonl"), True):
    bad.append("bench.jsonl")
if md5(os.path.join(one, "final-reference.er.json")) != md5(os.path.join(slurm, "final-reference.er.json")):
    bad.append("final-reference.er.json")  # the reference players' ER (no paths of the run)
duels = sorted(os.path.basename(p) for p in glob.glob(os.path.join(one, "final-*.json")) if not p.endswith(".er.json"))
for d in duels:
    if not os.path.exists(os.path.join(slurm, d)):
        sys.exit("differ: %s is missing in the cluster's run" % d)
    a, b = (json.load(open(os.path.join(x, d))) for x in (one, slurm))
    if "ppg" not in a or a.get("ppg") != b.get("ppg") or a.get("games") != b.get("games"):
        bad.append(d)
if bad or not duels:
    sys.exit("differ: %s" % (bad or "no final duels"))
print("%d steps, %d files, the benchmark set, the reference ER and %d final duels" % (len(steps(one)), len(files), len(duels)))
PY
  ); then
    pass "overnight: 2-task arrays + jobs = overnight.sh on one machine: $diff the same"
  else
    fail "overnight: the cluster run differs from one machine's: $diff"
  fi
else
  fail "overnight: the cluster run did not finish (job $id): $(tail -n 3 "$scratch/ov-slurm/overnight.log" 2>/dev/null)"
fi

# --- sharded two-sided 6x8 ---------------------------------------------------------------
# MD5 of gnubg 1.07's `makebearoff -t 6x8` (Debian's binary; about 6 CPU minutes, so
# recorded rather than rerun; gen-bearoff/tests/sharded.rs holds the same value).
MAKEBEAROFF_6X8=fcdbbc80b7ef84ddc81b839d0f26bed1
G="$BGKIT_BIN/gen-bearoff"
if [ "${BGKIT_SLURM_TWOSIDED:-}" = skip ]; then
  echo "SKIP two-sided 6x8: BGKIT_SLURM_TWOSIDED=skip"
elif [ -x "$G" ] && "$G" two-sided --help 2>/dev/null | grep -q -- --stale-after; then
  id=$(submit twosided --tasks 3 6x8 -o ts-slurm.bd)
  array=$(grep -o 'array [0-9]*' "$scratch/submit.log" | tail -n1 | cut -d' ' -f2)
  levels=$(grep -o 'twosided 6x8: [0-9]* levels' "$scratch/submit.log" | grep -o '[0-9]* levels')
  # Kill worker 1 once 60 of the 291 parts are written, before the build is done.
  killed=0
  for _ in $(seq 3000); do
    parts=$(find ts-slurm.bd.work/db -name '*.part' | wc -l)
    if [ "$parts" -ge 60 ] && [ "$parts" -lt 291 ]; then
      scancel "${array}_1"
      killed=1
      break
    fi
    [ "$parts" -ge 291 ] && break
    sleep 0.05
  done
  if [ "$killed" = 1 ]; then
    requeue_cancelled "${array}_1"
    echo "killed worker ${array}_1 (scancel) after $parts parts, requeued it"
  else
    fail "two-sided 6x8: worker 1 finished before it could be killed"
  fi
  if wait_for "$id" 1200 && [ "$(md5sum <ts-slurm.bd | cut -d' ' -f1)" = "$MAKEBEAROFF_6X8" ]; then
    took=$(cat ts-slurm.bd.work/logs/bgkit-twosided-*.out | grep -c 'took over level' || true)
    pass "two-sided 6x8: $levels, 3 workers (one killed and requeued; claims taken over: $took) + assembly = makebearoff -t 6x8 (md5 $MAKEBEAROFF_6X8)"
  else
    fail "two-sided 6x8: the sharded build differs from makebearoff's (or did not finish)"
  fi
else
  echo "SKIP two-sided 6x8: $G has no two-sided workers (no two-sided --stale-after)"
fi

echo "Slurm test: $failures failure(s), $((SECONDS - t0)) s"
[ "$failures" = 0 ]
