//! Faces of more than three corners split into triangles (`+T`, and bent faces in RADIANCE
//! output), as RADIANCE's OBJ library splits them: the face is projected on the plane of the
//! two axes other than its normal's largest, then ears are clipped from a counter-clockwise
//! walk (Ratcliff's triangulator, with RADIANCE's handling of collinear corners and of corners
//! that meet again at seams). Each triangle keeps the face's group, material and flags and
//! goes to the front of the face list; the face itself is then deleted. A face the clipping
//! cannot finish is flagged degenerate (the triangles made so far stay).

use super::{Corner, ObjScene, FACE_DEGENERATE, FACE_DUPLICATE};

/// Below this a cross product counts as zero.
const EPSILON: f64 = 0.0000000001;

/// Twice the signed area of a 2-D polygon over two, positive when counter-clockwise.
pub(crate) fn area(p: &[[f64; 2]]) -> f64 {
    let n = p.len();
    let mut a = 0.0;
    let mut prev = n - 1;
    for q in 0..n {
        a += p[prev][0] * p[q][1] - p[q][0] * p[prev][1];
        prev = q;
    }
    a * 0.5
}

/// Is `p` inside (or on) triangle `a b c`, counter-clockwise?
fn inside(a: [f64; 2], b: [f64; 2], c: [f64; 2], p: [f64; 2]) -> bool {
    let e_a = [c[0] - b[0], c[1] - b[1]];
    let e_b = [a[0] - c[0], a[1] - c[1]];
    let e_c = [b[0] - a[0], b[1] - a[1]];
    let (ap, bp, cp) = (
        [p[0] - a[0], p[1] - a[1]],
        [p[0] - b[0], p[1] - b[1]],
        [p[0] - c[0], p[1] - c[1]],
    );
    let a_bp = e_a[0] * bp[1] - e_a[1] * bp[0];
    let c_ap = e_c[0] * ap[1] - e_c[1] * ap[0];
    let b_cp = e_b[0] * cp[1] - e_b[1] * cp[0];
    a_bp >= 0.0 && b_cp >= 0.0 && c_ap >= 0.0
}

/// Whether corners `u v w` of the remaining walk `idx` make an ear: `Some(true)` yes,
/// `Some(false)` collinear (drop `v` without a triangle), `None` not an ear.
fn ear(p: &[[f64; 2]], idx: &[usize], u: usize, v: usize, w: usize) -> Option<bool> {
    let (a, b, c) = (p[idx[u]], p[idx[v]], p[idx[w]]);
    let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if cross < EPSILON {
        return (cross > -EPSILON).then_some(false);
    }
    for (k, &i) in idx.iter().enumerate() {
        if k == u || k == v || k == w {
            continue;
        }
        let q = p[i];
        if q == a || q == b || q == c {
            continue;
        }
        if inside(a, b, c, q) {
            return None;
        }
    }
    Some(true)
}

/// Clips ears from polygon `p`, giving each triangle's corner indices to `out`; false when
/// the polygon cannot be finished (it is probably not simple).
pub fn clip_ears(p: &[[f64; 2]], mut out: impl FnMut(usize, usize, usize)) -> bool {
    let n = p.len();
    if n < 3 {
        return false;
    }
    let mut idx: Vec<usize> = if area(p) > 0.0 {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };
    let mut budget = 2 * n as i64;
    let mut v = n - 1;
    while idx.len() > 2 {
        let m = idx.len();
        if budget <= 0 {
            return false;
        }
        budget -= 1;
        let u = if v < m { v } else { 0 };
        v = if u + 1 < m { u + 1 } else { 0 };
        let w = if v + 1 < m { v + 1 } else { 0 };
        if let Some(made) = ear(p, &idx, u, v, w) {
            if made {
                out(idx[u], idx[v], idx[w]);
            }
            idx.remove(v);
            budget = 2 * idx.len() as i64;
        }
    }
    true
}

impl ObjScene {
    /// Splits one face of more than three corners; returns whether it was split.
    fn split_face(&mut self, f: usize) -> bool {
        let face = self.faces[f].clone();
        if face.v.len() <= 3 {
            return false;
        }
        let (a, nrm) = self.face_area(f);
        if a == 0.0 {
            return false;
        }
        let mut i = (nrm[1] * nrm[1] > nrm[0] * nrm[0]) as usize;
        if nrm[2] * nrm[2] > nrm[i] * nrm[i] {
            i = 2;
        }
        let (ax, ay) = ((i + 1) % 3, (i + 2) % 3);
        let poly: Vec<[f64; 2]> = face
            .v
            .iter()
            .map(|c| {
                let p = self.verts[c.vid].p;
                [p[ax], p[ay]]
            })
            .collect();
        let reverse = area(&poly) < 0.0;
        let mut tris = Vec::new();
        let done = clip_ears(&poly, |a, b, c| {
            tris.push(if reverse { [c, b, a] } else { [a, b, c] })
        });
        for t in tris {
            let corners: Vec<Corner> = t.iter().map(|&k| face.v[k]).collect();
            if let Some(g) = self.add_face(&corners) {
                let new = &mut self.faces[g];
                new.flags |= face.flags;
                new.grp = face.grp;
                new.mat = face.mat;
            }
        }
        self.faces[f].flags |= if done {
            FACE_DUPLICATE
        } else {
            FACE_DEGENERATE
        };
        done
    }

    /// Splits every face of more than three corners (not those flagged degenerate or
    /// duplicate) into triangles; returns how many faces were added.
    pub fn triangulate(&mut self) -> isize {
        let before = self.nfaces() as isize;
        let mut split = 0;
        for f in self.faces_with(0, FACE_DUPLICATE | FACE_DEGENERATE) {
            split += self.split_face(f) as usize;
        }
        if split > 0 {
            self.delete_faces(FACE_DUPLICATE, 0);
        }
        self.nfaces() as isize - before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An L-shaped hexagon becomes four triangles covering its area, none of them outside it
    /// (the notch's corner is never an ear); a clockwise walk is clipped as counter-clockwise.
    #[test]
    fn concave_polygon_is_clipped_into_its_area() {
        let ell = [
            [0.0, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 2.0],
            [0.0, 2.0],
        ];
        for poly in [ell.to_vec(), ell.iter().rev().copied().collect()] {
            let mut tris = Vec::new();
            assert!(clip_ears(&poly, |a, b, c| tris.push([a, b, c])));
            assert_eq!(tris.len(), 4);
            let total: f64 = tris
                .iter()
                .map(|t| area(&[poly[t[0]], poly[t[1]], poly[t[2]]]).abs())
                .sum();
            assert!((total - 3.0).abs() < 1e-12, "{total}");
        }
    }

    /// A corner on a straight edge makes no triangle of zero area: the triangles cover the
    /// square exactly.
    #[test]
    fn collinear_corners_make_no_empty_triangles() {
        let square = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        let mut areas = Vec::new();
        assert!(clip_ears(&square, |a, b, c| areas
            .push(area(&[square[a], square[b], square[c]]))));
        assert!(areas.iter().all(|&a| a > 0.0));
        assert!((areas.iter().sum::<f64>() - 4.0).abs() < 1e-12);
    }
}
