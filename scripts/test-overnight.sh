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
#  3. the final fit's reserve (scripts/fit-share.py) on made-up round timings, against
#     the arithmetic worked by hand.
#   scripts/test-overnight.sh [--keep]    (--keep: leave the scratch directory)
# Prints one line per check; exit 0 when all pass.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
keep=0
[ "${1:-}" = --keep ] && keep=1
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

# Toy sizes: the budget decides, these only keep the steps short.
export OVERNIGHT_TOY=1 # scripts/overnight-profiles.sh
hours=0.01 # 36 s
budget=36
margin=12

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
printf '#!/bin/sh
if [ "$1" = benchmark ]; then echo "trainer: made to fail" >&2; exit 3; fi
exec "%s/trainer" "$@"
' \
  "$BGKIT_BIN" >"$fake/trainer"
chmod +x "$fake/trainer"
f_rc=0
BGKIT_BIN=$fake TD_GAMES=2000 "$here/overnight.sh" --quick --td-only --dir "$scratch/f" >"$scratch/f.log" 2>&1 || f_rc=$?
if [ "$f_rc" = 3 ] && [ -e "$scratch/f/steps/benchset.done" ] && [ ! -e "$scratch/f/steps/measure-td.done" ] \
  && grep -q 'FAIL  measure-td (exit 3' "$scratch/f/overnight.log"; then
  pass "failing command: a step whose first command fails (trainer benchmark in measure-td) fails the run (exit 3), no marker"
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
for round in $(seq 1 40); do
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
