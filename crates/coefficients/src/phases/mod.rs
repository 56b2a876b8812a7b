//! The three- and five-phase methods (thesis eq. 6.2-6.4; RADIANCE's matrix methods) for
//! windows with BSDF data and shading that changes hour by hour:
//!
//! E = Σ_groups V T(state) D S  +  DC_rest S                                  (three-phase)
//! E = Σ_groups [V T D S − V_d T D_d S_sun + C_ds(state)]  +  the rest's five-phase terms
//!
//! Window groups ([`windows`]) are the polygons of each `BSDF`/`aBSDF` material, with more
//! states given by the user. The view and daylight matrices ([`matrices`]) are traced in one
//! scene; the rest of the building (openings that are not window groups) comes out of the same
//! sensor pass as two-phase daylight coefficients. The five-phase direct sun ([`sun`]) goes
//! through the real BSDF with the sun at its true position. Each group's state per time step
//! comes from a schedule or from a rule on the direct sun ([`ShadeControl`]).

pub mod matrices;
pub mod shading;
pub mod sun;
pub mod windows;

use crate::annual::{product, sky_as_matrix, Stage, TraceSettings};
use crate::coefficients::Sensor;
use crate::sun::direct_sun;
use daylit_matrix::chain;
use daylit_scene::{LoadOptions, Loc};
use daylit_sky::gendaymtx::{sky_matrix, step_suns, Options as SkyOptions};
use daylit_sky::patches::Subdivision;
use daylit_sky::weather::Weather;
use matrices::PhaseScene;
use std::path::PathBuf;

/// Why a matrix-method run failed.
#[derive(Debug, thiserror::Error)]
pub enum PhaseError {
    /// The scene files did not load.
    #[error(transparent)]
    Scene(#[from] daylit_scene::SceneError),
    /// The tracer refused the scene or the options.
    #[error(transparent)]
    Transport(#[from] daylit_transport::TransportError),
    /// The sky matrix could not be made.
    #[error(transparent)]
    Sky(#[from] daylit_sky::gendaymtx::MatrixError),
    /// Input that cannot be honoured, with where it is.
    #[error("{0}")]
    Input(String),
}

impl PhaseError {
    pub(crate) fn located(loc: &Loc, msg: String) -> PhaseError {
        PhaseError::Input(format!("{loc}: {msg}"))
    }
}

/// Which matrix method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// V T D S: the sun spread over its sky patches and the Klems patches of the BSDF.
    ThreePhase,
    /// Three-phase with its direct sun replaced by a sharp sun through the real BSDF.
    FivePhase,
}

/// How each window group's state is chosen per time step.
#[derive(Clone, Debug, PartialEq)]
pub enum ShadeControl {
    /// A CSV file (see [`shading`]).
    Schedule(PathBuf),
    /// A group takes its first state in which no more than `fraction` of the sensors get
    /// more than `lux` of direct sun through it, or its last state (IES LM-83's rule for
    /// blinds: 1000 lx, 2 %; with two states, "close when the sun is on the work plane").
    DirectSun {
        /// Direct-sun illuminance limit, lux.
        lux: f32,
        /// Share of the sensors allowed above it.
        fraction: f32,
    },
    /// The same with the sensors' whole illuminance (the rest of the building, the groups
    /// decided before, and this group in the state tried): glare control by a limit.
    Illuminance {
        /// Illuminance limit, lux.
        lux: f32,
        /// Share of the sensors allowed above it.
        fraction: f32,
    },
    /// A group takes its first state in which no view point gets more than `lux` of direct
    /// sun through it (a view point is a position and a view direction; its value is the
    /// direct sun on a surface facing that way: "close when the sun is in the occupant's
    /// eyes").
    ViewSun {
        /// The view points.
        views: Vec<Sensor>,
        /// Direct-sun illuminance limit at the eye, lux.
        lux: f32,
    },
}

impl ShadeControl {
    /// IES LM-83's operable-blinds rule.
    pub fn lm83() -> ShadeControl {
        ShadeControl::DirectSun {
            lux: 1000.0,
            fraction: 0.02,
        }
    }
}

/// Settings of a matrix-method run.
#[derive(Clone, Debug)]
pub struct PhaseSettings {
    /// The method.
    pub method: Method,
    /// How the view matrices (and the rest's coefficients) are traced.
    pub trace: TraceSettings,
    /// Rays per Klems patch of a daylight matrix (rfluxmtx's `-c`).
    pub d_samples: usize,
    /// Hemisphere samples per sensor of the five-phase direct sun.
    pub sun_samples: usize,
    /// Reinhart subdivision of the sky.
    pub mf: u32,
    /// More states of window groups: (material name, XML file), after each material's own.
    pub states: Vec<(String, PathBuf)>,
    /// How the groups change state.
    pub shade: ShadeControl,
}

impl PhaseSettings {
    /// Defaults for `method`: the annual run's tracing, 1000 rays per window patch, 65536
    /// direct-sun samples per sensor (their cost is one ray each: samples that meet a window
    /// in one Klems patch are evaluated together), Tregenza's sky, no added states, LM-83's rule.
    pub fn new(method: Method) -> PhaseSettings {
        PhaseSettings {
            method,
            trace: TraceSettings::default(),
            d_samples: 1000,
            sun_samples: 65536,
            mf: 1,
            states: Vec::new(),
            shade: ShadeControl::lm83(),
        }
    }
}

/// What one window group did over the year.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupStates {
    /// The group (its material's name).
    pub name: String,
    /// Its states' names (XML file names without suffix).
    pub states: Vec<String>,
    /// The state of every time step.
    pub chosen: Vec<usize>,
    /// Per state, the illuminance that comes through the group in that state at every step
    /// (lux, sensor-major): what a schedule picks from.
    pub through: Vec<Vec<f32>>,
    /// Per state, its direct sun alone (five-phase: through the real BSDF; three-phase: the
    /// Klems-spread V_d T D_d S_sun), what the shade rule looks at.
    pub direct_sun: Vec<Vec<f32>>,
}

/// The year by a matrix method: lux per sensor and step, sensor-major (`[s * steps + h]`).
pub struct PhaseYear {
    /// Number of sensors.
    pub sensors: usize,
    /// Number of time steps.
    pub steps: usize,
    /// Everything, with each group in its chosen state.
    pub total: Vec<f32>,
    /// Direct sun alone with every group in its first state (what ASE is taken from, as
    /// LM-83 asks: without operable shading).
    pub direct_sun: Vec<f32>,
    /// The states the groups took.
    pub groups: Vec<GroupStates>,
}

/// Runs the matrix method of `settings` for `sensors` under `weather`.
pub fn annual_phases(
    files: &[PathBuf],
    load: &LoadOptions,
    settings: &PhaseSettings,
    sensors: &[Sensor],
    weather: &Weather,
    progress: &(dyn Fn(Stage) + Sync),
) -> Result<PhaseYear, PhaseError> {
    let mut opts = settings.trace.options().map_err(PhaseError::Input)?;
    // The view and daylight matrices keep RADIANCE's estimator, as rfluxmtx's (their
    // RADIANCE goldens were made with it).
    opts.daylit_ambient = false;
    let patches = Subdivision::Reinhart(settings.mf);
    let scene = PhaseScene::new(files, load, opts, patches, &settings.states)?;
    let shade = &settings.shade;
    let groups = &scene.groups;
    let schedule = match shade {
        ShadeControl::Schedule(path) => {
            Some(shading::read_schedule(path, groups, weather.records.len())?)
        }
        _ => None,
    };
    let full_opts = SkyOptions {
        mf: settings.mf,
        ..SkyOptions::default()
    };
    let mut sun_opts = full_opts.clone();
    sun_opts.sun_only();
    let sky = sky_matrix(weather, &full_opts)?;
    let sun_sky = sky_matrix(weather, &sun_opts)?;
    let steps = sky.columns;
    let n = sensors.len();
    let five = settings.method == Method::FivePhase;

    let suns = step_suns(weather, &full_opts);
    let views = scene.view_matrices(sensors, &|| progress(Stage::Coefficients));
    let (sky, sun_sky) = (sky_as_matrix(&sky), sky_as_matrix(&sun_sky));
    // The rest of the building, as the two-phase method (five-phase: with a sharp sun).
    let mut total = product(&views.rest, &sky);
    let rest_direct = product(&views.rest_direct, &sun_sky);
    let mut direct = if five {
        let e_sun = direct_sun(&scene.renderer, sensors, &suns, &|| {});
        for ((t, d), e) in total.iter_mut().zip(&rest_direct).zip(&e_sun) {
            *t = (*t - d).max(0.0) + e;
        }
        e_sun
    } else {
        rest_direct
    };
    let mut window_suns = if five {
        sun::window_sun(
            &scene.renderer,
            groups,
            sensors,
            &suns,
            settings.sun_samples,
            &|| progress(Stage::Sun),
        )
    } else {
        Vec::new()
    };
    // The view points' direct sun through each group in each state, for the view rule.
    let view_suns = match shade {
        ShadeControl::ViewSun { views, .. } => sun::window_sun(
            &scene.renderer,
            groups,
            views,
            &suns,
            // A few points: as many samples as the sharpest Klems patch needs, whatever the
            // sensors use.
            settings.sun_samples.max(1 << 16),
            &|| {},
        ),
        _ => Vec::new(),
    };
    let mut used = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let dm = scene.daylight_matrix(g, settings.d_samples, settings.trace.seed)?;
        // Per state: the whole year through the group, and its direct sun.
        let mut all = Vec::new();
        let mut suns = Vec::new();
        for (k, state) in group.states.iter().enumerate() {
            let t = &state.transmission;
            let vtd = chain(&[&views.v[g], t, &dm.d]).map_err(shape)?;
            let vtd_direct = chain(&[&views.v_direct[g], t, &dm.d_direct]).map_err(shape)?;
            let mut year = product(&vtd, &sky);
            let blurred = product(&vtd_direct, &sun_sky);
            let sun = if five {
                let sharp = std::mem::take(&mut window_suns[g][k]);
                for ((y, b), s) in year.iter_mut().zip(&blurred).zip(&sharp) {
                    *y = (*y - b).max(0.0) + s;
                }
                sharp
            } else {
                blurred
            };
            all.push(year);
            suns.push(sun);
        }
        let allowed = |fraction: f32| (fraction as f64 * n as f64).floor() as usize;
        let first = |ok: &dyn Fn(usize, usize) -> bool| -> Vec<usize> {
            (0..steps)
                .map(|h| {
                    (0..group.states.len())
                        .find(|&k| ok(k, h))
                        .unwrap_or(group.states.len() - 1)
                })
                .collect()
        };
        let chosen = match shade {
            ShadeControl::Schedule(_) => schedule.as_ref().map_or_else(Vec::new, |s| s[g].clone()),
            ShadeControl::DirectSun { lux, fraction } => first(&|k, h| {
                (0..n).filter(|&s| suns[k][s * steps + h] > *lux).count() <= allowed(*fraction)
            }),
            ShadeControl::Illuminance { lux, fraction } => first(&|k, h| {
                (0..n)
                    .filter(|&s| total[s * steps + h] + all[k][s * steps + h] > *lux)
                    .count()
                    <= allowed(*fraction)
            }),
            ShadeControl::ViewSun { lux, .. } => {
                let at_eye = &view_suns[g];
                let views = at_eye.first().map_or(0, |v| v.len() / steps.max(1));
                first(&|k, h| (0..views).all(|v| at_eye[k][v * steps + h] <= *lux))
            }
        };
        for s in 0..n {
            for (h, &k) in chosen.iter().enumerate() {
                total[s * steps + h] += all[k][s * steps + h];
                direct[s * steps + h] += suns[0][s * steps + h];
            }
        }
        used.push(GroupStates {
            name: group.name.clone(),
            states: group.states.iter().map(|s| s.name.clone()).collect(),
            chosen,
            through: all,
            direct_sun: suns,
        });
    }
    Ok(PhaseYear {
        sensors: n,
        steps,
        total,
        direct_sun: direct,
        groups: used,
    })
}

fn shape(e: daylit_matrix::MatrixError) -> PhaseError {
    PhaseError::Input(format!("matrix shapes: {e}"))
}
