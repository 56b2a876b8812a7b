//! Visual comfort of the accumulated frame: Ev, DGP, DGPs, UGP and UGR from the pixels' rays
//! through [`daylit_glare::rays`] — in a progressive picture, Ev from the picture and the glare
//! sources from it with its fireflies suppressed, so that noise does not make sources — the
//! task-area luminance of a region (TAL, eq. 7.4), the contrast ratio of a pair of regions
//! (CRv with region means, eq. 5.5), and the standard error of a metric still converging.

use crate::progressive::PixelGrid;
use daylit_glare::contrast::{cr_v, mean_luminance};
use daylit_glare::geometry::PI_EG;
use daylit_glare::metrics as glare_metrics;
use daylit_glare::{evaluate_rays, Ray, RayOptions};
use daylit_image::luminance_of;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A region of the picture in fractions of its width and height, from the top left.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region {
    /// Left edge, 0..1.
    pub x0: f64,
    /// Top edge, 0..1.
    pub y0: f64,
    /// Right edge, 0..1.
    pub x1: f64,
    /// Bottom edge, 0..1.
    pub y1: f64,
}

impl Region {
    /// Checks that the corners are finite and within the picture.
    pub fn check(&self) -> Result<(), String> {
        let v = [self.x0, self.y0, self.x1, self.y1];
        if v.iter().any(|c| !c.is_finite() || !(0.0..=1.0).contains(c)) {
            return Err("region corners must be fractions of the picture, 0 to 1".into());
        }
        Ok(())
    }

    /// The pixels of a `w` × `h` picture whose centres lie inside (at least the nearest one).
    fn pixels(&self, w: usize, h: usize) -> impl Iterator<Item = usize> {
        let span = |a: f64, b: f64, n: usize| {
            let (lo, hi) = (a.min(b) * n as f64, a.max(b) * n as f64);
            let first = ((lo - 0.5).ceil().max(0.0) as usize).min(n - 1);
            let last = ((hi - 0.5).floor().max(0.0) as usize).clamp(first, n - 1);
            first..=last
        };
        let xs = span(self.x0, self.x1, w);
        let ys = span(self.y0, self.y1, h);
        ys.flat_map(move |y| xs.clone().map(move |x| y * w + x))
    }
}

/// The regions the user drew.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Regions {
    /// The task area.
    pub task: Option<Region>,
    /// The two regions whose contrast is watched.
    pub contrast: Option<[Region; 2]>,
}

impl Regions {
    /// Checks every region.
    pub fn check(&self) -> Result<(), String> {
        self.task.iter().try_for_each(Region::check)?;
        self.contrast.iter().flatten().try_for_each(Region::check)
    }
}

/// The metrics of one frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Vertical illuminance at the eye, lux.
    pub ev: f64,
    /// Daylight glare probability.
    pub dgp: f64,
    /// Simplified DGP (from Ev alone).
    pub dgps: f64,
    /// Unified glare probability.
    pub ugp: f64,
    /// Unified glare rating.
    pub ugr: f64,
    /// Glare sources found.
    pub sources: usize,
    /// Mean luminance of the task area, cd/m².
    pub task_luminance: Option<f64>,
    /// Mean luminances of the two contrast regions, cd/m².
    pub contrast_luminances: Option<[f64; 2]>,
    /// Their contrast ratio, brighter over darker.
    pub contrast_ratio: Option<f64>,
}

/// Mean luminance of a region, solid-angle weighted.
fn region_luminance(grid: &PixelGrid, lum: &[f64], r: &Region) -> Option<f64> {
    mean_luminance(
        r.pixels(grid.width, grid.height)
            .map(|k| (lum[k], grid.omega[k])),
    )
}

/// The rays of a picture's pixels: direction, solid angle and luminance.
fn rays(grid: &PixelGrid, lum: &[f64]) -> Vec<Ray> {
    grid.rays
        .iter()
        .zip(&grid.omega)
        .zip(lum)
        .filter_map(|((r, &omega), &lum)| {
            let (_, dir) = (*r)?;
            (omega > 0.0).then_some(Ray { dir, omega, lum })
        })
        .collect()
}

/// Evaluates `pixels` (radiance, row-major as `grid`) seen looking along `vdir` with `vup` up:
/// a converged picture, whose glare sources are its own.
pub fn evaluate(
    grid: &PixelGrid,
    pixels: &[[f32; 3]],
    vdir: DVec3,
    vup: DVec3,
    regions: &Regions,
) -> Result<Metrics, String> {
    evaluate_with_sources(grid, pixels, pixels, vdir, vup, regions)
}

/// Evaluates a progressive picture: Ev, the background luminance and the regions from
/// `pixels` (eq. 7.1's estimate, unbiased for these linear quantities), the glare sources
/// from `source_pixels` (the same picture with its fireflies suppressed,
/// [`crate::progressive::Accumulator::glare_picture`]); DGP and UGP combine both as evalglare
/// does (background `(Ev − Edir)/π`, no low-light correction).
pub fn evaluate_with_sources(
    grid: &PixelGrid,
    pixels: &[[f32; 3]],
    source_pixels: &[[f32; 3]],
    vdir: DVec3,
    vup: DVec3,
    regions: &Regions,
) -> Result<Metrics, String> {
    let lum: Vec<f64> = pixels.iter().map(|p| luminance_of(*p)).collect();
    let opts = RayOptions::default();
    let own = std::ptr::eq(pixels, source_pixels);
    let e = if own {
        evaluate_rays(&rays(grid, &lum), vdir, vup, &opts)
    } else {
        let source_lum: Vec<f64> = source_pixels.iter().map(|p| luminance_of(*p)).collect();
        evaluate_rays(&rays(grid, &source_lum), vdir, vup, &opts)
    }
    .map_err(|e| e.to_string())?;
    let ev = if own {
        e.ev
    } else {
        // As evaluate_rays sums it: the rays in front of the eye, cosine weighted.
        let vd = vdir.normalize_or_zero();
        rays(grid, &lum)
            .iter()
            .map(|r| (r.dir.normalize_or_zero().dot(vd), r))
            .filter(|(c, _)| *c >= 0.0)
            .map(|(c, r)| c * r.omega * r.lum)
            .sum()
    };
    let sources = &e.sources;
    let ev_dir: f64 = sources.iter().map(|s| s.e_glare).sum();
    let lum_backg = (ev - ev_dir) / PI_EG;
    let (ugp, ugr) = if sources.is_empty() {
        (0.0, 0.0)
    } else {
        (
            glare_metrics::ugp(lum_backg, sources) as f64,
            glare_metrics::ugr(lum_backg, sources) as f64,
        )
    };
    let task_luminance = regions
        .task
        .as_ref()
        .and_then(|r| region_luminance(grid, &lum, r));
    let contrast_luminances = regions.contrast.as_ref().and_then(|[a, b]| {
        Some([
            region_luminance(grid, &lum, a)?,
            region_luminance(grid, &lum, b)?,
        ])
    });
    let contrast_ratio = contrast_luminances.and_then(|[a, b]| {
        let (hi, lo) = (a.max(b), a.min(b));
        (lo > 0.0).then(|| cr_v(hi, lo, 0.0))
    });
    Ok(Metrics {
        ev,
        dgp: glare_metrics::dgp(ev, sources, &opts.dgp),
        dgps: glare_metrics::dgps(ev),
        ugp,
        ugr,
        sources: sources.len(),
        task_luminance,
        contrast_luminances,
        contrast_ratio,
    })
}

/// The standard error of a metric after the last of `history`'s frames, from how much it
/// moved between recent frames (`(frame, value)`, in order, frames counted from 1 after the
/// change). After n frames the estimate is a mean of n samples: a new frame k moves it by
/// (x_k − M)/k, so k·ΔM_k estimates a sample's deviation, and the error of the mean is their
/// root mean square over √n. `None` until [`MIN_FRAMES_FOR_ERROR`] frames have come, and for
/// gaps in the frame numbers.
pub fn standard_error(history: &[(u64, f64)]) -> Option<f64> {
    let (&(n, _), _) = history.split_last()?;
    if n < MIN_FRAMES_FOR_ERROR {
        return None;
    }
    let recent = &history[history.len().saturating_sub(ERROR_WINDOW + 1)..];
    let mut sum = 0.0;
    let mut count = 0usize;
    for w in recent.windows(2) {
        let ((k0, m0), (k, m)) = (w[0], w[1]);
        if k != k0 + 1 || k0 == 0 {
            continue;
        }
        let d = k as f64 * (m - m0);
        sum += d * d;
        count += 1;
    }
    (count >= 2).then(|| (sum / count as f64).sqrt() / (n as f64).sqrt())
}

/// The standard errors of a progressive picture's Ev, DGP and UGP (`None` while too few
/// frames have come to say), and the number of frames they rest on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Uncertainty {
    /// Diffuse frames the metrics rest on.
    pub frames: u64,
    /// Standard error of Ev, lux.
    pub ev: Option<f64>,
    /// Standard error of DGP.
    pub dgp: Option<f64>,
    /// Standard error of UGP.
    pub ugp: Option<f64>,
}

impl Uncertainty {
    /// From the metrics of each frame since the change, `(frame, ev, dgp, ugp)`, in order.
    pub fn of(history: &[(u64, f64, f64, f64)]) -> Uncertainty {
        let se = |f: fn(&(u64, f64, f64, f64)) -> f64| {
            standard_error(&history.iter().map(|h| (h.0, f(h))).collect::<Vec<_>>())
        };
        Uncertainty {
            frames: history.last().map_or(0, |h| h.0),
            ev: se(|h| h.1),
            dgp: se(|h| h.2),
            ugp: se(|h| h.3),
        }
    }
}

/// Frames before [`standard_error`] says anything.
pub const MIN_FRAMES_FOR_ERROR: u64 = 4;

/// How many of the latest frame-to-frame moves [`standard_error`] looks at.
pub const ERROR_WINDOW: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use daylit_image::View;

    /// A uniform field of luminance `l` over a fisheye gives Ev = π·L and no glare source.
    #[test]
    fn uniform_field_gives_pi_l() {
        let view = View::parse("-vta -vh 180 -vv 180 -vd 0 1 0 -vu 0 0 1").unwrap();
        let frame = view.frame().unwrap();
        let grid = PixelGrid::new(&frame, 64, 64);
        let l = 100.0;
        let px = vec![[(l / 179.0) as f32; 3]; 64 * 64];
        let m = evaluate(&grid, &px, view.vdir, view.vup, &Regions::default()).unwrap();
        assert!(
            (m.ev - std::f64::consts::PI * l).abs() / m.ev < 0.02,
            "{}",
            m.ev
        );
        assert_eq!(m.sources, 0);
        assert!(m.task_luminance.is_none());
    }

    /// The running mean of noisy samples: the estimated error follows σ/√n.
    #[test]
    fn standard_error_of_a_running_mean() {
        // Deterministic pseudo-random ±1 (xorshift): standard deviation 1.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let samples: Vec<f64> = (0..400)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state & 1 == 0 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect();
        let mut h = Vec::new();
        let mut sum = 0.0;
        for (k, x) in samples.iter().enumerate() {
            sum += 10.0 + x;
            h.push((k as u64 + 1, sum / (k + 1) as f64));
        }
        assert_eq!(standard_error(&h[..2]), None);
        for n in [16usize, 100, 400] {
            let se = standard_error(&h[..n]).unwrap();
            let want = 1.0 / (n as f64).sqrt();
            assert!(se > 0.5 * want && se < 2.0 * want, "n {n}: {se} vs {want}");
        }
        // A metric that does not move has no error.
        let flat: Vec<(u64, f64)> = (1..=20).map(|k| (k, 3.0)).collect();
        assert_eq!(standard_error(&flat), Some(0.0));
    }

    /// Suppressed fireflies make no glare source, yet Ev keeps their light.
    #[test]
    fn sources_from_the_cleaned_picture_ev_from_the_picture() {
        let view = View::parse("-vta -vh 180 -vv 180 -vd 0 1 0 -vu 0 0 1").unwrap();
        let grid = PixelGrid::new(&view.frame().unwrap(), 64, 64);
        let l = (100.0 / 179.0) as f32;
        let clean = vec![[l; 3]; 64 * 64];
        let mut noisy = clean.clone();
        noisy[32 * 64 + 30] = [1e4 / 179.0; 3];
        let r = Regions::default();
        let m = evaluate_with_sources(&grid, &noisy, &clean, view.vdir, view.vup, &r).unwrap();
        let n = evaluate(&grid, &noisy, view.vdir, view.vup, &r).unwrap();
        let c = evaluate(&grid, &clean, view.vdir, view.vup, &r).unwrap();
        assert_eq!((m.sources, n.sources, c.sources), (0, 1, 0));
        assert!(
            (m.ev - n.ev).abs() < 1e-9 * n.ev && m.ev > c.ev,
            "{} {} {}",
            m.ev,
            n.ev,
            c.ev
        );
        assert!(m.dgp < n.dgp && m.ugp == 0.0 && n.ugp > 0.0);
    }

    #[test]
    fn regions_measure_their_own_pixels() {
        let view = View::parse("-vta -vh 180 -vv 180 -vd 0 1 0 -vu 0 0 1").unwrap();
        let frame = view.frame().unwrap();
        let grid = PixelGrid::new(&frame, 32, 32);
        // Left half 10 cd/m², right half 40 cd/m².
        let px: Vec<[f32; 3]> = (0..32 * 32)
            .map(|k| [(if k % 32 < 16 { 10.0 } else { 40.0 } / 179.0) as f32; 3])
            .collect();
        let left = Region {
            x0: 0.3,
            y0: 0.4,
            x1: 0.45,
            y1: 0.6,
        };
        let right = Region {
            x0: 0.55,
            y0: 0.4,
            x1: 0.7,
            y1: 0.6,
        };
        let regions = Regions {
            task: Some(left),
            contrast: Some([left, right]),
        };
        let m = evaluate(&grid, &px, view.vdir, view.vup, &regions).unwrap();
        assert!((m.task_luminance.unwrap() - 10.0).abs() < 1e-3);
        assert!((m.contrast_ratio.unwrap() - 4.0).abs() < 1e-3);
        assert!(Region { x0: -1.0, ..left }.check().is_err());
    }
}
