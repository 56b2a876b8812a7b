//! The model written out as robjutil writes it. OBJ (`-r`): the comments, a summary, then
//! positions (`%.12g`), texture coordinates (`%.6g`) and normals (`%.6f`) that faces use, and
//! each group in turn (empty ones too) with its faces in list order, a `usemtl` where the
//! material changes, corners as relative indices `v/t/n`. RADIANCE (`+r`): the comments, then
//! faces whose normals bend, split into triangles, each with a `texfunc Phong` through
//! `tmesh.cal` (barycentric coordinates as obj2rad writes them), then the other faces as
//! polygons named `group.N` (a face whose normals all point against it is turned around);
//! degenerate faces are left out. A model without faces writes nothing.

use super::{ObjScene, FACE_DEGENERATE, FACE_RESERVED};
use crate::obj2rad::barycentric;
use daylit_radfile::printf::{format_g18, format_g_digits};
use glam::DVec3;
use std::fmt::Write;

/// Cosine below which vertex normals count as bent.
const COSTOL: f64 = 0.999995;

fn point(out: &mut String, p: [f64; 3]) {
    let _ = writeln!(
        out,
        "\t{} {} {}",
        format_g18(p[0]),
        format_g18(p[1]),
        format_g18(p[2])
    );
}

impl ObjScene {
    /// The model as OBJ text with relative indices.
    pub fn to_obj(&mut self) -> String {
        let mut out = String::new();
        if self.nfaces() == 0 {
            return out;
        }
        self.delete_unreferenced();
        for c in &self.comments {
            let _ = writeln!(out, "# {c}");
        }
        let _ = write!(
            out,
            "#\n# {} final faces\n#\t{} vertices, {} texture coordinates, {} surface normals\n#\n\n",
            self.nfaces(),
            self.verts.len(),
            self.tex.len(),
            self.norms.len()
        );
        out.push_str("# Vertex positions\n");
        for v in &self.verts {
            let g = |x: f64| format_g_digits(x, 12);
            let _ = writeln!(out, "v {} {} {}", g(v.p[0]), g(v.p[1]), g(v.p[2]));
        }
        out.push_str("\n# Vertex texture coordinates\n");
        for t in &self.tex {
            let g = |x: f32| format_g_digits(x as f64, 6);
            let _ = writeln!(out, "vt {} {}", g(t[0]), g(t[1]));
        }
        out.push_str("\n# Vertex normals\n");
        for n in &self.norms {
            let _ = writeln!(
                out,
                "vn {:.6} {:.6} {:.6}",
                n[0] as f64, n[1] as f64, n[2] as f64
            );
        }
        out.push('\n');
        let ids = self.face_ids();
        let (nv, nt, nn) = (
            self.verts.len() as i64,
            self.tex.len() as i64,
            self.norms.len() as i64,
        );
        for (g, name) in self.groups.iter().enumerate() {
            let _ = writeln!(out, "# Face group\ng {name}");
            let mut mat = None;
            for &f in &ids {
                let face = &self.faces[f];
                if face.grp != g {
                    continue;
                }
                if mat != Some(face.mat) {
                    mat = Some(face.mat);
                    let _ = writeln!(out, "usemtl {}", self.materials[face.mat]);
                }
                out.push('f');
                for c in &face.v {
                    let _ = write!(out, " {}/", c.vid as i64 - nv);
                    match c.tid {
                        Some(t) => {
                            let _ = write!(out, "{}/", t as i64 - nt);
                        }
                        None => out.push('/'),
                    }
                    if let Some(n) = c.nid {
                        let _ = write!(out, "{}", n as i64 - nn);
                    }
                }
                out.push('\n');
            }
            let _ = writeln!(out, "# End of face group {name}\n");
        }
        out
    }

    /// Flags face `f` for smoothing when its normals bend away from its plane; turns it around
    /// when they all point against it.
    fn check_smooth(&mut self, f: usize) -> bool {
        self.faces[f].flags &= !FACE_RESERVED;
        let Some(nids) = self.faces[f]
            .v
            .iter()
            .map(|c| c.nid)
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let (a, fnrm) = self.face_area(f);
        if a == 0.0 {
            return false;
        }
        let mut reversed = 0;
        let mut bent = false;
        // RADIANCE compares from the last corner, in single precision.
        for &n in nids.iter().rev() {
            let t = self.norms[n];
            let d = (t[0] * fnrm[0] + t[1] * fnrm[1] + t[2] * fnrm[2]) as f64;
            if d >= COSTOL {
                continue;
            }
            if d > -COSTOL {
                bent = true;
                break;
            }
            reversed += 1;
        }
        if !bent && reversed == 0 {
            return false;
        }
        if reversed == nids.len() {
            self.faces[f].v.reverse();
            return false;
        }
        self.faces[f].flags |= FACE_RESERVED;
        true
    }

    /// A copy holding the faces whose flags among `req | exc` are exactly `req`, in reverse
    /// order, with the names, positions, coordinates and normals.
    fn duplicate(&self, req: u32, exc: u32) -> ObjScene {
        let mut sc = ObjScene::new();
        sc.comments = self.comments.clone();
        sc.groups = self.groups.clone();
        sc.materials = self.materials.clone();
        sc.verts = self
            .verts
            .iter()
            .map(|v| super::Vertex { p: v.p, head: None })
            .collect();
        sc.tex = self.tex.clone();
        sc.norms = self.norms.clone();
        for f in self.faces_with(req, exc) {
            sc.append_face(self.faces[f].clone());
        }
        sc.delete_unreferenced();
        sc
    }

    /// The model as RADIANCE scene text.
    pub fn to_radiance(&mut self) -> String {
        let mut out = String::new();
        if self.nfaces() == 0 {
            return out;
        }
        for c in &self.comments {
            let _ = writeln!(out, "# {c}");
        }
        let mut count = 0;
        let mut smooth = 0;
        for f in self.faces_with(0, FACE_DEGENERATE) {
            smooth += self.check_smooth(f) as usize;
        }
        if smooth > 0 {
            let mut sm = self.duplicate(FACE_RESERVED, FACE_DEGENERATE);
            sm.triangulate();
            for f in sm.face_ids() {
                sm.smooth_triangle(f, &mut count, &mut out);
            }
        }
        for f in self.faces_with(0, FACE_DEGENERATE | FACE_RESERVED) {
            let face = &self.faces[f];
            count += 1;
            let _ = write!(
                out,
                "\n{} polygon {}.{count}\n0\n0\n{}\n",
                self.materials[face.mat],
                self.groups[face.grp],
                3 * face.v.len()
            );
            for c in &face.v {
                point(&mut out, self.verts[c.vid].p);
            }
        }
        out
    }

    /// A triangle with its normals interpolated through `tmesh.cal`.
    fn smooth_triangle(&self, f: usize, count: &mut usize, out: &mut String) {
        let face = &self.faces[f];
        if face.v.len() != 3 {
            return;
        }
        let p: Vec<[f64; 3]> = face.v.iter().map(|c| self.verts[c.vid].p).collect();
        let Some((ax, tm)) = barycentric(p[0].into(), p[1].into(), p[2].into()) else {
            return;
        };
        let ns: Vec<DVec3> = face
            .v
            .iter()
            .map(|c| {
                let n = self.norms[c.nid.expect("smoothed faces have normals")];
                DVec3::new(n[0] as f64, n[1] as f64, n[2] as f64)
            })
            .collect();
        let _ = write!(
            out,
            "\n{} texfunc Phong\n4 dx dy dz tmesh.cal\n0\n10\t{ax}\n",
            self.materials[face.mat]
        );
        let (da, db) = ((ns[0] - ns[2]).to_array(), (ns[1] - ns[2]).to_array());
        for ((a, b), c) in da.into_iter().zip(db).zip(ns[2].to_array()) {
            let _ = writeln!(
                out,
                "{:14.8} {:14.8} {:14.8}",
                tm[0][0] * a + tm[1][0] * b,
                tm[0][1] * a + tm[1][1] * b,
                tm[0][2] * a + tm[1][2] * b + c
            );
        }
        *count += 1;
        let _ = write!(
            out,
            "\nPhong polygon {}.{}\n0\n0\n9\n",
            self.groups[face.grp], *count
        );
        for q in p {
            point(out, q);
        }
    }
}
