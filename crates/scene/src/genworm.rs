//! RADIANCE's `genworm`, run natively: a tube along the curve `x(t)`, `y(t)`, `z(t)` with radius
//! `r(t)`, as `nseg + 1` spheres joined by `nseg` cylinders, or cones tangent to the two
//! spheres where the radius changes.

use crate::curve::Curve;
use crate::error::{Loc, Result, SceneError};
use daylit_cal::RayPath;
use daylit_radfile::header::command_line;
use daylit_radfile::printf::format_g18 as g;
use glam::DVec3;
use std::fmt::Write;

const USAGE: &str = "usage: genworm material name x(t) y(t) z(t) r(t) nseg [-e expr] [-f file]";

/// Radii closer than this make a cylinder (RADIANCE's genworm tolerance, its FTINY).
const FTINY: f64 = 1e-6;

/// The scene text `genworm mat name x(t) y(t) z(t) r(t) nseg [-e ..] [-f ..]` writes, as
/// RADIANCE's genworm writes it.
pub fn genworm(args: &[String], loc: &Loc, raypath: &RayPath) -> Result<String> {
    if args.len() < 7 {
        return Err(SceneError::at(loc, format!("genworm: {USAGE}")));
    }
    let (mat, name) = (&args[0], &args[1]);
    let exprs: Vec<&str> = args[2..6].iter().map(String::as_str).collect();
    let mut curve = Curve::new("genworm", "t", &exprs, &args[7..], raypath, loc, USAGE)?;
    let nseg = curve.segments(&args[6])?;
    let mut out = format!("# {}\n", command_line("genworm", args));
    let point = |p: DVec3| format!("{} {} {}\n", g(p.x), g(p.y), g(p.z));
    let mut last: Option<(DVec3, f64)> = None;
    for i in 0..=nseg {
        let v = curve.at(i as f64 / nseg as f64)?;
        let (p, r) = (DVec3::new(v[0], v[1], v[2]), v[3]);
        if let Some((p0, r0)) = last {
            if (r0 - r).abs() <= FTINY {
                let _ = write!(out, "\n{mat} cylinder {name}.c{i}\n0\n0\n7\n");
                out += &(point(p0) + &point(p) + &g(r) + "\n");
            } else {
                // The cone touching both spheres: its ends move along the axis by r·Δr/d²
                // (d the distance between the centres) and shrink by √(1 − Δr²/d²).
                let axis = p - p0;
                let k = (r0 - r) / axis.length_squared();
                let (a, b) = (p0 + k * r0 * axis, p + k * r * axis);
                let shrink = (1.0 - (r0 - r) * k).max(0.0).sqrt();
                let _ = write!(out, "\n{mat} cone {name}.c{i}\n0\n0\n8\n");
                out += &(point(a) + &point(b));
                let _ = writeln!(out, "{} {}", g(shrink * r0), g(shrink * r));
            }
        }
        let _ = write!(
            out,
            "\n{mat} sphere {name}.s{i}\n0\n0\n4 {} {} {} {}\n",
            g(p.x),
            g(p.y),
            g(p.z),
            g(r)
        );
        last = Some((p, r));
    }
    Ok(out)
}
