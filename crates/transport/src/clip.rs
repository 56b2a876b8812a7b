//! `antimatter`: volumes cut out of other volumes, as RADIANCE resolves them.
//!
//! A ray that enters an antimatter surface from its front becomes blind to the surfaces whose
//! own modifier is in the antimatter's list, until it leaves through an antimatter surface
//! again. The set a ray is blind to (RADIANCE's clip set) travels with transmitted rays and is
//! inherited by reflected ones. When the list starts with a real modifier (not `void`), a ray
//! leaving the antimatter while it is inside one of the cut solids (it crossed more of their
//! surfaces front-first than back-first) sees the antimatter surface as the solid's inside
//! face, shaded with that first modifier: the sides of a hole cut through a wall look like
//! wall. This relies, as in RADIANCE, on closed solids with outward normals.

use crate::ray::MAX_CLIPPED;
use daylit_scene::PrimId;

/// An `antimatter` material: what it cuts and what shades the cut's sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Antimatter {
    /// The modifiers whose surfaces it makes invisible (void entries left out).
    pub set: Vec<PrimId>,
    /// The first modifier when it is not `void`: shades a ray leaving the antimatter inside a
    /// cut solid.
    pub shade: Option<PrimId>,
}

/// Checks that the scene's antimatter names few enough distinct modifiers for a ray's set.
pub fn check_capacity<'a>(all: impl Iterator<Item = &'a Antimatter>) -> Result<(), String> {
    let mut seen: Vec<PrimId> = Vec::new();
    for a in all {
        for &m in &a.set {
            if !seen.contains(&m) {
                seen.push(m);
            }
        }
    }
    if seen.len() > MAX_CLIPPED {
        return Err(format!(
            "the scene's antimatter names {} different modifiers; daylit handles at most {MAX_CLIPPED}",
            seen.len()
        ));
    }
    Ok(())
}
