//! RADIANCE compiled triangle meshes (`.rtm`, written by `obj2mesh`): an information header
//! with `FORMAT=Radiance_tmesh`, a magic number, the bounding cube, the (u,v) limits, the
//! mesh's own octree (skipped), its materials (a binary scene section) and the patches of
//! up to 256 vertices whose triangles join them.
//!
//! Vertex positions are stored as 32-bit fractions of the bounding cube and (u,v) as 32-bit
//! fractions of their limits; both are decoded at the middle of their step, as RADIANCE
//! decodes them. Normals are stored in RADIANCE's 4-byte direction code.

use crate::error::SceneError;
use crate::portable::{has_format, read_header, read_scene, BinPrim, Cursor};
use std::path::Path;

/// The `FORMAT=` value of compiled-mesh headers.
pub const FORMAT: &str = "Radiance_tmesh";

const MAX_OBJ_SIZE: i64 = 8;
/// The first two bytes hold this plus the size of an object number.
const MAGIC: i64 = MAX_OBJ_SIZE + 311;

/// Patch vertex flags: positions, normals, (u,v).
const MT_V: i64 = 1;
const MT_N: i64 = 2;
const MT_UV: i64 = 4;

/// 2^-32, the step of the 32-bit fractions.
const STEP: f64 = 1.0 / 4_294_967_296.0;

/// A compiled mesh in its own coordinates.
#[derive(Clone, Debug, Default)]
pub struct RtmMesh {
    /// Information header lines, without `#?RADIANCE`.
    pub info: Vec<String>,
    /// Origin of the bounding cube.
    pub cube_origin: [f64; 3],
    /// Side of the bounding cube.
    pub cube_size: f64,
    /// (u,v) limits: `[[u_min, v_min], [u_max, v_max]]`.
    pub uv_limits: [[f64; 2]; 2],
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Per-vertex unit normals (`None` where the vertex has none).
    pub normals: Vec<Option<[f64; 3]>>,
    /// Per-vertex (u,v) (`None` where the vertex has none).
    pub uvs: Vec<Option<[f64; 2]>>,
    /// Triangles as vertex indices, in RADIANCE's order (by patch: local triangles, then
    /// those joining one other patch, then those joining two).
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle, its material as an index into `materials` (`None` for `void`).
    pub tri_material: Vec<Option<u32>>,
    /// The mesh's materials (and the modifiers they use), as stored.
    pub materials: Vec<BinPrim>,
    /// Number of patches.
    pub patches: usize,
}

/// Does `bytes` look like a compiled mesh?
pub fn is_rtm(bytes: &[u8]) -> bool {
    has_format(bytes, FORMAT)
}

/// RADIANCE's 4-byte direction code, decoded to a unit vector (`None` for code 0, "no
/// normal"): two components of at most 1/√2 in 13 bits each, the third from unit length,
/// which axes they are, and the three signs.
pub fn decode_dir(code: i32) -> Option<[f64; 3]> {
    if code == 0 {
        return None;
    }
    const SCALE: f64 = 11584.5;
    let c = code as u32;
    let d1 = ((c >> 5) & 0x1fff) as f64 * (1.0 / SCALE);
    let d2 = ((c >> 18) & 0x1fff) as f64 * (1.0 / SCALE);
    let d3 = (1.0 - d1 * d1 - d2 * d2).sqrt();
    // Bit 3: the first component is x (else y); bit 4: the second is z (else the other of
    // x and y, the third being z).
    let first_x = c & 0o10 != 0;
    let second_z = c & 0o20 != 0;
    let (i1, i2, i3) = match (second_z, first_x) {
        (false, false) => (1, 0, 2),
        (false, true) => (0, 1, 2),
        (true, false) => (1, 2, 0),
        (true, true) => (0, 2, 1),
    };
    let mut v = [0.0; 3];
    v[i1] = d1;
    v[i2] = d2;
    v[i3] = d3;
    for (k, x) in v.iter_mut().enumerate() {
        if c & (1 << k) != 0 {
            *x = -*x;
        }
    }
    Some(v)
}

/// A triangle as read: vertex ids (patch << 8 | index) and material number.
struct RawTri {
    v: [i64; 3],
    mat: i64,
    offset: usize,
}

/// Reads a compiled mesh's bytes (`path` names it in messages).
pub fn read_rtm(bytes: &[u8], path: &Path) -> Result<RtmMesh, SceneError> {
    let (info, start) = read_header(bytes, FORMAT, path)?;
    let mut c = Cursor::new(bytes, start, path);
    let objsize = c.object_size(MAGIC, MAX_OBJ_SIZE, "mesh")?;
    let mut m = RtmMesh {
        info,
        ..Default::default()
    };
    for v in &mut m.cube_origin {
        *v = c.number_str("cube origin")?;
    }
    m.cube_size = c.number_str("cube size")?;
    for i in 0..2 {
        m.uv_limits[0][i] = c.real("uv limits")?;
        m.uv_limits[1][i] = c.real("uv limits")?;
    }
    c.skip_tree(objsize)?;
    m.materials = read_scene(&mut c, objsize)?;
    let at = c.pos();
    let npatches = c.int(4, "patch count")?;
    if !(0..=1 << 22).contains(&npatches) {
        return Err(c.error_at(at, format!("bad number of patches {npatches}")));
    }
    m.patches = npatches as usize;
    // First vertex of each patch in `vertices`, and each patch's vertex count.
    let mut patch_start: Vec<(u32, u32)> = Vec::with_capacity(m.patches);
    let mut tris: Vec<RawTri> = Vec::new();
    let vres = STEP * m.cube_size;
    let (ulo, vlo) = (m.uv_limits[0][0], m.uv_limits[0][1]);
    let (uspan, vspan) = (
        m.uv_limits[1][0] - m.uv_limits[0][0],
        m.uv_limits[1][1] - m.uv_limits[0][1],
    );
    for pn in 0..m.patches as i64 {
        let at = c.pos();
        let flags = c.int(1, "patch flags")?;
        if flags & MT_V == 0 || flags & !(MT_V | MT_N | MT_UV) != 0 {
            return Err(c.error_at(at, format!("patch {pn}: bad patch flags {flags}")));
        }
        let at = c.pos();
        let nv = c.int(2, "patch vertex count")?;
        if !(1..=256).contains(&nv) {
            return Err(c.error_at(at, format!("patch {pn}: bad number of vertices {nv}")));
        }
        let first = m.vertices.len() as u32;
        patch_start.push((first, nv as u32));
        for _ in 0..nv {
            let mut p = [0.0; 3];
            for (k, x) in p.iter_mut().enumerate() {
                let q = c.int(4, "vertex position")? as u32;
                *x = m.cube_origin[k] + (q as f64 + 0.5) * vres;
            }
            m.vertices.push(p);
        }
        if flags & MT_N != 0 {
            for _ in 0..nv {
                let code = c.int(4, "vertex normal")? as i32;
                m.normals.push(decode_dir(code));
            }
        } else {
            m.normals.extend((0..nv).map(|_| None));
        }
        if flags & MT_UV != 0 {
            for _ in 0..nv {
                let u = c.int(4, "vertex (u,v)")? as u32;
                let v = c.int(4, "vertex (u,v)")? as u32;
                m.uvs.push((u != 0).then_some([
                    ulo + uspan * (u as f64 + 0.5) * STEP,
                    vlo + vspan * (v as f64 + 0.5) * STEP,
                ]));
            }
        } else {
            m.uvs.extend((0..nv).map(|_| None));
        }
        let local = |k: i64| pn << 8 | (k & 0xff);
        let at = c.pos();
        let nt = c.int(2, "triangle count")?;
        if !(0..=512).contains(&nt) {
            return Err(c.error_at(at, format!("patch {pn}: bad number of triangles {nt}")));
        }
        let first_tri = tris.len();
        for _ in 0..nt {
            let offset = c.pos();
            let a = c.int(1, "triangle")?;
            let b = c.int(1, "triangle")?;
            let d = c.int(1, "triangle")?;
            tris.push(RawTri {
                v: [local(a), local(b), local(d)],
                mat: -1,
                offset,
            });
        }
        let nmat = c.int(2, "triangle materials")?;
        if nmat > 1 {
            for t in &mut tris[first_tri..] {
                t.mat = c.int(2, "triangle material")?;
            }
        } else {
            let sole = c.int(2, "triangle material")?;
            tris[first_tri..].iter_mut().for_each(|t| t.mat = sole);
        }
        let at = c.pos();
        let n1 = c.int(2, "joiner count")?;
        if !(0..=256).contains(&n1) {
            return Err(c.error_at(at, format!("patch {pn}: bad number of joiners {n1}")));
        }
        for _ in 0..n1 {
            let offset = c.pos();
            let v1 = c.int(4, "joiner triangle")?;
            let b = c.int(1, "joiner triangle")?;
            let d = c.int(1, "joiner triangle")?;
            let mat = c.int(2, "joiner material")?;
            tris.push(RawTri {
                v: [v1, local(b), local(d)],
                mat,
                offset,
            });
        }
        let at = c.pos();
        let n2 = c.int(2, "double joiner count")?;
        if !(0..=256).contains(&n2) {
            return Err(c.error_at(at, format!("patch {pn}: bad number of double joiners {n2}")));
        }
        for _ in 0..n2 {
            let offset = c.pos();
            let v1 = c.int(4, "double joiner triangle")?;
            let v2 = c.int(4, "double joiner triangle")?;
            let d = c.int(1, "double joiner triangle")?;
            let mat = c.int(2, "double joiner material")?;
            tris.push(RawTri {
                v: [v1, v2, local(d)],
                mat,
                offset,
            });
        }
    }
    let nmats = m.materials.len() as i64;
    m.triangles.reserve(tris.len());
    m.tri_material.reserve(tris.len());
    for t in tris {
        let mut ids = [0u32; 3];
        for (k, &vid) in t.v.iter().enumerate() {
            let (pn, vi) = (vid >> 8, (vid & 0xff) as u32);
            let first = usize::try_from(pn)
                .ok()
                .and_then(|p| patch_start.get(p).copied())
                .filter(|&(_, nv)| vi < nv)
                .map(|(first, _)| first)
                .ok_or_else(|| {
                    c.error_at(t.offset, format!("triangle names missing vertex {vid}"))
                })?;
            ids[k] = first + vi;
        }
        let mat = match t.mat {
            -1 => None,
            k if (0..nmats).contains(&k) => Some(k as u32),
            k => {
                return Err(c.error_at(
                    t.offset,
                    format!("triangle material {k} out of range ({nmats} materials)"),
                ))
            }
        };
        m.triangles.push(ids);
        m.tri_material.push(mat);
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_codes_decode_to_unit_vectors() {
        // z up: both stored components zero, the third axis z.
        assert_eq!(decode_dir(0o10), Some([0.0, 0.0, 1.0]));
        // The same with the z sign bit.
        assert_eq!(decode_dir(0o14), Some([0.0, 0.0, -1.0]));
        // Any code decodes to unit length.
        for code in [0x1234_5678u32 as i32, 0x0bad_cafe, 0x7fff_ffe8, 0x0001_0020] {
            let d = decode_dir(code).unwrap();
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-12 || len.is_nan(), "{code:x}: {d:?}");
        }
        assert_eq!(decode_dir(0), None);
    }
}
