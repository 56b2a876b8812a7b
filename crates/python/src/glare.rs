//! RADIANCE pictures as NumPy arrays, and glare evaluation as evalglare gives it.

use crate::convert::{array_f32, option_words};
use crate::errors::{guarded, to_pyerr, Fail, Kind};
use daylit_glare::{evaluate, GlareError as LibGlareError, GlarePicture};
use daylit_image::HdrImage;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::path::PathBuf;

/// Reads a RADIANCE picture (.hdr/.pic, flat or run-length encoded, any orientation).
///
/// Returns ``(pixels, info)``: pixels of shape (height, width, 3), float32, top row first, as
/// stored (not divided by the exposure); ``info`` a dict with ``view`` (the last ``VIEW=``
/// value or None), ``exposure`` (product of ``EXPOSURE=`` lines) and ``header`` (the
/// header lines). Raises :class:`PictureError` naming the file and what was expected.
#[pyfunction]
pub fn read_picture(
    py: Python<'_>,
    path: PathBuf,
) -> PyResult<(Bound<'_, PyAny>, Bound<'_, PyDict>)> {
    let img = guarded(py, move || {
        HdrImage::read(&path).map_err(|e| Fail::new(Kind::Picture, e))
    })?;
    let info = PyDict::new(py);
    info.set_item("view", img.view.clone())?;
    info.set_item("exposure", img.exposure)?;
    info.set_item("header", img.header.clone())?;
    let (w, h) = (img.width, img.height);
    let pixels = array_f32(py, img.pixels.into_iter().flatten().collect(), &[h, w, 3])?;
    Ok((pixels, info))
}

/// A picture from an (height, width, 3) array, top row first.
fn image_of(obj: &Bound<'_, PyAny>) -> PyResult<HdrImage> {
    let py = obj.py();
    let a = py
        .import("numpy")?
        .call_method1("ascontiguousarray", (obj, "float32"))?;
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    if shape.len() != 3 || shape[2] != 3 || shape[0] == 0 || shape[1] == 0 {
        return Err(to_pyerr(
            py,
            Fail::new(
                Kind::Picture,
                format!(
                    "pixels: expected an array of shape (height, width, 3), found shape {shape:?}"
                ),
            ),
        ));
    }
    let v: Vec<f32> = a
        .call_method1("reshape", (-1i64,))?
        .call_method0("tolist")?
        .extract()?;
    if v.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(to_pyerr(
            py,
            Fail::new(Kind::Picture, "pixels: expected finite values of 0 or more"),
        ));
    }
    let mut img = HdrImage::new(shape[1], shape[0]);
    img.pixels = v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    Ok(img)
}

/// Writes pixels (height, width, 3; top row first) as a run-length encoded RADIANCE
/// picture. ``view``: view options written as the ``VIEW=`` line (``"-vta -vh 180 …"``);
/// ``header``: more header lines. The file appears whole or not at all.
#[pyfunction]
#[pyo3(signature = (path, pixels, *, view = None, header = None))]
pub fn write_picture(
    py: Python<'_>,
    path: PathBuf,
    pixels: &Bound<'_, PyAny>,
    view: Option<String>,
    header: Option<Vec<String>>,
) -> PyResult<()> {
    let mut img = image_of(pixels)?;
    img.header = header.unwrap_or_default();
    if let Some(v) = view {
        daylit_image::View::parse(&v)
            .map_err(|e| to_pyerr(py, Fail::new(Kind::Picture, format!("view: {e}"))))?;
        img.header.push(format!("VIEW= {}", v.trim()));
        img.view = Some(v);
    }
    guarded(py, move || {
        daylit_annual::write_atomic(&path, &img.encode(true))
            .map_err(|e| Fail::new(Kind::Picture, e))
    })
}

/// Glare of a view, as evalglare 3.06 evaluates it (same code as ``daylit evalglare``).
///
/// ``picture``: a picture file, or pixels (height, width, 3) with ``view`` given.
/// ``view``: view options (``"-vth -vh 180 -vv 180 -vp … -vd … -vu …"``) overriding the
/// picture's ``VIEW=``. ``options``: evalglare's options by name, e.g. ``b=2000``
/// (threshold), ``r=0.2`` (search radius), ``y=True`` (low-light correction off: ``-y``),
/// ``i=500`` (external Ev). Returns a dict with evalglare's ``-d`` names (``dgp``,
/// ``av_lum``, ``E_v``, ``lum_backg``, ``E_v_dir``, ``dgi``, ``ugr``, ``vcp``, ``cgi``,
/// ``lum_sources``, ``omega_sources``, ``Lveil``, ``Lveil_cie``, ``dgr``, ``ugp``,
/// ``ugr_exp``, ``dgi_mod``, ``av_lum_pos``, ``av_lum_pos2``, ``med_lum``, ``med_lum_pos``,
/// ``med_lum_pos2``, ``ugp2``) plus ``dgps`` (simplified DGP), ``threshold`` and
/// ``sources`` (the number of glare sources).
#[pyfunction]
#[pyo3(signature = (picture, *, view = None, **options))]
pub fn evaluate_glare<'py>(
    py: Python<'py>,
    picture: &Bound<'py, PyAny>,
    view: Option<String>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let fail = |msg: String| to_pyerr(py, Fail::new(Kind::Glare, msg));
    // `-d`: every statistic is computed (evalglare leaves some out of its short output).
    let mut words = vec!["-d".to_string()];
    words.extend(option_words(options, false)?);
    if let Some(v) = &view {
        words.extend(v.split_whitespace().map(str::to_string));
    }
    let req = daylit_glare::args::parse(&words).map_err(|e| fail(e.to_string()))?;
    if req.picture.is_some() {
        return Err(fail(format!(
            "{}: not an evalglare option (give options as name=value)",
            req.picture.unwrap_or_default()
        )));
    }
    let (img, name) = if picture.is_instance_of::<PyString>() || picture.hasattr("__fspath__")? {
        let path: PathBuf = picture.extract()?;
        let name = path.display().to_string();
        let img = guarded(py, move || {
            HdrImage::read(&path).map_err(|e| Fail::new(Kind::Picture, e))
        })?;
        (img, name)
    } else {
        if req.view.is_none() {
            return Err(fail(
                "pixels: an array has no header, give its view (view=\"-vth -vh 180 …\")".into(),
            ));
        }
        (image_of(picture)?, "<array>".to_string())
    };
    let e = guarded(py, move || {
        let mut pic = GlarePicture::new(&img, req.view.as_ref(), &name)
            .map_err(|e| Fail::new(Kind::Glare, e))?;
        match evaluate(&mut pic, &req.options) {
            Ok(e) => Ok(e),
            Err(LibGlareError::BlackCorners(lines)) => Err(Fail::new(
                Kind::Glare,
                format!("{name}: {}", lines.join(" ")),
            )),
            Err(e) => Err(Fail::new(Kind::Glare, e)),
        }
    })?;
    let d = PyDict::new(py);
    let values: [(&str, f64); 23] = [
        ("dgp", e.dgp),
        ("av_lum", e.avlum),
        ("E_v", e.ev),
        ("lum_backg", e.lum_backg),
        ("E_v_dir", e.ev_dir),
        ("dgi", e.dgi as f64),
        ("ugr", e.ugr as f64),
        ("vcp", e.vcp as f64),
        ("cgi", e.cgi as f64),
        ("lum_sources", e.lum_sources),
        ("omega_sources", e.omega_sources),
        ("Lveil", e.lveil),
        ("Lveil_cie", e.lveil_cie),
        ("dgr", e.dgr as f64),
        ("ugp", e.ugp),
        ("ugr_exp", e.ugr_exp),
        ("dgi_mod", e.dgi_mod),
        ("av_lum_pos", e.av_lum_pos),
        ("av_lum_pos2", e.av_lum_pos2),
        ("med_lum", e.med_lum),
        ("med_lum_pos", e.med_lum_pos),
        ("med_lum_pos2", e.med_lum_pos2),
        ("ugp2", e.ugp2),
    ];
    for (k, v) in values {
        d.set_item(k, v)?;
    }
    d.set_item("dgps", e.dgps)?;
    d.set_item("threshold", e.threshold)?;
    d.set_item("sources", e.sources.len())?;
    Ok(d)
}
