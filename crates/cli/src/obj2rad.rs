//! `obj2rad`: a Wavefront `.obj` file as RADIANCE scene text, or (`-n`) the names a mapping
//! file could use, as RADIANCE's obj2rad writes them, materials from `usemtl` or a mapping file
//! (`-m`) (`daylit_scene::obj2rad` does the work).

use anyhow::{bail, Context};
use daylit_scene::obj2rad::{obj2rad, qualifiers, Mapping, Options};
use std::process::ExitCode;

const USAGE: &str = "usage: obj2rad [-o obj][-m mapping][-n][-f] [file.obj]";

/// Runs obj2rad with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options::default();
    let mut names = false;
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        match a.as_bytes().get(1) {
            Some(b'o') => {
                o.object = args
                    .get(i + 1)
                    .with_context(|| format!("-o needs a name\n{USAGE}"))?
                    .clone();
                i += 1;
            }
            Some(b'n') => names = true,
            Some(b'f') => o.flatten = true,
            Some(b'm') => {
                let f = args
                    .get(i + 1)
                    .with_context(|| format!("-m needs a mapping file\n{USAGE}"))?;
                let text =
                    std::fs::read_to_string(f).with_context(|| format!("{f}: cannot open"))?;
                o.mapping = Some(Mapping::parse(&text, f).map_err(anyhow::Error::msg)?);
                i += 1;
            }
            _ => bail!("bad option {a}\n{USAGE}"),
        }
        i += 1;
    }
    if args.len() > i + 1 {
        bail!("{USAGE}");
    }
    let (file, bytes) = match args.get(i) {
        Some(f) => (
            f.clone(),
            std::fs::read(f).with_context(|| format!("{f}: cannot open"))?,
        ),
        None => (
            "<stdin>".to_string(),
            crate::input::read_operand("obj2rad", "-")?.1,
        ),
    };
    let text = String::from_utf8_lossy(&bytes);
    let out = if names {
        qualifiers(&text, &file)
    } else {
        // The command line goes first, as it was invoked.
        let argv0 = std::env::args()
            .next()
            .filter(|a| a.rsplit('/').next() == Some("obj2rad"))
            .unwrap_or_else(|| "obj2rad".into());
        let command: Vec<String> = std::iter::once(argv0).chain(args.iter().cloned()).collect();
        obj2rad(&text, &file, &command, &o).map_err(anyhow::Error::msg)?
    };
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
