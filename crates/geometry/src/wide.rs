//! Our own traversal of obvhs's compressed 8-wide BVH (CWBVH).
//!
//! obvhs's `traverse!` walks the tree the way a GPU does (octant-ordered child groups, no
//! distances kept). On a CPU with incoherent rays over a large scene the time goes to
//! memory latency, so this traversal:
//! - tests all eight children of a node at once (the loops below vectorise to 8-lane AVX2),
//! - keeps every hit child (inner node or leaf) on the stack with its entry distance, nearest
//!   on top, and drops entries that a closer hit has since put out of reach without touching
//!   their memory,
//! - prefetches the nodes and leaf shapes it pushes, so that their cache misses overlap
//!   instead of following one another.
//!
//! Leaves are handed to the caller as runs of shape positions (the shapes are stored in leaf
//! order, see `Accel::reorder`).

use std::mem::MaybeUninit;

use obvhs::cwbvh::CwBvh;

/// Stack entries flagged with this bit are leaves: `(first << 2 | count) | LEAF`.
const LEAF: u32 = 1 << 31;

/// Largest first-primitive index a leaf entry can hold.
pub(crate) const MAX_PRIMS: usize = 1 << 29;

/// Deepest tree the fixed stack serves: every level pushes at most 8 and pops one.
pub(crate) const MAX_DEPTH: usize = 30;
const STACK: usize = 8 * MAX_DEPTH + 16;

/// A ray prepared for the `f32` tree (local frame), with finite reciprocal directions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WideRay {
    org: [f32; 3],
    inv: [f32; 3],
    /// Per axis, true when the direction is negative (near and far planes swap).
    neg: [bool; 3],
}

impl WideRay {
    /// `org` in the tree's local frame, `inv` the reciprocal direction (infinite for a zero
    /// component, never NaN).
    pub(crate) fn new(org: [f32; 3], inv: [f32; 3]) -> WideRay {
        WideRay {
            org,
            // An infinite reciprocal becomes huge but finite: slab distances stay finite (no
            // 0 * inf = NaN), and the ray this stands for is tilted by far less than the
            // boxes' padding over the scene's size.
            inv: inv.map(|i| i.clamp(-1e20, 1e20)),
            neg: inv.map(|i| i < 0.0),
        }
    }
}

/// Issues a prefetch of the cache line holding `p` into all cache levels.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults and never reads into the program,
    // whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Prefetches every cache line of `v[start..start + n]` (clamped to `v`).
#[inline(always)]
pub(crate) fn prefetch_run<T>(v: &[T], start: usize, n: usize) {
    if start < v.len() {
        let end = (start + n).min(v.len());
        let first = v[start..end].as_ptr().cast::<u8>();
        let bytes = (end - start) * std::mem::size_of::<T>();
        let mut off = 0;
        while off < bytes {
            prefetch(first.wrapping_add(off));
            off += 64;
        }
        // The last line, when the run does not start on a line boundary.
        prefetch(first.wrapping_add(bytes - 1));
    }
}

/// Child boxes of one node hit by the ray between `0` and `tmax`: a bit mask over the eight
/// slots and each slot's entry distance. AVX2 form of [`intersect_node_scalar`] (the same
/// arithmetic, one lane per child).
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
#[inline(always)]
fn intersect_node(node: &obvhs::cwbvh::node::CwBvhNode, r: &WideRay, tmax: f32) -> (u32, [f32; 8]) {
    use std::arch::x86_64::*;
    let q = [
        (&node.child_min_x, &node.child_max_x),
        (&node.child_min_y, &node.child_max_y),
        (&node.child_min_z, &node.child_max_z),
    ];
    // SAFETY: the cfg above admits this function only to builds with AVX2 and FMA enabled,
    // so every instruction used is available; no pointer is read or written, and the
    // transmute is between types of the same size for which every bit pattern is valid.
    unsafe {
        let bytes = |b: &[u8; 8]| _mm_set_epi64x(0, i64::from_le_bytes(*b));
        let lanes = |b: &[u8; 8]| _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes(b)));
        let mut t0 = _mm256_setzero_ps();
        let mut t1 = _mm256_set1_ps(tmax);
        for (a, &(qlo, qhi)) in q.iter().enumerate() {
            // Child plane = p + q * 2^(e - 127); the ray is moved into the quantised frame.
            let scale = _mm256_set1_ps(f32::from_bits(u32::from(node.e[a]) << 23) * r.inv[a]);
            let off = _mm256_set1_ps((node.p[a] - r.org[a]) * r.inv[a]);
            let (qn, qf) = if r.neg[a] { (qhi, qlo) } else { (qlo, qhi) };
            // Operands in this order so that a tie with the initial +0 keeps +0 (the stack
            // sorts distances by their bits).
            t0 = _mm256_max_ps(_mm256_fmadd_ps(lanes(qn), scale, off), t0);
            t1 = _mm256_min_ps(t1, _mm256_fmadd_ps(lanes(qf), scale, off));
        }
        let hit = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(t0, t1)) as u32;
        // Empty slots have all-zero metadata.
        let empty = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes(&node.child_meta), _mm_setzero_si128()));
        let near = std::mem::transmute::<__m256, [f32; 8]>(t0);
        (hit & !(empty as u32) & 0xff, near)
    }
}

/// Child boxes of one node hit by the ray between `0` and `tmax`: a bit mask over the eight
/// slots and each slot's entry distance.
#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
)))]
#[inline(always)]
fn intersect_node(node: &obvhs::cwbvh::node::CwBvhNode, r: &WideRay, tmax: f32) -> (u32, [f32; 8]) {
    intersect_node_scalar(node, r, tmax)
}

/// Portable form of `intersect_node`.
#[cfg_attr(
    all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "fma"
    ),
    allow(dead_code)
)]
#[inline(always)]
fn intersect_node_scalar(
    node: &obvhs::cwbvh::node::CwBvhNode,
    r: &WideRay,
    tmax: f32,
) -> (u32, [f32; 8]) {
    let mut lo = [[0.0f32; 8]; 3];
    let mut hi = [[0.0f32; 8]; 3];
    let q = [
        (&node.child_min_x, &node.child_max_x),
        (&node.child_min_y, &node.child_max_y),
        (&node.child_min_z, &node.child_max_z),
    ];
    for a in 0..3 {
        // Child plane = p + q * 2^(e - 127); the ray is moved into the quantised frame.
        let scale = f32::from_bits(u32::from(node.e[a]) << 23) * r.inv[a];
        let off = (node.p[a] - r.org[a]) * r.inv[a];
        let (qn, qf) = if r.neg[a] { (q[a].1, q[a].0) } else { q[a] };
        for i in 0..8 {
            lo[a][i] = f32::from(qn[i]).mul_add(scale, off);
            hi[a][i] = f32::from(qf[i]).mul_add(scale, off);
        }
    }
    let mut near = [0.0f32; 8];
    let mut hit = [0u8; 8];
    for i in 0..8 {
        // `if a > b` forms map to max/min instructions; no NaN can occur (finite inputs).
        let mut t0 = if lo[0][i] > lo[1][i] {
            lo[0][i]
        } else {
            lo[1][i]
        };
        t0 = if lo[2][i] > t0 { lo[2][i] } else { t0 };
        t0 = if t0 > 0.0 { t0 } else { 0.0 };
        let mut t1 = if hi[0][i] < hi[1][i] {
            hi[0][i]
        } else {
            hi[1][i]
        };
        t1 = if hi[2][i] < t1 { hi[2][i] } else { t1 };
        t1 = if t1 < tmax { t1 } else { tmax };
        near[i] = t0;
        hit[i] = u8::from(t0 <= t1);
    }
    // Empty slots have all-zero metadata.
    (
        byte_mask(u64::from_le_bytes(hit)) & byte_mask(u64::from_le_bytes(node.child_meta)),
        near,
    )
}

/// Bit `i` set where byte `i` of `x` is not zero.
#[inline(always)]
fn byte_mask(x: u64) -> u32 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // High bit of each byte: set when the byte is not zero (no carry crosses bytes).
    let high = (((x & LOW7) + LOW7) | x) & !LOW7;
    // Gathers bit 8i + 7 to bit 56 + i; the partial products never collide, so no carries.
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Walks `bvh` with `ray` up to `*tmax` (local distance). `leaf(first, count, tmax)` is
/// called for each leaf reached with the leaf's primitive slots `first..first + count`
/// (indices into `bvh.primitive_indices`); it may lower `tmax`, and returns true to end the
/// traversal. For a closest-hit query (`ANY == false`) leaves are visited nearest first (by
/// box entry); for any-hit (`ANY == true`) a node's leaves are tested as soon as the node is,
/// before any of its subtrees. `prefetch_leaf(first, count)` is called when a leaf is put on
/// the stack, and child nodes are prefetched, when `prefetch` is set (large scenes).
#[inline(always)]
pub(crate) fn traverse<const ANY: bool>(
    bvh: &CwBvh,
    ray: &WideRay,
    tmax: &mut f32,
    prefetch: bool,
    mut prefetch_leaf: impl FnMut(usize, usize),
    mut leaf: impl FnMut(usize, usize, &mut f32) -> bool,
) {
    if bvh.nodes.is_empty() {
        return;
    }
    // Not zeroed: clearing a stack of this size would cost a tenth of a small scene's ray.
    // An entry is one `u64`: the entry distance's bits above, the node or leaf below. The
    // distances are never negative (the node test clamps them at +0), so their bits order
    // as the distances do and the whole key sorts with one integer compare; one 8-byte
    // store and load per entry also keeps every stack read store-forwarded.
    let mut stack = [const { MaybeUninit::<u64>::uninit() }; STACK];
    stack[0] = MaybeUninit::new(0);
    let mut sp = 1usize;
    while sp > 0 {
        sp -= 1;
        // SAFETY: slots below `sp` have all been written (pushes write before raising `sp`).
        let key = unsafe { stack[sp].assume_init() };
        let tnear = f32::from_bits((key >> 32) as u32);
        let entry = key as u32;
        if tnear > *tmax {
            continue;
        }
        if entry & LEAF != 0 {
            let first = ((entry & !LEAF) >> 2) as usize;
            if leaf(first, (entry & 3) as usize, tmax) {
                return;
            }
            continue;
        }
        let node = &bvh.nodes[entry as usize];
        let (mut mask, near) = intersect_node(node, ray, *tmax);
        // Hit children go straight onto the stack above `sp`, sorted by entry distance,
        // farthest lowest (so that the nearest is popped first). One bounds check for the
        // node's (at most eight) pushes.
        let run = &mut stack[sp..sp + 8];
        let mut n = 0usize;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let meta = u32::from(node.child_meta[i]);
            let e = if node.imask & (1 << i) != 0 {
                let below = u32::from(node.imask) & ((1u32 << i) - 1);
                let child = node.child_base_idx + below.count_ones();
                if prefetch {
                    // A node is 80 bytes: two cache lines.
                    let p = std::ptr::from_ref(&bvh.nodes[child as usize]).cast::<u8>();
                    self::prefetch(p);
                    self::prefetch(p.wrapping_add(79));
                }
                child
            } else {
                let first = node.primitive_base_idx + (meta & 0x1f);
                let count = (meta >> 5).count_ones();
                if ANY {
                    if leaf(first as usize, count as usize, tmax) {
                        return;
                    }
                    continue;
                }
                if prefetch {
                    prefetch_leaf(first as usize, count as usize);
                }
                LEAF | (first << 2) | count
            };
            let k = (u64::from(near[i].to_bits()) << 32) | u64::from(e);
            // Insertion into the sorted run (at most eight entries).
            let mut j = n;
            // SAFETY: `j - 1 < n`, and the first `n` slots of `run` were written above.
            while j > 0 && unsafe { run[j - 1].assume_init() } < k {
                run[j] = run[j - 1];
                j -= 1;
            }
            run[j] = MaybeUninit::new(k);
            n += 1;
        }
        sp += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use obvhs::cwbvh::node::CwBvhNode;

    /// The vector node test (where built) and the portable one agree on every child.
    #[test]
    fn node_tests_agree() {
        let state = std::cell::Cell::new(0x9e37_79b9_7f4a_7c15u64);
        let next = || {
            let mut x = state.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            state.set(x);
            x
        };
        let unit = || (next() >> 40) as f32 / (1u64 << 24) as f32;
        for _ in 0..20000 {
            let mut node = CwBvhNode {
                p: glam::Vec3::new(unit() * 4.0 - 2.0, unit() * 4.0 - 2.0, unit() * 4.0 - 2.0),
                e: [0, 1, 2].map(|_| 120 + (next() % 8) as u8),
                ..Default::default()
            };
            for i in 0..8 {
                // Some empty slots (zero metadata).
                node.child_meta[i] = if next() % 5 == 0 { 0 } else { 0x20 | i as u8 };
                for (lo, hi) in [
                    (&mut node.child_min_x, &mut node.child_max_x),
                    (&mut node.child_min_y, &mut node.child_max_y),
                    (&mut node.child_min_z, &mut node.child_max_z),
                ] {
                    let (a, b) = ((next() % 256) as u8, (next() % 256) as u8);
                    (lo[i], hi[i]) = (a.min(b), a.max(b));
                }
            }
            let org = [unit() * 6.0 - 3.0, unit() * 6.0 - 3.0, unit() * 6.0 - 3.0];
            // Some axis-parallel rays (infinite reciprocals).
            let inv = [0, 1, 2].map(|_| match next() % 6 {
                0 => f32::INFINITY,
                1 => f32::NEG_INFINITY,
                _ => 1.0 / (unit() * 2.0 - 1.0),
            });
            let r = WideRay::new(org, inv);
            let tmax = unit() * 10.0;
            let (m1, n1) = intersect_node(&node, &r, tmax);
            let (m2, n2) = intersect_node_scalar(&node, &r, tmax);
            assert_eq!(m1, m2);
            for i in 0..8 {
                if m1 & (1 << i) != 0 {
                    assert_eq!(n1[i].to_bits(), n2[i].to_bits());
                }
            }
        }
    }

    #[test]
    fn byte_mask_marks_nonzero_bytes() {
        assert_eq!(byte_mask(0), 0);
        assert_eq!(byte_mask(u64::MAX), 0xff);
        assert_eq!(byte_mask(0x0100_0000_0080_0001), 0b1000_0101);
        assert_eq!(byte_mask(0x7f00_0000_0000_0000), 0b1000_0000);
    }
}
