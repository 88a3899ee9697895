#!/usr/bin/env bash
# The budgeted overnight pipeline on a toy budget (issue 17), with the bgkit binaries in
# $BGKIT_BIN (default target/debug: the test build, as CI has it; `cargo test --no-run`
# builds it with the test profile's optimisation, where a plain `cargo build` leaves
# unoptimised binaries too slow for the 36-s budget: TD then plays 3 games/s):
#  1. `overnight.sh --quick --hours H` ends within H plus a margin and writes its report
#     (with no cargo on PATH: BGKIT_BIN needs no toolchain); a second run on its
#     directory while it runs, even with --fresh, is refused, naming the run's process,
#     and removes nothing;
#  1b. a step fails when any of its commands fails, not only its last;
#  2. a second run is killed with SIGKILL (the whole process group) once in each of its
#     steps, then rerun each time: it resumes and completes every step of its rounds
#     and the final fit (search rounds go on while the time lasts, so the two runs may
#     differ in rounds), and its report has every net, and rounds.csv a row for each;
#     2b. each step of that run is then unmarked in turn, as if killed between its last
#     command and its marker, and the resumed run must redo it and finish;
#     2c. its TD state and a supervised run's checkpoint JSON are removed (as if killed
#     between a tool's first files and its JSON), a marker and two kept settings
#     emptied: the rerun must start those steps again over what they left and finish;
#     and each finished run holds nothing that --fresh would not remove;
#  3. the final fit's reserve (scripts/fit-share.py) on made-up round timings, against
#     the arithmetic worked by hand;
#  0. (first, cheap) refusals: bad arguments and a wrong BGKIT_BIN get one
#     `overnight.sh: ...` line, exit 2 and create nothing; a folder that is not a run's
#     is refused with and without --fresh, untouched; a rerun keeps omitted settings and
#     compares budgets as numbers; --fresh on a run folder of an older version removes
#     the run's files only; --td-only --hours gives TD most of the budget.
#   scripts/test-overnight.sh [--keep]    (--keep: leave the scratch directory)
# Prints one line per check; exit 0 when all pass.
set -euo pipefail
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
keep=0
case "${1:-}" in
  --keep) keep=1; shift ;;
esac
no_arguments test-overnight.sh "$@"
export BGKIT_BIN=${BGKIT_BIN:-${CARGO_TARGET_DIR:-$root/target}/debug}
for tool in gen-bearoff evaluator datasets trainer; do
  [ -x "$BGKIT_BIN/$tool" ] || { echo "test-overnight.sh: no $tool in $BGKIT_BIN (build it: cargo test --workspace --no-run)" >&2; exit 2; }
done
BGKIT_BIN=$(cd "$BGKIT_BIN" && pwd) # absolute: the runs below change directory and link to it
scratch=$(mktemp -d /tmp/bgkit-overnight-test.XXXXXX)
cleanup() { if [ "$keep" = 1 ]; then echo "scratch kept: $scratch"; else rm -rf "$scratch"; fi; }
trap cleanup EXIT
failures=0
t0=$SECONDS
pass() { echo "PASS $* [$((SECONDS - t0)) s]"; }
fail() { echo "FAIL $* [$((SECONDS - t0)) s]"; failures=$((failures + 1)); }
entries() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | paste -sd' ' -; } # DIR's, by name

# Toy sizes: the budget decides, these only keep the steps short.
export OVERNIGHT_TOY=1 # scripts/overnight-profiles.sh
hours=0.01 # 36 s
budget=36
margin=12

# --- 0. Refusals (no pipeline runs) ------------------------------------------------------
# Bad arguments, each from a folder of its own: exit 2, one line `overnight.sh: ...`,
# and no file or folder created.
refuse() { # WHAT ENV-ASSIGNMENT... -- ARGS...: the run must be refused
  local what=$1 envs=() rc=0
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  rm -rf "$scratch/args" && mkdir -p "$scratch/args/afile-dir" && : >"$scratch/args/afile"
  (cd "$scratch/args" && env "${envs[@]}" "$here/overnight.sh" --quick "$@" >"$scratch/args.out" 2>"$scratch/args.err") || rc=$?
  local left
  left=$(cd "$scratch/args" && find . -mindepth 1 ! -name afile ! -name afile-dir | head -n 3 | paste -sd' ' -)
  if [ "$rc" = 2 ] && [ "$(wc -l <"$scratch/args.err")" = 1 ] && grep -q '^overnight\.sh: ' "$scratch/args.err" && [ -z "$left" ]; then
    refused+=("$what")
  else
    fail "refusal: $what: exit $rc, '$(head -c 300 "$scratch/args.err")', created: ${left:-nothing}"
  fi
}
refused=()
refuse "BGKIT_BIN=/typo" BGKIT_BIN=/typo -- --dir new
refuse "BGKIT_BIN without the binaries" "BGKIT_BIN=$scratch/args/afile-dir" -- --dir new
refuse "--hours 1_0" -- --dir new --hours 1_0
refuse "--hours ' 1'" -- --dir new --hours ' 1'
refuse "--dir afile" -- --dir afile
refuse "--dir -x" -- --dir -x
refuse "--dir ''" -- --dir ''
refuse "--threads 99999999999999999999" -- --dir new --threads 99999999999999999999
refuse "--threads 1025" -- --dir new --threads 1025
refuse "--rounds 99999999999999999999" -- --dir new --rounds 99999999999999999999
[ "${#refused[@]}" = 10 ] && pass "refusal: exit 2, one line, nothing created: ${refused[*]}"
# A user's folder: a run that fails at once (a wrong BGKIT_BIN) leaves nothing in it, and
# a run there, with or without --fresh, is refused and leaves it as it was.
docs="$scratch/mydocs"
mkdir -p "$docs" && echo precious >"$docs/thesis.tex"
d_rc=() d_err=()
for args in "BGKIT_BIN=/typo" "--fresh" ""; do
  rc=0
  if [ "$args" = BGKIT_BIN=/typo ]; then
    BGKIT_BIN=/typo "$here/overnight.sh" --quick --dir "$docs" 2>"$scratch/docs.err" || rc=$?
  else
    # shellcheck disable=SC2086 # no flag, or one
    "$here/overnight.sh" --quick --dir "$docs" $args 2>"$scratch/docs.err" || rc=$?
  fi
  d_rc+=("$rc") d_err+=("$(head -n 1 "$scratch/docs.err")")
done
if [ "${d_rc[*]}" = "2 2 2" ] && [ "$(entries "$docs")" = thesis.tex ] && [ "$(cat "$docs/thesis.tex")" = precious ] \
  && [[ "${d_err[1]}" == *"is not a run's directory"* ]]; then
  pass "user's folder: a wrong BGKIT_BIN, then --fresh, then a plain run: refused (exit 2) and untouched: '${d_err[1]}'"
else
  fail "user's folder: exits ${d_rc[*]}, $(entries "$docs"): ${d_err[*]}"
fi
# A run's kept settings: --hours compared as a number, an omitted --rollout-weights kept,
# another one refused with nothing written; an emptied DIR/hours refused, not dropped.
kd="$scratch/kept"
: >"$scratch/fake-gnubg.wd" # gnubg's weights for a run killed before it uses them
mkdir -p "$kd" && : >"$kd/.overnight-run" && echo 2.5 >"$kd/hours" && echo gnubg >"$kd/rollout-weights"
k_rc=0
GNUBG_WEIGHTS="$scratch/fake-gnubg.wd" "$here/overnight.sh" --quick --dir "$kd" --hours 2.50 --rollout-weights current \
  2>"$scratch/kept.err" || k_rc=$?
e_rc=0
echo 2.5 >"$kd/hours.saved" && : >"$kd/hours"
"$here/overnight.sh" --quick --dir "$kd" 2>"$scratch/kept2.err" || e_rc=$?
mv "$kd/hours.saved" "$kd/hours"
if [ "$k_rc" = 2 ] && grep -q 'was started with --rollout-weights gnubg' "$scratch/kept.err" && [ "$e_rc" = 2 ] \
  && grep -q 'hours does not hold the run' "$scratch/kept2.err" && [ "$(entries "$kd")" = ".overnight-run hours rollout-weights" ]; then
  pass "kept settings: --hours 2.50 = 2.5, another --rollout-weights refused, an empty hours file refused, nothing written"
else
  fail "kept settings: exits $k_rc $e_rc: $(cat "$scratch/kept.err" "$scratch/kept2.err"), left $(entries "$kd")"
fi
# started DIR ARGS...: overnight.sh ARGS, killed (SIGKILL, its process group) once DIR's
# log has its first line (the settings it runs with).
started() {
  local d=$1 p
  shift
  setsid "$here/overnight.sh" "$@" >"$scratch/started.log" 2>&1 &
  p=$!
  for _ in $(seq 400); do
    grep -q 'TD for' "$d/overnight.log" 2>/dev/null && break
    kill -0 "$p" 2>/dev/null || break
    sleep 0.05
  done
  kill -9 -- "-$p" 2>/dev/null || true
  wait "$p" 2>/dev/null || true
  head -n 1 "$d/overnight.log" 2>/dev/null || cat "$scratch/started.log"
}
first=$(GNUBG_WEIGHTS="$scratch/fake-gnubg.wd" started "$kd" --quick --dir "$kd")
# A run folder of an older version (no mark) that also holds a user's file: --fresh
# removes the run's files (its labels among them) and keeps the user's. With --td-only and
# a budget, TD gets all of it but what the benchmark set, the measurements and the final
# duels need (here 60 minutes, at most 12 % for the duels).
ld="$scratch/legacy"
mkdir -p "$ld/steps" "$ld/logs" && echo precious >"$ld/thesis.tex" && echo old >"$ld/overnight.log" && echo rollout >"$ld/labels"
legacy=$(started "$ld" --quick --td-only --fresh --hours 1 --dir "$ld")
td_minutes=$(sed -n 's/.*TD for \([0-9.]*\) minutes.*/\1/p' <<<"$legacy")
if [[ "$first" == *"by gnubg weights"* ]] && [ "$(cat "$ld/thesis.tex")" = precious ] && [ "$(cat "$ld/labels")" = search ] \
  && ! grep -q '^old' "$ld/overnight.log" && [ -f "$ld/.overnight-run" ] \
  && python3 -c 'import sys; sys.exit(0 if 60 * 0.8 <= float(sys.argv[1]) <= 60 * 0.93 else 1)' "${td_minutes:-0}"; then
  pass "rerun keeps --rollout-weights gnubg; --fresh on an older run folder kept the user's file; --td-only --hours 1: TD for $td_minutes minutes"
else
  fail "kept settings / --fresh / --td-only: '$first'; '$legacy'; thesis $(cat "$ld/thesis.tex" 2>/dev/null || echo gone), labels $(cat "$ld/labels" 2>/dev/null)"
fi

# --- 1. Within the budget ---------------------------------------------------------------
# BGKIT_BIN's prebuilt binaries need no toolchain: the run gets a PATH without the
# folders that hold cargo (rustup's ~/.cargo/bin). Where cargo shares a folder with
# what the script needs (a distribution's cargo in /usr/bin), that folder stays and a
# cargo that records its calls and fails comes first instead.
no_cargo_path="" cargo_shared=0
IFS=: read -ra path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
  if [ ! -x "${d:-.}/cargo" ]; then
    no_cargo_path+="$d:"
  elif [ -x "${d:-.}/bash" ] || [ -x "${d:-.}/python3" ] || [ -x "${d:-.}/env" ]; then
    no_cargo_path+="$d:" cargo_shared=1
  fi
done
if [ "$cargo_shared" = 1 ]; then
  mkdir -p "$scratch/fake-cargo"
  printf '#!/bin/sh\necho "$*" >>"%s"\nexit 127\n' "$scratch/cargo-calls" >"$scratch/fake-cargo/cargo"
  chmod +x "$scratch/fake-cargo/cargo"
  no_cargo_path="$scratch/fake-cargo:$no_cargo_path"
fi
start=$SECONDS
PATH=${no_cargo_path%:} "$here/overnight.sh" --quick --hours "$hours" --dir "$scratch/a" >"$scratch/a.log" 2>&1 &
a_pid=$!
# While it runs (once TD has started), a second run on its directory, even with
# --fresh, is refused (exit 2, after its 10-s wait for the lock) and removes nothing.
for _ in $(seq 600); do
  grep -q 'start td' "$scratch/a/overnight.log" 2>/dev/null && break
  sleep 0.05
done
second_rc=0
"$here/overnight.sh" --quick --fresh --hours "$hours" --dir "$scratch/a" >"$scratch/second.log" 2>&1 || second_rc=$?
if [ "$second_rc" = 2 ] && grep -q "is in use by another run or a submission (held by .*\b$a_pid (" "$scratch/second.log" && [ -e "$scratch/a/steps/bearoff.done" ]; then
  pass "lock: a second run (--fresh) on a running run's directory: exit 2, '$(head -n 1 "$scratch/second.log")', nothing removed"
else
  fail "lock: a second run on a running run's directory: exit $second_rc, $(head -n 2 "$scratch/second.log"), bearoff.done $([ -e "$scratch/a/steps/bearoff.done" ] && echo kept || echo gone)"
fi
a_rc=0
wait "$a_pid" || a_rc=$?
if [ "$a_rc" != 0 ]; then
  fail "budget: the run failed (exit $a_rc): $(tail -n 3 "$scratch/a.log")"
elif [ -s "$scratch/cargo-calls" ]; then
  fail "budget: the run called cargo with BGKIT_BIN set: $(head -n 1 "$scratch/cargo-calls")"
else
  took=$((SECONDS - start))
  clock=$(cat "$scratch/a/clock")
  if [ "$took" -le $((budget + margin)) ] && [ "$clock" -le $((budget + margin)) ] && grep -q '^| TD |' "$scratch/a/report.md"; then
    pass "budget: --hours $hours ($budget s) took $took s wall, $clock s on its clock, report written"
  else
    fail "budget: --hours $hours ($budget s) took $took s wall ($clock s on its clock), over $budget + $margin s, or no report"
  fi
fi

# --- 1b. Any failing command fails its step ----------------------------------------------
# measure-td runs `trainer benchmark`, then `trainer duel`: with a trainer whose
# benchmark fails, the step (not only a failure of its last command) must fail the run,
# with no done-marker.
fake="$scratch/fake-bin"
mkdir -p "$fake"
for tool in gen-bearoff evaluator datasets; do ln -s "$BGKIT_BIN/$tool" "$fake/$tool"; done
# shellcheck disable=SC2016 # the fake trainer's own $1 and $@
printf '#!/bin/sh
if [ "$1" = benchmark ]; then echo "trainer: made to fail" >&2; exit 3; fi
exec "%s/trainer" "$@"
' \
  "$BGKIT_BIN" >"$fake/trainer"
chmod +x "$fake/trainer"
# Its stdout is closed after the first line (`| head -n 1`): that must not stop the run.
set +e
BGKIT_BIN=$fake TD_GAMES=2000 "$here/overnight.sh" --quick --td-only --dir "$scratch/f" 2>"$scratch/f.err" | head -n 1 >"$scratch/f.log"
f_rc=${PIPESTATUS[0]}
set -e
if [ "$f_rc" = 3 ] && [ -e "$scratch/f/steps/benchset.done" ] && [ ! -e "$scratch/f/steps/measure-td.done" ] \
  && grep -q 'FAIL  measure-td (exit 3' "$scratch/f/overnight.log"; then
  pass "failing command: a step whose first command fails (trainer benchmark in measure-td) fails the run (exit 3), no marker; a closed stdout stopped nothing"
else
  fail "failing command: exit $f_rc, $(grep -E 'FAIL|done  measure' "$scratch/f/overnight.log" 2>/dev/null | head -n 2)"
fi

# --- 2. Killed in every step, resumed each time -----------------------------------------
dir="$scratch/b"
steps_seen=()
kills=0
# The loop ends when a run ends by itself, not when report.md appears: a kill can land
# after the report step has renamed report.md into place but before it is marked done.
ended=""
for _ in $(seq 1 40); do
  [ -n "$ended" ] && break
  setsid "$here/overnight.sh" --quick --hours "$hours" --dir "$dir" >>"$scratch/b.log" 2>&1 &
  pid=$!
  # The first step not done yet: wait until it has started, then a little longer.
  target=""
  for _ in $(seq 1200); do
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    target=$(grep -o 'start [a-z0-9-]*' "$dir/overnight.log" 2>/dev/null | tail -n1 | cut -d' ' -f2 || true)
    if [ -n "$target" ] && [ ! -e "$dir/steps/$target.done" ] \
      && [[ " ${steps_seen[*]} " != *" $target "* ]]; then
      sleep 0.7
      break
    fi
    sleep 0.05
  done
  if kill -0 "$pid" 2>/dev/null && [ -n "$target" ] && [[ " ${steps_seen[*]} " != *" $target "* ]]; then
    kill -9 -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    steps_seen+=("$target")
    kills=$((kills + 1))
    echo "killed (SIGKILL, process group) during step $target"
  else
    rc=0
    wait "$pid" 2>/dev/null || rc=$?
    ended="exit $rc"
  fi
done
# The steps a finished run of DIR's rounds must have done (search rounds go on while the
# time lasts, so how many a run gets depends on its speed), and its report's nets.
complete() {
  python3 - "$1" <<'PY'
import os, re, sys
d = sys.argv[1]
report = open(os.path.join(d, "report.md")).read()
rounds = int(re.search(r"; (\d+) round\(s\);", report).group(1))
want = {"bearoff", "td", "benchset", "measure-td", "final-0", "final-reference", "report"}
if rounds:  # the final fit follows the last round
    want |= {"fit", "fit-measure", "final-fit"}
for r in range(1, rounds + 1):
    want |= {"round-%d-%s" % (r, s) for s in ("sample", "search", "contact", "crashed", "race", "measure")}
have = {f[:-5] for f in os.listdir(os.path.join(d, "steps"))}
nets = len(re.findall(r"^\| (TD|round \d+|final fit[^|]*) \| `", report, re.M))
missing = sorted(want - have)
if missing or nets != rounds + 1 + (rounds > 0):
    sys.exit("%d round(s): steps missing %s; %d nets in the report" % (rounds, missing, nets))
# rounds.csv: a row per round and the fit's, each with its round duel's ppg.
import csv, json
rows = list(csv.DictReader(open(os.path.join(d, "rounds.csv"))))
want_rows = [str(r) for r in range(1, rounds + 1)] + (["fit"] if rounds else [])
for row in rows:
    m = "round-" + row["round"] if row["round"] != "fit" else "fit"
    ppg = json.load(open(os.path.join(d, m, "measure.pubeval.json")))["ppg"]
    kept = m == "fit" and not os.path.exists(os.path.join(d, "fit", "supervised.json"))  # no contact data
    if abs(float(row["ppg_vs_pubeval"]) - ppg) > 5e-5 or not row["seconds"].isdigit() \
            or (row["positions"] == "" if kept else int(row["positions"]) <= 0):
        sys.exit("rounds.csv row %s does not match its round: %s" % (row["round"], row))
if [row["round"] for row in rows] != want_rows:
    sys.exit("rounds.csv has rows %s, not %s" % ([row["round"] for row in rows], want_rows))
print(rounds)
PY
}
if [ "$ended" != "exit 0" ]; then
  fail "resume: after $kills kills the last run ${ended:-never ended by itself}: $(tail -n 5 "$scratch/b.log")"
elif [ -f "$dir/report.md" ]; then
  if ! a_rounds=$(complete "$scratch/a" 2>&1); then
    fail "resume: the uninterrupted run is incomplete: $a_rounds"
  elif ! b_rounds=$(complete "$dir" 2>&1); then
    fail "resume: $kills kills: $b_rounds"
  elif [ "$kills" -ge 8 ]; then
    pass "resume: killed $kills times (in ${steps_seen[*]}), resumed each time: every step of its $b_rounds round(s) done, the report with every net (the uninterrupted run: $a_rounds round(s))"
  else
    fail "resume: only $kills kills (in ${steps_seen[*]})"
  fi
else
  fail "resume: no report after $kills kills: $(tail -n 5 "$scratch/b.log")"
fi

# --- 2b. Killed at the end of each step -------------------------------------------------
# A kill can also land after a step's last command and before its DIR/steps/NAME.done:
# the rerun then finds the step's outputs complete (a tool that refuses to overwrite its
# output without --force would stop every later resume). Simulated on the finished run
# of section 2: each step's marker removed in turn, then the run resumed.
if [ -f "$dir/steps/report.done" ]; then
  redone=0 stuck=()
  for marker in "$dir"/steps/*.done; do
    name=$(basename "$marker" .done)
    [ "$name" = report ] && continue
    rm -f "$marker"
    if "$here/overnight.sh" --quick --hours "$hours" --dir "$dir" >>"$scratch/c.log" 2>&1 && [ -e "$marker" ]; then
      redone=$((redone + 1))
    else
      stuck+=("$name")
      echo 0 >"$marker"
    fi
  done
  if [ "${#stuck[@]}" = 0 ] && [ "$redone" -ge 8 ] && after=$(complete "$dir" 2>&1); then
    pass "end of step: each of $redone steps' marker removed in turn (killed before it was written), the resumed run took the step up again and finished; every step and net still in place"
  elif [ "${#stuck[@]}" = 0 ] && [ "$redone" -ge 8 ]; then
    fail "end of step: the run is incomplete after its steps were redone: $after"
  else
    fail "end of step: $redone steps redone; stuck in ${stuck[*]:-none}: $(grep FAIL "$scratch/c.log" | head -n 3)"
  fi
else
  fail "end of step: no finished run to take apart"
fi

# --- 2c. Killed before a tool's first checkpoint JSON; markers left empty --------------
# TD writes state-N.wd before state.json, supervised training checkpoint-N.wd and
# optimizer-N.bin before supervised.json: a kill in between leaves files that a new run in
# that directory must replace. And an older version killed while writing a marker or a
# kept setting left it empty: read as not written.
contact="$dir/round-1/contact"
if [ -f "$dir/steps/report.done" ] && compgen -G "$dir/td/state-*.wd" >/dev/null; then
  rm -f "$dir/steps/td.done" "$dir/td/state.json"
  trained=0
  if [ -f "$contact/supervised.json" ] && compgen -G "$contact/checkpoint-*.wd" >/dev/null; then
    rm -f "$dir/steps/round-1-contact.done" "$contact/supervised.json"
    trained=1
  fi
  : >"$dir/steps/measure-td.done"
  : >"$dir/labels"
  echo garbled >"$dir/rollout-weights"
  w_rc=0
  "$here/overnight.sh" --quick --hours "$hours" --dir "$dir" >"$scratch/w.log" 2>&1 || w_rc=$?
  if [ "$w_rc" = 0 ] && grep -qx '[0-9]*' "$dir/steps/td.done" && grep -qx '[0-9]*' "$dir/steps/measure-td.done" \
    && [ -f "$dir/td/state.json" ] && { [ "$trained" = 0 ] || [ -f "$contact/supervised.json" ]; } \
    && [ "$(cat "$dir/labels")" = search ] && [ "$(cat "$dir/rollout-weights")" = current ] && after=$(complete "$dir" 2>&1); then
    pass "first checkpoint: TD$([ "$trained" = 1 ] && echo " and round 1's contact training") started again over a killed start's files; empty markers and settings read as not written"
  else
    fail "first checkpoint: exit $w_rc: $(grep -E 'FAIL|trainer:' "$scratch/w.log" | head -n 3) ${after:-}"
  fi
else
  fail "first checkpoint: no finished run with TD checkpoints to take apart"
fi
# Every entry a finished run left in its directory is one that --fresh removes.
# shellcheck source=run-lock.sh
. "$here/run-lock.sh"
stray=""
for d in "$scratch/a" "$dir"; do
  stray+=$(comm -23 <(find "$d" -mindepth 1 -maxdepth 1 ! -name .overnight-run -printf '%f\n' | sort) \
    <(run_entries "$d" | tr '\0' '\n' | sed 's|.*/||' | sort) | paste -sd' ' -)
done
if [ -z "$stray" ] && [ -f "$dir/.overnight-run" ]; then
  pass "fresh: every entry of the finished runs' directories is one --fresh removes (run-lock.sh: run_entries)"
else
  fail "fresh: entries --fresh would leave: ${stray:-none}; mark $([ -f "$dir/.overnight-run" ] && echo present || echo missing)"
fi

# --- 3. The final fit's reserve (scripts/fit-share.py) -----------------------------------
# Three rounds' contact training, each on 2 data files of 1,000 records for 10 epochs in
# 2 s: 1e-4 s per record and epoch. A 512-unit fit of 60 epochs on 8 rounds of 1,000
# records, from 256-unit rounds: 1.25 * 1e-4 * 2 * 8,000 * 60 = 120 s.
# Round 1 is timed slower (20 s): only the last 3 rounds (2-4) may count.
fs="$scratch/fit-share"
timed() { # ROUND SECONDS: that round's contact training of 2 x 1,000 records, 10 epochs
  mkdir -p "$fs/round-$1/contact"
  printf '{"data": [{"class_records": 1000}, {"class_records": 1000}], "epoch": 10, "elapsed_seconds": %s}\n' \
    "$2" >"$fs/round-$1/contact/supervised.json"
}
timed 1 20.0
for k in 2 3 4; do timed "$k" 2.0; done
got=$(python3 "$here/fit-share.py" "$fs" 3600 4 0.17 8 60 256 512)  # 120 / 3600
got_capped=$(python3 "$here/fit-share.py" "$fs" 600 4 0.17 8 60 256 512)  # 0.2 > 0.17
got_all=$(python3 "$here/fit-share.py" "$fs" 3600 4 0.17 0 60 256 512)  # FIT_ROUNDS 0
got_none=$(python3 "$here/fit-share.py" "$fs/none" 3600 4 0.17 8 60 256 512)
if [ "$got" = 0.0333 ] && [ "$got_capped" = 0.1700 ] && [ "$got_all" = 0.17 ] && [ "$got_none" = 0.17 ]; then
  pass "fit reserve: 0.0333 of a 3,600 s budget for a 120 s fit, FIT_SHARE when that is less or nothing was timed"
else
  fail "fit reserve: $got $got_capped $got_all $got_none, not 0.0333 0.1700 0.17 0.17"
fi

echo "overnight test: $failures failure(s), $((SECONDS - t0)) s"
[ "$failures" = 0 ]
