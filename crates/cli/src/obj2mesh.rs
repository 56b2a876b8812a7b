//! `obj2mesh`: a Wavefront `.obj` file compiled into a RADIANCE mesh (`.rtm`) with RADIANCE's
//! arguments (`-a matfile`, `-l matlib` from the RAYPATH, `-n objlim`, `-r maxres`, `-w`, `-v`;
//! input and output files or the standard streams). `daylit_scene::obj2mesh` does the work;
//! an output file is written whole or not at all.

use anyhow::{bail, Context};
use daylit_scene::obj2mesh::{obj2mesh, Materials, Options};
use std::process::ExitCode;

const USAGE: &str =
    "usage: obj2mesh [-a matfile][-l matlib][-n objlim][-r maxres][-w][-v] [input.obj [output.rtm]]";

/// Runs obj2mesh with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options::default();
    let mut mats = Materials::default();
    let mut warn = true;
    let mut verbose = false;
    let mut i = 0;
    let value = |i: usize, what: &str| -> anyhow::Result<&String> {
        args.get(i + 1)
            .with_context(|| format!("{} needs {what}\n{USAGE}", args[i]))
    };
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        match a.as_bytes().get(1) {
            Some(b'n') => {
                o.limits.objlim = daylit_radfile::scan::atoi(value(i, "an object limit")?);
                i += 1;
            }
            Some(b'r') => {
                let r = daylit_radfile::scan::atoi(value(i, "a resolution")?);
                if r < 1 {
                    // RADIANCE would divide by zero or subdivide without end.
                    bail!("-r {r}: the resolution limit must be at least 1");
                }
                o.limits.maxres = r;
                i += 1;
            }
            Some(b'a') => {
                let f = value(i, "a material file")?;
                let Ok(text) = std::fs::read(f) else {
                    return Ok(system_error(&format!("cannot open scene file \"{f}\"")));
                };
                mats.read(&text, f)?;
                i += 1;
            }
            Some(b'l') => {
                let f = value(i, "a library material")?;
                let Some(path) = daylit_cal::RayPath::from_env().find(f) else {
                    return Ok(system_error(&format!(
                        "cannot find library material: '{f}'"
                    )));
                };
                let Ok(text) = std::fs::read(&path) else {
                    return Ok(system_error(&format!(
                        "cannot open scene file \"{}\"",
                        path.display()
                    )));
                };
                mats.read(&text, &path.to_string_lossy())?;
                i += 1;
            }
            Some(b'w') => warn = false,
            Some(b'v') => verbose = true,
            _ => bail!("unknown option: '{a}'\n{USAGE}"),
        }
        i += 1;
    }
    if args.len() > i + 2 {
        bail!("too many file arguments\n{USAGE}");
    }
    let (file, bytes) = match args.get(i) {
        Some(f) => (
            f.clone(),
            std::fs::read(f).with_context(|| format!("cannot open \"{f}\""))?,
        ),
        None => (
            "<stdin>".to_string(),
            crate::input::read_operand("obj2mesh", "-")?.1,
        ),
    };
    // The header names the command up to its input file.
    let argv0 = std::env::args()
        .next()
        .filter(|a| a.rsplit('/').next() == Some("obj2mesh"))
        .unwrap_or_else(|| "obj2mesh".into());
    let upto = (i + 1).min(args.len());
    let command: Vec<String> = std::iter::once(argv0)
        .chain(args[..upto].iter().cloned())
        .collect();
    let warnings = |ws: &[String]| {
        if warn {
            for w in ws {
                eprintln!("obj2mesh: warning - {w}");
            }
        }
    };
    let mesh = match obj2mesh(&bytes, &file, &command, &mats, &o) {
        Ok(m) => m,
        Err(f) => {
            warnings(&f.warnings);
            bail!(f.message);
        }
    };
    warnings(&mesh.warnings);
    match args.get(i + 1) {
        Some(out) => {
            if let Err(e) = crate::output::write_atomic(std::path::Path::new(out), &mesh.bytes) {
                return Ok(system_error(&format!("cannot write output file: {e:#}")));
            }
        }
        None => crate::output::print_bytes([mesh.bytes.as_slice()])?,
    }
    if verbose {
        eprint!("{}", mesh.stats.report());
    }
    Ok(ExitCode::SUCCESS)
}

/// RADIANCE's system errors (files that cannot be opened or written) exit with status 2.
fn system_error(msg: &str) -> ExitCode {
    eprintln!("obj2mesh: {msg}");
    ExitCode::from(2)
}
