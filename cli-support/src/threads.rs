//! `--threads`: worker threads, one per core unless given; 0 is an error in every tool.

use anyhow::{bail, Context, Result};

/// The number of threads to use: the flag, or every available core.
pub fn thread_count(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A rayon pool of `threads` threads (default: one per core).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        b = b.num_threads(t);
    }
    b.build().context("cannot start the worker threads")
}

/// Sets the size of rayon's global pool (left at one per core when not given).
pub fn global_threads(threads: Option<usize>) -> Result<()> {
    if let Some(t) = threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
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
        assert_eq!(thread_count(Some(3)).unwrap(), 3);
        assert_eq!(thread_pool(Some(2)).unwrap().current_num_threads(), 2);
    }
}
