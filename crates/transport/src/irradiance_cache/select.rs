//! Greedy selection of calculation points (seed 001 §3.1): candidates are grouped into cells
//! of `CELL_SPANS × spacing` and one of six axis directions, and within each cell (in
//! parallel) a candidate is kept unless a kept one lies closer than `spacing` with a normal
//! within 0.2 rad of its own.

use super::Candidate;
use glam::{DVec3, IVec3};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Cell edge in units of the spacing (seed 001: thirty to sixty works well).
pub const CELL_SPANS: f64 = 40.0;

/// Normal deviation beyond which a nearby candidate is still kept (seed 001: 0.2 rad).
pub const MAX_NORMAL_DEV: f64 = 0.2;

/// The one of six axis directions closest to `n`.
fn dir_bin(n: DVec3) -> u8 {
    let a = n.abs();
    if a.x >= a.y && a.x >= a.z {
        u8::from(n.x < 0.0)
    } else if a.y >= a.z {
        2 + u8::from(n.y < 0.0)
    } else {
        4 + u8::from(n.z < 0.0)
    }
}

fn grid(p: DVec3, size: f64) -> IVec3 {
    let g = (p / size).floor();
    IVec3::new(g.x as i32, g.y as i32, g.z as i32)
}

/// Indices of the kept candidates, in a deterministic order (cell by cell, each in input
/// order).
pub(crate) fn select(cands: &[Candidate], spacing: f64) -> Vec<usize> {
    let cell = spacing * CELL_SPANS;
    // Normals once per candidate: the neighbour tests below read them many times.
    let normals: Vec<DVec3> = cands
        .par_iter()
        .with_min_len(1024)
        .map(Candidate::oriented_normal)
        .collect();
    // One sortable key per candidate: cell, then direction bin (cells far beyond ±2^19 merge
    // into the outermost ones, which only makes their group larger).
    let key = |p: DVec3, n: DVec3| {
        let g = grid(p, cell);
        let f = |x: i32| (i64::from(x) + (1 << 19)).clamp(0, (1 << 20) - 1) as u64;
        (f(g.x) << 43) | (f(g.y) << 23) | (f(g.z) << 3) | u64::from(dir_bin(n))
    };
    let mut keyed: Vec<(u64, u32)> = cands
        .par_iter()
        .zip(&normals)
        .enumerate()
        .with_min_len(1024)
        .map(|(i, (c, &n))| (key(c.point, n), i as u32))
        .collect();
    keyed.par_sort_unstable();
    let groups: Vec<&[(u64, u32)]> = keyed.chunk_by(|a, b| a.0 == b.0).collect();
    let cos_dev = MAX_NORMAL_DEV.cos();
    let spacing2 = spacing * spacing;
    // Kept points are filed in cells twice the spacing wide: every point within `spacing` of
    // a candidate lies in the 2 × 2 × 2 cells around the corner nearest to it. Each cell
    // holds the last point kept in it, and each kept point the one kept there before it.
    let near_cell = 2.0 * spacing;
    let kept: Vec<Vec<usize>> = groups
        .par_iter()
        .map(|g| {
            let mut last: FxHashMap<IVec3, u32> = FxHashMap::default();
            let mut out: Vec<usize> = Vec::new();
            let mut before: Vec<u32> = Vec::new();
            for &(_, i) in g.iter() {
                let i = i as usize;
                let (p, n) = (cands[i].point, normals[i]);
                let f = p / near_cell;
                let at = grid(p, near_cell);
                let side = (f - f.floor()).cmpge(DVec3::splat(0.5));
                let step = IVec3::select(side, IVec3::ONE, IVec3::NEG_ONE);
                let redundant = (0..8).any(|k| {
                    let o = IVec3::new(k & 1, (k >> 1) & 1, k >> 2) * step;
                    let mut at_k = last.get(&(at + o)).copied().unwrap_or(u32::MAX);
                    while at_k != u32::MAX {
                        let j = out[at_k as usize];
                        if cands[j].point.distance_squared(p) < spacing2
                            && normals[j].dot(n) >= cos_dev
                        {
                            return true;
                        }
                        at_k = before[at_k as usize];
                    }
                    false
                });
                if !redundant {
                    let me = out.len() as u32;
                    before.push(last.insert(at, me).unwrap_or(u32::MAX));
                    out.push(i);
                }
            }
            out
        })
        .collect();
    kept.into_iter().flatten().collect()
}
