//! Annual glare of a set of views: for each position, the sky sampled once (wavelet-guided),
//! the direct view of each grouped sun of the occupied hours, then every view from that
//! position evaluated hour by hour. Timings per position are kept for the report.

use crate::evaluate::{evaluate_point, Series, Summary};
use crate::skies::Skies;
use crate::sky::{sample_sky, SkyLayout, SkySampling};
use crate::sun::{group_suns, sample_sun_view};
use crate::{io, LightFieldError};
use daylit_coefficients::SkyRenderer;
use daylit_glare::RayOptions;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::path::PathBuf;
use std::time::Instant;

/// A view: where the eye is and where it looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewSpec {
    /// Eye position.
    pub point: DVec3,
    /// View direction (unit).
    pub direction: DVec3,
}

/// Everything an annual glare run is asked to do beyond the scene and the year.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The sky sampler.
    pub sky: SkySampling,
    /// Rays over the solar disc per grouped sun (raytraverse samples 256 to 4096).
    pub sunsamples: usize,
    /// Cells a side of the Shirley–Chiu square the hours' suns are grouped by (0: none).
    pub sunres: u32,
    /// Glare-source detection and formulas (evalglare's defaults).
    pub rays: RayOptions,
    /// Where to write each position's sky LightPoint (`point_N.lpt`, N from 0 in order of
    /// first appearance), if anywhere.
    pub save: Option<PathBuf>,
    /// Where to read them from instead of sampling the sky (as `save` wrote them).
    pub load: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            sky: SkySampling::default(),
            sunsamples: 256,
            sunres: 256,
            rays: RayOptions::default(),
            save: None,
            load: None,
        }
    }
}

/// One view's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewResult {
    /// The view.
    pub view: ViewSpec,
    /// Metrics per evaluated hour.
    pub series: Series,
    /// The year in a few numbers.
    pub summary: Summary,
}

/// Work and time spent on one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PointTiming {
    /// The position.
    pub point: DVec3,
    /// Sky samples drawn.
    pub sky_samples: usize,
    /// Grouped suns traced.
    pub suns: usize,
    /// Seconds sampling the sky.
    pub sky_s: f64,
    /// Seconds tracing the sun views.
    pub sun_s: f64,
    /// Seconds evaluating its views over the year.
    pub evaluate_s: f64,
    /// Views from this position.
    pub views: usize,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnualGlare {
    /// One per view, in the order asked.
    pub views: Vec<ViewResult>,
    /// One per distinct position, in order of first appearance.
    pub points: Vec<PointTiming>,
}

/// Progress of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Sky sampling at position `point` finished level `level` (of `levels`).
    SkyLevel {
        point: usize,
        level: usize,
        levels: usize,
    },
    /// Sun views at position `point` are traced.
    Suns { point: usize },
    /// One hour of position `point` evaluated.
    Hour { point: usize },
}

/// Runs the year for `views` under `skies`, traced by `sky` (Reinhart patches, the skies'
/// subdivision).
pub fn annual_glare(
    sky: &SkyRenderer,
    skies: &Skies,
    views: &[ViewSpec],
    s: &Settings,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<AnnualGlare, LightFieldError> {
    if !matches!(sky.patches, Subdivision::Reinhart(_)) || sky.patches.len() != skies.bins {
        return Err(LightFieldError::Input(format!(
            "the tracer bins {} patches and the skies have {}: both must be one Reinhart sky",
            sky.patches.len(),
            skies.bins
        )));
    }
    for (k, v) in views.iter().enumerate() {
        if !v.point.is_finite() || !v.direction.is_finite() || v.direction.length() == 0.0 {
            return Err(LightFieldError::Input(format!(
                "view {}: position and direction must be finite, the direction non-zero",
                k + 1
            )));
        }
    }
    let layout = SkyLayout {
        patches: sky.patches,
    };
    // Positions in order of first appearance, each with the views from it.
    let mut points: Vec<(DVec3, Vec<usize>)> = Vec::new();
    for (k, v) in views.iter().enumerate() {
        match points.iter_mut().find(|(p, _)| *p == v.point) {
            Some((_, ks)) => ks.push(k),
            None => points.push((v.point, vec![k])),
        }
    }
    let suns: Vec<(usize, DVec3)> = skies
        .suns
        .iter()
        .enumerate()
        .filter_map(|(h, s)| s.map(|s| (h, DVec3::from_array(s.dir))))
        .collect();
    let groups = group_suns(&suns, s.sunres);
    let mut sun_of_hour = vec![None; skies.hours.len()];
    for (g, grp) in groups.iter().enumerate() {
        for &h in &grp.hours {
            sun_of_hour[h] = Some(g);
        }
    }
    let mut results: Vec<Option<ViewResult>> = vec![None; views.len()];
    let mut timings = Vec::new();
    for (pi, (pos, ks)) in points.iter().enumerate() {
        let t = Instant::now();
        let lp = match &s.load {
            Some(dir) => {
                let lp = load_point(&dir.join(format!("point_{pi}.lpt")), *pos, &layout)?;
                for level in 0..s.sky.nlev {
                    progress(Progress::SkyLevel {
                        point: pi,
                        level,
                        levels: s.sky.nlev,
                    });
                }
                lp
            }
            None => sample_sky(sky, *pos, pi as u64, &s.sky, &|level, _| {
                progress(Progress::SkyLevel {
                    point: pi,
                    level,
                    levels: s.sky.nlev,
                })
            })?,
        };
        if let Some(dir) = &s.save {
            io::save(&lp, &dir.join(format!("point_{pi}.lpt")))?;
        }
        let sky_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let sun_views: Vec<_> = {
            use rayon::prelude::*;
            groups
                .par_iter()
                .enumerate()
                .map(|(g, grp)| {
                    let seed = s.sky.seed ^ ((pi as u64) << 32) ^ g as u64;
                    sample_sun_view(&sky.renderer, *pos, grp.dir, s.sunsamples, seed)
                })
                .collect()
        };
        progress(Progress::Suns { point: pi });
        let sun_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let dirs: Vec<DVec3> = ks.iter().map(|&k| views[k].direction.normalize()).collect();
        let sun_of_hour: Vec<_> = sun_of_hour
            .iter()
            .map(|g| g.map(|g| &sun_views[g]))
            .collect();
        let series = evaluate_point(&lp, &layout, skies, &sun_of_hour, &dirs, &s.rays, &|| {
            progress(Progress::Hour { point: pi })
        })?;
        for ((&k, series), &direction) in ks.iter().zip(series).zip(&dirs) {
            results[k] = Some(ViewResult {
                view: ViewSpec {
                    point: views[k].point,
                    direction,
                },
                summary: Summary::of(&series),
                series,
            });
        }
        timings.push(PointTiming {
            point: *pos,
            sky_samples: lp.len(),
            suns: groups.len(),
            sky_s,
            sun_s,
            evaluate_s: t.elapsed().as_secs_f64(),
            views: ks.len(),
        });
    }
    Ok(AnnualGlare {
        views: results
            .into_iter()
            .map(|r| r.expect("every view evaluated"))
            .collect(),
        points: timings,
    })
}

/// Reads a saved sky LightPoint and checks that it belongs to `position` and `layout`.
fn load_point(
    path: &std::path::Path,
    position: DVec3,
    layout: &SkyLayout,
) -> Result<crate::LightPoint, LightFieldError> {
    let lp = io::load(path)?;
    if lp.position.distance(position) > 1e-9 * (1.0 + position.length())
        || lp.source != layout.label()
        || lp.components() != layout.components()
    {
        return Err(LightFieldError::Input(format!(
            "{}: a {} LightPoint at {} does not fit position {} and {} ({} components)",
            path.display(),
            lp.source,
            lp.position,
            position,
            layout.label(),
            layout.components()
        )));
    }
    Ok(lp)
}
