//! The Monte Carlo uncertainty of the metrics of one run, estimated from the run itself.
//!
//! Each sensor's daylight coefficients are traced with its own random numbers, so their
//! noise is independent from sensor to sensor while the true daylight varies smoothly over
//! a work-plane grid. The noise of a per-sensor value is then measured by second
//! differences along the grid's rows and columns, `r = x(k) − (x(k−1) + x(k+1)) / 2`, whose
//! variance is 1.5 σ² for independent noise of variance σ² plus what the true field's
//! curvature adds (a difference-based variance estimate, Gasser, Sroka & Jennen-Steinmetz
//! 1986): an over-estimate where the daylight bends sharply, never an under-estimate on
//! average. σ² of each sensor is the mean of the squared second differences centred on it
//! and on its grid neighbours (3 × 3 cells), divided by 1.5.
//!
//! From the per-sensor σ of DA: mean DA has σ = √Σσ²/N, and sDA, a count of sensors at or
//! above the threshold, has variance Σ q(1 − q)/N² with q = Φ((DA − threshold)/σ), the
//! chance that another seed puts the sensor on the other side. Sensors that are not on a
//! grid (a sensor file) have no neighbours to compare with: no estimate then.

use crate::metrics::AnnualMetrics;
use crate::sensors::SensorSet;
use std::collections::HashMap;

/// One standard deviation of Monte Carlo noise, in the metrics' units (fractions 0..1).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Uncertainty {
    /// sDA.
    #[serde(rename = "sDA")]
    pub sda: f64,
    /// The mean over sensors of DA at the main threshold.
    #[serde(rename = "mean_DA")]
    pub mean_da: f64,
    /// The root mean square over sensors of each sensor's σ of DA.
    #[serde(rename = "DA_per_sensor")]
    pub da_per_sensor: f64,
    /// ASE, where the caller knows it: 0 when the direct sun is traced without random
    /// numbers (the two-phase method's point sun), `None` (null) otherwise.
    #[serde(rename = "ASE")]
    pub ase: Option<f64>,
    /// The sensors whose σ could be estimated (those with grid neighbours).
    pub sensors_estimated: usize,
    /// How it was estimated, in words.
    pub method: &'static str,
}

/// Words for [`Uncertainty::method`].
pub const METHOD: &str =
    "second differences between neighbouring grid sensors (independent noise per sensor)";

/// Standard normal cumulative distribution.
fn phi(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Per-sensor σ of `values` from second differences over the grid (`None` for sensors
/// without grid neighbours).
pub fn per_sensor_sigma(sensors: &SensorSet, values: &[f64]) -> Vec<Option<f64>> {
    let at: HashMap<(usize, i64, i64), usize> = sensors
        .sensors
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.cell.map(|c| ((c.grid, c.i as i64, c.j as i64), k)))
        .collect();
    // Squared second differences centred on each sensor, along i and along j.
    let mut r2: Vec<Vec<f64>> = vec![Vec::new(); values.len()];
    for (&(g, i, j), &k) in &at {
        for (di, dj) in [(1, 0), (0, 1)] {
            let (Some(&a), Some(&b)) = (at.get(&(g, i - di, j - dj)), at.get(&(g, i + di, j + dj)))
            else {
                continue;
            };
            let r = values[k] - 0.5 * (values[a] + values[b]);
            r2[k].push(r * r);
        }
    }
    sensors
        .sensors
        .iter()
        .map(|s| {
            let c = s.cell?;
            let (mut sum, mut n) = (0.0, 0usize);
            for di in -1..=1 {
                for dj in -1..=1 {
                    if let Some(&k) = at.get(&(c.grid, c.i as i64 + di, c.j as i64 + dj)) {
                        sum += r2[k].iter().sum::<f64>();
                        n += r2[k].len();
                    }
                }
            }
            (n > 0).then(|| (sum / n as f64 / 1.5).sqrt())
        })
        .collect()
}

/// Which sensors' `values` lie within two of their Monte Carlo standard errors
/// ([`per_sensor_sigma`]) of `level`: on which side of a pass line they fall is not settled
/// by this run (the maps hatch them). Sensors without grid neighbours are never flagged.
pub fn near_level(sensors: &SensorSet, values: &[f64], level: f64) -> Vec<bool> {
    per_sensor_sigma(sensors, values)
        .iter()
        .zip(values)
        .map(|(s, &v)| s.is_some_and(|s| (v - level).abs() < 2.0 * s))
        .collect()
}

/// The uncertainty of `m`'s DA and sDA (see the module documentation); `None` when no sensor
/// has grid neighbours or the counts do not match.
pub fn estimate(sensors: &SensorSet, m: &AnnualMetrics) -> Option<Uncertainty> {
    if sensors.len() != m.sensors || m.sensors == 0 {
        return None;
    }
    let sigma = per_sensor_sigma(sensors, &m.da);
    let known: Vec<(f64, f64)> = sigma
        .iter()
        .zip(&m.da)
        .filter_map(|(s, &d)| s.map(|s| (s, d)))
        .collect();
    if known.is_empty() {
        return None;
    }
    let n = m.sensors as f64;
    let threshold = m.options.sda_fraction;
    let sum_var: f64 = known.iter().map(|(s, _)| s * s).sum();
    let flips: f64 = known
        .iter()
        .map(|&(s, d)| {
            if s <= 0.0 {
                return 0.0;
            }
            let q = phi((d - threshold) / s);
            q * (1.0 - q)
        })
        .sum();
    Some(Uncertainty {
        sda: flips.sqrt() / n,
        mean_da: sum_var.sqrt() / n,
        da_per_sensor: (sum_var / known.len() as f64).sqrt(),
        ase: None,
        sensors_estimated: known.len(),
        method: METHOD,
    })
}

/// A line for the terminal summary, in percentage points, ending in a newline.
pub fn summary(u: &Uncertainty) -> String {
    let ase = match u.ase {
        Some(a) => format!(", ASE ± {:.1}", 100.0 * a),
        None => String::new(),
    };
    format!(
        "Monte Carlo uncertainty (1 σ, from neighbouring sensors): sDA ± {:.1}{ase}, mean DA ± {:.2}, one sensor's DA ± {:.1} points\n",
        100.0 * u.sda,
        100.0 * u.mean_da,
        100.0 * u.da_per_sensor
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensors::GridOptions;
    use rand::{Rng, SeedableRng};

    fn grid() -> SensorSet {
        let poly = [[0., 0., 0.], [6., 0., 0.], [6., 12., 0.], [0., 12., 0.]];
        SensorSet::from_polygon(
            &poly,
            &GridOptions {
                height: 0.8,
                spacing: 0.2,
            },
        )
        .unwrap()
    }

    #[test]
    fn recovers_the_noise_of_a_smooth_field() {
        let set = grid();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let sigma = 0.02;
        // A linear field plus a gentle bend, with Gaussian noise (Box–Muller).
        let values: Vec<f64> = set
            .sensors
            .iter()
            .map(|s| {
                let [x, y, _] = s.position;
                let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                0.9 - 0.05 * y + 0.002 * x * x + sigma * z
            })
            .collect();
        let est = per_sensor_sigma(&set, &values);
        let rms = (est.iter().map(|s| s.unwrap().powi(2)).sum::<f64>() / est.len() as f64).sqrt();
        assert!((rms / sigma - 1.0).abs() < 0.05, "σ {rms} for {sigma}");
    }

    #[test]
    fn cells_near_the_line_within_their_noise_are_flagged() {
        // A field falling from 0.9 to 0.3 along y with noise σ = 0.02: the sensors flagged
        // are those within about 2σ (0.04) of 0.5, and no sensor far from it.
        let set = grid();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let truth = |y: f64| 0.9 - 0.05 * y;
        let values: Vec<f64> = set
            .sensors
            .iter()
            .map(|s| truth(s.position[1]) + 0.02 * (2.0 * rng.random::<f64>() - 1.0) * 3f64.sqrt())
            .collect();
        let near = near_level(&set, &values, 0.5);
        let flagged: Vec<f64> = set
            .sensors
            .iter()
            .zip(&near)
            .filter(|(_, &n)| n)
            .map(|(s, _)| truth(s.position[1]))
            .collect();
        assert!(!flagged.is_empty());
        assert!(
            flagged.iter().all(|t| (t - 0.5).abs() < 0.12),
            "{flagged:?}"
        );
        // Every sensor whose true value is within 0.01 of the line and whose reading is too.
        for ((s, &v), &n) in set.sensors.iter().zip(&values).zip(&near) {
            if (truth(s.position[1]) - 0.5).abs() < 0.01 && (v - 0.5).abs() < 0.01 {
                assert!(n, "{:?} reads {v}", s.position);
            }
        }
    }

    #[test]
    fn sensors_off_a_grid_have_no_estimate() {
        let mut set = grid();
        for s in &mut set.sensors {
            s.cell = None;
        }
        assert!(per_sensor_sigma(&set, &vec![0.5; set.len()])
            .iter()
            .all(Option::is_none));
    }
}
