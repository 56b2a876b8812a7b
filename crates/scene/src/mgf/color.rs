//! MGF colours as RADIANCE's MGF library keeps them: a chromaticity (x, y) or a spectrum of 41
//! integer samples from 380 to 780 nm (scaled so the largest is 10 000, each sample dithered by
//! a uniform random number before it is cut to an integer), converted one to the other on
//! demand, and mixed. The random numbers are glibc's unseeded `drand48`, drawn in the order
//! RADIANCE draws them, so the samples (and the colours made from them) come out as RADIANCE's.

// Spectra, the observer's tables and the mixtures run in step, sample by sample.
#![allow(clippy::needless_range_loop)]

/// Number of spectral samples.
pub const CNSS: usize = 41;
/// First sample's wavelength (nm).
pub const CMINWL: i32 = 380;
/// Last sample's wavelength (nm).
pub const CMAXWL: i32 = 780;
/// Wavelength step between samples (nm).
pub const CWLI: i32 = 10;
/// Nominal largest sample value.
pub const CMAXV: f64 = 10000.0;
/// Peak lumens per watt over the sample scale.
const CLPWM: f64 = 683.0 / CMAXV;

/// The spectrum is set.
pub const SSPEC: u8 = 0o1;
/// The colour was defined by a spectrum.
pub const DSPEC: u8 = 0o2;
/// The chromaticity is set.
pub const SXY: u8 = 0o4;
/// The colour was defined by a chromaticity.
pub const DXY: u8 = 0o10;
/// The efficacy is set.
pub const SEFF: u8 = 0o20;

/// The Unix `drand48` generator as RADIANCE's `frandom` draws on Linux: never seeded, so
/// glibc starts it from a zero state.
#[derive(Clone, Debug, Default)]
pub struct Drand48(u64);

impl Drand48 {
    /// The next number in [0, 1).
    pub fn draw(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB) & ((1 << 48) - 1);
        self.0 as f64 / (1u64 << 48) as f64
    }
}

/// A colour: what is set of it (`flags`), its samples, their sum, its chromaticity and its
/// efficacy (lumens per watt), in the integer and single-precision types RADIANCE keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct Color {
    /// `SSPEC`, `DSPEC`, `SXY`, `DXY`, `SEFF` bits.
    pub flags: u8,
    /// Spectral samples, 380 to 780 nm in 10 nm steps.
    pub ssamp: [i16; CNSS],
    /// The sum of the samples.
    pub ssum: i64,
    /// CIE x.
    pub cx: f32,
    /// CIE y.
    pub cy: f32,
    /// Luminous efficacy.
    pub eff: f32,
    /// The colour's name when it was last given a spectrum (`cspec` or `cct`), which names its
    /// `spectrum` primitive in mgf2rad's `-s` output; copied with the colour.
    pub spectrum_name: Option<String>,
}

impl Default for Color {
    /// The unnamed colour: neutral (equal energy).
    fn default() -> Self {
        Color {
            flags: DXY | SXY | SSPEC | SEFF,
            ssamp: [CMAXV as i16; CNSS],
            ssum: CNSS as i64 * CMAXV as i64,
            cx: (1.0f64 / 3.0) as f32,
            cy: (1.0f64 / 3.0) as f32,
            eff: 178.006,
            spectrum_name: None,
        }
    }
}

/// A fixed spectrum table: samples, their sum, x, y and efficacy.
struct Table {
    s: [i16; CNSS],
    sum: i64,
    eff: f32,
}

/// CIE 1931 standard observer, x-bar, 380 to 780 nm.
const X31: Table = Table {
    s: [
        14, 42, 143, 435, 1344, 2839, 3483, 3362, 2908, 1954, 956, 320, 49, 93, 633, 1655, 2904,
        4334, 5945, 7621, 9163, 10263, 10622, 10026, 8544, 6424, 4479, 2835, 1649, 874, 468, 227,
        114, 58, 29, 14, 7, 3, 2, 1, 0,
    ],
    sum: 106836,
    eff: 362.230,
};
/// y-bar.
const Y31: Table = Table {
    s: [
        0, 1, 4, 12, 40, 116, 230, 380, 600, 910, 1390, 2080, 3230, 5030, 7100, 8620, 9540, 9950,
        9950, 9520, 8700, 7570, 6310, 5030, 3810, 2650, 1750, 1070, 610, 320, 170, 82, 41, 21, 10,
        5, 2, 1, 1, 0, 0,
    ],
    sum: 106856,
    eff: 493.525,
};
/// z-bar.
const Z31: Table = Table {
    s: [
        65, 201, 679, 2074, 6456, 13856, 17471, 17721, 16692, 12876, 8130, 4652, 2720, 1582, 782,
        422, 203, 87, 39, 21, 17, 11, 8, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ],
    sum: 106770,
    eff: 54.363,
};
/// The spectra of the (imaginary) CIE primaries, which mix into a spectrum of any
/// chromaticity.
const XP: [i16; CNSS] = [
    -174, -198, -195, -197, -202, -213, -235, -272, -333, -444, -688, -1232, -2393, -4497, -6876,
    -6758, -5256, -3100, -815, 1320, 3200, 4782, 5998, 6861, 7408, 7754, 7980, 8120, 8199, 8240,
    8271, 8292, 8309, 8283, 8469, 8336, 8336, 8336, 8336, 8336, 8336,
];
const YP: [i16; CNSS] = [
    -451, -431, -431, -430, -427, -417, -399, -366, -312, -204, 57, 691, 2142, 4990, 8810, 9871,
    9122, 7321, 5145, 3023, 1123, -473, -1704, -2572, -3127, -3474, -3704, -3846, -3927, -3968,
    -3999, -4021, -4038, -4012, -4201, -4066, -4066, -4066, -4066, -4066, -4066,
];
const ZP: [i16; CNSS] = [
    4051, 4054, 4052, 4053, 4054, 4056, 4059, 4064, 4071, 4074, 4056, 3967, 3677, 2933, 1492, 313,
    -440, -795, -904, -918, -898, -884, -869, -863, -855, -855, -851, -848, -847, -846, -846, -846,
    -845, -846, -843, -845, -845, -845, -845, -845, -845,
];

/// C's conversion of a double to `short`: toward zero.
fn to_short(v: f64) -> i16 {
    v as i16
}

impl Color {
    /// A colour of chromaticity (x, y) (`cxy`).
    pub fn set_xy(&mut self, x: f32, y: f32) {
        self.cx = x;
        self.cy = y;
        self.flags = DXY | SXY;
    }

    /// The colour's chromaticity, computed from its spectrum when it was not given one.
    pub fn xy(&self) -> (f32, f32) {
        if self.flags & SXY != 0 {
            return (self.cx, self.cy);
        }
        let (mut x, mut y, mut z) = (0.0f64, 0.0f64, 0.0f64);
        for i in 0..CNSS {
            let s = self.ssamp[i] as f64;
            x += X31.s[i] as f64 * s;
            y += Y31.s[i] as f64 * s;
            z += Z31.s[i] as f64 * s;
        }
        x /= X31.sum as f64;
        y /= Y31.sum as f64;
        z /= Z31.sum as f64;
        z += x + y;
        if z > 1e-6 {
            ((x / z) as f32, (y / z) as f32)
        } else {
            let t = (1.0f64 / 3.0) as f32;
            (t, t)
        }
    }

    /// Sets the chromaticity from the spectrum where it is not set (RADIANCE's `c_ccvt` with
    /// `C_CSXY`).
    pub fn fix_xy(&mut self) {
        if self.flags & SXY == 0 {
            (self.cx, self.cy) = self.xy();
            self.flags |= SXY;
        }
    }

    /// Sets the efficacy where it is not set (from the spectrum when there is one).
    pub fn fix_eff(&mut self) {
        if self.flags & SEFF != 0 {
            return;
        }
        if self.flags & SSPEC != 0 {
            let y: f64 = (0..CNSS)
                .map(|i| Y31.s[i] as f64 * self.ssamp[i] as f64)
                .sum::<f64>();
            self.eff = (CLPWM * y / (self.ssum as f64 + 0.0001)) as f32;
        } else {
            let (cx, cy) = (self.cx as f64, self.cy as f64);
            self.eff = (cx * X31.eff as f64
                + cy * Y31.eff as f64
                + (1.0 - cx - cy) * Z31.eff as f64) as f32;
        }
        self.flags |= SEFF;
    }

    /// Sets the spectrum from the chromaticity where it is not set: a mix of the primaries'
    /// spectra, each sample dithered, negative samples (out of gamut) zero.
    pub fn fix_spectrum(&mut self, rng: &mut Drand48) {
        if self.flags & SSPEC != 0 {
            return;
        }
        let (x, y) = (self.cx as f64, self.cy as f64);
        let z = 1.0 - x - y;
        self.ssum = 0;
        for i in 0..CNSS {
            let v = to_short(x * XP[i] as f64 + y * YP[i] as f64 + z * ZP[i] as f64 + rng.draw());
            self.ssamp[i] = v.max(0);
            self.ssum += self.ssamp[i] as i64;
        }
        self.flags |= SSPEC;
    }

    /// A spectrum from `wlmin` to `wlmax` nm in evenly spaced values (`cspec`): resampled to
    /// 10 nm (averaged where finer, interpolated where coarser), scaled, dithered. Returns the
    /// spectrum's relative luminance; 0 (and the colour unchanged) when it is unusable.
    pub fn set_spectrum(
        &mut self,
        mut wlmin: f64,
        mut wlmax: f64,
        spec: &[f32],
        rng: &mut Drand48,
    ) -> f64 {
        let mut nwl = spec.len();
        if nwl <= 1 || wlmin >= CMAXWL as f64 || wlmax <= CMINWL as f64 || wlmin >= wlmax {
            return 0.0;
        }
        let mut wlstep = (wlmax - wlmin) / (nwl as f64 - 1.0);
        let mut first = 0usize;
        while wlmin < CMINWL as f64 {
            wlmin += wlstep;
            nwl -= 1;
            first += 1;
        }
        while wlmax > CMAXWL as f64 {
            wlmax -= wlstep;
            nwl = nwl.saturating_sub(1);
        }
        if nwl <= 1 || wlmin >= wlmax {
            return 0.0;
        }
        let spec = &spec[first..];
        // Finer than 10 nm: average the values falling in each 10 nm box.
        let (mut imax, mut boxpos, mut boxstep) = (nwl, 0.0f64, 1.0f64);
        if wlstep < CWLI as f64 {
            imax = ((wlmax - wlmin) / CWLI as f64 + 1e-7) as usize;
            boxpos = (wlmin - CMINWL as f64) / CWLI as f64;
            boxstep = wlstep / CWLI as f64;
            wlstep = CWLI as f64;
        }
        // RADIANCE may read one value past those it averaged; that one counts as 0 here.
        let mut va = [0.0f32; CNSS + 1];
        let (mut scale, mut yval) = (0.0f64, 0.0f64);
        let mut pos = 0usize;
        for i in 0..imax.min(CNSS) {
            let mut n = 0;
            while boxpos < i as f64 + 0.5 && pos < nwl {
                va[i] += spec[pos];
                pos += 1;
                n += 1;
                boxpos += boxstep;
            }
            if n > 1 {
                va[i] = (va[i] as f64 / n as f64) as f32;
            }
            if va[i] as f64 > scale {
                scale = va[i] as f64;
            } else if (va[i] as f64) < -scale {
                scale = -va[i] as f64;
            }
            yval += (va[i] * Y31.s[i] as f32) as f64;
        }
        if scale <= 1e-7 {
            return 0.0;
        }
        yval /= Y31.sum as f64;
        scale = CMAXV / scale;
        self.ssum = 0;
        let mut wl0 = wlmin;
        pos = 0;
        for i in 0..CNSS {
            let wl = (CMINWL + i as i32 * CWLI) as f64;
            if wl < wlmin || wl > wlmax {
                self.ssamp[i] = 0;
                continue;
            }
            while wl0 + wlstep < wl + 0.01 {
                wl0 += wlstep;
                pos += 1;
            }
            let at = |k: usize| va.get(k).copied().unwrap_or(0.0) as f64;
            self.ssamp[i] = if wl + 0.01 >= wl0 && wl - 0.01 <= wl0 {
                to_short(scale * at(pos) + rng.draw())
            } else {
                let r = rng.draw();
                to_short(
                    r + scale / wlstep * (at(pos) * (wl0 + wlstep - wl) + at(pos + 1) * (wl - wl0)),
                )
            };
            self.ssum += self.ssamp[i] as i64;
        }
        self.flags = DSPEC | SSPEC;
        yval
    }

    /// A black body's spectrum at `tk` kelvin (`cct`); false below 1000 K.
    pub fn set_temperature(&mut self, tk: f64, rng: &mut Drand48) -> bool {
        const C1: f64 = 3.741832e-16;
        const C2: f64 = 1.4388e-2;
        let planck = |l: f64| C1 / (l * l * l * l * l * ((C2 / (tk * l)).exp() - 1.0));
        if tk < 1000.0 {
            return false;
        }
        // Scaled by the value at the peak wavelength (within the sampled range).
        let peak = (C2 * 0.2 / tk).clamp(CMINWL as f64 * 1e-9, CMAXWL as f64 * 1e-9);
        let sf = CMAXV / planck(peak);
        self.ssum = 0;
        for i in 0..CNSS {
            let wl = (CMINWL + i as i32 * CWLI) as f64 * 1e-9;
            self.ssamp[i] = to_short(sf * planck(wl) + rng.draw());
            self.ssum += self.ssamp[i] as i64;
        }
        self.flags = DSPEC | SSPEC;
        true
    }

    /// Is the colour (about) neutral? Chromaticity within 0.01 of the equal-energy white.
    pub fn is_grey(&self) -> bool {
        if self.flags & (SXY | SSPEC) == 0 {
            return true;
        }
        let (x, y) = self.xy();
        (0.323..=0.343).contains(&(x as f64)) && (0.323..=0.343).contains(&(y as f64))
    }
}

/// Are two colours the same, within what MGF's colour resolution tells apart? Both defined
/// the same way, chromaticities within 0.015 (sum of differences), and spectra (for spectral
/// definitions) within 1/200 of full scale sample by sample.
pub fn equivalent(c1: &Color, c2: &Color) -> bool {
    if std::ptr::eq(c1, c2) {
        return true;
    }
    if (c1.flags ^ c2.flags) & (DXY | DSPEC) != 0 {
        return false;
    }
    let ((x1, y1), (x2, y2)) = (c1.xy(), c2.xy());
    if ((x1 - x2).abs() as f64) + ((y1 - y2).abs() as f64) > 0.015 {
        return false;
    }
    if c1.flags & DXY != 0 {
        return true;
    }
    let thresh = (CMAXV as i64 / 200) * (c1.ssum + c2.ssum);
    (0..CNSS).all(|i| (c1.ssamp[i] as i64 * c2.ssum - c2.ssamp[i] as i64 * c1.ssum).abs() <= thresh)
}

/// Mixes `w1` of `c1` with `w2` of `c2` (weights as relative luminances): by spectrum where
/// either was defined by one (both given spectra, in place, where they lack them), else by
/// chromaticity.
pub fn mix(w1: f64, c1: &mut Color, w2: f64, c2: &mut Color, rng: &mut Drand48) -> Color {
    if w1 == 0.0 {
        return c2.clone();
    }
    if w2 == 0.0 {
        return c1.clone();
    }
    let mut res = c1.clone();
    if (c1.flags | c2.flags) & DSPEC != 0 {
        c1.fix_spectrum(rng);
        c1.fix_eff();
        c2.fix_spectrum(rng);
        c2.fix_eff();
        if c1.ssum * c2.ssum == 0 {
            return Color::default();
        }
        let w1 = w1 / (c1.eff as f64 * c1.ssum as f64);
        let w2 = w2 / (c2.eff as f64 * c2.ssum as f64);
        let mut cmix = [0.0f32; CNSS];
        let mut scale = 0.0f64;
        for i in 0..CNSS {
            cmix[i] = (w1 * c1.ssamp[i] as f64 + w2 * c2.ssamp[i] as f64) as f32;
            let v = cmix[i] as f64;
            if v > scale {
                scale = v;
            } else if v < -scale {
                scale = -v;
            }
        }
        scale = CMAXV / scale;
        res.spectrum_name = c1.spectrum_name.clone();
        res.ssum = 0;
        for i in 0..CNSS {
            res.ssamp[i] = to_short(scale * cmix[i] as f64 + rng.draw());
            res.ssum += res.ssamp[i] as i64;
        }
        res.flags = DSPEC | SSPEC;
    } else {
        c1.fix_xy();
        c2.fix_xy();
        let w1 = w1 * c2.cy as f64;
        let w2 = w2 * c1.cy as f64;
        let scale = w1 + w2;
        if scale == 0.0 {
            return Color::default();
        }
        let scale = 1.0 / scale;
        res = c1.clone();
        res.cx = ((w1 * c1.cx as f64 + w2 * c2.cx as f64) * scale) as f32;
        res.cy = ((w1 * c1.cy as f64 + w2 * c2.cy as f64) * scale) as f32;
        res.flags = DXY | SXY;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_grey_and_equal_energy() {
        let c = Color::default();
        assert!(c.is_grey());
        let (x, y) = c.xy();
        assert!((x - 1.0 / 3.0).abs() < 1e-6 && (y - 1.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn flat_spectrum_is_near_white() {
        let mut rng = Drand48::default();
        let mut c = Color::default();
        assert!(c.set_spectrum(380.0, 780.0, &[1.0; 41], &mut rng) > 0.0);
        c.fix_xy();
        assert!(c.is_grey(), "{:?}", c.xy());
    }

    #[test]
    fn black_body_is_reddish_at_low_temperature() {
        let mut rng = Drand48::default();
        let mut c = Color::default();
        assert!(c.set_temperature(2700.0, &mut rng));
        let (x, y) = c.xy();
        // Planckian locus at 2700 K: about (0.46, 0.41).
        assert!(
            (x - 0.46).abs() < 0.01 && (y - 0.41).abs() < 0.01,
            "{x} {y}"
        );
        assert!(!c.set_temperature(900.0, &mut rng));
    }
}
