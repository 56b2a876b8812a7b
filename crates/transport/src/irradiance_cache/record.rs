//! One cache record: the hemisphere of an irradiance calculation point, its value, its
//! Hessian-based validity ellipse (seed 001 eq. 1, as RADIANCE's `doambient` computes it),
//! and its translational and rotational gradients.

use super::{Candidate, Params, AVGREFL};
use crate::ambient::{square_to_disc, supersample_counts};
use crate::ray::{bright, rtype::*, RayState, Surf};
use crate::{Ctx, Renderer};
use daylit_geometry::FTINY;
use glam::DVec3;
use rand::Rng;

/// Fewest divisions per side of a cached hemisphere (RADIANCE's `MINADIV`): fewer cannot
/// give a Hessian.
const MIN_DIVS: usize = 7;

/// A cached irradiance value with its validity ellipse. Laid out in the order a lookup reads
/// it, so that the records it rejects (most of those it tests) cost one cache line.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Record {
    /// Where it was computed.
    pub pos: DVec3,
    /// The unit normal of the sampled side.
    pub normal: DVec3,
    /// The ray weight the record was made for (RADIANCE's `AVGREFL^level`).
    pub weight: f64,
    /// Validity radii along `u` and `v` (multiplied by `-aa` when tested).
    pub rad: [f64; 2],
    /// Unit axis of the first radius (the minor one).
    pub u: DVec3,
    /// Unit axis of the second radius (`normal × u`).
    pub v: DVec3,
    /// Relative change of the value per unit displacement along `u` and `v`.
    pub gpos: [f64; 2],
    /// Relative change of the value per radian of normal rotation toward `u` and `v`.
    pub gdir: [f64; 2],
    /// The ambient value: mean radiance of the hemisphere (irradiance / π), RGB.
    pub val: DVec3,
    /// Directions (32 sectors of the angle from `u` toward `v`) in which the hemisphere saw
    /// an occluder inside the validity ellipse: lookups from there are tested for a light
    /// leak (RADIANCE's `ambcorral`; 0 when none).
    pub corral: u32,
}

/// One hemisphere sample.
#[derive(Clone, Copy)]
struct Samp {
    /// First hit point (distance capped for sky samples).
    p: DVec3,
    /// Reciprocal of the nearest distance found in the division.
    d: f64,
    /// Value times coefficient.
    v: DVec3,
    /// Samples averaged into `v`.
    n: u32,
}

/// What computing a record gave: the value for the asking ray, and the record when the
/// hemisphere was complete enough for a Hessian.
pub(crate) struct Computed {
    pub record: Option<Record>,
}

impl Renderer {
    /// Computes the irradiance record at candidate `c` (RADIANCE's `makeambient` with
    /// `doambient`): hemisphere rays spawned one ambient level deeper, so they read the
    /// cache level below through `ctx.cache`.
    pub(crate) fn compute_record(&self, c: &Candidate, p: &Params, ctx: &mut Ctx) -> Computed {
        let (parent0, s) = c.parent();
        let o = &self.opts;
        let mut wt = AVGREFL.powi(c.adepth as i32);
        if (c.weight as f64) < 0.1 * wt {
            wt = 1.25 * c.weight as f64;
        }
        let ns = (((o.ad as f64 * wt).sqrt() + 0.5) as usize).max(MIN_DIVS);
        let acoef = DVec3::splat(AVGREFL / (ns * ns) as f64);
        let onrm = c.oriented_normal();
        let rt = if c.back { TAMBIENT } else { RAMBIENT };
        let ux = onrm.any_orthonormal_vector();
        let uy = onrm.cross(ux);
        let mut parent = parent0;
        parent.adepth += 1;
        let far = 10.0 * p.cusize + 1000.0;
        let mut sa: Vec<Samp> = Vec::with_capacity(ns * ns);
        let mut ok = 0;
        for i in 0..ns {
            for j in 0..ns {
                let got =
                    self.record_sample(&parent, &s, rt, acoef, (onrm, ux, uy), (i, j, ns), ctx);
                let mut smp = Samp {
                    p: s.point,
                    d: 0.0,
                    v: DVec3::ZERO,
                    n: 1,
                };
                if let Some((v, dir, dist)) = got {
                    ok += 1;
                    smp.p = s.point + dir * dist.min(far);
                    smp.d = 1.0 / dist;
                    smp.v = v;
                }
                sa.push(smp);
            }
        }
        if ok < ns * ns {
            // RADIANCE keeps no record of an incomplete hemisphere.
            return Computed { record: None };
        }
        if ok > MIN_DIVS * MIN_DIVS {
            let extra = (o.as_ as f64 * wt + 0.5) as usize;
            if extra >= 4 * ns {
                self.record_supersample(
                    &parent,
                    &s,
                    rt,
                    acoef,
                    (onrm, ux, uy),
                    ns,
                    &mut sa,
                    extra,
                    ctx,
                );
            }
        }
        let acol: DVec3 = sa.iter().map(|x| x.v).sum();
        let mean = (acol.x + acol.y + acol.z) / 3.0;
        let (scale, k, with_grad) = if mean > FTINY {
            (0.99 * (ns * ns) as f64 / mean, 0.01, true)
        } else {
            // Black hemisphere: the geometric Hessian alone sets the radii.
            (0.0, 1.0, false)
        };
        let vb: Vec<f64> = sa
            .iter()
            .map(|x| (x.v.x + x.v.y + x.v.z) / 3.0 * scale + k)
            .collect();
        let (mut uv, mut ra, mut pg) = hessian(&sa, &vb, ns, s.point, onrm, (ux, uy), p.maxarad);
        // Keep the frame right-handed so `v` is normal × u, as lookups assume.
        if onrm.cross(uv[0]).dot(uv[1]) < 0.0 {
            uv[1] = -uv[1];
            pg[1] = -pg[1];
        }
        let dg = if with_grad {
            dir_gradient(&sa, &vb, ns, s.point, onrm, &uv)
        } else {
            pg = [0.0; 2];
            [0.0; 2]
        };
        if with_grad {
            for k in 0..2 {
                let d = pg[k].abs();
                if ra[k] * d > 1.0 {
                    ra[k] = 1.0 / d;
                }
            }
            if ra[0] > ra[1] {
                ra[0] = ra[1];
            }
        }
        if ra[0] < p.minarad {
            ra[0] = p.minarad;
            if ra[1] < p.minarad {
                ra[1] = p.minarad;
            }
        }
        let d = super::radius_growth(wt.abs());
        ra[0] *= d;
        ra[1] *= d;
        if ra[1] > 2.0 * ra[0] {
            ra[1] = 2.0 * ra[0];
        }
        if ra[1] > p.maxarad {
            ra[1] = p.maxarad;
            if ra[0] > p.maxarad {
                ra[0] = p.maxarad;
            }
        }
        let corral = if with_grad {
            corral(&sa, ns, s.point, &uv, p.aa * ra[0], p.aa * ra[1], p)
        } else {
            0
        };
        if with_grad {
            let d = pg[0] * pg[0] * ra[0] * ra[0] + pg[1] * pg[1] * ra[1] * ra[1];
            if d > 1.0 {
                let d = 1.0 / d.sqrt();
                pg[0] *= d;
                pg[1] *= d;
            }
        }
        if ra[0] <= FTINY || !ra[0].is_finite() || !ra[1].is_finite() {
            return Computed { record: None };
        }
        Computed {
            record: Some(Record {
                pos: s.point,
                normal: onrm,
                u: uv[0],
                v: uv[1],
                rad: [ra[0], ra[1]],
                gpos: pg,
                gdir: dg,
                val: acol / AVGREFL,
                weight: wt,
                corral,
            }),
        }
    }

    /// One sample in division `(i, j)`: value times coefficient, direction, distance.
    #[allow(clippy::too_many_arguments)]
    fn record_sample(
        &self,
        parent: &RayState,
        s: &Surf,
        rt: u16,
        acoef: DVec3,
        frame: (DVec3, DVec3, DVec3),
        (i, j, ns): (usize, usize, usize),
        ctx: &mut Ctx,
    ) -> Option<(DVec3, DVec3, f64)> {
        // The assumed reflectance sets the ray weight; the coefficient is applied after.
        let (mut ar, c) = self.spawn(parent, s, rt, Some(DVec3::splat(AVGREFL)), ctx)?;
        let c = c * acoef / AVGREFL;
        let a = (j as f64 + ctx.rng.random::<f64>()) / ns as f64;
        let b = (i as f64 + ctx.rng.random::<f64>()) / ns as f64;
        let (x, y) = square_to_disc(a, b);
        let z = (1.0 - x * x - y * y).max(0.0).sqrt();
        let (n, ux, uy) = frame;
        ar.dir = (ux * x + uy * y + n * z).normalize();
        let v = self.trace(&ar, ctx);
        // The distance the Hessian sees is what the ray shows: through clear glass, or the
        // image in a mirror (RADIANCE's `raydistance`).
        let d = v.distance();
        if d <= FTINY {
            return None;
        }
        Some((v.value * c, ar.dir, d))
    }

    /// Super-samples the divisions whose neighbours differ most (as the uncached hemisphere
    /// does), keeping the nearest distance of each division for the Hessian.
    #[allow(clippy::too_many_arguments)]
    fn record_supersample(
        &self,
        parent: &RayState,
        s: &Surf,
        rt: u16,
        acoef: DVec3,
        frame: (DVec3, DVec3, DVec3),
        ns: usize,
        sa: &mut [Samp],
        count: usize,
        ctx: &mut Ctx,
    ) {
        let b: Vec<f64> = sa.iter().map(|x| bright(x.v)).collect();
        let counts = supersample_counts(&b, ns, count, &mut ctx.rng);
        for (k, n) in counts.into_iter().enumerate() {
            for _ in 0..n {
                let Some((v, _, dist)) =
                    self.record_sample(parent, s, rt, acoef, frame, (k / ns, k % ns, ns), ctx)
                else {
                    break;
                };
                let x = &mut sa[k];
                x.n += 1;
                x.v += (v - x.v) / x.n as f64;
                if dist * x.d < 1.0 {
                    x.d = 1.0 / dist;
                }
            }
        }
    }
}

/// Edge quantities of the form-factor Hessian and gradient (Schwarzhaupt, Jensen and Jarosz
/// 2012, as RADIANCE's `comp_fftri`).
struct Edge {
    r_i: DVec3,
    e_i: DVec3,
    rcp: DVec3,
    i1: f64,
    i2: f64,
    r_i2_e_j2: DVec3,
    r_i1: DVec3,
}

fn edge(p0: DVec3, p1: DVec3, org: DVec3) -> Edge {
    let r_i = p0 - org;
    let r_i1 = p1 - org;
    let e_i = p1 - p0;
    let rcp = r_i.cross(r_i1);
    let rdot_cp = 1.0 / rcp.length_squared();
    let dot_e = e_i.length_squared();
    let dot_er = e_i.dot(r_i);
    let rdot_r = 1.0 / r_i.length_squared();
    let rdot_r1 = 1.0 / r_i1.length_squared();
    let cosang = (r_i.dot(r_i1) * (rdot_r * rdot_r1).sqrt()).clamp(-1.0, 1.0);
    let i1 = cosang.acos() * rdot_cp.sqrt();
    let i2 = (e_i.dot(r_i1) * rdot_r1 - dot_er * rdot_r + dot_e * i1) * 0.5 * rdot_cp;
    let j2 = (0.5 * (rdot_r - rdot_r1) - dot_er * i2) / dot_e;
    Edge {
        r_i,
        e_i,
        rcp,
        i1,
        i2,
        r_i2_e_j2: r_i * i2 + e_i * j2,
        r_i1,
    }
}

/// The symmetric matrix `va vbᵀ + vb vaᵀ` seen in the tangent plane `(ux, uy)`, as its
/// entries `(uu, uv, vv)`. Only that part of the Hessian sets the ellipse, so the 3 × 3 sums
/// RADIANCE forms are kept projected from the start.
fn sym(va: DVec3, vb: DVec3, (ux, uy): (DVec3, DVec3)) -> DVec3 {
    let (a0, a1, b0, b1) = (va.dot(ux), va.dot(uy), vb.dot(ux), vb.dot(uy));
    DVec3::new(2.0 * a0 * b0, a0 * b1 + a1 * b0, 2.0 * a1 * b1)
}

/// One edge's term of the irradiance Hessian, in the tangent plane (see [`sym`]).
fn edge_hessian(f: &Edge, nrm: DVec3, frame: (DVec3, DVec3)) -> DVec3 {
    let d1 = 1.0 / f.r_i.length_squared();
    let d2 = 1.0 / f.r_i1.length_squared();
    let d3 = 1.0 / f.e_i.length_squared();
    let d4 = f.e_i.dot(f.r_i);
    let i3 = (f.e_i.dot(f.r_i1) * d2 * d2 - d4 * d1 * d1 + 3.0 / d3 * f.i2)
        / (4.0 * f.rcp.length_squared());
    let j3 = 0.25 * d3 * (d1 * d1 - d2 * d2) - d4 * d3 * i3;
    let k3 = d3 * (f.i2 - i3 / d1 - 2.0 * d4 * j3);
    let ncp = nrm.cross(f.e_i);
    let m1 = sym(ncp, f.r_i2_e_j2, frame);
    let m2 = sym(f.r_i, f.r_i, frame);
    let m3 = sym(f.e_i, f.e_i, frame);
    let m4 = sym(f.r_i, f.e_i, frame);
    let dn = nrm.dot(f.rcp);
    let diag = -dn * f.i2;
    let dn2 = 2.0 * dn;
    let h = m1 + (m2 * i3 + m3 * k3 + m4 * (2.0 * j3)) * dn2 + DVec3::new(diag, 0.0, diag);
    h * (-1.0 / std::f64::consts::PI)
}

fn edge_gradient(f: &Edge, nrm: DVec3) -> DVec3 {
    let f1 = 2.0 * nrm.dot(f.rcp);
    let ncp = nrm.cross(f.e_i);
    (ncp * f.i1 + f.r_i2_e_j2 * f1) * (0.5 / std::f64::consts::PI)
}

/// The brightness of the farthest of three samples.
fn back_value(sa: &[Samp], vb: &[f64], n1: usize, n2: usize, n3: usize) -> f64 {
    if sa[n1].d <= sa[n2].d {
        if sa[n1].d <= sa[n3].d {
            return vb[n1];
        }
        return vb[n3];
    }
    if sa[n2].d <= sa[n3].d {
        vb[n2]
    } else {
        vb[n3]
    }
}

/// The irradiance Hessian and position gradient summed over the triangles between
/// neighbouring sample points, then the ellipse axes and radii from the Hessian's eigenvalues
/// in the tangent plane (RADIANCE's `ambHessian` and `eigenvectors`).
fn hessian(
    sa: &[Samp],
    vb: &[f64],
    ns: usize,
    org: DVec3,
    nrm: DVec3,
    (ux, uy): (DVec3, DVec3),
    maxarad: f64,
) -> ([DVec3; 2], [f64; 2], [f64; 2]) {
    let ai = |i: usize, j: usize| i * ns + j;
    let e = |a: usize, b: usize| edge(sa[a].p, sa[b].p, org);
    let mut hess = DVec3::ZERO;
    let mut grad = DVec3::ZERO;
    let mut hrow: Vec<DVec3> = Vec::with_capacity(ns - 1);
    let mut grow: Vec<DVec3> = Vec::with_capacity(ns - 1);
    for j in 0..ns - 1 {
        let f = e(ai(0, j), ai(0, j + 1));
        hrow.push(edge_hessian(&f, nrm, (ux, uy)));
        grow.push(edge_gradient(&f, nrm));
    }
    for i in 0..ns - 1 {
        let f = e(ai(i, 0), ai(i + 1, 0));
        let mut hcol = edge_hessian(&f, nrm, (ux, uy));
        let mut gcol = edge_gradient(&f, nrm);
        for j in 0..ns - 1 {
            let backg = back_value(sa, vb, ai(i, j), ai(i, j + 1), ai(i + 1, j));
            let f = e(ai(i, j + 1), ai(i + 1, j));
            let mut hdia = edge_hessian(&f, nrm, (ux, uy));
            let mut gdia = edge_gradient(&f, nrm);
            hcol = -hcol;
            gcol = -gcol;
            hess += (hrow[j] + hdia + hcol) * backg;
            grad += (grow[j] + gdia + gcol) * backg;
            let f = e(ai(i + 1, j + 1), ai(i + 1, j));
            hrow[j] = edge_hessian(&f, nrm, (ux, uy));
            grow[j] = edge_gradient(&f, nrm);
            let backg = back_value(sa, vb, ai(i + 1, j + 1), ai(i + 1, j), ai(i, j + 1));
            let f = e(ai(i, j + 1), ai(i + 1, j + 1));
            hcol = edge_hessian(&f, nrm, (ux, uy));
            gcol = edge_gradient(&f, nrm);
            hdia = -hdia;
            gdia = -gdia;
            hess += (hrow[j] + hdia + hcol) * backg;
            grad += (grow[j] + gdia + gcol) * backg;
            if i < ns - 2 {
                hrow[j] = -hrow[j];
                grow[j] = -grow[j];
            }
        }
    }
    let (uv, ra) = eigen(hess, [ux, uy], maxarad);
    let pg = [grad.dot(uv[0]), grad.dot(uv[1])];
    (uv, ra, pg)
}

/// The sector bit of angle `ang` (radians from `u` toward `v`, any sign) in a corral mask.
pub(crate) fn sector(ang: f64) -> u32 {
    let a = if ang < 0.0 {
        ang + 2.0 * std::f64::consts::PI
    } else {
        ang
    };
    1u32 << ((a * (16.0 / std::f64::consts::PI)) as u32).min(31)
}

/// The directions in which an occluder seen at the hemisphere's rim lies inside the validity
/// ellipse of covered radii `r0`, `r1` (RADIANCE's `ambcorral`): none when the ceiling overhead
/// is nearer than the ellipse is wide. A hemisphere of fewer than 8 × 8 divisions cannot tell
/// (RADIANCE then flags nothing); daylit flags every direction instead, so lookups test such
/// records for leaks. These are the deep-bounce and low-weight records, whose radii reach
/// r_max: unflagged, those on the ground outside the office lit its floor through the wall
/// (+8 % at -aa 0.2).
fn corral(
    sa: &[Samp],
    ns: usize,
    org: DVec3,
    uv: &[DVec3; 2],
    r0: f64,
    r1: f64,
    p: &Params,
) -> u32 {
    if ns < 8 {
        return u32::MAX;
    }
    let max_d = 1.0 / (p.minarad * p.aa + 0.001);
    let ang_res = 0.5 * std::f64::consts::PI / ns as f64;
    let ang_step = ang_res / ((16.0 / std::f64::consts::PI * ang_res).floor() + 1.01);
    let mut avg_d = 0.0;
    for i in ns / 4..ns * 3 / 4 {
        for j in ns / 4..ns * 3 / 4 {
            avg_d += sa[i * ns + j].d;
        }
    }
    avg_d *= 4.0 / (ns * ns) as f64;
    if avg_d * r0 >= 1.0 || avg_d >= max_d {
        return 0;
    }
    let mut flags = 0u32;
    for i in 0..ns {
        let step = if i == 0 || i == ns - 1 { 1 } else { ns - 1 };
        for j in (0..ns).step_by(step) {
            let x = &sa[i * ns + j];
            if x.d <= FTINY || x.d >= max_d {
                continue;
            }
            let vec = x.p - org;
            let (u, v) = (vec.dot(uv[0]), vec.dot(uv[1]));
            if (r0 * r0 * u * u + r1 * r1 * v * v) * x.d * x.d <= u * u + v * v {
                continue;
            }
            let ang = v.atan2(u);
            let mut a1 = ang - ang_res;
            while a1 <= ang + ang_res {
                flags |= sector(a1);
                a1 += ang_step;
            }
        }
    }
    flags
}

/// Roots of `a x² + b x + c` (RADIANCE's `quadratic`): how many, and them.
pub(crate) fn quadratic(a: f64, b: f64, c: f64) -> (usize, [f64; 2]) {
    let first = if a < -FTINY {
        1
    } else if a > FTINY {
        0
    } else if b.abs() > FTINY {
        return (1, [-c / b, 0.0]);
    } else {
        return (0, [0.0; 2]);
    };
    let disc = b * b - 4.0 * a * c;
    if disc < -FTINY * FTINY {
        return (0, [0.0; 2]);
    }
    if disc <= FTINY * FTINY {
        return (1, [-0.5 * b / a, 0.0]);
    }
    let d = disc.sqrt();
    let mut r = [0.0; 2];
    r[first] = 0.5 * (-b - d) / a;
    r[1 - first] = 0.5 * (-b + d) / a;
    (2, r)
}

/// Radii `(4/λ)^¼` from the eigenvalues of the tangent-plane Hessian `(uu, uv, vv)`, the
/// smaller radius first, with its axis.
fn eigen(h: DVec3, uv: [DVec3; 2], maxarad: f64) -> ([DVec3; 2], [f64; 2]) {
    let (h00, h01, h11) = (h.x, h.y, h.z);
    let h10 = h01;
    let (n, mut ev) = quadratic(1.0, -h00 - h11, h00 * h11 - h01 * h10);
    if n == 1 {
        ev[1] = ev[0];
    }
    ev = [ev[0].abs(), ev[1].abs()];
    if n == 0 || ev[0] <= FTINY * FTINY || ev[1] <= FTINY * FTINY {
        return (uv, [maxarad, maxarad]);
    }
    let (ra, small) = if ev[0] > ev[1] {
        (
            [(4.0 / ev[0]).sqrt().sqrt(), (4.0 / ev[1]).sqrt().sqrt()],
            ev[1],
        )
    } else {
        (
            [(4.0 / ev[1]).sqrt().sqrt(), (4.0 / ev[0]).sqrt().sqrt()],
            ev[0],
        )
    };
    if h01.abs() <= FTINY {
        return (uv, ra);
    }
    let slope = (small - h00) / h01;
    let xm = (1.0 / (1.0 + slope * slope)).sqrt();
    let nb = uv[0] * xm + uv[1] * (slope * xm);
    let na = uv[0] * (slope * xm) - uv[1] * xm;
    ([na, nb], ra)
}

/// The rotational gradient: sample brightness over the cosine, times −tan θ along each axis
/// (RADIANCE's `ambdirgrad`).
fn dir_gradient(
    sa: &[Samp],
    vb: &[f64],
    ns: usize,
    org: DVec3,
    nrm: DVec3,
    uv: &[DVec3; 2],
) -> [f64; 2] {
    let mut g = [0.0f64; 2];
    for (x, &b) in sa.iter().zip(vb) {
        let vd = x.p - org;
        let gf = b / nrm.dot(vd);
        if !gf.is_finite() {
            continue;
        }
        g[0] -= uv[1].dot(vd) * gf;
        g[1] += uv[0].dot(vd) * gf;
    }
    let n = (ns * ns) as f64;
    [g[0] / n, g[1] / n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadratic_roots() {
        let (n, r) = quadratic(1.0, -3.0, 2.0);
        assert_eq!(n, 2);
        assert!((r[0] - 1.0).abs() < 1e-12 && (r[1] - 2.0).abs() < 1e-12);
        assert_eq!(quadratic(1.0, 0.0, 1.0).0, 0);
    }

    #[test]
    fn eigen_axes_follow_the_steeper_direction() {
        // Curvature 16 along x, 1 along y: the small radius lies along x.
        let h = DVec3::new(16.0, 0.0, 1.0);
        let (uv, ra) = eigen(h, [DVec3::X, DVec3::Y], 10.0);
        assert!((ra[0] - (4.0f64 / 16.0).powf(0.25)).abs() < 1e-12);
        assert!((ra[1] - 4.0f64.powf(0.25)).abs() < 1e-12);
        assert!(uv[0].dot(DVec3::X).abs() > 0.999);
    }
}
