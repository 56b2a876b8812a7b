//! What a mesh triangle adds at a hit point: the shading normal interpolated from its
//! vertices' normals, and its local (u,v) coordinates, when all three vertices have them (as
//! RADIANCE's `mesh` primitive uses them).

use crate::Origin;
use daylit_geometry::DVec3;
use daylit_scene::Scene;

/// Interpolated vertex data at a point of a mesh triangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeshPoint {
    /// The unit normal interpolated from the vertex normals.
    pub normal: Option<DVec3>,
    /// The interpolated local coordinates (`Lu`, `Lv`).
    pub uv: Option<[f64; 2]>,
}

/// Barycentric weights of `p` (on the triangle's plane) in triangle `v`.
pub fn barycentric(v: [DVec3; 3], p: DVec3) -> Option<[f64; 3]> {
    let n = (v[1] - v[0]).cross(v[2] - v[0]);
    let nn = n.length_squared();
    if nn <= 0.0 || !nn.is_finite() {
        return None;
    }
    let w0 = n.dot((v[1] - p).cross(v[2] - p)) / nn;
    let w1 = n.dot((v[2] - p).cross(v[0] - p)) / nn;
    Some([w0, w1, 1.0 - w0 - w1])
}

/// The interpolated normal and (u,v) at `point` of the shape that came from `origin`; `None`
/// unless it is a mesh triangle with either.
pub fn mesh_point(scene: &Scene, origin: Origin, point: DVec3) -> Option<MeshPoint> {
    let Origin::MeshTri { mesh, tri } = origin else {
        return None;
    };
    let m = scene.meshes.get(mesh as usize)?;
    if m.normals.is_empty() && m.uvs.is_empty() {
        return None;
    }
    let t = m.triangles[tri as usize].map(|k| k as usize);
    let normals: Option<[DVec3; 3]> = (m.normals.len() == m.vertices.len())
        .then(|| t.map(|k| DVec3::from_array(m.normals[k].map(f64::from))))
        .filter(|ns| ns.iter().all(|n| *n != DVec3::ZERO));
    let uvs: Option<[[f64; 2]; 3]> = (m.uvs.len() == m.vertices.len())
        .then(|| t.map(|k| m.uvs[k]))
        .filter(|uv| uv.iter().all(|u| !u[0].is_nan()));
    if normals.is_none() && uvs.is_none() {
        return None;
    }
    let w = barycentric(t.map(|k| DVec3::from_array(m.vertices[k])), point)?;
    Some(MeshPoint {
        normal: normals.and_then(|ns| (ns[0] * w[0] + ns[1] * w[1] + ns[2] * w[2]).try_normalize()),
        uv: uvs.map(|uv| {
            [
                w[0] * uv[0][0] + w[1] * uv[1][0] + w[2] * uv[2][0],
                w[0] * uv[0][1] + w[1] * uv[1][1] + w[2] * uv[2][1],
            ]
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_reproduce_the_point() {
        let v = [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(2.0, 0.0, 1.0),
            DVec3::new(0.0, 3.0, 0.5),
        ];
        let p = v[0] * 0.2 + v[1] * 0.5 + v[2] * 0.3;
        let w = barycentric(v, p).unwrap();
        for (a, b) in w.iter().zip([0.2, 0.5, 0.3]) {
            assert!((a - b).abs() < 1e-12);
        }
    }
}
