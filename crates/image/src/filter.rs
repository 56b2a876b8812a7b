//! Picture filtering and scaling as RADIANCE's `pfilt` does it: box or Gaussian
//! anti-aliasing onto a new resolution, and the exposure set in a first pass so that the
//! mean brightness of the pixels below the "hot" level becomes 0.5.
//!
//! Arithmetic follows pfilt's: pixels are `f32`; the exposure multiplies each input pixel
//! before filtering; a box averages the input pixels whose centres fall in the output pixel;
//! the Gaussian weighs the pixels within twice the radius by a tabulated `exp(-r²)` (flat
//! inside the output pixel's own area, normalised by the sum of the weights).

use crate::HdrImage;

mod threshold;

/// Target mean brightness of the first pass.
const AVERAGE_LEVEL: f64 = 0.5;
/// Gaussian support, in filter radii.
const CHECK_RADIUS: f64 = 2.0;
/// RADIANCE's small number (a weight sum starts from it).
const FTINY: f64 = 1e-6;

/// RADIANCE's luminous coefficients of R, G and B: the Y row of its RGB → XYZ matrix for
/// its nominal primaries (0.640, 0.330), (0.290, 0.600), (0.150, 0.060) and equal-energy
/// white, as `bright()` computes them.
pub const BRIGHT_RGB: [f64; 3] = [
    0.265_105_820_105_820_07,
    0.670_105_820_105_819_9,
    0.064_788_359_788_359_78,
];

/// RADIANCE's brightness of an RGB colour (`bright()`).
pub fn brightness(c: [f32; 3]) -> f64 {
    (0..3).map(|k| BRIGHT_RGB[k] * f64::from(c[k])).sum()
}

/// An output size: pixels, or the input size divided by a number (`-x /2`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Size {
    /// Same as the input.
    Same,
    /// This many pixels.
    Pixels(usize),
    /// The input size over this factor.
    Divide(f64),
}

/// What `pfilt` is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterOptions {
    /// Output width (`-x`).
    pub width: Size,
    /// Output height (`-y`).
    pub height: Size,
    /// Output pixel aspect ratio (`-p`); 0 keeps the given sizes.
    pub aspect: f64,
    /// Gaussian radius relative to the output pixel (`-r`); `None`: box filter (`-b`).
    pub gauss_radius: Option<f64>,
    /// Exposure multiplier per channel (`-e`, `-er`, `-eg`, `-eb`, cumulative).
    pub exposure: [f64; 3],
    /// Two passes (the default): set the exposure from the picture's mean brightness.
    pub two_pass: bool,
    /// Brightness above which pixels are "hot" (`-h`), in the input's units before its
    /// `EXPOSURE=`.
    pub hot_level: f64,
    /// Average hot pixels as well (`-a`).
    pub average_hot: bool,
    /// Largest share of an output pixel one input pixel may give (`-m`): brighter pixels
    /// are spread wider. Implies a Gaussian (radius 0.6 unless given).
    pub threshold: Option<f64>,
}

impl Default for FilterOptions {
    fn default() -> Self {
        FilterOptions {
            width: Size::Same,
            height: Size::Same,
            aspect: 0.0,
            gauss_radius: None,
            exposure: [1.0; 3],
            two_pass: true,
            hot_level: 100.0,
            average_hot: false,
            threshold: None,
        }
    }
}

/// The filtered picture and what to record in its header.
#[derive(Debug, Clone, PartialEq)]
pub struct Filtered {
    /// The new picture (header empty; `exposure` 1).
    pub image: HdrImage,
    /// The exposure applied, per channel.
    pub exposure: [f32; 3],
    /// The output pixel aspect ratio when it is not 1 (for `PIXASPECT=`).
    pub pixel_aspect: Option<f64>,
}

/// Why a picture cannot be filtered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FilterError {
    /// Every pixel is black or hot: no mean brightness to set the exposure from.
    #[error("picture too dark or too bright")]
    NoAverage,
    /// An output size of zero pixels.
    #[error("output resolution {0}x{1} is empty")]
    Empty(usize, usize),
}

/// Filters `img` (its values as stored; `img.exposure` scales the hot level, as pfilt reads
/// `EXPOSURE=`), top scanline first.
pub fn pfilt(img: &HdrImage, o: &FilterOptions) -> Result<Filtered, FilterError> {
    let (xres, yres) = (img.width, img.height);
    let size = |s: Size, n: usize| match s {
        Size::Same | Size::Pixels(0) => n,
        Size::Pixels(p) => p,
        Size::Divide(d) => ((1.0 / d) * n as f64 + 0.5) as usize,
    };
    let mut ncols = size(o.width, xres);
    let mut nrows = size(o.height, yres);
    if o.aspect > 0.01 {
        let in_aspect = img.pixel_aspect().unwrap_or(1.0);
        let d = in_aspect * yres as f64 / xres as f64 / o.aspect;
        if d * ncols as f64 > nrows as f64 {
            ncols = (nrows as f64 / d) as usize;
        } else {
            nrows = (ncols as f64 * d) as usize;
        }
    }
    if ncols == 0 || nrows == 0 || xres == 0 || yres == 0 {
        return Err(FilterError::Empty(ncols, nrows));
    }
    let x_c = ncols as f64 / xres as f64;
    let y_r = nrows as f64 / yres as f64;
    let mut exposure = o.exposure.map(|e| e as f32);
    if o.two_pass {
        let hot = o.hot_level * img.exposure;
        let (mut sum, mut n) = (0.0f64, 0u64);
        for &p in &img.pixels {
            let b = brightness(p);
            if b > 0.0 && (o.average_hot || b < hot) {
                sum += b;
                n += 1;
            }
        }
        if n == 0 {
            return Err(FilterError::NoAverage);
        }
        let scale = AVERAGE_LEVEL / (sum / n as f64);
        exposure = exposure.map(|e| (f64::from(e) * scale) as f32);
    }
    let exposed: Vec<[f32; 3]> = img
        .pixels
        .iter()
        .map(|p| [p[0] * exposure[0], p[1] * exposure[1], p[2] * exposure[2]])
        .collect();
    let mut out = HdrImage::new(ncols, nrows);
    let threshold = o.threshold.filter(|&t| t > FTINY);
    let radius = match (o.gauss_radius.filter(|&r| r > FTINY), threshold) {
        (None, Some(_)) => Some(0.6),
        (r, _) => r,
    };
    // Enlarging: the radius is in input pixels.
    let radius = radius.map(|r| {
        if nrows >= yres && ncols >= xres {
            r * (y_r + x_c) / 2.0
        } else {
            r
        }
    });
    if let (Some(t), Some(rad)) = (threshold, radius) {
        let grid = threshold::Grid {
            xres,
            yres,
            ncols,
            nrows,
            rad,
        };
        out.pixels = threshold::filter(&exposed, &grid, t);
        return Ok(Filtered {
            image: out,
            exposure,
            pixel_aspect: pixel_aspect(x_c, y_r),
        });
    }
    let kernel = radius.map(|rad| Gauss::new(rad, x_c, y_r));
    let xbrad = (xres / ncols / 2 + 1) as i64;
    let ybrad = (yres / nrows / 2 + 1) as i64;
    for r in 0..nrows {
        let ycent = ((r as f64 + 0.5) * yres as f64 / nrows as f64) as i64;
        for c in 0..ncols {
            let xcent = ((c as f64 + 0.5) * xres as f64 / ncols as f64) as i64;
            let v = match &kernel {
                Some(g) => g.filter(&exposed, xres, yres, (xcent, ycent), (c, r), (x_c, y_r)),
                None => box_filter(
                    &exposed,
                    xres,
                    yres,
                    (xcent, ycent),
                    (c, r),
                    (x_c, y_r),
                    (xbrad, ybrad),
                ),
            };
            out.set(c, r, v);
        }
    }
    Ok(Filtered {
        image: out,
        exposure,
        pixel_aspect: pixel_aspect(x_c, y_r),
    })
}

/// The output's pixel aspect ratio for its header, when it is not 1.
fn pixel_aspect(x_c: f64, y_r: f64) -> Option<f64> {
    let d = x_c / y_r;
    (!(0.995..=1.005).contains(&d)).then_some(d)
}

/// The mean of the input pixels whose centres fall in output pixel `(c, r)`.
fn box_filter(
    px: &[[f32; 3]],
    xres: usize,
    yres: usize,
    cent: (i64, i64),
    cr: (usize, usize),
    scale: (f64, f64),
    brad: (i64, i64),
) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    let mut n = 0u32;
    box_pixels((xres, yres), cent, cr, scale, brad, |x, y| {
        let p = px[y * xres + x];
        n += 1;
        for k in 0..3 {
            sum[k] += p[k];
        }
    });
    if n > 1 {
        let s = 1.0 / f64::from(n);
        sum = sum.map(|v| (f64::from(v) * s) as f32);
    }
    sum
}

/// Calls `f(x, y)` for each input pixel whose centre falls in output pixel `(c, r)`, row by
/// row, as pfilt's box test finds them: around the output pixel's centre `(xcent, ycent)` in
/// the input, within `(xbrad, ybrad)`, scaled by the output/input size ratios.
fn box_pixels(
    (xres, yres): (usize, usize),
    (xcent, ycent): (i64, i64),
    (c, r): (usize, usize),
    (x_c, y_r): (f64, f64),
    (xbrad, ybrad): (i64, i64),
    mut f: impl FnMut(usize, usize),
) {
    for y in ycent + 1 - ybrad..=ycent + ybrad {
        if y < 0 {
            continue;
        }
        if y >= yres as i64 {
            break;
        }
        let d = if y_r < 1.0 {
            y_r * y as f64 - (r as f64 + 0.5)
        } else {
            (y - ycent) as f64
        };
        if d < -0.5 {
            continue;
        }
        if d >= 0.5 {
            break;
        }
        for x in xcent + 1 - xbrad..=xcent + xbrad {
            if x < 0 || x >= xres as i64 {
                continue;
            }
            let d = if x_c < 1.0 {
                x_c * x as f64 - (c as f64 + 0.5)
            } else {
                (x - xcent) as f64
            };
            if d < -0.5 {
                continue;
            }
            if d >= 0.5 {
                break;
            }
            f(x as usize, y as usize);
        }
    }
}

/// pfilt's table of `exp(-x)` in steps of 0.05 for a filter of radius `rad` (in output
/// pixels), flat up to the output pixel's own area, `x_c × y_r` (the output/input size ratios).
fn gauss_table(rad: f64, x_c: f64, y_r: f64) -> Vec<f32> {
    let size = (444.0 * CHECK_RADIUS * CHECK_RADIUS) as usize;
    let d = x_c * y_r * 0.25 / (rad * rad);
    let plateau = (-d).exp() as f32;
    (0..size)
        .map(|i| {
            if i == 0 || i as f64 * 0.05 <= d {
                plateau
            } else {
                (-(i as f64) * 0.05).exp() as f32
            }
        })
        .collect()
}

/// pfilt's Gaussian: a table of `exp(-x)` in steps of 0.05, flat up to the output pixel's
/// own area.
struct Gauss {
    rad: f64,
    table: Vec<f32>,
    xrad: i64,
    yrad: i64,
}

impl Gauss {
    fn new(rad: f64, x_c: f64, y_r: f64) -> Gauss {
        let table = gauss_table(rad, x_c, y_r);
        Gauss {
            rad,
            table,
            xrad: (CHECK_RADIUS * rad / x_c + 1.0) as i64,
            yrad: (CHECK_RADIUS * rad / y_r + 1.0) as i64,
        }
    }

    fn weight(&self, x: f64) -> f64 {
        let i = (20.0 * x + 0.5) as usize;
        f64::from(self.table.get(i).copied().unwrap_or(0.0))
    }

    fn filter(
        &self,
        px: &[[f32; 3]],
        xres: usize,
        yres: usize,
        (xcent, ycent): (i64, i64),
        (c, r): (usize, usize),
        (x_c, y_r): (f64, f64),
    ) -> [f32; 3] {
        let mut sum = [0.0f32; 3];
        let mut wsum = FTINY;
        for y in ycent - self.yrad..=ycent + self.yrad {
            if y < 0 {
                continue;
            }
            if y >= yres as i64 {
                break;
            }
            let dy = (y_r * (y as f64 + 0.5) - (r as f64 + 0.5)) / self.rad;
            for x in xcent - self.xrad..=xcent + self.xrad {
                if x < 0 || x >= xres as i64 {
                    continue;
                }
                let dx = (x_c * (x as f64 + 0.5) - (c as f64 + 0.5)) / self.rad;
                let w = self.weight(dx * dx + dy * dy);
                wsum += w;
                let p = px[y as usize * xres + x as usize];
                for k in 0..3 {
                    sum[k] += (f64::from(p[k]) * w) as f32;
                }
            }
        }
        let s = 1.0 / wsum;
        sum.map(|v| (f64::from(v) * s) as f32)
    }
}
