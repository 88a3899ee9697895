"""Input encodings and nets: gnubg's own weights, taken apart into NumPy arrays and
run on bgkit's inputs with gnubg's sigmoid (reimplemented here from gnubg's
description), reproduce gnubg's recorded evaluations; weights rebuilt from arrays are
gnubg's file byte for byte; gnubg 1.07 loads weights written from Python."""

import hashlib
import subprocess

import numpy as np
import pytest

import bgkit
from conftest import GNUBG, OS0, TS0, WD, gnubg_evaluations, require, rows, tool

COLS = ["p_win", "p_wg", "p_wbg", "p_lg", "p_lbg"]
# gnubg's exp table: exp(k/10)/10, the last entry repeated.
TABLE = np.exp(np.arange(101) / 10.0) / 10.0
TABLE[100] = TABLE[99]


def gnubg_logistic(x, saturate):
    """1 / (1 + exp(-x)) as gnubg approximates it: exp expanded to first order between
    table points; the hidden layer clamps |x| at 10, the output layer saturates there."""
    x1 = np.minimum(np.abs(x), 10.0 if not saturate else 9.99999) * 10.0
    i = np.floor(x1).astype(int)
    c = 1.0 / (1.0 + TABLE[i] * ((10 - i) + x1))
    if saturate:
        c = np.where(np.abs(x) >= 10.0, 1.0 / 19931.370438230298, c)
    return np.where(x < 0, c, 1.0 - c)


def forward(net, x):
    s = net.beta_hidden * (x.astype(np.float64) @ net.hidden_weights + net.hidden_bias)
    h = gnubg_logistic(s, saturate=False)
    return gnubg_logistic(net.beta_output * (h @ net.output_weights.T + net.output_bias), saturate=True)


def test_inputs_and_weight_arrays_reproduce_gnubgs_evaluations():
    require(WD)
    w = bgkit.Weights.load(WD)
    fixture = rows("positions.csv")
    for cls, net, width, cols in ((10, "contact", 250, [0, 1, 2, 3, 4]), (9, "crashed", 250, [0, 1, 2, 3, 4]),
                                  (8, "race", 214, [0, 1, 3])):
        sel = [r for r in fixture if int(r["class"]) == cls]
        x = bgkit.inputs([r["position_id"] for r in sel], net=net)
        assert x.shape == (len(sel), width) and x.dtype == np.float32
        want = np.array([[float(r[c]) for c in COLS] for r in sel])
        # Race backgammons come from the bearoff database and gnubg's sanity checks
        # adjust a few positions after the net: most, not all, match.
        err = np.abs(forward(w.net(net), x) - want)[:, cols].max(axis=1)
        assert np.median(err) < 1e-4, net
        assert (err < 1e-3).mean() > 0.95, net


def test_input_widths_and_batch_forms_agree():
    ids = [r["position_id"] for r in rows("positions.csv")[::25]]
    for net, width in (("contact", 250), ("crashed", 250), ("race", 214), ("base", 200), ("tesauro", 198)):
        a = bgkit.inputs(ids, net=net)
        assert a.shape == (len(ids), width)
        assert np.array_equal(a, bgkit.inputs(bgkit.boards(ids), net=net))
    # The base inputs are the first 200 of the contact inputs.
    assert np.array_equal(bgkit.inputs(ids, net="base"), bgkit.inputs(ids, net="contact")[:, :200])
    with pytest.raises(ValueError, match="unknown net 'bogus'"):
        bgkit.inputs(ids, net="bogus")


def test_weights_rebuilt_from_arrays_are_gnubgs_file_byte_for_byte(tmp_path):
    require(WD)
    w = bgkit.Weights.load(WD)
    nets = [bgkit.Net(n.hidden_weights, n.hidden_bias, n.output_weights, n.output_bias, n.beta_hidden, n.beta_output)
            for n in w.nets]
    out = tmp_path / "rebuilt.wd"
    bgkit.Weights(nets, version=w.version).save(out)
    assert hashlib.md5(out.read_bytes()).hexdigest() == "5a671589fe7d47d1be4c9a0d2d363697"
    with pytest.raises(bgkit.FileError, match="exists"):
        bgkit.Weights(nets).save(out)
    bgkit.Weights(nets).save(out, force=True)
    # A symbolic link is the user's file too, even one that points nowhere.
    link = tmp_path / "link.wd"
    link.symlink_to(tmp_path / "nowhere.wd")
    with pytest.raises(bgkit.FileError, match="link.wd: exists; give force=True"):
        bgkit.Weights(nets).save(link)
    assert link.is_symlink() and not (tmp_path / "nowhere.wd").exists()


def test_bad_nets_raise_value_error():
    z = np.zeros
    with pytest.raises(ValueError, match="hidden_bias has shape"):
        bgkit.Net(z((250, 8), np.float32), z(7, np.float32), z((5, 8), np.float32), z(5, np.float32))
    with pytest.raises(ValueError, match="finite"):
        bgkit.Net(np.full((250, 8), np.nan, np.float32), z(8, np.float32), z((5, 8), np.float32), z(5, np.float32))
    small = bgkit.Net(z((10, 8), np.float32), z(8, np.float32), z((5, 8), np.float32), z(5, np.float32))
    with pytest.raises(ValueError, match="gnubg's has 250 inputs"):
        bgkit.Weights([small] * 6)


def random_gnubg_weights(seed, hidden):
    """gnubg-shaped weights with random arrays (as a PyTorch model would give)."""
    rng = np.random.default_rng(seed)
    nets = []
    for inputs, h in zip((250, 214, 250, 200, 200, 200), (hidden, hidden, hidden, 16, 16, 8)):
        f = lambda *s: rng.uniform(-0.5, 0.5, s).astype(np.float32)  # noqa: E731
        nets.append(bgkit.Net(f(inputs, h), f(h), f(5, h), f(5)))
    return bgkit.Weights(nets, version="1.00")


def test_gnubg_loads_weights_written_from_python(tmp_path):
    require(GNUBG, WD, OS0, TS0)
    w = random_gnubg_weights(7, 12)
    w.save(tmp_path / "gnubg.wd")
    w.save(tmp_path / "gnubg.weights")
    ids = [r["position_id"] for r in rows("positions.csv") if r["class"] in ("8", "9", "10")][::150]
    ours = bgkit.Evaluator(w, bearoff_os=OS0, bearoff_ts=TS0).evaluate(ids)
    # The binary file is read first; without it gnubg reads the text file.
    for remove_binary in (False, True):
        if remove_binary:
            (tmp_path / "gnubg.wd").unlink()
        theirs = np.array(gnubg_evaluations(tmp_path, ids, tmp_path))
        assert theirs.shape == (len(ids), 5)
        assert np.abs(ours - theirs).max() < 1e-4, remove_binary
        # Random nets give values far from gnubg's own nets.
        assert np.abs(theirs - bgkit.Evaluator(WD, bearoff_os=OS0, bearoff_ts=TS0).evaluate(ids)).max() > 0.05


def test_trainer_duel_and_datasets_rollout_use_weights_written_from_python(tmp_path):
    require(WD, OS0, TS0)
    trainer, datasets = tool("trainer"), tool("datasets")
    wd = tmp_path / "net.wd"
    random_gnubg_weights(3, 10).save(wd)
    import json

    duel = subprocess.run([trainer, "duel", "--a", str(wd), "--b", "pubeval", "--games", "20", "--seed", "1",
                           "--json", "--quiet", "--bearoff-os", str(OS0), "--bearoff-ts", str(TS0)],
                          check=True, capture_output=True, text=True)
    j = json.loads(duel.stdout)
    assert j["games"] == 20
    src = tmp_path / "in.csv"
    src.write_text("position_id\n4HPwATDgc/ABMA\n")
    outs = []
    for weights in (wd, WD):
        out = tmp_path / f"roll-{weights.stem}.csv"
        subprocess.run([datasets, "rollout", "--input", str(src), "--trials", "36", "--seed", "1", "-o", str(out),
                        "--weights", str(weights), "--bearoff-os", str(OS0), "--bearoff-ts", str(TS0), "--quiet"],
                       check=True, capture_output=True)
        outs.append(bgkit.read_dataset(out).probs)
    # The rollout played the net given: another net, other results.
    assert not np.array_equal(outs[0], outs[1])


def test_weights_and_nets_pickle_bit_for_bit_and_convert_to_bytes(tmp_path):
    import pickle

    w = random_gnubg_weights(5, 9)
    nets = w.nets
    nets[0] = bgkit.Net(nets[0].hidden_weights, nets[0].hidden_bias, nets[0].output_weights,
                        nets[0].output_bias, beta_hidden=0.25, beta_output=0.5)
    w = bgkit.Weights(nets, version="1.01")
    back = pickle.loads(pickle.dumps(w))
    assert back.version == "1.01"
    assert back.to_bytes() == w.to_bytes() and back.to_bytes("text") == w.to_bytes("text")
    # The bytes are the files save writes.
    w.save(tmp_path / "w.wd")
    w.save(tmp_path / "w.weights")
    assert (tmp_path / "w.wd").read_bytes() == w.to_bytes()
    assert (tmp_path / "w.weights").read_bytes() == w.to_bytes("text")
    assert bgkit.Weights.from_bytes((tmp_path / "w.wd").read_bytes()).to_bytes("text") == w.to_bytes("text")
    for n, m in zip(w.nets, back.nets):
        assert np.array_equal(n.hidden_weights, m.hidden_weights)
    net = pickle.loads(pickle.dumps(w.net("contact")))
    assert (net.beta_hidden, net.beta_output, net.shape) == (0.25, 0.5, (250, 9, 5))
    for a in ("hidden_weights", "hidden_bias", "output_weights", "output_bias"):
        assert np.array_equal(getattr(net, a), getattr(w.net("contact"), a)), a
    with pytest.raises(bgkit.FileError, match="^junk: "):
        bgkit.Weights.from_bytes(b"not weights", name="junk")
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        w.to_bytes("xml")
    with pytest.raises(ValueError, match="holds one net, not 6"):
        bgkit.Net._from_bytes(w.to_bytes())
