//! Values of a batch of primary rays, as rtrace gives them: the radiance along each ray, or
//! the irradiance at each ray's origin on a surface facing its direction (`-I`). Ray `i`
//! draws the random sequence of primary ray `i`, so a batch equals rtrace's output for the
//! same rays and options whatever the thread count. Used by the Python bindings.

use crate::irradiance_cache::Prepared;
use crate::{Ctx, Renderer};
use glam::DVec3;
use rayon::prelude::*;

/// Primary rays the irradiance cache samples its geometry from at most (a run with more rays
/// samples every k-th), as rtrace does.
pub const CACHE_PRIMARIES: usize = 1 << 18;

/// Rays a worker traces between two picks of work (rtrace's output chunk).
const CHUNK: usize = 64;

/// The value of one ray: a zero or non-finite direction gives zero, as in rtrace.
fn value(r: &Renderer, org: DVec3, dir: DVec3, irradiance: bool, ctx: &mut Ctx) -> DVec3 {
    let len = dir.length();
    if len == 0.0 || !len.is_finite() {
        return DVec3::ZERO;
    }
    let dir = dir / len;
    if irradiance {
        r.irradiance(org, dir, ctx)
    } else {
        r.radiance(org, dir, ctx).value
    }
}

impl Renderer {
    /// Traces `rays` (origin, direction) in parallel: radiance, or irradiance with
    /// `irradiance` (rtrace `-I`). With `-aa` above 0 the irradiance cache is built (or read
    /// from `-af`) first from the rays themselves, as rtrace builds it. Errors come from the
    /// cache; the returned [`Prepared`] carries its warnings.
    pub fn trace_batch(
        &mut self,
        rays: &[(DVec3, DVec3)],
        irradiance: bool,
    ) -> Result<(Vec<DVec3>, Prepared), String> {
        let stride = rays.len().div_ceil(CACHE_PRIMARIES).max(1);
        let n = rays.len().div_ceil(stride);
        let prepared = self.prepare_irradiance_cache(n, |r, i, ctx| {
            let (o, d) = rays[i * stride];
            value(r, o, d, irradiance, ctx);
        })?;
        let this = &*self;
        let values = rays
            .par_chunks(CHUNK)
            .enumerate()
            .flat_map_iter(|(ci, chunk)| {
                let mut ctx = this.ctx(0);
                chunk
                    .iter()
                    .enumerate()
                    .map(|(k, &(o, d))| {
                        this.reseed(&mut ctx, (ci * CHUNK + k) as u64);
                        value(this, o, d, irradiance, &mut ctx)
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        Ok((values, prepared))
    }
}
