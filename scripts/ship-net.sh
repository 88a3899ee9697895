#!/usr/bin/env bash
# Ships the best net of a finished overnight run into nets/: NAME.wd (gnubg's binary
# weights), NAME.weights (gnubg's text weights) and NAME.json (what made it and what it
# measured), and prints its row for nets/README.md.
#
#   scripts/ship-net.sh RUN_DIR NAME [--force] [--commit REV]
#
# --commit: the bgkit commit the run's binaries were built from (`evaluator bench
# --json` names it); default this checkout's HEAD.
#
# The best net is the one with the highest final ppg against gnubg's 0-ply nets (against
# pubeval when the run had no gnubg; the later net of equals), among the TD net, the
# rounds' and the final fit's; its files are the run's own, copied unchanged.
set -euo pipefail

die() { echo "ship-net.sh: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: scripts/ship-net.sh RUN_DIR NAME [--force] [--commit REV]"
run=$(cd "$1" 2>/dev/null && pwd) || die "no run directory '$1'"
name=$2
shift 2
force=""
commit=""
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=--force ;;
    --commit) [ $# -ge 2 ] || die "--commit needs a value"; commit=$2; shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
[[ "$name" =~ ^[a-z0-9][a-z0-9.-]*$ ]] || die "NAME '$name': lower-case letters, digits, dots and dashes"
[ -f "$run/report.md" ] || die "$run has no report.md (the run has not finished)"
root=$(cd "$(dirname "$0")/.." && pwd)
nets="$root/nets"
mkdir -p "$nets"
for ext in wd weights json; do
  [ ! -e "$nets/$name.$ext" ] || [ "$force" = --force ] || die "$nets/$name.$ext exists (--force replaces it)"
done
[ -n "$commit" ] || commit=$(git -C "$root" rev-parse --short HEAD)
python3 - "$run" "$nets" "$name" "$commit" <<'PY'
import hashlib, json, os, shutil, sys
run, nets, name, commit = sys.argv[1:]
# A net taught by gnubg's weights is not from zero.
if os.path.exists(os.path.join(run, "rollout-weights")) and open(os.path.join(run, "rollout-weights")).read().strip() != "current":
    print("ship-net.sh: %s was labelled by gnubg's weights (--rollout-weights gnubg): not a net from zero" % run, file=sys.stderr)
    sys.exit(2)
def load(p):
    with open(os.path.join(run, p)) as f:
        return json.load(f)
def duel(p):
    path = os.path.join(run, p)
    if not os.path.exists(path):
        return None
    r = load(p)
    return {"ppg": r["ppg"], "se": r["se"], "games": r["games"], "seed": r["seed"]}
def er(p):
    with open(os.path.join(run, p)) as f:
        rep = json.loads(f.readline())
    return {c["class"]: {"er_mp": c["er"], "se": c["se"], "positions": c.get("positions")} for c in rep["classes"]}
# The nets with final duels: the TD net (0) and rounds (overnight.sh plays the final
# duels of every round, or of the best and the last after more than 4 rounds).
rounds = 0
while os.path.exists(os.path.join(run, "round-%d/race/net.wd" % (rounds + 1))):
    rounds += 1
# And the final fit's net (DIR/fit), when the run has one.
cands = [("final-0", "td", "td/net", "td/measure")]
cands += [("final-%d" % r, "round %d" % r, "round-%d/race/net" % r, "round-%d/measure" % r) for r in range(1, rounds + 1)]
cands += [("final-fit", "final fit", "fit/net", "fit/measure")]
cands = [c for c in cands if os.path.exists(os.path.join(run, c[0] + "-pubeval.json"))]
scored = []
for k, (final, label, net, meas) in enumerate(cands):
    g, p = duel(final + "-gnubg.json"), duel(final + "-pubeval.json")
    key = (g or p)["ppg"]
    scored.append((key, k, label, net, meas, g, p))
key, k, label, net, meas, g, p = max(scored)
for ext in ("wd", "weights"):
    src = os.path.join(run, net + "." + ext)
    tmp = os.path.join(nets, ".%s.%s.tmp" % (name, ext))
    shutil.copyfile(src, tmp)
    os.replace(tmp, os.path.join(nets, "%s.%s" % (name, ext)))
wd = open(os.path.join(nets, name + ".wd"), "rb").read()
clock = int(open(os.path.join(run, "clock")).read()) if os.path.exists(os.path.join(run, "clock")) else None
hours = open(os.path.join(run, "hours")).read().strip() if os.path.exists(os.path.join(run, "hours")) else None
# Runs from before --labels rolled out.
labels = open(os.path.join(run, "labels")).read().strip() if os.path.exists(os.path.join(run, "labels")) else "rollout"
steps = {f[:-5]: int(open(os.path.join(run, "steps", f)).read()) for f in os.listdir(os.path.join(run, "steps"))}
side = {
    "name": name,
    "net": label,
    "from": "scripts/overnight.sh%s --labels %s --dir %s (no gnubg weights or gnubg-derived labels in training: "
            "TD self-play from random weights, then rounds labelled by the nets' own %s; gnubg only as an opponent "
            "and the benchmark's reference)" % ((" --hours " + hours) if hours else "", labels, os.path.basename(run),
                                                 "1-ply search" if labels == "search" else "rollouts"),
    "bgkit_commit": commit,
    "seeds": "overnight.sh's fixed seeds (TD 1, sampling 100+r, rollouts 200+r (search labels need none), benchmark 9001/9002, final duels 11)",
    "budget_hours": float(hours) if hours else None,
    "wall_seconds": clock,
    "step_seconds": steps,
    "rounds": rounds,
    "final_duels": {"vs_pubeval": p, "vs_gnubg_0ply": g},
    "benchmark_er": er(meas + ".er.json"),
    "files": {"wd_sha256": hashlib.sha256(wd).hexdigest()},
}
tmp = os.path.join(nets, ".%s.json.tmp" % name)
with open(tmp, "w") as f:
    json.dump(side, f, indent=2)
    f.write("\n")
os.replace(tmp, os.path.join(nets, name + ".json"))
fmt = lambda d: "%+.3f ± %.3f" % (d["ppg"], d["se"]) if d else "–"
era = side["benchmark_er"].get("all")
print("| `%s` | %s | %s | %s | %s | %s |" % (
    name, label, "%.0f min (budget %s h)" % (clock / 60, hours) if clock else "–", fmt(p), fmt(g),
    "%.2f ± %.2f" % (era["er_mp"], era["se"]) if era else "–"))
PY
