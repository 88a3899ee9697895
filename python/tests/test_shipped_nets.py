"""The nets bgkit ships (nets/ at the top of the repository): each has its JSON sidecar
(naming it, with the sha256 of its .wd), its .wd and .weights files hold the same net,
and bgkit and gnubg 1.07 itself (`gnubg -P DIR` with the net as gnubg.wd, then as
gnubg.weights) evaluate it alike; and it is not gnubg's own net."""

import hashlib
import json
import shutil

import numpy as np
import pytest

import bgkit
from conftest import OS0, REPO, TS0, WD, gnubg_evaluations, require, rows

NETS = sorted((REPO / "nets").glob("*.wd"))


def test_nets_folder_ships_a_net():
    assert NETS, "nets/ holds no .wd file"


@pytest.mark.parametrize("wd", NETS, ids=lambda p: p.stem)
def test_shipped_net_is_what_its_sidecar_says_and_gnubg_plays_it(wd, tmp_path):
    require(WD, OS0, TS0)
    side = json.loads(wd.with_suffix(".json").read_text())
    assert side["name"] == wd.stem
    assert hashlib.sha256(wd.read_bytes()).hexdigest() == side["files"]["wd_sha256"]
    assert side["final_duels"]["vs_pubeval"]["games"] > 0
    ids = [r["position_id"] for r in rows("positions.csv") if r["class"] in ("8", "9", "10")][::100]
    ours = bgkit.Evaluator(wd, bearoff_os=OS0, bearoff_ts=TS0).evaluate(ids)
    text = bgkit.Evaluator(wd.with_suffix(".weights"), bearoff_os=OS0, bearoff_ts=TS0).evaluate(ids)
    assert np.abs(ours - text).max() < 1e-4
    gnubgs = bgkit.Evaluator(WD, bearoff_os=OS0, bearoff_ts=TS0).evaluate(ids)
    assert np.abs(ours - gnubgs).max() > 0.01, "the shipped net is gnubg's"
    # gnubg reads gnubg.wd first, gnubg.weights without it.
    data = tmp_path / "data"
    data.mkdir()
    shutil.copyfile(wd, data / "gnubg.wd")
    theirs = np.array(gnubg_evaluations(data, ids, tmp_path))
    assert theirs.shape == (len(ids), 5)
    assert np.abs(ours - theirs).max() < 1e-4
    (data / "gnubg.wd").unlink()
    shutil.copyfile(wd.with_suffix(".weights"), data / "gnubg.weights")
    assert np.abs(ours - np.array(gnubg_evaluations(data, ids, tmp_path))).max() < 1e-4
