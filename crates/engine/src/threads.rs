//! The worker threads every stage that works in parallel runs on (the plan's dataset
//! preparation, the runner's units, the report's figures).

use crate::error::{Error, Result};

/// The pool of `threads` worker threads (at least one) that the engine's parallel work runs
/// on: the preparation of the datasets, the units and the report's figures.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(Error::Threads)
}
