//! What travels with a ray, as RADIANCE's `RAY` holds it: origin and direction, weight and
//! path coefficient, level, the ray-type flags ([`rtype`]), the source a shadow ray aims at,
//! the medium it crosses ([`Scatter`], [`Lights`]) and the modifiers it is blind to
//! ([`ClipSet`]); the hit as shading sees it ([`Surf`]); and what a traced ray returns
//! ([`Radiance`], with the mirrored part and lengths of [`Beyond`]).
//!
//! Every other module of the crate reads these types; this one uses none of them, so the
//! tracer ([`crate::trace`]), the modifier table ([`crate::material`]) and the contribution
//! bins ([`crate::contrib`]) depend on it and not on each other's ray types.

use daylit_geometry::FTINY;
use daylit_scene::PrimId;
use glam::DVec3;

/// RADIANCE's "huge" distance: what a ray that hits nothing travels.
pub const FHUGE: f64 = 1e10;

/// Ray types, as RADIANCE's flags.
pub mod rtype {
    /// Primary.
    pub const PRIMARY: u16 = 0o1;
    /// Reflected shadow ray.
    pub const RSHADOW: u16 = 0o2;
    /// Specular reflection.
    pub const REFLECTED: u16 = 0o4;
    /// Refraction.
    pub const REFRACTED: u16 = 0o10;
    /// Straight transmission.
    pub const TRANS: u16 = 0o20;
    /// Reflected ambient ray.
    pub const RAMBIENT: u16 = 0o40;
    /// Reflected specular sample.
    pub const RSPECULAR: u16 = 0o100;
    /// Transmitted shadow ray.
    pub const TSHADOW: u16 = 0o200;
    /// Transmitted ambient ray.
    pub const TAMBIENT: u16 = 0o400;
    /// Transmitted specular sample.
    pub const TSPECULAR: u16 = 0o1000;
    /// Any shadow ray.
    pub const SHADOW: u16 = RSHADOW | TSHADOW;
    /// Any ambient ray.
    pub const AMBIENT: u16 = RAMBIENT | TAMBIENT;
    /// Any specular sample.
    pub const SPECULAR: u16 = RSPECULAR | TSPECULAR;
    /// Types that count as a reflection (raise the level).
    pub const RAYREFL: u16 = RSHADOW | REFLECTED | RAMBIENT | RSPECULAR;
}
use rtype::*;

/// The state RADIANCE keeps per ray that the shading depends on.
#[derive(Clone, Copy, Debug)]
pub struct RayState {
    /// Origin.
    pub org: DVec3,
    /// Unit direction.
    pub dir: DVec3,
    /// Product of the coefficients along the path (`rweight`).
    pub weight: f64,
    /// Reflection level.
    pub level: u32,
    /// This ray's type.
    pub rtype: u16,
    /// Types of this ray and its ancestors.
    pub crtype: u16,
    /// The source a shadow ray aims at.
    pub rsrc: Option<u32>,
    /// Ambient recursion depth.
    pub adepth: u32,
    /// Medium extinction per unit length (inside a dielectric).
    pub cext: DVec3,
    /// The shape the ray leaves (flat shapes are skipped).
    pub from: Option<u32>,
    /// Distance travelled by the primary ray before this one (for glows).
    pub primary_dist: f64,
    /// Product of the colour coefficients along the path: what this ray's value is multiplied
    /// by before it reaches the primary ray (RADIANCE's `raycontrib`), for contributions.
    pub coef: DVec3,
    /// The modifiers whose surfaces this ray cannot see (inside `antimatter`).
    pub clip: ClipSet,
    /// The scattering part of the medium the ray travels in (albedo, eccentricity, sources;
    /// its extinction is `cext`), see [`crate::mist`].
    pub scatter: Scatter,
}

/// A ray's value and the distances RADIANCE reports with it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Radiance {
    /// Radiance, W/sr/m², RGB.
    pub value: DVec3,
    /// Distance to the first surface ([`FHUGE`] if none; RADIANCE's `rot`).
    pub dist: f64,
    /// Effective length (RADIANCE's `rxt`): as `dist`, but on through what the ray passes
    /// unperturbed (a surface without a material or cut away by antimatter, clear glass,
    /// straight transmission, `mist`, `illum`) to what lies behind.
    pub extent: f64,
    /// The part of `value` brought back by a pure mirror reflection (RADIANCE's `mcol`).
    pub mirror: DVec3,
    /// The length to what that reflection shows, the virtual image's distance where the
    /// mirror is flat (RADIANCE's `rmt`; [`FHUGE`] where nothing set it).
    pub mirror_dist: f64,
}

impl Radiance {
    /// The distance to what the ray shows (RADIANCE's `raydistance`): the mirror image's
    /// where the mirrored part is more than half the value's brightness, else the effective
    /// length.
    pub fn distance(&self) -> f64 {
        self.distance_scaled(DVec3::ONE)
    }

    /// [`Radiance::distance`] of a child ray whose value has been multiplied by its
    /// coefficient `c` (RADIANCE scales the value, not the mirrored part, before it asks).
    pub fn distance_scaled(&self, c: DVec3) -> f64 {
        if bright(self.mirror) > 0.5 * bright(self.value * c) {
            self.mirror_dist
        } else {
            self.extent
        }
    }
}

/// What the shading of one hit reports besides its value, as lengths beyond the hit: the
/// mirrored part (`mcol`), the mirror length (`rmt − rot`, `None` while unset) and the
/// effective length (`rxt − rot`, 0 unless the material passes the ray on). Materials set it
/// in `Ctx::z` after tracing their children; `trace` keeps one per ray in flight.
#[derive(Clone, Copy, Debug, Default)]
pub struct Beyond {
    pub(crate) mirror: DVec3,
    pub(crate) mirror_len: Option<f64>,
    pub(crate) extent_len: f64,
}

impl Beyond {
    /// A pure specular reflection `v` with coefficient `c`: its value is the mirrored part;
    /// `image`: the surface is flat (and not textured), so the image lies at the reflected
    /// ray's own distance beyond the hit.
    pub(crate) fn reflected(&mut self, v: &Radiance, c: DVec3, image: bool) {
        self.mirror = v.value * c;
        self.mirror_len = Some(if image { v.distance_scaled(c) } else { 0.0 });
    }

    /// A straight transmission `v` with coefficient `c` that dominates what the surface
    /// shows: the effective length goes on through it.
    pub(crate) fn seen_through(&mut self, v: &Radiance, c: DVec3) {
        self.extent_len = v.distance_scaled(c);
    }

    /// A surface that passes the ray on entirely (`raytrans`, `mist`, a fully transparent
    /// material): its mirrored part (times `c`) and both lengths continue behind it.
    pub(crate) fn passed(&mut self, v: &Radiance, c: DVec3) {
        self.mirror = v.mirror * c;
        self.mirror_len = Some(v.mirror_dist);
        self.extent_len = v.extent;
    }

    /// The record of a hit at distance `t` with value `value`.
    pub(crate) fn at(&self, value: DVec3, t: f64) -> Radiance {
        Radiance {
            value,
            dist: t,
            extent: t + self.extent_len,
            mirror: self.mirror,
            mirror_dist: self.mirror_len.map_or(FHUGE, |m| t + m),
        }
    }
}

/// The hit as shading sees it.
#[derive(Clone, Copy, Debug)]
pub struct Surf {
    /// Hit point.
    pub point: DVec3,
    /// Surface normal as RADIANCE orients it (`ron`), flipped by materials that see the back.
    pub normal: DVec3,
    /// `-dir · normal` (`rod`).
    pub rod: f64,
    /// Distance from the origin.
    pub t: f64,
    /// Shape index (None for distant sources).
    pub shape: Option<u32>,
    /// Flat surface.
    pub flat: bool,
    /// Direction of the ray that hit.
    pub dir: DVec3,
    /// Local (u,v) coordinates (`Lu`, `Lv`): a mesh's, where it has them, else zero.
    pub uv: [f64; 2],
}

/// Photopic brightness of an RGB value (RADIANCE's `bright`).
pub fn bright(c: DVec3) -> f64 {
    0.265 * c.x + 0.670 * c.y + 0.065 * c.z
}

impl RayState {
    /// A primary ray.
    pub fn primary(org: DVec3, dir: DVec3) -> RayState {
        RayState {
            org,
            dir,
            weight: 1.0,
            level: 0,
            rtype: PRIMARY,
            crtype: PRIMARY,
            rsrc: None,
            adepth: 0,
            cext: DVec3::ZERO,
            from: None,
            primary_dist: 0.0,
            coef: DVec3::ONE,
            clip: ClipSet::default(),
            scatter: Scatter::default(),
        }
    }

    /// Is this a shadow ray (or descended from one)?
    pub fn is_shadow(&self) -> bool {
        self.crtype & SHADOW != 0
    }
}

/// The perturbed normal and its dot product with the reversed ray (RADIANCE's `raynormal`):
/// a perturbation that would turn the normal to the ray's other side is mirrored back.
pub(crate) fn perturbed(s: &Surf, pert: DVec3) -> (DVec3, f64) {
    if pert.length_squared() <= FTINY * FTINY {
        return (s.normal, s.rod);
    }
    let Some(mut n) = (s.normal + pert).try_normalize() else {
        return (s.normal, s.rod);
    };
    let mut d = -s.dir.dot(n);
    if (d > 0.0) != (s.rod > 0.0) {
        n += s.dir * (2.0 * d);
        d = -d;
    }
    (n, d)
}

/// Most distinct modifiers all the antimatter of one scene may name (checked when the scene
/// is prepared, so a ray's set can never overflow).
pub const MAX_CLIPPED: usize = 8;

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

    /// How far inside the solids of an antimatter's modifiers `set` the ray is (positive:
    /// inside).
    pub fn inside(&self, set: &[PrimId]) -> i32 {
        set.iter()
            .filter_map(|&m| self.find(m))
            .map(|i| i32::from(self.crossed[i]))
            .sum()
    }

    /// The set after passing through an antimatter surface: its modifiers `set` added when
    /// `entering`, removed otherwise.
    pub fn through(mut self, set: &[PrimId], entering: bool) -> ClipSet {
        for &m in set {
            match (self.find(m), entering) {
                (None, true) => {
                    // Cannot overflow: the scene's antimatter names at most MAX_CLIPPED
                    // distinct modifiers in all (`crate::clip::check_capacity`).
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

/// Most light sources a ray's medium can list (the mists' lists together must fit).
pub const MAX_LIGHTS: usize = 16;

/// The light sources whose light scatters into a ray (indices into the renderer's sources).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lights {
    n: u8,
    ids: [u32; MAX_LIGHTS],
}

impl Lights {
    /// The listed sources.
    pub fn as_slice(&self) -> &[u32] {
        &self.ids[..self.n as usize]
    }

    /// No source listed.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn contains(&self, s: u32) -> bool {
        self.as_slice().contains(&s)
    }

    /// Adds the sources of `list` not yet listed. The renderer refuses scenes whose mists
    /// list more than [`MAX_LIGHTS`] sources in all, so this always fits.
    pub(crate) fn add(&mut self, list: &[u32]) {
        for &s in list {
            if !self.contains(s) && (self.n as usize) < MAX_LIGHTS {
                self.ids[self.n as usize] = s;
                self.n += 1;
            }
        }
    }

    /// Removes the sources of `list`; returns how many were listed.
    pub(crate) fn remove(&mut self, list: &[u32]) -> usize {
        let before = self.n as usize;
        let mut k = 0;
        for i in 0..before {
            let s = self.ids[i];
            if !list.contains(&s) {
                self.ids[k] = s;
                k += 1;
            }
        }
        self.n = k as u8;
        before - k
    }
}

/// The scattering part of a ray's medium (its extinction is [`RayState::cext`]), see
/// [`crate::mist`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scatter {
    /// Scattering albedo: the scattered fraction of the extinction, RGB.
    pub albedo: DVec3,
    /// Henyey–Greenstein eccentricity (0 isotropic, towards 1 forward).
    pub gecc: f64,
    /// The sources that scatter into the ray.
    pub lights: Lights,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_set_entering_hides_and_leaving_restores() {
        let a = [3, 5];
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
