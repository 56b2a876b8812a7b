//! Placements of one shared hierarchy (a compiled mesh placed many times, as RADIANCE's
//! `mesh` primitives place one `.rtm` file): a ray is moved into the shared geometry's own
//! frame instead of every placement's shapes being copied into the scene's tree.

use crate::accel::{Accel, Hit};
use crate::Ray;
use glam::{DAffine3, DMat4, DVec3};
use std::sync::Arc;

/// One placement of a shared hierarchy by a rotation, a uniform scale and a translation.
pub struct Placed {
    accel: Arc<Accel>,
    to_local: DAffine3,
    to_world: DAffine3,
    /// World length of one local unit.
    scale: f64,
    /// Id of the placement's first shape; shape `k` of `accel` is `base + k`.
    base: u32,
    lo: DVec3,
    hi: DVec3,
}

impl Placed {
    /// `accel` placed by `to_world` (column vectors), its shapes numbered from `base`; `None`
    /// unless the transform is a similarity that keeps handedness (mirrored or sheared
    /// placements must be copied: their normals and hit distances would not carry over).
    pub fn new(accel: Arc<Accel>, to_world: DMat4, base: u32) -> Option<Placed> {
        if !Placed::rigid(to_world) {
            return None;
        }
        let to_world = DAffine3::from_mat4(to_world);
        let s = to_world.matrix3.x_axis.length();
        let (llo, lhi) = accel.bounds();
        if !(llo.cmple(lhi).all()) {
            return None;
        }
        let (lo, hi) = placed_box(llo, lhi, &to_world);
        Some(Placed {
            to_local: to_world.inverse(),
            to_world,
            scale: s,
            base,
            lo,
            hi,
            accel,
        })
    }

    /// Whether `to_world` can place a shared hierarchy: a rotation, a uniform scale and a
    /// translation, keeping handedness.
    pub fn rigid(to_world: DMat4) -> bool {
        let m = DAffine3::from_mat4(to_world);
        let (x, y, z) = (m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis);
        let s = x.length();
        let similar = [y.length(), z.length()]
            .iter()
            .all(|l| (l - s).abs() <= 1e-9 * s)
            && [x.dot(y), y.dot(z), z.dot(x)]
                .iter()
                .all(|d| d.abs() <= 1e-9 * s * s);
        let affine = to_world.row(3) == glam::DVec4::new(0.0, 0.0, 0.0, 1.0);
        affine
            && s.is_finite()
            && s > 0.0
            && similar
            && m.matrix3.determinant() > 0.0
            && m.is_finite()
    }

    /// Number of shape ids the placement takes.
    pub fn len(&self) -> u32 {
        self.accel.len() as u32
    }

    /// True when the shared hierarchy holds no shapes.
    pub fn is_empty(&self) -> bool {
        self.accel.is_empty()
    }

    /// First shape id.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The shared hierarchy.
    pub fn accel(&self) -> &Accel {
        &self.accel
    }

    /// World bounds (of the shared bounds' corners, placed).
    pub fn bounds(&self) -> (DVec3, DVec3) {
        (self.lo, self.hi)
    }

    /// Does the ray pass through the world box between `tmin` and `tmax`?
    fn crosses(&self, ray: &Ray, tmin: f64, tmax: f64) -> bool {
        let inv = ray.dir.recip();
        let a = (self.lo - ray.origin) * inv;
        let b = (self.hi - ray.origin) * inv;
        // NaN (a zero direction component on the box's face) must not cull: treat as open.
        let near = a.min(b).max_element();
        let far = a.max(b).min_element();
        !(near > far.min(tmax) || far < tmin)
    }

    /// The ray in the local frame, unit length; local distances are world ones / `scale`.
    fn local(&self, ray: &Ray) -> Ray {
        Ray::new(
            self.to_local.transform_point3(ray.origin),
            self.to_local.transform_vector3(ray.dir) * self.scale,
        )
    }

    /// The closest hit of this placement with `tmin < t < tmax` that `filter` accepts (asked
    /// with scene-wide ids), in world terms.
    pub(crate) fn closest(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        filter: &mut dyn FnMut(u32) -> bool,
    ) -> Option<Hit> {
        if !self.crosses(ray, tmin, tmax) {
            return None;
        }
        let s = self.scale;
        let h = self
            .accel
            .closest_hit_filtered(&self.local(ray), tmin / s, tmax / s, |k| {
                filter(self.base + k)
            })?;
        let t = h.t * s;
        Some(Hit {
            t,
            prim: self.base + h.prim,
            point: ray.at(t),
            normal: self.to_world.transform_vector3(h.normal).normalize(),
        })
    }

    /// Whether this placement has a shape with `tmin < t < tmax` that `filter` accepts.
    pub(crate) fn any(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        filter: &mut dyn FnMut(u32) -> bool,
    ) -> bool {
        let s = self.scale;
        self.crosses(ray, tmin, tmax)
            && self
                .accel
                .any_hit_filtered(&self.local(ray), tmin / s, tmax / s, |k| {
                    filter(self.base + k)
                })
    }
}

/// The axis-aligned box around the box `lo..hi` placed by `to_world` (its corners placed).
pub fn placed_box(lo: DVec3, hi: DVec3, to_world: &DAffine3) -> (DVec3, DVec3) {
    (0..8).fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(a, b), i| {
        let c = DVec3::select(glam::BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0), hi, lo);
        let w = to_world.transform_point3(c);
        (a.min(w), b.max(w))
    })
}
