//! `mkillum`: RADIANCE's illum-source maker with its arguments: rendering options, the octree,
//! then `"<" files` (or standard input). The work is `daylit_transport::mkillum`; here the
//! inputs are read (`#@mkillum` comments, `!commands` run through the shell) and the outputs
//! written whole: the scene text to standard output (or `o=` files) and the data files.

use crate::output::write_atomic;
use anyhow::{bail, Context};
use daylit_compile::compile;
use daylit_scene::parse::{read_pieces, Item, Piece};
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::mkillum::MkIllum;
use daylit_transport::{Options, Renderer};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "Usage: mkillum [-n nprocs][-w][rtrace options] octree [< file ..]";

/// Runs mkillum with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = crate::input::expand_arguments("mkillum", args)?;
    // mkillum's own defaults for the rendering: -dj .5 -dr 3 -ab 2.
    let mut opts = Options::rtrace();
    opts.dj = 0.5;
    opts.dr = 3;
    opts.ab = 2;
    let mut warnings = true;
    let mut threads = None;
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        match args[i].as_str() {
            "-w" => warnings = false,
            "-n" => {
                let n: usize = args
                    .get(i + 1)
                    .and_then(|w| w.parse().ok())
                    .filter(|&n| n > 0)
                    .context("mkillum: illegal number of processes")?;
                threads = Some(n);
                i += 1;
            }
            "-defaults" => bail!(
                "mkillum: -defaults is not supported by daylit; the #@mkillum defaults are \
                 m=illum_mat f=illum c=a l- d=48 s=32 b=0, the rendering defaults rtrace's \
                 with -dj .5 -dr 3 -ab 2"
            ),
            _ => {
                let used = opts
                    .parse_arg(&args, i)
                    .map_err(|e| anyhow::anyhow!("mkillum: {e}"))?;
                if used == 0 {
                    bail!("mkillum: bad render option at '{}'", args[i]);
                }
                i += used;
                continue;
            }
        }
        i += 1;
    }
    // Distributions are radiance, not irradiance.
    opts.irradiance = false;
    let Some(octree) = args.get(i) else {
        bail!("mkillum: missing octree argument ({USAGE})")
    };
    let inputs: Vec<String> = match &args[i + 1..] {
        [] => vec!["-".into()],
        [lt, files @ ..] if lt == "<" && !files.is_empty() => files.to_vec(),
        _ => bail!("mkillum: use '< file1 file2 ..' for multiple inputs"),
    };
    let mut command = String::from("# mkillum");
    for a in &args[..=i] {
        command.push(' ');
        command.push_str(a);
    }
    let scene = load_scene(&[octree.into()], &LoadOptions::default())?;
    let compiled = compile(&scene);
    let rd = Renderer::new(scene, compiled, opts, &daylit_cal::RayPath::from_env())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let out = pool.install(|| -> anyhow::Result<_> {
        let mut mk = MkIllum::new(&rd, command, |f: &str| Path::new(f).exists());
        for input in &inputs {
            let (name, bytes) = crate::input::read_operand("mkillum", input)?;
            let name = if input == "-" {
                "standard input".to_string()
            } else {
                name
            };
            feed(&mut mk, &bytes, &name, 0)?;
        }
        Ok(mk.finish())
    })?;
    if warnings {
        for w in &out.warnings {
            eprintln!("mkillum: warning - {w}");
        }
    }
    for (file, text) in &out.data_files {
        write_atomic(Path::new(file), text.as_bytes())?;
    }
    for (target, text) in &out.texts {
        match target {
            Some(file) => write_atomic(Path::new(file), text.as_bytes())?,
            None => crate::output::print(text)?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Hands one input's comments and objects to `mk`, running its commands.
fn feed(mk: &mut MkIllum, bytes: &[u8], name: &str, depth: usize) -> anyhow::Result<()> {
    let mut pieces = Vec::new();
    read_pieces(bytes, Arc::from(name), &mut |p| {
        pieces.push(p);
        Ok(())
    })?;
    for piece in pieces {
        match piece {
            Piece::Comment(line) => mk.comment(&line, name),
            Piece::Item(Item::Prim(p)) => mk.object(&p).map_err(|e| anyhow::anyhow!("{e}"))?,
            Piece::Item(Item::Command(w)) => {
                if depth > 8 {
                    bail!("{}: commands nested too deep", w.loc);
                }
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(&w.text)
                    .stderr(std::process::Stdio::inherit())
                    .output()
                    .with_context(|| format!("{}: cannot run \"{}\"", w.loc, w.text))?;
                if !out.status.success() {
                    bail!("{}: command \"{}\" failed ({})", w.loc, w.text, out.status);
                }
                feed(mk, &out.stdout, &format!("!{}", w.text), depth + 1)?;
            }
        }
    }
    Ok(())
}
