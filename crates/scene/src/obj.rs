//! Triangle meshes from Wavefront OBJ files (read by the `tobj` crate), with each `usemtl` name
//! resolved to a RADIANCE modifier defined earlier in the scene.

use crate::error::{Loc, Result, SceneError};
use crate::scene::{Mesh, PrimId};
use std::collections::HashMap;
use std::io::BufReader;
use std::path::Path;

/// Reads an OBJ file's bytes into a mesh; `lookup` resolves a `usemtl` name to a modifier.
pub fn read_obj(
    bytes: &[u8],
    path: &Path,
    lookup: &dyn Fn(&str) -> Option<PrimId>,
) -> Result<Mesh> {
    let text = String::from_utf8_lossy(bytes);
    let source = path.display().to_string();
    let at = |line: usize, msg: String| SceneError::Syntax {
        loc: Loc::new(source.as_str().into(), line as u32, 1),
        msg,
    };
    // tobj only knows usemtl names that an .mtl file defines, but RADIANCE users define their
    // materials in scene files; so every usemtl name is declared through a synthetic library.
    let mut names: Vec<String> = Vec::new();
    let mut first_use: HashMap<String, usize> = HashMap::new();
    let mut first_face_without_mtl = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("usemtl") {
            let name = rest.trim().to_string();
            if !first_use.contains_key(&name) {
                first_use.insert(name.clone(), i + 1);
                names.push(name);
            }
        } else if first_face_without_mtl.is_none() && names.is_empty() && line.starts_with("f ") {
            first_face_without_mtl = Some(i + 1);
        }
    }
    if let Some(line) = first_face_without_mtl {
        return Err(at(
            line,
            "face before any usemtl: every face needs a material named by usemtl (a modifier defined in an earlier scene file)".into(),
        ));
    }
    let library: Vec<tobj::Material> = names
        .iter()
        .map(|n| tobj::Material {
            name: n.clone(),
            ..Default::default()
        })
        .collect();
    let map: HashMap<String, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let patched = format!("mtllib daylit-usemtl-names\n{text}");
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, _) = tobj::load_obj_buf(&mut BufReader::new(patched.as_bytes()), &opts, |_| {
        Ok((library.clone(), map.clone()))
    })
    .map_err(|e| {
        let (line, what) = locate_error(&text, &e);
        at(line, format!("malformed OBJ: {what} ({e})"))
    })?;

    let mut mesh = Mesh {
        source: source.clone(),
        ..Default::default()
    };
    let mut slot: HashMap<usize, u32> = HashMap::new();
    for m in models {
        let Some(mid) = m.mesh.material_id else {
            continue;
        };
        let name = &library[mid.min(library.len() - 1)].name;
        let k = match slot.get(&mid) {
            Some(&k) => k,
            None => {
                let modifier = lookup(name).ok_or_else(|| {
                    at(
                        first_use[name],
                        format!("usemtl \"{name}\": undefined modifier; define it in a scene file given before this OBJ"),
                    )
                })?;
                mesh.modifiers.push(Some(modifier));
                let k = (mesh.modifiers.len() - 1) as u32;
                slot.insert(mid, k);
                k
            }
        };
        let base = mesh.vertices.len() as u32;
        mesh.vertices
            .extend(m.mesh.positions.chunks_exact(3).map(|c| [c[0], c[1], c[2]]));
        for t in m.mesh.indices.chunks_exact(3) {
            mesh.triangles.push([base + t[0], base + t[1], base + t[2]]);
            mesh.tri_modifier.push(k);
        }
    }
    Ok(mesh)
}

/// Finds the first line that could have caused a tobj error, for a located message.
fn locate_error(text: &str, e: &tobj::LoadError) -> (usize, &'static str) {
    use tobj::LoadError as E;
    let (key, what) = match e {
        E::PositionParseError => ("v", "bad vertex position"),
        E::NormalParseError => ("vn", "bad vertex normal"),
        E::TexcoordParseError => ("vt", "bad texture coordinate"),
        E::FaceParseError
        | E::FaceVertexOutOfBounds
        | E::FaceTexCoordOutOfBounds
        | E::FaceNormalOutOfBounds => ("f", "bad face"),
        _ => ("", "unreadable input"),
    };
    let mut counts = [0i64; 3];
    for (i, line) in text.lines().enumerate() {
        let mut w = line.split_whitespace();
        let Some(k) = w.next() else { continue };
        let args: Vec<&str> = w.collect();
        let bad = match k {
            "v" => {
                counts[0] += 1;
                args.len() < 3 || args[..3].iter().any(|a| a.parse::<f64>().is_err())
            }
            "vt" => {
                counts[1] += 1;
                args.is_empty() || args.iter().any(|a| a.parse::<f64>().is_err())
            }
            "vn" => {
                counts[2] += 1;
                args.len() < 3 || args[..3].iter().any(|a| a.parse::<f64>().is_err())
            }
            "f" => {
                args.len() < 3
                    || args.iter().any(|a| {
                        a.split('/').enumerate().any(|(j, s)| {
                            if s.is_empty() {
                                return j == 0;
                            }
                            match s.parse::<i64>() {
                                Ok(n) => {
                                    n == 0
                                        || n.unsigned_abs() as i64
                                            > counts[if j == 0 {
                                                0
                                            } else if j == 1 {
                                                1
                                            } else {
                                                2
                                            }]
                                }
                                Err(_) => true,
                            }
                        })
                    })
            }
            _ => false,
        };
        if bad && (key.is_empty() || key == k) {
            return (i + 1, what);
        }
    }
    (1, what)
}
