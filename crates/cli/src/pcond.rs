//! `pcond`: RADIANCE's picture conditioning for a display, with its arguments. The work is
//! `daylit_image::pcond`; this reads the switches (`-h -a -v -s -c -w -I -l`, each alone to
//! toggle, with `+`/`1` or `-`/`0` to set or clear), `-i -e -u -d -p -f -m -x`, the picture (a
//! file, or `-` for standard input: a daylit extension), and writes the picture to standard
//! output or the named file.

use daylit_image::pcond::{self, colour, Options, Picture};
use std::process::ExitCode;

const USAGE: &str = "Usage: pcond [-{h|a|v|s|c|l|w}[+-]][-I|-i ffrac][-e ev][-p xr yr xg yg xb yb xw yw|-f mbf.cal|-m rgb.cwp][-u Ldmax][-d Lddyn][-x mapfile] inpic [outpic]";

const DO_ACUITY: u32 = 0o1;
const DO_VEIL: u32 = 0o2;
const DO_HSENS: u32 = 0o4;
const DO_COLOR: u32 = 0o10;
const DO_CWEIGHT: u32 = 0o20;
const DO_PREHIST: u32 = 0o100;
const DO_LINEAR: u32 = 0o200;
const DO_HUMAN: u32 = DO_ACUITY | DO_VEIL | DO_HSENS | DO_COLOR;

/// Runs pcond with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let usage = || anyhow::anyhow!("{USAGE}");
    let mut what = 0u32;
    let mut fixfrac = 0.0;
    let mut opts = Options::default();
    let mut mbcalfile: Option<&str> = None;
    let mut cwarpfile: Option<&str> = None;
    let mut mapfile: Option<&str> = None;
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i] != "-" {
        let a = args[i].as_bytes();
        let flag = match a[1] {
            b'h' => Some(DO_HUMAN),
            b'a' => Some(DO_ACUITY),
            b'v' => Some(DO_VEIL),
            b's' => Some(DO_HSENS),
            b'c' => Some(DO_COLOR),
            b'w' => Some(DO_CWEIGHT),
            b'I' => Some(DO_PREHIST),
            b'l' => Some(DO_LINEAR),
            _ => None,
        };
        if let Some(f) = flag {
            match a.get(2) {
                None => what ^= f,
                Some(b'+' | b'1') => what |= f,
                Some(b'-' | b'0') => what &= !f,
                Some(_) => return Err(usage()),
            }
            i += 1;
            continue;
        }
        let nargs = match a[1] {
            b'p' => 8,
            b'i' | b'e' | b'f' | b'm' | b'u' | b'd' | b'x' => 1,
            _ => return Err(usage()),
        };
        if i + nargs >= args.len() {
            return Err(usage());
        }
        let v = &args[i + 1..=i + nargs];
        match a[1] {
            b'i' => fixfrac = colour::c_atof(&v[0]),
            b'p' => {
                opts.output_primaries = Some(std::array::from_fn(|k| colour::c_atof(&v[k]) as f32));
            }
            b'e' => {
                opts.scalef = colour::c_atof(&v[0]);
                if v[0].starts_with(['+', '-']) {
                    opts.scalef = 2f64.powf(opts.scalef);
                }
                what |= DO_LINEAR;
            }
            b'f' => mbcalfile = Some(&v[0]),
            b'm' => cwarpfile = Some(&v[0]),
            b'u' => {
                opts.ldmax = colour::c_atof(&v[0]);
                if opts.ldmax <= 1e-6 {
                    return Err(usage());
                }
            }
            b'd' => opts.lddyn = colour::c_atof(&v[0]),
            _ => mapfile = Some(&v[0]),
        }
        i += 1 + nargs;
    }
    let fixhist = fixfrac > 1e-6;
    if fixhist && what & DO_PREHIST != 0 {
        anyhow::bail!("only one of -i or -I option");
    }
    let devices = usize::from(mbcalfile.is_some())
        + usize::from(cwarpfile.is_some())
        + usize::from(opts.output_primaries.is_some());
    if devices > 1 {
        anyhow::bail!("only one of -p, -m or -f option supported");
    }
    if i >= args.len() || i + 2 < args.len() {
        return Err(usage());
    }
    opts.acuity = what & DO_ACUITY != 0;
    opts.veil = what & DO_VEIL != 0;
    opts.hsens = what & DO_HSENS != 0;
    opts.colour = what & DO_COLOR != 0;
    opts.cweight = what & DO_CWEIGHT != 0;
    opts.linear = what & DO_LINEAR != 0;
    let input = &args[i];
    let output = args.get(i + 1);
    let uses_stdin = fixhist || what & DO_PREHIST != 0;
    if input == "-" && uses_stdin {
        anyhow::bail!("the picture cannot come from standard input with -i or -I");
    }
    let (name, bytes) = match crate::input::read_operand("pcond", input) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e:#}");
            return Ok(ExitCode::from(2));
        }
    };
    let pic = Picture::decode(&bytes, &name)?;
    if let Some(f) = mbcalfile {
        let text = std::fs::read_to_string(f).map_err(|e| anyhow::anyhow!("{f}: {e}"))?;
        opts.macbeth = Some(colour::Macbeth::parse(&text).map_err(|flags| {
            anyhow::anyhow!("cannot grok macbethcal file \"{f}\" (inpflags==0{flags:o})")
        })?);
    }
    if let Some(f) = cwarpfile {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("pcond: {f}: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let (warp, stopped) = daylit_image::pcond::warp::ColourWarp::parse(&text);
        if stopped {
            eprintln!("{f}: non-number in 3D warp file");
        }
        opts.warp = Some((warp, f.to_string()));
    }
    if uses_stdin {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        if what & DO_PREHIST != 0 {
            opts.histogram = Some(pcond::parse_histogram(&text)?);
        } else {
            opts.fixfrac = fixfrac;
            opts.fixations = pcond::parse_fixations(&text)?;
        }
    }
    let done = pcond::condition(&pic, &opts)?;
    let command = daylit_radfile::header::command_line("pcond", args);
    let out = pcond::encode(&pic, &command, &done);
    // The mapping first: a mapping file that cannot be written leaves no picture either.
    if let Some(f) = mapfile {
        let text: String = done
            .mapping
            .iter()
            .map(|&(w, d)| {
                format!(
                    "{} {}\n",
                    daylit_radfile::printf::c_exp(w, 6),
                    daylit_radfile::printf::c_exp(d, 6)
                )
            })
            .collect();
        crate::output::write_atomic(std::path::Path::new(f), text.as_bytes())?;
    }
    match output {
        Some(f) => crate::output::write_atomic(std::path::Path::new(f), &out)?,
        None => crate::output::print_bytes([out.as_slice()])?,
    }
    Ok(ExitCode::SUCCESS)
}
