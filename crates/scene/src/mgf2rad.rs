//! RADIANCE's `mgf2rad`: MGF files as RADIANCE scene text, as RADIANCE 6.0a writes it.
//!
//! Each material is written where a surface first uses it after it changed, as one of
//! `light`/`glow` (emitting), `dielectric`/`glass` (clear and refracting), `WGMDfunc` (where
//! reflection and transmission need separate colours or roughnesses), `trans`, `plastic` or
//! `metal`; colours become RGB through their CIE chromaticity (or, with spectra asked for,
//! `spectrum` primitives). Faces are polygons, or where all their vertices have normals that
//! bend, triangles with a `Phong` texture through `tmesh.cal`; spheres, cylinders, cones and
//! rings stay themselves (inverted ones as bubbles, tubes and cups). Surfaces are named after
//! the last four object names and a count per kind. IES luminaires become `!xform` commands
//! of the files `ies2rad` makes. Comments pass through.

use crate::mgf::color::{self, Color, CMAXWL, CMINWL, CNSS, CWLI, DSPEC};
use crate::mgf::{err, Code, Geometry, Handler, Input, MgErr, MgfError, State, VERSION};
use crate::obj2rad::{barycentric, flat_tri, Flatness};
use daylit_radfile::printf::{format_g, format_g18};
use daylit_radfile::scan::atof;
use glam::DVec3;
use std::collections::HashMap;
use std::f64::consts::PI;
use std::fmt::Write;

/// RADIANCE's luminous efficacy of white light (lm/W), which turns MGF's lumens into watts.
const WHTEFFICACY: f64 = 179.0;
/// The thickness one-sided (dielectric) materials' transmittance is given for (m).
const ONE_SIDED_THICK: f64 = 0.005;
const FTINY: f64 = 1e-6;

/// What mgf2rad was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// `-m`: materials go to their own text ([`Output::materials`]).
    pub separate_materials: bool,
    /// `-e`: multiplier of emission.
    pub emult: f64,
    /// `-g`: emitters as `glow` with this radius (m) instead of `light`.
    pub glow: Option<f64>,
    /// `-s`: spectral colours as `spectrum` primitives.
    pub spectra: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            separate_materials: false,
            emult: 1.0,
            glow: None,
            spectra: false,
        }
    }
}

/// What mgf2rad writes.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// The scene text (materials too, without `-m`).
    pub scene: String,
    /// The materials (with `-m`).
    pub materials: String,
    /// Warnings (unknown entities).
    pub warnings: Vec<String>,
}

/// One input: a file's path, or standard input's text.
pub enum Source {
    /// A file.
    File(String),
    /// Standard input.
    Stdin(Vec<u8>),
}

/// Translates `inputs` in order; `program` is the name written in the comments and
/// `options` the options as given (written after it on the second line).
pub fn mgf2rad(
    inputs: Vec<Source>,
    program: &str,
    options: &[String],
    o: &Options,
) -> Result<Output, MgfError> {
    let mut t = Translator {
        o: o.clone(),
        scene: String::new(),
        materials: String::new(),
        counts: HashMap::new(),
        spectra: HashMap::new(),
    };
    let _ = writeln!(
        t.scene,
        "## Translated from MGF Version {}.{}",
        VERSION.0, VERSION.1
    );
    let mut line = format!("## {program}");
    for w in options {
        line.push(' ');
        line.push_str(w);
    }
    let _ = writeln!(t.scene, "{line}");
    let mut st = State::new();
    for input in inputs {
        match input {
            Source::Stdin(data) => {
                st.load(&mut t, Input::Stdin(data))?;
                if st.unknown > 0 {
                    let _ = writeln!(t.scene, "## {program}: {} unknown entities", st.unknown);
                }
            }
            Source::File(f) => {
                let _ = writeln!(t.scene, "## {program} {f} ##############################");
                st.load(&mut t, Input::File(&f))?;
                if st.unknown > 0 {
                    let _ = writeln!(t.scene, "## {program} {f}: {} unknown entities", st.unknown);
                }
            }
        }
    }
    Ok(Output {
        scene: t.scene,
        materials: t.materials,
        warnings: std::mem::take(&mut st.warnings),
    })
}

struct Translator {
    o: Options,
    scene: String,
    materials: String,
    /// Surfaces written so far, by name prefix (`f`, `t`, `c`, `cy`, `s`, `r`).
    counts: HashMap<&'static str, usize>,
    /// Spectra written, by name, to write again only when changed.
    spectra: HashMap<String, Color>,
}

/// `%18.12g` three times, as RADIANCE writes points.
fn putv(out: &mut String, v: [f64; 3]) {
    let _ = writeln!(
        out,
        "{} {} {}",
        format_g18(v[0]),
        format_g18(v[1]),
        format_g18(v[2])
    );
}

/// C's `%f`.
fn f6(v: f64) -> String {
    format!("{v:.6}")
}

fn rgb6(c: [f32; 3]) -> String {
    format!(
        "{} {} {}",
        f6(c[0] as f64),
        f6(c[1] as f64),
        f6(c[2] as f64)
    )
}

/// The XYZ to RGB matrix of RADIANCE's primaries, in the single precision it is kept in.
fn xyz2rgb() -> [[f32; 3]; 3] {
    let m = daylit_image::color::xyz_to_rgb_matrix();
    let mut out = [[0.0f32; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = m.col(j)[i] as f32;
        }
    }
    out
}

/// RGB of a CIE XYZ colour brought into the gamut below (RADIANCE's `cie_rgb`, in single
/// precision as it computes).
fn cie_rgb(xyz: [f32; 3]) -> [f32; 3] {
    let m = xyz2rgb();
    let mut c = [0.0f32; 3];
    for i in 0..3 {
        c[i] = m[i][0] * xyz[0] + m[i][1] * xyz[1] + m[i][2] * xyz[2];
    }
    let brt = xyz[1] as f64;
    if brt < 0.0 {
        return [0.0; 3];
    }
    let grey = brt as f32;
    let mut vv = 1.0f64;
    let mut clipped = false;
    for &v in &c {
        if v < 0.0 {
            // In single precision, as RADIANCE's colours are.
            vv = vv.min(((0.0f32 - grey) / (v - grey)) as f64);
            clipped = true;
        }
    }
    if clipped {
        for v in &mut c {
            *v = (vv * *v as f64 + (1.0 - vv) * grey as f64) as f32;
        }
    }
    c
}

/// RGB of `intensity` of a colour (through its chromaticity).
fn cvtcolor(c: &mut Color, intensity: f64) -> [f32; 3] {
    if intensity <= 0.0 {
        return [0.0; 3];
    }
    c.fix_xy();
    let y = intensity as f32;
    let x = c.cx / c.cy * y;
    let z = (y as f64 * (1.0 / c.cy as f64 - 1.0) - x as f64) as f32;
    cie_rgb([x, y, z])
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Is an RGB colour within 5 % (in luminance) of grey?
fn rgb_is_grey(c: [f32; 3]) -> bool {
    let y = daylit_image::color::brightness(c);
    let d2: f64 = c.iter().map(|&v| (y - v as f64) * (y - v as f64)).sum();
    d2 <= y * y * 0.0025
}

impl Translator {
    fn next(&mut self, kind: &'static str) -> usize {
        let n = self.counts.entry(kind).or_insert(0);
        *n += 1;
        *n
    }

    /// Where materials go.
    fn mat_out(&mut self) -> &mut String {
        if self.o.separate_materials {
            &mut self.materials
        } else {
            &mut self.scene
        }
    }

    /// RGB of `intensity` of a colour, or (with `-s`, for a spectral colour) grey and the
    /// name of a `spectrum` primitive (written where new or changed) that colours it.
    fn specolor(&mut self, clr: &mut Color, intensity: f64, generic: &str) -> ([f32; 3], String) {
        if !self.o.spectra || clr.flags & DSPEC == 0 || intensity <= FTINY {
            return (cvtcolor(clr, intensity), "void".into());
        }
        let grey = [intensity as f32; 3];
        let Some(cbeg) = clr.ssamp.iter().position(|&s| s != 0) else {
            return (grey, "void".into());
        };
        let name = match &clr.spectrum_name {
            Some(n) => {
                let name = format!("{n}*");
                match self.spectra.get(n) {
                    Some(old) if color::equivalent(clr, old) => return (grey, name),
                    _ => {
                        self.spectra.insert(n.clone(), clr.clone());
                    }
                }
                name
            }
            None => generic.to_string(),
        };
        clr.fix_eff();
        let cend = clr.ssamp.iter().rev().take_while(|&&s| s == 0).count();
        let dflt_eff = Color::default().eff;
        let mult = ((CNSS as f32 * dflt_eff) / (clr.ssum as f32 * clr.eff)) as f64;
        let out = self.mat_out();
        let _ = write!(
            out,
            "\nvoid spectrum {name}\n0\n0\n{} {} {}",
            CNSS + 2 - cbeg - cend,
            CMINWL + cbeg as i32 * CWLI,
            CMAXWL - cend as i32 * CWLI
        );
        for i in cbeg..CNSS - cend {
            if (i - cbeg + 1) % 6 == 0 {
                out.push('\n');
            }
            let _ = write!(out, "\t{:.5}", clr.ssamp[i] as f64 * mult);
        }
        out.push('\n');
        (grey, name)
    }

    /// The current material's name, its definition written first where it changed since it
    /// was last written.
    fn material(&mut self, st: &mut State) -> Result<String, MgErr> {
        let mname = st.material_name().unwrap_or("mat").to_string();
        if st.material().clock == 0 {
            return Ok(mname);
        }
        let mut m = st.material().clone();
        m.clock = 0;
        let r = self.write_material(&mut m, &mname);
        // The colour conversions made on the way are kept, as RADIANCE keeps them.
        *st.material_mut() = m;
        r.map(|()| mname)
    }

    fn write_material(&mut self, m: &mut crate::mgf::Material, mname: &str) -> Result<(), MgErr> {
        if m.ed > 0.1 {
            let i = self.o.emult * m.ed as f64 / (PI * WHTEFFICACY);
            let mut c = m.ed_c.clone();
            let (rgb, pname) = self.specolor(&mut c, i, "spec*");
            m.ed_c = c;
            let glow = self.o.glow;
            let out = self.mat_out();
            match glow {
                Some(g) => {
                    let _ = write!(
                        out,
                        "\n{pname} glow {mname}\n0\n0\n4 {} {}\n",
                        rgb6(rgb),
                        f6(g)
                    );
                }
                None => {
                    let _ = write!(out, "\n{pname} light {mname}\n0\n0\n3 {}\n", rgb6(rgb));
                }
            }
            return Ok(());
        }
        let d = (m.rd + m.td + m.rs + m.ts) as f64;
        if !(0.0..=1.0).contains(&d) {
            return Err(err(
                Code::BadMaterial,
                format!("rd + td + rs + ts must be from 0 to 1, is {}", format_g(d)),
            ));
        }
        if (m.nr as f64) > 1.1
            && (m.ts as f64) > 0.25
            && (m.rs as f64) <= 0.125
            && (m.td as f64) <= 0.01
            && (m.rd as f64) <= 0.01
            && (m.rs_a as f64) <= 0.01
            && (m.ts_a as f64) <= 0.01
        {
            let mut rgb = cvtcolor(&mut m.ts_c, (m.ts + m.rs) as f64);
            let out = self.mat_out();
            if m.sided {
                for v in &mut rgb {
                    *v = (*v as f64).powf(1.0 / ONE_SIDED_THICK) as f32;
                }
                let _ = write!(
                    out,
                    "\nvoid dielectric {mname}\n0\n0\n5 {} {} {} {} 0\n",
                    format_g(rgb[0] as f64),
                    format_g(rgb[1] as f64),
                    format_g(rgb[2] as f64),
                    f6(m.nr as f64)
                );
            } else {
                let _ = write!(
                    out,
                    "\nvoid glass {mname}\n0\n0\n4 {} {}\n",
                    rgb6(rgb),
                    f6(m.nr as f64)
                );
            }
            return Ok(());
        }
        if self.wgmd(m) {
            let mut c = m.rs_c.clone();
            let (mut rs_rgb, mut rs_p) = self.specolor(&mut c, m.rs as f64, "rs_spec*");
            m.rs_c = c;
            let mut c = m.ts_c.clone();
            let (mut ts_rgb, mut ts_p) = self.specolor(&mut c, m.ts as f64, "ts_spec*");
            m.ts_c = c;
            let mut c = m.td_c.clone();
            let (td_rgb, td_p) = self.specolor(&mut c, m.td as f64, "td_spec*");
            m.td_c = c;
            let mut c = m.rd_c.clone();
            let (rgb, pname) = self.specolor(&mut c, m.rd as f64, "spec*");
            m.rd_c = c;
            let out = self.mat_out();
            // A colour RGB cannot give as a grey takes a pattern of its own.
            if rs_p == "void" && !rgb_is_grey(rs_rgb) {
                rs_p = "rs_rgb*".into();
                let _ = write!(out, "\nvoid colorfunc {rs_p}\n4 {} .\n0\n0\n", rgb6(rs_rgb));
                rs_rgb[1] = 1.0;
            }
            if ts_p == "void" && !rgb_is_grey(ts_rgb) {
                ts_p = "ts_rgb*".into();
                let _ = write!(out, "\nvoid colorfunc {ts_p}\n4 {} .\n0\n0\n", rgb6(ts_rgb));
                ts_rgb[1] = 1.0;
            }
            let _ = write!(out, "\n{pname} WGMDfunc {mname}\n");
            let (rsa, tsa) = (f6(m.rs_a as f64), f6(m.ts_a as f64));
            let _ = writeln!(out, "13\t{rs_p} {} {rsa} {rsa}", f6(rs_rgb[1] as f64));
            let _ = writeln!(out, "\t{ts_p} {} {tsa} {tsa}", f6(ts_rgb[1] as f64));
            let _ = write!(out, "\t{td_p}\n\t0 0 1 .\n0\n");
            let _ = writeln!(out, "9\t{}", rgb6(rgb));
            let _ = writeln!(out, "\t{}", rgb6(rgb));
            let _ = writeln!(out, "\t{}", rgb6(td_rgb));
            return Ok(());
        }
        if ((m.td + m.ts) as f64) > 0.01 {
            let d = (m.rd + m.td + m.ts) as f64;
            let mut rgb = cvtcolor(&mut m.rd_c, m.rd as f64 / d);
            rgb = add(rgb, cvtcolor(&mut m.td_c, m.td as f64 / d));
            rgb = add(rgb, cvtcolor(&mut m.ts_c, m.ts as f64 / d));
            // RADIANCE leaves the roughness unset without specular components; it is 0 here.
            let a5 = if ((m.rs + m.ts) as f64) > 0.0001 {
                ((m.rs * m.rs_a + m.ts * m.ts_a) / (m.rs + m.ts)) as f64
            } else {
                0.0
            };
            let a6 = ((m.td + m.ts) / (m.rd + m.td + m.ts)) as f64;
            let scale = if a6 < 0.999 {
                m.rd as f64 / (1.0 - m.rs as f64) / (1.0 - a6)
            } else {
                (m.td + m.ts) as f64
            };
            for v in &mut rgb {
                *v = (*v as f64 * scale) as f32;
            }
            let tt = (m.ts / (m.ts + m.td)) as f64;
            let out = self.mat_out();
            let _ = write!(
                out,
                "\nvoid trans {mname}\n0\n0\n7 {}\n\t{} {} {} {}\n",
                rgb6(rgb),
                f6(m.rs as f64),
                f6(a5),
                f6(a6),
                f6(tt)
            );
            return Ok(());
        }
        if (m.rs as f64) < 0.1 && ((m.rs as f64) < 0.1 * m.rd as f64 || m.rs_c.is_grey()) {
            let mut c = m.rd_c.clone();
            let (rgb, pname) = self.specolor(&mut c, m.rd as f64 / (1.0 - m.rs as f64), "spec*");
            m.rd_c = c;
            let _ = write!(
                self.mat_out(),
                "\n{pname} plastic {mname}\n0\n0\n5 {} {} {}\n",
                rgb6(rgb),
                f6(m.rs as f64),
                f6(m.rs_a as f64)
            );
            return Ok(());
        }
        // Metal.
        let (rgb, pname) = if color::equivalent(&m.rd_c, &m.rs_c) {
            let mut c = m.rs_c.clone();
            let r = self.specolor(&mut c, (m.rs + m.rd) as f64, "spec*");
            m.rs_c = c;
            r
        } else if m.rd <= 0.05f32 {
            let mut c = m.rs_c.clone();
            let (rgb, p) = self.specolor(&mut c, m.rs as f64, "spec*");
            m.rs_c = c;
            (add(rgb, cvtcolor(&mut m.rd_c, m.rd as f64)), p)
        } else {
            let a = cvtcolor(&mut m.rd_c, m.rd as f64);
            (
                add(a, cvtcolor(&mut m.rs_c, m.rs as f64)),
                "void".to_string(),
            )
        };
        let _ = write!(
            self.mat_out(),
            "\n{pname} metal {mname}\n0\n0\n5 {} {} {}\n",
            rgb6(rgb),
            f6((m.rs / (m.rd + m.rs)) as f64),
            f6(m.rs_a as f64)
        );
        Ok(())
    }

    /// Does the material need `WGMDfunc`: specular reflection and transmission of different
    /// roughness, a coloured specular reflection unlike the diffuse, or components of
    /// different colours?
    fn wgmd(&self, m: &crate::mgf::Material) -> bool {
        let clash = |a: (f32, &Color), b: (f32, &Color)| {
            a.0 as f64 > 0.01 && b.0 as f64 > 0.01 && !color::equivalent(a.1, b.1)
        };
        let (rd, td, ts) = ((m.rd, &m.rd_c), (m.td, &m.td_c), (m.ts, &m.ts_c));
        ((m.rs as f64) > 0.02 && (m.ts as f64) > 0.02 && ((m.rs_a - m.ts_a).abs() as f64) > 0.02)
            || ((m.rs as f64) > 0.05
                && (m.rd as f64) > 0.05
                && !m.rs_c.is_grey()
                && !color::equivalent(&m.rd_c, &m.rs_c))
            || clash(ts, td)
            || clash(td, rd)
            || clash(rd, ts)
    }

    /// The surface name's prefix: the last four object names (as fit in 63 characters), each
    /// followed by `.`.
    fn object(st: &State) -> String {
        let names = st.objects();
        let mut s = String::new();
        for n in &names[names.len().saturating_sub(4)..] {
            if s.len() + n.len() >= 63 {
                break;
            }
            s.push_str(n);
            s.push('.');
        }
        s
    }

    fn face(&mut self, st: &mut State, av: &[String]) -> Result<(), MgErr> {
        let ac = av.len();
        if ac < 4 {
            return Err(err(Code::ArgCount, "f takes at least 3 vertices"));
        }
        let mat = self.material(st)?;
        let mut rev = st.xf_reversed();
        if ac <= 5 {
            let mut vs = Vec::new();
            let mut all_normals = true;
            for w in &av[1..] {
                let v = st.need_vertex(w)?.clone();
                let zero = DVec3::from_array(v.n).length_squared() <= FTINY * FTINY;
                vs.push(v);
                if zero {
                    all_normals = false;
                    break;
                }
            }
            let flat = if all_normals {
                let p = |k: usize| DVec3::from_array(vs[k].p);
                let n = |k: usize| DVec3::from_array(vs[k].n);
                flat_tri(p(0), p(1), p(2), n(0), n(1), n(2))
            } else {
                Flatness::Flat
            };
            let bent = match flat {
                Flatness::Degenerate => return Ok(()),
                Flatness::ReversedBent => {
                    rev = !rev;
                    true
                }
                Flatness::ReversedFlat => {
                    rev = !rev;
                    false
                }
                Flatness::Bent => true,
                Flatness::Flat => false,
            };
            if bent {
                self.tri(st, &mat, [&vs[0], &vs[1], &vs[2]], rev);
                if ac == 5 {
                    self.tri(st, &mat, [&vs[2], &vs[3], &vs[0]], rev);
                }
                return Ok(());
            }
        }
        let mut pts = Vec::with_capacity(ac - 1);
        for i in 1..ac {
            let w = if rev { &av[ac - i] } else { &av[i] };
            pts.push(st.xf_point(st.need_vertex(w)?.p));
        }
        let n = self.next("f");
        let name = Self::object(st);
        let _ = write!(
            self.scene,
            "\n{mat} polygon {name}f{n}\n0\n0\n{}\n",
            3 * (ac - 1)
        );
        for p in pts {
            putv(&mut self.scene, p);
        }
        Ok(())
    }

    /// A triangle whose normals bend: a `Phong` texture interpolating them, and the polygon.
    fn tri(&mut self, st: &State, mat: &str, mut v: [&crate::mgf::Vertex; 3], rev: bool) {
        if rev {
            v.swap(0, 2);
        }
        let p: Vec<DVec3> = v
            .iter()
            .map(|c| DVec3::from_array(st.xf_point(c.p)))
            .collect();
        let Some((ax, tm)) = barycentric(p[0], p[1], p[2]) else {
            return;
        };
        let _ = write!(
            self.scene,
            "\n{mat} texfunc Phong\n4 dx dy dz tmesh.cal\n0\n"
        );
        let n: Vec<[f64; 3]> = v.iter().map(|c| st.xf_rotate(c.n)).collect();
        let _ = writeln!(self.scene, "10\t{ax}");
        for ((n0, n1), n2) in n[0].iter().zip(n[1]).zip(n[2]) {
            let (a, b, c) = (n0 - n2, n1 - n2, n2);
            let _ = writeln!(
                self.scene,
                "{:14.8} {:14.8} {:14.8}",
                tm[0][0] * a + tm[1][0] * b,
                tm[0][1] * a + tm[1][1] * b,
                tm[0][2] * a + tm[1][2] * b + c
            );
        }
        let k = self.next("t");
        let name = Self::object(st);
        let _ = write!(self.scene, "\nT-nor polygon {name}t{k}\n0\n0\n9\n");
        for q in p {
            putv(&mut self.scene, q.to_array());
        }
    }

    fn number(w: &str) -> Result<f64, MgErr> {
        if daylit_radfile::scan::is_float(w.as_bytes()) {
            Ok(atof(w))
        } else {
            Err(err(
                Code::ArgType,
                format!("expected a number, found \"{w}\""),
            ))
        }
    }

    fn cone(&mut self, st: &mut State, av: &[String]) -> Result<(), MgErr> {
        if av.len() != 5 {
            return Err(err(Code::ArgCount, "cone takes v1 rad1 v2 rad2"));
        }
        let (r1, r2) = (Self::number(&av[2])?, Self::number(&av[4])?);
        let p1 = st.xf_point(st.need_vertex(&av[1])?.p);
        let p2 = st.xf_point(st.need_vertex(&av[3])?.p);
        let (mut r1, mut r2) = (st.xf_scale(r1), st.xf_scale(r2));
        let mut inv = r1 < 0.0;
        if r1 == 0.0 {
            if r2 == 0.0 {
                return Err(err(Code::Illegal, "a cone's radii must not both be 0"));
            }
            inv = r2 < 0.0;
        } else if r2 != 0.0 && inv != (r2 < 0.0) {
            return Err(err(Code::Illegal, "a cone's radii must have the same sign"));
        }
        if inv {
            (r1, r2) = (-r1, -r2);
        }
        let mat = self.material(st)?;
        let n = self.next("c");
        let name = Self::object(st);
        let kind = if inv { "cup" } else { "cone" };
        let _ = write!(self.scene, "\n{mat} {kind} {name}c{n}\n0\n0\n8\n");
        putv(&mut self.scene, p1);
        putv(&mut self.scene, p2);
        let _ = writeln!(self.scene, "{} {}", format_g18(r1), format_g18(r2));
        Ok(())
    }

    fn cylinder(&mut self, st: &mut State, av: &[String]) -> Result<(), MgErr> {
        if av.len() != 4 {
            return Err(err(Code::ArgCount, "cyl takes v1 radius v2"));
        }
        let r = Self::number(&av[2])?;
        let p1 = st.xf_point(st.need_vertex(&av[1])?.p);
        let p2 = st.xf_point(st.need_vertex(&av[3])?.p);
        let r = st.xf_scale(r);
        let mat = self.material(st)?;
        let n = self.next("cy");
        let name = Self::object(st);
        let kind = if r < 0.0 { "tube" } else { "cylinder" };
        let _ = write!(self.scene, "\n{mat} {kind} {name}cy{n}\n0\n0\n7\n");
        putv(&mut self.scene, p1);
        putv(&mut self.scene, p2);
        let _ = writeln!(self.scene, "{}", format_g18(r.abs()));
        Ok(())
    }

    fn sphere(&mut self, st: &mut State, av: &[String]) -> Result<(), MgErr> {
        if av.len() != 3 {
            return Err(err(
                Code::ArgCount,
                "sph takes a centre vertex and a radius",
            ));
        }
        let r = Self::number(&av[2])?;
        let c = st.xf_point(st.need_vertex(&av[1])?.p);
        let r = st.xf_scale(r);
        let mat = self.material(st)?;
        let n = self.next("s");
        let name = Self::object(st);
        let kind = if r < 0.0 { "bubble" } else { "sphere" };
        let _ = writeln!(
            self.scene,
            "\n{mat} {kind} {name}s{n}\n0\n0\n4 {} {} {} {}",
            format_g18(c[0]),
            format_g18(c[1]),
            format_g18(c[2]),
            format_g18(r.abs())
        );
        Ok(())
    }

    fn ring(&mut self, st: &mut State, av: &[String]) -> Result<(), MgErr> {
        if av.len() != 4 {
            return Err(err(
                Code::ArgCount,
                "ring takes a centre vertex and two radii",
            ));
        }
        let (r1, r2) = (Self::number(&av[2])?, Self::number(&av[3])?);
        let v = st.need_vertex(&av[1])?.clone();
        if DVec3::from_array(v.n).length_squared() <= FTINY * FTINY {
            return Err(err(
                Code::Illegal,
                format!("ring centre \"{}\" needs a normal", av[1]),
            ));
        }
        let c = st.xf_point(v.p);
        let nrm = st.xf_rotate(v.n);
        let (r1, r2) = (st.xf_scale(r1), st.xf_scale(r2));
        if r1 < 0.0 || r2 <= r1 {
            return Err(err(
                Code::Illegal,
                "a ring's inner radius must not be negative, and below the outer",
            ));
        }
        let mat = self.material(st)?;
        let n = self.next("r");
        let name = Self::object(st);
        let _ = write!(self.scene, "\n{mat} ring {name}r{n}\n0\n0\n8\n");
        putv(&mut self.scene, c);
        putv(&mut self.scene, nrm);
        let _ = writeln!(self.scene, "{} {}", format_g18(r1), format_g18(r2));
        Ok(())
    }

    /// `ies file [-m mult] [xform]`: the luminaire RADIANCE's `ies2rad` makes of the file (run
    /// where its `.rad` file is not in the current folder yet), placed by `!xform`.
    fn ies(&mut self, st: &mut State, av: &[String]) -> Result<(), MgErr> {
        if av.len() < 2 {
            return Err(err(Code::ArgCount, "ies takes a file name"));
        }
        let base = av[1].rsplit('/').next().unwrap_or(&av[1]);
        let stem = base.rfind('.').map_or(base, |k| &base[..k]);
        let radfile = format!("{stem}.rad");
        let mut xa0 = 2;
        if !std::path::Path::new(&radfile).exists() {
            let mut args: Vec<String> = Vec::new();
            if av.len() >= 4 && av[2] == "-m" {
                Self::number(&av[3])?;
                args.extend(["-m".to_string(), av[3].clone()]);
                xa0 = 4;
            }
            let cur = st.file_name().unwrap_or("");
            let ies = match cur.rfind('/') {
                Some(k) => format!("{}{}", &cur[..=k], av[1]),
                None => av[1].clone(),
            };
            if !std::path::Path::new(&ies).exists() {
                return Err(err(Code::NoFile, format!("{ies}: no such IES file")));
            }
            args.push(ies);
            let _ = std::process::Command::new("ies2rad").args(&args).status();
            if !std::path::Path::new(&radfile).exists() {
                return Err(err(
                    Code::Include,
                    format!("ies2rad did not make {radfile}"),
                ));
            }
        }
        let _ = write!(self.scene, "\n!xform");
        let obj = Self::object(st);
        if !obj.is_empty() {
            let _ = write!(self.scene, " -n {}", &obj[..obj.len() - 1]);
        }
        for w in &av[xa0..] {
            let _ = write!(self.scene, " {w}");
        }
        let xfw = st.xf_words();
        if av.len() > xa0 && !xfw.is_empty() {
            self.scene.push_str(" -i 1");
        }
        for w in xfw {
            let _ = write!(self.scene, " {w}");
        }
        let _ = writeln!(self.scene, " {radfile}");
        Ok(())
    }
}

impl Handler for Translator {
    fn comment(&mut self, words: &[String]) {
        self.scene.push('#');
        for w in &words[1..] {
            self.scene.push(' ');
            self.scene.push_str(w);
        }
        self.scene.push('\n');
    }

    fn geometry(&mut self, st: &mut State, kind: Geometry, av: &[String]) -> Result<(), MgErr> {
        match kind {
            Geometry::Face => self.face(st, av),
            Geometry::Sphere => self.sphere(st, av),
            Geometry::Cylinder => self.cylinder(st, av),
            Geometry::Cone => self.cone(st, av),
            Geometry::Ring => self.ring(st, av),
            Geometry::Ies => self.ies(st, av),
        }
    }
}
