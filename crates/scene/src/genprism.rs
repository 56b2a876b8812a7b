//! RADIANCE's `genprism`, run natively: a polygon in the z = 0 plane extruded along a vector.
//! The end polygons (`.b` as given, `.t` reversed and moved by the vector) and one side per
//! edge (`.1` … `.N`) face the way the vertex order and the vector make them face, as in
//! RADIANCE; `-c` leaves out the side from the last vertex back to the first, `-e` the ends.
//! Rounded corners (`-r`) and vertices from a file or standard input are not built in: such
//! commands need `--allow-commands` (see [`is_native`]).

use crate::error::{Loc, Result, SceneError};
use crate::parse::{parse_real, RawPrim};
use crate::types::PrimType;
use glam::DVec3;

const USAGE: &str =
    "genprism: usage: genprism material name N x1 y1 .. xN yN [-l lx ly lz] [-c] [-e]";

/// Can daylit run these `genprism` arguments itself (vertices on the command line, no `-r`)?
pub fn is_native(args: &[String]) -> bool {
    args.get(2).is_some_and(|w| w.parse::<usize>().is_ok())
        && !args.iter().skip(3).any(|w| w == "-r")
}

/// Generates the primitives of `genprism mat name N x1 y1 .. xN yN [-l lvect] [-c] [-e]`.
pub fn genprism(args: &[String], loc: &Loc) -> Result<Vec<RawPrim>> {
    let err = |msg: String| SceneError::at(loc, format!("genprism: {msg}"));
    let num = |w: Option<&String>| {
        let w = w.map(String::as_str).unwrap_or("");
        parse_real(w).ok_or_else(|| err(format!("expected a number, found \"{w}\"; {USAGE}")))
    };
    if args.len() < 3 {
        return Err(err(USAGE.into()));
    }
    let (mat, name) = (&args[0], &args[1]);
    let n: usize = args[2]
        .parse()
        .map_err(|_| err(format!("expected the vertex count, found \"{}\"", args[2])))?;
    if n < 3 {
        return Err(err(format!("a prism needs at least 3 vertices, not {n}")));
    }
    let mut base = Vec::with_capacity(n);
    for k in 0..n {
        base.push(DVec3::new(
            num(args.get(3 + 2 * k))?,
            num(args.get(4 + 2 * k))?,
            0.0,
        ));
    }
    let mut lvec = DVec3::Z;
    let (mut closed, mut ends) = (true, true);
    let mut i = 3 + 2 * n;
    while i < args.len() {
        match args[i].as_str() {
            "-l" => {
                lvec = DVec3::new(
                    num(args.get(i + 1))?,
                    num(args.get(i + 2))?,
                    num(args.get(i + 3))?,
                );
                i += 3;
            }
            "-c" => closed = false,
            "-e" => ends = false,
            w => return Err(err(format!("unknown option \"{w}\"; {USAGE}"))),
        }
        i += 1;
    }
    if lvec.length_squared() == 0.0 {
        return Err(err("the extrusion vector (-l) is zero".into()));
    }
    let mut out = Vec::new();
    let mut push = |label: String, v: &[DVec3]| {
        out.push(RawPrim {
            modifier: mat.clone(),
            ptype: PrimType::Polygon,
            name: format!("{name}.{label}"),
            sargs: Vec::new(),
            fargs: v.iter().flat_map(|p| p.to_array()).collect(),
            loc: loc.clone(),
        })
    };
    if ends {
        push("b".into(), &base);
        let top: Vec<DVec3> = base.iter().rev().map(|&p| p + lvec).collect();
        push("t".into(), &top);
    }
    let sides = if closed { n } else { n - 1 };
    for k in 0..sides {
        let (a, b) = (base[k], base[(k + 1) % n]);
        push(format!("{}", k + 1), &[a, a + lvec, b + lvec, b]);
    }
    Ok(out)
}

/// The scene text RADIANCE's `genprism` writes for `args` (as for [`genprism`]: vertices on
/// the command line, `-l`, `-c`, `-e`; rounded corners and vertices from a file are refused).
pub fn genprism_text(args: &[String], loc: &Loc) -> Result<String> {
    use daylit_radfile::header::command_line;
    use daylit_radfile::printf::format_g18 as g;
    use std::fmt::Write;
    if !is_native(args) && args.len() >= 3 {
        return Err(SceneError::at(
            loc,
            "genprism: rounded corners (-r) and vertices from a file or standard input are not in daylit yet",
        ));
    }
    let prims = genprism(args, loc)?;
    let mut out = format!("# {}\n", command_line("genprism", args));
    for p in &prims {
        let _ = write!(
            out,
            "\n{} polygon {}\n0\n0\n{}\n",
            p.modifier,
            p.name,
            p.fargs.len()
        );
        for v in p.fargs.chunks(3) {
            let _ = writeln!(out, "\t{}\t{}\t{}", g(v[0]), g(v[1]), g(v[2]));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn square_prism_as_radiance_writes_it() {
        // RADIANCE 6.0a: genprism mat pr 4 0 0 1 0 1 1 0 1 -l 0 0 2
        let p = genprism(
            &words("mat pr 4 0 0 1 0 1 1 0 1 -l 0 0 2"),
            &Loc::new("t".into(), 1, 1),
        )
        .unwrap();
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["pr.b", "pr.t", "pr.1", "pr.2", "pr.3", "pr.4"]);
        assert_eq!(p[1].fargs, [0., 1., 2., 1., 1., 2., 1., 0., 2., 0., 0., 2.]);
        assert_eq!(p[2].fargs, [0., 0., 0., 0., 0., 2., 1., 0., 2., 1., 0., 0.]);
        let open = genprism(
            &words("m x 3 0 0 1 0 0 1 -c -e"),
            &Loc::new("t".into(), 1, 1),
        )
        .unwrap();
        assert_eq!(open.len(), 2);
        assert!(!is_native(&words("m x 3 0 0 1 0 0 1 -r .1")));
        assert!(genprism(&words("m x 3 0 0 1 0"), &Loc::new("t".into(), 1, 1)).is_err());
    }
}
