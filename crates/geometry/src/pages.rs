//! Large arrays that rays visit at random (the BVH nodes, the shapes) on 2 MiB pages.
//!
//! Incoherent rays over a million-triangle scene touch memory all over a ~100 MB working set;
//! with 4 KiB pages nearly every access also misses the TLB. Linux backs a region with
//! transparent huge pages when asked (`madvise`), but only for memory not yet touched, so the
//! arrays are copied into fresh, advised buffers once they are built.

/// Returns a copy of `v` in a buffer advised to use transparent huge pages (where the OS
/// supports it; elsewhere just a copy).
pub fn on_huge_pages<T: Clone>(v: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(v.len());
    advise(out.as_mut_ptr().cast(), std::mem::size_of_val(v));
    out.extend_from_slice(v);
    out
}

/// Collects an iterator of known length into an advised buffer.
pub fn collect_on_huge_pages<T>(len: usize, it: impl Iterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(len);
    advise(out.as_mut_ptr().cast(), len * std::mem::size_of::<T>());
    out.extend(it);
    out
}

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    // Only whole huge pages inside the buffer can be advised; small buffers gain nothing.
    let start = (ptr as usize).div_ceil(HUGE) * HUGE;
    let end = (ptr as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside an allocation we own and have not yet written;
        // madvise only changes how the kernel backs it, never its contents or validity.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _len: usize) {}
