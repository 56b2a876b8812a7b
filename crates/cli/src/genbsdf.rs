//! `genBSDF`: the Klems BSDF of a fenestration model as RADIANCE 6.0a's genBSDF (a Perl
//! script around rfluxmtx and wrapBSDF) makes it, traced in process by
//! `daylit_coefficients::genbsdf`; the XML goes to standard output. Tensor trees (`-t3`,
//! `-t4`) and `-recover` are refused.

use anyhow::{bail, Context};
use daylit_coefficients::genbsdf::{generate, Model, Options};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "Usage: genBSDF [-n Nproc][-c Nsamp][-W][-t{3|4} Nlog2][-r \"ropts\"][-s \"x=string;y=string\"][-dim xmin xmax ymin ymax zmin zmax][{+|-}C][{+|-}a][{+|-}f][{+|-}b][{+|-}mgf][{+|-}geom units] [input ..]";

/// Applies the words of `-r` (rcontrib options) to the rendering options.
fn render_options(o: &mut Options, words: &[String]) -> anyhow::Result<()> {
    let mut i = 0;
    while i < words.len() {
        let used = o
            .render
            .parse_arg(words, i)
            .map_err(|e| anyhow::anyhow!("-r: {e}"))?;
        if used > 0 {
            i += used;
            continue;
        }
        let w = words[i].as_str();
        match w {
            // genBSDF gives -w- itself, and its own -n and -c after -r (they win).
            "-w" | "-w+" | "-w-" => i += 1,
            "-n" | "-c" => {
                let v = words
                    .get(i + 1)
                    .with_context(|| format!("-r: {w} needs a value"))?;
                v.parse::<usize>()
                    .with_context(|| format!("-r: {w} expects a whole number, found \"{v}\""))?;
                i += 2;
            }
            _ => bail!("-r: {w} is not a rendering option genBSDF can pass to rfluxmtx"),
        }
    }
    Ok(())
}

/// Runs genBSDF with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options {
        command: std::iter::once("genBSDF".to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        ..Default::default()
    };
    let (mut mgf_in, mut geom_out) = (false, true);
    let mut rwords: Vec<String> = Vec::new();
    let mut i = 0;
    let value = |i: usize| -> anyhow::Result<&String> {
        args.get(i + 1)
            .with_context(|| format!("{} needs a value\n{USAGE}", args[i]))
    };
    while i < args.len() {
        let a = args[i].as_str();
        let plus = a.starts_with('+');
        if a.starts_with("-rec") {
            bail!("-recover is not supported: daylit's genBSDF runs in one process and keeps no temporary directory to recover from");
        } else if a.len() >= 2 && (plus || a.starts_with('-')) && a.as_bytes()[1] == b'm' {
            mgf_in = plus;
        } else if a == "-r" {
            rwords.extend(value(i)?.split_whitespace().map(str::to_string));
            i += 1;
        } else if a.len() >= 2 && (plus || a.starts_with('-')) && a.as_bytes()[1] == b'g' {
            geom_out = plus;
            let u = value(i)?;
            if !["meter", "foot", "inch", "centimeter", "millimeter"]
                .iter()
                .any(|x| x.eq_ignore_ascii_case(u))
            {
                bail!("Illegal geometry unit '{u}': must be meter, foot, inch, centimeter, or millimeter");
            }
            o.unit = u.clone();
            i += 1;
        } else if a.len() >= 2 && (plus || a.starts_with('-')) && a.as_bytes()[1] == b'C' {
            o.colour = plus;
        } else if a.len() >= 2 && (plus || a.starts_with('-')) && a.as_bytes()[1] == b'a' {
            // Reciprocity averaging applies to tensor trees only.
        } else if a.len() >= 2 && (plus || a.starts_with('-')) && a.as_bytes()[1] == b'f' {
            o.forward = plus;
        } else if a.len() >= 2 && (plus || a.starts_with('-')) && a.as_bytes()[1] == b'b' {
            o.backward = plus;
        } else if a == "-t" {
            // The culling percentage of tensor trees; checked as genBSDF checks it.
            let v = value(i)?;
            let p: f64 = v
                .parse()
                .with_context(|| format!("-t expects a number, found \"{v}\""))?;
            if p >= 100.0 {
                bail!("Illegal -t culling percentage, must be < 100");
            }
            i += 1;
        } else if a == "-t3" || a == "-t4" {
            bail!("{a}: tensor-tree BSDFs are not in this version of daylit; leave out {a} for a Klems Full matrix");
        } else if a == "-s" {
            o.fields.push(value(i)?.clone());
            i += 1;
        } else if a == "-W" {
            o.window6 = true;
        } else if a == "-c" {
            let v = value(i)?;
            o.samples =
                v.parse().ok().filter(|&n: &usize| n > 0).with_context(|| {
                    format!("-c expects a positive whole number, found \"{v}\"")
                })?;
            i += 1;
        } else if a == "-n" {
            let v = value(i)?;
            o.threads =
                v.parse().ok().filter(|&n: &usize| n > 0).with_context(|| {
                    format!("-n expects a positive whole number, found \"{v}\"")
                })?;
            i += 1;
        } else if a.starts_with("-d") {
            if i + 6 >= args.len() {
                bail!("{USAGE}");
            }
            let mut d = [0.0; 6];
            for (k, x) in d.iter_mut().enumerate() {
                let v = &args[i + 1 + k];
                *x = v
                    .parse()
                    .with_context(|| format!("-dim expects six numbers, found \"{v}\""))?;
            }
            o.dim = Some(d);
            i += 6;
        } else if a.len() >= 2 && (plus || a.starts_with('-')) {
            bail!("unknown option {a}\n{USAGE}");
        } else {
            break;
        }
        i += 1;
    }
    if !o.forward && !o.backward {
        bail!("Must have at least one of +forward or +backward");
    }
    render_options(&mut o, &rwords)?;
    let inputs: Vec<PathBuf> = args[i..].iter().map(PathBuf::from).collect();
    let inputs = if inputs.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        inputs
    };
    if geom_out {
        if !mgf_in {
            bail!("+geom (the default) puts the model as MGF geometry into the XML, which needs rad2mgf, not in this version of daylit; give -geom {} to leave it out", o.unit);
        }
        if args[i..].is_empty() {
            bail!("+mgf requires input file with +geom");
        }
    }
    let model = if mgf_in {
        Model::Mgf(inputs.clone())
    } else {
        Model::Radiance(inputs.clone())
    };
    if geom_out {
        // The MGF input itself, centred on the device as genBSDF places it.
        let mut mgf = String::new();
        for p in &inputs {
            mgf += &std::fs::read_to_string(p)
                .with_context(|| format!("{}: cannot read", p.display()))?;
        }
        o.geometry = Some(mgf);
    }
    let mut out = generate(&model, &o).map_err(|e| anyhow::anyhow!("{e}"))?;
    for w in &out.warnings {
        eprintln!("Warning: {w}");
    }
    for w in &out.wrapped.warnings {
        eprintln!("wrapBSDF: {w}");
    }
    crate::output::print(&std::mem::take(&mut out.wrapped.xml))?;
    Ok(ExitCode::SUCCESS)
}
