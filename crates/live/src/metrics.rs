//! Visual comfort of the accumulated frame: Ev, DGP, DGPs, UGP and UGR from the pixels' rays
//! through [`daylit_glare::rays`], the task-area luminance of a region (TAL, eq. 7.4) and the
//! contrast ratio of a pair of regions (CRv with region means, eq. 5.5).

use crate::progressive::PixelGrid;
use daylit_glare::contrast::{cr_v, mean_luminance};
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

/// Evaluates `pixels` (radiance, row-major as `grid`) seen looking along `vdir` with `vup` up.
pub fn evaluate(
    grid: &PixelGrid,
    pixels: &[[f32; 3]],
    vdir: DVec3,
    vup: DVec3,
    regions: &Regions,
) -> Result<Metrics, String> {
    let lum: Vec<f64> = pixels.iter().map(|p| luminance_of(*p)).collect();
    let rays: Vec<Ray> = grid
        .rays
        .iter()
        .zip(&grid.omega)
        .zip(&lum)
        .filter_map(|((r, &omega), &lum)| {
            let (_, dir) = (*r)?;
            (omega > 0.0).then_some(Ray { dir, omega, lum })
        })
        .collect();
    let e = evaluate_rays(&rays, vdir, vup, &RayOptions::default()).map_err(|e| e.to_string())?;
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
        ev: e.ev,
        dgp: e.dgp,
        dgps: e.dgps,
        ugp: e.ugp as f64,
        ugr: e.ugr as f64,
        sources: e.sources.len(),
        task_luminance,
        contrast_luminances,
        contrast_ratio,
    })
}

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
