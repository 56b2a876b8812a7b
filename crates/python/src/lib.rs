//! Python bindings of daylit (issue 21 item 2): the native module `daylit._daylit`, re-exported
//! by `python/daylit/__init__.py`. Thin wrappers over the library crates — scenes and rays
//! (`daylit-scene`, `daylit-transport`), daylight coefficients and the annual run
//! (`daylit-coefficients`), weather and sky matrices (`daylit-sky`), sensor grids and metrics
//! (`daylit-annual`), glare (`daylit-glare`) and pictures (`daylit-image`) — with NumPy
//! arrays in and out, the GIL released around every long call, and errors raised as
//! `daylit.DaylitError` subclasses carrying the RADIANCE-style location.

use pyo3::prelude::*;

mod annual;
mod convert;
mod errors;
mod glare;
mod scene;
mod shards;
mod sky;

/// The version of the daylit library this module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The native module; `daylit/__init__.py` re-exports its names.
#[pymodule]
fn _daylit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<scene::Scene>()?;
    m.add_class::<sky::Weather>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(sky::sky_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(annual::sensor_grid, m)?)?;
    m.add_function(wrap_pyfunction!(annual::read_sensors, m)?)?;
    m.add_function(wrap_pyfunction!(annual::annual_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(annual::annual, m)?)?;
    m.add_function(wrap_pyfunction!(glare::read_picture, m)?)?;
    m.add_function(wrap_pyfunction!(glare::write_picture, m)?)?;
    m.add_function(wrap_pyfunction!(glare::evaluate_glare, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    shards::register(m)?;
    Ok(())
}
