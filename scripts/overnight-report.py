#!/usr/bin/env python3
"""The overnight pipeline's report (scripts/overnight.sh, step "report"): reads a run's
directory and writes DIR/report.md (the nets' table, supervised training, steps,
plots), DIR/rounds.csv (one row per round and the final fit) and DIR/run-curve.csv
(the whole run on one chart, drawn by `trainer curve`), each under a temporary name
renamed into place.

    overnight-report.py DIR ROUNDS QUICK(0|1) ROLLOUT_WEIGHTS HAVE_GNUBG(0|1) LABELS LABEL_PLIES
"""
import json, os, sys
d, rounds, quick, rw, have_gnubg = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], sys.argv[5] == "1"
labels, plies = sys.argv[6], sys.argv[7]
def load(p):
    with open(os.path.join(d, p)) as f:
        return json.load(f)
def lines(p):
    with open(os.path.join(d, p)) as f:
        return [json.loads(l) for l in f if l.strip()]
def klass(rep, cls):  # a benchmark report's row of one class (None: no positions of it)
    return next((c for c in rep["classes"] if c["class"] == cls), None)
def er(rep, cls):
    c = klass(rep, cls)
    return "%.2f ± %.2f" % (c["er"], c["se"]) if c else "–"
def duel(p):
    if not os.path.exists(os.path.join(d, p)):
        return "–"
    r = load(p)
    return "%+.3f ± %.3f" % (r["ppg"], r["se"])
def secs(name):
    p = os.path.join(d, "steps", name + ".done")
    v = open(p).read().strip() if os.path.exists(p) else ""
    return int(v) if v.isdigit() else 0
out = []
out.append("# Overnight run%s\n" % (" (--quick)" if quick else ""))
how = "%s-ply search" % plies if labels == "search" else "rollouts"
out.append("Directory `%s`; %d round(s); training labels: %s by the %s weights.\n" % (d, rounds, how, "current net's" if rw == "current" else "gnubg"))
names = ["TD"] + ["round %d" % r for r in range(1, rounds + 1)]
nets = ["td/net.wd"] + ["round-%d/race/net.wd" % r for r in range(1, rounds + 1)]
meas = ["td/measure"] + ["round-%d/measure" % r for r in range(1, rounds + 1)]
finals = ["final-%d" % i for i in range(rounds + 1)]
fit = os.path.exists(os.path.join(d, "fit/measure.er.json"))
if fit:
    s = load("fit/supervised.json") if os.path.exists(os.path.join(d, "fit/supervised.json")) else None
    names.append("final fit" + (" (%d hidden units%s, rounds %s)" % (
        s["settings"]["hidden"], ", widened" if s["settings"].get("widen") else "", ", ".join(os.path.basename(os.path.dirname(x["path"]))[6:] for x in s["data"])) if s else ""))
    nets.append("fit/net.wd")
    meas.append("fit/measure")
    finals.append("final-fit")
out.append("## Nets\n")
out.append("ER: average equity lost against the best rolled-out candidate on the held-out benchmark set, in millipoints (± 1 SE); ppg: cubeless money, duplicate dice (± 1 SE over game pairs).\n")
hdr = "| net | file | ER contact | ER crashed | ER race | ER all | ppg vs pubeval (%s) | final ppg vs pubeval | final ppg vs gnubg 0-ply |" % ("round duel")
out.append(hdr)
out.append("|---|---|---|---|---|---|---|---|---|")
for n, f, m, fin in zip(names, nets, meas, finals):
    rep = lines(m + ".er.json")[0]
    out.append("| %s | `%s` | %s | %s | %s | %s | %s | %s | %s |" % (n, f, er(rep, "contact"), er(rep, "crashed"), er(rep, "race"), er(rep, "all"), duel(m + ".pubeval.json"), duel(fin + "-pubeval.json"), duel(fin + "-gnubg.json")))
refs = lines("final-reference.er.json")
for rep in refs:
    ppg = duel("final-gnubg-pubeval.json") if rep["player"].startswith("gnubg:") else "–"
    out.append("| %s (reference) | | %s | %s | %s | %s | | %s | |" % (rep["player"], er(rep, "contact"), er(rep, "crashed"), er(rep, "race"), er(rep, "all"), ppg))
b = load("final-0-pubeval.json")
ref = "gnubg's weights" if have_gnubg else "the TD net (gnubg's weights are not installed: this flatters the TD net, and the duels against gnubg are skipped)"
out.append("\nFinal duels: %d games each (seed 11). Benchmark set: `bench.jsonl` (%d positions; candidates chosen and rolled out by %s).\n" % (b["games"], len(lines("bench.jsonl")) - 1, ref))
if rounds:
    out.append("## Supervised training\n")
    out.append("| round | class | positions (train / validation) | epochs | best epoch | validation mse at start | best validation mse |")
    out.append("|---|---|---|---|---|---|---|")
trained = [(str(r), c, "round-%d/%s" % (r, c)) for r in range(1, rounds + 1) for c in ["contact", "crashed", "race"]]
if fit:
    trained.append(("final fit", "contact", "fit"))
for r, c, run in trained:
    if not os.path.exists(os.path.join(d, run, "supervised.json")):
        out.append("| %s | %s | none: the net is kept | | | | |" % (r, c))
        continue
    s = load(run + "/supervised.json")
    curve = s["curve"]
    best = [row for row in curve if row["epoch"] == s["best_epoch"]][0]
    mse = lambda v: "–" if v is None else "%.6f" % v  # no validation positions: none
    out.append("| %s | %s | %d / %d | %d | %d | %s | %s |" % (r, c, s["train_positions"], s["validation_positions"], s["epoch"], s["best_epoch"], mse(curve[0]["val_mse"]), mse(best["val_mse"])))
# One row per round (and the final fit), machine-readable: rounds.csv.
budgeted = os.path.exists(os.path.join(d, "hours"))
def positions(m):  # a round's labelled positions, the fit's training and validation ones
    try:
        if m == "fit":
            s = load("fit/supervised.json")
            return str(s["train_positions"] + s["validation_positions"])
        return str(load(m + "/stats.json")["all"]["count"])
    except (OSError, KeyError, ValueError):  # a kept net, a round of an older run
        return ""
def took(m):  # a round's start and end on the budget's clock; the fit's step seconds
    if m == "fit":
        return str(secs("fit"))
    try:
        a, b2 = open(os.path.join(d, m, "clock")).read().split()
        return str(int(b2) - int(a)) if budgeted else ""  # without --hours: no clock
    except (OSError, ValueError):
        return ""
with open(os.path.join(d, ".rounds.csv.tmp"), "w") as f:
    f.write("round,seconds,positions,ppg_vs_pubeval,se,er_all_mp,er_se\n")
    for r, m in [(str(r), "round-%d" % r) for r in range(1, rounds + 1)] + ([("fit", "fit")] if fit else []):
        p = load(m + "/measure.pubeval.json")
        a = klass(lines(m + "/measure.er.json")[0], "all")
        f.write("%s,%s,%s,%.4f,%.4f,%.2f,%.2f\n" % (r, took(m), positions(m), p["ppg"], p["se"], a["er"], a["se"]))
os.replace(os.path.join(d, ".rounds.csv.tmp"), os.path.join(d, "rounds.csv"))
out.append("\nPer round (and the final fit): `rounds.csv` (seconds on the budget's clock, labelled positions, the round duel against pubeval, ER all).\n")
out.append("\n## Steps\n")
out.append("| step | seconds |")
out.append("|---|---|")
total = 0
for f in sorted((f for f in os.listdir(os.path.join(d, "steps")) if f.endswith(".done")), key=lambda n: os.path.getmtime(os.path.join(d, "steps", n))):
    name = f[:-5]
    out.append("| %s | %d |" % (name, secs(name)))
    total += secs(name)
out.append("| **total** | **%d** |" % total)
# The whole run on one chart (run-curve.csv, drawn by `trainer curve --x minutes` below):
# TD's benchmark rows, then each round's duel against pubeval, placed at the end of
# the round by the steps' seconds after TD.
import csv
with open(os.path.join(d, "td/curve.csv")) as f:
    rows = list(csv.DictReader(f))
t = float(rows[-1]["elapsed_s"]) + secs("benchset") + secs("measure-td")
for r in range(1, rounds + 1):
    t += sum(secs("round-%d-%s" % (r, s)) for s in ("sample", labels, "contact", "crashed", "race", "measure"))
    m = load("round-%d/measure.pubeval.json" % r)
    rows.append({"games": rows[-1]["games"], "elapsed_s": t, "games_per_s": 0, "alpha": 0, "bench_games": m["games"],
                 "ppg": m["ppg"], "se": m["se"], "win_rate": m["win_rate"], "gammon_rate": m["gammon_rate"],
                 "gammon_loss_rate": m["gammon_loss_rate"]})
if fit:
    t += secs("fit") + secs("fit-measure")
    m = load("fit/measure.pubeval.json")
    rows.append({"games": rows[-1]["games"], "elapsed_s": t, "games_per_s": 0, "alpha": 0, "bench_games": m["games"],
                 "ppg": m["ppg"], "se": m["se"], "win_rate": m["win_rate"], "gammon_rate": m["gammon_rate"],
                 "gammon_loss_rate": m["gammon_loss_rate"]})
with open(os.path.join(d, ".run-curve.csv.tmp"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
os.replace(os.path.join(d, ".run-curve.csv.tmp"), os.path.join(d, "run-curve.csv"))
out.append("\n## Plots\n")
out.append("The whole run, ppg against pubeval over minutes (TD's benchmarks, then each round's duel%s; `run-curve.csv`):\n\n![run curve](run-curve.png)\n" % (", then the final fit's" if fit else ""))
out.append("TD self-play, ppg against pubeval:\n\n![TD curve](td/curve.png)\n")
for r in range(1, rounds + 1):
    for c in ["contact", "crashed", "race"]:
        if os.path.exists(os.path.join(d, "round-%d/%s/curve.png" % (r, c))):  # not for a kept net
            out.append("Round %d, %s net:\n\n![round %d %s](round-%d/%s/curve.png)\n" % (r, c, r, c, r, c))
if fit and os.path.exists(os.path.join(d, "fit/curve.png")):
    out.append("The final fit's contact net:\n\n![final fit](fit/curve.png)\n")
text = "\n".join(out) + "\n"
tmp = os.path.join(d, ".report.md.tmp")
with open(tmp, "w") as f:
    f.write(text)
os.replace(tmp, os.path.join(d, "report.md"))
