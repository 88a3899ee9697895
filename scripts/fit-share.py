#!/usr/bin/env python3
"""The share of an overnight run's budget to keep for its final fit (scripts/overnight.sh).

    fit-share.py DIR BUDGET_S ROUNDS FIT_SHARE FIT_ROUNDS FIT_EPOCHS HIDDEN FIT_HIDDEN

Prints FIT_SHARE, or less when the contact training of rounds 1..ROUNDS in DIR says
that the fit needs less. The estimate is 1.25 times FIT_EPOCHS epochs over FIT_ROUNDS
rounds' contact records: the mean records per data file of the last 3 rounds' training
(DIR/round-N/contact/supervised.json), timed by those rounds' seconds per record and
epoch and scaled by FIT_HIDDEN / HIDDEN. Linear scaling overstates a wider net's time:
run z9's 512-unit fit took 1,114 s against an estimate of 1,478 s before the factor.
Without a finished round's training, or with FIT_ROUNDS 0 (all rounds, however many
they will be), it prints FIT_SHARE.
"""

import json
import sys


def main(argv):
    if len(argv) != 9:
        print("fit-share.py: usage: fit-share.py DIR BUDGET_S ROUNDS FIT_SHARE FIT_ROUNDS FIT_EPOCHS HIDDEN FIT_HIDDEN", file=sys.stderr)
        sys.exit(2)
    run = argv[1]
    try:
        budget, share = float(argv[2]), float(argv[4])
        rounds, fit_rounds, epochs, hidden, fit_hidden = (int(a) for a in (argv[3], *argv[5:9]))
    except ValueError as e:
        print("fit-share.py: %s" % e, file=sys.stderr)
        sys.exit(2)
    secs = work = records = files = 0
    for k in range(rounds, 0, -1):
        try:
            with open("%s/round-%d/contact/supervised.json" % (run, k)) as f:
                s = json.load(f)
            n = sum(d["class_records"] for d in s["data"])
            round_secs, round_work = s["elapsed_seconds"], n * s["epoch"]
            round_files = len(s["data"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not trained yet (or by the Slurm path): no timing
        secs, work = secs + round_secs, work + round_work
        records, files = records + n, files + round_files
        if k <= rounds - 2:
            break
    if fit_rounds < 1 or work <= 0 or files == 0 or hidden < 1 or budget <= 0:
        print(share)
        return
    estimate = 1.25 * secs / work * fit_hidden / hidden * fit_rounds * records / files * epochs
    print("%.4f" % min(share, estimate / budget))


if __name__ == "__main__":
    main(sys.argv)
