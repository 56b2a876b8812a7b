//! `daylit rfluxmtx` (and `rfluxmtx`): RADIANCE's flux-transfer matrices from a sender to the
//! receivers that `#@rfluxmtx` annotations describe. The sender `-` reads rays (or, with
//! `-I`, sensors) from standard input, as for daylight coefficients of a sky receiver; the
//! receivers' hemisphere bins (`h=u`, Klems, Reinhart `rN`, Shirley-Chiu `scN`) are computed
//! natively, exactly as rcontrib evaluates the expressions rfluxmtx would generate.

use crate::rcontrib::{parse_options, run_job, Bins, Job, Receiver};
use anyhow::{bail, Context};
use daylit_coefficients::rfluxmtx::read_receivers;
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

/// Runs rfluxmtx with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rfluxmtx", args)?;
    let prog = "rfluxmtx";
    // rfluxmtx's own switches; everything else goes to rcontrib.
    let mut verbose = false;
    let rest: Vec<String> = args
        .iter()
        .filter(|a| match a.as_str() {
            "-v" | "-v+" => {
                verbose = true;
                false
            }
            "-v-" => false,
            _ => true,
        })
        .cloned()
        .collect();
    let mut job = Job::new(format!("{prog} {}", args.join(" ")));
    // rfluxmtx runs rcontrib with -fo+ (outputs are replaced) and ASCII output by default.
    job.force = true;
    let i = parse_options(&mut job, &rest, prog)?;
    if !job.receivers.is_empty() {
        bail!("{prog}: -m and -M are not options of rfluxmtx: receivers come from #@rfluxmtx annotations");
    }
    let words = &rest[i..];
    let (sender, receiver) = match words {
        [s, r, ..] => (s.as_str(), r.as_str()),
        _ => bail!("{prog}: expected a sender ('-' for rays on standard input) and a receiver file after the options"),
    };
    if sender != "-" {
        bail!(
            "{prog}: sender {sender}: surface senders (sampling rays from a sender file) are not in this version of daylit; use '-' and give the rays on standard input"
        );
    }
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
    if verbose {
        let mut cmd = vec!["rcontrib".to_string()];
        for r in &recv.receivers {
            cmd.extend(r.rcontrib_options(true, None));
        }
        eprintln!(
            "{prog}: runs as: {} (bins computed natively)",
            cmd.join(" ")
        );
    }
    run_job(job, prog)
}
