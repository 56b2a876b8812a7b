//! RADIANCE surface primitives in `f64` and their exact ray intersections.
//!
//! Orientation follows RADIANCE: polygons face the side from which their vertices run
//! counter-clockwise, spheres/cones/cylinders face outward, bubbles/cups/tubes inward,
//! rings along their direction vector. Normals are never flipped toward the ray.

use crate::{DVec3, GeometryError, Ray, FTINY};

/// A triangle, intersected with Möller–Trumbore in `f64`. Vertices counter-clockwise seen
/// from the front, as for a RADIANCE polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct Triangle {
    // No stored normal: it is only needed for the closest hit, and a smaller triangle means
    // fewer cache misses for incoherent rays over large meshes.
    v0: DVec3,
    e1: DVec3,
    e2: DVec3,
    /// |e1 × e2|, twice the area; scales the parallel-ray threshold.
    cross_len: f64,
}

/// A planar polygon of any shape (convex, concave, holes joined by seams), inside tested
/// with an even-odd crossing count so that seam edges traversed twice cancel.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    vertices: Vec<DVec3>,
    /// Edges of the vertices projected onto the plane of the two non-dominant normal axes,
    /// four to a group so that the inside test runs four edges per vector instruction.
    edges: Vec<EdgeGroup>,
    normal: DVec3,
    /// Mean of the vertices: a point on the plane RADIANCE uses (mean offset).
    centroid: DVec3,
    area: f64,
    /// Projection axes (RADIANCE's `xi`, `yi`).
    xi: usize,
    yi: usize,
    /// The centroid's coordinates on those axes.
    cx: f64,
    cy: f64,
    /// A crossing computed with `rdy` whose distance from the point is above this may be
    /// trusted (see `Polygon::contains_projected`).
    doubt: f64,
    lo: DVec3,
    hi: DVec3,
}

/// Four projected polygon edges `(x0, y0) -> (x0 + dx, y1)`, `dy = y1 - y0`, lane by lane.
/// Unused lanes have `y0 = y1 = 0`, which never spans a scan line (and `dy = 1`, so that
/// no lane divides by zero).
#[derive(Clone, Debug, PartialEq)]
struct EdgeGroup {
    x0: [f64; 4],
    y0: [f64; 4],
    y1: [f64; 4],
    dx: [f64; 4],
    dy: [f64; 4],
    /// `1 / dy`: the crossing test multiplies by it and divides only when the product
    /// leaves the answer in doubt (see `Polygon::contains_projected`).
    rdy: [f64; 4],
}

/// A sphere (outward normal) or bubble (inward normal).
#[derive(Clone, Debug, PartialEq)]
pub struct Sphere {
    center: DVec3,
    radius: f64,
    bubble: bool,
}

/// Which member of RADIANCE's cone family a [`Cone`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConeKind {
    /// Truncated cone, normal outward.
    Cone,
    /// Inverted cone, normal inward.
    Cup,
    /// Cylinder, normal outward.
    Cylinder,
    /// Inverted cylinder, normal inward.
    Tube,
}

impl ConeKind {
    fn inverted(self) -> ConeKind {
        match self {
            ConeKind::Cone => ConeKind::Cup,
            ConeKind::Cup => ConeKind::Cone,
            ConeKind::Cylinder => ConeKind::Tube,
            ConeKind::Tube => ConeKind::Cylinder,
        }
    }

    fn inward(self) -> bool {
        matches!(self, ConeKind::Cup | ConeKind::Tube)
    }

    fn cylindrical(self) -> bool {
        matches!(self, ConeKind::Cylinder | ConeKind::Tube)
    }
}

/// A cone, cup, cylinder or tube between two end points (open: no end caps).
#[derive(Clone, Debug, PartialEq)]
pub struct Cone {
    kind: ConeKind,
    /// End with the smaller radius (RADIANCE swaps ends so that r0 < r1).
    p0: DVec3,
    /// Unit axis from `p0` to the other end.
    axis: DVec3,
    len: f64,
    r0: f64,
    r1: f64,
    /// True where RADIANCE would warn about negative radii and invert the kind.
    flipped: bool,
}

/// A disk or annulus (RADIANCE `ring`), normal along its direction vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Ring {
    center: DVec3,
    normal: DVec3,
    r0: f64,
    r1: f64,
}

/// Any surface primitive daylit traces.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Triangle (mesh face or 3-vertex polygon).
    Triangle(Triangle),
    /// General polygon (boxed: it is large and rare next to triangles).
    Polygon(Box<Polygon>),
    /// Sphere or bubble.
    Sphere(Sphere),
    /// Cone, cup, cylinder or tube.
    Cone(Cone),
    /// Disk or annulus.
    Ring(Ring),
}

fn finite(v: DVec3, what: &'static str) -> Result<(), GeometryError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(GeometryError::NonFinite(what))
    }
}

fn finite_f(x: f64, what: &'static str) -> Result<(), GeometryError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(GeometryError::NonFinite(what))
    }
}

/// Sign of a radius as RADIANCE classifies it: values within `FTINY` of zero count as zero.
fn rad_sign(r: f64) -> i32 {
    if r < -FTINY {
        -1
    } else if r > FTINY {
        1
    } else {
        0
    }
}

/// Real roots of `a t² + 2 b t + c = 0`, ascending, in the numerically stable form.
#[inline]
fn solve_quadratic_half(a: f64, b: f64, c: f64) -> Option<(f64, f64)> {
    if a == 0.0 {
        if b == 0.0 {
            return None;
        }
        let t = -c / (2.0 * b);
        return Some((t, t));
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let q = -(b + disc.sqrt().copysign(b));
    if q == 0.0 {
        return Some((0.0, 0.0));
    }
    let (t0, t1) = (q / a, c / q);
    Some(if t0 <= t1 { (t0, t1) } else { (t1, t0) })
}

/// Extent along each axis of a disk of radius `r` perpendicular to unit `axis`.
fn disk_extent(axis: DVec3, r: f64) -> DVec3 {
    let e = DVec3::ONE - axis * axis;
    DVec3::new(
        e.x.max(0.0).sqrt(),
        e.y.max(0.0).sqrt(),
        e.z.max(0.0).sqrt(),
    ) * r
}

impl Triangle {
    /// A triangle from three vertices, counter-clockwise seen from the front.
    /// Fails on non-finite coordinates or zero area.
    pub fn new(v: [DVec3; 3]) -> Result<Triangle, GeometryError> {
        for p in &v {
            finite(*p, "triangle vertex")?;
        }
        let e1 = v[1] - v[0];
        let e2 = v[2] - v[0];
        let c = e1.cross(e2);
        let cross_len = c.length();
        if cross_len == 0.0 || !cross_len.is_finite() {
            return Err(GeometryError::ZeroArea);
        }
        Ok(Triangle {
            v0: v[0],
            e1,
            e2,
            cross_len,
        })
    }

    /// The three vertices.
    pub fn vertices(&self) -> [DVec3; 3] {
        [self.v0, self.v0 + self.e1, self.v0 + self.e2]
    }

    /// Unit normal (RADIANCE orientation).
    pub fn normal(&self) -> DVec3 {
        self.e1.cross(self.e2) / self.cross_len
    }

    /// Surface area.
    pub fn area(&self) -> f64 {
        0.5 * self.cross_len
    }

    /// Hit distance in `(tmin, tmax)`; rays within `FTINY` of parallel miss, as in RADIANCE.
    #[inline]
    pub fn intersect(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<(f64, DVec3)> {
        self.intersect_t(ray, tmin, tmax)
            .map(|t| (t, self.normal()))
    }

    /// The distance of [`Triangle::intersect`] alone.
    #[inline]
    pub fn intersect_t(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<f64> {
        let p = ray.dir.cross(self.e2);
        let det = self.e1.dot(p);
        // det = -|e1×e2| cos(dir, n): the same parallel test RADIANCE applies to faces.
        if det.abs() <= FTINY * self.cross_len {
            return None;
        }
        let inv = 1.0 / det;
        let s = ray.origin - self.v0;
        let u = s.dot(p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(self.e1);
        let v = ray.dir.dot(q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let t = self.e2.dot(q) * inv;
        (t > tmin && t < tmax).then_some(t)
    }

    fn bounds(&self) -> (DVec3, DVec3) {
        let [a, b, c] = self.vertices();
        (a.min(b).min(c), a.max(b).max(c))
    }
}

impl Polygon {
    /// A polygon from its vertices (RADIANCE `polygon` arguments). A closing vertex equal to
    /// the first is dropped, as RADIANCE does. Holes are given with RADIANCE's seam
    /// convention. Fails with fewer than 3 vertices, non-finite values or zero area.
    pub fn new(mut vertices: Vec<DVec3>) -> Result<Polygon, GeometryError> {
        if vertices.len() < 3 {
            return Err(GeometryError::TooFewVertices(vertices.len()));
        }
        for v in &vertices {
            finite(*v, "polygon vertex")?;
        }
        if vertices.len() > 3
            && vertices[0].distance_squared(vertices[vertices.len() - 1]) <= FTINY * FTINY
        {
            vertices.pop();
        }
        // Area vector as a fan sum about vertex 0: RADIANCE's rule, equal to Newell's sum.
        let v0 = vertices[0];
        let mut sum = DVec3::ZERO;
        for w in vertices[1..].windows(2) {
            sum += (w[0] - v0).cross(w[1] - v0);
        }
        let len = sum.length();
        if len == 0.0 || !len.is_finite() {
            return Err(GeometryError::ZeroArea);
        }
        let normal = sum / len;
        let centroid = vertices.iter().copied().sum::<DVec3>() / vertices.len() as f64;
        let ax = {
            let a = normal.abs();
            let mut ax = usize::from(a.y > a.x);
            if a.z > a[ax] {
                ax = 2;
            }
            ax
        };
        let xi = (ax + 1) % 3;
        let yi = (ax + 2) % 3;
        // Projected relative to the centroid so that far-off sites keep their precision.
        let proj: Vec<[f64; 2]> = vertices
            .iter()
            .map(|v| {
                let d = *v - centroid;
                [d[xi], d[yi]]
            })
            .collect();
        // Edge k runs from vertex k - 1 to vertex k (the first closes the loop).
        let n = proj.len();
        let mut edges = Vec::with_capacity(n.div_ceil(4));
        for g in 0..n.div_ceil(4) {
            let mut e = EdgeGroup {
                x0: [0.0; 4],
                y0: [0.0; 4],
                y1: [0.0; 4],
                dx: [0.0; 4],
                dy: [1.0; 4],
                rdy: [1.0; 4],
            };
            for l in 0..4 {
                let k = 4 * g + l;
                if k < n {
                    let (p0, p1) = (proj[(k + n - 1) % n], proj[k]);
                    e.x0[l] = p0[0];
                    e.y0[l] = p0[1];
                    e.y1[l] = p1[1];
                    e.dx[l] = p1[0] - p0[0];
                    e.dy[l] = p1[1] - p0[1];
                    e.rdy[l] = 1.0 / e.dy[l];
                }
            }
            edges.push(e);
        }
        let reach = proj
            .iter()
            .fold(0.0f64, |m, p| m.max(p[0].abs()).max(p[1].abs()));
        let (lo, hi) = vertices
            .iter()
            .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(*v), hi.max(*v))
            });
        Ok(Polygon {
            vertices,
            edges,
            normal,
            centroid,
            area: 0.5 * len,
            xi,
            yi,
            cx: centroid[xi],
            cy: centroid[yi],
            doubt: reach * DOUBT,
            lo,
            hi,
        })
    }

    /// The vertices (after dropping a closing duplicate).
    pub fn vertices(&self) -> &[DVec3] {
        &self.vertices
    }

    /// Unit normal (RADIANCE orientation).
    pub fn normal(&self) -> DVec3 {
        self.normal
    }

    /// Area (of the area vector; a seam-joined hole is subtracted).
    pub fn area(&self) -> f64 {
        self.area
    }

    /// Largest distance of a vertex from the mean plane, divided by the diagonal of the
    /// vertices' bounding box. RADIANCE warns of "non-planar vertex" above about 1e-5.
    pub fn max_nonplanarity(&self) -> f64 {
        let size = (self.hi - self.lo).length();
        let dev = self
            .vertices
            .iter()
            .map(|v| (*v - self.centroid).dot(self.normal).abs())
            .fold(0.0, f64::max);
        if size > 0.0 {
            dev / size
        } else {
            0.0
        }
    }

    /// Hit distance in `(tmin, tmax)`; rays within `FTINY` of parallel miss, as in RADIANCE.
    #[inline(always)]
    pub fn intersect(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<(f64, DVec3)> {
        self.intersect_t(ray, tmin, tmax).map(|t| (t, self.normal))
    }

    /// The distance of [`Polygon::intersect`] alone.
    #[inline(always)]
    pub fn intersect_t(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<f64> {
        let cos = ray.dir.dot(self.normal);
        if cos.abs() <= FTINY {
            return None;
        }
        let t = (self.centroid - ray.origin).dot(self.normal) / cos;
        if !(t > tmin && t < tmax) {
            return None;
        }
        // The two projected coordinates of `origin - centroid + dir * t`, with the same
        // operations per component (read from the ray's memory: an indexed copy of the
        // whole point went through the stack).
        let (o, d) = (ray.origin.as_ref(), ray.dir.as_ref());
        let x = (o[self.xi] - self.cx) + d[self.xi] * t;
        let y = (o[self.yi] - self.cy) + d[self.yi] * t;
        self.contains_projected(x, y).then_some(t)
    }

    /// Even-odd crossing test along +x with half-open edges, so seams cancel: an edge
    /// spanning `y` counts when its crossing `x0 + (y - y0) * dx / dy` lies beyond `x`.
    ///
    /// The crossing is first computed with the reciprocal `rdy` (a multiplication where
    /// the division takes several times as long). It differs from the divided one by a few
    /// units in the last place of the polygon's size, far less than `doubt`; where some
    /// spanning edge's crossing lies within `doubt` of `x`, the answer is computed again
    /// with the division, so that it is always exactly that of the divided form.
    #[inline(always)]
    fn contains_projected(&self, x: f64, y: f64) -> bool {
        let (inside, unsure) = self.crossings_fast(x, y);
        if unsure {
            return self.contains_divided(x, y);
        }
        inside
    }

    /// The crossing parity with `rdy`, and whether some spanning edge's crossing is in
    /// doubt. AVX form (four edges per instruction) of [`Polygon::crossings_fast_scalar`].
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    fn crossings_fast(&self, x: f64, y: f64) -> (bool, bool) {
        use std::arch::x86_64::*;
        // SAFETY: the cfg admits this function only where AVX2 (and so AVX) is enabled;
        // the loads read whole `[f64; 4]` arrays (unaligned loads).
        unsafe {
            let ld = |a: &[f64; 4]| _mm256_loadu_pd(a.as_ptr());
            let (xv, yv) = (_mm256_set1_pd(x), _mm256_set1_pd(y));
            let doubt = _mm256_set1_pd(self.doubt);
            let (zero, sign) = (_mm256_setzero_pd(), _mm256_set1_pd(-0.0));
            let (mut par, mut uns) = (0i32, 0i32);
            for e in &self.edges {
                let (y0, y1) = (ld(&e.y0), ld(&e.y1));
                let spans = _mm256_xor_pd(
                    _mm256_cmp_pd::<_CMP_GT_OQ>(y0, yv),
                    _mm256_cmp_pd::<_CMP_GT_OQ>(y1, yv),
                );
                // x0 + (y - y0) * dx * rdy - x, in that order.
                let q = _mm256_mul_pd(_mm256_mul_pd(_mm256_sub_pd(yv, y0), ld(&e.dx)), ld(&e.rdy));
                let d = _mm256_sub_pd(_mm256_add_pd(ld(&e.x0), q), xv);
                let cross = _mm256_and_pd(spans, _mm256_cmp_pd::<_CMP_GT_OQ>(d, zero));
                let near = _mm256_cmp_pd::<_CMP_LE_OQ>(_mm256_andnot_pd(sign, d), doubt);
                par ^= _mm256_movemask_pd(cross);
                uns |= _mm256_movemask_pd(_mm256_and_pd(spans, near));
            }
            (par.count_ones() & 1 == 1, uns != 0)
        }
    }

    /// Portable form of `crossings_fast`.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    #[inline(always)]
    fn crossings_fast(&self, x: f64, y: f64) -> (bool, bool) {
        self.crossings_fast_scalar(x, y)
    }

    /// The crossing parity with `rdy` and whether some spanning edge's crossing is within
    /// `doubt` of `x`.
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
    #[inline(always)]
    fn crossings_fast_scalar(&self, x: f64, y: f64) -> (bool, bool) {
        let (mut inside, mut unsure) = (false, false);
        for e in &self.edges {
            for l in 0..4 {
                let spans = (e.y0[l] > y) != (e.y1[l] > y);
                let d = e.x0[l] + (y - e.y0[l]) * e.dx[l] * e.rdy[l] - x;
                inside ^= spans & (d > 0.0);
                unsure |= spans & (d.abs() <= self.doubt);
            }
        }
        (inside, unsure)
    }

    /// The crossing test with the division (the definition).
    #[cold]
    #[inline(never)]
    fn contains_divided(&self, x: f64, y: f64) -> bool {
        let mut inside = false;
        for e in &self.edges {
            for l in 0..4 {
                // Computed for every edge and used only where the edge spans `y`; the same
                // operations in the same order as `x0 + (y - y0) * (x1 - x0) / (y1 - y0)`.
                let spans = (e.y0[l] > y) != (e.y1[l] > y);
                let xc = e.x0[l] + (y - e.y0[l]) * e.dx[l] / e.dy[l];
                inside ^= spans & (xc > x);
            }
        }
        inside
    }
}

/// `doubt` over the largest projected coordinate. For an edge spanning `y`,
/// |(y - y0) / dy| <= 1, so the crossing's offset from `x0` is at most |dx| <= 2 reach;
/// the product with the reciprocal and the quotient each lie within 1.5 ulp of the exact
/// value (3 * 2^-53 * 2 reach apart), and the sums with `x0` (|x0| <= reach) add 2^-53 of
/// at most 3 reach each: 2^-49 reach in all. 2^-44 leaves a factor of 32.
const DOUBT: f64 = 1.0 / (1u64 << 44) as f64;

impl Sphere {
    /// RADIANCE `sphere` (`bubble == false`) or `bubble`. A negative radius inverts the
    /// kind (RADIANCE warns "negative radius"); a radius within `FTINY` of zero fails.
    pub fn new(center: DVec3, radius: f64, bubble: bool) -> Result<Sphere, GeometryError> {
        finite(center, "sphere centre")?;
        finite_f(radius, "sphere radius")?;
        let (radius, bubble) = match rad_sign(radius) {
            0 => {
                return Err(GeometryError::IllegalRadii(format!(
                    "sphere radius {radius} is zero"
                )))
            }
            -1 => (-radius, !bubble),
            _ => (radius, bubble),
        };
        Ok(Sphere {
            center,
            radius,
            bubble,
        })
    }

    /// Centre.
    pub fn center(&self) -> DVec3 {
        self.center
    }

    /// Radius (positive).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// True for a bubble (inward normal), after any negative-radius inversion.
    pub fn is_bubble(&self) -> bool {
        self.bubble
    }

    /// Nearest hit distance in `(tmin, tmax)`.
    pub fn intersect(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<(f64, DVec3)> {
        let oc = ray.origin - self.center;
        let tc = -oc.dot(ray.dir);
        // Squared half-chord from the perpendicular distance: accurate for far origins.
        let perp = oc + ray.dir * tc;
        let r2 = self.radius * self.radius;
        let h2 = r2 - perp.length_squared();
        if h2 < 0.0 {
            return None;
        }
        let h = h2.sqrt();
        // The root that would cancel comes from the product of roots (origin near surface).
        let c = oc.length_squared() - r2;
        let (t0, t1) = if tc > 0.0 {
            let t1 = tc + h;
            (c / t1, t1)
        } else {
            let t0 = tc - h;
            (t0, if t0 != 0.0 { c / t0 } else { tc + h })
        };
        let sign = if self.bubble { -1.0 } else { 1.0 };
        for t in [t0, t1] {
            if t > tmin && t < tmax {
                let n = (oc + ray.dir * t) * (sign / self.radius);
                return Some((t, n.normalize()));
            }
        }
        None
    }

    fn bounds(&self) -> (DVec3, DVec3) {
        (
            self.center - DVec3::splat(self.radius),
            self.center + DVec3::splat(self.radius),
        )
    }
}

impl Cone {
    /// A member of RADIANCE's cone family with RADIANCE's argument rules:
    /// - `Cylinder`/`Tube` use `r0` only (`r1` is ignored); a negative radius inverts the
    ///   kind, a radius within `FTINY` of zero fails.
    /// - `Cone`/`Cup`: one radius may be zero (a point); both zero, or radii of opposite
    ///   sign, fail. Negative radii invert the kind (cone ↔ cup) and are made positive.
    ///   Ends are swapped so the first has the smaller radius; equal radii (within
    ///   `FTINY`) turn a cone into a cylinder and a cup into a tube.
    /// - Coincident end points fail ("unknown orientation").
    pub fn new(
        kind: ConeKind,
        p0: DVec3,
        p1: DVec3,
        r0: f64,
        r1: f64,
    ) -> Result<Cone, GeometryError> {
        finite(p0, "cone end point")?;
        finite(p1, "cone end point")?;
        finite_f(r0, "cone radius")?;
        let mut kind = kind;
        let mut flipped = false;
        let (q0, q1, ra, rb);
        if kind.cylindrical() {
            let r = match rad_sign(r0) {
                0 => {
                    return Err(GeometryError::IllegalRadii(format!(
                        "cylinder radius {r0} is zero"
                    )))
                }
                -1 => {
                    kind = kind.inverted();
                    flipped = true;
                    -r0
                }
                _ => r0,
            };
            (q0, q1, ra, rb) = (p0, p1, r, r);
        } else {
            finite_f(r1, "cone radius")?;
            let (s0, s1) = (rad_sign(r0), rad_sign(r1));
            if s0 + s1 == 0 {
                return Err(GeometryError::IllegalRadii(format!(
                    "cone radii {r0} and {r1} are both zero or of opposite sign"
                )));
            }
            if s0 < 0 || s1 < 0 {
                kind = kind.inverted();
                flipped = true;
            }
            let a = r0 * f64::from(s0);
            let b = r1 * f64::from(s1);
            if b - a > FTINY {
                (q0, q1, ra, rb) = (p0, p1, a, b);
            } else if a - b > FTINY {
                (q0, q1, ra, rb) = (p1, p0, b, a);
            } else {
                kind = if kind == ConeKind::Cone {
                    ConeKind::Cylinder
                } else {
                    ConeKind::Tube
                };
                (q0, q1, ra, rb) = (p0, p1, a, a);
            }
        }
        let d = q1 - q0;
        let len = d.length();
        if len == 0.0 {
            return Err(GeometryError::ZeroAxis("cone end points coincide"));
        }
        Ok(Cone {
            kind,
            p0: q0,
            axis: d / len,
            len,
            r0: ra,
            r1: rb,
            flipped,
        })
    }

    /// RADIANCE `cone`.
    #[allow(clippy::self_named_constructors)] // named after the RADIANCE primitive
    pub fn cone(p0: DVec3, p1: DVec3, r0: f64, r1: f64) -> Result<Cone, GeometryError> {
        Cone::new(ConeKind::Cone, p0, p1, r0, r1)
    }

    /// RADIANCE `cup` (inward cone).
    pub fn cup(p0: DVec3, p1: DVec3, r0: f64, r1: f64) -> Result<Cone, GeometryError> {
        Cone::new(ConeKind::Cup, p0, p1, r0, r1)
    }

    /// RADIANCE `cylinder`.
    pub fn cylinder(p0: DVec3, p1: DVec3, r: f64) -> Result<Cone, GeometryError> {
        Cone::new(ConeKind::Cylinder, p0, p1, r, r)
    }

    /// RADIANCE `tube` (inward cylinder).
    pub fn tube(p0: DVec3, p1: DVec3, r: f64) -> Result<Cone, GeometryError> {
        Cone::new(ConeKind::Tube, p0, p1, r, r)
    }

    /// The kind after RADIANCE's normalisation (negative radii, equal radii).
    pub fn kind(&self) -> ConeKind {
        self.kind
    }

    /// True when negative radii inverted the kind (RADIANCE prints a warning).
    pub fn was_inverted(&self) -> bool {
        self.flipped
    }

    /// End points, the first at the smaller radius.
    pub fn end_points(&self) -> (DVec3, DVec3) {
        (self.p0, self.p0 + self.axis * self.len)
    }

    /// Radii (r0 ≤ r1), matching [`Cone::end_points`].
    pub fn radii(&self) -> (f64, f64) {
        (self.r0, self.r1)
    }

    /// Nearest hit distance in `(tmin, tmax)` on the open surface between the ends.
    pub fn intersect(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<(f64, DVec3)> {
        // Solve from the point of the ray nearest the cone's middle, for precision.
        let mid = self.p0 + self.axis * (0.5 * self.len);
        let ts = (mid - ray.origin).dot(ray.dir);
        let oc = ray.origin + ray.dir * ts - self.p0;
        let d = ray.dir;
        let k = (self.r1 - self.r0) / self.len;
        let dv = d.dot(self.axis);
        let ov = oc.dot(self.axis);
        let rr = self.r0 + k * ov;
        let a = 1.0 - dv * dv - k * k * dv * dv;
        let b = oc.dot(d) - ov * dv - k * dv * rr;
        let c = oc.length_squared() - ov * ov - rr * rr;
        let (r_a, r_b) = solve_quadratic_half(a, b, c)?;
        for tl in [r_a, r_b] {
            let t = ts + tl;
            if !(t > tmin && t < tmax) {
                continue;
            }
            let h = ov + tl * dv;
            if !(0.0..=self.len).contains(&h) {
                continue;
            }
            let radial = oc + d * tl - self.axis * h;
            let rl = radial.length();
            let mut n = if rl > 0.0 {
                let u = radial / rl;
                if self.kind.cylindrical() {
                    u
                } else {
                    (u * self.len - self.axis * (self.r1 - self.r0)).normalize()
                }
            } else {
                // Apex of a pointed cone: the only sensible outward direction.
                -self.axis
            };
            if self.kind.inward() {
                n = -n;
            }
            return Some((t, n));
        }
        None
    }

    fn bounds(&self) -> (DVec3, DVec3) {
        let p1 = self.p0 + self.axis * self.len;
        let e0 = disk_extent(self.axis, self.r0);
        let e1 = disk_extent(self.axis, self.r1);
        ((self.p0 - e0).min(p1 - e1), (self.p0 + e0).max(p1 + e1))
    }
}

impl Ring {
    /// RADIANCE `ring`: centre, direction (normal), inner and outer radius. Radii are
    /// swapped if given outer first; a negative radius, both zero, or equal radii (within
    /// `FTINY`) fail, as does a zero direction vector.
    pub fn new(center: DVec3, normal: DVec3, r0: f64, r1: f64) -> Result<Ring, GeometryError> {
        finite(center, "ring centre")?;
        finite(normal, "ring direction")?;
        finite_f(r0, "ring radius")?;
        finite_f(r1, "ring radius")?;
        let (s0, s1) = (rad_sign(r0), rad_sign(r1));
        if s0 + s1 == 0 || s0 < 0 || s1 < 0 {
            return Err(GeometryError::IllegalRadii(format!(
                "ring radii {r0} and {r1}: both zero or negative"
            )));
        }
        let a = r0 * f64::from(s0);
        let b = r1 * f64::from(s1);
        let (ra, rb) = if b - a > FTINY {
            (a, b)
        } else if a - b > FTINY {
            (b, a)
        } else {
            return Err(GeometryError::IllegalRadii(format!(
                "ring radii {r0} and {r1} are equal"
            )));
        };
        let len = normal.length();
        if len == 0.0 {
            return Err(GeometryError::ZeroAxis("ring direction is zero"));
        }
        Ok(Ring {
            center,
            normal: normal / len,
            r0: ra,
            r1: rb,
        })
    }

    /// Centre.
    pub fn center(&self) -> DVec3 {
        self.center
    }

    /// Unit normal (RADIANCE orientation: the direction vector given).
    pub fn normal(&self) -> DVec3 {
        self.normal
    }

    /// Inner and outer radius (r0 < r1).
    pub fn radii(&self) -> (f64, f64) {
        (self.r0, self.r1)
    }

    /// Hit distance in `(tmin, tmax)`; rays within `FTINY` of parallel miss, as in RADIANCE.
    pub fn intersect(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<(f64, DVec3)> {
        self.intersect_t(ray, tmin, tmax).map(|t| (t, self.normal))
    }

    /// The distance of [`Ring::intersect`] alone.
    #[inline]
    pub fn intersect_t(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<f64> {
        let cos = ray.dir.dot(self.normal);
        if cos.abs() <= FTINY {
            return None;
        }
        let t = (self.center - ray.origin).dot(self.normal) / cos;
        if !(t > tmin && t < tmax) {
            return None;
        }
        let r2 = (ray.origin - self.center + ray.dir * t).length_squared();
        (!(r2 > self.r1 * self.r1 || r2 < self.r0 * self.r0)).then_some(t)
    }

    fn bounds(&self) -> (DVec3, DVec3) {
        let e = disk_extent(self.normal, self.r1);
        (self.center - e, self.center + e)
    }
}

impl Shape {
    /// A shape for a RADIANCE polygon: the triangle fast path for three vertices, else a
    /// general [`Polygon`].
    pub fn polygon(vertices: Vec<DVec3>) -> Result<Shape, GeometryError> {
        let poly = Polygon::new(vertices)?;
        if poly.vertices.len() == 3 {
            let v = &poly.vertices;
            return Ok(Shape::Triangle(Triangle::new([v[0], v[1], v[2]])?));
        }
        Ok(Shape::Polygon(Box::new(poly)))
    }

    /// Nearest hit with `tmin < t < tmax`: distance and unit normal in RADIANCE's
    /// orientation (not flipped toward the ray).
    #[inline(always)]
    pub fn intersect(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<(f64, DVec3)> {
        match self {
            Shape::Triangle(s) => s.intersect(ray, tmin, tmax),
            Shape::Polygon(s) => s.intersect(ray, tmin, tmax),
            Shape::Sphere(s) => s.intersect(ray, tmin, tmax),
            Shape::Cone(s) => s.intersect(ray, tmin, tmax),
            Shape::Ring(s) => s.intersect(ray, tmin, tmax),
        }
    }

    /// The distance of [`Shape::intersect`] alone (used where the normal is not needed, so
    /// that it is not computed, nor carried, for hits that a closer one replaces).
    #[inline(always)]
    pub fn intersect_t(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<f64> {
        match self {
            Shape::Triangle(s) => s.intersect_t(ray, tmin, tmax),
            Shape::Polygon(s) => s.intersect_t(ray, tmin, tmax),
            Shape::Ring(s) => s.intersect_t(ray, tmin, tmax),
            Shape::Sphere(s) => s.intersect(ray, tmin, tmax).map(|(t, _)| t),
            Shape::Cone(s) => s.intersect(ray, tmin, tmax).map(|(t, _)| t),
        }
    }

    /// The normal that [`Shape::intersect`] returns with its hit at `t` (found with the
    /// same `ray` and `tmin`).
    pub fn hit_normal(&self, ray: &Ray, tmin: f64, t: f64) -> DVec3 {
        match self {
            Shape::Triangle(s) => s.normal(),
            Shape::Polygon(s) => s.normal,
            Shape::Ring(s) => s.normal,
            // The same computation again, below the next value up from `t`: every root
            // that failed the range test before fails it again, and the one found is `t`.
            _ => self
                .intersect(ray, tmin, t.next_up())
                .map_or(DVec3::ZERO, |(_, n)| n),
        }
    }

    /// Axis-aligned bounding box (min, max) in `f64`.
    pub fn bounds(&self) -> (DVec3, DVec3) {
        match self {
            Shape::Triangle(s) => s.bounds(),
            Shape::Polygon(s) => (s.lo, s.hi),
            Shape::Sphere(s) => s.bounds(),
            Shape::Cone(s) => s.bounds(),
            Shape::Ring(s) => s.bounds(),
        }
    }
}

impl From<Triangle> for Shape {
    fn from(s: Triangle) -> Shape {
        Shape::Triangle(s)
    }
}
impl From<Polygon> for Shape {
    fn from(s: Polygon) -> Shape {
        Shape::Polygon(Box::new(s))
    }
}
impl From<Sphere> for Shape {
    fn from(s: Sphere) -> Shape {
        Shape::Sphere(s)
    }
}
impl From<Cone> for Shape {
    fn from(s: Cone) -> Shape {
        Shape::Cone(s)
    }
}
impl From<Ring> for Shape {
    fn from(s: Ring) -> Shape {
        Shape::Ring(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crossing test as written before the edges were grouped (one edge at a time, with
    /// branches): the grouped form must give the same answer everywhere, including on
    /// vertices, edges and scan lines through vertices.
    fn reference_contains(poly: &Polygon, x: f64, y: f64) -> bool {
        let proj: Vec<[f64; 2]> = poly
            .vertices
            .iter()
            .map(|v| {
                let d = *v - poly.centroid;
                [d[poly.xi], d[poly.yi]]
            })
            .collect();
        let mut inside = false;
        let mut p0 = proj[proj.len() - 1];
        for &p1 in &proj {
            if (p0[1] > y) != (p1[1] > y) {
                let xc = p0[0] + (y - p0[1]) * (p1[0] - p0[0]) / (p1[1] - p0[1]);
                if xc > x {
                    inside = !inside;
                }
            }
            p0 = p1;
        }
        inside
    }

    #[test]
    fn grouped_edges_match_the_reference_crossing_test() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut unit = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
        let polys = [
            // Square, concave L, wall with a window hole joined by a seam, skew pentagon.
            vec![v(0., 0., 0.), v(1., 0., 0.), v(1., 1., 0.), v(0., 1., 0.)],
            vec![
                v(0., 0., 0.),
                v(2., 0., 0.),
                v(2., 1., 0.),
                v(1., 1., 0.),
                v(1., 2., 0.),
                v(0., 2., 0.),
            ],
            vec![
                v(0., 0., 0.),
                v(0., 0., 2.85),
                v(3.6, 0., 2.85),
                v(3.6, 0., 0.),
                v(0., 0., 0.),
                v(0.2, 0., 0.8),
                v(3.4, 0., 0.8),
                v(3.4, 0., 2.6),
                v(0.2, 0., 2.6),
                v(0.2, 0., 0.8),
            ],
            vec![
                v(0.1, 0.2, 0.3),
                v(1.7, 0.4, 0.1),
                v(2.1, 1.9, 0.5),
                v(0.9, 2.6, 0.4),
                v(-0.4, 1.2, 0.2),
            ],
        ];
        for verts in polys {
            let poly = Polygon::new(verts).unwrap();
            let proj: Vec<[f64; 2]> = poly
                .vertices
                .iter()
                .map(|v| {
                    let d = *v - poly.centroid;
                    [d[poly.xi], d[poly.yi]]
                })
                .collect();
            let check = |x: f64, y: f64| {
                let want = reference_contains(&poly, x, y);
                assert_eq!(poly.contains_projected(x, y), want, "at ({x}, {y})");
                // Both forms of the fast test: the same parity wherever they are sure.
                let (a, a_unsure) = poly.crossings_fast(x, y);
                let (b, b_unsure) = poly.crossings_fast_scalar(x, y);
                assert_eq!((a, a_unsure), (b, b_unsure), "at ({x}, {y})");
                assert!(a_unsure || a == want, "at ({x}, {y})");
            };
            for _ in 0..20000 {
                check(unit() * 6.0 - 3.0, unit() * 6.0 - 3.0);
            }
            // On vertices, on edges, and on scan lines through vertices.
            for (i, a) in proj.iter().enumerate() {
                let b = proj[(i + 1) % proj.len()];
                for t in [0.0, 0.25, 0.5, 1.0] {
                    check(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
                }
                check(a[0] + unit() - 0.5, a[1]);
            }
        }
    }
}
