//! Reports of the metrics: JSON, per-sensor CSV, a terminal summary, and atomic file writing.
//!
//! # JSON ([`json`])
//! ```text
//! { "sDA": 0.62, "ASE": 0.1 | null, "occupied_hours": 3650, "hours": 8760,
//!   "sensor_count": 48, "settings": { "da_threshold": 300, ... },
//!   "per_sensor": { "DA": [...], "DA150": [...], "cDA": [...], "UDI": [...],
//!                   "UDI_n": [...], "UDI_e": [...], "mean_lux": [...],
//!                   "ASE_hours": [...] | null } }
//! ```
//! Fractions are 0..1. `DA` and `cDA` are at `settings.da_threshold`; the second DA key is
//! named after `settings.da_low_threshold` (`DA150` by default); `UDI` is the in-band UDI-a.
//! `ASE` and `ASE_hours` are `null` when no direct-sun illuminance was given.
//! `daylit annual` adds `"method"`, a `"provenance"` and an `"uncertainty"` object
//! ([`write_json_with`]) and starts the CSV with `#` lines saying how it was made
//! ([`write_csv_with`]).

use crate::metrics::AnnualMetrics;
use crate::sensors::SensorSet;
use crate::uncertainty::Uncertainty;
use daylit_radfile::provenance::Provenance;
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Writing a report failed.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file could not be written.
    #[error("cannot write {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A result could not be written in place.
    #[error(transparent)]
    Output(#[from] daylit_radfile::AtomicError),
    /// Sensors and metrics do not match.
    #[error("{0}")]
    Mismatch(String),
    /// Drawing a map failed.
    #[error("cannot draw map {title}: {message}")]
    Draw {
        /// The map's title.
        title: String,
        /// What went wrong.
        message: String,
    },
}

/// Writes `bytes` to `path` atomically (see [`daylit_radfile::atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    Ok(daylit_radfile::write_atomic(path, bytes)?)
}

/// Name of the second DA column/key, e.g. `DA150`.
fn da_name(threshold: f32) -> String {
    format!("DA{threshold}")
}

/// The metrics as a JSON value (see the module documentation for the keys).
pub fn json_value(m: &AnnualMetrics) -> Value {
    let mut per = Map::new();
    per.insert("DA".into(), json!(m.da));
    per.insert(da_name(m.options.da_low_threshold), json!(m.da_low));
    per.insert("cDA".into(), json!(m.cda));
    per.insert("UDI".into(), json!(m.udi_a));
    per.insert("UDI_n".into(), json!(m.udi_n));
    per.insert("UDI_e".into(), json!(m.udi_e));
    per.insert("mean_lux".into(), json!(m.mean_lux));
    per.insert("ASE_hours".into(), json!(m.ase_hours));
    json!({
        "sDA": m.sda,
        "ASE": m.ase,
        "occupied_hours": m.occupied_hours,
        "hours": m.hours,
        "sensor_count": m.sensors,
        "settings": m.options,
        "per_sensor": per,
    })
}

/// The hours a window group spent in each of its states over the occupied hours (runs by
/// the three- and five-phase methods, whose shades change hour by hour).
#[derive(Clone, Debug, PartialEq)]
pub struct WindowStates {
    /// The group (its BSDF material's name).
    pub group: String,
    /// Each state's name and its occupied hours, in the group's order of states.
    pub occupied_hours: Vec<(String, usize)>,
}

/// [`json_value`] with the simulation method and, for matrix methods, the hours each window
/// group spent in each state.
pub fn json_value_with(m: &AnnualMetrics, method: &str, windows: &[WindowStates]) -> Value {
    let mut v = json_value(m);
    v["method"] = json!(method);
    if !windows.is_empty() {
        v["window_groups"] = Value::Array(
            windows
                .iter()
                .map(|w| {
                    let hours: Map<String, Value> = w
                        .occupied_hours
                        .iter()
                        .map(|(s, h)| (s.clone(), json!(h)))
                        .collect();
                    json!({"group": w.group, "occupied_hours_per_state": hours})
                })
                .collect(),
        );
    }
    v
}

/// Lines for the terminal summary: each window group's occupied hours per state.
pub fn window_summary(windows: &[WindowStates]) -> String {
    let mut out = String::new();
    for w in windows {
        let total: usize = w.occupied_hours.iter().map(|(_, h)| h).sum();
        let parts: Vec<String> = w
            .occupied_hours
            .iter()
            .map(|(s, h)| {
                format!(
                    "{s} {h} h ({:.0} %)",
                    100.0 * *h as f64 / total.max(1) as f64
                )
            })
            .collect();
        let _ = writeln!(out, "window group {}: {}", w.group, parts.join(", "));
    }
    out
}

/// Writes [`json_value_with`] atomically, pretty-printed, with a `"provenance"` object (how
/// the result was made, [`Provenance`]) and an `"uncertainty"` object (one standard
/// deviation of Monte Carlo noise, [`Uncertainty`]) when they are given.
pub fn write_json_with(
    path: &Path,
    m: &AnnualMetrics,
    method: &str,
    windows: &[WindowStates],
    provenance: Option<&Provenance>,
    uncertainty: Option<&Uncertainty>,
) -> Result<(), ReportError> {
    let mut v = json_value_with(m, method, windows);
    if let Some(p) = provenance {
        v["provenance"] = json!(p);
    }
    if let Some(u) = uncertainty {
        v["uncertainty"] = json!(u);
    }
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    write_atomic(path, s.as_bytes())
}

/// The metrics as pretty-printed JSON text, ending in a newline.
pub fn json(m: &AnnualMetrics) -> String {
    let mut s = serde_json::to_string_pretty(&json_value(m)).unwrap_or_default();
    s.push('\n');
    s
}

/// Per-sensor CSV: a header row, then one row per sensor in order:
/// `x,y,z,DA300,DA150,cDA300,UDI_n,UDI_a,UDI_e,mean_lux,ASE_hours` (names follow the
/// thresholds; `ASE_hours` is empty without direct-sun input).
pub fn csv(sensors: &SensorSet, m: &AnnualMetrics) -> Result<String, ReportError> {
    check_count(sensors, m)?;
    let o = &m.options;
    let mut out = format!(
        "x,y,z,{},{},cDA{},UDI_n,UDI_a,UDI_e,mean_lux,ASE_hours\n",
        da_name(o.da_threshold),
        da_name(o.da_low_threshold),
        o.da_threshold
    );
    for (k, s) in sensors.sensors.iter().enumerate() {
        let [x, y, z] = s.position;
        let ase = m
            .ase_hours
            .as_ref()
            .map(|h| h[k].to_string())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{x},{y},{z},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.1},{ase}",
            m.da[k], m.da_low[k], m.cda[k], m.udi_n[k], m.udi_a[k], m.udi_e[k], m.mean_lux[k]
        );
    }
    Ok(out)
}

pub(crate) fn check_count(sensors: &SensorSet, m: &AnnualMetrics) -> Result<(), ReportError> {
    if sensors.len() == m.sensors {
        Ok(())
    } else {
        Err(ReportError::Mismatch(format!(
            "{} sensors but metrics for {}",
            sensors.len(),
            m.sensors
        )))
    }
}

/// A few aligned lines for the terminal, ending in a newline.
pub fn summary(m: &AnnualMetrics) -> String {
    let o = &m.options;
    let pct = |v: f64| format!("{:5.1} %", 100.0 * v);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let count = |f: f64| (f * m.sensors as f64).round() as usize;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Annual daylight: {} sensors, {} hours, {} occupied",
        m.sensors, m.hours, m.occupied_hours
    );
    let rows: Vec<(String, String)> = vec![
        (
            format!(
                "sDA{}/{}%",
                o.da_threshold,
                (o.sda_fraction * 100.0).round()
            ),
            format!(
                "{}  ({} of {} sensors)",
                pct(m.sda),
                count(m.sda),
                m.sensors
            ),
        ),
        (
            format!("ASE{},{}", o.ase_threshold, o.ase_hours),
            match m.ase {
                Some(a) => format!("{}  ({} of {} sensors)", pct(a), count(a), m.sensors),
                None => "not computed (no direct-sun illuminance)".to_string(),
            },
        ),
        (format!("mean DA{}", o.da_threshold), pct(mean(&m.da))),
        (
            format!("mean DA{}", o.da_low_threshold),
            pct(mean(&m.da_low)),
        ),
        (format!("mean cDA{}", o.da_threshold), pct(mean(&m.cda))),
        (
            format!("mean UDI {}–{} lux", o.udi_lower, o.udi_upper),
            format!(
                "{}  (below {}, above {})",
                pct(mean(&m.udi_a)),
                pct(mean(&m.udi_n)).trim(),
                pct(mean(&m.udi_e)).trim()
            ),
        ),
        (
            "mean illuminance".to_string(),
            format!("{:7.0} lux (occupied hours)", mean(&m.mean_lux)),
        ),
    ];
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    for (k, v) in rows {
        let pad = width - k.chars().count();
        let _ = writeln!(out, "  {k}{}  {v}", " ".repeat(pad));
    }
    out
}

/// Writes [`json`] to `path` atomically.
pub fn write_json(path: &Path, m: &AnnualMetrics) -> Result<(), ReportError> {
    write_atomic(path, json(m).as_bytes())
}

/// Writes [`csv`] to `path` atomically.
pub fn write_csv(path: &Path, sensors: &SensorSet, m: &AnnualMetrics) -> Result<(), ReportError> {
    write_atomic(path, csv(sensors, m)?.as_bytes())
}

/// Writes [`csv`] to `path` atomically, after `#` comment lines that say how it was made
/// ([`Provenance::csv_comment`]; CSV readers skip them with `comment="#"` or the like).
pub fn write_csv_with(
    path: &Path,
    sensors: &SensorSet,
    m: &AnnualMetrics,
    provenance: &Provenance,
) -> Result<(), ReportError> {
    let text = provenance.csv_comment() + &csv(sensors, m)?;
    write_atomic(path, text.as_bytes())
}
