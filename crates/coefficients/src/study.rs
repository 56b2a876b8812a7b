//! An annual run as `daylit annual` makes it, for any front end (the CLI, the Python
//! package): the method chosen (daylight coefficients through the scene, or the three- and
//! five-phase matrix methods when windows are BSDF materials), the year's illuminance and
//! direct sun computed, and the hours each window group spent in each state.

use crate::annual::{annual_illuminance, Stage, TraceSettings};
use crate::coefficients::Sensor;
use crate::phases::{annual_phases, GroupStates, Method, PhaseError, PhaseSettings};
use crate::sender::{sky_scene, SenderError};
use daylit_annual::report::WindowStates;
use daylit_annual::Schedule;
use daylit_scene::{LoadOptions, SceneError};
use daylit_sky::gendaymtx::MatrixError;
use daylit_sky::patches::Subdivision;
use daylit_sky::weather::Weather;
use std::path::PathBuf;

/// How an annual run is simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodChoice {
    /// The five-phase method when a surface has a BSDF or aBSDF material, else two-phase.
    Auto,
    /// Daylight coefficients traced through the scene (any glazing material).
    TwoPhase,
    /// A matrix method over the BSDF window groups.
    Matrix(Method),
}

/// Why an annual run failed.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The scene files did not load.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The coefficient renderer could not be made.
    #[error(transparent)]
    Sender(#[from] SenderError),
    /// The sky matrices could not be made.
    #[error(transparent)]
    Sky(#[from] MatrixError),
    /// A matrix-method run failed.
    #[error(transparent)]
    Phase(#[from] PhaseError),
    /// Settings that do not fit together.
    #[error("{0}")]
    Input(String),
}

/// The method `choice` stands for in the scene of `files`: `None` for two-phase.
pub fn resolve_method(
    files: &[PathBuf],
    load: &LoadOptions,
    choice: MethodChoice,
) -> Result<Option<Method>, StudyError> {
    Ok(match choice {
        MethodChoice::TwoPhase => None,
        MethodChoice::Matrix(m) => Some(m),
        MethodChoice::Auto => daylit_scene::load_scene(files, load)?
            .has_bsdf_surfaces()
            .then_some(Method::FivePhase),
    })
}

/// The name of a method in reports: `2phase`, `3phase`, `5phase`.
pub fn method_name(method: Option<Method>) -> &'static str {
    match method {
        None => "2phase",
        Some(Method::ThreePhase) => "3phase",
        Some(Method::FivePhase) => "5phase",
    }
}

/// A year of an annual run.
#[derive(Clone, Debug)]
pub struct Year {
    /// The method used (`None`: two-phase).
    pub method: Option<Method>,
    /// Number of time steps (weather records).
    pub steps: usize,
    /// Illuminance, lux, sensor-major (`[s * steps + h]`).
    pub total: Vec<f32>,
    /// The direct sun alone, lux, sensor-major: what ASE is computed from.
    pub direct_sun: Vec<f32>,
    /// The window groups' states (matrix methods only).
    pub groups: Vec<GroupStates>,
}

impl Year {
    /// The occupied hours each window group spent in each of its states.
    pub fn window_states(&self, schedule: &Schedule) -> Vec<WindowStates> {
        self.groups
            .iter()
            .map(|g| WindowStates {
                group: g.name.clone(),
                occupied_hours: g
                    .states
                    .iter()
                    .enumerate()
                    .map(|(k, name)| {
                        let hours = g
                            .chosen
                            .iter()
                            .zip(schedule.flags())
                            .filter(|(c, o)| **c == k && **o)
                            .count();
                        (name.clone(), hours)
                    })
                    .collect(),
            })
            .collect()
    }
}

/// Computes the year of `sensors` under `weather` by `method` (see [`resolve_method`]):
/// `phases` gives the tracing, sky subdivision and window settings (its `method` field is
/// replaced by `method`; two-phase reads only `trace` and `mf`). `progress` is called per
/// finished sensor of each stage.
pub fn annual_year(
    files: &[PathBuf],
    load: &LoadOptions,
    method: Option<Method>,
    phases: &PhaseSettings,
    sensors: &[Sensor],
    weather: &Weather,
    progress: &(dyn Fn(Stage) + Sync),
) -> Result<Year, StudyError> {
    if phases.mf == 0 || phases.mf > 30 {
        return Err(StudyError::Input(format!(
            "-m {}: the Reinhart subdivision must be 1 to 30",
            phases.mf
        )));
    }
    match method {
        None => {
            let opts = phases.trace.options().map_err(StudyError::Input)?;
            let sky = sky_scene(files, load, opts, Subdivision::Reinhart(phases.mf))?;
            let y = annual_illuminance(&sky, sensors, weather, progress)?;
            Ok(Year {
                method,
                steps: y.steps,
                total: y.total,
                direct_sun: y.direct_sun,
                groups: Vec::new(),
            })
        }
        Some(m) => {
            let settings = PhaseSettings {
                method: m,
                ..phases.clone()
            };
            let y = annual_phases(files, load, &settings, sensors, weather, progress)?;
            Ok(Year {
                method,
                steps: y.steps,
                total: y.total,
                direct_sun: y.direct_sun,
                groups: y.groups,
            })
        }
    }
}

/// The default settings of a run traced with `trace` over Reinhart `mf` (window settings
/// as [`PhaseSettings::new`] gives them).
pub fn default_settings(trace: TraceSettings, mf: u32) -> PhaseSettings {
    PhaseSettings {
        trace,
        mf,
        ..PhaseSettings::new(Method::ThreePhase)
    }
}
