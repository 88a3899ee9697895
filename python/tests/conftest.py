"""Shared paths and helpers of the pytest suite: gnubg's files, the repository's
oracle data (testdata/, recorded by gnubg itself) and the command-line tools.

Tests that need gnubg's files or the tools skip when these are missing, and fail
instead when BGKIT_REQUIRE_GNUBG=1 (as CI sets it), like the Rust tests.
"""

import csv
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"
WD = Path("/usr/lib/gnubg/gnubg.wd")
OS0 = Path("/usr/share/gnubg/gnubg_os0.bd")
TS0 = Path("/var/lib/gnubg/gnubg_ts0.bd")
GNUBG = Path("/usr/games/gnubg")
BEAROFFDUMP = Path("/usr/games/bearoffdump")


def require(*paths):
    """Skip unless every path exists (fail under BGKIT_REQUIRE_GNUBG=1)."""
    missing = [str(p) for p in paths if not Path(p).exists()]
    if missing:
        msg = "missing: " + ", ".join(missing)
        if os.environ.get("BGKIT_REQUIRE_GNUBG") == "1":
            pytest.fail(msg)
        pytest.skip(msg)


def tool(name):
    """A bgkit command-line tool: $BGKIT_BIN_DIR, else target/release or target/debug
    of the repository (as `cargo build`/`cargo test` leave them), else PATH."""
    dirs = [os.environ.get("BGKIT_BIN_DIR")]
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    dirs += [target / "release", target / "debug"]
    for d in dirs:
        if d and (Path(d) / name).is_file():
            return str(Path(d) / name)
    found = shutil.which(name)
    if found:
        return found
    require(f"the {name} binary (cargo build --release, or set BGKIT_BIN_DIR)")


def rows(name):
    """The rows of testdata/gnubg/NAME as dicts."""
    with open(TESTDATA / "gnubg" / name, newline="") as f:
        return list(csv.DictReader(f))


def gnubg_evaluations(data_dir, ids, tmp_path):
    """gnubg 1.07's own 0-ply cubeless evaluations of Position IDs `ids`, with the
    weights in `data_dir` (gnubg.wd, else gnubg.weights): an (n, 5) list of floats.
    `gnubg -P DIR` reads the weights and the one-sided database there, so that one is
    linked in; it reads the two-sided database from /var/lib/gnubg only."""
    require(GNUBG, OS0, TS0)
    data_dir = Path(data_dir)
    if not (data_dir / OS0.name).exists():
        (data_dir / OS0.name).symlink_to(OS0)
    script = tmp_path / "gnubg-eval.py"
    out = tmp_path / "gnubg-eval.txt"
    out.unlink(missing_ok=True)
    script.write_text(
        "import gnubg\n"
        "gnubg.command('set player 0 human')\n"
        "gnubg.command('set player 1 human')\n"
        "gnubg.command('new game')\n"
        "ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)\n"
        "ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)\n"
        f"out = open({str(out)!r}, 'w')\n"
        f"for pid in {list(ids)!r}:\n"
        "    e = gnubg.evaluate(gnubg.positionfromid(pid), ci, ec)\n"
        "    out.write(' '.join(repr(x) for x in e[:5]) + '\\n')\n"
        "out.close()\n"
    )
    subprocess.run([str(GNUBG), "-t", "-q", "-r", "-P", str(data_dir), "-p", str(script)],
                   check=True, capture_output=True, timeout=300)
    return [[float(v) for v in line.split()] for line in out.read_text().splitlines()]


def net_tolerance(cls):
    """gnubg's recorded net values were made on an AMD CPU, where the evaluator gives
    gnubg's bits (evaluator/README.md); elsewhere `rcpps` differs slightly. Table
    classes are exact everywhere."""
    if cls not in (8, 9, 10):
        return 0.0
    with open("/proc/cpuinfo") as f:
        amd = "AuthenticAMD" in f.read()
    return 1e-5 if amd else 2e-3


@pytest.fixture(scope="session")
def evaluator():
    import bgkit

    require(WD, OS0, TS0)
    return bgkit.Evaluator(WD, bearoff_os=OS0, bearoff_ts=TS0)
