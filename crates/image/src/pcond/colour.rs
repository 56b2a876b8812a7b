//! Colour for pcond: the luminance of a pixel (photopic and scotopic, RGB and XYZ pictures),
//! the mesopic loss of colour (`-c`), conversion to the output device's primaries (`-p`, or a
//! picture in XYZ) with RADIANCE's von Kries white balance and gamut clip, and the device
//! correction of a macbethcal file (`-f`).
//!
//! RADIANCE keeps colours and colour matrices in single precision, so the arithmetic here is
//! `f32` where RADIANCE's is (matrix products, matrix times colour, colour sums) and `f64` where
//! a colour is scaled by a double. RADIANCE 6.0a's build was compiled with reassociating
//! floating point; where that regrouped a single-precision sum (the primaries' matrices, matrix
//! products) the grouping here is the build's, so that matrices come out to the same bits.

use super::histogram::FTINY;
use super::{Encoding, Lum, BOT_MESOPIC, SWNORM, TOP_MESOPIC, WHTEFFICACY};

/// A 3 × 3 colour matrix in single precision, rows first (RADIANCE's `COLORMAT`).
pub type ColourMatrix = [[f32; 3]; 3];

/// RGB primaries and white point as CIE (x, y): red, green, blue, white.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Primaries {
    /// RADIANCE's standard primaries (0.640 0.330, 0.290 0.600, 0.150 0.060, white 1/3 1/3),
    /// whose matrices RADIANCE computes from double-precision constants.
    Standard,
    /// Primaries as read from a header or the command line (single precision, as RADIANCE
    /// stores them).
    Given([f32; 8]),
}

/// Standard primaries in double precision (RADIANCE's `CIE_x_r` ... constants).
const STD_PRIMS: [f64; 8] = [
    0.640,
    0.330,
    0.290,
    0.600,
    0.150,
    0.060,
    1.0 / 3.0,
    1.0 / 3.0,
];

/// The neutral (equal-energy) white, as RADIANCE's single-precision `xyneu`.
const XY_NEUTRAL: [f32; 2] = [1.0 / 3.0, 1.0 / 3.0];

/// Tolerance of RADIANCE's chromaticity comparisons.
const CEPS: f64 = 1e-4;

/// The Sharp adaptation matrix of RADIANCE's von Kries white balance and its inverse.
const VON_KRIES: ColourMatrix = [
    [1.2694, -0.0988, -0.1706],
    [-0.8364, 1.8006, 0.0357],
    [0.0297, -0.0315, 1.0018],
];
const VON_KRIES_INV: ColourMatrix = [
    [0.8156, 0.0472, 0.1372],
    [0.3791, 0.5769, 0.0440],
    [-0.0123, 0.0167, 0.9955],
];

impl Primaries {
    /// The eight chromaticities as doubles (the standard set at full precision).
    fn values(&self) -> [f64; 8] {
        match self {
            Primaries::Standard => STD_PRIMS,
            Primaries::Given(p) => p.map(f64::from),
        }
    }

    /// The chromaticities as RADIANCE stores them (single precision).
    pub fn stored(&self) -> [f32; 8] {
        match self {
            Primaries::Standard => STD_PRIMS.map(|v| v as f32),
            Primaries::Given(p) => *p,
        }
    }

    fn white(&self) -> [f32; 2] {
        let s = self.stored();
        [s[6], s[7]]
    }
}

fn close(a: f64, b: f64) -> bool {
    a <= b + CEPS && b <= a + CEPS
}

fn xy_equal(a: [f32; 2], b: [f32; 2]) -> bool {
    close(a[0].into(), b[0].into()) && close(a[1].into(), b[1].into())
}

const IDENTITY: ColourMatrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// `a × b` in single precision, as RADIANCE 6.0a's build multiplies colour matrices: its
/// compiler vectorised the products and sums the first four elements (row by row) as
/// (p0 + p2) + p1, the rest as (p0 + p1) + p2.
fn mat_mul(a: &ColourMatrix, b: &ColourMatrix) -> ColourMatrix {
    let mut m = [[0.0f32; 3]; 3];
    for (e, v) in m.iter_mut().flatten().enumerate() {
        let (i, j) = (e / 3, e % 3);
        let p = [a[i][0] * b[0][j], a[i][1] * b[1][j], a[i][2] * b[2][j]];
        *v = if e < 4 {
            (p[0] + p[2]) + p[1]
        } else {
            (p[0] + p[1]) + p[2]
        };
    }
    m
}

/// `m × c` in single precision (RADIANCE's `colortrans`).
pub fn transform(m: &ColourMatrix, c: [f32; 3]) -> [f32; 3] {
    [
        m[0][0] * c[0] + m[0][1] * c[1] + m[0][2] * c[2],
        m[1][0] * c[0] + m[1][1] * c[1] + m[1][2] * c[2],
        m[2][0] * c[0] + m[2][1] * c[1] + m[2][2] * c[2],
    ]
}

/// The white-scaled denominators of the standard primaries' conversion (C_r·D, C_g·D, C_b·D)
/// and the determinant D, in double precision as RADIANCE's compile-time tables have them.
fn standard_terms() -> ([f64; 3], f64) {
    let [xr, yr, xg, yg, xb, yb, xw, yw] = STD_PRIMS;
    let cr = xw * (yg - yb) - yw * (xg - xb) + xg * yb - xb * yg;
    let cg = xw * (yb - yr) - yw * (xb - xr) - xr * yb + xb * yr;
    let cb = xw * (yr - yg) - yw * (xr - xg) + xr * yg - xg * yr;
    let d = xr * (yg - yb) + xg * (yb - yr) + xb * (yr - yg);
    ([(1.0 / yw) * cr, (1.0 / yw) * cg, (1.0 / yw) * cb], d)
}

/// RGB to CIE XYZ for primaries `p` (white maps to the primaries' white), `None` for
/// degenerate primaries.
///
/// For stored primaries the arithmetic is grouped as in RADIANCE 6.0a's build (whose compiler
/// regrouped the single-precision sums and turned `x·C/D` into `x·(1/D)·C`), so that a
/// picture's luminance coefficients come out to the same bits.
pub fn rgb_to_xyz(p: &Primaries) -> Option<ColourMatrix> {
    let [xr, yr, xg, yg, xb, yb, xw, yw] = p.values();
    if close(xw, 0.0) || close(yw, 0.0) {
        return None;
    }
    let f = |x: f64| x as f32;
    let ([cr, cg, cb], d) = match p {
        Primaries::Standard => standard_terms(),
        Primaries::Given(v) => {
            let [xr, yr, xg, yg, xb, yb, xw, yw] = *v;
            let d = xr * (yg - yb) + xg * (yb - yr) + xb * (yr - yg);
            let iyw = 1.0 / f64::from(yw);
            let cr = ((xb - xg) * yw + yb * xg) + ((yg - yb) * xw - yg * xb);
            let cg = ((xr - xb) * yw + xb * yr) + ((yb - yr) * xw - yb * xr);
            let cb = ((xg - xr) * yw + yg * xr) + ((yr - yg) * xw - xg * yr);
            if close(d.into(), 0.0) {
                return None;
            }
            let inv = 1.0 / f64::from(d);
            let c = [cr, cg, cb].map(|c| f64::from(c) * iyw);
            let x = [xr, xg, xb].map(f64::from);
            let y = [yr, yg, yb].map(f64::from);
            return Some([
                std::array::from_fn(|k| f(x[k] * inv * c[k])),
                std::array::from_fn(|k| f(y[k] * inv * c[k])),
                std::array::from_fn(|k| f((1.0 - (x[k] + y[k])) * inv * c[k])),
            ]);
        }
    };
    if close(d, 0.0) {
        return None;
    }
    Some([
        [f(xr * cr / d), f(xg * cg / d), f(xb * cb / d)],
        [f(yr * cr / d), f(yg * cg / d), f(yb * cb / d)],
        [
            f((1.0 - xr - yr) * cr / d),
            f((1.0 - xg - yg) * cg / d),
            f((1.0 - xb - yb) * cb / d),
        ],
    ])
}

/// CIE XYZ to RGB for primaries `p`, `None` for degenerate primaries.
///
/// For stored primaries the single-precision sums are grouped as RADIANCE 6.0a's build groups
/// them (and each row divided through one reciprocal), so that the matrix has the same bits.
pub fn xyz_to_rgb(p: &Primaries) -> Option<ColourMatrix> {
    let [xr, yr, xg, yg, xb, yb, xw, yw] = p.values();
    if close(xw, 0.0) || close(yw, 0.0) {
        return None;
    }
    let f = |x: f64| x as f32;
    if let Primaries::Given(v) = p {
        let [xr, yr, xg, yg, xb, yb, xw, yw] = *v;
        let iyw = 1.0 / f64::from(yw);
        let c = [
            ((xb - xg) * yw + yb * xg) + (xw * (yg - yb) - yg * xb),
            (xw * (yb - yr) + yw * (xr - xb)) + (xb * yr - yb * xr),
            (xw * (yr - yg) + yw * (xg - xr)) + (yg * xr - xg * yr),
        ]
        .map(|c| f64::from(c) * iyw);
        if c.iter().any(|&c| close(c, 0.0)) {
            return None;
        }
        let num = [
            [
                ((yg - yb) + yb * xg) - yg * xb,
                (xg * (yb - 1.0) - yg * xb) + xb,
                xg * yb - xb * yg,
            ],
            [
                (yr * (xb - 1.0) - xr * yb) + yb,
                (xb * (yr - 1.0) - xr * yb) + xr,
                xb * yr - xr * yb,
            ],
            [
                (yg * (xr - 1.0) - xg * yr) + yr,
                (xr * (yg - 1.0) - yr * xg) + xg,
                xr * yg - xg * yr,
            ],
        ];
        return Some(std::array::from_fn(|i| {
            let inv = 1.0 / c[i];
            num[i].map(|n| f(f64::from(n) * inv))
        }));
    }
    let ([cr, cg, cb], _) = standard_terms();
    if close(cr, 0.0) || close(cg, 0.0) || close(cb, 0.0) {
        return None;
    }
    Some([
        [
            f((yg - yb - xb * yg + yb * xg) / cr),
            f((xb - xg - xb * yg + xg * yb) / cr),
            f((xg * yb - xb * yg) / cr),
        ],
        [
            f((yb - yr - yb * xr + yr * xb) / cg),
            f((xr - xb - xr * yb + xb * yr) / cg),
            f((xb * yr - xr * yb) / cg),
        ],
        [
            f((yr - yg - yr * xg + yg * xr) / cb),
            f((xg - xr - xg * yr + xr * yg) / cb),
            f((xr * yg - xg * yr) / cb),
        ],
    ])
}

/// The von Kries adaptation (in Sharp primaries) of XYZ from white `w1` to white `w2`.
fn white_balance(w1: [f32; 2], w2: [f32; 2]) -> Option<ColourMatrix> {
    if xy_equal(w1, w2) {
        return Some(IDENTITY);
    }
    let cone = |w: [f32; 2]| -> Option<[f32; 3]> {
        if close(w[0].into(), 0.0) || close(w[1].into(), 0.0) {
            return None;
        }
        let (x, y) = (f64::from(w[0]), f64::from(w[1]));
        let c = [w[0] / w[1], 1.0, ((1.0 - x - y) / y) as f32];
        Some(transform(&VON_KRIES, c))
    };
    let c1 = cone(w1)?;
    let c2 = cone(w2)?;
    if c1.iter().any(|&v| close(v.into(), 0.0)) {
        return None;
    }
    let mut d = [[0.0f32; 3]; 3];
    for k in 0..3 {
        d[k][k] = c2[k] / c1[k];
    }
    Some(mat_mul(&VON_KRIES_INV, &mat_mul(&d, &VON_KRIES)))
}

/// RGB to XYZ with the primaries' white balanced to the neutral white (RADIANCE's
/// `comprgb2xyzWBmat`): how pcond finds an RGB picture's luminance.
pub fn rgb_to_xyz_balanced(p: &Primaries) -> Option<ColourMatrix> {
    let m = rgb_to_xyz(p)?;
    if xy_equal(p.white(), XY_NEUTRAL) {
        return Some(m);
    }
    Some(mat_mul(&white_balance(p.white(), XY_NEUTRAL)?, &m))
}

/// XYZ (neutral white) to RGB of primaries `p` with white balance (`compxyz2rgbWBmat`).
pub fn xyz_to_rgb_balanced(p: &Primaries) -> Option<ColourMatrix> {
    let m = xyz_to_rgb(p)?;
    if xy_equal(p.white(), XY_NEUTRAL) {
        return Some(m);
    }
    Some(mat_mul(&m, &white_balance(XY_NEUTRAL, p.white())?))
}

/// RGB of primaries `p1` to RGB of primaries `p2`, white balanced (`comprgb2rgbWBmat`).
pub fn rgb_to_rgb_balanced(p1: &Primaries, p2: &Primaries) -> Option<ColourMatrix> {
    let to_xyz = rgb_to_xyz(p1)?;
    let wb = white_balance(p1.white(), p2.white())?;
    let from_xyz = xyz_to_rgb(p2)?;
    Some(mat_mul(&from_xyz, &mat_mul(&wb, &to_xyz)))
}

/// RADIANCE's `bright()`: the standard primaries' Y row in double precision.
fn bright(c: [f32; 3]) -> f64 {
    static WEIGHTS: std::sync::OnceLock<[f64; 3]> = std::sync::OnceLock::new();
    let w = WEIGHTS.get_or_init(|| {
        let p = STD_PRIMS;
        let ([cr, cg, cb], d) = standard_terms();
        [p[1] * cr / d, p[3] * cg / d, p[5] * cb / d]
    });
    w[0] * f64::from(c[0]) + w[1] * f64::from(c[1]) + w[2] * f64::from(c[2])
}

/// The grey a colour is desaturated towards when it leaves the gamut: the brightness of the
/// colour with each channel cut to 0..1.
pub fn grey_point(c: [f32; 3]) -> f64 {
    bright(c.map(|v| v.clamp(0.0, 1.0)))
}

/// RADIANCE's `clipgamut` (both limits): a colour brighter than the cube is `upper`, darker
/// `lower`; otherwise a channel outside `lower..upper` moves the whole colour towards the grey
/// of brightness `brt` until it is inside.
pub fn clip_gamut(c: &mut [f32; 3], brt: f64, lower: [f32; 3], upper: [f32; 3]) {
    let brtmin = 1.0 / 3.0 * f64::from(lower[0] + lower[1] + lower[2]);
    if brt < brtmin {
        *c = lower;
        return;
    }
    let brtmax = 1.0 / 3.0 * f64::from(upper[0] + upper[1] + upper[2]);
    if brt > brtmax {
        *c = upper;
        return;
    }
    let v = (brt - brtmin) / (brtmax - brtmin);
    let grey: [f32; 3] =
        std::array::from_fn(|i| (v * f64::from(upper[i]) + (1.0 - v) * f64::from(lower[i])) as f32);
    let mut vv = 1.0f64;
    let mut clipped = false;
    for i in 0..3 {
        let limit = if c[i] < lower[i] {
            lower[i]
        } else if c[i] > upper[i] {
            upper[i]
        } else {
            continue;
        };
        let t = (limit - grey[i]) / (c[i] - grey[i]);
        vv = vv.min(f64::from(t));
        clipped = true;
    }
    if clipped {
        for i in 0..3 {
            c[i] = (vv * f64::from(c[i]) + (1.0 - vv) * f64::from(grey[i])) as f32;
        }
    }
}

/// A macbethcal calibration (`-f`): a colour matrix, then per channel a piecewise-linear
/// curve through six (x, y) points; the gamut is the curves' extrapolation to 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Macbeth {
    pub matrix: ColourMatrix,
    pub xa: [[f32; 6]; 3],
    pub ya: [[f32; 6]; 3],
    pub min: [f32; 3],
    pub max: [f32; 3],
}

/// A piece of a C `scanf` format: literal text (white space matching any run of white
/// space) or a `%f` number.
fn scan_floats(line: &str, format: &str) -> Vec<f32> {
    let s = line.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let mut f = format.as_bytes().iter().peekable();
    while let Some(&c) = f.next() {
        if c == b'%' {
            f.next();
            while i < s.len() && s[i].is_ascii_whitespace() {
                i += 1;
            }
            let rest = std::str::from_utf8(&s[i..]).unwrap_or("");
            let Some((v, n)) = c_strtod(rest) else {
                return out;
            };
            out.push(v as f32);
            i += n;
        } else if c.is_ascii_whitespace() {
            while i < s.len() && s[i].is_ascii_whitespace() {
                i += 1;
            }
        } else {
            if i >= s.len() || s[i] != c {
                return out;
            }
            i += 1;
        }
    }
    out
}

/// The longest prefix of `s` that is a decimal number, as C's `strtod` reads it: the value
/// and the bytes used.
pub fn c_strtod(s: &str) -> Option<(f64, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut nd = i - digits_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        nd += i - f0;
    }
    if nd == 0 {
        return None;
    }
    let mut end = i;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let e0 = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > e0 {
            end = j;
        }
    }
    s[..end].parse().ok().map(|v| (v, end))
}

/// C's `atof`: the leading number of `s` after white space, 0 when there is none.
pub fn c_atof(s: &str) -> f64 {
    let t = s.trim_start();
    c_strtod(t).map_or(0.0, |(v, _)| v)
}

impl Macbeth {
    /// Reads a macbethcal output file (the `rxa(i) : select(i,...)`-style lines and the
    /// `ro = ...*rn + ...` matrix rows); `None` names the parts missing as RADIANCE's flag
    /// word (octal) when the file lacks any.
    pub fn parse(text: &str) -> Result<Macbeth, u32> {
        let mut m = Macbeth {
            matrix: [[0.0; 3]; 3],
            xa: [[0.0; 6]; 3],
            ya: [[0.0; 6]; 3],
            min: [0.0; 3],
            max: [0.0; 3],
        };
        let mut flags = 0u32;
        let curves = ["rxa", "rya", "gxa", "gya", "bxa", "bya"];
        let rows = ["ro", "go", "bo"];
        for line in text.lines() {
            let mut done = false;
            for (k, name) in curves.iter().enumerate() {
                if flags & (1 << k) != 0 {
                    continue;
                }
                let v = scan_floats(line, &format!("{name}(i) : select(i,%f,%f,%f,%f,%f,%f)"));
                if v.len() == 6 {
                    let target = if k % 2 == 0 {
                        &mut m.xa[k / 2]
                    } else {
                        &mut m.ya[k / 2]
                    };
                    target.copy_from_slice(&v);
                    flags |= 1 << k;
                    done = true;
                    break;
                }
            }
            if done {
                continue;
            }
            for (k, name) in rows.iter().enumerate() {
                if flags & (0o100 << k) != 0 {
                    continue;
                }
                let v = scan_floats(line, &format!("{name} = %f*rn + %f*gn + %f*bn"));
                if v.len() == 3 {
                    m.matrix[k].copy_from_slice(&v);
                    flags |= 0o100 << k;
                    break;
                }
            }
        }
        if flags != 0o777 {
            return Err(flags);
        }
        for i in 0..3 {
            let (x, y) = (m.xa[i], m.ya[i]);
            m.min[i] = x[0] - y[0] * (x[1] - x[0]) / (y[1] - y[0]);
            m.max[i] = (f64::from(x[4])
                + (1.0 - f64::from(y[4])) * f64::from(x[5] - x[4]) / f64::from(y[5] - y[4]))
                as f32;
        }
        Ok(m)
    }

    /// Corrects one output colour for the device.
    pub fn apply(&self, c: &mut [f32; 3]) {
        *c = transform(&self.matrix, *c);
        clip_gamut(c, grey_point(*c), self.min, self.max);
        for (i, ci) in c.iter_mut().enumerate() {
            let d = f64::from(*ci);
            let (xa, ya) = (&self.xa[i], &self.ya[i]);
            let mut j = 0;
            while j < 4 && f64::from(xa[j + 1]) <= d {
                j += 1;
            }
            let (x0, x1) = (f64::from(xa[j]), f64::from(xa[j + 1]));
            *ci = (((x1 - d) * f64::from(ya[j]) + (d - x0) * f64::from(ya[j + 1]))
                / f64::from(xa[j + 1] - xa[j])) as f32;
        }
    }
}

/// The mesopic loss of colour: below 5.62 cd/m² a pixel's colour fades towards the grey of
/// its scotopic luminance, all grey below 0.00562 cd/m².
pub(super) fn scotopic_scan(scan: &mut [[f32; 3]], lum: &Lum) {
    for c in scan.iter_mut() {
        let lw = lum.photopic(*c);
        let incolor = if lw >= TOP_MESOPIC {
            1.0
        } else if lw <= BOT_MESOPIC {
            0.0
        } else {
            (lw - BOT_MESOPIC) / (TOP_MESOPIC - BOT_MESOPIC)
        };
        if incolor < 1.0 - FTINY {
            let mut b = (1.0 - incolor) * (lum.scotopic_raw(*c) / lum.inpexp) * lum.inpexp / SWNORM;
            if lum.encoding == Encoding::Rgb {
                b /= WHTEFFICACY;
            }
            let grey = b as f32;
            if incolor <= FTINY {
                *c = [0.0; 3];
            } else {
                *c = c.map(|v| (f64::from(v) * incolor) as f32);
            }
            for v in c.iter_mut() {
                *v += grey;
            }
        }
    }
}
