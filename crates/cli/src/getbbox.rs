//! `getbbox`: the axis-aligned box around every surface of a scene, as RADIANCE's getbbox
//! prints it (`-h`: without the header line; `-w`: accepted, daylit's loader prints no
//! warnings here). Modifiers need not be defined, as in RADIANCE's. Meshes and octree
//! instances are bounded by their triangles and surfaces, tighter than RADIANCE's, which
//! bounds them by the cube of their own octree. Inputs are scene files, `!command` lines (run as RADIANCE's oconv runs
//! them) or `-` for standard input, which is also read when no input is given.

use crate::output;
use anyhow::bail;
use daylit_scene::{load_scene, LoadOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// The box around every surface of scene inputs, read as getbbox reads them: modifiers need
/// not be defined, inline commands run.
pub(crate) fn scene_box(inputs: &[PathBuf]) -> anyhow::Result<(glam::DVec3, glam::DVec3)> {
    let opts = LoadOptions {
        allow_commands: true,
        check_files: false,
        geometry_only: true,
        ..Default::default()
    };
    let scene = load_scene(inputs, &opts)?;
    daylit_compile::shapes(&scene)
        .bounds()
        .ok_or_else(|| anyhow::anyhow!("the scene has no surfaces"))
}

/// `getbbox` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut header = true;
    let mut inputs = Vec::new();
    for a in args {
        match a.as_str() {
            "-h" => header = false,
            "-w" => {}
            "-" => inputs.push(PathBuf::from("-")),
            o if o.starts_with('-') => {
                bail!("getbbox: unknown option {o} (expected -h or -w as in RADIANCE's getbbox)")
            }
            f => inputs.push(PathBuf::from(f)),
        }
    }
    if inputs.is_empty() {
        inputs.push(PathBuf::from("-"));
    }
    let (lo, hi) = scene_box(&inputs)?;
    let mut out = String::new();
    if header {
        let names = ["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"];
        out += &names.map(|n| format!("{n:>9}")).join(" ");
        out.push('\n');
    }
    let v = [lo.x, hi.x, lo.y, hi.y, lo.z, hi.z];
    out += &v
        .map(|x| format!("{:>9}", daylit_coefficients::rfluxmtx::format_g(x)))
        .join(" ");
    out.push('\n');
    output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
