"""Batch evaluation from Python against `evaluator bench`'s batched figure, on the
same machine in the same run.

Both evaluate the 4,096 contact positions of `evaluator bench` (bgkit.bench_positions)
with gnubg's weights on every core: the CLI 64 positions per `evaluate_all` call, 64
tasks; Python in batches of --batch positions per `Evaluator.evaluate` call (which
splits them into the same 64-position calls on rayon). The two are run in turn,
--rounds times; the medians and the fastest runs are compared (on a shared machine
the fastest runs are the least disturbed).

    python examples/bench.py --evaluator target/release/evaluator [--batch 1024] [--rounds 5]
                             [--threads N]
"""

import argparse
import os
import json
import statistics
import subprocess
import time

import numpy as np

import bgkit


def python_rate(ev, boards, batch, seconds):
    """Positions per second through Evaluator.evaluate, batches of `batch`."""
    chunks = [boards[i:i + batch] for i in range(0, len(boards), batch)]
    done, start = 0, time.perf_counter()
    while done == 0 or time.perf_counter() - start < seconds:
        for c in chunks:
            ev.evaluate(c)
            done += len(c)
    return done / (time.perf_counter() - start)


def cli_rate(evaluator, seconds, weights, threads):
    jobs = ["--threads", str(threads)] if threads else []
    out = subprocess.run([evaluator, "bench", "--json", "--seconds", str(seconds), "--weights", weights] + jobs,
                         check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return j["static_evals_batched"]["per_sec"], j


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evaluator", default="target/release/evaluator")
    ap.add_argument("--weights", default="/usr/lib/gnubg/gnubg.wd")
    ap.add_argument("--batch", type=int, nargs="+", default=[1024, 4096])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--threads", type=int, default=0, help="threads of both (default: one per core)")
    a = ap.parse_args()
    if a.threads:
        # bgkit runs on rayon's global pool, built at its first use.
        os.environ["RAYON_NUM_THREADS"] = str(a.threads)
    ev = bgkit.Evaluator(a.weights)
    boards = bgkit.bench_positions()
    # The same numbers as the CLI's set: a sanity check of what is timed.
    assert np.array_equal(ev.evaluate(boards[:64]), ev.evaluate(bgkit.position_ids(boards[:64])))
    cli, py = [], {b: [] for b in a.batch}
    info = None
    for r in range(a.rounds):
        rate, info = cli_rate(a.evaluator, a.seconds, a.weights, a.threads)
        cli.append(rate)
        for b in a.batch:
            py[b].append(python_rate(ev, boards, b, a.seconds))
        print(f"round {r + 1}: cli {rate:,.0f}/s  " + "  ".join(f"py[{b}] {py[b][-1]:,.0f}/s" for b in a.batch),
              flush=True)
    c, cmax = statistics.median(cli), max(cli)
    print(f"cpu: {info['cpu']}; simd kernel: {info['simd_kernel']} (python: {bgkit.simd_kernel()}); "
          f"threads: {info['static_evals_batched']['threads']}")
    print(f"evaluator bench, batched: median {c:,.0f}/s, fastest {cmax:,.0f}/s over {a.rounds} runs")
    for b in a.batch:
        m, mmax = statistics.median(py[b]), max(py[b])
        print(f"python, batches of {b}: median {m:,.0f}/s (ratio {m / c:.3f}), "
              f"fastest {mmax:,.0f}/s (ratio {mmax / cmax:.3f})")


if __name__ == "__main__":
    main()
