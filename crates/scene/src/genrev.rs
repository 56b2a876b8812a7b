//! RADIANCE's `genrev`, run natively: a surface of revolution about the z axis from a profile
//! `z(t)`, `r(t)` sampled at `nseg` even steps of `t`, as cones, cups, cylinders, tubes and
//! rings (normals outward where z rises, inward where it falls), and with `-s` a Phong
//! texture per segment (`rev.cal`) that blends the neighbouring segments' normals.

use crate::curve::Curve;
use crate::error::{Loc, Result, SceneError};
use crate::parse::RawPrim;
use crate::types::PrimType;
use daylit_cal::RayPath;

const USAGE: &str = "usage: genrev material name z(t) r(t) nseg [-e expr] [-f file] [-s]";

/// Changes smaller than this are no change (RADIANCE's genrev tolerance).
const FTINY: f64 = 1e-9;

/// The unit normal (z, r components) of the profile segment from (z0, r0) to (z1, r1).
fn normal(z0: f64, r0: f64, z1: f64, r1: f64) -> (f64, f64) {
    let (nz, nr) = (r0 - r1, z1 - z0);
    let len = nz.hypot(nr);
    (nz / len, nr / len)
}

/// Generates the primitives of `genrev mat name z(t) r(t) nseg [-e expr] [-f file] [-s]`.
pub fn genrev(args: &[String], loc: &Loc, raypath: &RayPath) -> Result<Vec<RawPrim>> {
    if args.len() < 5 {
        return Err(SceneError::at(loc, format!("genrev: {USAGE}")));
    }
    let (mat, name) = (&args[0], &args[1]);
    let smooth = args[5..].iter().any(|a| a == "-s");
    let options: Vec<String> = args[5..].iter().filter(|a| *a != "-s").cloned().collect();
    let mut curve = Curve::new(
        "genrev",
        &[&args[2], &args[3]],
        &options,
        raypath,
        loc,
        USAGE,
    )?;
    let nseg = curve.segments(&args[4])?;
    let profile: Vec<(f64, f64)> = (0..=nseg)
        .map(|i| curve.at(i as f64 / nseg as f64).map(|v| (v[0], v[1])))
        .collect::<Result<_>>()?;
    // Each segment's normal; the blend at a segment runs from the one before to the one after.
    let normals: Vec<(f64, f64)> = profile
        .windows(2)
        .map(|w| normal(w[0].0, w[0].1, w[1].0, w[1].1))
        .collect();
    let mut out = Vec::new();
    let modifier = if smooth { "Phong" } else { mat.as_str() };
    let mut push = |modifier: &str, ptype, name: String, sargs: Vec<String>, fargs: Vec<f64>| {
        out.push(RawPrim {
            modifier: modifier.to_string(),
            ptype,
            name,
            sargs,
            fargs,
            loc: loc.clone(),
        })
    };
    for i in 1..=nseg {
        let ((z0, r0), (z1, r1)) = (profile[i - 1], profile[i]);
        let up = z1 > z0 + FTINY;
        let down = z1 < z0 - FTINY;
        let outward = r1 > r0 + FTINY;
        let inward = r1 < r0 - FTINY;
        if !(up || down || outward || inward) {
            continue;
        }
        if smooth {
            let before = if i > 1 { normals[i - 2] } else { (0.0, 0.0) };
            let after = normals.get(i).copied().unwrap_or((0.0, 0.0));
            // The z perturbation as a linear function of z, the radial one of r; a
            // segment that does not move along an axis keeps that component constant.
            let along = |before: f64, after: f64, v0: f64, v1: f64| {
                let slope = (after - before) / (v1 - v0);
                [slope, before - slope * v0]
            };
            let mut f = Vec::with_capacity(4);
            f.extend(if up || down {
                along(before.0, after.0, z0, z1)
            } else {
                [0.0, if inward { 1.0 } else { -1.0 }]
            });
            f.extend(if outward || inward {
                along(before.1, after.1, r0, r1)
            } else {
                [0.0, if up { 1.0 } else { -1.0 }]
            });
            let sargs = ["rev_dx", "rev_dy", "rev_dz", "rev.cal"].map(String::from);
            push(mat, PrimType::Texfunc, "Phong".into(), sargs.to_vec(), f);
        }
        let label = format!("{name}.{i}");
        if !(outward || inward) {
            let t = if down {
                PrimType::Tube
            } else {
                PrimType::Cylinder
            };
            push(
                modifier,
                t,
                label,
                vec![],
                vec![0.0, 0.0, z0, 0.0, 0.0, z1, r1],
            );
        } else if !(up || down) {
            let nz = if inward { 1.0 } else { -1.0 };
            push(
                modifier,
                PrimType::Ring,
                label,
                vec![],
                vec![0.0, 0.0, z1, 0.0, 0.0, nz, r0, r1],
            );
        } else {
            let t = if down { PrimType::Cup } else { PrimType::Cone };
            push(
                modifier,
                t,
                label,
                vec![],
                vec![0.0, 0.0, z0, 0.0, 0.0, z1, r0, r1],
            );
        }
    }
    Ok(out)
}
