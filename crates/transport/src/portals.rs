//! Windows as sampling portals. Daylight reaches a room's surfaces mostly through its glazing,
//! which a cosine-weighted hemisphere finds in proportion to the small solid angle it fills.
//! The ambient estimator of `-aa 0` (see [`crate::ambient`]) therefore also aims samples at
//! the `glass` and `dielectric` polygons of the scene, chosen by their projected solid angle
//! seen from the point, and weights both kinds of sample by the balance heuristic (Veach's
//! multiple importance sampling), which keeps the estimate unbiased whatever lies behind a
//! portal: aiming only changes where the noise is.
//!
//! A sun (a small distant `light`) shining through a window, or mirrored into the room by a
//! `mirror` (RADIANCE's virtual source), makes a sun patch: a bright spot that lights the room
//! a second time. Sun patches are aimed at as well: a point drawn on the window or mirror is
//! carried along the beam to where it lands (through other windows), and the density of a
//! direction is known from where its ray lands (the parallel projection's area ratio).

use crate::source::{Source, SourceGeom};
use daylit_geometry::{Accel, Hit, Ray, Shape, Tracer, FTINY};
use glam::DVec3;
use rand::Rng;

/// Portals considered from one point: the ones with the largest projected solid angle.
const MAX_SELECTED: usize = 16;

/// Above this many portals in the scene only first-bounce hemispheres aim at them: choosing
/// among all of them costs a pass over the list, which deep single-sample bounces do not repay.
pub(crate) const MAX_FOR_DEEP_BOUNCES: usize = 256;

/// Rejection sampling gives up on a polygon after this many tries (a polygon is a portal only
/// when at least a quarter of its bounding rectangle is inside it: the chance of giving up is
/// below 1e-8, and such a sample then counts as dark).
const MAX_TRIES: usize = 64;

/// A planar window or mirror and what drawing points on it needs.
#[derive(Clone, Debug)]
struct Aperture {
    /// Compiled shape index.
    shape: u32,
    /// A corner of the bounding rectangle in the aperture's plane, and its two edges.
    corner: DVec3,
    eu: DVec3,
    ev: DVec3,
    normal: DVec3,
    centre: DVec3,
    area: f64,
}

impl Aperture {
    /// The aperture of compiled shape `i`: a world-coordinate triangle or polygon that fills
    /// at least a quarter of its bounding rectangle.
    fn of(accel: &Accel, i: u32) -> Option<Aperture> {
        let (verts, normal, area) = match accel.shape(i) {
            Shape::Triangle(t) => (t.vertices().to_vec(), t.normal(), t.area()),
            Shape::Polygon(p) => (p.vertices().to_vec(), p.normal(), p.area()),
            _ => return None,
        };
        // The rectangle spanned by the first edge and its perpendicular in the plane.
        let u = (verts[1] - verts[0]).try_normalize()?;
        let v = normal.cross(u);
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for p in &verts {
            let d = *p - verts[0];
            let (a, b) = (d.dot(u), d.dot(v));
            lo = (lo.0.min(a), lo.1.min(b));
            hi = (hi.0.max(a), hi.1.max(b));
        }
        let rect = (hi.0 - lo.0) * (hi.1 - lo.1);
        if !(area > 0.0 && area.is_finite() && area >= 0.25 * rect) {
            return None;
        }
        Some(Aperture {
            shape: i,
            corner: verts[0] + u * lo.0 + v * lo.1,
            eu: u * (hi.0 - lo.0),
            ev: v * (hi.1 - lo.1),
            normal,
            centre: verts.iter().sum::<DVec3>() / verts.len() as f64,
            area,
        })
    }

    /// A point drawn uniformly on the aperture: `(u, v)` in its bounding rectangle if that is
    /// inside, else by rejection (either way uniform, so `(u, v)` may come from a stratum).
    fn point(&self, accel: &Accel, (u, v): (f64, f64), rng: &mut impl Rng) -> Option<DVec3> {
        let shape = accel.shape(self.shape);
        let at = |u: f64, v: f64| self.corner + self.eu * u + self.ev * v;
        std::iter::once(at(u, v))
            .chain((1..MAX_TRIES).map(|_| at(rng.random::<f64>(), rng.random::<f64>())))
            .find(|&q| inside(shape, q, self.normal))
    }

    /// Selection weight seen from `p` on the side `n` faces: about the projected solid angle
    /// of `area` at `centre` facing `normal`.
    fn weight(p: DVec3, n: DVec3, centre: DVec3, normal: DVec3, area: f64) -> Option<f64> {
        let d = centre - p;
        let dist2 = d.length_squared();
        if dist2 <= FTINY * FTINY {
            return None;
        }
        let u = d / dist2.sqrt();
        let solid = (area * normal.dot(u).abs() / dist2).min(std::f64::consts::TAU);
        let w = solid * n.dot(u).max(0.05);
        (w > 0.0 && w.is_finite()).then_some(w)
    }
}

/// A beam of sunlight for the sun patches: the direction to the sun as a point in the room
/// sees it, and, for a sun mirrored into the room, the mirror's shape and the direction to
/// the real sun.
#[derive(Clone, Copy, Debug)]
pub struct Beam {
    /// Unit direction to the (possibly virtual) sun.
    pub dir: DVec3,
    /// For a mirrored sun: the mirror and the unit direction to the sun it mirrors.
    pub mirror: Option<(u32, DVec3)>,
}

impl Beam {
    /// The beams of `sources`: suns (distant `light` sources smaller than 1e-3 sr) and their
    /// images in mirrors (virtual sources relayed once).
    pub fn suns(sources: &[Source]) -> Vec<Beam> {
        let distant = |s: &Source| match s.geom {
            SourceGeom::Distant { dir, omega, .. } if !s.skip && omega < 1e-3 => Some(dir),
            _ => None,
        };
        sources
            .iter()
            .filter_map(|s| {
                let dir = distant(s)?;
                let mirror = match &s.relay {
                    None => None,
                    Some(r) if sources[r.parent].relay.is_none() => {
                        Some((r.mirror, distant(&sources[r.parent])?))
                    }
                    Some(_) => return None,
                };
                Some(Beam { dir, mirror })
            })
            .collect()
    }
}

/// Where a beam lands after an aperture: found once by carrying five points of the aperture
/// along it, and used to guess how much of the patch a point sees.
#[derive(Clone, Debug)]
struct SunPatch {
    aperture: Aperture,
    /// Unit direction from the patch back along the beam.
    dir: DVec3,
    centre: DVec3,
    normal: DVec3,
    area: f64,
}

/// The scene's windows and the sun patches they (and its mirrors) make.
#[derive(Clone, Debug, Default)]
pub struct Portals {
    windows: Vec<Aperture>,
    /// Per compiled shape: is it a window? Beams pass through windows.
    is_window: Vec<bool>,
    patches: Vec<SunPatch>,
}

/// Windows (or sun patches) chosen for one point, with the probability of sampling each.
pub(crate) struct Selection {
    items: Vec<(usize, f64)>,
}

/// A direction drawn towards a sun patch: it counts only if its ray lands where it was aimed
/// (shape and distance), since the density is known only for patches the point sees.
pub(crate) struct Landing {
    pub dir: DVec3,
    pub prim: u32,
    pub dist: f64,
}

impl Portals {
    /// The windows (the shapes `is_window` accepts among `accel`'s own triangles and
    /// polygons) and the patches `beams` make through them and their mirrors, traced with
    /// `tracer` (the backend over `accel`'s shapes).
    pub fn find(
        accel: &Accel,
        tracer: &impl Tracer,
        is_window: impl Fn(u32) -> bool,
        beams: &[Beam],
    ) -> Portals {
        let n = accel.own_len() as u32;
        let mut is_window: Vec<bool> = (0..n).map(&is_window).collect();
        let windows: Vec<Aperture> = (0..n)
            .filter(|&i| is_window[i as usize])
            .filter_map(|i| Aperture::of(accel, i))
            .collect();
        if !is_window.contains(&true) {
            // `window` answers false past the table's end: no table for a windowless scene.
            is_window = Vec::new();
        }
        let mut portals = Portals {
            windows,
            is_window,
            patches: Vec::new(),
        };
        for beam in beams {
            let apertures: Vec<(Aperture, DVec3)> = match beam.mirror {
                None => portals
                    .windows
                    .iter()
                    .map(|w| (w.clone(), beam.dir))
                    .collect(),
                Some((m, sun)) => Aperture::of(accel, m)
                    .map(|a| (a, sun))
                    .into_iter()
                    .collect(),
            };
            for (a, sun) in apertures {
                portals.add_patches(accel, tracer, a, beam.dir, sun);
            }
        }
        portals
    }

    /// Carries aperture `a` along the beam from five points (its centre and its bounding
    /// rectangle's quarters' centres), so that a mullion or a sill in the way of one leaves
    /// the others; each landing stands for a fifth of the patch. `sun` is the direction the
    /// light reaches the aperture from, `dir` the one it is seen from after it.
    fn add_patches(
        &mut self,
        accel: &Accel,
        tracer: &impl Tracer,
        a: Aperture,
        dir: DVec3,
        sun: DVec3,
    ) {
        let cos = a.normal.dot(dir).abs();
        if cos <= 0.01 {
            return;
        }
        let probes = [
            (0.5, 0.5),
            (0.25, 0.25),
            (0.75, 0.25),
            (0.25, 0.75),
            (0.75, 0.75),
        ];
        for (u, v) in probes {
            let q = a.corner + a.eu * u + a.ev * v;
            let lit =
                !tracer.any_hit_filtered(&Ray::new(q, sun), 0.0, f64::INFINITY, |x| x != a.shape);
            if !inside(accel.shape(a.shape), q, a.normal) || !lit {
                continue;
            }
            let Some(h) = self.land(tracer, &a, q, dir) else {
                continue;
            };
            let cos_land = h.normal.dot(dir).abs();
            if cos_land > 0.01 {
                self.patches.push(SunPatch {
                    aperture: a.clone(),
                    dir,
                    centre: h.point,
                    normal: h.normal,
                    area: a.area * cos / cos_land / probes.len() as f64,
                });
            }
        }
    }

    /// Where the beam seen from direction `dir` lands after leaving aperture `a` at `q`.
    fn land(&self, tracer: &impl Tracer, a: &Aperture, q: DVec3, dir: DVec3) -> Option<Hit> {
        tracer.closest_hit_filtered(&Ray::new(q, -dir), 0.0, f64::INFINITY, |x| {
            x != a.shape && !self.window(x)
        })
    }

    /// Whether compiled shape `prim` is one of the windows.
    pub(crate) fn window(&self, prim: u32) -> bool {
        self.is_window.get(prim as usize).copied().unwrap_or(false)
    }

    /// Number of windows.
    pub fn len(&self) -> usize {
        self.windows.len()
    }

    /// True without windows and sun patches.
    pub fn is_empty(&self) -> bool {
        self.windows.is_empty() && self.patches.is_empty()
    }

    /// The windows worth aiming at from `p` on the side `n` faces, each with its probability
    /// (proportional to an estimate of its projected solid angle); `None` when none is.
    pub(crate) fn select(&self, p: DVec3, n: DVec3) -> Option<Selection> {
        let mut items: Vec<(usize, f64)> = Vec::new();
        for (k, w) in self.windows.iter().enumerate() {
            let corners = [
                w.corner,
                w.corner + w.eu,
                w.corner + w.ev,
                w.corner + w.eu + w.ev,
            ];
            if !corners.iter().any(|c| n.dot(*c - p) > FTINY) {
                continue;
            }
            if let Some(wt) = Aperture::weight(p, n, w.centre, w.normal, w.area) {
                items.push((k, wt));
            }
        }
        normalise(items)
    }

    /// The sun patches worth aiming at from `p` on the side `n` faces, as [`Portals::select`].
    pub(crate) fn select_patches(&self, p: DVec3, n: DVec3) -> Option<Selection> {
        let mut items: Vec<(usize, f64)> = Vec::new();
        for (k, sp) in self.patches.iter().enumerate() {
            if n.dot(sp.centre - p) <= FTINY {
                continue;
            }
            if let Some(wt) = Aperture::weight(p, n, sp.centre, sp.normal, sp.area) {
                items.push((k, wt));
            }
        }
        normalise(items)
    }

    /// A direction from `p` towards a point drawn uniformly on one of the selected windows;
    /// `None` when the draw failed (counted as a dark sample). `(x, v)`, uniform in the unit
    /// square, choose the window and the point (stratified by the caller).
    pub(crate) fn sample(
        &self,
        sel: &Selection,
        p: DVec3,
        accel: &Accel,
        (x, v): (f64, f64),
        rng: &mut impl Rng,
    ) -> Option<DVec3> {
        let (k, u) = pick(sel, x);
        let q = self.windows[k].point(accel, (u, v), rng)?;
        (q - p).try_normalize()
    }

    /// The density (per steradian) with which [`Portals::sample`] draws direction `dir`
    /// from `p`: the sum over the selected windows it crosses.
    pub(crate) fn density(&self, sel: &Selection, p: DVec3, dir: DVec3, accel: &Accel) -> f64 {
        let ray = Ray::new(p, dir);
        let mut pdf = 0.0;
        for &(k, prob) in &sel.items {
            let w = &self.windows[k];
            let cos = w.normal.dot(dir).abs();
            if cos <= FTINY {
                continue;
            }
            if let Some(t) = accel.shape(w.shape).intersect_t(&ray, 0.0, f64::INFINITY) {
                pdf += prob * t * t / (w.area * cos);
            }
        }
        pdf
    }

    /// A direction from `p` to where the beam through a point drawn on a selected patch's
    /// aperture lands, with that landing; `(x, v)` as for [`Portals::sample`].
    pub(crate) fn sample_patch(
        &self,
        sel: &Selection,
        p: DVec3,
        accel: &Accel,
        tracer: &impl Tracer,
        (x, v): (f64, f64),
        rng: &mut impl Rng,
    ) -> Option<Landing> {
        let (k, u) = pick(sel, x);
        let sp = &self.patches[k];
        let q = sp.aperture.point(accel, (u, v), rng)?;
        let h = self.land(tracer, &sp.aperture, q, sp.dir)?;
        let d = h.point - p;
        let dist = d.length();
        (dist > FTINY).then(|| Landing {
            dir: d / dist,
            prim: h.prim,
            dist,
        })
    }

    /// The density (per steradian) with which [`Portals::sample_patch`] draws the direction
    /// `dir` from a point whose ray first lands on `hit`.
    pub(crate) fn patch_density(
        &self,
        sel: &Selection,
        dir: DVec3,
        hit: &Hit,
        accel: &Accel,
        tracer: &impl Tracer,
    ) -> f64 {
        // Beams pass through windows, so they never land on one.
        if self.window(hit.prim) {
            return 0.0;
        }
        let tmin = FTINY * (1.0 + hit.point.abs().max_element() * 1e-4);
        // A flat landing cannot shade itself; a curved one can, from its far side.
        let flat = matches!(
            accel.shape(hit.prim),
            Shape::Triangle(_) | Shape::Polygon(_) | Shape::Ring(_)
        );
        let mut pdf = 0.0;
        for &(k, prob) in &sel.items {
            let sp = &self.patches[k];
            let a = &sp.aperture;
            if hit.prim == a.shape {
                continue;
            }
            let (cos_land, cos_view) = (hit.normal.dot(sp.dir).abs(), hit.normal.dot(dir).abs());
            if cos_land <= FTINY || cos_view <= FTINY {
                continue;
            }
            let back = Ray::new(hit.point, sp.dir);
            let Some(t) = accel.shape(a.shape).intersect_t(&back, tmin, f64::INFINITY) else {
                continue;
            };
            let blocked = tracer.any_hit_filtered(&back, if flat { 0.0 } else { tmin }, t, |x| {
                x != a.shape && !self.window(x) && (x != hit.prim || !flat)
            });
            if !blocked {
                // Parallel light: an area dA on the aperture lands on dA·cos_aperture/cos_land.
                let jacobian = cos_land / (a.area * a.normal.dot(sp.dir).abs() * cos_view);
                pdf += prob * hit.t * hit.t * jacobian;
            }
        }
        pdf
    }
}

/// Selection probabilities from weights, keeping the largest [`MAX_SELECTED`].
fn normalise(mut items: Vec<(usize, f64)>) -> Option<Selection> {
    if items.is_empty() {
        return None;
    }
    if items.len() > MAX_SELECTED {
        items.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
        items.truncate(MAX_SELECTED);
    }
    let total: f64 = items.iter().map(|i| i.1).sum();
    for i in &mut items {
        i.1 /= total;
    }
    Some(Selection { items })
}

/// The item of `sel` that `x` (uniform in [0, 1)) falls on by the items' probabilities, and
/// where in its share it fell (again uniform in [0, 1)).
fn pick(sel: &Selection, mut x: f64) -> (usize, f64) {
    for &(k, prob) in &sel.items {
        if x < prob {
            return (k, (x / prob).min(1.0 - f64::EPSILON));
        }
        x -= prob;
    }
    (sel.items[sel.items.len() - 1].0, 0.5)
}

/// Is `q`, a point in the plane of `shape`, inside it?
fn inside(shape: &Shape, q: DVec3, normal: DVec3) -> bool {
    let ray = Ray::new(q + normal, -normal);
    shape.intersect_t(&ray, 0.0, 2.0).is_some()
}
