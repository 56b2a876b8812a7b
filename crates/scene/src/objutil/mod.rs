//! RADIANCE's `robjutil`: a Wavefront OBJ model read, cleaned and written again, as RADIANCE
//! 6.0a's OBJ library does it. The model keeps what that library keeps — positions in f64,
//! texture coordinates and unit normals in f32, group and material names (index 0 being
//! `DEFAULT_GROUP` and `DEFAULT_MATERIAL`), faces of corner indices with flags — and the same
//! orders, since the output depends on them: the face list runs from the newest face to the
//! oldest, and each vertex has a list of the faces using it, linked through the faces' corners
//! (a face is pushed at the front, and the link lives on a vertex's first corner in the face
//! while walks read its last; duplicate detection and vertex coalescing walk these lists).
//!
//! [`read`] loads OBJ text, [`edit`] selects and deletes faces (groups, materials, degenerate
//! and duplicate faces, texture coordinates and normals), [`coalesce`] joins nearly coincident
//! vertices, [`triangulate`] splits faces by ear clipping, [`write`] writes OBJ text with
//! relative indices or RADIANCE polygons (bent normals through `tmesh.cal`), and [`run`] does
//! what robjutil does, in its order, with the comments it records.

pub mod coalesce;
pub mod edit;
pub mod read;
pub mod triangulate;
pub mod write;

use crate::xform::Transform;

/// A face whose area is (nearly) zero.
pub const FACE_DEGENERATE: u32 = 1;
/// A face found to repeat another (or split up by triangulation).
pub const FACE_DUPLICATE: u32 = 2;
/// A face picked by a group or material selection.
pub const FACE_SELECTED: u32 = 4;
/// A face to be written with interpolated normals (RADIANCE output only).
pub const FACE_RESERVED: u32 = 1 << 15;

/// RADIANCE's `FTINY`.
const FTINY: f64 = 1e-6;

/// One corner of a face: the indices of its position, texture coordinate and normal, and the
/// next face in the position's face list (kept on the position's first corner in this face).
#[derive(Clone, Copy, Debug)]
pub struct Corner {
    pub vid: usize,
    pub tid: Option<usize>,
    pub nid: Option<usize>,
    next: Option<usize>,
}

impl Corner {
    /// A corner with no face-list link yet.
    pub fn new(vid: usize, tid: Option<usize>, nid: Option<usize>) -> Corner {
        Corner {
            vid,
            tid,
            nid,
            next: None,
        }
    }
}

/// A face: flags, group and material indices, corners.
#[derive(Clone, Debug)]
pub struct Face {
    pub flags: u32,
    pub grp: usize,
    pub mat: usize,
    pub v: Vec<Corner>,
}

/// A position and the head of the list of faces that use it.
#[derive(Clone, Copy, Debug)]
pub struct Vertex {
    pub p: [f64; 3],
    head: Option<usize>,
}

/// An OBJ model as RADIANCE's OBJ library holds it.
#[derive(Clone, Debug)]
pub struct ObjScene {
    /// The comments recording what was read and done, written at the top of the output.
    pub comments: Vec<String>,
    pub groups: Vec<String>,
    last_group: usize,
    pub materials: Vec<String>,
    last_material: usize,
    pub verts: Vec<Vertex>,
    pub tex: Vec<[f32; 2]>,
    pub norms: Vec<[f32; 3]>,
    /// Every face made, deleted ones included (indices stay valid).
    faces: Vec<Face>,
    /// The face list, oldest first (the list proper runs from the end).
    order: Vec<usize>,
}

impl Default for ObjScene {
    fn default() -> Self {
        ObjScene::new()
    }
}

/// RADIANCE's `normalize`: `v` at unit length (a first-order reciprocal within 1e-6 of unit
/// length) and its length; zero stays zero.
pub(crate) fn normalize(v: [f64; 3]) -> ([f64; 3], f64) {
    let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if d <= 0.0 {
        return (v, 0.0);
    }
    let len = if (1.0 - FTINY..=1.0 + FTINY).contains(&d) {
        0.5 + 0.5 * d
    } else {
        d.sqrt()
    };
    let f = 1.0 / len;
    ([v[0] * f, v[1] * f, v[2] * f], len)
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

impl ObjScene {
    /// An empty model with the default group and material.
    pub fn new() -> ObjScene {
        ObjScene {
            comments: Vec::new(),
            groups: vec!["DEFAULT_GROUP".into()],
            last_group: 0,
            materials: vec!["DEFAULT_MATERIAL".into()],
            last_material: 0,
            verts: Vec::new(),
            tex: Vec::new(),
            norms: Vec::new(),
            faces: Vec::new(),
            order: Vec::new(),
        }
    }

    /// The number of faces in the list.
    pub fn nfaces(&self) -> usize {
        self.order.len()
    }

    /// The faces in list order (newest first).
    pub fn face_ids(&self) -> Vec<usize> {
        self.order.iter().rev().copied().collect()
    }

    pub fn face(&self, f: usize) -> &Face {
        &self.faces[f]
    }

    pub fn face_mut(&mut self, f: usize) -> &mut Face {
        &mut self.faces[f]
    }

    pub fn add_vertex(&mut self, p: [f64; 3]) -> usize {
        self.verts.push(Vertex { p, head: None });
        self.verts.len() - 1
    }

    pub fn add_texture(&mut self, u: f64, v: f64) -> usize {
        self.tex.push([u as f32, v as f32]);
        self.tex.len() - 1
    }

    /// Adds a normal at unit length; `None` for a zero vector.
    pub fn add_normal(&mut self, n: [f64; 3]) -> Option<usize> {
        let (n, len) = normalize(n);
        if len == 0.0 {
            return None;
        }
        self.norms.push([n[0] as f32, n[1] as f32, n[2] as f32]);
        Some(self.norms.len() - 1)
    }

    fn name_index(names: &mut Vec<String>, name: &str) -> usize {
        match names.iter().rposition(|n| n == name) {
            Some(i) => i,
            None => {
                names.push(name.to_string());
                names.len() - 1
            }
        }
    }

    /// Makes `name` the group of the faces that follow.
    pub fn set_group(&mut self, name: &str) {
        self.last_group = Self::name_index(&mut self.groups, name);
    }

    /// Makes `name` the material of the faces that follow.
    pub fn set_material(&mut self, name: &str) {
        self.last_material = Self::name_index(&mut self.materials, name);
    }

    /// Adds a face of the current group and material at the front of the list (none with fewer
    /// than three corners); a triangle with a repeated position, or a face of area below
    /// FTINY², is flagged degenerate.
    pub fn add_face(&mut self, corners: &[Corner]) -> Option<usize> {
        if corners.len() < 3 {
            return None;
        }
        let id = self.faces.len();
        let mut face = Face {
            flags: 0,
            grp: self.last_group,
            mat: self.last_material,
            v: Vec::with_capacity(corners.len()),
        };
        for (i, c) in corners.iter().enumerate() {
            let mut c = Corner::new(c.vid, c.tid, c.nid);
            if face.v[..i].iter().all(|e| e.vid != c.vid) {
                c.next = self.verts[c.vid].head;
                self.verts[c.vid].head = Some(id);
            } else if corners.len() == 3 {
                face.flags |= FACE_DEGENERATE;
            }
            face.v.push(c);
        }
        self.faces.push(face);
        self.order.push(id);
        if self.faces[id].flags & FACE_DEGENERATE == 0 && self.face_area(id).0 <= FTINY * FTINY {
            self.faces[id].flags |= FACE_DEGENERATE;
        }
        Some(id)
    }

    /// Appends a copied face at the end of each of its positions' face lists (a duplicate
    /// model's way).
    fn append_face(&mut self, face: Face) -> usize {
        let id = self.faces.len();
        self.faces.push(face);
        for i in 0..self.faces[id].v.len() {
            let vid = self.faces[id].v[i].vid;
            self.faces[id].v[i].next = None;
            let Some(mut fp) = self.verts[vid].head else {
                self.verts[vid].head = Some(id);
                continue;
            };
            loop {
                if fp == id {
                    break;
                }
                let Some(j) = self.last_corner(fp, vid) else {
                    break;
                };
                match self.faces[fp].v[j].next {
                    Some(n) => fp = n,
                    None => {
                        self.faces[fp].v[j].next = Some(id);
                        break;
                    }
                }
            }
        }
        self.order.push(id);
        id
    }

    /// The last corner of face `f` at position `vid`.
    fn last_corner(&self, f: usize, vid: usize) -> Option<usize> {
        self.faces[f].v.iter().rposition(|c| c.vid == vid)
    }

    /// The faces of position `vid`'s list, walked as RADIANCE walks it (through each face's
    /// last corner at the position), ending early where a link is missing.
    pub fn vertex_faces(&self, vid: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut f = self.verts[vid].head;
        while let Some(fi) = f {
            out.push(fi);
            if out.len() > self.faces.len() {
                break;
            }
            match self.last_corner(fi, vid) {
                Some(j) => f = self.faces[fi].v[j].next,
                None => break,
            }
        }
        out
    }

    /// The face's area and unit normal (the normal in f32, zero for no area); a face flagged
    /// degenerate has none.
    pub fn face_area(&self, f: usize) -> (f64, [f32; 3]) {
        let face = &self.faces[f];
        if face.flags & FACE_DEGENERATE != 0 {
            return (0.0, [0.0; 3]);
        }
        let p0 = self.verts[face.v[0].vid].p;
        let mut sum = [0.0; 3];
        let mut v1 = sub(self.verts[face.v[1].vid].p, p0);
        for c in &face.v[2..] {
            let v2 = sub(self.verts[c.vid].p, p0);
            let x = cross(v1, v2);
            sum = [sum[0] + x[0], sum[1] + x[1], sum[2] + x[2]];
            v1 = v2;
        }
        let (n, len) = normalize(sum);
        let area = 0.5 * len;
        let nrm = if area != 0.0 {
            [n[0] as f32, n[1] as f32, n[2] as f32]
        } else {
            [0.0; 3]
        };
        (area, nrm)
    }

    /// Applies a transform to every position and normal (normals divided by the signed scale,
    /// as RADIANCE does) and records it.
    pub fn transform(&mut self, xf: &Transform, words: &[String]) {
        for v in &mut self.verts {
            v.p = xf.point(v.p.into()).to_array();
        }
        for n in &mut self.norms {
            let v = xf.vector(glam::DVec3::new(n[0] as f64, n[1] as f64, n[2] as f64)) / xf.scale;
            *n = [v.x as f32, v.y as f32, v.z as f32];
        }
        self.comments
            .push(format!("Transformed by: {}", words.join(" ")));
    }
}

/// What robjutil is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `+r`: RADIANCE scene text instead of OBJ.
    pub radiance: bool,
    /// `+v`: progress on standard error.
    pub verbose: bool,
    /// `+g`/`-g`: groups (and objects) to keep (true) or delete.
    pub groups: Option<(bool, Vec<String>)>,
    /// `+m`/`-m`: materials to keep (true) or delete.
    pub materials: Option<(bool, Vec<String>)>,
    /// `-t`: remove texture coordinates.
    pub remove_texture: bool,
    /// `-n`: remove normals.
    pub remove_normals: bool,
    /// `-c`: coalesce vertices within this epsilon (when not negative).
    pub epsilon: Option<f64>,
    /// `+T`: split faces into triangles.
    pub triangulate: bool,
    /// `-x`: the final transform and its words.
    pub transform: Option<(Transform, Vec<String>)>,
}

fn progress(o: &Options, what: &str) {
    if o.verbose {
        eprintln!("{what}");
    }
}

/// Does to a loaded model what robjutil does, in its order, and returns the text it writes
/// after its `# File processed by:` line.
pub fn run(sc: &mut ObjScene, o: &Options) -> String {
    for (sel, what, by_group) in [
        (&o.groups, "groups", true),
        (&o.materials, "materials", false),
    ] {
        let Some((keep, names)) = sel else { continue };
        progress(o, &format!("Deleting unwanted {what}..."));
        sc.clear_selection();
        let verb = if *keep { "Extracting" } else { "Deleting" };
        sc.comments.push(format!("{verb} the following {what}:"));
        for n in names {
            sc.comments.push(format!("\t{n}"));
            if by_group {
                sc.select_group(n);
            } else {
                sc.select_material(n);
            }
        }
        let n = if *keep {
            sc.delete_faces(0, FACE_SELECTED)
        } else {
            sc.delete_faces(FACE_SELECTED, 0)
        };
        sc.comments.push(format!("\t({n} faces removed)"));
    }
    if o.remove_texture {
        progress(o, "Removing texture coordinates...");
        let n = sc.remove_texture();
        if n > 0 {
            sc.comments
                .push(format!("Removed texture coordinates from {n} faces"));
        }
    }
    if o.remove_normals {
        progress(o, "Removing surface normals...");
        let n = sc.remove_normals();
        if n > 0 {
            sc.comments
                .push(format!("Removed surface normals from {n} faces"));
        }
    }
    if let Some(eps) = o.epsilon.filter(|&e| e >= 0.0) {
        progress(o, "Coalescing vertices...");
        let n = sc.coalesce_vertices(eps);
        if n > 0 {
            sc.comments.push(format!(
                "Coalesced {n} vertices with epsilon of {}",
                daylit_radfile::printf::format_g(eps)
            ));
        }
    }
    progress(o, "Deleting degenerate faces...");
    let n = sc.delete_faces(FACE_DEGENERATE, 0);
    if n > 0 {
        sc.comments.push(format!("Removed {n} degenerate faces"));
    }
    progress(o, "Checking for duplicate faces...");
    if sc.find_duplicate_faces(o.verbose) > 0 {
        let n = sc.delete_faces(FACE_DUPLICATE, 0);
        if n > 0 {
            sc.comments.push(format!("Removed {n} duplicate faces"));
        }
    }
    if o.triangulate {
        progress(o, "Making sure all faces are triangles...");
        let n = sc.triangulate();
        if n > 0 {
            sc.comments
                .push(format!("Added {n} faces during triangulation"));
        }
    }
    if let Some((xf, words)) = &o.transform {
        progress(o, "Applying transform...");
        sc.transform(xf, words);
    }
    progress(o, "Writing out scene...");
    if o.radiance {
        sc.to_radiance()
    } else {
        sc.to_obj()
    }
}
