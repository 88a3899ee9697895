"""Bad arguments from Python: each raises ValueError or TypeError naming the argument
and the value (never a bare OverflowError, a Rust-notation shape or a silent default),
and the docs a user reads with help() are there."""

import os
import subprocess
import sys

import numpy as np
import pytest

import bgkit
from conftest import OS0, WD, require, tool


def raises(exc, needle, f):
    with pytest.raises(exc) as e:
        f()
    assert needle in str(e.value), str(e.value)


def test_an_empty_path_is_refused_not_taken_as_the_default():
    # Evaluator("") used to load gnubg's weights from the default places.
    raises(ValueError, "weights: an empty path", lambda: bgkit.Evaluator(""))
    raises(ValueError, "bearoff_os: an empty path", lambda: bgkit.Evaluator(bearoff_os=""))
    raises(ValueError, "bearoff_ts: an empty path", lambda: bgkit.Evaluator(bearoff_ts=""))
    raises(ValueError, "path: an empty path", lambda: bgkit.Weights.load(""))
    raises(ValueError, "path: an empty path", lambda: bgkit.Dataset(""))
    raises(ValueError, "path: an empty path", lambda: bgkit.read_dataset(""))
    raises(ValueError, "path: an empty path", lambda: bgkit.OneSidedDb(""))
    raises(ValueError, "path: an empty path", lambda: bgkit.TwoSidedDb(""))


def test_integers_out_of_range_name_the_argument(evaluator):
    start = bgkit.Position.start()
    raises(ValueError, "invalid dice '-1 1'", lambda: start.legal_moves(-1, 1))
    raises(ValueError, "invalid dice '3 256'", lambda: start.legal_moves(3, 256))
    raises(ValueError, "invalid dice '3 4294967296'", lambda: evaluator.best_move(start, 3, 2**32))
    raises(ValueError, "plies -1", lambda: evaluator.evaluate([start], plies=-1))
    raises(ValueError, "plies 5", lambda: evaluator.best_move(start, 3, 1, plies=5))
    require(OS0)
    os0 = bgkit.OneSidedDb(OS0)
    raises(ValueError, "side[0] is -1: a count of checkers is 0 to 15", lambda: os0.index_of([-1]))
    raises(ValueError, "side[1] is 300: a count of checkers is 0 to 15", lambda: os0.index_of([0, 300]))
    # A NumPy array is a sequence of counts too.
    assert os0.index_of(np.array([1, 2], np.uint8)) == os0.index_of([1, 2])


def test_dataset_arguments_out_of_range(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("position_id,win,win_g,win_bg,lose_g,lose_bg\n4HPwATDgc/ABMA,0.5,0.1,0.01,0.1,0.01\n")
    samples = bgkit.read_dataset(path)
    raises(ValueError, "batch_size -5 is out of range", lambda: samples.batches(-5, seed=1))
    raises(ValueError, "seed -1 is out of range (0 to 2**64 - 1)", lambda: samples.batches(4, seed=-1))
    raises(ValueError, "seed 18446744073709551616 is out of range", lambda: samples.batches(4, seed=2**64))
    raises(ValueError, "epoch 4294967296 is out of range", lambda: samples.batches(4, seed=1, epoch=2**32))
    # The largest seed is a seed.
    assert len(samples.batches(4, seed=2**64 - 1)) == 1
    # An index past int64 is out of range, not of the wrong type.
    subprocess.run([tool("datasets"), "convert", str(path), str(tmp_path / "d.bgds"), "--quiet"], check=True)
    ds = bgkit.Dataset(tmp_path / "d.bgds")
    raises(ValueError, "index 1180591620717411303424 out of range", lambda: ds.boards([2**70]))
    raises(ValueError, "index 9223372036854775809 out of range",
           lambda: ds.boards(np.array([2**63 + 1], np.uint64)))
    assert ds.position_ids(np.array([0], np.uint64)) == ["4HPwATDgc/ABMA"]


def test_net_arrays_name_the_argument_and_shapes_are_pythons():
    f32 = np.float32
    raises(TypeError, "hidden_weights must be a 2-D float32 NumPy array",
           lambda: bgkit.Net(np.zeros((250, 32)), np.zeros(32, f32), np.zeros((5, 32), f32), np.zeros(5, f32)))
    raises(TypeError, "output_bias must be a 1-D float32 NumPy array",
           lambda: bgkit.Net(np.zeros((250, 32), f32), np.zeros(32, f32), np.zeros((5, 32), f32), [0.0] * 5))
    raises(ValueError, "hidden_bias has shape (31,), expected (32,)",
           lambda: bgkit.Net(np.zeros((250, 32), f32), np.zeros(31, f32), np.zeros((5, 32), f32), np.zeros(5, f32)))
    raises(ValueError, "got (3, 2, 24)", lambda: bgkit.position_ids(np.zeros((3, 2, 24), np.uint8)))
    raises(ValueError, "got (2, 24)", lambda: bgkit.Position(np.zeros((2, 24), np.uint8)))


def test_constructors_are_documented():
    # The constructors' texts are in the classes' docstrings (help(bgkit.Evaluator)).
    assert "BGKIT_DATA" in bgkit.Evaluator.__doc__
    assert "transposed" in bgkit.Net.__doc__
    assert "1.01" in bgkit.Weights.__doc__
    assert "XGID" in bgkit.Position.__doc__
    for cls in (bgkit.Dataset, bgkit.OneSidedDb, bgkit.TwoSidedDb):
        assert "FileError" in cls.__doc__, cls


def test_the_errors_say_how_to_give_a_file_in_python():
    require(WD)
    code = "import bgkit\ntry:\n    bgkit.Evaluator()\nexcept bgkit.FileError as e:\n    print(e)\n"
    env = dict(os.environ, BGKIT_DATA="/nonexistent/bgkit-data")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert "give weights=PATH" in out and "--weights" not in out, out


@pytest.mark.parametrize("value", ["Scalar", "AVX2", "avx512", "scalar"])
def test_bgkit_simd_takes_the_kernel_names_in_any_case(value):
    code = "import bgkit\nprint(bgkit.simd_kernel())"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, BGKIT_SIMD=value),
                         capture_output=True, text=True, check=True).stdout.strip()
    if value.lower() == "scalar":
        assert out == "Scalar"
    else:
        # The kernel asked for, or the best one below it on a CPU that lacks it.
        assert out in ("Scalar", "Avx2", "Avx512")
        assert out != "Avx512" or value.lower() == "avx512"


def test_bgkit_simd_naming_no_kernel_is_refused():
    code = "import bgkit\nbgkit.simd_kernel()"
    r = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, BGKIT_SIMD="avx-512"),
                       capture_output=True, text=True)
    assert r.returncode != 0 and "BGKIT_SIMD is 'avx-512'" in r.stderr, r.stderr


def test_a_missing_file_is_a_file_not_found_error_too(tmp_path):
    missing = str(tmp_path / "missing.wd")
    for make in (
        lambda: bgkit.Weights.load(missing),
        lambda: bgkit.Evaluator(missing),
        lambda: bgkit.Evaluator(bearoff_os=missing),
        lambda: bgkit.Dataset(missing),
        lambda: bgkit.read_dataset(missing),
        lambda: bgkit.OneSidedDb(missing),
        lambda: bgkit.TwoSidedDb(missing),
    ):
        with pytest.raises(FileNotFoundError) as e:
            make()
        assert isinstance(e.value, bgkit.FileError) and isinstance(e.value, bgkit.FileMissingError)
        assert e.value.errno == 2 and e.value.filename == missing
        assert str(e.value) == f"[Errno 2] No such file or directory: '{missing}'"
    # A file that is there but damaged stays a FileError only.
    bad = tmp_path / "bad.wd"
    bad.write_bytes(b"not weights")
    with pytest.raises(bgkit.FileError) as e:
        bgkit.Weights.load(str(bad))
    assert not isinstance(e.value, FileNotFoundError)

