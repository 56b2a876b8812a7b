//! The skies of a weather year's evaluated hours: for each occupied daylight hour, the sky
//! vector with the sun spread over its patches (gendaymtx), the same for the sun alone (what the
//! direct paths of the sky samples see of it, swapped for the true sun), and the hour's sun.

use crate::LightFieldError;
use daylit_sky::gendaymtx::{sky_matrix, step_suns, Options, StepSun};
use daylit_sky::weather::Weather;

/// One evaluated hour.
#[derive(Clone, Debug, PartialEq)]
pub struct Hour {
    /// Index of the weather record.
    pub record: usize,
    /// Month, 1–12.
    pub month: u32,
    /// Day of the month.
    pub day: u32,
    /// The hour as the weather file gives it.
    pub hour: f64,
}

/// Sky vectors of the evaluated hours, RGB radiance per patch (ground first), hour-major.
pub struct Skies {
    /// The hours.
    pub hours: Vec<Hour>,
    /// Patches per sky vector.
    pub bins: usize,
    /// Whole sky, sun in its patches: `full[h * bins + p]`.
    pub full: Vec<[f32; 3]>,
    /// The sun in its patches alone.
    pub sun_only: Vec<[f32; 3]>,
    /// The hour's sun (direction and normal irradiance), if any.
    pub suns: Vec<Option<StepSun>>,
}

/// The skies of the records that are `occupied` (one flag per record) and in daylight (some
/// direct or diffuse light), on Reinhart patches `mf` (1 = Tregenza), gendaymtx's defaults.
pub fn skies(weather: &Weather, occupied: &[bool], mf: u32) -> Result<Skies, LightFieldError> {
    if occupied.len() != weather.records.len() {
        return Err(LightFieldError::Input(format!(
            "{} occupancy flags for {} weather records",
            occupied.len(),
            weather.records.len()
        )));
    }
    let opts = Options {
        mf,
        ..Options::default()
    };
    let mut sun_opts = opts.clone();
    sun_opts.sun_only();
    let err = |e: daylit_sky::gendaymtx::MatrixError| LightFieldError::Input(e.to_string());
    let full = sky_matrix(weather, &opts).map_err(err)?;
    let sun = sky_matrix(weather, &sun_opts).map_err(err)?;
    let step_sun = step_suns(weather, &opts);
    let bins = full.rows;
    let mut out = Skies {
        hours: Vec::new(),
        bins,
        full: Vec::new(),
        sun_only: Vec::new(),
        suns: Vec::new(),
    };
    for (k, r) in weather.records.iter().enumerate() {
        if !occupied[k] || (r.direct <= 0.0 && r.diffuse <= 0.0) {
            continue;
        }
        out.hours.push(Hour {
            record: k,
            month: r.month,
            day: r.day,
            hour: r.hour,
        });
        out.full
            .extend_from_slice(&full.data[k * bins..(k + 1) * bins]);
        out.sun_only
            .extend_from_slice(&sun.data[k * bins..(k + 1) * bins]);
        out.suns.push(step_sun[k]);
    }
    Ok(out)
}
