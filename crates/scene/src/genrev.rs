//! RADIANCE's `genrev`, run natively: a surface of revolution about the z axis from a profile
//! `z(t)`, `r(t)` sampled at `nseg` even steps of `t`, as cones, cups, cylinders, tubes and
//! rings (normals outward where z rises, inward where it falls), and with `-s` a Phong
//! texture per segment (`rev.cal`) that blends the neighbouring segments' normals.

use crate::curve::Curve;
use crate::error::{Loc, Result, SceneError};
use daylit_cal::RayPath;
use daylit_radfile::header::command_line;
use daylit_radfile::printf::format_g18 as g;
use std::fmt::Write;

const USAGE: &str = "usage: genrev material name z(t) r(t) nseg [-e expr] [-f file] [-s]";

/// Changes smaller than this are no change (RADIANCE's genrev tolerance).
const FTINY: f64 = 1e-9;

/// The unit normal (z, r components) of the profile segment from (z0, r0) to (z1, r1).
fn normal(z0: f64, r0: f64, z1: f64, r1: f64) -> (f64, f64) {
    let (nz, nr) = (r0 - r1, z1 - z0);
    let len = (nr * nr + nz * nz).sqrt();
    (nz / len, nr / len)
}

/// The scene text `genrev mat name z(t) r(t) nseg [-e expr] [-f file] [-s]` writes, as
/// RADIANCE's genrev writes it.
pub fn genrev(args: &[String], loc: &Loc, raypath: &RayPath) -> Result<String> {
    if args.len() < 5 {
        return Err(SceneError::at(loc, format!("genrev: {USAGE}")));
    }
    let (mat, name) = (&args[0], &args[1]);
    let smooth = args[5..].iter().any(|a| a == "-s");
    let options: Vec<String> = args[5..].iter().filter(|a| *a != "-s").cloned().collect();
    let mut curve = Curve::new(
        "genrev",
        "t",
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
    let mut out = format!("# {}\n", command_line("genrev", args));
    let modifier = if smooth { "Phong" } else { mat.as_str() };
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
            // The z perturbation as a linear function of z, the radial one of r; a segment
            // that does not move along an axis keeps that component constant.
            let along = |before: f64, after: f64, v0: f64, v1: f64| {
                let slope = (after - before) / (v1 - v0);
                format!("\t{}\t{}\n", g(slope), g(before - slope * v0))
            };
            let _ = write!(
                out,
                "\n{mat} texfunc Phong\n4 rev_dx rev_dy rev_dz rev.cal\n0\n4\n"
            );
            out += &if up || down {
                along(before.0, after.0, z0, z1)
            } else {
                format!("\t0\t{}\n", if inward { 1 } else { -1 })
            };
            out += &if outward || inward {
                along(before.1, after.1, r0, r1)
            } else {
                format!("\t0\t{}\n", if up { 1 } else { -1 })
            };
        }
        if !(outward || inward) {
            let t = if down { "tube" } else { "cylinder" };
            let _ = write!(
                out,
                "\n{modifier} {t} {name}.{i}\n0\n0\n7\n\t0\t0\t{}\n\t0\t0\t{}\n\t{}\n",
                g(z0),
                g(z1),
                g(r1)
            );
        } else {
            // A ring's lines are its centre height and normal, a cone's its two heights.
            let (t, first, second) = if !(up || down) {
                ("ring", z1, if inward { 1.0 } else { -1.0 })
            } else if down {
                ("cup", z0, z1)
            } else {
                ("cone", z0, z1)
            };
            let _ = write!(
                out,
                "\n{modifier} {t} {name}.{i}\n0\n0\n8\n\t0\t0\t{}\n\t0\t0\t{}\n\t{}\t{}\n",
                g(first),
                g(second),
                g(r0),
                g(r1)
            );
        }
    }
    Ok(out)
}
