//! The heap a built validator holds: bytes allocated while building it and not freed, counted
//! by the global allocator while a measurement is on (off, it counts nothing, so the timings
//! pay one relaxed load per allocation).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

/// The system allocator, counting live bytes while [`held_by`] measures.
pub struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed to `System` unchanged; the counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ON.load(Relaxed) {
            LIVE.fetch_add(layout.size() as isize, Relaxed);
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ON.load(Relaxed) {
            LIVE.fetch_sub(layout.size() as isize, Relaxed);
        }
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ON.load(Relaxed) {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Relaxed);
        }
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The bytes `build`'s result holds on the heap: allocated while building it, not freed
/// before it is dropped. Measured on this thread alone, nothing else running.
pub fn held_by<T>(build: impl FnOnce() -> T) -> usize {
    LIVE.store(0, Relaxed);
    ON.store(true, Relaxed);
    let built = build();
    let held = LIVE.load(Relaxed);
    ON.store(false, Relaxed);
    drop(built);
    held.max(0) as usize
}
