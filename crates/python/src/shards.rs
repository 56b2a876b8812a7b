//! Bindings of `daylit_coefficients::shards` (issue 21 item 3): an annual study, its shards and
//! their results as `bytes` (postcard-encoded), so that any task system can ship them between
//! processes; `daylit.distributed` runs them as Dask tasks. Each worker process loads a study
//! once (the scene, its sky sender and the year's sky matrices) and keeps it for the next shard
//! of the same study. The GIL is released while shards trace and multiply; errors are the
//! package's located exceptions (`errors`).

use crate::errors::{guarded, to_pyerr, Fail, Kind};
use daylit_coefficients::shards::{
    decode, encode, merge, Layout, Partial, Plan, Prepared, ProductShard, SensorShard, ShardError,
    Study, Traced,
};
use daylit_coefficients::{AnnualIlluminance, Sensor, TraceSettings};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A shard error as the package's exception: scene files `SceneError`, weather files and sky
/// matrices `WeatherError`, settings `OptionsError`, shards or bytes that do not belong
/// together `DaylitError`; the message carries the library's location (file, line, what was
/// expected).
fn fail(e: ShardError) -> Fail {
    let kind = match &e {
        ShardError::Scene(_) => Kind::Scene,
        ShardError::Weather(_) | ShardError::Matrix(_) => Kind::Weather,
        ShardError::Settings(_) => Kind::Options,
        _ => Kind::Base,
    };
    Fail::new(kind, e)
}

/// The study this process loaded last: its encoded bytes, the run it was loaded for, and it.
type Kept = (Vec<u8>, String, Arc<Prepared>);
static LOADED: Mutex<Option<Kept>> = Mutex::new(None);

/// The loaded study of `bytes` for `run`, loading it when it is not the one kept. A new run
/// loads again, so that files edited between runs are read afresh.
fn prepared(bytes: &[u8], run: &str) -> Result<Arc<Prepared>, ShardError> {
    let mut kept = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((b, r, p)) = kept.as_ref() {
        if b == bytes && r == run {
            return Ok(p.clone());
        }
    }
    let study: Study = decode(bytes, "annual study")?;
    let p = Arc::new(Prepared::new(&study)?);
    *kept = Some((bytes.to_vec(), run.to_string(), p.clone()));
    Ok(p)
}

/// shard_study(scene, sensors, weather, *, ab=10, ad=4096, lw=1e-5, seed=1, mf=1,
/// patch_blocks=1, allow_commands=False, raypath=None) -> bytes
///
/// An annual two-phase study, encoded: scene files, sensors (an N×6 float64 array of `x y z dx
/// dy dz`), a weather file (EPW, WEA, TMY3 CSV), the tracing settings of `daylit annual`, the
/// Reinhart subdivision and the number of canonical patch blocks its products are summed in.
/// Paths must be readable by every worker. Settings are checked here; files when a worker
/// loads the study.
#[pyfunction]
#[pyo3(signature = (scene, sensors, weather, *, ab=10, ad=4096, lw=1e-5, seed=1, mf=1,
    patch_blocks=1, allow_commands=false, raypath=None))]
#[allow(clippy::too_many_arguments)]
fn shard_study<'py>(
    py: Python<'py>,
    scene: Vec<PathBuf>,
    sensors: PyReadonlyArray2<'py, f64>,
    weather: PathBuf,
    ab: u32,
    ad: u32,
    lw: f64,
    seed: u64,
    mf: u32,
    patch_blocks: usize,
    allow_commands: bool,
    raypath: Option<Vec<PathBuf>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let shape = sensors.shape();
    if shape.len() != 2 || shape[1] != 6 {
        return Err(to_pyerr(
            py,
            Fail::new(
                Kind::Sensor,
                format!(
                    "sensors: expected an N×6 array (x y z dx dy dz per row), got shape {shape:?}"
                ),
            ),
        ));
    }
    let flat = sensors.as_slice().map(|s| s.to_vec()).unwrap_or_else(|_| {
        let a = sensors.as_array();
        a.iter().copied().collect()
    });
    let mut list = Vec::with_capacity(shape[0]);
    for (i, row) in flat.chunks_exact(6).enumerate() {
        let normal = glam::DVec3::new(row[3], row[4], row[5]);
        if row.iter().any(|v| !v.is_finite()) || normal.length_squared() == 0.0 {
            return Err(to_pyerr(
                py,
                Fail::new(
                    Kind::Sensor,
                    format!("sensors row {i}: expected finite numbers and a non-zero direction, got {row:?}"),
                ),
            ));
        }
        list.push(Sensor::new(
            glam::DVec3::new(row[0], row[1], row[2]),
            normal,
        ));
    }
    let study = Study {
        scene,
        allow_commands,
        raypath,
        sensors: list,
        weather,
        trace: TraceSettings { ab, ad, lw, seed },
        mf,
        patch_blocks,
    };
    study
        .plan(&Layout::WHOLE)
        .map_err(|e| to_pyerr(py, fail(e)))?;
    Ok(PyBytes::new(py, &encode(&study)))
}

/// shard_plan(study, sensors_per_shard, patch_blocks_per_shard=1)
///     -> (plan, sensor_shards, product_shards)
///
/// Cuts an encoded study into shards: the encoded plan (for `shard_merge`), the encoded sensor
/// shards in order, and the product shards as `(index of their sensor shard, encoded shard)`.
#[pyfunction]
#[pyo3(signature = (study, sensors_per_shard, patch_blocks_per_shard=1))]
#[allow(clippy::type_complexity)]
fn shard_plan<'py>(
    py: Python<'py>,
    study: &[u8],
    sensors_per_shard: usize,
    patch_blocks_per_shard: usize,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Vec<Bound<'py, PyBytes>>,
    Vec<(usize, Bound<'py, PyBytes>)>,
)> {
    let plan = decode::<Study>(study, "annual study")
        .and_then(|s| {
            s.plan(&Layout {
                sensors_per_shard,
                patch_blocks_per_shard,
            })
        })
        .map_err(|e| to_pyerr(py, fail(e)))?;
    let sensor_shards = plan
        .sensor_shards
        .iter()
        .map(|s| PyBytes::new(py, &encode(s)))
        .collect();
    let product_shards = plan
        .product_shards
        .iter()
        .map(|p| (p.sensor_shard, PyBytes::new(py, &encode(p))))
        .collect();
    Ok((
        PyBytes::new(py, &encode(&plan)),
        sensor_shards,
        product_shards,
    ))
}

/// shard_trace(study, shard, run="") -> bytes
///
/// Traces a sensor shard of an encoded study (its daylight coefficients and direct sun); the
/// result, encoded, goes to `shard_product` and `shard_merge`. The same study and shard give the
/// same bytes in any process. The process keeps the loaded study for the next shard of the same
/// `run` (a token naming one run of the study).
#[pyfunction]
#[pyo3(signature = (study, shard, run=""))]
fn shard_trace<'py>(
    py: Python<'py>,
    study: &[u8],
    shard: &[u8],
    run: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (study, shard, token) = (study.to_vec(), shard.to_vec(), run.to_string());
    let out = guarded(py, move || {
        let shard: SensorShard = decode(&shard, "sensor shard").map_err(fail)?;
        let traced = prepared(&study, &token)
            .and_then(|p| p.trace(&shard, &|_| {}))
            .map_err(fail)?;
        Ok(encode(&traced))
    })?;
    Ok(PyBytes::new(py, &out))
}

/// shard_product(study, traced, shard, run="") -> bytes
///
/// Multiplies a traced sensor shard by the sky matrices over a product shard's patch blocks;
/// the encoded result goes to `shard_merge`. `run` as for `shard_trace`.
#[pyfunction]
#[pyo3(signature = (study, traced, shard, run=""))]
fn shard_product<'py>(
    py: Python<'py>,
    study: &[u8],
    traced: &[u8],
    shard: &[u8],
    run: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (study, traced, shard) = (study.to_vec(), traced.to_vec(), shard.to_vec());
    let token = run.to_string();
    let out = guarded(py, move || {
        let run = || -> Result<Vec<u8>, ShardError> {
            let shard: ProductShard = decode(&shard, "product shard")?;
            let traced: Traced = decode(&traced, "traced sensor shard")?;
            Ok(encode(&prepared(&study, &token)?.product(&traced, &shard)?))
        };
        run().map_err(fail)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// The year as a dict of float32 arrays, sensors × steps (lux): `total`, `two_phase`,
/// `direct_sun`.
fn year_dict<'py>(py: Python<'py>, y: AnnualIlluminance) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let shape = [y.sensors, y.steps];
    for (name, v) in [
        ("total", y.total),
        ("two_phase", y.two_phase),
        ("direct_sun", y.direct_sun),
    ] {
        d.set_item(name, PyArray1::from_vec(py, v).reshape(shape)?)?;
    }
    Ok(d)
}

/// shard_merge(plan, traced, partials) -> dict
///
/// Merges the encoded results of every shard of a plan (any order) into the study's year:
/// `total`, `two_phase` and `direct_sun`, float32 arrays of sensors × steps in lux, equal bit
/// for bit to `shard_run` of the same study. Missing, repeated or foreign results are errors.
#[pyfunction]
fn shard_merge<'py>(
    py: Python<'py>,
    plan: &[u8],
    traced: Vec<Vec<u8>>,
    partials: Vec<Vec<u8>>,
) -> PyResult<Bound<'py, PyDict>> {
    let plan = plan.to_vec();
    let year = guarded(py, move || {
        let run = || -> Result<AnnualIlluminance, ShardError> {
            let plan: Plan = decode(&plan, "shard plan")?;
            let traced = traced
                .iter()
                .map(|b| decode::<Traced>(b, "traced sensor shard"))
                .collect::<Result<Vec<_>, _>>()?;
            let partials = partials
                .iter()
                .map(|b| decode::<Partial>(b, "product shard result"))
                .collect::<Result<Vec<_>, _>>()?;
            merge(&plan, &traced, &partials)
        };
        run().map_err(fail)
    })?;
    year_dict(py, year)
}

/// shard_run(study) -> dict
///
/// The whole study in this process (every thread), as one shard of everything: what a
/// distributed run of the same study must equal. Same dict as `shard_merge`. Loads the study
/// afresh (nothing is kept).
#[pyfunction]
fn shard_run<'py>(py: Python<'py>, study: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let study = study.to_vec();
    let year = guarded(py, move || {
        let run = || -> Result<AnnualIlluminance, ShardError> {
            let s: Study = decode(&study, "annual study")?;
            Prepared::new(&s)?.run(&s.plan(&Layout::WHOLE)?, &|_| {})
        };
        run().map_err(fail)
    })?;
    year_dict(py, year)
}

/// Adds the shard functions to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shard_study, m)?)?;
    m.add_function(wrap_pyfunction!(shard_plan, m)?)?;
    m.add_function(wrap_pyfunction!(shard_trace, m)?)?;
    m.add_function(wrap_pyfunction!(shard_product, m)?)?;
    m.add_function(wrap_pyfunction!(shard_merge, m)?)?;
    m.add_function(wrap_pyfunction!(shard_run, m)?)?;
    Ok(())
}
