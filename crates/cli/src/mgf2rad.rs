//! `mgf2rad`: MGF (Materials and Geometry Format) files as RADIANCE scene text, as RADIANCE's
//! mgf2rad writes it (`daylit_scene::mgf2rad` does the work): `-m` puts the materials in a
//! file of their own (appended to), `-e` multiplies emission, `-g` makes emitters glow within
//! a distance, `-s` writes spectral colours as `spectrum` primitives. No files: standard input.

use anyhow::{bail, Context};
use daylit_scene::mgf2rad::{mgf2rad, Options, Source};
use std::process::ExitCode;

const USAGE: &str = "Usage: mgf2rad [-s][-g dist][-e mult][-m matf] [file.mgf] ..";

/// Runs mgf2rad with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options::default();
    let mut matfile = None;
    let mut shown = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        shown.push(a.clone());
        let b = a.as_bytes();
        match b.get(1) {
            Some(b'g') | Some(b'e') => {
                let v = args
                    .get(i + 1)
                    .filter(|v| b.len() == 2 && daylit_radfile::scan::is_float(v.as_bytes()));
                let Some(v) = v else {
                    bail!("{a} needs a number\n{USAGE}");
                };
                let x = daylit_radfile::scan::atof(v);
                if b[1] == b'g' {
                    o.glow = Some(x);
                } else {
                    o.emult = x;
                }
                shown.push(v.clone());
                i += 1;
            }
            Some(b'm') => {
                let f = args
                    .get(i + 1)
                    .with_context(|| format!("-m needs a materials file\n{USAGE}"))?;
                matfile = Some(f.clone());
                o.separate_materials = true;
                shown.push(f.clone());
                i += 1;
            }
            Some(b's') => o.spectra = !o.spectra,
            _ => bail!("bad option {a}\n{USAGE}"),
        }
        i += 1;
    }
    let inputs = if i == args.len() {
        vec![Source::Stdin(crate::input::read_operand("mgf2rad", "-")?.1)]
    } else {
        args[i..].iter().map(|f| Source::File(f.clone())).collect()
    };
    // The command line goes first, as it was invoked.
    let argv0 = std::env::args()
        .next()
        .filter(|a| a.rsplit('/').next() == Some("mgf2rad"))
        .unwrap_or_else(|| "mgf2rad".into());
    let out = mgf2rad(inputs, &argv0, &shown, &o)?;
    for w in &out.warnings {
        eprintln!("mgf2rad: warning: {w}");
    }
    if let Some(f) = matfile {
        // Appended to, as RADIANCE does; the whole file is replaced at once.
        let path = std::path::Path::new(&f);
        let mut bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => bail!("{f}: cannot append ({e})"),
        };
        bytes.extend_from_slice(out.materials.as_bytes());
        crate::output::write_atomic(path, &bytes).with_context(|| format!("{f}: cannot append"))?;
    }
    crate::output::print(&out.scene)?;
    Ok(ExitCode::SUCCESS)
}
