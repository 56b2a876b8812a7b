//! Writing BSDF XML files as RADIANCE 6.0a's `wrapBSDF` does: Klems matrices or tensor-tree
//! data put into a WindowElement file, from a template (RADIANCE's minimal one, the WINDOW 6
//! one) or an existing file, with material fields, an MGF geometry block, comments and the
//! angle basis definition.
//!
//! The output is byte for byte what `wrapBSDF` writes: the template is re-serialised the way
//! RADIANCE's XML library writes a tree (comments and processing instructions dropped, every
//! element written with a start and an end tag, `&`, `<`, `>` escaped), the new data blocks
//! go just before the last `</Layer>`, and Klems flux factors corrected with `-c` are written
//! as ` %.3e` per value, one matrix row a line.

use crate::klems::Basis;
use crate::BsdfError;
use daylit_radfile::printf::{format_e, format_g};

/// RADIANCE's default template (`minimalBSDFt.xml`), without its revision comment.
pub const MINIMAL_TEMPLATE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<WindowElement xmlns="http://windows.lbl.gov" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://windows.lbl.gov/BSDF-v1.4.xsd">
<WindowElementType>System</WindowElementType>
<FileType>BSDF</FileType>
<Optical>
<Layer>
	<Material>
		<Name>Name</Name>
		<Manufacturer>Manufacturer</Manufacturer>
		<DeviceType>Other</DeviceType>
	</Material>
	<Geometry/>
	<DataDefinition/>
</Layer>
</Optical>
</WindowElement>
"#;

/// RADIANCE's WINDOW 6 template (`WINDOW6BSDFt.xml`, `wrapBSDF -W`), without its revision
/// comment.
pub const WINDOW6_TEMPLATE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<WindowElement xmlns="http://windows.lbl.gov" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://windows.lbl.gov/BSDF-v1.4.xsd">
<WindowElementType>System</WindowElementType>
<FileType>BSDF</FileType>
<Optical>
<Layer>
	<Material>
		<Name/>
		<Manufacturer/>
		<Thickness/>
		<DeviceType>Other</DeviceType>
		<ThermalConductivity>1</ThermalConductivity>
		<EmissivityFront>0.9</EmissivityFront>
		<EmissivityBack>0.9</EmissivityBack>
		<TIR>0.1</TIR>
		<EffectiveOpennessFraction>0.05</EffectiveOpennessFraction>
	</Material>
	<Geometry/>
	<DataDefinition/>
</Layer>
</Optical>
</WindowElement>
"#;

/// The units `-u` accepts (RADIANCE takes any part of this text).
pub const LEGAL_UNITS: &str = "meter|foot|inch|centimeter|millimeter";

/// The angle basis of the data (`-a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapBasis {
    /// `kf`: LBNL/Klems Full, 145 patches.
    KlemsFull,
    /// `kh`: LBNL/Klems Half, 77 patches.
    KlemsHalf,
    /// `kq`: LBNL/Klems Quarter, 41 patches.
    KlemsQuarter,
    /// `t3`: isotropic tensor tree.
    Tree3,
    /// `t4`: anisotropic tensor tree.
    Tree4,
}

impl WrapBasis {
    const ALL: [WrapBasis; 5] = [
        WrapBasis::KlemsFull,
        WrapBasis::KlemsHalf,
        WrapBasis::KlemsQuarter,
        WrapBasis::Tree3,
        WrapBasis::Tree4,
    ];

    /// The basis an `-a` argument names (any letter case), if any.
    pub fn from_flag(s: &str) -> Option<WrapBasis> {
        match s.to_ascii_lowercase().as_str() {
            "kf" => Some(WrapBasis::KlemsFull),
            "kh" => Some(WrapBasis::KlemsHalf),
            "kq" => Some(WrapBasis::KlemsQuarter),
            "t3" => Some(WrapBasis::Tree3),
            "t4" => Some(WrapBasis::Tree4),
            _ => None,
        }
    }

    /// The Klems basis, for the Klems kinds.
    pub fn klems(self) -> Option<Basis> {
        let name = self.klems_name()?;
        Basis::standard().into_iter().find(|b| b.name == name)
    }

    fn klems_name(self) -> Option<&'static str> {
        match self {
            WrapBasis::KlemsFull => Some("LBNL/Klems Full"),
            WrapBasis::KlemsHalf => Some("LBNL/Klems Half"),
            WrapBasis::KlemsQuarter => Some("LBNL/Klems Quarter"),
            _ => None,
        }
    }

    fn structure(self) -> &'static str {
        match self {
            WrapBasis::Tree3 => "TensorTree3",
            WrapBasis::Tree4 => "TensorTree4",
            _ => "Columns",
        }
    }
}

/// The spectrum of a data block (`-s`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spectrum {
    /// `Visible` or `CIE-Y` (the default).
    Visible,
    /// `Solar`.
    Solar,
    /// `NIR`.
    Nir,
    /// `CIE-X`.
    CieX,
    /// `CIE-Z`.
    CieZ,
    /// `CIE-u`.
    CieU,
    /// `CIE-v`.
    CieV,
    /// A spectral sensitivity file, by name.
    File(String),
}

impl Spectrum {
    /// The spectrum an `-s` argument names: a standard name (any letter case) or a file.
    pub fn from_arg(s: &str) -> Spectrum {
        match s.to_ascii_lowercase().as_str() {
            "solar" => Spectrum::Solar,
            "visible" | "cie-y" => Spectrum::Visible,
            "cie-x" => Spectrum::CieX,
            "cie-z" => Spectrum::CieZ,
            "cie-u" => Spectrum::CieU,
            "cie-v" => Spectrum::CieV,
            "nir" => Spectrum::Nir,
            _ => Spectrum::File(s.to_string()),
        }
    }

    /// The `<Wavelength>`, `<SourceSpectrum>` and `<DetectorSpectrum>` lines.
    fn header(&self) -> String {
        const D65: &str = "CIE Illuminant D65 1nm.ssp";
        let (wl, src, det): (String, &str, Option<String>) = match self {
            Spectrum::Visible => ("Visible".into(), D65, Some("ASTM E308 1931 Y.dsp".into())),
            Spectrum::CieX => ("CIE-X".into(), D65, Some("ASTM E308 1931 X.dsp".into())),
            Spectrum::CieZ => ("CIE-Z".into(), D65, Some("ASTM E308 1931 Z.dsp".into())),
            Spectrum::CieU => ("CIE-u".into(), D65, None),
            Spectrum::CieV => ("CIE-v".into(), D65, None),
            Spectrum::Solar => ("Solar".into(), D65, Some("None".into())),
            Spectrum::Nir => ("NIR".into(), "PLACE_HOLDER", Some("PLACE_HOLDER".into())),
            Spectrum::File(f) => {
                // RADIANCE cuts the name at its last dot, wherever it is.
                let stem = f.rfind('.').map_or(f.as_str(), |p| &f[..p]);
                (stem.to_string(), D65, Some(f.clone()))
            }
        };
        let mut s = format!("\t\t<Wavelength unit=\"Integral\">{wl}</Wavelength>\n");
        s += &format!("\t\t<SourceSpectrum>{src}</SourceSpectrum>\n");
        if let Some(d) = det {
            s += &format!("\t\t<DetectorSpectrum>{d}</DetectorSpectrum>\n");
        }
        s
    }
}

/// Which scattering a data block holds, as the file labels it (`-tf`, `-tb`, `-rf`, `-rb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `-tf`: "Transmission Front".
    TransmissionFront,
    /// `-tb`: "Transmission Back".
    TransmissionBack,
    /// `-rf`: "Reflection Front".
    ReflectionFront,
    /// `-rb`: "Reflection Back".
    ReflectionBack,
}

impl Direction {
    /// The `<WavelengthDataDirection>` text.
    pub fn label(self) -> &'static str {
        match self {
            Direction::TransmissionFront => "Transmission Front",
            Direction::TransmissionBack => "Transmission Back",
            Direction::ReflectionFront => "Reflection Front",
            Direction::ReflectionBack => "Reflection Back",
        }
    }
}

/// One block of scattering data.
#[derive(Clone, Debug, PartialEq)]
pub struct DataBlock {
    /// Which scattering.
    pub direction: Direction,
    /// Its spectrum.
    pub spectrum: Spectrum,
    /// Where the data came from (for messages).
    pub source: String,
    /// The data as given: a matrix in text (incident directions across, exiting directions
    /// down) or a tensor tree's `{ … }` text.
    pub text: String,
}

/// What to wrap, and how (the options of `wrapBSDF`).
#[derive(Clone, Debug, Default)]
pub struct Wrap {
    /// The XML to start from and its name for messages; `None` is RADIANCE's minimal
    /// template.
    pub input: Option<(String, String)>,
    /// Whether `input` is the WINDOW 6 template (`-W`): then missing required fields are
    /// warned about.
    pub window6: bool,
    /// Field assignments (`-f`), each `tag=value;tag=value…`.
    pub fields: Vec<String>,
    /// The unit of dimensions and geometry (`-u`; "meter" when `None`).
    pub unit: Option<String>,
    /// MGF geometry text (`-g`).
    pub geometry: Option<String>,
    /// The angle basis (`-a`); `None` takes it from the input's `<DataDefinition>`.
    pub basis: Option<WrapBasis>,
    /// Divide Klems flux factors by the exiting patch's projected solid angle (`-c`).
    pub correct_solid_angle: bool,
    /// Comments for the prologue (`-C`).
    pub comments: Vec<String>,
    /// The data blocks, in order.
    pub blocks: Vec<DataBlock>,
}

/// The written file and the warnings RADIANCE would print on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Wrapped {
    /// The whole XML file.
    pub xml: String,
    /// Warnings (one a line, without the program name).
    pub warnings: Vec<String>,
}

/// The material fields `-f` knows by short name: short name, full tag, has a unit, required
/// by WINDOW.
const FIELDS: [(&str, &str, bool, bool); 11] = [
    ("m", "Manufacturer", false, true),
    ("n", "Name", false, true),
    ("d", "DeviceType", false, false),
    ("c", "ThermalConductivity", false, false),
    ("ef", "EmissivityFront", false, false),
    ("eb", "EmissivityBack", false, false),
    ("tir", "TIR", false, false),
    ("eo", "EffectiveOpennessFraction", false, false),
    ("t", "Thickness", true, true),
    ("h", "Height", true, false),
    ("w", "Width", true, false),
];

/// An element of the tree as RADIANCE's XML library keeps it: name and attributes as written,
/// text and child elements in order.
#[derive(Clone, Debug, PartialEq)]
struct Elem {
    name: String,
    attrs: Vec<(String, String)>,
    content: Vec<Content>,
}

#[derive(Clone, Debug, PartialEq)]
enum Content {
    Text(String),
    Elem(Elem),
}

impl Elem {
    fn new(name: &str) -> Elem {
        Elem {
            name: name.to_string(),
            attrs: Vec::new(),
            content: Vec::new(),
        }
    }

    fn with_text(name: &str, text: &str) -> Elem {
        let mut e = Elem::new(name);
        e.content.push(Content::Text(text.to_string()));
        e
    }

    fn text(&mut self, t: &str) -> &mut Elem {
        self.content.push(Content::Text(t.to_string()));
        self
    }

    fn child(&mut self, e: Elem) -> &mut Elem {
        self.content.push(Content::Elem(e));
        self
    }

    fn child_index(&self, name: &str) -> Option<usize> {
        self.content
            .iter()
            .position(|c| matches!(c, Content::Elem(e) if e.name == name))
    }

    fn get(&self, name: &str) -> Option<&Elem> {
        self.child_index(name).map(|i| match &self.content[i] {
            Content::Elem(e) => e,
            Content::Text(_) => unreachable!("child_index finds elements only"),
        })
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Elem> {
        let i = self.child_index(name)?;
        match &mut self.content[i] {
            Content::Elem(e) => Some(e),
            Content::Text(_) => None,
        }
    }

    fn has_children(&self) -> bool {
        self.content.iter().any(|c| matches!(c, Content::Elem(_)))
    }

    /// All the character content (ezxml's `txt`).
    fn txt(&self) -> String {
        self.content
            .iter()
            .filter_map(|c| match c {
                Content::Text(t) => Some(t.as_str()),
                Content::Elem(_) => None,
            })
            .collect()
    }

    /// Replaces the character content, keeping child elements after it.
    fn set_txt(&mut self, t: &str) {
        self.content.retain(|c| matches!(c, Content::Elem(_)));
        self.content.insert(0, Content::Text(t.to_string()));
    }

    fn set_attr(&mut self, name: &str, value: &str) {
        match self.attrs.iter_mut().find(|(n, _)| n == name) {
            Some(a) => a.1 = value.to_string(),
            None => self.attrs.push((name.to_string(), value.to_string())),
        }
    }

    fn write(&self, out: &mut String) {
        out.push('<');
        out.push_str(&self.name);
        for (n, v) in &self.attrs {
            out.push(' ');
            out.push_str(n);
            out.push_str("=\"");
            escape(v, true, out);
            out.push('"');
        }
        out.push('>');
        for c in &self.content {
            match c {
                Content::Text(t) => escape(t, false, out),
                Content::Elem(e) => e.write(out),
            }
        }
        out.push_str("</");
        out.push_str(&self.name);
        out.push('>');
    }
}

/// Escapes text as RADIANCE's XML writer does (attribute values also `"`, newline and tab).
fn escape(s: &str, attr: bool, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '\0' => return,
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\n' if attr => out.push_str("&#xA;"),
            '\t' if attr => out.push_str("&#x9;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
}

/// Reads an XML text into the tree: element names and attributes as written (prefixes and
/// namespace declarations kept in order), text decoded, comments and processing instructions
/// dropped.
fn parse_tree(text: &str, name: &str) -> Result<Elem, BsdfError> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, opts)
        .map_err(|e| BsdfError::new(name, Some(e.pos().row), format!("malformed XML: {e}")))?;
    Ok(convert(doc.root_element(), text))
}

fn convert(node: roxmltree::Node, src: &str) -> Elem {
    let (tag, attrs) = start_tag(&src[node.range().start..]);
    let mut e = Elem {
        name: tag,
        attrs,
        content: Vec::new(),
    };
    for c in node.children() {
        if c.is_element() {
            e.content.push(Content::Elem(convert(c, src)));
        } else if c.is_text() {
            let t = c.text().unwrap_or("");
            match e.content.last_mut() {
                Some(Content::Text(prev)) => prev.push_str(t),
                _ => e.content.push(Content::Text(t.to_string())),
            }
        }
    }
    e
}

/// The name and attributes of the start tag at the beginning of `s` (already checked
/// well-formed by the parser).
fn start_tag(s: &str) -> (String, Vec<(String, String)>) {
    let b = s.as_bytes();
    let mut i = 1;
    let word_end = |mut i: usize| {
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'/' | b'>') {
            i += 1;
        }
        i
    };
    let j = word_end(i);
    let name = s[i..j].to_string();
    i = j;
    let mut attrs = Vec::new();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() || matches!(b[i], b'/' | b'>') {
            break;
        }
        let j = word_end(i);
        let an = s[i..j].to_string();
        i = j;
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'=') {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let q = b[i];
        let start = i + 1;
        let end = s[start..].find(q as char).map_or(s.len(), |p| start + p);
        attrs.push((an, decode_entities(&s[start..end])));
        i = end + 1;
    }
    (name, attrs)
}

/// Decodes the predefined and numeric character references of an attribute value.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find('&') {
        out.push_str(&rest[..p]);
        rest = &rest[p..];
        let Some(semi) = rest.find(';') else { break };
        let ent = &rest[1..semi];
        let ch = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ if ent.starts_with("#x") => u32::from_str_radix(&ent[2..], 16)
                .ok()
                .and_then(char::from_u32),
            _ if ent.starts_with('#') => ent[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match ch {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `<DataDefinition>` element for a basis, with the Klems rings written out.
fn data_definition(basis: WrapBasis) -> Elem {
    let mut dd = Elem::new("DataDefinition");
    dd.text("\n\t\t")
        .child(Elem::with_text("IncidentDataStructure", basis.structure()));
    if let (Some(name), Some(b)) = (basis.klems_name(), basis.klems()) {
        let mut ab = Elem::new("AngleBasis");
        ab.text("\n\t\t\t")
            .child(Elem::with_text("AngleBasisName", name))
            .text("\n\t\t\t");
        for i in 0..b.rings.len() - 1 {
            let lo = b.rings[i].0 as f64;
            let hi = b.rings[i + 1].0 as f64;
            let theta = if i == 0 { 0.0 } else { 0.5 * (lo + hi) };
            let mut bounds = Elem::new("ThetaBounds");
            bounds
                .text("\n\t\t\t\t\t")
                .child(Elem::with_text("LowerTheta", &format_g(lo)))
                .text("\n\t\t\t\t\t")
                .child(Elem::with_text("UpperTheta", &format_g(hi)))
                .text("\n\t\t\t\t");
            let mut block = Elem::new("AngleBasisBlock");
            block
                .text("\n\t\t\t\t")
                .child(Elem::with_text("Theta", &format_g(theta)))
                .text("\n\t\t\t\t")
                .child(Elem::with_text("nPhis", &b.rings[i].1.to_string()))
                .text("\n\t\t\t\t")
                .child(bounds)
                .text("\n\t\t\t");
            ab.child(block).text("\n\t\t\t");
        }
        dd.text("\n\t\t").child(ab);
    }
    dd.text("\n\t");
    dd
}

/// The basis an existing `<DataDefinition>` declares, if it is one of the five.
fn basis_of(dd: &Elem) -> Option<WrapBasis> {
    let ids = dd.get("IncidentDataStructure")?.txt();
    let abn = dd
        .get("AngleBasis")
        .and_then(|a| a.get("AngleBasisName"))
        .map(|n| n.txt())
        .unwrap_or_default();
    WrapBasis::ALL
        .into_iter()
        .find(|b| ids == b.structure() && abn == b.klems_name().unwrap_or(""))
}

/// Applies the `-f` assignments to `<Material>`, returning warnings.
fn assign_fields(
    wrap: &Wrap,
    file: &str,
    layer: &mut Elem,
    unit: &str,
) -> Result<Vec<String>, BsdfError> {
    let mut warnings = Vec::new();
    let Some(mat) = layer.get_mut("Material") else {
        return Err(BsdfError::new(file, None, "missing <Material> tag"));
    };
    let mut assigned = [false; FIELDS.len()];
    for fa in &wrap.fields {
        let bad = |what: &str| BsdfError::new("-f", None, format!("{what} in assignment '{fa}'"));
        let mut rest = fa.as_str();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let end = rest
                .find(|c: char| c == '=' || c.is_ascii_whitespace() || c == ';')
                .unwrap_or(rest.len());
            if end == rest.len() || rest.as_bytes()[end] == b';' {
                return Err(bad("bad tag name"));
            }
            let mut tag = rest[..end].to_string();
            rest = &rest[end..];
            let known = FIELDS
                .iter()
                .position(|f| tag.eq_ignore_ascii_case(f.0) || tag.eq_ignore_ascii_case(f.1));
            if let Some(k) = known {
                tag = FIELDS[k].1.to_string();
                assigned[k] = true;
            }
            rest = rest.trim_start();
            let Some(r) = rest.strip_prefix('=') else {
                return Err(bad("missing '='"));
            };
            let vend = r.find(';').unwrap_or(r.len());
            let value = &r[..vend];
            rest = r[vend..].strip_prefix(';').unwrap_or(&r[vend..]);
            let added = mat.get_mut(&tag).is_none();
            if added {
                if known.is_none() {
                    warnings.push(format!("{file}: warning - adding tag <{tag}>"));
                }
                mat.text("\t");
                mat.child(Elem::new(&tag));
            }
            let fld = mat.get_mut(&tag).expect("present or just added");
            if known.is_some_and(|k| FIELDS[k].2) {
                fld.set_attr("unit", unit);
            }
            fld.set_txt(value);
            if added {
                mat.text("\n\t");
            }
        }
    }
    if wrap.window6 {
        for (k, f) in FIELDS.iter().enumerate() {
            if f.3 && !assigned[k] && mat.get(f.1).is_none_or(|e| e.txt().is_empty()) {
                warnings.push(format!(
                    "warning - missing '{}' assignment for WINDOW <{}>",
                    f.0, f.1
                ));
            }
        }
    }
    Ok(warnings)
}

/// Corrects a Klems matrix of flux factors (`-c`): each value divided by the projected solid
/// angle of its row's (exiting) patch, negative values within −0.001 taken as zero, written
/// ` %.3e` per value and one row a line. `source` names the data in errors.
pub fn correct_klems(text: &str, basis: &Basis, source: &str) -> Result<String, BsdfError> {
    let n = basis.len();
    let b = text.as_bytes();
    let mut pos = 0;
    let line_at = |p: usize| 1 + text[..p].matches('\n').count() as u32;
    let skip_ws = |p: &mut usize| {
        while *p < b.len() && b[*p].is_ascii_whitespace() {
            *p += 1;
        }
    };
    let mut out = String::with_capacity(n * n * 11);
    for i in 0..n {
        let corr = 1.0 / basis.proj_sa(i);
        for _ in 0..n {
            skip_ws(&mut pos);
            let Some((d, len)) = daylit_radfile::scan::strtod_prefix(&text[pos..]) else {
                let msg = if pos >= b.len() {
                    format!("Klems data error: expected {} values, found fewer", n * n)
                } else {
                    "Klems data error: expected a number".to_string()
                };
                return Err(BsdfError::new(source, Some(line_at(pos)), msg));
            };
            if d < -1e-3 {
                return Err(BsdfError::new(
                    source,
                    Some(line_at(pos)),
                    "Negative BSDF data!",
                ));
            }
            pos += len;
            skip_ws(&mut pos);
            if pos < b.len() && b[pos] == b',' {
                pos += 1;
            }
            // RADIANCE writes small negative values as +0.
            let v = if d > 0.0 { d * corr } else { 0.0 };
            out.push(' ');
            out.push_str(&format_e(v, 3));
        }
        out.push('\n');
    }
    skip_ws(&mut pos);
    if pos < b.len() {
        return Err(BsdfError::new(
            source,
            Some(line_at(pos)),
            "Unexpected data past EOF",
        ));
    }
    Ok(out)
}

impl Wrap {
    /// Makes the XML file. Errors name the input and what is wrong; nothing is written
    /// on error.
    pub fn write(&self) -> Result<Wrapped, BsdfError> {
        let (text, file) = match &self.input {
            Some((t, f)) => (t.as_str(), f.as_str()),
            None if self.window6 => (WINDOW6_TEMPLATE, "WINDOW6BSDFt.xml"),
            None => (MINIMAL_TEMPLATE, "minimalBSDFt.xml"),
        };
        let mut root = parse_tree(text, file)?;
        if root.name != "WindowElement" {
            return Err(BsdfError::new(file, None, "top level not 'WindowElement'"));
        }
        if let Some(ft) = root.get("FileType") {
            if ft.txt() != "BSDF" {
                return Err(BsdfError::new(
                    file,
                    None,
                    "wrong FileType (must be 'BSDF')",
                ));
            }
        }
        let unit = self.unit.as_deref().unwrap_or("meter");
        let layer = root
            .get_mut("Optical")
            .and_then(|o| o.get_mut("Layer"))
            .ok_or_else(|| BsdfError::new(file, None, "no optical layers"))?;
        let mut warnings = assign_fields(self, file, layer, unit)?;
        if let Some(mgf) = &self.geometry {
            if layer.get("Geometry").is_none() {
                layer.child(Elem::new("Geometry"));
            }
            let geom = layer.get_mut("Geometry").expect("just made");
            geom.set_attr("format", "MGF");
            if geom.get("MGFblock").is_none() {
                geom.content.insert(0, Content::Elem(Elem::new("MGFblock")));
            }
            let block = geom.get_mut("MGFblock").expect("just made");
            block.set_attr("unit", unit);
            block.set_txt(mgf);
        }
        let basis = match self.basis {
            Some(b) => {
                let dd = data_definition(b);
                match layer.child_index("DataDefinition") {
                    Some(i) => {
                        if let Content::Elem(old) = &layer.content[i] {
                            if old.has_children() {
                                warnings.push(format!(
                                    "warning - replacing existing <DataDefinition> in '{file}'"
                                ));
                            }
                        }
                        layer.content[i] = Content::Elem(dd);
                    }
                    None => {
                        layer.child(dd);
                    }
                }
                b
            }
            None => layer
                .get("DataDefinition")
                .and_then(basis_of)
                .ok_or_else(|| BsdfError::new(file, None, "need -a option to set angle basis"))?,
        };
        let mut body = String::new();
        root.write(&mut body);
        // The data go just before the last `</Layer>`.
        let tail = "</Layer></Optical></WindowElement>".len();
        let split = body
            .get(..body.len().saturating_sub(tail) + "</Layer>".len())
            .and_then(|s| s.rfind("</Layer>"))
            .ok_or_else(|| BsdfError::new(file, None, "no </Layer> trailer"))?;
        let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        for c in &self.comments {
            xml += &format!("<!-- {c} -->\n");
        }
        xml.push_str(&body[..split]);
        let mut seen: Vec<(Direction, &Spectrum)> = Vec::new();
        for blk in &self.blocks {
            if seen.contains(&(blk.direction, &blk.spectrum)) {
                warnings.push(format!(
                    "{}: warning - ignoring duplicate component {}",
                    blk.source,
                    blk.direction.label()
                ));
                continue;
            }
            seen.push((blk.direction, &blk.spectrum));
            xml += &self.block(blk, basis)?;
        }
        xml.push_str(&body[split..]);
        xml.push('\n');
        Ok(Wrapped { xml, warnings })
    }

    fn block(&self, blk: &DataBlock, basis: WrapBasis) -> Result<String, BsdfError> {
        let mut s = String::from("\t<WavelengthData>\n\t\t<LayerNumber>System</LayerNumber>\n");
        s += &blk.spectrum.header();
        s += "\t\t<WavelengthDataBlock>\n";
        s += &format!(
            "\t\t\t<WavelengthDataDirection>{}</WavelengthDataDirection>\n",
            blk.direction.label()
        );
        match basis.klems_name() {
            Some(n) => {
                s += &format!("\t\t\t<ColumnAngleBasis>{n}</ColumnAngleBasis>\n");
                s += &format!("\t\t\t<RowAngleBasis>{n}</RowAngleBasis>\n");
            }
            None => s += "\t\t\t<AngleBasis>LBNL/Shirley-Chiu</AngleBasis>\n",
        }
        s += "\t\t\t<ScatteringDataType>BTDF</ScatteringDataType>\n\t\t\t<ScatteringData>\n";
        match basis.klems() {
            Some(b) if self.correct_solid_angle => {
                s += &correct_klems(&blk.text, &b, &blk.source)?;
            }
            _ => s += &blk.text,
        }
        s += "\t\t\t</ScatteringData>\n\t\t</WavelengthDataBlock>\n\t</WavelengthData>\n";
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_reserialise_as_radiance_does() {
        let w = Wrap {
            basis: Some(WrapBasis::Tree3),
            ..Default::default()
        };
        let out = w.write().unwrap();
        assert!(out.xml.contains("\t<Geometry></Geometry>\n\t<DataDefinition>\n\t\t<IncidentDataStructure>TensorTree3</IncidentDataStructure>\n\t</DataDefinition>\n</Layer>"));
        assert!(out
            .xml
            .ends_with("</Layer>\n</Optical>\n</WindowElement>\n"));
    }

    #[test]
    fn correction_divides_rows_by_projected_solid_angle() {
        let b = WrapBasis::KlemsQuarter.klems().unwrap();
        let mut text = String::new();
        for i in 0..41 {
            for j in 0..41 {
                text += if i == j { "0.5," } else { "0 " };
            }
            text += "\n";
        }
        let out = correct_klems(&text, &b, "t").unwrap();
        let first: Vec<f64> = out
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert!((first[0] - 0.5 / b.proj_sa(0)).abs() < 1e-3 * first[0]);
        assert!(correct_klems("1 2 3", &b, "t").is_err());
        assert!(correct_klems(&(text.clone() + " 7"), &b, "t").is_err());
        assert!(correct_klems(&text.replacen("0.5", "-0.5", 1), &b, "t").is_err());
    }
}
