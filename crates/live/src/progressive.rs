//! The progressive path tracer (thesis §7.1): frame 0 holds the direct and specular light
//! only (`-ab 0`); every later frame traces one diffuse sample per pixel (`-ad 1`, one
//! ambient ray per diffuse bounce, down to `-ab` bounces) and only what those samples bring
//! back, and the picture after `n` frames is eq. 7.1:
//!
//! L'(p, n) = L(p, 0) + 1/n · Σ_{i=1..n} L(p, i).
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

/// RADIANCE's luminance weights of red, green and blue (without the 179 lm/W).
pub(crate) fn grey(c: [f32; 3]) -> f64 {
    0.2651 * c[0] as f64 + 0.6701 * c[1] as f64 + 0.0648 * c[2] as f64
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
        self.frames += 1;
    }

    /// The picture as the page shows it with the denoiser on: frame 0 plus the indirect mean
    /// smoothed by [`crate::denoise`] (frame 0 alone until two diffuse frames give a variance).
    pub fn denoised_picture(&self, guide: &crate::denoise::Guide) -> Vec<[f32; 3]> {
        if self.frames < 2 {
            return self.picture();
        }
        let n = self.frames as f64;
        let mean: Vec<[f32; 3]> = self.sum.iter().map(|s| s.map(|v| (v / n) as f32)).collect();
        // The variance of each pixel's mean luminance, from the frames' spread.
        let var: Vec<f64> = mean
            .iter()
            .zip(&self.sum_sq)
            .map(|(m, q)| ((q / n - grey(*m).powi(2)) / (n - 1.0)).max(0.0))
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
        let inv = if self.frames > 0 {
            1.0 / self.frames as f64
        } else {
            0.0
        };
        let mut indirect: Vec<[f32; 3]> = self
            .sum
            .iter()
            .map(|s| {
                [
                    (s[0] * inv) as f32,
                    (s[1] * inv) as f32,
                    (s[2] * inv) as f32,
                ]
            })
            .collect();
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

    /// The picture after `n` frames: L(p, 0) + Σ L(p, i) / n.
    pub fn picture(&self) -> Vec<[f32; 3]> {
        let inv = if self.frames > 0 {
            1.0 / self.frames as f64
        } else {
            0.0
        };
        self.direct
            .iter()
            .zip(&self.sum)
            .map(|(d, s)| {
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
