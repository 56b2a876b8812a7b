//! Glare of views from one position, hour by hour (seed 004 §2.3): each sky sample's luminance
//! is its coefficient vector times the hour's sky (the patch-blurred sun of its direct path
//! taken out), the disc samples of the hour's grouped sun are added with their own solid
//! angles, and `daylit_glare::rays` detects sources and computes Ev, DGP, DGPs, UGP and UGR.

use crate::skies::Skies;
use crate::sky::{SkyLayout, LUMINANCE};
use crate::sun::{sun_solid_angle, SunView};
use crate::{LightFieldError, LightPoint};
use daylit_glare::{evaluate_rays, Ray, RayOptions};
use glam::DVec3;
use rayon::prelude::*;
use serde::Serialize;

/// One view's metrics, one entry per evaluated hour.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Series {
    /// Vertical illuminance, lux.
    pub ev: Vec<f64>,
    /// Daylight glare probability.
    pub dgp: Vec<f64>,
    /// Simplified DGP (from Ev alone).
    pub dgps: Vec<f64>,
    /// Unified glare probability.
    pub ugp: Vec<f64>,
    /// Unified glare rating.
    pub ugr: Vec<f64>,
}

/// The up vector of a view: +Z, or +Y for a view straight up or down.
pub fn up_of(dir: DVec3) -> DVec3 {
    if dir.normalize().z.abs() > 0.999 {
        DVec3::Y
    } else {
        DVec3::Z
    }
}

/// Evaluates `views` (unit directions) from the sky LightPoint `lp` (laid out as `layout`)
/// for every hour of `skies`; `sun_of_hour[h]` is the hour's sun view, if its sun is up.
/// `progress()` is called once per hour.
pub fn evaluate_point(
    lp: &LightPoint,
    layout: &SkyLayout,
    skies: &Skies,
    sun_of_hour: &[Option<&SunView>],
    views: &[DVec3],
    opts: &RayOptions,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Series>, LightFieldError> {
    let bins = layout.patches.len();
    if sun_of_hour.len() != skies.hours.len() {
        return Err(LightFieldError::Input(format!(
            "{} sun views for {} hours",
            sun_of_hour.len(),
            skies.hours.len()
        )));
    }
    if lp.components() != layout.components() || skies.bins != bins {
        return Err(LightFieldError::Input(format!(
            "the LightPoint has {} components and the skies {} patches; {} patches need {}",
            lp.components(),
            skies.bins,
            bins,
            layout.components()
        )));
    }
    let patch: Vec<usize> = lp
        .directions()
        .iter()
        .map(|&d| layout.patches.index(d))
        .collect();
    let per_hour: Vec<Vec<[f64; 5]>> = (0..skies.hours.len())
        .into_par_iter()
        .map(|h| {
            let rays = hour_rays(lp, &patch, skies, h, sun_of_hour[h]);
            let out = views
                .iter()
                .map(|&v| {
                    let e = evaluate_rays(&rays, v, up_of(v), opts)
                        .map_err(|e| LightFieldError::Input(e.to_string()))?;
                    Ok([e.ev, e.dgp, e.dgps, e.ugp as f64, e.ugr as f64])
                })
                .collect::<Result<Vec<_>, LightFieldError>>();
            progress();
            out
        })
        .collect::<Result<_, _>>()?;
    Ok((0..views.len())
        .map(|v| {
            let col = |m: usize| per_hour.iter().map(|r| r[v][m]).collect();
            Series {
                ev: col(0),
                dgp: col(1),
                dgps: col(2),
                ugp: col(3),
                ugr: col(4),
            }
        })
        .collect())
}

/// The rays of hour `h`: every sky sample with its luminance, then the sun's disc samples.
fn hour_rays(
    lp: &LightPoint,
    patch: &[usize],
    skies: &Skies,
    h: usize,
    sun: Option<&SunView>,
) -> Vec<Ray> {
    let bins = skies.bins;
    let weigh = |s: &[[f32; 3]]| -> Vec<f32> {
        s.iter()
            .flat_map(|c| (0..3).map(move |k| (LUMINANCE[k] * c[k] as f64) as f32))
            .collect()
    };
    let full = weigh(&skies.full[h * bins..(h + 1) * bins]);
    let sun_only = weigh(&skies.sun_only[h * bins..(h + 1) * bins]);
    let mut rays: Vec<Ray> = (0..lp.len())
        .map(|i| {
            let v = lp.value(i);
            let all: f32 = v[..3 * bins].iter().zip(&full).map(|(a, b)| a * b).sum();
            let p = patch[i];
            let direct: f32 = (0..3).map(|k| v[3 * bins + k] * sun_only[3 * p + k]).sum();
            Ray {
                dir: lp.directions()[i],
                omega: lp.solid_angles()[i],
                lum: (all - direct).max(0.0) as f64,
            }
        })
        .collect();
    if let (Some(view), Some(s)) = (sun, skies.suns[h]) {
        // Disc radiance: normal irradiance over the disc's solid angle.
        let l: [f64; 3] = std::array::from_fn(|k| LUMINANCE[k] * s.normal[k] / sun_solid_angle());
        for (d, t) in view.dirs.iter().zip(&view.transmittance) {
            let lum: f64 = (0..3).map(|k| l[k] * t[k] as f64).sum();
            if lum > 0.0 {
                rays.push(Ray {
                    dir: *d,
                    omega: view.omega,
                    lum,
                });
            }
        }
    }
    rays
}

/// The annual summary of one view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Evaluated hours.
    pub hours: usize,
    /// Hours with DGP ≥ 0.35 (perceptible glare and above).
    pub above_035: usize,
    /// Hours with DGP ≥ 0.40 (disturbing and above).
    pub above_040: usize,
    /// Hours with DGP ≥ 0.45 (intolerable).
    pub above_045: usize,
    /// Glare autonomy as honeybee-radiance reports it: the share of hours with DGP below 0.40.
    pub glare_autonomy: f64,
    /// Mean DGP over the hours.
    pub mean_dgp: f64,
    /// Largest DGP.
    pub max_dgp: f64,
}

impl Summary {
    /// The summary of a series.
    pub fn of(s: &Series) -> Summary {
        let n = s.dgp.len();
        let above = |t: f64| s.dgp.iter().filter(|&&d| d >= t).count();
        let a40 = above(0.40);
        Summary {
            hours: n,
            above_035: above(0.35),
            above_040: a40,
            above_045: above(0.45),
            glare_autonomy: if n == 0 {
                1.0
            } else {
                (n - a40) as f64 / n as f64
            },
            mean_dgp: if n == 0 {
                0.0
            } else {
                s.dgp.iter().sum::<f64>() / n as f64
            },
            max_dgp: s.dgp.iter().copied().fold(0.0, f64::max),
        }
    }
}
