//! `rfluxmtx` as a library: flux-transfer matrices from a sender to the receivers of a
//! `#@rfluxmtx` receiver file, run as the rcontrib job RADIANCE's rfluxmtx would start, with
//! the receivers' hemisphere bins computed natively ([`super::Receiver::bins`]).
//!
//! The pass-through sender ([`SenderInput::PassThrough`]) takes the caller's rays (or sensors,
//! with `-I`), one matrix row per `-c` rays, as for view matrices and daylight coefficients;
//! a sender file (a window group, say) has its rays sampled over its surfaces, `-c` per bin
//! of its hemisphere, one matrix row per bin (daylight matrices).

use super::sender::{read_sender, Sender as SenderSurfaces};
use super::{read_receivers, Receivers};
use crate::rcontrib::{self, Bins, ContribError, ContribJob, Receiver, Warning};
use daylit_geometry::Ray;
use daylit_transport::contrib::{BinFn, BinRay};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// Where rfluxmtx's rays come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SenderInput {
    /// `-`: the caller's rays (standard input for the program).
    PassThrough,
    /// A sender file whose surfaces are sampled.
    File(PathBuf),
}

/// An rfluxmtx run: the rcontrib options, the sender, the receiver file and the system.
#[derive(Clone)]
pub struct FluxJob {
    /// rcontrib's options. Its receivers, scene, `accumulate` and (for a sender file) `xres`,
    /// `yres` and `irradiance_at_points` are set from the files; `force` is set, as
    /// rfluxmtx runs rcontrib with `-fo+`.
    pub contrib: ContribJob,
    /// `-c`: rays per record (pass-through, default 1) or per sender bin (default 10000).
    pub samples: Option<usize>,
    /// The sender.
    pub sender: SenderInput,
    /// The receiver file.
    pub receivers: PathBuf,
    /// The system octree given with `-i` after the receiver file.
    pub system_octree: Option<PathBuf>,
    /// The system's scene files.
    pub system: Vec<PathBuf>,
    /// The command line's `-o`: where the receivers before the first `o=` write (standard
    /// output when `None`).
    pub output: Option<String>,
}

/// A job ready to run: the rcontrib job rfluxmtx makes, and what it was made from.
pub struct FluxPlan {
    /// The contribution job.
    pub job: ContribJob,
    /// The sender's sample rays (`None` for the pass-through sender: the caller's rays).
    pub rays: Option<Vec<Ray>>,
    /// The receiver file's receivers.
    pub receivers: Receivers,
    /// The sender file's surfaces (`None` for the pass-through sender).
    pub sender: Option<SenderSurfaces>,
    /// Rays per record.
    pub samples: usize,
}

/// A receiver file or sender file error, with the file's role and name.
fn flux_err(what: String) -> impl FnOnce(super::RfluxError) -> ContribError {
    move |source| ContribError::Flux { what, source }
}

/// Reads the receiver file (and the sender file), and makes the rcontrib job: one receiver
/// per receiver group, binned natively, each writing where its `o=` says or, without one,
/// where the receiver before it did (the first, where [`FluxJob::output`] says); the scene
/// is the system octree, the system's files, then the receiver file, as rfluxmtx's oconv
/// command orders them; a sender file's rays are sampled, `-c` per bin, one record a bin.
pub fn plan(job: FluxJob, warn: &mut dyn FnMut(Warning)) -> Result<FluxPlan, ContribError> {
    let FluxJob {
        contrib: mut cj,
        samples,
        sender,
        receivers: receiver_file,
        system_octree,
        system,
        output,
    } = job;
    if samples == Some(0) {
        return Err(ContribError::Invalid(
            "-c must be a positive number of samples".into(),
        ));
    }
    let recv = read_receivers(&receiver_file).map_err(flux_err(format!(
        "receiver file {}",
        receiver_file.display()
    )))?;
    for w in &recv.warnings {
        warn(Warning::Input(w.clone()));
    }
    if recv.receivers.is_empty() {
        return Err(ContribError::Invalid(format!(
            "{}: no receiver surfaces (polygon, ring or source) found",
            receiver_file.display()
        )));
    }
    // As rcontrib keeps the last -o until another is given, a receiver without o= writes
    // where the one before it did.
    let mut out = output;
    for r in &recv.receivers {
        if r.output.is_some() {
            out = r.output.clone();
        }
        let bins = r.bins();
        let n = bins.len();
        let f = bins.into_fn();
        let bin: BinFn = Arc::new(move |ray: &BinRay| f(ray.dir));
        cj.receivers.push(Receiver {
            name: r.modifier.clone(),
            bins: Bins::Native { bins: n, f: bin },
            out: out.clone(),
        });
    }
    cj.scene = system_octree
        .into_iter()
        .chain(system)
        .chain(std::iter::once(receiver_file))
        .collect();
    cj.force = true;
    let path = match sender {
        SenderInput::PassThrough => {
            let samples = samples.unwrap_or(1);
            cj.accumulate = samples;
            return Ok(FluxPlan {
                job: cj,
                rays: None,
                receivers: recv,
                sender: None,
                samples,
            });
        }
        SenderInput::File(p) => p,
    };
    let samples = samples.unwrap_or(10_000);
    let what = || format!("sender file {}", path.display());
    let snd = read_sender(&path).map_err(flux_err(what()))?;
    for w in &snd.warnings {
        warn(Warning::Input(w.clone()));
    }
    // RADIANCE leaves -x, -y and -ld to the pass-through mode; a sender makes one record of
    // -c rays per bin.
    cj.xres = 0;
    cj.yres = snd.bin_count();
    cj.accumulate = samples;
    cj.irradiance_at_points = false;
    let rays = snd
        .rays(samples, cj.render.seed)
        .map_err(flux_err(what()))?
        .into_iter()
        .map(|r| Ray {
            origin: r.origin,
            dir: r.dir,
        })
        .collect();
    Ok(FluxPlan {
        job: cj,
        rays: Some(rays),
        receivers: recv,
        sender: Some(snd),
        samples,
    })
}

impl FluxPlan {
    /// The rcontrib command RADIANCE's rfluxmtx would run (without the rendering options),
    /// for reports: each receiver's options (`bin_jitter`: `-bj`, passed on as `JTR=`), and
    /// for a sender file `-c` and `-y`.
    pub fn rcontrib_command(&self, bin_jitter: Option<&str>) -> Vec<String> {
        let mut a = vec!["rcontrib".to_string()];
        for r in &self.receivers.receivers {
            a.extend(r.rcontrib_options(true, bin_jitter));
        }
        if self.sender.is_some() {
            a.extend([
                "-c".into(),
                self.samples.to_string(),
                "-y".into(),
                self.job.yres.to_string(),
            ]);
        }
        a
    }
}

/// Runs `job`: [`plan`], then the contribution job on the sender's rays or, for the
/// pass-through sender, on `rays`. Records go to the receivers' files or to `stdout`.
pub fn run(
    job: FluxJob,
    rays: &[Ray],
    stdout: &mut dyn Write,
    warn: &mut dyn FnMut(Warning),
) -> Result<(), ContribError> {
    let plan = plan(job, warn)?;
    let rays = plan.rays.as_deref().unwrap_or(rays);
    rcontrib::run(plan.job, rays, stdout, warn)
}
