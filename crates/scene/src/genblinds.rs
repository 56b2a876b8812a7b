//! RADIANCE's `genblinds`, run natively: venetian blinds of `nslats` slats, `depth` deep (x) and
//! `width` wide (y), evenly spaced over `height` (z) and tilted by `angle` degrees (positive
//! raises the +x edge); with `+r R` (curved up) or `-r R` (curved down) each slat is an arc
//! of radius R, made of flat strips each turning at most 3°.

use crate::error::{Loc, Result, SceneError};
use crate::parse::{parse_real, RawPrim};
use crate::types::PrimType;
use glam::DVec3;
use std::f64::consts::PI;

const USAGE: &str = "usage: genblinds mat name depth width height nslats angle [-r|+r rcurv]";

/// The largest turn between two strips of a curved slat, degrees.
const DELTA: f64 = 3.0;

/// Generates the primitives of `genblinds mat name depth width height nslats angle [±r R]`.
pub fn genblinds(args: &[String], loc: &Loc) -> Result<Vec<RawPrim>> {
    let err = |m: String| SceneError::at(loc, format!("genblinds: {m}"));
    if args.len() != 7 && args.len() != 9 {
        return Err(err(USAGE.into()));
    }
    let num =
        |w: &str| parse_real(w).ok_or_else(|| err(format!("expected a number, found \"{w}\"")));
    let (mat, name) = (&args[0], &args[1]);
    let (depth, width, height) = (num(&args[2])?, num(&args[3])?, num(&args[4])?);
    let nslats: usize = args[5].parse().map_err(|_| {
        err(format!(
            "expected a whole number of slats, found \"{}\"",
            args[5]
        ))
    })?;
    let angle = num(&args[6])?.to_radians();
    // +r curves the slats up, -r down.
    let (radius, up) = match args.get(7).map(String::as_str) {
        None => (0.0, false),
        Some(sign @ ("+r" | "-r")) => (num(&args[8])?.abs(), sign == "+r"),
        Some(w) => return Err(err(format!("unknown option \"{w}\"; {USAGE}"))),
    };
    if !(depth > 0.0 && width > 0.0 && height > 0.0 && nslats > 0) {
        return Err(err(
            "depth, width, height and the number of slats must be positive".into(),
        ));
    }
    if radius > 0.0 && depth > 2.0 * radius {
        return Err(err(format!(
            "a slat {depth} deep cannot bend to a radius of {radius} (at least half the depth)"
        )));
    }
    // The slat's profile in the xz plane, from its first edge at the origin.
    let profile: Vec<DVec3> = if radius == 0.0 {
        vec![
            DVec3::ZERO,
            DVec3::new(depth * angle.cos(), 0.0, depth * angle.sin()),
        ]
    } else {
        let theta = 2.0 * (depth / (2.0 * radius)).asin();
        let strips = (theta / DELTA.to_radians() + 0.99999) as usize;
        let step = theta / strips as f64;
        // The arc's end points lie symmetrically about the slat's tilted mid-line.
        let gamma = (PI - theta) / 2.0 - angle;
        let on_arc = |k: usize| {
            if up {
                let phi = gamma + k as f64 * step;
                DVec3::new(-phi.cos(), 0.0, phi.sin()) * radius
            } else {
                let psi = gamma + theta - k as f64 * step;
                DVec3::new(psi.cos(), 0.0, -psi.sin()) * radius
            }
        };
        let start = on_arc(0);
        (0..=strips).map(|k| on_arc(k) - start).collect()
    };
    let across = DVec3::new(0.0, width, 0.0);
    let mut out = Vec::new();
    for n in 1..=nslats {
        let lift = DVec3::new(0.0, 0.0, height * (n as f64 - 0.5) / nslats as f64);
        for (k, edge) in profile.windows(2).enumerate() {
            let (a, b) = (edge[0] + lift, edge[1] + lift);
            out.push(RawPrim {
                modifier: mat.clone(),
                ptype: PrimType::Polygon,
                name: format!("{name}.{n}.{k}"),
                sargs: vec![],
                fargs: [a, a + across, b + across, b]
                    .iter()
                    .flat_map(|p| p.to_array())
                    .collect(),
                loc: loc.clone(),
            });
        }
    }
    Ok(out)
}
