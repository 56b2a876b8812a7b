//! `daylit live`: progressive path tracing with glare feedback in the browser (daylit-live).

use std::io::Write;
use std::process::ExitCode;

/// Arguments of `daylit live`.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// Scene files, RADIANCE view options (-vta -vp x y z -vd dx dy dz ...) and rendering
    /// options (-ab -lw -dj ...), -x/-y resolution (512), --weather FILE, --time 'MM-DD HH:MM'
    /// (default: the scene sky's gensky time, else with a weather file the sunny occupied hour
    /// nearest 03-21 12:00, else 03-21 12:00),
    /// --sky perez|clear|intermediate|overcast, --port N (8642; 0 picks a free one), --bind
    /// ADDR (127.0.0.1), --threads N, --max-frames N. Serves the page until stopped.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// `daylit live`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    if a.args.iter().any(|w| w == "--help" || w == "-h") {
        println!("{}", daylit_live::config::USAGE);
        return Ok(ExitCode::SUCCESS);
    }
    let config = daylit_live::config::parse(&a.args).map_err(|e| anyhow::anyhow!("live: {e}"))?;
    daylit_live::run(config, |addr| {
        // The URL on standard output, first line, so scripts can find the port.
        println!("daylit live: serving http://{addr}/");
        let _ = std::io::stdout().flush();
    })
    .map_err(|e| anyhow::anyhow!("live: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
