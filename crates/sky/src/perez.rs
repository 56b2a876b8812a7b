//! The Perez all-weather sky, in reusable pieces: sky clearness ε and brightness Δ from
//! irradiances (Perez et al. 1990), the luminous-efficacy models of the same paper, the
//! relative luminance distribution `lv(ζ, γ)` with its coefficient table (Perez, Seals &
//! Michalsky 1993) and the normalisation of that distribution to a diffuse horizontal
//! illuminance.
//!
//! All angles are in radians. "Zenith" always means the solar zenith angle (90° minus the
//! solar altitude). Irradiances are in W/m², illuminances in lux. Nothing here clamps silently:
//! the limits RADIANCE applies are offered as explicit functions ([`SkyCondition::limited`],
//! [`limit_zenith`]) so `gendaylit` and `gendaymtx` can each apply their own.

use std::f64::consts::PI;

/// Solar constant for irradiance, W/m², as RADIANCE's Perez programs use it.
pub const SOLAR_CONSTANT_IRRADIANCE: f64 = 1367.0;
/// Solar constant for illuminance, lux, as RADIANCE's `gendaylit` uses it.
pub const SOLAR_CONSTANT_ILLUMINANCE: f64 = 127_500.0;
/// RADIANCE's luminous efficacy of equal-energy white light, lm/W: radiance × 179 = luminance.
pub const WHITE_EFFICACY: f64 = 179.0;

/// Lower limit of sky clearness ε (a fully overcast sky).
pub const CLEARNESS_MIN: f64 = 1.0;
/// Upper limit of sky clearness ε as `gendaylit` uses it (values above become 12.009).
pub const CLEARNESS_MAX: f64 = 12.01;
/// Lower limit of sky brightness Δ as `gendaylit` and `gendaymtx` use it.
pub const BRIGHTNESS_MIN: f64 = 0.01;
/// Upper limit of sky brightness Δ as `gendaylit` and `gendaymtx` use it.
pub const BRIGHTNESS_MAX: f64 = 0.6;

/// Lower bounds of the eight sky-clearness categories (Perez et al. 1990, Table 1); category
/// `i` holds `CLEARNESS_BOUNDS[i] <= ε < CLEARNESS_BOUNDS[i + 1]`, the last ending at
/// [`CLEARNESS_MAX`].
pub const CLEARNESS_BOUNDS: [f64; 9] = [1.0, 1.065, 1.23, 1.5, 1.95, 2.8, 4.5, 6.2, CLEARNESS_MAX];

/// The clearness category (0 = overcast … 7 = clear) that `ε` falls in, or `None` when `ε` is
/// outside `[1, 12.01)`.
pub fn clearness_category(clearness: f64) -> Option<usize> {
    (0..8).find(|&i| clearness >= CLEARNESS_BOUNDS[i] && clearness < CLEARNESS_BOUNDS[i + 1])
}

/// The clearness category with values outside the table taken by the nearest end category
/// (below 1.065 → 0, from 6.2 up → 7), as the luminance-coefficient lookup does.
pub fn clearness_category_nearest(clearness: f64) -> usize {
    (1..8)
        .rev()
        .find(|&i| clearness >= CLEARNESS_BOUNDS[i])
        .unwrap_or(0)
}

/// The solar zenith angle RADIANCE's `gendaymtx` uses for a solar altitude: 90° when the sun is
/// at or below the horizon, at least 3° (altitude at most 87°) to keep the circumsolar peak off
/// the zenith.
pub fn limit_zenith(altitude: f64) -> f64 {
    let deg = PI / 180.0;
    if altitude <= 0.0 {
        90.0 * deg
    } else {
        (90.0 * deg - altitude).max(3.0 * deg)
    }
}

/// Eccentricity correction factor (R₀/R)² of the Earth's orbit for a day of the year (1 = 1
/// January; 0 is accepted and used by `gendaylit -ang`), Spencer's Fourier series.
pub fn eccentricity(day_of_year: f64) -> f64 {
    let a = 2.0 * PI * (day_of_year - 1.0) / 365.0;
    1.00011
        + 0.034221 * a.cos()
        + 0.00128 * a.sin()
        + 0.000719 * (2.0 * a).cos()
        + 0.000077 * (2.0 * a).sin()
}

/// Relative optical air mass for a solar zenith angle (Kasten & Young 1989); zenith angles
/// beyond 90° count as 90°, where the air mass is largest (about 37.9).
pub fn air_mass(zenith: f64) -> f64 {
    let z = zenith.to_degrees().min(90.0);
    1.0 / (z.to_radians().cos() + 0.15 * (93.885 - z).powf(-1.253))
}

/// Atmospheric precipitable water content, cm, from the surface dew point, °C (Perez et al.
/// 1990: W = exp(0.07·Td − 0.075)).
pub fn precipitable_water(dew_point: f64) -> f64 {
    (0.07 * dew_point - 0.075).exp()
}

/// The term κ·Z³ of the clearness formula (κ = 1.041, Z in radians).
fn zenith_cubed_term(zenith: f64) -> f64 {
    1.041 * zenith * zenith * zenith
}

/// Sky clearness ε from direct-normal and diffuse-horizontal irradiance (Perez et al. 1990,
/// eq. 1). Infinite or NaN when the diffuse irradiance is zero; callers check.
pub fn sky_clearness(direct_normal: f64, diffuse_horizontal: f64, zenith: f64) -> f64 {
    let k = zenith_cubed_term(zenith);
    ((diffuse_horizontal + direct_normal) / diffuse_horizontal + k) / (1.0 + k)
}

/// Sky brightness Δ from diffuse-horizontal irradiance (Perez et al. 1990, eq. 2).
pub fn sky_brightness(diffuse_horizontal: f64, zenith: f64, day_of_year: f64) -> f64 {
    diffuse_horizontal * air_mass(zenith) / (SOLAR_CONSTANT_IRRADIANCE * eccentricity(day_of_year))
}

/// Diffuse-horizontal irradiance that gives sky brightness Δ (inverse of [`sky_brightness`]).
pub fn diffuse_from_brightness(brightness: f64, zenith: f64, day_of_year: f64) -> f64 {
    brightness * SOLAR_CONSTANT_IRRADIANCE * eccentricity(day_of_year) / air_mass(zenith)
}

/// Direct-normal irradiance that gives clearness ε together with the diffuse irradiance of Δ
/// (inverse of [`sky_clearness`]).
pub fn direct_from_clearness(
    clearness: f64,
    brightness: f64,
    zenith: f64,
    day_of_year: f64,
) -> f64 {
    diffuse_from_brightness(brightness, zenith, day_of_year)
        * (clearness - 1.0)
        * (1.0 + zenith_cubed_term(zenith))
}

/// The two Perez sky parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkyCondition {
    /// Sky clearness ε (1 overcast … about 12 very clear).
    pub clearness: f64,
    /// Sky brightness Δ.
    pub brightness: f64,
}

impl SkyCondition {
    /// ε and Δ from direct-normal and diffuse-horizontal irradiance (W/m²), the solar zenith
    /// angle and the day of the year. Not limited: see [`SkyCondition::limited`].
    pub fn from_irradiance(
        direct_normal: f64,
        diffuse_horizontal: f64,
        zenith: f64,
        day_of_year: f64,
    ) -> Self {
        SkyCondition {
            clearness: sky_clearness(direct_normal, diffuse_horizontal, zenith),
            brightness: sky_brightness(diffuse_horizontal, zenith, day_of_year),
        }
    }

    /// The condition held to `gendaylit`'s ranges: ε in `[1, 12.01)` (a value above 12.01
    /// becomes 12.009) and Δ in `[0.01, 0.6]`.
    pub fn limited(self) -> Self {
        let clearness = if self.clearness < CLEARNESS_MIN {
            CLEARNESS_MIN
        } else if self.clearness > CLEARNESS_MAX {
            CLEARNESS_MAX - 0.001
        } else {
            self.clearness
        };
        SkyCondition {
            clearness,
            brightness: self.brightness.clamp(BRIGHTNESS_MIN, BRIGHTNESS_MAX),
        }
    }

    /// The clearness category (see [`clearness_category_nearest`]).
    pub fn category(&self) -> usize {
        clearness_category_nearest(self.clearness)
    }
}

/// Coefficients (a, b, c, d) of one clearness category of a luminous-efficacy model:
/// efficacy = a + b·W + c·(zenith term) + d·(brightness term).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EfficacyCoefficients {
    /// Constant term, lm/W.
    pub a: f64,
    /// Precipitable-water term.
    pub b: f64,
    /// Solar-zenith term.
    pub c: f64,
    /// Sky-brightness term.
    pub d: f64,
}

const fn eff(a: f64, b: f64, c: f64, d: f64) -> EfficacyCoefficients {
    EfficacyCoefficients { a, b, c, d }
}

/// Global-horizontal luminous efficacy coefficients (Perez et al. 1990, Table 4).
pub const GLOBAL_EFFICACY: [EfficacyCoefficients; 8] = [
    eff(96.63, -0.47, 11.50, -9.16),
    eff(107.54, 0.79, 1.79, -1.19),
    eff(98.73, 0.70, 4.40, -6.95),
    eff(92.72, 0.56, 8.36, -8.31),
    eff(86.73, 0.98, 7.10, -10.94),
    eff(88.34, 1.39, 6.06, -7.60),
    eff(78.63, 1.47, 4.93, -11.37),
    eff(99.65, 1.86, -4.46, -3.15),
];

/// Diffuse-horizontal luminous efficacy coefficients (Perez et al. 1990, Table 4, eq. 7).
pub const DIFFUSE_EFFICACY: [EfficacyCoefficients; 8] = [
    eff(97.24, -0.46, 12.00, -8.91),
    eff(107.22, 1.15, 0.59, -3.95),
    eff(104.97, 2.96, -5.53, -8.77),
    eff(102.39, 5.59, -13.95, -13.90),
    eff(100.71, 5.94, -22.75, -23.74),
    eff(106.42, 3.83, -36.15, -28.83),
    eff(141.88, 1.90, -53.24, -14.03),
    eff(152.23, 0.35, -45.27, -7.98),
];

/// Direct-normal luminous efficacy coefficients (Perez et al. 1990, Table 4, eq. 8).
pub const DIRECT_EFFICACY: [EfficacyCoefficients; 8] = [
    eff(57.20, -4.55, -2.98, 117.12),
    eff(98.99, -3.46, -1.21, 12.38),
    eff(109.83, -4.90, -1.71, -8.81),
    eff(110.34, -5.84, -1.99, -4.56),
    eff(106.36, -3.97, -1.75, -6.16),
    eff(107.19, -1.25, -1.51, -26.73),
    eff(105.75, 0.77, -1.26, -34.44),
    eff(101.18, 1.58, -1.10, -8.29),
];

/// Global-horizontal luminous efficacy, lm/W: a + b·W + c·cos Z + d·ln Δ.
pub fn global_efficacy(category: usize, water: f64, zenith: f64, brightness: f64) -> f64 {
    let k = GLOBAL_EFFICACY[category.min(7)];
    k.a + k.b * water + k.c * zenith.cos() + k.d * brightness.ln()
}

/// Diffuse-horizontal luminous efficacy, lm/W: a + b·W + c·cos Z + d·ln Δ.
pub fn diffuse_efficacy(category: usize, water: f64, zenith: f64, brightness: f64) -> f64 {
    let k = DIFFUSE_EFFICACY[category.min(7)];
    k.a + k.b * water + k.c * zenith.cos() + k.d * brightness.ln()
}

/// Direct-normal luminous efficacy, lm/W: a + b·W + c·exp(5.73·Z − 5) + d·Δ, never negative.
pub fn direct_efficacy(category: usize, water: f64, zenith: f64, brightness: f64) -> f64 {
    let k = DIRECT_EFFICACY[category.min(7)];
    (k.a + k.b * water + k.c * (5.73 * zenith - 5.0).exp() + k.d * brightness).max(0.0)
}

/// Coefficient table of the relative luminance model (Perez, Seals & Michalsky 1993, Table 1):
/// for each clearness category, parameters a, b, c, d, e each as four numbers (x₁, x₂, x₃, x₄)
/// giving `x₁ + x₂·Z + Δ·(x₃ + x₄·Z)` (category 0 uses special forms for c and d).
pub const LUMINANCE_COEFFICIENTS: [[[f64; 4]; 5]; 8] = [
    [
        [1.3525, -0.2576, -0.2690, -1.4366],
        [-0.7670, 0.0007, 1.2734, -0.1233],
        [2.8000, 0.6004, 1.2375, 1.0000],
        [1.8734, 0.6297, 0.9738, 0.2809],
        [0.0356, -0.1246, -0.5718, 0.9938],
    ],
    [
        [-1.2219, -0.7730, 1.4148, 1.1016],
        [-0.2054, 0.0367, -3.9128, 0.9156],
        [6.9750, 0.1774, 6.4477, -0.1239],
        [-1.5798, -0.5081, -1.7812, 0.1080],
        [0.2624, 0.0672, -0.2190, -0.4285],
    ],
    [
        [-1.1000, -0.2515, 0.8952, 0.0156],
        [0.2782, -0.1812, -4.5000, 1.1766],
        [24.7219, -13.0812, -37.7000, 34.8438],
        [-5.0000, 1.5218, 3.9229, -2.6204],
        [-0.0156, 0.1597, 0.4199, -0.5562],
    ],
    [
        [-0.5484, -0.6654, -0.2672, 0.7117],
        [0.7234, -0.6219, -5.6812, 2.6297],
        [33.3389, -18.3000, -62.2500, 52.0781],
        [-3.5000, 0.0016, 1.1477, 0.1062],
        [0.4659, -0.3296, -0.0876, -0.0329],
    ],
    [
        [-0.6000, -0.3566, -2.5000, 2.3250],
        [0.2937, 0.0496, -5.6812, 1.8415],
        [21.0000, -4.7656, -21.5906, 7.2492],
        [-3.5000, -0.1554, 1.4062, 0.3988],
        [0.0032, 0.0766, -0.0656, -0.1294],
    ],
    [
        [-1.0156, -0.3670, 1.0078, 1.4051],
        [0.2875, -0.5328, -3.8500, 3.3750],
        [14.0000, -0.9999, -7.1406, 7.5469],
        [-3.4000, -0.1078, -1.0750, 1.5702],
        [-0.0672, 0.4016, 0.3017, -0.4844],
    ],
    [
        [-1.0000, 0.0211, 0.5025, -0.5119],
        [-0.3000, 0.1922, 0.7023, -1.6317],
        [19.0000, -5.0000, 1.2438, -1.9094],
        [-4.0000, 0.0250, 0.3844, 0.2656],
        [1.0468, -0.3788, -2.4517, 1.4656],
    ],
    [
        [-1.0500, 0.0289, 0.4260, 0.3590],
        [-0.3250, 0.1156, 0.7781, 0.0025],
        [31.0625, -14.5000, -46.1148, 55.3750],
        [-7.2312, 0.4050, 13.3500, 0.6234],
        [1.5000, -0.6426, 1.8564, 0.5636],
    ],
];

/// The five parameters a…e of the Perez relative luminance for one sun position and sky:
/// `lv(ζ, γ) = (1 + a·exp(b / cos ζ)) · (1 + c·exp(d·γ) + e·cos²γ)`, ζ the zenith angle of the
/// sky point and γ its angle from the sun.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerezParameters {
    /// a, b, c, d, e in order.
    pub abcde: [f64; 5],
}

impl PerezParameters {
    /// Parameters for a solar zenith angle and sky condition, with the category found from ε
    /// ([`clearness_category_nearest`]).
    pub fn new(zenith: f64, sky: SkyCondition) -> Self {
        Self::for_category(zenith, sky, sky.category())
    }

    /// Parameters from a given clearness category (0…7). As in the model's published
    /// configuration, Δ is raised to at least 0.2 when 1.065 < ε < 2.8.
    pub fn for_category(zenith: f64, sky: SkyCondition, category: usize) -> Self {
        let delta = if sky.clearness > 1.065 && sky.clearness < 2.8 {
            sky.brightness.max(0.2)
        } else {
            sky.brightness
        };
        let x = &LUMINANCE_COEFFICIENTS[category.min(7)];
        let linear = |r: &[f64; 4]| r[0] + r[1] * zenith + delta * (r[2] + r[3] * zenith);
        let mut abcde = [0.0; 5];
        for (p, row) in abcde.iter_mut().zip(x) {
            *p = linear(row);
        }
        if category == 0 {
            // The overcast category has its own forms for c and d (Perez et al. 1993, eq. 8).
            abcde[2] = (delta * (x[2][0] + x[2][1] * zenith)).powf(x[2][2]).exp() - x[2][3];
            abcde[3] = -(delta * (x[3][0] + x[3][1] * zenith)).exp() + x[3][2] + delta * x[3][3];
        }
        PerezParameters { abcde }
    }

    /// Relative luminance at sky zenith angle `zeta` and angle `gamma` from the sun.
    pub fn relative_luminance(&self, zeta: f64, gamma: f64) -> f64 {
        let [a, b, c, d, e] = self.abcde;
        let cg = gamma.cos();
        (1.0 + a * (b / zeta.cos()).exp()) * (1.0 + c * (d * gamma).exp() + e * cg * cg)
    }

    /// Relative luminance toward unit direction `dir` (z up) with the sun at unit direction
    /// `sun`.
    pub fn relative_luminance_dir(&self, dir: [f64; 3], sun: [f64; 3]) -> f64 {
        let cos_gamma = (dir[0] * sun[0] + dir[1] * sun[1] + dir[2] * sun[2]).clamp(-1.0, 1.0);
        self.relative_luminance(dir[2].clamp(-1.0, 1.0).acos(), cos_gamma.acos())
    }
}

/// The 145 sample directions `gendaylit` integrates over, as (zenith angle, azimuth) in degrees:
/// the centres of the Tregenza patches, rings from 84° to 12° zenith angle and the zenith.
pub fn gendaylit_sample_angles() -> Vec<(f64, f64)> {
    const RINGS: [(f64, usize); 8] = [
        (84.0, 30),
        (72.0, 30),
        (60.0, 24),
        (48.0, 24),
        (36.0, 18),
        (24.0, 12),
        (12.0, 6),
        (0.0, 1),
    ];
    RINGS
        .iter()
        .flat_map(|&(theta, n)| (0..n).map(move |k| (theta, 360.0 * k as f64 / n as f64)))
        .collect()
}

/// The horizontal "illuminance" of the relative distribution as `gendaylit` estimates it:
/// `2π/145 · Σ lv·cos θ` over [`gendaylit_sample_angles`], with the sun at azimuth 0 and the
/// given zenith angle. Dividing a diffuse horizontal illuminance (or irradiance) by this gives
/// the factor that turns relative luminance into absolute.
pub fn gendaylit_horizontal_integral(params: &PerezParameters, zenith: f64) -> f64 {
    let sum: f64 = gendaylit_sample_angles()
        .into_iter()
        .map(|(theta, phi)| {
            let (t, p) = (theta.to_radians(), phi.to_radians());
            let cos_gamma = zenith.cos() * t.cos() + zenith.sin() * t.sin() * p.cos();
            params.relative_luminance(t, cos_gamma.clamp(-1.0, 1.0).acos()) * t.cos()
        })
        .sum();
    sum * (2.0 * PI / 145.0)
}

/// The factor that scales [`PerezParameters::relative_luminance`] so that the sky gives
/// `diffuse_horizontal` on a horizontal surface, by `gendaylit`'s integration. Zero when the
/// integral is not positive.
pub fn normalisation(params: &PerezParameters, zenith: f64, diffuse_horizontal: f64) -> f64 {
    let integral = gendaylit_horizontal_integral(params, zenith);
    if integral > 0.0 {
        diffuse_horizontal / integral
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_follow_the_table_bounds() {
        assert_eq!(clearness_category(1.0), Some(0));
        assert_eq!(clearness_category(1.065), Some(1));
        assert_eq!(clearness_category(6.3), Some(7));
        assert_eq!(clearness_category(12.5), None);
        assert_eq!(clearness_category_nearest(0.5), 0);
        assert_eq!(clearness_category_nearest(20.0), 7);
    }

    #[test]
    fn clearness_and_brightness_invert() {
        let z = 0.6;
        let sky = SkyCondition::from_irradiance(700.0, 120.0, z, 172.0);
        let dh = diffuse_from_brightness(sky.brightness, z, 172.0);
        let dn = direct_from_clearness(sky.clearness, sky.brightness, z, 172.0);
        assert!(
            (dh - 120.0).abs() < 1e-9 && (dn - 700.0).abs() < 1e-9,
            "{dh} {dn}"
        );
    }

    #[test]
    fn sample_angles_are_the_145_tregenza_centres() {
        let a = gendaylit_sample_angles();
        assert_eq!(a.len(), 145);
        assert_eq!(a[30], (72.0, 0.0));
        assert_eq!(a[144], (0.0, 0.0));
    }
}
