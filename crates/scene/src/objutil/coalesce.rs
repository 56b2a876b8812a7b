//! Vertex coalescing (`-c epsilon`): positions that print the same in `%.Ne` form, with N the
//! number of decimal places epsilon reaches (15 at or below 5e-15), are one position. A later
//! position is replaced by the first one of its key unless a face already uses both; its
//! corners then take the texture coordinates and normals already seen around the kept position
//! when they differ by at most epsilon (coordinates relatively, normals per component), and a
//! face left without area is flagged degenerate. An epsilon of 1 or more, or three positions
//! or fewer, change nothing.

use super::{ObjScene, FACE_DEGENERATE, FTINY};
use daylit_radfile::printf::format_e;

/// Do two coordinates differ by more than `eps` (relatively, unless the second is zero)?
fn differ(a: f64, b: f64, eps: f64) -> bool {
    let d = if b != 0.0 { a / b - 1.0 } else { a };
    d > eps || d < -eps
}

impl ObjScene {
    fn tex_differ(&self, a: usize, b: usize, eps: f64) -> bool {
        let (s, t) = (self.tex[a], self.tex[b]);
        differ(s[0] as f64, t[0] as f64, eps) || differ(s[1] as f64, t[1] as f64, eps)
    }

    fn norm_differ(&self, a: usize, b: usize, eps: f64) -> bool {
        let (s, t) = (self.norms[a], self.norms[b]);
        (0..3).any(|k| (s[k] as f64 - t[k] as f64).abs() > eps)
    }

    /// Joins positions within `eps`; returns how many were replaced.
    pub fn coalesce_vertices(&mut self, eps: f64) -> usize {
        if eps >= 1.0 || self.verts.len() <= 3 {
            return 0;
        }
        let digits = if eps <= 5e-15 {
            15
        } else {
            let (mut d, mut n) = (eps, 0);
            while d < 0.5 {
                n += 1;
                d *= 10.0;
            }
            n
        };
        let mut seen: std::collections::HashMap<String, usize> = Default::default();
        let mut joined = 0;
        for i in 0..self.verts.len() {
            let p = self.verts[i].p;
            let key = format!(
                "{} {} {}",
                format_e(p[0], digits),
                format_e(p[1], digits),
                format_e(p[2], digits)
            );
            match seen.get(&key) {
                Some(&keep) => joined += self.replace_vertex(i, keep, eps) as usize,
                None => {
                    seen.insert(key, i);
                }
            }
        }
        joined
    }

    /// Gathers the distinct attributes (up to nine) around `keep` in its face-list order, a
    /// corner whose attribute is within `eps` of one gathered before taking that one instead;
    /// `texture` picks texture coordinates or normals. `None` when a face there also uses
    /// `prev` (checked with texture coordinates only).
    fn gather(&mut self, keep: usize, prev: usize, eps: f64, texture: bool) -> Option<Vec<usize>> {
        let mut found: Vec<usize> = Vec::new();
        for f in self.vertex_faces(keep) {
            if texture && self.faces[f].v.iter().any(|c| c.vid == prev) {
                return None;
            }
            let j = self.last_corner(f, keep)?;
            let c = self.faces[f].v[j];
            let Some(a) = (if texture { c.tid } else { c.nid }) else {
                continue;
            };
            let mut known = false;
            for &b in &found {
                if b == a {
                    known = true;
                    break;
                }
                let close = if texture {
                    !self.tex_differ(b, a, eps)
                } else {
                    !self.norm_differ(b, a, eps)
                };
                if close {
                    let corner = &mut self.faces[f].v[j];
                    *(if texture {
                        &mut corner.tid
                    } else {
                        &mut corner.nid
                    }) = Some(b);
                    known = true;
                    break;
                }
            }
            if known {
                continue;
            }
            found.push(a);
            if found.len() >= 9 {
                break;
            }
        }
        Some(found)
    }

    /// Replaces position `prev` with `keep` in the faces that use it; false when `prev` is
    /// unused or a face uses both.
    fn replace_vertex(&mut self, prev: usize, keep: usize, eps: f64) -> bool {
        if self.verts[prev].head.is_none() {
            return false;
        }
        let Some(texs) = self.gather(keep, prev, eps, true) else {
            return false;
        };
        let norms = self.gather(keep, prev, eps, false).unwrap_or_default();
        let faces = self.vertex_faces(prev);
        let mut last = None;
        for &f in &faces {
            let Some(j) = self.last_corner(f, prev) else {
                break;
            };
            self.faces[f].v[j].vid = keep;
            if self.face_area(f).0 <= FTINY * FTINY {
                self.faces[f].flags |= FACE_DEGENERATE;
            }
            if let Some(t) = self.faces[f].v[j].tid {
                for &b in &texs {
                    if b == t {
                        break;
                    }
                    if !self.tex_differ(b, t, eps) {
                        self.faces[f].v[j].tid = Some(b);
                        break;
                    }
                }
            }
            if let Some(n) = self.faces[f].v[j].nid {
                for &b in &norms {
                    if b == n {
                        break;
                    }
                    if !self.norm_differ(b, n, eps) {
                        self.faces[f].v[j].nid = Some(b);
                        break;
                    }
                }
            }
            last = Some((f, j));
        }
        // The replaced position's faces go in front of the kept one's.
        if let Some((f, j)) = last {
            self.faces[f].v[j].next = self.verts[keep].head;
            self.verts[keep].head = self.verts[prev].head;
            self.verts[prev].head = None;
        }
        true
    }
}
