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
    let magic = c.int(2, "magic number")?;
    let objsize = magic - MAGIC;
    if !(1..=MAX_OBJ_SIZE).contains(&objsize) {
        return Err(c.error_at(
            start,
            format!("incompatible octree format (magic number {magic})"),
        ));
    }
    let objsize = objsize as usize;
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
