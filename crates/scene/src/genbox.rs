//! RADIANCE's `genbox`, run natively: a box of polygons from the origin to (x, y, z), optionally
//! inward-facing (`-i`), with rounded (`-r`, cylinders and spheres) or bevelled (`-b`) edges.

use crate::error::{Loc, Result, SceneError};
use crate::parse::{parse_real, RawPrim};
use crate::types::PrimType;
use glam::DVec3;

/// Generates the primitives of `genbox mat name x y z [-i] [-r rad | -b bev]`.
pub fn genbox(args: &[String], loc: &Loc) -> Result<Vec<RawPrim>> {
    let usage = "genbox: usage: genbox material name xsize ysize zsize [-i] [-r rad | -b bev]";
    if args.len() < 5 {
        return Err(SceneError::at(loc, usage));
    }
    let num = |w: &str| {
        parse_real(w)
            .ok_or_else(|| SceneError::at(loc, format!("genbox: expected a number, found \"{w}\"")))
    };
    let (mat, name) = (&args[0], &args[1]);
    let size = DVec3::new(num(&args[2])?, num(&args[3])?, num(&args[4])?);
    if size.min_element() <= 0.0 {
        return Err(SceneError::at(loc, "genbox: sizes must be positive"));
    }
    let mut inward = false;
    let mut round = 0.0;
    let mut bevel = 0.0;
    let mut i = 5;
    while i < args.len() {
        match args[i].as_str() {
            "-i" => inward = true,
            "-r" | "-b" => {
                let v = num(args.get(i + 1).map(String::as_str).unwrap_or(""))?;
                if args[i] == "-r" {
                    round = v;
                } else {
                    bevel = v;
                }
                i += 1;
            }
            w => {
                return Err(SceneError::at(
                    loc,
                    format!("genbox: unknown option \"{w}\"; {usage}"),
                ))
            }
        }
        i += 1;
    }
    let inset = round.max(bevel);
    if inset < 0.0 || 2.0 * inset >= size.min_element() {
        return Err(SceneError::at(
            loc,
            "genbox: the rounding or bevel must be positive and less than half the smallest size",
        ));
    }
    let mut g = Gen {
        out: Vec::new(),
        mat,
        name,
        loc,
        inward,
    };
    // Faces, named by their corners as RADIANCE names them (corner bits: x=1, y=2, z=4).
    const FACES: [(&str, usize, bool); 6] = [
        ("1540", 1, false),
        ("4620", 0, false),
        ("2310", 2, false),
        ("3267", 1, true),
        ("5137", 0, true),
        ("6457", 2, true),
    ];
    for (label, axis, high) in FACES {
        if inset == 0.0 {
            // Plain box: corners in RADIANCE's order; -i takes the opposite corner of each
            // (a point reflection through the centre), which turns every face inward.
            let quad = label
                .bytes()
                .map(|d| {
                    let c = u32::from(d - b'0');
                    let c = if inward { 7 - c } else { c };
                    DVec3::from_array(std::array::from_fn(|ax| {
                        if c >> ax & 1 == 1 {
                            size[ax]
                        } else {
                            0.0
                        }
                    }))
                })
                .collect();
            g.push_polygon(label, quad);
            continue;
        }
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        let corner = |a: f64, b: f64| {
            let mut p = DVec3::ZERO;
            p[axis] = if high { size[axis] } else { 0.0 };
            p[u] = a;
            p[v] = b;
            p
        };
        let (u0, u1, v0, v1) = (inset, size[u] - inset, inset, size[v] - inset);
        let quad = vec![
            corner(u0, v0),
            corner(u1, v0),
            corner(u1, v1),
            corner(u0, v1),
        ];
        let mut out_dir = DVec3::ZERO;
        out_dir[axis] = if high { 1.0 } else { -1.0 };
        g.polygon(label, quad, out_dir);
    }
    // Edges: along axis a, at the low/high side of the two other axes.
    for a in 0..3 {
        let (b, c) = ((a + 1) % 3, (a + 2) % 3);
        for (k, (hb, hc)) in [(false, false), (true, false), (true, true), (false, true)]
            .into_iter()
            .enumerate()
        {
            let side = |ax: usize, hi: bool, off: f64| if hi { size[ax] - off } else { off };
            let mut dir = DVec3::ZERO;
            dir[b] = if hb { 1.0 } else { -1.0 };
            dir[c] = if hc { 1.0 } else { -1.0 };
            let label = format!("e{a}{k}");
            let at = |t: f64, ob: f64, oc: f64| {
                let mut p = DVec3::ZERO;
                p[a] = t;
                p[b] = side(b, hb, ob);
                p[c] = side(c, hc, oc);
                p
            };
            let (t0, t1) = (inset, size[a] - inset);
            if round > 0.0 {
                g.cylinder(&label, at(t0, round, round), at(t1, round, round), round);
            } else if bevel > 0.0 {
                let quad = vec![
                    at(t0, 0.0, bevel),
                    at(t1, 0.0, bevel),
                    at(t1, bevel, 0.0),
                    at(t0, bevel, 0.0),
                ];
                g.polygon(&label, quad, dir);
            }
        }
    }
    // Corners.
    for k in 0..8 {
        let hi = [k & 1 != 0, k & 2 != 0, k & 4 != 0];
        let at = |off: [f64; 3]| {
            DVec3::from_array(std::array::from_fn(|ax| {
                if hi[ax] {
                    size[ax] - off[ax]
                } else {
                    off[ax]
                }
            }))
        };
        let label = format!("c{k}");
        if round > 0.0 {
            g.sphere(&label, at([round; 3]), round);
        } else if bevel > 0.0 {
            let tri = vec![
                at([0.0, bevel, bevel]),
                at([bevel, 0.0, bevel]),
                at([bevel, bevel, 0.0]),
            ];
            let dir = DVec3::from_array(hi.map(|h| if h { 1.0 } else { -1.0 }));
            g.polygon(&label, tri, dir);
        }
    }
    Ok(g.out)
}

struct Gen<'a> {
    out: Vec<RawPrim>,
    mat: &'a str,
    name: &'a str,
    loc: &'a Loc,
    inward: bool,
}

impl Gen<'_> {
    fn push(&mut self, ptype: PrimType, label: &str, fargs: Vec<f64>) {
        self.out.push(RawPrim {
            modifier: self.mat.to_string(),
            ptype,
            name: format!("{}.{label}", self.name),
            sargs: Vec::new(),
            fargs,
            loc: self.loc.clone(),
        });
    }

    /// Adds a polygon whose normal points along `out_dir` (or against it for `-i`).
    fn polygon(&mut self, label: &str, mut v: Vec<DVec3>, out_dir: DVec3) {
        let n = (v[1] - v[0]).cross(v[2] - v[0]);
        if (n.dot(out_dir) < 0.0) != self.inward {
            v.reverse();
        }
        self.push_polygon(label, v);
    }

    fn push_polygon(&mut self, label: &str, v: Vec<DVec3>) {
        let f = v.iter().flat_map(|p| p.to_array()).collect();
        self.push(PrimType::Polygon, label, f);
    }

    fn cylinder(&mut self, label: &str, a: DVec3, b: DVec3, r: f64) {
        let t = if self.inward {
            PrimType::Tube
        } else {
            PrimType::Cylinder
        };
        let mut f: Vec<f64> = [a.to_array(), b.to_array()].concat();
        f.push(r);
        self.push(t, label, f);
    }

    fn sphere(&mut self, label: &str, c: DVec3, r: f64) {
        let t = if self.inward {
            PrimType::Bubble
        } else {
            PrimType::Sphere
        };
        self.push(t, label, vec![c.x, c.y, c.z, r]);
    }
}

/// Letters naming corners and bevel points in RADIANCE's genbox output, by point code.
const LETTERS: &[u8] = b"0123456789._ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The scene text RADIANCE's `genbox` writes for `args` (`mat name x y z [-i] [-b bevel | -r
/// round [-n nsegs]]`), byte for byte. Points are coded as RADIANCE codes them: bit `k` (k =
/// 0, 1, 2) puts the point on the far side of axis `k`, bit `k + 3` moves it in by the bevel
/// along that axis; `-i` mirrors every point through the centre. Rounded edges cut into more
/// than one segment (`-r` with `-i`, or with `-n` above 2), smoothing (`-s`) and OBJ output
/// (`-o`) go through RADIANCE's OBJ library and are refused.
pub fn genbox_text(args: &[String], loc: &Loc) -> Result<String> {
    use daylit_radfile::header::command_line;
    use daylit_radfile::printf::format_g18 as g;
    use daylit_radfile::scan::atof;
    use std::fmt::Write;
    let usage = "genbox: usage: genbox material name xsize ysize zsize [-i] [-b bevel | -r round [-n nsegs]]";
    let err = |m: String| SceneError::at(loc, m);
    if args.len() < 5 {
        return Err(err(usage.into()));
    }
    let size = [atof(&args[2]), atof(&args[3]), atof(&args[4])];
    if size.iter().any(|&s| s <= 0.0) {
        return Err(err(format!("genbox: sizes must be positive; {usage}")));
    }
    let (mut rev, mut round, mut bevel, mut nsegs) = (false, false, 0.0, 1i64);
    let mut i = 5;
    while i < args.len() {
        let w = args[i].as_bytes();
        let value = |i: usize| args.get(i + 1).map(String::as_str).unwrap_or("");
        match (w.first(), w.get(1)) {
            (Some(b'-'), Some(b'i')) => rev = true,
            (Some(b'-'), Some(b'r' | b'b')) => {
                round |= w[1] == b'r';
                bevel = atof(value(i));
                if bevel <= 0.0 {
                    return Err(err(format!("genbox: {} needs a positive size; {usage}", args[i])));
                }
                i += 1;
            }
            (Some(b'-'), Some(b'n')) => {
                nsegs = atof(value(i)) as i64;
                if nsegs <= 0 {
                    return Err(err(format!("genbox: -n needs a positive count; {usage}")));
                }
                i += 1;
            }
            (Some(b'-'), Some(b'o' | b's')) => {
                return Err(err(format!(
                    "genbox: {} (OBJ output, smoothing) goes through RADIANCE's OBJ library, which daylit does not have yet",
                    args[i]
                )))
            }
            _ => return Err(err(format!("genbox: unexpected \"{}\"; {usage}", args[i]))),
        }
        i += 1;
    }
    // RADIANCE cuts rounded edges into segments (32 with -i) through its OBJ library when
    // more than two are asked for.
    if rev && nsegs == 1 {
        nsegs = 32;
    }
    if round && nsegs > 2 {
        return Err(err(
            "genbox: rounded edges in segments (-r with -i, or with -n above 2) go through RADIANCE's OBJ library, which daylit does not have yet"
                .into(),
        ));
    }
    let (mat, name) = (&args[0], &args[1]);
    let point = |mut v: usize| {
        let mut s = String::new();
        for side in size {
            let far = (v & 1 == 1) != rev;
            let inset = if v & 0o10 != 0 { bevel } else { 0.0 };
            let x = if far { side - inset } else { inset };
            let _ = write!(s, "\t{}", g(x));
            v >>= 1;
        }
        s.push('\n');
        s
    };
    let label = |vs: &[usize]| vs.iter().map(|&v| LETTERS[v] as char).collect::<String>();
    let mut out = format!("# {}\n", command_line("genbox", args));
    let face = |out: &mut String, vs: &[usize]| {
        let _ = write!(
            out,
            "\n{mat} polygon {name}.{}\n0\n0\n{}\n",
            label(vs),
            3 * vs.len()
        );
        for &v in vs {
            out.push_str(&point(v));
        }
    };
    if bevel > 0.0 {
        for f in [
            [0o51, 0o55, 0o54, 0o50],
            [0o64, 0o66, 0o62, 0o60],
            [0o32, 0o33, 0o31, 0o30],
            [0o53, 0o52, 0o56, 0o57],
            [0o65, 0o61, 0o63, 0o67],
            [0o36, 0o34, 0o35, 0o37],
        ] {
            face(&mut out, &f);
        }
    }
    if bevel > 0.0 && !round {
        for f in [
            [0o31, 0o51, 0o50, 0o30],
            [0o60, 0o62, 0o32, 0o30],
            [0o50, 0o54, 0o64, 0o60],
            [0o34, 0o36, 0o66, 0o64],
            [0o37, 0o57, 0o56, 0o36],
            [0o52, 0o62, 0o66, 0o56],
            [0o52, 0o53, 0o33, 0o32],
            [0o57, 0o67, 0o63, 0o53],
            [0o61, 0o31, 0o33, 0o63],
            [0o65, 0o67, 0o37, 0o35],
            [0o55, 0o51, 0o61, 0o65],
            [0o34, 0o54, 0o55, 0o35],
        ] {
            face(&mut out, &f);
        }
        for c in [
            [0o30, 0o50, 0o60],
            [0o51, 0o31, 0o61],
            [0o32, 0o62, 0o52],
            [0o64, 0o54, 0o34],
            [0o36, 0o56, 0o66],
            [0o65, 0o35, 0o55],
            [0o53, 0o63, 0o33],
            [0o37, 0o67, 0o57],
        ] {
            face(&mut out, &c);
        }
    }
    if bevel > 0.0 && round {
        for (a, b) in [
            (0o70, 0o71),
            (0o70, 0o74),
            (0o70, 0o72),
            (0o73, 0o71),
            (0o73, 0o72),
            (0o73, 0o77),
            (0o75, 0o71),
            (0o75, 0o74),
            (0o75, 0o77),
            (0o76, 0o72),
            (0o76, 0o74),
            (0o76, 0o77),
        ] {
            let _ = write!(out, "\n{mat} cylinder {name}.{}\n0\n0\n7\n", label(&[a, b]));
            out.push_str(&point(a));
            out.push_str(&point(b));
            let _ = writeln!(out, "\t{}", g(bevel));
        }
        for c in 0o70..=0o77 {
            let _ = write!(out, "\n{mat} sphere {name}.{}\n0\n0\n4\n", label(&[c]));
            out.push_str(&point(c));
            let _ = writeln!(out, "\t{}", g(bevel));
        }
    }
    if bevel == 0.0 {
        for f in [
            [1, 5, 4, 0],
            [4, 6, 2, 0],
            [2, 3, 1, 0],
            [3, 2, 6, 7],
            [5, 1, 3, 7],
            [6, 4, 5, 7],
        ] {
            face(&mut out, &f);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_items, Item};

    /// A primitive's type and shape, independent of its name and of where its vertex list
    /// starts: polygons by their vertices (sorted) and normal, cylinders by their ends (either
    /// way round), spheres by their numbers.
    fn shape(p: &RawPrim) -> String {
        let r = |x: f64| format!("{:.9}", x + 0.0);
        if p.ptype == PrimType::Polygon {
            let v: Vec<DVec3> = p.fargs.chunks(3).map(DVec3::from_slice).collect();
            let n = (v[1] - v[0]).cross(v[2] - v[0]).normalize();
            let mut pts: Vec<String> = v
                .iter()
                .map(|q| format!("{} {} {}", r(q.x), r(q.y), r(q.z)))
                .collect();
            pts.sort();
            format!(
                "polygon {} n {} {} {}",
                pts.join(","),
                r(n.x),
                r(n.y),
                r(n.z)
            )
        } else {
            let mut f: Vec<String> = p.fargs.iter().map(|&x| r(x)).collect();
            if f.len() == 7 {
                // A cylinder is the same from either end.
                let (a, b) = (f[..3].join(" "), f[3..6].join(" "));
                f = vec![a.clone().min(b.clone()), a.max(b), f[6].clone()];
            }
            format!("{:?} {}", p.ptype, f.join(" "))
        }
    }

    fn shapes(prims: &[RawPrim]) -> Vec<String> {
        let mut s: Vec<String> = prims.iter().map(shape).collect();
        s.sort();
        s
    }

    /// RADIANCE's text (names and order as RADIANCE writes them) and the primitives scenes
    /// build directly describe the same surfaces, facing the same way.
    #[test]
    fn text_and_scene_primitives_agree() {
        let loc = Loc::new("test".into(), 1, 1);
        for args in [
            "m b 1 2 3",
            "m b 1 2 3 -i",
            "m b 1 2 3 -b .1",
            "m b 1 2 3 -i -b .1",
            "m b 1 2 3 -r .1",
        ] {
            let args: Vec<String> = args.split(' ').map(String::from).collect();
            let native = genbox(&args, &loc).unwrap();
            let text = genbox_text(&args, &loc).unwrap();
            let parsed: Vec<RawPrim> = parse_items(text.as_bytes(), "genbox".into())
                .unwrap()
                .into_iter()
                .filter_map(|it| match it {
                    Item::Prim(p) => Some(p),
                    _ => None,
                })
                .collect();
            assert_eq!(shapes(&native), shapes(&parsed), "{args:?}");
        }
    }
}
