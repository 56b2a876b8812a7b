//! RADIANCE 6's spectral patterns as its three-channel programs render them: `spectrum`,
//! `specfile`, `specfunc`, `specdata` and `specpict`. Each yields a spectrum that is turned into an RGB
//! colour multiplying the modified colour, the way RADIANCE converts it:
//!
//! - The samples are taken as equal bins over their wavelength range (a sample's wavelength
//!   is its bin's centre). A range given from long to short wavelengths with at most 24 bins
//!   is used as it is; anything else is first resampled, each new bin the overlap-weighted
//!   mean of the old ones (zero outside them), onto n equal bins over 780–380 nm, n the
//!   number of input bins times 400 nm over their span, rounded up, at most 24.
//! - The bins are integrated against the CIE 1931 2° observer: RADIANCE's running sums of x̄,
//!   ȳ, z̄ per whole nanometre (each reaching 65535), bin edges truncated to whole nanometres.
//! - XYZ goes to RGB with RADIANCE's primaries (0.640, 0.330), (0.290, 0.600),
//!   (0.150, 0.060) and the equal-energy white, so a flat spectrum of 1 gives (1, 1, 1); a
//!   negative Y gives black and a colour with a negative channel is desaturated towards the
//!   grey of its Y until that channel is 0.
//! - Exactly three bins are taken as red, green and blue directly.
//!
//! `specfunc` samples its function at jittered wavelengths as RADIANCE does; the jitter here
//! is a hash of the hit, so a ray's value does not depend on threads.

use crate::data::DataArray;
use crate::material::{frame, pattern, Modifier, PatternKind, PatternRay};
use daylit_cal::{CalEnv, EvalState, ExprId, FuncId};
use daylit_scene::{PrimType, Primitive};
use glam::DVec3;
use std::sync::Arc;

/// Most bins RADIANCE converts directly.
const MAX_BINS: usize = 24;
/// The visible range RADIANCE's RGB covers, long end first (nm).
const VISIBLE: (f64, f64) = (780.0, 380.0);

/// One colour-matching function as running sums per nanometre.
struct Observer {
    first: i32,
    last: i32,
    cumul: &'static [u16],
}

impl Observer {
    /// The running sum up to wavelength `w` (0 below the table, 65535 above).
    fn at(&self, w: i32) -> f64 {
        self.cumul[(w.clamp(self.first, self.last) - self.first) as usize] as f64
    }

    /// The integral of `bins` (long wavelength first) spread over `long`..`short` nm.
    fn integrate(&self, bins: &[f64], long: f32, short: f32) -> f64 {
        let n = bins.len();
        let step = (long as f64 - short as f64) / n as f64;
        let mut lo = short as i32;
        let mut sum = 0.0;
        for k in 0..n {
            let hi = (short as f64 + (k + 1) as f64 * step) as i32;
            sum += (self.at(hi) - self.at(lo)) * bins[n - 1 - k];
            lo = hi;
        }
        sum / 65535.0
    }
}

/// RGB of `bins` (long wavelength first) spread evenly over `long`..`short` nm.
fn bins_to_rgb(bins: &[f64], long: f32, short: f32) -> DVec3 {
    if bins.len() == 3 {
        return DVec3::new(bins[0], bins[1], bins[2]);
    }
    let xyz = DVec3::new(
        CIE_X.integrate(bins, long, short),
        CIE_Y.integrate(bins, long, short),
        CIE_Z.integrate(bins, long, short),
    );
    daylit_image::color::cie_rgb(xyz)
}

/// `src` as equal bins from `s0` to `s1` nm (either order), averaged into `n` bins from
/// `d0` down to `d1` nm by overlap (zero where no source bin is).
fn resample(src: &[f64], s0: f64, s1: f64, n: usize, d0: f64, d1: f64) -> Vec<f64> {
    if n == src.len() && (d0 - s0).powi(2) + (d1 - s1).powi(2) <= 0.5 {
        return src.to_vec();
    }
    let sstep = (s1 - s0) / src.len() as f64;
    let dstep = (d0 - d1) / n as f64;
    let mut out = vec![0.0; n];
    for (k, &v) in src.iter().enumerate() {
        let (a, b) = (s0 + k as f64 * sstep, s0 + (k + 1) as f64 * sstep);
        let (lo, hi) = (a.min(b), a.max(b));
        for (j, o) in out.iter_mut().enumerate() {
            let top = d0 - j as f64 * dstep;
            let bottom = top - dstep;
            let overlap = hi.min(top) - lo.max(bottom);
            if overlap > 0.0 {
                *o += v * overlap / dstep;
            }
        }
    }
    out
}

/// The RGB colour of a spectrum of equal bins from `s0` to `s1` nm, as RADIANCE converts a
/// spectrum for three-channel rendering.
pub fn spectrum_to_rgb(src: &[f64], s0: f64, s1: f64) -> DVec3 {
    // RADIANCE keeps spectra in single precision.
    let src: Vec<f64> = src.iter().map(|&v| v as f32 as f64).collect();
    if src.len() <= MAX_BINS && s0 > s1 {
        return bins_to_rgb(&src, s0 as f32, s1 as f32);
    }
    let span = (VISIBLE.0 - VISIBLE.1) as f32 as f64;
    let n = ((src.len() as f64 * span / (s0 - s1).abs() + 0.99) as usize).min(MAX_BINS);
    if n < 3 {
        return DVec3::ZERO;
    }
    let bins = resample(&src, s0, s1, n, VISIBLE.0, VISIBLE.1);
    let bins: Vec<f64> = bins.iter().map(|&v| v as f32 as f64).collect();
    bins_to_rgb(&bins, VISIBLE.0 as f32, VISIBLE.1 as f32)
}

/// `spectrum`: reals `nm_a nm_b s1 s2 …`, samples evenly from nm_a to nm_b.
pub fn spectrum(f: &[f64]) -> Result<DVec3, String> {
    if f.len() < 5 {
        return Err(format!(
            "needs two wavelengths and at least three values, has {} real arguments",
            f.len()
        ));
    }
    let half = 0.5 * (f[1] - f[0]) / (f.len() as f64 - 3.0);
    Ok(spectrum_to_rgb(&f[2..], f[0] - half, f[1] + half))
}

/// `specfile`: a one-dimensional data file of values by wavelength, sampled evenly over its
/// range (at its points when they are even). For unevenly spaced points RADIANCE samples
/// twice as many wavelengths but converts only the first half of them, spread over the whole
/// range; its 6.0a binary does so (`tests/golden/pict`, `uneven.dat`), and so does daylit.
pub fn specfile(d: &DataArray) -> Result<DVec3, String> {
    if d.dims() != 1 {
        return Err(format!(
            "the data file must be one-dimensional, it has {} dimensions",
            d.dims()
        ));
    }
    let (org, span, n) = d.axis(0);
    let samples = if d.uneven(0) { 2 * n } else { n };
    let step = span / (samples as f64 - 1.0);
    let v: Vec<f64> = (0..n).map(|k| d.value(&[org + k as f64 * step])).collect();
    Ok(spectrum_to_rgb(
        &v,
        org - 0.5 * step,
        org + span + 0.5 * step,
    ))
}

/// A spectral pattern evaluated per ray.
#[derive(Clone, Debug)]
pub enum Spectral {
    /// `spectrum`, `specfile`: one colour.
    Constant(DVec3),
    /// `specfunc`: a function of wavelength over `range` (short, long), clipped to 380–780.
    Func {
        /// The function.
        func: FuncId,
        /// Shortest and longest wavelength (nm); `None` when outside the visible range,
        /// where RADIANCE leaves the colour alone.
        range: Option<(f64, f64)>,
    },
    /// `specdata`: a data file whose last dimension is wavelength.
    Data {
        /// Applied to (value, wavelength).
        func: FuncId,
        /// The data.
        data: Arc<DataArray>,
        /// One expression per dimension but the last.
        coords: Vec<ExprId>,
    },
    /// `specpict`: a hyperspectral picture.
    Pict {
        /// Applied to (value, wavelength).
        func: FuncId,
        /// The picture.
        pict: Arc<SpecPicture>,
        /// The expressions for x and y.
        coords: [ExprId; 2],
    },
}

impl Spectral {
    /// The wavelength range of a `specfunc` from its first two reals.
    pub fn func_range(f: &[f64]) -> Option<(f64, f64)> {
        let (lo, hi) = (f[0].min(f[1]), f[0].max(f[1]));
        let (lo, hi) = (lo.max(VISIBLE.1), hi.min(VISIBLE.0));
        (lo < hi).then_some((lo, hi))
    }

    /// The colour at this hit; `seed` feeds `specfunc`'s jitter.
    pub fn color(&self, cal: &CalEnv, st: &mut EvalState, ray: &PatternRay, seed: u64) -> DVec3 {
        match self {
            Spectral::Constant(c) => *c,
            Spectral::Func { func, range } => {
                let Some((lo, hi)) = *range else {
                    return DVec3::ONE;
                };
                let step = ((hi - lo) / MAX_BINS as f64).max(0.25 / 3.0 * (VISIBLE.0 - VISIBLE.1));
                let n = ((hi - lo) / step + 0.1) as usize;
                let mut v = vec![0.0; n];
                let mut wl = hi - 0.5 * step;
                for (k, s) in v.iter_mut().enumerate().rev() {
                    let u = unit(seed, k as u64);
                    let w = wl + 0.9 * (0.5 - u) * step;
                    *s = cal.call(*func, &[w], st, ray);
                    wl -= step;
                }
                spectrum_to_rgb(&v, lo, hi)
            }
            Spectral::Data { func, data, coords } => {
                let pt: Vec<f64> = coords.iter().map(|&e| cal.eval_expr(e, st, ray)).collect();
                let vals = data.vector(&pt);
                let (org, span, n) = data.axis(data.dims() - 1);
                let step = span / (n as f64 - 1.0);
                let v: Vec<f64> = vals
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| cal.call(*func, &[x, org + k as f64 * step], st, ray))
                    .collect();
                spectrum_to_rgb(&v, org - 0.5 * step, org + span + 0.5 * step)
            }
            Spectral::Pict { func, pict, coords } => {
                let x = cal.eval_expr(coords[0], st, ray);
                let y = cal.eval_expr(coords[1], st, ray);
                let vals = pict.value(x, y);
                let n = vals.len();
                let (long, short) = pict.range;
                let step = (short - long) / n as f64;
                let first = long + 0.5 * step;
                let v: Vec<f64> = vals
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| cal.call(*func, &[x, first + k as f64 * step], st, ray))
                    .collect();
                spectrum_to_rgb(&v, long, short)
            }
        }
    }
}

/// A hyperspectral picture (`FORMAT=Radiance_spectra`): per pixel `NCOMP` mantissas from
/// the long wavelength end and a shared exponent, flat scanlines from the top; the
/// wavelength range is the first and last of `WAVELENGTH_SPLITS=`. Looked up like a
/// `colorpict` picture (see [`crate::picture`]), bilinearly, bin by bin.
#[derive(Clone, Debug)]
pub struct SpecPicture {
    nx: usize,
    ny: usize,
    nc: usize,
    span: [f64; 2],
    /// Long and short end of the wavelength range (nm).
    range: (f64, f64),
    /// `nc + 1` bytes per pixel, rows from the bottom.
    bytes: Vec<u8>,
}

impl SpecPicture {
    /// Reads a hyperspectral picture; the error names the file and what is wrong.
    pub fn load(path: &std::path::Path) -> Result<SpecPicture, String> {
        let b = std::fs::read(path)
            .map_err(|e| format!("hyperspectral picture {}: cannot read: {e}", path.display()))?;
        SpecPicture::decode(&b)
            .map_err(|e| format!("hyperspectral picture {}: {e}", path.display()))
    }

    /// Decodes the bytes of a hyperspectral picture.
    pub fn decode(b: &[u8]) -> Result<SpecPicture, String> {
        let mut pos = 0;
        let mut line_no = 0;
        let next_line = |pos: &mut usize| -> Option<String> {
            let end = b[*pos..].iter().take(1 << 16).position(|&c| c == b'\n')?;
            let l = String::from_utf8_lossy(&b[*pos..*pos + end]).into_owned();
            *pos += end + 1;
            Some(l)
        };
        let (mut nc, mut range, mut aspect) = (0usize, None, 1.0f64);
        loop {
            line_no += 1;
            let l = next_line(&mut pos).ok_or("header not ended by an empty line")?;
            if line_no == 1 && !l.starts_with("#?") {
                return Err("not a RADIANCE picture: first line does not start with \"#?\"".into());
            }
            if l.trim().is_empty() {
                break;
            }
            let bad = |what: &str| format!("header line {line_no}: bad {what}");
            if let Some(v) = l.strip_prefix("NCOMP=") {
                nc = v.trim().parse().map_err(|_| bad("NCOMP="))?;
            } else if let Some(v) = l.strip_prefix("WAVELENGTH_SPLITS=") {
                let w: Vec<f64> = v
                    .split_whitespace()
                    .map(|x| x.parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad("WAVELENGTH_SPLITS="))?;
                if w.len() != 4 {
                    return Err(bad("WAVELENGTH_SPLITS= (four wavelengths)"));
                }
                range = Some((w[0] as f32 as f64, w[3] as f32 as f64));
            } else if let Some(v) = l.strip_prefix("PIXASPECT=") {
                aspect *= v.trim().parse::<f64>().map_err(|_| bad("PIXASPECT="))?;
            } else if let Some(v) = l.strip_prefix("FORMAT=") {
                if v.trim() != "Radiance_spectra" {
                    return Err(format!("FORMAT={} is not Radiance_spectra", v.trim()));
                }
            }
        }
        if !(4..=MAX_BINS).contains(&nc) {
            return Err(format!(
                "NCOMP={nc}: a hyperspectral picture has 4 to {MAX_BINS} components"
            ));
        }
        let range = range
            .filter(|r| r.1 >= 1.0)
            .ok_or("no WAVELENGTH_SPLITS= in the header")?;
        if !(aspect.is_finite() && aspect > 0.0) {
            return Err("PIXASPECT= is not positive".into());
        }
        let res = next_line(&mut pos).ok_or("missing resolution line")?;
        let w: Vec<&str> = res.split_whitespace().collect();
        let dims = (w.len() == 4)
            .then(|| Some((w[1].parse::<usize>().ok()?, w[3].parse::<usize>().ok()?)))
            .flatten()
            .filter(|&(a, c)| a >= 2 && c >= 2 && a.saturating_mul(c) <= 1 << 26);
        let Some((ny, nx)) = dims else {
            return Err(format!(
                "bad resolution line {:?} (at least 2 x 2 pixels)",
                res.trim()
            ));
        };
        let row = nx * (nc + 1);
        if b.len() - pos < row * ny {
            return Err(format!(
                "{} bytes of pixels where {} x {} pixels of {} bytes need {}",
                b.len() - pos,
                nx,
                ny,
                nc + 1,
                row * ny
            ));
        }
        let mut bytes = Vec::with_capacity(row * ny);
        for r in (0..ny).rev() {
            bytes.extend_from_slice(&b[pos + r * row..pos + (r + 1) * row]);
        }
        let (xr, yr) = (nx as f64, ny as f64);
        let span = if xr <= yr * aspect {
            [1.0, aspect * yr / xr]
        } else {
            [xr / yr / aspect, 1.0]
        };
        Ok(SpecPicture {
            nx,
            ny,
            nc,
            span,
            range,
            bytes,
        })
    }

    /// The interpolated spectrum (long wavelength first) at (x, y).
    pub fn value(&self, x: f64, y: f64) -> Vec<f64> {
        let cell = |p: f64, span: f64, n: usize| {
            let g = p / span * (n - 1) as f64;
            let i = if g.is_nan() || g < 0.0 {
                0
            } else {
                (g as usize).min(n - 2)
            };
            (i, crate::data::taper(i, g))
        };
        let (j, wy) = cell(y, self.span[1], self.ny);
        let (i, wx) = cell(x, self.span[0], self.nx);
        let mut out = vec![0.0; self.nc];
        for (row, cy) in [(j, wy.0), (j + 1, wy.1)] {
            if cy.abs() <= 1e-6 {
                continue;
            }
            for (col, cx) in [(i, wx.0), (i + 1, wx.1)] {
                let c = cy * cx;
                let at = (row * self.nx + col) * (self.nc + 1);
                let px = &self.bytes[at..at + self.nc + 1];
                let e = px[self.nc];
                if e == 0 || c.abs() <= 1e-6 {
                    continue;
                }
                let f = c * 2f64.powi(e as i32 - 136);
                for (o, &m) in out.iter_mut().zip(px) {
                    *o += f * (m as f64 + 0.5);
                }
            }
        }
        out
    }
}

/// A uniform number in [0, 1) from a seed and an index (SplitMix64).
fn unit(seed: u64, k: u64) -> f64 {
    let mut z = seed.wrapping_add(k.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// X: first and last wavelength (nm), then the running sum from the first.
const CIE_X: Observer = Observer {
    first: 362,
    last: 774,
    cumul: &[
        0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 23,
        26, 29, 33, 37, 41, 47, 53, 60, 68, 77, 86, 97, 108, 121, 135, 151, 170, 190, 214, 241,
        271, 304, 342, 385, 432, 486, 545, 612, 686, 768, 860, 961, 1073, 1195, 1326, 1467, 1618,
        1776, 1943, 2117, 2298, 2485, 2677, 2875, 3076, 3281, 3489, 3700, 3912, 4125, 4340, 4555,
        4769, 4983, 5197, 5409, 5620, 5830, 6038, 6244, 6448, 6651, 6851, 7049, 7245, 7437, 7627,
        7813, 7995, 8173, 8347, 8517, 8682, 8842, 8996, 9143, 9284, 9418, 9545, 9665, 9778, 9884,
        9984, 10077, 10164, 10245, 10321, 10390, 10454, 10513, 10566, 10615, 10659, 10698, 10734,
        10766, 10794, 10819, 10842, 10861, 10879, 10893, 10906, 10917, 10926, 10933, 10939, 10944,
        10948, 10951, 10953, 10955, 10957, 10958, 10960, 10961, 10964, 10967, 10971, 10977, 10984,
        10994, 11006, 11020, 11038, 11060, 11085, 11114, 11148, 11187, 11231, 11280, 11335, 11396,
        11464, 11537, 11618, 11705, 11799, 11901, 12010, 12126, 12249, 12380, 12518, 12664, 12818,
        12980, 13150, 13328, 13515, 13709, 13913, 14124, 14345, 14574, 14813, 15060, 15317, 15582,
        15858, 16142, 16437, 16741, 17055, 17379, 17713, 18057, 18412, 18776, 19151, 19536, 19931,
        20337, 20753, 21180, 21616, 22063, 22520, 22988, 23465, 23953, 24450, 24957, 25474, 26000,
        26535, 27080, 27633, 28195, 28765, 29343, 29929, 30522, 31122, 31729, 32342, 32961, 33585,
        34215, 34849, 35487, 36129, 36775, 37423, 38073, 38724, 39375, 40027, 40679, 41329, 41978,
        42625, 43270, 43911, 44548, 45181, 45808, 46429, 47044, 47652, 48253, 48845, 49430, 50005,
        50571, 51128, 51674, 52209, 52733, 53245, 53745, 54232, 54706, 55167, 55614, 56048, 56468,
        56876, 57269, 57651, 58019, 58376, 58720, 59052, 59373, 59681, 59979, 60265, 60539, 60803,
        61056, 61298, 61529, 61750, 61962, 62163, 62355, 62538, 62712, 62877, 63034, 63183, 63325,
        63459, 63586, 63706, 63820, 63927, 64028, 64123, 64213, 64297, 64376, 64451, 64520, 64586,
        64647, 64704, 64758, 64808, 64855, 64899, 64941, 64980, 65016, 65051, 65083, 65114, 65143,
        65169, 65194, 65218, 65240, 65260, 65278, 65296, 65312, 65327, 65341, 65354, 65366, 65377,
        65387, 65397, 65406, 65415, 65423, 65430, 65437, 65444, 65450, 65455, 65461, 65466, 65470,
        65475, 65479, 65483, 65486, 65489, 65493, 65495, 65498, 65501, 65503, 65505, 65507, 65509,
        65511, 65513, 65514, 65516, 65517, 65518, 65519, 65520, 65521, 65522, 65523, 65524, 65525,
        65526, 65526, 65527, 65527, 65528, 65528, 65529, 65529, 65530, 65530, 65530, 65531, 65531,
        65531, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533,
        65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
        65534, 65534, 65534, 65535,
    ],
};

/// Y: first and last wavelength (nm), then the running sum from the first.
const CIE_Y: Observer = Observer {
    first: 386,
    last: 760,
    cumul: &[
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8, 10, 11, 12,
        14, 15, 17, 19, 22, 25, 28, 31, 35, 40, 45, 50, 56, 63, 70, 78, 86, 95, 105, 115, 126, 138,
        150, 164, 178, 193, 208, 225, 242, 260, 280, 300, 321, 343, 367, 391, 417, 443, 472, 501,
        532, 564, 598, 633, 670, 708, 748, 790, 833, 879, 926, 975, 1027, 1080, 1136, 1194, 1255,
        1318, 1384, 1453, 1525, 1601, 1679, 1761, 1846, 1935, 2027, 2123, 2223, 2327, 2435, 2548,
        2665, 2787, 2915, 3048, 3187, 3332, 3484, 3643, 3808, 3981, 4162, 4352, 4550, 4757, 4975,
        5203, 5442, 5691, 5952, 6225, 6509, 6805, 7114, 7435, 7769, 8116, 8476, 8849, 9235, 9634,
        10045, 10469, 10904, 11351, 11808, 12275, 12752, 13239, 13734, 14239, 14752, 15273, 15801,
        16337, 16880, 17429, 17984, 18546, 19112, 19684, 20260, 20841, 21426, 22015, 22608, 23203,
        23802, 24403, 25007, 25612, 26220, 26828, 27439, 28050, 28662, 29275, 29888, 30501, 31114,
        31727, 32340, 32951, 33561, 34170, 34777, 35382, 35985, 36585, 37182, 37777, 38368, 38955,
        39539, 40119, 40695, 41266, 41832, 42393, 42950, 43501, 44046, 44586, 45119, 45646, 46167,
        46682, 47189, 47690, 48183, 48670, 49149, 49621, 50085, 50542, 50991, 51432, 51866, 52293,
        52711, 53122, 53524, 53919, 54306, 54685, 55057, 55420, 55775, 56123, 56463, 56795, 57119,
        57435, 57743, 58044, 58337, 58623, 58901, 59172, 59435, 59691, 59939, 60180, 60414, 60640,
        60859, 61070, 61274, 61471, 61661, 61844, 62019, 62188, 62351, 62507, 62657, 62802, 62940,
        63073, 63201, 63323, 63441, 63553, 63660, 63763, 63861, 63954, 64043, 64128, 64208, 64285,
        64358, 64427, 64493, 64555, 64614, 64670, 64723, 64773, 64820, 64865, 64907, 64947, 64984,
        65019, 65052, 65083, 65113, 65140, 65166, 65190, 65212, 65233, 65253, 65271, 65288, 65304,
        65319, 65334, 65347, 65360, 65371, 65383, 65393, 65403, 65412, 65420, 65428, 65435, 65442,
        65449, 65454, 65460, 65465, 65470, 65474, 65478, 65482, 65485, 65488, 65492, 65494, 65497,
        65500, 65502, 65504, 65506, 65508, 65510, 65512, 65513, 65515, 65516, 65517, 65519, 65520,
        65521, 65522, 65523, 65523, 65524, 65525, 65526, 65526, 65527, 65527, 65528, 65528, 65529,
        65529, 65530, 65530, 65530, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65533,
        65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
        65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
    ],
};

/// Z: first and last wavelength (nm), then the running sum from the first.
const CIE_Z: Observer = Observer {
    first: 359,
    last: 624,
    cumul: &[
        0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 16, 19, 22, 25, 28, 32, 37, 41, 47, 52, 59,
        66, 75, 84, 95, 107, 121, 136, 154, 173, 196, 221, 250, 283, 321, 362, 408, 458, 512, 573,
        640, 717, 804, 903, 1015, 1142, 1285, 1446, 1627, 1830, 2058, 2313, 2598, 2917, 3272, 3668,
        4108, 4597, 5135, 5723, 6360, 7044, 7773, 8544, 9356, 10205, 11090, 12006, 12952, 13923,
        14918, 15934, 16967, 18016, 19076, 20148, 21227, 22312, 23401, 24492, 25585, 26678, 27771,
        28861, 29950, 31037, 32121, 33202, 34281, 35355, 36424, 37487, 38542, 39588, 40624, 41647,
        42657, 43652, 44631, 45590, 46527, 47438, 48321, 49173, 49993, 50783, 51542, 52270, 52968,
        53636, 54275, 54885, 55465, 56018, 56543, 57042, 57514, 57961, 58384, 58784, 59162, 59519,
        59856, 60175, 60477, 60762, 61032, 61287, 61529, 61757, 61974, 62179, 62374, 62559, 62734,
        62901, 63059, 63211, 63355, 63492, 63622, 63745, 63862, 63971, 64075, 64172, 64263, 64347,
        64427, 64500, 64569, 64632, 64692, 64747, 64798, 64846, 64891, 64933, 64973, 65010, 65045,
        65078, 65109, 65139, 65166, 65192, 65216, 65239, 65260, 65280, 65298, 65315, 65331, 65345,
        65359, 65371, 65383, 65393, 65403, 65412, 65420, 65428, 65435, 65441, 65447, 65452, 65457,
        65462, 65466, 65470, 65473, 65476, 65479, 65482, 65485, 65487, 65489, 65491, 65493, 65495,
        65497, 65498, 65500, 65501, 65503, 65504, 65505, 65506, 65508, 65509, 65510, 65511, 65512,
        65513, 65514, 65515, 65516, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65523, 65523,
        65524, 65525, 65525, 65526, 65527, 65527, 65528, 65528, 65529, 65529, 65530, 65530, 65531,
        65531, 65531, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65534,
        65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
    ],
};

/// A seed for `specfunc`'s jitter from the hit point and the ray direction.
pub fn seed(s: &crate::ray::Surf) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for v in [s.point, s.dir] {
        for x in v.to_array() {
            h = (h ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
            h ^= h >> 29;
        }
    }
    h
}

impl crate::material::Builder<'_> {
    /// `spectrum`, `specfile`, `specfunc` and `specdata`.
    pub(crate) fn spectral(&mut self, p: &Primitive) -> Result<Modifier, String> {
        let (sa, f) = (&p.sargs, &p.fargs);
        let (kind, frame) = match p.ptype {
            PrimType::Spectrum => (
                Spectral::Constant(spectrum(f)?),
                frame(p, sa.len(), Vec::new())?,
            ),
            PrimType::Specfile => {
                if sa.len() != 1 {
                    return Err("needs exactly one string argument, the data file".into());
                }
                let d = self.data_array(&sa[0])?;
                (
                    Spectral::Constant(specfile(&d).map_err(|e| format!("{}: {e}", sa[0]))?),
                    frame(p, 1, Vec::new())?,
                )
            }
            PrimType::Specfunc => {
                if sa.len() < 2 || f.len() < 2 {
                    return Err("needs a function and a function file, and two wavelengths".into());
                }
                self.load(&sa[1])?;
                let (func, _) = self.named_func(&sa[1], &sa[0])?;
                let range = Spectral::func_range(f);
                (Spectral::Func { func, range }, frame(p, 2, f.clone())?)
            }
            PrimType::Specpict => {
                if sa.len() < 5 {
                    return Err("needs sfunc picture funcfile x y [transform]".into());
                }
                let file = sa[2].as_str();
                self.load(file)?;
                let pict = match self.spec_pictures.get(&sa[1]) {
                    Some(p) => p.clone(),
                    None => {
                        let path = self.raypath.find(&sa[1]).ok_or_else(|| {
                            format!(
                                "hyperspectral picture \"{}\" not found in the RAYPATH",
                                sa[1]
                            )
                        })?;
                        let p = Arc::new(SpecPicture::load(&path)?);
                        self.spec_pictures.insert(sa[1].clone(), p.clone());
                        p
                    }
                };
                let coords = [self.expr(file, &sa[3])?, self.expr(file, &sa[4])?];
                let (func, _) = self.named_func(file, &sa[0])?;
                (
                    Spectral::Pict { func, pict, coords },
                    frame(p, 5, f.clone())?,
                )
            }
            _ => {
                if sa.len() < 3 {
                    return Err("needs a function, a data file and a function file".into());
                }
                let data = self.data_array(&sa[1])?;
                let nd = data.dims();
                if nd < 2 {
                    return Err(format!(
                        "{}: needs at least 2-dimensional data (the last is wavelength)",
                        sa[1]
                    ));
                }
                let file = sa[2].as_str();
                self.load(file)?;
                if sa.len() < 3 + nd - 1 {
                    return Err(format!(
                        "the data has {nd} dimensions, so {} coordinate expression(s) must follow the function file",
                        nd - 1
                    ));
                }
                let mut coords = Vec::with_capacity(nd - 1);
                for text in &sa[3..3 + nd - 1] {
                    coords.push(self.expr(file, text)?);
                }
                let (func, _) = self.named_func(file, &sa[0])?;
                (
                    Spectral::Data { func, data, coords },
                    frame(p, 3 + nd - 1, f.clone())?,
                )
            }
        };
        Ok(pattern(PatternKind::Spectral(kind), frame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_spectrum_is_white() {
        let c = spectrum(&[380.0, 780.0, 1.0, 1.0, 1.0, 1.0, 1.0]).unwrap();
        for k in 0..3 {
            assert!((c[k] - 1.0).abs() < 2e-3, "{c:?}");
        }
    }

    #[test]
    fn three_descending_bins_are_rgb() {
        let c = spectrum(&[713.3, 446.7, 0.2, 0.5, 0.9]).unwrap();
        assert!(
            (c - DVec3::new(0.2, 0.5, 0.9)).abs().max_element() < 1e-6,
            "{c:?}"
        );
    }

    #[test]
    fn resample_by_overlap() {
        // Two bins 780..580 (value 1) and 580..380 (value 3) into four.
        let v = resample(&[1.0, 3.0], 780.0, 380.0, 4, 780.0, 380.0);
        assert_eq!(v, vec![1.0, 1.0, 3.0, 3.0]);
        // Ascending source, half outside.
        let v = resample(&[2.0], 180.0, 580.0, 2, 780.0, 380.0);
        assert_eq!(v, vec![0.0, 2.0]);
    }

    #[test]
    fn narrow_green_band_is_green() {
        let c = spectrum(&[530.0, 550.0, 1.0, 1.0, 1.0]).unwrap();
        assert!(c.y > c.x && c.y > c.z, "{c:?}");
    }
}
