//! `daylit gensky` and `daylit gendaylit` (and the `gensky`, `gendaylit` program names): RADIANCE's
//! sky generators with their own argument syntax, printing the same scene text.

use std::process::ExitCode;

/// Arguments of `daylit gensky`, written as RADIANCE's gensky takes them.
#[derive(clap::Args)]
pub struct GenskyArgs {
    /// `month day hour [options]`, `-ang altitude azimuth [options]` or `-defaults`; options
    /// `+s -s +i -i -c -u -g refl -b rad -B irrad -r rad -R irrad -t turb -a lat -o lon -m mer
    /// -y year`, and daylit's `-spa` (with `-y`: the sun by NREL's SPA, to 0.01°, instead of
    /// RADIANCE's own formulas). Longitudes and meridians are degrees WEST; `+hour` is solar
    /// time.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// Prints warnings the way RADIANCE does, prefixed with the program name.
fn warn(prog: &str, warnings: &[String]) {
    for w in warnings {
        eprintln!("{prog}: {w}");
    }
}

/// Runs gensky on RADIANCE-style arguments.
pub fn gensky_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let out = daylit_sky::gensky::gensky_text(args)
        .map_err(|e| anyhow::anyhow!("{e}\nusage: gensky month day hour [options]\n   or: gensky -ang altitude azimuth [options]\n   or: gensky -defaults"))?;
    warn("gensky", &out.warnings);
    crate::output::print(&out.text)?;
    Ok(ExitCode::SUCCESS)
}

/// `daylit gensky`.
pub fn run_gensky(a: &GenskyArgs) -> anyhow::Result<ExitCode> {
    gensky_radiance(&a.args)
}

/// Arguments of `daylit gendaylit`, written as RADIANCE's gendaylit takes them.
#[derive(clap::Args)]
pub struct GendaylitArgs {
    /// `month day hour [options]` or `-ang altitude azimuth [options]`, with one input of `-W
    /// direct-normal diffuse-horizontal` (W/m²), `-G direct-horizontal diffuse-horizontal`
    /// (W/m²), `-L direct-normal diffuse-horizontal` (lux), `-P epsilon delta` or `-E global`;
    /// `-O 0|1|2` (visible W/sr/m², solar W/sr/m², cd/m²), `+s -s -g -a -o -m -y -d -i -w`.
    /// Longitudes and meridians are degrees WEST; `+hour` is solar time.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// Runs gendaylit on RADIANCE-style arguments.
pub fn gendaylit_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let out = daylit_sky::gendaylit::gendaylit_text(args).map_err(|e| {
        anyhow::anyhow!(
            "{e}\nusage: gendaylit month day hour [-y year] {{-W dn dh | -G dh_dir dh | -L dn dh | -P eps delta | -E global}} [options]\n   or: gendaylit -ang altitude azimuth {{...}} [options]"
        )
    })?;
    warn("gendaylit", &out.warnings);
    crate::output::print(&out.text)?;
    Ok(ExitCode::SUCCESS)
}

/// `daylit gendaylit`.
pub fn run_gendaylit(a: &GendaylitArgs) -> anyhow::Result<ExitCode> {
    gendaylit_radiance(&a.args)
}
