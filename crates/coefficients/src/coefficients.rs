//! The daylight-coefficient matrix of a set of sensors, traced in parallel.

use crate::sender::SkyRenderer;
use glam::DVec3;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A sensor: a point and the unit normal of the surface it measures on (rtrace `-I` input).
/// Serialised as the six numbers of its rtrace line, `[x, y, z, dx, dy, dz]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "[f64; 6]", into = "[f64; 6]")]
pub struct Sensor {
    /// Position.
    pub pos: DVec3,
    /// Unit normal.
    pub normal: DVec3,
}

impl From<[f64; 6]> for Sensor {
    fn from(v: [f64; 6]) -> Self {
        Sensor {
            pos: DVec3::new(v[0], v[1], v[2]),
            normal: DVec3::new(v[3], v[4], v[5]),
        }
    }
}

impl From<Sensor> for [f64; 6] {
    fn from(s: Sensor) -> Self {
        let (p, n) = (s.pos, s.normal);
        [p.x, p.y, p.z, n.x, n.y, n.z]
    }
}

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
                r.irradiance(s.pos, s.normal, ctx);
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
