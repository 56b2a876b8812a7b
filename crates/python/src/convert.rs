//! Conversions between Python values and the library's types: paths, NumPy arrays, and
//! keyword options with RADIANCE's names turned into the words RADIANCE's programs read.

use crate::errors::{to_pyerr, Fail, Kind};
use numpy::PyArrayMethods;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::path::PathBuf;

/// One path or a sequence of paths (str or os.PathLike).
pub fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        return Ok(vec![obj.extract::<PathBuf>()?]);
    }
    obj.try_iter()?
        .map(|p| p?.extract::<PathBuf>())
        .collect::<PyResult<Vec<_>>>()
}

/// A 2-D array of `cols` columns as float64 values in row order, and its row count. Anything
/// NumPy turns into such an array is accepted (lists, float32 arrays).
pub fn rows_f64(obj: &Bound<'_, PyAny>, cols: usize, what: &str) -> PyResult<(Vec<f64>, usize)> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let a = np
        .call_method1("asarray", (obj, "float64"))
        .map_err(|e| shape_error(py, what, &e.to_string()))?;
    let a = np.call_method1("ascontiguousarray", (a,))?;
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    let a = if shape.len() == 1 && shape[0] == cols {
        a.call_method1("reshape", ((1usize, cols),))?
    } else {
        a
    };
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    if shape.len() != 2 || shape[1] != cols {
        return Err(shape_error(
            py,
            what,
            &format!("expected an array of shape (N, {cols}), found shape {shape:?}"),
        ));
    }
    let flat = a.call_method1("reshape", (-1i64,))?;
    let v: Vec<f64> = flat.call_method0("tolist")?.extract()?;
    if let Some(k) = v.iter().position(|x| !x.is_finite()) {
        return Err(shape_error(
            py,
            what,
            &format!("row {}: expected finite numbers, found {}", k / cols, v[k]),
        ));
    }
    Ok((v, shape[0]))
}

fn shape_error(py: Python<'_>, what: &str, msg: &str) -> PyErr {
    to_pyerr(py, Fail::new(Kind::Options, format!("{what}: {msg}")))
}

/// A float32 array of `shape` from values in row order.
pub fn array_f32<'py>(
    py: Python<'py>,
    values: Vec<f32>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let a = numpy::PyArray1::from_vec(py, values);
    a.reshape(shape.to_vec()).map(|a| a.into_any())
}

/// A float64 array of `shape` from values in row order.
pub fn array_f64<'py>(
    py: Python<'py>,
    values: Vec<f64>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let a = numpy::PyArray1::from_vec(py, values);
    a.reshape(shape.to_vec()).map(|a| a.into_any())
}

/// Keyword options as RADIANCE option words: `ab=3` → `-ab 3`, `as_=128` → `-as 128`,
/// `av=(0.1, 0.1, 0.1)` → `-av 0.1 0.1 0.1`, `ae="name"` → `-ae name`; a switch `i=True`
/// → `-i+` (`-i-` for False) with `plus_minus`, else `-i` (nothing for False), as
/// evalglare's switches stand alone.
pub fn option_words(kwargs: Option<&Bound<'_, PyDict>>, plus_minus: bool) -> PyResult<Vec<String>> {
    let mut words = Vec::new();
    let Some(kwargs) = kwargs else {
        return Ok(words);
    };
    for (k, v) in kwargs.iter() {
        let name: String = k.extract()?;
        let name = format!("-{}", name.trim_end_matches('_'));
        if v.is_instance_of::<pyo3::types::PyBool>() {
            let on: bool = v.extract()?;
            if plus_minus {
                words.push(format!("{name}{}", if on { '+' } else { '-' }));
            } else if on {
                words.push(name);
            }
        } else if v.is_instance_of::<PyString>() {
            words.push(name);
            words.push(v.extract()?);
        } else if let Ok(seq) = v.extract::<Vec<f64>>() {
            words.push(name);
            words.extend(seq.iter().map(|x| x.to_string()));
        } else {
            words.push(name);
            words.push(v.str()?.to_string());
        }
    }
    Ok(words)
}

/// Rendering options: `base` changed by keyword options with RADIANCE's names (rtrace's
/// `-a* -d* -s* -l* -m* -i -bv -dv` and `-seed`). An unknown name is an error naming it.
pub fn render_options(
    base: daylit_transport::Options,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<daylit_transport::Options> {
    let py = match kwargs {
        Some(k) => k.py(),
        None => return Ok(base),
    };
    let words = option_words(kwargs, true)?;
    let mut o = base;
    let mut i = 0;
    while i < words.len() {
        let used = o
            .parse_arg(&words, i)
            .map_err(|e| to_pyerr(py, Fail::new(Kind::Options, e)))?;
        if used == 0 {
            return Err(to_pyerr(
                py,
                Fail::new(
                    Kind::Options,
                    format!(
                        "{}: not a rendering option (expected RADIANCE's names: ab, ad, as_, aa, ar, av, dj, ds, dt, dc, dr, dp, ss, st, lr, lw, me, ma, mg, ms, seed, …)",
                        &words[i][1..]
                    ),
                ),
            ));
        }
        i += used;
    }
    o.validate()
        .map_err(|e| to_pyerr(py, Fail::new(Kind::Options, e)))?;
    Ok(o)
}
