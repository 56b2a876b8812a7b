//! Reading the cache: the records of one bounce level in bounding-volume hierarchies of their
//! validity boxes (thesis eq. 4.1), so a lookup is a short traversal, and the weighted sum of
//! the records that pass RADIANCE's tests (`sumambient`, `extambient`).
//!
//! Records are split by the axis direction nearest their normal (as the selection cells are),
//! one hierarchy each, with the cone of normals it holds: a lookup skips the hierarchies whose
//! normals cannot pass its direction test (a floor point never walks the walls' records), and
//! each node keeps its records' largest weight, so subtrees the weight test would reject are
//! skipped too. Leaves hold the boxes in single precision beside the record index, so a leaf
//! is tested from one short run of memory. Pruning only: the sum is the one over all records.

use super::record::Record;
use glam::DVec3;

/// The six axis directions records are split by.
const AXES: [DVec3; 6] = [
    DVec3::X,
    DVec3::NEG_X,
    DVec3::Y,
    DVec3::NEG_Y,
    DVec3::Z,
    DVec3::NEG_Z,
];

/// The index in [`AXES`] of the direction nearest `n`.
fn axis_bin(n: DVec3) -> usize {
    let a = n.abs();
    if a.x >= a.y && a.x >= a.z {
        usize::from(n.x < 0.0)
    } else if a.y >= a.z {
        2 + usize::from(n.y < 0.0)
    } else {
        4 + usize::from(n.z < 0.0)
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    lo: DVec3,
    hi: DVec3,
    /// Leaf: its record; inner: index of the second child (the first follows this node).
    start: u32,
    /// One record, no children.
    leaf: bool,
    /// The largest record weight below.
    wmax: f64,
}

/// Children per node of the lookup hierarchy.
const WIDTH: usize = 8;

/// A node of the lookup hierarchy: up to eight children's boxes in single precision (rounded
/// outward), side by side so that one pass of compares tests the point against all of them.
/// A child is an inner node or one record (`leaf`): each record's box is tested in its
/// parent's compare, with no branch per record. Unused slots hold empty boxes.
#[derive(Clone, Copy, Debug)]
struct Wide {
    lo: [[f32; WIDTH]; 3],
    hi: [[f32; WIDTH]; 3],
    /// The largest record weight below each child (rounded up).
    wmax: [f32; WIDTH],
    /// Inner node index, or record index for a leaf.
    child: [u32; WIDTH],
    /// Bit k set: child k is a record.
    leaf: u8,
}

impl Wide {
    /// Bit k set: child k's box holds `p` and its weights can pass `wmin`.
    #[inline]
    fn hits(&self, p: [f32; 3], wmin: f32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline; the loads read whole arrays of this node.
        unsafe {
            use std::arch::x86_64::*;
            let mut mask = 0;
            for h in 0..WIDTH / 4 {
                let at = |a: &[f32; WIDTH]| _mm_loadu_ps(a.as_ptr().add(4 * h));
                let mut m = _mm_cmpge_ps(at(&self.wmax), _mm_set1_ps(wmin));
                for (a, &pa) in p.iter().enumerate() {
                    let x = _mm_set1_ps(pa);
                    m = _mm_and_ps(m, _mm_cmpge_ps(x, at(&self.lo[a])));
                    m = _mm_and_ps(m, _mm_cmple_ps(x, at(&self.hi[a])));
                }
                mask |= (_mm_movemask_ps(m) as u32) << (4 * h);
            }
            mask
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut mask = 0;
            for k in 0..WIDTH {
                let inside = (p[0] >= self.lo[0][k])
                    & (p[1] >= self.lo[1][k])
                    & (p[2] >= self.lo[2][k])
                    & (p[0] <= self.hi[0][k])
                    & (p[1] <= self.hi[1][k])
                    & (p[2] <= self.hi[2][k])
                    & (self.wmax[k] >= wmin);
                mask |= u32::from(inside) << k;
            }
            mask
        }
    }
}

/// `x` in single precision, rounded down (`up` false) or up, with a margin beyond the rounding
/// of the point tested, so that no test in single precision drops what the exact one keeps.
fn f32_out(x: f64, up: bool) -> f32 {
    let pad = 1e-6 * x.abs() + 1e-9;
    if up {
        (x + pad) as f32
    } else {
        (x - pad) as f32
    }
}

/// Turns the binary subtree at `b` into wide nodes (appended to `wide`); returns its index.
/// Each wide node takes the binary nodes below it, opening the widest inner one, until it
/// has eight children or only leaves.
fn widen(bin: &[Node], b: u32, wide: &mut Vec<Wide>) -> u32 {
    let mut kids = vec![b];
    if !bin[b as usize].leaf {
        kids = vec![b + 1, bin[b as usize].start];
        while kids.len() < WIDTH {
            let area = |n: &Node| {
                let e = n.hi - n.lo;
                e.x * e.y + e.y * e.z + e.z * e.x
            };
            let Some((k, _)) = kids
                .iter()
                .enumerate()
                .filter(|(_, &c)| !bin[c as usize].leaf)
                .max_by(|a, b| area(&bin[*a.1 as usize]).total_cmp(&area(&bin[*b.1 as usize])))
            else {
                break;
            };
            let c = kids[k];
            kids[k] = c + 1;
            kids.push(bin[c as usize].start);
        }
    }
    let me = wide.len();
    wide.push(Wide {
        lo: [[f32::INFINITY; WIDTH]; 3],
        hi: [[f32::NEG_INFINITY; WIDTH]; 3],
        wmax: [f32::NEG_INFINITY; WIDTH],
        child: [0; WIDTH],
        leaf: 0,
    });
    for (k, &c) in kids.iter().enumerate() {
        let n = bin[c as usize];
        let child = if !n.leaf {
            widen(bin, c, wide)
        } else {
            wide[me].leaf |= 1 << k;
            n.start
        };
        let w = &mut wide[me];
        for a in 0..3 {
            w.lo[a][k] = f32_out(n.lo[a], false);
            w.hi[a][k] = f32_out(n.hi[a], true);
        }
        w.wmax[k] = f32_out(n.wmax, true);
        w.child[k] = child;
    }
    me as u32
}

/// The hierarchy of the records whose normals lie nearest one axis direction.
#[derive(Clone, Copy, Debug)]
struct Bin {
    /// The axis direction.
    axis: DVec3,
    /// Cosine and sine of the largest angle between `axis` and a record normal of the bin.
    cone: (f64, f64),
    /// Root node (in `Level::wide`).
    root: u32,
}

/// The records of one bounce level and their hierarchies.
#[derive(Debug, Default)]
pub struct Level {
    /// Records, in the order they were made.
    pub records: Vec<Record>,
    wide: Vec<Wide>,
    /// One hierarchy per axis direction of the normals.
    bins: Vec<Bin>,
}

/// What a lookup needs of the ray asking.
pub(crate) struct Query<'a> {
    /// Hit point.
    pub p: DVec3,
    /// Unperturbed normal, oriented to the sampled side.
    pub n: DVec3,
    /// Perturbed normal, oriented to the sampled side.
    pub rn: DVec3,
    /// The ray's weight.
    pub weight: f64,
    /// Whether an opaque surface lies along a segment (origin, unit direction, length): the
    /// light-leak test for records with occluders in their ellipse. `None`: no test.
    pub occluded: Option<&'a (dyn Fn(DVec3, DVec3, f64) -> bool + Sync)>,
}

/// The box around a record's validity disc (thesis eq. 4.1: `P ± a·r·√(1 − Dᵢ²)`), stretched
/// along the normal over the depths the behind test lets through: `a·r₀` in front, `a·r_min`
/// behind.
fn record_box(r: &Record, aa: f64, minarad: f64) -> (DVec3, DVec3) {
    let rmax = aa * r.rad[0].max(r.rad[1]);
    let n = r.normal;
    let disc = (DVec3::ONE - n * n).max(DVec3::ZERO);
    let disc = DVec3::new(disc.x.sqrt(), disc.y.sqrt(), disc.z.sqrt()) * rmax;
    let (front, back) = (n * (aa * r.rad[0]), n * (-aa * minarad));
    (
        r.pos - disc + front.min(back),
        r.pos + disc + front.max(back),
    )
}

/// Builds the subtree over `order` and returns its node index.
fn build(
    boxes: &[(DVec3, DVec3)],
    records: &[Record],
    order: &mut [u32],
    nodes: &mut Vec<Node>,
) -> u32 {
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    let mut wmax = f64::NEG_INFINITY;
    for &i in order.iter() {
        lo = lo.min(boxes[i as usize].0);
        hi = hi.max(boxes[i as usize].1);
        wmax = wmax.max(records[i as usize].weight);
    }
    let me = nodes.len() as u32;
    nodes.push(Node {
        lo,
        hi,
        start: order[0],
        leaf: order.len() == 1,
        wmax,
    });
    if order.len() == 1 {
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
    build(boxes, records, left, nodes);
    nodes[me as usize].start = build(boxes, records, right, nodes);
    me
}

impl Level {
    /// Builds the hierarchies of `records` for lookups at `aa` (median splits on the widest
    /// axis of the box centres; the order it leaves is deterministic).
    pub fn new(records: Vec<Record>, aa: f64, minarad: f64) -> Level {
        let boxes: Vec<(DVec3, DVec3)> =
            records.iter().map(|r| record_box(r, aa, minarad)).collect();
        let mut by_bin: [Vec<u32>; 6] = Default::default();
        for (i, r) in records.iter().enumerate() {
            by_bin[axis_bin(r.normal)].push(i as u32);
        }
        let (mut wide, mut bins) = (Vec::new(), Vec::new());
        for (b, mut idx) in by_bin.into_iter().enumerate() {
            if idx.is_empty() {
                continue;
            }
            let axis = AXES[b];
            let c = idx
                .iter()
                .map(|&i| records[i as usize].normal.dot(axis))
                .fold(1.0f64, f64::min)
                .clamp(-1.0, 1.0);
            let mut nodes = Vec::new();
            build(&boxes, &records, &mut idx, &mut nodes);
            let root = widen(&nodes, 0, &mut wide);
            bins.push(Bin {
                axis,
                cone: (c, (1.0 - c * c).max(0.0).sqrt()),
                root,
            });
        }
        Level {
            records,
            wide,
            bins,
        }
    }

    /// The interpolated ambient value at `q` (RADIANCE's `sumambient`): the weighted mean of
    /// the extrapolated values of every record whose tests `q` passes, or `None` when none
    /// does.
    pub(crate) fn lookup(&self, q: &Query, aa: f64, minarad: f64) -> Option<DVec3> {
        if self.wide.is_empty() {
            return None;
        }
        let (maxangle, cos_l, sin_l) = angles(q.weight, aa);
        let wmin = 0.9 * q.weight;
        let wmin32 = f32_out(wmin, false);
        let p32 = q.p.to_array().map(|x| x as f32);
        let mut sum = DVec3::ZERO;
        let mut wsum = 0.0;
        let mut stack = [0u32; 256];
        for bin in &self.bins {
            // Skip when the angle to the axis exceeds the cone plus the limit: its cosine
            // is below cos(cone + limit) (never, when cone + limit reaches π).
            let (cc, sc) = bin.cone;
            let cos_sum = cc * cos_l - sc * sin_l;
            let sum_below_pi = sc * cos_l + cc * sin_l > 0.0 || cos_sum > 0.0;
            if sum_below_pi && q.n.dot(bin.axis) < cos_sum - 1e-9 {
                continue;
            }
            stack[0] = bin.root;
            let mut sp = 1;
            while sp > 0 {
                sp -= 1;
                let node = &self.wide[stack[sp] as usize];
                let mut mask = node.hits(p32, wmin32);
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    if node.leaf & (1 << k) == 0 {
                        stack[sp] = node.child[k];
                        sp += 1;
                    } else if let Some((v, w)) = weigh(
                        &self.records[node.child[k] as usize],
                        q,
                        aa,
                        minarad,
                        maxangle,
                    ) {
                        sum += v * w;
                        wsum += w;
                    }
                }
            }
        }
        (wsum > daylit_geometry::FTINY).then(|| sum / wsum)
    }
}

/// RADIANCE's largest normal deviation for a lookup of weight `weight` at `aa`, and the cosine
/// and sine of the angle between normals below which its direction test can pass. The
/// lookups of one hemisphere share their weight, so the last answer is kept per thread (the
/// `powf`, `asin` and `sin_cos` would otherwise cost as much as a short lookup).
fn angles(weight: f64, aa: f64) -> (f64, f64, f64) {
    thread_local! {
        static LAST: std::cell::Cell<(f64, f64, (f64, f64, f64))> =
            const { std::cell::Cell::new((f64::NAN, f64::NAN, (0.0, 0.0, 0.0))) };
    }
    LAST.with(|last| {
        let (w, a, got) = last.get();
        if w == weight && a == aa {
            return got;
        }
        let minangle = 10f64.to_radians();
        let mut maxangle = minangle + aa;
        if weight < 0.6 {
            maxangle = (maxangle - std::f64::consts::FRAC_PI_2) * weight.powf(0.13)
                + std::f64::consts::FRAC_PI_2;
        }
        // The direction test passes only below this angle between the normals.
        let limit = if maxangle >= 2.0 {
            std::f64::consts::FRAC_PI_2
        } else {
            (2.0 * (0.5 * maxangle).asin()).min(std::f64::consts::FRAC_PI_2)
        };
        let got = (maxangle, limit.cos(), limit.sin());
        last.set((weight, aa, got));
        got
    })
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
    // Clamped: a unit normal's dot with itself can round to just above 1 (a 45° bevel's
    // (√½, 0, √½) gives 1 + 2e-16), and the square root of the negative difference would make
    // the record's weight NaN, so that it never covered even its own point.
    let delta_r2 = (2.0 - 2.0 * d).max(0.0);
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
    // A record that cannot tell its directions apart flags all of them (`record::corral`).
    if r.corral == u32::MAX || (r.corral != 0 && r.corral & super::record::sector(v.atan2(u)) != 0)
    {
        if let Some(occ) = q.occluded {
            if leaks(r, q, occ) {
                return None;
            }
        }
    }
    let f = f.min(20.0);
    let w = (maxangle - delta_r2.sqrt()) / maxangle * (aa - delta_t2.sqrt()) / aa;
    Some((r.val * f, w))
}

/// Whether an opaque surface stands between the lookup point and a record (RADIANCE's
/// `plugaleak`): a short ray aimed 20° above the lookup's surface plane, toward the point above
/// the record along its normal.
fn leaks(r: &Record, q: &Query, occluded: &dyn Fn(DVec3, DVec3, f64) -> bool) -> bool {
    const COS70_SQ: f64 = 0.116_977_8;
    let vdif = r.pos - q.p;
    let normdot = r.normal.dot(q.n);
    let ndotd = vdif.dot(q.n);
    let nadotd = vdif.dot(r.normal);
    let a = normdot * normdot - COS70_SQ;
    let b = 2.0 * (normdot * ndotd - nadotd * COS70_SQ);
    let c = ndotd * ndotd - vdif.length_squared() * COS70_SQ;
    let (n, t) = super::record::quadratic(a, b, c);
    if n != 2 {
        return true;
    }
    if t[1] <= daylit_geometry::FTINY {
        return false;
    }
    let dir = vdif + r.normal * t[1];
    let len = dir.length();
    if len <= daylit_geometry::FTINY {
        return false;
    }
    occluded(q.p, dir / len, len)
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
            corral: 0,
        }
    }

    #[test]
    fn a_record_covers_its_own_point_on_a_diagonal_surface() {
        // A bevel of RADIANCE's genbox test output: normal halfway between +X and +Z, whose
        // dot with itself rounds to 1 + 2e-16.
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let n = DVec3::new(s, 0.0, s);
        let r = Record {
            normal: n,
            u: DVec3::Y,
            v: DVec3::new(-s, 0.0, s),
            rad: [0.6, 0.6],
            ..rec(
                DVec3::new(0.9005537204316441, 1.8922653763184178, 2.9994462795683567),
                1.0,
            )
        };
        let level = Level::new(vec![r], 0.2, 0.0094);
        let q = Query {
            p: r.pos,
            n,
            rn: n,
            weight: 1.0,
            occluded: None,
        };
        assert!(level.lookup(&q, 0.2, 0.0094).is_some());
    }

    /// Asserts that `level`'s lookup equals the weighted sum over all of `recs` (RADIANCE's
    /// maximum angle for the query's weight written out here, not taken from `angles`).
    fn assert_brute_force(
        level: &Level,
        recs: &[Record],
        q: &Query,
        aa: f64,
        minarad: f64,
        what: &str,
    ) {
        let got = level.lookup(q, aa, minarad);
        let mut maxangle = 10f64.to_radians() + aa;
        if q.weight < 0.6 {
            maxangle = (maxangle - std::f64::consts::FRAC_PI_2) * q.weight.powf(0.13)
                + std::f64::consts::FRAC_PI_2;
        }
        let (mut s, mut w) = (DVec3::ZERO, 0.0);
        for r in recs {
            if let Some((v, x)) = weigh(r, q, aa, minarad, maxangle) {
                s += v * x;
                w += x;
            }
        }
        let want = (w > 1e-6).then(|| s / w);
        match (got, want) {
            (Some(a), Some(b)) => assert!((a - b).length() < 1e-9 * b.length()),
            (None, None) => {}
            other => panic!("mismatch at {what}: {other:?}"),
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
                occluded: None,
            };
            assert_brute_force(&level, &recs, &q, aa, minarad, &format!("{p}"));
        }
    }

    #[test]
    fn pruned_traversal_matches_brute_force_with_mixed_normals_and_weights() {
        // Records on the faces of a box and on tilted planes, at two weights: the
        // direction-bin and weight pruning must not change any sum.
        let mut recs = Vec::new();
        let mut k = 0u32;
        let mut next = || {
            k = k.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            k as f64 / u32::MAX as f64
        };
        for i in 0..600 {
            let n = DVec3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
            let n = if i % 3 == 0 { AXES[i % 6] } else { n };
            let u = n.any_orthonormal_vector();
            let mut r = rec(DVec3::new(next(), next(), next()) * 2.0, 1.0 + next());
            r.normal = n;
            r.u = u;
            r.v = n.cross(u);
            r.rad = [0.5 + next(), 1.5 + next()];
            r.weight = if i % 4 == 0 { 0.1 } else { 0.5 };
            recs.push(r);
        }
        let (aa, minarad) = (0.2, 0.01);
        let level = Level::new(recs.clone(), aa, minarad);
        for j in 0..400 {
            let n = DVec3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
            let n = if j % 2 == 0 { AXES[j % 6] } else { n };
            let weight = [1.0, 0.5, 0.2, 0.05][j % 4];
            let q = Query {
                p: DVec3::new(next(), next(), next()) * 2.0,
                n,
                rn: n,
                weight,
                occluded: None,
            };
            assert_brute_force(&level, &recs, &q, aa, minarad, &format!("lookup {j}"));
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
            occluded: None,
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
