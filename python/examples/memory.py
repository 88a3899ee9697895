"""Memory of opening a large `.bgds` file: the columns are views of the mapped file.

Makes (once) a 1,000,000-row dataset with the `datasets` tool (gnubg's recorded
positions and evaluations from testdata/, repeated), then in this process prints the
resident memory (/proc/self/status: RssAnon = private memory such as a copy would
take, RssFile = pages of mapped files, shared with the page cache) before opening it,
after opening it (bgkit checks every record, reading the whole file), after summing
every column through NumPy, and for contrast after reading the same file into memory
with bgkit.read_dataset (a copy).

    python python/examples/memory.py --bin target/release --work /tmp/bgds-1m
"""

import argparse
import csv
import subprocess
from pathlib import Path

import numpy as np

import bgkit

REPO = Path(__file__).resolve().parents[2]


def rss():
    fields = {}
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k in ("VmRSS", "RssAnon", "RssFile"):
            fields[k] = int(v.split()[0]) / 1024
    return fields


def show(label):
    r = rss()
    print(f"{label:<44} VmRSS {r['VmRSS']:7.1f} MiB  RssAnon {r['RssAnon']:7.1f} MiB  RssFile {r['RssFile']:7.1f} MiB")


def make(path, rows, bindir):
    src = path.with_suffix(".csv")
    with open(REPO / "testdata/gnubg/positions.csv", newline="") as f:
        fixture = list(csv.DictReader(f))
    lines = ["position_id,win,win_g,win_bg,lose_g,lose_bg"]
    cols = ["p_win", "p_wg", "p_wbg", "p_lg", "p_lbg"]
    for i in range(rows):
        r = fixture[i % len(fixture)]
        lines.append(",".join([r["position_id"]] + [str(min(1.0, float(r[c]))) for c in cols]))
    src.write_text("\n".join(lines) + "\n")
    subprocess.run([str(bindir / "datasets"), "convert", str(src), str(path), "--force"], check=True)
    src.unlink()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release")
    ap.add_argument("--work", default="bgds-1m")
    ap.add_argument("--rows", type=int, default=1_000_000)
    a = ap.parse_args()
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    path = work / f"rows-{a.rows}.bgds"
    if not path.exists():
        make(path, a.rows, Path(a.bin))
    print(f"{path}: {path.stat().st_size / 2**20:.1f} MiB, {a.rows:,} records of 56 bytes")
    show("before opening")
    ds = bgkit.Dataset(path)
    show("after bgkit.Dataset(path)")
    probs, se, classes, trials = ds.probs, ds.se, ds.classes, ds.trials
    total = float(probs.sum()) + float(se.sum()) + int(classes.sum()) + int(trials.sum())
    show("after summing probs, se, classes, trials")
    print(f"  probs {probs.shape} {probs.dtype}, owndata={probs.flags.owndata}, base is the Dataset: "
          f"{probs.base is ds}, writeable={probs.flags.writeable} (checksum {total:.3f})")
    copy = bgkit.read_dataset(path)
    show("after bgkit.read_dataset(path) (a copy)")
    assert np.array_equal(copy.probs, probs)


if __name__ == "__main__":
    main()
