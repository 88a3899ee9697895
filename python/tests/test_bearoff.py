"""Bearoff databases against gnubg's own `bearoffdump` and gnubg's recorded
evaluations of bearoff positions (testdata/gnubg)."""

import re
import subprocess

import numpy as np
import pytest

import bgkit
from conftest import BEAROFFDUMP, OS0, TS0, require, rows

COLS = ["p_win", "p_wg", "p_wbg", "p_lg", "p_lbg"]


def dump(db, index):
    out = subprocess.run([str(BEAROFFDUMP), "-n", str(index), str(db)], check=True,
                         capture_output=True, text=True).stdout
    return out, re.search(r"Position ID: (\S+)", out).group(1)


@pytest.mark.parametrize("index", [1, 1000, 12345, 54263])
def test_one_sided_distributions_are_bearoffdumps(index):
    require(BEAROFFDUMP, OS0)
    db = bgkit.OneSidedDb(OS0)
    assert db.covers == (6, 15) and len(db) == 54264
    out, pid = dump(OS0, index)
    # bearoffdump shows the position with the dumped side as "Opponent" (board[0]).
    side = bgkit.Position.from_id(pid).board[0]
    assert db.index_of(side) == index
    bear, gammon = db.distribution(side)
    table = re.findall(r"^\s*(\d+)\t\s*([\d.]+)\t\s*([\d.]+)(?:\t\t\s*([\d.]+)\t\s*([\d.]+))?", out, re.M)
    assert table
    for rolls, _, opp, _, opp_gammon in table:
        n = int(rolls)
        assert abs(100 * bear[n] - float(opp)) <= 6e-4, (index, n)
        if opp_gammon:
            assert abs(100 * gammon[n] - float(opp_gammon)) <= 6e-4, (index, n)
    assert abs(bear.sum() - 1) < 1e-4


@pytest.mark.parametrize("index", [30000, 100000, 200000, 500000])
def test_two_sided_equities_are_bearoffdumps(index):
    require(BEAROFFDUMP, TS0)
    db = bgkit.TwoSidedDb(TS0)
    assert db.covers == (6, 6) and len(db) == 853776
    out, pid = dump(TS0, index)
    want = [float(x) for x in re.findall(r":\s*([+-]\d\.\d+)\s*$", out, re.M)]
    assert len(want) == 4
    e = db.equities(pid)
    got = [e["cubeless"], e["owned"], e["centred"], e["opponent_owns"]]
    assert np.allclose(got, want, atol=5e-5), (index, got, want)
    assert e["win"] == pytest.approx(e["cubeless"] / 2 + 0.5)


def test_bearoff_evaluations_are_gnubgs():
    require(OS0)
    db = bgkit.OneSidedDb(OS0)
    one = [r for r in rows("positions.csv") if r["class"] == "6"]
    for r in one:
        assert np.array_equal(db.evaluate(r["position_id"]), np.array([float(r[c]) for c in COLS], np.float32))


def test_lookups_outside_and_damaged_files_raise():
    require(OS0, TS0)
    db = bgkit.OneSidedDb(OS0)
    with pytest.raises(ValueError, match="not in this database"):
        db.index_of([0] * 6 + [1])  # a checker on the 7 point
    with pytest.raises(ValueError, match="not in this database"):
        bgkit.TwoSidedDb(TS0).equities(bgkit.Position.start())
    with pytest.raises(bgkit.FileError, match="not a one-sided"):
        bgkit.OneSidedDb(TS0)


def test_a_truncated_database_names_the_file(tmp_path):
    require(OS0)
    bad = tmp_path / "short.bd"
    bad.write_bytes(OS0.read_bytes()[:3000])
    with pytest.raises(bgkit.FileError, match="short.bd"):
        bgkit.OneSidedDb(bad)
