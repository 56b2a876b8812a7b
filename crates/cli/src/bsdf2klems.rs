//! `bsdf2klems`: RADIANCE's Klems-matrix XML maker. From a BSDF XML file (`bsdf2klems
//! [-n spp][-h|-q] in.xml`, e.g. a tensor tree resampled) or from a function
//! (`[{+|-}forward][{+|-}backward][-e expr][-f file.cal] bsdf_func`); the XML goes to
//! standard output once complete. The work is `daylit_bsdf::klems_from`'s; this parses.
//! RADIANCE's first form, intermediate `.sir` representations from `pabopto2bsdf`, is refused
//! by name.

use anyhow::{bail, Context};
use daylit_bsdf::klems_from::{self, BsdfFunction, KlemsSize, KlemsXml, Stage};
use daylit_bsdf::Bsdf;
use daylit_cal::{CalEnv, RayPath};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "Usage: bsdf2klems [-n spp][-h|-q][-l maxlobes] [bsdf.sir ..] > bsdf.xml\n   \
or: bsdf2klems [-n spp][-h|-q] bsdf_in.xml > bsdf_out.xml\n   \
or: bsdf2klems [-n spp][-h|-q][{+|-}for[ward]][{+|-}b[ackward]][-e expr][-f file] bsdf_func > bsdf.xml";

/// A command line as RADIANCE's `convert_commandline` writes it: words with shell specials
/// in single quotes (double when the word holds one).
pub(crate) fn command_line(args: &[String]) -> String {
    const SPECIALS: &str = " \t\n'\"()${}*?[];|&";
    args.iter()
        .map(|a| {
            if a.chars().any(|c| SPECIALS.contains(c)) {
                let q = if a.contains('\'') { '"' } else { '\'' };
                format!("{q}{a}{q}")
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// RADIANCE's progress report on standard error: a line per stage, then a bar of `len`
/// characters redrawn as rows finish, erased at the end (bsdf2klems's and bsdf2ttree's).
pub(crate) struct Progress {
    program: &'static str,
    len: usize,
    calls: usize,
    stage: Option<Stage>,
}

impl Progress {
    /// A bar of `len` characters (0: no report, 1: the stage lines only) for `program`.
    pub(crate) fn new(program: &'static str, len: usize) -> Progress {
        Progress {
            program,
            len,
            calls: 0,
            stage: None,
        }
    }

    pub(crate) fn report(&mut self, stage: Stage, frac: f64) {
        let mut err = std::io::stderr().lock();
        if self.stage != Some(stage) {
            self.done();
            self.stage = Some(stage);
            if self.len > 0 {
                let _ = writeln!(err, "{}: {}...", self.program, stage.describe());
            }
            return;
        }
        if self.len <= 1 {
            return;
        }
        let len = self.len.min(254);
        let frac = frac.clamp(0.0, 0.9999);
        let n = (len as f64 * frac) as usize;
        let spin = ['-', '\\', '|', '/'][self.calls & 3];
        self.calls += 1;
        let bar = format!(
            "\r{}{spin}{}",
            "*".repeat(n),
            "-".repeat(len.saturating_sub(n + 1))
        );
        let _ = err.write_all(bar.as_bytes());
    }

    pub(crate) fn done(&mut self) {
        if self.stage.is_some() && self.len > 1 {
            let _ = write!(std::io::stderr(), "\r{}\r", " ".repeat(self.len.min(254)));
        }
    }
}

/// `bsdf2klems` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut samples = 1024usize;
    let mut size = KlemsSize::Full;
    let mut forward = false;
    let mut backward = true;
    let mut progress_len = 79usize;
    let mut comments: Vec<String> = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut env: Option<CalEnv> = None;
    let raypath = RayPath::from_env();
    let mut i = 0;
    let next = |i: &mut usize, opt: &str| -> anyhow::Result<String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .with_context(|| format!("{opt} needs an argument\n{USAGE}"))
    };
    while i < args.len() && (args[i].starts_with('-') || args[i].starts_with('+')) {
        let a = args[i].clone();
        let minus = a.starts_with('-');
        match a.as_bytes().get(1).copied() {
            Some(b'n') => {
                let v = next(&mut i, "-n")?;
                samples = match v.parse::<i64>() {
                    Ok(n) if n > 0 => n as usize,
                    _ => bail!("-n {v}: a positive number of samples expected"),
                };
            }
            Some(b'e') => {
                let v = next(&mut i, "-e")?;
                let e = env.get_or_insert_with(BsdfFunction::environment);
                e.load_str("command line -e", &v)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
            }
            Some(b'f') if minus && a.len() == 2 => {
                let v = next(&mut i, "-f")?;
                if v.contains('=') {
                    fields.push(v);
                } else {
                    let e = env.get_or_insert_with(BsdfFunction::environment);
                    e.load_file_global(&v, &raypath)
                        .map_err(|e| anyhow::anyhow!("{e}"))?;
                }
            }
            Some(b'f') => forward = !minus,
            Some(b'b') => backward = !minus,
            Some(b'h') => size = KlemsSize::Half,
            Some(b'q') => size = KlemsSize::Quarter,
            Some(b'l') => {
                // The lobe limit matters only to .sir interpolation, which is refused below.
                let v = next(&mut i, "-l")?;
                v.parse::<i64>()
                    .ok()
                    .with_context(|| format!("-l {v}: a whole number expected"))?;
            }
            Some(b'p') => progress_len = a[2..].parse::<usize>().unwrap_or(0),
            Some(b'C') => {
                let v = next(&mut i, "-C")?;
                if v.contains("-->") {
                    bail!("illegal character in comment '{v}'");
                }
                comments.push(v);
            }
            _ => bail!("unknown option '{a}'\n{USAGE}"),
        }
        i += 1;
    }
    let mut argv = vec!["bsdf2klems".to_string()];
    argv.extend_from_slice(args);
    comments.push(format!("File produced by: {}", command_line(&argv)));
    let rest = &args[i..];
    klems_from::check_fields(&fields).map_err(|e| anyhow::anyhow!(e))?;

    let xml = if let Some(env) = env {
        if rest.len() != 1 {
            bail!(
                "need single function with 6 arguments: bsdf(ix,iy,iz,ox,oy,oz)\n\
                 \tor 3 arguments using Dx,Dy,Dz: bsdf(ix,iy,iz)\n{USAGE}"
            );
        }
        let mut func = BsdfFunction::new(env, &rest[0]).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut progress = Progress::new("bsdf2klems", progress_len);
        let components =
            klems_from::from_function(&mut func, size, samples, forward, backward, &mut |s, f| {
                progress.report(s, f)
            })
            .map_err(|e| anyhow::anyhow!("{}: {e}", rest[0]));
        progress.done();
        KlemsXml {
            size,
            comments,
            fields,
            mgf: None,
            components: components?,
        }
    } else if rest.len() == 1 && rest[0].len() > 4 && rest[0].to_lowercase().ends_with(".xml") {
        let bsdf = Bsdf::load(Path::new(&rest[0])).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut x = klems_from::from_bsdf(&bsdf, size, samples)
            .map_err(|e| anyhow::anyhow!("{}: {e}", rest[0]))?;
        // Option fields and comments come before the file's own, as RADIANCE orders them.
        fields.extend(std::mem::take(&mut x.fields));
        x.fields = fields;
        x.comments = comments;
        x
    } else {
        bail!(
            "interpolating intermediate BSDF representations (.sir files from \
             pabopto2bsdf, or standard input) is not supported in this version; give an XML \
             BSDF or a function (-e/-f)"
        );
    };
    let (text, warnings) = xml.to_xml().map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in warnings {
        eprintln!("wrapBSDF: {w}");
    }
    crate::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
