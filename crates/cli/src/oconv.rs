//! `daylit oconv`: compiles scene inputs into one binary scene file.

use crate::output::write_atomic;
use crate::SceneArgs;
use anyhow::{bail, Context};
use daylit_compile::Severity;
use daylit_scene::{archive, load_scene, LoadOptions, Scene};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit oconv`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    scene: SceneArgs,
    /// Output file (written atomically) [default: standard output].
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Drop degenerate geometry with a warning, as RADIANCE's oconv does, instead of failing.
    #[arg(long)]
    skip_degenerate: bool,
}

/// Loads, checks and writes; shared by both command-line forms.
fn compile_to(
    files: &[PathBuf],
    opts: &LoadOptions,
    output: Option<&PathBuf>,
    info: Vec<String>,
    degenerate_is_error: bool,
    warn: bool,
) -> anyhow::Result<ExitCode> {
    let scene: Scene = load_scene(files, opts)?;
    let report = daylit_compile::shapes(&scene);
    let mut degenerate = 0;
    for f in &report.findings {
        if f.severity == Severity::Degenerate {
            degenerate += 1;
        }
        if warn || f.severity == Severity::Degenerate {
            eprintln!("{f}");
        }
    }
    if degenerate > 0 && degenerate_is_error {
        bail!("{degenerate} degenerate primitive(s) (listed above); fix them, or pass --skip-degenerate to drop them as RADIANCE does");
    }
    let bytes = archive::encode(&scene, &info);
    match output {
        Some(p) => write_atomic(p, &bytes)?,
        None => {
            let mut out = std::io::stdout().lock();
            if out.is_terminal() {
                bail!(
                    "refusing to write a binary scene file to a terminal; use -o FILE or redirect"
                );
            }
            out.write_all(&bytes)
                .context("cannot write to standard output")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn creator() -> String {
    format!("CREATOR=daylit {}", env!("CARGO_PKG_VERSION"))
}

/// `daylit oconv`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    let opts = LoadOptions {
        allow_commands: a.scene.allow_commands,
        ..Default::default()
    };
    let files: Vec<String> = a
        .scene
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let info = vec![format!("oconv {}", files.join(" ")), creator()];
    compile_to(
        &a.scene.files,
        &opts,
        a.output.as_ref(),
        info,
        !a.skip_degenerate,
        true,
    )
}

/// `oconv` with RADIANCE's arguments: `[-f] [-w] [-i scene] [-b x y z size] [-n N] [-r N] files`,
/// writing to standard output. Octree tuning options are accepted and have no effect (daylit
/// builds a BVH). Inline commands run through the shell, as RADIANCE's oconv runs them.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut files = Vec::new();
    let mut warn = true;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let skip = match a {
            "-f" => 0,
            "-w" => {
                warn = false;
                0
            }
            "-i" => {
                let f = args.get(i + 1).context("oconv: -i needs a scene file")?;
                files.push(PathBuf::from(f));
                1
            }
            "-b" => 4,
            "-n" | "-r" => 1,
            "-" => {
                files.push(PathBuf::from("-"));
                0
            }
            _ if a.starts_with('-') => bail!("oconv: unknown option {a}"),
            _ => {
                files.push(PathBuf::from(a));
                0
            }
        };
        if i + skip >= args.len() && skip > 0 {
            bail!("oconv: option {a} needs {skip} argument(s)");
        }
        i += skip + 1;
    }
    if files.is_empty() {
        files.push(PathBuf::from("-"));
    }
    let opts = LoadOptions {
        allow_commands: true,
        ..Default::default()
    };
    let info = vec![format!("oconv {}", args.join(" ")), creator()];
    compile_to(&files, &opts, None, info, false, warn)
}
