//! OBJ text read into an [`ObjScene`] as RADIANCE's OBJ library reads it: statements are lines
//! (`\` before a line's end continues one; `\r\n` and a lone `\r` end lines), words split at
//! white space and `\`, quotes in words turned to `^`. `v`, `vt`, `vn`, `f`, `usemtl`, and `g`
//! or `o` (any word starting so: a group, several names joined by `.` with their own dots made
//! `_`) are understood, `usemap` is passed over, `#` lines are comments; a `vt` that is not two
//! numbers and any other statement are counted as unrecognized (and named by the caller). Face
//! indices count from 1 within each file, or back from the end when negative. Errors are
//! RADIANCE's "Wavefront syntax error" at the statement's last line.

use super::{Corner, ObjScene};
use daylit_radfile::scan::{atof, atoi, is_float};

/// What one file added: its unrecognized statements' first words.
#[derive(Debug, Default)]
pub struct Loaded {
    pub unrecognized: Vec<String>,
}

/// The statements of the text: each one's words and the number of its last line.
fn statements(text: &[u8]) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut line = 0;
    let mut cur: Vec<u8> = Vec::new();
    let mut i = 0;
    let mut flush = |cur: &mut Vec<u8>, line: usize| {
        let words: Vec<String> = cur
            .split(|&c| c.is_ascii_whitespace() || c == b'\\' || c == 0x0b)
            .filter(|w| !w.is_empty())
            .map(|w| String::from_utf8_lossy(w).replace(['"', '\''], "^"))
            .collect();
        cur.clear();
        if !words.is_empty() {
            out.push((words, line));
        }
    };
    while i < text.len() {
        let mut c = text[i];
        i += 1;
        if c == b'\r' {
            if text.get(i) == Some(&b'\n') {
                i += 1;
            }
            c = b'\n';
        }
        if c == b'\n' {
            line += 1;
            if cur.last() == Some(&b'\\') {
                cur.push(b'\n');
                continue;
            }
            flush(&mut cur, line);
            continue;
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        line += 1;
        flush(&mut cur, line);
    }
    out
}

/// An index of a corner: from 1 past `base` when positive, back from `count` when negative;
/// zero (absent) is `Ok(None)`, out of range an error.
pub(crate) fn resolve(i: i64, base: usize, count: usize) -> Result<Option<usize>, ()> {
    if i > 0 {
        let k = i - 1 + base as i64;
        if k >= count as i64 {
            return Err(());
        }
        Ok(Some(k as usize))
    } else if i < 0 {
        let k = i + count as i64;
        if k < 0 {
            return Err(());
        }
        Ok(Some(k as usize))
    } else {
        Ok(None)
    }
}

/// The part of `w` after its first `/` (empty when there is none).
fn after_slash(w: &str) -> &str {
    w.split_once('/').map_or("", |(_, r)| r)
}

impl ObjScene {
    /// Reads OBJ text named `name` (in comments and errors) into the model, recording what was
    /// read in the comments.
    pub fn load(&mut self, text: &[u8], name: &str) -> Result<Loaded, String> {
        let base = (self.verts.len(), self.tex.len(), self.norms.len());
        let first_face = self.nfaces();
        let mut loaded = Loaded::default();
        let mut nstats = 0usize;
        for (words, line) in statements(text) {
            let err =
                |what: &str| format!("{name}: Wavefront syntax error near line {line}: {what}");
            let key = words[0].as_str();
            let floats =
                |n: usize| words.len() > n && words[1..=n].iter().all(|w| is_float(w.as_bytes()));
            let num = |k: usize| atof(&words[k]);
            let mut unknown = false;
            match key.as_bytes()[0] {
                b'v' => match &key[1..] {
                    "" => {
                        if !floats(3) {
                            return Err(err("bad vertex"));
                        }
                        self.add_vertex([num(1), num(2), num(3)]);
                    }
                    "t" if floats(2) => {
                        self.add_texture(num(1), num(2));
                    }
                    "n" => {
                        if !floats(3) {
                            return Err(err("bad normal"));
                        }
                        if self.add_normal([num(1), num(2), num(3)]).is_none() {
                            return Err(err("zero normal"));
                        }
                    }
                    _ => unknown = true,
                },
                b'f' if key.len() == 1 => {
                    if !self.read_face(&words[1..], base) {
                        return Err(err("bad face"));
                    }
                }
                b'u' if key == "usemap" => {}
                b'u' if key == "usemtl" => {
                    if words.len() != 2 {
                        return Err(err("bad # arguments"));
                    }
                    self.set_material(&words[1]);
                }
                b'o' | b'g' => {
                    if words.len() < 2 {
                        return Err(err("missing argument"));
                    }
                    self.set_group(&group_name(&words[1..]));
                }
                b'#' => continue,
                _ => unknown = true,
            }
            if unknown {
                loaded.unrecognized.push(key.to_string());
            }
            nstats += 1;
        }
        self.comments.push(if name.len() < 1024 - 32 {
            format!("{nstats} statements read from \"{name}\"")
        } else {
            format!("{nstats} statements read from (TOO LONG TO SHOW)")
        });
        if !loaded.unrecognized.is_empty() {
            self.comments
                .push(format!("\t{} unrecognized", loaded.unrecognized.len()));
        }
        self.comments
            .push(format!("{} faces", self.nfaces() - first_face));
        self.comments.push(format!(
            "\t{} vertices, {} texture coordinates, {} surface normals",
            self.verts.len() - base.0,
            self.tex.len() - base.1,
            self.norms.len() - base.2
        ));
        Ok(loaded)
    }

    /// A face statement's corners (`v`, `v/vt`, `v//vn`, `v/vt/vn`); false when one is bad or
    /// there are fewer than three.
    fn read_face(&mut self, words: &[String], base: (usize, usize, usize)) -> bool {
        if words.len() < 3 {
            return false;
        }
        let mut corners = Vec::with_capacity(words.len());
        // Checked from the last corner to the first, as RADIANCE does (the first bad one ends it).
        for w in words.iter().rev() {
            let Ok(Some(vid)) = resolve(atoi(w), base.0, self.verts.len()) else {
                return false;
            };
            let rest = after_slash(w);
            let Ok(tid) = resolve(atoi(rest), base.1, self.tex.len()) else {
                return false;
            };
            let Ok(nid) = resolve(atoi(after_slash(rest)), base.2, self.norms.len()) else {
                return false;
            };
            corners.push(Corner::new(vid, tid, nid));
        }
        corners.reverse();
        self.add_face(&corners).is_some()
    }
}

/// A group statement's names as one identifier: one name as it is, several joined by `.`
/// with their own dots made `_`.
fn group_name(names: &[String]) -> String {
    if names.len() == 1 {
        return names[0].clone();
    }
    names
        .iter()
        .map(|n| n.replace('.', "_"))
        .collect::<Vec<_>>()
        .join(".")
}
