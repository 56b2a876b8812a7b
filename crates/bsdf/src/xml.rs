//! Reading the WindowElement XML document (LBNL WINDOW 6/7, IGSDB, genBSDF, bsdf2klems,
//! bsdf2ttree) as RADIANCE 6.0a's `SDloadFile` reads it: the first optical layer, its material
//! name, maker and dimensions, and its `WavelengthData` blocks.
//!
//! As in RADIANCE, WINDOW's "front" is RADIANCE's back: a block labelled `Transmission Front`
//! holds what RADIANCE calls `tb`. Visible blocks give CIE Y, `CIE-X`/`CIE-Z` blocks colour;
//! `Solar` blocks are read into a separate BSDF ([`crate::Bsdf::solar`]); other wavelengths
//! are skipped. Text before the XML declaration (genBSDF's "Recover using:" line) is ignored,
//! as RADIANCE's parser does.

use crate::klems::{Axis, Basis, Map, Matrix};
use crate::{tree, Bsdf, BsdfError, Component, Side};
use roxmltree::{Document, Node};

/// Where errors point: the file's name and its text.
pub(crate) struct Ctx<'a> {
    pub file: &'a str,
    pub doc: &'a Document<'a>,
}

impl Ctx<'_> {
    /// An error located at the start of `node`.
    pub fn err(&self, node: Node, msg: impl Into<String>) -> BsdfError {
        self.err_at(node.range().start, msg)
    }

    /// An error located at byte `pos` of the text.
    pub fn err_at(&self, pos: usize, msg: impl Into<String>) -> BsdfError {
        let p = self.doc.text_pos_at(pos);
        BsdfError::new(self.file, Some(p.row), msg)
    }
}

/// The first child element named `name`.
pub(crate) fn child<'a, 'i>(n: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    n.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

/// The child elements named `name`.
pub(crate) fn children<'a, 'i: 'a>(
    n: Node<'a, 'i>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    n.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

/// An element's character data (its text children joined), and the byte offset of the first.
pub(crate) fn text_of(n: Node) -> (String, usize) {
    let mut s = String::new();
    let mut at = n.range().start;
    let mut first = true;
    for c in n.children().filter(|c| c.is_text()) {
        if first {
            at = c.range().start;
            first = false;
        }
        s.push_str(c.text().unwrap_or(""));
    }
    (s, at)
}

/// The trimmed text of child `name`, if any.
fn child_text(n: Node, name: &str) -> Option<String> {
    child(n, name).map(|c| text_of(c).0.trim().to_string())
}

/// Metres per unit of a dimension (`to_meters`): none named means metres.
fn to_metres(unit: Option<&str>) -> Option<f64> {
    let Some(u) = unit else { return Some(1.0) };
    match u.to_ascii_lowercase().as_str() {
        "meter" => Some(1.0),
        "foot" => Some(0.3048),
        "inch" => Some(0.0254),
        "centimeter" => Some(0.01),
        "millimeter" => Some(0.001),
        _ => None,
    }
}

/// C's `atof`: the longest leading number, 0 when there is none.
pub(crate) fn atof(s: &str) -> f64 {
    let s = s.trim_start();
    let b = s.as_bytes();
    let mut end = 0;
    let mut best = 0.0;
    // Try successively longer prefixes that look numeric.
    while end < b.len() && (b[end].is_ascii_digit() || b"+-.eE".contains(&b[end])) {
        end += 1;
        if let Ok(v) = s[..end].parse::<f64>() {
            best = v;
        }
    }
    best
}

/// The text from its first `<`: RADIANCE's parser skips what comes before (genBSDF's
/// "Recover using:" line).
fn skip_preamble(text: &str) -> &str {
    &text[text.find('<').unwrap_or(0)..]
}

/// Loads a BSDF from its XML text.
pub(crate) fn parse(text: &str, file: &str) -> Result<Bsdf, BsdfError> {
    let body = skip_preamble(text);
    // Lines of errors count from the file's start.
    let shift = text[..text.len() - body.len()].matches('\n').count() as u32;
    let doc = Document::parse(body).map_err(|e| {
        let p = e.pos();
        // roxmltree's message ends with its own position in the text it was given.
        let msg = e.to_string();
        let msg = msg
            .strip_suffix(&format!(" at {}:{}", p.row, p.col))
            .unwrap_or(&msg)
            .to_string();
        BsdfError::new(file, Some(p.row + shift), format!("malformed XML: {msg}"))
    })?;
    parse_doc(&doc, file).map_err(|mut e| {
        if let Some(l) = e.line.as_mut() {
            *l += shift;
        }
        e
    })
}

fn parse_doc(doc: &Document, file: &str) -> Result<Bsdf, BsdfError> {
    let cx = Ctx { file, doc };
    let root = doc.root_element();
    if root.tag_name().name() != "WindowElement" {
        return Err(cx.err(root, "top level node not 'WindowElement'"));
    }
    if let Some(ft) = child(root, "FileType") {
        if text_of(ft).0 != "BSDF" {
            return Err(cx.err(ft, "wrong FileType (must be 'BSDF')"));
        }
    }
    let Some(layer) = child(root, "Optical").and_then(|o| child(o, "Layer")) else {
        return Err(cx.err(root, "no optical layers"));
    };
    let mut bsdf = Bsdf::empty(file);
    load_geometry(&cx, layer, &mut bsdf)?;
    let structure = child(layer, "DataDefinition").and_then(|d| child(d, "IncidentDataStructure"));
    let kind = structure.map(|s| text_of(s).0);
    match kind.as_deref().map(str::trim) {
        Some(k) if k.eq_ignore_ascii_case("TensorTree3") || k.eq_ignore_ascii_case("TensorTree4") => {
            let ndim = if k.ends_with('3') { 3 } else { 4 };
            tree::load(&cx, layer, ndim, &mut bsdf)?;
        }
        Some(k) if k.eq_ignore_ascii_case("Rows") || k.eq_ignore_ascii_case("Columns") => {
            load_klems(&cx, layer, k.eq_ignore_ascii_case("Rows"), &mut bsdf)?;
        }
        Some("") | None => {
            let at = structure.unwrap_or(layer);
            return Err(cx.err(at, "missing IncidentDataStructure"));
        }
        Some(k) => {
            return Err(cx.err(
                structure.expect("named"),
                format!("unsupported IncidentDataStructure '{k}' (expected Columns, Rows, TensorTree3 or TensorTree4)"),
            ))
        }
    }
    bsdf.drop_insignificant();
    if let Some(s) = bsdf.solar.as_mut() {
        s.drop_insignificant();
    }
    Ok(bsdf)
}

/// Material name, maker, width, height and thickness (metres), and the MGF geometry.
fn load_geometry(cx: &Ctx, layer: Node, b: &mut Bsdf) -> Result<(), BsdfError> {
    if let Some(m) = child(layer, "Material") {
        if let Some(n) = child(m, "Name") {
            b.material = text_of(n).0;
        }
        if let Some(n) = child(m, "Manufacturer") {
            b.manufacturer = text_of(n).0;
        }
        let mut dims = [0.0; 3];
        for (k, name) in ["Width", "Height", "Thickness"].iter().enumerate() {
            if let Some(n) = child(m, name) {
                let v = atof(&text_of(n).0);
                let unit = n.attribute("unit");
                match to_metres(unit) {
                    Some(f) => dims[k] = v * f,
                    None if v != 0.0 => {
                        return Err(cx.err(
                            n,
                            format!("unknown dimensional unit '{}'", unit.unwrap_or("")),
                        ))
                    }
                    None => {}
                }
                if dims[k] < 0.0 {
                    return Err(cx.err(n, format!("negative {}", name.to_lowercase())));
                }
            }
        }
        [b.width, b.height, b.thickness] = dims;
    }
    if let Some(g) = child(layer, "Geometry") {
        if let Some(f) = g.attribute("format") {
            if !f.eq_ignore_ascii_case("MGF") {
                return Err(cx.err(g, format!("unrecognized geometry format '{f}'")));
            }
        }
        if let Some(n) = child(g, "MGFblock") {
            let t = text_of(n).0;
            if !t.trim().is_empty() {
                let f = to_metres(n.attribute("unit"))
                    .ok_or_else(|| cx.err(n, "unknown unit of the MGF block"))?;
                let t = t.trim_start();
                b.mgf = Some(if !(0.99..=1.01).contains(&f) {
                    format!("xf -s {f:.5}\n{t}\nxf\n")
                } else {
                    t.to_string()
                });
            }
        }
    }
    Ok(())
}

/// Which component a block's `WavelengthDataDirection` names, in RADIANCE's sides.
pub(crate) fn side_of(label: &str) -> Option<Side> {
    let l = label.trim().to_ascii_lowercase();
    Some(match l.as_str() {
        "transmission front" => Side::Tb,
        "transmission back" => Side::Tf,
        "reflection front" => Side::Rb,
        "reflection back" => Side::Rf,
        _ => return None,
    })
}

/// The spectral channel of a `WavelengthData` block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Channel {
    Y,
    X,
    Z,
    Solar,
}

pub(crate) fn channel_of(n: Node) -> Option<Channel> {
    let w = child_text(n, "Wavelength")?;
    match w.to_ascii_lowercase().as_str() {
        "visible" => Some(Channel::Y),
        "cie-x" => Some(Channel::X),
        "cie-z" => Some(Channel::Z),
        "solar" => Some(Channel::Solar),
        _ => None,
    }
}

/// Reads `n` numbers separated by white space and optional commas; negatives read as 0.
pub(crate) fn numbers(cx: &Ctx, node: Node, n: usize, what: &str) -> Result<Vec<f32>, BsdfError> {
    let (text, at) = text_of(node);
    let mut out = Vec::with_capacity(n);
    for (off, tok) in tokens(&text) {
        let Ok(v) = tok.parse::<f64>() else {
            return Err(cx.err_at(
                at + off,
                format!("expected a number in {what}, found '{tok}'"),
            ));
        };
        if out.len() == n {
            return Err(cx.err_at(
                at + off,
                format!("{what} has more than the {n} values its bases call for"),
            ));
        }
        out.push(v.max(0.0) as f32);
    }
    if out.len() < n {
        return Err(cx.err(
            node,
            format!("{what} has {} values, expected {n}", out.len()),
        ));
    }
    Ok(out)
}

/// Words of a number list: separated by white space or commas, with their byte offsets.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .scan(0usize, |pos, w| {
            let start = *pos;
            *pos += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
}

/// The file's own angle bases (`AngleBasis` blocks), after the standard three.
fn angle_bases(cx: &Ctx, layer: Node) -> Result<Vec<Basis>, BsdfError> {
    let mut bases = Basis::standard();
    let Some(def) = child(layer, "DataDefinition") else {
        return Ok(bases);
    };
    for ab in children(def, "AngleBasis") {
        let Some(name) = child_text(ab, "AngleBasisName").filter(|n| !n.is_empty()) else {
            continue;
        };
        if bases.iter().any(|b| b.name.eq_ignore_ascii_case(&name)) {
            continue; // RADIANCE takes a known name to mean the known basis.
        }
        let mut rings: Vec<(f32, usize)> = vec![(0.0, 0)];
        for (k, blk) in children(ab, "AngleBasisBlock").enumerate() {
            let bound = |tag: &str| {
                child(blk, "ThetaBounds")
                    .and_then(|t| child_text(t, tag))
                    .map(|s| atof(&s))
                    .unwrap_or(0.0)
            };
            let upper = bound("UpperTheta") as f32;
            if k > 0 {
                let lower = bound("LowerTheta");
                let prev = rings[k].0 as f64;
                let rel = if prev != 0.0 {
                    lower / prev - 1.0
                } else {
                    lower
                };
                if rel.abs() > 1e-6 {
                    return Err(cx.err(blk, format!("theta values disagree in '{name}'")));
                }
            }
            let nphis = child_text(blk, "nPhis")
                .map(|s| atof(&s) as i64)
                .unwrap_or(0);
            if nphis <= 0 || (nphis == 1 && rings[k].0 > 1e-6) {
                return Err(cx.err(blk, format!("illegal phi count in '{name}'")));
            }
            rings[k].1 = nphis as usize;
            rings.push((upper, 0));
        }
        if rings.len() < 2 {
            return Err(cx.err(ab, format!("angle basis '{name}' has no AngleBasisBlock")));
        }
        bases.push(Basis { name, rings });
    }
    Ok(bases)
}

/// Raw matrices of one channel, per side.
#[derive(Default)]
struct Sides {
    m: [Option<Matrix>; 4],
}

/// Reads the Klems blocks of a layer (`SDloadMtx`), splits off the Lambertian parts.
fn load_klems(cx: &Ctx, layer: Node, by_rows: bool, b: &mut Bsdf) -> Result<(), BsdfError> {
    let bases = angle_bases(cx, layer)?;
    let mut chans: [Sides; 4] = Default::default();
    for wd in children(layer, "WavelengthData") {
        let Some(ch) = channel_of(wd) else { continue };
        for blk in children(wd, "WavelengthDataBlock") {
            let Some(dir) = child(blk, "WavelengthDataDirection") else {
                continue;
            };
            let Some(side) = side_of(&text_of(dir).0) else {
                return Err(cx.err(
                    dir,
                    format!("unknown WavelengthDataDirection '{}' (expected Transmission/Reflection Front/Back)", text_of(dir).0.trim()),
                ));
            };
            let basis = |tag: &str| -> Result<Basis, BsdfError> {
                let Some(n) = child(blk, tag) else {
                    return Err(cx.err(blk, format!("missing {tag}")));
                };
                let name = text_of(n).0.trim().to_string();
                bases
                    .iter()
                    .find(|b| b.name.eq_ignore_ascii_case(&name))
                    .cloned()
                    .ok_or_else(|| cx.err(n, format!("undefined {tag} '{name}'")))
            };
            let (ib, ob) = (basis("ColumnAngleBasis")?, basis("RowAngleBasis")?);
            let (imap, omap) = match side {
                Side::Tf => (Map::FrontIn, Map::BackOut),
                Side::Tb => (Map::BackIn, Map::FrontOut),
                Side::Rf => (Map::FrontIn, Map::FrontOut),
                Side::Rb => (Map::BackIn, Map::BackOut),
            };
            let (ni, no) = (ib.len(), ob.len());
            let Some(sd) =
                child(blk, "ScatteringData").filter(|n| !text_of(*n).0.trim().is_empty())
            else {
                return Err(cx.err(blk, "missing ScatteringData"));
            };
            let raw = numbers(cx, sd, ni * no, "ScatteringData")?;
            let values = if by_rows {
                // Listed by incident direction: value k is incident k / nout, exiting k % nout.
                let mut v = vec![0f32; ni * no];
                for (k, x) in raw.into_iter().enumerate() {
                    let (r, c) = (k / no, k % no);
                    v[c * ni + r] = x;
                }
                v
            } else {
                raw
            };
            let m = Matrix::new(
                Axis {
                    basis: ib,
                    map: imap,
                },
                Axis {
                    basis: ob,
                    map: omap,
                },
                values,
            );
            chans[ch as usize].m[side as usize] = Some(m);
        }
    }
    let [y, x, z, solar] = chans;
    finish_klems(b, y, Some((x, z)));
    if solar.m.iter().any(Option::is_some) {
        let mut s = Bsdf::empty(&b.name);
        finish_klems(&mut s, solar, None);
        b.solar = Some(Box::new(s));
    }
    Ok(())
}

/// Adds colour, splits off the Lambertian parts and keeps the components (`extract_diffuse`).
fn finish_klems(b: &mut Bsdf, y: Sides, xz: Option<(Sides, Sides)>) {
    let (mut xs, mut zs) = xz.unwrap_or_default();
    for (k, m) in y.m.into_iter().enumerate() {
        let Some(mut m) = m else { continue };
        if let (Some(mx), Some(mz)) = (xs.m[k].take(), zs.m[k].take()) {
            if (mx.ninc, mx.nout) == (m.ninc, m.nout) && (mz.ninc, mz.nout) == (m.ninc, m.nout) {
                let codes = (0..m.values.len())
                    .map(|n| {
                        let (cx, cy, cz) =
                            (mx.values[n] as f64, m.values[n] as f64, mz.values[n] as f64);
                        let s = cx + cy + cz;
                        if s > 0.0 {
                            crate::colour::encode_chroma(cx / s, cy / s)
                        } else {
                            crate::colour::encode_chroma(1.0 / 3.0, 1.0 / 3.0)
                        }
                    })
                    .collect();
                m.chroma = Some(codes);
            }
        }
        let (max_hemi, min_psa) = m.extrema();
        let lamb = m.subtract_min();
        let side = Side::ALL[k];
        *b.lamb_mut(side) = lamb;
        b.sides[k] = Some(crate::SideData {
            comp: Component::Klems(Box::new(m)),
            max_hemi: max_hemi - lamb.y(),
            min_proj_sa: min_psa,
        });
    }
    b.share_transmission_lambertian();
}
