//! RADIANCE's `genworm`, run natively: a tube along the curve `x(t)`, `y(t)`, `z(t)` with radius
//! `r(t)`, as `nseg + 1` spheres joined by `nseg` cylinders, or cones tangent to the two
//! spheres where the radius changes.

use crate::curve::Curve;
use crate::error::{Loc, Result, SceneError};
use crate::parse::RawPrim;
use crate::types::PrimType;
use daylit_cal::RayPath;
use glam::DVec3;

const USAGE: &str = "usage: genworm material name x(t) y(t) z(t) r(t) nseg [-e expr] [-f file]";

/// Radii closer than this make a cylinder (RADIANCE's genworm tolerance, its FTINY).
const FTINY: f64 = 1e-6;

/// Generates the primitives of `genworm mat name x(t) y(t) z(t) r(t) nseg [-e ..] [-f ..]`.
pub fn genworm(args: &[String], loc: &Loc, raypath: &RayPath) -> Result<Vec<RawPrim>> {
    if args.len() < 7 {
        return Err(SceneError::at(loc, format!("genworm: {USAGE}")));
    }
    let (mat, name) = (&args[0], &args[1]);
    let exprs: Vec<&str> = args[2..6].iter().map(String::as_str).collect();
    let mut curve = Curve::new("genworm", &exprs, &args[7..], raypath, loc, USAGE)?;
    let nseg = curve.segments(&args[6])?;
    let mut out = Vec::new();
    let mut push = |ptype, label: String, fargs: Vec<f64>| {
        out.push(RawPrim {
            modifier: mat.clone(),
            ptype,
            name: format!("{name}.{label}"),
            sargs: vec![],
            fargs,
            loc: loc.clone(),
        })
    };
    let mut last: Option<(DVec3, f64)> = None;
    for i in 0..=nseg {
        let v = curve.at(i as f64 / nseg as f64)?;
        let (p, r) = (DVec3::new(v[0], v[1], v[2]), v[3]);
        if let Some((p0, r0)) = last {
            if (r0 - r).abs() <= FTINY {
                let f = [p0.to_array(), p.to_array(), [r, 0.0, 0.0]].concat();
                push(PrimType::Cylinder, format!("c{i}"), f[..7].to_vec());
            } else {
                // The cone touching both spheres: its ends move along the axis by r·Δr/d²
                // (d the distance between the centres) and shrink by √(1 − Δr²/d²).
                let axis = p - p0;
                let k = (r0 - r) / axis.length_squared();
                let (a, b) = (p0 + k * r0 * axis, p + k * r * axis);
                let shrink = (1.0 - (r0 - r) * k).max(0.0).sqrt();
                let f = [a.to_array(), b.to_array(), [shrink * r0, shrink * r, 0.0]].concat();
                push(PrimType::Cone, format!("c{i}"), f[..8].to_vec());
            }
        }
        push(PrimType::Sphere, format!("s{i}"), vec![p.x, p.y, p.z, r]);
        last = Some((p, r));
    }
    Ok(out)
}
