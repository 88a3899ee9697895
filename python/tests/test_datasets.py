"""Datasets: a CSV of gnubg's recorded evaluations converted by the `datasets` tool
to gnubg-nn text and `.bgds`, read back from Python in every format; `.bgds` columns
are views of the mapped file (no copy); mini-batches are seeded permutations."""

import subprocess

import numpy as np
import pytest

import bgkit
from conftest import rows, tool

COLS = ["p_win", "p_wg", "p_wbg", "p_lg", "p_lbg"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The fixture's positions with gnubg's probabilities as targets and made-up
    standard errors, as CSV, gnubg-nn text and .bgds (the last two by the CLI)."""
    datasets = tool("datasets")
    d = tmp_path_factory.mktemp("data")
    fixture = rows("positions.csv")
    ids = [r["position_id"] for r in fixture]
    # gnubg's floats can stray past 1 by an ulp; dataset values are in [0, 1].
    probs = np.clip(np.array([[float(r[c]) for c in COLS] for r in fixture], dtype=np.float32), 0, 1)
    se = (np.arange(len(ids) * 5, dtype=np.float32).reshape(-1, 5) % 7) / 1000
    lines = ["position_id,win,win_g,win_bg,lose_g,lose_bg,win_se,win_g_se,win_bg_se,lose_g_se,lose_bg_se"]
    for pid, p, e in zip(ids, probs, se):
        lines.append(",".join([pid] + [repr(float(v)) for v in p] + [repr(float(v)) for v in e]))
    (d / "data.csv").write_text("\n".join(lines) + "\n")
    for ext in ("bgds", "nn"):
        subprocess.run([datasets, "convert", str(d / "data.csv"), str(d / f"data.{ext}")],
                       check=True, capture_output=True)
    classes = np.array([int(r["class"]) for r in fixture], dtype=np.uint8)
    return d, ids, probs, se, classes


def test_every_format_reads_back_what_was_written(data):
    d, ids, probs, se, _ = data
    for name in ("data.csv", "data.nn", "data.bgds"):
        s = bgkit.read_dataset(d / name)
        assert len(s) == len(ids)
        assert s.position_ids() == ids, name
        assert np.array_equal(s.probs, probs), name
        assert np.array_equal(s.boards(), bgkit.boards(ids))
    assert np.array_equal(bgkit.read_dataset(d / "data.csv").se, se)
    assert bgkit.read_dataset(d / "data.nn").se is None  # gnubg-nn text has none
    assert np.array_equal(bgkit.read_dataset(d / "data.csv", format="csv").probs, probs)


def test_bgds_columns_are_views_of_the_mapped_file(data):
    d, ids, probs, se, classes = data
    ds = bgkit.Dataset(d / "data.bgds")
    assert len(ds) == len(ids) and ds.has_se
    p = ds.probs
    assert p.shape == (len(ids), 5) and p.dtype == np.float32
    assert np.array_equal(p, probs) and np.array_equal(ds.se, se)
    assert np.array_equal(ds.classes, classes)  # gnubg's classes, default databases
    assert ds.position_ids() == ids
    assert ds.position_ids(np.array([5, 0])) == [ids[5], ids[0]]
    assert np.array_equal(ds.boards(), bgkit.boards(ids))
    # No copy: every column points into one 56-byte record per row, after the header,
    # read-only, and owned by the Dataset (which keeps the file mapped).
    base = ds.keys.ctypes.data
    assert p.strides == (56, 4) and ds.keys.strides == (56, 1) and ds.trials.strides == (56,)
    assert p.ctypes.data == base + 16 and ds.se.ctypes.data == base + 36
    assert ds.trials.ctypes.data == base + 12 and ds.classes.ctypes.data == base + 10
    assert not p.flags.owndata and not p.flags.writeable and p.base is ds
    with pytest.raises(ValueError):
        p[0, 0] = 0.5
    del ds
    assert np.array_equal(p, probs)  # the array keeps the map alive


def test_a_damaged_bgds_raises_file_error_naming_it(data, tmp_path):
    d = data[0]
    raw = bytearray((d / "data.bgds").read_bytes())
    raw[64 + 20] ^= 0x40
    bad = tmp_path / "damaged.bgds"
    bad.write_bytes(bytes(raw))
    with pytest.raises(bgkit.FileError, match="damaged.bgds.*checksum"):
        bgkit.Dataset(bad)
    bad.write_bytes(bytes(raw[:100]))
    with pytest.raises(OSError, match="damaged.bgds"):
        bgkit.Dataset(bad)
    with pytest.raises(bgkit.FileError, match="missing.bgds"):
        bgkit.Dataset(tmp_path / "missing.bgds")
    (tmp_path / "bad.csv").write_text("position_id,win,win_g,win_bg,lose_g,lose_bg\nnot-an-id,1,0,0,0,0\n")
    with pytest.raises(bgkit.FileError, match="bad.csv:2"):
        bgkit.read_dataset(tmp_path / "bad.csv")


def test_batches_are_seeded_permutations_of_inputs_and_targets(data):
    d, ids, probs, _, classes = data
    ds = bgkit.Dataset(d / "data.bgds")
    contact = np.flatnonzero(ds.classes == 10)
    batches = list(ds.batches(256, seed=7, net="contact", indices=contact))
    assert len(batches) == len(ds.batches(256, seed=7, indices=contact)) == -(-len(contact) // 256)
    order = np.concatenate([b[0] for b in batches])
    assert sorted(order) == list(contact) and not np.array_equal(order, contact)
    boards = bgkit.boards(ids)
    for idx, x, y in batches[:3]:
        assert np.array_equal(x, bgkit.inputs(boards[idx], net="contact"))
        assert np.array_equal(y, probs[idx])
    again = np.concatenate([b[0] for b in ds.batches(256, seed=7, indices=contact)])
    assert np.array_equal(order, again)
    other = np.concatenate([b[0] for b in ds.batches(256, seed=8, indices=contact)])
    epoch1 = np.concatenate([b[0] for b in ds.batches(256, seed=7, epoch=1, indices=contact)])
    assert not np.array_equal(order, other) and not np.array_equal(order, epoch1)
    # The text formats give the same batches as the mapped file.
    s = bgkit.read_dataset(d / "data.csv")
    for (i1, x1, y1), (i2, x2, y2) in zip(ds.batches(100, seed=3, net="race"), s.batches(100, seed=3, net="race")):
        assert np.array_equal(i1, i2) and np.array_equal(x1, x2) and np.array_equal(y1, y2)
    assert all(len(b[0]) == 1000 for b in ds.batches(1000, seed=1, drop_last=True))
    with pytest.raises(ValueError, match="out of range"):
        ds.batches(10, seed=1, indices=np.array([len(ids)]))
