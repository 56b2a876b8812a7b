//! How big a scene is, and which surfaces are too large or too far away to be meant.
//!
//! RADIANCE reads any finite number, so a sphere of radius 1e300 or a polygon at 1e308 is a
//! valid scene to `oconv` and `rtrace`, and daylit's RADIANCE programs keep accepting it. No
//! building or site is that large, though: such a number is a typing or unit mistake, and it
//! ruins everything computed from the scene's size (the bounding box, ray offsets, sensor
//! grids). `daylit check` lists these surfaces as problems and daylit's own commands
//! (`annual`, `render`, `glare --annual`, `live`) refuse them before any work.
//!
//! # The rule ([`implausible`])
//! Each surface (and each mesh, as one) is bounded by a box taken from its arguments. The
//! scene's *typical size* is the larger of the median box diagonal and the median distance
//! of the boxes' centres from the scene's middle (the per-axis median of the centres), so a
//! few wild surfaces cannot move it. A surface is implausible when its box's diagonal, or the
//! distance of its farthest corner from the middle, is more than [`IMPLAUSIBLE_FACTOR`]
//! (a million) times the typical size, or when any of its coordinates is beyond
//! [`COORDINATE_LIMIT`], where a double no longer holds a scene's details.

use crate::error::{Loc, SceneError};
use crate::{PrimType, Scene};

/// A surface this many times larger (or farther from the scene's middle) than the scene's
/// typical size is refused. A room with a 10 km ground disc is a ratio of a few thousand.
pub const IMPLAUSIBLE_FACTOR: f64 = 1e6;

/// Coordinates beyond this (in any unit) leave a double less than a tenth of a unit of
/// resolution.
pub const COORDINATE_LIMIT: f64 = 1e15;

/// An axis-aligned box: lower and upper corners.
pub type Bounds = ([f64; 3], [f64; 3]);

/// A surface (or mesh) that no real scene has.
#[derive(Clone, Debug, PartialEq)]
pub struct Implausible {
    /// Where it was defined.
    pub loc: Loc,
    /// Type and name, e.g. `sphere "ball"`, or `mesh`.
    pub what: String,
    /// What is wrong, with the numbers.
    pub msg: String,
}

impl std::fmt::Display for Implausible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.loc, self.what, self.msg)
    }
}

/// A box holding nothing.
const EMPTY: Bounds = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);

/// Grows `b` to hold a ball of radius `r` around `p`.
fn grow(b: &mut Bounds, p: [f64; 3], r: f64) {
    b.0 = std::array::from_fn(|k| b.0[k].min(p[k] - r));
    b.1 = std::array::from_fn(|k| b.1[k].max(p[k] + r));
}

/// One surface's box, from its real arguments (`None` for distant sources, instances and
/// mesh primitives, whose contents the loader has placed in the scene).
fn prim_box(ptype: PrimType, f: &[f64]) -> Option<Bounds> {
    let point =
        |k: usize| -> Option<[f64; 3]> { Some([*f.get(k)?, *f.get(k + 1)?, *f.get(k + 2)?]) };
    let around = |pts: &[[f64; 3]], r: f64| {
        let mut b = EMPTY;
        for p in pts {
            grow(&mut b, *p, r);
        }
        b
    };
    match ptype {
        PrimType::Polygon => {
            let pts: Vec<[f64; 3]> = (0..f.len() / 3).filter_map(|k| point(3 * k)).collect();
            (!pts.is_empty()).then(|| around(&pts, 0.0))
        }
        PrimType::Sphere | PrimType::Bubble => Some(around(&[point(0)?], f.get(3)?.abs())),
        PrimType::Cone | PrimType::Cup => Some(around(
            &[point(0)?, point(3)?],
            f.get(6)?.abs().max(f.get(7)?.abs()),
        )),
        PrimType::Cylinder | PrimType::Tube => {
            Some(around(&[point(0)?, point(3)?], f.get(6)?.abs()))
        }
        PrimType::Ring => Some(around(&[point(0)?], f.get(6)?.abs().max(f.get(7)?.abs()))),
        _ => None,
    }
}

/// Every surface's box with where it came from and what it is.
fn boxes(scene: &Scene) -> Vec<(Loc, String, Bounds)> {
    let mut out: Vec<(Loc, String, Bounds)> = scene
        .surfaces()
        .filter_map(|id| {
            let p = scene.prim(id);
            let b = prim_box(p.ptype, &p.fargs)?;
            Some((
                p.loc.clone(),
                format!("{} \"{}\"", p.ptype.name(), p.name),
                b,
            ))
        })
        .collect();
    for m in &scene.meshes {
        if m.vertices.is_empty() {
            continue;
        }
        let mut b = EMPTY;
        for v in &m.vertices {
            grow(&mut b, *v, 0.0);
        }
        out.push((Loc::new(m.source.as_str().into(), 0, 0), "mesh".into(), b));
    }
    out
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The box around every surface of `scene` (from their arguments; cones and rings are
/// bounded loosely), or `None` for a scene without surfaces.
pub fn bounds(scene: &Scene) -> Option<Bounds> {
    boxes(scene).into_iter().map(|b| b.2).reduce(|a, b| {
        (
            std::array::from_fn(|k| a.0[k].min(b.0[k])),
            std::array::from_fn(|k| a.1[k].max(b.1[k])),
        )
    })
}

/// Surfaces too large or too far from the rest of the scene to be meant (see the module
/// documentation for the rule), in input order.
pub fn implausible(scene: &Scene) -> Vec<Implausible> {
    let items = boxes(scene);
    if items.is_empty() {
        return Vec::new();
    }
    let centre = |b: &Bounds| -> [f64; 3] { std::array::from_fn(|k| 0.5 * b.0[k] + 0.5 * b.1[k]) };
    let middle: [f64; 3] =
        std::array::from_fn(|k| median(items.iter().map(|i| centre(&i.2)[k]).collect()));
    let typical = median(items.iter().map(|i| dist(i.2 .0, i.2 .1)).collect()).max(median(
        items.iter().map(|i| dist(centre(&i.2), middle)).collect(),
    ));
    let mut out = Vec::new();
    for (loc, what, b) in items {
        let reach = b.0.iter().chain(&b.1).fold(0.0f64, |m, c| m.max(c.abs()));
        let size = dist(b.0, b.1);
        let far = dist(b.0, middle).max(dist(b.1, middle));
        let msg = if reach > COORDINATE_LIMIT || !size.is_finite() {
            format!(
                "its coordinates reach {reach:e}; beyond {COORDINATE_LIMIT:e} a number cannot \
                 hold a scene's details (a typing or unit mistake?)"
            )
        } else if typical > 0.0 && size > IMPLAUSIBLE_FACTOR * typical {
            format!(
                "its size {size:.4e} is more than a million times the scene's typical size \
                 ({typical:.4}); no real scene is that large (a typing or unit mistake?)"
            )
        } else if typical > 0.0 && far > IMPLAUSIBLE_FACTOR * typical {
            format!(
                "it lies {far:.4e} from the middle of the scene, more than a million times \
                 the scene's typical size ({typical:.4}) (a typing or unit mistake?)"
            )
        } else {
            continue;
        };
        out.push(Implausible { loc, what, msg });
    }
    out
}

/// Refuses a scene with implausible surfaces (what daylit's own commands do before any
/// work): the first one, located, and how many more there are.
pub fn refuse_implausible(scene: &Scene) -> Result<(), SceneError> {
    let found = implausible(scene);
    let Some(first) = found.first() else {
        return Ok(());
    };
    let more = match found.len() - 1 {
        0 => String::new(),
        n => format!(" ({n} more such surfaces; `daylit check` lists them all)"),
    };
    Err(SceneError::at(
        &first.loc,
        format!("{}: {}{more}", first.what, first.msg),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{load_scene_text, LoadOptions};
    use std::path::Path;

    fn scene(text: &str) -> Scene {
        load_scene_text(text, "t.rad", Path::new("."), &LoadOptions::default()).unwrap()
    }

    const ROOM: &str = "void plastic m 0 0 5 .5 .5 .5 0 0\n\
        m polygon floor 0 0 12 0 0 0 4 0 0 4 6 0 0 6 0\n\
        m polygon wall 0 0 12 0 0 0 0 0 3 4 0 3 4 0 0\n\
        m sphere lamp 0 0 4 2 3 2.5 0.1\n";

    #[test]
    fn a_room_with_a_large_ground_is_plausible() {
        let s = scene(&format!(
            "{ROOM}m ring ground 0 0 8 0 0 -0.01 0 0 1 0 1e4\n"
        ));
        assert!(implausible(&s).is_empty(), "{:?}", implausible(&s));
        let (lo, hi) = bounds(&s).unwrap();
        assert_eq!((lo[0], hi[0]), (-1e4, 1e4));
    }

    #[test]
    fn a_huge_sphere_and_a_far_polygon_are_found_with_their_lines() {
        let s = scene(&format!(
            "{ROOM}m sphere huge 0 0 4 0 0 0 1e300\nm polygon far 0 0 9 1e9 0 0 1e9 1 0 1e9 0 1\n"
        ));
        let found = implausible(&s);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].loc.line, 5);
        assert_eq!(found[0].what, "sphere \"huge\"");
        assert!(
            found[0].msg.starts_with("its coordinates reach 1e300"),
            "{}",
            found[0].msg
        );
        assert_eq!(found[1].loc.line, 6);
        assert!(
            found[1].msg.starts_with("it lies 1.0000e9 from the middle"),
            "{}",
            found[1].msg
        );
        let e = refuse_implausible(&s).unwrap_err().to_string();
        assert!(
            e.starts_with("t.rad:5:1: sphere \"huge\": its coordinates reach 1e300"),
            "{e}"
        );
        assert!(
            e.ends_with("(1 more such surfaces; `daylit check` lists them all)"),
            "{e}"
        );
    }

    #[test]
    fn a_large_size_is_found() {
        let s = scene(&format!("{ROOM}m sphere big 0 0 4 0 0 0 1e8\n"));
        let found = implausible(&s);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].msg.starts_with(
                "its size 3.4641e8 is more than a million times the scene's typical size (7.2111)"
            ),
            "{}",
            found[0].msg
        );
    }
}
