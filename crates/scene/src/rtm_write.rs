//! Writing RADIANCE compiled meshes (`.rtm`) as RADIANCE 6.0a's `obj2mesh` writes them, byte
//! for byte: the triangles go into an octree over the mesh's bounding cube as `oconv` builds
//! one (a cube keeps up to `objlim` triangles, or more once it is smaller than the cube over
//! `maxres`; identical children are merged), then the tree is walked from its last child to
//! its first and each leaf's triangles from last to first, and that order decides which patch
//! of up to 256 vertices each vertex lands in and whether each triangle is local to a patch or
//! joins one or two others. Leaves then hold mesh triangle ids (`patch << 10 | index`, with
//! `0x200` for joiners and `0x100` for double joiners).
//!
//! Positions are 32-bit fractions of the cube, (u,v) 32-bit fractions of their limits, normals
//! RADIANCE's 4-byte direction code (`daylit_image::codes::encode_direction`); vertices with
//! equal codes and flags are shared. The reader is `crate::rtm`.
//!
//! Byte for byte with RADIANCE's source built with IEEE arithmetic (300 of 300 random meshes
//! against a `gcc -O2` build). pyradiance's 6.0a binary was built with `-ffast-math`, which
//! decides a few triangles that touch a cube's face (within `FTINY`) the other way: its leaves
//! then hold a triangle more or less (11 of those 300 meshes, all on integer grids); RADIANCE's
//! rtrace gives the same values on either file.

use crate::types::PrimType;
use daylit_image::codes::encode_direction;
use daylit_radfile::printf::format_g_digits;
use std::collections::HashMap;

const FTINY: f64 = 1e-6;
/// Margin around the mesh's bounding box.
const OMARGIN: f64 = 10.0 * FTINY;
/// Largest set in an octree leaf.
const MAXSET: usize = 511;
/// Size of an object number in the file.
const OBJECT_SIZE: i64 = 4;
/// RADIANCE's mesh magic number (before the object size is added).
const MESH_MAGIC: i64 = 8 + 311;
const MT_V: u8 = 1;
const MT_N: u8 = 2;
const MT_UV: u8 = 4;

/// RADIANCE 6.0a's object types in their internal order: a binary scene section lists them,
/// and objects name their type by position.
pub const TYPE_ORDER: [&str; 59] = [
    "polygon",
    "cone",
    "sphere",
    "texfunc",
    "ring",
    "cylinder",
    "instance",
    "cup",
    "bubble",
    "tube",
    "mesh",
    "alias",
    "plastic",
    "metal",
    "glass",
    "trans",
    "dielectric",
    "plastic2",
    "metal2",
    "trans2",
    "interface",
    "plasfunc",
    "metfunc",
    "brightfunc",
    "brightdata",
    "brighttext",
    "colorpict",
    "glow",
    "source",
    "light",
    "illum",
    "spotlight",
    "mist",
    "mirror",
    "transfunc",
    "BRTDfunc",
    "BSDF",
    "aBSDF",
    "WGMDfunc",
    "plasdata",
    "metdata",
    "transdata",
    "colorfunc",
    "antimatter",
    "colordata",
    "colortext",
    "texdata",
    "mixfunc",
    "mixdata",
    "mixtext",
    "mixpict",
    "prism1",
    "prism2",
    "ashik2",
    "spectrum",
    "specfile",
    "specfunc",
    "specdata",
    "specpict",
];

/// A material as the mesh stores it: its modifier is an earlier material's number.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshMaterial {
    pub ptype: PrimType,
    /// Number of its modifier among the materials (`None`: `void`).
    pub modifier: Option<usize>,
    pub name: String,
    pub sargs: Vec<String>,
    pub fargs: Vec<f64>,
}

/// A triangle to store: vertices in order (already turned to face its normals), per-vertex
/// normals when they bend, (u,v) when all three vertices have them, and its material number.
#[derive(Clone, Debug)]
pub struct MeshTri {
    pub v: [[f64; 3]; 3],
    pub n: Option<[[f64; 3]; 3]>,
    pub uv: Option<[[f64; 2]; 3]>,
    pub material: Option<usize>,
}

/// The octree limits: a leaf is split past `objlim` triangles until its cube is smaller than
/// the mesh cube over `maxres`.
#[derive(Clone, Copy, Debug)]
pub struct TreeLimits {
    pub objlim: i64,
    pub maxres: i64,
}

impl Default for TreeLimits {
    fn default() -> Self {
        TreeLimits {
            objlim: 9,
            maxres: 16384,
        }
    }
}

/// A face as RADIANCE's octree code sees it: vertices, unit normal, plane offset, the axis the
/// normal is largest along.
struct Face {
    v: [[f64; 3]; 3],
    norm: [f64; 3],
    offset: f64,
    ax: usize,
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// RADIANCE's `normalize` (first-order shortcut near unit length); returns the old length.
fn normalize(v: &mut [f64; 3]) -> f64 {
    let d = dot(*v, *v);
    if d == 0.0 {
        return 0.0;
    }
    let (len, f) = if (1.0 - FTINY..=1.0 + FTINY).contains(&d) {
        let len = 0.5 + 0.5 * d;
        (len, 2.0 - len)
    } else {
        let len = d.sqrt();
        (len, 1.0 / len)
    };
    for x in v.iter_mut() {
        *x *= f;
    }
    len
}

impl Face {
    /// The face of a triangle, or `None` when its area is zero.
    fn new(v: [[f64; 3]; 3]) -> Option<Face> {
        let mut norm = cross(sub(v[1], v[0]), sub(v[2], v[0]));
        if normalize(&mut norm) == 0.0 {
            return None;
        }
        let mut offset = dot(norm, v[0]);
        offset += dot(norm, v[1]);
        offset += dot(norm, v[2]);
        offset /= 3.0;
        let mut ax = usize::from(norm[1].abs() > norm[0].abs());
        if norm[2].abs() > norm[ax].abs() {
            ax = 2;
        }
        Some(Face {
            v,
            norm,
            offset,
            ax,
        })
    }

    /// Is `p` (in the face's plane) inside the face? Crossings of a ray along the first axis
    /// other than `ax`, with RADIANCE's edge cases counted as inside.
    fn contains(&self, p: [f64; 3]) -> bool {
        let xi = (self.ax + 1) % 3;
        let yi = (xi + 1) % 3;
        let (x, y) = (p[xi], p[yi]);
        let eq = |a: f64, b: f64| (a - b).abs() <= FTINY;
        let mut ncross = 0;
        let mut p0 = self.v[2];
        for &p1 in &self.v {
            if eq(p0[yi], y) && eq(p1[yi], y) && ((p0[xi] > x) ^ (p1[xi] > x)) {
                return true;
            }
            if (p0[yi] > y) ^ (p1[yi] > y) {
                let tst = u8::from(p0[xi] > x) + u8::from(p1[xi] > x);
                if tst == 2 {
                    ncross += 1;
                } else if tst == 1 {
                    let a = (p0[yi] - y) * (p1[xi] - x);
                    let b = (p0[xi] - x) * (p1[yi] - y);
                    if eq(a, b) {
                        return true;
                    }
                    ncross += u32::from((p1[yi] > p0[yi]) ^ (a > b));
                } else if eq(p0[xi], x) && eq(p1[xi], x) {
                    return true;
                }
            }
            p0 = p1;
        }
        ncross & 1 == 1
    }
}

/// Does the triangle have an area (as RADIANCE's face code computes it)?
pub fn has_area(v: &[[f64; 3]; 3]) -> bool {
    Face::new(*v).is_some()
}

const BELOW: u32 = 0o25;
const ABOVE: u32 = 0o52;

/// Where `p` lies against the box: two bits per axis (below, above), with `FTINY` slack.
fn locate(p: [f64; 3], min: [f64; 3], max: [f64; 3]) -> u32 {
    let mut loc = 0;
    for i in 0..3 {
        let pos = 3 << (2 * i);
        if p[i] < min[i] - FTINY {
            loc |= pos & BELOW;
        } else if p[i] > max[i] + FTINY {
            loc |= pos & ABOVE;
        }
    }
    loc
}

/// Does any part of the segment lie in the box? Cohen–Sutherland clipping, at most six chops.
fn clip(mut e1: [f64; 3], mut e2: [f64; 3], min: [f64; 3], max: [f64; 3]) -> bool {
    let mut loc1 = locate(e1, min, max);
    let mut loc2 = locate(e2, min, max);
    let mut tries = 6;
    loop {
        if loc1 | loc2 == 0 {
            return true;
        }
        if loc1 & loc2 != 0 {
            return false;
        }
        if tries == 0 {
            return false;
        }
        tries -= 1;
        if loc1 == 0 {
            std::mem::swap(&mut e1, &mut e2);
            std::mem::swap(&mut loc1, &mut loc2);
        }
        for i in 0..3 {
            let pos = 3 << (2 * i);
            let d = if loc1 & pos & BELOW != 0 {
                let d = (min[i] - e1[i]) / (e2[i] - e1[i]);
                e1[i] = min[i];
                d
            } else if loc1 & pos & ABOVE != 0 {
                let d = (max[i] - e1[i]) / (e2[i] - e1[i]);
                e1[i] = max[i];
                d
            } else {
                continue;
            };
            for j in 0..3 {
                if j != i {
                    e1[j] += (e2[j] - e1[j]) * d;
                }
            }
            break;
        }
        loc1 = locate(e1, min, max);
    }
}

#[derive(Clone, Copy)]
struct Cube {
    org: [f64; 3],
    size: f64,
}

impl Cube {
    fn kid(&self, i: usize) -> Cube {
        let size = self.size * 0.5;
        let mut org = self.org;
        for (j, o) in org.iter_mut().enumerate() {
            if i & (1 << j) != 0 {
                *o += size;
            }
        }
        Cube { org, size }
    }

    /// Does the face meet the cube (grown by `FTINY`)? RADIANCE's test: a vertex inside,
    /// all vertices beyond one side, an edge through the cube, or the cube's diagonal
    /// across the plane meeting the face.
    fn meets(&self, f: &Face) -> bool {
        let mut min = [0.0; 3];
        let mut max = [0.0; 3];
        for j in 0..3 {
            min[j] = self.org[j] - FTINY;
            max[j] = min[j] + self.size + 2.0 * FTINY;
        }
        let mut vloc = ABOVE | BELOW;
        for v in &f.v {
            match locate(*v, min, max) {
                0 => return true,
                j => vloc &= j,
            }
        }
        if vloc != 0 {
            return false;
        }
        for i in 0..3 {
            if clip(f.v[i], f.v[(i + 1) % 3], min, max) {
                return true;
            }
        }
        let mut v1 = [0.0; 3];
        let mut v2 = [0.0; 3];
        for j in 0..3 {
            if f.norm[j] > 0.0 {
                v1[j] = min[j];
                v2[j] = max[j];
            } else {
                v1[j] = max[j];
                v2[j] = min[j];
            }
        }
        let d1 = dot(v1, f.norm) - f.offset;
        if d1 > FTINY {
            return false;
        }
        let d2 = dot(v2, f.norm) - f.offset;
        if d2 < -FTINY {
            return false;
        }
        let mut p = [0.0; 3];
        for j in 0..3 {
            p[j] = (v1[j] * d2 - v2[j] * d1) / (d2 - d1);
        }
        f.contains(p)
    }
}

/// An octree node: empty, a leaf with a sorted set of triangle numbers, or eight children.
#[derive(Clone, Debug, PartialEq)]
enum Node {
    Empty,
    Full(Vec<u32>),
    Tree(Box<[Node; 8]>),
}

struct Builder<'a> {
    faces: &'a [Face],
    objlim: usize,
    min_size: f64,
}

impl Builder<'_> {
    fn add(&self, node: &mut Node, cube: Cube, t: u32) -> Result<(), String> {
        let hit = cube.meets(&self.faces[t as usize]);
        if !hit {
            return Ok(());
        }
        match node {
            Node::Tree(kids) => {
                for (i, k) in kids.iter_mut().enumerate() {
                    self.add(k, cube.kid(i), t)?;
                }
                Ok(())
            }
            Node::Empty => {
                *node = Node::Full(vec![t]);
                Ok(())
            }
            Node::Full(set) => {
                let half = cube.size * 0.5;
                let limit = if set.len() < MAXSET {
                    self.min_size
                } else {
                    self.min_size / 256.0
                };
                if set.len() < self.objlim || half < limit {
                    if set.len() >= MAXSET {
                        return Err(format!("set overflow in addobject (t{t})"));
                    }
                    let at = set.partition_point(|&o| o <= t);
                    set.insert(at, t);
                    return Ok(());
                }
                let set = std::mem::take(set);
                let mut kids: Box<[Node; 8]> = Box::new(std::array::from_fn(|_| Node::Empty));
                for (i, k) in kids.iter_mut().enumerate() {
                    let c = cube.kid(i);
                    for &o in &set {
                        self.add(k, c, o)?;
                    }
                    self.add(k, c, t)?;
                }
                *node = Node::Tree(kids);
                Ok(())
            }
        }
    }
}

/// Merges children that are all the same leaf into that leaf, bottom up.
fn combine(node: Node) -> Node {
    let Node::Tree(kids) = node else {
        return node;
    };
    let kids: [Node; 8] = (*kids).map(combine);
    if !matches!(kids[0], Node::Tree(_)) && kids[1..].iter().all(|k| *k == kids[0]) {
        return kids[0].clone();
    }
    Node::Tree(Box::new(kids))
}

#[derive(Default)]
struct Patch {
    xyz: Vec<[u32; 3]>,
    norm: Option<Vec<i32>>,
    uv: Option<Vec<[u32; 2]>>,
    tri: Vec<[u8; 3]>,
    solemat: i16,
    trimat: Option<Vec<i16>>,
    j1: Vec<(i32, u8, u8, i16)>,
    j2: Vec<(i32, i32, u8, i16)>,
}

struct Encoder<'a> {
    tris: &'a [MeshTri],
    flags: Vec<u8>,
    org: [f64; 3],
    size: f64,
    uvlim: [[f64; 2]; 2],
    ids: Vec<Option<u32>>,
    verts: HashMap<(u8, [u32; 3], i32, [u32; 2]), i32>,
    patches: Vec<Patch>,
    nmats: usize,
}

impl Encoder<'_> {
    /// The id (`patch << 8 | index`) of a vertex, added to the last patch when new.
    fn vertex(&mut self, fl: u8, v: [f64; 3], n: [f64; 3], uv: [f64; 2]) -> Option<i32> {
        let mut xyz = [0u32; 3];
        for i in 0..3 {
            if v[i] < self.org[i] || v[i] >= self.org[i] + self.size {
                return None;
            }
            xyz[i] = (4294967296.0 * (v[i] - self.org[i]) / self.size) as u32;
        }
        let norm = if fl & MT_N != 0 {
            encode_direction(n)
        } else {
            0
        };
        let mut cuv = [0u32; 2];
        if fl & MT_UV != 0 {
            for i in 0..2 {
                let (lo, hi) = (self.uvlim[0][i], self.uvlim[1][i]);
                if uv[i] <= lo || uv[i] >= hi {
                    return None;
                }
                cuv[i] = (4294967296.0 * (uv[i] - lo) / (hi - lo)) as u32;
            }
        }
        let key = (fl, xyz, norm, cuv);
        if let Some(&id) = self.verts.get(&key) {
            return Some(id);
        }
        if self.patches.last().is_none_or(|p| p.xyz.len() >= 256) {
            self.patches.push(Patch::default());
        }
        let pn = self.patches.len() - 1;
        let p = &mut self.patches[pn];
        let k = p.xyz.len();
        p.xyz.push(xyz);
        if fl & MT_N != 0 {
            p.norm.get_or_insert_with(|| vec![0; k]).push(norm);
        } else if let Some(n) = &mut p.norm {
            n.push(0);
        }
        if fl & MT_UV != 0 {
            p.uv.get_or_insert_with(|| vec![[0, 0]; k]).push(cuv);
        } else if let Some(u) = &mut p.uv {
            u.push([0, 0]);
        }
        let id = (pn as i32) << 8 | k as i32;
        self.verts.insert(key, id);
        Some(id)
    }

    /// The mesh id of triangle `t`, added on first use.
    fn triangle(&mut self, t: u32) -> Result<u32, String> {
        if let Some(id) = self.ids[t as usize] {
            return Ok(id);
        }
        let tri = &self.tris[t as usize];
        let fl = self.flags[t as usize];
        let mut vid = [0i32; 3];
        for i in 0..3 {
            let n = tri.n.map_or([0.0; 3], |n| n[i]);
            let uv = tri.uv.map_or([0.0; 2], |u| u[i]);
            vid[i] = self
                .vertex(fl, tri.v[i], n, uv)
                .ok_or("addmeshtri failed")?;
        }
        let mo: i16 = match tri.material {
            Some(m) => {
                self.nmats = self.nmats.max(m + 1);
                m as i16
            }
            None => -1,
        };
        let mut pn = vid.map(|v| (v >> 8) as usize);
        if pn[0] == pn[1] && pn[1] == pn[2] {
            let p = &mut self.patches[pn[0]];
            if p.tri.len() < 512 {
                let k = p.tri.len();
                p.tri.push(vid.map(|v| (v & 0xff) as u8));
                if k == 0 {
                    p.solemat = mo;
                } else if p.trimat.is_none() && mo != p.solemat {
                    p.trimat = Some(vec![p.solemat; k]);
                }
                if let Some(tm) = &mut p.trimat {
                    tm.push(mo);
                }
                let id = (pn[0] as u32) << 10 | k as u32;
                self.ids[t as usize] = Some(id);
                return Ok(id);
            }
        } else if pn[0] == pn[1] {
            vid = [vid[2], vid[0], vid[1]];
            pn = [pn[2], pn[0], pn[1]];
        } else if pn[0] == pn[2] {
            vid = [vid[1], vid[2], vid[0]];
            pn = [pn[1], pn[2], pn[0]];
        }
        if pn[1] == pn[2] {
            let p = &mut self.patches[pn[1]];
            if p.j1.len() < 256 {
                let k = p.j1.len();
                p.j1.push((vid[0], (vid[1] & 0xff) as u8, (vid[2] & 0xff) as u8, mo));
                let id = (pn[1] as u32) << 10 | 0x200 | k as u32;
                self.ids[t as usize] = Some(id);
                return Ok(id);
            }
        }
        let mut i = 0;
        if self.patches[pn[1]].j2.len() < self.patches[pn[i]].j2.len() {
            i = 1;
        }
        if self.patches[pn[2]].j2.len() < self.patches[pn[i]].j2.len() {
            i = 2;
        }
        let p = &mut self.patches[pn[i]];
        if p.j2.len() >= 256 {
            return Err("too many patch triangles in addmeshtri".into());
        }
        let k = p.j2.len();
        let local = |v: i32| (v & 0xff) as u8;
        p.j2.push(match i {
            0 => (vid[1], vid[2], local(vid[0]), mo),
            1 => (vid[2], vid[0], local(vid[1]), mo),
            _ => (vid[0], vid[1], local(vid[2]), mo),
        });
        let id = (pn[i] as u32) << 10 | 0x300 | k as u32;
        self.ids[t as usize] = Some(id);
        Ok(id)
    }

    /// Replaces triangle numbers in the leaves by mesh ids, last child and last member first.
    fn convert(&mut self, node: &mut Node) -> Result<(), String> {
        match node {
            Node::Empty => Ok(()),
            Node::Full(set) => {
                let mut ids = Vec::with_capacity(set.len());
                for &t in set.iter().rev() {
                    ids.push(self.triangle(t)?);
                }
                ids.sort_unstable();
                *set = ids;
                Ok(())
            }
            Node::Tree(kids) => {
                for k in kids.iter_mut().rev() {
                    self.convert(k)?;
                }
                Ok(())
            }
        }
    }
}

fn put(out: &mut Vec<u8>, v: i64, size: usize) {
    let b = v.to_be_bytes();
    out.extend_from_slice(&b[8 - size..]);
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

/// C's `frexp`: `f = m · 2^e` with `0.5 <= |m| < 1` (0 for 0).
fn frexp(f: f64) -> (f64, i32) {
    if f == 0.0 || !f.is_finite() {
        return (f, 0);
    }
    let (f, bias) = if f.abs() < f64::MIN_POSITIVE {
        (f * 2f64.powi(64), -64)
    } else {
        (f, 0)
    };
    let bits = f.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1022;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, e + bias)
}

/// RADIANCE's portable real: a 4-byte mantissa of 31 bits and a 1-byte exponent.
fn put_real(out: &mut Vec<u8>, f: f64) {
    let (m, e) = frexp(f);
    let (mut m, mut e) = ((m * 2147483647.0) as i64, e);
    if e > 127 {
        m = if m > 0 { 0x7fff_ffff } else { -0x7fff_ffff };
        e = 127;
    } else if e < -128 {
        m = 0;
        e = 0;
    }
    put(out, m, 4);
    put(out, e as i64, 1);
}

fn put_tree(out: &mut Vec<u8>, node: &Node) {
    match node {
        Node::Tree(kids) => {
            out.push(2);
            for k in kids.iter() {
                put_tree(out, k);
            }
        }
        Node::Full(set) => {
            out.push(1);
            put(out, set.len() as i64, OBJECT_SIZE as usize);
            for &o in set {
                put(out, o as i64, OBJECT_SIZE as usize);
            }
        }
        Node::Empty => out.push(0),
    }
}

/// What `write_rtm` made besides the bytes: counts for messages and RADIANCE's `-v` report.
#[derive(Clone, Debug, Default)]
pub struct RtmStats {
    /// The octree holds no triangle.
    pub empty: bool,
    pub patches: usize,
    pub materials: usize,
    /// Vertices; those with normals and (u,v); vertex slots of patches that store normals
    /// and (u,v).
    pub vertices: [usize; 5],
    /// Local, single-joiner and double-joiner triangles.
    pub triangles: [usize; 3],
    /// Empty leaves, full leaves, the sum of the full leaves' set sizes.
    pub leaves: [usize; 3],
}

impl RtmStats {
    /// The statistics RADIANCE's `obj2mesh -v` prints (its sizes are those of RADIANCE's
    /// structures on a 64-bit machine).
    pub fn report(&self) -> String {
        let [v, n, uv, ns, uvs] = self.vertices.map(|x| x as f64);
        let [t0, t1, t2] = self.triangles.map(|x| x as f64);
        let [le, lf, lo] = self.leaves.map(|x| x as f64);
        let bytes = self.patches as f64 * 72.0
            + v * 12.0
            + ns * 4.0
            + uvs * 8.0
            + t0 * 3.0
            + t1 * 8.0
            + t2 * 12.0;
        let t = t0 + t1 + t2;
        format!(
            "Mesh statistics:\n\t{} materials\n\t{} patches ({:.2} MBytes)\n\t{} vertices ({:.1}% w/ normals, {:.1}% w/ uv)\n\t{} triangles ({:.1}% local, {:.1}% joiner)\n\t{} leaves in octree ({:.1}% empty, {:.2} avg. set size)\n",
            self.materials,
            self.patches,
            bytes / (1024.0 * 1024.0),
            self.vertices[0],
            100.0 * n / v,
            100.0 * uv / v,
            t as usize,
            100.0 * t0 / t,
            100.0 * t1 / t,
            (lf + le) as usize,
            100.0 * le / (lf + le),
            lo / lf
        )
    }
}

fn tally(node: &Node, leaves: &mut [usize; 3]) {
    match node {
        Node::Empty => leaves[0] += 1,
        Node::Full(set) => {
            leaves[1] += 1;
            leaves[2] += set.len();
        }
        Node::Tree(kids) => kids.iter().for_each(|k| tally(k, leaves)),
    }
}

/// The bytes after the information header of a compiled mesh holding `tris` (at least one,
/// each with nonzero area) with `materials` (the mesh keeps those up to the last one used).
pub fn write_rtm(
    tris: &[MeshTri],
    materials: &[MeshMaterial],
    limits: TreeLimits,
) -> Result<(Vec<u8>, RtmStats), String> {
    if tris.is_empty() {
        return Err("no polygons in mesh".into());
    }
    // Bounds of positions and (u,v).
    let mut lo = [1e10; 3];
    let mut hi = [-1e10; 3];
    let mut uvlim: [[f64; 2]; 2] = [[1e10; 2], [-1e10; 2]];
    for t in tris {
        for (k, v) in t.v.iter().enumerate() {
            for j in 0..3 {
                if v[j] < lo[j] {
                    lo[j] = v[j];
                }
                if v[j] > hi[j] {
                    hi[j] = v[j];
                }
            }
            if let Some(uv) = t.uv {
                for j in 0..2 {
                    if uv[k][j] < uvlim[0][j] {
                        uvlim[0][j] = uv[k][j];
                    }
                    if uv[k][j] > uvlim[1][j] {
                        uvlim[1][j] = uv[k][j];
                    }
                }
            }
        }
    }
    let mut size = 0.0f64;
    for j in 0..3 {
        lo[j] -= OMARGIN;
        hi[j] += OMARGIN;
        if hi[j] - lo[j] > size {
            size = hi[j] - lo[j];
        }
    }
    let mut org = [0.0; 3];
    for j in 0..3 {
        org[j] = (hi[j] + lo[j] - size) * 0.5;
    }
    if uvlim[0][0] > uvlim[1][0] {
        uvlim = [[0.0; 2]; 2];
    } else {
        let [ulo, uhi] = &mut uvlim;
        for (l, h) in ulo.iter_mut().zip(uhi.iter_mut()) {
            // Past the ends by two 16-bit steps.
            let marg = (2.0 / 65536.0) * (*h - *l) + FTINY;
            *l -= marg;
            *h += marg;
        }
    }
    let faces: Vec<Face> = tris
        .iter()
        .map(|t| Face::new(t.v).ok_or("zero-area triangle in mesh"))
        .collect::<Result<_, _>>()?;
    let b = Builder {
        faces: &faces,
        objlim: usize::try_from(limits.objlim).unwrap_or(0),
        min_size: size / limits.maxres as f64 - FTINY,
    };
    let root = Cube { org, size };
    let mut tree = Node::Empty;
    for t in 0..tris.len() as u32 {
        b.add(&mut tree, root, t)?;
    }
    let mut tree = combine(tree);
    let mut enc = Encoder {
        tris,
        flags: tris
            .iter()
            .map(|t| {
                MT_V | if t.n.is_some() { MT_N } else { 0 } | if t.uv.is_some() { MT_UV } else { 0 }
            })
            .collect(),
        org,
        size,
        uvlim,
        ids: vec![None; tris.len()],
        verts: HashMap::new(),
        patches: Vec::new(),
        nmats: 0,
    };
    enc.convert(&mut tree)?;
    let nmats = enc.nmats;
    if nmats > materials.len() {
        return Err("bad mesh modifier range".into());
    }
    for m in &materials[..nmats] {
        if !m.ptype.is_modifier() {
            return Err(format!(
                "non-modifier in mesh ({} \"{}\")",
                m.ptype.name(),
                m.name
            ));
        }
    }
    // RADIANCE's check of the mesh: once any triangle has a material, all must have one.
    if nmats > 0 {
        let bad = |m: i16| m < 0 || m as usize >= nmats;
        for p in &enc.patches {
            let local = match &p.trimat {
                None => !p.tri.is_empty() && bad(p.solemat),
                Some(tm) => tm.iter().any(|&m| bad(m)),
            };
            if local {
                return Err("bad local triangle material".into());
            }
            if p.j1.iter().any(|j| bad(j.3)) {
                return Err("bad j1 triangle material".into());
            }
            if p.j2.iter().any(|j| bad(j.3)) {
                return Err("bad j2 triangle material".into());
            }
        }
    }
    let mut out = Vec::new();
    put(&mut out, MESH_MAGIC + OBJECT_SIZE, 2);
    for &o in &org {
        put_str(&mut out, &format_g_digits(o, 12));
    }
    put_str(&mut out, &format_g_digits(size, 12));
    for (&l, &h) in uvlim[0].iter().zip(&uvlim[1]) {
        put_real(&mut out, l);
        put_real(&mut out, h);
    }
    put_tree(&mut out, &tree);
    // The materials, as a binary scene section.
    for t in TYPE_ORDER {
        put_str(&mut out, t);
    }
    put_str(&mut out, "");
    for m in &materials[..nmats] {
        let ty = TYPE_ORDER
            .iter()
            .position(|&t| t == m.ptype.name())
            .ok_or_else(|| format!("type {} unknown to RADIANCE 6.0a", m.ptype.name()))?;
        put(&mut out, ty as i64, 1);
        put(
            &mut out,
            m.modifier.map_or(-1, |k| k as i64),
            OBJECT_SIZE as usize,
        );
        put_str(&mut out, &m.name);
        put(&mut out, m.sargs.len() as i64, 2);
        for s in &m.sargs {
            put_str(&mut out, s);
        }
        put(&mut out, m.fargs.len() as i64, 2);
        for &f in &m.fargs {
            put_real(&mut out, f);
        }
    }
    put(&mut out, -1, 1);
    put(&mut out, enc.patches.len() as i64, 4);
    for p in &enc.patches {
        let flags =
            MT_V | if p.norm.is_some() { MT_N } else { 0 } | if p.uv.is_some() { MT_UV } else { 0 };
        put(&mut out, flags as i64, 1);
        put(&mut out, p.xyz.len() as i64, 2);
        for v in &p.xyz {
            for &c in v {
                put(&mut out, c as i64, 4);
            }
        }
        if let Some(n) = &p.norm {
            for &c in n {
                put(&mut out, c as i64, 4);
            }
        }
        if let Some(uv) = &p.uv {
            for c in uv {
                put(&mut out, c[0] as i64, 4);
                put(&mut out, c[1] as i64, 4);
            }
        }
        put(&mut out, p.tri.len() as i64, 2);
        for t in &p.tri {
            out.extend_from_slice(t);
        }
        match &p.trimat {
            None => {
                put(&mut out, 1, 2);
                put(&mut out, p.solemat as i64, 2);
            }
            Some(tm) => {
                put(&mut out, tm.len() as i64, 2);
                for &m in tm {
                    put(&mut out, m as i64, 2);
                }
            }
        }
        put(&mut out, p.j1.len() as i64, 2);
        for &(v1, v2, v3, m) in &p.j1 {
            put(&mut out, v1 as i64, 4);
            out.push(v2);
            out.push(v3);
            put(&mut out, m as i64, 2);
        }
        put(&mut out, p.j2.len() as i64, 2);
        for &(v1, v2, v3, m) in &p.j2 {
            put(&mut out, v1 as i64, 4);
            put(&mut out, v2 as i64, 4);
            out.push(v3);
            put(&mut out, m as i64, 2);
        }
    }
    let mut stats = RtmStats {
        empty: tree == Node::Empty,
        patches: enc.patches.len(),
        materials: nmats,
        ..Default::default()
    };
    tally(&tree, &mut stats.leaves);
    for p in &enc.patches {
        let nv = p.xyz.len();
        stats.vertices[0] += nv;
        if let Some(n) = &p.norm {
            stats.vertices[1] += n.iter().filter(|&&c| c != 0).count();
            stats.vertices[3] += nv;
        }
        if let Some(uv) = &p.uv {
            stats.vertices[2] += uv.iter().filter(|c| c[0] != 0).count();
            stats.vertices[4] += nv;
        }
        stats.triangles[0] += p.tri.len();
        stats.triangles[1] += p.j1.len();
        stats.triangles[2] += p.j2.len();
    }
    Ok((out, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_reals_as_radiance_writes_them() {
        let mut out = Vec::new();
        put_real(&mut out, 0.8);
        // 0.8 = 0.8 · 2^0: mantissa 0.8 · (2^31 − 1), exponent 0.
        assert_eq!(out, [0x66, 0x66, 0x66, 0x65, 0x00]);
        assert_eq!(frexp(1.0), (0.5, 1));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(frexp(1e-310).1, -1029);
    }

    #[test]
    fn every_type_has_radiance_s_number() {
        for t in PrimType::ALL {
            assert!(TYPE_ORDER.contains(&t.name()), "{}", t.name());
        }
        assert_eq!(TYPE_ORDER.len(), PrimType::ALL.len());
    }

    #[test]
    fn written_meshes_read_back() {
        let mat = MeshMaterial {
            ptype: PrimType::Plastic,
            modifier: None,
            name: "red".into(),
            sargs: vec![],
            fargs: vec![0.8, 0.1, 0.1, 0.0, 0.0],
        };
        let n = [[0.0, 0.0, 1.0], [0.0, 0.6, 0.8], [0.6, 0.0, 0.8]];
        let tris = [
            MeshTri {
                v: [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
                n: Some(n),
                uv: Some([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
                material: Some(0),
            },
            MeshTri {
                v: [[1.0, 0.0, 0.0], [1.0, 1.0, 0.5], [0.0, 1.0, 0.0]],
                n: None,
                uv: None,
                material: None,
            },
        ];
        // Once a triangle has a material, all must (RADIANCE's mesh check).
        let err = write_rtm(&tris, std::slice::from_ref(&mat), TreeLimits::default());
        assert_eq!(err.unwrap_err(), "bad local triangle material");
        let mut tris = tris;
        tris[1].material = Some(0);
        let (body, stats) = write_rtm(&tris, &[mat], TreeLimits::default()).unwrap();
        assert_eq!((stats.patches, stats.materials, stats.empty), (1, 1, false));
        let mut bytes = b"#?RADIANCE\nFORMAT=Radiance_tmesh\n\n".to_vec();
        bytes.extend_from_slice(&body);
        let m = crate::rtm::read_rtm(&bytes, std::path::Path::new("t.rtm")).unwrap();
        assert_eq!(m.triangles.len(), 2);
        assert_eq!(m.tri_material, [Some(0), Some(0)]);
        assert_eq!(m.materials[0].name, "red");
        // The leaves are walked from their last triangle: the second is stored first.
        for (t, tri) in m.triangles.iter().zip(tris.iter().rev()) {
            for (k, &vi) in t.iter().enumerate() {
                let got = m.vertices[vi as usize];
                for j in 0..3 {
                    assert!((got[j] - tri.v[k][j]).abs() < 1e-9, "{got:?}");
                }
                match (m.normals[vi as usize], tri.n) {
                    (Some(g), Some(w)) => assert!(dot(g, w[k]) > 0.99999),
                    (None, None) => {}
                    other => panic!("normal {other:?}"),
                }
                if let (Some(g), Some(w)) = (m.uvs[vi as usize], tri.uv) {
                    assert!((g[0] - w[k][0]).abs() < 1e-6 && (g[1] - w[k][1]).abs() < 1e-6);
                }
            }
        }
    }
}
