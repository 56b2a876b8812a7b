//! Sky sampling at a position (seed 004 §2.1): view directions drawn in the Shirley–Chiu square
//! of both hemispheres, coarse first (`idres` cells a side, one jittered sample each), then
//! refined level by level where the wavelet detail of the samples' feature (the largest sky-patch
//! coefficient, photopic) passes the level's threshold, up to `idres · 2^(nlev−1)` a side. Each
//! sample is traced once with contributions on: its value is a coefficient vector over the sky
//! patches ([`SkyLayout`]).

use crate::wavelet::{self, Weights};
use crate::{LightFieldError, LightPoint};
use daylit_coefficients::SkyRenderer;
use daylit_sky::patches::{shirley_chiu_direction, Subdivision};
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use rayon::prelude::*;

/// Photopic weights of RGB radiance, cd/m² per W/(m² sr) (RADIANCE's 179 lm/W and primaries).
pub const LUMINANCE: [f64; 3] = daylit_matrix::LUX_WEIGHTS;

/// The sky sampler's parameters, with raytraverse's names and defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct SkySampling {
    /// Cells a side of each hemisphere's square at the first level (raytraverse `idres`).
    pub idres: usize,
    /// Levels, each doubling the resolution (raytraverse `nlev`).
    pub nlev: usize,
    /// Scales the detail thresholds: smaller samples more (raytraverse `accuracy`).
    pub accuracy: f64,
    /// Detail threshold at the first refinement level (raytraverse `t0`).
    pub t0: f64,
    /// Detail threshold at the last level (raytraverse `t1`).
    pub t1: f64,
    /// Seed of the jitter (the tracer has its own, `-seed`).
    pub seed: u64,
}

impl Default for SkySampling {
    fn default() -> Self {
        SkySampling {
            idres: 32,
            nlev: 5,
            accuracy: 1.0,
            t0: 1.0 / 256.0,
            t1: 0.0625,
            seed: 1,
        }
    }
}

impl SkySampling {
    /// Checks the parameters; the error names the one at fault.
    pub fn check(&self) -> Result<(), LightFieldError> {
        let bad = |m: String| Err(LightFieldError::Input(m));
        if self.idres < 2 || self.idres > 4096 {
            return bad(format!("idres {}: must lie in 2..=4096", self.idres));
        }
        if self.nlev == 0 || self.idres << (self.nlev - 1) > 8192 {
            return bad(format!(
                "nlev {}: 1 or more, with idres·2^(nlev−1) at most 8192",
                self.nlev
            ));
        }
        if !(self.accuracy > 0.0 && self.accuracy.is_finite()) {
            return bad(format!("accuracy {}: must be positive", self.accuracy));
        }
        if !(self.t0 >= 0.0 && self.t1 >= 0.0) {
            return bad(format!(
                "t0 {}, t1 {}: must not be negative",
                self.t0, self.t1
            ));
        }
        Ok(())
    }
}

/// How a sky LightPoint's value vector is laid out: `3·bins` RGB coefficients of all paths to
/// each patch (ground first, the patch order of the sky matrix), then the RGB coefficient of
/// the direct path (straight to the sky through transparent surfaces, to the patch of the
/// sample's own direction), which the annual evaluation swaps for the true sun.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkyLayout {
    /// The sky patches.
    pub patches: Subdivision,
}

impl SkyLayout {
    /// Components per sample.
    pub fn components(&self) -> usize {
        3 * self.patches.len() + 3
    }

    /// The source label stored with the LightPoint.
    pub fn label(&self) -> String {
        match self.patches {
            Subdivision::Reinhart(mf) => format!("sky:reinhart{mf}:rgb+direct"),
            Subdivision::ShirleyChiu(s) => format!("sky:shirleychiu{s}:rgb+direct"),
        }
    }
}

/// Samples the sky contributions at `position`; `point` numbers the position (it picks the
/// jitter and ray sequences, so a run does not depend on the thread count). `progress(level,
/// samples_so_far)` is called after each level.
pub fn sample_sky(
    sky: &SkyRenderer,
    position: DVec3,
    point: u64,
    p: &SkySampling,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<LightPoint, LightFieldError> {
    p.check()?;
    if !position.is_finite() {
        return Err(LightFieldError::Input(format!(
            "position {position} is not finite"
        )));
    }
    let layout = SkyLayout {
        patches: sky.patches,
    };
    let mut rng = Pcg64::seed_from_u64(p.seed ^ point.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let (mut uv, mut dirs, mut values) = (Vec::new(), Vec::new(), Vec::new());
    let mut weights = Weights::new(p.idres);
    for level in 0..p.nlev {
        let cells: Vec<(usize, usize)> = if level == 0 {
            (0..2 * p.idres)
                .flat_map(|i| (0..p.idres).map(move |j| (i, j)))
                .collect()
        } else {
            weights = weights.upsample();
            let mut taken = vec![false; weights.w.len()];
            for &(u, v) in &uv {
                let (i, j) = weights.cell(u, v);
                taken[i * weights.res + j] = true;
            }
            let t = wavelet::threshold(level - 1, p.nlev - 1, p.t0, p.t1, p.accuracy);
            wavelet::cells_to_sample(&weights, &taken, t)
        };
        let r = weights.res as f64;
        let new: Vec<(f64, f64)> = cells
            .iter()
            .map(|&(i, j)| {
                let u = (i as f64 + rng.random::<f64>()) / r;
                let v = (j as f64 + rng.random::<f64>()) / r;
                (u.min(2.0 - 1e-12), v.min(1.0 - 1e-12))
            })
            .collect();
        let first = dirs.len() as u64;
        let traced = trace(sky, position, &new, point, first, &layout);
        for (&(u, v), (d, vals)) in new.iter().zip(traced) {
            weights.set(u, v, feature(&vals, &layout));
            uv.push((u, v));
            dirs.push(d);
            values.extend(vals);
        }
        progress(level, dirs.len());
    }
    LightPoint::new(position, layout.label(), dirs, layout.components(), values)
}

/// The largest photopic coefficient over the patches: the sampler's feature.
fn feature(vals: &[f32], layout: &SkyLayout) -> f64 {
    vals[..3 * layout.patches.len()]
        .chunks_exact(3)
        .map(|c| {
            (0..3)
                .map(|k| LUMINANCE[k] / 179.0 * c[k] as f64)
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
}

/// Traces the samples at square points `uv` (sample numbers from `first`) in parallel.
fn trace(
    sky: &SkyRenderer,
    position: DVec3,
    uv: &[(f64, f64)],
    point: u64,
    first: u64,
    layout: &SkyLayout,
) -> Vec<(DVec3, Vec<f32>)> {
    let rd = &sky.renderer;
    let bins = layout.patches.len();
    let len = rd.contrib_len();
    uv.par_iter()
        .enumerate()
        .map_init(
            || rd.ctx(0),
            |ctx, (k, &(u, v))| {
                let d = shirley_chiu_direction(u, v).normalize();
                rd.reseed(ctx, (point << 40) ^ (first + k as u64));
                ctx.contrib.clear();
                ctx.contrib.resize(len, DVec3::ZERO);
                rd.radiance(position, d, ctx);
                let mut out = Vec::with_capacity(layout.components());
                for c in &ctx.contrib[..bins] {
                    out.extend(c.to_array().map(|x| x as f32));
                }
                let direct: DVec3 = ctx.contrib[bins..2 * bins].iter().copied().sum();
                out.extend(direct.to_array().map(|x| x as f32));
                (d, out)
            },
        )
        .collect()
}
