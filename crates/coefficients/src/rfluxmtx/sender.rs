//! `rfluxmtx` senders: the surface whose hemisphere rays are sampled over, one matrix row per
//! hemisphere bin (a window group for a daylight matrix, a light pipe's inner aperture).
//!
//! # What rfluxmtx does with a sender file (RADIANCE 6.0a)
//!
//! * Every `polygon` and `ring` is part of the one sender, whatever its modifier (a second
//!   modifier only draws a warning); a `source` is refused; other primitives are ignored.
//! * The `#@rfluxmtx` lines read before a surface apply to it and stay in force for the
//!   surfaces after it (`h=`, `u=` and `o=` alike, later values replacing earlier ones);
//!   those after the last surface do nothing. `o=` in a sender is ignored with a warning.
//! * The sender's normal is the area-weighted sum of its surfaces' normals (as for
//!   receivers); up is `u=`, or +Z when |normal.z| < 0.7, else +Y. The tangent frame is
//!   `u = normalize(up × normal)` (negated for `h=-..`), `v = normal × u`; up parallel to
//!   the normal is an error.
//! * Bases: `h=u` (one bin), `kf`/`kh`/`kq` (145, 77, 41), `rN` (Reinhart, 144·N² + 1) and
//!   `scN` (Shirley-Chiu, N × N; N = 1 is allowed for a sender). `h=cie` and anything else
//!   is "unrecognized sender sampling".
//! * Rays leave from the *back* of the sender: every direction `d` sampled on the front
//!   hemisphere (local `x, y, z` with `z ≥ 0`, frame `u, v, normal`) is traced as
//!   `−(x·u + y·v + z·normal)`. Within a bin: Klems and Shirley-Chiu (and `h=u`) spread the
//!   directions by projected solid angle (cosine-weighted); Reinhart patches are sampled
//!   uniformly in altitude and azimuth, the zenith cap with the altitude fraction squared.
//!   Klems azimuths are centred on the patch (`(k + s − ½)·360°/n`), as are Reinhart's.
//! * Each bin gets `-c` rays (default 10000), accumulated by rcontrib into one record, so the
//!   matrix has one row per sender bin. A ray's origin is uniform over the sender's area
//!   when it has one surface; with several, a surface is picked in proportion to its area
//!   projected along the ray (surfaces facing away get none), then a point uniform on it.

use super::{
    located, normalize, radiance_square_to_disk, read_objects, surface_geometry, Annotation, Basis,
    Collect, Hemisphere, Klems, RfluxError, SurfaceKind, TREGENZA_ROWS,
};
use daylit_scene::objutil::triangulate::clip_ears;
use daylit_scene::Loc;
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::f64::consts::{FRAC_PI_2, PI};
use std::path::Path;

/// One sender surface.
#[derive(Clone, Debug, PartialEq)]
pub struct SenderSurface {
    /// Its name.
    pub name: String,
    /// `polygon` or `ring`.
    pub kind: SurfaceKind,
    /// Unit normal (a polygon's by the right-hand rule, a ring's axis).
    pub normal: DVec3,
    /// Area.
    pub area: f64,
    /// Where it is defined.
    pub loc: Loc,
    shape: Shape,
}

/// Where origins are drawn on a surface.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// A polygon cut into triangles, with the running sum of their area fractions.
    Triangles {
        tris: Vec<[DVec3; 3]>,
        cumulative: Vec<f64>,
    },
    /// A ring (annulus): centre, two tangent axes, inner and outer radii.
    Ring {
        center: DVec3,
        axes: [DVec3; 2],
        r0: f64,
        r1: f64,
    },
}

impl SenderSurface {
    /// The point at `(s, t)` in [0, 1)², uniform over the surface's area.
    pub fn point(&self, s: f64, t: f64) -> DVec3 {
        match &self.shape {
            Shape::Triangles { tris, cumulative } => {
                let k = cumulative
                    .iter()
                    .position(|&c| s < c)
                    .unwrap_or(tris.len() - 1);
                let lo = if k == 0 { 0.0 } else { cumulative[k - 1] };
                let width = cumulative[k] - lo;
                let s = if width > 0.0 {
                    ((s - lo) / width).clamp(0.0, 1.0)
                } else {
                    0.5
                };
                // Uniform in the triangle: the square root spreads points evenly from the
                // first corner out to the opposite edge.
                let r = s.sqrt();
                let [a, b, c] = tris[k];
                a + (b - a) * (r * (1.0 - t)) + (c - a) * (r * t)
            }
            Shape::Ring {
                center,
                axes,
                r0,
                r1,
            } => {
                let r = (r0 * r0 + s * (r1 * r1 - r0 * r0)).sqrt();
                let phi = 2.0 * PI * t;
                *center + axes[0] * (r * phi.cos()) + axes[1] * (r * phi.sin())
            }
        }
    }
}

/// A ray rfluxmtx sends: origin on the sender, unit direction into its back hemisphere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenderRay {
    /// Start point, on a sender surface.
    pub origin: DVec3,
    /// Unit direction.
    pub dir: DVec3,
}

/// The sender of an `rfluxmtx` run.
#[derive(Clone, Debug, PartialEq)]
pub struct Sender {
    /// The modifier of its first surface.
    pub modifier: String,
    /// The `h=` in force at the last surface.
    pub hemisphere: Hemisphere,
    /// Its basis (never [`Basis::CieScan`]).
    pub basis: Basis,
    /// The area-weighted unit normal (rays leave against it).
    pub normal: DVec3,
    /// The unit up vector.
    pub up: DVec3,
    /// Tangent axes: `u = up × normal` (negated for `h=-..`) and `v = normal × u`.
    pub axes: [DVec3; 2],
    /// The surfaces, in file order.
    pub surfaces: Vec<SenderSurface>,
    /// What RADIANCE warns about, and rules that may surprise.
    pub warnings: Vec<String>,
}

/// Klems bases as rfluxmtx's sampler holds them: polar limits of each ring (degrees) and the
/// patches in each.
fn klems_rings(k: Klems) -> (&'static [f64], &'static [u32]) {
    match k {
        Klems::Full => (
            &[0.0, 5.0, 15.0, 25.0, 35.0, 45.0, 55.0, 65.0, 75.0, 90.0],
            &[1, 8, 16, 20, 24, 24, 24, 16, 12],
        ),
        Klems::Half => (
            &[0.0, 6.5, 19.5, 32.5, 45.5, 58.5, 71.5, 90.0],
            &[1, 8, 12, 16, 20, 12, 8],
        ),
        Klems::Quarter => (&[0.0, 9.0, 27.0, 45.0, 63.0, 90.0], &[1, 8, 12, 12, 8]),
    }
}

impl Sender {
    /// Number of bins (matrix rows).
    pub fn bin_count(&self) -> usize {
        self.basis.len()
    }

    /// The direction on the sender's front hemisphere, in its local frame (`z` along the
    /// normal), of sample `(s, t)` ∈ [0, 1)² in bin `bin`.
    pub fn local_direction(&self, bin: usize, s: f64, t: f64) -> DVec3 {
        match self.basis {
            Basis::Uniform => {
                let (x, y) = radiance_square_to_disk(s, t);
                DVec3::new(x, y, (1.0 - x * x - y * y).max(0.0).sqrt())
            }
            Basis::ShirleyChiu(n) => {
                let n = n as usize;
                let (x, y) = radiance_square_to_disk(
                    ((bin / n) as f64 + s) / n as f64,
                    ((bin % n) as f64 + t) / n as f64,
                );
                DVec3::new(x, y, (1.0 - x * x - y * y).max(0.0).sqrt())
            }
            Basis::Reinhart(mf) => {
                let mf = mf as usize;
                let rows = 7 * mf + 1;
                let row_len = |r: usize| {
                    if r + 1 >= rows {
                        1
                    } else {
                        mf * TREGENZA_ROWS[r / mf] as usize
                    }
                };
                let (mut row, mut col) = (0, bin);
                while col >= row_len(row) {
                    col -= row_len(row);
                    row += 1;
                }
                // The zenith cap: the fraction squared keeps samples from crowding there.
                let s = if row + 1 >= rows { s * s } else { s };
                let row_height = FRAC_PI_2 / (rows as f64 - 0.5);
                let alt = (row as f64 + s) * row_height;
                let azi = 2.0 * PI * (col as f64 + t - 0.5) / row_len(row) as f64;
                let c = alt.cos();
                DVec3::new(azi.sin() * c, -azi.cos() * c, (1.0 - c * c).sqrt())
            }
            Basis::Klems(k) => {
                let (limits, counts) = klems_rings(k);
                let (mut ring, mut col) = (0, bin);
                while col >= counts[ring] as usize {
                    col -= counts[ring] as usize;
                    ring += 1;
                }
                let c0 = limits[ring].to_radians().cos();
                let c1 = limits[ring + 1].to_radians().cos();
                // Uniform in cos² of the polar angle: cosine-weighted within the ring.
                let cos = ((1.0 - s) * c0 * c0 + s * c1 * c1).sqrt();
                let sin = (1.0 - cos * cos).max(0.0).sqrt();
                let azi = 2.0 * PI * (col as f64 + t - 0.5) / f64::from(counts[ring]);
                DVec3::new(azi.cos() * sin, azi.sin() * sin, cos)
            }
            Basis::CieScan => unreachable!("refused for senders"),
        }
    }

    /// The traced direction of a local direction: from the sender's back,
    /// `−(x·u + y·v + z·normal)` (`h=u` keeps `x·u + y·v`, its bin having no orientation).
    pub fn ray_direction(&self, local: DVec3) -> DVec3 {
        let [u, v] = self.axes;
        match self.basis {
            Basis::Uniform => u * local.x + v * local.y - self.normal * local.z,
            _ => -(u * local.x + v * local.y + self.normal * local.z),
        }
    }

    /// The origin of a ray with direction `dir` from `(s, t, w)` ∈ [0, 1)³: the surface
    /// picked by `s` in proportion to its area projected along `dir` (by plain area when
    /// the sender is one surface), a point uniform on it from the rest of `s` and `t`.
    /// `None` when `dir` faces away from every surface.
    pub fn origin(&self, dir: DVec3, s: f64, t: f64) -> Option<DVec3> {
        if let [one] = self.surfaces.as_slice() {
            return Some(one.point(s, t));
        }
        let weights: Vec<f64> = self
            .surfaces
            .iter()
            .map(|f| (-f.normal.dot(dir) * f.area).max(0.0))
            .collect();
        let total: f64 = weights.iter().sum();
        if total < 1e-12 {
            return None;
        }
        let last = weights.iter().rposition(|&w| w > 0.0)?;
        let mut x = s * total;
        for (k, (f, &w)) in self.surfaces.iter().zip(&weights).enumerate() {
            if w <= 0.0 {
                continue;
            }
            if x < w || k == last {
                return Some(f.point((x / w).clamp(0.0, 1.0 - f64::EPSILON), t));
            }
            x -= w;
        }
        None
    }

    /// The rays of every bin in bin order, `samples` per bin (rfluxmtx's `-c`), stratified
    /// within each bin over the two direction and two origin dimensions together (see
    /// [`halton`]), reproducible for a given `seed`.
    pub fn rays(&self, samples: usize, seed: u64) -> Result<Vec<SenderRay>, RfluxError> {
        let mut out = Vec::with_capacity(self.bin_count() * samples);
        for bin in 0..self.bin_count() {
            let mut rng = Pcg64Mcg::seed_from_u64(
                seed ^ (bin as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            // A random shift of the whole point set per bin (Cranley-Patterson rotation).
            let shift: [f64; 4] = std::array::from_fn(|_| rng.random::<f64>());
            for k in 0..samples {
                let x = halton(k as u64, shift);
                let dir = self.ray_direction(self.local_direction(bin, x[0], x[1]));
                let origin = self
                    .origin(dir, x[2], x[3])
                    .ok_or_else(|| RfluxError::File {
                        file: self.surfaces[0].loc.source.to_string(),
                        msg: format!(
                        "sender '{}': a sample direction is behind every sender surface (their \
                         normals differ too much from the sender's)",
                        self.modifier
                    ),
                    })?;
                out.push(SenderRay { origin, dir });
            }
        }
        Ok(out)
    }
}

/// Point `k` of the four-dimensional Halton sequence (radical inverses in bases 2, 3, 5 and
/// 7), shifted by `shift` modulo 1: the first `n` points fill the unit hypercube far more
/// evenly than independent random points, so a bin's rays cover its directions and the
/// sender's area together (RADIANCE stratifies along a space-filling curve to the same end).
pub fn halton(k: u64, shift: [f64; 4]) -> [f64; 4] {
    const BASES: [u64; 4] = [2, 3, 5, 7];
    std::array::from_fn(|d| {
        let b = BASES[d];
        let (mut i, mut f, mut x) = (k, 1.0, 0.0);
        while i > 0 {
            f /= b as f64;
            x += f * (i % b) as f64;
            i /= b;
        }
        let y = x + shift[d];
        // Stay below 1 after the shift (and its rounding).
        let y = if y >= 1.0 { y - 1.0 } else { y };
        y.min(1.0 - f64::EPSILON)
    })
}

/// The basis of a sender's `h=`, as rfluxmtx's sampler picks it.
pub fn sender_basis(h: &Hemisphere) -> Result<Basis, String> {
    let b = h.text.as_bytes();
    let c0 = b.first().map_or(0, u8::to_ascii_lowercase);
    let c1 = b.get(1).map_or(0, u8::to_ascii_lowercase);
    let unrecognized = || {
        format!(
            "unrecognized sender sampling h={}: expected u, kf, kh, kq, rN or scN",
            h.text
        )
    };
    if c0 == b'u' || b.first() == Some(&b'1') {
        Ok(Basis::Uniform)
    } else if c0 == b's' && c1 == b'c' {
        Ok(Basis::ShirleyChiu(h.size))
    } else if c0 == b'r' || c0 == b't' {
        Ok(Basis::Reinhart(h.size))
    } else if c0 == b'k' {
        match c1 {
            0 | b'f' | b'1' => Ok(Basis::Klems(Klems::Full)),
            b'h' | b'2' => Ok(Basis::Klems(Klems::Half)),
            b'q' | b'4' => Ok(Basis::Klems(Klems::Quarter)),
            _ => Err(unrecognized()),
        }
    } else {
        Err(unrecognized())
    }
}

/// Reads a sender file, inline commands expanded as for receivers
/// ([`super::read_receivers`]).
pub fn read_sender(path: &Path) -> Result<Sender, RfluxError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RfluxError::File {
        file: source.clone(),
        msg: format!("cannot read: {e}"),
    })?;
    parse_sender_with(&text, &source, &mut |cmd, loc| {
        super::native_command(cmd, loc)
    })
}

/// Parses sender text (named `source` in messages). An inline `!command` is an error; see
/// [`parse_sender_with`].
pub fn parse_sender(text: &str, source: &str) -> Result<Sender, RfluxError> {
    parse_sender_with(text, source, &mut |cmd, loc| {
        Err(located(
            loc,
            format!("inline command '!{cmd}' in a sender file: daylit does not run it here"),
        ))
    })
}

/// Parses sender text; `expand` turns an inline `!command` into scene text read in its place.
pub fn parse_sender_with(
    text: &str,
    source: &str,
    expand: &mut dyn FnMut(&str, &Loc) -> Result<String, RfluxError>,
) -> Result<Sender, RfluxError> {
    let mut st = SenderState::default();
    read_objects(&mut st, text, source, expand, 0)?;
    st.finish(source)
}

#[derive(Default)]
struct SenderState {
    /// Annotations read since the last surface.
    pending: Vec<Annotation>,
    /// Parameters in force, with where they were set.
    hemisphere: Option<(Hemisphere, Loc)>,
    up: Option<(DVec3, Loc)>,
    output: Option<(String, Loc)>,
    modifier: Option<String>,
    surfaces: Vec<SenderSurface>,
    /// Area-weighted normal sum.
    nrm: [f64; 3],
    warnings: Vec<String>,
}

impl Collect for SenderState {
    fn annotation(&mut self, a: Annotation) {
        self.pending.push(a);
    }

    fn surface(
        &mut self,
        modifier: &str,
        kind: SurfaceKind,
        name: &str,
        f: &[f64],
        loc: &Loc,
    ) -> Result<(), RfluxError> {
        if kind == SurfaceKind::Source {
            return Err(located(
                loc,
                format!("source '{name}': a source cannot be a sender (use a polygon or ring)"),
            ));
        }
        match &self.modifier {
            None => self.modifier = Some(modifier.into()),
            Some(m) if m != modifier => {
                self.warnings.push(format!(
                    "{loc}: {kind} '{name}' has modifier '{modifier}', not '{m}': rfluxmtx warns \
                     of several modifiers in a sender and samples all its surfaces as one"
                ));
                self.modifier = Some(modifier.into());
            }
            Some(_) => {}
        }
        for a in std::mem::take(&mut self.pending) {
            if let Some(h) = a.hemisphere {
                self.hemisphere = Some((h, a.loc.clone()));
            }
            if let Some(u) = a.up {
                self.up = Some((u, a.loc.clone()));
            }
            if let Some(o) = a.output {
                self.output = Some((o, a.loc.clone()));
            }
        }
        let Some((normal, area)) = surface_geometry(kind, name, f, loc)? else {
            return Ok(());
        };
        if area <= 1e-12 {
            self.warnings.push(format!(
                "{loc}: {kind} '{name}' has zero area and is left out of the sender"
            ));
            return Ok(());
        }
        let n = DVec3::from_array(normal);
        let shape = match kind {
            SurfaceKind::Ring => Shape::Ring {
                center: DVec3::new(f[0], f[1], f[2]),
                axes: tangent_axes(n),
                r0: f[6].min(f[7]),
                r1: f[6].max(f[7]),
            },
            _ => self.triangles(name, f, n, loc)?,
        };
        for (s, c) in self.nrm.iter_mut().zip(normal) {
            *s += area * c;
        }
        self.surfaces.push(SenderSurface {
            name: name.into(),
            kind,
            normal: n,
            area,
            loc: loc.clone(),
            shape,
        });
        Ok(())
    }

    fn other(&mut self, _: &str, _: &str, _: &str, _: Loc) {}
}

/// Two unit vectors perpendicular to `n` and to each other.
fn tangent_axes(n: DVec3) -> [DVec3; 2] {
    let a = n.any_orthonormal_vector();
    [a, n.cross(a)]
}

impl SenderState {
    /// A polygon cut into triangles (ears clipped in its plane), each weighted by its area.
    fn triangles(
        &mut self,
        name: &str,
        f: &[f64],
        n: DVec3,
        loc: &Loc,
    ) -> Result<Shape, RfluxError> {
        let v: Vec<DVec3> = f.chunks(3).map(|c| DVec3::new(c[0], c[1], c[2])).collect();
        // Corners off the plane: RADIANCE samples such a polygon all the same; say so.
        let size = v.iter().map(|p| (*p - v[0]).length()).fold(0.0, f64::max);
        let off = v
            .iter()
            .map(|p| (*p - v[0]).dot(n).abs())
            .fold(0.0, f64::max);
        if off > 1e-4 * size {
            self.warnings.push(format!(
                "{loc}: polygon '{name}' is not planar (a corner lies {off:.3e} off its plane): \
                 origins are drawn on its triangles"
            ));
        }
        let mut tris = Vec::new();
        if v.len() == 3 {
            tris.push([v[0], v[1], v[2]]);
        } else {
            let [a, b] = tangent_axes(n);
            let flat: Vec<[f64; 2]> = v.iter().map(|p| [p.dot(a), p.dot(b)]).collect();
            if !clip_ears(&flat, |i, j, k| tris.push([v[i], v[j], v[k]])) {
                return Err(located(
                    loc,
                    format!(
                        "polygon '{name}': cannot cut it into triangles to sample (its edges \
                         cross?)"
                    ),
                ));
            }
        }
        let areas: Vec<f64> = tris
            .iter()
            .map(|[a, b, c]| 0.5 * (*b - *a).cross(*c - *a).length())
            .collect();
        let total: f64 = areas.iter().sum();
        let mut run = 0.0;
        let cumulative = areas
            .iter()
            .map(|a| {
                run += a / total;
                run
            })
            .collect();
        Ok(Shape::Triangles { tris, cumulative })
    }

    fn finish(self, source: &str) -> Result<Sender, RfluxError> {
        let mut warnings = self.warnings;
        let Some(first) = self.surfaces.first() else {
            return Err(RfluxError::File {
                file: source.into(),
                msg: "no sender surface: rfluxmtx needs a polygon or ring after a \
                      '#@rfluxmtx h=...' line"
                    .into(),
            });
        };
        let first = first.loc.clone();
        for a in &self.pending {
            warnings.push(format!(
                "{}: this #@rfluxmtx line follows the last sender surface and applies to none",
                a.loc
            ));
        }
        if let Some((o, loc)) = &self.output {
            warnings.push(format!(
                "{loc}: o={o} is ignored in a sender (outputs belong to receivers)"
            ));
        }
        let modifier = self.modifier.unwrap_or_default();
        let Some((hemisphere, hloc)) = self.hemisphere else {
            return Err(located(
                &first,
                "the sender has no hemisphere sampling type: put '#@rfluxmtx h=...' (u, kf, kh, \
                 kq, rN or scN) before its first surface",
            ));
        };
        let basis = sender_basis(&hemisphere).map_err(|m| located(&hloc, m))?;
        let mut nrm = self.nrm;
        if normalize(&mut nrm) == 0.0 {
            return Err(located(
                &first,
                "the normals of the sender's surfaces cancel (undefined normal for sender \
                 sampling)",
            ));
        }
        let normal = DVec3::from_array(nrm);
        let mut up = self.up.as_ref().map_or([0.0; 3], |u| u.0.to_array());
        if normalize(&mut up) == 0.0 {
            up = if nrm[2].abs() < 0.7 {
                [0.0, 0.0, 1.0]
            } else {
                [0.0, 1.0, 0.0]
            };
        }
        let up = DVec3::from_array(up);
        let mut u = up.cross(normal).to_array();
        if normalize(&mut u) == 0.0 {
            let at = self.up.map_or(first, |u| u.1);
            return Err(located(
                &at,
                "the sender's up vector is parallel to its normal: give another with u=",
            ));
        }
        let mut u = DVec3::from_array(u);
        let v = normal.cross(u);
        if hemisphere.left_handed {
            u = -u;
        }
        Ok(Sender {
            modifier,
            hemisphere,
            basis,
            normal,
            up,
            axes: [u, v],
            surfaces: self.surfaces,
            warnings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rfluxmtx::HemisphereBins;

    fn window(h: &str) -> Sender {
        parse_sender(
            &format!("#@rfluxmtx h={h} u=Z\nvoid polygon w 0 0 12 0 0 0 0 0 1 1 0 1 1 0 0\n"),
            "w.rad",
        )
        .unwrap()
    }

    /// A sender's rays of each bin fall in the same bin of a receiver made of the same
    /// surface (rays leave a sender's back and arrive at a receiver's front, both against
    /// the normal): rfluxmtx's conventions meet, so a receiver file (a window of a view
    /// matrix) can be reused as the sender of the next matrix and the matrices concatenate.
    #[test]
    fn sender_rays_fall_in_their_own_receiver_bins() {
        for (h, basis) in [
            ("kf", Basis::Klems(Klems::Full)),
            ("kq", Basis::Klems(Klems::Quarter)),
            ("-kh", Basis::Klems(Klems::Half)),
            ("sc4", Basis::ShirleyChiu(4)),
            ("-sc3", Basis::ShirleyChiu(3)),
            ("r1", Basis::Reinhart(1)),
        ] {
            let s = window(h);
            assert_eq!(s.basis, basis);
            let recv = HemisphereBins::new(basis, s.normal, s.up, s.hemisphere.left_handed);
            for bin in 0..s.bin_count() {
                for (a, b) in [(0.5, 0.5), (0.1, 0.9), (0.9, 0.2)] {
                    let d = s.ray_direction(s.local_direction(bin, a, b));
                    assert!((d.length() - 1.0).abs() < 1e-12);
                    assert!(d.dot(s.normal) < 0.0, "rays leave from the back");
                    assert_eq!(recv.bin(d), Some(bin), "{h} bin {bin} ({a}, {b})");
                }
            }
        }
    }

    /// Reinhart bins: the sample of a patch's centre lies inside the patch's altitude band
    /// and azimuth sector; the zenith cap is the last bin.
    #[test]
    fn reinhart_samples_stay_in_their_rows() {
        let s = window("r2");
        assert_eq!(s.bin_count(), 577);
        let rows = 15;
        let h = FRAC_PI_2 / (rows as f64 - 0.5);
        let mut bin = 0;
        for row in 0..rows {
            let n = if row + 1 == rows {
                1
            } else {
                2 * TREGENZA_ROWS[row / 2] as usize
            };
            for _ in 0..n {
                let d = s.local_direction(bin, 0.5, 0.5);
                let alt = d.z.asin();
                if row + 1 < rows {
                    assert!(alt > row as f64 * h && alt < (row + 1) as f64 * h, "{bin}");
                } else {
                    assert!(alt > (row as f64 - 0.5) * h, "zenith");
                }
                bin += 1;
            }
        }
        assert_eq!(bin, 577);
    }

    /// Origins are uniform over the area: a concave (L-shaped) polygon's samples all lie on
    /// it and split between its two arms by area.
    #[test]
    fn origins_cover_a_concave_polygon_by_area() {
        let s = parse_sender(
            "#@rfluxmtx h=u\nvoid polygon l 0 0 18 0 0 0 0 2 0 1 2 0 1 1 0 3 1 0 3 0 0\n",
            "l.rad",
        )
        .unwrap();
        let rays = s.rays(3000, 1).unwrap();
        let mut upper = 0;
        for r in &rays {
            let p = r.origin;
            assert!(p.z == 0.0 && p.x >= 0.0 && p.y >= 0.0 && p.x <= 3.0 && p.y <= 2.0);
            assert!(!(p.x > 1.0 && p.y > 1.0), "{p} is off the polygon");
            upper += usize::from(p.y > 1.0);
        }
        // Area 4: the arm above y = 1 holds 1 of it.
        let f = upper as f64 / rays.len() as f64;
        assert!((f - 0.25).abs() < 0.01, "{f}");
    }

    /// h=cie is for receivers only; a sender takes sc1 (one cosine-weighted bin).
    #[test]
    fn sender_bases() {
        assert!(parse_sender(
            "#@rfluxmtx h=cie\nvoid ring r 0 0 8 0 0 0 0 0 1 0 1\n",
            "c.rad"
        )
        .is_err());
        let s = parse_sender(
            "#@rfluxmtx h=sc\nvoid ring r 0 0 8 0 0 0 0 0 1 0 1\n",
            "c.rad",
        )
        .unwrap();
        assert_eq!(s.basis, Basis::ShirleyChiu(1));
        assert_eq!(s.bin_count(), 1);
    }
}
