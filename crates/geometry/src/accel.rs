//! Bounding volume hierarchy over [`Shape`]s: obvhs PLOC build with reinsertion, converted
//! to a compressed 8-wide BVH (CWBVH) traversed with SIMD, or kept as a BVH2.
//!
//! Precision: the tree is `f32`, the shapes `f64`. Boxes are expressed relative to the
//! scene centre and padded outward by a margin proportional to the scene's size; each ray
//! is clipped to the scene box in `f64` and restarted just before its entry point, so its
//! `f32` origin error, direction error and slab-test rounding all stay far below that
//! margin. A box that the exact ray touches is therefore never culled; every primitive is
//! then tested exactly in `f64` against the caller's ray.

use std::cmp::Ordering;

use glam::{UVec2, Vec3A};
use obvhs::{
    aabb::Aabb,
    bvh2::{leaf_collapser::collapse, reinsertion::ReinsertionOptimizer, Bvh2},
    cwbvh::{bvh2_to_cwbvh::bvh2_to_cwbvh, CwBvh},
    ploc::{PlocBuilder, PlocSearchDistance, SortPrecision},
    ray::{Ray as Ray32, RayHit},
    splits::split_aabbs_preset,
    triangle::Triangle as Tri32,
};
use rayon::prelude::*;

use crate::wide::{self, WideRay};
use crate::{DVec3, Ray, Shape, Tracer};

/// Deepest CWBVH that our fixed traversal stack handles; deeper trees use the BVH2.
const CWBVH_MAX_DEPTH: usize = wide::MAX_DEPTH;

/// Tree and shapes larger than this (bytes) are prefetched during traversal; smaller ones
/// stay in the L2 cache, where prefetches are only extra instructions.
const PREFETCH_ABOVE: usize = 1 << 20;

/// Most shapes kept out of the tree as outliers (each is tested on every ray).
const MAX_OUTLIERS: usize = 4;

/// Leaving outliers out of the tree must shrink its box's diagonal at least this much.
const OUTLIER_SHRINK: f64 = 4.0;

/// The closest intersection found by a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Distance along the ray.
    pub t: f64,
    /// Index of the shape in the vector given to [`Accel::build`].
    pub prim: u32,
    /// `origin + t * dir`.
    pub point: DVec3,
    /// Unit surface normal in RADIANCE orientation (not flipped toward the ray).
    pub normal: DVec3,
}

/// Tree layout used for traversal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BvhLayout {
    /// Compressed 8-wide BVH, SIMD node tests (default; see BVH_CHOICE.md).
    Cwbvh,
    /// Binary BVH with collapsed leaves.
    Bvh2,
}

/// Build parameters. [`AccelOptions::default`] is the measured choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccelOptions {
    /// Tree layout.
    pub layout: BvhLayout,
    /// Largest leaf (CWBVH clamps to 1..=3, BVH2 to 1..=255).
    pub max_prims_per_leaf: u32,
    /// Split large triangles' boxes before building (triangles only).
    pub pre_split: bool,
    /// PLOC neighbour search: 0 minimum … 3 high.
    pub search: u8,
    /// Fraction of nodes re-inserted after PLOC (0 disables).
    pub reinsertion: f32,
}

impl Default for AccelOptions {
    fn default() -> Self {
        AccelOptions {
            layout: BvhLayout::Cwbvh,
            max_prims_per_leaf: 3,
            pre_split: false,
            search: 2,
            reinsertion: 0.05,
        }
    }
}

enum Tree {
    Empty,
    Cw(CwBvh),
    Bin(Bvh2),
}

/// A hierarchy over shapes answering closest-hit and any-hit queries. `Send + Sync`.
pub struct Accel {
    /// The tree's shapes, then the outliers (`shapes[in_tree..]`). The tree's shapes are
    /// in leaf order when `leaf_order` is set, so that a leaf's shapes sit next to each other
    /// in memory.
    shapes: Vec<Shape>,
    /// Shapes indexed by the tree; the rest are tested on every ray.
    in_tree: usize,
    /// The tree's leaves address `shapes` directly (else through `primitive_indices`).
    leaf_order: bool,
    /// For each position in `shapes`, its index in the vector given to [`Accel::build`]
    /// (empty: the same order).
    orig: Vec<u32>,
    /// Inverse of `orig`.
    pos: Vec<u32>,
    tree: Tree,
    /// Scene bounds (union of shape bounds), world coordinates.
    lo: DVec3,
    hi: DVec3,
    /// Origin of the local frame in which the `f32` tree lives.
    center: DVec3,
    /// Outward padding of every box, local units.
    pad: f64,
    /// Half extents of the padded clip box around `center`.
    clip: DVec3,
    layout: BvhLayout,
    /// Prefetch nodes and shapes during traversal: only worth it when they do not all fit
    /// in the caches.
    prefetch: bool,
    /// Placements of shared hierarchies, their ids following the shapes' (see
    /// [`Accel::with_placements`]).
    placed: Vec<crate::Placed>,
}

/// The CPU backend of [`Tracer`]: the queries are [`Accel`]'s own; batches use the trait's
/// rayon loops.
impl Tracer for Accel {
    #[inline]
    fn closest_hit_filtered<F: FnMut(u32) -> bool>(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        filter: F,
    ) -> Option<Hit> {
        Accel::closest_hit_filtered(self, ray, tmin, tmax, filter)
    }

    #[inline]
    fn any_hit_filtered<F: FnMut(u32) -> bool>(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        filter: F,
    ) -> bool {
        Accel::any_hit_filtered(self, ray, tmin, tmax, filter)
    }
}

/// Ray prepared for the `f32` tree: `t_world = ts + t_local`.
struct Prepared {
    org: Vec3A,
    dir: Vec3A,
    span: f32,
    wide: WideRay,
    ts: f64,
}

impl Accel {
    /// Builds the hierarchy in parallel with the default options.
    pub fn build(shapes: Vec<Shape>) -> Accel {
        Accel::build_with(shapes, AccelOptions::default())
    }

    /// Builds the hierarchy in parallel with explicit options.
    pub fn build_with(shapes: Vec<Shape>, opts: AccelOptions) -> Accel {
        let mut shapes = shapes;
        let mut bounds: Vec<(DVec3, DVec3)> = shapes.par_iter().map(Shape::bounds).collect();
        let (lo, hi) = union(&bounds, &[]);
        let outliers = outliers(&bounds, (lo, hi));
        let mut orig = Vec::new();
        if !outliers.is_empty() {
            // The tree's shapes first, in their order, then the outliers.
            orig = (0..shapes.len() as u32)
                .filter(|i| !outliers.contains(i))
                .chain(outliers.iter().copied())
                .collect();
            shapes = permuted(shapes, &orig);
            bounds = orig.iter().map(|&o| bounds[o as usize]).collect();
        }
        let in_tree = shapes.len() - outliers.len();
        bounds.truncate(in_tree);
        let (tlo, thi) = if outliers.is_empty() {
            (lo, hi)
        } else {
            union(&bounds, &[])
        };
        let pos = inverse(&orig);
        let mut accel = Accel {
            shapes,
            in_tree,
            leaf_order: false,
            orig,
            pos,
            tree: Tree::Empty,
            lo,
            hi,
            center: DVec3::ZERO,
            pad: 0.0,
            clip: DVec3::ZERO,
            layout: opts.layout,
            prefetch: false,
            placed: Vec::new(),
        };
        if accel.shapes.is_empty() {
            return accel;
        }
        // The tree's frame and clip box are those of its own shapes.
        let center = (tlo + thi) * 0.5;
        let half = ((thi - tlo) * 0.5).max_element();
        // 2^-17 of the scene size is ~128 f32 ulps: far above every f32 error in the
        // traversal, far below any size that matters for culling efficiency.
        let pad = (half * (1.0 / 131072.0)).max(1e-9);
        accel.center = center;
        accel.pad = pad;
        accel.clip = (thi - tlo) * 0.5 + DVec3::splat(2.0 * pad);

        let to_aabb = |(a, b): (DVec3, DVec3)| {
            let a = a - center - DVec3::splat(pad);
            let b = b - center + DVec3::splat(pad);
            Aabb::new(
                Vec3A::new(down(a.x), down(a.y), down(a.z)),
                Vec3A::new(up(b.x), up(b.y), up(b.z)),
            )
        };
        let mut aabbs: Vec<Aabb> = bounds.par_iter().map(|b| to_aabb(*b)).collect();
        let mut indices: Vec<u32> = (0..aabbs.len() as u32).collect();
        if opts.pre_split {
            accel.pre_split(&mut aabbs, &mut indices);
        }
        let search = match opts.search {
            0 => PlocSearchDistance::Minimum,
            1 => PlocSearchDistance::Low,
            2 => PlocSearchDistance::Medium,
            _ => PlocSearchDistance::High,
        };
        let mut bvh2 = PlocBuilder::with_capacity(aabbs.len()).build(
            search,
            &aabbs,
            indices,
            SortPrecision::U64,
            if opts.search >= 2 { 3 } else { 2 },
        );
        bvh2.uses_spatial_splits = opts.pre_split;
        let mut reinsertion = ReinsertionOptimizer::default();
        if opts.reinsertion > 0.0 {
            reinsertion.run(&mut bvh2, opts.reinsertion, None);
        }
        // obvhs's compressed tree of a lone flat shape (a box of no thickness) misses every
        // ray; one shape gains nothing from it anyway.
        let use_cw = opts.layout == BvhLayout::Cwbvh && accel.in_tree > 1;
        if use_cw {
            let cw = bvh2_to_cwbvh(&bvh2, opts.max_prims_per_leaf.clamp(1, 3), true, false);
            if cwbvh_depth(&cw) <= CWBVH_MAX_DEPTH && cw.primitive_indices.len() < wide::MAX_PRIMS {
                let mut cw = cw;
                cw.nodes = crate::pages::on_huge_pages(&cw.nodes);
                accel.prefetch = std::mem::size_of_val(&cw.nodes[..])
                    + std::mem::size_of_val(&accel.shapes[..])
                    > PREFETCH_ABOVE;
                accel.tree = Tree::Cw(cw);
                accel.reorder();
                return accel;
            }
            // Degenerate nesting: fall back to the BVH2, whose stack grows as needed.
        }
        accel.layout = BvhLayout::Bvh2;
        collapse(&mut bvh2, opts.max_prims_per_leaf.clamp(1, 255), 3.0);
        if opts.reinsertion > 0.0 {
            reinsertion.run(&mut bvh2, opts.reinsertion * 2.0, None);
        }
        bvh2.max_depth = bvh2_depth(&bvh2) + 1;
        accel.tree = Tree::Bin(bvh2);
        accel.reorder();
        accel
    }

    /// Puts the shapes in the order the tree's leaves refer to them (when every shape is
    /// referred to exactly once, i.e. without pre-splits): incoherent rays then touch one
    /// cache line run per leaf instead of scattered shapes.
    fn reorder(&mut self) {
        let idx = match &self.tree {
            Tree::Cw(b) => &b.primitive_indices,
            Tree::Bin(b) => &b.primitive_indices,
            Tree::Empty => return,
        };
        let (n, m) = (self.shapes.len(), self.in_tree);
        let mut seen = vec![false; m];
        if idx.len() != m
            || !idx
                .iter()
                .all(|&i| (i as usize) < m && !std::mem::replace(&mut seen[i as usize], true))
        {
            return;
        }
        // Tree positions, then the outliers where they were.
        let order: Vec<u32> = idx.iter().copied().chain(m as u32..n as u32).collect();
        self.shapes = permuted(std::mem::take(&mut self.shapes), &order);
        self.orig = order.iter().map(|&o| self.original(o)).collect();
        self.pos = inverse(&self.orig);
        self.set_primitive_indices((0..m as u32).collect());
        self.leaf_order = true;
    }

    /// Replaces the tree's leaf-to-shape map.
    fn set_primitive_indices(&mut self, idx: Vec<u32>) {
        match &mut self.tree {
            Tree::Cw(b) => b.primitive_indices = idx,
            Tree::Bin(b) => b.primitive_indices = idx,
            Tree::Empty => {}
        }
    }

    /// Position in `shapes` of the shape in CWBVH primitive slot `k`.
    #[inline(always)]
    fn leaf_shape(&self, bvh: &CwBvh, k: usize) -> u32 {
        if self.leaf_order {
            k as u32
        } else {
            bvh.primitive_indices[k]
        }
    }

    /// Starts loading the shapes of a leaf that traversal will probably test soon.
    #[inline(always)]
    fn prefetch_leaf(&self, first: usize, n: usize) {
        if self.leaf_order {
            wide::prefetch_run(&self.shapes, first, n);
        }
    }

    /// The index given to [`Accel::build`] of the shape at position `k` in `shapes`.
    #[inline]
    fn original(&self, k: u32) -> u32 {
        if self.orig.is_empty() {
            k
        } else {
            self.orig[k as usize]
        }
    }

    /// Splits the boxes of large triangles (obvhs's tuned preset), padded like the rest.
    fn pre_split(&self, aabbs: &mut Vec<Aabb>, indices: &mut Vec<u32>) {
        let tri_ids: Vec<u32> = (0..self.in_tree as u32)
            .filter(|&i| matches!(self.shapes[i as usize], Shape::Triangle(_)))
            .collect();
        if tri_ids.is_empty() {
            return;
        }
        let tris: Vec<Tri32> = tri_ids
            .par_iter()
            .map(|&i| {
                let Shape::Triangle(t) = &self.shapes[i as usize] else {
                    unreachable!("filtered to triangles")
                };
                let v = t.vertices().map(|p| (p - self.center).as_vec3a());
                Tri32 {
                    v0: v[0],
                    v1: v[1],
                    v2: v[2],
                }
            })
            .collect();
        // The splitter expects boxes tight to its triangles (a split plane outside the
        // triangle would leave an empty box), so split those and pad afterwards.
        let mut tri_boxes: Vec<Aabb> = tris
            .iter()
            .map(|t| Aabb::from_points(&[t.v0, t.v1, t.v2]))
            .collect();
        let (mut largest, mut avg) = (0.0f32, 0.0f32);
        for b in &tri_boxes {
            largest = largest.max(b.half_area());
            avg += b.half_area();
        }
        avg /= tri_boxes.len() as f32;
        let mut local: Vec<u32> = (0..tri_ids.len() as u32).collect();
        split_aabbs_preset(&mut tri_boxes, &mut local, &tris, avg, largest);
        let pad = Vec3A::splat(self.pad as f32 * 2.0);
        // obvhs maps a leaf back through `indices[leaf index]`, which only works while
        // slot i of the first n holds primitive i: keep those slots, append the extra pieces.
        let mut out_boxes = aabbs.clone();
        let mut out_idx: Vec<u32> = (0..aabbs.len() as u32).collect();
        for (slot, (b, l)) in tri_boxes.iter().zip(&local).enumerate() {
            let id = tri_ids[*l as usize];
            let orig = aabbs[id as usize];
            // Split boxes are tight to the f32 triangle: pad them (never beyond the
            // original padded box, which already bounds the exact triangle).
            let valid = b.min.cmple(b.max).all();
            let padded = Aabb::new((b.min - pad).max(orig.min), (b.max + pad).min(orig.max));
            if slot < tri_ids.len() {
                if valid {
                    out_boxes[id as usize] = padded;
                }
            } else if valid {
                out_boxes.push(padded);
                out_idx.push(id);
            }
        }
        *aabbs = out_boxes;
        *indices = out_idx;
    }

    /// Number of shape ids: the shapes', then those of the placements.
    pub fn len(&self) -> usize {
        self.shapes.len() + self.placed.iter().map(|p| p.len() as usize).sum::<usize>()
    }

    /// Number of shapes given to [`Accel::build`]: ids below this are in world coordinates,
    /// the placements' ids follow.
    pub fn own_len(&self) -> usize {
        self.shapes.len()
    }

    /// Adds placements of shared hierarchies, each given the ids from its `base()` on, which
    /// must continue from [`Accel::len`] in order. They are tested on every ray that crosses
    /// their box, so they pay for a few large meshes placed many times, not for many small
    /// ones (a copy in the tree costs less then).
    pub fn with_placements(mut self, placed: Vec<crate::Placed>) -> Accel {
        for p in placed {
            assert_eq!(p.base() as usize, self.len(), "placement ids out of order");
            let (lo, hi) = p.bounds();
            self.lo = self.lo.min(lo);
            self.hi = self.hi.max(hi);
            self.placed.push(p);
        }
        self
    }

    /// Number of shapes in the tree. The others, a few shapes far larger than the rest of
    /// the scene together (a ground plane around a building), are tested on every ray.
    pub fn tree_len(&self) -> usize {
        self.in_tree
    }

    /// True when there are no shapes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The shape with this index (its position in the vector given to [`Accel::build`],
    /// as in [`Hit::prim`]). A placed shape is given in its shared hierarchy's own frame.
    pub fn shape(&self, prim: u32) -> &Shape {
        if prim as usize >= self.shapes.len() {
            let i = self.placed.partition_point(|p| p.base() <= prim) - 1;
            let p = &self.placed[i];
            return p.accel().shape(prim - p.base());
        }
        let k = if self.pos.is_empty() {
            prim
        } else {
            self.pos[prim as usize]
        };
        &self.shapes[k as usize]
    }

    /// Scene bounds (min, max); inverted (min > max) when empty.
    pub fn bounds(&self) -> (DVec3, DVec3) {
        (self.lo, self.hi)
    }

    /// Layout actually used (a CWBVH too deep for its stack falls back to BVH2).
    pub fn layout(&self) -> BvhLayout {
        self.layout
    }

    /// Closest hit with `tmin < t < tmax`. Ties in `t` go to the lower primitive index.
    pub fn closest_hit(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<Hit> {
        self.closest_hit_filtered(ray, tmin, tmax, |_| true)
    }

    /// As [`Accel::closest_hit`], ignoring primitives for which `filter` returns false.
    /// The filter is asked only about primitives the ray hits, possibly more than once each.
    pub fn closest_hit_filtered(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        mut filter: impl FnMut(u32) -> bool,
    ) -> Option<Hit> {
        let mut c = Closest {
            accel: self,
            ray,
            tmin,
            lim: tmax,
            best_t: tmax,
            best_k: u32::MAX,
            best_prim: u32::MAX,
            ts: 0.0,
            pad32: self.pad as f32,
            filter: &mut filter,
        };
        if let Some(p) = self.prepare(ray, tmin, tmax) {
            c.ts = p.ts;
            self.closest_in_tree(&p, &mut c);
        }
        for k in self.in_tree..self.shapes.len() {
            c.test(k as u32);
        }
        let mut best = c.hit();
        for p in &self.placed {
            let lim = best.map_or(tmax, |h| h.t);
            if let Some(h) = p.closest(ray, tmin, lim, &mut filter) {
                if h.t < lim {
                    best = Some(h);
                }
            }
        }
        best
    }

    /// The tree's part of a closest-hit query.
    #[inline(always)]
    fn closest_in_tree<F: FnMut(u32) -> bool>(&self, p: &Prepared, c: &mut Closest<'_, F>) {
        match &self.tree {
            Tree::Empty => {}
            Tree::Cw(bvh) => {
                let mut tmax = p.span;
                wide::traverse::<false>(
                    bvh,
                    &p.wide,
                    &mut tmax,
                    self.prefetch,
                    |first, n| self.prefetch_leaf(first, n),
                    // Inlined: in small scenes a call per leaf costs about as much as a test.
                    #[inline(always)]
                    |first, n, tmax| {
                        for k in first..first + n {
                            if let Some(tm) = c.test(self.leaf_shape(bvh, k)) {
                                *tmax = tmax.min(tm);
                            }
                        }
                        false
                    },
                );
            }
            Tree::Bin(bvh) => {
                obvhs::fast_stack!(u32, (96, 192), bvh.max_depth, stack, {
                    bvh.ray_traverse_dynamic(
                        &mut stack,
                        Ray32::new(p.org, p.dir, 0.0, p.span),
                        &mut RayHit::none(),
                        |node, r, _| {
                            for i in node.first_index..node.first_index + node.prim_count {
                                let prim = bvh.primitive_indices[i as usize];
                                if let Some(tm) = c.test(prim) {
                                    r.tmax = r.tmax.min(tm);
                                }
                            }
                            true
                        },
                    );
                });
            }
        }
    }

    /// True if anything is hit with `tmin < t < tmax` (shadow query; stops at the first).
    pub fn any_hit(&self, ray: &Ray, tmin: f64, tmax: f64) -> bool {
        self.any_hit_filtered(ray, tmin, tmax, |_| true)
    }

    /// As [`Accel::any_hit`], ignoring primitives for which `filter` returns false.
    pub fn any_hit_filtered(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        mut filter: impl FnMut(u32) -> bool,
    ) -> bool {
        let mut test = |k: u32| {
            self.shapes[k as usize]
                .intersect_t(ray, tmin, tmax)
                .is_some()
                && filter(self.original(k))
        };
        let in_tree = self
            .prepare(ray, tmin, tmax)
            .is_some_and(|p| self.any_in_tree(&p, &mut test));
        in_tree
            || (self.in_tree..self.shapes.len()).any(|k| test(k as u32))
            || self
                .placed
                .iter()
                .any(|p| p.any(ray, tmin, tmax, &mut filter))
    }

    /// The tree's part of an any-hit query: true if `test` accepts a shape.
    #[inline(always)]
    fn any_in_tree(&self, p: &Prepared, mut test: impl FnMut(u32) -> bool) -> bool {
        match &self.tree {
            Tree::Empty => false,
            Tree::Cw(bvh) => {
                let mut found = false;
                let mut tmax = p.span;
                wide::traverse::<true>(
                    bvh,
                    &p.wide,
                    &mut tmax,
                    self.prefetch,
                    |first, n| self.prefetch_leaf(first, n),
                    #[inline(always)]
                    |first, n, _| {
                        found = (first..first + n).any(|k| test(self.leaf_shape(bvh, k)));
                        found
                    },
                );
                found
            }
            Tree::Bin(bvh) => {
                let mut found = false;
                obvhs::fast_stack!(u32, (96, 192), bvh.max_depth, stack, {
                    bvh.ray_traverse_dynamic(
                        &mut stack,
                        Ray32::new(p.org, p.dir, 0.0, p.span),
                        &mut RayHit::none(),
                        |node, _, _| {
                            for i in node.first_index..node.first_index + node.prim_count {
                                if test(bvh.primitive_indices[i as usize]) {
                                    found = true;
                                    return false;
                                }
                            }
                            true
                        },
                    );
                });
                found
            }
        }
    }

    /// Clips the ray to the padded scene box in `f64` and makes the `f32` traversal ray,
    /// starting a little before the entry point so that every hit lies at local t > 0.
    /// AVX2 form of [`Accel::prepare_portable`]: the same operations on the same values, all
    /// three axes in one register (an office ray's set-up was 130 instructions, 17 % of its
    /// closest hit).
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    fn prepare(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<Prepared> {
        use std::arch::x86_64::*;
        if matches!(self.tree, Tree::Empty) || tmin.partial_cmp(&tmax) != Some(Ordering::Less) {
            return None;
        }
        // SAFETY: the cfg admits this function only where AVX2 (and so AVX) is enabled; no
        // pointer is read or written, and the transmutes are between types of the same size
        // for which every bit pattern is valid.
        unsafe {
            // Lane 3 has a zero direction and a zero origin: it bounds nothing.
            let v = |v: DVec3| _mm256_setr_pd(v.x, v.y, v.z, 0.0);
            let zero = _mm256_setzero_pd();
            let o = _mm256_sub_pd(v(ray.origin), v(self.center));
            let d = _mm256_add_pd(v(ray.dir), zero);
            let inv = _mm256_div_pd(_mm256_set1_pd(1.0), d);
            let clip = v(self.clip);
            let sign = _mm256_set1_pd(-0.0);
            let a = _mm256_mul_pd(_mm256_sub_pd(_mm256_xor_pd(clip, sign), o), inv);
            let b = _mm256_mul_pd(_mm256_sub_pd(clip, o), inv);
            let is0 = _mm256_cmp_pd::<_CMP_EQ_OQ>(d, zero);
            // Lanes with a zero component may hold NaN in `a` or `b`; both are replaced.
            let near =
                _mm256_blendv_pd(_mm256_min_pd(a, b), _mm256_set1_pd(f64::NEG_INFINITY), is0);
            let far = _mm256_blendv_pd(_mm256_max_pd(a, b), _mm256_set1_pd(f64::INFINITY), is0);
            let near: [f64; 4] = std::mem::transmute(near);
            let far: [f64; 4] = std::mem::transmute(far);
            let t0 = tmin.max(near[0].max(near[1]).max(near[2]));
            let t1 = tmax.min(far[0].min(far[1]).min(far[2]));
            let outside = _mm256_and_pd(
                is0,
                _mm256_cmp_pd::<_CMP_GT_OQ>(_mm256_andnot_pd(sign, o), clip),
            );
            if t0.partial_cmp(&t1).is_none_or(|o| o == Ordering::Greater)
                || _mm256_movemask_pd(outside) != 0
            {
                return None;
            }
            let ts = t0 - (self.pad + 1e-6);
            let org = _mm256_cvtpd_ps(_mm256_add_pd(o, _mm256_mul_pd(d, _mm256_set1_pd(ts))));
            let org: [f32; 4] = std::mem::transmute(org);
            let inv: [f32; 4] = std::mem::transmute(_mm256_cvtpd_ps(inv));
            let dir: [f32; 4] = std::mem::transmute(_mm256_cvtpd_ps(d));
            let span = ((t1 - ts) as f32) * (1.0 + 1.0 / 65536.0) + self.pad as f32;
            let (org, inv, dir) = (
                [org[0], org[1], org[2]],
                [inv[0], inv[1], inv[2]],
                [dir[0], dir[1], dir[2]],
            );
            Some(Prepared {
                org: Vec3A::from_array(org),
                dir: Vec3A::from_array(dir),
                wide: WideRay::new(org, inv),
                span,
                ts,
            })
        }
    }

    /// Portable form of `prepare`.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    #[inline(always)]
    fn prepare(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<Prepared> {
        self.prepare_portable(ray, tmin, tmax)
    }

    /// The ray set-up written per axis: the definition that `prepare` follows.
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
    #[inline(always)]
    fn prepare_portable(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<Prepared> {
        // Written so that NaN limits give no hit.
        if matches!(self.tree, Tree::Empty) || tmin.partial_cmp(&tmax) != Some(Ordering::Less) {
            return None;
        }
        let o = ray.origin - self.center;
        // +0.0 turns -0.0 into +0.0, so that a zero component has a positive reciprocal
        // (obvhs takes the octant from `< 0` and the inverse from the sign bit).
        let d = ray.dir + DVec3::ZERO;
        let inv = DVec3::ONE / d;
        // Slab distances to the clip box. A zero component bounds nothing along its axis
        // (its products would be infinite or NaN) and misses if the origin is outside.
        let a = (-self.clip - o) * inv;
        let b = (self.clip - o) * inv;
        let zero = d.cmpeq(DVec3::ZERO);
        let near = DVec3::select(zero, DVec3::NEG_INFINITY, a.min(b));
        let far = DVec3::select(zero, DVec3::INFINITY, a.max(b));
        let t0 = tmin.max(near.max_element());
        let t1 = tmax.min(far.min_element());
        // (`partial_cmp`: NaN limits give no hit.)
        if t0.partial_cmp(&t1).is_none_or(|o| o == Ordering::Greater)
            || (zero & o.abs().cmpgt(self.clip)).any()
        {
            return None;
        }
        // The tree culls boxes ending before its t = 0; back off well past that.
        let ts = t0 - (self.pad + 1e-6);
        let org = (o + d * ts).as_vec3a();
        let span = ((t1 - ts) as f32) * (1.0 + 1.0 / 65536.0) + self.pad as f32;
        Some(Prepared {
            org,
            dir: d.as_vec3a(),
            wide: WideRay::new(org.to_array(), inv.as_vec3().to_array()),
            span,
            ts,
        })
    }
}

/// Bookkeeping of one closest-hit query.
struct Closest<'a, F> {
    accel: &'a Accel,
    ray: &'a Ray,
    tmin: f64,
    /// Shapes are asked for hits below `lim`: `tmax` at first, then the next value above
    /// the best distance so far, so that exact ties are seen (and go to the lower index).
    lim: f64,
    best_t: f64,
    /// Tree position and index (as given to [`Accel::build`]) of the closest shape so far;
    /// `u32::MAX` before the first hit. Plain fields rather than an `Option` of a tuple with
    /// the normal: that was copied through memory on every hit. The normal is asked for
    /// once, at the end ([`Shape::hit_normal`]).
    best_k: u32,
    best_prim: u32,
    /// World distance of the `f32` traversal ray's origin.
    ts: f64,
    pad32: f32,
    filter: F,
}

impl<F: FnMut(u32) -> bool> Closest<'_, F> {
    /// Tests the shape at tree position `k`; returns the new `f32` culling distance if it
    /// became closest. The filter runs after the intersection test: most tests miss, and
    /// then neither the filter nor the index map is touched. Inlined into the leaf loops:
    /// as a call it spilled the ray and the bookkeeping to the stack for every test.
    #[inline(always)]
    fn test(&mut self, k: u32) -> Option<f32> {
        let a = self.accel;
        let t = a.shapes[k as usize].intersect_t(self.ray, self.tmin, self.lim)?;
        let prim = a.original(k);
        if !(self.filter)(prim) {
            return None;
        }
        // Before the first hit `best_prim` is `u32::MAX` and `best_t` is the caller's tmax,
        // which no hit reaches.
        if !(t < self.best_t || (t == self.best_t && prim < self.best_prim)) {
            return None;
        }
        // The next value up (`next_up` without its NaN and infinity cases: t lies below a
        // limit, so it is finite).
        self.lim = if t > 0.0 {
            f64::from_bits(t.to_bits() + 1)
        } else {
            t.next_up()
        };
        self.best_t = t;
        self.best_k = k;
        self.best_prim = prim;
        Some(((t - self.ts) as f32) * (1.0 + 1.0 / 65536.0) + self.pad32)
    }

    /// The closest hit found.
    fn hit(&self) -> Option<Hit> {
        if self.best_k == u32::MAX {
            return None;
        }
        let (ray, t) = (self.ray, self.best_t);
        Some(Hit {
            t,
            prim: self.best_prim,
            point: ray.at(t),
            normal: self.accel.shapes[self.best_k as usize].hit_normal(ray, self.tmin, t),
        })
    }
}

/// Closest hit by testing every shape (reference for tests). Same tie rule as
/// [`Accel::closest_hit`]: equal `t` goes to the lower index.
pub fn brute_force_closest(shapes: &[Shape], ray: &Ray, tmin: f64, tmax: f64) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for (i, s) in shapes.iter().enumerate() {
        let lim = best.map_or(tmax, |b| b.t);
        if let Some((t, n)) = s.intersect(ray, tmin, lim) {
            best = Some(Hit {
                t,
                prim: i as u32,
                point: ray.at(t),
                normal: n,
            });
        }
    }
    best
}

/// The shapes in the order `order` (a permutation of their positions) gives.
fn permuted(shapes: Vec<Shape>, order: &[u32]) -> Vec<Shape> {
    let mut slots: Vec<Option<Shape>> = shapes.into_iter().map(Some).collect();
    crate::pages::collect_on_huge_pages(
        order.len(),
        order.iter().filter_map(|&o| slots[o as usize].take()),
    )
}

/// The inverse of a permutation.
fn inverse(order: &[u32]) -> Vec<u32> {
    let mut inv = vec![0u32; order.len()];
    for (k, &o) in order.iter().enumerate() {
        inv[o as usize] = k as u32;
    }
    inv
}

/// Union of the boxes, leaving out those at the positions in `skip`.
fn union(bounds: &[(DVec3, DVec3)], skip: &[u32]) -> (DVec3, DVec3) {
    bounds
        .par_iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(&(*i as u32)))
        .map(|(_, b)| *b)
        .reduce(
            || (DVec3::INFINITY, DVec3::NEG_INFINITY),
            |a, b| (a.0.min(b.0), a.1.max(b.1)),
        )
}

/// Shapes to keep out of the tree: a few shapes far larger than the rest of the scene
/// together (a ground disk or plane around a building). Left in, they set the tree's
/// scale: a compressed node quantises its children's boxes to 1/255 of its own, so a
/// 40 m ground ring coarsens every box of the room it contains to half a metre. Taken
/// out, each costs one extra test per ray. The k largest boxes (k at most `MAX_OUTLIERS`)
/// go out, for the largest k whose removal shrinks the diagonal of the rest's box at least
/// `OUTLIER_SHRINK` times below that of the last k so accepted (or of the whole scene, `all`).
fn outliers(bounds: &[(DVec3, DVec3)], all: (DVec3, DVec3)) -> Vec<u32> {
    let diag = |b: &(DVec3, DVec3)| (b.1 - b.0).length();
    // Indices of the largest boxes, largest first.
    let mut largest: Vec<u32> = Vec::with_capacity(MAX_OUTLIERS + 1);
    for (i, b) in bounds.iter().enumerate() {
        let d = diag(b);
        let at = largest.partition_point(|&j| diag(&bounds[j as usize]) >= d);
        if at < MAX_OUTLIERS {
            largest.insert(at, i as u32);
            largest.truncate(MAX_OUTLIERS);
        }
    }
    // At least one shape stays in the tree.
    largest.truncate(bounds.len().saturating_sub(1));
    let (mut best, mut best_diag) = (0, diag(&all));
    for k in 1..=largest.len() {
        let d = diag(&union(bounds, &largest[..k]));
        if d * OUTLIER_SHRINK <= best_diag {
            (best, best_diag) = (k, d);
        }
    }
    largest.truncate(best);
    largest
}

/// Largest `f32` not above `x`.
fn down(x: f64) -> f32 {
    let f = x as f32;
    if f64::from(f) > x {
        f.next_down()
    } else {
        f
    }
}

/// Smallest `f32` not below `x`.
fn up(x: f64) -> f32 {
    let f = x as f32;
    if f64::from(f) < x {
        f.next_up()
    } else {
        f
    }
}

/// Depth of a tree given by its root and a function listing a node's children (iterative:
/// a degenerate tree may be deep).
fn tree_depth(empty: bool, children: impl Fn(usize, &mut Vec<usize>)) -> usize {
    if empty {
        return 0;
    }
    let (mut max, mut kids) = (0, Vec::new());
    let mut stack = vec![(0usize, 1usize)];
    while let Some((n, d)) = stack.pop() {
        max = max.max(d);
        kids.clear();
        children(n, &mut kids);
        stack.extend(kids.iter().map(|&k| (k, d + 1)));
    }
    max
}

/// Depth of a CWBVH.
fn cwbvh_depth(bvh: &CwBvh) -> usize {
    tree_depth(bvh.nodes.is_empty(), |n, out| {
        let node = &bvh.nodes[n];
        out.extend((0..node.imask.count_ones() as usize).map(|j| node.child_base_idx as usize + j));
    })
}

/// Depth of a BVH2.
fn bvh2_depth(bvh: &Bvh2) -> usize {
    tree_depth(bvh.nodes.is_empty(), |n, out| {
        let node = &bvh.nodes[n];
        if !node.is_leaf() {
            out.extend([node.first_index as usize, node.first_index as usize + 1]);
        }
    })
}

#[allow(dead_code)]
fn _assert_send_sync() {
    fn check<T: Send + Sync>() {}
    check::<Accel>();
    check::<Shape>();
    let _ = UVec2::ZERO;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sphere;

    /// The vector ray set-up (where built) and the per-axis one give the same traversal
    /// ray, bit for bit, including axis-parallel rays, rays from outside the box and rays
    /// that miss it.
    #[test]
    fn ray_set_ups_agree() {
        let shapes: Vec<Shape> = (0..20)
            .map(|i| {
                let c = DVec3::new(i as f64 * 0.7, (i * i % 7) as f64, (i % 3) as f64 * 2.0);
                Sphere::new(c, 0.3, false).unwrap().into()
            })
            .collect();
        let accel = Accel::build(shapes);
        let state = std::cell::Cell::new(0x2545_f491_4f6c_dd1du64);
        let unit = || {
            let mut x = state.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            state.set(x);
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut kept = 0;
        for i in 0..200_000 {
            let o = DVec3::new(
                unit() * 30.0 - 8.0,
                unit() * 20.0 - 6.0,
                unit() * 16.0 - 6.0,
            );
            let mut d = DVec3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5).normalize();
            if i % 5 == 0 {
                d[i % 3] = if i % 2 == 0 { 0.0 } else { -0.0 };
            }
            let (tmin, tmax) = match i % 4 {
                0 => (0.0, f64::INFINITY),
                1 => (unit() * 3.0, unit() * 30.0),
                2 => (-unit(), f64::INFINITY),
                _ => (1e-9, unit() * 5.0),
            };
            let ray = Ray::new(o, d);
            let a = accel.prepare(&ray, tmin, tmax);
            let b = accel.prepare_portable(&ray, tmin, tmax);
            match (a, b) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    kept += 1;
                    assert_eq!(a.ts.to_bits(), b.ts.to_bits(), "{ray:?}");
                    assert_eq!(a.span.to_bits(), b.span.to_bits(), "{ray:?}");
                    assert_eq!(
                        a.org.to_array().map(f32::to_bits),
                        b.org.to_array().map(f32::to_bits)
                    );
                    assert_eq!(
                        a.dir.to_array().map(f32::to_bits),
                        b.dir.to_array().map(f32::to_bits)
                    );
                    assert_eq!(format!("{:?}", a.wide), format!("{:?}", b.wide));
                }
                _ => panic!("one set-up clipped {ray:?} away, the other did not"),
            }
        }
        assert!(kept > 10_000, "only {kept} rays reached the box");
    }
}
