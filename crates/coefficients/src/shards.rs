//! An annual study split into shards that other processes or machines can run (SPEC part L):
//! blocks of sensors × blocks of sky patches, run one by one anywhere and merged into the
//! illuminance [`annual_illuminance`](crate::annual_illuminance) computes in one process, bit
//! for bit.
//!
//! Two kinds of shard, because tracing gives a sensor's coefficients for every patch at once:
//! - a [`SensorShard`] traces a block of sensors: their daylight coefficients and the direct
//!   sun of every step ([`Traced`]). Sensor `k` of the study draws the random numbers of
//!   index `k` (`Renderer::reseed`) whatever block, thread or process traces it.
//! - a [`ProductShard`] multiplies a block of traced sensors by a run of patch blocks of the
//!   sky matrices ([`Partial`]): E = DC·S and DC_d·S_ds restricted to those patches.
//!
//! Bit equality comes from one canonical order of every sum. The patches are cut into the
//! study's `patch_blocks` contiguous blocks (part of the study, like the seed: another count
//! rounds differently). Within a block, a sensor's illuminance at a step is summed patch by
//! patch in `f64` (each term `Σk w_k D_k S_k` in colour order, or `(Σk w_k D_k) S` when the
//! sky matrix is grey), with no blocking by rows or columns, so the sum of a sensor does not
//! depend on which other sensors share its shard. [`merge`] adds the blocks' sums in block
//! order and rounds to `f32` once. The single-process run is the same code with one shard of
//! every sensor and every block.

use crate::annual::{AnnualIlluminance, Stage, TraceSettings};
use crate::coefficients::{daylight_coefficients_from, Coefficients, Sensor};
use crate::sender::{sky_scene, SenderError, SkyRenderer};
use crate::sun::direct_sun_from;
use daylit_matrix::LUX_WEIGHTS;
use daylit_scene::LoadOptions;
use daylit_sky::gendaymtx::{
    sky_matrix, step_suns, MatrixError, Options as SkyOptions, SkyMatrix, StepSun,
};
use daylit_sky::patches::Subdivision;
use daylit_sky::weather::{read_weather, Weather, WeatherError};
use rayon::prelude::*;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::ops::Range;
use std::path::PathBuf;

/// Why a study could not be planned, run or merged.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// The scene files did not load, or the tracer refused them.
    #[error(transparent)]
    Scene(#[from] SenderError),
    /// The weather file did not read.
    #[error(transparent)]
    Weather(#[from] WeatherError),
    /// The sky matrices could not be made.
    #[error(transparent)]
    Matrix(#[from] MatrixError),
    /// A setting of the study or the layout that cannot be honoured.
    #[error("{0}")]
    Settings(String),
    /// Shards or results that do not belong together (wrong study, overlap, gaps).
    #[error("{0}")]
    Mismatch(String),
    /// Bytes that are not an encoded value of the expected kind.
    #[error("cannot decode {what}: {err}")]
    Decode {
        /// What was expected.
        what: &'static str,
        /// The decoder's complaint.
        err: String,
    },
}

/// An annual two-phase study (daylight coefficients through the scene, five-phase direct
/// sun), described by its inputs so that a worker elsewhere can rebuild it. Paths must be
/// readable by every worker (a shared file system on a cluster).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// Scene files, in order (no sky: the study adds its own sender).
    pub scene: Vec<PathBuf>,
    /// Run inline commands daylit does not implement itself (`--allow-commands`).
    pub allow_commands: bool,
    /// Directories searched for function and data files; `None`: RAYPATH of the worker's
    /// environment.
    pub raypath: Option<Vec<PathBuf>>,
    /// Sensors, in the study's order (their index seeds their random numbers).
    pub sensors: Vec<Sensor>,
    /// Weather file: EPW, WEA or TMY3 CSV.
    pub weather: PathBuf,
    /// How the coefficients are traced (seed included).
    pub trace: TraceSettings,
    /// Reinhart subdivision of the sky (1: Tregenza's 145 patches and the ground).
    pub mf: u32,
    /// Number of canonical patch blocks the matrix products are summed in (1 = one sum over
    /// every patch, as `daylit annual` does).
    pub patch_blocks: usize,
}

impl Study {
    /// A study with `daylit annual`'s defaults: default trace settings, Tregenza sky, one
    /// patch block.
    pub fn new(scene: Vec<PathBuf>, sensors: Vec<Sensor>, weather: PathBuf) -> Self {
        Study {
            scene,
            allow_commands: false,
            raypath: None,
            sensors,
            weather,
            trace: TraceSettings::default(),
            mf: 1,
            patch_blocks: 1,
        }
    }

    /// Number of patches (ground first) of the study's sky.
    pub fn patches(&self) -> Result<usize, ShardError> {
        if self.mf == 0 || self.mf > 30 {
            return Err(ShardError::Settings(format!(
                "mf {}: the Reinhart subdivision must be 1 to 30",
                self.mf
            )));
        }
        Ok(Subdivision::Reinhart(self.mf).len())
    }

    /// Cuts the study into shards by `layout`. Checks the settings without reading files.
    pub fn plan(&self, layout: &Layout) -> Result<Plan, ShardError> {
        self.trace.options().map_err(ShardError::Settings)?;
        Plan::new(
            self.sensors.len(),
            self.patches()?,
            self.patch_blocks,
            layout,
        )
    }
}

/// How big shards are: sensors per shard and canonical patch blocks per product shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Sensors traced (and multiplied) per shard.
    pub sensors_per_shard: usize,
    /// Canonical patch blocks per product shard.
    pub patch_blocks_per_shard: usize,
}

impl Layout {
    /// One shard of everything: the single-process run.
    pub const WHOLE: Layout = Layout {
        sensors_per_shard: usize::MAX,
        patch_blocks_per_shard: usize::MAX,
    };
}

/// A block of the study's sensors to trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SensorShard {
    /// Position in [`Plan::sensor_shards`].
    pub id: usize,
    /// The study's sensors `start..end`.
    pub sensors: Range<usize>,
}

/// A block of traced sensors times a run of canonical patch blocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductShard {
    /// Position in [`Plan::product_shards`].
    pub id: usize,
    /// The [`SensorShard`] whose [`Traced`] result this shard multiplies.
    pub sensor_shard: usize,
    /// The study's sensors `start..end` (those of the sensor shard).
    pub sensors: Range<usize>,
    /// Canonical patch blocks `start..end`.
    pub patch_blocks: Range<usize>,
}

/// The shards of a study: every sensor in exactly one sensor shard, every (sensor, patch
/// block) in exactly one product shard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Sensors of the study.
    pub sensors: usize,
    /// Patches of the study's sky (ground first).
    pub patches: usize,
    /// Patch ranges of the canonical blocks, in summing order.
    pub blocks: Vec<Range<usize>>,
    /// Tracing shards.
    pub sensor_shards: Vec<SensorShard>,
    /// Product shards (each needs its sensor shard's result).
    pub product_shards: Vec<ProductShard>,
}

impl Plan {
    /// Shards of `sensors` sensors and `patches` patches summed in `patch_blocks` blocks.
    pub fn new(
        sensors: usize,
        patches: usize,
        patch_blocks: usize,
        layout: &Layout,
    ) -> Result<Plan, ShardError> {
        if patch_blocks == 0 || patch_blocks > patches {
            return Err(ShardError::Settings(format!(
                "patch_blocks {patch_blocks}: expected 1 to {patches} (the sky's patches)"
            )));
        }
        if layout.sensors_per_shard == 0 || layout.patch_blocks_per_shard == 0 {
            return Err(ShardError::Settings(format!(
                "layout of {} sensors and {} patch blocks per shard: both must be 1 or more",
                layout.sensors_per_shard, layout.patch_blocks_per_shard
            )));
        }
        let blocks = (0..patch_blocks)
            .map(|b| b * patches / patch_blocks..(b + 1) * patches / patch_blocks)
            .collect();
        let mut sensor_shards = Vec::new();
        let mut product_shards = Vec::new();
        let mut s0 = 0;
        while s0 < sensors {
            let s1 = s0 + layout.sensors_per_shard.min(sensors - s0);
            let id = sensor_shards.len();
            sensor_shards.push(SensorShard {
                id,
                sensors: s0..s1,
            });
            let mut b0 = 0;
            while b0 < patch_blocks {
                let b1 = b0 + layout.patch_blocks_per_shard.min(patch_blocks - b0);
                product_shards.push(ProductShard {
                    id: product_shards.len(),
                    sensor_shard: id,
                    sensors: s0..s1,
                    patch_blocks: b0..b1,
                });
                b0 = b1;
            }
            s0 = s1;
        }
        Ok(Plan {
            sensors,
            patches,
            blocks,
            sensor_shards,
            product_shards,
        })
    }
}

/// What a [`SensorShard`] gives: the coefficients and the direct sun of its sensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Traced {
    /// The study's sensors `start..end`.
    pub sensors: Range<usize>,
    /// Patches per coefficient row.
    pub bins: usize,
    /// Time steps of the year.
    pub steps: usize,
    /// All paths, sensor-major (`[s * bins + p]`, `s` counted from `sensors.start`).
    pub total: Vec<[f32; 3]>,
    /// Direct paths, same layout.
    pub direct: Vec<[f32; 3]>,
    /// Direct-sun illuminance (lux), sensor-major (`[s * steps + h]`).
    pub direct_sun: Vec<f32>,
}

/// What a [`ProductShard`] gives: per patch block, its sensors' sums over the block's
/// patches, unrounded (`f64`), at the steps whose sky is not dark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Partial {
    /// The study's sensors `start..end`.
    pub sensors: Range<usize>,
    /// Canonical patch blocks `start..end`.
    pub patch_blocks: Range<usize>,
    /// Time steps of the year.
    pub steps: usize,
    /// The steps kept for DC·S (those with light in the whole sky matrix).
    pub columns: Vec<u32>,
    /// The steps kept for DC_d·S_ds (those with a sun in the sun-only matrix).
    pub sun_columns: Vec<u32>,
    /// DC·S: `[(b * sensors + s) * columns.len() + c]`, `b` and `s` counted from the starts.
    pub two_phase: Vec<f64>,
    /// DC_d·S_ds, laid out as `two_phase` over `sun_columns`.
    pub blurred_direct: Vec<f64>,
}

/// Encodes a shard, a result or a study for another process (postcard: compact, `f64`
/// exact).
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_stdvec(value).expect("shard values always serialise")
}

/// Decodes what [`encode`] made; `what` names the expected value in the error.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], what: &'static str) -> Result<T, ShardError> {
    postcard::from_bytes(bytes).map_err(|e| ShardError::Decode {
        what,
        err: e.to_string(),
    })
}

/// A sky matrix ready for the canonical products: the steps with light, and the patch rows
/// over those steps as `f64` (one plane when grey, else R, G, B).
struct SkyPlanes {
    /// Kept steps.
    live: Vec<u32>,
    /// Every element has R = G = B.
    grey: bool,
    /// `planes[k][p * live.len() + c]`.
    planes: Vec<Vec<f64>>,
}

impl SkyPlanes {
    fn new(sky: &SkyMatrix) -> SkyPlanes {
        let rows = sky.rows;
        let column = |c: usize| &sky.data[c * rows..(c + 1) * rows];
        // A dark step gives exact zeros: it is left out of the sums and of the results.
        let live: Vec<u32> = (0..sky.columns)
            .filter(|&c| column(c).iter().any(|v| v.iter().any(|&x| x != 0.0)))
            .map(|c| c as u32)
            .collect();
        let grey = sky.data.iter().all(|v| v[0] == v[1] && v[1] == v[2]);
        let n = live.len();
        let planes = (0..if grey { 1 } else { 3 })
            .map(|k| {
                let mut plane = vec![0.0f64; rows * n];
                for (ci, &c) in live.iter().enumerate() {
                    for (p, v) in column(c as usize).iter().enumerate() {
                        plane[p * n + ci] = f64::from(v[k]);
                    }
                }
                plane
            })
            .collect();
        SkyPlanes { live, grey, planes }
    }

    /// `out[c] = Σ_{p in patches} Σk w_k coef[p]_k S_k[p][c]`, patch by patch in order, the
    /// canonical sum of one sensor over one patch block.
    fn row_sum(&self, coef: &[[f32; 3]], patches: Range<usize>, out: &mut [f64]) {
        let n = self.live.len();
        out.fill(0.0);
        for p in patches {
            let d = coef[p];
            if self.grey {
                let a = LUX_WEIGHTS[0] * f64::from(d[0])
                    + LUX_WEIGHTS[1] * f64::from(d[1])
                    + LUX_WEIGHTS[2] * f64::from(d[2]);
                axpy(out, a, &self.planes[0][p * n..(p + 1) * n]);
            } else {
                for k in 0..3 {
                    let a = LUX_WEIGHTS[k] * f64::from(d[k]);
                    axpy(out, a, &self.planes[k][p * n..(p + 1) * n]);
                }
            }
        }
    }
}

/// `out += a · b`, element by element (no fused multiply-add: Rust does not contract, so the
/// rounding is the same on every machine). A zero `a` adds exact zeros and is skipped.
fn axpy(out: &mut [f64], a: f64, b: &[f64]) {
    if a == 0.0 {
        return;
    }
    for (o, &x) in out.iter_mut().zip(b) {
        *o += a * x;
    }
}

/// The year's side of a study: sky matrices, suns and the canonical patch blocks.
pub struct Year {
    steps: usize,
    suns: Vec<Option<StepSun>>,
    full: SkyPlanes,
    sun_only: SkyPlanes,
    blocks: Vec<Range<usize>>,
}

impl Year {
    /// The sky matrices (whole sky, sun only) and suns of `weather` on Reinhart `mf`, with the
    /// patches cut into `patch_blocks` canonical blocks.
    pub fn new(weather: &Weather, mf: u32, patch_blocks: usize) -> Result<Year, ShardError> {
        if mf == 0 || mf > 30 {
            return Err(ShardError::Settings(format!(
                "mf {mf}: the Reinhart subdivision must be 1 to 30"
            )));
        }
        let patches = Subdivision::Reinhart(mf).len();
        let plan = Plan::new(0, patches, patch_blocks, &Layout::WHOLE)?;
        Ok(Year::with_blocks(weather, mf, plan.blocks)?)
    }

    /// [`Year::new`] with the blocks given (contiguous patch ranges in order, covering all).
    pub(crate) fn with_blocks(
        weather: &Weather,
        mf: u32,
        blocks: Vec<Range<usize>>,
    ) -> Result<Year, MatrixError> {
        let full_opts = SkyOptions {
            mf,
            ..SkyOptions::default()
        };
        let mut sun_opts = full_opts.clone();
        sun_opts.sun_only();
        let full = sky_matrix(weather, &full_opts)?;
        let sun_only = sky_matrix(weather, &sun_opts)?;
        Ok(Year {
            steps: full.columns,
            suns: step_suns(weather, &full_opts),
            full: SkyPlanes::new(&full),
            sun_only: SkyPlanes::new(&sun_only),
            blocks,
        })
    }

    /// Time steps of the year.
    pub fn steps(&self) -> usize {
        self.steps
    }
}

/// Traces `shard` of a study whose sensors are `sensors` (the whole list: the shard picks its
/// block), reporting each sensor's coefficients and direct sun to `progress`.
pub fn trace_shard(
    sky: &SkyRenderer,
    sensors: &[Sensor],
    year: &Year,
    shard: &SensorShard,
    progress: &(dyn Fn(Stage) + Sync),
) -> Result<Traced, ShardError> {
    let block = sensors.get(shard.sensors.clone()).ok_or_else(|| {
        ShardError::Mismatch(format!(
            "sensor shard {} covers sensors {}..{}, the study has {}",
            shard.id,
            shard.sensors.start,
            shard.sensors.end,
            sensors.len()
        ))
    })?;
    let first = shard.sensors.start;
    let dc = daylight_coefficients_from(sky, block, first, &|| progress(Stage::Coefficients));
    let direct_sun = direct_sun_from(&sky.renderer, block, first, &year.suns, &|| {
        progress(Stage::Sun)
    });
    Ok(Traced {
        sensors: shard.sensors.clone(),
        bins: dc.bins,
        steps: year.steps,
        total: dc.total,
        direct: dc.direct,
        direct_sun,
    })
}

/// Multiplies the traced sensors of `shard` by the sky matrices over its patch blocks.
pub fn product_shard(
    year: &Year,
    traced: &Traced,
    shard: &ProductShard,
) -> Result<Partial, ShardError> {
    let (s, b) = (&shard.sensors, &shard.patch_blocks);
    if s.start < traced.sensors.start || s.end > traced.sensors.end || s.start > s.end {
        return Err(ShardError::Mismatch(format!(
            "product shard {} needs sensors {}..{}, the traced block holds {}..{}",
            shard.id, s.start, s.end, traced.sensors.start, traced.sensors.end
        )));
    }
    if b.start >= b.end || b.end > year.blocks.len() {
        return Err(ShardError::Mismatch(format!(
            "product shard {} covers patch blocks {}..{}, the study has {}",
            shard.id,
            b.start,
            b.end,
            year.blocks.len()
        )));
    }
    let bins = year.blocks.last().map_or(0, |r| r.end);
    if traced.bins != bins || traced.steps != year.steps {
        return Err(ShardError::Mismatch(format!(
            "traced block of {} patches and {} steps, the study's sky has {} and {}",
            traced.bins, traced.steps, bins, year.steps
        )));
    }
    let products = |sky: &SkyPlanes, coef: &[[f32; 3]]| -> Vec<f64> {
        let n = sky.live.len();
        let ns = s.len();
        let mut out = vec![0.0f64; b.len() * ns * n];
        if n == 0 {
            return out;
        }
        // One row per (block, sensor), each summed on its own: the order inside a row never
        // depends on its neighbours.
        out.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
            let (bi, si) = (b.start + i / ns, s.start + i % ns - traced.sensors.start);
            sky.row_sum(
                &coef[si * bins..(si + 1) * bins],
                year.blocks[bi].clone(),
                row,
            );
        });
        out
    };
    Ok(Partial {
        sensors: s.clone(),
        patch_blocks: b.clone(),
        steps: year.steps,
        columns: year.full.live.clone(),
        sun_columns: year.sun_only.live.clone(),
        two_phase: products(&year.full, &traced.total),
        blurred_direct: products(&year.sun_only, &traced.direct),
    })
}

/// The annual illuminance of `plan`'s study from the results of all its shards (any order):
/// each sum of patch blocks is added in block order and rounded once, then
/// E = max(DC·S − DC_d·S_ds, 0) + E_sun. Errors name missing, overlapping or foreign results.
pub fn merge(
    plan: &Plan,
    traced: &[Traced],
    partials: &[Partial],
) -> Result<AnnualIlluminance, ShardError> {
    let ns = plan.sensors;
    let nb = plan.blocks.len();
    let bins = plan.patches;
    let mismatch = |m: String| Err(ShardError::Mismatch(m));
    let steps = match (traced.first(), partials.first()) {
        (Some(t), _) => t.steps,
        (None, Some(p)) => p.steps,
        (None, None) if ns == 0 => 0,
        _ => return mismatch("no shard results to merge".into()),
    };
    // Which traced block holds each sensor; which partial each (sensor, block).
    let mut trace_of = vec![usize::MAX; ns];
    for (i, t) in traced.iter().enumerate() {
        if t.sensors.end > ns || t.bins != bins || t.steps != steps {
            return mismatch(format!(
                "traced sensors {}..{} ({} patches, {} steps) do not belong to a study of {ns} sensors, {bins} patches and {steps} steps",
                t.sensors.start, t.sensors.end, t.bins, t.steps
            ));
        }
        let n = t.sensors.len();
        if t.total.len() != n * bins
            || t.direct.len() != n * bins
            || t.direct_sun.len() != n * steps
        {
            return mismatch(format!(
                "traced sensors {}..{}: arrays of the wrong length",
                t.sensors.start, t.sensors.end
            ));
        }
        for s in t.sensors.clone() {
            if trace_of[s] != usize::MAX {
                return mismatch(format!("sensor {s} was traced twice"));
            }
            trace_of[s] = i;
        }
    }
    if let Some(s) = trace_of.iter().position(|&i| i == usize::MAX) {
        return mismatch(format!(
            "sensor {s} was not traced (a sensor shard is missing)"
        ));
    }
    let (columns, sun_columns) = match partials.first() {
        Some(p) => (&p.columns, &p.sun_columns),
        None => return mismatch("no product results to merge".into()),
    };
    let mut part_of = vec![usize::MAX; ns * nb];
    for (i, p) in partials.iter().enumerate() {
        let (s, b) = (&p.sensors, &p.patch_blocks);
        let (n, m) = (s.len() * b.len(), (columns.len(), sun_columns.len()));
        if s.end > ns
            || b.end > nb
            || p.steps != steps
            || &p.columns != columns
            || &p.sun_columns != sun_columns
            || p.two_phase.len() != n * m.0
            || p.blurred_direct.len() != n * m.1
        {
            return mismatch(format!(
                "the product of sensors {}..{} and patch blocks {}..{} does not belong to this study",
                s.start, s.end, b.start, b.end
            ));
        }
        for si in s.clone() {
            for bi in b.clone() {
                if part_of[si * nb + bi] != usize::MAX {
                    return mismatch(format!(
                        "sensor {si} and patch block {bi} were multiplied twice"
                    ));
                }
                part_of[si * nb + bi] = i;
            }
        }
    }
    if let Some(k) = part_of.iter().position(|&i| i == usize::MAX) {
        return mismatch(format!(
            "sensor {} and patch block {} were not multiplied (a product shard is missing)",
            k / nb,
            k % nb
        ));
    }
    // The canonical sum of one sensor: blocks in order, then one rounding.
    let sum_row = |s: usize, two: bool, out: &mut [f32]| {
        let cols = if two { columns } else { sun_columns };
        let mut acc = vec![0.0f64; cols.len()];
        for bi in 0..nb {
            let p = &partials[part_of[s * nb + bi]];
            let row = (bi - p.patch_blocks.start) * p.sensors.len() + (s - p.sensors.start);
            let data = if two { &p.two_phase } else { &p.blurred_direct };
            for (a, v) in acc
                .iter_mut()
                .zip(&data[row * cols.len()..(row + 1) * cols.len()])
            {
                *a += v;
            }
        }
        for (&c, a) in cols.iter().zip(&acc) {
            out[c as usize] = *a as f32;
        }
    };
    let mut two_phase = vec![0.0f32; ns * steps];
    let mut blurred = vec![0.0f32; ns * steps];
    let mut direct_sun = vec![0.0f32; ns * steps];
    if steps > 0 {
        two_phase
            .par_chunks_mut(steps)
            .enumerate()
            .for_each(|(s, row)| sum_row(s, true, row));
        blurred
            .par_chunks_mut(steps)
            .enumerate()
            .for_each(|(s, row)| sum_row(s, false, row));
        for (s, row) in direct_sun.chunks_mut(steps).enumerate() {
            let t = &traced[trace_of[s]];
            let k = s - t.sensors.start;
            row.copy_from_slice(&t.direct_sun[k * steps..(k + 1) * steps]);
        }
    }
    let total = two_phase
        .iter()
        .zip(&blurred)
        .zip(&direct_sun)
        .map(|((a, b), c)| (a - b).max(0.0) + c)
        .collect();
    let mut total_dc = Vec::with_capacity(ns * bins);
    let mut direct_dc = Vec::with_capacity(ns * bins);
    for (s, &i) in trace_of.iter().enumerate() {
        let t = &traced[i];
        let k = s - t.sensors.start;
        total_dc.extend_from_slice(&t.total[k * bins..(k + 1) * bins]);
        direct_dc.extend_from_slice(&t.direct[k * bins..(k + 1) * bins]);
    }
    Ok(AnnualIlluminance {
        sensors: ns,
        steps,
        total,
        two_phase,
        direct_sun,
        coefficients: Coefficients {
            sensors: ns,
            bins,
            total: total_dc,
            direct: direct_dc,
        },
    })
}

/// A study loaded for running its shards: the scene with its sky sender, the sensors and the
/// year. Build it once per worker process and run any number of shards with it.
pub struct Prepared {
    /// The tracer of the scene lit by the sky sender.
    pub sky: SkyRenderer,
    /// The study's sensors.
    pub sensors: Vec<Sensor>,
    /// Sky matrices, suns and patch blocks.
    pub year: Year,
}

impl Prepared {
    /// Reads the study's scene and weather files and makes its sky matrices.
    pub fn new(study: &Study) -> Result<Prepared, ShardError> {
        study.plan(&Layout::WHOLE)?;
        let load = LoadOptions {
            allow_commands: study.allow_commands,
            raypath: match &study.raypath {
                Some(dirs) => daylit_cal::RayPath::new(dirs.iter().cloned()),
                None => daylit_cal::RayPath::from_env(),
            },
            ..LoadOptions::default()
        };
        let opts = study.trace.options().map_err(ShardError::Settings)?;
        let sky = sky_scene(&study.scene, &load, opts, Subdivision::Reinhart(study.mf))?;
        let weather = read_weather(&study.weather)?;
        let year = Year::new(&weather, study.mf, study.patch_blocks)?;
        Ok(Prepared {
            sky,
            sensors: study.sensors.clone(),
            year,
        })
    }

    /// [`trace_shard`] on this study.
    pub fn trace(
        &self,
        shard: &SensorShard,
        progress: &(dyn Fn(Stage) + Sync),
    ) -> Result<Traced, ShardError> {
        trace_shard(&self.sky, &self.sensors, &self.year, shard, progress)
    }

    /// [`product_shard`] on this study.
    pub fn product(&self, traced: &Traced, shard: &ProductShard) -> Result<Partial, ShardError> {
        product_shard(&self.year, traced, shard)
    }

    /// Every shard of `plan` in this process, merged (what a cluster run must equal).
    pub fn run(
        &self,
        plan: &Plan,
        progress: &(dyn Fn(Stage) + Sync),
    ) -> Result<AnnualIlluminance, ShardError> {
        run_plan(&self.sky, &self.sensors, &self.year, plan, progress)
    }
}

/// Runs every shard of `plan` here, one after the other, and merges them.
pub fn run_plan(
    sky: &SkyRenderer,
    sensors: &[Sensor],
    year: &Year,
    plan: &Plan,
    progress: &(dyn Fn(Stage) + Sync),
) -> Result<AnnualIlluminance, ShardError> {
    let traced = plan
        .sensor_shards
        .iter()
        .map(|s| trace_shard(sky, sensors, year, s, progress))
        .collect::<Result<Vec<_>, _>>()?;
    let partials = plan
        .product_shards
        .iter()
        .map(|p| product_shard(year, &traced[p.sensor_shard], p))
        .collect::<Result<Vec<_>, _>>()?;
    merge(plan, &traced, &partials)
}
