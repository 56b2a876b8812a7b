//! `-af FILE`: the cache on disk, so a later run with the same scene and options reads it
//! instead of building it. Little-endian binary: a magic word and version, a fingerprint of
//! the scene and the options that change the values, then each level's records. Written to a
//! temporary file beside the target and renamed over it, so readers never see half a file.

use super::lookup::Level;
use super::record::Record;
use super::{IrradianceCache, Params};
use crate::Renderer;
use glam::DVec3;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"DLITIRC\0";
const VERSION: u32 = 2;
/// f64 fields per record.
const FIELDS: usize = 3 * 4 + 2 * 3 + 3 + 2;

/// FNV-1a, stable across builds and platforms.
struct Fnv(u64);

impl Fnv {
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
    fn f(&mut self, v: f64) {
        self.put(&v.to_le_bytes());
    }
}

/// A fingerprint of what the cached values depend on: the scene's geometry and sources, and
/// the options of the ambient and direct calculations.
pub fn fingerprint(rd: &Renderer) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let o = &rd.opts;
    let (lo, hi) = rd.compiled.accel.bounds();
    for v in [lo, hi, o.av] {
        v.to_array().into_iter().for_each(|x| h.f(x));
    }
    for x in [o.aa, o.dj, o.ds, o.dt, o.dc, o.ss, o.st, o.lw] {
        h.f(x);
    }
    for x in [o.ab, o.ad, o.as_, o.ar, o.dr, o.lr as u32] {
        h.put(&x.to_le_bytes());
    }
    h.put(&[o.irradiance as u8, o.backvis as u8, o.dv as u8]);
    h.put(&(rd.compiled.accel.len() as u64).to_le_bytes());
    h.put(&(rd.scene.prims.len() as u64).to_le_bytes());
    h.put(&(rd.sources.len() as u64).to_le_bytes());
    h.0
}

/// Writes `cache` to `path` atomically.
pub fn save(cache: &IrradianceCache, rd: &Renderer, path: &Path) -> std::io::Result<()> {
    let mut buf = Vec::new();
    buf.extend_from_slice(MAGIC);
    buf.extend_from_slice(&VERSION.to_le_bytes());
    buf.extend_from_slice(&fingerprint(rd).to_le_bytes());
    buf.extend_from_slice(&(cache.levels.len() as u32).to_le_bytes());
    for l in &cache.levels {
        buf.extend_from_slice(&(l.records.len() as u64).to_le_bytes());
        for r in &l.records {
            let mut f: Vec<f64> = Vec::with_capacity(FIELDS);
            for v in [r.pos, r.normal, r.u, r.v] {
                f.extend(v.to_array());
            }
            f.extend(r.rad);
            f.extend(r.gpos);
            f.extend(r.gdir);
            f.extend(r.val.to_array());
            f.push(r.weight);
            f.push(r.corral as f64);
            for x in f {
                buf.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cache".into());
    let tmp = dir
        .unwrap_or(Path::new("."))
        .join(format!(".{name}.{}.tmp", std::process::id()));
    let res = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&buf)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res
}

/// Reads the cache at `path` for `rd`. `Ok(None)`: no such file. An error says why a file
/// cannot be used (another format, version, scene or options).
pub fn load(rd: &Renderer, path: &Path) -> Result<Option<IrradianceCache>, String> {
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let bad = |what: &str| format!("{}: {what}", path.display());
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let s = buf
            .get(at..at + n)
            .ok_or_else(|| bad("truncated irradiance cache file"))?;
        at += n;
        Ok(s)
    };
    if take(8)? != MAGIC {
        return Err(bad("not a daylit irradiance cache file"));
    }
    let u32_ = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
    let u64_ = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    if u32_(take(4)?) != VERSION {
        return Err(bad("irradiance cache file of another version"));
    }
    if u64_(take(8)?) != fingerprint(rd) {
        return Err(bad(
            "irradiance cache file made for another scene or other options",
        ));
    }
    let params = Params::new(rd);
    let nl = u32_(take(4)?) as usize;
    if nl != params.levels {
        return Err(bad("irradiance cache file with another number of bounces"));
    }
    let mut levels = Vec::with_capacity(nl);
    for _ in 0..nl {
        let n = u64_(take(8)?) as usize;
        let bytes = take(
            n.checked_mul(FIELDS * 8)
                .ok_or_else(|| bad("bad record count"))?,
        )?;
        let mut recs = Vec::with_capacity(n);
        for rb in bytes.chunks_exact(FIELDS * 8) {
            let f: Vec<f64> = rb
                .chunks_exact(8)
                .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
                .collect();
            let v3 = |k: usize| DVec3::new(f[k], f[k + 1], f[k + 2]);
            recs.push(Record {
                pos: v3(0),
                normal: v3(3),
                u: v3(6),
                v: v3(9),
                rad: [f[12], f[13]],
                gpos: [f[14], f[15]],
                gdir: [f[16], f[17]],
                val: v3(18),
                weight: f[21],
                corral: f[22] as u32,
            });
        }
        levels.push(Arc::new(Level::new(recs, params.aa, params.minarad)));
    }
    Ok(Some(IrradianceCache::from_levels(params, levels)))
}
