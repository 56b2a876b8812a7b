//! The direct-sun term of the five-phase method (thesis eq. 6.4, C_ds S_sun), with one sun
//! per time step at its true position: shadows and sun patches come out as sharp as the
//! geometry, and ASE can be taken from this term alone as IES LM-83 asks.

use crate::coefficients::Sensor;
use daylit_sky::gendaymtx::StepSun;
use daylit_transport::Renderer;
use glam::DVec3;
use rayon::prelude::*;

/// Illuminance (lux) of RGB irradiance in visible W/m²: 179 (0.265 R + 0.670 G + 0.065 B).
pub fn lux(v: DVec3) -> f64 {
    DVec3::from_array(daylit_matrix::LUX_WEIGHTS).dot(v)
}

/// Direct-sun illuminance (lux) at every sensor for every step: sensor-major,
/// `out[s * suns.len() + h]`. The sun is a point at its centre; each sensor casts one shadow
/// ray per step with the sun above its surface, through glazing with its transmittance.
pub fn direct_sun(
    r: &Renderer,
    sensors: &[Sensor],
    suns: &[Option<StepSun>],
    progress: &(dyn Fn() + Sync),
) -> Vec<f32> {
    direct_sun_from(r, sensors, 0, suns, progress)
}

/// [`direct_sun`] of a block of a study's sensors, `sensors[i]` being the study's sensor
/// `first + i`: its random numbers are that sensor's, whatever block it is traced in.
pub fn direct_sun_from(
    r: &Renderer,
    sensors: &[Sensor],
    first: usize,
    suns: &[Option<StepSun>],
    progress: &(dyn Fn() + Sync),
) -> Vec<f32> {
    let steps = suns.len();
    let mut out = vec![0.0f32; sensors.len() * steps];
    out.par_chunks_mut(steps.max(1))
        .zip(sensors.par_iter())
        .enumerate()
        .for_each_init(
            || r.ctx(0),
            |ctx, (k, (row, s))| {
                r.reseed(ctx, (first + k) as u64);
                let (normal, point) = (s.normal(), s.point());
                for (v, sun) in row.iter_mut().zip(suns) {
                    let Some(sun) = sun else { continue };
                    let dir = DVec3::from_array(sun.dir).normalize();
                    let cos = dir.dot(normal);
                    if cos <= 0.0 {
                        continue;
                    }
                    let t = r.shadow_value(point, dir, ctx);
                    if t.max_element() <= 0.0 {
                        continue;
                    }
                    *v = (lux(t * DVec3::from_array(sun.normal)) * cos) as f32;
                }
                progress();
            },
        );
    out
}
