//! RADIANCE views: the `-v` options, and for each pixel the ray RADIANCE's `viewray` gives.
//!
//! Image coordinates as RADIANCE uses them: `x` from the left edge, `y` from the *bottom* edge,
//! both in [0, 1]; pixel `(i, j)` (j counted from the bottom) has its centre at
//! `((i + 0.5) / xres, (j + 0.5) / yres)`. The top scanline of a standard file is `j = yres − 1`;
//! [`ViewFrame::pixel_ray`] takes rows counted from the top, as [`crate::HdrImage`] does.

use glam::DVec3;

/// The projection (`-vt?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewType {
    /// `-vtv`
    Perspective,
    /// `-vtl`
    Parallel,
    /// `-vtc`
    Cylindrical,
    /// `-vth`
    Hemispherical,
    /// `-vta`
    Angular,
    /// `-vts`
    Planisphere,
}

impl ViewType {
    pub fn letter(self) -> char {
        match self {
            ViewType::Perspective => 'v',
            ViewType::Parallel => 'l',
            ViewType::Cylindrical => 'c',
            ViewType::Hemispherical => 'h',
            ViewType::Angular => 'a',
            ViewType::Planisphere => 's',
        }
    }
}

/// A bad view option or an impossible view.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("view: {0}")]
pub struct ViewError(pub String);

/// View parameters as given (RADIANCE's defaults: `-vtv -vp 0 0 0 -vd 0 1 0 -vu 0 0 1 -vh 45
/// -vv 45 -vo 0 -va 0 -vs 0 -vl 0`).
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub typ: ViewType,
    pub vp: DVec3,
    pub vdir: DVec3,
    pub vup: DVec3,
    pub horiz: f64,
    pub vert: f64,
    pub vfore: f64,
    pub vaft: f64,
    pub hoff: f64,
    pub voff: f64,
}

impl Default for View {
    fn default() -> View {
        View {
            typ: ViewType::Perspective,
            vp: DVec3::ZERO,
            vdir: DVec3::Y,
            vup: DVec3::Z,
            horiz: 45.0,
            vert: 45.0,
            vfore: 0.0,
            vaft: 0.0,
            hoff: 0.0,
            voff: 0.0,
        }
    }
}

impl View {
    /// Parses view options over RADIANCE's default view (see [`View::apply`]).
    pub fn parse(s: &str) -> Result<View, ViewError> {
        let mut v = View::default();
        v.apply(s)?;
        Ok(v)
    }

    /// Applies the `-v` options found in `s` (a `VIEW=` value or a command line), in order.
    /// Words that do not start with `-v` (a program name, other options) are skipped, as
    /// RADIANCE's `sscanview` does; a `-v` option with a missing or non-numeric argument, an
    /// unknown `-v` option or view type is an error. `-vf` (view files) is not read.
    pub fn apply(&mut self, s: &str) -> Result<(), ViewError> {
        let w: Vec<&str> = s.split_whitespace().collect();
        let mut i = 0;
        while i < w.len() {
            let opt = w[i];
            i += 1;
            let Some(o) = opt.strip_prefix("-v") else {
                continue;
            };
            let mut nums = |n: usize| -> Result<Vec<f64>, ViewError> {
                let args = w.get(i..i + n).ok_or_else(|| {
                    ViewError(format!(
                        "{opt} needs {n} number{}",
                        if n > 1 { "s" } else { "" }
                    ))
                })?;
                i += n;
                args.iter()
                    .map(|a| {
                        a.parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite())
                            .ok_or_else(|| ViewError(format!("{opt}: bad number {a:?}")))
                    })
                    .collect()
            };
            let vec3 = |n: Vec<f64>| DVec3::new(n[0], n[1], n[2]);
            match o {
                "tv" => self.typ = ViewType::Perspective,
                "tl" => self.typ = ViewType::Parallel,
                "tc" => self.typ = ViewType::Cylindrical,
                "th" => self.typ = ViewType::Hemispherical,
                "ta" => self.typ = ViewType::Angular,
                "ts" => self.typ = ViewType::Planisphere,
                "p" => self.vp = vec3(nums(3)?),
                "d" => self.vdir = vec3(nums(3)?),
                "u" => self.vup = vec3(nums(3)?),
                "h" => self.horiz = nums(1)?[0],
                "v" => self.vert = nums(1)?[0],
                "o" => self.vfore = nums(1)?[0],
                "a" => self.vaft = nums(1)?[0],
                "s" => self.hoff = nums(1)?[0],
                "l" => self.voff = nums(1)?[0],
                _ => return Err(ViewError(format!("unknown view option {opt}"))),
            }
        }
        Ok(())
    }

    /// The options that give this view, as RADIANCE writes a `VIEW=` line.
    pub fn to_options(&self) -> String {
        format!(
            "-vt{} -vp {} {} {} -vd {} {} {} -vu {} {} {} -vh {} -vv {} -vo {} -va {} -vs {} -vl {}",
            self.typ.letter(),
            self.vp.x,
            self.vp.y,
            self.vp.z,
            self.vdir.x,
            self.vdir.y,
            self.vdir.z,
            self.vup.x,
            self.vup.y,
            self.vup.z,
            self.horiz,
            self.vert,
            self.vfore,
            self.vaft,
            self.hoff,
            self.voff
        )
    }

    /// Whether two views give the same rays (directions compared after normalising, numbers
    /// within 1e-6 relative).
    pub fn same_as(&self, o: &View) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * (1.0 + a.abs().max(b.abs()));
        let closev = |a: DVec3, b: DVec3| close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z);
        self.typ == o.typ
            && closev(self.vp, o.vp)
            && closev(self.vdir.normalize_or_zero(), o.vdir.normalize_or_zero())
            && closev(self.vup.normalize_or_zero(), o.vup.normalize_or_zero())
            && close(self.horiz, o.horiz)
            && close(self.vert, o.vert)
            && close(self.vfore, o.vfore)
            && close(self.vaft, o.vaft)
            && close(self.hoff, o.hoff)
            && close(self.voff, o.voff)
    }

    /// Checks the view as RADIANCE's `setview` does and computes the image-plane vectors.
    pub fn frame(&self) -> Result<ViewFrame, ViewError> {
        const FTINY: f64 = 1e-6;
        let e = |m: &str| Err(ViewError(m.to_string()));
        if self.vfore < -FTINY
            || self.vaft < -FTINY
            || (self.vaft > FTINY && self.vaft <= self.vfore)
        {
            return e("illegal fore/aft clipping plane");
        }
        let vdir = self.vdir.normalize_or_zero();
        if vdir == DVec3::ZERO {
            return e("zero view direction");
        }
        let vup = self.vup.normalize_or_zero();
        if vup == DVec3::ZERO {
            return e("zero view up vector");
        }
        let hu = vdir.cross(vup).normalize_or_zero();
        if hu == DVec3::ZERO {
            return e("view up parallel to view direction");
        }
        let vu = hu.cross(vdir);
        let (h, v) = (self.horiz, self.vert);
        if h <= FTINY {
            return e("illegal horizontal view size");
        }
        if v <= FTINY {
            return e("illegal vertical view size");
        }
        let ill_h = || ViewError("illegal horizontal view size".into());
        let ill_v = || ViewError("illegal vertical view size".into());
        let half = |a: f64| a.to_radians() / 2.0;
        let (hn, vn) = match self.typ {
            ViewType::Parallel => (h, v),
            ViewType::Perspective => {
                if h >= 180.0 - FTINY {
                    return Err(ill_h());
                }
                if v >= 180.0 - FTINY {
                    return Err(ill_v());
                }
                (2.0 * half(h).tan(), 2.0 * half(v).tan())
            }
            ViewType::Cylindrical => {
                if h > 360.0 + FTINY {
                    return Err(ill_h());
                }
                if v >= 180.0 - FTINY {
                    return Err(ill_v());
                }
                (h.to_radians(), 2.0 * half(v).tan())
            }
            ViewType::Angular => {
                if h > 360.0 + FTINY {
                    return Err(ill_h());
                }
                if v > 360.0 + FTINY {
                    return Err(ill_v());
                }
                (h.to_radians(), v.to_radians())
            }
            ViewType::Hemispherical => {
                if h > 180.0 + FTINY {
                    return Err(ill_h());
                }
                if v > 180.0 + FTINY {
                    return Err(ill_v());
                }
                (2.0 * half(h).sin(), 2.0 * half(v).sin())
            }
            ViewType::Planisphere => {
                if h >= 360.0 - FTINY {
                    return Err(ill_h());
                }
                if v >= 360.0 - FTINY {
                    return Err(ill_v());
                }
                let st = |a: f64| 2.0 * half(a).sin() / (1.0 + half(a).cos());
                (st(h), st(v))
            }
        };
        Ok(ViewFrame {
            view: self.clone(),
            vdir,
            hu,
            vu,
            hn,
            vn,
        })
    }
}

/// Whether a header line carries view options, as RADIANCE's `isview` decides: `VIEW=` or a
/// line starting with a rendering program's name (its path ignored).
pub fn is_view_line(line: &str) -> bool {
    // The leading word (no white space skipped), from its last '/' on, then the rest.
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    let start = line[..end].rfind('/').map_or(0, |k| k + 1);
    let rest = &line[start..];
    [
        "VIEW=",
        "rpict",
        "rvu",
        "rpiece",
        "rxpiece",
        "pinterp",
        "rview",
        "evalglare",
    ]
    .iter()
    .any(|p| rest.starts_with(p))
}

/// Applies the view options in `text` over `view` leniently, as RADIANCE's `sscanview` does:
/// options with missing or malformed values and anything else are skipped. Returns how many
/// options were applied.
pub fn apply_view_text(view: &mut View, text: &str) -> usize {
    let text = text.strip_prefix("VIEW=").unwrap_or(text);
    let w: Vec<&str> = text.split_whitespace().collect();
    let mut n = 0;
    let mut i = 0;
    while i < w.len() {
        let o = w[i];
        let want = match o {
            "-vp" | "-vd" | "-vu" => 3,
            "-vh" | "-vv" | "-vo" | "-va" | "-vs" | "-vl" => 1,
            _ if o.len() == 4 && o.starts_with("-vt") => 0,
            _ => {
                i += 1;
                continue;
            }
        };
        let args = w.get(i + 1..i + 1 + want);
        let ok = args.is_some_and(|a| a.iter().all(|s| s.parse::<f64>().is_ok()));
        if ok {
            let mut s = o.to_string();
            for a in args.unwrap_or(&[]) {
                s.push(' ');
                s.push_str(a);
            }
            if view.apply(&s).is_ok() {
                n += 1;
                i += 1 + want;
                continue;
            }
        }
        i += 1;
    }
    n
}

/// Applies every view line of a view file's `text` (see [`is_view_line`]; the file is read as
/// a header, up to its first empty line) over `view`, as RADIANCE's `viewfile` does; returns
/// how many lines were views.
pub fn apply_view_file(view: &mut View, text: &str) -> usize {
    text.lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| is_view_line(l))
        .map(|l| apply_view_text(view, l))
        .filter(|&n| n > 0)
        .count()
}

/// A ray: origin and unit direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    pub origin: DVec3,
    pub dir: DVec3,
}

/// A checked view with its image-plane frame: `vdir` forward, `hu` right, `vu` up (unit
/// vectors), `hn`/`vn` the image's extent along them in each projection's own measure.
#[derive(Debug, Clone)]
pub struct ViewFrame {
    pub view: View,
    pub vdir: DVec3,
    pub hu: DVec3,
    pub vu: DVec3,
    pub hn: f64,
    pub vn: f64,
}

impl ViewFrame {
    /// The ray through image point `(x, y)` (RADIANCE coordinates, y up, [0, 1]), or `None`
    /// where the projection has no direction (outside a hemispherical fisheye's circle, beyond
    /// 360° of an angular fisheye) — exactly where RADIANCE's `viewray` fails.
    pub fn ray(&self, x: f64, y: f64) -> Option<Ray> {
        let v = &self.view;
        let x = x + v.hoff - 0.5;
        let y = y + v.voff - 0.5;
        let d = self.vdir;
        let (dir, origin) = match v.typ {
            ViewType::Parallel => {
                let o = v.vp + v.vfore * d + x * self.hn * self.hu + y * self.vn * self.vu;
                return Some(Ray { origin: o, dir: d });
            }
            ViewType::Perspective => {
                let dir = d + x * self.hn * self.hu + y * self.vn * self.vu;
                (dir.normalize(), v.vp + v.vfore * dir)
            }
            ViewType::Hemispherical => {
                let z = 1.0 - x * x * self.hn * self.hn - y * y * self.vn * self.vn;
                if z < 0.0 {
                    return None;
                }
                let dir = z.sqrt() * d + x * self.hn * self.hu + y * self.vn * self.vu;
                (dir, v.vp + v.vfore * dir)
            }
            ViewType::Cylindrical => {
                let a = x * self.hn;
                let dir = a.cos() * d + a.sin() * self.hu + y * self.vn * self.vu;
                (dir.normalize(), v.vp + v.vfore * dir)
            }
            ViewType::Angular => {
                let xs = x * v.horiz / 180.0;
                let ys = y * v.vert / 180.0;
                let r2 = xs * xs + ys * ys;
                if r2 > 1.0 {
                    return None;
                }
                let r = r2.sqrt();
                let z = (std::f64::consts::PI * r).cos();
                let s = if r <= 1e-6 {
                    std::f64::consts::PI
                } else {
                    (1.0 - z * z).sqrt() / r
                };
                let dir = z * d + xs * s * self.hu + ys * s * self.vu;
                (dir, v.vp + v.vfore * dir)
            }
            ViewType::Planisphere => {
                let xs = x * self.hn;
                let ys = y * self.vn;
                let r2 = xs * xs + ys * ys;
                let z = (1.0 - r2) / (1.0 + r2);
                let dir = z * d + xs * (1.0 + z) * self.hu + ys * (1.0 + z) * self.vu;
                (dir, v.vp + v.vfore * dir)
            }
        };
        Some(Ray { origin, dir })
    }

    /// The ray through the centre of pixel `(col, row)` of an `xres` × `yres` picture, `row` 0
    /// being the top scanline.
    pub fn pixel_ray(&self, xres: usize, yres: usize, col: usize, row: usize) -> Option<Ray> {
        let (x, y) = pixel_centre(xres, yres, col, row);
        self.ray(x, y)
    }

    /// The solid angle (sr) a pixel subtends: |∂u/∂x × ∂u/∂y| Δx Δy at the pixel centre, with
    /// `u` the unit ray direction, differentiated numerically (one-sided at the edge of the
    /// projection). 0 for parallel views and pixels without a direction.
    pub fn pixel_solid_angle(&self, xres: usize, yres: usize, col: usize, row: usize) -> f64 {
        if self.view.typ == ViewType::Parallel {
            return 0.0;
        }
        let (x, y) = pixel_centre(xres, yres, col, row);
        let Some(c) = self.ray(x, y) else {
            return 0.0;
        };
        let dx = 1.0 / xres as f64;
        let dy = 1.0 / yres as f64;
        let deriv = |ex: f64, ey: f64| -> DVec3 {
            let h = 1e-4;
            let p = self.ray(x + ex * h, y + ey * h).map(|r| r.dir);
            let m = self.ray(x - ex * h, y - ey * h).map(|r| r.dir);
            match (p, m) {
                (Some(p), Some(m)) => (p - m) / (2.0 * h),
                (Some(p), None) => (p - c.dir) / h,
                (None, Some(m)) => (c.dir - m) / h,
                (None, None) => DVec3::ZERO,
            }
        };
        deriv(1.0, 0.0).cross(deriv(0.0, 1.0)).length() * dx * dy
    }

    /// Where a direction appears in the image, in RADIANCE coordinates (not clipped to
    /// [0, 1]); `None` where the projection cannot show it (behind a perspective or
    /// hemispherical view, beyond 360° of an angular fisheye, any direction of a parallel
    /// view).
    pub fn project(&self, dir: DVec3) -> Option<(f64, f64)> {
        let u = dir.normalize_or_zero();
        if u == DVec3::ZERO {
            return None;
        }
        let (dz, dx, dy) = (u.dot(self.vdir), u.dot(self.hu), u.dot(self.vu));
        let v = &self.view;
        let (x, y) = match v.typ {
            ViewType::Parallel => return None,
            ViewType::Perspective => {
                if dz <= 1e-12 {
                    return None;
                }
                (dx / dz / self.hn, dy / dz / self.vn)
            }
            ViewType::Hemispherical => {
                if dz < 0.0 {
                    return None;
                }
                (dx / self.hn, dy / self.vn)
            }
            ViewType::Cylindrical => {
                let rho = (dx * dx + dz * dz).sqrt();
                if rho <= 1e-12 {
                    return None;
                }
                (dx.atan2(dz) / self.hn, dy / rho / self.vn)
            }
            ViewType::Angular => {
                let theta = dz.clamp(-1.0, 1.0).acos();
                let lat = (dx * dx + dy * dy).sqrt();
                let (xs, ys) = if lat <= 1e-15 {
                    if dz > 0.0 {
                        (0.0, 0.0)
                    } else {
                        return None;
                    }
                } else {
                    let r = theta / std::f64::consts::PI;
                    (r * dx / lat, r * dy / lat)
                };
                (xs * 180.0 / v.horiz, ys * 180.0 / v.vert)
            }
            ViewType::Planisphere => {
                if 1.0 + dz <= 1e-12 {
                    return None;
                }
                (dx / (1.0 + dz) / self.hn, dy / (1.0 + dz) / self.vn)
            }
        };
        Some((x + 0.5 - v.hoff, y + 0.5 - v.voff))
    }
}

/// RADIANCE image coordinates of the centre of pixel `(col, row)`, `row` 0 at the top.
pub fn pixel_centre(xres: usize, yres: usize, col: usize, row: usize) -> (f64, f64) {
    let j = yres - 1 - row;
    (
        (col as f64 + 0.5) / xres as f64,
        (j as f64 + 0.5) / yres as f64,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn parse_options_and_errors() {
        let v =
            View::parse("rpict -vta -vp 1 2 3 -vd 0 1 0 -vu 0 0 1 -vh 180 -vv 170 -vs 0.1 -x 5")
                .unwrap();
        assert_eq!(v.typ, ViewType::Angular);
        assert_eq!(v.vp, DVec3::new(1.0, 2.0, 3.0));
        assert_eq!((v.horiz, v.vert, v.hoff), (180.0, 170.0, 0.1));
        assert!(View::parse("-vp 1 2").is_err());
        assert!(View::parse("-vh x").is_err());
        assert!(View::parse("-vtq").is_err());
        assert!(View::parse("-vd 0 0 1").unwrap().frame().is_err()); // up parallel
        assert!(View::parse("-vtv -vh 180").unwrap().frame().is_err());
        let back = View::parse(&v.to_options()).unwrap();
        assert!(back.same_as(&v));
    }

    fn total_solid_angle(f: &ViewFrame, n: usize) -> f64 {
        let mut s = 0.0;
        for r in 0..n {
            for c in 0..n {
                s += f.pixel_solid_angle(n, n, c, r);
            }
        }
        s
    }

    #[test]
    fn solid_angles_sum_to_the_field() {
        let n = 200;
        let hem = View::parse("-vth -vh 180 -vv 180")
            .unwrap()
            .frame()
            .unwrap();
        let s = total_solid_angle(&hem, n);
        assert!((s - 2.0 * PI).abs() < 0.02 * 2.0 * PI, "{s}");
        let ang = View::parse("-vta -vh 180 -vv 180")
            .unwrap()
            .frame()
            .unwrap();
        // Only pixels in the 180° circle: those whose direction is in front.
        let mut s = 0.0;
        for r in 0..n {
            for c in 0..n {
                if let Some(ray) = ang.pixel_ray(n, n, c, r) {
                    if ray.dir.dot(ang.vdir) >= 0.0 {
                        s += ang.pixel_solid_angle(n, n, c, r);
                    }
                }
            }
        }
        assert!((s - 2.0 * PI).abs() < 0.01 * 2.0 * PI, "{s}");
        // Perspective 60x40: solid angle of a rectangle 4 asin(sin a sin b).
        let per = View::parse("-vtv -vh 60 -vv 40").unwrap().frame().unwrap();
        let mut s = 0.0;
        for r in 0..100 {
            for c in 0..150 {
                s += per.pixel_solid_angle(150, 100, c, r);
            }
        }
        let want = 4.0 * ((30f64).to_radians().sin() * (20f64).to_radians().sin()).asin();
        assert!((s - want).abs() < 1e-4 * want, "{s} {want}");
    }

    #[test]
    fn project_inverts_ray() {
        for opts in [
            "-vtv -vh 70 -vv 50 -vd 1 2 0.3 -vu 0 0 1 -vs 0.2 -vl -0.1",
            "-vth -vh 180 -vv 160 -vd 0 -1 0",
            "-vta -vh 200 -vv 180 -vd 1 0 0",
            "-vtc -vh 300 -vv 90",
            "-vts -vh 250 -vv 250",
        ] {
            let f = View::parse(opts).unwrap().frame().unwrap();
            for i in 1..10 {
                for j in 1..10 {
                    let (x, y) = (i as f64 / 10.0, j as f64 / 10.0);
                    if let Some(r) = f.ray(x, y) {
                        let (px, py) = f.project(r.dir).unwrap();
                        assert!((px - x).abs() < 1e-9 && (py - y).abs() < 1e-9, "{opts}");
                    }
                }
            }
        }
    }
}
