//! `wrapBSDF`: Klems matrices or tensor-tree data wrapped into a WindowElement XML file, as
//! RADIANCE 6.0a's wrapBSDF writes it (`daylit_bsdf::write` does the work). Inputs are files,
//! `-` (standard input, once) or `!command`; the XML goes to standard output, all of it or
//! nothing.

use anyhow::{bail, Context};
use daylit_bsdf::write::{DataBlock, Direction, Spectrum, Wrap, WrapBasis, LEGAL_UNITS};
use std::process::ExitCode;

const USAGE: &str = "Usage: wrapBSDF [-W][-c][-a {kf|kh|kq|t3|t4}][-u unit][-g geom][-f 'x=string;y=string'] [-s spectr][-tb inp][-tf inp][-rb inp][-rf inp][-C comm] [input.xml]";

/// The most comments RADIANCE takes.
const MAX_COMMENTS: usize = 80;
/// The most data files and field assignments RADIANCE takes.
const MAX_FILES: usize = 20;
const MAX_ASSIGN: usize = 16;

fn text_of(spec: &str) -> anyhow::Result<(String, String)> {
    let (name, bytes) = crate::input::read_operand("wrapBSDF", spec)?;
    let text = String::from_utf8(bytes).with_context(|| format!("{name}: not text (UTF-8)"))?;
    Ok((name, text))
}

/// Runs wrapBSDF with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut w = Wrap::default();
    let mut spectrum = Spectrum::Visible;
    let mut used_stdin = false;
    let mut units_set = false;
    let mut unlink = 0;
    let mut data_specs: Vec<String> = Vec::new();
    let mut mgf_spec: Option<String> = None;
    let mut i = 0;
    let next = |i: &mut usize| -> anyhow::Result<String> {
        *i += 1;
        match args.get(*i) {
            Some(v) => Ok(v.clone()),
            None => bail!("{} needs an argument\n{USAGE}", args[*i - 1]),
        }
    };
    let mut take_stdin = |spec: &str| -> anyhow::Result<()> {
        if spec == "-" {
            if used_stdin {
                bail!("only one input may come from standard input\n{USAGE}");
            }
            used_stdin = true;
        }
        Ok(())
    };
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        let b = a.as_bytes();
        match b.get(1) {
            None => break,
            Some(b'W') => w.window6 = true,
            Some(b'f') => {
                let v = next(&mut i)?;
                if w.fields.len() >= MAX_ASSIGN {
                    bail!("too many -f options");
                }
                w.fields.push(v);
            }
            Some(b'u') => {
                let v = next(&mut i)?;
                if units_set {
                    bail!("only one -u option allowed");
                }
                units_set = true;
                // RADIANCE accepts any part of the list.
                if !LEGAL_UNITS.contains(v.as_str()) {
                    bail!("-u unit must be one of ({LEGAL_UNITS})");
                }
                w.unit = Some(v);
            }
            Some(b'U') => unlink = 1 + usize::from(b.get(2) == Some(&b'U')),
            Some(b'a') => {
                let v = next(&mut i)?;
                if w.basis.is_some() {
                    bail!("only one -a option allowed");
                }
                w.basis = Some(
                    WrapBasis::from_flag(&v)
                        .with_context(|| format!("bad angle basis '{v}'\n{USAGE}"))?,
                );
            }
            Some(b'c') => w.correct_solid_angle = true,
            Some(b'C') => {
                let v = next(&mut i)?;
                if w.comments.len() >= MAX_COMMENTS {
                    bail!("too many comments");
                }
                if v.contains("-->") {
                    bail!("illegal character in comment");
                }
                w.comments.push(v);
            }
            Some(b't') | Some(b'r') => {
                let direction = match a.as_str() {
                    "-tf" => Direction::TransmissionFront,
                    "-tb" => Direction::TransmissionBack,
                    "-rf" => Direction::ReflectionFront,
                    "-rb" => Direction::ReflectionBack,
                    _ => bail!("bad option {a}\n{USAGE}"),
                };
                let v = next(&mut i)?;
                if w.blocks.len() >= MAX_FILES {
                    bail!("too many data files");
                }
                take_stdin(&v)?;
                let (source, text) = text_of(&v)?;
                data_specs.push(v);
                w.blocks.push(DataBlock {
                    direction,
                    spectrum: spectrum.clone(),
                    source,
                    text,
                });
            }
            Some(b's') => {
                let v = next(&mut i)?;
                if v == "-" {
                    bail!("cannot read spectra from stdin");
                }
                spectrum = Spectrum::from_arg(&v);
            }
            Some(b'g') => {
                let v = next(&mut i)?;
                if w.geometry.is_some() {
                    bail!("only one -g option allowed");
                }
                take_stdin(&v)?;
                w.geometry = Some(text_of(&v)?.1);
                mgf_spec = Some(v);
            }
            _ => bail!("bad option {a}\n{USAGE}"),
        }
        i += 1;
    }
    match &args[i.min(args.len())..] {
        [] => {}
        [x] if !w.window6 => {
            take_stdin(x)?;
            w.input = Some(xml_input(x)?);
        }
        _ => bail!("only one XML input allowed\n{USAGE}"),
    }
    let out = w.write().map_err(|e| anyhow::anyhow!("{e}"))?;
    for m in &out.warnings {
        eprintln!("{m}");
    }
    crate::output::print(&out.xml)?;
    // Files only, as RADIANCE removes them: not standard input, not commands.
    let removable = |s: &String| s != "-" && !s.starts_with('!');
    if unlink > 0 {
        for f in data_specs.iter().filter(|s| removable(s)) {
            let _ = std::fs::remove_file(f);
        }
    }
    if unlink > 1 {
        if let Some(f) = mgf_spec.filter(removable) {
            let _ = std::fs::remove_file(f);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The XML to start from: standard input, a command, or a file found as RADIANCE finds it
/// (the RAYPATH for a bare name); RADIANCE's two templates are built in.
fn xml_input(spec: &str) -> anyhow::Result<(String, String)> {
    if spec == "-" || spec.starts_with('!') {
        let (name, text) = text_of(spec)?;
        return Ok((text, name));
    }
    let found = if spec.contains('/') {
        Some(std::path::PathBuf::from(spec)).filter(|p| p.exists())
    } else {
        daylit_cal::RayPath::from_env().find(spec)
    };
    match found {
        Some(p) => {
            let name = p.display().to_string();
            let text =
                std::fs::read_to_string(&p).with_context(|| format!("cannot load XML '{name}'"))?;
            Ok((text, name))
        }
        None if spec == "minimalBSDFt.xml" => Ok((
            daylit_bsdf::write::MINIMAL_TEMPLATE.to_string(),
            spec.to_string(),
        )),
        None if spec == "WINDOW6BSDFt.xml" => Ok((
            daylit_bsdf::write::WINDOW6_TEMPLATE.to_string(),
            spec.to_string(),
        )),
        None => bail!("cannot find XML file named '{spec}'"),
    }
}
