//! Batch work off the GIL, on all cores or on a caller-chosen number of threads, in a thread pool
//! that survives `fork`, with Rust panics turned into Python exceptions.
//!
//! rayon's global pool cannot be restarted: after `os.fork()` (multiprocessing's default start
//! method on Linux) the child inherits a pool whose threads do not exist, and its first parallel
//! call waits for them forever. So the library never uses the global pool: it keeps its own pool
//! together with the id of the process that built it, and a process that finds another process's
//! pool (a forked child) builds a fresh one.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, TryLockError};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

use super::errors::catch_panics;

/// Most threads one call may start (each costs a stack; thousands only slow the work down).
pub(crate) const MAX_THREADS: usize = 1024;

/// The all-cores pool and the process that built it.
static SHARED_POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// Process id of the last process that took the shared pool; differs from ours in a fresh child.
static POOL_PID: AtomicU32 = AtomicU32::new(0);

fn build_pool(threads: usize) -> PyResult<ThreadPool> {
    // 0: rayon's default (RAYON_NUM_THREADS, else one thread per core).
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))
}

/// This process's all-cores pool, built on first use (and again in a forked child).
fn shared_pool() -> PyResult<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut slot = match SHARED_POOL.try_lock() {
        Ok(slot) => slot,
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        // Held: by a thread of ours (wait for it), or, in a child forked while a parent's thread
        // held it, by a thread that does not exist here (a private pool does the work).
        Err(TryLockError::WouldBlock) if POOL_PID.load(Ordering::Acquire) != pid => {
            return Ok(Arc::new(build_pool(0)?))
        }
        Err(TryLockError::WouldBlock) => SHARED_POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
    };
    POOL_PID.store(pid, Ordering::Release);
    match slot.as_ref() {
        Some((owner, pool)) if *owner == pid => Ok(pool.clone()),
        inherited => {
            // The parent's pool has no threads in this process: leak it rather than signal them.
            if let Some((_, parent_pool)) = inherited {
                std::mem::forget(parent_pool.clone());
            }
            let pool = Arc::new(build_pool(0)?);
            *slot = Some((pid, pool.clone()));
            Ok(pool)
        }
    }
}

/// Pools of a caller-chosen size, each with the process that built it; the most recently used first.
static SIZED_POOLS: Mutex<Vec<(u32, usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());

/// Sizes of pool kept (a call with another size builds its pool, which replaces the least recently used).
const KEPT_SIZES: usize = 4;

/// A pool of `threads` threads, built once per size and process (building 1,024 threads took 858 ms, paid
/// again by every call before); a forked child builds its own, as for the shared pool.
fn sized_pool(threads: usize) -> PyResult<Arc<ThreadPool>> {
    // More threads than four per core only wait for each other (1,024 on 2 cores: 43 ms a call to wake them):
    // the pool is at most that large; the numbers never depend on the thread count.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = threads.min(4 * cores);
    let pid = std::process::id();
    let mut pools = match SIZED_POOLS.try_lock() {
        Ok(pools) => pools,
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(TryLockError::WouldBlock) if POOL_PID.load(Ordering::Acquire) != pid => {
            return Ok(Arc::new(build_pool(threads)?))
        }
        Err(TryLockError::WouldBlock) => SIZED_POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
    };
    POOL_PID.store(pid, Ordering::Release);
    // pools of a parent process have no threads here: leak them rather than signal them
    for (_, _, inherited) in pools.iter().filter(|(owner, _, _)| *owner != pid) {
        std::mem::forget(inherited.clone());
    }
    pools.retain(|(owner, _, _)| *owner == pid);
    if let Some(at) = pools.iter().position(|(_, size, _)| *size == threads) {
        let entry = pools.remove(at);
        let pool = entry.2.clone();
        pools.insert(0, entry);
        return Ok(pool);
    }
    let pool = Arc::new(build_pool(threads)?);
    pools.insert(0, (pid, threads, pool.clone()));
    pools.truncate(KEPT_SIZES);
    Ok(pool)
}

/// Runs `work` with the GIL released, on `threads` threads (`None`: all cores). A panic in `work`
/// becomes a Python `RuntimeError` (see [`catch_panics`]).
pub(crate) fn run_released<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let pool = match threads {
        None => shared_pool()?,
        Some(n) if n == 0 || n > MAX_THREADS => {
            return Err(PyValueError::new_err(format!("threads must be between 1 and {MAX_THREADS}, or None")))
        }
        Some(n) => sized_pool(n)?,
    };
    py.allow_threads(|| catch_panics(|| pool.install(work)))
}

/// [`run_released`] for core work that may fail: its error becomes the Python exception (one `?` at the call).
pub(crate) fn run_kernel<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce() -> crate::error::Result<T> + Send,
) -> PyResult<T> {
    Ok(run_released(py, threads, work)??)
}

/// [`run_released`] on all cores.
pub(crate) fn released<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    run_released(py, None, work)
}
