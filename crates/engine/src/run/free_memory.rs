//! Giving freed memory back to the operating system between units.
//!
//! glibc's allocator keeps the memory a thread frees in that thread's arena for its next
//! allocations, and raises its threshold for serving large blocks from the arena as large
//! blocks are freed. A unit on a million rows frees hundreds of megabytes of blocks of a few
//! megabytes each; kept in two threads' arenas, they made a 1,000,000 x 20 run's peak resident
//! memory about 0.9 GB larger than its peak heap (docs/large-data.md). Trimming the arenas
//! after each unit bounds what is kept to the units in flight. Small units are left alone:
//! trimming after each of the main command's 2,253 units cost about 1.5 s of system time (the
//! freed pages are faulted in again by the next unit) and saved nothing that matters.

/// The dataset size (rows times attributes) from which the memory freed by a unit is given
/// back: 4,194,304 values, 32 MB of them.
pub const TRIM_FROM_VALUES: usize = 1 << 22;

/// Gives the free memory back after a unit on a dataset of `values` values (rows times
/// attributes) when it is large enough for its units' memory to matter.
pub fn release_after_unit(values: usize) {
    if values >= TRIM_FROM_VALUES {
        release_free_memory();
    }
}

/// Returns the allocator's free memory to the operating system (glibc's `malloc_trim`; nothing
/// on other platforms).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists, under its locks; it
    // takes no pointer and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
