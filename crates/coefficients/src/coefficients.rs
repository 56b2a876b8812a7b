//! The daylight-coefficient matrix of a set of sensors, traced in parallel.

use crate::sender::SkyRenderer;
use glam::DVec3;
use rayon::prelude::*;

pub use daylit_annual::Sensor;

/// Daylight coefficients: irradiance (W/m², RGB) at each sensor per unit radiance of each
/// patch. Sensor-major: `total[s * bins + p]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Coefficients {
    /// Number of sensors (rows).
    pub sensors: usize,
    /// Number of patches (columns), ground first.
    pub bins: usize,
    /// All paths.
    pub total: Vec<[f32; 3]>,
    /// Paths from the sensor's hemisphere straight to the patch through transparent surfaces
    /// only: what the direct-sun term replaces.
    pub direct: Vec<[f32; 3]>,
}

/// The contribution bins of every sensor traced as an irradiance sensor by `r` (in parallel;
/// sensor `k` of the study, `sensors[k - first]`, always draws the same random numbers, so the
/// result depends neither on the thread count nor on how a study is split into blocks of
/// sensors), one row per sensor; `progress` is called once per finished sensor.
pub(crate) fn sensor_rows(
    r: &daylit_transport::Renderer,
    sensors: &[Sensor],
    first: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Vec<[f32; 3]>> {
    sensors
        .par_iter()
        .enumerate()
        .map_init(
            || r.ctx(0),
            |ctx, (k, s)| {
                r.reseed(ctx, (first + k) as u64);
                ctx.contrib.fill(DVec3::ZERO);
                r.irradiance(s.point(), s.normal(), ctx);
                progress();
                ctx.contrib.iter().map(|v| v.as_vec3().to_array()).collect()
            },
        )
        .collect()
}

/// Traces every sensor (in parallel; sensor `k` always draws the same random numbers, so the
/// result does not depend on the thread count) and gathers its coefficients. `progress` is
/// called once per finished sensor.
pub fn daylight_coefficients(
    sky: &SkyRenderer,
    sensors: &[Sensor],
    progress: &(dyn Fn() + Sync),
) -> Coefficients {
    daylight_coefficients_from(sky, sensors, 0, progress)
}

/// [`daylight_coefficients`] of a block of a study's sensors, `sensors[i]` being the study's
/// sensor `first + i` (its random numbers are that sensor's).
pub fn daylight_coefficients_from(
    sky: &SkyRenderer,
    sensors: &[Sensor],
    first: usize,
    progress: &(dyn Fn() + Sync),
) -> Coefficients {
    let bins = sky.patches.len();
    let rows = sensor_rows(&sky.renderer, sensors, first, progress);
    let mut total = Vec::with_capacity(sensors.len() * bins);
    let mut direct = Vec::with_capacity(sensors.len() * bins);
    for row in rows {
        total.extend_from_slice(&row[..bins]);
        direct.extend_from_slice(&row[bins..2 * bins]);
    }
    Coefficients {
        sensors: sensors.len(),
        bins,
        total,
        direct,
    }
}
