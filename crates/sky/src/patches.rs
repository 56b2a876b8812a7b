//! Sky subdivisions: the bins that sky matrices, daylight coefficients and `rcontrib` outputs
//! are indexed by.
//!
//! Directions are in RADIANCE's sky frame: +Z is the zenith, +Y north, +X east, and a
//! direction points from the ground *towards* the sky (the way a ray leaves the scene).
//!
//! * [`Subdivision::Reinhart`] `(mf)`: RADIANCE's `reinhartb.cal` bins as `rfluxmtx` and
//!   `gendaymtx` order them: bin 0 is the whole ground (lower hemisphere, 2π sr); bins
//!   `1 ..= 144·mf² + 1` are the sky, row by row from the horizon up (each of the 7 Tregenza
//!   bands split into `mf` rows with `mf ×` as many patches), and within a row by azimuth
//!   from north towards east, the first patch centred on north; the last bin is the zenith
//!   cap. `Reinhart(1)` is the 145-patch Tregenza sky ([`Subdivision::TREGENZA`]).
//!   (`daylit_coefficients::rfluxmtx` has the same bins in any frame, as rfluxmtx's `h=rN`.)
//! * [`Subdivision::ShirleyChiu`] `(side)`: raytraverse's square grid (seed 004, Fig. 7): each
//!   hemisphere is mapped to a unit square by Shirley and Chiu's concentric disk-to-square
//!   map, with the radius on the disk `√(1 − |z|)` so that equal areas in the square are equal
//!   solid angles; the square is cut into `side × side` cells of `2π/side²` sr each. Bins
//!   `0 .. side²` are the sky (z ≥ 0), bins `side² .. 2·side²` the ground, numbered as
//!   raytraverse's `xyz2uv`/`uv2bin` do: `bin = i·side + j` with `i` from `u` and `j` from `v`.
//!   This is *not* RADIANCE's `h=scN` / `disk2square.cal` `scbin`, whose disk radius is
//!   `sin θ` (equal projected solid angles) over one hemisphere: that one is
//!   `daylit_coefficients::rfluxmtx::Basis::ShirleyChiu`.

use glam::DVec3;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

/// Patches per Tregenza band, horizon to the band below the zenith cap.
const TREGENZA_ROWS: [usize; 7] = [30, 30, 24, 24, 18, 12, 6];

/// A subdivision of the sphere of directions into sky and ground bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subdivision {
    /// Reinhart MF:n (`reinhartb.cal` with `MF = n`), ground as bin 0.
    Reinhart(u32),
    /// raytraverse's Shirley-Chiu square with `side × side` cells per hemisphere.
    ShirleyChiu(u32),
}

impl Subdivision {
    /// The Tregenza sky: Reinhart MF:1, 145 sky patches plus the ground.
    pub const TREGENZA: Subdivision = Subdivision::Reinhart(1);

    /// Number of bins, ground included.
    pub fn len(&self) -> usize {
        match *self {
            Subdivision::Reinhart(mf) => 144 * (mf as usize).pow(2) + 2,
            Subdivision::ShirleyChiu(side) => 2 * (side as usize).pow(2),
        }
    }

    /// Whether there are no bins (a zero subdivision factor).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of sky (upper-hemisphere) bins.
    pub fn sky_len(&self) -> usize {
        match *self {
            Subdivision::Reinhart(mf) => 144 * (mf as usize).pow(2) + 1,
            Subdivision::ShirleyChiu(side) => (side as usize).pow(2),
        }
    }

    /// Whether bin `i` is a ground bin.
    pub fn is_ground(&self, i: usize) -> bool {
        match self {
            Subdivision::Reinhart(_) => i == 0,
            Subdivision::ShirleyChiu(_) => i >= self.sky_len(),
        }
    }

    /// The bin a direction falls in (`dir` need not be normalised; a zero or non-finite
    /// vector falls in bin 0).
    pub fn index(&self, dir: DVec3) -> usize {
        // A unit vector is used as given, as rcontrib does: renormalising could move a
        // direction on a bin edge by a rounding step.
        let d = if (dir.length_squared() - 1.0).abs() <= 1e-12 {
            dir
        } else {
            dir.normalize_or_zero()
        };
        match *self {
            Subdivision::Reinhart(mf) => reinhart_index(mf.max(1) as usize, d),
            Subdivision::ShirleyChiu(side) => shirley_chiu_index(side.max(1) as usize, d),
        }
    }

    /// The centre direction of bin `i` (unit vector); `None` when `i` is out of range.
    pub fn centre(&self, i: usize) -> Option<DVec3> {
        if i >= self.len() {
            return None;
        }
        Some(match *self {
            Subdivision::Reinhart(mf) => {
                let (alt, azi) = reinhart_angles(mf as usize, i);
                from_alt_azi(alt, azi)
            }
            Subdivision::ShirleyChiu(side) => shirley_chiu_centre(side as usize, i),
        })
    }

    /// The solid angle of bin `i` in steradians (0 when out of range). The sky bins sum to
    /// 2π, and so do the ground bins.
    pub fn solid_angle(&self, i: usize) -> f64 {
        if i >= self.len() {
            return 0.0;
        }
        match *self {
            Subdivision::Reinhart(mf) => reinhart_solid_angle(mf as usize, i),
            Subdivision::ShirleyChiu(side) => TAU / (side as f64).powi(2),
        }
    }
}

/// Unit vector from altitude and azimuth (radians, azimuth from north towards east).
pub fn from_alt_azi(alt: f64, azi: f64) -> DVec3 {
    DVec3::new(alt.cos() * azi.sin(), alt.cos() * azi.cos(), alt.sin())
}

/// Angular spacing of Reinhart rows in radians: the 7·mf rows and half a row for the cap
/// share the quarter circle.
fn reinhart_alpha(mf: usize) -> f64 {
    FRAC_PI_2 / (7.0 * mf as f64 + 0.5)
}

/// Patches in Reinhart row `r` (0 = horizon; row `7·mf` is the zenith cap).
fn reinhart_row_len(mf: usize, r: usize) -> usize {
    if r >= 7 * mf {
        1
    } else {
        mf * TREGENZA_ROWS[r / mf]
    }
}

/// Sky bin (1-based, as in gendaymtx) of the first patch of each row.
fn reinhart_row_start(mf: usize, r: usize) -> usize {
    1 + (0..r).map(|k| reinhart_row_len(mf, k)).sum::<usize>()
}

/// Row and position in the row of sky bin `i` (≥ 1).
fn reinhart_row_of(mf: usize, i: usize) -> (usize, usize) {
    let mut start = 1;
    for r in 0..=7 * mf {
        let n = reinhart_row_len(mf, r);
        if i < start + n {
            return (r, i - start);
        }
        start += n;
    }
    (7 * mf, 0)
}

/// Centre altitude and azimuth of a Reinhart bin, as gendaymtx places them (the cap at the
/// zenith, the ground straight down).
fn reinhart_angles(mf: usize, i: usize) -> (f64, f64) {
    if i == 0 {
        return (-FRAC_PI_2, 0.0);
    }
    let (r, j) = reinhart_row_of(mf, i);
    if r == 7 * mf {
        return (FRAC_PI_2, 0.0);
    }
    let alt = reinhart_alpha(mf) * (r as f64 + 0.5);
    (alt, TAU * j as f64 / reinhart_row_len(mf, r) as f64)
}

fn reinhart_solid_angle(mf: usize, i: usize) -> f64 {
    if i == 0 {
        return TAU;
    }
    let alpha = reinhart_alpha(mf);
    let (r, _) = reinhart_row_of(mf, i);
    if r == 7 * mf {
        return TAU * (1.0 - (0.5 * alpha).cos());
    }
    let band = TAU * ((alpha * (r + 1) as f64).sin() - (alpha * r as f64).sin());
    band / reinhart_row_len(mf, r) as f64
}

/// `reinhartb.cal`'s `rbin + 1`, evaluated in degrees as the cal file does so that bin
/// edges fall exactly where RADIANCE puts them.
fn reinhart_index(mf: usize, d: DVec3) -> usize {
    if d.z <= 0.0 || !d.is_finite() {
        return 0;
    }
    // RADIANCE's expression reader turns the file's `/DEGREE` into a product with the
    // reciprocal, and wraps negative azimuths in radians: the same rounding here.
    const RECIP_DEGREE: f64 = 1.0 / (PI / 180.0);
    let alt = d.z.min(1.0).asin() * RECIP_DEGREE;
    let a = d.x.atan2(d.y);
    let azi = if a < 0.0 { a + TAU } else { a } * RECIP_DEGREE;
    let alpha = 90.0 / (mf as f64 * 7.0 + 0.5);
    let row = ((alt / alpha).floor() as usize).min(7 * mf);
    let n = reinhart_row_len(mf, row);
    let inc = 360.0 / n as f64;
    // Azimuths within half a patch of north (from the west side) wrap to the first patch.
    let j = if 359.9999 - 0.5 * inc - azi > 0.0 {
        ((azi + 0.5 * inc) / inc).floor() as usize
    } else {
        0
    };
    reinhart_row_start(mf, row) + j.min(n - 1)
}

/// Square coordinates `(u, v)` in `[0,2) × [0,1)` of a unit direction, raytraverse's
/// `xyz2uv`: the upper hemisphere maps to `u < 1`, the lower to `u ≥ 1`.
pub fn shirley_chiu_uv(d: DVec3) -> (f64, f64) {
    let n = if d.z < 0.0 { -1.0 } else { 1.0 };
    let r2 = 1.0 - n * d.z;
    let s = (2.0 - r2).max(f64::MIN_POSITIVE).sqrt();
    let (x, y) = (d.x / s, d.y / s);
    let r = x.hypot(y);
    let mut phi = y.atan2(x);
    if phi < -FRAC_PI_4 {
        phi += TAU;
    }
    let (a, b) = if phi < FRAC_PI_4 {
        (r, phi * r / FRAC_PI_4)
    } else if phi < 3.0 * FRAC_PI_4 {
        (-(phi - FRAC_PI_2) * r / FRAC_PI_4, r)
    } else if phi < 5.0 * FRAC_PI_4 {
        (-r, -(phi - PI) * r / FRAC_PI_4)
    } else {
        ((phi - 1.5 * PI) * r / FRAC_PI_4, -r)
    };
    // raytraverse mirrors u in the upper hemisphere so that the square reads as a view from
    // below (north up, east left).
    let u = if n < 0.0 {
        (3.0 + a) / 2.0
    } else {
        (1.0 - a) / 2.0
    };
    (u, (b + 1.0) / 2.0)
}

fn shirley_chiu_index(side: usize, d: DVec3) -> usize {
    if !d.is_finite() || d == DVec3::ZERO {
        return 0;
    }
    let (u, v) = shirley_chiu_uv(d);
    let s = side as f64;
    let cell = |x: f64| ((s * x).floor() as i64).rem_euclid(side as i64) as usize;
    let i = cell(u) + if u >= 1.0 { side } else { 0 };
    i * side + cell(v)
}

/// The direction at square coordinates `(u, v)`, the inverse of [`shirley_chiu_uv`].
pub fn shirley_chiu_direction(u: f64, v: f64) -> DVec3 {
    let lower = u >= 1.0;
    let a = if lower {
        2.0 * (u - 1.0) - 1.0
    } else {
        1.0 - 2.0 * u
    };
    let b = 2.0 * v - 1.0;
    // Concentric square-to-disk map: the larger of |a|, |b| is the radius.
    let (r, phi) = if a * a > b * b {
        (a, FRAC_PI_4 * b / a)
    } else if b != 0.0 {
        (b, FRAC_PI_2 - FRAC_PI_4 * a / b)
    } else {
        (0.0, 0.0)
    };
    let lift = r * (2.0 - r * r).sqrt();
    let z = 1.0 - r * r;
    DVec3::new(
        phi.cos() * lift,
        phi.sin() * lift,
        if lower { -z } else { z },
    )
}

fn shirley_chiu_centre(side: usize, bin: usize) -> DVec3 {
    let s = side as f64;
    let (i, j) = (bin / side, bin % side);
    shirley_chiu_direction((i as f64 + 0.5) / s, (j as f64 + 0.5) / s)
}
