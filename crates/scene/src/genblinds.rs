//! RADIANCE's `genblinds`, run natively: venetian blinds of `nslats` slats, `depth` deep (x) and
//! `width` wide (y), evenly spaced over `height` (z) and tilted by `angle` degrees (positive
//! raises the +x edge); with `+r R` (curved up) or `-r R` (curved down) each slat is an arc
//! of radius R, made of flat strips each turning at most 3°.

use crate::error::{Loc, Result, SceneError};
use crate::parse::parse_real;
use daylit_radfile::header::command_line;
use daylit_radfile::printf::format_g18 as g;
use std::f64::consts::PI;
use std::fmt::Write;

const USAGE: &str = "usage: genblinds mat name depth width height nslats angle [-r|+r rcurv]";

/// The most polygons made (a typing slip must not exhaust memory).
const MAX_POLYGONS: usize = 10_000_000;

/// The largest turn between two strips of a curved slat, degrees.
const DELTA: f64 = 3.0;

/// One flat strip from `start`: `depth` along the direction `angle` (radians above +x in the
/// xz plane) and `width` along y; corners in genblinds' order.
fn strip(start: [f64; 3], width: f64, depth: f64, angle: f64) -> [[f64; 3]; 4] {
    let (h, d) = (depth * angle.sin(), depth * angle.cos());
    let corners = [
        [0.0, 0.0, 0.0],
        [0.0, width, 0.0],
        [d, width, h],
        [d, 0.0, h],
    ];
    corners.map(|c| [c[0] + start[0], c[1] + start[1], c[2] + start[2]])
}

/// The scene text `genblinds mat name depth width height nslats angle [±r R]` writes, as
/// RADIANCE's genblinds writes it.
pub fn genblinds(args: &[String], loc: &Loc) -> Result<String> {
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
    let angle = num(&args[6])?;
    // +r R curves the slats up, -r R down (a negative R the other way).
    let curvature = match args.get(7).map(String::as_str) {
        None => 0.0,
        Some("-r") => num(&args[8])?,
        Some("+r") => -num(&args[8])?,
        Some(w) => return Err(err(format!("unknown option \"{w}\"; {USAGE}"))),
    };
    let (radius, up) = (curvature.abs(), curvature < 0.0);
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
    let deg = PI / 180.0;
    // The strips of one slat, from its first edge at the origin.
    let strips: Vec<[[f64; 3]; 4]> = if radius == 0.0 {
        vec![strip([0.0; 3], width, depth, angle * deg)]
    } else {
        // The arc subtends theta; strips of equal chords, each turned by `step` degrees.
        let theta = 2.0 * (depth / (2.0 * radius)).asin();
        let n = (theta / (deg * DELTA) + 0.99999) as usize;
        let step = (180.0 / PI) * theta / n as f64;
        let chord = 2.0 * radius * (deg * (step / 2.0)).sin();
        let gamma = (PI - theta) / 2.0 - deg * angle;
        (0..n)
            .map(|k| {
                let turn = k as f64 * deg * step;
                // The arc's points relative to its first one, and each chord's direction.
                let (start, dir) = if up {
                    let a = [-(radius * gamma.cos()), radius * gamma.sin()];
                    (
                        [
                            -radius * (gamma + turn).cos() - a[0],
                            radius * (gamma + turn).sin() - a[1],
                        ],
                        deg * ((180.0 - step) / 2.0) - (gamma + turn),
                    )
                } else {
                    let a = [
                        radius * (gamma + theta).cos(),
                        -(radius * (gamma + theta).sin()),
                    ];
                    (
                        [
                            radius * (gamma + theta - turn).cos() - a[0],
                            -radius * (gamma + theta - turn).sin() - a[1],
                        ],
                        (PI - (gamma + theta) + turn) - deg * ((180.0 - step) / 2.0),
                    )
                };
                strip([start[0], 0.0, start[1]], width, chord, dir)
            })
            .collect()
    };
    if nslats.saturating_mul(strips.len()) > MAX_POLYGONS {
        return Err(err(format!(
            "{nslats} slats are more than {MAX_POLYGONS} polygons"
        )));
    }
    let mut out = format!("# {}\n", command_line("genblinds", args));
    for n in 1..=nslats {
        let lift = height * (n as f64 - 0.5) / nslats as f64;
        for (k, corners) in strips.iter().enumerate() {
            let _ = write!(out, "\n{mat} polygon {name}.{n}.{k}\n0\n0\n12\n");
            for c in corners {
                let _ = writeln!(out, "\t{}\t{}\t{}", g(c[0]), g(c[1]), g(c[2] + lift));
            }
        }
    }
    Ok(out)
}
