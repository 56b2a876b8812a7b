//! Colour scales: RADIANCE falsecolor's palettes and the viridis scale of the annual maps.
//!
//! A palette maps a position `v` (0 at the low end of the scale, 1 at the top; clamped) to a
//! colour. RADIANCE's falsecolor writes HDR pictures, so its palettes give *linear* RGB, the
//! values that go into the picture; a display (an 8-bit PNG, `ra_tiff`, `ximage`) shows them
//! through a gamma of 2.2. [`Palette::linear`] is the HDR value, [`Palette::display`] the value
//! shown, related by `display = linear^(1/2.2)`.
//!
//! - `def`, RADIANCE's default: dark purple through blue, green and red to yellow, given by 23
//!   control points per channel (linear RGB, one every 1/22 of the scale) joined linearly.
//! - `spec`, RADIANCE's older spectral scale: blue → green → red, piecewise linear in linear RGB.
//! - `pm3d`, gnuplot's default `rgbformulae 7,5,15`: (√v, v³, sin 2πv) as *display* values.
//! - `hot`, gnuplot's `rgbformulae 21,22,23`: (3v, 3v − 1, 3v − 2) as display values.
//! - `eco`, blue → red → yellow: (2v, 2v − 1, 1 − 2v) as display values.
//! - `viridis`, not in RADIANCE: matplotlib's viridis sampled at ninths (display values), the
//!   scale of the annual plan-view maps.
//!
//! RADIANCE's `tbo` ("turbo") is a 256-entry table of its own and is not offered.

/// Display gamma RADIANCE assumes when a picture is shown or converted to 8 bits.
pub const GAMMA: f64 = 2.2;

/// One of the colour scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Palette {
    /// RADIANCE's default palette (`-pal def`).
    Def,
    /// RADIANCE's old spectral palette (`-pal spec`).
    Spec,
    /// gnuplot's pm3d palette (`-pal pm3d`).
    Pm3d,
    /// A thermal scale (`-pal hot`).
    Hot,
    /// Blue, red, yellow (`-pal eco`).
    Eco,
    /// Viridis (daylit's annual maps; `-pal viridis`).
    Viridis,
}

/// Every palette, in the order `falsecolor -palettes` lists RADIANCE's.
pub const PALETTES: [Palette; 6] = [
    Palette::Def,
    Palette::Spec,
    Palette::Pm3d,
    Palette::Hot,
    Palette::Eco,
    Palette::Viridis,
];

/// RADIANCE's default palette: linear RGB at v = k/22, k = 0..=22.
const DEF: [[f64; 23]; 3] = [
    [
        0.18848,
        0.05468174,
        0.00103547,
        8.311144e-08,
        7.449763e-06,
        0.0004390987,
        0.001367254,
        0.003076,
        0.01376382,
        0.06170773,
        0.1739422,
        0.2881156,
        0.3299725,
        0.3552663,
        0.372552,
        0.3921184,
        0.4363976,
        0.6102754,
        0.7757267,
        0.9087369,
        1.0,
        1.0,
        0.9863,
    ],
    [
        0.0009766,
        2.35501e-05,
        0.0008966244,
        0.0264977,
        0.1256843,
        0.2865799,
        0.4247083,
        0.4739468,
        0.4402732,
        0.3671876,
        0.2629843,
        0.1725325,
        0.1206819,
        0.07316644,
        0.03761026,
        0.01612362,
        0.004773749,
        6.830967e-06,
        0.00803605,
        0.1008085,
        0.3106831,
        0.6447838,
        0.9707,
    ],
    [
        0.2666,
        0.3638662,
        0.4770437,
        0.5131397,
        0.5363797,
        0.5193677,
        0.4085123,
        0.1702815,
        0.05314236,
        0.05194055,
        0.08564082,
        0.09881395,
        0.08324373,
        0.06072902,
        0.0391076,
        0.02315354,
        0.01284458,
        0.005184709,
        0.001691774,
        2.432735e-05,
        1.212949e-05,
        0.006659406,
        0.02539,
    ],
];

/// Spacing of the default palette's control points as RADIANCE writes it (≈ 1/22).
const DEF_STEP: f64 = 0.0454545;

/// Viridis at v = k/8, 8-bit display values.
const VIRIDIS: [[f64; 3]; 9] = [
    [68.0, 1.0, 84.0],
    [71.0, 44.0, 122.0],
    [59.0, 81.0, 139.0],
    [44.0, 113.0, 142.0],
    [33.0, 144.0, 141.0],
    [39.0, 173.0, 129.0],
    [92.0, 200.0, 99.0],
    [170.0, 220.0, 50.0],
    [253.0, 231.0, 37.0],
];

fn clip(x: f64) -> f64 {
    x.clamp(0.0, 1.0)
}

/// Position along the scale, clamped; NaN (a broken pixel) counts as the low end.
fn position(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        clip(v)
    }
}

/// Display value (0..1) to 8 bits.
pub fn to_byte(d: f64) -> u8 {
    (clip(d) * 255.0).round() as u8
}

/// Linear value to 8-bit display value through [`GAMMA`].
pub fn linear_to_byte(l: f64) -> u8 {
    to_byte(clip(l).powf(1.0 / GAMMA))
}

impl Palette {
    /// The palette called `name` (`def`, `spec`, `pm3d`, `hot`, `eco`, `viridis`).
    pub fn from_name(name: &str) -> Option<Palette> {
        PALETTES.into_iter().find(|p| p.name() == name)
    }

    /// The palette's name as `-pal` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Palette::Def => "def",
            Palette::Spec => "spec",
            Palette::Pm3d => "pm3d",
            Palette::Hot => "hot",
            Palette::Eco => "eco",
            Palette::Viridis => "viridis",
        }
    }

    /// The colour at `v` as linear RGB (what a false-colour HDR picture holds), each 0..1.
    pub fn linear(self, v: f64) -> [f64; 3] {
        let x = position(v);
        let gam = |d: [f64; 3]| d.map(|c| clip(c).powf(GAMMA));
        match self {
            Palette::Def => {
                let i = x / DEF_STEP + 1.0;
                DEF.map(|f| {
                    if i <= 1.0 {
                        f[0]
                    } else if i >= 23.0 {
                        f[22]
                    } else {
                        // Control point k sits at index k + 1.
                        let k = i.floor();
                        let lo = f[k as usize - 1];
                        let hi = f[k as usize];
                        (k + 1.0 - i) * lo + (i - k) * hi
                    }
                })
            }
            Palette::Spec => [
                clip(1.6 * x - 0.6),
                clip(if x > 0.375 {
                    1.6 - 1.6 * x
                } else {
                    8.0 / 3.0 * x
                }),
                clip(1.0 - 8.0 / 3.0 * x),
            ],
            Palette::Pm3d | Palette::Hot | Palette::Eco | Palette::Viridis => gam(self.display(x)),
        }
    }

    /// The colour at `v` as display RGB (what a screen or PNG shows), each 0..1.
    pub fn display(self, v: f64) -> [f64; 3] {
        let x = position(v);
        match self {
            Palette::Def | Palette::Spec => self.linear(x).map(|c| c.powf(1.0 / GAMMA)),
            Palette::Pm3d => [
                x.sqrt(),
                x * x * x,
                clip((2.0 * std::f64::consts::PI * x).sin()),
            ],
            Palette::Hot => [clip(3.0 * x), clip(3.0 * x - 1.0), clip(3.0 * x - 2.0)],
            Palette::Eco => [clip(2.0 * x), clip(2.0 * (x - 0.5)), clip(2.0 * (0.5 - x))],
            Palette::Viridis => self.viridis_bytes(x).map(|c| c / 255.0),
        }
    }

    /// The colour at `v` as 8-bit display RGB.
    pub fn display8(self, v: f64) -> [u8; 3] {
        match self {
            // Interpolated in 8-bit units and rounded once.
            Palette::Viridis => self.viridis_bytes(position(v)).map(|c| c.round() as u8),
            _ => self.display(v).map(to_byte),
        }
    }

    fn viridis_bytes(self, x: f64) -> [f64; 3] {
        let s = x * (VIRIDIS.len() - 1) as f64;
        let k = (s.floor() as usize).min(VIRIDIS.len() - 2);
        let f = s - k as f64;
        [0, 1, 2].map(|ch| VIRIDIS[k][ch] + f * (VIRIDIS[k + 1][ch] - VIRIDIS[k][ch]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3], tol: f64) -> bool {
        (0..3).all(|k| (a[k] - b[k]).abs() <= tol)
    }

    #[test]
    fn default_palette_hits_its_control_points() {
        // Control point k at v = k · 0.0454545 (RADIANCE's spacing).
        for (k, ((r, g), b)) in DEF[0].iter().zip(DEF[1]).zip(DEF[2]).enumerate() {
            let v = k as f64 * DEF_STEP;
            let want = [*r, g, b];
            assert!(
                close(Palette::Def.linear(v), want, 1e-12),
                "{k}: {:?}",
                Palette::Def.linear(v)
            );
        }
        // Half way between points 10 and 11: the mean.
        let v = 10.5 * DEF_STEP;
        let want = [0, 1, 2].map(|c| (DEF[c][10] + DEF[c][11]) / 2.0);
        assert!(close(Palette::Def.linear(v), want, 1e-12));
        // Below and above the scale: the end colours.
        assert_eq!(Palette::Def.linear(-3.0), [0.18848, 0.0009766, 0.2666]);
        assert_eq!(Palette::Def.linear(1.0), [0.9863, 0.9707, 0.02539]);
        assert_eq!(Palette::Def.linear(7.0), [0.9863, 0.9707, 0.02539]);
        assert_eq!(Palette::Def.linear(f64::NAN), Palette::Def.linear(0.0));
    }

    #[test]
    fn formula_palettes() {
        // spec: blue at 0, green peak at 0.375, red at 1.
        assert!(close(Palette::Spec.linear(0.0), [0.0, 0.0, 1.0], 1e-15));
        assert!(close(Palette::Spec.linear(0.375), [0.0, 1.0, 0.0], 1e-15));
        assert!(close(Palette::Spec.linear(1.0), [1.0, 0.0, 0.0], 1e-15));
        assert!(close(Palette::Spec.linear(0.5), [0.2, 0.8, 0.0], 1e-15));
        // hot: black, red at 1/3, yellow at 2/3, white at 1; 2.2 gamma in linear terms.
        assert!(close(
            Palette::Hot.linear(1.0 / 3.0),
            [1.0, 0.0, 0.0],
            1e-12
        ));
        assert!(close(
            Palette::Hot.linear(2.0 / 3.0),
            [1.0, 1.0, 0.0],
            1e-12
        ));
        assert!(close(
            Palette::Hot.linear(0.5),
            [1.0, 0.5f64.powf(2.2), 0.0],
            1e-12
        ));
        assert_eq!(Palette::Hot.display8(0.5), [255, 128, 0]);
        // eco: blue at 0, black at the middle, yellow at 1.
        assert!(close(Palette::Eco.linear(0.0), [0.0, 0.0, 1.0], 1e-15));
        assert!(close(Palette::Eco.linear(0.5), [1.0, 0.0, 0.0], 1e-15));
        assert!(close(
            Palette::Eco.linear(0.25),
            [0.5f64.powf(2.2), 0.0, 0.5f64.powf(2.2)],
            1e-12
        ));
        // pm3d: gnuplot's 7,5,15.
        let d = Palette::Pm3d.display(0.25);
        assert!(close(d, [0.5, 1.0 / 64.0, 1.0], 1e-12), "{d:?}");
        assert!(close(
            Palette::Pm3d.display(0.75),
            [0.75f64.sqrt(), 0.421875, 0.0],
            1e-12
        ));
        assert_eq!(Palette::Pm3d.display8(1.0), [255, 255, 0]);
    }

    #[test]
    fn display_is_linear_through_gamma() {
        for p in PALETTES {
            for k in 0..=40 {
                let v = k as f64 / 40.0;
                let (l, d) = (p.linear(v), p.display(v));
                for c in 0..3 {
                    assert!((l[c].powf(1.0 / GAMMA) - d[c]).abs() < 1e-9, "{p:?} {v}");
                    assert!((0.0..=1.0).contains(&l[c]));
                }
            }
            assert_eq!(Palette::from_name(p.name()), Some(p));
        }
        assert_eq!(Palette::from_name("tbo"), None);
    }

    #[test]
    fn viridis_ends_and_middle() {
        assert_eq!(Palette::Viridis.display8(0.0), [68, 1, 84]);
        assert_eq!(Palette::Viridis.display8(0.5), [33, 144, 141]);
        assert_eq!(Palette::Viridis.display8(1.0), [253, 231, 37]);
        assert_eq!(Palette::Viridis.display8(1.0 / 16.0), [70, 23, 103]);
    }
}
