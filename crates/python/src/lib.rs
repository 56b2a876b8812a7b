//! Python bindings of daylit (issue 21 item 2): the native module `daylit._daylit`, re-exported
//! by `python/daylit/__init__.py`. Thin wrappers over the library crates; NumPy arrays in and
//! out, the GIL released around every long call, errors as `daylit.DaylitError` with the
//! RADIANCE-style location.

use pyo3::prelude::*;

mod shards;

/// The version of the daylit library this module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The native module; `daylit/__init__.py` re-exports its names.
#[pymodule]
fn _daylit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    shards::register(m)?;
    Ok(())
}
