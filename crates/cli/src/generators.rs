//! RADIANCE's surface generators by name (`genblinds`, `genrev`, `gensurf`, `genworm`,
//! `genbox` and `genprism`): the scene text the library's native generators write, the same text `daylit
//! oconv` reads when a scene runs them inline (genbox's and genprism's scenes build their
//! primitives directly).

use daylit_scene::{generated_text, LoadOptions, Loc};
use std::process::ExitCode;

/// Runs generator `prog` with RADIANCE's arguments and prints its scene text.
pub fn run_radiance(prog: &str, args: &[String]) -> anyhow::Result<ExitCode> {
    let loc = Loc::new("command line".into(), 1, 1);
    let opts = LoadOptions::default();
    let text = generated_text(&opts, prog, args, &loc, std::path::Path::new("."))?;
    crate::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `genbox` with RADIANCE's arguments and prints RADIANCE's text for it.
pub fn genbox(args: &[String]) -> anyhow::Result<ExitCode> {
    let loc = Loc::new("command line".into(), 1, 1);
    crate::output::print(&daylit_scene::genbox::genbox_text(args, &loc)?)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `genprism` with RADIANCE's arguments and prints RADIANCE's text for it.
pub fn genprism(args: &[String]) -> anyhow::Result<ExitCode> {
    let loc = Loc::new("command line".into(), 1, 1);
    crate::output::print(&daylit_scene::genprism::genprism_text(args, &loc)?)?;
    Ok(ExitCode::SUCCESS)
}
