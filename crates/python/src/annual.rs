//! Sensor grids, annual metrics and the whole annual run (`daylit annual`).

use crate::convert::{array_f32, array_f64, paths, rows_f64};
use crate::errors::{guarded, to_pyerr, Fail, Kind, Res};
use crate::scene::{sensors_of, trace_settings, Scene};
use crate::sky::Weather;
use daylit_annual::report::json_value_with;
use daylit_annual::{compute, GridOptions, Illuminance, MetricOptions, Schedule, SensorSet};
use daylit_coefficients::phases::Method;
use daylit_coefficients::study::{
    annual_year, default_settings, method_name, resolve_method, MethodChoice,
};
use daylit_coefficients::TraceSettings;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::path::PathBuf;

/// A sensor set as an (N, 6) array: position and direction per row.
fn set_array<'py>(py: Python<'py>, set: &SensorSet) -> PyResult<Bound<'py, PyAny>> {
    let v: Vec<f64> = set
        .sensors
        .iter()
        .flat_map(|s| s.position.into_iter().chain(s.direction))
        .collect();
    array_f64(py, v, &[set.len(), 6])
}

/// The grid over `poly` as an (N, 6) array.
pub fn grid_array<'py>(
    py: Python<'py>,
    poly: &[[f64; 3]],
    height: f64,
    spacing: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let grid = GridOptions { height, spacing };
    let set = SensorSet::from_polygon(poly, &grid)
        .map_err(|e| to_pyerr(py, Fail::new(Kind::Sensor, e)))?;
    set_array(py, &set)
}

/// A work-plane sensor grid over a floor polygon, shape (N, 6): points ``height`` above the
/// polygon (vertices (K, 3), any winding, concave too), ``spacing`` apart in cells aligned
/// with its longest edge, directions facing up, as ``daylit annual --floor`` lays them out.
/// :meth:`Scene.sensor_grid` takes the polygon by name from a scene.
#[pyfunction]
#[pyo3(signature = (polygon, *, height = 0.8, spacing = 0.5))]
pub fn sensor_grid<'py>(
    py: Python<'py>,
    polygon: &Bound<'py, PyAny>,
    height: f64,
    spacing: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let (v, _) = rows_f64(polygon, 3, "polygon")?;
    let poly: Vec<[f64; 3]> = v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    grid_array(py, &poly, height, spacing)
}

/// Reads a RADIANCE sensor file (``x y z dx dy dz`` per line, rtrace ``-I`` input), shape
/// (N, 6). Raises :class:`SensorError` with the file and line of a bad line.
#[pyfunction]
pub fn read_sensors(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyAny>> {
    let set = guarded(py, move || {
        SensorSet::read(&path).map_err(|e| Fail::new(Kind::Sensor, e))
    })?;
    set_array(py, &set)
}

/// The occupancy schedule: a CSV path (DAYSIM or one value a line), a boolean array of one
/// flag per record, or None for 8:00–18:00 every day.
fn schedule_of(
    py: Python<'_>,
    schedule: Option<&Bound<'_, PyAny>>,
    weather: Option<&Weather>,
    hours: usize,
) -> PyResult<Schedule> {
    let need_weather = |what: &str| {
        to_pyerr(
            py,
            Fail::new(
                Kind::Metrics,
                format!("{what} needs the weather (weather=) to know the records' times"),
            ),
        )
    };
    match schedule {
        None => Ok(Schedule::office(
            &weather
                .ok_or_else(|| need_weather("the default schedule"))?
                .inner
                .records,
        )),
        Some(s) if s.is_instance_of::<PyString>() || s.hasattr("__fspath__")? => {
            let path = paths(s)?.remove(0);
            let w = weather.ok_or_else(|| need_weather("a schedule file"))?;
            let records = &w.inner.records;
            guarded(py, move || {
                Schedule::read(&path, records).map_err(|e| Fail::new(Kind::Metrics, e))
            })
        }
        Some(s) => {
            let flags: Vec<bool> = py
                .import("numpy")?
                .call_method1("asarray", (s, "bool"))?
                .call_method1("reshape", (-1i64,))?
                .call_method0("tolist")?
                .extract()?;
            if flags.len() != hours {
                return Err(to_pyerr(
                    py,
                    Fail::new(
                        Kind::Metrics,
                        format!(
                            "schedule: {} flags for {hours} hours of illuminance",
                            flags.len()
                        ),
                    ),
                ));
            }
            Ok(Schedule::from_flags(flags))
        }
    }
}

/// The metric thresholds.
fn metric_options(threshold: f32, udi: (f32, f32)) -> MetricOptions {
    MetricOptions {
        da_threshold: threshold,
        udi_lower: udi.0,
        udi_upper: udi.1,
        ..MetricOptions::default()
    }
}

/// JSON text as Python objects (dicts, lists, numbers).
fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// Annual metrics of an illuminance array (sensors × hours, lux), as ``daylit annual``
/// reports them in its JSON: a dict with ``sDA``, ``ASE`` (None without ``direct_sun``),
/// ``occupied_hours``, ``hours``, ``sensor_count``, ``settings`` and ``per_sensor`` (``DA``,
/// ``DA150``, ``cDA``, ``UDI``, ``UDI_n``, ``UDI_e``, ``mean_lux``, ``ASE_hours``), following
/// IES LM-83 (sDA300/50%, ASE1000,250) and UDI's usual band.
///
/// ``schedule``: None (8:00–18:00 every day, from ``weather``'s times), a CSV path, or one
/// boolean per hour. ``direct_sun``: the direct-sun illuminance of the same shape, for ASE.
/// ``threshold``: DA's lux (a second DA is reported at 150); ``udi``: (lower, upper) lux.
#[pyfunction]
#[pyo3(signature = (illuminance, *, weather = None, schedule = None, direct_sun = None, threshold = 300.0, udi = (100.0, 2000.0)))]
pub fn annual_metrics<'py>(
    py: Python<'py>,
    illuminance: &Bound<'py, PyAny>,
    weather: Option<&Weather>,
    schedule: Option<&Bound<'py, PyAny>>,
    direct_sun: Option<&Bound<'py, PyAny>>,
    threshold: f32,
    udi: (f32, f32),
) -> PyResult<Bound<'py, PyAny>> {
    let shape: Vec<usize> = py
        .import("numpy")?
        .call_method1("shape", (illuminance,))?
        .extract()?;
    let hours = if shape.len() == 2 { shape[1] } else { 0 };
    let (lux, sensors) = rows_f64(illuminance, hours.max(1), "illuminance")?;
    let sun = match direct_sun {
        Some(d) => Some(rows_f64(d, hours.max(1), "direct_sun")?),
        None => None,
    };
    if let Some((_, n)) = &sun {
        if *n != sensors {
            return Err(to_pyerr(
                py,
                Fail::new(
                    Kind::Metrics,
                    format!("direct_sun has {n} sensors, illuminance {sensors}"),
                ),
            ));
        }
    }
    let schedule = schedule_of(py, schedule, weather, hours)?;
    let opts = metric_options(threshold, udi);
    let v = guarded(py, move || {
        let lux: Vec<f32> = lux.iter().map(|&x| x as f32).collect();
        let sun: Option<Vec<f32>> = sun.map(|(s, _)| s.iter().map(|&x| x as f32).collect());
        let total = Illuminance::sensor_major(&lux, sensors, hours);
        let sun = sun
            .as_deref()
            .map(|s| Illuminance::sensor_major(s, sensors, hours));
        let m = compute(&total, sun.as_ref(), &schedule, &opts)
            .map_err(|e| Fail::new(Kind::Metrics, e))?;
        Ok(daylit_annual::report::json_value(&m))
    })?;
    json_to_py(py, &v)
}

/// The whole of ``daylit annual`` on a scene: sensors (an (N, 6) array, a sensor file, or a
/// grid over the polygon ``floor``), the year's illuminance under ``weather`` by the method
/// (``"auto"``: five-phase when windows are BSDF materials, else ``"2phase"``;
/// ``"3phase"``, ``"5phase"``), and the metrics.
///
/// Returns the dict ``daylit annual --json`` writes (see :func:`annual_metrics`, plus
/// ``method`` and, for matrix methods, ``window_groups``) with three arrays added:
/// ``sensors`` (N, 6), ``illuminance`` and ``direct_sun`` (N, hours, lux, float32).
/// ``m``, ``ab``, ``ad``, ``lw``, ``seed`` are ``daylit annual``'s options; the same
/// inputs give the same numbers bit for bit.
#[pyfunction]
#[pyo3(signature = (scene, weather, *, sensors = None, floor = None, height = 0.8, spacing = 0.5, schedule = None, threshold = 300.0, udi = (100.0, 2000.0), method = "auto", m = 1, ab = TraceSettings::default().ab, ad = TraceSettings::default().ad, lw = TraceSettings::default().lw, seed = TraceSettings::default().seed))]
#[allow(clippy::too_many_arguments)]
pub fn annual<'py>(
    py: Python<'py>,
    scene: &Scene,
    weather: &Weather,
    sensors: Option<&Bound<'py, PyAny>>,
    floor: Option<&str>,
    height: f64,
    spacing: f64,
    schedule: Option<&Bound<'py, PyAny>>,
    threshold: f32,
    udi: (f32, f32),
    method: &str,
    m: u32,
    ab: u32,
    ad: u32,
    lw: f64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let fail = |kind, msg: String| to_pyerr(py, Fail::new(kind, msg));
    let choice = match method {
        "auto" => MethodChoice::Auto,
        "2phase" => MethodChoice::TwoPhase,
        "3phase" => MethodChoice::Matrix(Method::ThreePhase),
        "5phase" => MethodChoice::Matrix(Method::FivePhase),
        other => {
            return Err(fail(
                Kind::Options,
                format!(
                    "method={other:?}: expected \"auto\", \"2phase\", \"3phase\" or \"5phase\""
                ),
            ))
        }
    };
    let set = match (sensors, floor) {
        (Some(s), None) if s.is_instance_of::<PyString>() || s.hasattr("__fspath__")? => {
            let path = paths(s)?.remove(0);
            guarded(py, move || {
                SensorSet::read(&path).map_err(|e| Fail::new(Kind::Sensor, e))
            })?
        }
        (Some(s), None) => {
            let (v, _) = rows_f64(s, 6, "sensors")?;
            SensorSet {
                sensors: v
                    .chunks_exact(6)
                    .map(|r| daylit_annual::Sensor {
                        position: [r[0], r[1], r[2]],
                        direction: [r[3], r[4], r[5]],
                        cell: None,
                    })
                    .collect(),
                ..SensorSet::default()
            }
        }
        (None, Some(name)) => {
            let poly = scene.scene.polygon_vertices(name).ok_or_else(|| {
                fail(
                    Kind::Scene,
                    format!("floor: no polygon named '{name}' in the scene"),
                )
            })?;
            SensorSet::from_polygon(&poly, &GridOptions { height, spacing })
                .map_err(|e| fail(Kind::Sensor, e.to_string()))?
        }
        _ => {
            return Err(fail(
                Kind::Options,
                "give sensors= (an (N, 6) array or a sensor file) or floor= (a polygon name), one of them".into(),
            ))
        }
    };
    // As `daylit annual`: no year is simulated for a sensor far outside the scene.
    set.validate(daylit_scene::extent::bounds(&scene.scene))
        .map_err(|e| fail(Kind::Sensor, e.to_string()))?;
    let sensors_array = set_array(py, &set)?;
    let points = sensors_of(&sensors_array)?;
    let trace = trace_settings(py, ab, ad, lw, seed)?;
    crate::scene::reinhart(py, m)?;
    let schedule = schedule_of(py, schedule, Some(weather), weather.inner.records.len())?;
    let opts = metric_options(threshold, udi);
    let (files, load, w) = (&scene.files, &scene.load, &weather.inner);
    let (year, json) = guarded(py, move || -> Res<_> {
        let err = |e: daylit_coefficients::study::StudyError| Fail::new(Kind::Scene, e);
        let method = resolve_method(files, load, choice).map_err(err)?;
        let settings = default_settings(trace, m);
        let year = annual_year(files, load, method, &settings, &points, w, &|_| {}).map_err(err)?;
        let n = points.len();
        let total = Illuminance::sensor_major(&year.total, n, year.steps);
        let sun = Illuminance::sensor_major(&year.direct_sun, n, year.steps);
        let metrics = compute(&total, Some(&sun), &schedule, &opts)
            .map_err(|e| Fail::new(Kind::Metrics, e))?;
        let json = json_value_with(
            &metrics,
            method_name(method),
            &year.window_states(&schedule),
        );
        Ok((year, json))
    })?;
    let d: Bound<'py, PyDict> = json_to_py(py, &json)?.downcast_into()?;
    let shape = [set.len(), year.steps];
    d.set_item("sensors", sensors_array)?;
    d.set_item("illuminance", array_f32(py, year.total, &shape)?)?;
    d.set_item("direct_sun", array_f32(py, year.direct_sun, &shape)?)?;
    Ok(d)
}
