//! RADIANCE octree files, as `oconv` writes them: an information header with
//! `FORMAT=Radiance_octree`, a magic number that gives the size of stored object numbers,
//! the bounding cube, the scene files it was made from, the object count, the octree itself
//! (skipped: daylit builds its own BVH) and, for a frozen octree (`oconv -f`), the primitives.

use crate::error::SceneError;
use crate::portable::{has_format, read_header, read_scene, BinPrim, Cursor};
use std::path::Path;

/// The `FORMAT=` value of octree headers.
pub const FORMAT: &str = "Radiance_octree";

/// The largest object-number size RADIANCE allows; the magic number is offset by it.
const MAX_OBJ_SIZE: i64 = 8;
/// The first two bytes hold this plus the size of an object number.
const MAGIC: i64 = 4 * MAX_OBJ_SIZE + 251;

/// What an octree file holds.
#[derive(Clone, Debug)]
pub struct RadOctree {
    /// Information header lines (the command that made it, …), without `#?RADIANCE`.
    pub info: Vec<String>,
    /// Bytes per stored object number (4 for RADIANCE's usual 32-bit objects, 8 for 64-bit).
    pub objsize: usize,
    /// Origin of the bounding cube.
    pub cube_origin: [f64; 3],
    /// Side of the bounding cube.
    pub cube_size: f64,
    /// The scene files (or `!commands`) the octree was made from; empty when frozen.
    pub files: Vec<String>,
    /// Number of objects the octree was made from.
    pub nobjects: u64,
    /// The primitives stored in a frozen octree (`None` when it names scene files instead).
    pub objects: Option<Vec<BinPrim>>,
}

/// Does `bytes` look like a RADIANCE octree?
pub fn is_octree(bytes: &[u8]) -> bool {
    has_format(bytes, FORMAT)
}

/// Reads an octree file's bytes (`path` names it in messages).
pub fn read_octree(bytes: &[u8], path: &Path) -> Result<RadOctree, SceneError> {
    let (info, start) = read_header(bytes, FORMAT, path)?;
    let mut c = Cursor::new(bytes, start, path);
    let objsize = c.object_size(MAGIC, MAX_OBJ_SIZE, "octree")?;
    let mut cube_origin = [0.0; 3];
    for v in &mut cube_origin {
        *v = c.number_str("cube origin")?;
    }
    let cube_size = c.number_str("cube size")?;
    if cube_size <= 0.0 {
        return Err(c.error(format!("bad cube size {cube_size}")));
    }
    let mut files = Vec::new();
    loop {
        let f = c.str("scene file name")?;
        if f.is_empty() {
            break;
        }
        files.push(f);
    }
    let at = c.pos();
    let n = c.int(objsize, "object count")?;
    let nobjects = u64::try_from(n).map_err(|_| c.error_at(at, "negative object count"))?;
    c.skip_tree(objsize)?;
    let objects = if files.is_empty() {
        let objs = read_scene(&mut c, objsize)?;
        if objs.len() as u64 != nobjects {
            return Err(c.error(format!(
                "bad object count: {} stored, {nobjects} announced",
                objs.len()
            )));
        }
        Some(objs)
    } else {
        None
    };
    Ok(RadOctree {
        info,
        objsize,
        cube_origin,
        cube_size,
        files,
        nobjects,
        objects,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frozen octree written by hand with `size`-byte object numbers: one plastic, one
    /// sphere using it.
    fn frozen(size: usize) -> Vec<u8> {
        let int =
            |v: i64, n: usize| -> Vec<u8> { (0..n).rev().map(|k| (v >> (8 * k)) as u8).collect() };
        let mut b = b"#?RADIANCE\noconv -f x.rad\nFORMAT=Radiance_octree\n\n".to_vec();
        b.extend(int(MAGIC + size as i64, 2));
        for s in ["-1", "-1", "-1", "2", ""] {
            b.extend(s.as_bytes());
            b.push(0);
        }
        b.extend(int(2, size));
        // Tree: one full node holding object 1.
        b.push(1);
        b.extend(int(1, size));
        b.extend(int(1, size));
        for s in ["plastic", "sphere", ""] {
            b.extend(s.as_bytes());
            b.push(0);
        }
        // plastic "p", void modifier, 0 strings, 5 reals of 0.5 (mantissa 2^30, exponent 0).
        b.extend(int(0, 1));
        b.extend(int(-1, size));
        b.extend(b"p\0");
        b.extend(int(0, 2));
        b.extend(int(5, 2));
        for _ in 0..5 {
            b.extend(int(1 << 30, 4));
            b.extend(int(0, 1));
        }
        // sphere "s" modified by object 0, 4 reals: 0 0 0 (zero) and 1 (0.5 * 2^1).
        b.extend(int(1, 1));
        b.extend(int(0, size));
        b.extend(b"s\0");
        b.extend(int(0, 2));
        b.extend(int(4, 2));
        for _ in 0..3 {
            b.extend(int(0, 4));
            b.extend(int(0, 1));
        }
        b.extend(int(1 << 30, 4));
        b.extend(int(1, 1));
        b.extend(int(-1, 1));
        b
    }

    #[test]
    fn object_numbers_of_any_size() {
        for size in [2, 4, 8] {
            let o = read_octree(&frozen(size), Path::new("x.oct")).unwrap();
            assert_eq!(o.objsize, size);
            assert_eq!((o.cube_origin, o.cube_size), ([-1.0; 3], 2.0));
            let objs = o.objects.unwrap();
            assert_eq!(objs.len(), 2);
            assert_eq!(objs[1].modifier, Some(0));
            assert!((objs[0].fargs[0] - 0.5).abs() < 1e-9);
            assert!((objs[1].fargs[3] - 1.0).abs() < 1e-9);
        }
    }
}
