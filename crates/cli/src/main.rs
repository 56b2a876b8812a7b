//! `daylit`: one binary with subcommands; called under a RADIANCE program's name (a symlink),
//! it behaves as that program.

mod annual;
mod args;
mod bench;
mod bsdf2klems;
mod bsdf2ttree;
mod check;
mod cnt;
mod compare;
mod dcglare;
mod dctimestep;
mod evalglare;
mod falsecolor;
mod genbsdf;
mod gendaymtx;
mod generators;
mod genglaze;
mod getbbox;
mod getinfo;
mod glare;
mod glare_annual;
mod histo;
mod ies2rad;
mod input;
mod install_links;
mod live;
mod mgf2rad;
mod mkillum;
mod obj2mesh;
mod obj2rad;
mod oconv;
mod output;
mod pcomb;
mod pcompos;
mod pcond;
mod pextrem;
mod pfilt;
mod pkgbsdf;
mod provenance;
mod psign;
mod pvalue;
mod ra_ppm;
mod ra_rgbe;
mod ra_tiff;
mod ra_xyze;
mod rad;
mod rcalc;
mod rcode;
mod rcollate;
mod rcomb;
mod rcontrib;
mod record_format;
mod rfluxmtx;
mod rlam;
mod rmtxop;
mod robjutil;
mod rpict;
mod rsensor;
mod rtrace;
mod rttree_reduce;
mod sky;
mod total;
mod vwrays;
mod vwright;
mod wrapbsdf;
mod xform;

use clap::{CommandFactory, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// RADIANCE programs daylit answers to when called by their name.
const MULTICALL: &[&str] = &[
    "oconv",
    "getinfo",
    "rtrace",
    "rpict",
    "rcontrib",
    "rfluxmtx",
    "gensky",
    "gendaylit",
    "gendaymtx",
    "genblinds",
    "genbox",
    "genprism",
    "genrev",
    "gensurf",
    "genworm",
    "dctimestep",
    "dcglare",
    "evalglare",
    "vwrays",
    "falsecolor",
    "cnt",
    "getbbox",
    "rlam",
    "total",
    "histo",
    "rcalc",
    "rmtxop",
    "pfilt",
    "pcompos",
    "pvalue",
    "pextrem",
    "psign",
    "rsensor",
    "genglaze",
    "pcond",
    "ra_rgbe",
    "pcomb",
    "vwright",
    "rcollate",
    "rcomb",
    "rcode_depth",
    "rcode_norm",
    "rcode_ident",
    "ies2rad",
    "ra_tiff",
    "ra_ppm",
    "xform",
    "obj2rad",
    "mgf2rad",
    "obj2mesh",
    "robjutil",
    "ra_xyze",
    "rad",
    "mkillum",
    "bsdf2klems",
    "bsdf2ttree",
    "rttree_reduce",
    "wrapBSDF",
    "genBSDF",
    "pkgBSDF",
];

/// What RADIANCE's renderers print for `-version`: the RADIANCE release daylit follows.
const RADIANCE_VERSION: &str = concat!("RADIANCE 6.0a (daylit ", env!("CARGO_PKG_VERSION"), ")");

#[derive(Parser)]
#[command(
    name = "daylit",
    version,
    about = "Fast daylighting simulation that reads RADIANCE scenes"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Options shared by every command that reads scenes.
#[derive(clap::Args, Clone)]
pub struct SceneArgs {
    /// Scene inputs in order: RADIANCE .rad files, .obj meshes (usemtl names must be defined
    /// earlier), or scene files written by `daylit oconv`; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Run inline `!commands` that daylit does not implement natively (xform and genbox are
    /// native) through the shell. Only for scenes you trust.
    #[arg(long)]
    pub allow_commands: bool,
}

#[derive(Subcommand)]
enum Cmd {
    /// Report what a scene holds: counts by type, bounding box, unused modifiers, suspect geometry.
    Check(check::Args),
    /// Compile scene files into one binary scene file that every daylit program accepts.
    Oconv(oconv::Args),
    /// Print the header of scene files and RADIANCE pictures.
    Getinfo(getinfo::Args),
    /// Benchmark loading, BVH building and random-ray throughput on a scene.
    BenchRays(bench::Args),
    /// RADIANCE's rtrace: radiance and irradiance (-ov -I -i) and geometric outputs for rays.
    #[command(disable_help_flag = true)]
    Rtrace(rtrace::Args),
    /// RADIANCE's rcontrib: contribution coefficients of modifiers (sky patches, windows,
    /// lights) for rays or sensors, binned by `-b` expressions, all bins in one pass.
    #[command(disable_help_flag = true)]
    Rcontrib(rcontrib::Args),
    /// RADIANCE's rfluxmtx: daylight coefficients (and flux matrices) for the receivers that
    /// `#@rfluxmtx` annotations describe, rays or sensors from standard input (sender `-`).
    #[command(disable_help_flag = true)]
    Rfluxmtx(rfluxmtx::Args),
    /// RADIANCE's rpict: a picture of a view, as RGBE HDR on standard output.
    #[command(disable_help_flag = true)]
    Rpict(rpict::Args),
    /// Render a view with trustworthy defaults: HDR picture, tone-mapped PNG, progress bar.
    Render(rpict::RenderArgs),
    /// Live view in the browser: progressive path tracing with glare feedback.
    #[command(disable_help_flag = true)]
    Live(live::Args),
    /// The ray of every pixel of a view or picture, as RADIANCE's vwrays writes them.
    Vwrays(vwrays::Args),
    /// RADIANCE's gensky: CIE skies and sun as scene text (gensky's own arguments).
    #[command(disable_help_flag = true)]
    Gensky(sky::GenskyArgs),
    /// RADIANCE's gendaylit: the Perez all-weather sky and sun as scene text.
    #[command(disable_help_flag = true)]
    Gendaylit(sky::GendaylitArgs),
    /// RADIANCE's gendaymtx: sky matrices (Tregenza/Reinhart patches × hours) from an EPW,
    /// WEA or TMY3 weather file.
    #[command(disable_help_flag = true)]
    Gendaymtx(gendaymtx::Args),
    /// RADIANCE's dctimestep: daylight-coefficient results, DC × sky (2-phase) or V T D × sky
    /// (3-phase) matrices.
    #[command(disable_help_flag = true)]
    Dctimestep(dctimestep::Args),
    /// Compare two luminance pictures of the same view by Tregenza patch (MBE_rel, RMSE_rel)
    /// and by distribution-normalised MAE/MSD (errors averaged over bands of reference
    /// values); with --values, two lists of paired results (DGP, UGP, Ev, ...).
    Compare(compare::Args),
    /// False-colour picture of an HDR image with a legend (PNG, and HDR on request), as
    /// RADIANCE's falsecolor: linear or log scale, contour lines or bands, palettes.
    Falsecolor(falsecolor::Args),
    /// RADIANCE's evalglare (3.06): glare metrics (DGP, UGR, DGI, CGI, VCP, Ev, ...) of an HDR
    /// picture, with evalglare's options and output lines.
    #[command(disable_help_flag = true)]
    Evalglare(evalglare::Args),
    /// Glare at a glance: DGP, DGPs, UGR, UGP, DGI, CGI, VCP, Ev and more of an HDR picture as
    /// JSON, a check image of the glare sources, a position-index map, region luminances,
    /// contrast ratios and RAMMG.
    Glare(glare::Args),
    /// Annual daylight: DA, cDA, sDA, ASE, UDI and mean illuminance from scene files, sensors
    /// and a weather year (daylight coefficients plus a sharp direct sun).
    Annual(annual::Args),
    /// Make links named after the RADIANCE programs daylit answers to (rtrace, rcontrib,
    /// rmtxop, …) in a folder, to put first on the PATH of honeybee-radiance or pyradiance.
    InstallLinks(install_links::Args),
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let prog = argv
        .first()
        .map(|a| a.rsplit('/').next().unwrap_or(a).to_string())
        .unwrap_or_default();
    let result = if MULTICALL.contains(&prog.as_str()) {
        run_as(&prog, &argv[1..])
    } else {
        if let Some(code) = help_of_radiance_style(&argv) {
            return code;
        }
        let cli = match Cli::try_parse() {
            Ok(cli) => cli,
            Err(e) => return usage_error(&argv, e),
        };
        match cli.cmd {
            Cmd::Check(a) => check::run(&a),
            Cmd::Oconv(a) => oconv::run(&a),
            Cmd::Getinfo(a) => getinfo::run(&a),
            Cmd::BenchRays(a) => bench::run(&a),
            Cmd::Compare(a) => compare::run(&a),
            Cmd::Falsecolor(a) => falsecolor::run(&a),
            Cmd::Annual(a) => annual::run(&a),
            Cmd::Evalglare(a) => evalglare::run(&a),
            Cmd::Glare(a) => glare::run(&a),
            Cmd::Vwrays(a) => vwrays::run(&a),
            Cmd::Gensky(a) => sky::run_gensky(&a),
            Cmd::Gendaylit(a) => sky::run_gendaylit(&a),
            Cmd::Gendaymtx(a) => gendaymtx::run(&a),
            Cmd::Dctimestep(a) => dctimestep::run(&a),
            Cmd::Rtrace(a) => rtrace::run(&a),
            Cmd::Rpict(a) => rpict::run(&a),
            Cmd::Rcontrib(a) => rcontrib::run(&a),
            Cmd::Rfluxmtx(a) => rfluxmtx::run(&a),
            Cmd::Render(a) => rpict::run_render(&a),
            Cmd::Live(a) => live::run(&a),
            Cmd::InstallLinks(a) => install_links::run(&a, MULTICALL),
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{prog}: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `--help` of the subcommands that take RADIANCE's own argument syntax (clap's help flag is
/// off for them, as `-h` is one of RADIANCE's options): their help, and exit 0. `daylit live`
/// prints its own.
fn help_of_radiance_style(argv: &[String]) -> Option<ExitCode> {
    let name = argv.get(1)?;
    let mut cmd = Cli::command();
    let sub = cmd.find_subcommand_mut(name)?;
    if name == "live" || !sub.is_disable_help_flag_set() || !argv[2..].iter().any(|a| a == "--help")
    {
        return None;
    }
    let bin = argv[0].rsplit('/').next().unwrap_or("daylit").to_string();
    let mut sub = sub.clone().bin_name(format!("{bin} {name}"));
    let ok = sub.print_long_help().is_ok();
    Some(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A command line clap refuses. A value out of range is said in one style for every command,
/// `daylit annual: --ad: expected a whole number from 1 to 1000000, got "1e12"`; help,
/// version and other usage errors are clap's own (help and version exit 0).
fn usage_error(argv: &[String], e: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let option = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => s.split_whitespace().next().map(str::to_string),
        _ => None,
    };
    let reason = std::error::Error::source(&e).map(|r| r.to_string());
    match (e.kind(), option, reason) {
        (ErrorKind::ValueValidation, Some(option), Some(reason)) => {
            let sub = argv.get(1).filter(|a| !a.starts_with('-'));
            let bin = argv[0].rsplit('/').next().unwrap_or("daylit");
            let who = sub.map_or(bin.to_string(), |s| format!("{bin} {s}"));
            eprintln!("{who}: {option}: {reason}");
            ExitCode::from(2)
        }
        _ => {
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
        }
    }
}

/// Runs as the RADIANCE program `prog`, with its own argument syntax.
fn run_as(prog: &str, args: &[String]) -> anyhow::Result<ExitCode> {
    if matches!(prog, "rtrace" | "rpict" | "rcontrib")
        && args.first().is_some_and(|a| a == "-version")
    {
        println!("{RADIANCE_VERSION}");
        return Ok(ExitCode::SUCCESS);
    }
    match prog {
        "oconv" => oconv::run_radiance(args),
        "getinfo" => getinfo::run_radiance(args),
        "vwrays" => vwrays::run_radiance(args),
        "gensky" => sky::gensky_radiance(args),
        "gendaylit" => sky::gendaylit_radiance(args),
        "gendaymtx" => gendaymtx::run_radiance(args),
        prog if daylit_scene::TEXT_GENERATORS.contains(&prog) => {
            generators::run_radiance(prog, args)
        }
        "genbox" => generators::genbox(args),
        "genprism" => generators::genprism(args),
        "dctimestep" => dctimestep::run_radiance(args),
        "dcglare" => dcglare::run_radiance(args),
        "evalglare" => evalglare::run_radiance(args),
        "falsecolor" => falsecolor::run_radiance(args),
        "rtrace" => rtrace::run_radiance(args),
        "rpict" => rpict::run_radiance(args),
        "rcontrib" => rcontrib::run_radiance(args),
        "rfluxmtx" => rfluxmtx::run_radiance(args),
        "cnt" => cnt::run_radiance(args),
        "getbbox" => getbbox::run_radiance(args),
        "rlam" => rlam::run_radiance(args),
        "total" => total::run_radiance(args),
        "histo" => histo::run_radiance(args),
        "rcalc" => rcalc::run_radiance(args),
        "rmtxop" => rmtxop::run_radiance(args),
        "pfilt" => pfilt::run_radiance(args),
        "pcompos" => pcompos::run_radiance(args),
        "pvalue" => pvalue::run_radiance(args),
        "pextrem" => pextrem::run_radiance(args),
        "psign" => psign::run_radiance(args),
        "rsensor" => rsensor::run_radiance(args),
        "genglaze" => genglaze::run_radiance(args),
        "pcond" => pcond::run_radiance(args),
        "ra_rgbe" => ra_rgbe::run_radiance(args),
        "pcomb" => pcomb::run_radiance(args),
        "vwright" => vwright::run_radiance(args),
        "rcollate" => rcollate::run_radiance(args),
        "rcomb" => rcomb::run_radiance(args),
        "rcode_depth" => rcode::run_depth(args),
        "rcode_norm" => rcode::run_norm(args),
        "rcode_ident" => rcode::run_ident(args),
        "ies2rad" => ies2rad::run_radiance(args),
        "ra_tiff" => ra_tiff::run_radiance(args),
        "ra_ppm" => ra_ppm::run_radiance(args),
        "xform" => xform::run_radiance(args),
        "obj2rad" => obj2rad::run_radiance(args),
        "mgf2rad" => mgf2rad::run_radiance(args),
        "obj2mesh" => obj2mesh::run_radiance(args),
        "robjutil" => robjutil::run_radiance(args),
        "ra_xyze" => ra_xyze::run_radiance(args),
        "rad" => rad::run_radiance(args),
        "mkillum" => mkillum::run_radiance(args),
        "bsdf2klems" => bsdf2klems::run_radiance(args),
        "bsdf2ttree" => bsdf2ttree::run_radiance(args),
        "rttree_reduce" => rttree_reduce::run_radiance(args),
        "wrapBSDF" => wrapbsdf::run_radiance(args),
        "pkgBSDF" => pkgbsdf::run_radiance(args),
        "genBSDF" => genbsdf::run_radiance(args),
        _ => anyhow::bail!("{prog} is not implemented in this version of daylit yet"),
    }
}
