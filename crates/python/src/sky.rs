//! Weather files and sky matrices: `daylit.Weather` and `daylit.sky_matrix` (gendaymtx).

use crate::convert::array_f32;
use crate::errors::{guarded, Fail, Kind};
use crate::scene::reinhart;
use daylit_sky::gendaymtx::{sky_matrix as make_sky_matrix, Options, OutputKind};
use daylit_sky::patches::Subdivision;
use daylit_sky::weather::{parse_weather, read_weather, WeatherFormat};
use pyo3::prelude::*;
use std::path::PathBuf;

/// A weather year (or any span of records): EPW, WEA (epw2wea) or TMY3 CSV, told apart by
/// content.
///
/// ``Weather(path)`` reads a file; :meth:`from_text` parses text. Raises
/// :class:`WeatherError` with the file and line of a bad record. Longitudes and meridians
/// follow RADIANCE: degrees **west** of Greenwich.
#[pyclass(module = "daylit", frozen)]
pub struct Weather {
    pub(crate) inner: daylit_sky::weather::Weather,
}

#[pymethods]
impl Weather {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Weather> {
        let inner = guarded(py, move || {
            read_weather(&path).map_err(|e| Fail::new(Kind::Weather, e))
        })?;
        Ok(Weather { inner })
    }

    /// Weather from the text of a file; ``name`` stands for the file in errors.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<text>"))]
    fn from_text(py: Python<'_>, text: String, name: &str) -> PyResult<Weather> {
        let name = name.to_string();
        let inner = guarded(py, move || {
            parse_weather(&text, &name).map_err(|e| Fail::new(Kind::Weather, e))
        })?;
        Ok(Weather { inner })
    }

    /// Number of records.
    fn __len__(&self) -> usize {
        self.inner.records.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Weather({:?}, {} records)",
            self.inner.site.name,
            self.inner.records.len()
        )
    }

    /// The file's format: ``"epw"``, ``"wea"`` or ``"tmy3"``.
    #[getter]
    fn format(&self) -> &'static str {
        match self.inner.format {
            WeatherFormat::Epw => "epw",
            WeatherFormat::Wea => "wea",
            WeatherFormat::Tmy3 => "tmy3",
        }
    }

    /// The place name as the file gives it.
    #[getter]
    fn name(&self) -> String {
        self.inner.site.name.clone()
    }

    /// Degrees north.
    #[getter]
    fn latitude(&self) -> f64 {
        self.inner.site.latitude
    }

    /// Degrees west of Greenwich (RADIANCE's convention).
    #[getter]
    fn longitude(&self) -> f64 {
        self.inner.site.longitude
    }

    /// Standard meridian of the time zone, degrees west of Greenwich.
    #[getter]
    fn meridian(&self) -> f64 {
        self.inner.site.meridian
    }

    /// Metres above sea level.
    #[getter]
    fn elevation(&self) -> f64 {
        self.inner.site.elevation
    }

    /// Month of each record, 1–12 (int array).
    #[getter]
    fn month<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<u32>> {
        numpy::PyArray1::from_iter(py, self.inner.records.iter().map(|r| r.month))
    }

    /// Day of the month of each record (int array).
    #[getter]
    fn day<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<u32>> {
        numpy::PyArray1::from_iter(py, self.inner.records.iter().map(|r| r.day))
    }

    /// Local standard time of each record, decimal hours at the middle of its interval.
    #[getter]
    fn hour<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<f64>> {
        numpy::PyArray1::from_iter(py, self.inner.records.iter().map(|r| r.hour))
    }

    /// Direct irradiance of each record (direct-normal W/m² for EPW and TMY3).
    #[getter]
    fn direct<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<f64>> {
        numpy::PyArray1::from_iter(py, self.inner.records.iter().map(|r| r.direct))
    }

    /// Diffuse-horizontal irradiance of each record, W/m².
    #[getter]
    fn diffuse<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<f64>> {
        numpy::PyArray1::from_iter(py, self.inner.records.iter().map(|r| r.diffuse))
    }

    /// The records as a RADIANCE weather file (WEA text, as epw2wea writes it).
    fn to_wea(&self) -> String {
        self.inner.to_wea()
    }
}

/// A sky matrix as gendaymtx makes it: the radiance of each sky patch at each record of
/// ``weather``, shape (patches, hours, 3), float32 (patches ground first, then Reinhart
/// ``m``; 146 rows for ``m=1``). Keyword options carry gendaymtx's names: ``m`` (-m),
/// ``d=True`` sun only (-d), ``s=True`` sky only (-s), ``g`` ground reflectance (-g, one
/// number or RGB), ``c`` sky colour (-c RGB), ``r`` rotation in degrees (-r), ``O=1``
/// solar rather than visible radiance (-O1), ``A=True`` one averaged column (-A), ``u=True``
/// only hours with the sun up (-u), ``five`` the -5 sun angle (degrees), ``i`` the time-step
/// length in minutes (-i). Values equal ``daylit gendaymtx``'s output (the same code).
#[pyfunction]
#[pyo3(signature = (weather, *, m = 1, d = false, s = false, g = None, c = None, r = 0.0, O = 0, A = false, u = false, five = None, i = 0.0, dew_point = true))]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub fn sky_matrix<'py>(
    py: Python<'py>,
    weather: &Weather,
    m: u32,
    d: bool,
    s: bool,
    g: Option<Vec<f64>>,
    c: Option<Vec<f64>>,
    r: f64,
    O: u32,
    A: bool,
    u: bool,
    five: Option<f64>,
    i: f64,
    dew_point: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mf = match reinhart(py, m)? {
        Subdivision::Reinhart(mf) => mf,
        Subdivision::ShirleyChiu(_) => unreachable!("reinhart() makes Reinhart subdivisions"),
    };
    let triple = |v: Option<Vec<f64>>, name: &str| -> PyResult<Option<[f64; 3]>> {
        match v.as_deref() {
            None => Ok(None),
            Some([x]) => Ok(Some([*x; 3])),
            Some([x, y, z]) => Ok(Some([*x, *y, *z])),
            Some(other) => Err(crate::errors::to_pyerr(
                py,
                Fail::new(
                    Kind::Options,
                    format!(
                        "{name}: expected one number or three (RGB), found {}",
                        other.len()
                    ),
                ),
            )),
        }
    };
    let mut o = Options {
        mf,
        rotation: r,
        average: A,
        sun_hours_only: u,
        interval_minutes: i,
        use_dew_point: dew_point,
        output: match O {
            0 => OutputKind::Visible,
            1 => OutputKind::Solar,
            _ => {
                return Err(crate::errors::to_pyerr(
                    py,
                    Fail::new(
                        Kind::Options,
                        format!("O={O}: expected 0 (visible) or 1 (solar)"),
                    ),
                ))
            }
        },
        ..Options::default()
    };
    if let Some(g) = triple(g, "g")? {
        o.ground = g;
    }
    if let Some(c) = triple(c, "c")? {
        o.sky_color = c;
    }
    if let Some(a) = five {
        o.five_phase(a);
    }
    if d {
        o.sun_only();
    }
    if s {
        o.sky_only();
    }
    let w = &weather.inner;
    let mtx = guarded(py, move || {
        make_sky_matrix(w, &o).map_err(|e| Fail::new(Kind::Weather, e))
    })?;
    // Stored column by column; NumPy gets patch-major rows.
    let (rows, cols) = (mtx.rows, mtx.columns);
    let mut v = vec![0.0f32; rows * cols * 3];
    for col in 0..cols {
        for p in 0..rows {
            v[(p * cols + col) * 3..][..3].copy_from_slice(&mtx.data[col * rows + p]);
        }
    }
    array_f32(py, v, &[rows, cols, 3])
}
