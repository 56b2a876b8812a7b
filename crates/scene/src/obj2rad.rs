//! RADIANCE's `obj2rad`: a Wavefront `.obj` file as RADIANCE scene text, as RADIANCE writes it.
//! Faces become polygons named after their object or groups and numbered; a face with vertex
//! normals, or one that is not flat, is split into triangles, and a triangle whose normals bend
//! gets a `texfunc` that interpolates them through `tmesh.cal` (barycentric coordinates in
//! RADIANCE's form). Materials are the `usemtl` names, else the first group, else `white`.

use crate::objutil::read::resolve;
use daylit_radfile::header::command_line;
use daylit_radfile::printf::format_g18;
use daylit_radfile::scan::{atof, atoi, is_float};
use glam::DVec3;
use std::fmt::Write;

const FTINY: f64 = 1e-6;
/// Cosine below which vertex normals count as bent.
const COSTOL: f64 = 0.999995;

/// What obj2rad was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// `-o`: the object name of faces outside any `o` statement and group.
    pub object: String,
    /// `-f`: ignore vertex normals.
    pub flatten: bool,
    /// `-m`: material rules (none: `usemtl` names, else the first group, else `white`).
    pub mapping: Option<Mapping>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            object: "unnamed".into(),
            flatten: false,
            mapping: None,
        }
    }
}

/// What a rule condition accepts: a name, or a range of numbers.
#[derive(Clone, Debug, PartialEq)]
enum Accept {
    Name(String),
    Range(i64, i64),
}

impl Accept {
    fn name(&self, n: &str) -> bool {
        matches!(self, Accept::Name(m) if m == n)
    }
}

/// One mapping rule: a material and the conditions a face must meet for it.
#[derive(Clone, Debug)]
struct Rule {
    material: String,
    /// Material, Map, Group, Object, Face.
    when: [Option<Accept>; 5],
}

/// An obj2rad mapping file (RADIANCE's translator rules): the last rule a face satisfies names
/// its material; `void` or no rule deletes the face.
#[derive(Clone, Debug, Default)]
pub struct Mapping {
    rules: Vec<Rule>,
}

const QUALIFIERS: [&str; 5] = ["Material", "Map", "Group", "Object", "Face"];

impl Mapping {
    /// Reads a mapping file: rules of a material name and `(Qualifier value)` conditions ended
    /// by `;`, values `"name"`, `[min:max]` or a number, `#` comments.
    pub fn parse(text: &str, file: &str) -> Result<Mapping, String> {
        let b = text.as_bytes();
        let mut pos = 0;
        let mut rules = Vec::new();
        let skip_space = |pos: &mut usize| {
            while *pos < b.len() && b[*pos].is_ascii_whitespace() {
                *pos += 1;
            }
        };
        loop {
            skip_space(&mut pos);
            let start = pos;
            while pos < b.len() && !matches!(b[pos], b' ' | b'\t' | b';' | b'\n') {
                pos += 1;
            }
            if pos == start {
                if pos < b.len() && b[pos] == b';' {
                    pos += 1;
                    continue;
                }
                break;
            }
            let name = String::from_utf8_lossy(&b[start..pos]).into_owned();
            if name.starts_with('#') {
                while pos < b.len() && b[pos] != b'\n' {
                    pos += 1;
                }
                continue;
            }
            let n = rules.len() + 1;
            let err = |what: &str| format!("{file}: {what} for rule {n}");
            let mut rule = Rule {
                material: name,
                when: Default::default(),
            };
            loop {
                while pos < b.len() && b[pos] != b'(' && b[pos] != b';' {
                    pos += 1;
                }
                if pos >= b.len() || b[pos] == b';' {
                    pos += 1;
                    break;
                }
                pos += 1;
                skip_space(&mut pos);
                let q0 = pos;
                while pos < b.len() && !b[pos].is_ascii_whitespace() {
                    pos += 1;
                }
                let q = std::str::from_utf8(&b[q0..pos]).unwrap_or("");
                if q.is_empty() {
                    return Err(err("missing variable"));
                }
                let k = QUALIFIERS
                    .iter()
                    .position(|&x| x == q)
                    .ok_or_else(|| err("unknown variable"))?;
                if rule.when[k].is_some() {
                    return Err(err("variable repeated"));
                }
                skip_space(&mut pos);
                let close = b[pos..].iter().position(|&c| c == b')').map(|i| pos + i);
                let close = close.ok_or_else(|| err("missing )"))?;
                let value = std::str::from_utf8(&b[pos..close]).unwrap_or("").trim();
                pos = close + 1;
                rule.when[k] = Some(if let Some(v) = value.strip_prefix('"') {
                    Accept::Name(
                        v.strip_suffix('"')
                            .ok_or_else(|| err("bad string value"))?
                            .to_string(),
                    )
                } else if let Some(v) = value.strip_prefix('[') {
                    let (lo, hi) = v
                        .strip_suffix(']')
                        .and_then(|v| v.split_once(':'))
                        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                        .ok_or_else(|| err("bad range value"))?;
                    if lo > hi {
                        return Err(err("reverse range value"));
                    }
                    Accept::Range(lo, hi)
                } else {
                    let v: i64 = value.parse().map_err(|_| err("unrecognizable value"))?;
                    Accept::Range(v, v)
                });
            }
            rules.push(rule);
        }
        Ok(Mapping { rules })
    }
}

/// A vertex reference: position, texture and normal indices (`None`: absent).
#[derive(Clone, Copy)]
struct Ndx {
    v: usize,
    n: Option<usize>,
}

/// How a triangle's normals sit against its plane.
#[derive(PartialEq)]
pub(crate) enum Flatness {
    Degenerate,
    Flat,
    Bent,
    ReversedFlat,
    ReversedBent,
}

#[derive(Default)]
struct State {
    v: Vec<DVec3>,
    vn: Vec<DVec3>,
    nvt: usize,
    material: String,
    map: String,
    groups: Vec<String>,
    object: String,
    face: usize,
    degenerate: usize,
    zero_normals: usize,
    out: String,
}

/// The statements of OBJ text: each one's words and the number of its last line (`\` at a
/// line's end continues the statement); and the number of lines.
fn statements(text: &str) -> (Vec<(Vec<String>, usize)>, usize) {
    let mut out = Vec::new();
    let mut lines = 0;
    let mut joined = String::new();
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        lines += 1;
        if let Some(head) = body.strip_suffix('\\') {
            joined.push_str(head);
            joined.push(' ');
            continue;
        }
        joined.push_str(body);
        let words: Vec<String> = joined
            .split(|c: char| c.is_whitespace() || c == '\\')
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect();
        joined.clear();
        if !words.is_empty() {
            out.push((words, lines));
        }
    }
    (out, lines)
}

/// RADIANCE's `printargs`: the words joined by spaces (quoted where needed), and a newline.
fn print_args(out: &mut String, words: &[String]) {
    out.push_str(&command_line(&words[0], &words[1..]));
    out.push('\n');
}

/// `v` at unit length as RADIANCE's `normalize` makes it (a first-order reciprocal when its
/// length is within 1e-6 of 1), and its length; zero stays zero.
pub(crate) fn normalize(v: DVec3) -> (DVec3, f64) {
    let d = v.dot(v);
    if d == 0.0 {
        return (v, 0.0);
    }
    let (len, f) = if (1.0 - FTINY..=1.0 + FTINY).contains(&d) {
        let len = 0.5 + 0.5 * d;
        (len, 2.0 - len)
    } else {
        let len = d.sqrt();
        (len, 1.0 / len)
    };
    (v * f, len)
}

fn pvect(out: &mut String, v: DVec3) {
    let _ = writeln!(
        out,
        " {} {} {}",
        format_g18(v.x),
        format_g18(v.y),
        format_g18(v.z)
    );
}

impl State {
    /// A vertex reference `v/vt/vn`, indices from 1 or negative from the end.
    fn index(&self, w: &str) -> Option<Ndx> {
        let mut parts = w.splitn(3, '/');
        let index = |s: Option<&str>, n: usize| resolve(atoi(s.unwrap_or("")), 0, n);
        let v = index(parts.next(), self.v.len()).ok()??;
        index(parts.next(), self.nvt).ok()?;
        let n = index(parts.next(), self.vn.len())
            .ok()?
            .filter(|&k| self.vn[k].length_squared() > FTINY);
        Some(Ndx { v, n })
    }

    /// The material of the current face; `None` deletes it (a mapping's `void`, or no rule).
    fn material(&self, mapping: Option<&Mapping>) -> Option<String> {
        let Some(m) = mapping else {
            return Some(self.default_material());
        };
        let rule = m.rules.iter().rev().find(|r| self.satisfies(r))?;
        (rule.material != "void").then(|| rule.material.clone())
    }

    fn satisfies(&self, r: &Rule) -> bool {
        let named = |k: usize, value: &str| match &r.when[k] {
            None => true,
            Some(a) => !value.is_empty() && a.name(value),
        };
        if !named(0, &self.material) || !named(1, &self.map) || !named(3, &self.object) {
            return false;
        }
        if let Some(a) = &r.when[2] {
            if !self.groups.iter().any(|g| a.name(g)) {
                return false;
            }
        }
        match &r.when[4] {
            Some(Accept::Range(lo, hi)) => (*lo..=*hi).contains(&(self.face as i64)),
            Some(Accept::Name(_)) => false,
            None => true,
        }
    }

    fn default_material(&self) -> String {
        if !self.material.is_empty() {
            self.material.clone()
        } else if let Some(g) = self.groups.first() {
            g.clone()
        } else {
            "white".into()
        }
    }

    fn object_name(&self, default: &str) -> String {
        if !self.object.is_empty() {
            return self.object.clone();
        }
        if self.groups.is_empty() {
            return default.to_string();
        }
        let mut name = self.groups.join(".");
        // RADIANCE builds the name in a 64-byte buffer.
        if name.len() > 62 {
            name.truncate(62);
        }
        name
    }

    /// Whether a face must be split into triangles (normals, or corners off its plane).
    fn nonplanar(&self, face: &[String], flatten: bool) -> bool {
        let Some(first) = self.index(&face[0]) else {
            return false;
        };
        if !flatten && first.n.is_some() {
            return true;
        }
        if face.len() < 4 {
            return false;
        }
        let p0 = self.v[first.v];
        let Some(second) = self.index(&face[1]) else {
            return false;
        };
        let mut v2 = self.v[second.v] - p0;
        let mut nsum = DVec3::ZERO;
        for (i, w) in face.iter().enumerate().skip(2) {
            let v1 = v2;
            let Some(k) = self.index(w) else {
                return false;
            };
            v2 = self.v[k.v] - p0;
            let (n, len) = normalize(v1.cross(v2));
            if len == 0.0 {
                if i < 3 {
                    return true;
                }
                nsum += nsum * (1.0 / (i - 2) as f64);
                continue;
            }
            let d = n.dot(nsum);
            let span = (i - 2) as f64;
            if d >= 0.0 {
                if d < (1.0 - FTINY) * span {
                    return true;
                }
                nsum += n;
            } else {
                if d > -(1.0 - FTINY) * span {
                    return true;
                }
                nsum -= n;
            }
        }
        false
    }

    /// An N-sided face: one polygon, or triangles.
    fn face(&mut self, face: &[String], o: &Options) -> bool {
        if self.nonplanar(face, o.flatten) {
            let mut av: Vec<String> = face.to_vec();
            while av.len() > 2 {
                if !self.triangle(&av[0], &av[1], &av[2], o) {
                    return false;
                }
                // The fan turns: the second corner goes, the first moves to the end.
                let first = av.remove(0);
                av.remove(0);
                av.push(first);
            }
            return true;
        }
        let Some(m) = self.material(o.mapping.as_ref()) else {
            return true;
        };
        let name = self.object_name(&o.object);
        let mut pts = Vec::with_capacity(face.len());
        for w in face {
            match self.index(w) {
                Some(k) => pts.push(self.v[k.v]),
                None => return false,
            }
        }
        let _ = write!(
            self.out,
            "\n{m} polygon {name}.{}\n0\n0\n{}\n",
            self.face,
            3 * face.len()
        );
        for p in pts {
            pvect(&mut self.out, p);
        }
        true
    }

    /// A triangle, with a normal-interpolating texture where its normals bend.
    fn triangle(&mut self, a: &str, b: &str, c: &str, o: &Options) -> bool {
        let Some(mut m) = self.material(o.mapping.as_ref()) else {
            return true;
        };
        let (Some(i1), Some(i2), Some(i3)) = (self.index(a), self.index(b), self.index(c)) else {
            return false;
        };
        let (v1, v2, v3) = (self.v[i1.v], self.v[i2.v], self.v[i3.v]);
        let flatness = match (i1.n, i2.n, i3.n) {
            (Some(n1), Some(n2), Some(n3)) => {
                flat_tri(v1, v2, v3, self.vn[n1], self.vn[n2], self.vn[n3])
            }
            _ => Flatness::Flat,
        };
        if flatness == Flatness::Degenerate {
            self.degenerate += 1;
            return true;
        }
        let bent = matches!(flatness, Flatness::Bent | Flatness::ReversedBent) && !o.flatten;
        if bent {
            if let Some((ax, tm)) = barycentric(v1, v2, v3) {
                let _ = write!(self.out, "\n{m} texfunc Phong\n4 dx dy dz tmesh.cal\n0\n");
                m = "Phong".into();
                let ns = [
                    self.vn[i1.n.unwrap_or(0)],
                    self.vn[i2.n.unwrap_or(0)],
                    self.vn[i3.n.unwrap_or(0)],
                ];
                let _ = writeln!(self.out, "10\t{ax}");
                let (da, db) = ((ns[0] - ns[2]).to_array(), (ns[1] - ns[2]).to_array());
                for ((a, b), c) in da.into_iter().zip(db).zip(ns[2].to_array()) {
                    let _ = writeln!(
                        self.out,
                        "{:14.8} {:14.8} {:14.8}",
                        tm[0][0] * a + tm[1][0] * b,
                        tm[0][1] * a + tm[1][1] * b,
                        tm[0][2] * a + tm[1][2] * b + c
                    );
                }
            }
        }
        let name = self.object_name(&o.object);
        let _ = write!(self.out, "\n{m} polygon {name}.{}\n0\n0\n9\n", self.face);
        let order = if matches!(flatness, Flatness::ReversedFlat | Flatness::ReversedBent) {
            [v3, v2, v1]
        } else {
            [v1, v2, v3]
        };
        for p in order {
            pvect(&mut self.out, p);
        }
        true
    }
}

/// How the vertex normals of a triangle sit against its plane.
pub(crate) fn flat_tri(
    v1: DVec3,
    v2: DVec3,
    v3: DVec3,
    n1: DVec3,
    n2: DVec3,
    n3: DVec3,
) -> Flatness {
    let (vn, len) = normalize((v2 - v1).cross(v3 - v2));
    if len == 0.0 {
        return Flatness::Degenerate;
    }
    let (d1, d2, d3) = (vn.dot(n1), vn.dot(n2), vn.dot(n3));
    if d1 < 0.0 && d2 < 0.0 && d3 < 0.0 {
        if d1 > -COSTOL || d2 > -COSTOL || d3 > -COSTOL {
            return Flatness::ReversedBent;
        }
        return Flatness::ReversedFlat;
    }
    if d1 < COSTOL || d2 < COSTOL || d3 < COSTOL {
        return Flatness::Bent;
    }
    Flatness::Flat
}

/// The barycentric coordinate matrix RADIANCE's tmesh.cal reads: the dominant axis of the
/// triangle's normal and two rows mapping the other two coordinates to weights.
pub(crate) fn barycentric(v1: DVec3, v2: DVec3, v3: DVec3) -> Option<(usize, [[f64; 3]; 2])> {
    let va = (v1 - v2).cross(v3 - v2);
    let mut ax = (va.y * va.y > va.x * va.x) as usize;
    if va.z * va.z > va[ax] * va[ax] {
        ax = 2;
    }
    let (ax0, ax1) = ((ax + 1) % 3, (ax + 2) % 3);
    let mut tm = [[0.0; 3]; 2];
    let mut p = [v1, v2, v3];
    for row in &mut tm {
        let (a, b, c) = (p[0], p[1], p[2]);
        let vab = [a[ax0] - b[ax0], a[ax1] - b[ax1]];
        let vcb = [c[ax0] - b[ax0], c[ax1] - b[ax1]];
        let d = vcb[0] * vcb[0] + vcb[1] * vcb[1];
        if d <= FTINY * FTINY {
            return None;
        }
        let d = (vcb[0] * vab[0] + vcb[1] * vab[1]) / d;
        let va = [vab[0] - vcb[0] * d, vab[1] - vcb[1] * d];
        let d = va[0] * va[0] + va[1] * va[1];
        if d <= FTINY * FTINY {
            return None;
        }
        let d = 1.0 / d;
        let (u, v) = (va[0] * d, va[1] * d);
        *row = [u, v, -(b[ax0] * u + b[ax1] * v)];
        p.rotate_left(1);
    }
    Some((ax, tm))
}

/// Converts OBJ text (named `file` in the text and errors); `command` is the command line
/// written first.
pub fn obj2rad(text: &str, file: &str, command: &[String], o: &Options) -> Result<String, String> {
    let mut s = State::default();
    s.out.push_str("# ");
    print_args(&mut s.out, command);
    let (stmts, lines) = statements(text);
    let (mut stats, mut unknown) = (0usize, 0usize);
    for (words, line) in stmts {
        let err = |what: &str| format!("{file}: Wavefront syntax error near line {line}: {what}");
        let key = words[0].as_str();
        let floats =
            |n: usize| words.len() > n && words[1..=n].iter().all(|w| is_float(w.as_bytes()));
        let p = |i: usize| atof(&words[i]);
        match key {
            "v" => {
                if !floats(3) {
                    return Err(err("Bad vertex"));
                }
                s.v.push(DVec3::new(p(1), p(2), p(3)));
            }
            "vn" => {
                if !floats(3) {
                    return Err(err("Bad normal"));
                }
                let (n, len) = normalize(DVec3::new(p(1), p(2), p(3)));
                if len == 0.0 {
                    s.zero_normals += 1;
                }
                s.vn.push(n);
            }
            "vt" if floats(2) => s.nvt += 1,
            "f" => {
                s.face += 1;
                let face = &words[1..];
                let ok = match face.len() {
                    0..=2 => return Err(err("Too few vertices")),
                    3 => s.triangle(&face[0], &face[1], &face[2], o),
                    _ => s.face(face, o),
                };
                if !ok {
                    return Err(err(if face.len() == 3 {
                        "Bad triangle"
                    } else {
                        "Bad face"
                    }));
                }
            }
            "usemtl" => {
                if let Some(m) = words.get(1) {
                    s.material = m.clone();
                }
            }
            "usemap" => {
                if let Some(m) = words.get(1) {
                    s.map = if m == "off" {
                        String::new()
                    } else {
                        format!("{m}.hdr")
                    };
                }
            }
            "o" => {
                if let Some(n) = words.get(1) {
                    s.object = n.clone();
                }
            }
            "g" => s.groups = words[1..].to_vec(),
            k if k.starts_with('#') => print_args(&mut s.out, &words),
            _ => unknown += 1,
        }
        stats += 1;
    }
    let _ = write!(
        s.out,
        "\n# Done processing file: {file}\n# {lines} lines, {stats} statements, {unknown} unrecognized\n"
    );
    if s.degenerate > 0 {
        let _ = writeln!(s.out, "# {} degenerate faces", s.degenerate);
    }
    if s.zero_normals > 0 {
        let _ = writeln!(s.out, "# {} invalid (zero) normals", s.zero_normals);
    }
    Ok(s.out)
}

/// `obj2rad -n`: the names a mapping file can use — materials, maps, groups and objects, each
/// sorted once — and the range of face numbers.
pub fn qualifiers(text: &str, file: &str) -> String {
    use std::collections::BTreeSet;
    let mut lists: [BTreeSet<String>; 4] = Default::default();
    let mut faces = 0;
    for (words, _) in statements(text).0 {
        let arg = words.get(1).cloned();
        match (words[0].as_str(), arg) {
            ("f", _) => faces += 1,
            ("usemtl", Some(m)) => {
                lists[0].insert(m);
            }
            ("usemap", Some(m)) if m != "off" => {
                lists[1].insert(m);
            }
            ("o", Some(n)) => {
                lists[3].insert(n);
            }
            ("g", _) => lists[2].extend(words[1..].iter().cloned()),
            _ => {}
        }
    }
    let mut out = format!("filename \"{file}\"\nfiletype \"Wavefront\"\n");
    for (name, list) in ["Material", "Map", "Group", "Object"].iter().zip(&lists) {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "qualifier {name} begin");
        for n in list {
            let _ = writeln!(out, "\"{n}\"");
        }
        out.push_str("end\n");
    }
    let _ = write!(out, "qualifier Face begin\n[1:{faces}]\nend\n");
    out
}
