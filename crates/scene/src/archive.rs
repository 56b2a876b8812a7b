//! The binary scene file written by `daylit oconv`: a RADIANCE-style text header (so `getinfo`
//! prints it), then a versioned, checksummed payload holding the resolved scene.

use crate::error::Loc;
use crate::scene::{Mesh, PrimId, Primitive, Scene};
use crate::types::PrimType;
use std::collections::HashMap;
use std::sync::Arc;

/// First line of every binary scene file.
pub const MAGIC: &str = "#?DAYLIT_SCENE";
/// Payload format version; files of another version are refused with a clear message.
pub const VERSION: u32 = 2;
const BINARY_TAG: &[u8; 4] = b"DLSC";
const NONE: u32 = u32::MAX;

/// Does this look like a binary scene file?
pub fn is_archive(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC.as_bytes()) && bytes.get(MAGIC.len()) == Some(&b'\n')
}

/// The header lines of a binary scene file (from the magic line up to the blank line).
pub fn header_lines(bytes: &[u8]) -> Result<Vec<String>, String> {
    let (lines, _) = split_header(bytes)?;
    Ok(lines)
}

fn split_header(bytes: &[u8]) -> Result<(Vec<String>, usize), String> {
    if !is_archive(bytes) {
        return Err("not a daylit scene file".into());
    }
    let mut lines = Vec::new();
    let mut pos = 0;
    loop {
        let rest = &bytes[pos..];
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("truncated header (no blank line ends it)")?;
        let line = String::from_utf8_lossy(&rest[..end]).into_owned();
        pos += end + 1;
        if line.is_empty() {
            return Ok((lines, pos));
        }
        lines.push(line);
        if lines.len() > 10_000 {
            return Err("header too long".into());
        }
    }
}

/// Encodes `scene` with the given header lines (e.g. the command that made it).
pub fn encode(scene: &Scene, info: &[String]) -> Vec<u8> {
    let mut w = Writer::default();
    let mut sources: HashMap<Arc<str>, u32> = HashMap::new();
    let mut table: Vec<Arc<str>> = Vec::new();
    let mut src_id = |s: &Arc<str>| {
        *sources.entry(s.clone()).or_insert_with(|| {
            table.push(s.clone());
            (table.len() - 1) as u32
        })
    };
    let mut body = Writer::default();
    body.u64(scene.prims.len() as u64);
    for p in &scene.prims {
        body.u32(p.modifier.unwrap_or(NONE));
        body.u32(
            PrimType::ALL
                .iter()
                .position(|&t| t == p.ptype)
                .unwrap_or(0) as u32,
        );
        body.str(&p.name);
        body.u64(p.sargs.len() as u64);
        p.sargs.iter().for_each(|s| body.str(s));
        body.f64s(&p.fargs);
        body.u64(p.mod_refs.len() as u64);
        p.mod_refs.iter().for_each(|m| body.u32(m.unwrap_or(NONE)));
        body.u32(p.alias_of.unwrap_or(NONE));
        body.u32(src_id(&p.loc.source));
        body.u32(p.loc.line);
        body.u32(p.loc.col);
    }
    body.u64(scene.meshes.len() as u64);
    for m in &scene.meshes {
        body.str(&m.source);
        body.f64s(&m.vertices.iter().flatten().copied().collect::<Vec<_>>());
        body.f32s(&m.normals.iter().flatten().copied().collect::<Vec<_>>());
        body.f64s(&m.uvs.iter().flatten().copied().collect::<Vec<_>>());
        body.u32s(&m.triangles.iter().flatten().copied().collect::<Vec<_>>());
        body.u32s(&m.tri_modifier);
        body.u32s(
            &m.modifiers
                .iter()
                .map(|x| x.unwrap_or(NONE))
                .collect::<Vec<_>>(),
        );
    }
    // The source table goes first so that decoding can build locations as it goes.
    w.u64(table.len() as u64);
    table.iter().for_each(|s| w.str(s));
    w.buf.extend_from_slice(&body.buf);
    let payload = w.buf;

    let mut out = Vec::with_capacity(payload.len() + 256);
    out.extend_from_slice(MAGIC.as_bytes());
    out.push(b'\n');
    for line in info {
        // One header line per entry; newlines inside would end the header early.
        out.extend_from_slice(line.replace('\n', " ").as_bytes());
        out.push(b'\n');
    }
    out.extend_from_slice(format!("FORMAT=daylit_scene\nVERSION={VERSION}\n\n").as_bytes());
    out.extend_from_slice(BINARY_TAG);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Decodes a binary scene file, checking version, length and checksum.
pub fn decode(bytes: &[u8]) -> Result<Scene, String> {
    let (_, start) = split_header(bytes)?;
    let mut r = Reader { b: &bytes[start..] };
    if r.take(4)? != BINARY_TAG {
        return Err("damaged scene file (missing binary tag after the header)".into());
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(format!(
            "scene file format version {version}, this daylit reads version {VERSION}: run daylit oconv again"
        ));
    }
    let len = r.u64()?;
    let crc = r.u32()?;
    if len != r.b.len() as u64 {
        return Err(format!(
            "truncated or padded scene file: payload should be {len} bytes, found {}",
            r.b.len()
        ));
    }
    if crc32fast::hash(r.b) != crc {
        return Err("scene file checksum mismatch (the file is damaged)".into());
    }
    let n_src = r.count(1)?;
    let table: Vec<Arc<str>> = (0..n_src)
        .map(|_| r.str().map(Arc::from))
        .collect::<Result<_, _>>()?;
    let n = r.count(20)?;
    let mut prims = Vec::with_capacity(n);
    let id = |v: u32, limit: usize| -> Result<Option<PrimId>, String> {
        match v {
            NONE => Ok(None),
            v if (v as usize) < limit => Ok(Some(v)),
            _ => Err("damaged scene file (reference out of range)".into()),
        }
    };
    for i in 0..n {
        let modifier = id(r.u32()?, i)?;
        let t = r.u32()? as usize;
        let ptype = *PrimType::ALL
            .get(t)
            .ok_or("damaged scene file (unknown type)")?;
        let name = r.str()?;
        let ns = r.count(8)?;
        let sargs = (0..ns).map(|_| r.str()).collect::<Result<_, _>>()?;
        let fargs = r.f64s()?;
        let nr = r.count(4)?;
        let mod_refs = (0..nr)
            .map(|_| r.u32().and_then(|v| id(v, i)))
            .collect::<Result<_, _>>()?;
        let alias_of = id(r.u32()?, i)?;
        let src = table
            .get(r.u32()? as usize)
            .ok_or("damaged scene file (bad source index)")?
            .clone();
        let loc = Loc::new(src, r.u32()?, r.u32()?);
        prims.push(Primitive {
            modifier,
            ptype,
            name,
            sargs,
            fargs,
            mod_refs,
            alias_of,
            loc,
        });
    }
    let nm = r.count(40)?;
    let mut meshes = Vec::with_capacity(nm);
    for _ in 0..nm {
        let source = r.str()?;
        let v = r.f64s()?;
        let nv = r.f32s()?;
        let uv = r.f64s()?;
        let t = r.u32s()?;
        let tri_modifier = r.u32s()?;
        let mods = r.u32s()?;
        if v.len() % 3 != 0
            || nv.len() % 3 != 0
            || uv.len() % 2 != 0
            || t.len() % 3 != 0
            || tri_modifier.len() * 3 != t.len()
        {
            return Err("damaged scene file (mesh arrays disagree)".into());
        }
        let nverts = (v.len() / 3) as u32;
        if t.iter().any(|&k| k >= nverts) || tri_modifier.iter().any(|&k| k as usize >= mods.len())
        {
            return Err("damaged scene file (mesh index out of range)".into());
        }
        meshes.push(Mesh {
            source,
            vertices: v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            normals: nv.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            uvs: uv.chunks_exact(2).map(|c| [c[0], c[1]]).collect(),
            triangles: t.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            tri_modifier,
            modifiers: mods
                .into_iter()
                .map(|m| id(m, n))
                .collect::<Result<_, _>>()?,
            placement: None,
        });
    }
    if !r.b.is_empty() {
        return Err("damaged scene file (trailing data)".into());
    }
    Ok(Scene { prims, meshes })
}

#[derive(Default)]
struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.buf.extend_from_slice(s.as_bytes());
    }
    fn f64s(&mut self, v: &[f64]) {
        self.u64(v.len() as u64);
        v.iter()
            .for_each(|x| self.buf.extend_from_slice(&x.to_le_bytes()));
    }
    fn f32s(&mut self, v: &[f32]) {
        self.u64(v.len() as u64);
        v.iter()
            .for_each(|x| self.buf.extend_from_slice(&x.to_le_bytes()));
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        v.iter().for_each(|&x| self.u32(x));
    }
}

struct Reader<'a> {
    b: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.b.len() {
            return Err("truncated scene file".into());
        }
        let (h, t) = self.b.split_at(n);
        self.b = t;
        Ok(h)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }
    /// A count of items at least `min_size` bytes each, checked against what is left so that a
    /// damaged count cannot make us allocate absurd amounts.
    fn count(&mut self, min_size: usize) -> Result<usize, String> {
        let n = self.u64()?;
        if n.saturating_mul(min_size as u64) > self.b.len() as u64 {
            return Err("truncated or damaged scene file (count exceeds data)".into());
        }
        Ok(n as usize)
    }
    fn str(&mut self) -> Result<String, String> {
        let n = self.count(1)?;
        String::from_utf8(self.take(n)?.to_vec())
            .map_err(|_| "damaged scene file (bad text)".into())
    }
    /// A counted array of fixed-size little-endian values.
    fn array<T, const N: usize>(&mut self, from: fn([u8; N]) -> T) -> Result<Vec<T>, String> {
        let n = self.count(N)?;
        Ok(self
            .take(n * N)?
            .chunks_exact(N)
            .map(|c| from(c.try_into().unwrap_or([0; N])))
            .collect())
    }
    fn f64s(&mut self) -> Result<Vec<f64>, String> {
        self.array(f64::from_le_bytes)
    }
    fn f32s(&mut self) -> Result<Vec<f32>, String> {
        self.array(f32::from_le_bytes)
    }
    fn u32s(&mut self) -> Result<Vec<u32>, String> {
        self.array(u32::from_le_bytes)
    }
}
