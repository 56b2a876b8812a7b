//! `robjutil`: Wavefront OBJ files cleaned (degenerate and duplicate faces removed), selected
//! by group or material, stripped of texture coordinates or normals, coalesced, triangulated
//! and transformed, written as OBJ or RADIANCE scene text as RADIANCE's robjutil writes them
//! (`daylit_scene::objutil` does the work). Errors write nothing: exit 2 for a file that
//! cannot be read (as RADIANCE's system errors), 1 for the rest.

use daylit_radfile::header::command_line;
use daylit_radfile::scan::atof;
use daylit_scene::objutil::{run, ObjScene, Options};
use daylit_scene::xform::parse_transform;
use std::process::ExitCode;

const USAGE: &str = "Usage: robjutil [options] [input.obj ..]
Available options:
\t+/-r\t\t\t# Radiance scene output on/off
\t+/-v\t\t\t# on/off verbosity (progress reports)
\t+/-g name\t\t# save/delete group
\t+/-m name\t\t# save/delete faces with material
\t+/-t\t\t\t# keep/remove texture coordinates
\t+/-n\t\t\t# keep/remove vertex normals
\t-c epsilon\t\t# coalesce vertices within epsilon
\t+T\t\t\t# turn all faces into triangles
\t-x 'xf spec'\t# apply the quoted transform";

/// The most names one `+/-g` or `+/-m` list may hold (RADIANCE's limit).
const MAX_NAMES: usize = 64;

fn fail(msg: &str) -> anyhow::Result<ExitCode> {
    eprintln!("robjutil: {msg}");
    Ok(ExitCode::FAILURE)
}

/// Runs robjutil with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options::default();
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with(['-', '+'])) {
        let plus = a.starts_with('+');
        let mut value = |what: &str| match args.get(i + 1) {
            Some(v) => {
                i += 1;
                Ok(v.clone())
            }
            None => Err(format!("option {a} needs {what}")),
        };
        match a.as_bytes().get(1) {
            Some(b'v') => o.verbose = plus,
            Some(b'r') => o.radiance = plus,
            Some(b'T') => o.triangulate = plus,
            Some(b't') => o.remove_texture = !plus,
            Some(b'n') => o.remove_normals = !plus,
            Some(c @ (b'g' | b'm')) => {
                let (list, what) = if *c == b'g' {
                    (&mut o.groups, "group")
                } else {
                    (&mut o.materials, "material")
                };
                let name = match value(&format!("a {what} name")) {
                    Ok(n) => n,
                    Err(e) => return fail(&e),
                };
                let (keep, names) = list.get_or_insert_with(|| (plus, Vec::new()));
                if *keep != plus {
                    let c = *c as char;
                    return fail(&format!("-{c} and +{c} are mutually exclusive"));
                }
                if names.len() >= MAX_NAMES {
                    return fail(&format!("too many {what}s"));
                }
                names.push(name);
            }
            Some(b'c') => match value("an epsilon") {
                Ok(e) => o.epsilon = Some(atof(&e)),
                Err(e) => return fail(&e),
            },
            Some(b'x') => {
                if o.transform.is_some() {
                    return fail("only one '-x' option allowed");
                }
                let spec = match value("a transform") {
                    Ok(s) => s,
                    Err(e) => return fail(&e),
                };
                let words: Vec<String> = spec.split_ascii_whitespace().map(String::from).collect();
                let mut k = 0;
                let loc = daylit_scene::Loc::new("-x".into(), 1, 1);
                match parse_transform(&words, &mut k, &loc) {
                    Ok(xf) if !words.is_empty() && k == words.len() => {
                        o.transform = Some((xf, words))
                    }
                    Ok(_) => return fail(&format!("transform error: cannot apply \"{spec}\"")),
                    Err(e) => return fail(&format!("transform error: {e}")),
                }
            }
            _ => {
                eprintln!("robjutil: unknown option: {a}\n{USAGE}");
                return Ok(ExitCode::FAILURE);
            }
        }
        i += 1;
    }
    let mut sc = ObjScene::new();
    let inputs: Vec<Option<&String>> = if i == args.len() {
        vec![None]
    } else {
        args[i..].iter().map(Some).collect()
    };
    for input in inputs {
        let (name, bytes) = match input {
            None => {
                if o.verbose {
                    eprintln!("Loading scene from standard input...");
                }
                let mut b = Vec::new();
                if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut b) {
                    eprintln!("robjutil: <stdin>: cannot read: {e}");
                    return Ok(ExitCode::from(2));
                }
                ("<stdin>".to_string(), b)
            }
            Some(f) => {
                if o.verbose {
                    eprintln!("Loading scene from \"{f}\"...");
                }
                if f.starts_with('!') {
                    // RADIANCE runs a `!command` input through the shell; so does daylit.
                    match crate::input::read_operand("robjutil", f) {
                        Ok(r) => r,
                        Err(e) => return fail(&format!("{e:#}")),
                    }
                } else {
                    match std::fs::read(f) {
                        Ok(b) => (f.clone(), b),
                        Err(e) => {
                            eprintln!("robjutil: {f}: cannot open for reading: {e}");
                            return Ok(ExitCode::from(2));
                        }
                    }
                }
            }
        };
        match sc.load(&bytes, &name) {
            Ok(l) if !l.unrecognized.is_empty() => {
                let mut kinds = l.unrecognized.clone();
                kinds.sort();
                kinds.dedup();
                eprintln!(
                    "robjutil: warning: {name}: {} statements not understood, passed over ({})",
                    l.unrecognized.len(),
                    kinds.join(", ")
                );
            }
            Ok(_) => {}
            Err(e) => return fail(&e),
        }
    }
    let body = run(&mut sc, &o);
    let mut out = String::from("# File processed by: ");
    out.push_str(&command_line("robjutil", args));
    out.push('\n');
    out.push_str(&body);
    crate::output::print(&out)?;
    if o.verbose {
        eprintln!("Done.");
    }
    Ok(ExitCode::SUCCESS)
}
