"""What callers hand the package: boards in any memory layout, record numbers in any
integer form, nets and weights built in memory, and what it refuses, with a
ValueError that names the problem (never a panic surfacing as RuntimeError).
Also: shared iterators across threads, pickling for worker processes."""

import pickle
import subprocess
import threading

import numpy as np
import pytest

import bgkit
from conftest import OS0, TS0, rows, tool


def fixture_ids(step=20):
    return [r["position_id"] for r in rows("positions.csv")[::step]]


def test_boards_in_any_memory_layout_are_read_by_value(evaluator):
    ids = fixture_ids()
    b = bgkit.boards(ids)
    layouts = {
        "fortran": np.asfortranarray(b),
        "transposed view": np.ascontiguousarray(b.transpose(2, 1, 0)).transpose(2, 1, 0),
        "reversed view": b[::-1][::-1],
        "every other": np.repeat(b, 2, axis=0)[::2],
    }
    want = evaluator.evaluate(b)
    for name, a in layouts.items():
        assert np.array_equal(a, b), name
        assert bgkit.position_ids(a) == ids, name
        assert np.array_equal(evaluator.evaluate(a), want), name
        assert np.array_equal(evaluator.classes(a), evaluator.classes(b)), name
        assert np.array_equal(bgkit.inputs(a), bgkit.inputs(b)), name
        assert np.array_equal(bgkit.boards(a), b), name


def net(inputs, hidden, outputs=5, **slopes):
    r = np.random.default_rng(0)
    return bgkit.Net(r.normal(0, 0.1, (inputs, hidden)).astype(np.float32), np.zeros(hidden, np.float32),
                     r.normal(0, 0.1, (outputs, hidden)).astype(np.float32), np.zeros(outputs, np.float32),
                     **slopes)


def test_nets_that_a_weights_file_could_not_hold_are_refused():
    for bad, why in (
        (lambda: net(250, 8, 3), "3 outputs"),
        (lambda: net(250, 8, beta_hidden=0.0), "invalid sigmoid slopes 0 and 1"),
        (lambda: net(250, 8, beta_output=-1.0), "invalid sigmoid slopes 0.1 and -1"),
        (lambda: net(20, 4097), "4097 hidden units (1 to 4096)"),
    ):
        with pytest.raises(ValueError, match=__import__("re").escape(why)):
            bad()
    with pytest.raises(ValueError, match="holds 0 nets"):
        bgkit.Weights([])
    with pytest.raises(ValueError, match="bad version 'x'"):
        bgkit.Weights([net(250, 8)], version="x")


def test_an_evaluator_takes_only_weights_of_gnubgs_six_nets(tmp_path):
    one = bgkit.Weights([net(250, 8)])
    with pytest.raises(ValueError, match="holds 1 net; gnubg's weights have six"):
        bgkit.Evaluator(one, bearoff_os=OS0, bearoff_ts=TS0)
    one.save(tmp_path / "one.wd")
    assert len(bgkit.Weights.load(tmp_path / "one.wd")) == 1
    # The file says the same, as a file error.
    with pytest.raises(bgkit.FileError, match="one.wd: holds 1 net; gnubg's weights have six"):
        bgkit.Evaluator(tmp_path / "one.wd", no_bearoff=True)
    six = [net(n, 4) for n in (250, 214, 250, 200, 200, 200)]
    two_small = bgkit.Weights([net(100, 8), net(100, 8)])
    with pytest.raises(ValueError, match="holds 2 nets"):
        bgkit.Evaluator(two_small, no_bearoff=True)
    with pytest.raises(ValueError, match="gnubg's has 214 inputs"):
        bgkit.Weights(six[:1] + six[:1] + six[2:])
    ev = bgkit.Evaluator(bgkit.Weights(six), no_bearoff=True)
    assert ev.evaluate(["4HPwATDgc/ABMA"]).shape == (1, 5)


def test_bad_arguments_are_named(evaluator):
    with pytest.raises(ValueError, match="plies 5: at most 4"):
        evaluator.evaluate(["4HPwATDgc/ABMA"], plies=5)
    with pytest.raises(ValueError) as e:
        evaluator.evaluate(["4HPwATDgc/ABMA", "xxx"])
    assert str(e.value).startswith("position 1: position ID 'xxx'"), str(e.value)
    boards = bgkit.boards(["4HPwATDgc/ABMA"])
    with pytest.raises(ValueError, match=r"shape \(1, 2, 25\) and dtype int64"):
        evaluator.evaluate(boards.astype(np.int64))
    with pytest.raises(ValueError, match="bearoff_os/bearoff_ts, not both"):
        bgkit.Evaluator(no_bearoff=True, bearoff_os="/nonexistent")
    w = bgkit.Weights([net(250, 8)])
    with pytest.raises(ValueError, match="net -1: an index is 0 or more"):
        w.net(-1)
    with pytest.raises(ValueError, match="its index or its name"):
        w.net(1.5)


@pytest.fixture(scope="module")
def bgds(tmp_path_factory):
    d = tmp_path_factory.mktemp("given")
    ids = fixture_ids(5)
    lines = ["position_id,win,win_g,win_bg,lose_g,lose_bg"] + [f"{p},0.5,0.1,0,0.1,0" for p in ids]
    (d / "d.csv").write_text("\n".join(lines) + "\n")
    (d / "empty.csv").write_text(lines[0] + "\n")
    for name in ("d", "empty"):
        subprocess.run([tool("datasets"), "convert", str(d / f"{name}.csv"), str(d / f"{name}.bgds")],
                       check=True, capture_output=True)
    return d, ids


def test_record_numbers_in_any_integer_form(bgds):
    d, ids = bgds
    ds = bgkit.Dataset(d / "d.bgds")
    want = [ids[i] for i in (3, 0, 2)]
    for given in (np.array([3, 0, 2]), np.array([3, 0, 2], np.int32), np.array([3, 0, 2], np.uint16),
                  [3, 0, 2], (3, 0, 2), [np.int64(3), 0, 2]):
        assert ds.position_ids(given) == want, repr(given)
        assert np.array_equal(ds.boards(given), bgkit.boards(want))
    first = next(iter(ds.batches(2, seed=1, indices=[3, 0, 2])))[0]
    assert set(first) <= {0, 2, 3}
    for bad, named in ((np.ones(len(ids), bool), "dtype bool"), ([True, False], "list"),
                       (np.array([0.0, 1.0]), "dtype float64"), ("12", "str"), (np.zeros((2, 2), np.int64), "(2, 2)")):
        with pytest.raises(ValueError, match="indices are record numbers") as e:
            ds.position_ids(bad)
        assert named in str(e.value), str(e.value)
    with pytest.raises(ValueError, match=f"index {len(ids)} out of range"):
        ds.position_ids([len(ids)])


def test_an_empty_dataset_has_read_only_columns(bgds):
    d, _ = bgds
    ds = bgkit.Dataset(d / "empty.bgds")
    assert len(ds) == 0
    for col in (ds.probs, ds.se, ds.trials, ds.classes, ds.keys):
        assert len(col) == 0 and not col.flags.writeable


def test_threads_share_one_batch_iterator(bgds):
    d, ids = bgds
    batches = bgkit.Dataset(d / "d.bgds").batches(1, seed=3)
    seen, errors = [], []

    def take():
        try:
            for idx, _, _ in batches:
                seen.extend(int(i) for i in idx)
        except Exception as e:  # noqa: BLE001 - any error fails the test below
            errors.append(e)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(seen) == list(range(len(ids)))


def test_positions_and_datasets_pickle(bgds, monkeypatch):
    d, ids = bgds
    p = bgkit.Position(ids[1])
    assert pickle.loads(pickle.dumps(p)) == p
    monkeypatch.chdir(d)
    ds = bgkit.Dataset("d.bgds")
    monkeypatch.chdir("/")
    back = pickle.loads(pickle.dumps(ds))
    assert back.position_ids() == ds.position_ids() == ids
    assert np.array_equal(back.probs, ds.probs)
