#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # the checks are single-quoted code that `that` evaluates
# Regression tests of the small user scripts' refusals and behaviours: quickstart.sh,
# ship-net.sh, guard.sh and install-shell-docs.sh (usage, unknown arguments, what they
# refuse and that a refusal leaves nothing behind, that nothing of the user's is
# replaced without --force, that a failing tool fails the script), and the Slurm
# merge's rule for an output it finds (scripts/slurm/lib.sh's merge_task, run without
# Slurm). Seconds, not minutes: fake run directories and stub binaries, and the real
# gen-bearoff and evaluator (the test build's) for quickstart.sh's small databases,
# datasets for a 6-game sample in two shards.
#
#   BGKIT_BIN=target/debug scripts/test-scripts.sh
#
# BGKIT_BIN=DIR: the bgkit binaries (default: the checkout's target/debug). Scratch
# files go to a temporary directory removed at the end; nothing else is written.
# Prints one line per check and a summary; exits 1 when any check failed, 2 on bad use.
set -uo pipefail
me=test-scripts.sh
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
no_arguments "$me" "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
scripts=$root/scripts
bin=$(cd "${BGKIT_BIN:-$root/target/debug}" 2>/dev/null && pwd) || {
  echo "$me: BGKIT_BIN=${BGKIT_BIN:-$root/target/debug} is not a directory (build with cargo build first)" >&2; exit 2; }
for tool in gen-bearoff evaluator datasets trainer; do
  [ -x "$bin/$tool" ] || { echo "$me: $bin has no $tool binary" >&2; exit 2; }
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BGKIT_BIN=$bin
unset BGKIT_DATA GNUBG_WEIGHTS FORCE
passed=0
failed=0
t0=$SECONDS
pass() { passed=$((passed + 1)); echo "ok    $*"; }
flunk() { failed=$((failed + 1)); echo "FAIL  $*"; }
# (after a command's failed check: the start of its stderr)
flunk_err() { flunk "$@"; [ ! -s "$t/err" ] || sed 's/^/        stderr: /' "$t/err" | head -n 5; }
# check WHAT EXPECTED-RC COMMAND...: runs COMMAND (stdout in $t/out, stderr in $t/err) and
# checks its exit status.
check() {
  local what=$1 want=$2 rc=0
  shift 2
  "$@" >"$t/out" 2>"$t/err" </dev/null || rc=$?
  if [ "$rc" = "$want" ]; then pass "$what (exit $rc)"; else flunk_err "$what: exit $rc, expected $want"; fi
}
# refused WHAT SCRIPT TEXT COMMAND...: exit 2 with one line on stderr, `SCRIPT: ...`,
# that says TEXT (the file or value at fault).
refused() {
  local what=$1 script=$2 text=$3
  shift 3
  check "$what" 2 "$@"
  if [ "$(wc -l <"$t/err")" = 1 ] && grep -q "^$script: " "$t/err" && grep -qF -- "$text" "$t/err"; then
    pass "$what: one error line ($(cut -c1-100 "$t/err"))"
  else
    flunk_err "$what: stderr is not one '$script: ...' line saying '$text'"
  fi
}
# that WHAT CODE: a check of its own, CODE (shell code, evaluated here) succeeding.
that() {
  if eval "$2"; then pass "$1"; else flunk "$1"; fi
}
# listing DIR: every file under DIR with its checksum (to compare before and after).
listing() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r md5sum); }
has() { grep -q -- "$2" "$1"; }

# --- quickstart.sh -----------------------------------------------------------------------
echo "== quickstart.sh"
q=$scripts/quickstart.sh
mkdir -p "$t/qs" && cd "$t/qs" || exit 2
check "quickstart --help" 0 "$q" --help
that "quickstart --help prints the usage and builds nothing" 'has "$t/out" "--dir DIR" && [ ! -e bgkit-data ]'
check "quickstart -h" 0 "$q" -h
refused "quickstart unknown argument" quickstart.sh "'--bogus'" "$q" --bogus
refused "quickstart --dir without a value" quickstart.sh "--dir needs a value" "$q" --dir
that "quickstart refusals wrote nothing" '[ -z "$(ls -A)" ]'
mkdir userdata && echo "my 6x8 db" >userdata/gnubg_ts0.bd
before=$(listing userdata)
check "quickstart with BGKIT_DATA set" 0 env BGKIT_DATA="$t/qs/userdata" "$q"
that "quickstart leaves BGKIT_DATA's directory alone" '[ "$(listing userdata)" = "$before" ]'
that "quickstart writes ./bgkit-data" '[ -s bgkit-data/gnubg_os0.bd ] && [ -s bgkit-data/gnubg_ts0.bd ] && [ -s bgkit-data/gnubg_ts0.bd.sha256 ]'
refused "quickstart --dir with a different gnubg_ts0.bd, no --force" quickstart.sh "userdata/gnubg_ts0.bd exists" "$q" --dir userdata
that "the refusal left the user's directory as it was (no temporary folder)" '[ "$(listing userdata)" = "$before" ] && [ -z "$(ls -A userdata | grep -v "^gnubg_ts0.bd$")" ]'
first=$(listing bgkit-data)
touch -d '2001-01-01' bgkit-data/gnubg_os0.bd
check "quickstart rerun (same files)" 0 "$q"
that "the rerun kept the identical files untouched" '[ "$(listing bgkit-data)" = "$first" ] && [ -z "$(find bgkit-data -newer "$t/out" -name gnubg_os0.bd)" ] && [ "$(stat -c %Y bgkit-data/gnubg_os0.bd)" = "$(date -d 2001-01-01 +%s)" ] && has "$t/out" "kept"'
check "quickstart --dir userdata --force" 0 "$q" --dir userdata --force
that "--force replaced it with the databases" 'cmp -s userdata/gnubg_ts0.bd bgkit-data/gnubg_ts0.bd && [ -z "$(ls -A userdata | grep "^\.quickstart")" ]'
refused "quickstart GNUBG_WEIGHTS pointing nowhere" quickstart.sh "GNUBG_WEIGHTS=$t/none.wd" env GNUBG_WEIGHTS="$t/none.wd" "$q" --dir fresh
that "quickstart GNUBG_WEIGHTS refusal wrote nothing" '[ ! -e fresh ]'
refused "quickstart BGKIT_BIN without the tools" quickstart.sh "has no gen-bearoff" env BGKIT_BIN="$t/qs/userdata" "$q" --dir fresh2
echo "x" >afile
refused "quickstart --dir naming a file" quickstart.sh "--dir afile" "$q" --dir afile
mkdir -p withdir/gnubg_ts0.bd
# A --force that fails at its last file (an immutable gnubg_ts0.bd.sha256: root and
# chattr, as in CI) puts DIR back as it was.
mkdir -p stuck && echo "old os" >stuck/gnubg_os0.bd
if echo "old sum" >stuck/gnubg_ts0.bd.sha256 && chattr +i stuck/gnubg_ts0.bd.sha256 2>/dev/null; then
  before=$(listing stuck)
  refused "quickstart --force failing at gnubg_ts0.bd.sha256" quickstart.sh "cannot rename" "$q" --dir stuck --force
  chattr -i stuck/gnubg_ts0.bd.sha256
  that "...put back what it replaced, removed what it added, no staging folder" '[ "$(listing stuck)" = "$before" ] && [ "$(ls -A stuck | tr "\n" " ")" = "gnubg_os0.bd gnubg_ts0.bd.sha256 " ]'
else
  echo "skip  quickstart --force failing half-way (chattr +i is not available here)"
fi
refused "quickstart --dir with a folder named gnubg_ts0.bd, --force" quickstart.sh "withdir/gnubg_ts0.bd is a directory" "$q" --dir withdir --force
that "...before anything is written" '[ -z "$(ls -A withdir | grep -v "^gnubg_ts0.bd$")" ] && [ -z "$(ls -A withdir/gnubg_ts0.bd)" ]'

# --- ship-net.sh -------------------------------------------------------------------------
echo "== ship-net.sh"
s=$scripts/ship-net.sh
mkdir -p "$t/sn/out" && cd "$t/sn" || exit 2
# mkrun DIR: a fake finished --quick run of one round whose round 1 wins.
mkrun() {
  local d=$1 n
  mkdir -p "$d/td" "$d/round-1/race" "$d/steps"
  echo '# Overnight run (--quick)' >"$d/report.md"
  echo "2026-12-01T00:00:00Z overnight.sh --quick in $t/sn/$d: TD for 3 minutes at most, rounds 1, search labels by current weights" >"$d/overnight.log"
  echo search >"$d/labels"
  echo current >"$d/rollout-weights"
  echo 300 >"$d/clock"
  echo 42 >"$d/steps/td.done"
  for n in td round-1/race; do echo "wd $n" >"$d/$n/net.wd"; echo "weights $n" >"$d/$n/net.weights"; done
  echo '{"classes":[{"class":"all","er":5.0,"se":0.5,"positions":100}]}' >"$d/td/measure.er.json"
  echo '{"classes":[{"class":"all","er":4.0,"se":0.4,"positions":100}]}' >"$d/round-1/measure.er.json"
  echo '{"ppg":0.5,"se":0.01,"games":100,"seed":11}' >"$d/final-0-pubeval.json"
  echo '{"ppg":0.6,"se":0.01,"games":100,"seed":11}' >"$d/final-1-pubeval.json"
  echo '{"ppg":-0.1,"se":0.01,"games":100,"seed":11}' >"$d/final-0-gnubg.json"
  echo '{"ppg":0.01,"se":0.01,"games":100,"seed":11}' >"$d/final-1-gnubg.json"
}
empty_out() { [ -z "$(ls -A out)" ]; }
check "ship-net --help" 0 "$s" --help
that "ship-net --help prints the usage" 'has "$t/out" "RUN_DIR NAME"'
refused "ship-net unknown argument" ship-net.sh "'--bogus'" "$s" run t1 --bogus --out out
refused "ship-net with one argument" ship-net.sh "RUN_DIR and NAME" "$s" run
refused "ship-net without a run directory" ship-net.sh "'nowhere'" "$s" nowhere t1 --out out --commit abc
mkrun nomeas && rm nomeas/round-1/measure.er.json
refused "ship-net: the winner's measure.er.json is missing" ship-net.sh "nomeas/round-1/measure.er.json is missing" "$s" nomeas t3 --out out --commit abc
that "ship-net refusal wrote nothing" 'empty_out'
mkdir onlyreport && touch onlyreport/report.md
refused "ship-net: a run directory with only report.md" ship-net.sh "onlyreport has no final duels" "$s" onlyreport t4 --out out --commit abc
that "ship-net refusal wrote nothing (2)" 'empty_out'
mkrun nowd && rm nowd/round-1/race/net.weights
refused "ship-net: the winner's net.weights is missing" ship-net.sh "nowd/round-1/race/net.weights is missing" "$s" nowd t4 --out out --commit abc
mkrun badjson && echo '{"ppg":' >badjson/final-1-gnubg.json
refused "ship-net: a damaged duel result" ship-net.sh "badjson/final-1-gnubg.json" "$s" badjson t4 --out out --commit abc
mkrun teacher && echo gnubg >teacher/rollout-weights
refused "ship-net: a run labelled by gnubg's weights" ship-net.sh "teacher was labelled by gnubg" "$s" teacher t4 --out out --commit abc
that "ship-net refusals wrote nothing (3)" 'empty_out'
mkrun good
if command -v flock >/dev/null; then
  # The lock overnight.sh holds on its directory (scripts/run-lock.sh), taken here.
  exec {lockfd}<good
  flock -n "$lockfd" || flunk "cannot take the test's lock on good/"
  refused "ship-net: a run directory in use (locked)" ship-net.sh "good is in use" "$s" good t5 --out out --commit abc
  exec {lockfd}<&-
  that "ship-net lock refusal wrote nothing" 'empty_out'
fi
mkdir -p "$t/nopy" && ln -s "$(command -v dirname)" "$t/nopy/dirname"
refused "ship-net without python3" ship-net.sh "python3" env PATH="$t/nopy" "$BASH" "$s" good t5 --out out --commit abc
# Outside a git checkout: a copy of scripts/ (the default output is the copy's nets/).
mkdir -p "$t/nogit" && cp -r "$scripts" "$t/nogit/"
refused "ship-net outside a git checkout, no --commit" ship-net.sh "--commit" "$t/nogit/scripts/ship-net.sh" good t6
that "that refusal wrote nothing" '[ ! -e "$t/nogit/nets" ] || [ -z "$(ls -A "$t/nogit/nets")" ]'
check "ship-net outside a git checkout with --commit" 0 "$t/nogit/scripts/ship-net.sh" good t6 --commit abc
that "...ships into the copy's nets/" '[ -s "$t/nogit/nets/t6.wd" ] && [ -s "$t/nogit/nets/t6.weights" ] && [ -s "$t/nogit/nets/t6.json" ]'
check "ship-net a good run" 0 "$s" good t1 --out out --commit abc
that "ship-net wrote the winner's three files, nothing else" '[ "$(ls -A out | tr "\n" " ")" = "t1.json t1.wd t1.weights " ] && cmp -s out/t1.wd good/round-1/race/net.wd && cmp -s out/t1.weights good/round-1/race/net.weights'
sidecar_ok() {
  python3 -c '
import hashlib, json, sys
j = json.load(open("out/t1.json"))
assert j["from"].startswith("scripts/overnight.sh --quick --rounds 1 --labels search --dir good "), j["from"]
assert j["bgkit_commit"] == "abc" and j["net"] == "round 1"
assert j["files"]["wd_sha256"] == hashlib.sha256(open("out/t1.wd", "rb").read()).hexdigest()
assert j["final_duels"]["vs_gnubg_0ply"]["ppg"] == 0.01 and j["benchmark_er"]["all"]["er_mp"] == 4.0'
}
that "the sidecar records the command (--quick, --rounds), the commit and the .wd's sha256" sidecar_ok
that "ship-net prints the table row" 'grep -qF "| \`t1\` | round 1 |" "$t/out"'
echo "mine" >out/t2.json
refused "ship-net: NAME.json exists, no --force" ship-net.sh "out/t2.json exists" "$s" good t2 --out out --commit abc
that "that refusal kept it and wrote nothing" '[ "$(cat out/t2.json)" = mine ] && [ "$(ls -A out | grep -c "^t2")" = 1 ] && [ -z "$(ls -A out | grep "\.tmp$")" ]'
check "ship-net --force replaces it" 0 "$s" good t2 --out out --commit abc --force
that "...with the sidecar, and no temporary file is left" 'has out/t2.json "\"name\": \"t2\"" && [ -z "$(ls -A out | grep -E "\.(tmp|old)$")" ]'
echo "old wd" >out/t3.wd && mkdir out/t3.weights
refused "ship-net onto a directory" ship-net.sh "out/t3.weights is a directory" "$s" good t3 --out out --commit abc
refused "ship-net --force onto a directory" ship-net.sh "out/t3.weights is a directory" "$s" good t3 --out out --commit abc --force
that "...replaced nothing and left no temporary file" '[ "$(cat out/t3.wd)" = "old wd" ] && [ -d out/t3.weights ] && [ ! -e out/t3.json ] && [ -z "$(ls -A out | grep -E "\.(tmp|old)$")" ]'
# A --force that fails at its last file (an immutable NAME.json: root and chattr, as in
# CI) puts back the two it had replaced.
if echo "old json" >out/t4.json && chattr +i out/t4.json 2>/dev/null; then
  echo "old wd" >out/t4.wd && echo "old weights" >out/t4.weights
  refused "ship-net --force failing at NAME.json" ship-net.sh "cannot write into out" "$s" good t4 --out out --commit abc --force
  chattr -i out/t4.json
  that "...put back the files it had replaced, left no temporary file" '[ "$(cat out/t4.wd)" = "old wd" ] && [ "$(cat out/t4.weights)" = "old weights" ] && [ "$(cat out/t4.json)" = "old json" ] && [ -z "$(ls -A out | grep -E "\.(tmp|old)$")" ]'
else
  echo "skip  ship-net --force failing half-way (chattr +i is not available here)"
fi

# --- guard.sh ----------------------------------------------------------------------------
echo "== guard.sh"
g=$scripts/guard.sh
fake=$t/fakebin
mkdir -p "$fake" && cd "$t" || exit 2
# Stub tools: each writes a small output where the real one would (the argument after -o
# or --out); `trainer duel` exits STUB_DUEL_RC (0: a JSON line), `datasets` writes no
# file with STUB_ROLLOUT=none.
cat >"$fake/stub" <<'EOF'
#!/usr/bin/env bash
tool=${0##*/}
out=""
prev=""
for a in "$@"; do
  case "$prev" in -o|--out) out=$a ;; esac
  prev=$a
done
case "$tool $1" in
  "evaluator bench") echo '{"signature":"stub-signature"}' ;;
  "datasets rollout") [ "${STUB_ROLLOUT:-}" = none ] || echo "rollout $*" >"$out" ;;
  "gen-bearoff "*) echo "db $*" >"$out" ;;
  "trainer td") mkdir -p "$out" && echo "net $*" >"$out/net.wd" ;;
  "trainer duel")
    [ "${STUB_DUEL_RC:-0}" = 0 ] || { echo "trainer: stub duel failure" >&2; exit "$STUB_DUEL_RC"; }
    echo '{"ppg":0.1}' ;;
  *) echo "$tool: stub does not know '$1'" >&2; exit 2 ;;
esac
EOF
chmod +x "$fake/stub"
for tool in evaluator datasets gen-bearoff trainer; do ln -s stub "$fake/$tool"; done
echo "weights" >"$t/gnubg.wd"
check "guard --help" 0 "$g" --help
that "guard --help prints the usage" 'has "$t/out" "guard.sh \[BIN\]"'
refused "guard unknown argument" guard.sh "'--bogus'" "$g" --bogus
refused "guard two BINs" guard.sh "one BIN at most" "$g" "$fake" "$fake"
refused "guard BIN that is not a directory" guard.sh "$t/nowhere is not a directory" "$g" "$t/nowhere"
refused "guard BIN without the tools" guard.sh "has no evaluator" "$g" "$t/sn"
check "guard, every tool succeeds" 0 env GNUBG_WEIGHTS="$t/gnubg.wd" "$g" "$fake"
that "...prints every guarded line, the duel's last" 'tail -n 1 "$t/out" | grep -q "^duel gnubg vs pubeval 400 games seed 3: [0-9a-f]\{8\}$" && [ "$(grep -c "^rollout " "$t/out")" = 6 ]'
cp "$t/out" "$t/guard-ok.txt"
check "guard from another directory, BGKIT_BIN relative" 0 env -C "$t/sn" GNUBG_WEIGHTS="$t/gnubg.wd" BGKIT_BIN=../fakebin "$g"
that "...the same lines" 'cmp -s "$t/out" "$t/guard-ok.txt"'
check "guard, trainer duel fails" 2 env GNUBG_WEIGHTS="$t/gnubg.wd" STUB_DUEL_RC=2 "$g" "$fake"
that "...names the duel and prints no duel line" 'has "$t/err" "guard.sh: duel gnubg vs pubeval failed (exit 2)" && ! grep -q "^duel" "$t/out"'
check "guard, a rollout writes no file" 2 env GNUBG_WEIGHTS="$t/gnubg.wd" STUB_ROLLOUT=none "$g" "$fake"
that "...names the missing output" 'has "$t/err" "guard.sh: r1.csv is missing or empty"'
refused "guard without gnubg's weights" guard.sh "$t/none.wd" env GNUBG_WEIGHTS="$t/none.wd" "$g" "$fake"

# --- install-shell-docs.sh --------------------------------------------------------------
echo "== install-shell-docs.sh"
i=$scripts/install-shell-docs.sh
mkdir -p "$t/isd" && cd "$t/isd" || exit 2
check "install-shell-docs --help" 0 "$i" --help
that "...prints the usage and creates nothing" 'has "$t/out" "PREFIX" && [ -z "$(ls -A)" ]'
check "install-shell-docs -h" 0 "$i" -h
refused "install-shell-docs unknown argument" install-shell-docs.sh "'--bogus'" "$i" --bogus
refused "install-shell-docs two PREFIXes" install-shell-docs.sh "one PREFIX at most" "$i" p extra
that "refusals created nothing" '[ -z "$(ls -A)" ]'
mkdir -p p/share/bash-completion/completions && echo "my own" >p/share/bash-completion/completions/trainer
refused "install-shell-docs over the user's completion file, no --force" install-shell-docs.sh "completions/trainer exists" "$i" "$t/isd/p"
that "...kept it and wrote no file" '[ "$(cat p/share/bash-completion/completions/trainer)" = "my own" ] && [ "$(find p -type f | wc -l)" = 1 ] && [ -z "$(find p -name ".install-shell-docs*")" ]'
check "install-shell-docs --force" 0 "$i" "$t/isd/p" --force
that "...replaced it, installed completions and man pages" 'has p/share/bash-completion/completions/trainer "trainer" && [ -s p/share/zsh/site-functions/_evaluator ] && [ -s p/share/fish/vendor_completions.d/datasets.fish ] && [ -s p/share/man/man1/trainer-td.1 ] && [ -z "$(find p -name ".install-shell-docs*")" ]'
mkdir -p p2/share/man/man1/trainer-td.1
refused "install-shell-docs --force onto a folder at a man page's name" install-shell-docs.sh "man1/trainer-td.1 is a directory" "$i" "$t/isd/p2" --force
that "...wrote nothing" '[ -z "$(find p2 -type f)" ] && [ -z "$(find p2 -name ".install-shell-docs*")" ]'
check "install-shell-docs rerun" 0 "$i" "$t/isd/p"
that "...writes nothing new" 'has "$t/out" "^0 files written"'
check "install-shell-docs, default PREFIX under HOME" 0 env HOME="$t/isd/home" XDG_CONFIG_HOME= "$i"
that "...into ~/.local and ~/.config/fish" '[ -s home/.local/share/man/man1/evaluator.1 ] && [ -s home/.config/fish/completions/trainer.fish ]'

# --- slurm/lib.sh merge_task (without Slurm) -------------------------------------------
echo "== slurm/lib.sh merge_task"
w=$t/merge
mkdir -p "$w" && cd "$w" || exit 2
printf 'job=sample\ntasks=2\n' >sample.job
for k in 1 2; do
  "$bin/datasets" sample --games 6 --seed 4 --shard "$k/2" -o "sample-$k.csv" --quiet
  printf 'job=sample\ntasks=2\nshard=%s/2\n' "$k" >"sample-$k.csv.job"
done
"$bin/datasets" sample --games 6 --seed 4 -o one.csv --quiet
# merge_task as merge.sbatch runs it: FORCE (optional) and the rest in the environment.
# shellcheck source-path=SCRIPTDIR source=slurm/lib.sh
merge() { (export WORK=$w TASKS=2 FORCE=${FORCE:-0} && . "$scripts/slurm/lib.sh" && merge_task sample csv "$w/out.csv"); }
check "merge_task merges the parts" 0 merge
that "...into what one process writes, and records its end" 'cmp -s out.csv one.csv && [ -s sample.merged ] && [ -s sample.merged.started ]'
rm sample.merged
check "merge_task rerun after a merge stopped before recording its end" 0 merge
that "...keeps the output, records its end and leaves no file of its check" 'cmp -s out.csv one.csv && [ -s sample.merged ] && [ -z "$(ls | grep "\.check")" ] && has "$t/err" "written already"'
rm sample.merged && echo "mine" >out.csv
check "merge_task rerun, a file of the user's in place of the output" 2 merge
that "...is left as it is and named" '[ "$(cat out.csv)" = mine ] && [ ! -e sample.merged ] && [ -z "$(ls | grep "\.check")" ] && has "$t/err" "out.csv exists and is not this job.s merge"'
FORCE=1 check "merge_task with FORCE=1 replaces it" 0 merge
that "...with the merge" 'cmp -s out.csv one.csv && [ -s sample.merged ]'

# --- every executable script: --help, and what it refuses before doing anything -------
echo "== --help of every script (scripts/help.sh)"
h=$t/help
mkdir -p "$h" && cd "$h" || exit 2
for f in "$scripts"/*.sh "$scripts"/slurm/*.sh "$root"/benches/*.sh; do
  [ -x "$f" ] || continue # sourced by the others, not run
  name=${f#"$root"/}
  first=$(awk 'NR > 1 && /^# shellcheck/ { next } NR > 1 { sub(/^# ?/, ""); print; exit }' "$f")
  # The tests and benchmarks below would run for minutes: a --help that did not stop
  # them is cut off after 20 s and fails.
  check "$name --help" 0 timeout 20 "$f" --help
  that "...prints its header and writes nothing here" '[ "$(head -1 "$t/out")" = "$first" ] && [ ! -s "$t/err" ] && [ -z "$(ls -A)" ]'
done
refused "test-overnight.sh with an unknown argument" test-overnight.sh "'--bogus'" "$scripts/test-overnight.sh" --bogus
refused "slurm/test-local.sh with an argument after --keep" test-local.sh "'extra'" "$scripts/slurm/test-local.sh" --keep extra
refused "fuzz.sh with a SCALE that is not a count" fuzz.sh "SCALE must be a positive whole number, got 'x'" "$scripts/fuzz.sh" x
refused "final-fit.sh with too few arguments" final-fit.sh "got 2 arguments" "$scripts/final-fit.sh" a b
refused "round-supervise.sh with too few arguments" round-supervise.sh "got 1 arguments" "$scripts/round-supervise.sh" x
refused "benches/rollout-vs-gnubg.sh with 0 trials" rollout-vs-gnubg.sh "trials must be a positive whole number, got '0'" "$root/benches/rollout-vs-gnubg.sh" 5 0
that "...and none of them wrote anything here" '[ -z "$(ls -A)" ]'

echo "test-scripts.sh: $passed passed, $failed failed ($((SECONDS - t0)) s)"
[ "$failed" = 0 ]
