//! The criterion benchmarks live in `benches/benches/` (`cargo bench -p bgkit-benches`)
//! and the side-by-side comparisons with gnubg and peers in `benches/*.sh`; this
//! library is empty (a package needs a target for its benchmarks).
