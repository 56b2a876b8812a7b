//! `rcode_depth`, `rcode_norm` and `rcode_ident`: RADIANCE's encoded depth, normal and
//! identifier maps (`daylit_image::codes`) with RADIANCE's arguments. Encoding reads values
//! (ascii, float or double; identifiers split at a separator) after an optional header and
//! resolution line, as rtrace writes them, and writes the header (input lines passed on, the
//! command line, `REFDEPTH=`, `FORMAT=` padded in a file as RADIANCE pads it), the resolution
//! line and the codes. Decoding (`-r`; `-p` for world points from the depth map's view)
//! writes every pixel, or with `-i` the pixels whose x (from the left) and y (from the bottom)
//! are read from standard input. An output file is written whole or not at all; with `-i`
//! and standard output, results are written as the positions come (`-u` flushes each).

use anyhow::{anyhow, bail, Context};
use daylit_image::codes::{self, IdTable, Resolution};
use std::io::{BufRead, Write};
use std::process::ExitCode;

const DEPTH_USAGE: &str = "Usage: rcode_depth [-d ref_depth/unit][-h[io]][-H[io]][-f[afd]][-x xr -y yr] [input [output.dpt]]\n   Or: rcode_depth {-r|-p} [-i][-u][-h[io]][-H[io]][-f[afd]] [input.dpt [output]]";
const NORM_USAGE: &str = "Usage: rcode_norm [-h[io]][-H[io]][-f[afd]][-x xr -y yr] [input [output.nrm]]\n   Or: rcode_norm -r [-i][-u][-h[io]][-H[io]][-f[afd]] [input.nrm [output]]";
const IDENT_USAGE: &str = "Usage: rcode_ident [-8|-16|-24][-h][-tS][-x xr -y yr] [input.txt [output.idx]]\n   Or: rcode_ident -r [-i][-u][-h][-H][-l][-n][-tS] input.idx [output.txt]";

/// An input read whole, and how far it has been read.
struct Source {
    name: String,
    bytes: Vec<u8>,
    pos: usize,
    stdin: bool,
}

impl Source {
    fn open(program: &str, file: Option<&String>) -> anyhow::Result<Source> {
        match file {
            None => {
                let (name, bytes) = crate::input::read_operand(program, "-")?;
                Ok(Source {
                    name,
                    bytes,
                    pos: 0,
                    stdin: true,
                })
            }
            Some(f) => {
                let bytes = std::fs::read(f)
                    .map_err(|_| anyhow!("{program}: {f}: cannot open for reading"))?;
                Ok(Source {
                    name: f.clone(),
                    bytes,
                    pos: 0,
                    stdin: false,
                })
            }
        }
    }

    /// The header's lines (without newlines, the `#?` line included) as RADIANCE's
    /// `getheader` reads them: the first byte printable, lines up to an empty one.
    fn header(&mut self) -> Option<Vec<String>> {
        let first = *self.bytes.get(self.pos)?;
        if !(first == b' ' || first.is_ascii_graphic()) {
            return None;
        }
        let mut lines = Vec::new();
        loop {
            let rest = &self.bytes[self.pos..];
            let len = rest.iter().position(|&b| b == b'\n')?;
            let line = &rest[..len];
            self.pos += len + 1;
            if line.is_empty() || line == b"\r" {
                return Some(lines);
            }
            lines.push(String::from_utf8_lossy(line).into_owned());
        }
    }

    /// A resolution line.
    fn resolution(&mut self) -> Option<Resolution> {
        let rest = &self.bytes[self.pos..];
        let len = rest.iter().take(256).position(|&b| b == b'\n')?;
        let r = Resolution::parse(&String::from_utf8_lossy(&rest[..len]))?;
        self.pos += len + 1;
        Some(r)
    }

    /// The next `n` bytes, if there are that many.
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let b = self.bytes.get(self.pos..self.pos + n)?;
        self.pos += n;
        Some(b)
    }
}

/// Where results go: an output file (written whole at the end) or standard output.
struct Sink {
    file: Option<String>,
    buf: Vec<u8>,
    /// Write to standard output as results come (pixel queries).
    stream: bool,
}

impl Sink {
    fn new(file: Option<&String>) -> Sink {
        Sink {
            file: file.cloned(),
            buf: Vec::new(),
            stream: false,
        }
    }

    /// Whether RADIANCE would pad `FORMAT=` (its output is a file).
    fn is_file(&self) -> bool {
        self.file.is_some() || crate::output::stdout_is_file()
    }

    /// Sends what is buffered on when streaming (and flushes it when `flush`).
    fn push(&mut self, flush: bool) -> anyhow::Result<()> {
        if self.stream && self.file.is_none() {
            let mut o = std::io::stdout().lock();
            o.write_all(&self.buf).context("write error on output")?;
            if flush {
                o.flush().context("write error on output")?;
            }
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> anyhow::Result<ExitCode> {
        match &self.file {
            Some(f) => crate::output::write_atomic(std::path::Path::new(f), &self.buf)?,
            None => {
                self.stream = true;
                self.push(true)?;
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The `FORMAT=` line as written at `pos` of the output.
fn format_line(name: &str, pos: usize, pad: bool) -> String {
    daylit_matrix::write::format_line(name, pos, pad)
}

fn endian_line() -> &'static str {
    if cfg!(target_endian = "big") {
        "BigEndian=1\n"
    } else {
        "BigEndian=0\n"
    }
}

/// Header and resolution flags of rcode_depth and rcode_norm (`-h[io]`, `-H[io]`).
#[derive(Clone, Copy)]
struct Flags {
    head_in: bool,
    head_out: bool,
    res_in: bool,
    res_out: bool,
}

/// Options shared by rcode_depth and rcode_norm.
struct CodecArgs {
    flags: Flags,
    format: u8,
    decode: bool,
    points: bool,
    by_pixel: bool,
    unbuffered: bool,
    xres: i64,
    yres: i64,
    depth_unit: Option<String>,
    /// Index of the first file argument.
    first_file: usize,
}

fn parse_codec_args(program: &str, args: &[String], usage: &str) -> anyhow::Result<CodecArgs> {
    let depth = program == "rcode_depth";
    let usage_err = || anyhow!("{program}: bad arguments\n{usage}");
    let mut c = CodecArgs {
        flags: Flags {
            head_in: true,
            head_out: true,
            res_in: true,
            res_out: true,
        },
        format: b'a',
        decode: false,
        points: false,
        by_pixel: false,
        unbuffered: false,
        xres: 0,
        yres: 0,
        depth_unit: None,
        first_file: 0,
    };
    let mut a = 0;
    while a < args.len() && args[a].starts_with('-') {
        let b = args[a].as_bytes();
        let value = |a: usize| args.get(a + 1).ok_or_else(usage_err);
        match b.get(1) {
            Some(b'd') if depth => {
                let unit = value(a)?.clone();
                if daylit_radfile::scan::atof(&unit) <= 0.0 {
                    bail!("{program}: illegal -d reference depth");
                }
                c.depth_unit = Some(unit.chars().take(31).collect());
                a += 1;
            }
            Some(b'r') => {
                c.decode = true;
                c.points = false;
            }
            Some(b'p') if depth => {
                c.decode = true;
                c.points = true;
            }
            Some(b'f') => match b.get(2) {
                Some(&f @ (b'a' | b'f' | b'd')) => c.format = f,
                _ => bail!("{program}: unsupported -f? format\n{usage}"),
            },
            Some(&h @ (b'h' | b'H')) => {
                let (inp, out) = if h == b'h' {
                    (&mut c.flags.head_in, &mut c.flags.head_out)
                } else {
                    (&mut c.flags.res_in, &mut c.flags.res_out)
                };
                match b.get(2) {
                    None => {
                        *inp = false;
                        *out = false;
                    }
                    Some(b'i' | b'I') => *inp = false,
                    Some(b'o' | b'O') => *out = false,
                    _ => return Err(usage_err()),
                }
            }
            Some(b'x') => {
                c.xres = value(a).map(|v| daylit_radfile::scan::atoi(v))?;
                a += 1;
            }
            Some(b'y') => {
                c.yres = value(a).map(|v| daylit_radfile::scan::atoi(v))?;
                a += 1;
            }
            Some(b'i') => c.by_pixel = true,
            Some(b'u') => c.unbuffered = true,
            _ => return Err(usage_err()),
        }
        a += 1;
    }
    c.first_file = a;
    if c.xres > 0 && c.yres > 0 {
        c.flags.res_in = false;
    } else if !c.flags.res_in && c.flags.res_out {
        bail!("{program}: unknown resolution for output");
    }
    if c.by_pixel {
        if !c.decode {
            let with = if depth {
                "-r or -p option"
            } else {
                "-r option"
            };
            bail!("{program}: -i only supported with {with}\n{usage}");
        }
        if a >= args.len() {
            bail!("{program}: -i option requires input file\n{usage}");
        }
        if !c.flags.res_in {
            bail!("{program}: -i option requires input resolution\n{usage}");
        }
        c.flags.res_out = false;
    }
    if a + 2 < args.len() {
        bail!("{program}: too many file arguments\n{usage}");
    }
    Ok(c)
}

/// What the header of a depth or normal map said.
struct MapHeader {
    format: Option<String>,
    swapped: bool,
    res: Option<Resolution>,
    /// REFDEPTH= value (trailing white space removed).
    depth_unit: Option<String>,
    view: daylit_image::View,
    got_view: i64,
}

/// Reads the header (copying lines to `out` as RADIANCE passes them on) and the resolution
/// line; `ncomp` is the components a map's values must have (1 depth, 3 normal).
fn read_map_header(
    program: &str,
    src: &mut Source,
    c: &CodecArgs,
    ncomp: i64,
    out: &mut String,
) -> anyhow::Result<MapHeader> {
    let mut h = MapHeader {
        format: None,
        swapped: false,
        res: None,
        depth_unit: None,
        view: daylit_image::View::default(),
        got_view: 0,
    };
    // -x and -y, which NCOLS= and NROWS= in the header override, as in RADIANCE.
    let (mut ncols, mut nrows) = if c.xres > 0 && c.yres > 0 {
        (c.xres, c.yres)
    } else {
        (0, 0)
    };
    let depth = program == "rcode_depth";
    if c.flags.head_in {
        let lines = src
            .header()
            .ok_or_else(|| anyhow!("{program}: {}: bad header", src.name))?;
        for line in lines {
            let t = line.as_str();
            if let Some(f) = t.strip_prefix("FORMAT=") {
                h.format = Some(f.trim().to_string());
                continue;
            }
            if let Some(v) = t.strip_prefix("BigEndian=") {
                let big = daylit_radfile::scan::atoi(v) != 0;
                h.swapped = big != cfg!(target_endian = "big");
                continue;
            }
            if let Some(v) = t.strip_prefix("NCOMP=") {
                if daylit_radfile::scan::atoi(v) != ncomp {
                    bail!("{program}: {}: NCOMP must equal {ncomp}", src.name);
                }
                continue;
            }
            if let Some(v) = t.strip_prefix("NROWS=") {
                nrows = daylit_radfile::scan::atoi(v);
                continue;
            }
            if let Some(v) = t.strip_prefix("NCOLS=") {
                ncols = daylit_radfile::scan::atoi(v);
                continue;
            }
            if depth {
                if let Some(v) = t.strip_prefix(codes::REFDEPTH) {
                    let unit: String = v.chars().take(31).collect();
                    let unit = unit.trim_end().to_string();
                    if daylit_radfile::scan::atof(&unit) <= 0.0 {
                        bail!(
                            "{program}: {}: bad reference depth in input header",
                            src.name
                        );
                    }
                    h.depth_unit = Some(unit);
                    if !c.decode {
                        continue;
                    }
                } else if t.starts_with("SAMP360=") {
                    h.got_view -= 1;
                } else if daylit_image::view::is_view_line(t) {
                    h.got_view +=
                        i64::from(daylit_image::view::apply_view_text(&mut h.view, t) > 0);
                }
            }
            if c.flags.head_out {
                out.push_str(t);
                out.push('\n');
            }
        }
    }
    h.got_view = h.got_view.max(0);
    if nrows > 0 && ncols > 0 {
        h.res = Some(Resolution::standard(ncols as usize, nrows as usize));
    } else if c.flags.res_in {
        h.res = Some(
            src.resolution()
                .ok_or_else(|| anyhow!("{program}: {}: bad resolution string", src.name))?,
        );
    }
    Ok(h)
}

/// The rest of a depth or normal map's header: `#?RADIANCE` when the input's is not passed
/// on, the command line, then what each mode writes; and the resolution line.
#[allow(clippy::too_many_arguments)]
fn finish_map_header(
    program: &str,
    args: &[String],
    c: &CodecArgs,
    h: &MapHeader,
    encoded_format: &str,
    depth_unit: Option<&str>,
    copied: String,
    sink: &mut Sink,
) {
    let mut s = String::new();
    if c.flags.head_out {
        if !c.flags.head_in {
            s.push_str("#?RADIANCE\n");
        }
        s.push_str(&copied);
        s.push_str(&daylit_radfile::header::command_line(
            program,
            &args[..c.first_file],
        ));
        s.push('\n');
        if !c.decode {
            if let Some(u) = depth_unit {
                s.push_str(codes::REFDEPTH);
                s.push_str(u);
                s.push('\n');
            }
            s += &format_line(encoded_format, s.len(), sink.is_file());
        } else {
            s.push_str(if program == "rcode_depth" {
                "NCOMP=1\n"
            } else {
                "NCOMP=3\n"
            });
            if c.flags.res_in && !c.flags.res_out {
                if let Some(r) = &h.res {
                    s += &format!("NCOLS={}\nNROWS={}\n", r.scan_len(), r.scans());
                }
            }
            let name = match c.format {
                b'f' => "float",
                b'd' => "double",
                _ => "ascii",
            };
            if c.format != b'a' {
                s.push_str(endian_line());
            }
            s += &format_line(name, s.len(), sink.is_file());
        }
        s.push('\n');
    }
    if c.flags.res_out {
        if let Some(r) = &h.res {
            s.push_str(&r.to_line());
        }
    }
    sink.buf.extend_from_slice(s.as_bytes());
}

/// Values of `n` components read as `format` (ascii words, or binary floats or doubles in
/// the header's byte order), until the input ends or a value cannot be read.
fn read_values(src: &mut Source, format: u8, swapped: bool, n: usize) -> Vec<f64> {
    let mut out = Vec::new();
    match format {
        b'a' => {
            let text = String::from_utf8_lossy(&src.bytes[src.pos..]);
            for w in text.split_ascii_whitespace() {
                match w.parse::<f64>() {
                    Ok(v) => out.push(v),
                    Err(_) => break,
                }
            }
        }
        _ => {
            let size = if format == b'f' { 4 } else { 8 };
            while let Some(b) = src.take(size) {
                let mut b = b.to_vec();
                if swapped {
                    b.reverse();
                }
                out.push(if size == 4 {
                    f64::from(f32::from_ne_bytes(b.try_into().unwrap_or([0; 4])))
                } else {
                    f64::from_ne_bytes(b.try_into().unwrap_or([0; 8]))
                });
            }
        }
    }
    out.truncate(out.len() / n * n);
    out
}

/// Pixel positions (x from the left, y from the bottom) from standard input, each handed to
/// `each` as it is read; a word that is not an integer ends with an error.
fn for_each_position(
    program: &str,
    mut each: impl FnMut(i64, i64) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut pending: Option<i64> = None;
    for line in stdin.lock().lines() {
        let line = line.with_context(|| format!("{program}: cannot read standard input"))?;
        for w in line.split_ascii_whitespace() {
            let v: i64 = w
                .parse()
                .map_err(|_| anyhow!("{program}: non-integer as pixel index"))?;
            match pending.take() {
                None => pending = Some(v),
                Some(x) => each(x, v)?,
            }
        }
    }
    Ok(())
}

/// The map's own format, else `-f`'s, for the values read when encoding.
fn input_format(program: &str, src: &Source, h: &MapHeader, asked: u8) -> anyhow::Result<u8> {
    match h.format.as_deref() {
        None => Ok(asked),
        Some("ascii") => Ok(b'a'),
        Some("float") => Ok(b'f'),
        Some("double") => Ok(b'd'),
        Some(f) => bail!("{program}: {}: unsupported input format: {f}", src.name),
    }
}

/// A decoded value (or point or normal) as `-f` says: ascii in `%.{digits}e`/`%.9f`, float
/// or double.
/// Decodes the codes in order, `n` of them (all there are when 0; fewer is an error), giving
/// each code's index and value to `f`.
fn each_code(
    program: &str,
    src: &Source,
    n: usize,
    code_at: impl Fn(&Source, usize) -> Option<i32>,
    mut f: impl FnMut(usize, i32),
) -> anyhow::Result<()> {
    let mut k = 0;
    while n == 0 || k < n {
        let Some(code) = code_at(src, k) else {
            if n > 0 {
                bail!("{program}: {}: unexpected EOF", src.name);
            }
            break;
        };
        f(k, code);
        k += 1;
    }
    Ok(())
}

fn put_values(buf: &mut Vec<u8>, v: &[f64], format: u8, ascii: impl Fn(f64) -> String) {
    match format {
        b'f' => v
            .iter()
            .for_each(|x| buf.extend_from_slice(&(*x as f32).to_ne_bytes())),
        b'd' => v
            .iter()
            .for_each(|x| buf.extend_from_slice(&x.to_ne_bytes())),
        _ => {
            let words: Vec<String> = v.iter().map(|x| ascii(*x)).collect();
            buf.extend_from_slice(words.join(" ").as_bytes());
            buf.push(b'\n');
        }
    }
}

fn e5(v: f64) -> String {
    daylit_radfile::printf::c_exp(v, 5)
}

/// `rcode_depth` with RADIANCE's arguments.
pub fn run_depth(args: &[String]) -> anyhow::Result<ExitCode> {
    const P: &str = "rcode_depth";
    let c = parse_codec_args(P, args, DEPTH_USAGE)?;
    let files = &args[c.first_file..];
    let mut src = Source::open(P, files.first())?;
    let mut sink = Sink::new(files.get(1));
    let mut copied = String::new();
    let h = read_map_header(P, &mut src, &c, 1, &mut copied)?;
    // The header's reference depth wins over -d's, as in RADIANCE.
    let unit = h
        .depth_unit
        .clone()
        .or(c.depth_unit.clone())
        .unwrap_or_else(|| "1".to_string());
    let dref = daylit_radfile::scan::atof(&unit);
    finish_map_header(
        P,
        args,
        &c,
        &h,
        codes::DEPTH_FORMAT,
        Some(&unit),
        copied,
        &mut sink,
    );
    let n = h.res.map_or(0, |r| r.xr * r.yr);
    if !c.decode {
        if unit == "1" {
            eprintln!("{P}: warning - using reference depth of 1.0");
        }
        let format = input_format(P, &src, &h, c.format)?;
        let mut v = read_values(&mut src, format, h.swapped, 1);
        if n > 0 {
            if v.len() < n {
                bail!("{P}: {}: fewer depths than expected", src.name);
            }
            v.truncate(n);
        }
        for d in v {
            let code = codes::depth_to_code(d, dref) as i16;
            sink.buf.extend_from_slice(&code.to_be_bytes());
        }
        return sink.finish();
    }
    if let Some(f) = h.format.as_deref().filter(|f| *f != codes::DEPTH_FORMAT) {
        bail!("{P}: {}: unexpected input format: {f}", src.name);
    }
    let frame = if c.points {
        let Some(res) = h.res else {
            bail!("{P}: missing map resolution");
        };
        if h.got_view == 0 {
            bail!("{P}: {}: missing view", src.name);
        }
        let f = h
            .view
            .frame()
            .map_err(|e| anyhow!("{P}: {}: input view error: {}", src.name, e.0))?;
        Some((f, res))
    } else {
        None
    };
    let start = src.pos;
    let code_at = |src: &Source, k: usize| -> Option<i32> {
        let b = src.bytes.get(start + 2 * k..start + 2 * k + 2)?;
        Some(i32::from(i16::from_be_bytes([b[0], b[1]])))
    };
    // A world point: the pixel's ray run out to the depth; the view point for infinity or
    // where the view has no ray.
    let point = |px: i64, py: i64, d: f64| -> [f64; 3] {
        let (f, res) = frame.as_ref().expect("points need a view");
        let vp = f.view.vp;
        if d >= codes::FHUGE * 0.99 {
            return vp.to_array();
        }
        let (lx, ly) = location(res, px, py);
        match f.ray(lx, ly) {
            Some(r) => (r.origin + r.dir * d).to_array(),
            None => vp.to_array(),
        }
    };
    let put = |buf: &mut Vec<u8>, px: i64, py: i64, d: f64| {
        if c.points {
            put_values(buf, &point(px, py, d), c.format, e5);
        } else {
            put_values(buf, &[d], c.format, e5);
        }
    };
    if c.by_pixel {
        if src.stdin {
            bail!("{P}: <stdin> used for encoded depths");
        }
        let res = h
            .res
            .ok_or_else(|| anyhow!("{P}: need map resolution to seek"))?;
        sink.stream = true;
        sink.push(c.unbuffered)?;
        for_each_position(P, |x, y| {
            let (px, py) =
                res.location_to_pixel(x as f64 / res.xr as f64, y as f64 / res.yr as f64);
            let d = if px < 0 || py < 0 || px >= res.scan_len() as i64 || py >= res.scans() as i64 {
                eprintln!("{P}: {}: warning - pixel index off map", src.name);
                0.0
            } else {
                let k = py as usize * res.scan_len() + px as usize;
                match code_at(&src, k) {
                    Some(code) => codes::code_to_depth(code, dref),
                    None => bail!("{P}: {}: unexpected EOF", src.name),
                }
            };
            put(&mut sink.buf, px, py, d);
            sink.push(c.unbuffered)
        })?;
        return sink.finish();
    }
    each_code(P, &src, n, code_at, |k, code| {
        let d = codes::code_to_depth(code, dref);
        let (px, py) = match h.res {
            Some(r) => ((k % r.scan_len()) as i64, (k / r.scan_len()) as i64),
            None => (0, 0),
        };
        put(&mut sink.buf, px, py, d);
    })?;
    sink.finish()
}

/// The image position of pixel `(px, py)` (RADIANCE's `pix2loc`, also off the map).
fn location(res: &Resolution, px: i64, py: i64) -> (f64, f64) {
    let (mut x, mut y) = if res.y_major { (px, py) } else { (py, px) };
    if res.x_decreasing {
        x = res.xr as i64 - 1 - x;
    }
    if res.y_decreasing {
        y = res.yr as i64 - 1 - y;
    }
    (
        (x as f64 + 0.5) / res.xr as f64,
        (y as f64 + 0.5) / res.yr as f64,
    )
}

/// `rcode_norm` with RADIANCE's arguments.
pub fn run_norm(args: &[String]) -> anyhow::Result<ExitCode> {
    const P: &str = "rcode_norm";
    let c = parse_codec_args(P, args, NORM_USAGE)?;
    let files = &args[c.first_file..];
    let mut src = Source::open(P, files.first())?;
    let mut sink = Sink::new(files.get(1));
    let mut copied = String::new();
    let h = read_map_header(P, &mut src, &c, 3, &mut copied)?;
    finish_map_header(
        P,
        args,
        &c,
        &h,
        codes::NORMAL_FORMAT,
        None,
        copied,
        &mut sink,
    );
    let n = h.res.map_or(0, |r| r.xr * r.yr);
    if !c.decode {
        let format = input_format(P, &src, &h, c.format)?;
        let mut v = read_values(&mut src, format, h.swapped, 3);
        if n > 0 {
            if v.len() < 3 * n {
                bail!("{P}: {}: fewer normals than expected", src.name);
            }
            v.truncate(3 * n);
        }
        for t in v.chunks_exact(3) {
            let code = codes::encode_direction(codes::normalize([t[0], t[1], t[2]]));
            sink.buf.extend_from_slice(&code.to_be_bytes());
        }
        return sink.finish();
    }
    if let Some(f) = h.format.as_deref().filter(|f| *f != codes::NORMAL_FORMAT) {
        bail!("{P}: {}: unexpected input format: {f}", src.name);
    }
    let start = src.pos;
    let code_at = |src: &Source, k: usize| -> Option<i32> {
        let b = src.bytes.get(start + 4 * k..start + 4 * k + 4)?;
        Some(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let f9 = |v: f64| format!("{v:.9}");
    if c.by_pixel {
        if src.stdin {
            bail!("{P}: <stdin> used for encoded normals");
        }
        let res = h
            .res
            .ok_or_else(|| anyhow!("{P}: need map resolution to seek"))?;
        if !res.is_standard() {
            bail!("{P}: can only handle standard pixel ordering");
        }
        sink.stream = true;
        sink.push(c.unbuffered)?;
        for_each_position(P, |x, y| {
            let y = res.yr as i64 - 1 - y;
            let v = if x < 0 || y < 0 || x >= res.scan_len() as i64 || y >= res.scans() as i64 {
                eprintln!("{P}: {}: warning - pixel index off map", src.name);
                [0.0; 3]
            } else {
                let k = y as usize * res.scan_len() + x as usize;
                match code_at(&src, k) {
                    Some(code) => codes::decode_direction(code),
                    None => bail!("{P}: {}: unexpected EOF", src.name),
                }
            };
            put_values(&mut sink.buf, &v, c.format, f9);
            sink.push(c.unbuffered)
        })?;
        return sink.finish();
    }
    each_code(P, &src, n, code_at, |_, code| {
        put_values(&mut sink.buf, &codes::decode_direction(code), c.format, f9);
    })?;
    sink.finish()
}

/// `rcode_ident` with RADIANCE's arguments.
pub fn run_ident(args: &[String]) -> anyhow::Result<ExitCode> {
    const P: &str = "rcode_ident";
    let usage_err = || anyhow!("{P}: bad arguments\n{IDENT_USAGE}");
    let (mut decode, mut by_pixel, mut unbuffered, mut numeric, mut table) =
        (false, false, false, false, false);
    let (mut head_out, mut res_out) = (true, true);
    let mut sep = b'\n';
    let (mut xres, mut yres) = (0i64, 0i64);
    let mut index_bytes = 2usize;
    let mut a = 0;
    while a < args.len() && args[a].starts_with('-') {
        let b = args[a].as_bytes();
        match b.get(1) {
            Some(b'r') => decode = true,
            Some(b'i') => by_pixel = true,
            Some(b'u') => unbuffered = true,
            Some(b'n') => numeric = true,
            Some(b'l') => table = true,
            Some(b'h') => head_out = false,
            Some(b'H') => res_out = false,
            Some(b't') => sep = b.get(2).copied().unwrap_or(b'\n'),
            Some(b'x') => {
                xres = daylit_radfile::scan::atoi(args.get(a + 1).ok_or_else(usage_err)?);
                a += 1;
            }
            Some(b'y') => {
                yres = daylit_radfile::scan::atoi(args.get(a + 1).ok_or_else(usage_err)?);
                a += 1;
            }
            Some(b'8' | b'1' | b'2') => {
                index_bytes = match daylit_radfile::scan::atoi(&args[a][1..]) {
                    8 => 1,
                    16 => 2,
                    24 => 3,
                    _ => return Err(usage_err()),
                }
            }
            _ => return Err(usage_err()),
        }
        a += 1;
    }
    if xres > 0 && yres > 0 {
        res_out = false;
    }
    let files = &args[a..];
    if decode && files.is_empty() {
        bail!("{P}: -r option requires named input file");
    }
    if files.len() > 2 {
        bail!("{P}: too many file arguments");
    }
    let mut sink = Sink::new(files.get(1));
    if !decode {
        let mut src = Source::open(P, files.first())?;
        let mut head = String::new();
        if head_out {
            let lines = src
                .header()
                .ok_or_else(|| anyhow!("{P}: {}: bad header or wrong input format", src.name))?;
            for l in lines.iter().filter(|l| !l.starts_with("FORMAT=")) {
                head.push_str(l);
                head.push('\n');
            }
        } else {
            head.push_str("#?RADIANCE\n");
        }
        let format = codes::ident_format(index_bytes).ok_or_else(usage_err)?;
        head += &format_line(format, head.len(), sink.is_file());
        head.push('\n');
        let res = if res_out {
            src.resolution()
                .ok_or_else(|| anyhow!("{P}: {}: bad resolution string", src.name))?
        } else if xres <= 0 || yres <= 0 {
            bail!("{P}: {}: missing/illegal resolution", src.name);
        } else {
            Resolution::standard(xres as usize, yres as usize)
        };
        head.push_str(&res.to_line());
        sink.buf.extend_from_slice(head.as_bytes());
        let mut ids = IdTable::default();
        let limit = 1usize << (8 * index_bytes);
        let rest = &src.bytes[src.pos..];
        let mut at = 0;
        for _ in 0..res.xr * res.yr {
            let name = scan_ident(rest, &mut at, sep).map_err(|e| match e {
                IdentError::TooLong => anyhow!("{P}: identifier too long in scan_ident()"),
                IdentError::End => anyhow!("{P}: {}: unexpected EOF", src.name),
            })?;
            let name = String::from_utf8_lossy(name).into_owned();
            let k = ids
                .index_of(&name, limit)
                .ok_or_else(|| anyhow!("{P}: too many unique identifiers for index size"))?;
            sink.buf
                .extend_from_slice(&(k as u32).to_be_bytes()[4 - index_bytes..]);
        }
        if rest[at..].iter().any(|b| !b.is_ascii_whitespace()) {
            eprintln!(
                "{P}: {}: warning -  non-white characters past end",
                src.name
            );
        }
        sink.buf.extend_from_slice(&ids.to_bytes());
        return sink.finish();
    }

    // Decoding.
    let fname = &files[0];
    let bytes =
        std::fs::read(fname).map_err(|_| anyhow!("{P}: {fname}: cannot open for reading"))?;
    let mut src = Source {
        name: fname.clone(),
        bytes,
        pos: 0,
        stdin: false,
    };
    let lines = src.header();
    let format = lines
        .as_ref()
        .and_then(|l| l.iter().rev().find_map(|l| l.strip_prefix("FORMAT=")))
        .map(|f| f.trim().to_string());
    let Some(format) = format.filter(|f| f.ends_with("-bit_indexed_name")) else {
        bail!("{P}: {fname}: bad or missing header format");
    };
    let mut head = String::new();
    if head_out {
        for l in lines.iter().flatten().filter(|l| !l.starts_with("FORMAT=")) {
            head.push_str(l);
            head.push('\n');
        }
        head.push_str("FORMAT=ascii\n\n");
    }
    let index_bytes = codes::ident_index_bytes(&format)
        .ok_or_else(|| anyhow!("{P}: {fname}: unsupported index size: {format}"))?;
    let res = src
        .resolution()
        .ok_or_else(|| anyhow!("{P}: {fname}: missing map resolution"))?;
    if res_out {
        head.push_str(&res.to_line());
    }
    let data_len = res.xr * res.yr * index_bytes;
    let table_len = src.bytes.len() as i64 - src.pos as i64 - data_len as i64;
    if table_len < 2 {
        bail!("{P}: {fname}: truncated file");
    }
    let start = src.pos;
    let names = IdTable::parse(&src.bytes[start + data_len..]);
    sink.buf.extend_from_slice(head.as_bytes());
    if table {
        sink.buf.extend_from_slice(
            format!("============ {} IDs ============\n", names.len()).as_bytes(),
        );
        for n in &names {
            sink.buf.extend_from_slice(n);
            sink.buf.push(sep);
        }
        if sep != b'\n' {
            sink.buf.push(b'\n');
        }
        sink.buf
            .extend_from_slice(b"============= END =============\n");
    }
    let index_at = |k: usize| -> usize {
        let b = &src.bytes[start + k * index_bytes..start + (k + 1) * index_bytes];
        b.iter().fold(0usize, |v, &x| v << 8 | usize::from(x))
    };
    let put = |buf: &mut Vec<u8>, k: usize| -> anyhow::Result<()> {
        if numeric {
            buf.extend_from_slice(k.to_string().as_bytes());
        } else {
            let n = names
                .get(k)
                .ok_or_else(|| anyhow!("{P}: {fname}: bad ID index in file"))?;
            buf.extend_from_slice(n);
        }
        buf.push(sep);
        Ok(())
    };
    if by_pixel {
        if !res.is_standard() {
            bail!("{P}: can only handle standard pixel ordering");
        }
        sink.stream = true;
        sink.push(unbuffered)?;
        for_each_position(P, |x, y| {
            let y = res.yr as i64 - 1 - y;
            if x < 0 || y < 0 || x >= res.xr as i64 || y >= res.yr as i64 {
                eprintln!("{P}: warning - pixel index is off map");
                return Ok(());
            }
            put(&mut sink.buf, index_at(y as usize * res.xr + x as usize))?;
            sink.push(unbuffered)
        })
        .map_err(|e| {
            if e.to_string().contains("non-integer") {
                anyhow!("{P}: non-numeric input for pixel index")
            } else {
                e
            }
        })?;
        return sink.finish();
    }
    for k in 0..res.xr * res.yr {
        put(&mut sink.buf, index_at(k))?;
    }
    sink.finish()
}

/// Why an identifier could not be read.
enum IdentError {
    /// Longer than 255 bytes.
    TooLong,
    /// The input ended before its separator.
    End,
}

/// The next identifier of `text` from `*at` as RADIANCE reads them: white space before it
/// skipped, ended by `sep` (which is consumed), white space after it trimmed, at most 255
/// bytes.
fn scan_ident<'a>(text: &'a [u8], at: &mut usize, sep: u8) -> Result<&'a [u8], IdentError> {
    let mut start = None;
    while *at < text.len() {
        let c = text[*at];
        *at += 1;
        if start.is_none() && c.is_ascii_whitespace() {
            continue;
        }
        let s = *start.get_or_insert(*at - 1);
        if c == sep {
            let mut end = *at - 1;
            while end > s && text[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            return Ok(&text[s..end]);
        }
        if *at - s > 255 {
            return Err(IdentError::TooLong);
        }
    }
    Err(IdentError::End)
}
