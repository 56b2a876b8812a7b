//! Glare indices from glare sources, written as evalglare 3.06 evaluates them (including where
//! it rounds to single precision), so that pictures and ray sets share one set of formulas.
//!
//! Symbols: `L` source luminance (cd/m²), `ω` source solid angle (sr), `P` Guth position
//! index, `Ev` vertical illuminance at the eye (lux), `Lb` background luminance (cd/m²).

use crate::geometry::PI_EG;
use serde::Serialize;

/// One glare source as the indices see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GlareSource {
    /// Mean luminance, weighted by solid angle (cd/m²).
    pub luminance: f64,
    /// Solid angle (sr).
    pub omega: f64,
    /// Guth position index of the source centre.
    pub posindex: f32,
    /// Direction of the source centre.
    pub direction: [f64; 3],
    /// Angle between the line of sight and the source centre (radians).
    pub sigma: f64,
    /// Vertical illuminance at the eye from the source's pixels (lux).
    pub e_glare: f64,
    /// Number of pixels (or rays) in the source.
    pub pixels: f64,
    /// Brightest pixel or ray (cd/m²).
    pub max_luminance: f64,
    /// Source centre in picture coordinates as evalglare prints it (x from the left, y from
    /// the top, pixels); `None` for ray sets.
    pub position: Option<[f64; 2]>,
}

/// The DGP equation's coefficients (evalglare `-w a1 a2 a3 a4 a5 c1 c2 c3`):
/// DGP = c1·Ev^a5 + c3 + c2·log10(1 + Σ L^a1 ω^a2 / (Ev^a3 P^a4)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DgpCoefficients {
    pub a1: f64,
    pub a2: f64,
    pub a3: f64,
    pub a4: f64,
    pub a5: f64,
    pub c1: f64,
    pub c2: f64,
    pub c3: f64,
}

impl Default for DgpCoefficients {
    /// Wienold & Christoffersen (2006).
    fn default() -> Self {
        DgpCoefficients {
            a1: 2.0,
            a2: 1.0,
            a3: 1.87,
            a4: 2.0,
            a5: 1.0,
            c1: 5.87e-05,
            c2: 0.092,
            c3: 0.159,
        }
    }
}

/// Daylight glare probability (thesis eq. 2.5), capped at 1.
pub fn dgp(ev: f64, sources: &[GlareSource], k: &DgpCoefficients) -> f64 {
    let sum: f64 = sources.iter().fold(0.0, |s, g| {
        s + g.luminance.powf(k.a1) / (g.posindex as f64).powf(k.a4) * g.omega.powf(k.a2)
    });
    let d = if sources.is_empty() {
        k.c3 + k.c1 * ev.powf(k.a5)
    } else {
        k.c1 * ev.powf(k.a5) + k.c3 + k.c2 * (1.0 + sum / ev.powf(k.a3)).log10()
    };
    d.min(1.0)
}

/// The part of the DGP sum one source contributes: c2·log10(1 + L²ω/(P² Ev^a3)).
pub fn dgp_term(ev: f64, g: &GlareSource, k: &DgpCoefficients) -> f64 {
    k.c2 * (1.0 + g.luminance.powf(2.0) * g.omega / (g.posindex as f64).powf(2.0) / ev.powf(k.a3))
        .log10()
}

/// evalglare's low-light correction factor for DGP (applied below 1000 lux when asked for).
pub fn low_light_factor(ev: f64) -> f64 {
    if ev < 1000.0 {
        let e = (0.024 * ev - 4.0).exp();
        e / (1.0 + e)
    } else {
        1.0
    }
}

/// Simplified daylight glare probability from Ev alone (thesis eq. 2.6), capped at 1.
pub fn dgps(ev: f64) -> f64 {
    (6.22e-5 * ev + 0.184).min(1.0)
}

/// Σ (L/P)² ω, the sum of UGR, UGP and CGI.
fn sum_lp2w(sources: &[GlareSource]) -> f64 {
    sources.iter().fold(0.0, |s, g| {
        s + (g.luminance / g.posindex as f64).powf(2.0) * g.omega
    })
}

/// Daylight glare index (Hopkinson–Cornell), single precision as evalglare keeps it.
pub fn dgi(lb: f32, sources: &[GlareSource]) -> f32 {
    let mut sum: f32 = 0.0;
    for g in sources {
        let p = g.posindex as f64;
        let omega_s = (g.omega / p / p) as f32;
        let t = 0.478 * g.luminance.powf(1.6) * (omega_s as f64).powf(0.8)
            / (lb as f64 + 0.07 * g.omega.powf(0.5) * g.luminance);
        sum = (sum as f64 + t) as f32;
    }
    (10.0 * (sum as f64).log10()) as f32
}

/// The modified daylight glare index of Fisekis (2003), with `lum_a` = Ev/π.
pub fn dgi_mod(lum_a: f32, sources: &[GlareSource]) -> f32 {
    let mut sum: f32 = 0.0;
    for g in sources {
        let p = g.posindex as f64;
        let omega_s = (g.omega / p / p) as f32;
        let t = 0.478 * g.luminance.powf(1.6) * (omega_s as f64).powf(0.8)
            / ((lum_a as f64).powf(0.85) + 0.07 * g.omega.powf(0.5) * g.luminance);
        sum = (sum as f64 + t) as f32;
    }
    (10.0 * (sum as f64).log10()) as f32
}

/// Unified glare rating, 8 log10(0.25/Lb Σ L²ω/P²); 0 without sources, -99 for Lb ≤ 0.
pub fn ugr(lb: f64, sources: &[GlareSource]) -> f32 {
    let sum = sum_lp2w(sources);
    let mut u = (8.0 * (0.25 / lb * sum).log10()) as f32;
    if sum == 0.0 {
        u = 0.0;
    }
    if lb <= 0.0 {
        u = -99.0;
    }
    u
}

/// The experimental UGR of Fisekis (2003).
pub fn ugr_exp(lb: f64, lum_a: f64, sources: &[GlareSource]) -> f32 {
    // 1/P in single precision, and the sums in the order of the reference binary.
    let sum = sources.iter().fold(0.0, |s, g| {
        let q = (1.0f32 / g.posindex) as f64;
        s + g.luminance * g.omega * (q * q)
    });
    (8.0 * ((sum / lb).log10() + lum_a.log10())) as f32
}

/// Unified glare probability (Hirning 2014): 0.26 log10(0.25/Lb Σ L²ω/P²).
pub fn ugp(lb: f64, sources: &[GlareSource]) -> f32 {
    (0.26 * (0.25 / lb * sum_lp2w(sources)).log10()) as f32
}

/// The updated unified glare probability (Hirning 2016).
pub fn ugp2(lb: f64, sources: &[GlareSource]) -> f32 {
    let sum = sum_lp2w(sources);
    (1.0 / (1.0 + 2.0 / 7.0 * (sum / lb).powf(-0.2)).powf(10.0)) as f32
}

/// CIE glare index, 8 log10(2 (1 + Ed/500)/Ev Σ L²ω/P²), with `ev_dir` the direct part of Ev.
pub fn cgi(ev: f64, ev_dir: f64, sources: &[GlareSource]) -> f32 {
    let sum = sum_lp2w(sources);
    (8.0 * ((2.0 * (1.0 + ev_dir / 500.0) / ev) * sum).log10()) as f32
}

/// The discomfort glare rating behind VCP, with `lum_a` the average luminance.
pub fn dgr(lum_a: f64, sources: &[GlareSource]) -> f32 {
    let mut sum = 0.0;
    for g in sources {
        sum += (0.5 * g.luminance * (20.4 * g.omega + 1.52 * g.omega.powf(0.2) - 0.075))
            / (g.posindex as f64 * lum_a.powf(0.44));
    }
    sum.powf((sources.len() as f64).powf(-0.0914)) as f32
}

/// Visual comfort probability from DGR (100 below 20, 0 above 750).
pub fn vcp(dgr: f32) -> f32 {
    let d = dgr as f64;
    // evalglare's literal for √2.
    #[allow(clippy::approx_constant)]
    let sqrt2 = 1.414213562373;
    let mut v = (50.0 * libm::erf((6.374 - 1.3227 * d.ln()) / sqrt2) + 50.0) as f32;
    if dgr > 750.0 {
        v = 0.0;
    }
    if dgr < 20.0 {
        v = 100.0;
    }
    v
}

/// Veiling luminance of disability glare after Poynter, 5 Σ L ω cos σ / σ (σ in degrees in the
/// denominator; cd/m²).
pub fn veiling_luminance(sources: &[GlareSource]) -> f32 {
    let deg = 180.0 / PI_EG;
    let mut sum = 0.0;
    for g in sources {
        sum += g.luminance * (g.sigma + 0.00000000001).cos() * g.omega
            / (deg * g.sigma + 0.00000000001);
    }
    (5.0 * sum) as f32
}

/// Veiling luminance of one source by the CIE (Stiles–Holladay) form, 10 Eglare/θ², θ in
/// degrees.
pub fn veiling_luminance_cie(e_glare: f64, theta_deg: f64) -> f64 {
    10.0 * e_glare / (theta_deg * theta_deg + 0.0000000000000001)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(l: f64, w: f64, p: f32) -> GlareSource {
        GlareSource {
            luminance: l,
            omega: w,
            posindex: p,
            direction: [0.0, 1.0, 0.0],
            sigma: 0.0,
            e_glare: l * w,
            pixels: 1.0,
            max_luminance: l,
            position: None,
        }
    }

    #[test]
    fn hand_formulas_for_one_source_on_axis() {
        // One source of 1e6 cd/m² and 1e-4 sr on the axis (P = 1), Ev = 3000 lux.
        let s = [src(1e6, 1e-4, 1.0)];
        let ev: f64 = 3000.0;
        let want = 5.87e-5 * ev + 0.159 + 0.092 * (1.0 + 1e12 * 1e-4 / ev.powf(1.87)).log10();
        assert!((dgp(ev, &s, &DgpCoefficients::default()) - want).abs() < 1e-12);
        let lb: f64 = 500.0;
        let u = 8.0 * (0.25 / lb * 1e12 * 1e-4).log10();
        assert!((ugr(lb, &s) as f64 - u).abs() < 1e-4);
        assert_eq!(ugr(lb, &[]), 0.0);
        assert_eq!(ugr(0.0, &s), -99.0);
        assert!((dgps(1000.0) - (0.0622 + 0.184)).abs() < 1e-12);
        assert_eq!(dgp(1e9, &s, &DgpCoefficients::default()), 1.0);
    }

    #[test]
    fn vcp_limits() {
        assert_eq!(vcp(10.0), 100.0);
        assert_eq!(vcp(800.0), 0.0);
        let v = vcp(100.0);
        assert!(v > 0.0 && v < 100.0);
    }
}
