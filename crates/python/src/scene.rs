//! `daylit.Scene`: RADIANCE scene files loaded once; rays traced, sensor grids laid out,
//! daylight coefficients and annual illuminance computed over them.

use crate::convert::{array_f32, array_f64, paths, render_options, rows_f64};
use crate::errors::{guarded, to_pyerr, Fail, Kind};
use crate::sky::Weather;
use daylit_coefficients::{annual_illuminance, daylight_coefficients, sky_scene, TraceSettings};
use daylit_scene::LoadOptions;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// RADIANCE scene files (text scenes, OBJ, daylit's binary scene files and RADIANCE octrees
/// and meshes), loaded and checked once.
///
/// ``Scene(files, *, allow_commands=False, **options)``: ``files`` is one path or a list,
/// read in order as oconv reads them. Inline commands (``!gensky …``, ``!xform …``) that
/// daylit implements run natively; others only with ``allow_commands=True``. ``options``
/// are rtrace's rendering options by RADIANCE's names (``ab=``, ``ad=``, ``aa=``, ``lw=``,
/// ``seed=``, ``as_=`` for ``-as``…), over rtrace's defaults; :meth:`trace` may override
/// them per call. Raises :class:`SceneError` with the file and line of a bad input.
#[pyclass(module = "daylit", frozen)]
pub struct Scene {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) load: LoadOptions,
    pub(crate) scene: daylit_scene::Scene,
    options: daylit_transport::Options,
}

/// A scene error (load, compile or transport) as a [`Fail`].
pub(crate) fn scene_fail(e: impl std::fmt::Display) -> Fail {
    Fail::new(Kind::Scene, e)
}

/// Sensors (N, 6) as the coefficient crate's type, directions normalised.
pub(crate) fn sensors_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<daylit_coefficients::Sensor>> {
    let (v, n) = rows_f64(obj, 6, "sensors")?;
    let mut out = Vec::with_capacity(n);
    for (k, r) in v.chunks_exact(6).enumerate() {
        let d = DVec3::new(r[3], r[4], r[5]);
        if d.length_squared() == 0.0 {
            return Err(to_pyerr(
                obj.py(),
                Fail::new(
                    Kind::Sensor,
                    format!("sensors: row {k}: the direction is zero"),
                ),
            ));
        }
        out.push(daylit_coefficients::Sensor::new(
            DVec3::new(r[0], r[1], r[2]),
            d,
        ));
    }
    Ok(out)
}

/// The trace settings of an annual computation, checked.
pub(crate) fn trace_settings(
    py: Python<'_>,
    ab: u32,
    ad: u32,
    lw: f64,
    seed: u64,
) -> PyResult<TraceSettings> {
    let t = TraceSettings { ab, ad, lw, seed };
    t.options()
        .map_err(|e| to_pyerr(py, Fail::new(Kind::Options, e)))?;
    Ok(t)
}

/// The Reinhart subdivision `m` (1 = Tregenza's 145 patches), checked as `daylit annual` does.
pub fn reinhart(py: Python<'_>, m: u32) -> PyResult<Subdivision> {
    if m == 0 || m > 30 {
        return Err(to_pyerr(
            py,
            Fail::new(
                Kind::Options,
                format!("m={m}: the Reinhart subdivision must be 1 to 30"),
            ),
        ));
    }
    Ok(Subdivision::Reinhart(m))
}

#[pymethods]
impl Scene {
    #[new]
    #[pyo3(signature = (files, *, allow_commands = false, **options))]
    fn new(
        py: Python<'_>,
        files: &Bound<'_, PyAny>,
        allow_commands: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Scene> {
        let files = paths(files)?;
        let options = render_options(daylit_transport::Options::rtrace(), options)?;
        let load = LoadOptions {
            allow_commands,
            ..LoadOptions::default()
        };
        let (scene, load) = guarded(py, move || {
            let scene = daylit_scene::load_scene(&files, &load).map_err(scene_fail)?;
            Ok((scene, (files, load)))
        })?;
        let (files, load) = load;
        Ok(Scene {
            files,
            load,
            scene,
            options,
        })
    }

    /// The scene files, in the order they were read.
    #[getter]
    fn files(&self) -> Vec<PathBuf> {
        self.files.clone()
    }

    /// Number of primitives (modifiers and surfaces) read.
    fn __len__(&self) -> usize {
        self.scene.prims.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Scene({:?}, {} primitives)",
            self.files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>(),
            self.scene.prims.len()
        )
    }

    /// Traces rays as rtrace does and returns their values, shape (N, 3), float64.
    ///
    /// ``rays``: shape (N, 6), origin and direction per row (directions need not be unit).
    /// ``irradiance=True`` gives the irradiance at each origin on a surface facing the
    /// direction (rtrace ``-I``; multiply by 179 for lux) instead of the radiance along
    /// the ray. ``options``: rendering options by RADIANCE's names over the scene's
    /// (``ab=``, ``ad=``, ``aa=``, ``lw=``, ``seed=``…). Ray ``i`` draws the random numbers
    /// of rtrace's ray ``i``, so with the same options and seed the values equal
    /// ``daylit rtrace``'s bit for bit. The GIL is released while tracing.
    #[pyo3(signature = (rays, *, irradiance = false, **options))]
    fn trace<'py>(
        &self,
        py: Python<'py>,
        rays: &Bound<'py, PyAny>,
        irradiance: bool,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (v, n) = rows_f64(rays, 6, "rays")?;
        let opts = render_options(self.options.clone(), options)?;
        let rays: Vec<(DVec3, DVec3)> = v
            .chunks_exact(6)
            .map(|r| (DVec3::new(r[0], r[1], r[2]), DVec3::new(r[3], r[4], r[5])))
            .collect();
        let scene = &self.scene;
        let load = &self.load;
        let values = guarded(py, move || {
            let compiled = daylit_compile::compile(scene);
            let mut r =
                daylit_transport::Renderer::new(scene.clone(), compiled, opts, &load.raypath)
                    .map_err(scene_fail)?;
            let (values, _) = r
                .trace_batch(&rays, irradiance)
                .map_err(|e| Fail::new(Kind::Base, e))?;
            Ok(values
                .into_iter()
                .flat_map(|c| c.to_array())
                .collect::<Vec<f64>>())
        })?;
        array_f64(py, values, &[n, 3])
    }

    /// The vertices of the polygon named ``name``, shape (K, 3).
    ///
    /// Raises :class:`SceneError` when the scene has no polygon of that name.
    fn polygon<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let v = self.scene.polygon_vertices(name).ok_or_else(|| {
            to_pyerr(
                py,
                scene_fail(format!("no polygon named '{name}' in the scene")),
            )
        })?;
        let k = v.len();
        array_f64(py, v.into_iter().flatten().collect(), &[k, 3])
    }

    /// Whether a surface has a BSDF or aBSDF material (``daylit annual``'s ``auto`` method
    /// then uses the five-phase method).
    fn has_bsdf_windows(&self) -> bool {
        self.scene.has_bsdf_surfaces()
    }

    /// Daylight coefficients of ``sensors`` (N, 6): the irradiance (W/m², RGB) at each
    /// sensor per unit radiance of each sky patch, shape (N, patches, 3), float32; patches
    /// ground first, then Reinhart ``m`` (1 = Tregenza's 145), as the rows of
    /// :func:`sky_matrix` (rcontrib's / rfluxmtx's order). With ``direct=True`` a second
    /// array of the same shape holds the paths that reach the patch straight through
    /// glazing (what the five-phase sun correction replaces).
    ///
    /// The scene should hold no sky of its own. ``ab``, ``ad``, ``lw``, ``seed`` are
    /// RADIANCE's options with ``daylit annual``'s defaults; the result equals what
    /// ``daylit annual`` traces for the same sensors and settings, bit for bit.
    #[pyo3(signature = (sensors, *, m = 1, ab = TraceSettings::default().ab, ad = TraceSettings::default().ad, lw = TraceSettings::default().lw, seed = TraceSettings::default().seed, direct = false))]
    #[allow(clippy::too_many_arguments)]
    fn daylight_coefficients<'py>(
        &self,
        py: Python<'py>,
        sensors: &Bound<'py, PyAny>,
        m: u32,
        ab: u32,
        ad: u32,
        lw: f64,
        seed: u64,
        direct: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let sensors = sensors_of(sensors)?;
        let settings = trace_settings(py, ab, ad, lw, seed)?;
        let patches = reinhart(py, m)?;
        let (files, load) = (&self.files, &self.load);
        let dc = guarded(py, move || {
            let opts = settings
                .options()
                .map_err(|e| Fail::new(Kind::Options, e))?;
            let sky = sky_scene(files, load, opts, patches).map_err(scene_fail)?;
            Ok(daylight_coefficients(&sky, &sensors, &|| {}))
        })?;
        let shape = [dc.sensors, dc.bins, 3];
        let total = array_f32(py, dc.total.into_iter().flatten().collect(), &shape)?;
        if !direct {
            return Ok(total);
        }
        let d = array_f32(py, dc.direct.into_iter().flatten().collect(), &shape)?;
        Ok((total, d).into_pyobject(py)?.into_any())
    }

    /// The illuminance (lux) of ``sensors`` (N, 6) at every record of ``weather``, by
    /// daylight coefficients (``daylit annual``'s two-phase method with the sun put back as
    /// a point: E = DC·S − DC_d·S_sun + E_sun). Returns a dict of (N, hours) float32
    /// arrays: ``total``, ``two_phase`` (DC·S alone, RADIANCE's rfluxmtx–gendaymtx–
    /// dctimestep result) and ``direct_sun`` (what ASE is computed from).
    #[pyo3(signature = (sensors, weather, *, m = 1, ab = TraceSettings::default().ab, ad = TraceSettings::default().ad, lw = TraceSettings::default().lw, seed = TraceSettings::default().seed))]
    #[allow(clippy::too_many_arguments)]
    fn annual_illuminance<'py>(
        &self,
        py: Python<'py>,
        sensors: &Bound<'py, PyAny>,
        weather: &Weather,
        m: u32,
        ab: u32,
        ad: u32,
        lw: f64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let sensors = sensors_of(sensors)?;
        let settings = trace_settings(py, ab, ad, lw, seed)?;
        let patches = reinhart(py, m)?;
        let (files, load, w) = (&self.files, &self.load, &weather.inner);
        let y = guarded(py, move || {
            let opts = settings
                .options()
                .map_err(|e| Fail::new(Kind::Options, e))?;
            let sky = sky_scene(files, load, opts, patches).map_err(scene_fail)?;
            annual_illuminance(&sky, &sensors, w, &|_| {}).map_err(|e| Fail::new(Kind::Weather, e))
        })?;
        let d = PyDict::new(py);
        let shape = [y.sensors, y.steps];
        d.set_item("total", array_f32(py, y.total, &shape)?)?;
        d.set_item("two_phase", array_f32(py, y.two_phase, &shape)?)?;
        d.set_item("direct_sun", array_f32(py, y.direct_sun, &shape)?)?;
        Ok(d)
    }

    /// A work-plane sensor grid over the polygon named ``floor``, shape (N, 6): points
    /// ``height`` above it, ``spacing`` apart, facing up (``daylit annual --floor``).
    #[pyo3(signature = (floor, *, height = 0.8, spacing = 0.5))]
    fn sensor_grid<'py>(
        &self,
        py: Python<'py>,
        floor: &str,
        height: f64,
        spacing: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let poly = self.scene.polygon_vertices(floor).ok_or_else(|| {
            to_pyerr(
                py,
                scene_fail(format!("no polygon named '{floor}' in the scene")),
            )
        })?;
        crate::annual::grid_array(py, &poly, height, spacing)
    }
}
