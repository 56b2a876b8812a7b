//! `daylit rfluxmtx` (and `rfluxmtx`): RADIANCE's flux-transfer matrices from a sender to the
//! receivers that `#@rfluxmtx` annotations describe. The sender `-` reads rays (or, with
//! `-I`, sensors) from standard input, as for view matrices and daylight coefficients; a
//! sender file (a window group, say) has its rays sampled over its surfaces, `-c` per bin of
//! its hemisphere, one matrix row per bin (daylight matrices). The receivers' hemisphere bins
//! (`h=u`, Klems, Reinhart `rN`, Shirley-Chiu `scN`, `cie`) are computed natively, exactly as
//! rcontrib evaluates the expressions rfluxmtx would generate.

use crate::rcontrib::{parse_options, run_job, Bins, Job, Receiver};
use anyhow::{bail, Context};
use daylit_coefficients::rfluxmtx::read_receivers;
use daylit_coefficients::rfluxmtx::sender::read_sender;
use daylit_geometry::Ray;
use daylit_transport::contrib::{BinFn, BinRay};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `daylit rfluxmtx`, written as RADIANCE's rfluxmtx takes them.
#[derive(clap::Args)]
pub struct Args {
    /// rcontrib options, then the sender (`-`: rays on standard input), the receiver file and
    /// the system's scene files.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// `daylit rfluxmtx`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}

/// rcontrib options that rfluxmtx sets itself and refuses from the user.
const CONTROLLED: [&str; 5] = ["-p", "-b", "-bn", "-m", "-M"];

/// Runs rfluxmtx with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rfluxmtx", args)?;
    let prog = "rfluxmtx";
    // rfluxmtx's own switches; everything else goes to rcontrib.
    let mut verbose = false;
    let mut bin_jitter = None;
    let mut rest: Vec<String> = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if !a.starts_with('-') || a == "-" {
            rest.extend_from_slice(&args[k..]);
            break;
        }
        match a {
            "-v" | "-v+" => verbose = true,
            "-v-" => verbose = false,
            "-bj" => {
                let v = args
                    .get(k + 1)
                    .with_context(|| format!("{prog}: option -bj needs a value"))?;
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .with_context(|| {
                        format!("{prog}: -bj expects a number (the bin jitter), found \"{v}\"")
                    })?;
                bin_jitter = Some(v.clone());
                k += 1;
            }
            _ => rest.push(a.to_string()),
        }
        k += 1;
    }
    let mut job = Job::new(format!("{prog} {}", args.join(" ")));
    // rfluxmtx runs rcontrib with -fo+ (outputs are replaced) and ASCII output by default.
    job.force = true;
    // Unset until -c says (the default depends on the sender).
    job.accumulate = usize::MAX;
    let i = parse_options(&mut job, &rest, prog)?;
    let options = &rest[..i];
    if let Some(bad) = options
        .iter()
        .find(|o| CONTROLLED.contains(&o.as_str()) || o.starts_with("-fo"))
    {
        bail!(
            "{prog}: {bad} is not an option of rfluxmtx: it sets -fo, -p, -b, -bn, -m and -M itself (receivers come from #@rfluxmtx annotations)"
        );
    }
    if job.accumulate == 0 {
        bail!("{prog}: -c must be a positive number of samples");
    }
    let words = &rest[i..];
    let (sender, receiver) = match words {
        [s, r, ..] => (s.as_str(), r.as_str()),
        _ => bail!("{prog}: expected a sender file ('-' for rays on standard input) and a receiver file after the options"),
    };
    let recv = read_receivers(Path::new(receiver))
        .with_context(|| format!("{prog}: receiver file {receiver}"))?;
    for w in &recv.warnings {
        eprintln!("{prog}: warning: {w}");
    }
    if recv.receivers.is_empty() {
        bail!("{prog}: {receiver}: no receiver surfaces (polygon, ring or source) found");
    }
    // As rcontrib keeps the last -o until another is given, a receiver without o= writes
    // where the one before it did, the first where the command line's -o says.
    let mut out = job.output.clone();
    for r in &recv.receivers {
        if r.output.is_some() {
            out = r.output.clone();
        }
        let bins = r.bins();
        let n = bins.len();
        let f = bins.into_fn();
        let bin: BinFn = Arc::new(move |ray: &BinRay| f(ray.dir));
        job.receivers.push(Receiver {
            name: r.modifier.clone(),
            bins: Bins::Native { bins: n, f: bin },
            out: out.clone(),
        });
    }
    // The system first and the receiver last, as rfluxmtx's oconv command has them: the
    // system octree of `-i` (right after the receiver file), then the system's scene files.
    let mut system = &words[2..];
    let mut octree = None;
    if let [flag, rest @ ..] = system {
        if flag == "-i" {
            let [oct, more @ ..] = rest else {
                bail!("{prog}: -i needs the system octree after it");
            };
            octree = Some(PathBuf::from(oct));
            system = more;
        }
    }
    if let Some(bad) = system.iter().find(|w| w.starts_with('-') && w.len() > 1) {
        bail!(
            "{prog}: {bad}: after the receiver file only -i system.oct (first) and scene files may follow"
        );
    }
    job.scene = octree
        .into_iter()
        .chain(system.iter().map(PathBuf::from))
        .chain(std::iter::once(PathBuf::from(receiver)))
        .collect();
    let mut rcontrib = vec!["rcontrib".to_string()];
    for r in &recv.receivers {
        rcontrib.extend(r.rcontrib_options(true, bin_jitter.as_deref()));
    }
    if sender == "-" {
        // Pass-through: the rays (or sensors, with -I) come from standard input.
        if job.accumulate == usize::MAX {
            job.accumulate = 1;
        }
        if verbose {
            eprintln!(
                "{prog}: runs as: {} (bins computed natively)",
                rcontrib.join(" ")
            );
        }
        return run_job(job, prog);
    }
    if let Some(o) = options.iter().find(|o| {
        let b = o.as_bytes();
        (2..=3).contains(&b.len())
            && b[0] == b'-'
            && (b[1] == b'i' || b[1] == b'I')
            && (b.len() == 2 || b"+-01tTfFyYnN".contains(&b[2]))
    }) {
        bail!("{prog}: {o}: -i and -I are for the pass-through sender '-' only (sender {sender} samples its own rays)");
    }
    let samples = if job.accumulate == usize::MAX {
        10_000
    } else {
        job.accumulate
    };
    let snd =
        read_sender(Path::new(sender)).with_context(|| format!("{prog}: sender file {sender}"))?;
    for w in &snd.warnings {
        eprintln!("{prog}: warning: {w}");
    }
    let rows = snd.bin_count();
    // RADIANCE leaves -x, -y and -ld to the pass-through mode; a sender makes one record of
    // -c rays per bin.
    job.xres = 0;
    job.yres = rows;
    job.accumulate = samples;
    job.irradiance_at_points = false;
    let rays = snd
        .rays(samples, job.render.seed)
        .with_context(|| format!("{prog}: sender file {sender}"))?;
    job.rays = Some(
        rays.into_iter()
            .map(|r| Ray {
                origin: r.origin,
                dir: r.dir,
            })
            .collect(),
    );
    if verbose {
        rcontrib.extend([
            "-c".into(),
            samples.to_string(),
            "-y".into(),
            rows.to_string(),
        ]);
        eprintln!(
            "{prog}: runs as: {} (bins computed natively)",
            rcontrib.join(" ")
        );
        let elements = snd.surfaces.len();
        if elements > 1 {
            eprintln!("{prog}: sampling {rows} directions ({elements} elements)");
        } else {
            eprintln!("{prog}: sampling {rows} directions");
        }
    }
    run_job(job, prog)
}
