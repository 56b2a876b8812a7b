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

use daylit_scene::PrimId;

/// Most distinct modifiers all the antimatter of one scene may name (checked when the scene
/// is prepared, so a ray's set can never overflow).
pub const MAX_CLIPPED: usize = 8;

/// An `antimatter` material: what it cuts and what shades the cut's sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Antimatter {
    /// The modifiers whose surfaces it makes invisible (void entries left out).
    pub set: Vec<PrimId>,
    /// The first modifier when it is not `void`: shades a ray leaving the antimatter inside a
    /// cut solid.
    pub shade: Option<PrimId>,
}

/// The modifiers a ray is blind to, each with the count of its surfaces the ray has passed
/// through front-first minus back-first (RADIANCE finds this count by walking up the ray
/// tree; it is carried forward here).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipSet {
    len: u8,
    ids: [PrimId; MAX_CLIPPED],
    crossed: [i16; MAX_CLIPPED],
}

impl ClipSet {
    /// True when the ray sees every surface (the common case, tested first).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn find(&self, m: PrimId) -> Option<usize> {
        self.ids[..self.len as usize].iter().position(|&x| x == m)
    }

    /// Is a surface with direct modifier `m` invisible to this ray?
    pub fn hides(&self, m: Option<PrimId>) -> bool {
        m.is_some_and(|m| self.find(m).is_some())
    }

    /// Records that the ray passed through a hidden surface of modifier `m`, entering its
    /// solid (`front`) or leaving it.
    pub fn cross(&mut self, m: PrimId, front: bool) {
        if let Some(i) = self.find(m) {
            self.crossed[i] += if front { 1 } else { -1 };
        }
    }

    /// How far inside the solids of `a`'s modifiers the ray is (positive: inside).
    pub fn inside(&self, a: &Antimatter) -> i32 {
        a.set
            .iter()
            .filter_map(|&m| self.find(m))
            .map(|i| i32::from(self.crossed[i]))
            .sum()
    }

    /// The set after passing through an antimatter surface: `a`'s modifiers added when
    /// `entering`, removed otherwise.
    pub fn through(mut self, a: &Antimatter, entering: bool) -> ClipSet {
        for &m in &a.set {
            match (self.find(m), entering) {
                (None, true) => {
                    // Cannot overflow: the scene's antimatter names at most MAX_CLIPPED
                    // distinct modifiers in all (`check_capacity`).
                    let n = self.len as usize;
                    if n < MAX_CLIPPED {
                        self.ids[n] = m;
                        self.crossed[n] = 0;
                        self.len += 1;
                    }
                }
                (Some(i), false) => {
                    let last = self.len as usize - 1;
                    self.ids.swap(i, last);
                    self.crossed.swap(i, last);
                    self.len -= 1;
                }
                _ => {}
            }
        }
        self
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entering_hides_and_leaving_restores() {
        let a = Antimatter {
            set: vec![3, 5],
            shade: Some(3),
        };
        let s = ClipSet::default().through(&a, true);
        assert!(s.hides(Some(3)) && s.hides(Some(5)) && !s.hides(Some(4)));
        let mut inside = s;
        inside.cross(3, true);
        assert_eq!(inside.inside(&a), 1);
        inside.cross(3, false);
        assert_eq!(inside.inside(&a), 0);
        let out = s.through(&a, false);
        assert!(out.is_empty() && !out.hides(Some(3)));
    }
}
