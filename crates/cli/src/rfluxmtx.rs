//! `daylit rfluxmtx` (and `rfluxmtx`): RADIANCE's rfluxmtx command line read into a typed
//! [`FluxJob`] and run by `daylit_coefficients::rfluxmtx` (receivers, sender sampling and the
//! rcontrib job it makes live there). The sender `-` reads rays (or, with `-I`, sensors)
//! from standard input; a sender file has its rays sampled over its surfaces.

use crate::rcontrib::{located, parse_options, run_job, warner, Parsed};
use anyhow::{bail, Context};
use daylit_coefficients::rfluxmtx::{plan, FluxJob, SenderInput};
use std::path::PathBuf;
use std::process::ExitCode;

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
    let mut p = Parsed::new(format!("{prog} {}", args.join(" ")));
    // Unset until -c says (the default depends on the sender).
    p.job.accumulate = usize::MAX;
    let i = parse_options(&mut p, &rest, prog)?;
    let options = &rest[..i];
    if let Some(bad) = options
        .iter()
        .find(|o| CONTROLLED.contains(&o.as_str()) || o.starts_with("-fo"))
    {
        bail!(
            "{prog}: {bad} is not an option of rfluxmtx: it sets -fo, -p, -b, -bn, -m and -M itself (receivers come from #@rfluxmtx annotations)"
        );
    }
    let samples = (p.job.accumulate != usize::MAX).then_some(p.job.accumulate);
    let words = &rest[i..];
    let (sender, receiver) = match words {
        [s, r, ..] => (s.as_str(), r.as_str()),
        _ => bail!("{prog}: expected a sender file ('-' for rays on standard input) and a receiver file after the options"),
    };
    // The system octree of `-i` (right after the receiver file), then the system's files.
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
    let sender = if sender == "-" {
        SenderInput::PassThrough
    } else {
        if let Some(o) = options.iter().find(|o| {
            let b = o.as_bytes();
            (2..=3).contains(&b.len())
                && b[0] == b'-'
                && (b[1] == b'i' || b[1] == b'I')
                && (b.len() == 2 || b"+-01tTfFyYnN".contains(&b[2]))
        }) {
            bail!("{prog}: {o}: -i and -I are for the pass-through sender '-' only (sender {sender} samples its own rays)");
        }
        SenderInput::File(PathBuf::from(sender))
    };
    let job = FluxJob {
        contrib: p.job,
        samples,
        sender,
        receivers: PathBuf::from(receiver),
        system_octree: octree,
        system: system.iter().map(PathBuf::from).collect(),
        output: p.output,
    };
    let plan = plan(job, &mut warner(prog)).map_err(|e| located(e, prog))?;
    if verbose {
        let command = plan.rcontrib_command(bin_jitter.as_deref());
        eprintln!(
            "{prog}: runs as: {} (bins computed natively)",
            command.join(" ")
        );
        if let Some(snd) = &plan.sender {
            let rows = snd.bin_count();
            let elements = snd.surfaces.len();
            if elements > 1 {
                eprintln!("{prog}: sampling {rows} directions ({elements} elements)");
            } else {
                eprintln!("{prog}: sampling {rows} directions");
            }
        }
    }
    run_job(plan.job, plan.rays, p.fmt_in, prog)
}
