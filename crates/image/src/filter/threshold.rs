//! pfilt's threshold filter (`-m frac`): no input pixel may give more than `frac` of any output
//! pixel. Each input pixel is spread by a Gaussian whose radius is the filter radius times a
//! multiplier found for that pixel: 1 for ordinary pixels, larger for pixels much brighter
//! than their surroundings (an under-sampled highlight, a firefly), until the pixel's share of
//! the output pixel it lands on falls to `frac`. The surroundings are the output-resolution
//! box averages within five filter radii, summed in rings so that the mean over any radius is
//! cheap. The Gaussian table is normalised so that a pixel's spread sums to its share.

use super::{box_filter, box_pixels, brightness, gauss_table, CHECK_RADIUS, FTINY};

/// Output pixels checked around each one, in filter radii.
const THRESHOLD_RADIUS: f64 = 5.0;
/// Radius of the disc whose area equals a unit square, squared over pi: `sqrt(4/pi)`.
const RSCA: f64 = 1.13;
/// How close to the threshold the search for a multiplier stops.
const TEPS: f64 = 0.2;
/// How close to a bound of the multiplier the search stops.
const REPS: f64 = 0.1;

/// Resolutions and radii of one filtering.
pub(super) struct Grid {
    pub xres: usize,
    pub yres: usize,
    pub ncols: usize,
    pub nrows: usize,
    /// Filter radius in output pixels (already scaled when enlarging).
    pub rad: f64,
}

/// The normalised Gaussian and the ring tables of a threshold filtering.
struct Kernel {
    table: Vec<f32>,
    /// Output radius of the checked neighbourhood.
    orad: i64,
    /// Ring (integer distance) of each squared offset up to `orad²`.
    ring_of: Vec<i64>,
    rad: f64,
    threshold: f64,
}

impl Kernel {
    fn new(g: &Grid, threshold: f64) -> Kernel {
        let (x_c, y_r) = (
            g.ncols as f64 / g.xres as f64,
            g.nrows as f64 / g.yres as f64,
        );
        let rad = g.rad;
        let mut table = gauss_table(rad, x_c, y_r);
        let d = x_c * y_r * 0.25 / (rad * rad);
        // The filter's integral: the plateau's disc, then rings of 0.1 out to the support.
        let mut integral = std::f64::consts::PI * d * (-d).exp();
        let mut r = d.sqrt() + 0.05;
        while r <= RSCA * CHECK_RADIUS {
            integral += 0.1 * 2.0 * std::f64::consts::PI * r * (-r * r).exp();
            r += 0.1;
        }
        let norm = x_c * y_r / (rad * rad * integral);
        for t in &mut table {
            *t = (f64::from(*t) * norm) as f32;
        }
        let orad = (CHECK_RADIUS * THRESHOLD_RADIUS * rad + 1.0) as i64;
        let ring_of = (0..=2 * orad * orad)
            .map(|k| {
                if k <= orad * orad {
                    (k as f64).sqrt() as i64
                } else {
                    -1
                }
            })
            .collect();
        Kernel {
            table,
            orad,
            ring_of,
            rad,
            threshold,
        }
    }

    fn weight(&self, x: f64) -> f64 {
        let i = (20.0 * x + 0.5) as usize;
        f64::from(self.table.get(i).copied().unwrap_or(0.0))
    }

    /// The radius multiplier for an input pixel of brightness `p0` among rings of grey sums
    /// `sums` over `counts` output pixels.
    fn multiplier(&self, p0: f64, sums: &[f32], counts: &[u32]) -> f64 {
        let g0 = f64::from(self.table[0]);
        let t_max = self.threshold;
        let mut m = 1.0;
        let mut limit = [1.0, self.orad as f64 / self.rad / CHECK_RADIUS];
        let mut tries = (4.0 / TEPS) as i32;
        loop {
            let mut i = ((RSCA * CHECK_RADIUS * self.rad * m + 0.5) as i64).min(self.orad);
            let (mut avg, mut wsum) = (0.0, 0.0);
            while i > 0 {
                i -= 1;
                let t = (i as f64 + 0.5) / (m * self.rad);
                let w = self.weight(t * t);
                avg += w * f64::from(sums[i as usize]);
                wsum += w * f64::from(counts[i as usize]);
            }
            if avg < 1e-20 {
                return 1.0;
            }
            avg /= wsum;
            let denom = m * m / g0 - p0 / avg;
            if denom <= FTINY {
                // Nothing around it: as wide as the neighbourhood allows.
                if m >= limit[1] - REPS {
                    break;
                }
                m = limit[1];
            } else {
                let num = (p0 / avg - 1.0).abs();
                let t = num / denom;
                let done = if t <= t_max {
                    m <= limit[0] + REPS || (t_max - t) / t_max <= TEPS
                } else {
                    m >= limit[1] - REPS || (t - t_max) / t_max <= TEPS
                };
                if done {
                    break;
                }
                let prev = m;
                m = (g0 * (num / t_max + p0 / avg)).sqrt();
                if m < prev {
                    if m <= limit[0] + FTINY {
                        m = 0.5 * (limit[0] + prev);
                    }
                    limit[1] = prev;
                } else {
                    if m >= limit[1] - FTINY {
                        m = 0.5 * (limit[1] + prev);
                    }
                    limit[0] = prev;
                }
            }
            tries -= 1;
            if tries <= 0 {
                break;
            }
        }
        m
    }
}

/// Filters the exposed input pixels `px` onto `g.ncols × g.nrows` with the threshold
/// `threshold`; row-major output, top row first.
pub(super) fn filter(px: &[[f32; 3]], g: &Grid, threshold: f64) -> Vec<[f32; 3]> {
    let (xres, yres, ncols, nrows) = (g.xres, g.yres, g.ncols, g.nrows);
    let x_c = ncols as f64 / xres as f64;
    let y_r = nrows as f64 / yres as f64;
    let k = Kernel::new(g, threshold);
    let orad = k.orad;
    let xbrad = (xres / ncols / 2 + 1) as i64;
    let ybrad = (yres / nrows / 2 + 1) as i64;
    let centre = |c: usize, r: usize| {
        (
            ((c as f64 + 0.5) * xres as f64 / ncols as f64) as i64,
            ((r as f64 + 0.5) * yres as f64 / nrows as f64) as i64,
        )
    };
    // Grey box averages at the output resolution.
    let mut grey = vec![0f32; ncols * nrows];
    for r in 0..nrows {
        for c in 0..ncols {
            let v = box_filter(
                px,
                xres,
                yres,
                centre(c, r),
                (c, r),
                (x_c, y_r),
                (xbrad, ybrad),
            );
            grey[r * ncols + c] = brightness(v) as f32;
        }
    }
    let mut out = vec![[0f32; 3]; ncols * nrows];
    let mut sums = vec![0f32; orad as usize + 1];
    let mut counts = vec![0u32; orad as usize + 1];
    let mut weights = Vec::new();
    for r in 0..nrows as i64 {
        for c in 0..ncols as i64 {
            sums.iter_mut().for_each(|s| *s = 0.0);
            counts.iter_mut().for_each(|n| *n = 0);
            for dr in -orad..=orad {
                let row = r + dr;
                if row < 0 {
                    continue;
                }
                if row >= nrows as i64 {
                    break;
                }
                for dc in -orad..=orad {
                    let col = c + dc;
                    if col < 0 || col >= ncols as i64 {
                        continue;
                    }
                    let ring = k.ring_of[(dc * dc + dr * dr) as usize];
                    if ring < 0 {
                        continue;
                    }
                    sums[ring as usize] += grey[row as usize * ncols + col as usize];
                    counts[ring as usize] += 1;
                }
            }
            // The input pixels whose centres fall in this output pixel.
            let cr = (c as usize, r as usize);
            box_pixels(
                (xres, yres),
                centre(cr.0, cr.1),
                cr,
                (x_c, y_r),
                (xbrad, ybrad),
                |x, y| {
                    let p = px[y * xres + x];
                    let m = k.multiplier(brightness(p), &sums, &counts);
                    spread(
                        &mut out,
                        &mut weights,
                        p,
                        (x as i64, y as i64),
                        (c, r),
                        m,
                        &k,
                        g,
                    );
                },
            );
        }
    }
    out
}

/// Adds input pixel `p` at `(x, y)` to the output pixels around `(c, r)`, by the Gaussian
/// of `m` filter radii, normalised to the pixel's share of an output pixel.
#[allow(clippy::too_many_arguments)]
fn spread(
    out: &mut [[f32; 3]],
    weights: &mut Vec<f32>,
    p: [f32; 3],
    (x, y): (i64, i64),
    (c, r): (i64, i64),
    m: f64,
    k: &Kernel,
    g: &Grid,
) {
    let (ncols, nrows) = (g.ncols as i64, g.nrows as i64);
    let x_c = g.ncols as f64 / g.xres as f64;
    let y_r = g.nrows as f64 / g.yres as f64;
    let pc = x_c * (x as f64 + 0.5);
    let pr = y_r * (y as f64 + 0.5);
    let ksiz = ((CHECK_RADIUS * m * k.rad + 1.0) as i64).min(k.orad);
    let rows = (r - ksiz).max(0)..=(r + ksiz).min(nrows - 1);
    let cols = (c - ksiz).max(0)..=(c + ksiz).min(ncols - 1);
    weights.clear();
    let mut norm = 0.0;
    for row in rows.clone() {
        let dy = (pr - (row as f64 + 0.5)) / (m * k.rad);
        for col in cols.clone() {
            let dx = (pc - (col as f64 + 0.5)) / (m * k.rad);
            let w = k.weight(dx * dx + dy * dy) as f32;
            norm += f64::from(w);
            weights.push(w);
        }
    }
    let mut norm = 1.0 / norm;
    if x_c < 1.0 {
        norm *= x_c;
    }
    if y_r < 1.0 {
        norm *= y_r;
    }
    let mut w = weights.iter();
    for row in rows {
        for col in cols.clone() {
            let f = norm * f64::from(*w.next().unwrap_or(&0.0));
            let o = &mut out[row as usize * g.ncols + col as usize];
            for ch in 0..3 {
                o[ch] += (f64::from(p[ch]) * f) as f32;
            }
        }
    }
}
