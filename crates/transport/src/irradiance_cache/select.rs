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
    let mut keyed: Vec<((IVec3, u8), usize)> = cands
        .iter()
        .enumerate()
        .map(|(i, c)| ((grid(c.point, cell), dir_bin(c.oriented_normal())), i))
        .collect();
    keyed.par_sort_unstable_by(|a, b| {
        let (ka, kb) = (a.0, b.0);
        (ka.0.x, ka.0.y, ka.0.z, ka.1, a.1).cmp(&(kb.0.x, kb.0.y, kb.0.z, kb.1, b.1))
    });
    let mut groups: Vec<&[((IVec3, u8), usize)]> = Vec::new();
    let mut start = 0;
    for k in 1..=keyed.len() {
        if k == keyed.len() || keyed[k].0 != keyed[start].0 {
            groups.push(&keyed[start..k]);
            start = k;
        }
    }
    let cos_dev = MAX_NORMAL_DEV.cos();
    let kept: Vec<Vec<usize>> = groups
        .par_iter()
        .map(|g| {
            let mut near: FxHashMap<IVec3, Vec<usize>> = FxHashMap::default();
            let mut out = Vec::new();
            for &(_, i) in g.iter() {
                let c = &cands[i];
                let (p, n) = (c.point, c.oriented_normal());
                let at = grid(p, spacing);
                let mut redundant = false;
                'search: for dx in -1..=1 {
                    for dy in -1..=1 {
                        for dz in -1..=1 {
                            let Some(list) = near.get(&(at + IVec3::new(dx, dy, dz))) else {
                                continue;
                            };
                            for &k in list {
                                let o = &cands[k];
                                if o.point.distance_squared(p) < spacing * spacing
                                    && o.oriented_normal().dot(n) >= cos_dev
                                {
                                    redundant = true;
                                    break 'search;
                                }
                            }
                        }
                    }
                }
                if !redundant {
                    near.entry(at).or_default().push(i);
                    out.push(i);
                }
            }
            out
        })
        .collect();
    kept.into_iter().flatten().collect()
}
