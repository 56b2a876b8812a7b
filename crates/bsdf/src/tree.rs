//! Tensor trees (`TensorTree3`, isotropic; `TensorTree4`, anisotropic) as RADIANCE's
//! `bsdf_t.c` holds them: a tree of nested `{ }` in ScatteringData whose nodes split every
//! dimension in two, with leaves that are grids of 2^(k·n) values.
//!
//! Coordinates of the unit hypercube come from directions through the Shirley-Chiu square-to-
//! disk mapping. Anisotropic (4-D): incident (x, y) negated, then outgoing (x, y). Isotropic
//! (3-D): the incident direction's distance from the normal (only the lower half of the first
//! axis is used), then the outgoing direction turned about Z so that the incident azimuth is
//! fixed. A lookup takes the leaf the point falls in (no interpolation) and, as RADIANCE does,
//! perturbs it by at most 0.04 % by the leaf's position. Directional-hemispherical values add
//! up the leaves of the slice an incident direction selects, that direction first quantised to
//! the finest leaf width (at most 1/256); transmission read from the other side uses the other
//! side's data by reciprocity for 4-D trees only, as in RADIANCE. Colour trees (CIE-u, CIE-v)
//! are refused.

use crate::colour::Value;
use crate::klems::split_unit;
use crate::xml::{channel_of, child, children, side_of, text_of, Channel, Ctx};
use crate::{Bsdf, BsdfError, Component, Side, SideData};
use glam::DVec3;
use roxmltree::Node as XNode;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::f64::consts::{FRAC_PI_4, PI};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// RADIANCE's small tolerance (`FTINY`).
const FTINY: f64 = 1e-6;

/// A tree node: 2^n subtrees, or a grid of 2^(log2·n) values (dimension 0 varying slowest).
#[derive(Debug)]
enum Node {
    Branch(Vec<Node>),
    Grid { log2: u32, v: Vec<f32> },
}

/// One component's tree.
#[derive(Debug)]
pub struct Tree {
    ndim: usize,
    side: Side,
    root: Node,
    /// Quantisation of incident coordinates for distributions.
    quantum: f64,
    /// Tells this tree's slices apart in the per-thread cache.
    id: u64,
}

/// Slices kept per thread: walking a tree for a slice costs far more than the queries
/// themselves, and incident directions are quantised, so the same slices come back (a
/// material queries one several times a hit, and hits repeat directions). RADIANCE keeps its
/// distributions cached too. Emptied when it holds this many.
const SLICE_CACHE: usize = 4096;

type SliceKey = (u64, [u64; 3]);

thread_local! {
    static SLICES: RefCell<FxHashMap<SliceKey, Rc<Slice>>> = RefCell::new(FxHashMap::default());
}

/// A new tree's cache identity.
fn next_tree_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A leaf of a slice: its value, the lower corner of its output square and its width.
struct Leaf {
    val: f32,
    corner: [f64; 2],
    width: f64,
}

/// The leaves an incident direction selects, with their directional-hemispherical total.
struct Slice {
    leaves: Vec<Leaf>,
    total: f64,
    /// Which side the light leaves from (`true`: the back).
    out_back: bool,
    /// Smallest and largest output leaf width.
    wmin: f64,
    wmax: f64,
}

/// The Shirley-Chiu map of a point of the unit disk to the unit square (`disk2square`).
fn disk2square(x: f64, y: f64) -> [f64; 2] {
    let r = (x * x + y * y).sqrt();
    let mut phi = y.atan2(x);
    if phi < -FRAC_PI_4 {
        phi += 2.0 * PI;
    }
    let (a, b) = if phi < FRAC_PI_4 {
        (r, phi * r / FRAC_PI_4)
    } else if phi < 3.0 * FRAC_PI_4 {
        (-(phi - PI / 2.0) * r / FRAC_PI_4, r)
    } else if phi < 5.0 * FRAC_PI_4 {
        (-r, (phi - PI) * -r / FRAC_PI_4)
    } else {
        ((phi - 3.0 * PI / 2.0) * r / FRAC_PI_4, -r)
    };
    let s = 0.5 / 0.9999999999999;
    [a * s + 0.5, b * s + 0.5]
}

/// The inverse map, square to disk (`square2disk`).
pub(crate) fn square2disk(sx: f64, sy: f64) -> [f64; 2] {
    let (a, b) = (2.0 * sx - 1.0, 2.0 * sy - 1.0);
    let (r, phi) = if a > -b {
        if a > b {
            (a, FRAC_PI_4 * (b / a))
        } else {
            (b, FRAC_PI_4 * (2.0 - a / b))
        }
    } else if a < b {
        (-a, FRAC_PI_4 * (4.0 + b / a))
    } else if b != 0.0 {
        (-b, FRAC_PI_4 * (6.0 - a / b))
    } else {
        (-b, 0.0)
    };
    let r = r * 0.9999999999999;
    [r * phi.cos(), r * phi.sin()]
}

/// `v` turned by `angle` (right-handed) about Z.
fn spin_z(v: DVec3, angle: f64) -> DVec3 {
    if angle == 0.0 {
        return v;
    }
    let (s, c) = angle.sin_cos();
    DVec3::new(v.x * c - v.y * s, v.y * c + v.x * s, v.z)
}

impl Node {
    fn smallest_leaf(&self) -> f64 {
        match self {
            Node::Branch(ch) => 0.5 * ch.iter().map(Node::smallest_leaf).fold(1.0, f64::min),
            Node::Grid { log2, .. } => 1.0 / (1u64 << log2) as f64,
        }
    }

    fn min(&self) -> f32 {
        match self {
            Node::Branch(ch) => ch.iter().map(Node::min).fold(f32::MAX, f32::min),
            Node::Grid { v, .. } => v.iter().cloned().fold(f32::MAX, f32::min),
        }
    }

    fn subtract(&mut self, x: f32) {
        match self {
            Node::Branch(ch) => ch.iter_mut().for_each(|c| c.subtract(x)),
            Node::Grid { v, .. } => v.iter_mut().for_each(|e| *e = (*e - x).max(0.0)),
        }
    }

    /// The value at `pos` with its leaf's lower corner and width (`SDlookupTre`).
    fn lookup(&self, nd: usize, pos: [f64; 4]) -> (f32, [f64; 4], f64) {
        let (mut node, mut p, mut corner, mut size) = (self, pos, [0.0; 4], 1.0);
        loop {
            match node {
                Node::Branch(ch) => {
                    size *= 0.5;
                    let mut n = 0;
                    for i in (0..nd).rev() {
                        let sp = 2.0 * p[i];
                        let t = (sp >= 1.0) as usize;
                        n |= t << i;
                        p[i] = sp - t as f64;
                        corner[i] += t as f64 * size;
                    }
                    node = &ch[n];
                }
                Node::Grid { log2, v } => {
                    if *log2 == 0 {
                        return (v[0], corner, size);
                    }
                    let res = (1usize << log2) as f64;
                    let (mut n, mut t) = (0usize, 0);
                    size /= res;
                    for i in (0..nd).rev() {
                        let k = ((res * p[i]) as usize).min(res as usize - 1);
                        n += k << t;
                        t += log2;
                        corner[i] += k as f64 * size;
                    }
                    return (v[n], corner, size);
                }
            }
        }
    }

    /// The mean of the leaves over the box [bmin, bmax) of the unit hypercube
    /// (`SDavgTreBox`).
    fn avg_box(&self, nd: usize, bmin: &[f64; 4], bmax: &[f64; 4]) -> f64 {
        for i in 0..nd {
            if bmin[i] >= 1.0 || bmax[i] <= 0.0 || bmin[i] >= bmax[i] {
                return 0.0;
            }
        }
        match self {
            Node::Branch(ch) => {
                let (mut sum, mut wsum) = (0.0, 1e-20);
                for (n, c) in ch.iter().enumerate().rev() {
                    let (mut smin, mut smax) = ([0.0; 4], [0.0; 4]);
                    let mut w = 1.0;
                    for i in (0..nd).rev() {
                        smin[i] = 2.0 * bmin[i];
                        smax[i] = 2.0 * bmax[i];
                        if n & 1 << i != 0 {
                            smin[i] -= 1.0;
                            smax[i] -= 1.0;
                        }
                        smin[i] = smin[i].max(0.0);
                        smax[i] = smax[i].min(1.0);
                        if smin[i] >= smax[i] {
                            w = 0.0;
                            break;
                        }
                        w *= smax[i] - smin[i];
                    }
                    if w > 1e-10 {
                        sum += w * c.avg_box(nd, &smin, &smax);
                        wsum += w;
                    }
                }
                sum / wsum
            }
            Node::Grid { log2, v } => {
                let res = 1usize << log2;
                let (mut lo, mut hi) = ([0usize; 4], [0usize; 4]);
                let mut count = 1;
                for i in 0..nd {
                    lo[i] = if bmin[i] <= 0.0 {
                        0
                    } else {
                        (res as f64 * bmin[i]) as usize
                    };
                    hi[i] = if bmax[i] >= 1.0 {
                        res
                    } else {
                        (res as f64 * bmax[i] + 0.999999) as usize
                    };
                    count *= hi[i].saturating_sub(lo[i]);
                }
                if count == 0 {
                    return 0.0;
                }
                let mut sum = 0.0;
                each_cell(nd, lo, hi, |idx| {
                    let mut n = 0;
                    for &k in &idx[..nd] {
                        n = (n << log2) + k;
                    }
                    sum += v[n] as f64;
                });
                sum / count as f64
            }
        }
    }

    /// Visits the leaves whose extent holds `pos` in the dimensions of `mask`, with each
    /// leaf's lower corner and width (`SDtraverseTre`).
    fn traverse(
        &self,
        nd: usize,
        pos: &[f64; 4],
        mask: u32,
        cmin: [f64; 4],
        csiz: f64,
        f: &mut dyn FnMut(f32, &[f64; 4], f64),
    ) {
        match self {
            Node::Branch(ch) => {
                let half = 0.5 * csiz;
                for (n, c) in ch.iter().enumerate() {
                    let mut skip = false;
                    let mut b = cmin;
                    for i in 0..nd {
                        let upper = n & 1 << i != 0;
                        if mask & 1 << i != 0 && (pos[i] >= cmin[i] + half) != upper {
                            skip = true;
                            break;
                        }
                        if upper {
                            b[i] += half;
                        }
                    }
                    if !skip {
                        c.traverse(nd, pos, mask, b, half, f);
                    }
                }
            }
            Node::Grid { log2, v } => {
                if *log2 == 0 {
                    f(v[0], &cmin, csiz);
                    return;
                }
                let res = 1usize << log2;
                let w = csiz / res as f64;
                let (mut lo, mut hi) = ([0usize; 4], [res; 4]);
                for i in 0..nd {
                    if mask & 1 << i != 0 {
                        let k = (((pos[i] - cmin[i]) / w) as usize).min(res - 1);
                        lo[i] = k;
                        hi[i] = k + 1;
                    }
                }
                each_cell(nd, lo, hi, |idx| {
                    let mut n = 0;
                    let mut b = cmin;
                    for i in 0..nd {
                        n = (n << log2) + idx[i];
                        b[i] += w * idx[i] as f64;
                    }
                    f(v[n], &b, w);
                });
            }
        }
    }
}

/// Visits every cell of the box `lo..hi` in the first `nd` dimensions of a grid, the last
/// dimension fastest. The box must not be empty.
fn each_cell(nd: usize, lo: [usize; 4], hi: [usize; 4], mut f: impl FnMut(&[usize; 4])) {
    let mut idx = lo;
    loop {
        f(&idx);
        let mut i = nd;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            idx[i] += 1;
            if idx[i] < hi[i] {
                break;
            }
            idx[i] = lo[i];
        }
    }
}

impl Tree {
    /// The hypercube position of a pair of directions, after RADIANCE's side rules
    /// (transmission read the other way round by reciprocity); none when the pair does not
    /// belong to this component.
    fn grid_pos(&self, mut inv: DVec3, mut outv: DVec3) -> Option<[f64; 4]> {
        match self.side {
            Side::Rf if outv.z < 0.0 || inv.z < 0.0 => return None,
            Side::Rb if outv.z > 0.0 || inv.z > 0.0 => return None,
            Side::Tf => {
                if outv.z > 0.0 {
                    if inv.z > 0.0 {
                        return None;
                    }
                    std::mem::swap(&mut inv, &mut outv);
                } else if inv.z < 0.0 {
                    return None;
                }
            }
            Side::Tb => {
                if inv.z > 0.0 {
                    if outv.z > 0.0 {
                        return None;
                    }
                    std::mem::swap(&mut inv, &mut outv);
                } else if outv.z < 0.0 {
                    return None;
                }
            }
            _ => {}
        }
        let mut p = [0.0; 4];
        if self.ndim == 3 {
            let r = spin_z(outv, -(-inv.y).atan2(-inv.x));
            p[0] = (0.5 - FTINY) - 0.5 * (inv.x * inv.x + inv.y * inv.y).sqrt();
            [p[1], p[2]] = disk2square(r.x, r.y);
        } else {
            [p[0], p[1]] = disk2square(-inv.x, -inv.y);
            [p[2], p[3]] = disk2square(outv.x, outv.y);
        }
        Some(p)
    }

    /// The value for a pair of directions (`SDqueryTre`).
    pub fn eval(&self, inv: DVec3, outv: DVec3) -> Option<Value> {
        let p = self.grid_pos(inv, outv)?;
        let (y, corner, _) = self.root.lookup(self.ndim, p);
        let d: f64 = (0..self.ndim)
            .map(|i| {
                let x = (2u32 << i) as f64 / (corner[i] + 0.01687);
                x - x.trunc() - 0.5
            })
            .sum();
        Some(Value::grey((y as f64 * (1.0 + 1e-4 * d)) as f32 as f64))
    }

    /// The leaves selected by light arriving from `inv` (`SDgetTreCDist`), from this
    /// thread's cache when a recent query fell in the same quantum.
    fn slice(&self, inv: DVec3) -> Option<Rc<Slice>> {
        let (pos, reverse) = self.slice_key(inv)?;
        let key = (
            self.id,
            [
                pos[0].to_bits() ^ pos[2].to_bits(),
                pos[1].to_bits() ^ pos[3].to_bits(),
                u64::from(reverse),
            ],
        );
        if let Some(s) = SLICES.with_borrow(|c| c.get(&key).cloned()) {
            return Some(s);
        }
        let s = Rc::new(self.make_slice(pos, reverse));
        SLICES.with_borrow_mut(|c| {
            if c.len() >= SLICE_CACHE {
                c.clear();
            }
            c.insert(key, s.clone());
        });
        Some(s)
    }

    /// The quantised position of `inv` in the tree's incident dimensions and whether the
    /// component is read backwards; none when `inv` is on a side the component does not see.
    fn slice_key(&self, inv: DVec3) -> Option<([f64; 4], bool)> {
        let reverse = match self.side {
            Side::Rf if inv.z < 0.0 => return None,
            Side::Rb if inv.z > 0.0 => return None,
            Side::Tf => inv.z < 0.0,
            Side::Tb => inv.z > 0.0,
            _ => false,
        };
        let mut c = [0.0; 2];
        if self.ndim == 3 {
            if reverse {
                // RADIANCE does not read isotropic transmission backwards: an empty slice.
                return Some(([f64::NAN; 4], true));
            }
            c[0] = (0.5 - FTINY) - 0.5 * (inv.x * inv.x + inv.y * inv.y).sqrt();
        } else if reverse {
            c = disk2square(inv.x, inv.y);
        } else {
            c = disk2square(-inv.x, -inv.y);
        }
        let q = self.quantum;
        let mut pos = [0.0; 4];
        let off = if reverse { 2 } else { 0 };
        for i in 0..self.ndim - 2 {
            pos[i + off] = (c[i] / q).floor() * q + 0.5 * q;
        }
        Some((pos, reverse))
    }

    /// The slice at a quantised incident position (`make_cdist`).
    fn make_slice(&self, pos: [f64; 4], reverse: bool) -> Slice {
        if self.ndim == 3 && reverse {
            return Slice {
                leaves: Vec::new(),
                total: 0.0,
                out_back: false,
                wmin: 0.0,
                wmax: 0.0,
            };
        }
        let nic = self.ndim - 2;
        let off = if reverse { 2 } else { 0 };
        let mask = ((1u32 << nic) - 1) << off;
        let mut leaves = Vec::new();
        let mut f = |val: f32, cmin: &[f64; 4], csiz: f64| {
            let corner = if reverse {
                [1.0 - cmin[0] - csiz, 1.0 - cmin[1] - csiz]
            } else {
                [cmin[nic], cmin[nic + 1]]
            };
            leaves.push(Leaf {
                val,
                corner,
                width: csiz,
            });
        };
        self.root
            .traverse(self.ndim, &pos, mask, [0.0; 4], 1.0, &mut f);
        // Widths in RADIANCE's 16-bit units, as its totals are made.
        const IW: f64 = 65536.0;
        let wid = |w: f64| (w * IW + 0.5).floor();
        let total = leaves
            .iter()
            .map(|l| l.val as f64 * wid(l.width) * wid(l.width))
            .sum::<f64>()
            + 1e-20;
        let wmin = leaves.iter().map(|l| wid(l.width)).fold(IW, f64::min) / IW;
        let wmax = leaves.iter().map(|l| wid(l.width)).fold(0.0, f64::max) / IW;
        let side = match (self.side, reverse) {
            (Side::Tf, true) => Side::Tb,
            (Side::Tb, true) => Side::Tf,
            (s, _) => s,
        };
        Slice {
            leaves,
            total: total * PI / IW / IW,
            out_back: matches!(side, Side::Rb | Side::Tf),
            wmin,
            wmax,
        }
    }

    /// The directional-hemispherical value for `inv`.
    pub fn hemi(&self, inv: DVec3) -> f64 {
        self.slice(inv).map_or(0.0, |s| s.total)
    }

    /// A direction drawn for `inv` with `u` in [0, 1): a leaf in proportion to its value
    /// times its area, then uniformly within it.
    pub fn sample(&self, inv: DVec3, u: f64) -> Option<DVec3> {
        let s = self.slice(inv)?;
        let weights: Vec<f64> = s
            .leaves
            .iter()
            .map(|l| l.val as f64 * l.width * l.width)
            .collect();
        let sum: f64 = weights.iter().sum();
        if sum <= 0.0 {
            return None;
        }
        let mut x = u * sum;
        let mut k = 0;
        while k + 1 < weights.len() && x >= weights[k] {
            x -= weights[k];
            k += 1;
        }
        let r = (x / weights[k]).clamp(0.0, 1.0 - 1e-12);
        let (a, b) = split_unit(r);
        let l = &s.leaves[k];
        let [dx, dy] = square2disk(l.corner[0] + a * l.width, l.corner[1] + b * l.width);
        let z = (1.0 - dx * dx - dy * dy).max(0.0).sqrt();
        let v = DVec3::new(dx, dy, if s.out_back { -z } else { z });
        Some(if self.ndim == 3 {
            spin_z(v, (-inv.y).atan2(-inv.x))
        } else {
            v
        })
    }

    /// Updates (min, max) projected solid angle (`SDqueryTreProjSA`).
    pub fn proj_sa(&self, psa: &mut (f64, f64), v1: DVec3, v2: Option<DVec3>) {
        let (lo, hi) = match v2 {
            Some(v2) => match self.grid_pos(v1, v2) {
                Some(p) => {
                    let (_, _, w) = self.root.lookup(self.ndim, p);
                    (PI * w * w, PI * w * w)
                }
                None => return,
            },
            None => match self.slice(v1) {
                Some(s) if !s.leaves.is_empty() => (PI * s.wmin * s.wmin, PI * s.wmax * s.wmax),
                _ => (0.0, 0.0),
            },
        };
        psa.1 = psa.1.max(hi);
        if lo > 0.0 && lo < psa.0 {
            psa.0 = lo;
        }
    }

    /// Largest directional-hemispherical value over incident bands of the finest width (at
    /// least 1/32), and the smallest leaf's projected solid angle (`get_extrema`).
    fn extrema(&self) -> (f64, f64) {
        let mut step = self.root.smallest_leaf();
        let min_psa = PI * step * step;
        step = step.max(1.0 / 32.0);
        let nd = self.ndim;
        let mut max_hemi = 0f64;
        if nd == 3 {
            let mut b0 = 0.0;
            while b0 < 0.5 - FTINY {
                let h = self
                    .root
                    .avg_box(nd, &[b0, 0.0, 0.0, 0.0], &[b0 + step, 1.0, 1.0, 0.0]);
                max_hemi = max_hemi.max(h);
                b0 += step;
            }
        } else {
            let mut b0 = 0.0;
            while b0 < 1.0 - FTINY {
                let mut b1 = 0.0;
                while b1 < 1.0 - FTINY {
                    let h = self.root.avg_box(
                        nd,
                        &[b0, b1, 0.0, 0.0],
                        &[b0 + step, b1 + step, 1.0, 1.0],
                    );
                    max_hemi = max_hemi.max(h);
                    b1 += step;
                }
                b0 += step;
            }
        }
        (max_hemi * PI, min_psa)
    }

    /// Splits off the smallest value (over the used half of an isotropic tree) as the
    /// Lambertian part, unless it is below 0.01/π or at least 1.5/π (`subtract_min_Y`).
    fn subtract_min(&mut self) -> f64 {
        let cap = (1.5 / PI) as f32;
        let vmin = if self.ndim == 3 {
            match &self.root {
                Node::Branch(ch) => (0..8).step_by(2).map(|n| ch[n].min()).fold(cap, f32::min),
                Node::Grid { log2: 0, v } => v[0],
                Node::Grid { log2, v } => {
                    v[..1 << (3 * log2 - 1)].iter().cloned().fold(cap, f32::min)
                }
            }
        } else {
            self.root.min()
        };
        if vmin >= cap || vmin as f64 <= 0.01 / PI {
            return 0.0;
        }
        self.root.subtract(vmin);
        PI * vmin as f64
    }
}

/// Reads text of nested braces into a tree (`load_tree_data`).
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    base: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) -> Option<u8> {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.skip_ws() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn node(&mut self, cx: &Ctx, nd: usize, depth: usize) -> Result<Node, BsdfError> {
        if !self.eat(b'{') {
            return Err(cx.err_at(self.base + self.at, "missing '{' in tensor tree"));
        }
        if depth > 24 {
            return Err(cx.err_at(self.base + self.at, "tensor tree nested too deeply"));
        }
        let node = if self.skip_ws() == Some(b'{') {
            let mut ch = Vec::with_capacity(1 << nd);
            for _ in 0..1 << nd {
                ch.push(self.node(cx, nd, depth + 1)?);
            }
            Node::Branch(ch)
        } else {
            let start = self.at;
            let mut v = Vec::new();
            loop {
                match self.skip_ws() {
                    Some(b'}') | None => break,
                    _ => {}
                }
                let from = self.at;
                while self.at < self.s.len()
                    && !self.s[self.at].is_ascii_whitespace()
                    && self.s[self.at] != b','
                    && self.s[self.at] != b'}'
                {
                    self.at += 1;
                }
                let word = String::from_utf8_lossy(&self.s[from..self.at]);
                let x: f64 = word.parse().map_err(|_| {
                    cx.err_at(
                        self.base + from,
                        format!("expected a number in tensor tree, found '{word}'"),
                    )
                })?;
                v.push(x.max(0.0) as f32);
                self.eat(b',');
            }
            let n = v.len();
            let log2 = (0..20).find(|k| n == 1usize << (k * nd)).ok_or_else(|| {
                cx.err_at(
                    self.base + start,
                    format!("illegal value count in tensor tree: {n} is not a power of 2^{nd}"),
                )
            })?;
            Node::Grid {
                log2: log2 as u32,
                v,
            }
        };
        if !self.eat(b'}') {
            return Err(cx.err_at(self.base + self.at, "missing '}' in tensor tree"));
        }
        self.eat(b',');
        Ok(node)
    }
}

/// Reads the tensor-tree blocks of a layer (`SDloadTre`) and splits off the Lambertian parts.
pub(crate) fn load(cx: &Ctx, layer: XNode, ndim: usize, b: &mut Bsdf) -> Result<(), BsdfError> {
    let mut trees: [Option<Tree>; 4] = Default::default();
    for wd in children(layer, "WavelengthData") {
        let w = child(wd, "Wavelength").map(|n| text_of(n).0.trim().to_ascii_lowercase());
        if matches!(w.as_deref(), Some("cie-u") | Some("cie-v")) {
            return Err(cx.err(
                wd,
                "tensor-tree colour (CIE-u, CIE-v) is not supported by daylit",
            ));
        }
        if channel_of(wd) != Some(Channel::Y) {
            continue;
        }
        for blk in children(wd, "WavelengthDataBlock") {
            let Some(side) =
                child(blk, "WavelengthDataDirection").and_then(|d| side_of(&text_of(d).0))
            else {
                continue;
            };
            match child(blk, "AngleBasis").map(|n| (n, text_of(n).0.trim().to_string())) {
                None => return Err(cx.err(blk, "missing AngleBasis")),
                Some((n, a)) if !a.eq_ignore_ascii_case("LBNL/Shirley-Chiu") => {
                    return Err(cx.err(
                        n,
                        format!(
                        "unsupported tensor-tree angle basis '{a}' (expected LBNL/Shirley-Chiu)"
                    ),
                    ))
                }
                _ => {}
            }
            let Some(sd) =
                child(blk, "ScatteringData").filter(|n| !text_of(*n).0.trim().is_empty())
            else {
                return Err(cx.err(blk, "missing ScatteringData"));
            };
            let (text, base) = text_of(sd);
            let mut p = Parser {
                s: text.as_bytes(),
                at: 0,
                base,
            };
            let root = p.node(cx, ndim, 0)?;
            if p.skip_ws().is_some() {
                return Err(cx.err_at(
                    base + p.at,
                    "extra characters at the end of the tensor tree",
                ));
            }
            trees[side as usize] = Some(Tree {
                ndim,
                side,
                root,
                quantum: 1.0 / 256.0,
                id: next_tree_id(),
            });
        }
    }
    // RADIANCE quantises incident coordinates to the finest leaf of the trees it has read.
    let quantum = trees
        .iter()
        .flatten()
        .map(|t| t.root.smallest_leaf())
        .fold(1.0 / 256.0, f64::min);
    for (k, t) in trees.into_iter().enumerate() {
        let Some(mut t) = t else { continue };
        t.quantum = quantum;
        let (max_hemi, min_psa) = t.extrema();
        let lamb = t.subtract_min();
        *b.lamb_mut(Side::ALL[k]) = Value::grey(lamb);
        b.sides[k] = Some(SideData {
            comp: Component::Tree(Box::new(t)),
            max_hemi: max_hemi - lamb,
            min_proj_sa: min_psa,
        });
    }
    b.share_transmission_lambertian();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_disk_maps_invert() {
        for &(x, y) in &[(0.1, 0.2), (0.9, 0.3), (0.5, 0.5), (0.2, 0.95), (0.7, 0.05)] {
            let [dx, dy] = square2disk(x, y);
            let [sx, sy] = disk2square(dx, dy);
            assert!((sx - x).abs() < 1e-9 && (sy - y).abs() < 1e-9, "{x} {y}");
        }
    }
}
