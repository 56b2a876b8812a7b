//! `pvalue`: RADIANCE's picture-to-values converter with RADIANCE's arguments, in the forward
//! direction: each pixel as `x y r g b` (`%7d %7d %15.3e…`), or data only (`-d`), brightness
//! (`-b`), one primary (`-pr`/`-pg`/`-pb`), non-interleaved (`-n`), reversed (`-R`), in ASCII,
//! integer (`-di`), byte (`-db`), 16-bit (`-dw`/`-dW`), float (`-df`/`-dF`) or double
//! (`-dd`/`-dD`); `-o` undoes the picture's exposure, `-e` sets one (`±` f-stops), `-g`
//! gamma, `-u` skips repeated pixels, `-h`/`-H` drop the header and resolution string. `-r`
//! turns text, float or double values (RGB, or one brightness with `-b`) back into a picture
//! in RADIANCE's standard order (`-y N +x M`); `-s`, three input files and other orders are
//! refused by name.

use anyhow::{bail, Context};
use daylit_image::filter::brightness;
use daylit_image::HdrImage;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: pvalue [-r [-y N +x M]][-h][-H][-o][-u][-d[a|i|b|w|W|f|F|d|D]][-b|-p{r|g|b}][-n][-R][-e exp][-g gamma] [file]";

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

/// The command line, as pvalue reads it.
struct Options {
    header: bool,
    resolution: bool,
    original: bool,
    unique: bool,
    data_only: bool,
    interleave: bool,
    reverse_order: bool,
    kind: Kind,
    put: Put,
    exposure: f64,
    recorded_exposure: f64,
    gamma: f64,
    /// `-r`: values to a picture.
    to_picture: bool,
    /// `-x`/`-y` for `-r`: width, height, and whether they came as `-y … +x …`.
    size: (usize, usize),
    standard_order: bool,
}

fn number<T: std::str::FromStr>(args: &[String], i: usize, opt: &str) -> anyhow::Result<T> {
    let w = args
        .get(i + 1)
        .with_context(|| format!("pvalue: {opt} needs a value ({USAGE})"))?;
    w.parse()
        .ok()
        .with_context(|| format!("pvalue: {opt} {w}: a number expected"))
}

/// `pvalue` with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = Options {
        header: true,
        resolution: true,
        original: false,
        unique: false,
        data_only: false,
        interleave: true,
        reverse_order: false,
        kind: Kind::Ascii,
        put: Put::All,
        exposure: 1.0,
        recorded_exposure: 1.0,
        gamma: 1.0,
        to_picture: false,
        size: (0, 0),
        standard_order: true,
    };
    let mut i = 0;
    let mut x_first = false;
    while i < args.len() && args[i].len() > 1 && args[i].starts_with(['-', '+']) {
        let a = args[i].as_str();
        let on = a.starts_with('-');
        let b = a.as_bytes();
        match b[1] {
            b'h' => o.header = !on,
            b'H' => o.resolution = !on,
            b'u' => o.unique = on,
            b'o' | b'O' => o.original = on,
            b'b' => o.put = if on { Put::Bright } else { Put::All },
            b'n' => o.interleave = !on,
            b'R' => o.reverse_order = on,
            b'r' => o.to_picture = on,
            b'p' => {
                o.put = match b.get(2) {
                    Some(b'r' | b'R') => Put::Primary(0),
                    Some(b'g' | b'G') => Put::Primary(1),
                    Some(b'b' | b'B') => Put::Primary(2),
                    _ => bail!(
                    "pvalue: {a}: primaries other than r, g and b are not supported by daylit yet"
                ),
                }
            }
            b'd' => {
                o.data_only = on;
                o.kind = match b.get(2) {
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
                if !matches!(o.kind, Kind::Ascii | Kind::Int) {
                    o.data_only = true;
                }
            }
            b'e' => {
                let w = args
                    .get(i + 1)
                    .with_context(|| format!("pvalue: {a} needs a value"))?;
                let v: f64 = number(args, i, a)?;
                let d = if w.starts_with(['+', '-']) {
                    2f64.powf(v)
                } else {
                    v
                };
                o.exposure *= d;
                if on {
                    o.recorded_exposure *= d;
                }
                i += 1;
            }
            b'g' => {
                o.gamma = number(args, i, a)?;
                i += 1;
            }
            b'x' | b'X' | b'y' | b'Y' => {
                let n: usize = number(args, i, a)?;
                let is_x = b[1].eq_ignore_ascii_case(&b'x');
                if is_x {
                    o.size.0 = n;
                    x_first |= o.size.1 == 0;
                } else {
                    o.size.1 = n;
                }
                // Only RADIANCE's standard order, `-y N +x M`, is written.
                o.standard_order &= if is_x { !on } else { on };
                o.resolution = false;
                i += 1;
            }
            b's' => bail!("pvalue: -s (skipping foreign headers) is not supported by daylit yet"),
            _ => bail!("pvalue: unknown option {a} ({USAGE})"),
        }
        i += 1;
    }
    if x_first {
        o.standard_order = false;
    }
    let options = &args[..i];
    let (name, bytes) = crate::input::read_single("pvalue", &args[i..], USAGE)?;
    let out = if o.to_picture {
        values_to_picture(&o, options, &bytes, &name)?
    } else {
        picture_to_values(&o, options, &bytes, &name)?
    };
    let mut so = std::io::stdout().lock();
    match so.write_all(&out).and_then(|_| so.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("pvalue"),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// The forward conversion: a picture's pixels as values.
fn picture_to_values(
    o: &Options,
    options: &[String],
    bytes: &[u8],
    name: &str,
) -> anyhow::Result<Vec<u8>> {
    let (header, resolution, original, unique) = (o.header, o.resolution, o.original, o.unique);
    let (data_only, interleave, reverse_order, kind, put, gamma) = (
        o.data_only,
        o.interleave,
        o.reverse_order,
        o.kind,
        o.put,
        o.gamma,
    );
    let (exposure, recorded_exposure) = (o.exposure, o.recorded_exposure);
    let img = HdrImage::decode(bytes, name).map_err(|e| anyhow::anyhow!("pvalue: {e}"))?;
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
        h += &daylit_radfile::header::command_line("pvalue", options);
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
    Ok(out)
}

/// The reverse conversion (`-r`): values (with or without positions, text or binary, RGB or
/// one brightness) to an RGBE picture in RADIANCE's standard order.
fn values_to_picture(
    o: &Options,
    options: &[String],
    bytes: &[u8],
    name: &str,
) -> anyhow::Result<Vec<u8>> {
    if !o.interleave || matches!(o.put, Put::Primary(_)) {
        bail!("pvalue: -r with -n or one primary is not supported by daylit yet");
    }
    if matches!(o.kind, Kind::Int | Kind::Byte | Kind::Word { .. }) {
        bail!("pvalue: -r from integer, byte or 16-bit values is not supported by daylit yet");
    }
    let mut pos = 0;
    let mut lines: Vec<String> = Vec::new();
    let (mut width, mut height) = o.size;
    let mut standard = o.standard_order;
    let mut program = "RADIANCE".to_string();
    let line_of = |pos: &mut usize| -> anyhow::Result<String> {
        let end = bytes[*pos..]
            .iter()
            .position(|&c| c == b'\n')
            .with_context(|| format!("pvalue: {name}: input ends inside its header"))?;
        let l = String::from_utf8_lossy(&bytes[*pos..*pos + end]).into_owned();
        *pos += end + 1;
        Ok(l)
    };
    if o.header {
        loop {
            let l = line_of(&mut pos)?;
            if l.trim().is_empty() {
                break;
            }
            let t = l.trim_start();
            if let Some(p) = t.strip_prefix("#?") {
                program = p.to_string();
            } else if let Some(v) = t.strip_prefix("NROWS=") {
                height = v.trim().parse().unwrap_or(0);
            } else if let Some(v) = t.strip_prefix("NCOLS=") {
                width = v.trim().parse().unwrap_or(0);
            } else if !(t.starts_with("FORMAT=")
                || t.starts_with("NCOMP=")
                || t.starts_with("BigEndian="))
            {
                lines.push(l);
            }
        }
    }
    if o.resolution && (width == 0 || height == 0) {
        let l = line_of(&mut pos)?;
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.as_slice() {
            ["-Y", h, "+X", x] => {
                (height, width) = (h.parse().unwrap_or(0), x.parse().unwrap_or(0));
                standard = true;
            }
            _ => bail!("pvalue: {name}: resolution string \"{l}\": only -Y N +X M is supported by daylit yet"),
        }
    }
    if width == 0 || height == 0 {
        bail!("pvalue: {name}: missing resolution (give -y N +x M, or a resolution string)");
    }
    if !standard {
        bail!("pvalue: only RADIANCE's standard order (-y N +x M) is supported by daylit yet");
    }
    let per_pixel = if o.put == Put::Bright { 1 } else { 3 };
    let n = width * height;
    let body = &bytes[pos..];
    let values: Vec<f64> = match o.kind {
        Kind::Ascii => {
            let text = String::from_utf8_lossy(body);
            let mut words = text.split_whitespace();
            let mut v = Vec::with_capacity(n * per_pixel);
            for p in 0..n {
                if !o.data_only {
                    words.next();
                    words.next();
                }
                for _ in 0..per_pixel {
                    let w = words.next().with_context(|| {
                        format!("pvalue: {name}: read error at pixel {p} of {n}")
                    })?;
                    v.push(w.parse().with_context(|| {
                        format!("pvalue: {name}: pixel {p}: \"{w}\" is not a number")
                    })?);
                }
            }
            v
        }
        Kind::Float { swap } | Kind::Double { swap } => {
            let size = if matches!(o.kind, Kind::Float { .. }) {
                4
            } else {
                8
            };
            if body.len() < n * per_pixel * size {
                bail!(
                    "pvalue: {name}: read error: {} values for {n} pixels",
                    body.len() / size / per_pixel
                );
            }
            body.chunks_exact(size)
                .take(n * per_pixel)
                .map(|c| match (size, swap) {
                    (4, false) => f64::from(f32::from_le_bytes(c.try_into().expect("4"))),
                    (4, true) => f64::from(f32::from_be_bytes(c.try_into().expect("4"))),
                    (_, false) => f64::from_le_bytes(c.try_into().expect("8")),
                    (_, true) => f64::from_be_bytes(c.try_into().expect("8")),
                })
                .collect()
        }
        _ => unreachable!("refused above"),
    };
    let do_gamma = !(0.95..=1.05).contains(&o.gamma);
    let scale = o.exposure as f32;
    let order: [usize; 3] = if o.reverse_order {
        [2, 1, 0]
    } else {
        [0, 1, 2]
    };
    let mut img = HdrImage::new(width, height);
    for (p, px) in img.pixels.iter_mut().enumerate() {
        let v = &values[p * per_pixel..(p + 1) * per_pixel];
        let mut c = if per_pixel == 1 {
            [v[0] as f32; 3]
        } else {
            [v[order[0]] as f32, v[order[1]] as f32, v[order[2]] as f32]
        };
        if do_gamma {
            c = c.map(|x| f64::from(x).powf(o.gamma) as f32);
        }
        if o.exposure != 1.0 {
            c = c.map(|x| x * scale);
        }
        *px = c;
    }
    img.header = lines;
    img.program = program;
    img.header
        .push(daylit_radfile::header::command_line("pvalue", options));
    if !(0.99..=1.01).contains(&o.recorded_exposure) {
        img.header.push(format!(
            "EXPOSURE={}",
            crate::pfilt::format_e4(o.recorded_exposure)
        ));
    }
    Ok(img.encode(!o.unique))
}
