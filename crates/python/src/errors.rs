//! Python exceptions: `daylit.DaylitError` and its subclasses, each with the RADIANCE-style
//! location (`file:line: what was expected`) in its message and as `file` and `line`
//! attributes (None when unknown); and the guard that runs library calls without the GIL and
//! turns panics into exceptions instead of letting them reach the interpreter.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

create_exception!(
    daylit,
    DaylitError,
    PyException,
    "Base class of daylit's errors; `file` and `line` give the location when known."
);
create_exception!(
    daylit,
    SceneError,
    DaylitError,
    "A scene file that cannot be read, parsed or traced."
);
create_exception!(
    daylit,
    WeatherError,
    DaylitError,
    "A weather file (EPW, WEA, TMY3) that cannot be read, or a sky matrix that cannot be made."
);
create_exception!(
    daylit,
    SensorError,
    DaylitError,
    "Bad sensor points or a sensor grid that cannot be laid out."
);
create_exception!(
    daylit,
    OptionsError,
    DaylitError,
    "An option that is unknown, out of range or of the wrong type."
);
create_exception!(
    daylit,
    PictureError,
    DaylitError,
    "A RADIANCE picture that cannot be read or written."
);
create_exception!(
    daylit,
    GlareError,
    DaylitError,
    "A picture or view that glare cannot be evaluated on."
);
create_exception!(
    daylit,
    MetricsError,
    DaylitError,
    "Annual illuminance, schedules or metric options that do not fit together."
);

/// Which exception class an error becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`DaylitError`] itself.
    Base,
    /// [`SceneError`].
    Scene,
    /// [`WeatherError`].
    Weather,
    /// [`SensorError`].
    Sensor,
    /// [`OptionsError`].
    Options,
    /// [`PictureError`].
    Picture,
    /// [`GlareError`].
    Glare,
    /// [`MetricsError`].
    Metrics,
}

/// An error of a library call, to be raised as a Python exception.
#[derive(Debug)]
pub struct Fail {
    /// The exception class.
    pub kind: Kind,
    /// The message, RADIANCE-style location first when there is one.
    pub msg: String,
}

impl Fail {
    /// An error of `kind` with `msg`.
    pub fn new(kind: Kind, msg: impl std::fmt::Display) -> Fail {
        Fail {
            kind,
            msg: msg.to_string(),
        }
    }
}

/// `Result` of the library side of a binding.
pub type Res<T> = Result<T, Fail>;

/// The `file:line` a message starts with (on its first line that has one: the transport
/// lists refused modifiers one per indented line).
pub fn location(msg: &str) -> Option<(String, usize)> {
    msg.lines().find_map(|l| {
        let l = l.trim_start();
        let bytes = l.as_bytes();
        for (i, _) in l.match_indices(':') {
            if i == 0 {
                continue;
            }
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let end = i + 1 + digits;
            if digits > 0 && bytes.get(end) == Some(&b':') {
                let line = l[i + 1..end].parse().ok()?;
                return Some((l[..i].to_string(), line));
            }
        }
        None
    })
}

/// The Python exception of `f`, with `file` and `line` set.
pub fn to_pyerr(py: Python<'_>, f: Fail) -> PyErr {
    let err = match f.kind {
        Kind::Base => DaylitError::new_err(f.msg.clone()),
        Kind::Scene => SceneError::new_err(f.msg.clone()),
        Kind::Weather => WeatherError::new_err(f.msg.clone()),
        Kind::Sensor => SensorError::new_err(f.msg.clone()),
        Kind::Options => OptionsError::new_err(f.msg.clone()),
        Kind::Picture => PictureError::new_err(f.msg.clone()),
        Kind::Glare => GlareError::new_err(f.msg.clone()),
        Kind::Metrics => MetricsError::new_err(f.msg.clone()),
    };
    let (file, line) = match location(&f.msg) {
        Some((file, line)) => (Some(file), Some(line)),
        None => (None, None),
    };
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of memory
    // exhaustion; the message still carries the location then.
    let _ = value.setattr("file", file);
    let _ = value.setattr("line", line);
    err
}

/// Runs `work` with the GIL released, a panic caught and turned into a [`DaylitError`]
/// (a panic must never abort the interpreter), and a [`Fail`] into its exception.
pub fn guarded<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> Res<T> + Send,
{
    match py.detach(|| catch_unwind(AssertUnwindSafe(work))) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(f)) => Err(to_pyerr(py, f)),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".into());
            Err(to_pyerr(
                py,
                Fail::new(Kind::Base, format!("internal error in daylit: {what}")),
            ))
        }
    }
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DaylitError", py.get_type::<DaylitError>())?;
    m.add("SceneError", py.get_type::<SceneError>())?;
    m.add("WeatherError", py.get_type::<WeatherError>())?;
    m.add("SensorError", py.get_type::<SensorError>())?;
    m.add("OptionsError", py.get_type::<OptionsError>())?;
    m.add("PictureError", py.get_type::<PictureError>())?;
    m.add("GlareError", py.get_type::<GlareError>())?;
    m.add("MetricsError", py.get_type::<MetricsError>())?;
    Ok(())
}
