//! Reading the cache: the records of one bounce level in a bounding-volume hierarchy of their
//! validity boxes (thesis eq. 4.1), so a lookup is one short traversal, and the weighted sum
//! of the records that pass RADIANCE's tests (`sumambient`, `extambient`).

use super::record::Record;
use glam::DVec3;

/// Records per leaf.
const LEAF: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    lo: DVec3,
    hi: DVec3,
    /// Leaf: first record; inner: index of the second child (the first follows this node).
    start: u32,
    /// Records in a leaf; 0 for an inner node.
    count: u32,
}

/// The records of one bounce level and their hierarchy.
#[derive(Debug, Default)]
pub struct Level {
    /// Records, in hierarchy order.
    pub records: Vec<Record>,
    nodes: Vec<Node>,
}

/// What a lookup needs of the ray asking.
pub(crate) struct Query {
    /// Hit point.
    pub p: DVec3,
    /// Unperturbed normal, oriented to the sampled side.
    pub n: DVec3,
    /// Perturbed normal, oriented to the sampled side.
    pub rn: DVec3,
    /// The ray's weight.
    pub weight: f64,
}

/// The box around a record's validity disc (thesis eq. 4.1: `P ± a·r·√(1 − Dᵢ²)`), widened
/// along the normal by the depth the behind test lets through.
fn record_box(r: &Record, aa: f64, minarad: f64) -> (DVec3, DVec3) {
    let rmax = aa * r.rad[0].max(r.rad[1]);
    let n = r.normal;
    let depth = aa * r.rad[0].max(minarad);
    let ext = DVec3::new(
        rmax * (1.0 - n.x * n.x).max(0.0).sqrt() + depth * n.x.abs(),
        rmax * (1.0 - n.y * n.y).max(0.0).sqrt() + depth * n.y.abs(),
        rmax * (1.0 - n.z * n.z).max(0.0).sqrt() + depth * n.z.abs(),
    );
    (r.pos - ext, r.pos + ext)
}

impl Level {
    /// Builds the hierarchy over `records` (median splits on the widest axis of the box
    /// centres; the order it leaves is deterministic).
    pub fn new(mut records: Vec<Record>, aa: f64, minarad: f64) -> Level {
        let boxes: Vec<(DVec3, DVec3)> =
            records.iter().map(|r| record_box(r, aa, minarad)).collect();
        let mut order: Vec<u32> = (0..records.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * records.len() / LEAF + 1);
        if !records.is_empty() {
            build(&boxes, &mut order, 0, &mut nodes);
        }
        records = order.iter().map(|&i| records[i as usize]).collect();
        Level { records, nodes }
    }

    /// The interpolated ambient value at `q` (RADIANCE's `sumambient`): the weighted mean of
    /// the extrapolated values of every record whose tests `q` passes, or `None` when none
    /// does.
    pub(crate) fn lookup(&self, q: &Query, aa: f64, minarad: f64) -> Option<DVec3> {
        if self.nodes.is_empty() {
            return None;
        }
        let minangle = 10f64.to_radians();
        let mut maxangle = minangle + aa;
        if q.weight < 0.6 {
            maxangle = (maxangle - std::f64::consts::FRAC_PI_2) * q.weight.powf(0.13)
                + std::f64::consts::FRAC_PI_2;
        }
        let mut sum = DVec3::ZERO;
        let mut wsum = 0.0;
        let mut stack = [0u32; 64];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let node = &self.nodes[stack[sp] as usize];
            if q.p.cmplt(node.lo).any() || q.p.cmpgt(node.hi).any() {
                continue;
            }
            if node.count == 0 {
                stack[sp] += 1;
                stack[sp + 1] = node.start;
                sp += 2;
                continue;
            }
            let s = node.start as usize;
            for r in &self.records[s..s + node.count as usize] {
                if let Some((v, w)) = weigh(r, q, aa, minarad, maxangle) {
                    sum += v * w;
                    wsum += w;
                }
            }
        }
        (wsum > daylit_geometry::FTINY).then(|| sum / wsum)
    }
}

/// RADIANCE's record tests and weight for one record: `None` when `q` lies outside it.
fn weigh(r: &Record, q: &Query, aa: f64, minarad: f64, maxangle: f64) -> Option<(DVec3, f64)> {
    if r.weight < 0.9 * q.weight {
        return None;
    }
    let d = r.normal.dot(q.n);
    if d <= 0.0 {
        return None;
    }
    let delta_r2 = 2.0 - 2.0 * d;
    if delta_r2 >= maxangle * maxangle {
        return None;
    }
    let ck0 = q.p - r.pos;
    let d = ck0.dot(r.normal);
    if d < -minarad * aa {
        return None;
    }
    let d = d / r.rad[0];
    let mut delta_t2 = d * d;
    let aa2 = aa * aa;
    if delta_t2 >= aa2 {
        return None;
    }
    let u = ck0.dot(r.u);
    let v = ck0.dot(r.v);
    delta_t2 += (u / r.rad[0]).powi(2) + (v / r.rad[1]).powi(2);
    if delta_t2 >= aa2 {
        return None;
    }
    // First-order extrapolation by the position and rotation gradients.
    let rot = r.normal.cross(q.rn);
    let mut f = 1.0 + u * r.gpos[0] + v * r.gpos[1];
    f += rot.dot(r.u * r.gdir[0] + r.v * r.gdir[1]);
    const MIN_D: f64 = 0.05;
    if f <= MIN_D {
        return None;
    }
    let f = f.min(20.0);
    let w = (maxangle - delta_r2.sqrt()) / maxangle * (aa - delta_t2.sqrt()) / aa;
    Some((r.val * f, w))
}

/// Builds the subtree over `order` and returns its node index.
fn build(boxes: &[(DVec3, DVec3)], order: &mut [u32], base: u32, nodes: &mut Vec<Node>) -> u32 {
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for &i in order.iter() {
        lo = lo.min(boxes[i as usize].0);
        hi = hi.max(boxes[i as usize].1);
    }
    let me = nodes.len() as u32;
    nodes.push(Node {
        lo,
        hi,
        start: base,
        count: order.len() as u32,
    });
    if order.len() <= LEAF {
        return me;
    }
    let centre = |i: u32| (boxes[i as usize].0 + boxes[i as usize].1) * 0.5;
    let (mut clo, mut chi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for &i in order.iter() {
        clo = clo.min(centre(i));
        chi = chi.max(centre(i));
    }
    let ext = chi - clo;
    let axis = if ext.x >= ext.y && ext.x >= ext.z {
        0
    } else if ext.y >= ext.z {
        1
    } else {
        2
    };
    let mid = order.len() / 2;
    order.select_nth_unstable_by(mid, |&a, &b| {
        centre(a)[axis].total_cmp(&centre(b)[axis]).then(a.cmp(&b))
    });
    let (left, right) = order.split_at_mut(mid);
    build(boxes, left, base, nodes);
    let second = build(boxes, right, base + mid as u32, nodes);
    nodes[me as usize].start = second;
    nodes[me as usize].count = 0;
    me
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(pos: DVec3, val: f64) -> Record {
        Record {
            pos,
            normal: DVec3::Z,
            u: DVec3::X,
            v: DVec3::Y,
            rad: [1.0, 1.0],
            gpos: [0.0; 2],
            gdir: [0.0; 2],
            val: DVec3::splat(val),
            weight: 1.0,
        }
    }

    #[test]
    fn traversal_matches_brute_force() {
        let mut recs = Vec::new();
        for i in 0..40 {
            for j in 0..40 {
                let p = DVec3::new(i as f64 * 0.05, j as f64 * 0.07, 0.0);
                recs.push(rec(p, 1.0 + i as f64 + 0.1 * j as f64));
            }
        }
        let (aa, minarad) = (0.1, 0.01);
        let level = Level::new(recs.clone(), aa, minarad);
        for k in 0..200 {
            let p = DVec3::new((k as f64 * 0.37) % 2.0, (k as f64 * 0.61) % 2.8, 0.0);
            let q = Query {
                p,
                n: DVec3::Z,
                rn: DVec3::Z,
                weight: 1.0,
            };
            let got = level.lookup(&q, aa, minarad);
            let maxangle = 10f64.to_radians() + aa;
            let (mut s, mut w) = (DVec3::ZERO, 0.0);
            for r in &recs {
                if let Some((v, x)) = weigh(r, &q, aa, minarad, maxangle) {
                    s += v * x;
                    w += x;
                }
            }
            let want = (w > 1e-6).then(|| s / w);
            match (got, want) {
                (Some(a), Some(b)) => assert!((a - b).length() < 1e-9 * b.length()),
                (None, None) => {}
                other => panic!("mismatch at {p}: {other:?}"),
            }
        }
    }

    #[test]
    fn behind_and_far_points_miss() {
        let level = Level::new(vec![rec(DVec3::ZERO, 2.0)], 0.1, 0.01);
        let q = |p: DVec3, n: DVec3| Query {
            p,
            n,
            rn: n,
            weight: 1.0,
        };
        assert!(level
            .lookup(&q(DVec3::new(0.05, 0.0, 0.0), DVec3::Z), 0.1, 0.01)
            .is_some());
        assert!(level
            .lookup(&q(DVec3::new(0.2, 0.0, 0.0), DVec3::Z), 0.1, 0.01)
            .is_none());
        assert!(level
            .lookup(&q(DVec3::new(0.0, 0.0, -0.05), DVec3::Z), 0.1, 0.01)
            .is_none());
        assert!(level
            .lookup(&q(DVec3::ZERO, -DVec3::Z), 0.1, 0.01)
            .is_none());
    }
}
