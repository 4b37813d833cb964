//! Giving freed memory back to the operating system between units.
//!
//! glibc's allocator keeps the memory a thread frees in that thread's arena for its next
//! allocations, and raises its threshold for serving large blocks from the arena as large
//! blocks are freed. A unit on a million rows frees hundreds of megabytes of blocks of a few
//! megabytes each; kept in two threads' arenas, they made a 1,000,000 x 20 run's peak resident
//! memory about 0.9 GB larger than its peak heap (docs/large-data.md). Trimming the arenas
//! after each unit bounds what is kept to the units in flight.

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
