#!/usr/bin/env bash
# Rollout speed side by side with gnubg's own `rollout` command: the same positions,
# 0-ply cubeless chequer play, full games (exact two-sided bearoff values, no other
# truncation), quasi-random dice, one thread each, in the same run. Measured in CPU
# seconds of each process minus its start-up (a run with no rollouts), so that other
# load on the machine does not count. Prints trials per second with and without
# variance reduction, and both programs' results for a sanity check.
# The two programs take turns, [reps] rounds of each (the order flips every round), and
# the ratio printed is the median of the rounds' ratios with their range: on a shared
# machine a program's speed drifts by 10-25 % between minutes, which one round each
# would put into the ratio.
#
# Usage: benches/rollout-vs-gnubg.sh [positions] [trials] [vr-trials] [reps]
#   defaults: 5 positions (the opening and contact positions of a seeded self-play
#   game), 1296 trials without variance reduction, 72 trials with it, 3 rounds.
#   BGKIT_ARGS: more arguments for `datasets rollout`, e.g. the training setup of
#   issue 17, own nets with pruned move choices:
#   BGKIT_ARGS="--weights nets/zero-2h30.wd --prune-moves" (gnubg keeps its nets).
# Needs gnubg 1.07 (/usr/games/gnubg), its weights and bearoff databases, python3 and
# `script` (util-linux / bsdutils: gnubg prints rollout results only on a terminal).
set -euo pipefail
# shellcheck source=../scripts/help.sh
. "$(dirname "$0")/../scripts/help.sh" "$@"
positions=${1:-5}
trials=${2:-1296}
vr_trials=${3:-72}
reps=${4:-3}
whole_number rollout-vs-gnubg.sh positions "$positions"
whole_number rollout-vs-gnubg.sh trials "$trials"
whole_number rollout-vs-gnubg.sh vr-trials "$vr_trials"
whole_number rollout-vs-gnubg.sh reps "$reps"
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "rollout-vs-gnubg.sh: '$reps' is not a positive count of rounds" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
cargo build --release -q -p datasets --manifest-path "$root/Cargo.toml"
ours="$target/release/datasets"
gnubg=/usr/games/gnubg
command -v "$gnubg" >/dev/null || { echo "gnubg is not installed" >&2; exit 2; }
command -v script >/dev/null || { echo "script (bsdutils) is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ours" sample --games 1 --seed 1 --classes contact --epsilon 0 --threads 1 --quiet -o "$tmp/all.csv"
head -n $((positions + 1)) "$tmp/all.csv" > "$tmp/positions.csv"

python3 - "$ours" "$gnubg" "$tmp" "$trials" "$vr_trials" "${BGKIT_ARGS:-}" "$reps" <<'PY'
import csv, os, re, resource, shlex, statistics, subprocess, sys

ours, gnubg, tmp, trials, vr_trials = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
ids = [r["position_id"] for r in csv.DictReader(open(f"{tmp}/positions.csv"))]

def cpu(cmd, **kw):
    """Runs cmd; returns (CPU seconds of it and its children, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, errors="replace", **kw).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out

def gnubg_run(n, varredn, ids):
    lines = [
        "set threads 1", "set output output on", "set display off",
        "set player 0 human", "set player 1 human",
        f"set rollout trials {n}", "set rollout cubeful off",
        "set rollout chequerplay plies 0", "set rollout chequerplay cubeful off",
        "set rollout later chequerplay plies 0", "set rollout later chequerplay cubeful off",
        f"set rollout varredn {'on' if varredn else 'off'}", "set rollout quasirandom on",
        "set rollout truncation enable off",
        "set rollout bearofftruncation exact on", "set rollout bearofftruncation onesided off",
        "new game",
    ]
    for i in ids:
        lines += [f"set board {i}", "rollout"]
    path = f"{tmp}/gnubg.txt"
    open(path, "w").write("\n".join(lines) + "\nquit\ny\n")
    secs, out = cpu(["script", "-qec", f"{gnubg} -t -q -r < {path}", "/dev/null"])
    out = out.replace("\r", "\n")
    results = []
    for block in out.split("Rollout done. Printing final results.")[1:]:
        m = re.search(r"^\s*([\d.]+) ([\d.]+) ([\d.]+) - ([\d.]+) ([\d.]+) ([\d.]+) CL.*\n\s*\[([\d.]+)", block, re.M)
        results.append((float(m.group(1)), float(m.group(7))) if m else None)
    return secs, results

def ours_run(n, varredn, ids):
    path = f"{tmp}/in.csv"
    open(path, "w").write("position_id\n" + "".join(i + "\n" for i in ids))
    cmd = [ours, "rollout", "--input", path, "-o", f"{tmp}/out.csv", "--trials", str(n),
           "--threads", "1", "--quiet", "--fresh", "--force"]
    if not varredn:
        cmd.append("--no-variance-reduction")
    secs, _ = cpu(cmd + shlex.split(sys.argv[6]))
    rows = list(csv.DictReader(open(f"{tmp}/out.csv")))
    return secs, [(float(r["win"]), float(r["win_se"])) for r in rows]

g0, _ = gnubg_run(trials, False, [])
o0, _ = ours_run(trials, False, [])
print(f"start-up CPU: gnubg {g0:.2f}s, bgkit {o0:.2f}s (subtracted)")
reps = int(sys.argv[7])
for varredn, n in ((False, trials), (True, vr_trials)):
    label = "with variance reduction" if varredn else "without variance reduction"
    total = len(ids) * n
    print(f"\n{len(ids)} positions x {n} trials, {label}, {reps} rounds")
    ratios = []
    for r in range(reps):
        # Alternate which program runs first, so that a drift favours neither.
        if r % 2 == 0:
            gs, gr = gnubg_run(n, varredn, ids)
            os_, orr = ours_run(n, varredn, ids)
        else:
            os_, orr = ours_run(n, varredn, ids)
            gs, gr = gnubg_run(n, varredn, ids)
        gs, os_ = max(gs - g0, 1e-9), max(os_ - o0, 1e-9)
        ratios.append(gs / os_)
        print(f"round {r + 1}: gnubg {total / gs:8.1f} trials/s ({gs:.2f} CPU s), "
              f"bgkit {total / os_:8.1f} trials/s ({os_:.2f} CPU s), {gs / os_:.2f}x")
    # The last round's results, as a sanity check: bgkit's are the same in every round
    # (a fixed seed), gnubg's may move by their standard errors from round to round.
    print(f"{'position':16} {'gnubg win':>16} {'bgkit win':>16}")
    for i, a, b in zip(ids, gr, orr):
        fa = f"{a[0]:.3f}+-{a[1]:.3f}" if a else "?"
        print(f"{i:16} {fa:>16} {b[0]:.3f}+-{b[1]:.3f}")
    spread = f" (rounds {min(ratios):.2f}-{max(ratios):.2f}x)" if reps > 1 else ""
    print(f"ratio: {statistics.median(ratios):.2f}x per thread, median of {reps}{spread}")
PY
