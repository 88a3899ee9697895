"""Evaluation against gnubg's recorded 0-ply evaluations and move choices
(testdata/gnubg) and against the `evaluator` command-line tool."""

import os
import subprocess
import sys

import numpy as np
import pytest

import bgkit
from conftest import OS0, TS0, WD, net_tolerance, require, rows, tool

COLS = ["p_win", "p_wg", "p_wbg", "p_lg", "p_lbg"]


def test_batch_evaluation_is_gnubgs(evaluator):
    fixture = rows("positions.csv")
    ids = [r["position_id"] for r in fixture]
    want = np.array([[float(r[c]) for c in COLS] for r in fixture], dtype=np.float32)
    classes = np.array([int(r["class"]) for r in fixture])
    for given in (ids, bgkit.boards(ids)):
        got = evaluator.evaluate(given)
        assert got.shape == (len(ids), 5) and got.dtype == np.float32
        for cls in np.unique(classes):
            sel = classes == cls
            err = np.abs(got[sel] - want[sel]).max()
            assert err <= net_tolerance(int(cls)), f"class {cls}: max error {err}"
    assert np.array_equal(evaluator.classes(ids), classes)


def test_batch_evaluation_is_the_clis_bit_for_bit(evaluator, tmp_path):
    evaluator_bin = tool("evaluator")
    ids = [r["position_id"] for r in rows("positions.csv")]
    src = tmp_path / "in.csv"
    src.write_text("position_id\n" + "\n".join(ids) + "\n")
    for plies in (0, 1):
        subset = ids if plies == 0 else ids[::60]
        if plies:
            src.write_text("position_id\n" + "\n".join(subset) + "\n")
        out = subprocess.run(
            [evaluator_bin, "eval", "--input", str(src), "--weights", str(WD),
             "--bearoff-os", str(OS0), "--bearoff-ts", str(TS0), "--plies", str(plies), "--quiet"],
            check=True, capture_output=True, text=True,
        ).stdout.splitlines()
        assert out[0] == "position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg"
        cli = np.array([[float(x) for x in line.split(",")[2:]] for line in out[1:]], dtype=np.float32)
        got = evaluator.evaluate(subset, plies=plies)
        assert np.array_equal(got, cli), f"{plies}-ply"
        assert [int(line.split(",")[1]) for line in out[1:]] == list(evaluator.classes(subset))


def test_best_move_is_gnubgs_at_0_ply(evaluator):
    fixture = rows("moves.csv")
    same = 0
    for r in fixture:
        best = evaluator.best_move(r["position_id"], int(r["die1"]), int(r["die2"]))
        if int(r["n_moves"]) == 0:
            assert best is None
            same += 1
            continue
        move, equity = best
        if "best_tie" not in r["tags"]:
            assert move.result.position_id == r["best_after_id"], r
            assert move.gnubg_notation == r["best_move"], r
        assert abs(equity - float(r["best_equity"])) <= 2e-3
        same += move.result.position_id == r["best_after_id"]
    assert same >= len(fixture) - 30


def test_best_move_with_lookahead_is_the_clis(evaluator):
    cli = tool("evaluator")
    for pid, d1, d2 in [("4HPwATDgc/ABMA", 3, 1), ("4HPwATDgc/ABMA", 6, 5), ("sGfwATDgc/ABMA", 5, 2)]:
        for plies in (1, 2):
            out = subprocess.run(
                [cli, "best-move", "--position-id", pid, "--dice", str(d1), str(d2), "--plies", str(plies),
                 "--json", "--weights", str(WD), "--bearoff-os", str(OS0), "--bearoff-ts", str(TS0)],
                check=True, capture_output=True, text=True,
            ).stdout
            import json

            j = json.loads(out)
            move, equity = evaluator.best_move(pid, d1, d2, plies=plies)
            assert move.gnubg_notation == j["best_move_gnubg"]
            assert move.result.position_id == j["best_after_id"]
            assert np.float32(equity) == np.float32(j["equity"])


def test_in_memory_weights_evaluate_as_the_file(evaluator):
    w = bgkit.Weights.load(WD)
    ev = bgkit.Evaluator(w, bearoff_os=OS0, bearoff_ts=TS0)
    ids = [r["position_id"] for r in rows("positions.csv")[::10]]
    assert np.array_equal(ev.evaluate(ids), evaluator.evaluate(ids))
    assert ev.weights_path == "(in memory)"


def test_missing_and_damaged_files_raise_file_error_naming_them(tmp_path):
    require(WD, OS0, TS0)
    with pytest.raises(bgkit.FileError, match="/nonexistent/x.wd"):
        bgkit.Evaluator("/nonexistent/x.wd", bearoff_os=OS0, bearoff_ts=TS0)
    bad = tmp_path / "cut.wd"
    bad.write_bytes(WD.read_bytes()[:1000])
    with pytest.raises(OSError, match="cut.wd"):
        bgkit.Evaluator(bad, bearoff_os=OS0, bearoff_ts=TS0)
    db = tmp_path / "cut.bd"
    db.write_bytes(OS0.read_bytes()[:5000])
    with pytest.raises(bgkit.FileError, match="cut.bd"):
        bgkit.Evaluator(WD, bearoff_os=db, bearoff_ts=TS0)


def test_bad_batch_entries_raise_value_error(evaluator):
    with pytest.raises(ValueError, match="position 2"):
        evaluator.evaluate(["4HPwATDgc/ABMA", "4HPwATDgc/ABMA", "bad"])
    with pytest.raises(ValueError, match="plies"):
        evaluator.best_move("4HPwATDgc/ABMA", 3, 1, plies=9)


def test_batch_evaluation_releases_the_gil(evaluator):
    import threading

    boards = np.tile(bgkit.bench_positions(), (10, 1, 1))
    assert boards.shape == (40960, 2, 25)
    done = []
    t = threading.Thread(target=lambda: done.append(evaluator.evaluate(boards)))
    t.start()
    ticks = 0
    while t.is_alive():
        ticks += 1
    t.join()
    assert done[0].shape == (40960, 5)
    # The main thread ran Python all along: the evaluation held no GIL.
    assert ticks > 1000, ticks


def test_boards_evaluate_as_ids_on_any_number_of_threads(evaluator, tmp_path):
    # Board arrays are turned into positions and checked chunk by chunk where they are
    # evaluated; with one thread the caller's thread does it all. Same bits either way,
    # and the first bad board is named.
    boards = bgkit.bench_positions()[:1000]
    got = evaluator.evaluate(boards)
    assert np.array_equal(got, evaluator.evaluate(bgkit.position_ids(boards)))
    out = tmp_path / "one.npy"
    script = (
        "import sys, numpy as np, bgkit\n"
        "ev = bgkit.Evaluator(sys.argv[1], bearoff_os=sys.argv[2], bearoff_ts=sys.argv[3])\n"
        "np.save(sys.argv[4], ev.evaluate(bgkit.bench_positions()[:1000]))\n"
    )
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    subprocess.run([sys.executable, "-c", script, str(WD), str(OS0), str(TS0), str(out)],
                   check=True, env=env, timeout=300)
    assert np.array_equal(np.load(out), got)
    bad = bgkit.Position.start().board
    bad[0, 5] -= 1
    bad[0, 0] = 1
    many = boards.copy()
    many[650], many[300] = bad, bad
    with pytest.raises(ValueError, match="board 300:"):
        evaluator.evaluate(many)
