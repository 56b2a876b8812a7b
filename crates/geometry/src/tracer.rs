//! The ray queries light transport asks of a scene's geometry, as one trait: closest hit and
//! any hit of one ray (each with a filter on the primitives it may accept) and of batches of
//! rays. [`Accel`](crate::Accel), the CPU BVH, implements it; another backend (a GPU's
//! hardware ray tracing) implements the two filtered queries (a filter it cannot run where it
//! traverses can be run on the candidates it returns, nearest first) and overrides the batch
//! forms, where it gains. Backends are chosen at compile time, not through `dyn`: the
//! transport calls the trait on a concrete type, so a query costs what a direct call to the
//! BVH costs.
//!
//! Every backend answers as the CPU BVH does, bit for bit: distances and points in `f64` as
//! [`Shape`](crate::Shape)'s exact tests give them, a primitive's hit only strictly inside
//! `tmin < t < tmax`, exact ties in `t` to the lower primitive index, and the filter asked
//! only about primitives the ray hits. That is what keeps every program's output the same
//! whichever backend traces it.

use rayon::prelude::*;

use crate::{Hit, Ray};

/// Rays per rayon task in the default batch queries: a query is a few hundred nanoseconds,
/// so a task of fewer rays costs more to hand out than to trace.
const BATCH_GRAIN: usize = 256;

/// Closest-hit and any-hit queries over a fixed set of primitives, one ray or many.
///
/// Primitive ids are those of [`Hit::prim`]: the indices of the shapes the backend was built
/// from. Implementations are `Sync`: one scene is traced from many threads at once.
pub trait Tracer: Sync {
    /// The closest hit with `tmin < t < tmax` on a primitive for which `filter` returns true
    /// (the filter is asked only about primitives the ray hits, possibly more than once
    /// each). Ties in `t` go to the lower primitive id.
    fn closest_hit_filtered<F: FnMut(u32) -> bool>(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        filter: F,
    ) -> Option<Hit>;

    /// True if some primitive that `filter` accepts is hit with `tmin < t < tmax` (a shadow
    /// query: it may stop at the first such hit).
    fn any_hit_filtered<F: FnMut(u32) -> bool>(
        &self,
        ray: &Ray,
        tmin: f64,
        tmax: f64,
        filter: F,
    ) -> bool;

    /// The closest hit with `tmin < t < tmax`.
    #[inline]
    fn closest_hit(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<Hit> {
        self.closest_hit_filtered(ray, tmin, tmax, |_| true)
    }

    /// True if anything is hit with `tmin < t < tmax`.
    #[inline]
    fn any_hit(&self, ray: &Ray, tmin: f64, tmax: f64) -> bool {
        self.any_hit_filtered(ray, tmin, tmax, |_| true)
    }

    /// [`Tracer::closest_hit`] of every ray of `rays` into the same place of `out`, all with
    /// the same `tmin` and `tmax`. By default the rays are shared out over rayon's threads.
    ///
    /// # Panics
    /// If `out` and `rays` differ in length.
    fn closest_hits(&self, rays: &[Ray], tmin: f64, tmax: f64, out: &mut [Option<Hit>]) {
        assert_eq!(rays.len(), out.len(), "one answer per ray");
        out.par_iter_mut()
            .zip(rays.par_iter())
            .with_min_len(BATCH_GRAIN)
            .for_each(|(o, r)| *o = self.closest_hit(r, tmin, tmax));
    }

    /// [`Tracer::any_hit`] of every ray of `rays` into the same place of `out`, all with the
    /// same `tmin` and `tmax`. By default the rays are shared out over rayon's threads.
    ///
    /// # Panics
    /// If `out` and `rays` differ in length.
    fn any_hits(&self, rays: &[Ray], tmin: f64, tmax: f64, out: &mut [bool]) {
        assert_eq!(rays.len(), out.len(), "one answer per ray");
        out.par_iter_mut()
            .zip(rays.par_iter())
            .with_min_len(BATCH_GRAIN)
            .for_each(|(o, r)| *o = self.any_hit(r, tmin, tmax));
    }
}
