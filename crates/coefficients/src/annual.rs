//! The annual illuminance of a set of sensors over a weather year, by the five-phase
//! formula of thesis eq. 6.4 adapted to daylight coefficients (no BSDF):
//!
//! E = DC · S − DC_d · S_ds + E_sun
//!
//! where DC holds all paths to the sky patches, S is the whole sky matrix (sun spread over
//! its nearest patches, as gendaymtx does), DC_d and S_ds are the direct paths and the
//! sun-only matrix (what the patch-blurred sun adds straight through the glazing), and E_sun
//! puts that sun back as a point at its true position each hour (see [`crate::sun`]).

use crate::coefficients::{Coefficients, Sensor};
use crate::sender::SkyRenderer;
use crate::shards::{run_plan, Layout, Plan, Year};
use daylit_sky::gendaymtx::{MatrixError, SkyMatrix};
use daylit_sky::patches::Subdivision;
use daylit_sky::weather::Weather;
use serde::{Deserialize, Serialize};

/// How hard an annual run traces its daylight coefficients, in RADIANCE's terms. The defaults
/// come from a time-against-error curve (BENCHMARKS.md, "Annual defaults"): on the validation
/// rooms they put each sensor's mean illuminance within 3 % of a reference converged in samples
/// and in bounces (mean absolute), and DA within 0.02.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceSettings {
    /// `-ab`: ambient bounces. Rooms with light walls and ceiling need more than RADIANCE's
    /// usual 5: each bounce beyond the sixth still adds 1-3 % at the back of such a room.
    pub ab: u32,
    /// `-ad`: hemisphere samples of a sensor (fewer at deeper bounces, as in RADIANCE).
    pub ad: u32,
    /// `-lw`: weight below which paths end by Russian roulette (without bias).
    pub lw: f64,
    /// Seed of the random sequences.
    pub seed: u64,
}

impl Default for TraceSettings {
    fn default() -> Self {
        TraceSettings {
            ab: 10,
            ad: 4096,
            lw: 1e-5,
            seed: 1,
        }
    }
}

impl TraceSettings {
    /// The transport options of these settings: rtrace's defaults otherwise, unjittered sources
    /// (the sun is added as a point each hour), a depth limit that leaves room for the
    /// transmissions through glazing on top of `-ab` bounces, and daylit's ambient estimator
    /// in the contribution run. Errors name the setting that cannot be honoured.
    pub fn options(&self) -> Result<daylit_transport::Options, String> {
        if self.ad == 0 {
            return Err("-ad 0: an annual run needs hemisphere samples (1 or more)".into());
        }
        if !(self.lw > 0.0 && self.lw < 1.0) {
            return Err(format!(
                "-lw {}: the weight limit must lie between 0 and 1 (Russian roulette ends paths below it)",
                self.lw
            ));
        }
        let mut o = daylit_transport::Options::rtrace();
        o.ab = self.ab;
        o.ad = self.ad;
        o.lw = self.lw;
        o.lr = -(self.ab as i32 + 4).max(10);
        o.dj = 0.0;
        o.seed = self.seed;
        // daylit's ambient estimator (half the samples aimed at the windows, weighted by
        // multiple importance sampling, Russian roulette for weak rays): on the README's
        // main job it cuts the seed-to-seed spread of per-sensor DA by 40 % in about half the
        // time of RADIANCE's estimator, which rcontrib and rfluxmtx keep (BENCHMARKS.md, "Stable
        // numbers at the defaults").
        o.daylit_ambient = true;
        Ok(o)
    }
}

/// Illuminance of every sensor at every step, lux, sensor-major (`[s * steps + h]`).
pub struct AnnualIlluminance {
    /// Number of sensors.
    pub sensors: usize,
    /// Number of time steps (weather records).
    pub steps: usize,
    /// Everything: the five-phase total.
    pub total: Vec<f32>,
    /// The two-phase product DC · S alone (sun blurred over patches), for comparison with
    /// RADIANCE's rfluxmtx–gendaymtx–dctimestep pipeline.
    pub two_phase: Vec<f32>,
    /// The direct sun alone (point sun, hour by hour): what ASE is computed from.
    pub direct_sun: Vec<f32>,
    /// The daylight coefficients.
    pub coefficients: Coefficients,
}

/// Stages reported to `progress(stage, done_units)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Tracing daylight coefficients, one unit per sensor.
    Coefficients,
    /// Direct sun, one unit per sensor.
    Sun,
}

/// Computes the year for `sensors` under `weather`, sky subdivision from `sky`'s renderer:
/// the study as one shard of every sensor and every patch ([`crate::shards`]), so that a run
/// split into shards anywhere merges to these numbers bit for bit.
pub fn annual_illuminance(
    sky: &SkyRenderer,
    sensors: &[Sensor],
    weather: &Weather,
    progress: &(dyn Fn(Stage) + Sync),
) -> Result<AnnualIlluminance, MatrixError> {
    // Sky matrices come in Reinhart patches only.
    let mf = match sky.patches {
        Subdivision::Reinhart(mf) => mf,
        Subdivision::ShirleyChiu(n) => return Err(MatrixError::Subdivision(n)),
    };
    let patches = sky.patches.len();
    let one_block = std::iter::once(0..patches).collect();
    let year = Year::with_blocks(weather, mf, one_block)?;
    let plan =
        Plan::new(sensors.len(), patches, 1, &Layout::WHOLE).expect("one block of a sky's patches");
    Ok(run_plan(sky, sensors, &year, &plan, progress)
        .expect("one shard of every sensor and patch fits its own study"))
}

/// A sky matrix as a matrix of patches × steps, RGB (it is stored step by step).
pub(crate) fn sky_as_matrix(sky: &SkyMatrix) -> daylit_matrix::Matrix {
    let mut s = vec![0.0f32; sky.rows * sky.columns * 3];
    for c in 0..sky.columns {
        for p in 0..sky.rows {
            let v = sky.data[c * sky.rows + p];
            s[(p * sky.columns + c) * 3..][..3].copy_from_slice(&v);
        }
    }
    daylit_matrix::Matrix::new(sky.rows, sky.columns, 3, s).expect("shape by construction")
}

/// Lux of `dc` (sensors × patches, RGB) times `sky` (patches × steps), sensor-major.
pub(crate) fn product(dc: &daylit_matrix::Matrix, sky: &daylit_matrix::Matrix) -> Vec<f32> {
    daylit_matrix::illuminance(dc, sky)
        .expect("daylight coefficients and sky have the same patches")
        .into_data()
}
