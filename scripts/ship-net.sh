#!/usr/bin/env bash
# Ships the best net of a finished overnight run into nets/: NAME.wd (gnubg's binary
# weights), NAME.weights (gnubg's text weights) and NAME.json (what made it and what it
# measured), and prints its row for nets/README.md.
#
#   scripts/ship-net.sh RUN_DIR NAME [--force] [--commit REV] [--out DIR]
#
# --commit REV: the bgkit commit the run's binaries were built from (`evaluator bench
# --json` names it); default this checkout's HEAD (outside a git checkout, --commit
# is needed).
# --out DIR: where the three files go (default: the checkout's nets/).
# --force: replace NAME's files already there (without it they are refused).
#
# The best net is the one with the highest final ppg against gnubg's 0-ply nets (against
# pubeval when the run had no gnubg; the later net of equals), among the TD net, the
# rounds' and the final fit's; its files are the run's own, copied unchanged. The run
# directory is checked whole (report, final duels, the net's files and measurements,
# steps) before anything is written; the three files are written under temporary names
# and renamed into place together, so a refusal leaves nothing behind, and a --force that
# fails half-way puts back the files it replaced. A run directory that a run of
# scripts/overnight.sh (or a Slurm submission) is using is refused.
set -euo pipefail
me=ship-net.sh
die() { echo "$me: $*" >&2; exit 2; }
# shellcheck source=help.sh
. "$(dirname "$0")/help.sh" "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
force=0
commit=""
outdir=""
pos=()
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1 ;;
    --commit) [ $# -ge 2 ] || die "--commit needs a value"; commit=$2; shift ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; outdir=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; pos+=("$@"); break ;;
    -?*) die "unknown argument '$1' (see --help)" ;;
    *) pos+=("$1") ;;
  esac
  shift
done
[ ${#pos[@]} -eq 2 ] || die "give RUN_DIR and NAME (got ${#pos[@]} arguments; see --help)"
name=${pos[1]}
[[ "$name" =~ ^[a-z0-9][a-z0-9.-]*$ ]] || die "NAME '$name': lower-case letters, digits, dots and dashes"
[ -d "${pos[0]}" ] || die "no run directory '${pos[0]}'"
run=$(cd "${pos[0]}" && pwd)
[ -f "$run/report.md" ] || die "$run has no report.md (the run has not finished)"
command -v python3 >/dev/null || die "python3 is needed and not on PATH"
if [ -z "$outdir" ]; then
  outdir="$root/nets"
else
  [ ! -e "$outdir" ] || [ -d "$outdir" ] || die "--out $outdir is not a directory"
fi
for ext in wd weights json; do
  [ -L "$outdir/$name.$ext" ] || [ ! -d "$outdir/$name.$ext" ] ||
    die "$outdir/$name.$ext is a directory, not a file this script writes (give another NAME or --out)"
done
if [ "$force" = 0 ]; then
  for ext in wd weights json; do
    [ ! -e "$outdir/$name.$ext" ] && [ ! -L "$outdir/$name.$ext" ] || die "$outdir/$name.$ext exists (--force replaces it)"
  done
fi
if [ -z "$commit" ]; then
  if ! command -v git >/dev/null || ! commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null); then
    die "cannot tell the bgkit commit ($root is not a git checkout, or git is missing): give --commit REV"
  fi
fi
[[ "$commit" =~ ^[0-9A-Za-z._/-]+$ ]] || die "--commit '$commit': not a revision"
# Not while a run is using the directory (the lock of overnight.sh; held until we end).
# shellcheck source-path=SCRIPTDIR source=run-lock.sh
. "$root/scripts/run-lock.sh"
lock_rc=0
run_lock 9 "$run" "$me" -n || lock_rc=$?
if [ "$lock_rc" = 75 ]; then
  holders=$(run_holders "$run")
  die "$run is in use by a run of overnight.sh or a submission${holders:+ (held by $holders)}; ship its net when it has finished"
fi
jobs_left=$(run_jobs "$run" "$me")
[ -z "$jobs_left" ] || die "$run is in use by Slurm jobs of submit.sh overnight still in the queue ($jobs_left)"

python3 - "$run" "$outdir" "$name" "$commit" "$force" <<'PY'
import hashlib, json, os, re, shutil, sys, tempfile
run, out, name, commit, force = sys.argv[1:]
force = force == "1"

def fail(msg):
    print("ship-net.sh: " + msg, file=sys.stderr)
    sys.exit(2)

def path(p):
    return os.path.join(run, p)

def text(p):
    try:
        with open(path(p)) as f:
            return f.read()
    except OSError as e:
        fail("%s: cannot read it (%s)" % (path(p), e.strerror or e))

def load(p, line=False):
    t = text(p)
    try:
        return json.loads(t.splitlines()[0] if line else t)
    except (ValueError, IndexError) as e:
        fail("%s: not the JSON a run writes (%s)" % (path(p), e))

def need(p, what):
    if not os.path.isfile(path(p)):
        fail("%s is missing (%s); the run is not complete" % (path(p), what))

def number(p, kind):
    t = text(p).strip()
    try:
        return kind(t)
    except ValueError:
        fail("%s: not a number ('%s')" % (path(p), t[:40]))

try:
    # A net taught by gnubg's weights is not from zero.
    if os.path.exists(path("rollout-weights")) and text("rollout-weights").strip() != "current":
        fail("%s was labelled by gnubg's weights (--rollout-weights gnubg): not a net from zero" % run)

    def duel(p):
        if not os.path.exists(path(p)):
            return None
        r = load(p)
        try:
            d = {"ppg": float(r["ppg"]), "se": float(r["se"]), "games": r["games"], "seed": r["seed"]}
        except (KeyError, TypeError, ValueError) as e:
            fail("%s: not a duel's result (no %s)" % (path(p), e))
        return d

    def er(p):
        rep = load(p, line=True)
        try:
            return {c["class"]: {"er_mp": c["er"], "se": c["se"], "positions": c.get("positions")} for c in rep["classes"]}
        except (KeyError, TypeError) as e:
            fail("%s: not a benchmark report (no %s)" % (path(p), e))

    # The nets with final duels: the TD net (0) and rounds (overnight.sh plays the final
    # duels of every round, or of the best and the last after more than 4 rounds).
    rounds = 0
    while os.path.exists(path("round-%d/race/net.wd" % (rounds + 1))):
        rounds += 1
    # And the final fit's net (DIR/fit), when the run has one.
    cands = [("final-0", "td", "td/net", "td/measure")]
    cands += [("final-%d" % r, "round %d" % r, "round-%d/race/net" % r, "round-%d/measure" % r) for r in range(1, rounds + 1)]
    cands += [("final-fit", "final fit", "fit/net", "fit/measure")]
    cands = [c for c in cands if os.path.exists(path(c[0] + "-pubeval.json"))]
    if not cands:
        fail("%s has no final duels (final-*-pubeval.json): the run did not reach them" % run)
    scored = []
    for k, (final, label, net, meas) in enumerate(cands):
        g, p = duel(final + "-gnubg.json"), duel(final + "-pubeval.json")
        scored.append(((g or p)["ppg"], k, label, net, meas, g, p))
    key, k, label, net, meas, g, p = max(scored)
    for ext in ("wd", "weights"):
        need(net + "." + ext, "the best net, %s" % label)
    need(meas + ".er.json", "the benchmark of the best net, %s" % label)
    benchmark = er(meas + ".er.json")
    clock = number("clock", int) if os.path.exists(path("clock")) else None
    hours = text("hours").strip() if os.path.exists(path("hours")) else None
    if hours is not None:
        number("hours", float)
    # Runs from before --labels rolled out.
    labels = text("labels").strip() if os.path.exists(path("labels")) else "rollout"
    if not os.path.isdir(path("steps")):
        fail("%s is missing (the steps' seconds); the run is not complete" % path("steps"))
    steps = {f[:-5]: number(os.path.join("steps", f), int) for f in sorted(os.listdir(path("steps"))) if f.endswith(".done")}

    # The command: every invocation logs "overnight.sh [--quick] in DIR: ..., rounds N|while
    # the time lasts, ..." in DIR/overnight.log (a Slurm run: its report job's).
    invocations = []
    if os.path.exists(path("overnight.log")):
        for line in text("overnight.log").splitlines():
            m = re.match(r"^\S+ overnight\.sh( --quick)? +in .*: TD for \S+ minutes at most, rounds (while the time lasts|\d+), ", line)
            if m:
                inv = (bool(m.group(1)), m.group(2) if m.group(2).isdigit() else None)
                if inv not in invocations:
                    invocations.append(inv)
    if not invocations:  # a run from before the log named them: its report says --quick
        invocations = [("(--quick)" in text("report.md").splitlines()[0] if text("report.md") else False, "?")]
    tool = "scripts/slurm/submit.sh overnight" if os.path.exists(path("slurm/jobs")) else "scripts/overnight.sh"
    def command(quick, rounds_arg):
        c = tool + (" --quick" if quick else "")
        c += (" --hours " + hours) if hours else ""
        c += {None: "", "?": " (--rounds not recorded)"}.get(rounds_arg, " --rounds " + str(rounds_arg))
        return c + " --labels %s --dir %s" % (labels, os.path.basename(run))
    made = command(*invocations[0])
    if len(invocations) > 1:
        made += ", resumed as " + "; ".join(command(*i) for i in invocations[1:])

    # Everything is known: stage the three files, then put them in place.
    src = {ext: path(net + "." + ext) for ext in ("wd", "weights")}
    side = {
        "name": name,
        "net": label,
        "from": "%s (no gnubg weights or gnubg-derived labels in training: "
                "TD self-play from random weights, then rounds labelled by the nets' own %s; gnubg only as an opponent "
                "and the benchmark's reference)" % (made, "1-ply search" if labels == "search" else "rollouts"),
        "bgkit_commit": commit,
        "seeds": "overnight.sh's fixed seeds (TD 1, sampling 100+r, rollouts 200+r (search labels need none), benchmark 9001/9002, final duels 11)",
        "budget_hours": float(hours) if hours else None,
        "wall_seconds": clock,
        "step_seconds": steps,
        "rounds": rounds,
        "final_duels": {"vs_pubeval": p, "vs_gnubg_0ply": g},
        "benchmark_er": benchmark,
        "files": {},  # the sha256 of the .wd as copied, below
    }
except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
    fail("%s: cannot read the run (%s)" % (run, e))

try:
    os.makedirs(out, exist_ok=True)
except OSError as e:
    fail("cannot create %s (%s)" % (out, e.strerror or e))
def link(src, dst):
    """dst is a new name of src (never replacing a dst that exists); a copy where the
    filesystem has no hard links (removed again if the copy fails)."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:
        if os.path.islink(src) or not os.path.isfile(src):
            raise
        fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            with os.fdopen(fd, "wb") as f, open(src, "rb") as s:
                shutil.copyfileobj(s, f)
                f.flush()
                os.fsync(f.fileno())
        except BaseException:
            os.unlink(dst)
            raise

staged = {}
old = {}  # --force: dest -> a second name of the file it replaces, to put back
placed = []
done = False
try:
    dests = {ext: os.path.join(out, "%s.%s" % (name, ext)) for ext in ("wd", "weights", "json")}
    for dest in dests.values():
        if os.path.isdir(dest) and not os.path.islink(dest):
            fail("%s is a directory, not a file this script writes (give another NAME or --out)" % dest)
    try:
        for ext in ("wd", "weights", "json"):
            fd, tmp = tempfile.mkstemp(dir=out, prefix=".%s.%s." % (name, ext), suffix=".tmp")
            staged[ext] = tmp
            with os.fdopen(fd, "wb") as f:
                if ext == "json":
                    with open(staged["wd"], "rb") as w:
                        side["files"]["wd_sha256"] = hashlib.sha256(w.read()).hexdigest()
                    f.write((json.dumps(side, indent=2) + "\n").encode())
                else:
                    with open(src[ext], "rb") as s:
                        shutil.copyfileobj(s, f)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)
        if force:  # what is replaced is kept under a second name until all three are in place
            for ext, dest in dests.items():
                if os.path.lexists(dest):
                    bak = staged[ext][:-len(".tmp")] + ".old"
                    link(dest, bak)
                    old[dest] = bak
        for ext, dest in dests.items():
            if force:
                os.replace(staged[ext], dest)
            else:  # never replaces a file that appeared meanwhile
                link(staged[ext], dest)
                os.unlink(staged[ext])
            placed.append(dest)
            del staged[ext]
        dfd = os.open(out, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        done = True
    except FileExistsError as e:
        fail("%s exists (--force replaces it)" % (e.filename2 or e.filename))
    except OSError as e:
        fail("cannot write into %s (%s)" % (out, e))
finally:
    if not done:
        # All or nothing (on an error or an interrupt): what this run placed goes again,
        # and what it replaced comes back.
        for d in reversed(placed):
            try:
                if d in old:
                    os.replace(old[d], d)
                    del old[d]
                else:
                    os.unlink(d)
            except OSError as e:
                if d in old:  # kept: the only copy of the user's file
                    print("ship-net.sh: could not put %s back (%s); the file it replaced is %s"
                          % (d, e, old.pop(d)), file=sys.stderr)
                else:
                    print("ship-net.sh: could not remove %s (%s)" % (d, e), file=sys.stderr)
    for tmp in list(staged.values()) + list(old.values()):
        try:
            os.unlink(tmp)
        except OSError:
            pass

fmt = lambda d: "%+.3f ± %.3f" % (d["ppg"], d["se"]) if d else "–"
era = side["benchmark_er"].get("all")
print("| `%s` | %s | %s | %s | %s | %s |" % (
    name, label, ("%.0f min" % (clock / 60) + (" (budget %s h)" % hours if hours else "")) if clock else "–", fmt(p), fmt(g),
    "%.2f ± %.2f" % (era["er_mp"], era["se"]) if era else "–"))
PY
