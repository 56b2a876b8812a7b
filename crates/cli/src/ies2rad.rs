//! `ies2rad`: IES LM-63 luminaire files to RADIANCE scene text and data files, with
//! RADIANCE's options (`daylit_scene::ies2rad` does the conversion). Each file's outputs are
//! written whole or not at all.

use anyhow::{bail, Context};
use daylit_scene::ies2rad::{self, LampColor, LampTable, Options, BUILTIN_LAMP_TABLE};
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: ies2rad [-l libdir][-p prefdir][-f lampdat][-t lamp|default][-u lamp][-c r g b][-m mult][-i rad][-d{m|c|f|i}[/div]][-o outname][-s][-g] [input.ies ...]";

/// `-d`: the units' name and output units per metre.
fn units(opt: &str) -> Option<(String, f64)> {
    let b = opt.as_bytes();
    let letter = *b.get(2)?;
    let rest = &opt[3..];
    let div = match rest.as_bytes().first() {
        None => 1.0,
        Some(b'/') => Some(daylit_radfile::scan::atof(&rest[1..])).filter(|d| *d > 1e-6)?,
        Some(_) => return None,
    };
    let near = |v: f64| (div - v).abs() <= 1e-6;
    Some(match letter {
        b'c' if near(10.0) => ("millimeters".into(), 100.0 * div),
        b'c' => (format!("centimeters{rest}"), 100.0 * div),
        b'm' if near(1000.0) => ("millimeters".into(), div),
        b'm' if near(100.0) => ("centimeters".into(), div),
        b'm' => (format!("meters{rest}"), div),
        b'i' => (format!("inches{rest}"), div * (12.0 / 0.3048)),
        b'f' if near(12.0) => ("inches".into(), div / 0.3048),
        b'f' => (format!("feet{rest}"), div / 0.3048),
        _ => return None,
    })
}

/// The lamp table `name`: on the RAYPATH (or as a path), else daylit's own `lamp.tab`;
/// `None` when neither is there (ies2rad then uses the default colour).
fn lamp_table(name: &str) -> anyhow::Result<Option<LampTable>> {
    let found = if name.contains('/') {
        Some(name.into()).filter(|p: &std::path::PathBuf| p.exists())
    } else {
        daylit_cal::RayPath::from_env().find(name)
    };
    let table = match found {
        Some(p) => {
            let text = std::fs::read_to_string(&p)
                .with_context(|| format!("cannot read lamp table {}", p.display()))?;
            LampTable::parse(&text, &p.display().to_string())
        }
        None if name == "lamp.tab" => LampTable::parse(BUILTIN_LAMP_TABLE, "lamp.tab (built in)"),
        None => return Ok(None),
    };
    table.map(Some).map_err(anyhow::Error::msg)
}

/// Runs ies2rad with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut opts = Options::default();
    let (mut lampdat, mut lamptype, mut deflamp) = ("lamp.tab".to_string(), None, None);
    let mut defcolor = [1.0f32; 3];
    let (mut outfile, mut to_stdout) = (None, false);
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        let a = args[i].as_str();
        let value = |k: usize| -> anyhow::Result<String> {
            args.get(i + k)
                .cloned()
                .with_context(|| format!("option {a} needs a value\n{USAGE}"))
        };
        let atof = |s: String| daylit_radfile::scan::atof(&s);
        match a.as_bytes().get(1) {
            Some(b'd') => {
                let (name, m2o) = units(a).with_context(|| format!("bad option: {a}\n{USAGE}"))?;
                opts.units = name;
                opts.meters2out = m2o;
            }
            Some(b'l') => opts.libdir = Some(value(1)?),
            Some(b'p') => opts.prefdir = Some(value(1)?),
            Some(b'f') => lampdat = value(1)?,
            Some(b'o') => outfile = Some(value(1)?),
            Some(b's') => to_stdout = !to_stdout,
            Some(b'i') => opts.illum_radius = atof(value(1)?),
            Some(b'g') => {}
            Some(b't') => lamptype = Some(value(1)?),
            Some(b'u') => deflamp = Some(value(1)?),
            Some(b'c') => {
                for (k, c) in defcolor.iter_mut().enumerate() {
                    *c = atof(value(k + 1)?) as f32;
                }
                i += 2;
            }
            Some(b'm') => opts.multiplier = atof(value(1)?),
            _ => bail!("bad option: {a}\n{USAGE}"),
        }
        if matches!(
            a.as_bytes()[1],
            b'l' | b'p' | b'f' | b'o' | b'i' | b't' | b'u' | b'c' | b'm'
        ) {
            i += 1;
        }
        i += 1;
    }
    // The command line as ies2rad records it: the program and its options.
    let argv0 = std::env::args()
        .next()
        .filter(|a| ies2rad::file_name(a) == "ies2rad")
        .unwrap_or_else(|| "ies2rad".into());
    let command: Vec<String> = std::iter::once(argv0)
        .chain(args[..i].iter().cloned())
        .collect();
    let lamp = lamp_choice(&lampdat, lamptype.as_deref(), deflamp.as_deref(), defcolor)?;
    let inputs = &args[i..];
    let jobs: Vec<(Option<&str>, String)> = match (&outfile, inputs.len()) {
        (Some(o), 0) => vec![(None, o.clone())],
        (Some(o), 1) => vec![(Some(inputs[0].as_str()), o.clone())],
        (Some(_), _) => bail!("single input file required (-o names one output)"),
        (None, 0) => {
            bail!("missing output file specification (give an IES file, or -o with standard input)")
        }
        (None, n) if to_stdout && n > 1 => bail!("single input file required (-s)"),
        (None, _) => inputs
            .iter()
            .map(|f| {
                (
                    Some(f.as_str()),
                    ies2rad::strip_extension(ies2rad::file_name(f)),
                )
            })
            .collect(),
    };
    let mut status = ExitCode::SUCCESS;
    for (input, outname) in jobs {
        if let Err(e) = convert_one(input, &outname, &command, &opts, &lamp, to_stdout) {
            eprintln!("ies2rad: {e:#}");
            status = ExitCode::FAILURE;
        }
    }
    Ok(status)
}

/// The lamp colour rule of `-f`, `-t`, `-u` and `-c`.
fn lamp_choice(
    lampdat: &str,
    lamptype: Option<&str>,
    deflamp: Option<&str>,
    mut default: [f32; 3],
) -> anyhow::Result<LampColor> {
    if lamptype == Some("default") && deflamp.is_none() {
        return Ok(LampColor::Fixed(default));
    }
    let Some(table) = lamp_table(lampdat)? else {
        eprintln!("ies2rad: {lampdat}: warning - no lamp data");
        return Ok(LampColor::Fixed(default));
    };
    if let Some(d) = deflamp {
        match table.find(d) {
            Some(l) => default = l.rgb,
            None => eprintln!("ies2rad: {d}: warning - unknown default lamp type"),
        }
    }
    Ok(match lamptype {
        Some("default") => LampColor::Fixed(default),
        Some(t) => match table.find(t) {
            Some(l) => LampColor::Fixed(l.rgb),
            None => {
                eprintln!("ies2rad: {t}: warning - unknown lamp type");
                LampColor::Fixed(default)
            }
        },
        None => LampColor::Table { table, default },
    })
}

/// Converts one file and writes its outputs.
fn convert_one(
    input: Option<&str>,
    outname: &str,
    command: &[String],
    opts: &Options,
    lamp: &LampColor,
    to_stdout: bool,
) -> anyhow::Result<()> {
    let text = match input {
        Some(p) => std::fs::read(p).with_context(|| format!("cannot read {p}"))?,
        None => {
            let mut b = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
                .context("cannot read standard input")?;
            b
        }
    };
    let c =
        ies2rad::convert(&text, input, outname, command, opts, lamp).map_err(anyhow::Error::msg)?;
    for w in &c.warnings {
        eprintln!("ies2rad: {w}");
    }
    for (path, data) in &c.files {
        crate::output::write_atomic(Path::new(path), data.as_bytes())?;
    }
    if to_stdout {
        crate::output::print_bytes([c.rad.as_slice()])
    } else {
        crate::output::write_atomic(Path::new(&opts.full_name(outname, ".rad")), &c.rad)
    }
}
