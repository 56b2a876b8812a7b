//! Selecting and deleting faces: by group or material name, by flag (degenerate, duplicate),
//! duplicate detection (the same positions in the same cyclic order, or reversed; the face
//! nearer the list's front — read later — stays), texture coordinates and normals dropped,
//! and unreferenced positions, coordinates and normals removed with indices renumbered.

use super::{ObjScene, FACE_DUPLICATE, FACE_SELECTED};

impl ObjScene {
    /// Unselects every face.
    pub fn clear_selection(&mut self) {
        for f in self.face_ids() {
            self.faces[f].flags &= !FACE_SELECTED;
        }
    }

    /// Selects the faces of group (or object) `name`, if there is one.
    pub fn select_group(&mut self, name: &str) {
        if let Some(g) = self.groups.iter().rposition(|n| n == name) {
            for f in self.face_ids() {
                if self.faces[f].grp == g {
                    self.faces[f].flags |= FACE_SELECTED;
                }
            }
        }
    }

    /// Selects the faces of material `name`, if there is one.
    pub fn select_material(&mut self, name: &str) {
        if let Some(m) = self.materials.iter().rposition(|n| n == name) {
            for f in self.face_ids() {
                if self.faces[f].mat == m {
                    self.faces[f].flags |= FACE_SELECTED;
                }
            }
        }
    }

    /// The faces whose flags among `req | exc` are exactly `req`, in list order.
    pub fn faces_with(&self, req: u32, exc: u32) -> Vec<usize> {
        self.face_ids()
            .into_iter()
            .filter(|&f| self.faces[f].flags & (req | exc) == req)
            .collect()
    }

    /// Deletes the faces whose flags among `req | exc` are exactly `req`, unlinking them from
    /// their positions' face lists; returns how many.
    pub fn delete_faces(&mut self, req: u32, exc: u32) -> usize {
        let doomed = self.faces_with(req, exc);
        for &f in &doomed {
            self.unlink(f);
        }
        let gone: std::collections::HashSet<usize> = doomed.iter().copied().collect();
        self.order.retain(|f| !gone.contains(f));
        doomed.len()
    }

    /// Takes face `f` out of each of its positions' face lists.
    fn unlink(&mut self, f: usize) {
        for i in 0..self.faces[f].v.len() {
            let vid = self.faces[f].v[i].vid;
            let after = self.faces[f].v[i].next;
            if self.verts[vid].head == Some(f) {
                self.verts[vid].head = after;
                continue;
            }
            let mut cur = self.verts[vid].head;
            let mut steps = 0;
            while let Some(g) = cur {
                let Some(j) = self.last_corner(g, vid) else {
                    break;
                };
                if self.faces[g].v[j].next == Some(f) {
                    self.faces[g].v[j].next = after;
                    break;
                }
                cur = self.faces[g].v[j].next;
                steps += 1;
                if steps > self.faces.len() {
                    break;
                }
            }
        }
    }

    /// Drops every face's texture coordinates; returns how many faces had some.
    pub fn remove_texture(&mut self) -> usize {
        let mut n = 0;
        for f in self.face_ids() {
            let face = &mut self.faces[f];
            n += face.v.iter().any(|c| c.tid.is_some()) as usize;
            face.v.iter_mut().for_each(|c| c.tid = None);
        }
        n
    }

    /// Drops every face's normals; returns how many faces had some.
    pub fn remove_normals(&mut self) -> usize {
        let mut n = 0;
        for f in self.face_ids() {
            let face = &mut self.faces[f];
            n += face.v.iter().any(|c| c.nid.is_some()) as usize;
            face.v.iter_mut().for_each(|c| c.nid = None);
        }
        n
    }

    /// Flags each face that repeats one earlier in the list (same positions, same cyclic order
    /// or reversed), looking through the face list of each face's first position; returns how
    /// many.
    pub fn find_duplicate_faces(&mut self, verbose: bool) -> usize {
        let ids = self.face_ids();
        for &f in &ids {
            self.faces[f].flags &= !FACE_DUPLICATE;
        }
        let mut found = 0;
        for &f in &ids {
            if self.faces[f].flags & FACE_DUPLICATE != 0 {
                continue;
            }
            let vid = self.faces[f].v[0].vid;
            let mut cur = self.verts[vid].head;
            while let Some(g) = cur {
                let Some(j) = self.last_corner(g, vid) else {
                    break;
                };
                cur = self.faces[g].v[j].next;
                let (a, b) = (&self.faces[f], &self.faces[g]);
                if g == f || b.flags & FACE_DUPLICATE != 0 || a.v.len() != b.v.len() {
                    continue;
                }
                let n = a.v.len();
                let same = (1..n).all(|i| a.v[i].vid == b.v[(j + i) % n].vid);
                let reversed = (1..n).all(|i| b.v[(j + n - i) % n].vid == a.v[i].vid);
                if same || reversed {
                    self.faces[g].flags |= FACE_DUPLICATE;
                    found += 1;
                }
            }
        }
        if verbose {
            eprintln!("Found {found} duplicate faces");
        }
        found
    }

    /// Removes positions no face uses, and texture coordinates and normals no face corner
    /// uses, renumbering the rest in order.
    pub fn delete_unreferenced(&mut self) {
        if self.verts.is_empty() {
            return;
        }
        let ids = self.face_ids();
        let mut map = vec![None; self.verts.len()];
        let mut kept = Vec::new();
        for (i, v) in self.verts.iter().enumerate() {
            if v.head.is_some() {
                map[i] = Some(kept.len());
                kept.push(*v);
            }
        }
        if kept.len() != self.verts.len() {
            self.verts = kept;
            for &f in &ids {
                for c in &mut self.faces[f].v {
                    c.vid = map[c.vid].expect("a face's position is in use");
                }
            }
        }
        fn renumber<T: Copy>(
            items: &mut Vec<T>,
            faces: &mut [super::Face],
            ids: &[usize],
            get: fn(&mut super::Corner) -> &mut Option<usize>,
        ) {
            if items.is_empty() {
                return;
            }
            let mut used = vec![false; items.len()];
            for &f in ids {
                for c in &mut faces[f].v {
                    if let Some(t) = *get(c) {
                        used[t] = true;
                    }
                }
            }
            if used.iter().all(|&u| u) {
                return;
            }
            let mut map = vec![0; items.len()];
            let mut kept = Vec::new();
            for (i, &t) in items.iter().enumerate() {
                if used[i] {
                    map[i] = kept.len();
                    kept.push(t);
                }
            }
            *items = kept;
            for &f in ids {
                for c in &mut faces[f].v {
                    if let Some(t) = get(c) {
                        *t = map[*t];
                    }
                }
            }
        }
        renumber(&mut self.tex, &mut self.faces, &ids, |c| &mut c.tid);
        renumber(&mut self.norms, &mut self.faces, &ids, |c| &mut c.nid);
    }
}
