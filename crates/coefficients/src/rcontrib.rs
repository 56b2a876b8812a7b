//! RADIANCE's `rcontrib` as a library: contribution coefficients of named modifiers. Every
//! input ray (or sensor, with [`ContribJob::irradiance_at_points`]) is traced once; each path
//! that reaches a surface whose modifier is a [`Receiver`] adds its coefficient (or, with
//! [`ContribJob::values`], its contribution) to one bin of that modifier, chosen by the
//! receiver's [`Bins`]. All receivers and bins are gathered in one pass, and records of
//! [`ContribJob::accumulate`] rays are written to standard output or to the files the
//! receivers' output specifications name, with rcontrib's headers, formats and `-r` recovery.
//!
//! A job is typed (no option strings): a front end parses rcontrib's or rfluxmtx's command
//! line into a [`ContribJob`] and calls [`run`] (or [`Contrib::new`] then [`Contrib::run`],
//! to load the scene before reading the rays). [`Contrib::trace`] gives the records in
//! memory instead of writing them.
//!
//! - [`bins`]: `-b`/`-bn` expressions compiled and evaluated through `daylit-cal`.
//! - [`streams`]: output names (`%s`, `%d`), headers, formats, recovery, atomic files.

pub mod bins;
pub mod streams;

use daylit_cal::{CalError, EvalError};
use daylit_compile::compile;
use daylit_geometry::Ray;
use daylit_scene::{load_scene, LoadOptions, SceneError};
use daylit_transport::contrib::{BinFn, ContribModifier, ContribSpec};
use daylit_transport::{Options as RenderOptions, Renderer, TransportError};
use glam::DVec3;
use rayon::prelude::*;
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use streams::{Recovered, Stream};

/// How the hits on one modifier are binned.
#[derive(Clone)]
pub enum Bins {
    /// rcontrib's `-b` expression and `-bn` count (itself an expression), evaluated with the
    /// `-p` parameters in force when the modifier was named.
    Expr {
        /// The bin expression (`None`: everything in one bin; a constant must be 0).
        expr: Option<String>,
        /// The bin count expression.
        count: Option<String>,
        /// `-p` parameters: `name=value` definitions separated by commas.
        params: Option<String>,
    },
    /// Bins computed natively (rfluxmtx's receivers).
    Native {
        /// Number of bins.
        bins: usize,
        /// The bin of a ray (`None`: the ray counts in no bin).
        f: BinFn,
    },
}

/// One modifier whose contributions are gathered.
#[derive(Clone)]
pub struct Receiver {
    /// The modifier's name.
    pub name: String,
    /// Its bins.
    pub bins: Bins,
    /// Output specification (`%s` the modifier, `%d` the bin, printf flags allowed);
    /// standard output when `None`.
    pub out: Option<String>,
}

/// A function file or definitions read into every bin expression's context (`-f`, `-e`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CalInput {
    /// A function file (found by RAYPATH, or in daylit's library).
    File(String),
    /// Definitions given on the command line.
    Expr(String),
}

/// How records are written (rcontrib's `-fa`, `-ff`, `-fd`, `-fc` output side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Tab-separated text, `%e` with six decimals, one record a line.
    Ascii,
    /// 32-bit floats in the machine's order.
    Float,
    /// 64-bit floats in the machine's order.
    Double,
    /// RADIANCE's RGBE pixels (pictures, with a resolution line for single-bin outputs).
    Rgbe,
}

impl OutputFormat {
    /// Bytes of one RGB value (`None` for text).
    pub fn value_size(self) -> Option<usize> {
        match self {
            OutputFormat::Ascii => None,
            OutputFormat::Float => Some(12),
            OutputFormat::Double => Some(24),
            OutputFormat::Rgbe => Some(4),
        }
    }
}

/// A contribution run: rcontrib's options as typed fields.
#[derive(Clone)]
pub struct ContribJob {
    /// The command line written in each header (the program and its arguments).
    pub command: String,
    /// Rendering options.
    pub render: RenderOptions,
    /// `-I`: irradiance at the ray's origin, facing its direction.
    pub irradiance_at_points: bool,
    /// `-V`: contributions (coefficient × value) instead of coefficients.
    pub values: bool,
    /// `-c`: rays averaged into one record (0: all of them, up to a ray with no direction).
    pub accumulate: usize,
    /// `-x`, `-y`: resolution (records expected: `y·max(x,1)`, when `y` is set).
    pub xres: usize,
    /// See `xres`.
    pub yres: usize,
    /// Output format.
    pub format: OutputFormat,
    /// `-h`: write headers.
    pub header: bool,
    /// `-n`: threads (0: all cores).
    pub threads: usize,
    /// `-fo`: overwrite existing output files.
    pub force: bool,
    /// `-r`: recover an interrupted run: keep the complete records of the existing output
    /// files and trace only the input records after them.
    pub recover: bool,
    /// `-f`/`-e`, in order.
    pub cal: Vec<CalInput>,
    /// The modifiers, in output order.
    pub receivers: Vec<Receiver>,
    /// Scene inputs (scene files or a daylit/RADIANCE octree).
    pub scene: Vec<PathBuf>,
}

impl ContribJob {
    /// A job with rcontrib's defaults and nothing to gather yet; `command` heads the outputs.
    pub fn new(command: String) -> ContribJob {
        ContribJob {
            command,
            render: RenderOptions::rcontrib(),
            irradiance_at_points: false,
            values: false,
            accumulate: 1,
            xres: 0,
            yres: 0,
            format: OutputFormat::Ascii,
            header: true,
            threads: 0,
            force: false,
            recover: false,
            cal: vec![],
            receivers: vec![],
            scene: vec![],
        }
    }
}

/// What a run tells its user without stopping.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Warning {
    /// A receiver's modifier is not in the scene: its bins are written as zeros.
    #[error("modifier '{0}' is not in the scene; its bins stay zero")]
    NotInScene(String),
    /// The last record has fewer rays than `-c`.
    #[error("partial accumulation in final record")]
    PartialAccumulation,
    /// `-r` found no complete record in any output.
    #[error("no previous data to recover")]
    NoPreviousData,
    /// `-r` found no file for an output: it is written from the start.
    #[error("missing recover file '{}': it starts afresh", .0.display())]
    MissingRecoverFile(PathBuf),
    /// Rays whose bin expression gave a bin beyond the count (they count nowhere).
    #[error("{0} ray(s) had a bin number beyond -bn and were ignored")]
    BinsBeyondCount(usize),
    /// What a receiver or sender file's reader noted (rfluxmtx).
    #[error("{0}")]
    Input(String),
}

/// Why a contribution run stopped.
#[derive(Debug, thiserror::Error)]
pub enum ContribError {
    /// The scene files did not load.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The tracer refused the scene or the options.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// A function file, `-e` definition or `-p` parameter did not read (the error names it).
    #[error(transparent)]
    Function(#[from] CalError),
    /// A bin expression or count did not compile.
    #[error("{what}")]
    Cal {
        /// What was being read.
        what: String,
        /// The located problem.
        #[source]
        source: CalError,
    },
    /// A bin count could not be evaluated.
    #[error("{what}: {source}")]
    Eval {
        /// What was being evaluated.
        what: String,
        /// The problem.
        source: EvalError,
    },
    /// A receiver file or sender file (rfluxmtx) could not be read.
    #[error("{what}")]
    Flux {
        /// The file's role and name.
        what: String,
        /// The located problem.
        #[source]
        source: crate::rfluxmtx::RfluxError,
    },
    /// A file could not be read or written.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The job cannot be run as given.
    #[error("{0}")]
    Invalid(String),
}

/// `Err(ContribError::Invalid(..))` with a formatted message.
macro_rules! invalid {
    ($($arg:tt)*) => {
        return Err(ContribError::Invalid(format!($($arg)*)))
    };
}
pub(crate) use invalid;

/// An I/O error with what was being done.
pub(crate) fn io_err(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ContribError {
    let what = what.into();
    move |source| ContribError::Io { what, source }
}

/// A prepared run: the scene loaded with every receiver's bins, and the outputs laid out.
pub struct Contrib {
    job: ContribJob,
    renderer: Renderer,
    /// Per receiver: its bins and its offset in the renderer's gathered values (`None`: not
    /// in the scene).
    layout: Vec<(usize, Option<usize>)>,
    /// Output streams in order of first use.
    streams: Vec<Stream>,
    bad_bins: Arc<AtomicUsize>,
    pool: rayon::ThreadPool,
}

/// Records traced in parallel and written at a time.
const BATCH: usize = 4096;

impl Contrib {
    /// Loads the scene, compiles the receivers' bins and lays out the outputs, checking
    /// everything that does not need the rays (modifiers, bin expressions, output names).
    pub fn new(job: ContribJob, warn: &mut dyn FnMut(Warning)) -> Result<Contrib, ContribError> {
        let load = LoadOptions::default();
        let scene = load_scene(&job.scene, &load)?;
        let compiled = compile(&scene);
        let mut renderer = Renderer::new(scene, compiled, job.render.clone(), &load.raypath)?;

        let bad_bins = Arc::new(AtomicUsize::new(0));
        let mut cal = bins::CalSet::new(&job.cal, &load.raypath);
        let mut modifiers = Vec::new();
        let mut layout: Vec<(usize, Option<usize>)> = Vec::new();
        let mut offset = 0;
        let mut seen = std::collections::HashSet::new();
        for r in &job.receivers {
            if r.name == "void" {
                invalid!("cannot track 'void' modifier");
            }
            if !seen.insert(r.name.clone()) {
                invalid!("duplicate modifier '{}'", r.name);
            }
            let (bins, bin) = match &r.bins {
                Bins::Expr {
                    expr,
                    count,
                    params,
                } => cal.bins(
                    &r.name,
                    expr.as_deref(),
                    count.as_deref(),
                    params.as_deref(),
                    &bad_bins,
                )?,
                Bins::Native { bins, f } => (*bins, Some(f.clone())),
            };
            match renderer.scene.find_modifier(&r.name) {
                Some(id) => {
                    modifiers.push(ContribModifier {
                        modifier: id,
                        bins,
                        bin,
                    });
                    layout.push((bins, Some(offset)));
                    offset += bins;
                }
                None => {
                    warn(Warning::NotInScene(r.name.clone()));
                    layout.push((bins, None));
                }
            }
        }
        renderer.set_contributions(ContribSpec {
            modifiers,
            values: job.values,
            split_direct: false,
        });
        let streams = streams::layout(&job, &layout)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(job.threads)
            .build()
            .map_err(|e| ContribError::Invalid(format!("cannot start threads: {e}")))?;
        Ok(Contrib {
            job,
            renderer,
            layout,
            streams,
            bad_bins,
            pool,
        })
    }

    /// The job being run.
    pub fn job(&self) -> &ContribJob {
        &self.job
    }

    /// Values per record: every receiver's bins in order, three channels each.
    pub fn record_len(&self) -> usize {
        self.layout.iter().map(|l| l.0).sum()
    }

    /// Traces `records` (ranges of `rays`, as [`records`] groups them) and returns, per
    /// record, the mean over its rays of each receiver's bins, receivers in order (a modifier
    /// not in the scene gives zeros).
    pub fn trace(&self, rays: &[Ray], records: &[Range<usize>]) -> Vec<Vec<DVec3>> {
        let gathered = self.trace_gathered(rays, records);
        gathered
            .into_iter()
            .map(|g| {
                let mut rec = Vec::with_capacity(self.record_len());
                for &(bins, off) in &self.layout {
                    match off {
                        Some(o) => rec.extend_from_slice(&g[o..o + bins]),
                        None => rec.extend(std::iter::repeat_n(DVec3::ZERO, bins)),
                    }
                }
                rec
            })
            .collect()
    }

    /// Per record, the renderer's gathered values (receivers in the scene only).
    fn trace_gathered(&self, rays: &[Ray], records: &[Range<usize>]) -> Vec<Vec<DVec3>> {
        let rd = &self.renderer;
        let len = rd.contrib_len();
        let irradiance = self.job.irradiance_at_points;
        self.pool.install(|| {
            records
                .par_iter()
                .map_init(
                    || rd.ctx(0),
                    |ctx, range| {
                        ctx.contrib.clear();
                        ctx.contrib.resize(len, DVec3::ZERO);
                        for k in range.clone() {
                            let ray = &rays[k];
                            let l = ray.dir.length();
                            if l == 0.0 || !l.is_finite() {
                                continue;
                            }
                            rd.reseed(ctx, k as u64);
                            let dir = ray.dir / l;
                            if irradiance {
                                rd.irradiance(ray.origin, dir, ctx);
                            } else {
                                rd.radiance(ray.origin, dir, ctx);
                            }
                        }
                        let scale = 1.0 / range.len().max(1) as f64;
                        ctx.contrib.iter().map(|v| *v * scale).collect()
                    },
                )
                .collect()
        })
    }

    /// Traces `rays` and writes the records: files are written whole (a temporary file
    /// renamed into place at the end), the outputs without a file name to `stdout`. With
    /// `-r`, the complete records of existing files are kept and only the rest is traced.
    pub fn run(
        &self,
        rays: &[Ray],
        stdout: &mut dyn Write,
        warn: &mut dyn FnMut(Warning),
    ) -> Result<(), ContribError> {
        let job = &self.job;
        let mut records = records(rays, job.accumulate, job.xres, job.yres, warn)?;
        let kept = if job.recover {
            streams::recovered(&self.streams, job, warn)?
        } else {
            vec![]
        };
        // Records every output already holds are not traced again.
        let done = kept.iter().map(Recovered::complete).min().unwrap_or(0);
        if job.recover && done == 0 {
            warn(Warning::NoPreviousData);
        }
        records.drain(..done.min(records.len()));
        let mut outs = streams::open(&self.streams, job, &kept, stdout)?;
        for (out, k) in outs.iter_mut().zip(&kept) {
            let end = k.header + k.offsets.get(done).copied().unwrap_or(0);
            out.write_all(&k.bytes[..end])
                .map_err(io_err("cannot write output"))?;
        }
        // Records in batches, written in input order before the next batch is traced.
        for batch in records.chunks(BATCH) {
            let values = self.trace_gathered(rays, batch);
            for (s, out) in self.streams.iter().zip(outs.iter_mut()) {
                let mut buf = Vec::new();
                for rec in &values {
                    for c in &s.cols {
                        streams::put(&mut buf, c.map_or(DVec3::ZERO, |c| rec[c]), job.format);
                    }
                    if job.format == OutputFormat::Ascii {
                        buf.push(b'\n');
                    }
                }
                out.write_all(&buf).map_err(io_err("cannot write output"))?;
            }
        }
        let bad = self.bad_bins.swap(0, Ordering::Relaxed);
        if bad > 0 {
            warn(Warning::BinsBeyondCount(bad));
        }
        streams::finish(outs, &self.streams)
    }
}

/// Runs `job` on `rays`: [`Contrib::new`] then [`Contrib::run`].
pub fn run(
    job: ContribJob,
    rays: &[Ray],
    stdout: &mut dyn Write,
    warn: &mut dyn FnMut(Warning),
) -> Result<(), ContribError> {
    Contrib::new(job, warn)?.run(rays, stdout, warn)
}

/// The input rays of each record: `accumulate` at a time (0: all of them), a ray with no
/// direction ending a record early; with `yres` set, exactly the rays `yres·max(xres,1)`
/// records need (fewer is an error).
pub fn records(
    rays: &[Ray],
    accumulate: usize,
    xres: usize,
    yres: usize,
    warn: &mut dyn FnMut(Warning),
) -> Result<Vec<Range<usize>>, ContribError> {
    let mut records = Vec::new();
    let mut start = 0;
    for (k, r) in rays.iter().enumerate() {
        let n = k + 1 - start;
        if (accumulate > 0 && n >= accumulate) || r.dir == DVec3::ZERO {
            records.push(start..k + 1);
            start = k + 1;
        }
    }
    if start < rays.len() {
        if accumulate > 1 {
            warn(Warning::PartialAccumulation);
        }
        records.push(start..rays.len());
    }
    if yres > 0 {
        let want = yres * xres.max(1);
        if records.len() < want {
            invalid!(
                "unexpected end of input: -y {yres} needs {want} records, the input holds {}",
                records.len()
            );
        }
        records.truncate(want);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(d: f64) -> Ray {
        Ray {
            origin: DVec3::ZERO,
            dir: DVec3::new(0.0, 0.0, d),
        }
    }

    #[test]
    fn records_group_by_count_and_flush_on_zero_rays() {
        let rays = [ray(1.0), ray(1.0), ray(0.0), ray(1.0), ray(1.0), ray(1.0)];
        let mut warned = vec![];
        let mut w = |x| warned.push(x);
        let r = records(&rays, 2, 0, 0, &mut w).unwrap();
        assert_eq!(r, vec![0..2, 2..3, 3..5, 5..6]);
        let r = records(&rays, 0, 0, 0, &mut w).unwrap();
        assert_eq!(r, vec![0..3, 3..6]);
        assert!(records(&rays, 1, 0, 7, &mut w).is_err());
        assert_eq!(records(&rays, 1, 0, 4, &mut w).unwrap().len(), 4);
        assert_eq!(warned, vec![Warning::PartialAccumulation]);
    }
}
