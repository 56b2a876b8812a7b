//! The progressive path tracer (thesis §7.1): frame 0 holds the direct and specular light
//! only (`-ab 0`); every later frame traces one diffuse sample per pixel (`-ad 1`, one
//! ambient ray per diffuse bounce, down to `-ab` bounces) and only what those samples bring
//! back, and the picture after `n` frames is eq. 7.1:
//!
//! L'(p, n) = L(p, 0) + 1/n · Σ_{i=1..n} L(p, i).
//!
//! From frame [`EXTRA_AFTER`] on, each frame also gives [`EXTRA_SAMPLES`] more samples to the
//! [`EXTRA_SHARE`] of pixels whose mean is least certain ([`Accumulator::extra_plan`]); each
//! pixel's mean is then over its own samples. At equal samples this brings the picture closer
//! to the converged one (`tests/adaptive.rs`).
//!
//! Rows are traced in parallel with rayon, one generator per (frame, pixel), so a frame does
//! not depend on the number of threads. A render can be abandoned between rows when the view,
//! time or sky changes, so that a new frame starts at once.

use daylit_image::ViewFrame;
use daylit_transport::{Ctx, Options, Renderer};
use glam::DVec3;
use rayon::prelude::*;

/// Per pixel: ray origin and unit direction, `None` outside the projection.
type PixelRays = Vec<Option<(DVec3, DVec3)>>;

/// The directions and solid angles of a picture's pixels, row 0 at the top.
#[derive(Clone, Debug)]
pub struct PixelGrid {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Per pixel: the ray origin and unit direction, `None` outside the projection.
    pub rays: PixelRays,
    /// Per pixel: its solid angle (sr), 0 outside the projection.
    pub omega: Vec<f64>,
}

impl PixelGrid {
    /// The rays and solid angles of `frame` at `width` × `height`.
    pub fn new(frame: &ViewFrame, width: usize, height: usize) -> PixelGrid {
        let rows: Vec<(PixelRays, Vec<f64>)> = (0..height)
            .into_par_iter()
            .map(|row| {
                let mut rays = Vec::with_capacity(width);
                let mut omega = Vec::with_capacity(width);
                for col in 0..width {
                    let r = frame.pixel_ray(width, height, col, row);
                    rays.push(r.map(|r| (r.origin, r.dir)));
                    omega.push(if r.is_some() {
                        frame.pixel_solid_angle(width, height, col, row)
                    } else {
                        0.0
                    });
                }
                (rays, omega)
            })
            .collect();
        let mut grid = PixelGrid {
            width,
            height,
            rays: Vec::with_capacity(width * height),
            omega: Vec::with_capacity(width * height),
        };
        for (r, o) in rows {
            grid.rays.extend(r);
            grid.omega.extend(o);
        }
        grid
    }
}

impl PixelGrid {
    /// Which pixels lie in the picture (a ray and a solid angle above 0).
    pub fn inside(&self) -> Vec<bool> {
        self.omega.iter().map(|&o| o > 0.0).collect()
    }
}

/// The options of the two kinds of frame made from the user's options: frame 0 with no
/// ambient bounce (and no ambient value: later frames bring the indirect light), the others
/// path traced with one uncached ambient division per bounce and no super-samples.
pub fn frame_options(user: &Options) -> (Options, Options) {
    let direct = Options {
        ab: 0,
        av: DVec3::ZERO,
        aa: 0.0,
        af: None,
        ..user.clone()
    };
    let diffuse = Options {
        ad: 1,
        as_: 0,
        aa: 0.0,
        af: None,
        ..user.clone()
    };
    (direct, diffuse)
}

/// Which frame to trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// Frame 0: direct and specular light.
    Direct,
    /// Frame `i` ≥ 1: one diffuse sample per pixel, indirect light only.
    Diffuse(u64),
}

/// Traces one frame of `grid` with `renderer` (whose options must match `kind`, see
/// [`frame_options`]). Returns `None` when `cancelled` says so between rows.
pub fn trace_frame(
    renderer: &Renderer,
    grid: &PixelGrid,
    kind: FrameKind,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<[f32; 3]>> {
    let (w, h) = (grid.width, grid.height);
    let npix = (w * h) as u64;
    // Frame i's pixels use generator indices i·npix … (i+1)·npix − 1.
    let (frame_no, indirect) = match kind {
        FrameKind::Direct => (0, false),
        FrameKind::Diffuse(i) => (i, true),
    };
    let rows: Vec<Option<Vec<[f32; 3]>>> = (0..h)
        .into_par_iter()
        .map_init(
            || {
                let mut c: Ctx = renderer.ctx(0);
                c.indirect_only = indirect;
                c
            },
            |ctx, row| {
                if cancelled() {
                    return None;
                }
                let mut out = Vec::with_capacity(w);
                for col in 0..w {
                    let k = row * w + col;
                    let v = match grid.rays[k] {
                        Some((org, dir)) => {
                            renderer.reseed(ctx, frame_no.wrapping_mul(npix) + k as u64);
                            let v = renderer.radiance(org, dir, ctx).value;
                            [v.x as f32, v.y as f32, v.z as f32]
                        }
                        None => [0.0; 3],
                    };
                    out.push(v);
                }
                Some(out)
            },
        )
        .collect();
    let mut px = Vec::with_capacity(w * h);
    for r in rows {
        px.extend(r?);
    }
    Some(px)
}

/// The extra samples of one pixel in one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExtraSamples {
    /// The pixel, row-major.
    pub pixel: usize,
    /// The sum of the samples.
    pub sum: [f64; 3],
    /// The sum of their squared luminances.
    pub sum_sq: f64,
    /// How many.
    pub count: u32,
}

/// Extra diffuse samples of some pixels of frame `frame_no`, on top of its one per pixel:
/// `extra[k]` more for pixel `k`. Returns the samples of each pixel given any. Their generators are numbered apart from
/// the frames' (from 2^62), so a frame still does not depend on the number of threads.
pub fn trace_extra(
    renderer: &Renderer,
    grid: &PixelGrid,
    frame_no: u64,
    extra: &[u8],
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<ExtraSamples>> {
    let npix = (grid.width * grid.height) as u64;
    let todo: Vec<usize> = (0..extra.len())
        .filter(|&k| extra[k] > 0 && grid.rays[k].is_some())
        .collect();
    let chunks: Vec<Vec<ExtraSamples>> = todo
        .par_chunks(64)
        .map_init(
            || {
                let mut c: Ctx = renderer.ctx(0);
                c.indirect_only = true;
                c
            },
            |ctx, chunk| {
                if cancelled() {
                    return None;
                }
                Some(
                    chunk
                        .iter()
                        .map(|&k| {
                            let (org, dir) = grid.rays[k].expect("pixels with rays only");
                            let (mut sum, mut sq) = ([0.0; 3], 0.0);
                            for j in 0..extra[k] as u64 {
                                let index = (1u64 << 62) + (frame_no * npix + k as u64) * 256 + j;
                                renderer.reseed(ctx, index);
                                let v = renderer.radiance(org, dir, ctx).value;
                                let c = [v.x as f32, v.y as f32, v.z as f32];
                                for (a, b) in sum.iter_mut().zip(c) {
                                    *a += b as f64;
                                }
                                sq += grey(c).powi(2);
                            }
                            ExtraSamples {
                                pixel: k,
                                sum,
                                sum_sq: sq,
                                count: extra[k] as u32,
                            }
                        })
                        .collect::<Vec<_>>(),
                )
            },
        )
        .collect::<Option<_>>()?;
    Some(chunks.into_iter().flatten().collect())
}

/// Frames before the first extra samples (the variances need a few samples to mean anything).
pub const EXTRA_AFTER: u64 = 4;
/// The share of pixels given extra samples each frame.
pub const EXTRA_SHARE: f64 = 0.1;
/// Extra samples each of them gets.
pub const EXTRA_SAMPLES: u8 = 7;

/// RADIANCE's luminance weights of red, green and blue (without the 179 lm/W).
pub(crate) fn grey(c: [f32; 3]) -> f64 {
    use daylit_glare::picture::{CIE_BF, CIE_GF, CIE_RF};
    CIE_RF * c[0] as f64 + CIE_GF * c[1] as f64 + CIE_BF * c[2] as f64
}

/// The accumulation of eq. 7.1 for one view, time and resolution.
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    direct: Vec<[f32; 3]>,
    sum: Vec<[f64; 3]>,
    /// Per pixel: the sum of the squared luminances of the diffuse frames (their variance
    /// guides the display's denoiser).
    sum_sq: Vec<f64>,
    /// Per pixel: the diffuse samples in `sum` (one per frame, more where
    /// [`Accumulator::extra_plan`] asked for them).
    count: Vec<u32>,
    frames: u64,
}

impl Accumulator {
    /// Starts from frame 0 (`direct`, row-major, row 0 at the top).
    pub fn new(width: usize, height: usize, direct: Vec<[f32; 3]>) -> Accumulator {
        assert_eq!(direct.len(), width * height, "frame 0 has the grid's size");
        Accumulator {
            width,
            height,
            sum: vec![[0.0; 3]; direct.len()],
            sum_sq: vec![0.0; direct.len()],
            count: vec![0; direct.len()],
            direct,
            frames: 0,
        }
    }

    /// Adds a diffuse frame.
    pub fn add(&mut self, frame: &[[f32; 3]]) {
        assert_eq!(frame.len(), self.sum.len(), "frames have the grid's size");
        for ((s, q), v) in self.sum.iter_mut().zip(&mut self.sum_sq).zip(frame) {
            for (a, b) in s.iter_mut().zip(v) {
                *a += *b as f64;
            }
            *q += grey(*v).powi(2);
        }
        self.count.iter_mut().for_each(|c| *c += 1);
        self.frames += 1;
    }

    /// Adds the extra samples of [`trace_extra`].
    pub fn add_extra(&mut self, samples: &[ExtraSamples]) {
        for e in samples {
            for (a, b) in self.sum[e.pixel].iter_mut().zip(e.sum) {
                *a += b;
            }
            self.sum_sq[e.pixel] += e.sum_sq;
            self.count[e.pixel] += e.count;
        }
    }

    /// Which pixels get extra samples in the next frame, and how many: [`EXTRA_SAMPLES`] for
    /// the [`EXTRA_SHARE`] of pixels whose mean is least certain — the standard error of the
    /// indirect luminance's mean relative to the pixel's whole luminance — once
    /// [`EXTRA_AFTER`] frames give the variances. Each pixel's mean stays the mean of its own
    /// samples, so the picture and its glare values keep their expectation.
    pub fn extra_plan(&self) -> Option<Vec<u8>> {
        if self.frames < EXTRA_AFTER {
            return None;
        }
        let means = self.indirect_means();
        let score: Vec<f64> = (0..self.sum.len())
            .map(|k| {
                let n = self.count[k] as f64;
                let m = grey(means[k]);
                let var = ((self.sum_sq[k] / n - m * m) / (n - 1.0)).max(0.0);
                let whole = m + grey(self.direct[k]);
                if whole > 0.0 {
                    var.sqrt() / whole
                } else {
                    0.0
                }
            })
            .collect();
        let mut positive: Vec<f64> = score.iter().copied().filter(|&v| v > 0.0).collect();
        if positive.is_empty() {
            return None;
        }
        let at = (((1.0 - EXTRA_SHARE) * positive.len() as f64) as usize).min(positive.len() - 1);
        let cut = *positive.select_nth_unstable_by(at, f64::total_cmp).1;
        Some(
            score
                .iter()
                .map(|&v| {
                    if v >= cut && v > 0.0 {
                        EXTRA_SAMPLES
                    } else {
                        0
                    }
                })
                .collect(),
        )
    }

    /// Each pixel's mean of its diffuse samples.
    fn indirect_means(&self) -> Vec<[f32; 3]> {
        self.sum
            .iter()
            .zip(&self.count)
            .map(|(s, &n)| {
                if n > 0 {
                    s.map(|v| (v / n as f64) as f32)
                } else {
                    [0.0; 3]
                }
            })
            .collect()
    }

    /// The picture as the page shows it with the denoiser on: frame 0 plus the indirect mean
    /// smoothed by [`crate::denoise`] (frame 0 alone until two diffuse frames give a variance).
    pub fn denoised_picture(&self, guide: &crate::denoise::Guide) -> Vec<[f32; 3]> {
        if self.frames < 2 {
            return self.picture();
        }
        let mean = self.indirect_means();
        // The variance of each pixel's mean luminance, from its samples' spread.
        let var: Vec<f64> = mean
            .iter()
            .zip(&self.sum_sq)
            .zip(&self.count)
            .map(|((m, q), &n)| {
                let n = n as f64;
                ((q / n - grey(*m).powi(2)) / (n - 1.0)).max(0.0)
            })
            .collect();
        let smooth = crate::denoise::denoise(&mean, &var, guide, self.width, self.height);
        self.direct
            .iter()
            .zip(smooth)
            .map(|(d, i)| [d[0] + i[0], d[1] + i[1], d[2] + i[2]])
            .collect()
    }

    /// Diffuse frames accumulated (`n` of eq. 7.1; 0 while only frame 0 is there).
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The picture for glare-source detection: as [`Accumulator::picture`], with the
    /// fireflies of the indirect part suppressed ([`crate::fireflies`]); `valid` says which
    /// pixels lie in the picture.
    pub fn glare_picture(&self, valid: &[bool]) -> Vec<[f32; 3]> {
        let mut indirect = self.indirect_means();
        crate::fireflies::suppress(
            &mut indirect,
            valid,
            self.width,
            self.height,
            crate::fireflies::FACTOR,
        );
        self.direct
            .iter()
            .zip(&indirect)
            .map(|(d, i)| [d[0] + i[0], d[1] + i[1], d[2] + i[2]])
            .collect()
    }

    /// The picture after `n` frames: L(p, 0) + Σ L(p, i) / n, each pixel's sum over its own
    /// samples (n of them, or more where it had extra ones).
    pub fn picture(&self) -> Vec<[f32; 3]> {
        self.direct
            .iter()
            .zip(&self.sum)
            .zip(&self.count)
            .map(|((d, s), &n)| {
                let inv = if n > 0 { 1.0 / n as f64 } else { 0.0 };
                [
                    (d[0] as f64 + s[0] * inv) as f32,
                    (d[1] as f64 + s[1] * inv) as f32,
                    (d[2] as f64 + s[2] * inv) as f32,
                ]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulation_is_frame_zero_plus_the_mean_of_the_rest() {
        let mut a = Accumulator::new(2, 1, vec![[1.0, 2.0, 3.0], [0.0; 3]]);
        assert_eq!(a.picture(), vec![[1.0, 2.0, 3.0], [0.0; 3]]);
        a.add(&[[1.0, 1.0, 1.0], [4.0, 0.0, 0.0]]);
        a.add(&[[3.0, 3.0, 3.0], [0.0, 0.0, 2.0]]);
        assert_eq!(a.frames(), 2);
        assert_eq!(a.picture(), vec![[3.0, 4.0, 5.0], [2.0, 0.0, 1.0]]);
    }

    #[test]
    fn extra_samples_go_to_the_least_certain_pixels_and_keep_means() {
        // Eight pixels: pixel 3 alternates 0 and 2, the others are steady at 1.
        let mut a = Accumulator::new(8, 1, vec![[0.0; 3]; 8]);
        assert_eq!(a.extra_plan(), None);
        for i in 0..EXTRA_AFTER {
            let mut f = vec![[1.0f32; 3]; 8];
            f[3] = [2.0 * (i % 2) as f32; 3];
            a.add(&f);
        }
        let plan = a.extra_plan().unwrap();
        assert_eq!(plan[3], EXTRA_SAMPLES);
        assert_eq!(plan.iter().filter(|&&n| n > 0).count(), 1);
        // Three extra samples of 1 for pixel 3: its mean is over its own seven samples.
        a.add_extra(&[ExtraSamples {
            pixel: 3,
            sum: [3.0; 3],
            sum_sq: 3.0 * grey([1.0; 3]).powi(2),
            count: 3,
        }]);
        let p = a.picture();
        assert!(
            (p[3][0] - 7.0 / 7.0).abs() < 1e-6 && p[0] == [1.0; 3],
            "{p:?}"
        );
    }

    #[test]
    fn frame_options_split_direct_and_diffuse() {
        let user = Options {
            ab: 4,
            ad: 256,
            aa: 0.1,
            av: DVec3::ONE,
            ..Options::rtrace()
        };
        let (d, p) = frame_options(&user);
        assert_eq!((d.ab, d.av, d.aa), (0, DVec3::ZERO, 0.0));
        assert_eq!((p.ab, p.ad, p.as_, p.aa), (4, 1, 0, 0.0));
    }
}
