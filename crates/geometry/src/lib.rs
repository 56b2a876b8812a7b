//! daylit-geometry: exact double-precision ray intersection for every RADIANCE surface
//! primitive, oriented as RADIANCE orients it, and a bounding volume hierarchy with
//! closest-hit and any-hit queries, offered to light transport through the [`Tracer`] trait
//! that another backend can implement too.
//!
//! Shapes live in `f64`; the hierarchy is built and traversed in `f32` (obvhs CWBVH) on
//! boxes padded outward in a scene-centred frame, so large sites far from the origin are
//! never culled wrongly. Every primitive test is done again in `f64`.

mod accel;
mod instance;
mod pages;
mod shapes;
mod tracer;
mod wide;

pub use accel::{brute_force_closest, Accel, AccelOptions, BvhLayout, Hit};
pub use glam::DVec3;
pub use instance::{placed_box, Placed};
pub use shapes::{Cone, ConeKind, Polygon, Ring, Shape, Sphere, Triangle};
pub use tracer::Tracer;

/// RADIANCE's `FTINY` (double-precision build): the tolerance it uses for zero radii,
/// equal radii and rays parallel to planes.
pub const FTINY: f64 = 1e-6;

/// A ray with origin and unit direction, in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Start point.
    pub origin: DVec3,
    /// Direction; callers keep it unit length (distances `t` are then lengths).
    pub dir: DVec3,
}

impl Ray {
    /// A ray from `origin` along `dir` (not normalised here; pass a unit vector).
    pub fn new(origin: DVec3, dir: DVec3) -> Ray {
        Ray { origin, dir }
    }

    /// The point at distance `t` along the ray.
    #[inline]
    pub fn at(&self, t: f64) -> DVec3 {
        self.origin + self.dir * t
    }
}

/// Why a shape could not be made from the given arguments. RADIANCE ignores (with a
/// warning) or refuses such surfaces; daylit reports them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// A polygon needs at least three distinct vertices.
    #[error("polygon has {0} vertices; at least 3 are needed")]
    TooFewVertices(usize),
    /// The vertices enclose no area (collinear or coincident points).
    #[error("zero area: the vertices are collinear or coincide")]
    ZeroArea,
    /// A coordinate or radius is NaN or infinite.
    #[error("non-finite value in {0}")]
    NonFinite(&'static str),
    /// A radius is zero or the radii are not allowed for this primitive.
    #[error("illegal radii: {0}")]
    IllegalRadii(String),
    /// The axis (cone end points, ring normal) has zero length.
    #[error("unknown orientation: {0}")]
    ZeroAxis(&'static str),
}
