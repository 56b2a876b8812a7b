//! The four glare classes a designer reads beside a value: imperceptible, perceptible,
//! disturbing, intolerable.
//!
//! - DGP and DGPs: limits 0.35, 0.40 and 0.45 (Wienold 2009; EN 17037 uses the same steps).
//! - UGR: limits 13, 22 and 28, the four-class reading of the CIE 117 scale that glare
//!   studies of daylit spaces use (Jakubiec & Reinhart 2012).
//! - UGP: it is UGR on another scale (both are the logarithm of the same sum, UGP with 0.26
//!   where UGR has 8), so it takes UGR's class at the equivalent UGR.
//! - Ev: the class of the DGPs it gives (DGPs depends on Ev alone).

use crate::metrics::dgps;
use serde::Serialize;

/// A glare class, mildest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GlareClass {
    /// Below the first limit.
    Imperceptible,
    /// From the first limit.
    Perceptible,
    /// From the second limit.
    Disturbing,
    /// From the third limit.
    Intolerable,
}

impl GlareClass {
    /// The class in words, as the page and reports print it.
    pub fn name(self) -> &'static str {
        match self {
            GlareClass::Imperceptible => "imperceptible",
            GlareClass::Perceptible => "perceptible",
            GlareClass::Disturbing => "disturbing",
            GlareClass::Intolerable => "intolerable",
        }
    }

    /// The class of `value` on a scale whose classes start at `limits` (increasing).
    fn on(value: f64, limits: [f64; 3]) -> GlareClass {
        match limits.iter().filter(|&&l| value >= l).count() {
            0 => GlareClass::Imperceptible,
            1 => GlareClass::Perceptible,
            2 => GlareClass::Disturbing,
            _ => GlareClass::Intolerable,
        }
    }
}

/// DGP's (and DGPs') class limits.
pub const DGP_LIMITS: [f64; 3] = [0.35, 0.40, 0.45];

/// UGR's class limits.
pub const UGR_LIMITS: [f64; 3] = [13.0, 22.0, 28.0];

/// The class of a DGP or DGPs value.
pub fn dgp_class(dgp: f64) -> GlareClass {
    GlareClass::on(dgp, DGP_LIMITS)
}

/// The class of a UGR value.
pub fn ugr_class(ugr: f64) -> GlareClass {
    GlareClass::on(ugr, UGR_LIMITS)
}

/// The UGR that a UGP value stands for: `8 / 0.26 × UGP`.
pub fn ugr_of_ugp(ugp: f64) -> f64 {
    ugp * 8.0 / 0.26
}

/// The class of a UGP value (its equivalent UGR's).
pub fn ugp_class(ugp: f64) -> GlareClass {
    ugr_class(ugr_of_ugp(ugp))
}

/// The class of a vertical illuminance at the eye, lux (its DGPs's).
pub fn ev_class(ev: f64) -> GlareClass {
    dgp_class(dgps(ev))
}

/// The classes of one view's values, for pages and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Classes {
    /// DGP's class.
    pub dgp: GlareClass,
    /// DGPs's class.
    pub dgps: GlareClass,
    /// UGP's class (at its equivalent UGR).
    pub ugp: GlareClass,
    /// UGR's class.
    pub ugr: GlareClass,
    /// Ev's class (at its DGPs).
    pub ev: GlareClass,
}

impl Classes {
    /// The classes of the values of one view.
    pub fn of(ev: f64, dgp: f64, dgps_value: f64, ugp: f64, ugr: f64) -> Classes {
        Classes {
            dgp: dgp_class(dgp),
            dgps: dgp_class(dgps_value),
            ugp: ugp_class(ugp),
            ugr: ugr_class(ugr),
            ev: ev_class(ev),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{ugp, ugr, GlareSource};

    #[test]
    fn classes_start_at_their_limits() {
        assert_eq!(dgp_class(0.349), GlareClass::Imperceptible);
        assert_eq!(dgp_class(0.35), GlareClass::Perceptible);
        assert_eq!(dgp_class(0.40), GlareClass::Disturbing);
        assert_eq!(dgp_class(0.45), GlareClass::Intolerable);
        assert_eq!(ugr_class(12.9), GlareClass::Imperceptible);
        assert_eq!(ugr_class(22.0), GlareClass::Disturbing);
        assert_eq!(ugr_class(28.0), GlareClass::Intolerable);
        // DGPs = 6.22e-5 Ev + 0.184 reaches 0.35 at 2669 lx.
        assert_eq!(ev_class(2660.0), GlareClass::Imperceptible);
        assert_eq!(ev_class(2680.0), GlareClass::Perceptible);
    }

    #[test]
    fn ugp_takes_the_class_of_the_ugr_of_the_same_sources() {
        for (lum, lb) in [
            (2e3, 30.0),
            (2e4, 50.0),
            (1e5, 40.0),
            (6e5, 80.0),
            (3e6, 100.0),
        ] {
            let src = [GlareSource {
                luminance: lum,
                omega: 0.01,
                posindex: 1.5,
                direction: [0.0, 1.0, 0.0],
                sigma: 0.3,
                e_glare: 0.0,
                pixels: 1.0,
                max_luminance: lum,
                position: None,
            }];
            let (p, r) = (ugp(lb, &src) as f64, ugr(lb, &src) as f64);
            assert!(
                (ugr_of_ugp(p) - r).abs() < 1e-3 * r.abs().max(1.0),
                "{p} {r}"
            );
            assert_eq!(ugp_class(p), ugr_class(r));
        }
    }
}
