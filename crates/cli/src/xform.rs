//! `xform`: scene files transformed into scene text, as RADIANCE's xform writes it
//! (`daylit_scene::xform_text` does the work).

use std::process::ExitCode;

/// Runs xform with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    // The command line goes into the text's first line as it was invoked.
    let argv0 = std::env::args()
        .next()
        .filter(|a| a.rsplit('/').next() == Some("xform"))
        .unwrap_or_else(|| "xform".into());
    let all: Vec<String> = std::iter::once(argv0).chain(args.iter().cloned()).collect();
    let opts = daylit_scene::LoadOptions {
        raypath: daylit_cal::RayPath::from_env(),
        ..Default::default()
    };
    let mut stdin = || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
    };
    let mut x = daylit_scene::xform_text::Xform::new(&opts, &mut stdin);
    let result = x.run(&all, std::path::Path::new(""));
    for w in &x.warnings {
        eprintln!("{w}");
    }
    // Nothing is written when something cannot be transformed (RADIANCE's xform would have
    // streamed part of it).
    match result {
        Ok(()) => {
            crate::output::print(&x.out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
