//! `--threads`: worker threads, one per core unless given; 0, or more than
//! [`MAX_THREADS`], is an error in every tool.

use anyhow::{bail, Context, Result};

/// The most threads any tool starts: far more than any one machine's cores (a tool
/// never needs more threads than cores), few enough that starting them cannot exhaust
/// the system's processes or memory.
pub const MAX_THREADS: usize = 1024;

/// The value of the flag `name`, checked: between 1 and [`MAX_THREADS`].
fn checked(name: &str, t: usize) -> Result<usize> {
    match t {
        0 => bail!("{name} must be at least 1"),
        t if t > MAX_THREADS => bail!("{name} must be at most {MAX_THREADS}, got {t}"),
        t => Ok(t),
    }
}

/// The number of threads to use: the flag, or every available core.
pub fn thread_count(flag: Option<usize>) -> Result<usize> {
    thread_count_named("--threads", flag)
}

/// [`thread_count`] for a flag of another name (`trainer tourney run --workers`), which
/// its errors use.
pub fn thread_count_named(name: &str, flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(t) => checked(name, t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A rayon pool of `threads` threads (default: one per core).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(checked("--threads", t)?);
    }
    b.build().context("cannot start the worker threads")
}

/// Sets the size of rayon's global pool (left at one per core when not given).
pub fn global_threads(threads: Option<usize>) -> Result<()> {
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(checked("--threads", t)?)
            .build_global()
            .context("cannot configure the thread pool")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_threads_is_an_error_everywhere() {
        for e in [
            thread_count(Some(0)).unwrap_err(),
            thread_pool(Some(0)).unwrap_err(),
            global_threads(Some(0)).unwrap_err(),
        ] {
            assert_eq!(e.to_string(), "--threads must be at least 1");
        }
        for e in [
            thread_count(Some(MAX_THREADS + 1)).unwrap_err(),
            thread_pool(Some(100_000)).unwrap_err(),
            global_threads(Some(usize::MAX)).unwrap_err(),
        ] {
            assert!(e.to_string().starts_with("--threads must be at most 1024, got "));
        }
        assert_eq!(
            thread_count_named("--workers", Some(0)).unwrap_err().to_string(),
            "--workers must be at least 1"
        );
        assert_eq!(thread_count(Some(3)).unwrap(), 3);
        assert_eq!(thread_count(Some(MAX_THREADS)).unwrap(), MAX_THREADS);
        assert_eq!(thread_pool(Some(2)).unwrap().current_num_threads(), 2);
    }
}
