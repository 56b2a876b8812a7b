//! RADIANCE's surface generators by name (`genblinds`, `genrev`, `gensurf`, `genworm`): the
//! scene text the library's native generators write, the same text `daylit oconv` reads when a
//! scene runs them inline.

use daylit_cal::RayPath;
use daylit_scene::Loc;
use std::process::ExitCode;

/// Runs generator `prog` with RADIANCE's arguments and prints its scene text.
pub fn run_radiance(prog: &str, args: &[String]) -> anyhow::Result<ExitCode> {
    let loc = Loc::new("command line".into(), 1, 1);
    let raypath = RayPath::from_env();
    let text = match prog {
        "genblinds" => daylit_scene::genblinds::genblinds(args, &loc),
        "genrev" => daylit_scene::genrev::genrev(args, &loc, &raypath),
        "gensurf" => {
            daylit_scene::gensurf::gensurf(args, &loc, &raypath, std::path::Path::new("."))
        }
        _ => daylit_scene::genworm::genworm(args, &loc, &raypath),
    }?;
    crate::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
