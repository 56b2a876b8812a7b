//! The Materials and Geometry Format (MGF, Greg Ward's), read as RADIANCE's MGF library reads
//! it: one entity a line (`\` continues a line), named contexts for colours (`c`, `cxy`,
//! `cspec`, `cct`, `cmix`), materials (`m`, `sides`, `rd`, `td`, `ed`, `rs`, `ts`, `ir`) and
//! vertices (`v`, `p`, `n`), the object-name (`o`) and transform (`xf`, arrays by `-a`)
//! hierarchies, included files (`i`, with a transform), and geometry. A [`Handler`] receives
//! comments and the surfaces it turns into something (`f`, `sph`, `cyl`, `cone`, `ring`,
//! `ies`); faces with holes (`fh`) reach it as one face whose seams join the holes to the
//! outline, prisms (`prism`) as faces, tori (`torus`) as cones, each made through helper
//! vertices (`_pv1`…, `_tv1`, `_tv2`) whose coordinates pass through 12-digit text as
//! RADIANCE's do. Errors carry the file, line and what was wrong; an included file's error
//! also says where it was included from.

pub mod color;
pub mod xf;

use crate::obj2rad::normalize;
use color::{Color, Drand48};
use daylit_radfile::printf::format_g_digits;
use daylit_radfile::scan::{atof, atoi, is_float};
use glam::DVec3;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// The version of MGF the reader follows.
pub const VERSION: (u32, u32) = (2, 0);
/// The longest line (joined continuations included) the reader accepts, as RADIANCE's.
pub const MAX_LINE: usize = 64000;
/// Numbers at most this far from zero count as zero.
const FTINY: f64 = 1e-6;

/// What went wrong, by RADIANCE's MGF error classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Wrong number of arguments.
    ArgCount,
    /// An argument is not a number (or not an integer, or not a transform option).
    ArgType,
    /// An argument's value is out of its range.
    Illegal,
    /// A vertex, colour or material that was never defined.
    Undefined,
    /// A file that cannot be opened.
    NoFile,
    /// An included file failed (or left a transform open).
    Include,
    /// An array (`xf -a`) needs to read its lines again where that is impossible (standard
    /// input, or the array closed in another file).
    Seek,
    /// Reflectances and transmittances summing above 1 (or below 0).
    BadMaterial,
    /// A line over [`MAX_LINE`] characters.
    LineTooLong,
    /// An `o` or `xf` end with none open.
    Context,
}

impl Code {
    /// RADIANCE's wording.
    pub fn message(self) -> &'static str {
        match self {
            Code::ArgCount => "Wrong number of arguments",
            Code::ArgType => "Wrong argument type",
            Code::Illegal => "Illegal argument value",
            Code::Undefined => "Undefined reference",
            Code::NoFile => "Cannot open input file",
            Code::Include => "Error in included file",
            Code::Seek => "Seek failure",
            Code::BadMaterial => "Illegal material specification",
            Code::LineTooLong => "Input line too long",
            Code::Context => "Unmatched context close",
        }
    }
}

/// An error in one entity: its class and what was expected.
#[derive(Clone, Debug, PartialEq)]
pub struct MgErr {
    /// The class.
    pub code: Code,
    /// What was expected or found.
    pub detail: String,
}

/// An [`MgErr`] of `code` saying `detail`.
pub fn err(code: Code, detail: impl Into<String>) -> MgErr {
    MgErr {
        code,
        detail: detail.into(),
    }
}

/// An error located in the input: file, line, the entity's text, and the chain of includes.
#[derive(Clone, Debug, PartialEq)]
pub struct MgfError {
    /// The file (`<stdin>` for standard input).
    pub file: String,
    /// Its line (the last of a continued line).
    pub line: usize,
    /// The error.
    pub error: MgErr,
    /// The line's text.
    pub text: String,
    /// The `i` entities it was included through, innermost first: file and line.
    pub included_from: Vec<(String, usize)>,
}

impl fmt::Display for MgfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: ", self.file, self.line)?;
        } else {
            write!(f, "{}: ", self.file)?;
        }
        write!(f, "{}: {}", self.error.code.message(), self.error.detail)?;
        if !self.text.is_empty() {
            write!(f, " (in \"{}\")", self.text)?;
        }
        for (file, line) in &self.included_from {
            write!(f, "\n  included from {file}:{line}")?;
        }
        Ok(())
    }
}

impl std::error::Error for MgfError {}

/// A vertex: its point and (unit, or zero for none) normal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vertex {
    /// The point.
    pub p: [f64; 3],
    /// The normal; zero where none was given.
    pub n: [f64; 3],
}

/// A material, in the single precision RADIANCE keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Changes since the material was last written (a translator writes it again when
    /// non-zero, and resets it).
    pub clock: u32,
    /// One-sided (`sides 1`).
    pub sided: bool,
    /// Index of refraction, real part.
    pub nr: f32,
    /// Index of refraction, imaginary part.
    pub ni: f32,
    /// Diffuse reflectance and its colour.
    pub rd: f32,
    /// Colour of the diffuse reflectance.
    pub rd_c: Color,
    /// Diffuse transmittance.
    pub td: f32,
    /// Colour of the diffuse transmittance.
    pub td_c: Color,
    /// Diffuse emittance (lm/m²).
    pub ed: f32,
    /// Colour of the emittance.
    pub ed_c: Color,
    /// Specular reflectance.
    pub rs: f32,
    /// Colour of the specular reflectance.
    pub rs_c: Color,
    /// Roughness of the specular reflectance.
    pub rs_a: f32,
    /// Specular transmittance.
    pub ts: f32,
    /// Colour of the specular transmittance.
    pub ts_c: Color,
    /// Roughness of the specular transmittance.
    pub ts_a: f32,
}

impl Default for Material {
    /// The unnamed material: a two-sided perfect absorber.
    fn default() -> Self {
        Material {
            clock: 1,
            sided: false,
            nr: 1.0,
            ni: 0.0,
            rd: 0.0,
            rd_c: Color::default(),
            td: 0.0,
            td_c: Color::default(),
            ed: 0.0,
            ed_c: Color::default(),
            rs: 0.0,
            rs_c: Color::default(),
            rs_a: 0.0,
            ts: 0.0,
            ts_c: Color::default(),
            ts_a: 0.0,
        }
    }
}

/// Something kept in a named context table, with its change count.
trait Clocked: Clone + Default {
    fn clock(&mut self) -> &mut u32;
}

#[derive(Clone, Default)]
struct Counted<T> {
    value: T,
    clock: u32,
}

impl Clocked for Material {
    fn clock(&mut self) -> &mut u32 {
        &mut self.clock
    }
}
impl<T: Clone + Default> Clocked for Counted<T> {
    fn clock(&mut self) -> &mut u32 {
        &mut self.clock
    }
}

/// A context table: named entries, the unnamed one, and which is current.
struct Named<T> {
    index: HashMap<String, usize>,
    items: Vec<(String, Option<T>)>,
    unnamed: T,
    current: Option<usize>,
}

impl<T: Clocked> Named<T> {
    fn new() -> Self {
        Named {
            index: HashMap::new(),
            items: Vec::new(),
            unnamed: T::default(),
            current: None,
        }
    }

    fn get(&self, name: &str) -> Option<&T> {
        self.index.get(name).and_then(|&i| self.items[i].1.as_ref())
    }

    fn slot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.items.push((name.to_string(), None));
        self.index.insert(name.to_string(), self.items.len() - 1);
        self.items.len() - 1
    }

    fn cur(&self) -> &T {
        match self.current {
            Some(i) => self.items[i].1.as_ref().unwrap_or(&self.unnamed),
            None => &self.unnamed,
        }
    }

    fn cur_mut(&mut self) -> &mut T {
        match self.current {
            Some(i) => self.items[i].1.get_or_insert_with(T::default),
            None => &mut self.unnamed,
        }
    }

    fn cur_name(&self) -> Option<&str> {
        self.current.map(|i| self.items[i].0.as_str())
    }

    /// The `c`, `m` or `v` entity: the unnamed context (reset), a named one re-established,
    /// or (`name =` [template]) defined anew.
    fn entity(&mut self, what: &str, av: &[String]) -> Result<(), MgErr> {
        if av.len() > 4 {
            return Err(err(
                Code::ArgCount,
                format!("{} takes at most 3 arguments", av[0]),
            ));
        }
        if av.len() == 1 {
            self.unnamed = T::default();
            self.current = None;
            return Ok(());
        }
        if !is_name(&av[1]) {
            return Err(err(
                Code::Illegal,
                format!("{what} name \"{}\" must start with a letter", av[1]),
            ));
        }
        let slot = self.slot(&av[1]);
        self.current = Some(slot);
        if av.len() == 2 || (av.len() == 4 && av[1] == av[3]) {
            if self.items[slot].1.is_none() {
                return Err(err(
                    Code::Undefined,
                    format!("no {what} named \"{}\"", av[1]),
                ));
            }
            return Ok(());
        }
        if av[2] != "=" {
            return Err(err(
                Code::ArgType,
                format!("expected \"=\" after the {what} name, found \"{}\"", av[2]),
            ));
        }
        let old = self.items[slot].1.as_mut().map_or(0, |t| *t.clock());
        let mut new = if av.len() == 3 {
            T::default()
        } else {
            match self.get(&av[3]) {
                Some(t) => t.clone(),
                None => {
                    return Err(err(
                        Code::Undefined,
                        format!("no {what} named \"{}\" to copy", av[3]),
                    ))
                }
            }
        };
        *new.clock() = old + 1;
        self.items[slot].1 = Some(new);
        Ok(())
    }
}

/// RADIANCE's `isname`: leading underscores, then a letter, then visible characters.
fn is_name(s: &str) -> bool {
    let t = s.trim_start_matches('_');
    t.as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && t.bytes().all(|b| b.is_ascii_graphic())
}

/// A number argument, or an [`Code::ArgType`] error naming it.
fn num(w: &str, what: &str) -> Result<f64, MgErr> {
    if is_float(w.as_bytes()) {
        Ok(atof(w))
    } else {
        Err(err(
            Code::ArgType,
            format!("{what} must be a number, found \"{w}\""),
        ))
    }
}

/// A `%.12g` number, as RADIANCE writes the helper entities it makes.
fn g12(x: f64) -> String {
    format_g_digits(x, 12)
}

/// Where a line starts in a file: to read an array's lines again.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FilePos {
    fid: u32,
    lineno: usize,
    offset: usize,
}

/// An open input.
struct Source {
    name: String,
    data: Vec<u8>,
    offset: usize,
    lineno: usize,
    fid: u32,
    seekable: bool,
    /// The last line read, as text, for error messages.
    text: String,
}

/// A transform context: its own arguments (an array's `-a N` kept as `-i` and the current
/// index), the whole argument list (its own, then those of the contexts around it), the
/// cumulative matrix, scale and vertex reversal.
#[derive(Clone, Debug)]
struct XfCtx {
    own: Vec<String>,
    all: Vec<String>,
    m: xf::Mat4,
    sca: f64,
    rev: bool,
    array: Option<Array>,
}

#[derive(Clone, Debug)]
struct Array {
    start: FilePos,
    /// Per dimension: the index of its count in `own`, the count, the number of copies.
    dims: Vec<(usize, i64, i64)>,
}

impl Array {
    /// The object name of the current copy: `a` and the indices joined by `.`.
    fn name(&self) -> String {
        let idx: Vec<String> = self.dims.iter().map(|d| d.1.to_string()).collect();
        format!("a{}", idx.join("."))
    }
}

/// The surfaces and comments a [`Handler`] receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// `f v1 v2 v3 …`
    Face,
    /// `sph vc radius`
    Sphere,
    /// `cyl v1 radius v2`
    Cylinder,
    /// `cone v1 rad1 v2 rad2`
    Cone,
    /// `ring vc rmin rmax`
    Ring,
    /// `ies file [-m mult] [xform]`
    Ies,
}

/// What a translator does with the entities the reader does not keep as context.
pub trait Handler {
    /// A comment (`#` and its words).
    fn comment(&mut self, words: &[String]);
    /// A surface (`words[0]` is its keyword), with the contexts it is made in.
    fn geometry(&mut self, st: &mut State, kind: Geometry, words: &[String]) -> Result<(), MgErr>;
}

/// How an entity failed: here, or (an included file) at a place of its own.
enum Fail {
    Here(MgErr),
    Located(Box<MgfError>),
}

impl From<MgErr> for Fail {
    fn from(e: MgErr) -> Self {
        Fail::Here(e)
    }
}

/// An input to [`State::load`].
pub enum Input<'a> {
    /// A file, by its path.
    File(&'a str),
    /// Text read from standard input (its arrays cannot be read twice).
    Stdin(Vec<u8>),
}

/// The reader: every context, the open files, and what it counted.
pub struct State {
    colors: Named<Counted<Color>>,
    materials: Named<Material>,
    vertices: Named<Counted<Vertex>>,
    objects: Vec<String>,
    xfs: Vec<XfCtx>,
    /// The random numbers spectra are dithered with.
    pub rng: Drand48,
    files: Vec<Source>,
    next_fid: u32,
    /// Entities not known to MGF, since the last [`State::load`] began.
    pub unknown: u32,
    /// Warnings (the first unknown entity of each load, located).
    pub warnings: Vec<String>,
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl State {
    /// A reader with every context unnamed and empty.
    pub fn new() -> Self {
        State {
            colors: Named::new(),
            materials: Named::new(),
            vertices: Named::new(),
            objects: Vec::new(),
            xfs: Vec::new(),
            rng: Drand48::default(),
            files: Vec::new(),
            next_fid: 0,
            unknown: 0,
            warnings: Vec::new(),
        }
    }

    /// The current material.
    pub fn material(&self) -> &Material {
        self.materials.cur()
    }

    /// The current material, to change (its clock, the colour conversions it caches).
    pub fn material_mut(&mut self) -> &mut Material {
        self.materials.cur_mut()
    }

    /// The current material's name (`None` for the unnamed material).
    pub fn material_name(&self) -> Option<&str> {
        self.materials.cur_name()
    }

    /// A named vertex.
    pub fn vertex(&self, name: &str) -> Option<&Vertex> {
        self.vertices.get(name).map(|c| &c.value)
    }

    /// A named vertex, or an [`Code::Undefined`] error naming it.
    pub fn need_vertex(&self, name: &str) -> Result<&Vertex, MgErr> {
        self.vertex(name)
            .ok_or_else(|| err(Code::Undefined, format!("no vertex named \"{name}\"")))
    }

    /// The object names, outermost first (arrays add `a0`, `a1.2`, … for each copy).
    pub fn objects(&self) -> &[String] {
        &self.objects
    }

    /// The file being read.
    pub fn file_name(&self) -> Option<&str> {
        self.files.last().map(|f| f.name.as_str())
    }

    /// The transform's arguments, innermost context first (arrays as `-i` and the copy's
    /// index).
    pub fn xf_words(&self) -> &[String] {
        self.xfs.last().map_or(&[], |x| &x.all)
    }

    /// A point through the current transform.
    pub fn xf_point(&self, p: [f64; 3]) -> [f64; 3] {
        self.xfs.last().map_or(p, |x| xf::point(&x.m, p))
    }

    /// A direction rotated by the current transform (its scale divided out).
    pub fn xf_rotate(&self, v: [f64; 3]) -> [f64; 3] {
        match self.xfs.last() {
            None => v,
            Some(x) => xf::vector(&x.m, v).map(|c| c / x.sca),
        }
    }

    /// A length through the current transform's scale.
    pub fn xf_scale(&self, d: f64) -> f64 {
        self.xfs.last().map_or(d, |x| d * x.sca)
    }

    /// Does the current transform mirror (so faces' vertices go the other way round)?
    pub fn xf_reversed(&self) -> bool {
        self.xfs.last().is_some_and(|x| x.rev)
    }

    /// Reads one input to its end through `h`. Contexts carry over from earlier loads.
    pub fn load(&mut self, h: &mut dyn Handler, input: Input) -> Result<(), MgfError> {
        self.unknown = 0;
        let src = match input {
            Input::File(name) => {
                let data = std::fs::read(name).map_err(|e| MgfError {
                    file: name.to_string(),
                    line: 0,
                    error: err(Code::NoFile, e.to_string()),
                    text: String::new(),
                    included_from: Vec::new(),
                })?;
                self.source(name.to_string(), data, true)
            }
            Input::Stdin(data) => self.source("<stdin>".into(), data, false),
        };
        self.files.push(src);
        let r = self.read_all(h);
        self.files.pop();
        r
    }

    fn source(&mut self, name: String, data: Vec<u8>, seekable: bool) -> Source {
        self.next_fid += 1;
        Source {
            name,
            data,
            offset: 0,
            lineno: 0,
            fid: self.next_fid,
            seekable,
            text: String::new(),
        }
    }

    /// Reads and handles the top file's lines to its end.
    fn read_all(&mut self, h: &mut dyn Handler) -> Result<(), MgfError> {
        loop {
            let line = match self.read_line() {
                Ok(Some(l)) => l,
                Ok(None) => return Ok(()),
                Err(e) => return Err(self.locate(e)),
            };
            let words = split(&line);
            if words.is_empty() {
                continue;
            }
            match self.handle(h, &words) {
                Ok(()) => {}
                Err(Fail::Here(e)) => return Err(self.locate(e)),
                Err(Fail::Located(mut e)) => {
                    let f = self.files.last().expect("open file");
                    e.included_from.push((f.name.clone(), f.lineno));
                    return Err(*e);
                }
            }
        }
    }

    fn locate(&self, e: MgErr) -> MgfError {
        let f = self.files.last().expect("open file");
        MgfError {
            file: f.name.clone(),
            line: f.lineno,
            error: e,
            text: f.text.trim_end().to_string(),
            included_from: Vec::new(),
        }
    }

    /// The next line of the top file, continuations joined (`\` before the newline dropped).
    fn read_line(&mut self) -> Result<Option<Vec<u8>>, MgErr> {
        let f = self.files.last_mut().expect("open file");
        let mut buf: Vec<u8> = Vec::new();
        loop {
            if f.offset >= f.data.len() {
                break;
            }
            let rest = &f.data[f.offset..];
            let room = MAX_LINE - 1 - buf.len();
            let take = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |k| k + 1)
                .min(room);
            buf.extend_from_slice(&rest[..take]);
            f.offset += take;
            if buf.len() >= MAX_LINE - 1 {
                f.lineno += 1;
                f.text = String::new();
                return Err(err(
                    Code::LineTooLong,
                    format!("a line may hold at most {} characters", MAX_LINE - 2),
                ));
            }
            f.lineno += 1;
            if !(buf.len() > 1 && buf[buf.len() - 2] == b'\\') {
                break;
            }
        }
        if buf.is_empty() {
            return Ok(None);
        }
        f.text = String::from_utf8_lossy(&buf).into_owned();
        // A backslash right before a newline goes.
        let mut line = Vec::with_capacity(buf.len());
        for (k, &b) in buf.iter().enumerate() {
            if !(b == b'\\' && buf.get(k + 1) == Some(&b'\n')) {
                line.push(b);
            }
        }
        Ok(Some(line))
    }

    /// Handles one entity (its words, keyword first).
    fn handle(&mut self, h: &mut dyn Handler, av: &[String]) -> Result<(), Fail> {
        match av[0].as_str() {
            "#" => h.comment(av),
            "c" => self.colors.entity("color", av)?,
            "cxy" | "cspec" | "cct" | "cmix" => self.color(av)?,
            "m" => self.materials.entity("material", av)?,
            "sides" | "rd" | "td" | "ed" | "rs" | "ts" | "ir" => self.material_entity(av)?,
            "v" => self.vertices.entity("vertex", av)?,
            "p" | "n" => self.vertex_entity(av)?,
            "o" => self.object(av)?,
            "xf" => self.xf(av)?,
            "i" => self.include(h, av)?,
            "f" => h.geometry(self, Geometry::Face, av)?,
            "fh" => self.face_with_holes(h, av)?,
            "sph" => h.geometry(self, Geometry::Sphere, av)?,
            "cyl" => h.geometry(self, Geometry::Cylinder, av)?,
            "cone" => h.geometry(self, Geometry::Cone, av)?,
            "ring" => h.geometry(self, Geometry::Ring, av)?,
            "ies" => h.geometry(self, Geometry::Ies, av)?,
            "prism" => self.prism(h, av)?,
            "torus" => self.torus(h, av)?,
            other => {
                if self.unknown == 0 {
                    let f = self.files.last().expect("open file");
                    self.warnings.push(format!(
                        "{}:{}: unknown entity \"{other}\" (skipped)",
                        f.name, f.lineno
                    ));
                }
                self.unknown += 1;
            }
        }
        Ok(())
    }

    /// Handles an entity the reader makes itself (a helper vertex, face or cone).
    fn make(&mut self, h: &mut dyn Handler, words: &[&str]) -> Result<(), Fail> {
        let av: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        self.handle(h, &av)
    }

    fn color(&mut self, av: &[String]) -> Result<(), MgErr> {
        let name = self.colors.cur_name().map(String::from);
        match av[0].as_str() {
            "cxy" => {
                if av.len() != 3 {
                    return Err(err(Code::ArgCount, "cxy takes x and y"));
                }
                let (x, y) = (num(&av[1], "x")? as f32, num(&av[2], "y")? as f32);
                self.colors.cur_mut().value.set_xy(x, y);
                if x < 0.0 || y < 0.0 || x + y > 1.0 {
                    return Err(err(
                        Code::Illegal,
                        "chromaticity x and y must not be negative, nor sum above 1",
                    ));
                }
            }
            "cspec" => {
                if av.len() < 5 {
                    return Err(err(
                        Code::ArgCount,
                        "cspec takes the first and last wavelengths and at least 2 values",
                    ));
                }
                let lo = num(&av[1], "the first wavelength")?;
                let hi = num(&av[2], "the last wavelength")?;
                let vals = av[3..]
                    .iter()
                    .map(|w| num(w, "a spectral value").map(|v| v as f32))
                    .collect::<Result<Vec<f32>, _>>()?;
                let c = &mut self.colors.cur_mut().value;
                if c.set_spectrum(lo, hi, &vals, &mut self.rng) <= FTINY {
                    return Err(err(
                        Code::Illegal,
                        "spectrum must overlap 380-780 nm with a positive luminance",
                    ));
                }
                c.spectrum_name = name;
            }
            "cct" => {
                if av.len() != 2 {
                    return Err(err(Code::ArgCount, "cct takes a temperature"));
                }
                let t = num(&av[1], "the temperature")?;
                let c = &mut self.colors.cur_mut().value;
                if !c.set_temperature(t, &mut self.rng) {
                    return Err(err(
                        Code::Illegal,
                        "colour temperature must be at least 1000 K",
                    ));
                }
                c.spectrum_name = name;
            }
            _ => {
                // cmix w1 c1 w2 c2 …
                if av.len() < 5 || !(av.len() - 1).is_multiple_of(2) {
                    return Err(err(
                        Code::ArgCount,
                        "cmix takes pairs of a weight and a colour, at least two",
                    ));
                }
                let mut wsum = num(&av[1], "a weight")?;
                let first = self.colors.get(&av[2]).map(|c| c.value.clone());
                let Some(mut mixed) = first else {
                    return Err(err(
                        Code::Undefined,
                        format!("no color named \"{}\"", av[2]),
                    ));
                };
                for pair in av[3..].chunks(2) {
                    let w = num(&pair[0], "a weight")?;
                    let Some(&slot) = self.colors.index.get(&pair[1]) else {
                        return Err(err(
                            Code::Undefined,
                            format!("no color named \"{}\"", pair[1]),
                        ));
                    };
                    let Some(other) = self.colors.items[slot].1.as_mut() else {
                        return Err(err(
                            Code::Undefined,
                            format!("no color named \"{}\"", pair[1]),
                        ));
                    };
                    mixed = color::mix(wsum, &mut mixed, w, &mut other.value, &mut self.rng);
                    wsum += w;
                }
                self.colors.cur_mut().value = mixed;
                if wsum <= 0.0 {
                    return Err(err(Code::Illegal, "cmix weights must sum above 0"));
                }
            }
        }
        self.colors.cur_mut().clock += 1;
        Ok(())
    }

    fn material_entity(&mut self, av: &[String]) -> Result<(), MgErr> {
        let c = self.colors.cur().value.clone();
        let m = self.materials.cur_mut();
        let unit = |v: f32, what: &str| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(err(Code::Illegal, format!("{what} must be from 0 to 1")))
            }
        };
        let args = |n: usize, what: &str| {
            if av.len() == n + 1 {
                Ok(())
            } else {
                Err(err(Code::ArgCount, format!("{} takes {what}", av[0])))
            }
        };
        match av[0].as_str() {
            "sides" => {
                args(1, "1 or 2")?;
                if !xf::is_int(&av[1]) {
                    return Err(err(
                        Code::ArgType,
                        format!("sides must be 1 or 2, found \"{}\"", av[1]),
                    ));
                }
                match atoi(&av[1]) {
                    1 => m.sided = true,
                    2 => m.sided = false,
                    _ => return Err(err(Code::Illegal, "sides must be 1 or 2")),
                }
            }
            "ir" => {
                args(2, "the real and imaginary index of refraction")?;
                m.nr = num(&av[1], "the index of refraction")? as f32;
                m.ni = num(&av[2], "the imaginary index")? as f32;
                if m.nr as f64 <= FTINY {
                    return Err(err(Code::Illegal, "index of refraction must be above 0"));
                }
            }
            "rd" | "td" | "ed" => {
                args(1, "one value")?;
                let v = num(&av[1], &av[0])? as f32;
                match av[0].as_str() {
                    "rd" => {
                        m.rd = v;
                        unit(v, "rd")?;
                        m.rd_c = c;
                    }
                    "td" => {
                        m.td = v;
                        unit(v, "td")?;
                        m.td_c = c;
                    }
                    _ => {
                        m.ed = v;
                        if v < 0.0 {
                            return Err(err(Code::Illegal, "ed must not be negative"));
                        }
                        m.ed_c = c;
                    }
                }
            }
            _ => {
                args(2, "a value and a roughness")?;
                let v = num(&av[1], &av[0])? as f32;
                let a = num(&av[2], "the roughness")? as f32;
                let bad = !(0.0..=1.0).contains(&v) || a < 0.0;
                if av[0] == "rs" {
                    (m.rs, m.rs_a) = (v, a);
                } else {
                    (m.ts, m.ts_a) = (v, a);
                }
                if bad {
                    return Err(err(
                        Code::Illegal,
                        format!("{} must be from 0 to 1, its roughness not negative", av[0]),
                    ));
                }
                if av[0] == "rs" {
                    m.rs_c = c;
                } else {
                    m.ts_c = c;
                }
            }
        }
        m.clock += 1;
        Ok(())
    }

    fn vertex_entity(&mut self, av: &[String]) -> Result<(), MgErr> {
        if av.len() != 4 {
            return Err(err(Code::ArgCount, format!("{} takes x, y and z", av[0])));
        }
        let v = [num(&av[1], "x")?, num(&av[2], "y")?, num(&av[3], "z")?];
        let cur = self.vertices.cur_mut();
        if av[0] == "p" {
            cur.value.p = v;
        } else {
            cur.value.n = normalize(DVec3::from_array(v)).0.to_array();
        }
        cur.clock += 1;
        Ok(())
    }

    fn object(&mut self, av: &[String]) -> Result<(), MgErr> {
        match av.len() {
            1 => {
                if self.objects.pop().is_none() {
                    return Err(err(Code::Context, "o ends an object, but none is open"));
                }
            }
            2 => {
                if !is_name(&av[1]) {
                    return Err(err(
                        Code::Illegal,
                        format!("object name \"{}\" must start with a letter", av[1]),
                    ));
                }
                self.objects.push(av[1].clone());
            }
            _ => return Err(err(Code::ArgCount, "o takes one name (or none, to end)")),
        }
        Ok(())
    }

    /// `xf` with arguments opens a transform context; alone, it closes one, or starts an
    /// array's next copy (reading its lines again).
    fn xf(&mut self, av: &[String]) -> Result<(), MgErr> {
        if av.len() == 1 {
            let Some(top) = self.xfs.last_mut() else {
                return Err(err(Code::Context, "xf ends a transform, but none is open"));
            };
            let mut next = false;
            if let Some(arr) = top.array.as_mut() {
                self.objects.pop();
                for d in (0..arr.dims.len()).rev() {
                    arr.dims[d].1 += 1;
                    if arr.dims[d].1 < arr.dims[d].2 {
                        next = true;
                        break;
                    }
                    arr.dims[d].1 = 0;
                }
                if next {
                    let start = arr.start;
                    let name = arr.name();
                    let f = self.files.last_mut().expect("open file");
                    if start.fid != f.fid {
                        return Err(err(
                            Code::Seek,
                            "an array must end in the file it starts in",
                        ));
                    }
                    if start.lineno != f.lineno {
                        if !f.seekable {
                            return Err(err(
                                Code::Seek,
                                "an array (xf -a) cannot read standard input twice",
                            ));
                        }
                        f.offset = start.offset;
                        f.lineno = start.lineno;
                    }
                    self.objects.push(name);
                }
            }
            if !next {
                self.xfs.pop();
                return Ok(());
            }
            self.compute_top()
        } else {
            let mut own = Vec::new();
            let mut dims = Vec::new();
            let mut i = 1;
            while i < av.len() {
                if av[i] == "-a" {
                    own.push("-i".to_string());
                    let n = av.get(i + 1).map_or(0, |w| atoi(w));
                    dims.push((own.len(), 0, n));
                    own.push("0".to_string());
                    i += 2;
                } else {
                    own.push(av[i].clone());
                    i += 1;
                }
            }
            if dims.len() > 8 {
                return Err(err(
                    Code::ArgType,
                    "an xf may make arrays of at most 8 dimensions",
                ));
            }
            let array = if dims.is_empty() {
                None
            } else {
                let f = self.files.last().expect("open file");
                let a = Array {
                    start: FilePos {
                        fid: f.fid,
                        lineno: f.lineno,
                        offset: f.offset,
                    },
                    dims,
                };
                self.objects.push(a.name());
                Some(a)
            };
            self.xfs.push(XfCtx {
                own,
                all: Vec::new(),
                m: xf::IDENT,
                sca: 1.0,
                rev: false,
                array,
            });
            self.compute_top()
        }
    }

    /// The top transform context's matrix from its own arguments and the one around it.
    fn compute_top(&mut self) -> Result<(), MgErr> {
        let n = self.xfs.len();
        let (outer, top) = self.xfs.split_at_mut(n - 1);
        let top = &mut top[0];
        if let Some(a) = &top.array {
            for &(k, i, _) in &a.dims {
                top.own[k] = i.to_string();
            }
        }
        let (m, sca, used) = xf::parse(&top.own);
        if used != top.own.len() {
            return Err(err(
                Code::ArgType,
                format!(
                    "expected a transform option (-t x y z, -rx/-ry/-rz deg, -s f, -mx/-my/-mz, -i n, -a n), found \"{}\"",
                    top.own[used]
                ),
            ));
        }
        top.m = m;
        top.rev = sca < 0.0;
        top.sca = sca.abs();
        top.all = top.own.clone();
        if let Some(prev) = outer.last() {
            top.m = xf::mult(&top.m, &prev.m);
            top.sca *= prev.sca;
            top.rev ^= prev.rev;
            top.all.extend(prev.all.iter().cloned());
        }
        Ok(())
    }

    /// `i file [xform]`: the file (relative to the including one) read through, as many
    /// times as its transform's arrays ask.
    fn include(&mut self, h: &mut dyn Handler, av: &[String]) -> Result<(), Fail> {
        if av.len() < 2 {
            return Err(err(Code::ArgCount, "i takes a file name (and a transform)").into());
        }
        let cur = self.files.last().expect("open file");
        let path = if av[1].starts_with('/') {
            av[1].clone()
        } else {
            match cur.name.rfind('/') {
                Some(k) => format!("{}{}", &cur.name[..=k], av[1]),
                None => av[1].clone(),
            }
        };
        let data = std::fs::read(Path::new(&path))
            .map_err(|e| err(Code::NoFile, format!("{path}: {e}")))?;
        let src = self.source(path, data, true);
        self.files.push(src);
        let depth = self.xfs.len();
        let r = self.include_body(h, av, depth);
        self.files.pop();
        r
    }

    fn include_body(
        &mut self,
        h: &mut dyn Handler,
        av: &[String],
        depth: usize,
    ) -> Result<(), Fail> {
        if av.len() > 2 {
            let mut x = vec!["xf".to_string()];
            x.extend(av[2..].iter().cloned());
            self.xf(&x)?;
        }
        loop {
            self.read_all(h).map_err(|e| Fail::Located(Box::new(e)))?;
            if av.len() > 2 {
                self.xf(&["xf".to_string()])?;
            }
            if self.xfs.len() == depth {
                return Ok(());
            }
            if self.xfs.len() < depth || av.len() == 2 {
                return Err(err(
                    Code::Include,
                    format!("{}: its xf contexts do not balance", av[1]),
                )
                .into());
            }
        }
    }

    /// `fh v1 v2 v3 … - h1 h2 h3 … - …`: one face, each hole joined to the outline by a seam
    /// (from the outline's last vertex to the hole's last, round the hole, and back).
    fn face_with_holes(&mut self, h: &mut dyn Handler, av: &[String]) -> Result<(), Fail> {
        let ac = av.len();
        let mut out: Vec<String> = vec!["f".into()];
        let mut lastp = 0;
        let mut i = 1;
        while i < ac {
            if av[i].starts_with('-') {
                if i < 4 {
                    return Err(err(
                        Code::ArgCount,
                        "fh needs at least 3 outline vertices before a hole",
                    )
                    .into());
                }
                if i >= ac - 1 {
                    break;
                }
                if lastp == 0 {
                    lastp = i - 1;
                }
                let mut j = i + 1;
                while j < ac - 1 && !av[j + 1].starts_with('-') {
                    j += 1;
                }
                if j - i < 3 {
                    return Err(
                        err(Code::ArgCount, "each hole of fh needs at least 3 vertices").into(),
                    );
                }
                out.push(av[j].clone());
            } else {
                out.push(av[i].clone());
            }
            i += 1;
        }
        if lastp != 0 {
            out.push(av[lastp].clone());
        }
        h.geometry(self, Geometry::Face, &out)?;
        Ok(())
    }

    /// `prism v1 v2 v3 … length`: the end face, its copy moved `length` against the face's
    /// normal, and the sides between them.
    fn prism(&mut self, h: &mut dyn Handler, av: &[String]) -> Result<(), Fail> {
        let ac = av.len();
        if ac < 5 {
            return Err(err(
                Code::ArgCount,
                "prism takes at least 3 vertices and a length",
            )
            .into());
        }
        let length = num(&av[ac - 1], "the prism's length")?;
        if length.abs() <= FTINY {
            return Err(err(Code::Illegal, "the prism's length must not be 0").into());
        }
        let p0 = DVec3::from_array(self.need_vertex(&av[1])?.p);
        let mut hasnorm = 0;
        let mut norm = DVec3::ZERO;
        let mut v1 = DVec3::ZERO;
        for w in &av[2..ac - 1] {
            let cv = self.need_vertex(w)?;
            hasnorm += (DVec3::from_array(cv.n).length_squared() > FTINY * FTINY) as usize;
            let v2 = DVec3::from_array(cv.p) - p0;
            norm += v1.cross(v2);
            v1 = v2;
        }
        let (norm, len) = normalize(norm);
        if len == 0.0 {
            return Err(err(Code::Illegal, "the prism's vertices must not be in a line").into());
        }
        let n = ac - 2;
        let names: Vec<String> = (1..=n).map(|i| format!("_pv{i}")).collect();
        for i in 0..n {
            self.make(h, &["v", &names[i], "=", &av[i + 1]])?;
            let p = self.need_vertex(&av[i + 1])?.p;
            let q: Vec<String> = (0..3).map(|j| g12(p[j] - length * norm[j])).collect();
            self.make(h, &["p", &q[0], &q[1], &q[2]])?;
        }
        // Sides.
        let (mut c, mut d) = (av[n].clone(), names[n - 1].clone());
        for i in 0..n {
            let (a, b) = (names[i].clone(), av[i + 1].clone());
            self.make(h, &["f", &a, &b, &c, &d])?;
            c = b;
            d = a;
        }
        // The moved face, reversed.
        let mut top: Vec<String> = vec!["f".into()];
        for i in (0..n).rev() {
            if hasnorm > 0 {
                self.make(h, &["v", &names[i]])?;
                self.make(h, &["n", "0", "0", "0"])?;
            }
            top.push(names[i].clone());
        }
        // (normals zeroed in order 1..n, as RADIANCE does)
        let top_refs: Vec<&str> = top.iter().map(String::as_str).collect();
        self.make(h, &top_refs)?;
        let mut bottom: Vec<String> = vec!["f".into()];
        for i in 0..n {
            if hasnorm > 0 {
                self.make(h, &["v", &names[i], "=", &av[i + 1]])?;
                self.make(h, &["n", "0", "0", "0"])?;
                bottom.push(names[i].clone());
            } else {
                bottom.push(av[i + 1].clone());
            }
        }
        let refs: Vec<&str> = bottom.iter().map(String::as_str).collect();
        self.make(h, &refs)?;
        Ok(())
    }

    /// `torus vc rmin rmax`: cones round the tube, outer half then inner half, through helper
    /// vertices on the axis.
    fn torus(&mut self, h: &mut dyn Handler, av: &[String]) -> Result<(), Fail> {
        const NQCD: usize = 5;
        if av.len() != 4 {
            return Err(err(Code::ArgCount, "torus takes a centre vertex and two radii").into());
        }
        let cv = self.need_vertex(&av[1])?.clone();
        if DVec3::from_array(cv.n).length_squared() <= FTINY * FTINY {
            return Err(err(
                Code::Illegal,
                format!("torus centre \"{}\" needs a normal", av[1]),
            )
            .into());
        }
        let mut minrad = num(&av[2], "the inner radius")?;
        if minrad.abs() <= FTINY {
            minrad = 0.0;
        }
        let maxrad = num(&av[3], "the outer radius")?;
        let sgn = if minrad > 0.0 {
            1.0
        } else if minrad < 0.0 {
            -1.0
        } else if maxrad > 0.0 {
            1.0
        } else if maxrad < 0.0 {
            -1.0
        } else {
            return Err(err(Code::Illegal, "torus radii must not both be 0").into());
        };
        if sgn * (maxrad - minrad) <= 0.0 {
            return Err(err(Code::Illegal, "torus inner radius must be below the outer").into());
        }
        let half = 0.5 * (maxrad - minrad);
        let along =
            |s: f64| -> Vec<String> { (0..3).map(|j| g12(cv.p[j] + s * cv.n[j])).collect() };
        self.make(h, &["v", "_tv2", "=", &av[1]])?;
        let p = along(half * sgn);
        self.make(h, &["p", &p[0], &p[1], &p[2]])?;
        let avgrad = 0.5 * (minrad + maxrad);
        let mut r2 = g12(avgrad);
        for i in 1..=4 * NQCD {
            let theta = i as f64 * (std::f64::consts::PI / 2.0) / NQCD as f64;
            if i == 2 * NQCD + 1 {
                r2 = g12(-avgrad);
            }
            let r_next = if i <= 2 * NQCD {
                avgrad + half * theta.sin()
            } else {
                -avgrad - half * theta.sin()
            };
            let p = along(half * sgn * theta.cos());
            self.make(h, &["v", "_tv1", "=", "_tv2"])?;
            self.make(h, &["v", "_tv2"])?;
            self.make(h, &["p", &p[0], &p[1], &p[2]])?;
            let r1 = std::mem::replace(&mut r2, g12(r_next));
            self.make(h, &["cone", "_tv1", &r1, "_tv2", &r2])?;
        }
        Ok(())
    }
}

/// A line's words, split at C's white space.
fn split(line: &[u8]) -> Vec<String> {
    line.split(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect()
}
