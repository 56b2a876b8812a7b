//! Solid angles of the Voronoi cells of directions on the unit sphere, exact up to rounding.
//!
//! Each cell is built in the gnomonic (central) projection onto the plane tangent at its own
//! direction `p`: great circles project to straight lines, so the bisector of `p` and a
//! neighbour `q` is a half-plane and the cell is a convex polygon clipped by the neighbours'
//! half-planes. Neighbours come nearest first from the k-d tree; once the farthest corner of the
//! cell lies at angle `r` from `p`, no direction farther than `2r` can cut it, which ends the
//! search. The polygon's area on the sphere is the sum of the spherical triangles of a fan
//! from `p` (Van Oosterom and Strackee's formula), so the cells tile the sphere and their solid
//! angles sum to 4π.

use crate::tree::DirTree;
use crate::LightFieldError;
use glam::DVec3;
use rayon::prelude::*;

/// Half-width of the starting square in the tangent plane: 89.94° from the centre. A cell that
/// still touches it reaches past the hemisphere around its direction.
const FAR: f64 = 1000.0;

/// Solid angle (sr) of each direction's Voronoi cell. `dirs` are unit vectors, pairwise
/// distinct; `tree` holds them (item = index). Fails when a cell would reach beyond the
/// hemisphere around its own direction: the directions leave a gap wider than a hemisphere.
pub fn solid_angles(dirs: &[DVec3], tree: &DirTree) -> Result<Vec<f64>, LightFieldError> {
    if dirs.len() < 4 {
        return Err(LightFieldError::Input(format!(
            "{} directions: Voronoi cells on the sphere need at least 4 that surround the centre",
            dirs.len()
        )));
    }
    dirs.par_iter()
        .enumerate()
        .map(|(i, &p)| cell_solid_angle(i, p, dirs, tree))
        .collect()
}

fn cell_solid_angle(
    i: usize,
    p: DVec3,
    dirs: &[DVec3],
    tree: &DirTree,
) -> Result<f64, LightFieldError> {
    let (e1, e2) = p.any_orthonormal_pair();
    let mut k = 16.min(dirs.len());
    loop {
        let near = tree.nearest_n(p, k);
        let mut poly = vec![(-FAR, -FAR), (FAR, -FAR), (FAR, FAR), (-FAR, FAR)];
        let mut farthest_neighbour = 0.0f64;
        for n in &near {
            let (j, dist2) = *n;
            if j == i {
                continue;
            }
            let q = dirs[j];
            farthest_neighbour = farthest_neighbour.max(dist2);
            // x ∝ p + a e1 + b e2 lies on p's side of the bisector when x·(p − q) ≥ 0.
            let (na, nb, c) = (q.dot(e1), q.dot(e2), 1.0 - p.dot(q));
            if na == 0.0 && nb == 0.0 && c <= 0.0 {
                return Err(LightFieldError::Input(format!(
                    "direction {i} is repeated (direction {j}): a Voronoi cell needs distinct directions"
                )));
            }
            poly = clip(&poly, na, nb, c);
            if poly.is_empty() {
                return Err(LightFieldError::Input(format!(
                    "direction {i}: its Voronoi cell is empty (a repeated direction)"
                )));
            }
        }
        let corners: Vec<DVec3> = poly
            .iter()
            .map(|&(a, b)| (p + a * e1 + b * e2).normalize())
            .collect();
        // Chord length² of the farthest corner: cos r = p·v, and a neighbour beyond 2r (chord²
        // 2 − 2 cos 2r) cannot cut the cell.
        let cos_r = corners.iter().map(|v| p.dot(*v)).fold(1.0f64, f64::min);
        let touches_far = poly
            .iter()
            .any(|&(a, b)| a.abs().max(b.abs()) >= FAR * 0.999);
        let cos_2r = 2.0 * cos_r * cos_r - 1.0;
        let reach = if cos_r <= 0.0 {
            4.0
        } else {
            2.0 - 2.0 * cos_2r
        };
        if k >= dirs.len() || (!touches_far && farthest_neighbour >= reach) {
            if touches_far {
                return Err(LightFieldError::Input(format!(
                    "direction {i}: its Voronoi cell reaches beyond a hemisphere (the directions leave a gap that wide)"
                )));
            }
            return Ok(fan_area(p, &corners));
        }
        k = (k * 2).min(dirs.len());
    }
}

/// The part of convex polygon `poly` where `na·a + nb·b ≤ c` (Sutherland–Hodgman, one edge).
fn clip(poly: &[(f64, f64)], na: f64, nb: f64, c: f64) -> Vec<(f64, f64)> {
    let side = |&(a, b): &(f64, f64)| c - (na * a + nb * b);
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (s, e) = (poly[k], poly[(k + 1) % poly.len()]);
        let (ds, de) = (side(&s), side(&e));
        if ds >= 0.0 {
            out.push(s);
        }
        if (ds >= 0.0) != (de >= 0.0) {
            let t = ds / (ds - de);
            out.push((s.0 + t * (e.0 - s.0), s.1 + t * (e.1 - s.1)));
        }
    }
    out
}

/// Solid angle of the spherical polygon with corners `v` (in order) around the inside point `p`.
fn fan_area(p: DVec3, v: &[DVec3]) -> f64 {
    (0..v.len())
        .map(|k| triangle(p, v[k], v[(k + 1) % v.len()]))
        .sum()
}

/// Solid angle of the spherical triangle a, b, c (unit vectors; Van Oosterom and Strackee).
pub fn triangle(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let num = a.dot(b.cross(c)).abs();
    let den = 1.0 + a.dot(b) + b.dot(c) + c.dot(a);
    2.0 * num.atan2(den)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn tree(d: &[DVec3]) -> DirTree {
        DirTree::new(d)
    }

    #[test]
    fn octahedron_cells_are_eighths_of_the_sphere_each_sixth() {
        let d = vec![
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
        ];
        let om = solid_angles(&d, &tree(&d)).unwrap();
        for o in om {
            assert!((o - 4.0 * PI / 6.0).abs() < 1e-12, "{o}");
        }
    }

    #[test]
    fn cube_corners_by_symmetry() {
        let mut d = Vec::new();
        for s in 0..8 {
            let f = |b: i32| if s & b == 0 { 1.0 } else { -1.0 };
            d.push(DVec3::new(f(1), f(2), f(4)).normalize());
        }
        let om = solid_angles(&d, &tree(&d)).unwrap();
        for o in om {
            assert!((o - PI / 2.0).abs() < 1e-12, "{o}");
        }
    }

    #[test]
    fn random_directions_sum_to_four_pi() {
        // A fixed pseudo-random set (Weyl sequence on the sphere), with a dense cluster.
        let mut d = Vec::new();
        for k in 0..3000 {
            let z = 1.0 - 2.0 * ((k as f64 * 0.618_033_988_75) % 1.0);
            let phi = k as f64 * 2.399_963;
            let s = (1.0 - z * z).sqrt();
            d.push(DVec3::new(s * phi.cos(), s * phi.sin(), z));
        }
        for k in 1..200 {
            let a = 1e-3 * (k as f64).sqrt();
            let t = k as f64 * 2.399_963;
            d.push(DVec3::new(a * t.cos(), a * t.sin(), 1.0).normalize());
        }
        let om = solid_angles(&d, &tree(&d)).unwrap();
        let sum: f64 = om.iter().sum();
        assert!((sum - 4.0 * PI).abs() < 1e-9, "{sum}");
        assert!(om.iter().all(|&o| o > 0.0));
    }

    #[test]
    fn a_hemisphere_gap_and_repeats_are_errors() {
        let d = vec![
            DVec3::Z,
            DVec3::new(0.1, 0.0, 1.0).normalize(),
            DVec3::new(0.0, 0.1, 1.0).normalize(),
            DVec3::new(-0.1, 0.0, 1.0).normalize(),
        ];
        assert!(solid_angles(&d, &tree(&d)).is_err());
        let d = vec![DVec3::X, DVec3::X, DVec3::Y, -DVec3::Y, DVec3::Z, -DVec3::Z];
        assert!(solid_angles(&d, &tree(&d)).is_err());
    }
}
