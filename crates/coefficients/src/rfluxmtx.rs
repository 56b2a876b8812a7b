//! `rfluxmtx` receivers, natively: the `#@rfluxmtx` annotations of a receiver file, the
//! receiver surfaces grouped by modifier, the frame (normal and up) and hemisphere basis of
//! each group, the `rcontrib` options RADIANCE's `rfluxmtx` generates for them, and, for
//! each receiver, a bin function in Rust that gives exactly the bins `rcontrib` computes
//! from those options with RADIANCE's `.cal` files.
//!
//! # What rfluxmtx does with a receiver file (RADIANCE 6.0a)
//!
//! * The file is read object by object. A comment `#@rfluxmtx h=.. u=.. o=..` (no space
//!   after `#`) is kept until the first surface of the *next new receiver modifier*, and
//!   then applies to that modifier's group; annotations met among the surfaces of one group
//!   wait for the next group, and annotations after the last group are never used.
//! * Receiver surfaces are `polygon`, `ring` and `source`; consecutive ones with the same
//!   modifier form one receiver. Other primitives (the `glow` modifiers themselves, spheres,
//!   ...) are skipped; `alias` lines are skipped.
//! * `h=` (the basis) carries over to the following receivers until changed; `u=` and
//!   `o=` do not.
//! * Each surface adds area × unit normal to the receiver's normal: a polygon's normal
//!   is its vertices' right-hand rule and its area the polygon's; a ring's normal is its
//!   axis and its area π(r₁² − r₀²); a `source`'s normal is *minus* its direction and its
//!   "area" π sin²(angle/2). Zero-area surfaces are dropped with a warning. The sum is
//!   normalised. Without `u=`, up is +Z when |normal.z| < 0.7, else +Y.
//! * The normal and up reach `rcontrib` as `%g` text (6 significant digits), and the bins
//!   are computed from those rounded values: [`HemisphereBins`] uses them too.
//! * `h=u` gives one bin: `-b 0` (every ray) when the last surface read for the receiver
//!   is a `source`, else `-b 'if(-Dx*nx-Dy*ny-Dz*nz,0,-1)'` (rays arriving at the front).
//!   (RADIANCE 6.0a as installed by `scripts/setup-reference.sh`; the `rad6R0P1a` source tag
//!   still writes the front-side test for sources too.)
//! * rcontrib writes the receivers in file order, each one's bins in order: the usual sky
//!   file (ground `h=u`, then sky `h=rN`) gives 1 + (144·N² + 1) columns, ground first.
//!
//! See [`Receiver::rcontrib_options`] for the options per basis; [`job`] runs rfluxmtx (a
//! [`FluxJob`] made into an rcontrib job and traced).

pub mod job;
pub mod sender;

pub use job::{plan, run, FluxJob, FluxPlan, SenderInput};

use daylit_scene::Loc;
use glam::DVec3;
use std::collections::HashSet;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A bin function of a ray direction (unit, pointing from the scene towards the receiver,
/// rcontrib's `Dx Dy Dz`): `None` when rcontrib would not count the ray.
pub type DirBinFn = Arc<dyn Fn(DVec3) -> Option<usize> + Send + Sync>;

/// What went wrong reading a receiver file.
#[derive(Debug, thiserror::Error)]
pub enum RfluxError {
    /// A problem at a known place.
    #[error("{loc}: {msg}")]
    Located {
        /// Where.
        loc: Loc,
        /// What was expected or what is wrong.
        msg: String,
    },
    /// A problem with the file as a whole.
    #[error("{file}: {msg}")]
    File {
        /// The file.
        file: String,
        /// What is wrong.
        msg: String,
    },
}

fn located(loc: &Loc, msg: impl Into<String>) -> RfluxError {
    RfluxError::Located {
        loc: loc.clone(),
        msg: msg.into(),
    }
}

// ------------------------------------------------------------------------------------------
// Bases

/// The three LBNL/Klems hemisphere bases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Klems {
    /// `h=kf` (also `k`, `k1`): 145 patches, `klems_full.cal`'s `kbin`.
    Full,
    /// `h=kh` (`k2`): 77 patches, `klems_half.cal`'s `khbin`.
    Half,
    /// `h=kq` (`k4`): 41 patches, `klems_quarter.cal`'s `kqbin`.
    Quarter,
}

/// A hemisphere subdivision of `rfluxmtx` (the `h=` annotation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// `h=u` (or `h=1`): one bin.
    Uniform,
    /// `h=kf`, `h=kh`, `h=kq`.
    Klems(Klems),
    /// `h=rN` (or `h=tN`; N defaults to 1, the Tregenza sky): `reinhartb.cal`'s `rbin`
    /// with `MF = N`, 144·N² + 1 bins, no ground bin.
    Reinhart(u32),
    /// `h=scN` (N > 1): `disk2square.cal`'s `scbin`, N × N bins. This is RADIANCE's
    /// Shirley-Chiu basis, whose disk radius is the sine of the angle from the normal
    /// (equal *projected* solid angles); it is not the equal-area variant of
    /// [`daylit_sky::patches::Subdivision::ShirleyChiu`].
    ShirleyChiu(u32),
    /// `h=cie`: `cieskyscan.cal`'s `cbin`, the CIE sky scanner's 145 patches.
    CieScan,
}

impl Basis {
    /// Number of bins.
    pub fn len(&self) -> usize {
        match *self {
            Basis::Uniform => 1,
            Basis::Klems(Klems::Full) => 145,
            Basis::Klems(Klems::Half) => 77,
            Basis::Klems(Klems::Quarter) => 41,
            Basis::Reinhart(mf) => 144 * (mf as usize).pow(2) + 1,
            Basis::ShirleyChiu(n) => (n as usize).pow(2),
            Basis::CieScan => 145,
        }
    }

    /// Whether there are no bins (never: every basis has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The function file `rcontrib` loads for it (`None` for [`Basis::Uniform`]).
    pub fn cal_file(&self) -> Option<&'static str> {
        match self {
            Basis::Uniform => None,
            Basis::Klems(Klems::Full) => Some("klems_full.cal"),
            Basis::Klems(Klems::Half) => Some("klems_half.cal"),
            Basis::Klems(Klems::Quarter) => Some("klems_quarter.cal"),
            Basis::Reinhart(_) => Some("reinhartb.cal"),
            Basis::ShirleyChiu(_) => Some("disk2square.cal"),
            Basis::CieScan => Some("cieskyscan.cal"),
        }
    }
}

/// An `h=` value as written: the text after `h=` and its sign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hemisphere {
    /// The text after `h=` and the optional sign, e.g. `r4`, `kf`, `sc6`.
    pub text: String,
    /// `h=-..`: a left-handed frame (`RHS=-1`).
    pub left_handed: bool,
    /// rfluxmtx's size: all the digits in the text read as one number, 1 when there are
    /// none (`MF` for `r`, the side for `sc`).
    pub size: u32,
}

impl Hemisphere {
    /// The basis, as rfluxmtx's receiver code picks it; `Err` holds what is wrong.
    pub fn basis(&self) -> Result<Basis, String> {
        let b: Vec<u8> = self.text.bytes().collect();
        let c0 = b.first().map_or(0, u8::to_ascii_lowercase);
        let c1 = b.get(1).copied().unwrap_or(0);
        let l1 = c1.to_ascii_lowercase();
        if c0 == b'u' || b.first() == Some(&b'1') {
            Ok(Basis::Uniform)
        } else if c0 == b's' && l1 == b'c' {
            if self.size <= 1 {
                Err(format!(
                    "h={}: Shirley-Chiu sampling needs a size above 1, as in h=sc6",
                    self.text
                ))
            } else {
                Ok(Basis::ShirleyChiu(self.size))
            }
        } else if c0 == b'r' || c0 == b't' {
            Ok(Basis::Reinhart(self.size))
        } else if c0 == b'k' && (c1 == 0 || l1 == b'f' || c1 == b'1') {
            Ok(Basis::Klems(Klems::Full))
        } else if c0 == b'k' && (l1 == b'h' || c1 == b'2') {
            Ok(Basis::Klems(Klems::Half))
        } else if c0 == b'k' && (l1 == b'q' || c1 == b'4') {
            Ok(Basis::Klems(Klems::Quarter))
        } else if self.text.eq_ignore_ascii_case("cie") {
            Ok(Basis::CieScan)
        } else {
            Err(format!(
                "unrecognized hemisphere sampling h={}: expected u, kf, kh, kq, rN, scN or cie",
                self.text
            ))
        }
    }
}

// ------------------------------------------------------------------------------------------
// Annotations

/// One `#@rfluxmtx` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// Where the line is.
    pub loc: Loc,
    /// `h=`.
    pub hemisphere: Option<Hemisphere>,
    /// `u=`: an axis (`X`, `-Y`, `+Z`, ...) or a vector `x,y,z`, made unit length.
    pub up: Option<DVec3>,
    /// `o=`: the output file or `!command` (quotes removed).
    pub output: Option<String>,
}

/// Largest `h=` size accepted (Reinhart MF or Shirley-Chiu side): RADIANCE has no limit,
/// but beyond this the bin count would not fit any memory.
const MAX_SIZE: u32 = 100_000;

/// Parses the text after `#@rfluxmtx` (`loc` is where that text starts, for messages):
/// `h=[+|-]TYPE`, `u=[+|-]{X|Y|Z|x,y,z}`, `o=FILE` or `o="FILE WITH SPACES"`, separated by
/// white space, later ones replacing earlier ones.
pub fn parse_annotation(text: &str, loc: &Loc) -> Result<Annotation, RfluxError> {
    let mut a = Annotation {
        loc: loc.clone(),
        hemisphere: None,
        up: None,
        output: None,
    };
    let b = text.as_bytes();
    let mut i = 0;
    let at = |i: usize| Loc::new(loc.source.clone(), loc.line, loc.col + i as u32);
    let word_end = |mut j: usize| {
        while j < b.len() && !b[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let bad = |msg: &str| {
            let end = word_end(start);
            located(
                &at(start),
                format!(
                    "bad #@rfluxmtx parameter '{}': {msg}",
                    String::from_utf8_lossy(&b[start..end])
                ),
            )
        };
        let key = b[i];
        if !matches!(key, b'h' | b'u' | b'o') || b.get(i + 1) != Some(&b'=') {
            return Err(bad("expected h=, u= or o="));
        }
        i += 2;
        match key {
            b'h' => {
                let mut left_handed = false;
                if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                    left_handed = b[i] == b'-';
                    i += 1;
                }
                let end = word_end(i);
                if end == i {
                    return Err(bad(
                        "expected a sampling type after h= (u, kf, kh, kq, rN, scN or cie)",
                    ));
                }
                let t = &text[i..end];
                let mut size: u32 = 0;
                for c in t.bytes().filter(u8::is_ascii_digit) {
                    size = size
                        .checked_mul(10)
                        .and_then(|s| s.checked_add(u32::from(c - b'0')))
                        .filter(|&s| s <= MAX_SIZE)
                        .ok_or_else(|| bad(&format!("size above {MAX_SIZE}")))?;
                }
                a.hemisphere = Some(Hemisphere {
                    text: t.to_string(),
                    left_handed,
                    size: size.max(1),
                });
                i = end;
            }
            b'u' => {
                let end = word_end(i);
                let up = parse_direction(&text[i..end])
                    .ok_or_else(|| bad("expected an axis (X, Y, Z, -X, ...) or a vector x,y,z"))?;
                a.up = Some(up);
                i = end;
            }
            _ => {
                let quote = b.get(i).copied().filter(|&c| c == b'"' || c == b'\'');
                let (s, e, next) = match quote {
                    Some(q) => {
                        let s = i + 1;
                        let e = b[s..]
                            .iter()
                            .position(|&c| c == q)
                            .map(|k| s + k)
                            .ok_or_else(|| bad("the quoted output name has no closing quote"))?;
                        (s, e, e + 1)
                    }
                    None => {
                        let e = word_end(i);
                        (i, e, e)
                    }
                };
                if e == s {
                    return Err(bad("expected an output file or !command after o="));
                }
                a.output = Some(text[s..e].to_string());
                i = next;
            }
        }
    }
    Ok(a)
}

/// rfluxmtx's `u=` value: signs, then an axis letter alone, or three comma-separated
/// numbers (a leading `-` negates the first only, as it belongs to it), made unit length.
fn parse_direction(s: &str) -> Option<DVec3> {
    let b = s.as_bytes();
    let mut sign = 1.0;
    let mut i = 0;
    while i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        if b[i] == b'-' {
            sign = -sign;
        }
        i += 1;
    }
    let axis = match b.get(i).map(u8::to_ascii_lowercase) {
        Some(b'x') => Some(0),
        Some(b'y') => Some(1),
        Some(b'z') => Some(2),
        _ => None,
    };
    if let Some(k) = axis {
        if i + 1 != b.len() {
            return None;
        }
        let mut v = [0.0; 3];
        v[k] = sign;
        return Some(DVec3::from_array(v));
    }
    let mut v = [0.0; 3];
    let mut rest = &s[i..];
    for (k, slot) in v.iter_mut().enumerate() {
        let (x, n) = daylit_radfile::scan::strtod_prefix(rest)?;
        *slot = x;
        rest = &rest[n..];
        if k < 2 {
            rest = rest.strip_prefix(',')?;
        }
    }
    v[0] *= sign;
    if !v.iter().all(|x| x.is_finite()) {
        return None;
    }
    (normalize(&mut v) > 0.0).then(|| DVec3::from_array(v))
}

/// RADIANCE's `normalize` (fvect.c): scales `v` to unit length and returns the old length,
/// 0 (leaving `v` alone) for a zero vector. Lengths within 1e-6 of 1 use its first-order
/// reciprocal, so the result matches RADIANCE to the last bit.
fn normalize(v: &mut [f64; 3]) -> f64 {
    let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if d == 0.0 {
        return 0.0;
    }
    const FTINY: f64 = 1e-6;
    let (len, f) = if (1.0 - FTINY..=1.0 + FTINY).contains(&d) {
        let len = 0.5 + 0.5 * d;
        (len, 2.0 - len)
    } else {
        let len = d.sqrt();
        (len, 1.0 / len)
    };
    v[0] *= f;
    v[1] *= f;
    v[2] *= f;
    len
}

pub use daylit_radfile::printf::{format_g, format_g_digits};

/// The value rcontrib reads back from `%g` text.
fn via_g(x: f64) -> f64 {
    format_g(x).parse().unwrap_or(x)
}

// ------------------------------------------------------------------------------------------
// Native bins

/// `PI/180`, and its reciprocal as RADIANCE's expression reader computes it (it turns
/// `x/DEGREE` into `x*(1/DEGREE)`).
const DEGREE: f64 = PI / 180.0;
const RECIP_DEGREE: f64 = 1.0 / DEGREE;

/// The `Asin` of the bin files, in degrees.
fn asin_deg(x: f64) -> f64 {
    let r = if x - 1.0 > 0.0 {
        FRAC_PI_2
    } else if -1.0 - x > 0.0 {
        -FRAC_PI_2
    } else {
        x.asin()
    };
    r * RECIP_DEGREE
}

/// The `Acos` of the Klems files, in degrees.
fn acos_deg(x: f64) -> f64 {
    let r = if x - 1.0 > 0.0 {
        0.0
    } else if -1.0 - x > 0.0 {
        PI
    } else {
        x.acos()
    };
    r * RECIP_DEGREE
}

/// `posangle`: an `atan2` result taken into [0, 360) degrees.
fn posangle_deg(a: f64) -> f64 {
    let r = if -a > 0.0 { a + 2.0 * PI } else { a };
    r * RECIP_DEGREE
}

/// Patches per Tregenza band.
const TREGENZA_ROWS: [u64; 7] = [30, 30, 24, 24, 18, 12, 6];

/// How rcontrib turns a bin expression's value into a bin: values up to −0.5 are dropped,
/// others rounded, and those past the bin count dropped (with a warning in RADIANCE).
fn to_bin(v: f64, nbins: usize) -> Option<usize> {
    if v.is_nan() || v <= -0.5 {
        return None;
    }
    let b = (v + 0.5).trunc();
    (b < nbins as f64).then_some(b as usize)
}

/// The bins of one receiver, computed as rcontrib computes them from the options rfluxmtx
/// gives it (same arithmetic, bit for bit, as RADIANCE evaluating its own `.cal` files).
#[derive(Clone, Debug, PartialEq)]
pub struct HemisphereBins {
    basis: Basis,
    /// `h=u` on a receiver whose last surface is a `source`: rfluxmtx passes `-b 0`, so
    /// every ray counts.
    any_direction: bool,
    normal: [f64; 3],
    up: [f64; 3],
    rhs: f64,
}

// The bin files' `if(x, a, b)` takes `a` only for x > 0, so a NaN takes `b`: the negated
// comparisons below say that.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
impl HemisphereBins {
    /// Bins of `basis` for a receiver with unit `normal` (pointing away from the side rays
    /// arrive at) and `up`, taken exactly as given (rfluxmtx rounds them to 6 digits
    /// first: [`Receiver::bins`] does that).
    pub fn new(basis: Basis, normal: DVec3, up: DVec3, left_handed: bool) -> Self {
        HemisphereBins {
            basis,
            any_direction: false,
            normal: normal.to_array(),
            up: up.to_array(),
            rhs: if left_handed { -1.0 } else { 1.0 },
        }
    }

    /// One bin that every ray falls in (rfluxmtx's `-b 0`).
    pub fn single() -> Self {
        HemisphereBins {
            basis: Basis::Uniform,
            any_direction: true,
            normal: [0.0; 3],
            up: [0.0; 3],
            rhs: 1.0,
        }
    }

    /// The basis.
    pub fn basis(&self) -> Basis {
        self.basis
    }

    /// The normal the bins use (as rcontrib reads it).
    pub fn normal(&self) -> DVec3 {
        DVec3::from_array(self.normal)
    }

    /// The up vector the bins use (as rcontrib reads it).
    pub fn up(&self) -> DVec3 {
        DVec3::from_array(self.up)
    }

    /// Number of bins (rcontrib's `-bn`).
    pub fn len(&self) -> usize {
        self.basis.len()
    }

    /// Whether there are no bins (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bin of a ray with direction `dir` (rcontrib's `Dx Dy Dz`: unit length, from the
    /// scene towards the receiver); `None` where rcontrib drops the ray (from behind, or
    /// a bin value out of range).
    pub fn bin(&self, dir: DVec3) -> Option<usize> {
        to_bin(self.value(dir), self.len())
    }

    /// The raw value of the bin expression (−1 for rays from behind), before rcontrib
    /// rounds it and checks the range.
    pub fn value(&self, dir: DVec3) -> f64 {
        if self.any_direction {
            return 0.0;
        }
        // rcontrib's Dx Dy Dz pass the ray direction through an identity transform.
        let d = [
            dir.x * 1.0 + dir.y * 0.0 + dir.z * 0.0,
            dir.x * 0.0 + dir.y * 1.0 + dir.z * 0.0,
            dir.x * 0.0 + dir.y * 0.0 + dir.z * 1.0,
        ];
        match self.basis {
            Basis::Uniform => {
                let n = self.normal;
                if -d[0] * n[0] - d[1] * n[1] - d[2] * n[2] > 0.0 {
                    0.0
                } else {
                    -1.0
                }
            }
            Basis::Reinhart(mf) => self.reinhart(d, f64::from(mf)),
            Basis::ShirleyChiu(dim) => self.shirley_chiu(d, f64::from(dim)),
            Basis::Klems(k) => self.klems(d, k),
            Basis::CieScan => self.cie(d),
        }
    }

    /// The function to hand to the tracer.
    pub fn into_fn(self) -> DirBinFn {
        Arc::new(move |d| self.bin(d))
    }

    /// `inc_dz`, `inc_rx`, `inc_ry` of reinhartb.cal, disk2square.cal and cieskyscan.cal:
    /// height above the surface and the in-plane components (RADIANCE's sums start from
    /// +0, which fixes the sign of a zero sum).
    fn local(&self, d: [f64; 3]) -> (f64, f64, f64) {
        let [nx, ny, nz] = self.normal;
        let [ux, uy, uz] = self.up;
        let [dx, dy, dzz] = d;
        let dz = -dx * nx - dy * ny - dzz * nz;
        let rx = -self.rhs
            * (0.0
                + dx * (uy * nz - uz * ny)
                + dy * (uz * nx - ux * nz)
                + dzz * (ux * ny - uy * nx));
        let ry = 0.0 + dx * ux + dy * uy + dzz * uz + dz * (0.0 + nx * ux + ny * uy + nz * uz);
        (dz, rx, ry)
    }

    /// reinhartb.cal's `rbin`.
    fn reinhart(&self, d: [f64; 3], mf: f64) -> f64 {
        let (dz, rx, ry) = self.local(d);
        let alt = asin_deg(dz);
        if !(alt > 0.0) {
            return -1.0;
        }
        let azi = posangle_deg(rx.atan2(ry));
        let alpha = 90.0 / (mf * 7.0 + 0.5);
        let row = (alt / alpha).floor();
        let n = reinhart_row_len(row, mf);
        let inc = 360.0 / n;
        let col = if 359.9999 - 0.5 * inc - azi > 0.0 {
            ((azi + 0.5 * inc) / inc).floor()
        } else {
            0.0
        };
        reinhart_rows_below(row, mf) + col
    }

    /// disk2square.cal's `scbin`.
    fn shirley_chiu(&self, d: [f64; 3], dim: f64) -> f64 {
        let (dz, rx, ry) = self.local(d);
        if !(dz > 0.0) {
            return -1.0;
        }
        let den2 = 0.0 + rx * rx + ry * ry;
        let radf = if den2 - 1e-7 > 0.0 {
            ((1.0 - dz * dz) / den2).sqrt()
        } else {
            0.0
        };
        let (sx, sy) = radiance_disk_to_square(rx * radf, -ry * radf);
        (sx * dim).floor() * dim + (sy * dim).floor()
    }

    /// klems_{full,half,quarter}.cal's `kbin`, `khbin`, `kqbin`.
    fn klems(&self, d: [f64; 3], k: Klems) -> f64 {
        let [nx, ny, nz] = self.normal;
        let [ux, uy, uz] = self.up;
        let [dx, dy, dz] = d;
        let pol = acos_deg(-dx * nx - dy * ny - dz * nz);
        let y = 0.0
            + (-dx * ux - dy * uy - dz * uz)
            + (0.0 + nx * dx + ny * dy + nz * dz) * (0.0 + nx * ux + ny * uy + nz * uz);
        let x = -self.rhs
            * (0.0
                + dx * (uy * nz - uz * ny)
                + dy * (uz * nx - ux * nz)
                + dz * (ux * ny - uy * nx));
        let azi = posangle_deg(y.atan2(x));
        if pol - 90.0 > 0.0 {
            return -1.0;
        }
        let (limits, counts): (&[f64], &[u32]) = match k {
            Klems::Full => (
                &[5.0, 15.0, 25.0, 35.0, 45.0, 55.0, 65.0, 75.0, 90.0],
                &[1, 8, 16, 20, 24, 24, 24, 16, 12],
            ),
            Klems::Half => (
                &[6.5, 19.5, 32.5, 45.5, 58.5, 71.5, 90.0],
                &[1, 8, 12, 16, 20, 12, 8],
            ),
            Klems::Quarter => (&[9.0, 27.0, 45.0, 63.0, 90.0], &[1, 8, 12, 12, 8]),
        };
        // The first ring whose limit the angle does not pass (the last one otherwise).
        let last = limits.len() - 1;
        let ring = (0..last)
            .find(|&r| !(pol - limits[r] > 0.0))
            .unwrap_or(last);
        let first: u32 = counts[..ring].iter().sum();
        let inc = 360.0 / f64::from(counts[ring]);
        let col = if (360.0 - 0.5 * inc) - azi > 0.0 {
            ((azi + 0.5 * inc) / inc).floor()
        } else {
            0.0
        };
        f64::from(first) + col
    }

    /// cieskyscan.cal's `cbin`.
    fn cie(&self, d: [f64; 3]) -> f64 {
        const COUNT: [f64; 8] = [30.0, 30.0, 24.0, 24.0, 18.0, 12.0, 6.0, 1.0];
        const FIRST: [f64; 8] = [0.0, 30.0, 60.0, 84.0, 108.0, 126.0, 138.0, 144.0];
        let (dz, rx, ry) = self.local(d);
        let alt = asin_deg(dz);
        if !(alt > 0.0) {
            return -1.0;
        }
        let azi = posangle_deg((-rx).atan2(-ry));
        // The rows are 90/7.5 = 12 degrees high; RADIANCE divides by that constant as a
        // product with its reciprocal.
        let row = (alt * (1.0 / 12.0)).floor();
        let Some(k) = (0.0..8.0).contains(&row).then_some(row as usize) else {
            return f64::NAN;
        };
        let n = COUNT[k];
        let inc = 360.0 / n;
        let forward = (row * 0.5 + 1.25).floor() - row * 0.5 - 0.75;
        let col = if 359.9999 - azi > 0.0 {
            let step = (azi / inc).floor();
            if forward > 0.0 {
                step
            } else {
                n - 1.0 - step
            }
        } else {
            0.0
        };
        FIRST[k] + col
    }
}

/// Patches in Reinhart row `r` (reinhartb.cal's `rnaz`).
fn reinhart_row_len(r: f64, mf: f64) -> f64 {
    if r - (7.0 * mf - 0.5) > 0.0 {
        1.0
    } else {
        let band = ((r + 0.5) / mf).floor();
        mf * TREGENZA_ROWS
            .get(band as usize)
            .map_or(f64::NAN, |&n| n as f64)
    }
}

/// Patches in Reinhart rows below row `r` (reinhartb.cal's `raccum`): whole Tregenza
/// bands of `mf` rows, then whole rows of the band row `r` is in.
fn reinhart_rows_below(r: f64, mf: f64) -> f64 {
    if r.is_nan() || r < 0.0 {
        return f64::NAN;
    }
    let (r, m) = (r as u64, mf as u64);
    let top = 7 * m;
    if r > top {
        return (144 * m * m + (r - top)) as f64;
    }
    let band = (r / m) as usize;
    let whole: u64 = TREGENZA_ROWS[..band.min(7)].iter().sum();
    let part = TREGENZA_ROWS
        .get(band)
        .map_or(0, |&n| (r - band as u64 * m) * n);
    (m * (m * whole + part)) as f64
}

/// disk2square.cal's disk-to-square map (`in_disk_*` → `out_square_*`) with RADIANCE's
/// arithmetic: RADIANCE's concentric map from the unit disk to the unit square.
pub fn radiance_disk_to_square(x: f64, y: f64) -> (f64, f64) {
    let r = (0.0 + x * x + y * y).sqrt();
    let p = y.atan2(x);
    let phi = if -p - FRAC_PI_4 > 0.0 {
        p + 2.0 * PI
    } else {
        p
    };
    let part = ((0.0 + phi + FRAC_PI_4) * (1.0 / FRAC_PI_2)).floor() + 1.0;
    let k = 1.0 / FRAC_PI_4;
    let (a, b) = match part as i64 {
        1 => (r, phi * r * k),
        2 => ((FRAC_PI_2 - phi) * r * k, r),
        3 => (-r, (PI - phi) * r * k),
        4 => ((phi - 3.0 * PI / 2.0) * r * k, -r),
        5 => (r, -r),
        _ => (f64::NAN, f64::NAN),
    };
    ((0.0 + a + 1.0) * 0.5, (0.0 + b + 1.0) * 0.5)
}

/// disk2square.cal's square-to-disk map (`in_square_*` → `out_disk_*`) with RADIANCE's
/// arithmetic.
pub fn radiance_square_to_disk(sx: f64, sy: f64) -> (f64, f64) {
    let a = 2.0 * sx - 1.0;
    let b = 2.0 * sy - 1.0;
    let part = if a + b > 0.0 {
        if a - b > 0.0 {
            1
        } else {
            2
        }
    } else if b - a > 0.0 {
        3
    } else {
        4
    };
    let (r, t) = match part {
        1 => (a, b / a),
        2 => (b, 2.0 - a / b),
        3 => (-a, 4.0 + b / a),
        _ => (-b, if b * b > 0.0 { 6.0 - a / b } else { 0.0 }),
    };
    let phi = PI / 4.0 * t;
    (r * phi.cos(), r * phi.sin())
}

// ------------------------------------------------------------------------------------------
// Receivers

/// The receiver primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfaceKind {
    /// `polygon`.
    Polygon,
    /// `ring`.
    Ring,
    /// `source` (a distant glow such as the sky).
    Source,
}

impl fmt::Display for SurfaceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SurfaceKind::Polygon => "polygon",
            SurfaceKind::Ring => "ring",
            SurfaceKind::Source => "source",
        })
    }
}

/// One receiver surface.
#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverSurface {
    /// Its name.
    pub name: String,
    /// Its type.
    pub kind: SurfaceKind,
    /// Unit normal as rfluxmtx takes it (minus the direction for a `source`).
    pub normal: DVec3,
    /// Area; for a `source`, π sin²(angle/2) (π for a hemisphere).
    pub area: f64,
    /// Where it is defined.
    pub loc: Loc,
}

/// One receiver: the consecutive receiver surfaces of one modifier.
#[derive(Clone, Debug, PartialEq)]
pub struct Receiver {
    /// The modifier (rcontrib's `-m`).
    pub modifier: String,
    /// The `h=` in force.
    pub hemisphere: Hemisphere,
    /// Its basis.
    pub basis: Basis,
    /// The area-weighted unit normal (before rounding for rcontrib).
    pub normal: DVec3,
    /// The unit up vector (from `u=`, or the default).
    pub up: DVec3,
    /// `o=` given for this receiver (rcontrib keeps an earlier receiver's `-o` when none).
    pub output: Option<String>,
    /// The surfaces, in file order.
    pub surfaces: Vec<ReceiverSurface>,
}

impl Receiver {
    /// Where the receiver starts (its first surface).
    pub fn loc(&self) -> &Loc {
        &self.surfaces[0].loc
    }

    /// Number of bins.
    pub fn bin_count(&self) -> usize {
        self.basis.len()
    }

    /// The native bins: rfluxmtx's bin expression as rcontrib evaluates it.
    pub fn bins(&self) -> HemisphereBins {
        if self.basis == Basis::Uniform && self.last_is_source() {
            return HemisphereBins::single();
        }
        let n = self.normal.to_array().map(via_g);
        let u = self.up.to_array().map(via_g);
        HemisphereBins {
            basis: self.basis,
            any_direction: false,
            normal: n,
            up: u,
            rhs: if self.hemisphere.left_handed {
                -1.0
            } else {
                1.0
            },
        }
    }

    /// rfluxmtx's test for `h=u`: the last surface read decides between `-b 0` and the
    /// front-side test.
    fn last_is_source(&self) -> bool {
        self.surfaces
            .last()
            .is_some_and(|s| s.kind == SurfaceKind::Source)
    }

    /// The `-p` settings rfluxmtx passes (`None` for `h=u`); `bin_jitter` is rfluxmtx's
    /// `-bj` value, passed on as `JTR=` (RADIANCE 6.0a's own `.cal` files, and daylit's,
    /// ignore it).
    pub fn params(&self, bin_jitter: Option<&str>) -> Option<String> {
        let sign = if self.hemisphere.left_handed {
            '-'
        } else {
            '+'
        };
        let frame = || {
            let g = |v: DVec3| v.to_array().map(format_g);
            let [nx, ny, nz] = g(self.normal);
            let [ux, uy, uz] = g(self.up);
            format!("rNx={nx},rNy={ny},rNz={nz},Ux={ux},Uy={uy},Uz={uz},RHS={sign}1")
        };
        let mut p = match self.basis {
            Basis::Uniform => return None,
            Basis::ShirleyChiu(n) => format!("SCdim={n},{}", frame()),
            Basis::Reinhart(mf) => format!("MF={mf},{}", frame()),
            Basis::CieScan => frame(),
            Basis::Klems(_) => format!("RHS={sign}1"),
        };
        if let Some(j) = bin_jitter {
            p.push_str(",JTR=");
            p.push_str(j);
        }
        Some(p)
    }

    /// The bin expression rfluxmtx passes with `-b`.
    pub fn bin_expr(&self) -> String {
        let g = |v: DVec3| v.to_array().map(format_g).join(",");
        match self.basis {
            Basis::Uniform if self.last_is_source() => "0".into(),
            Basis::Uniform => {
                let [x, y, z] = self.normal.to_array().map(format_g);
                format!("if(-Dx*{x}-Dy*{y}-Dz*{z},0,-1)")
            }
            Basis::ShirleyChiu(_) => "scbin".into(),
            Basis::Reinhart(_) => "rbin".into(),
            Basis::CieScan => "cbin".into(),
            Basis::Klems(k) => {
                let f = match k {
                    Klems::Full => "kbin",
                    Klems::Half => "khbin",
                    Klems::Quarter => "kqbin",
                };
                format!("{f}({},{})", g(self.normal), g(self.up))
            }
        }
    }

    /// The bin count expression rfluxmtx passes with `-bn`.
    pub fn bin_count_expr(&self) -> &'static str {
        match self.basis {
            Basis::Uniform => "1",
            Basis::ShirleyChiu(_) => "SCdim*SCdim",
            Basis::Reinhart(_) => "Nrbins",
            Basis::CieScan => "Ncbins",
            Basis::Klems(Klems::Full) => "Nkbins",
            Basis::Klems(Klems::Half) => "Nkhbins",
            Basis::Klems(Klems::Quarter) => "Nkqbins",
        }
    }

    /// The rcontrib options for this receiver, in rfluxmtx's order: `-o` (when `o=` was
    /// given), `-f FILE` (when `load_file`: rfluxmtx loads each `.cal` file once, for the
    /// first receiver that needs it), `-p`, `-bn`, `-b`, `-m`.
    pub fn rcontrib_options(&self, load_file: bool, bin_jitter: Option<&str>) -> Vec<String> {
        let mut a = Vec::new();
        if let Some(o) = &self.output {
            a.extend(["-o".into(), o.clone()]);
        }
        if let (true, Some(f)) = (load_file, self.basis.cal_file()) {
            a.extend(["-f".into(), f.into()]);
        }
        if let Some(p) = self.params(bin_jitter) {
            a.extend(["-p".into(), p]);
        }
        a.extend([
            "-bn".into(),
            self.bin_count_expr().into(),
            "-b".into(),
            self.bin_expr(),
            "-m".into(),
            self.modifier.clone(),
        ]);
        a
    }
}

/// The receivers of a file, in file (and output) order.
#[derive(Clone, Debug, PartialEq)]
pub struct Receivers {
    /// The receivers.
    pub receivers: Vec<Receiver>,
    /// What RADIANCE would warn about, and rules that may surprise (annotations that wait
    /// for the next receiver or apply to none, surfaces rfluxmtx ignores).
    pub warnings: Vec<String>,
}

impl Receivers {
    /// The receiver part of the rcontrib command rfluxmtx runs: each receiver's options
    /// ([`Receiver::rcontrib_options`]), each `.cal` file loaded once.
    pub fn rcontrib_options(&self, bin_jitter: Option<&str>) -> Vec<String> {
        let mut loaded = HashSet::new();
        let mut a = Vec::new();
        for r in &self.receivers {
            let first = r.basis.cal_file().is_some_and(|f| loaded.insert(f));
            a.extend(r.rcontrib_options(first, bin_jitter));
        }
        a
    }

    /// Total bins over all receivers (the columns of rcontrib's standard output).
    pub fn total_bins(&self) -> usize {
        self.receivers.iter().map(Receiver::bin_count).sum()
    }
}

/// Reads a receiver file. Inline commands daylit runs natively (`!xform`, the generators,
/// gensky, gendaylit: honeybee-radiance's receiver files are `!xform` lines) are expanded as
/// rfluxmtx would read their output, from the current directory; another is an error.
pub fn read_receivers(path: &Path) -> Result<Receivers, RfluxError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RfluxError::File {
        file: source.clone(),
        msg: format!("cannot read: {e}"),
    })?;
    parse_receivers_with(&text, &source, &mut |cmd, loc| native_command(cmd, loc))
}

/// The scene text of an inline command daylit runs itself, run from the current directory
/// as rfluxmtx's shell would.
pub(crate) fn native_command(cmd: &str, loc: &Loc) -> Result<String, RfluxError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let opts = daylit_scene::LoadOptions::default();
    daylit_scene::xform_text::Xform::inline_text(&opts, cmd, &loc.source, &cwd)
        .map(|(text, _warnings)| text)
        .map_err(|e| located(loc, format!("inline command '!{cmd}': {e}")))
}

/// Parses receiver text (named `source` in messages). An inline `!command` is an error;
/// see [`parse_receivers_with`].
pub fn parse_receivers(text: &str, source: &str) -> Result<Receivers, RfluxError> {
    parse_receivers_with(text, source, &mut |cmd, loc| {
        Err(located(
            loc,
            format!("inline command '!{cmd}' in a receiver file: daylit does not run it here"),
        ))
    })
}

/// Parses receiver text; `expand` turns an inline `!command` (the text after `!`, with
/// continued lines joined) into scene text, read in its place as rfluxmtx reads a
/// command's output.
pub fn parse_receivers_with(
    text: &str,
    source: &str,
    expand: &mut dyn FnMut(&str, &Loc) -> Result<String, RfluxError>,
) -> Result<Receivers, RfluxError> {
    let mut st = State::default();
    read_objects(&mut st, text, source, expand, 0)?;
    st.finish(source)
}

/// Surface types that rfluxmtx does not take as receivers (used to warn when one carries a
/// receiver's modifier: rcontrib still counts rays that hit it).
const OTHER_SURFACES: [&str; 8] = [
    "sphere", "bubble", "cone", "cup", "cylinder", "tube", "instance", "mesh",
];

#[derive(Default)]
struct State {
    /// Annotations read since the last new receiver modifier.
    pending: Vec<Annotation>,
    /// How many of `pending` have been reported as waiting for the next receiver.
    pending_noted: usize,
    /// The parameters in force (h= carries over, u= and o= do not).
    hemisphere: Option<(Hemisphere, Loc)>,
    up: Option<DVec3>,
    output: Option<String>,
    /// The receiver being gathered.
    current: Option<Group>,
    receivers: Vec<Receiver>,
    done: HashSet<String>,
    warnings: Vec<String>,
    /// Non-receiver surfaces: modifier, type, name, place.
    others: Vec<(String, String, String, Loc)>,
}

struct Group {
    modifier: String,
    /// Where its first surface is.
    loc: Loc,
    surfaces: Vec<ReceiverSurface>,
    /// Area-weighted normal sum.
    nrm: [f64; 3],
}

/// A scanner over the text with 1-based line and column.
struct Scan<'t> {
    b: &'t [u8],
    text: &'t str,
    i: usize,
    line: u32,
    col: u32,
    source: Arc<str>,
}

impl<'t> Scan<'t> {
    fn loc(&self) -> Loc {
        Loc::new(self.source.clone(), self.line, self.col)
    }

    fn bump(&mut self) {
        if self.b[self.i] == b'\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        self.i += 1;
    }

    fn skip_ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.bump();
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// The next white-space-separated word and where it starts.
    fn word(&mut self) -> Option<(&'t str, Loc)> {
        self.skip_ws();
        let loc = self.loc();
        let s = self.i;
        while self.i < self.b.len() && !self.b[self.i].is_ascii_whitespace() {
            self.bump();
        }
        (self.i > s).then(|| (&self.text[s..self.i], loc))
    }

    /// The rest of the line (without its newline, which is consumed).
    fn rest_of_line(&mut self) -> &'t str {
        let s = self.i;
        while self.i < self.b.len() && self.b[self.i] != b'\n' {
            self.bump();
        }
        let line = &self.text[s..self.i];
        if self.i < self.b.len() {
            self.bump();
        }
        line
    }
}

/// What a pass over a scene file reports: `#@rfluxmtx` lines, the surfaces rfluxmtx takes
/// (`polygon`, `ring`, `source`) with their real arguments, and other primitives.
trait Collect {
    /// A `#@rfluxmtx` line.
    fn annotation(&mut self, a: Annotation);
    /// A polygon, ring or source.
    fn surface(
        &mut self,
        modifier: &str,
        kind: SurfaceKind,
        name: &str,
        reals: &[f64],
        loc: &Loc,
    ) -> Result<(), RfluxError>;
    /// Any other primitive (not `alias`): modifier, type, name, place.
    fn other(&mut self, modifier: &str, kind: &str, name: &str, loc: Loc);
}

/// Reads scene text object by object as rfluxmtx does, handing what it finds to `c`.
fn read_objects(
    c: &mut dyn Collect,
    text: &str,
    source: &str,
    expand: &mut dyn FnMut(&str, &Loc) -> Result<String, RfluxError>,
    depth: usize,
) -> Result<(), RfluxError> {
    let mut sc = Scan {
        b: text.as_bytes(),
        text,
        i: 0,
        line: 1,
        col: 1,
        source: source.into(),
    };
    loop {
        sc.skip_ws();
        let Some(ch) = sc.peek() else { break };
        let loc = sc.loc();
        if ch == b'!' {
            sc.bump();
            // A command line, continued with a backslash before the newline.
            let mut cmd = String::new();
            loop {
                let line = sc.rest_of_line();
                match line.strip_suffix('\\') {
                    Some(l) => {
                        cmd.push_str(l);
                        cmd.push(' ');
                    }
                    None => {
                        cmd.push_str(line);
                        break;
                    }
                }
            }
            if depth >= 32 {
                return Err(located(&loc, "inline commands nested too deeply"));
            }
            let out = expand(cmd.trim(), &loc)?;
            read_objects(c, &out, &format!("!{}", cmd.trim()), expand, depth + 1)?;
            continue;
        }
        if ch == b'#' {
            sc.bump();
            match sc.peek() {
                None => break,
                Some(n) if !n.is_ascii_whitespace() => {
                    let (w, _) = sc.word().unwrap_or(("", loc.clone()));
                    if w == "@rfluxmtx" {
                        let at = sc.loc();
                        let rest = sc.rest_of_line();
                        let mut a = parse_annotation(rest, &at)?;
                        a.loc = loc.clone();
                        c.annotation(a);
                        continue;
                    }
                }
                Some(_) => {}
            }
            sc.rest_of_line();
            continue;
        }
        read_object(c, &mut sc)?;
    }
    Ok(())
}

/// One primitive: a polygon, ring or source goes to [`Collect::surface`] with its reals,
/// anything else to [`Collect::other`] (its arguments skipped).
fn read_object(c: &mut dyn Collect, sc: &mut Scan) -> Result<(), RfluxError> {
    let (modifier, loc) = sc.word().expect("not at the end");
    let (kind, name) = match (sc.word(), sc.word()) {
        (Some((k, _)), Some((n, _))) => (k, n),
        _ => {
            return Err(located(
                &loc,
                "expected a primitive: modifier, type and name",
            ))
        }
    };
    if kind == "alias" {
        if sc.word().is_none() {
            return Err(located(
                &loc,
                format!("alias '{name}': expected the aliased name"),
            ));
        }
        return Ok(());
    }
    let surface = match kind {
        "polygon" => Some(SurfaceKind::Polygon),
        "ring" => Some(SurfaceKind::Ring),
        "source" => Some(SurfaceKind::Source),
        _ => None,
    };
    // String and integer arguments: skipped.
    for what in ["string", "integer"] {
        let n = count(sc, name, what)?;
        for _ in 0..n {
            if sc.word().is_none() {
                return Err(located(
                    &sc.loc(),
                    format!("'{name}': the file ends inside its {what} arguments"),
                ));
            }
        }
    }
    let nreal = count(sc, name, "real")?;
    let mut reals = Vec::with_capacity(nreal.min(1 << 16));
    for _ in 0..nreal {
        match sc.word() {
            Some((w, wl)) => match w.parse::<f64>() {
                Ok(x) if surface.is_some() => reals.push(x),
                Ok(_) => {}
                Err(_) if surface.is_some() => {
                    return Err(located(
                        &wl,
                        format!("{kind} '{name}': expected a real argument, found '{w}'"),
                    ))
                }
                Err(_) => {}
            },
            None => {
                return Err(located(
                    &sc.loc(),
                    format!("'{name}': the file ends inside its real arguments"),
                ))
            }
        }
    }
    match surface {
        Some(k) => c.surface(modifier, k, name, &reals, &loc),
        None => {
            c.other(modifier, kind, name, loc);
            Ok(())
        }
    }
}

/// A surface's unit normal and area as rfluxmtx computes them (`None` when it has no real
/// arguments, which rfluxmtx skips without a word); wrong argument counts and zero
/// directions are errors.
fn surface_geometry(
    kind: SurfaceKind,
    name: &str,
    f: &[f64],
    loc: &Loc,
) -> Result<Option<([f64; 3], f64)>, RfluxError> {
    if f.is_empty() {
        return Ok(None);
    }
    let bad_count = |want: &str| {
        located(
            loc,
            format!(
                "{kind} '{name}': bad argument count ({} reals; {want})",
                f.len()
            ),
        )
    };
    let bad_orientation = || {
        located(
            loc,
            format!("{kind} '{name}': bad orientation (its direction is zero)"),
        )
    };
    Ok(Some(match kind {
        SurfaceKind::Ring => {
            if f.len() != 8 {
                return Err(bad_count("a ring has 8"));
            }
            let mut n = [f[3], f[4], f[5]];
            if normalize(&mut n) == 0.0 {
                return Err(bad_orientation());
            }
            let (r0, r1) = if f[7] < f[6] {
                (f[7], f[6])
            } else {
                (f[6], f[7])
            };
            (n, PI * (r1 * r1 - r0 * r0))
        }
        SurfaceKind::Polygon => {
            if f.len() < 9 || !f.len().is_multiple_of(3) {
                return Err(bad_count("a polygon has 3 per vertex, at least 3 vertices"));
            }
            polygon_normal_area(f)
        }
        SurfaceKind::Source => {
            if f.len() != 4 {
                return Err(bad_count("a source has 4"));
            }
            let mut n = [-f[0], -f[1], -f[2]];
            if normalize(&mut n) == 0.0 {
                return Err(bad_orientation());
            }
            let s = ((PI / 180.0 / 2.0) * f[3]).sin();
            (n, s * (PI * s))
        }
    }))
}

impl Collect for State {
    fn annotation(&mut self, a: Annotation) {
        self.pending.push(a);
    }

    fn surface(
        &mut self,
        modifier: &str,
        kind: SurfaceKind,
        name: &str,
        reals: &[f64],
        loc: &Loc,
    ) -> Result<(), RfluxError> {
        self.receiver_surface(modifier, kind, name, reals, loc)
    }

    fn other(&mut self, modifier: &str, kind: &str, name: &str, loc: Loc) {
        if OTHER_SURFACES.contains(&kind) {
            self.others
                .push((modifier.into(), kind.into(), name.into(), loc));
        }
    }
}

impl State {
    fn receiver_surface(
        &mut self,
        modifier: &str,
        kind: SurfaceKind,
        name: &str,
        f: &[f64],
        loc: &Loc,
    ) -> Result<(), RfluxError> {
        if self.current.as_ref().map(|g| g.modifier.as_str()) != Some(modifier) {
            self.close()?;
            if modifier == "void" {
                return Err(located(
                    loc,
                    format!("{kind} '{name}': a receiver's modifier cannot be void (rcontrib cannot track it)"),
                ));
            }
            if self.done.contains(modifier) {
                return Err(located(
                    loc,
                    format!(
                        "{kind} '{name}': receiver modifier '{modifier}' appears again after other \
                         receivers (keep each receiver's surfaces together; rcontrib refuses a \
                         duplicate modifier)"
                    ),
                ));
            }
            // The annotations read so far apply to this new receiver.
            self.up = None;
            self.output = None;
            self.pending_noted = 0;
            for a in std::mem::take(&mut self.pending) {
                if let Some(h) = a.hemisphere {
                    self.hemisphere = Some((h, a.loc.clone()));
                }
                if a.up.is_some() {
                    self.up = a.up;
                }
                if a.output.is_some() {
                    self.output = a.output;
                }
            }
            self.current = Some(Group {
                modifier: modifier.into(),
                loc: loc.clone(),
                surfaces: Vec::new(),
                nrm: [0.0; 3],
            });
        } else {
            // Annotations among one receiver's surfaces wait for the next receiver.
            for a in &self.pending[self.pending_noted..] {
                self.warnings.push(format!(
                    "{}: this #@rfluxmtx line sits among the surfaces of receiver '{modifier}' \
                     and so, as in rfluxmtx, applies to the next receiver modifier",
                    a.loc
                ));
            }
            self.pending_noted = self.pending.len();
        }
        // An empty real list: rfluxmtx skips the surface without a word.
        let Some((normal, area)) = surface_geometry(kind, name, f, loc)? else {
            return Ok(());
        };
        if area <= 1e-12 {
            self.warnings.push(format!(
                "{loc}: {kind} '{name}' has zero area and is left out of receiver '{modifier}'"
            ));
            return Ok(());
        }
        let g = self.current.as_mut().expect("group opened above");
        for (s, c) in g.nrm.iter_mut().zip(normal) {
            *s += area * c;
        }
        g.surfaces.push(ReceiverSurface {
            name: name.into(),
            kind,
            normal: DVec3::from_array(normal),
            area,
            loc: loc.clone(),
        });
        Ok(())
    }

    /// Finishes the receiver being gathered (rfluxmtx's `finish_receiver`).
    fn close(&mut self) -> Result<(), RfluxError> {
        let Some(g) = self.current.take() else {
            return Ok(());
        };
        self.done.insert(g.modifier.clone());
        let first = g.loc.clone();
        if g.surfaces.is_empty() {
            return Err(located(
                &first,
                format!(
                    "receiver '{}' has no surface with an area (rfluxmtx: undefined normal for \
                     hemisphere sampling)",
                    g.modifier
                ),
            ));
        }
        let Some((hemisphere, hloc)) = self.hemisphere.clone() else {
            return Err(located(
                &first,
                format!(
                    "receiver '{}' has no hemisphere sampling type: put '#@rfluxmtx h=...' (u, kf, \
                     kh, kq, rN, scN or cie) before its first surface",
                    g.modifier
                ),
            ));
        };
        let mut nrm = g.nrm;
        if normalize(&mut nrm) == 0.0 {
            return Err(located(
                &first,
                format!(
                    "receiver '{}': the normals of its surfaces cancel (undefined normal for \
                     hemisphere sampling)",
                    g.modifier
                ),
            ));
        }
        let mut up = self.up.map_or([0.0; 3], |u| u.to_array());
        if normalize(&mut up) == 0.0 {
            up = if nrm[2].abs() < 0.7 {
                [0.0, 0.0, 1.0]
            } else {
                [0.0, 1.0, 0.0]
            };
        }
        let basis = hemisphere.basis().map_err(|m| located(&hloc, m))?;
        if basis != Basis::Uniform {
            for s in &g.surfaces {
                if s.kind == SurfaceKind::Source && (s.area - PI).abs() > 1e-3 {
                    return Err(located(
                        &s.loc,
                        format!(
                            "source '{}' of receiver '{}' must be 180 degrees for h={} (only h=u \
                             takes smaller sources)",
                            s.name, g.modifier, hemisphere.text
                        ),
                    ));
                }
            }
            let n = DVec3::from_array(nrm);
            if n.cross(DVec3::from_array(up)).length_squared() < 1e-12 {
                self.warnings.push(format!(
                    "{first}: receiver '{}': its up vector is parallel to its normal, so the \
                     azimuths of its bins are undefined (rfluxmtx goes on regardless)",
                    g.modifier
                ));
            }
        }
        self.receivers.push(Receiver {
            modifier: g.modifier,
            hemisphere,
            basis,
            normal: DVec3::from_array(nrm),
            up: DVec3::from_array(up),
            output: self.output.take(),
            surfaces: g.surfaces,
        });
        Ok(())
    }

    fn finish(mut self, source: &str) -> Result<Receivers, RfluxError> {
        self.close()?;
        if self.receivers.is_empty() {
            return Err(RfluxError::File {
                file: source.into(),
                msg: "no receiver surface: rfluxmtx needs a polygon, ring or source after a \
                      '#@rfluxmtx h=...' line"
                    .into(),
            });
        }
        for a in &self.pending {
            self.warnings.push(format!(
                "{}: this #@rfluxmtx line follows the last receiver and applies to none",
                a.loc
            ));
        }
        for (m, k, n, loc) in &self.others {
            if self.done.contains(m) {
                self.warnings.push(format!(
                    "{loc}: {k} '{n}' uses receiver modifier '{m}': rfluxmtx leaves it out of the \
                     receiver's normal, but rays that hit it are still counted"
                ));
            }
        }
        Ok(Receivers {
            receivers: self.receivers,
            warnings: self.warnings,
        })
    }
}

/// An argument count (`name` and `what` for the message).
fn count(sc: &mut Scan, name: &str, what: &str) -> Result<usize, RfluxError> {
    match sc.word() {
        Some((w, loc)) => w.parse::<usize>().map_err(|_| {
            located(
                &loc,
                format!("'{name}': expected the number of {what} arguments, found '{w}'"),
            )
        }),
        None => Err(located(
            &sc.loc(),
            format!("'{name}': the file ends before its {what} arguments"),
        )),
    }
}

/// rfluxmtx's polygon normal (sum of the fan's cross products, normalised) and area.
fn polygon_normal_area(f: &[f64]) -> ([f64; 3], f64) {
    let v = |i: usize| [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let v0 = v(0);
    let mut n = [0.0; 3];
    let mut e1 = sub(v(1), v0);
    for i in 2..f.len() / 3 {
        let e2 = sub(v(i), v0);
        n[0] += e1[1] * e2[2] - e1[2] * e2[1];
        n[1] += e1[2] * e2[0] - e1[0] * e2[2];
        n[2] += e1[0] * e2[1] - e1[1] * e2[0];
        e1 = e2;
    }
    let area = normalize(&mut n) * 0.5;
    (n, area)
}
