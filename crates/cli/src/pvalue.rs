//! `pvalue`: RADIANCE's picture-to-values converter with RADIANCE's arguments, in the forward
//! direction: each pixel as `x y r g b` (`%7d %7d %15.3e…`), or data only (`-d`), brightness
//! (`-b`), one primary (`-pr`/`-pg`/`-pb`), non-interleaved (`-n`), reversed (`-R`), in ASCII,
//! integer (`-di`), byte (`-db`), 16-bit (`-dw`/`-dW`), float (`-df`/`-dF`) or double
//! (`-dd`/`-dD`); `-o` undoes the picture's exposure, `-e` sets one (`±` f-stops), `-g`
//! gamma, `-u` skips repeated pixels, `-h`/`-H` drop the header and resolution string. The
//! reverse conversion (`-r`) and `-s` are refused by name.

use anyhow::{bail, Context};
use daylit_image::filter::brightness;
use daylit_image::HdrImage;
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: pvalue [-h][-H][-o][-u][-d[a|i|b|w|W|f|F|d|D]][-b|-p{r|g|b}][-n][-R][-e exp][-g gamma] [picture]";

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Ascii,
    Int,
    Byte,
    Word { swap: bool },
    Float { swap: bool },
    Double { swap: bool },
}

impl Kind {
    fn format_name(self) -> &'static str {
        match self {
            Kind::Ascii | Kind::Int => "ascii",
            Kind::Byte => "byte",
            Kind::Word { .. } => "16-bit",
            Kind::Float { .. } => "float",
            Kind::Double { .. } => "double",
        }
    }

    /// Appends one value.
    fn put(self, v: f64, last: bool, out: &mut Vec<u8>) {
        match self {
            Kind::Ascii => {
                let mut s = String::new();
                daylit_matrix::format_e(v, 3, &mut s);
                out.extend_from_slice(format!("{s:>15}").as_bytes());
                out.push(if last { b'\n' } else { b' ' });
            }
            Kind::Int => {
                out.extend_from_slice(((v * 256.0) as i64).to_string().as_bytes());
                out.push(if last { b'\n' } else { b' ' });
            }
            Kind::Byte => out.push(((v * 256.0) as i64).clamp(0, 255) as u8),
            Kind::Word { swap } => {
                let w = ((v * 65536.0) as i64).clamp(0, 65535) as u16;
                out.extend_from_slice(&if swap {
                    w.to_be_bytes()
                } else {
                    w.to_le_bytes()
                });
            }
            Kind::Float { swap } => {
                let f = v as f32;
                out.extend_from_slice(&if swap {
                    f.to_be_bytes()
                } else {
                    f.to_le_bytes()
                });
            }
            Kind::Double { swap } => {
                out.extend_from_slice(&if swap {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                });
            }
        }
    }
}

/// What each pixel becomes.
#[derive(Clone, Copy, PartialEq)]
enum Put {
    All,
    Bright,
    Primary(usize),
}

/// `pvalue` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (mut header, mut resolution, mut original, mut unique) = (true, true, false, false);
    let (mut data_only, mut interleave, mut reverse_order) = (false, true, false);
    let mut kind = Kind::Ascii;
    let mut put = Put::All;
    let mut exposure = 1.0f64;
    let mut recorded_exposure = 1.0f64;
    let mut gamma = 1.0f64;
    let mut i = 0;
    while i < args.len() && args[i].len() > 1 && args[i].starts_with(['-', '+']) {
        let a = args[i].as_str();
        let on = a.starts_with('-');
        let b = a.as_bytes();
        match b[1] {
            b'h' => header = !on,
            b'H' => resolution = !on,
            b'u' => unique = on,
            b'o' | b'O' => original = on,
            b'b' => put = if on { Put::Bright } else { Put::All },
            b'n' => interleave = !on,
            b'R' => reverse_order = on,
            b'p' => put = match b.get(2) {
                Some(b'r' | b'R') => Put::Primary(0),
                Some(b'g' | b'G') => Put::Primary(1),
                Some(b'b' | b'B') => Put::Primary(2),
                _ => bail!(
                    "pvalue: {a}: primaries other than r, g and b are not supported by daylit yet"
                ),
            },
            b'd' => {
                data_only = on;
                kind = match b.get(2) {
                    None | Some(b'a') => Kind::Ascii,
                    Some(b'i') => Kind::Int,
                    Some(b'b') => Kind::Byte,
                    Some(b'w') => Kind::Word { swap: false },
                    Some(b'W') => Kind::Word { swap: true },
                    Some(b'f') => Kind::Float { swap: false },
                    Some(b'F') => Kind::Float { swap: true },
                    Some(b'd') => Kind::Double { swap: false },
                    Some(b'D') => Kind::Double { swap: true },
                    _ => bail!("pvalue: unknown option {a} ({USAGE})"),
                };
                if !matches!(kind, Kind::Ascii | Kind::Int) {
                    data_only = true;
                }
            }
            b'e' => {
                let w = args
                    .get(i + 1)
                    .with_context(|| format!("pvalue: {a} needs a value"))?;
                let v: f64 = w
                    .parse()
                    .with_context(|| format!("pvalue: {a} {w}: a number expected"))?;
                let d = if w.starts_with(['+', '-']) {
                    2f64.powf(v)
                } else {
                    v
                };
                exposure *= d;
                if on {
                    recorded_exposure *= d;
                }
                i += 1;
            }
            b'g' => {
                let w = args
                    .get(i + 1)
                    .with_context(|| format!("pvalue: {a} needs a value"))?;
                gamma = w
                    .parse()
                    .with_context(|| format!("pvalue: {a} {w}: a number expected"))?;
                i += 1;
            }
            b'r' => bail!("pvalue: -r (values to a picture) is not supported by daylit yet"),
            b's' => bail!("pvalue: -s (skipping foreign headers) is not supported by daylit yet"),
            _ => bail!("pvalue: unknown option {a} ({USAGE})"),
        }
        i += 1;
    }
    let options = &args[..i];
    let (name, bytes) = match &args[i..] {
        [] => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .context("pvalue: cannot read standard input")?;
            ("<stdin>".to_string(), b)
        }
        [f] => (
            f.clone(),
            std::fs::read(f).with_context(|| format!("pvalue: can't open file \"{f}\""))?,
        ),
        _ => bail!("pvalue: bad # file arguments ({USAGE})"),
    };
    let img = HdrImage::decode(&bytes, &name).map_err(|e| anyhow::anyhow!("pvalue: {e}"))?;
    let mut scale = [exposure; 3];
    let mut out = Vec::new();
    if header {
        let mut h = format!("#?{}\n", img.program);
        for l in &img.header {
            let t = l.trim_start();
            if original && (t.starts_with("EXPOSURE=") || t.starts_with("COLORCORR=")) {
                continue;
            }
            h += l;
            h.push('\n');
        }
        h += &crate::output::command_line("pvalue", options);
        h.push('\n');
        if data_only {
            h += &format!("NCOMP={}\n", if put == Put::All { 3 } else { 1 });
            if !resolution && !unique {
                h += &format!("NCOLS={}\nNROWS={}\n", img.width, img.height);
            }
        }
        if !(0.99..=1.01).contains(&recorded_exposure) {
            h += &format!("EXPOSURE={}\n", crate::pfilt::format_e4(recorded_exposure));
        }
        match kind {
            Kind::Word { swap: true }
            | Kind::Float { swap: true }
            | Kind::Double { swap: true } => h += "BigEndian=1\n",
            Kind::Word { .. } | Kind::Float { .. } | Kind::Double { .. } => h += "BigEndian=0\n",
            _ => {}
        }
        h += &format!("FORMAT={}\n\n", kind.format_name());
        out.extend_from_slice(h.as_bytes());
    }
    if original {
        scale = scale.map(|s| s / img.exposure);
    }
    // RADIANCE keeps the exposure as a float colour.
    let scale = scale.map(|s| f64::from(s as f32));
    if resolution {
        out.extend_from_slice(format!("-Y {:8} +X {:8}\n", img.height, img.width).as_bytes());
    }
    let order: [usize; 3] = if reverse_order { [2, 1, 0] } else { [0, 1, 2] };
    let passes: Vec<Put> = match (put, interleave) {
        (Put::All, false) => (0..3).map(Put::Primary).collect(),
        (p, _) => vec![p],
    };
    let do_exposure = scale.iter().any(|&s| s != 1.0);
    let do_gamma = !(0.95..=1.05).contains(&gamma);
    for pass in passes {
        let mut last = [0.0f32; 3];
        for row in 0..img.height {
            for col in 0..img.width {
                let mut c = img.get(col, row);
                if unique {
                    if c == last {
                        continue;
                    }
                    last = c;
                }
                if do_exposure {
                    for k in 0..3 {
                        c[k] = (f64::from(c[k]) * scale[k]) as f32;
                    }
                }
                if do_gamma {
                    c = c.map(|v| f64::from(v).powf(1.0 / gamma) as f32);
                }
                if !data_only {
                    let y = img.height - 1 - row;
                    out.extend_from_slice(format!("{col:7} {y:7} ").as_bytes());
                }
                match pass {
                    Put::All => {
                        for (k, &o) in order.iter().enumerate() {
                            kind.put(f64::from(c[o]), k == 2, &mut out);
                        }
                    }
                    Put::Bright => kind.put(brightness(c), true, &mut out),
                    Put::Primary(p) => kind.put(f64::from(c[p]), true, &mut out),
                }
            }
        }
    }
    let mut so = std::io::stdout().lock();
    match so.write_all(&out).and_then(|_| so.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("pvalue"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
