//! The look-up structure over a LightPoint's directions: unit vectors in an R*-tree (`rstar`),
//! each with its sample's index; distances are squared chord lengths between unit vectors.
//!
//! (kiddo, the k-d tree first used here, pulls in the `generator` crate, whose assembly leaves
//! the section switched at its end; in the release build's single LTO unit that discarded
//! faer's matrix kernels at link time.)

use glam::DVec3;
use rstar::primitives::GeomWithData;
use rstar::RTree;

type Entry = GeomWithData<[f64; 3], usize>;

/// Directions with their indices, for nearest-neighbour and range look-ups.
pub struct DirTree(RTree<Entry>);

impl DirTree {
    /// The tree of `dirs` (item `i` is `dirs[i]`).
    pub fn new(dirs: &[DVec3]) -> DirTree {
        let entries = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| GeomWithData::new(d.to_array(), i))
            .collect();
        DirTree(RTree::bulk_load(entries))
    }

    /// The index of the direction nearest to `p` and its squared distance; `None` when empty.
    pub fn nearest_one(&self, p: DVec3) -> Option<(usize, f64)> {
        self.nearest_n(p, 1).into_iter().next()
    }

    /// The `k` directions nearest to `p`, nearest first, with their squared distances.
    pub fn nearest_n(&self, p: DVec3, k: usize) -> Vec<(usize, f64)> {
        self.0
            .nearest_neighbor_iter_with_distance_2(&p.to_array())
            .take(k)
            .map(|(e, d2)| (e.data, d2))
            .collect()
    }

    /// The directions within squared distance `r2` of `p`, in no particular order.
    pub fn within(&self, p: DVec3, r2: f64) -> Vec<usize> {
        self.0
            .locate_within_distance(p.to_array(), r2)
            .map(|e| e.data)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_ups_agree_with_a_scan() {
        let dirs: Vec<DVec3> = (0..500)
            .map(|i| {
                let (a, b) = (
                    i as f64 * 2.399_963,
                    (1.0 - 2.0 * (i as f64 + 0.5) / 500.0).acos(),
                );
                DVec3::new(b.sin() * a.cos(), b.sin() * a.sin(), b.cos())
            })
            .collect();
        let tree = DirTree::new(&dirs);
        let p = DVec3::new(0.3, -0.2, 0.9).normalize();
        let mut scan: Vec<(usize, f64)> = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| (i, d.distance_squared(p)))
            .collect();
        scan.sort_by(|a, b| a.1.total_cmp(&b.1));
        assert_eq!(tree.nearest_one(p).unwrap().0, scan[0].0);
        let near: Vec<usize> = tree.nearest_n(p, 12).iter().map(|n| n.0).collect();
        assert_eq!(near, scan[..12].iter().map(|n| n.0).collect::<Vec<_>>());
        let mut within = tree.within(p, 0.05);
        within.sort_unstable();
        let mut want: Vec<usize> = scan.iter().filter(|n| n.1 <= 0.05).map(|n| n.0).collect();
        want.sort_unstable();
        assert_eq!(within, want);
        assert!(DirTree::new(&[]).nearest_one(p).is_none());
    }
}
