//! RADIANCE's `obj2mesh`: a Wavefront `.obj` file compiled into a RADIANCE mesh (`.rtm`), as
//! RADIANCE 6.0a does it. Faces of more than three vertices are cut into triangles in the plane
//! of their dominant axis (ear clipping, colinear vertices dropped, clockwise faces reversed);
//! a triangle's vertex normals are kept only where they bend away from its plane, and a
//! triangle whose normals all point behind it is turned over; (u,v) are kept when all three
//! vertices have them. Materials come from RADIANCE scene files (`-a`, `-l`): each face takes
//! its `usemtl` name, else its group's, and the mesh keeps the materials up to the last one its
//! triangles use. The file itself is written by `crate::rtm_write`.

use crate::error::SceneError;
use crate::obj2rad::{flat_tri, normalize, Flatness};
use crate::objutil::read::resolve;
use crate::objutil::triangulate::{area, clip_ears};
use crate::parse::{read_items, Item};
use crate::rtm_write::{write_rtm, MeshMaterial, MeshTri, RtmStats, TreeLimits};
use crate::types::PrimType;
use daylit_radfile::header::command_line;
use daylit_radfile::scan::{atof, atoi, is_float};
use glam::DVec3;
use std::collections::HashMap;
use std::sync::Arc;

const FTINY: f64 = 1e-6;

/// The materials read so far, in order, with RADIANCE's modifier table (the latest definition
/// of a name wins).
#[derive(Clone, Debug, Default)]
pub struct Materials {
    pub list: Vec<MeshMaterial>,
    names: HashMap<String, usize>,
}

impl Materials {
    /// Adds the primitives of scene text `src` (named `source` in messages), resolving each
    /// modifier to an earlier one as RADIANCE's reader does. Commands (`!`, which RADIANCE runs)
    /// and polygons are refused.
    pub fn read(&mut self, src: &[u8], source: &str) -> Result<(), SceneError> {
        read_items(src, Arc::from(source), &mut |item| match item {
            Item::Command(w) => Err(SceneError::at(
                &w.loc,
                format!(
                    "command \"!{}\" in a material file: obj2mesh runs no commands",
                    w.text
                ),
            )),
            Item::Prim(p) => {
                let loc = p.loc.clone();
                self.add(p).map_err(|m| SceneError::at(&loc, m))
            }
        })
    }

    fn add(&mut self, p: crate::parse::RawPrim) -> Result<(), String> {
        let lookup = |name: &str| self.names.get(name).copied();
        let alias_mod = p.modifier == "inherit";
        let mut modifier = match p.modifier.as_str() {
            "void" => None,
            "inherit" => None,
            m => Some(lookup(m).ok_or_else(|| format!("undefined modifier \"{m}\""))?),
        };
        if alias_mod && p.ptype != PrimType::Alias {
            return Err("inappropriate use of 'inherit' modifier".into());
        }
        let mut sargs = p.sargs;
        if p.ptype == PrimType::Alias {
            let refname = sargs.first().cloned().unwrap_or_default();
            let mut r = lookup(&refname).ok_or_else(|| format!("bad reference \"{refname}\""))?;
            // Pass-through aliases point at what they alias.
            loop {
                let m = &self.list[r];
                match (m.ptype, m.modifier) {
                    (PrimType::Alias, Some(k)) if m.sargs.is_empty() => r = k,
                    _ => break,
                }
            }
            if alias_mod || modifier == self.list[r].modifier {
                modifier = Some(r);
                sargs.clear();
            } else {
                sargs = vec![refname];
            }
        }
        if p.ptype.is_modifier() {
            if p.name == "void" || p.name == "inherit" {
                return Err(format!("illegal modifier name \"{}\"", p.name));
            }
            self.names.insert(p.name.clone(), self.list.len());
        } else if p.ptype == PrimType::Polygon {
            // RADIANCE's obj2mesh would take it for one of the mesh's own faces.
            return Err(format!(
                "polygon \"{}\" in a material file: only materials belong in a mesh",
                p.name
            ));
        }
        // Other surfaces are kept as RADIANCE keeps them: harmless unless a material the mesh
        // uses comes after them (then `write_rtm` refuses the mesh, as RADIANCE does).
        self.list.push(MeshMaterial {
            ptype: p.ptype,
            modifier,
            name: p.name,
            sargs,
            fargs: p.fargs,
        });
        Ok(())
    }
}

/// obj2mesh's settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub limits: TreeLimits,
}

/// A compiled mesh file and the warnings RADIANCE would print.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    pub bytes: Vec<u8>,
    pub warnings: Vec<String>,
    /// Counts for RADIANCE's `-v` report (`RtmStats::report`).
    pub stats: RtmStats,
}

/// A vertex reference: position, (u,v) and normal indices.
type Ndx = (usize, Option<usize>, Option<usize>);

struct Reader<'a> {
    v: Vec<DVec3>,
    vn: Vec<DVec3>,
    vt: Vec<[f64; 2]>,
    material: String,
    group: String,
    mats: &'a Materials,
    file: &'a str,
    tris: Vec<MeshTri>,
    warnings: Vec<String>,
    /// The material of the last triangle if it had zero area (its object is used again).
    reused: Option<Option<usize>>,
}

impl Reader<'_> {
    fn index(&self, w: &str) -> Option<Ndx> {
        let mut parts = w.splitn(3, '/');
        let v = resolve(atoi(parts.next().unwrap_or("")), 0, self.v.len())
            .ok()
            .flatten()?;
        let t = resolve(atoi(parts.next().unwrap_or("")), 0, self.vt.len()).ok()?;
        let n = resolve(atoi(parts.next().unwrap_or("")), 0, self.vn.len()).ok()?;
        Some((v, t, n))
    }

    fn material(&self) -> Result<Option<usize>, String> {
        if self.mats.list.is_empty() || self.material == "void" {
            return Ok(None);
        }
        let name = if !self.material.is_empty() {
            &self.material
        } else if !self.group.is_empty() {
            &self.group
        } else {
            return Ok(None);
        };
        self.mats
            .names
            .get(name)
            .copied()
            .map(Some)
            .ok_or_else(|| format!("{}: undefined modifier \"{name}\"", self.file))
    }

    /// A triangle; `Ok(false)` for a bad vertex reference.
    fn triangle(&mut self, w: [&str; 3]) -> Result<bool, String> {
        let (Some(a), Some(b), Some(c)) = (self.index(w[0]), self.index(w[1]), self.index(w[2]))
        else {
            self.warnings.push("bad vertex reference".into());
            return Ok(false);
        };
        let material = self.material()?;
        let mut v = [self.v[a.0], self.v[b.0], self.v[c.0]];
        let mut uv = match (a.1, b.1, c.1) {
            (Some(i), Some(j), Some(k)) => Some([self.vt[i], self.vt[j], self.vt[k]]),
            _ => None,
        };
        let mut n = None;
        if let (Some(i), Some(j), Some(k)) = (a.2, b.2, c.2) {
            let mut ns = [self.vn[i], self.vn[j], self.vn[k]];
            let turn = match flat_tri(v[0], v[1], v[2], ns[0], ns[1], ns[2]) {
                Flatness::Degenerate => {
                    self.warnings.push("degenerate triangle".into());
                    return Ok(true);
                }
                Flatness::Flat => false,
                Flatness::Bent => {
                    n = Some(ns);
                    false
                }
                Flatness::ReversedBent => {
                    ns.swap(0, 2);
                    n = Some(ns);
                    true
                }
                Flatness::ReversedFlat => true,
            };
            if turn {
                v.swap(0, 2);
                if let Some(u) = &mut uv {
                    u.swap(0, 2);
                }
            }
        }
        // RADIANCE reuses the object of a zero-area triangle for the next one, material and
        // all: the triangle after one of zero area takes that one's material.
        let material = self.reused.take().unwrap_or(material);
        let tri = MeshTri {
            v: v.map(|p| p.to_array()),
            n: n.map(|ns| ns.map(|p| p.to_array())),
            uv,
            material,
        };
        if !crate::rtm_write::has_area(&tri.v) {
            self.warnings.push(format!(
                "zero area for polygon \"t{}\"",
                self.mats.list.len() + self.tris.len()
            ));
            self.reused = Some(material);
            return Ok(true);
        }
        self.tris.push(tri);
        Ok(true)
    }

    /// The axis after which a face's projection plane starts, from the normal of three of its
    /// vertices (`None`: degenerate or a bad reference).
    fn dominant_axis(&self, w: [&str; 3]) -> Option<usize> {
        let (a, b, c) = (self.index(w[0])?, self.index(w[1])?, self.index(w[2])?);
        let e1 = self.v[b.0] - self.v[a.0];
        let e2 = self.v[c.0] - self.v[b.0];
        let n = e1.cross(e2).to_array();
        let mut imax = 2;
        for i in (0..2).rev() {
            if n[i] * n[i] > n[imax] * n[imax] {
                imax = i;
            }
        }
        (n[imax] * n[imax] > FTINY * FTINY * FTINY * FTINY).then_some(imax)
    }

    /// A face of four or more vertices, cut into triangles; `Ok(false)` for a bad reference.
    fn face(&mut self, w: &[String]) -> Result<bool, String> {
        let ac = w.len();
        let ax = (0..=ac - 3)
            .rev()
            .find_map(|i| self.dominant_axis([&w[i], &w[i + 1], &w[i + 2]]));
        let Some(ax) = ax else {
            return Ok(true); // a degenerate face is skipped
        };
        let ax = (ax + 1) % 3;
        let ay = (ax + 1) % 3;
        let mut pts = Vec::with_capacity(ac);
        for s in w {
            let Some(i) = self.index(s) else {
                self.warnings.push("bad vertex reference".into());
                return Ok(false);
            };
            let p = self.v[i.0].to_array();
            pts.push([p[ax], p[ay]]);
        }
        let rev = area(&pts) < 0.0;
        let mut out = Vec::new();
        let ok = triangulate(&pts, &mut out);
        for [a, b, c] in out {
            let t = if rev {
                [&*w[c], &*w[b], &*w[a]]
            } else {
                [&*w[a], &*w[b], &*w[c]]
            };
            self.triangle(t)?;
        }
        if !ok {
            self.warnings
                .push(format!("self-intersecting face with {ac} vertices"));
        }
        Ok(true)
    }
}

/// Ear-clipping triangulation as RADIANCE's `polyTriangulate` (the OBJ library's, shared with
/// robjutil): triangles (indices into `p`) go to `out`; false when the polygon is not simple
/// (the triangles found so far stay).
fn triangulate(p: &[[f64; 2]], out: &mut Vec<[usize; 3]>) -> bool {
    clip_ears(p, |a, b, c| out.push([a, b, c]))
}

/// A failed compilation: what went wrong, and the warnings printed before it.
#[derive(Clone, Debug)]
pub struct Failed {
    pub message: String,
    pub warnings: Vec<String>,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failed {}

/// Compiles OBJ `text` (named `file` in messages) into a mesh file: the information header
/// (`command` as the program was invoked, up to the input file) and the mesh.
pub fn obj2mesh(
    text: &[u8],
    file: &str,
    command: &[String],
    mats: &Materials,
    o: &Options,
) -> Result<Compiled, Failed> {
    let mut r = Reader {
        v: Vec::new(),
        vn: Vec::new(),
        vt: Vec::new(),
        material: String::new(),
        group: String::new(),
        mats,
        file,
        tris: Vec::new(),
        warnings: Vec::new(),
        reused: None,
    };
    let written = read_obj(&mut r, text).and_then(|()| write_rtm(&r.tris, &mats.list, o.limits));
    let (body, stats) = match written {
        Ok(w) => w,
        Err(message) => {
            return Err(Failed {
                message,
                warnings: r.warnings,
            })
        }
    };
    if stats.empty {
        r.warnings.push("mesh is empty".into());
    }
    let mut bytes = Vec::with_capacity(body.len() + 128);
    bytes.extend_from_slice(b"#?RADIANCE\n");
    bytes.extend_from_slice(command_line(&command[0], &command[1..]).as_bytes());
    bytes.extend_from_slice(b"\nFORMAT=Radiance_tmesh\n\n");
    bytes.extend_from_slice(&body);
    Ok(Compiled {
        bytes,
        warnings: r.warnings,
        stats,
    })
}

/// The statements of OBJ input as RADIANCE's obj2mesh reads them, each with its words and the
/// number of lines read so far: lines of at most 8191 bytes (a longer one goes on as the next
/// statement), `\` before a newline continuing a line, a lone carriage return ending one;
/// words split at white space and at `\` where a word would start; at most 511 words (the
/// rest of the statement is dropped); blank statements skipped.
fn statements(text: &[u8]) -> Vec<(Vec<String>, usize)> {
    const LINE: usize = 8192;
    const MAXARG: usize = 512;
    let mut out = Vec::new();
    let mut lineno = 0;
    let mut pos = 0;
    loop {
        // One line, as fgetline reads it.
        let mut buf: Vec<u8> = Vec::new();
        let mut eof = false;
        let mut room = LINE;
        loop {
            room -= 1;
            if room == 0 {
                break;
            }
            let Some(&b) = text.get(pos) else {
                eof = true;
                break;
            };
            pos += 1;
            let c = if b == b'\r' {
                if text.get(pos) == Some(&b'\n') {
                    pos += 1;
                }
                b'\n'
            } else {
                b
            };
            if c == b'\n' && buf.last() != Some(&b'\\') {
                break;
            }
            buf.push(c);
        }
        if buf.is_empty() && eof {
            return out;
        }
        let mut words = Vec::new();
        let mut i = 0;
        loop {
            while i < buf.len()
                && (buf[i].is_ascii_whitespace() || buf[i] == 0x0b || buf[i] == b'\\')
            {
                if buf[i] == b'\n' {
                    lineno += 1;
                }
                i += 1;
            }
            if i >= buf.len() || buf[i] == 0 || words.len() >= MAXARG - 1 {
                break;
            }
            let start = i;
            i += 1;
            while i < buf.len() && buf[i] != 0 && !(buf[i].is_ascii_whitespace() || buf[i] == 0x0b)
            {
                i += 1;
            }
            words.push(String::from_utf8_lossy(&buf[start..i]).into_owned());
        }
        lineno += 1;
        if !words.is_empty() {
            out.push((words, lineno));
        }
    }
}

/// Reads the statements of `text` into `r`'s triangles.
fn read_obj(r: &mut Reader, text: &[u8]) -> Result<(), String> {
    let file = r.file;
    let stmts = statements(text);
    let (mut nstats, mut unknown) = (0usize, 0usize);
    for (words, line) in stmts {
        let err = |what: &str| format!("{file}: Wavefront syntax error near line {line}: {what}");
        let floats =
            |n: usize| words.len() > n && words[1..=n].iter().all(|w| is_float(w.as_bytes()));
        let p = |i: usize| atof(&words[i]);
        match words[0].as_str() {
            "v" => {
                if !floats(3) {
                    return Err(err("bad vertex"));
                }
                r.v.push(DVec3::new(p(1), p(2), p(3)));
            }
            "vn" => {
                if !floats(3) {
                    return Err(err("bad normal"));
                }
                let (n, len) = normalize(DVec3::new(p(1), p(2), p(3)));
                if len == 0.0 {
                    return Err(err("zero normal"));
                }
                r.vn.push(n);
            }
            "vt" if floats(2) => r.vt.push([p(1), p(2)]),
            "f" => {
                let face = &words[1..];
                let ok = match face.len() {
                    0..=2 => return Err(err("too few vertices")),
                    3 => r.triangle([&face[0], &face[1], &face[2]])?,
                    _ => r.face(face)?,
                };
                if !ok {
                    return Err(err(if face.len() == 3 {
                        "bad triangle"
                    } else {
                        "bad face"
                    }));
                }
            }
            "usemap" => {}
            "usemtl" => r.material = words.get(1).cloned().unwrap_or_default(),
            "o" => {}
            "g" => r.group = words.get(1).cloned().unwrap_or_default(),
            k if k.starts_with('#') => {}
            _ => unknown += 1,
        }
        nstats += 1;
    }
    if unknown > 0 {
        r.warnings
            .push(format!("{unknown} of {nstats} statements unrecognized"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_concave_faces_triangulate() {
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let mut out = Vec::new();
        assert!(triangulate(&sq, &mut out));
        assert_eq!(out.len(), 2);
        // An L shape: six vertices, four triangles, none covering the notch.
        let l = [
            [0.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 2.0],
            [0.0, 2.0],
        ];
        out.clear();
        assert!(triangulate(&l, &mut out));
        assert_eq!(out.len(), 4);
        let area: f64 = out.iter().map(|t| area(&[l[t[0]], l[t[1]], l[t[2]]])).sum();
        assert!((area - 3.0).abs() < 1e-12);
    }
}
