"""bgkit from Python: the Rust engine of the bgkit toolkit (gnubg-exact positions,
evaluation, input encodings, datasets, nets, bearoff databases) under NumPy.

Everything here is the Rust crates' code; this package only converts values.
See python/README.md for a tour.
"""

from ._bgkit import (
    BGDS_HEADER_SIZE,
    Batches,
    Dataset,
    Evaluator,
    FileError,
    FileMissingError,
    Move,
    Net,
    OneSidedDb,
    Position,
    Samples,
    TwoSidedDb,
    Weights,
    __version__,
    bench_positions,
    boards,
    inputs,
    position_ids,
    read_dataset,
    simd_kernel,
)

__all__ = [
    "BGDS_HEADER_SIZE",
    "Batches",
    "Dataset",
    "Evaluator",
    "FileError",
    "FileMissingError",
    "Move",
    "Net",
    "OneSidedDb",
    "Position",
    "Samples",
    "TwoSidedDb",
    "Weights",
    "__version__",
    "bench_positions",
    "boards",
    "inputs",
    "position_ids",
    "read_dataset",
    "simd_kernel",
]
