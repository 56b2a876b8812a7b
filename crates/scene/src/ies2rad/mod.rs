//! RADIANCE's `ies2rad`: IES LM-63 luminaire photometry (1986, 1991, 1995, 2002 and 2019
//! files) as RADIANCE scene text and data files: the candela table as a `brightdata` over
//! `source.cal`'s direction functions, lamp tilt data through `tilt.cal`, a `light` (or `illum`)
//! of the lamp's colour on the luminous opening the file describes (rectangle, box, disk,
//! cylinder, sphere; the shapes RADIANCE cannot make are replaced as RADIANCE replaces them),
//! all centred at the origin and aimed down, in the output units chosen. The text and numbers
//! are the ones RADIANCE 6.0a writes.

pub mod lamps;

use daylit_radfile::printf::format_g;
use daylit_radfile::scan::{atof, atoi, is_float};
pub use lamps::{Lamp, LampTable, BUILTIN_LAMP_TABLE};

/// Smallest luminaire dimension, m (a point source is a sphere of this diameter).
const MINDIM: f64 = 0.001;
/// Feet in metres.
const F_M: f64 = 0.3048;
/// RADIANCE's luminous efficacy of white light, lm/W.
const WHTEFFICACY: f64 = 179.0;
const FTINY: f64 = 1e-6;

fn feq(a: f64, b: f64) -> bool {
    a <= b + FTINY && a >= b - FTINY
}

/// How the output is named and scaled (ies2rad's options other than the lamp's).
#[derive(Clone, Debug)]
pub struct Options {
    /// `-l`: the library directory output files are written under.
    pub libdir: Option<String>,
    /// `-p`: the subdirectory of the library, also named in the scene text.
    pub prefdir: Option<String>,
    /// `-d`: the name of the output units (`meters`, `inches`, `feet/10` …).
    pub units: String,
    /// `-d`: output units per metre.
    pub meters2out: f64,
    /// `-m`: multiplier of every output quantity.
    pub multiplier: f64,
    /// `-i`: radius of an `illum` sphere replacing the file's geometry (0: none).
    pub illum_radius: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            libdir: None,
            prefdir: None,
            units: "meters".into(),
            meters2out: 1.0,
            multiplier: 1.0,
            illum_radius: 0.0,
        }
    }
}

/// Where the lamp's colour comes from.
#[derive(Clone, Debug)]
pub enum LampColor {
    /// `-t`: one colour for every file (`-t default`: the default colour).
    Fixed([f32; 3]),
    /// Matched per file against the lamp lines of its header; `default` where none matches.
    Table {
        /// The lamp table.
        table: LampTable,
        /// The colour of unknown lamps (`-c`, `-u`).
        default: [f32; 3],
    },
}

/// The converted luminaire.
#[derive(Clone, Debug, Default)]
pub struct Converted {
    /// The scene text (`<name>.rad`).
    pub rad: Vec<u8>,
    /// The data files to write: path and text (`<name>.dat`, and `<tilt>%.dat` for tilt data).
    pub files: Vec<(String, String)>,
    /// Warnings, as lines for standard error.
    pub warnings: Vec<String>,
}

/// Everything about the luminous opening.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// The LM-63 shape, `None` when overridden by `-i`.
    ies: Option<&'static str>,
    kind: Kind,
    l: f64,
    w: f64,
    h: f64,
    warn: Option<&'static str>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Rect,
    Disk,
    Sphere,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Rect => "rectangle or box",
            Kind::Disk => "disk or cylinder",
            Kind::Sphere => "sphere",
        }
    }
}

impl Shape {
    fn area(&self) -> f64 {
        match self.kind {
            Kind::Rect => self.w * self.l,
            _ => std::f64::consts::PI / 4.0 * self.w * self.w,
        }
    }
}

const HCYL: &str = "makeshape: shape is a horizontal cylinder, which is not supported.\nmakeshape: replaced with box\n";

fn boxed(ies: &'static str, l: f64, w: f64, h: f64, warn: Option<&'static str>) -> Shape {
    Shape {
        ies: Some(ies),
        kind: Kind::Rect,
        l: l.max(MINDIM),
        w: w.max(MINDIM),
        h: h.max(0.5 * MINDIM),
        warn,
    }
}

fn cylinder(ies: &'static str, diam: f64, h: f64, warn: Option<&'static str>) -> Shape {
    Shape {
        ies: Some(ies),
        kind: Kind::Disk,
        l: diam,
        w: diam,
        h: h.max(0.5 * MINDIM),
        warn,
    }
}

fn sphere(ies: &'static str, d: f64, warn: Option<&'static str>) -> Shape {
    Shape {
        ies: Some(ies),
        kind: Kind::Sphere,
        l: d,
        w: d,
        h: d,
        warn,
    }
}

/// An ellipsoid as a sphere, disk or box (RADIANCE compares in single precision).
fn ellipsoid(ies: &'static str, w: f64, l: f64, h: f64) -> Shape {
    let avg = ((w + l + h) / 3.0) as f32;
    let (bot, top) = (
        (0.5 * avg as f64) as f32 as f64,
        (1.5 * avg as f64) as f32 as f64,
    );
    let round = bot < w && w < top && bot < l && l < top;
    // RADIANCE tests `h > top` here, so near-spheres become boxes; kept for parity.
    if round && bot < h && h > top {
        let warn = "makeshape: shape is an ellipsoid, which is not supported.\nmakeshape: replaced with sphere\n";
        sphere(ies, avg as f64, Some(warn))
    } else if round && h <= 0.5 * MINDIM {
        let warn = "makeshape: shape is an ellipse, which is not supported.\nmakeshape: replaced with disk\n";
        cylinder(ies, w, 0.0, Some(warn))
    } else {
        let warn = "makeshape: shape is an ellipsoid, which is not supported.\nmakeshape: replaced with box\n";
        boxed(ies, w, l, h, Some(warn))
    }
}

/// An elliptical cylinder as a circular one or a box.
fn elliptical_cylinder(ies: &'static str, l: f64, w: f64, h: f64) -> Shape {
    let avg = ((w + l) / 2.0) as f32;
    let (bot, top) = (
        (0.5 * avg as f64) as f32 as f64,
        (1.5 * avg as f64) as f32 as f64,
    );
    if bot < w && w < top && bot < l && l < top {
        let warn = "makeshape: shape is a vertical elliptical cylinder, which is not supported.\nmakeshape: replaced with circular cylinder\n";
        cylinder(ies, w, h, Some(warn))
    } else {
        let warn = "makeshape: shape is a  vertical elliptical cylinder, which is not supported.\nmakeshape: replaced with box\n";
        boxed(ies, w, l, h, Some(warn))
    }
}

/// The luminous opening of LM-63 version `rev` from the signs and sizes of its length,
/// width and height (metres); `Err` when the combination has no meaning.
fn ies_shape(rev: u32, l: f64, w: f64, h: f64) -> Result<Shape, String> {
    let ver = match rev % 100 {
        91 => 86,
        19 => 2,
        v => v,
    };
    let sign = |d: f64| (d > 0.0) as i8 - (d < 0.0) as i8;
    let (lp, wp, hp) = (l.abs(), w.abs(), h.abs());
    let s = (ver, sign(l), sign(w), sign(h));
    Ok(match s {
        (_, 0, 0, 0) => sphere("point", MINDIM, None),
        (_, 1, 1, 0) => boxed("rectangle", lp, wp, hp, None),
        (_, 1, 1, 1) | (_, 0, 1, 1) | (_, 1, 0, 1) => boxed("box", lp, wp, hp, None),
        (_, 0, -1, 0) => cylinder("disk", wp, hp, None),
        (86, 0, -1, 1) | (95, 0, -1, 1) => cylinder("vertical cylinder", wp, hp, None),
        (86, 1, -1, 0) => elliptical_cylinder("ellipse", lp, wp, 0.0),
        (86, 1, -1, 1) => ellipsoid("ellipsoid", wp, lp, hp),
        (95, 0, -1, -1) => {
            if !feq(lp, hp) {
                return Err("makeshape: cannot determine shape".into());
            }
            sphere("sphere", wp, None)
        }
        (95, 1, 0, -1) => boxed(HCYL_PH, lp, wp, hp, Some(HCYL)),
        (95, 0, 1, -1) => boxed(HCYL_PPH, lp, wp, hp, Some(HCYL)),
        (95, -1, 1, 1) | (95, 1, -1, 1) => {
            elliptical_cylinder("vertical elliptical cylinder", lp, wp, hp)
        }
        (95, -1, 1, -1) | (95, 1, -1, -1) => ellipsoid("ellipsoid", lp, wp, hp),
        (2, -1, -1, 0) if feq(l, w) => cylinder("disk", wp, hp, None),
        (2, -1, -1, 0) => elliptical_cylinder("ellipse", wp, lp, hp),
        (2, -1, -1, 1) if feq(l, w) => cylinder("vertical cylinder", wp, hp, None),
        (2, -1, -1, 1) => elliptical_cylinder("vertical elliptical cylinder", wp, lp, hp),
        (2, -1, -1, -1) if feq(l, w) && feq(l, h) => sphere("sphere", wp, None),
        (2, -1, -1, -1) => ellipsoid("ellipsoid", lp, wp, hp),
        (2, 1, -1, -1) => {
            let ies = if feq(w, h) { HCYL_PH } else { HECYL_PH };
            boxed(ies, lp, wp, hp, Some(HCYL))
        }
        (2, -1, 1, -1) => {
            let ies = if feq(l, h) { HCYL_PPH } else { HECYL_PPH };
            boxed(ies, lp, wp, hp, Some(HCYL))
        }
        (2, -1, 0, -1) => {
            let ies = if feq(w, h) {
                "vertical disk facing photometric horizontal"
            } else {
                "vertical ellipse facing photometric horizontal"
            };
            let warn = "makeshape: shape is a vertical ellipse, which is not supported.\nmakeshape: replaced with rectangle\n";
            boxed(ies, lp, wp, hp, Some(warn))
        }
        _ => {
            return Err(format!(
                "no LM-63-{rev} luminous opening has length {l}, width {w} and height {h}"
            ))
        }
    })
}

const HCYL_PH: &str = "horizontal cylinder along photometric horizontal";
const HECYL_PH: &str = "horizontal elliptical cylinder along photometric horizontal";
const HCYL_PPH: &str = "horizontal cylinder perpendicular to photometric horizontal";
const HECYL_PPH: &str = "horizontal elliptical cylinder perpendicular to photometric horizontal";

/// The LM-63 version named by a file's first line (1986 when it names none).
fn version(line: &[u8]) -> u32 {
    match line {
        b"IESNA91" => 1991,
        b"IESNA:LM-63-1995" => 1995,
        b"IESNA:LM-63-2002" => 2002,
        b"IES:LM-63-2019" => 2019,
        _ => 1986,
    }
}

/// Reads the words of the photometric data as LM-63 delimits them (white space, or a comma).
struct Words<'a> {
    text: &'a [u8],
    pos: usize,
    file: &'a str,
}

impl<'a> Words<'a> {
    /// The line of byte `at` (counted only for messages: a large table must not rescan its
    /// file for every number).
    fn line(&self, at: usize) -> usize {
        1 + self.text[..at].iter().filter(|&&b| b == b'\n').count()
    }

    fn word(&mut self) -> Option<&'a [u8]> {
        let t = self.text;
        while self.pos < t.len() && t[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < t.len() && !t[self.pos].is_ascii_whitespace() && t[self.pos] != b',' {
            self.pos += 1;
        }
        let w = &t[start..self.pos];
        while self.pos < t.len() && t[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if self.pos < t.len() && t[self.pos] == b',' {
            self.pos += 1;
        }
        (!w.is_empty()).then_some(w)
    }

    /// The next word, which must be a number, or an error saying what was expected where.
    fn numeric(&mut self, what: &str) -> Result<String, String> {
        let at = self.pos;
        match self.word() {
            Some(w) if is_float(w) => Ok(String::from_utf8_lossy(w).into_owned()),
            Some(w) => Err(format!(
                "{}:{}: expected {what}, found \"{}\"",
                self.file,
                self.line(at),
                String::from_utf8_lossy(w)
            )),
            None => Err(format!(
                "{}:{}: expected {what}, found the end of the file",
                self.file,
                self.line(at)
            )),
        }
    }

    fn number(&mut self, what: &str) -> Result<f64, String> {
        self.numeric(what).map(|w| atof(&w))
    }

    /// An integer, read as C's `atoi` reads the number (`2.9` is 2).
    fn int(&mut self, what: &str) -> Result<i64, String> {
        self.numeric(what).map(|w| atoi(&w))
    }
}

/// The directory part of a path as ies2rad keeps it ("" for none, "/" for the root).
fn directory(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) => "/",
        Some(i) => &path[..i],
        None => "",
    }
}

/// The last component of a path.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A file name without its last extension (leading dots kept), as output names are made.
pub fn strip_extension(name: &str) -> String {
    let base = file_name(name);
    let dots = base.len() - base.trim_start_matches('.').len();
    match base[dots..].rfind('.') {
        Some(i) => name[..name.len() - base.len() + dots + i].to_string(),
        None => name.to_string(),
    }
}

/// RADIANCE counts a path starting with `/` or `.` as not relative to the library.
fn is_abs(p: &str) -> bool {
    p.starts_with('/') || p.starts_with('.')
}

fn join(dir: Option<&str>, rest: &str) -> String {
    match dir.filter(|d| !d.is_empty()) {
        Some(d) if d.ends_with('/') => format!("{d}{rest}"),
        Some(d) => format!("{d}/{rest}"),
        None => rest.to_string(),
    }
}

impl Options {
    /// A file's name as the scene text names it (in the library: under the subdirectory).
    pub fn lib_name(&self, name: &str, suffix: &str) -> String {
        if is_abs(name) {
            format!("{name}{suffix}")
        } else {
            join(self.prefdir.as_deref(), &format!("{name}{suffix}"))
        }
    }

    /// Where a file is written (under the library directory).
    pub fn full_name(&self, name: &str, suffix: &str) -> String {
        if self.prefdir.as_deref().is_some_and(is_abs) || is_abs(name) {
            self.lib_name(name, suffix)
        } else {
            join(self.libdir.as_deref(), &self.lib_name(name, suffix))
        }
    }
}

/// Converts the table of a tilt or candela block: `ndim` dimensions of `npts` angles, then the
/// values times `mult`, as a RADIANCE data file. Returns the text and each dimension's first
/// and last angle.
fn data_file(
    words: &mut Words,
    npts: &[usize],
    mult: f64,
    what: &str,
) -> Result<(String, Vec<(f64, f64)>), String> {
    let mut out = String::new();
    let dims = npts.iter().filter(|&&n| n > 1).count();
    out.push_str(&format!("{dims}\n"));
    let mut angles = Vec::with_capacity(npts.len());
    for &n in npts {
        // Grown as numbers are read: a count in a damaged file must not allocate alone.
        let mut a = Vec::new();
        for _ in 0..n {
            a.push(words.number(&format!("{what} angle"))?);
        }
        angles.push(a);
    }
    for a in angles.iter().rev().filter(|a| a.len() > 1) {
        let n = a.len();
        let even = (1..n - 1).all(|j| feq(a[j] - a[j - 1], a[j + 1] - a[j]));
        if even {
            out.push_str(&format!("{} {} {n}\n", format_g(a[0]), format_g(a[n - 1])));
        } else {
            out.push_str(&format!("0 0 {n}"));
            for (j, v) in a.iter().enumerate() {
                if j % 4 == 0 {
                    out.push('\n');
                }
                out.push_str(&format!("\t{}", format_g(*v)));
            }
            out.push('\n');
        }
    }
    let total = npts
        .iter()
        .filter(|&&n| n > 1)
        .try_fold(1usize, |t, &n| t.checked_mul(n))
        .ok_or_else(|| {
            format!(
                "{}: {what} table of {npts:?} values is too large",
                words.file
            )
        })?;
    for i in 0..total {
        if i % 4 == 0 {
            out.push('\n');
        }
        let v = words.number(&format!("{what} value"))?;
        out.push_str(&format!("\t{}", format_g(v * mult)));
    }
    out.push('\n');
    let bounds = angles.iter().map(|a| (a[0], a[a.len() - 1])).collect();
    Ok((out, bounds))
}

/// One IES file converted. `input` is its text, `inpname` its path (`None`: standard
/// input, when tilt files are looked for in the current directory), `outname` the root of
/// the output names, `command` the words of the command line that go into the text's first
/// line.
pub fn convert(
    input: &[u8],
    inpname: Option<&str>,
    outname: &str,
    command: &[String],
    opts: &Options,
    lamp: &LampColor,
) -> Result<Converted, String> {
    let file = inpname.unwrap_or("<stdin>");
    let mut c = Converted::default();
    let mut rad = Vec::new();
    rad.push(b'#');
    for w in command {
        rad.push(b' ');
        rad.extend_from_slice(w.as_bytes());
    }
    rad.extend_from_slice(format!("\n# Dimensions in {}\n", opts.units).as_bytes());

    // The header: lines up to TILT=, copied as comments, searched for the lamp.
    let mut pos = 0;
    let mut rev = 1986;
    let mut first = true;
    let mut color: Option<Lamp> = None;
    let mut geometry: Option<String> = None;
    let mut tilt_line: Option<&[u8]> = None;
    while pos < input.len() {
        // As fgets reads: a line of at most 256 bytes.
        let end = input[pos..]
            .iter()
            .take(256)
            .position(|&b| b == b'\n')
            .map_or((pos + 256).min(input.len()), |i| pos + i + 1);
        let raw = &input[pos..end];
        pos = end;
        if raw.starts_with(b"TILT=") {
            tilt_line = Some(raw);
            break;
        }
        let line = raw.trim_ascii_end();
        if line.is_empty() {
            continue;
        }
        if first {
            rev = version(line);
            first = false;
        }
        rad.extend_from_slice(b"#<");
        rad.extend_from_slice(line);
        rad.push(b'\n');
        let table = match lamp {
            LampColor::Table { table, .. } if color.is_none() => Some(table),
            _ => None,
        };
        let find = |t: &[u8]| table.and_then(|tb| tb.find(&String::from_utf8_lossy(t)));
        if rev == 1986 {
            color = color.or_else(|| find(line));
            continue;
        }
        // Keywords: [LAMP] and [LAMPCAT] name the lamp, [LUMINOUSGEOMETRY] an MGF file.
        let l = line.trim_ascii_start();
        let Some(close) = l.iter().position(|&b| b == b']').filter(|_| l[0] == b'[') else {
            continue;
        };
        let (kw, rest) = (&l[..=close], &l[close + 1..]);
        if kw == b"[LAMP]" || kw == b"[LAMPCAT]" {
            color = color.or_else(|| find(rest));
        } else if kw == b"[LUMINOUSGEOMETRY]" {
            geometry = Some(String::from_utf8_lossy(rest.trim_ascii()).into_owned());
        }
    }
    if let Some(g) = geometry {
        return Err(format!(
            "{file}: its luminous geometry is the MGF file \"{g}\", which needs mgf2rad; daylit does not convert MGF"
        ));
    }
    let rgb = match (lamp, color) {
        (LampColor::Fixed(rgb), _) => *rgb,
        (LampColor::Table { .. }, Some(l)) => {
            rad.extend_from_slice(
                format!(
                    "# CIE(x,y) = ({:.6},{:.6})\n# Depreciation = {:.1}%\n",
                    l.x,
                    l.y,
                    100.0 * l.depreciation as f64
                )
                .as_bytes(),
            );
            l.rgb
        }
        (LampColor::Table { default, .. }, None) => {
            c.warnings.push(format!("{file}: warning - no lamp type"));
            rad.extend_from_slice(b"# Unknown lamp type (used default)\n");
            *default
        }
    };
    let Some(tilt_line) = tilt_line.filter(|_| pos < input.len()) else {
        return Err(format!(
            "{file}: not in IES format (no TILT= line before the data)"
        ));
    };
    let tilt_spec = String::from_utf8_lossy(&tilt_line[5..])
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string();
    let mut words = Words {
        text: input,
        pos,
        file,
    };
    let tilt_id = tilt(
        &mut words, &tilt_spec, inpname, outname, opts, &mut rad, &mut c,
    )
    .map_err(|e| format!("{e}\n{file}: bad tilt data"))?;
    source(
        &mut words, rev, &tilt_id, outname, opts, rgb, &mut rad, &mut c,
    )
    .map_err(|e| format!("{e}\n{file}: bad luminaire data"))?;
    c.rad = rad;
    Ok(c)
}

/// The tilt block: `void` for `TILT=NONE`, else a `brightdata` over its data file (from the
/// IES file itself for `TILT=INCLUDE`, else from the file named, beside the IES file).
fn tilt(
    words: &mut Words,
    spec: &str,
    inpname: Option<&str>,
    outname: &str,
    opts: &Options,
    rad: &mut Vec<u8>,
    c: &mut Converted,
) -> Result<String, String> {
    match spec {
        "NONE" => Ok("void".into()),
        "INCLUDE" => tilt_data(words, spec, outname, opts, rad, c),
        _ => {
            let dir = inpname.map_or("", directory);
            let path = if spec.starts_with('/') {
                spec.to_string()
            } else {
                join(Some(dir), spec)
            };
            let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
            let mut own = Words {
                text: &bytes,
                pos: 0,
                file: &path,
            };
            let name = strip_extension(file_name(spec));
            tilt_data(&mut own, spec, &name, opts, rad, c)
        }
    }
}

/// Reads tilt data (geometry type, angles, factors) into `<name>%.dat` and writes its
/// `brightdata`; returns its name.
fn tilt_data(
    w: &mut Words,
    spec: &str,
    name: &str,
    opts: &Options,
    rad: &mut Vec<u8>,
    c: &mut Converted,
) -> Result<String, String> {
    let kind = w.int("the lamp-to-luminaire geometry (1, 2 or 3)")?;
    let n = w.int("the number of tilt angles")?;
    if n < 1 {
        return Err(format!("{}: {n} tilt angles", w.file));
    }
    let (data, bounds) = data_file(w, &[n as usize], 1.0, "tilt")?;
    c.files.push((opts.full_name(name, "%.dat"), data));
    let id = format!("{}_tilt", file_name(name));
    let lib = opts.lib_name(name, "%.dat");
    let wide = bounds[0].1 > 90.0 + FTINY;
    let (ang, xang) = if wide {
        ("tilt_ang", "tilt_xang")
    } else {
        ("tilt_ang2", "tilt_xang2")
    };
    let body = match kind {
        1 => format!("4 noop {lib} tilt.cal {ang}\n"),
        2 => format!("6 noop {lib} tilt.cal {xang} -rz 90\n"),
        3 => format!("4 noop {lib} tilt.cal {xang}\n"),
        k => return Err(format!("{spec}: illegal lamp to luminaire geometry ({k})")),
    };
    rad.extend_from_slice(format!("\nvoid brightdata {id}\n{body}0\n0\n").as_bytes());
    Ok(id)
}

/// The photometric block: the candela data file, the `brightdata` and the emitting surfaces.
#[allow(clippy::too_many_arguments)]
fn source(
    w: &mut Words,
    rev: u32,
    modifier: &str,
    outname: &str,
    opts: &Options,
    rgb: [f32; 3],
    rad: &mut Vec<u8>,
    c: &mut Converted,
) -> Result<(), String> {
    w.number("the number of lamps")?;
    w.number("the lumens per lamp")?;
    let candela_mult = w.number("the candela multiplier")?;
    let nv = w.int("the number of vertical angles")?;
    let nh = w.int("the number of horizontal angles")?;
    let pmtype = w.int("the photometric type")?;
    let unitype = w.int("the units type")?;
    let mut width = w.number("the width")?;
    let mut length = w.number("the length")?;
    let mut height = w.number("the height")?;
    let bfactor = w.number("the ballast factor")?;
    let mut pfactor = w.number("the ballast-lamp photometric factor")?;
    let wattage = w.number("the input watts")?;
    if rev >= 1995 {
        pfactor = 1.0;
    }
    if pmtype != 1 && pmtype != 2 {
        return Err(format!(
            "dosource: unsupported photometric type ({pmtype}; type C and B are converted)"
        ));
    }
    let mult = opts.multiplier * candela_mult * bfactor * pfactor;
    if nv < 2 || nh < 1 {
        return Err("dosource: too few measured angles".into());
    }
    if unitype == 1 {
        width *= F_M;
        length *= F_M;
        height *= F_M;
    }
    let shape = if opts.illum_radius != 0.0 {
        if opts.illum_radius / opts.meters2out < MINDIM / 2.0 {
            return Err("makeillumsphere: -i argument is too small or negative".into());
        }
        Shape {
            ies: None,
            kind: Kind::Sphere,
            l: 2.0 * opts.illum_radius / opts.meters2out,
            w: 2.0 * opts.illum_radius / opts.meters2out,
            h: 2.0 * opts.illum_radius / opts.meters2out,
            warn: None,
        }
    } else {
        ies_shape(rev, length, width, height)
            .map_err(|e| format!("{e}\ndosource: illegal source dimensions"))?
    };
    let isillum = opts.illum_radius != 0.0;
    if let Some(warn) = shape.warn {
        c.warnings.push(warn.trim_end().to_string());
    }
    let (data, bounds) = data_file(w, &[nv as usize, nh as usize], 1.0 / WHTEFFICACY, "candela")?;
    c.files.push((opts.full_name(outname, ".dat"), data));

    let mut s = String::new();
    s.push_str(&format!(
        "\n# {} watt luminaire, lamp*ballast factor = {}\n",
        format_g(wattage),
        format_g(bfactor * pfactor)
    ));
    match shape.ies {
        Some(n) => s.push_str(&format!("# IES file shape = {n}\n")),
        None => s.push_str("# IES file shape overridden\n"),
    }
    s.push_str(&format!(
        "# Radiance geometry shape = {}\n",
        shape.kind.name()
    ));
    if let Some(warn) = shape.warn {
        for line in warn.lines() {
            s.push_str(&format!("# {line}\n"));
        }
    }
    let name = file_name(outname);
    let id = format!("{name}_dist");
    s.push_str(&format!("\n'{modifier}' brightdata '{id}'\n"));
    let (v, h) = (bounds[0], bounds[1]);
    let rotated = feq(h.0, 90.0) && feq(h.1, 270.0);
    s.push_str(if nh < 2 {
        "4 "
    } else if pmtype == 2 {
        "5 "
    } else if rotated {
        "7 "
    } else {
        "5 "
    });
    let lower = v.0 < 90.0 - FTINY;
    let upper = v.1 > 90.0 + FTINY;
    let sides = upper && lower && shape.h > MINDIM;
    let corr = match shape.kind {
        Kind::Sphere => "corr",
        _ if !sides => "flatcorr",
        Kind::Disk => "cylcorr",
        Kind::Rect => "boxcorr",
    };
    s.push_str(&format!(
        "{corr} '{}' source.cal ",
        opts.lib_name(outname, ".dat")
    ));
    if pmtype == 2 {
        s.push_str(if feq(h.0, 0.0) {
            "srcB_horiz2 "
        } else {
            "srcB_horiz "
        });
        s.push_str("srcB_vert ");
    } else if nh >= 2 {
        let span = h.1 - h.0;
        s.push_str(if span <= 90.0 + FTINY {
            "src_phi4 "
        } else if span <= 180.0 + FTINY {
            if feq(h.0, 90.0) {
                "src_phi2+90 "
            } else {
                "src_phi2 "
            }
        } else {
            "src_phi "
        });
        s.push_str("src_theta ");
        if rotated {
            s.push_str("-rz -90 ");
        }
    } else {
        s.push_str("src_theta ");
    }
    let g = format_g;
    if !sides || shape.kind == Kind::Sphere {
        s.push_str(&format!("\n0\n1 {}\n", g(mult / shape.area())));
    } else if shape.kind == Kind::Disk {
        s.push_str(&format!(
            "\n0\n3 {} {} {}\n",
            g(mult),
            g(shape.w),
            g(shape.h)
        ));
    } else {
        s.push_str(&format!(
            "\n0\n4 {} {} {} {}\n",
            g(mult),
            g(shape.l),
            g(shape.w),
            g(shape.h)
        ));
    }
    emitter(
        &mut s,
        &shape,
        &id,
        name,
        (lower, upper, sides),
        opts.meters2out,
        rgb,
        isillum,
    );
    rad.extend_from_slice(s.as_bytes());
    Ok(())
}

/// The light (or illum) and the surfaces it is on.
#[allow(clippy::too_many_arguments)]
fn emitter(
    s: &mut String,
    shape: &Shape,
    modifier: &str,
    name: &str,
    (lower, upper, sides): (bool, bool, bool),
    m2o: f64,
    rgb: [f32; 3],
    isillum: bool,
) {
    let g = format_g;
    let light = format!("{name}_light");
    s.push_str(&format!(
        "\n'{modifier}' {} '{light}'\n0\n0\n3 {} {} {}\n",
        if isillum { "illum" } else { "light" },
        g(rgb[0] as f64),
        g(rgb[1] as f64),
        g(rgb[2] as f64)
    ));
    // Corner k of the box: x from bit 0, y from bit 1, z from bit 2.
    let corner = |k: usize| {
        let half = |b: usize| if k >> b & 1 == 1 { 0.5 } else { -0.5 };
        format!(
            "\t{}\t{}\t{}\n",
            g(half(0) * shape.l * m2o),
            g(half(1) * shape.w * m2o),
            g(half(2) * shape.h * m2o)
        )
    };
    let mut rect = |suffix: &str, k: [usize; 4]| {
        s.push_str(&format!("\n'{light}' polygon '{name}{suffix}'\n0\n0\n12\n"));
        for c in k {
            s.push_str(&corner(c));
        }
    };
    match shape.kind {
        Kind::Rect => {
            if lower {
                rect(".d", [0, 2, 3, 1]);
            }
            if upper {
                rect(".u", [4, 5, 7, 6]);
            }
            if sides {
                rect(".1", [0, 1, 5, 4]);
                rect(".2", [1, 3, 7, 5]);
                rect(".3", [3, 2, 6, 7]);
                rect(".4", [2, 0, 4, 6]);
            }
        }
        Kind::Disk => {
            let (hh, r) = (0.5 * shape.h * m2o, 0.5 * shape.w * m2o);
            if lower {
                s.push_str(&format!(
                    "\n'{light}' ring '{name}.d'\n0\n0\n8\n\t0 0 {}\n\t0 0 -1\n\t0 {}\n",
                    g(-hh),
                    g(r)
                ));
            }
            if upper {
                s.push_str(&format!(
                    "\n'{light}' ring '{name}.u'\n0\n0\n8\n\t0 0 {}\n\t0 0 1\n\t0 {}\n",
                    g(hh),
                    g(r)
                ));
            }
            if sides {
                s.push_str(&format!(
                    "\n'{light}' cylinder '{name}.c'\n0\n0\n7\n\t0 0 {}\n\t0 0 {}\n\t{}\n",
                    g(hh),
                    g(-hh),
                    g(r)
                ));
            }
        }
        Kind::Sphere => s.push_str(&format!(
            "\n'{light}' sphere '{name}.s'\n0\n0\n4 0 0 0 {}\n",
            g(0.5 * shape.w * m2o)
        )),
    }
}
