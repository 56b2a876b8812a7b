//! View geometry as evalglare sees it: RADIANCE's `setview`/`viewray` arithmetic (with its
//! first-order `normalize`), pixel solid angles as spherical quadrilaterals of the pixel
//! corners, the angles of a direction relative to the line of sight, and the position index.
//!
//! These follow the published behaviour of RADIANCE's `image.c` and evalglare's `pictool.c`
//! step by step (not the smoother [`daylit_image::ViewFrame`] forms), because glare-source
//! detection compares angular distances against thresholds and small differences in pixel
//! directions would change which pixels belong to a source.

use daylit_image::{View, ViewType};
use glam::DVec3;

/// RADIANCE's FTINY for double-precision builds.
const FTINY: f64 = 1e-6;
/// The π evalglare writes as a literal in its formulas (not `f64::consts::PI`).
#[allow(clippy::approx_constant)]
pub const PI_EG: f64 = 3.1415927;

/// RADIANCE's `normalize`: scales `v` to unit length and returns the old length (0 for a zero
/// vector, which is left alone). Near unit length it uses RADIANCE's first-order correction
/// instead of a square root. (Sums and products in the order of the reference evalglare
/// binary, which RADIANCE's build compiles with `-ffast-math`.)
pub fn normalize(v: &mut DVec3) -> f64 {
    let d = v.x * v.x + (v.y * v.y + v.z * v.z);
    if d == 0.0 {
        return 0.0;
    }
    let (len, f) = if (1.0 - FTINY..=1.0 + FTINY).contains(&d) {
        let len = (d + 1.0) * 0.5;
        (len, 2.0 - len)
    } else {
        let len = d.sqrt();
        (len, 1.0 / len)
    };
    v.x *= f;
    v.y *= f;
    v.z *= f;
    len
}

/// Dot product in RADIANCE's order of operations.
#[inline]
pub fn dot(a: DVec3, b: DVec3) -> f64 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

#[inline]
fn cross(a: DVec3, b: DVec3) -> DVec3 {
    DVec3::new(
        a.y * b.z - a.z * b.y,
        a.z * b.x - a.x * b.z,
        a.x * b.y - a.y * b.x,
    )
}

/// A view after RADIANCE's `setview`: unit direction and up vector, the scaled image-plane
/// vectors and the squared extents.
#[derive(Debug, Clone)]
pub struct RadView {
    pub typ: ViewType,
    pub vp: DVec3,
    pub vdir: DVec3,
    pub vup: DVec3,
    pub horiz: f64,
    pub vert: f64,
    pub hoff: f64,
    pub voff: f64,
    pub vfore: f64,
    pub vaft: f64,
    hvec: DVec3,
    vvec: DVec3,
    hn2: f64,
    vn2: f64,
}

impl RadView {
    /// Checks and sets up a view as RADIANCE's `setview` does; the message on failure is
    /// RADIANCE's.
    pub fn new(v: &View) -> Result<RadView, String> {
        if (v.vfore < -FTINY) || (v.vaft < -FTINY) || (v.vaft > FTINY && v.vaft <= v.vfore) {
            return Err("illegal fore/aft clipping plane".into());
        }
        let mut vdir = v.vdir;
        if normalize(&mut vdir) == 0.0 {
            return Err("zero view direction".into());
        }
        let mut vup = v.vup;
        if normalize(&mut vup) == 0.0 {
            return Err("zero view up vector".into());
        }
        let mut hvec = cross(vdir, vup);
        if normalize(&mut hvec) == 0.0 {
            return Err("view up parallel to view direction".into());
        }
        let mut vvec = cross(hvec, vdir);
        let (ill_h, ill_v) = (
            || Err("illegal horizontal view size".to_string()),
            || Err("illegal vertical view size".to_string()),
        );
        if v.horiz <= FTINY {
            return ill_h();
        }
        if v.vert <= FTINY {
            return ill_v();
        }
        let half = std::f64::consts::PI / 360.0;
        let (hn, vn) = match v.typ {
            ViewType::Parallel => (v.horiz, v.vert),
            ViewType::Perspective => {
                if v.horiz >= 180.0 - FTINY {
                    return ill_h();
                }
                if v.vert >= 180.0 - FTINY {
                    return ill_v();
                }
                (2.0 * (v.horiz * half).tan(), 2.0 * (v.vert * half).tan())
            }
            ViewType::Cylindrical => {
                if v.horiz > 360.0 + FTINY {
                    return ill_h();
                }
                if v.vert >= 180.0 - FTINY {
                    return ill_v();
                }
                (
                    v.horiz * (std::f64::consts::PI / 180.0),
                    2.0 * (v.vert * half).tan(),
                )
            }
            ViewType::Angular => {
                if v.horiz > 360.0 + FTINY {
                    return ill_h();
                }
                if v.vert > 360.0 + FTINY {
                    return ill_v();
                }
                (
                    v.horiz * (std::f64::consts::PI / 180.0),
                    v.vert * (std::f64::consts::PI / 180.0),
                )
            }
            ViewType::Hemispherical => {
                if v.horiz > 180.0 + FTINY {
                    return ill_h();
                }
                if v.vert > 180.0 + FTINY {
                    return ill_v();
                }
                (2.0 * (v.horiz * half).sin(), 2.0 * (v.vert * half).sin())
            }
            ViewType::Planisphere => {
                if v.horiz >= 360.0 - FTINY {
                    return ill_h();
                }
                if v.vert >= 360.0 - FTINY {
                    return ill_v();
                }
                (
                    2.0 * (v.horiz * half).sin() / (1.0 + (v.horiz * half).cos()),
                    2.0 * (v.vert * half).sin() / (1.0 + (v.vert * half).cos()),
                )
            }
        };
        if v.typ != ViewType::Angular && v.typ != ViewType::Planisphere {
            if v.typ != ViewType::Cylindrical {
                hvec *= hn;
            }
            vvec *= vn;
        }
        // evalglare re-normalises the direction and up vectors in place on every angle query;
        // settle them at RADIANCE's fixed point once.
        for _ in 0..8 {
            let (d0, u0) = (vdir, vup);
            normalize(&mut vdir);
            normalize(&mut vup);
            if d0 == vdir && u0 == vup {
                break;
            }
        }
        Ok(RadView {
            typ: v.typ,
            vp: v.vp,
            vdir,
            vup,
            horiz: v.horiz,
            vert: v.vert,
            hoff: v.hoff,
            voff: v.voff,
            vfore: v.vfore,
            vaft: v.vaft,
            hvec,
            vvec,
            hn2: hn * hn,
            vn2: vn * vn,
        })
    }

    /// The view as options (for the header of a written picture).
    pub fn to_view(&self) -> View {
        View {
            typ: self.typ,
            vp: self.vp,
            vdir: self.vdir,
            vup: self.vup,
            horiz: self.horiz,
            vert: self.vert,
            vfore: self.vfore,
            vaft: self.vaft,
            hoff: self.hoff,
            voff: self.voff,
        }
    }

    /// RADIANCE's `viewray` direction through image point `(x, y)` (RADIANCE image
    /// coordinates, y up), not normalised for the fisheye projections (as RADIANCE leaves
    /// it); `None` where the projection has no ray.
    pub fn ray(&self, x: f64, y: f64) -> Option<DVec3> {
        // The sums in the order of the reference evalglare binary (see `normalize`).
        let x = (x - 0.5) + self.hoff;
        let y = (y - 0.5) + self.voff;
        let (d, h, v) = (self.vdir, self.hvec, self.vvec);
        let comb = |z: f64, x: f64, y: f64| {
            DVec3::new(
                (x * h.x + y * v.x) + z * d.x,
                (x * h.y + y * v.y) + z * d.y,
                (x * h.z + y * v.z) + z * d.z,
            )
        };
        match self.typ {
            ViewType::Parallel => Some(d),
            ViewType::Perspective => {
                let mut dir = comb(1.0, x, y);
                normalize(&mut dir);
                Some(dir)
            }
            ViewType::Hemispherical => {
                let s = x * x * self.hn2 + y * y * self.vn2;
                if s > 1.0 {
                    return None;
                }
                Some(comb((1.0 - s).sqrt(), x, y))
            }
            ViewType::Cylindrical => {
                let a = (std::f64::consts::PI / 180.0 * self.horiz) * x;
                let (sa, ca) = a.sin_cos();
                let mut dir = DVec3::new(
                    (ca * d.x + sa * h.x) + y * v.x,
                    (ca * d.y + sa * h.y) + y * v.y,
                    (ca * d.z + sa * h.z) + y * v.z,
                );
                normalize(&mut dir);
                Some(dir)
            }
            ViewType::Angular => {
                let x = x * ((1.0 / 180.0) * self.horiz);
                let y = y * ((1.0 / 180.0) * self.vert);
                let d2 = x * x + y * y;
                if d2 > 1.0 {
                    return None;
                }
                let r = d2.sqrt();
                let z = (std::f64::consts::PI * r).cos();
                let s = if d2 <= FTINY * FTINY {
                    std::f64::consts::PI
                } else {
                    (1.0 - z * z).sqrt() / r
                };
                Some(comb(z, x * s, y * s))
            }
            ViewType::Planisphere => {
                let x = x * self.hn2.sqrt();
                let y = y * self.vn2.sqrt();
                let d2 = x * x + y * y;
                let z = (1.0 - d2) / (1.0 + d2);
                Some(comb(z, x * (1.0 + z), y * (1.0 + z)))
            }
        }
    }

    /// Whether the ray of an image point splits into a part that depends only on the absolute
    /// offsets from the centre ([`RadView::radial`]) and a cheap combination
    /// ([`RadView::combine`]) — the fisheye projections.
    pub fn separable(&self) -> bool {
        matches!(self.typ, ViewType::Angular | ViewType::Hemispherical)
    }

    /// Offsets of image point `(x, y)` from the view centre, as `viewray` forms them.
    #[inline]
    pub fn offsets(&self, x: f64, y: f64) -> (f64, f64) {
        ((x - 0.5) + self.hoff, (y - 0.5) + self.voff)
    }

    /// For a separable view: the part of the ray that depends on the offsets' magnitudes —
    /// the component along the view direction and the lateral scale — or `None` where the
    /// projection has no ray. Exactly the values [`RadView::ray`] computes.
    #[inline]
    pub fn radial(&self, ax: f64, ay: f64) -> Option<(f64, f64)> {
        match self.typ {
            ViewType::Hemispherical => {
                let s = ax * ax * self.hn2 + ay * ay * self.vn2;
                (s <= 1.0).then(|| ((1.0 - s).sqrt(), 1.0))
            }
            _ => {
                let x = ax * ((1.0 / 180.0) * self.horiz);
                let y = ay * ((1.0 / 180.0) * self.vert);
                let d2 = x * x + y * y;
                if d2 > 1.0 {
                    return None;
                }
                let r = d2.sqrt();
                let z = (std::f64::consts::PI * r).cos();
                let s = if d2 <= FTINY * FTINY {
                    std::f64::consts::PI
                } else {
                    (1.0 - z * z).sqrt() / r
                };
                Some((z, s))
            }
        }
    }

    /// For a separable view: the ray at offsets `(ox, oy)` from the radial part of their
    /// magnitudes.
    #[inline]
    pub fn combine(&self, ox: f64, oy: f64, (z, s): (f64, f64)) -> DVec3 {
        let (d, h, v) = (self.vdir, self.hvec, self.vvec);
        let (x, y) = match self.typ {
            ViewType::Hemispherical => (ox, oy),
            _ => (
                ox * ((1.0 / 180.0) * self.horiz) * s,
                oy * ((1.0 / 180.0) * self.vert) * s,
            ),
        };
        DVec3::new(
            (x * h.x + y * v.x) + z * d.x,
            (x * h.y + y * v.y) + z * d.y,
            (x * h.z + y * v.z) + z * d.z,
        )
    }

    /// The angles of direction `dir` (as a pixel's ray gives it) that evalglare's position
    /// index uses, in radians.
    pub fn angles(&self, dir: DVec3) -> Angles {
        angles_of(self.vdir, self.vup, dir)
    }

    /// evalglare's position index of a direction (model 0: Guth, with the Iwata/CIE 2010
    /// form below the line of sight; model 1: Kim), rounded to single precision as
    /// evalglare returns it.
    pub fn posindex(&self, dir: DVec3, model: i32) -> f32 {
        // The azimuth does not enter the index: leave its acos out.
        posindex_of(&angles_of_without_azimuth(self.vdir, self.vup, dir), model)
    }
}

/// The angles of `dir` relative to a line of sight `vdir` (unit) with up vector `vup` (unit),
/// measured as evalglare's `pictool` measures them.
pub fn angles_of(vdir: DVec3, vup: DVec3, dir: DVec3) -> Angles {
    let hv = cross(vdir, vup);
    Angles {
        hangle: std::f64::consts::FRAC_PI_2 - dot(hv, dir).acos(),
        ..angles_of_without_azimuth(vdir, vup, dir)
    }
}

/// [`angles_of`] with `hangle` left at 0.
fn angles_of_without_azimuth(vdir: DVec3, vup: DVec3, dir: DVec3) -> Angles {
    let hv = cross(vdir, vup);
    let vv = cross(vdir, hv);
    let vangle = dot(vv, dir).acos() - std::f64::consts::FRAC_PI_2;
    let hangle = 0.0;
    let sigma = dot(vdir, dir).acos();
    let mut t = dir;
    normalize(&mut t);
    let c = sigma.cos();
    t = DVec3::new(t.x / c, t.y / c, t.z / c);
    t = DVec3::new(t.x - vdir.x, t.y - vdir.y, t.z - vdir.z);
    normalize(&mut t);
    let tau = dot(vup, t).acos();
    Angles {
        vangle,
        hangle,
        sigma,
        tau,
    }
}

/// Angles of a direction relative to a view, as evalglare's `pictool` measures them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Angles {
    /// Elevation above the horizontal plane of the view (positive above the line of sight).
    pub vangle: f64,
    /// Azimuth in the horizontal plane of the view.
    pub hangle: f64,
    /// Angle from the line of sight.
    pub sigma: f64,
    /// Angle between the view's up vector and the plane through the line of sight and the
    /// direction.
    pub tau: f64,
}

/// The position index from angles (see [`RadView::posindex`]).
pub fn posindex_of(a: &Angles, model: i32) -> f32 {
    let deg = 180.0 / PI_EG;
    let phi = if a.vangle == 0.0 { 0.00001 } else { a.vangle };
    let sigma = a.sigma.abs() * deg;
    let tau = a.tau * deg;
    let p = if model == 1 {
        ((sigma - (-0.000009 * tau * tau * tau + 0.0014 * tau * tau + 0.0866 * tau + 21.633))
            / (-0.000009 * tau * tau * tau + 0.0013 * tau * tau + 0.0853 * tau + 8.772))
            .exp()
    } else {
        let mut p = ((35.2 - 0.31889 * tau - 1.22 * (-2.0 * tau / 9.0).exp()) / 1000.0 * sigma
            + (21.0 + 0.26667 * tau - 0.002963 * tau * tau) / 100000.0 * sigma * sigma)
            .exp();
        if phi < 0.0 {
            let beta = ((sigma / deg).tan() * (1.0 + 0.3225 * (tau / deg).cos().powf(2.0)).sqrt())
                .atan()
                * deg;
            p = (6.49 / 1000.0 * beta + 21.0 / 100000.0 * beta * beta).exp();
        }
        p.min(16.0)
    };
    p as f32
}

/// The smallest `d` with `acos(d) <= t`: `d >= threshold && d <= 1` is then exactly the test
/// `acos(d) <= t` (acos is monotone; above 1 it is NaN), without calling acos per pixel.
pub fn acos_threshold(t: f64) -> f64 {
    if t.is_nan() || 1.0f64.acos() > t {
        return f64::INFINITY;
    }
    if (-1.0f64).acos() <= t {
        return f64::NEG_INFINITY;
    }
    // Order-preserving map of doubles to integers; bisect for the boundary in [-1, 1].
    let key = |x: f64| -> i64 {
        let b = x.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    let unkey = |k: i64| -> f64 {
        let b = if k < 0 { i64::MIN - k } else { k };
        f64::from_bits(b as u64)
    };
    // acos(lo) > t, acos(hi) <= t
    let (mut lo, mut hi) = (key(-1.0), key(1.0));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if unkey(mid).acos() <= t {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    unkey(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_matches_radiance_rules() {
        let mut v = DVec3::new(3.0, 4.0, 0.0);
        assert_eq!(normalize(&mut v), 5.0);
        assert!((v.length() - 1.0).abs() < 1e-15);
        let mut z = DVec3::ZERO;
        assert_eq!(normalize(&mut z), 0.0);
        // Near unit length: first-order correction, returns (1 + d) / 2.
        let mut n = DVec3::new(1.0 + 1e-7, 0.0, 0.0);
        let len = normalize(&mut n);
        assert!((len - (1.0 + 1e-7)).abs() < 1e-13);
    }

    #[test]
    fn threshold_is_exactly_the_acos_test() {
        for t in [0.05f64, 0.1, 0.2f32 as f64 / 2.0, 1.0, 3.0] {
            let th = acos_threshold(t);
            assert!(th.acos() <= t);
            let below = th.next_down();
            assert!(below.acos() > t, "{t}");
        }
        assert_eq!(acos_threshold(-1.0), f64::INFINITY);
        assert_eq!(acos_threshold(4.0), f64::NEG_INFINITY);
    }

    #[test]
    fn position_index_on_axis_is_one_and_grows_off_axis() {
        let v = RadView::new(&View::parse("-vta -vh 180 -vv 180").unwrap()).unwrap();
        let p0 = v.posindex(v.vdir, 0);
        assert!((p0 - 1.0).abs() < 1e-6, "{p0}");
        // 30° to the side, in the horizontal plane: Guth's formula with tau = 90°.
        let d = DVec3::new(30f64.to_radians().sin(), 30f64.to_radians().cos(), 0.0);
        let p = v.posindex(d, 0) as f64;
        let (s, t) = (30.0 * 180.0 / PI_EG * PI_EG / 180.0, 90.0);
        let want = ((35.2 - 0.31889 * t - 1.22 * (-2.0 * t / 9.0f64).exp()) / 1000.0 * s
            + (21.0 + 0.26667 * t - 0.002963 * t * t) / 100000.0 * s * s)
            .exp();
        assert!((p - want).abs() < 1e-3 * want, "{p} {want}");
        // Above the line of sight a source is less glaring than at the side.
        let up = DVec3::new(0.0, 30f64.to_radians().cos(), 30f64.to_radians().sin());
        assert!(v.posindex(up, 0) > 1.0);
    }
}
