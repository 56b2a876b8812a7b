//! `bsdf2ttree`: RADIANCE's tensor-tree XML maker, from a function (`bsdf2ttree -t3|-t4
//! [-g Nlog2][-t pctcull][-n nss][-s thresh][{+|-}a][{+|-}forward][{+|-}backward][-e expr]
//! [-f file.cal] bsdf_func`); the XML goes to standard output once complete. The work is
//! `daylit_bsdf::ttree_from`'s; this parses. RADIANCE's first form, intermediate `.sir`
//! representations from `pabopto2bsdf`, is refused by name.

use crate::bsdf2klems::{command_line, Progress};
use anyhow::{bail, Context};
use daylit_bsdf::klems_from::BsdfFunction;
use daylit_bsdf::ttree_from::{self, TreeOptions, TreeRank, TreeXml};
use daylit_bsdf::write::LEGAL_UNITS;
use daylit_cal::{CalEnv, RayPath};
use std::process::ExitCode;

const USAGE: &str = "Usage: bsdf2ttree [{+|-}a][-g Nlog2][-t pctcull][-n nss][-s thresh][-l maxlobes][bsdf.sir ..] > bsdf.xml\n   \
or: bsdf2ttree -t{3|4} [{+|-}a][-g Nlog2][-t pctcull][-n nss][-s thresh][{+|-}for[ward]][{+|-}b[ackward]][-e expr][-f file] bsdf_func > bsdf.xml";

/// The number after option `opt`, parsed whole.
fn number<T: std::str::FromStr>(v: &str, opt: &str, what: &str) -> anyhow::Result<T> {
    v.trim()
        .parse::<T>()
        .ok()
        .with_context(|| format!("{opt} {v}: {what} expected\n{USAGE}"))
}

/// `bsdf2ttree` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut opts = TreeOptions::default();
    // None until -t3/-t4 or a function definition says the input is a function.
    let mut rank: Option<TreeRank> = None;
    let mut forward = false;
    let mut backward = true;
    let mut progress_len = 79usize;
    let mut comments: Vec<String> = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut window6 = false;
    let mut unit: Option<String> = None;
    let mut env: Option<CalEnv> = None;
    let raypath = RayPath::from_env();
    let mut i = 0;
    let next = |i: &mut usize, opt: &str| -> anyhow::Result<String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .with_context(|| format!("{opt} needs an argument\n{USAGE}"))
    };
    while i < args.len() && (args[i].starts_with('-') || args[i].starts_with('+')) {
        let a = args[i].clone();
        let minus = a.starts_with('-');
        match a.as_bytes().get(1).copied() {
            Some(b'e') => {
                let v = next(&mut i, "-e")?;
                let e = env.get_or_insert_with(BsdfFunction::environment);
                e.load_str("command line -e", &v)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                rank.get_or_insert(TreeRank::Anisotropic);
            }
            Some(b'f') if minus && a.len() == 2 => {
                let v = next(&mut i, "-f")?;
                if v.contains('=') {
                    fields.push(v);
                } else {
                    let e = env.get_or_insert_with(BsdfFunction::environment);
                    e.load_file_global(&v, &raypath)
                        .map_err(|e| anyhow::anyhow!("{e}"))?;
                    rank.get_or_insert(TreeRank::Anisotropic);
                }
            }
            Some(b'f') => forward = !minus,
            Some(b'b') => backward = !minus,
            Some(b'a') => opts.reciprocity = !minus,
            Some(b'n') => {
                let v = next(&mut i, "-n")?;
                opts.supersamples = match number::<i64>(&v, "-n", "a positive whole number")? {
                    n if n > 0 => n as usize,
                    _ => bail!("-n {v}: a positive number of super-samples expected\n{USAGE}"),
                };
            }
            Some(b's') => {
                let v = next(&mut i, "-s")?;
                opts.threshold = number(&v, "-s", "a threshold")?;
            }
            Some(b't') => match &a[2..] {
                "3" => rank = Some(TreeRank::Isotropic),
                "4" => rank = Some(TreeRank::Anisotropic),
                "" => {
                    let v = next(&mut i, "-t")?;
                    opts.pctcull = number(&v, "-t", "a culling percentage")?;
                }
                _ => bail!("unknown option '{a}' (-t3, -t4 or -t pctcull)\n{USAGE}"),
            },
            Some(b'g') => {
                let v = next(&mut i, "-g")?;
                let g: i64 = number(&v, "-g", "log2 of the grid resolution")?;
                opts.log2 = u32::try_from(g)
                    .ok()
                    .with_context(|| format!("-g {v}: log2 of the grid resolution expected"))?;
            }
            Some(b'l') => {
                // The lobe limit matters only to .sir interpolation, which is refused below.
                let v = next(&mut i, "-l")?;
                number::<i64>(&v, "-l", "a whole number")?;
            }
            Some(b'p') => progress_len = a[2..].parse::<usize>().unwrap_or(0),
            Some(b'W') => window6 = true,
            Some(b'u') => {
                let v = next(&mut i, "-u")?;
                if unit.is_some() {
                    bail!("only one -u option allowed");
                }
                // As wrapBSDF: any part of the list.
                if !LEGAL_UNITS.contains(v.as_str()) {
                    bail!("-u {v}: unit must be one of ({LEGAL_UNITS})");
                }
                unit = Some(v);
            }
            Some(b'C') => {
                let v = next(&mut i, "-C")?;
                if v.contains("-->") {
                    bail!("illegal character in comment '{v}'");
                }
                comments.push(v);
            }
            _ => bail!("unknown option '{a}'\n{USAGE}"),
        }
        i += 1;
    }
    let rest = &args[i..];
    let Some(rank) = rank else {
        bail!(
            "interpolating intermediate BSDF representations (.sir files from pabopto2bsdf, \
             or standard input) is not supported in this version; give a function with \
             -t3 or -t4 and -e/-f\n{USAGE}"
        );
    };
    opts.rank = rank;
    if rest.len() != 1 {
        bail!(
            "need single function with 6 arguments: bsdf(ix,iy,iz,ox,oy,oz)\n\
             \tor 3 arguments using Dx,Dy,Dz: bsdf(ix,iy,iz)\n{USAGE}"
        );
    }
    opts.check().map_err(|e| anyhow::anyhow!("{e}\n{USAGE}"))?;
    let env = env.unwrap_or_else(BsdfFunction::environment);
    let mut func = BsdfFunction::new(env, &rest[0]).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut argv = vec!["bsdf2ttree".to_string()];
    argv.extend_from_slice(args);
    comments.insert(0, format!("File produced by: {}", command_line(&argv)));

    let mut xml = TreeXml {
        rank,
        comments,
        fields,
        window6,
        unit,
        components: Vec::new(),
    };
    // Field assignments are checked before the sampling.
    xml.to_xml().map_err(|e| anyhow::anyhow!("{e}"))?;

    let mut progress = Progress::new("bsdf2ttree", progress_len);
    let components = ttree_from::from_function(&mut func, &opts, forward, backward, &mut |s, f| {
        progress.report(s, f)
    })
    .map_err(|e| anyhow::anyhow!("{}: {e}", rest[0]));
    progress.done();
    let components = components?;
    for c in &components {
        if c.nans > 0 {
            eprintln!("Warning: BSDF data contains {} NaN values", c.nans);
        }
    }
    xml.components = components;
    let (text, warnings) = xml.to_xml().map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in warnings {
        eprintln!("wrapBSDF: {w}");
    }
    crate::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
