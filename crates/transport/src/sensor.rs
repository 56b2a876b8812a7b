//! Illumination sensors with a directional sensitivity, as RADIANCE's `rsensor` computes
//! their signal.
//!
//! A sensor file is a table in RADIANCE's SPOT format: an optional line starting
//! `Elevation `, a line `degrees` followed by azimuths (from 0, increasing, up to 270–360
//! degrees), then rows of a polar angle (from 0, increasing) and one relative sensitivity per
//! azimuth; a blank line ends it. Polar angles beyond the last row with a positive value have
//! no sensitivity; negative values count as 0 (with a warning).
//!
//! The signal is ∫ S(ω) L(ω) dω over the sensor's view. Directions are drawn in proportion
//! to the sensitivity by inverting its table (rows by their weight times their band's solid
//! angle, then azimuths within a row, both linearly interpolated), stratified over the
//! (polar, azimuth) square; each ray's radiance counts ∫S dω / N. Light sources are left out of
//! those rays and added by aiming `-dn` rays at each source, weighted by the sensitivity in
//! its direction and its solid angle, as RADIANCE does, so a small bright source is not left
//! to chance.

use crate::source::SourceSample;
use crate::{Ctx, Renderer};
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use std::f64::consts::PI;

const DEGREE: f64 = PI / 180.0;
const FTINY: f64 = 1e-6;
/// RADIANCE's limits on a sensor table and on the inverted table's polar divisions.
const MAX_THETA: usize = 181;
const MAX_PHI: usize = 360;

/// A sensor's sensitivity table.
#[derive(Clone, Debug)]
pub struct SensitivityTable {
    /// Polar angles of the rows, degrees, increasing from 0.
    thetas: Vec<f64>,
    /// Azimuths of the columns, degrees, increasing from 0.
    phis: Vec<f64>,
    /// Row-major sensitivities, `thetas.len() × phis.len()`.
    values: Vec<f64>,
}

impl SensitivityTable {
    /// Reads a sensor table; `name` names the file in errors. Negative values become 0 and
    /// are reported in the returned warning.
    pub fn parse(text: &str, name: &str) -> Result<(SensitivityTable, Option<String>), String> {
        let mut lines = text.lines().enumerate().peekable();
        if lines
            .peek()
            .is_some_and(|(_, l)| l.starts_with("Elevation "))
        {
            lines.next();
        }
        let (_, head) = lines
            .next()
            .ok_or_else(|| format!("sensor file '{name}': empty"))?;
        let Some(rest) = head.strip_prefix("degrees") else {
            return Err(format!(
                "Missing 'degrees' in sensor file '{name}' (line 1)"
            ));
        };
        let numbers = |l: &str, line: usize| -> Result<Vec<f64>, String> {
            l.split_whitespace()
                .map(|w| {
                    w.parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| {
                            format!("sensor file '{name}', line {line}: \"{w}\" is not a number")
                        })
                })
                .collect()
        };
        let phis = numbers(rest, 1)?;
        for k in 2..phis.len() {
            if phis[k] <= phis[k - 1] + FTINY {
                return Err(format!(
                    "Phi values not monotonically increasing in sensor file '{name}'"
                ));
            }
        }
        let mut thetas = Vec::new();
        let mut values = Vec::new();
        let mut last_positive_row = None;
        let mut negative = false;
        for (k, l) in lines {
            let row = numbers(l, k + 1)?;
            let Some((&theta, vals)) = row.split_first() else {
                break; // a blank line ends the table
            };
            if thetas.len() > 1 && theta <= *thetas.last().unwrap() {
                return Err(format!(
                    "Theta values not monotonically increasing in sensor file '{name}'"
                ));
            }
            if vals.len() != phis.len() {
                return Err(format!(
                    "bad column count near line {} in sensor file '{name}': {} values for {} azimuths",
                    k + 1,
                    vals.len(),
                    phis.len()
                ));
            }
            for &v in vals {
                negative |= v < 0.0;
                if v > FTINY {
                    last_positive_row = Some(thetas.len());
                }
                values.push(v.max(0.0));
            }
            thetas.push(theta);
        }
        let Some(last) = last_positive_row else {
            return Err(format!("no positive sensor values in file '{name}'"));
        };
        thetas.truncate(last + 1);
        values.truncate((last + 1) * phis.len());
        let check = |bad: bool, what: &str| {
            if bad {
                Err(format!("{what} in sensor file '{name}'"))
            } else {
                Ok(())
            }
        };
        check(thetas[0].abs() > FTINY, "minimum theta must be 0")?;
        check(
            phis.first().is_none_or(|p| p.abs() > FTINY),
            "minimum phi must be 0",
        )?;
        let pmax = *phis.last().unwrap();
        check(pmax < 270.0 - FTINY, "maximum phi must be 270 or greater")?;
        check(pmax >= 360.0 - FTINY, "maximum phi must be less than 360")?;
        check(thetas.len() < 2, "at least two polar angles are needed")?;
        check(
            thetas.len() > MAX_THETA,
            "Too many theta rows (181 at most)",
        )?;
        check(phis.len() > MAX_PHI, "Too many phi columns (360 at most)")?;
        let warning =
            negative.then(|| format!("Negative value(s) in sensor file '{name}' (ignored)"));
        Ok((
            SensitivityTable {
                thetas,
                phis,
                values,
            },
            warning,
        ))
    }

    fn value(&self, t: usize, p: usize) -> f64 {
        self.values[t * self.phis.len() + p]
    }
}

/// A sensor's position and orientation: the view point, the unit view direction (polar angle
/// 0), and the up direction (azimuth 0), as rsensor takes them from a view; rays start
/// `fore` along their direction.
#[derive(Clone, Copy, Debug)]
pub struct SensorFrame {
    pub origin: DVec3,
    pub fore: f64,
    dir: DVec3,
    /// RADIANCE's `hvec` (dir × up) and `vvec` (hvec × dir), unit.
    hvec: DVec3,
    vvec: DVec3,
}

impl SensorFrame {
    /// The frame of a view; an error when the directions are zero or parallel.
    pub fn new(origin: DVec3, dir: DVec3, up: DVec3, fore: f64) -> Result<SensorFrame, String> {
        let dir = dir.try_normalize().ok_or("zero view direction")?;
        let up = up.try_normalize().ok_or("zero view up vector")?;
        let hvec = dir
            .cross(up)
            .try_normalize()
            .ok_or("view up parallel to view direction")?;
        if fore < -FTINY {
            return Err("illegal fore clipping plane".into());
        }
        Ok(SensorFrame {
            origin,
            fore,
            dir,
            hvec,
            vvec: hvec.cross(dir),
        })
    }
}

/// A sensor's table inverted for sampling, with the integral of its sensitivity.
#[derive(Clone, Debug)]
pub struct SensorSampler {
    sensor: SensitivityTable,
    /// Polar extent of the sensor, radians.
    max_theta: f64,
    /// 1 − cos θ at the `ntheta + 1` equal-probability polar divisions.
    tvals: Vec<f64>,
    /// Azimuths (radians) at the `nphi + 1` equal-probability divisions of each polar division.
    pvals: Vec<f64>,
    ntheta: usize,
    nphi: usize,
    /// ∫ S dω over the sensor's view.
    pub total: f64,
}

impl SensorSampler {
    /// Inverts `sensor`'s table for `nsamps` rays (the table is not made finer than the
    /// sensor's own).
    pub fn new(sensor: SensitivityTable, nsamps: usize) -> Result<SensorSampler, String> {
        let (nt, np) = (sensor.thetas.len(), sensor.phis.len());
        let th = |t: usize| sensor.thetas[t];
        let ph = |p: usize| sensor.phis[p];
        let max_theta = (DEGREE * (1.5 * th(nt - 1) - 0.5 * th(nt - 2))).min(PI);
        // Band edges half-way between the table's angles, extrapolated at the ends.
        let mid = |a: f64, b: f64| DEGREE / 2.0 * (a + b);
        let thdiv: Vec<f64> = std::iter::once(0.0)
            .chain((1..nt).map(|t| mid(th(t - 1), th(t))))
            .chain([max_theta])
            .collect();
        let phdiv: Vec<f64> = std::iter::once(DEGREE * (1.5 * ph(0) - 0.5 * ph(1)))
            .chain((1..np).map(|p| mid(ph(p - 1), ph(p))))
            .chain([DEGREE * (1.5 * ph(np - 1) - 0.5 * ph(np - 2))])
            .collect();
        let tsize = 1.0 - max_theta.cos();
        let psize = PI * tsize / max_theta;
        let samptot = nsamps.min(nt * np).max(1);
        let ntheta = ((((samptot as f64) * tsize / psize).sqrt() * nt as f64 / np as f64) as usize
            + 1)
        .min(MAX_THETA);
        let nphi = (samptot / ntheta).max(1);
        let mut rowsum = vec![0.0; nt];
        let mut rowomega = vec![0.0; nt];
        let mut total = 0.0;
        for t in 0..nt {
            rowsum[t] = 1e-20 + (0..np).map(|p| sensor.value(t, p)).sum::<f64>();
            rowomega[t] = (thdiv[t].cos() - thdiv[t + 1].cos()) * 2.0 * PI / np as f64;
            total += rowsum[t] * rowomega[t];
        }
        if total <= FTINY {
            return Err("sensor values sum to zero".into());
        }
        let mut tvals = vec![0.0; ntheta + 1];
        let mut pvals = vec![0.0; (ntheta + 1) * (nphi + 1)];
        for i in 0..ntheta {
            // The row holding probability i/ntheta and the fraction across it.
            let mut prob = i as f64 / ntheta as f64;
            let mut t = 0;
            while t < nt {
                prob -= rowsum[t] * rowomega[t] / total;
                if prob <= 0.0 {
                    break;
                }
                t += 1;
            }
            let t0 = t.min(nt - 1);
            let mut frac = 1.0 + prob / (rowsum[t0] * rowomega[t0] / total);
            tvals[i] = 1.0 - ((1.0 - frac) * thdiv[t0].cos() + frac * thdiv[t0 + 1].cos());
            // Table values stand at the rows' centres: blend the two nearest rows.
            let mut t = t0;
            if t < nt - 1 && (t == 0 || frac >= 0.5) {
                frac -= 0.5;
            } else {
                frac += 0.5;
                t -= 1;
            }
            let row = &mut pvals[i * (nphi + 1)..(i + 1) * (nphi + 1)];
            row[0] = phdiv[0];
            let weight = |p: usize| {
                (1.0 - frac) * sensor.value(t, p) / rowsum[t]
                    + frac * sensor.value(t + 1, p) / rowsum[t + 1]
            };
            for (j, slot) in row.iter_mut().enumerate().take(nphi).skip(1) {
                let mut prob = j as f64 / nphi as f64;
                let mut p = 0;
                while p < np {
                    prob -= weight(p);
                    if prob <= 0.0 {
                        break;
                    }
                    p += 1;
                }
                if p >= np {
                    p = np - 1;
                    prob = 0.5;
                }
                let frac1 = 1.0 + prob / weight(p);
                *slot = (1.0 - frac1) * phdiv[p] + frac1 * phdiv[p + 1];
            }
            row[nphi] = phdiv[np];
        }
        pvals.copy_within(
            (ntheta - 1) * (nphi + 1)..ntheta * (nphi + 1),
            ntheta * (nphi + 1),
        );
        tvals[0] = 0.0;
        tvals[ntheta] = tsize;
        Ok(SensorSampler {
            sensor,
            max_theta,
            tvals,
            pvals,
            ntheta,
            nphi,
            total,
        })
    }

    /// The direction for a point (x, y) of the unit square.
    fn direction(&self, frame: &SensorFrame, x: f64, y: f64) -> DVec3 {
        let xf = x * self.ntheta as f64;
        let t = (xf as usize).min(self.ntheta - 1);
        let yf = y * self.nphi as f64;
        let p = (yf as usize).min(self.nphi - 1);
        let (xf, yf) = (xf - t as f64, yf - p as f64);
        let k = t * (self.nphi + 1) + p;
        let z = 1.0 - ((1.0 - xf) * self.tvals[t] + xf * self.tvals[t + 1]);
        let rad = (1.0 - z * z).max(0.0).sqrt();
        let phi = (1.0 - yf) * self.pvals[k] + yf * self.pvals[k + 1];
        -rad * phi.sin() * frame.hvec + rad * phi.cos() * frame.vvec + z * frame.dir
    }

    /// The sensitivity in unit direction `d`: the table entry whose angles are nearest.
    pub fn sensitivity(&self, frame: &SensorFrame, d: DVec3) -> f64 {
        let theta = d.dot(frame.dir).clamp(-1.0, 1.0).acos();
        if theta >= self.max_theta {
            return 0.0;
        }
        let mut phi = (-d.dot(frame.hvec)).atan2(d.dot(frame.vvec));
        if phi < 0.0 {
            phi += 2.0 * PI;
        }
        let s = &self.sensor;
        let (nt, np) = (s.thetas.len(), s.phis.len());
        let mut t = ((theta / self.max_theta * nt as f64) as usize).min(nt - 1);
        let mut p = ((phi / (2.0 * PI) * np as f64) as usize).min(np - 1);
        let (theta, phi) = (theta / DEGREE, phi / DEGREE);
        while t + 1 < nt && theta >= s.thetas[t + 1] {
            t += 1;
        }
        while t >= 1 && theta <= s.thetas[t - 1] {
            t -= 1;
        }
        while p + 1 < np && phi >= s.phis[p + 1] {
            p += 1;
        }
        while p >= 1 && phi <= s.phis[p - 1] {
            p -= 1;
        }
        s.value(t, p)
    }

    /// `nsamps` ray directions: a stratified grid over the sampling square, the rest at
    /// random, each standing for `total / nsamps` of the sensitivity.
    pub fn directions(&self, frame: &SensorFrame, nsamps: usize, seed: u64) -> Vec<DVec3> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let nt = (((nsamps as f64 * self.ntheta as f64 / self.nphi as f64).sqrt() + 0.5) as usize)
            .clamp(1, nsamps.max(1));
        let np = nsamps / nt;
        let mut out = Vec::with_capacity(nsamps);
        for i in 0..nt {
            for j in 0..np {
                let x = (i as f64 + rng.random::<f64>()) / nt as f64;
                let y = (j as f64 + rng.random::<f64>()) / np as f64;
                out.push(self.direction(frame, x, y));
            }
        }
        while out.len() < nsamps {
            let (x, y) = (rng.random::<f64>(), rng.random::<f64>());
            out.push(self.direction(frame, x, y));
        }
        out
    }
}

impl Renderer {
    /// The sensor's signal, ∫ S L dω, from `nsamps` rays drawn by the sensitivity and, when
    /// `ndsamps` > 0, the light sources sampled apart (`ndsamps` rays at each when sources are
    /// jittered, one otherwise). Deterministic for a seed and any thread count.
    pub fn sensor_signal(
        &self,
        sampler: &SensorSampler,
        frame: &SensorFrame,
        nsamps: usize,
        ndsamps: usize,
        seed: u64,
    ) -> DVec3 {
        let dirs = sampler.directions(frame, nsamps, seed);
        let start = |d: DVec3| frame.origin + d * frame.fore.max(0.0);
        let trace = |ctx: &mut Ctx, d: DVec3| {
            if ndsamps > 0 {
                self.specular_radiance(start(d), d, ctx)
            } else {
                self.radiance(start(d), d, ctx).value
            }
        };
        let cache = self.build_irradiance_cache_if_asked(dirs.len(), |rd, i, ctx| {
            let d = dirs[i];
            if ndsamps > 0 {
                rd.specular_radiance(start(d), d, ctx);
            } else {
                rd.radiance(start(d), d, ctx);
            }
        });
        let base = seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let values: Vec<DVec3> = dirs
            .par_iter()
            .enumerate()
            .map(|(i, &d)| {
                let mut ctx = self.ctx(base.wrapping_add(i as u64));
                ctx.use_irradiance_cache(cache.clone());
                trace(&mut ctx, d)
            })
            .collect();
        let mut sum = values.iter().sum::<DVec3>() * (sampler.total / nsamps.max(1) as f64);
        let ndirs = if self.opts.dj > FTINY {
            ndsamps
        } else {
            ndsamps.min(1)
        };
        let mut rng = Pcg64Mcg::seed_from_u64(base ^ 0x5851_f42d_4c95_7f2d);
        let mut ctx = self.ctx(base.wrapping_sub(1));
        let mut samples: Vec<SourceSample> = Vec::new();
        for _ in 0..ndirs {
            for src in &self.sources {
                samples.clear();
                src.samples(
                    frame.origin,
                    1.0,
                    self.opts.ds,
                    self.opts.dj,
                    &mut rng,
                    &mut samples,
                );
                for s in &samples {
                    let sens = sampler.sensitivity(frame, s.dir);
                    if sens <= FTINY {
                        continue;
                    }
                    let value = self.shadow_value(frame.origin, s.dir, &mut ctx);
                    sum += value * (sens * s.omega / ndirs as f64);
                }
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPOT: &str = "degrees\t0\t90\t180\t270\n0\t.02\t.04\t.02\t.04\n45\t.01\t.02\t.01\t.02\n90\t.001\t.002\t.001\t.002\n";

    fn frame() -> SensorFrame {
        SensorFrame::new(DVec3::ZERO, DVec3::Z, DVec3::X, 0.0).unwrap()
    }

    #[test]
    fn the_manual_example_reads() {
        let (s, warn) = SensitivityTable::parse(SPOT, "spot").unwrap();
        assert!(warn.is_none());
        assert_eq!(s.thetas, vec![0.0, 45.0, 90.0]);
        assert_eq!(s.phis.len(), 4);
        assert_eq!(s.value(1, 1), 0.02);
    }

    #[test]
    fn malformed_tables_are_errors() {
        for (text, want) in [
            ("", "empty"),
            ("deg 0 90 180 270\n0 1 1 1 1\n", "degrees"),
            ("degrees 0 90 180\n0 1 1 1\n10 1 1 1\n", "270 or greater"),
            (
                "degrees 0 90 180 360\n0 1 1 1 1\n10 1 1 1 1\n",
                "less than 360",
            ),
            ("degrees 0 90 180 270\n0 1 1 1\n", "column count"),
            ("degrees 0 90 180 270\n0 0 0 0 0\n", "no positive"),
            (
                "degrees 0 90 180 270\n5 1 1 1 1\n10 1 1 1 1\n",
                "minimum theta",
            ),
            (
                "degrees 0 90 180 270\n0 1 1 1 1\n20 1 1 1 1\n10 1 1 1 1\n",
                "Theta values",
            ),
            ("degrees 0 90 x 270\n", "not a number"),
        ] {
            let e = SensitivityTable::parse(text, "s").unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let (_, warn) =
            SensitivityTable::parse("degrees 0 90 180 270\n0 1 -1 1 1\n10 1 1 1 1\n", "s").unwrap();
        assert!(warn.unwrap().contains("Negative"));
    }

    #[test]
    fn the_integral_is_the_table_over_its_bands() {
        // A uniform sensitivity of 1 in rows 0, 45 and 90 degrees: the last band ends half a
        // step beyond the last row, at 112.5 degrees; the integral is that cap's solid angle.
        let text = "degrees 0 90 180 270\n0 1 1 1 1\n45 1 1 1 1\n90 1 1 1 1\n";
        let (s, _) = SensitivityTable::parse(text, "u").unwrap();
        let smp = SensorSampler::new(s, 10_000).unwrap();
        let max_theta: f64 = 112.5f64.to_radians();
        let want = 2.0 * PI * (1.0 - max_theta.cos());
        assert!(
            (smp.total - want).abs() < 1e-12 * want,
            "{} {want}",
            smp.total
        );
    }

    #[test]
    fn directions_follow_the_sensitivity() {
        // The share of directions in each polar band is the band's share of ∫ S dω (bands
        // end half-way between the rows: 22.5 and 67.5 degrees, and 112.5).
        let (s, _) = SensitivityTable::parse(SPOT, "spot").unwrap();
        let smp = SensorSampler::new(s, 4000).unwrap();
        let f = frame();
        let dirs = smp.directions(&f, 4000, 7);
        assert_eq!(dirs.len(), 4000);
        for d in &dirs {
            assert!((d.length() - 1.0).abs() < 1e-9);
            assert!(d.dot(f.dir).acos() <= smp.max_theta + 1e-9);
        }
        let edges = [0.0f64, 22.5, 67.5, 112.5].map(|a| a.to_radians().cos());
        let rows = [0.12, 0.06, 0.006];
        let weights: Vec<f64> = (0..3)
            .map(|t| rows[t] * (edges[t] - edges[t + 1]) * PI / 2.0)
            .collect();
        let total: f64 = weights.iter().sum();
        assert!(
            (smp.total / total - 1.0).abs() < 1e-6,
            "{} {total}",
            smp.total
        );
        // The inverted table is as coarse as the sensor's (12 entries here): its polar
        // divisions sit where the bands' cumulative weight is k / ntheta, and that share of
        // the directions falls inside each.
        let cumulative = |one_minus_cos: f64| {
            let c = 1.0 - one_minus_cos;
            (0..3)
                .map(|t| {
                    let inside = (edges[t].min(1.0) - c.max(edges[t + 1])).max(0.0);
                    rows[t] * inside * PI / 2.0
                })
                .sum::<f64>()
                / total
        };
        for k in 1..smp.ntheta {
            let want = k as f64 / smp.ntheta as f64;
            assert!(
                (cumulative(smp.tvals[k]) - want).abs() < 1e-9,
                "division {k}"
            );
            let n = dirs.iter().filter(|d| 1.0 - d.z < smp.tvals[k]).count();
            let got = n as f64 / dirs.len() as f64;
            assert!((got - want).abs() < 0.01, "division {k}: {got} {want}");
        }
        // The look-up takes the entry at or below the angles, as RADIANCE's does.
        let d = |theta: f64, phi: f64| {
            let (t, p) = (theta.to_radians(), phi.to_radians());
            -t.sin() * p.sin() * f.hvec + t.sin() * p.cos() * f.vvec + t.cos() * f.dir
        };
        assert_eq!(smp.sensitivity(&f, d(10.0, 80.0)), 0.02);
        assert_eq!(smp.sensitivity(&f, d(50.0, 100.0)), 0.02);
        assert_eq!(smp.sensitivity(&f, d(100.0, 300.0)), 0.002);
        assert_eq!(smp.sensitivity(&f, d(120.0, 0.0)), 0.0);
    }

    /// Mutated sensor files are errors or samplers, never a panic, and what parses samples
    /// unit directions.
    #[test]
    fn mutated_tables_never_panic() {
        let base = SPOT.as_bytes().to_vec();
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let f = frame();
        for _ in 0..3000 {
            let mut t = base.clone();
            for _ in 0..rng.random_range(1..6) {
                let k = rng.random_range(0..t.len());
                match rng.random_range(0..3) {
                    0 => {
                        let pick = b"0123456789 .-\n\te";
                        t[k] = pick[rng.random_range(0..pick.len())];
                    }
                    1 => {
                        t.remove(k);
                    }
                    _ => {
                        let piece = t[k..(k + 6).min(t.len())].to_vec();
                        t.splice(k..k, piece);
                    }
                }
            }
            let Ok((s, _)) = SensitivityTable::parse(&String::from_utf8_lossy(&t), "m") else {
                continue;
            };
            let Ok(smp) = SensorSampler::new(s, 200) else {
                continue;
            };
            for d in smp.directions(&f, 50, 1) {
                assert!(d.is_finite(), "{:?}", String::from_utf8_lossy(&t));
                let _ = smp.sensitivity(&f, d);
            }
        }
    }
}
