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
