//! Climate-based daylight metrics from hourly illuminance.
//!
//! Every metric counts only the **occupied hours** of the [`Schedule`]; fractions are of the
//! number of occupied hours `N`. With `E` a sensor's illuminance (lux) at an hour:
//!
//! | metric | rule |
//! | --- | --- |
//! | DA at `t` (default 300, and 150) | fraction of occupied hours with `E ≥ t` |
//! | cDA at `t` (the main DA threshold) | mean over occupied hours of `clamp(E / t, 0, 1)` |
//! | UDI-n (fell short) | fraction with `E < lower` (default 100 lux) |
//! | UDI-a (achieved, "UDI") | fraction with `lower ≤ E ≤ upper` (default 2000 lux) |
//! | UDI-e (exceeded) | fraction with `E > upper` |
//! | mean illuminance | mean of `E` over occupied hours |
//! | ASE hours | occupied hours with direct-sun illuminance `≥ 1000` lux |
//!
//! Over the space (IES LM-83-12):
//! - **sDA300/50%**: the fraction of sensors whose DA300 `≥ 0.5` (they "meet or exceed
//!   300 lux for at least 50% of the analysis hours"). LM-83 asks that operable blinds be
//!   closed when more than 2% of the sensors receive over 1000 lux of direct sun; doing so
//!   is up to whoever computes the illuminance passed in.
//! - **ASE1000,250**: the fraction of sensors whose direct-sun-only illuminance (sun alone,
//!   no interreflection, blinds open) is `≥ 1000` lux for **more than** 250 occupied hours
//!   (250 hours is not enough, 251 is).
//!
//! Sensors are worked on in parallel (rayon); values must be finite.

use crate::schedule::Schedule;
use rayon::prelude::*;
use serde::Serialize;

/// Thresholds of the metrics; [`Default`] gives LM-83's and UDI's usual values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MetricOptions {
    /// DA, cDA and sDA illuminance threshold, lux (300).
    pub da_threshold: f32,
    /// Second DA threshold, lux (150).
    pub da_low_threshold: f32,
    /// Lower UDI bound, lux (100): below it is UDI-n.
    pub udi_lower: f32,
    /// Upper UDI bound, lux (2000): above it is UDI-e.
    pub udi_upper: f32,
    /// A sensor counts towards sDA when its DA is at least this (0.5).
    pub sda_fraction: f64,
    /// Direct-sun illuminance threshold of ASE, lux (1000).
    pub ase_threshold: f32,
    /// A sensor counts towards ASE when it is sunlit for more than this many occupied hours
    /// (250).
    pub ase_hours: u32,
}

impl Default for MetricOptions {
    fn default() -> Self {
        MetricOptions {
            da_threshold: 300.0,
            da_low_threshold: 150.0,
            udi_lower: 100.0,
            udi_upper: 2000.0,
            sda_fraction: 0.5,
            ase_threshold: 1000.0,
            ase_hours: 250,
        }
    }
}

/// How a sensors × hours array is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `values[sensor * hours + hour]`: one row per sensor (as `rmtxop` writes a
    /// daylight-coefficient × sky-matrix product).
    SensorMajor,
    /// `values[hour * sensors + sensor]`: one row per hour.
    HourMajor,
}

/// Illuminance (lux) of every sensor at every hour, borrowed.
#[derive(Clone, Copy, Debug)]
pub struct Illuminance<'a> {
    /// `sensors × hours` values, laid out as `layout` says.
    pub values: &'a [f32],
    /// Number of sensors.
    pub sensors: usize,
    /// Number of hours (the schedule's length).
    pub hours: usize,
    /// Layout of `values`.
    pub layout: Layout,
}

impl<'a> Illuminance<'a> {
    /// Sensor-major values (`values[sensor * hours + hour]`).
    pub fn sensor_major(values: &'a [f32], sensors: usize, hours: usize) -> Self {
        Illuminance {
            values,
            sensors,
            hours,
            layout: Layout::SensorMajor,
        }
    }

    /// Hour-major values (`values[hour * sensors + sensor]`).
    pub fn hour_major(values: &'a [f32], sensors: usize, hours: usize) -> Self {
        Illuminance {
            values,
            sensors,
            hours,
            layout: Layout::HourMajor,
        }
    }

    pub(crate) fn at(&self, sensor: usize, hour: usize) -> f32 {
        match self.layout {
            Layout::SensorMajor => self.values[sensor * self.hours + hour],
            Layout::HourMajor => self.values[hour * self.sensors + sensor],
        }
    }
}

/// The inputs do not fit together.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MetricsError {
    /// An array's length is not sensors × hours.
    #[error("{what}: {len} values, expected {sensors} sensors × {hours} hours = {expected}")]
    Shape {
        /// Which array.
        what: &'static str,
        /// Its length.
        len: usize,
        /// Sensors.
        sensors: usize,
        /// Hours.
        hours: usize,
        /// sensors × hours.
        expected: usize,
    },
    /// Two arrays or the schedule disagree on a count.
    #[error("{0}")]
    Mismatch(String),
    /// The schedule has no occupied hour, so no fraction is defined.
    #[error("the occupancy schedule has no occupied hour")]
    NoOccupiedHours,
    /// There are no sensors.
    #[error("no sensors")]
    NoSensors,
    /// A value at an occupied hour is not a finite number.
    #[error("{what}: sensor {sensor}, hour {hour}: value {value} is not a finite number")]
    NotFinite {
        /// Which array.
        what: &'static str,
        /// Sensor index.
        sensor: usize,
        /// Hour index.
        hour: usize,
        /// The value.
        value: f32,
    },
}

/// The metrics of one analysis; per-sensor vectors are in sensor order.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnualMetrics {
    /// The thresholds used.
    pub options: MetricOptions,
    /// Number of sensors.
    pub sensors: usize,
    /// Hours in the year (schedule length).
    pub hours: usize,
    /// Occupied hours.
    pub occupied_hours: usize,
    /// DA at [`MetricOptions::da_threshold`], 0..1.
    pub da: Vec<f64>,
    /// DA at [`MetricOptions::da_low_threshold`], 0..1.
    pub da_low: Vec<f64>,
    /// Continuous DA at [`MetricOptions::da_threshold`], 0..1.
    pub cda: Vec<f64>,
    /// UDI-n: fraction of occupied hours below the lower bound.
    pub udi_n: Vec<f64>,
    /// UDI-a: fraction of occupied hours within the bounds (inclusive).
    pub udi_a: Vec<f64>,
    /// UDI-e: fraction of occupied hours above the upper bound.
    pub udi_e: Vec<f64>,
    /// Mean illuminance over occupied hours, lux.
    pub mean_lux: Vec<f64>,
    /// Occupied hours with direct-sun illuminance at or above the ASE threshold (only with
    /// direct-sun input).
    pub ase_hours: Option<Vec<u32>>,
    /// sDA: fraction of sensors with `da ≥ sda_fraction`.
    pub sda: f64,
    /// ASE: fraction of sensors with `ase_hours > options.ase_hours` (only with direct-sun
    /// input).
    pub ase: Option<f64>,
}

/// Counts for one sensor.
#[derive(Clone, Copy, Default)]
struct Acc {
    da: u32,
    da_low: u32,
    udi_n: u32,
    udi_e: u32,
    cda: f64,
    sum: f64,
    ase: u32,
    /// First non-finite value seen (hour index), total then direct.
    bad: Option<(bool, usize)>,
}

struct Thresholds {
    da: f32,
    da_low: f32,
    lower: f32,
    upper: f32,
    inv_da: f64,
    ase: f32,
}

impl Acc {
    #[inline]
    fn add(&mut self, t: &Thresholds, e: f32, hour: usize) {
        if !e.is_finite() {
            self.bad.get_or_insert((true, hour));
            return;
        }
        self.da += (e >= t.da) as u32;
        self.da_low += (e >= t.da_low) as u32;
        self.udi_n += (e < t.lower) as u32;
        self.udi_e += (e > t.upper) as u32;
        self.cda += (e as f64 * t.inv_da).clamp(0.0, 1.0);
        self.sum += e as f64;
    }

    #[inline]
    fn add_direct(&mut self, t: &Thresholds, e: f32, hour: usize) {
        if !e.is_finite() {
            self.bad.get_or_insert((false, hour));
        }
        self.ase += (e >= t.ase) as u32;
    }
}

/// Sensors per block when reading hour-major arrays (a few cache lines per hour row).
const BLOCK: usize = 64;

/// Computes every metric. `direct_sun` (same sensors and hours, any layout) enables ASE.
pub fn compute(
    total: &Illuminance,
    direct_sun: Option<&Illuminance>,
    schedule: &Schedule,
    options: &MetricOptions,
) -> Result<AnnualMetrics, MetricsError> {
    check_shape("illuminance", total)?;
    if total.hours != schedule.len() {
        return Err(MetricsError::Mismatch(format!(
            "illuminance has {} hours but the schedule has {}",
            total.hours,
            schedule.len()
        )));
    }
    if let Some(d) = direct_sun {
        check_shape("direct-sun illuminance", d)?;
        if d.sensors != total.sensors || d.hours != total.hours {
            return Err(MetricsError::Mismatch(format!(
                "direct-sun illuminance is {} sensors × {} hours, illuminance {} × {}",
                d.sensors, d.hours, total.sensors, total.hours
            )));
        }
    }
    if total.sensors == 0 {
        return Err(MetricsError::NoSensors);
    }
    let occupied: Vec<usize> = schedule.occupied_indices();
    if occupied.is_empty() {
        return Err(MetricsError::NoOccupiedHours);
    }
    let t = Thresholds {
        da: options.da_threshold,
        da_low: options.da_low_threshold,
        lower: options.udi_lower,
        upper: options.udi_upper,
        inv_da: 1.0 / options.da_threshold as f64,
        ase: options.ase_threshold,
    };
    let mut accs = vec![Acc::default(); total.sensors];
    accumulate(&mut accs, total, &occupied, |a, e, h| a.add(&t, e, h));
    if let Some(d) = direct_sun {
        accumulate(&mut accs, d, &occupied, |a, e, h| a.add_direct(&t, e, h));
    }
    if let Some((s, (is_total, hour))) = accs
        .iter()
        .enumerate()
        .find_map(|(s, a)| a.bad.map(|b| (s, b)))
    {
        let (what, arr) = if is_total {
            ("illuminance", total)
        } else {
            ("direct-sun illuminance", direct_sun.unwrap_or(total))
        };
        return Err(MetricsError::NotFinite {
            what,
            sensor: s,
            hour,
            value: arr.at(s, hour),
        });
    }
    let n = occupied.len() as f64;
    let frac = |f: fn(&Acc) -> f64| accs.iter().map(|a| f(a) / n).collect::<Vec<f64>>();
    let da = frac(|a| a.da as f64);
    let udi_n = frac(|a| a.udi_n as f64);
    let udi_e = frac(|a| a.udi_e as f64);
    let udi_a = accs
        .iter()
        .map(|a| (occupied.len() as u32 - a.udi_n - a.udi_e) as f64 / n)
        .collect();
    let sensors = total.sensors as f64;
    let sda = da.iter().filter(|&&d| d >= options.sda_fraction).count() as f64 / sensors;
    let ase_hours: Option<Vec<u32>> = direct_sun.map(|_| accs.iter().map(|a| a.ase).collect());
    let ase = ase_hours
        .as_ref()
        .map(|h| h.iter().filter(|&&c| c > options.ase_hours).count() as f64 / sensors);
    Ok(AnnualMetrics {
        options: *options,
        sensors: total.sensors,
        hours: total.hours,
        occupied_hours: occupied.len(),
        da_low: frac(|a| a.da_low as f64),
        cda: frac(|a| a.cda),
        mean_lux: frac(|a| a.sum),
        da,
        udi_n,
        udi_a,
        udi_e,
        ase_hours,
        sda,
        ase,
    })
}

fn check_shape(what: &'static str, a: &Illuminance) -> Result<(), MetricsError> {
    let expected = a.sensors.saturating_mul(a.hours);
    if a.values.len() == expected {
        Ok(())
    } else {
        Err(MetricsError::Shape {
            what,
            len: a.values.len(),
            sensors: a.sensors,
            hours: a.hours,
            expected,
        })
    }
}

/// Feeds every occupied value of `a` to `f`, in parallel over sensors.
fn accumulate(
    accs: &mut [Acc],
    a: &Illuminance,
    occupied: &[usize],
    f: impl Fn(&mut Acc, f32, usize) + Sync,
) {
    match a.layout {
        Layout::SensorMajor => {
            accs.par_iter_mut()
                .zip(a.values.par_chunks(a.hours))
                .for_each(|(acc, row)| {
                    for &h in occupied {
                        f(acc, row[h], h);
                    }
                });
        }
        Layout::HourMajor => {
            // Blocks of sensors so that each hour row is read a few cache lines at a time.
            accs.par_chunks_mut(BLOCK)
                .enumerate()
                .for_each(|(b, block)| {
                    let s0 = b * BLOCK;
                    for &h in occupied {
                        let row = &a.values[h * a.sensors + s0..][..block.len()];
                        for (acc, &e) in block.iter_mut().zip(row) {
                            f(acc, e, h);
                        }
                    }
                });
        }
    }
}
