//! The BVH against exhaustive references on a mixed scene with a cluster 1e5 from the
//! origin.

use daylit_geometry::*;
use rayon::prelude::*;

/// Deterministic random numbers for reproducible test scenes and rays.
struct Rng(rand_pcg::Pcg64Mcg);
impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(rand::SeedableRng::seed_from_u64(seed))
    }
    fn next(&mut self) -> u64 {
        rand::RngCore::next_u64(&mut self.0)
    }
    fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.f()
    }
    fn vec(&mut self, lo: DVec3, hi: DVec3) -> DVec3 {
        DVec3::new(
            self.range(lo.x, hi.x),
            self.range(lo.y, hi.y),
            self.range(lo.z, hi.z),
        )
    }
    fn dir(&mut self) -> DVec3 {
        loop {
            let d = self.vec(DVec3::splat(-1.0), DVec3::splat(1.0));
            let l = d.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return d / l.sqrt();
            }
        }
    }
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// About 1100 shapes of every kind in a 10 m box at `off`.
fn cluster(rng: &mut Rng, off: DVec3, out: &mut Vec<Shape>) {
    let lo = off;
    let hi = off + DVec3::splat(10.0);
    for _ in 0..600 {
        let a = rng.vec(lo, hi);
        let s = rng.range(0.05, 1.0);
        let b = a + rng.dir() * s;
        let c = a + rng.dir() * s;
        if let Ok(t) = Triangle::new([a, b, c]) {
            out.push(t.into());
        }
    }
    for i in 0..120 {
        let p = rng.vec(lo, hi);
        let (u, w) = {
            let n = rng.dir();
            let u = n.any_orthonormal_vector();
            (u, n.cross(u))
        };
        let s = rng.range(0.2, 1.5);
        let q = |x: f64, y: f64| p + u * (x * s) + w * (y * s);
        let verts = match i % 3 {
            0 => vec![q(0., 0.), q(1., 0.), q(1.2, 0.9), q(0., 1.)],
            1 => vec![
                q(0., 0.),
                q(2., 0.),
                q(2., 1.),
                q(1., 1.),
                q(1., 2.),
                q(0., 2.),
            ],
            _ => vec![
                q(0., 0.),
                q(4., 0.),
                q(4., 4.),
                q(0., 4.),
                q(0., 0.),
                q(1., 1.),
                q(1., 3.),
                q(3., 3.),
                q(3., 1.),
                q(1., 1.),
            ],
        };
        out.push(Polygon::new(verts).unwrap().into());
    }
    for i in 0..120 {
        let c = rng.vec(lo, hi);
        out.push(
            Sphere::new(c, rng.range(0.05, 0.8), i % 2 == 0)
                .unwrap()
                .into(),
        );
    }
    let kinds = [
        ConeKind::Cone,
        ConeKind::Cup,
        ConeKind::Cylinder,
        ConeKind::Tube,
    ];
    for i in 0..160 {
        let p0 = rng.vec(lo, hi);
        let p1 = p0 + rng.dir() * rng.range(0.1, 2.0);
        let r0 = if i % 5 == 0 && i % 4 < 2 {
            0.0
        } else {
            rng.range(0.05, 0.6)
        };
        let r1 = rng.range(0.05, 0.6);
        out.push(Cone::new(kinds[i % 4], p0, p1, r0, r1).unwrap().into());
    }
    for i in 0..120 {
        let c = rng.vec(lo, hi);
        let r1 = rng.range(0.1, 1.0);
        let r0 = if i % 2 == 0 { 0.0 } else { r1 * 0.5 };
        out.push(Ring::new(c, rng.dir(), r0, r1).unwrap().into());
    }
    // Exact duplicates and an axis-aligned floor: ties and zero direction components.
    let dup = out[out.len() - 300].clone();
    out.push(dup);
    let t = out[out.len() - 900].clone();
    out.push(t);
    out.push(
        Polygon::new(vec![
            off + v(-1., -1., 0.),
            off + v(11., -1., 0.),
            off + v(11., 11., 0.),
            off + v(-1., 11., 0.),
        ])
        .unwrap()
        .into(),
    );
}

fn scene() -> Vec<Shape> {
    let mut rng = Rng::new(7);
    let mut shapes = Vec::new();
    cluster(&mut rng, v(0., 0., 0.), &mut shapes);
    cluster(&mut rng, v(1e5, 1e5, 0.), &mut shapes);
    cluster(&mut rng, v(-1e5, 3e4, 5e4), &mut shapes);
    shapes
}

/// Exhaustive reference with an exact f64 prefilter: shapes in groups of consecutive
/// indices, each group skipped only when the ray misses its (padded) box.
struct Reference<'a> {
    shapes: &'a [Shape],
    groups: Vec<(DVec3, DVec3, usize, usize)>,
}

impl<'a> Reference<'a> {
    fn new(shapes: &'a [Shape]) -> Self {
        let groups = (0..shapes.len())
            .step_by(8)
            .map(|a| {
                let b = (a + 8).min(shapes.len());
                let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
                for s in &shapes[a..b] {
                    let (l, h) = s.bounds();
                    lo = lo.min(l);
                    hi = hi.max(h);
                }
                let pad = DVec3::splat(1e-6 * (1.0 + lo.abs().max(hi.abs()).max_element()));
                (lo - pad, hi + pad, a, b)
            })
            .collect();
        Reference { shapes, groups }
    }

    fn closest(&self, ray: &Ray, tmin: f64, tmax: f64) -> Option<Hit> {
        let mut best: Option<Hit> = None;
        for &(lo, hi, a, b) in &self.groups {
            let lim = best.map_or(tmax, |h| h.t);
            if !slab(ray, lo, hi, tmin, lim) {
                continue;
            }
            for i in a..b {
                let lim = best.map_or(tmax, |h| h.t);
                if let Some((t, n)) = self.shapes[i].intersect(ray, tmin, lim) {
                    best = Some(Hit {
                        t,
                        prim: i as u32,
                        point: ray.at(t),
                        normal: n,
                    });
                }
            }
        }
        best
    }
}

fn slab(ray: &Ray, lo: DVec3, hi: DVec3, tmin: f64, tmax: f64) -> bool {
    let (mut t0, mut t1) = (tmin, tmax);
    for i in 0..3 {
        let (o, d) = (ray.origin[i], ray.dir[i]);
        if d == 0.0 {
            if o < lo[i] || o > hi[i] {
                return false;
            }
            continue;
        }
        let (mut a, mut b) = ((lo[i] - o) / d, (hi[i] - o) / d);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        t0 = t0.max(a);
        t1 = t1.min(b);
    }
    t0 <= t1 * (1.0 + 1e-12) + 1e-12
}

/// Ray number `i`: mixes uniform directions, rays aimed at shapes, axis-aligned rays,
/// rays from far away and limited t ranges.
fn make_ray(shapes: &[Shape], i: u64) -> (Ray, f64, f64) {
    let mut rng = Rng::new(i.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0xABCD);
    let offs = [v(0., 0., 0.), v(1e5, 1e5, 0.), v(-1e5, 3e4, 5e4)];
    let off = offs[(rng.next() % 3) as usize];
    let o = rng.vec(off - DVec3::splat(3.0), off + DVec3::splat(13.0));
    let target = {
        let s = &shapes[(rng.next() % shapes.len() as u64) as usize];
        let (lo, hi) = s.bounds();
        rng.vec(lo, hi)
    };
    let kind = rng.next() % 8;
    let (origin, dir) = match kind {
        0 | 1 => (o, rng.dir()),
        2 => {
            // Axis-aligned, including negative zero components.
            let mut d = DVec3::ZERO;
            let ax = (rng.next() % 3) as usize;
            d[ax] = if rng.next().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
            for k in 0..3 {
                if k != ax && rng.next().is_multiple_of(2) {
                    d[k] = -0.0;
                }
            }
            (o, d)
        }
        3 => {
            // From very far away toward a shape.
            let far = target + rng.dir() * 2e5;
            (far, (target - far).normalize())
        }
        _ => (o, (target - o).normalize()),
    };
    let (tmin, tmax) = match rng.next() % 4 {
        0 => (1e-6, rng.range(0.5, 20.0)),
        1 => (rng.range(0.0, 3.0), f64::INFINITY),
        _ => (0.0, f64::INFINITY),
    };
    (Ray::new(origin, dir), tmin, tmax)
}

fn check_same(a: Option<Hit>, b: Option<Hit>, shapes: &[Shape], ray: &Ray) -> Result<(), String> {
    match (a, b) {
        (None, None) => Ok(()),
        (Some(x), Some(y)) => {
            let rel = (x.t - y.t).abs() / x.t.abs().max(1e-300);
            if rel > 1e-9 {
                return Err(format!("t differs: {x:?} vs {y:?} for {ray:?}"));
            }
            if x.prim != y.prim && x.t != y.t && shapes[x.prim as usize] != shapes[y.prim as usize]
            {
                return Err(format!("prim differs: {x:?} vs {y:?} for {ray:?}"));
            }
            // The same hit on the same shape: the normal the shape's own test gives.
            if x.prim == y.prim && x.t == y.t && x.normal != y.normal {
                return Err(format!("normal differs: {x:?} vs {y:?} for {ray:?}"));
            }
            Ok(())
        }
        _ => Err(format!("hit/miss differs: {a:?} vs {b:?} for {ray:?}")),
    }
}

#[test]
fn bvh_matches_brute_force_on_a_million_rays() {
    let shapes = scene();
    assert!(shapes.len() > 3000);
    let reference = Reference::new(&shapes);
    for opts in [
        AccelOptions::default(),
        AccelOptions {
            layout: BvhLayout::Bvh2,
            max_prims_per_leaf: 4,
            ..AccelOptions::default()
        },
        AccelOptions {
            pre_split: true,
            ..AccelOptions::default()
        },
    ] {
        let accel = Accel::build_with(shapes.clone(), opts);
        let n: u64 = if opts == AccelOptions::default() {
            1_000_000
        } else {
            100_000
        };
        let (hits, errors): (usize, Vec<String>) = (0..n)
            .into_par_iter()
            .map(|i| {
                let (ray, tmin, tmax) = make_ray(&shapes, i);
                let got = accel.closest_hit(&ray, tmin, tmax);
                let want = reference.closest(&ray, tmin, tmax);
                let mut err = check_same(got, want, &shapes, &ray).err();
                if err.is_none() && accel.any_hit(&ray, tmin, tmax) != got.is_some() {
                    err = Some(format!("any_hit disagrees for {ray:?} {tmin} {tmax}"));
                }
                (usize::from(got.is_some()), err)
            })
            .fold(
                || (0usize, Vec::new()),
                |(h, mut e), (h1, e1)| {
                    if let Some(m) = e1 {
                        if e.len() < 5 {
                            e.push(m);
                        }
                    }
                    (h + h1, e)
                },
            )
            .reduce(
                || (0, Vec::new()),
                |(a, mut e), (b, f)| {
                    e.extend(f);
                    (a + b, e)
                },
            );
        assert!(errors.is_empty(), "{opts:?}: {errors:#?}");
        // The scene must actually be exercised.
        assert!(hits as u64 > n / 3, "only {hits} hits of {n}");
    }
}

#[test]
fn reference_matches_literal_brute_force() {
    let shapes = scene();
    let reference = Reference::new(&shapes);
    let accel = Accel::build(shapes.clone());
    let errors: Vec<String> = (0..20_000u64)
        .into_par_iter()
        .filter_map(|i| {
            let (ray, tmin, tmax) = make_ray(&shapes, i + 7_000_000);
            let bf = brute_force_closest(&shapes, &ray, tmin, tmax);
            check_same(reference.closest(&ray, tmin, tmax), bf, &shapes, &ray)
                .and_then(|_| check_same(accel.closest_hit(&ray, tmin, tmax), bf, &shapes, &ray))
                .err()
        })
        .collect();
    assert!(errors.is_empty(), "{:#?}", &errors[..errors.len().min(5)]);
}

#[test]
fn filter_skips_primitives() {
    let shapes = scene();
    let accel = Accel::build(shapes.clone());
    let mut checked = 0;
    for i in 0..20_000u64 {
        let (ray, tmin, tmax) = make_ray(&shapes, i);
        let Some(h) = accel.closest_hit(&ray, tmin, tmax) else {
            continue;
        };
        // Ignore the first hit (and exact duplicates of it): next must be strictly beyond
        // or a different primitive at the same t, and agree with brute force on the rest.
        let skip = h.prim;
        let got = accel.closest_hit_filtered(&ray, tmin, tmax, |p| p != skip);
        let rest: Vec<Shape> = shapes
            .iter()
            .enumerate()
            .map(|(j, s)| {
                if j as u32 == skip {
                    // A shape that is never hit, so indices stay aligned.
                    Sphere::new(v(1e9, 1e9, 1e9), 1.0, false).unwrap().into()
                } else {
                    s.clone()
                }
            })
            .collect();
        let want = brute_force_closest(&rest, &ray, tmin, tmax);
        check_same(got, want, &shapes, &ray).unwrap();
        assert_eq!(
            accel.any_hit_filtered(&ray, tmin, tmax, |p| p != skip),
            want.is_some()
        );
        checked += 1;
        if checked == 300 {
            break;
        }
    }
    assert_eq!(checked, 300);
}

#[test]
fn empty_and_single() {
    let a = Accel::build(Vec::new());
    let r = Ray::new(v(0., 0., 0.), v(0., 0., 1.));
    assert!(a.closest_hit(&r, 0., f64::INFINITY).is_none());
    assert!(!a.any_hit(&r, 0., f64::INFINITY));
    let s: Shape = Sphere::new(v(0., 0., 5.), 1., false).unwrap().into();
    let a = Accel::build(vec![s]);
    let h = a.closest_hit(&r, 0., f64::INFINITY).unwrap();
    assert_eq!(h.prim, 0);
    assert!((h.t - 4.).abs() < 1e-12);
    assert!((h.point - v(0., 0., 4.)).length() < 1e-12);
    assert!((h.normal - v(0., 0., -1.)).length() < 1e-12);
    // A ray starting on the surface with tmin 0 finds the far side only if t > 0.
    let r2 = Ray::new(v(0., 0., 4.), v(0., 0., 1.));
    let h2 = a.closest_hit(&r2, 1e-9, f64::INFINITY).unwrap();
    assert!((h2.t - 2.).abs() < 1e-12);
    assert!(!a.any_hit(&r2, 1e-9, 1.9));
    let (lo, hi) = a.bounds();
    assert_eq!((lo, hi), (v(-1., -1., 4.), v(1., 1., 6.)));
}

/// A scene of one flat shape has a bounding box of no thickness: rays must still find it
/// (the box of a lone receiver or ground plane), whatever the tree layout.
#[test]
fn single_flat_shape() {
    for shape in [
        Shape::from(
            Polygon::new(vec![
                v(-3., -3., 2.),
                v(-3., 3., 2.),
                v(3., 3., 2.),
                v(3., -3., 2.),
            ])
            .unwrap(),
        ),
        Shape::from(Triangle::new([v(-3., -3., 2.), v(3., -3., 2.), v(0., 3., 2.)]).unwrap()),
    ] {
        let a = Accel::build(vec![shape]);
        for d in [v(0., 0., 1.), v(0.3, -0.2, 1.), v(0., 0., -1.)] {
            let o = if d.z > 0.0 {
                v(0., 0., 0.)
            } else {
                v(0., 0., 5.)
            };
            let r = Ray::new(o, d.normalize());
            let h = a.closest_hit(&r, 0., f64::INFINITY);
            assert!(
                h.is_some_and(|h| (h.point.z - 2.).abs() < 1e-9),
                "{d:?}: {h:?}"
            );
            assert!(a.any_hit(&r, 0., f64::INFINITY));
        }
    }
}

/// A building in a landscape: one cluster, with a ground disk, a ground polygon and a sky
/// bubble each far larger than it, given first, in the middle and last. They are kept out
/// of the tree; every query must still agree with brute force, including rays that miss the
/// cluster's box (from far off) and filters on the outliers.
#[test]
fn outliers_outside_the_tree_match_brute_force() {
    let mut rng = Rng::new(11);
    let mut shapes: Vec<Shape> = vec![Ring::new(v(5., 5., -0.01), v(0., 0., 1.), 0., 2e3)
        .unwrap()
        .into()];
    cluster(&mut rng, v(0., 0., 0.), &mut shapes);
    let mid = shapes.len() / 2;
    let ground = Polygon::new(vec![
        v(-1e4, -1e4, -0.5),
        v(1e4, -1e4, -0.5),
        v(1e4, 1e4, -0.5),
        v(-1e4, 1e4, -0.5),
    ])
    .unwrap();
    shapes.insert(mid, ground.into());
    shapes.push(Sphere::new(v(5., 5., 0.), 1e5, true).unwrap().into());
    let big = [0u32, mid as u32, shapes.len() as u32 - 1];
    let accel = Accel::build(shapes.clone());
    assert_eq!(accel.tree_len(), shapes.len() - 3);
    for (i, s) in shapes.iter().enumerate() {
        assert_eq!(accel.shape(i as u32), s);
    }
    let reference = Reference::new(&shapes);
    // The scene without each outlier (a shape never hit in its place keeps indices aligned).
    let without = big.map(|skip| {
        let mut rest = shapes.clone();
        rest[skip as usize] = Sphere::new(v(1e9, 1e9, 1e9), 1.0, false).unwrap().into();
        rest
    });
    let mut outlier_hits = 0;
    for i in 0..200_000u64 {
        let o = match i % 4 {
            0 => rng.vec(v(-3e3, -3e3, -1.0), v(3e3, 3e3, 3e3)),
            _ => rng.vec(v(-3., -3., -0.4), v(13., 13., 13.)),
        };
        let d = if i % 3 == 0 {
            (rng.vec(v(0., 0., 0.), v(10., 10., 10.)) - o).normalize()
        } else {
            rng.dir()
        };
        let ray = Ray::new(o, d);
        let (tmin, tmax) = if i % 5 == 0 {
            (0.0, rng.range(1.0, 50.0))
        } else {
            (0.0, f64::INFINITY)
        };
        let got = accel.closest_hit(&ray, tmin, tmax);
        let want = reference.closest(&ray, tmin, tmax);
        check_same(got, want, &shapes, &ray).unwrap();
        assert_eq!(accel.any_hit(&ray, tmin, tmax), want.is_some());
        if let Some(h) = got.filter(|h| big.contains(&h.prim)) {
            outlier_hits += 1;
            // Without the outlier hit, the next one agrees with brute force.
            let skip = h.prim;
            let got = accel.closest_hit_filtered(&ray, tmin, tmax, |p| p != skip);
            let rest = &without[big.iter().position(|&b| b == skip).unwrap()];
            let want = brute_force_closest(rest, &ray, tmin, tmax);
            check_same(got, want, &shapes, &ray).unwrap();
            assert_eq!(
                accel.any_hit_filtered(&ray, tmin, tmax, |p| p != skip),
                want.is_some()
            );
        }
    }
    assert!(outlier_hits > 20_000, "only {outlier_hits} outlier hits");
}

/// Two shapes, one far larger: the small one alone makes the tree (a one-shape tree of a flat
/// box), the large one is the outlier; both are found.
#[test]
fn one_shape_tree_beside_an_outlier() {
    let small: Shape = Polygon::new(vec![
        v(0., 0., 1.),
        v(1., 0., 1.),
        v(1., 1., 1.),
        v(0., 1., 1.),
    ])
    .unwrap()
    .into();
    let ground: Shape = Ring::new(v(0., 0., 0.), v(0., 0., 1.), 0., 1e3)
        .unwrap()
        .into();
    let a = Accel::build(vec![small, ground]);
    assert_eq!(a.tree_len(), 1);
    let down = v(0., 0., -1.);
    let h = a
        .closest_hit(&Ray::new(v(0.5, 0.5, 2.), down), 0., f64::INFINITY)
        .unwrap();
    assert_eq!((h.prim, h.t), (0, 1.0));
    let h = a
        .closest_hit(&Ray::new(v(5., 5., 2.), down), 0., f64::INFINITY)
        .unwrap();
    assert_eq!((h.prim, h.t), (1, 2.0));
    assert!(a.any_hit(&Ray::new(v(500., 5., 2.), down), 0., f64::INFINITY));
    assert!(!a.any_hit(&Ray::new(v(5e3, 5., 2.), down), 0., f64::INFINITY));
}

/// A closed mesh of `n × 2n` quads (two triangles each) on a bumpy sphere of radius about 1.
fn bumpy_sphere(n: usize) -> Vec<Triangle> {
    let p = |i: usize, j: usize| {
        let th = std::f64::consts::PI * i as f64 / n as f64;
        let ph = std::f64::consts::PI * j as f64 / n as f64;
        let r = 1.0 + 0.15 * (3.0 * ph).sin() * (2.0 * th).sin();
        r * DVec3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos())
    };
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..2 * n {
            let (a, b, c, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
            // Not the slivers at the poles.
            out.extend(Triangle::new([a, b, c]).ok().filter(|t| t.area() > 1e-4));
            out.extend(Triangle::new([a, c, d]).ok().filter(|t| t.area() > 1e-4));
        }
    }
    out
}

/// Placements of one shared hierarchy (rotated, scaled, moved) answer every query as copies
/// of its triangles in the scene's tree do: same shape ids, distances and normals to 1e-9,
/// the filter asked with scene-wide ids; mirrored or sheared transforms are refused.
#[test]
fn placements_match_copies() {
    use glam::{DMat4, DQuat};
    use std::sync::Arc;
    let local = bumpy_sphere(24);
    let ground = Shape::polygon(vec![
        v(-20.0, -20.0, -3.0),
        v(20.0, -20.0, -3.0),
        v(20.0, 20.0, -3.0),
        v(-20.0, 20.0, -3.0),
    ])
    .unwrap();
    let transforms = [
        DMat4::from_scale_rotation_translation(
            DVec3::splat(1.5),
            DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
            v(3.0, 0.0, 0.0),
        ),
        DMat4::from_scale_rotation_translation(
            DVec3::splat(0.25),
            DQuat::from_rotation_z(0.7),
            v(-2.0, 1.0, 0.5),
        ),
        DMat4::from_translation(v(0.0, -3.0, 1.0)),
    ];
    let shared = Arc::new(Accel::build(
        local.iter().map(|t| Shape::Triangle(t.clone())).collect(),
    ));
    let mut copies = vec![ground.clone()];
    let mut placed = Vec::new();
    for m in transforms {
        placed.push(Placed::new(shared.clone(), m, copies.len() as u32).unwrap());
        copies.extend(local.iter().map(|t| {
            Shape::Triangle(Triangle::new(t.vertices().map(|p| m.transform_point3(p))).unwrap())
        }));
    }
    let flat = Accel::build(copies.clone());
    let with = Accel::build(vec![ground]).with_placements(placed);
    assert_eq!(with.len(), flat.len());
    assert!((with.bounds().0 - flat.bounds().0).abs().max_element() < 1e-9);
    let mut rng = Rng::new(7);
    let (mut hits, mut misses) = (0, 0);
    for i in 0..20000u64 {
        let org = rng.vec(v(-6.0, -6.0, -2.0), v(6.0, 6.0, 4.0));
        let dir = rng.dir();
        let ray = Ray::new(org, dir);
        let skip = (i % 5 == 0).then(|| (i % copies.len() as u64) as u32);
        let keep = |p: u32| Some(p) != skip;
        let (a, b) = (
            with.closest_hit_filtered(&ray, 1e-9, 1e30, keep),
            flat.closest_hit_filtered(&ray, 1e-9, 1e30, keep),
        );
        match (a, b) {
            (Some(a), Some(b)) => {
                hits += 1;
                assert_eq!(a.prim, b.prim, "ray {i}");
                assert!(
                    (a.t - b.t).abs() <= 1e-9 * b.t.max(1.0),
                    "ray {i}: {} {}",
                    a.t,
                    b.t
                );
                assert!((a.normal - b.normal).length() < 1e-9, "ray {i}");
                let lim = b.t * 0.999;
                assert_eq!(
                    with.any_hit_filtered(&ray, 1e-9, lim, keep),
                    flat.any_hit_filtered(&ray, 1e-9, lim, keep),
                    "ray {i}"
                );
            }
            (None, None) => misses += 1,
            _ => panic!("ray {i}: {a:?} against {b:?}"),
        }
        assert_eq!(
            with.any_hit_filtered(&ray, 1e-9, 1e30, keep),
            b.is_some(),
            "ray {i}"
        );
    }
    assert!(hits > 5000 && misses > 1000, "{hits} hits, {misses} misses");
    // A placed shape is the shared one, in its own frame.
    assert_eq!(with.shape(1), &Shape::Triangle(local[0].clone()));
    let mirror = DMat4::from_scale(v(-1.0, 1.0, 1.0));
    let shear = DMat4::from_cols_array(&[
        1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);
    assert!(Placed::new(shared.clone(), mirror, 0).is_none());
    assert!(Placed::new(shared, shear, 0).is_none());
}

/// The queries a backend offers through [`Tracer`], asked of any backend: a generic caller,
/// as the light transport is.
fn trace_all<T: Tracer>(
    t: &T,
    rays: &[Ray],
    tmin: f64,
    tmax: f64,
) -> (Vec<Option<Hit>>, Vec<bool>) {
    let mut closest = vec![None; rays.len()];
    let mut any = vec![false; rays.len()];
    t.closest_hits(rays, tmin, tmax, &mut closest);
    t.any_hits(rays, tmin, tmax, &mut any);
    (closest, any)
}

#[test]
fn tracer_trait_answers_as_the_bvh() {
    let shapes = scene();
    let accel = Accel::build(shapes.clone());
    let rays: Vec<Ray> = (0..20_000u64).map(|i| make_ray(&shapes, i).0).collect();
    for (tmin, tmax) in [(0.0, f64::INFINITY), (1e-3, 7.5)] {
        let (closest, any) = trace_all(&accel, &rays, tmin, tmax);
        let mut hits = 0;
        for (i, r) in rays.iter().enumerate() {
            // Bit for bit what the BVH's own queries give, one ray at a time.
            let want = accel.closest_hit(r, tmin, tmax);
            assert_eq!(closest[i], want, "ray {i}");
            assert_eq!(Tracer::closest_hit(&accel, r, tmin, tmax), want, "ray {i}");
            assert_eq!(any[i], accel.any_hit(r, tmin, tmax), "ray {i}");
            assert_eq!(any[i], want.is_some(), "ray {i}");
            // The filtered forms are the BVH's, filter and all.
            if let Some(h) = want {
                hits += 1;
                let skip = h.prim;
                assert_eq!(
                    Tracer::closest_hit_filtered(&accel, r, tmin, tmax, |p| p != skip),
                    accel.closest_hit_filtered(r, tmin, tmax, |p| p != skip)
                );
                assert_eq!(
                    Tracer::any_hit_filtered(&accel, r, tmin, tmax, |p| p != skip),
                    accel.any_hit_filtered(r, tmin, tmax, |p| p != skip)
                );
            }
        }
        assert!(hits > 1000, "{hits} hits");
    }
}

#[test]
#[should_panic(expected = "one answer per ray")]
fn batch_needs_one_answer_per_ray() {
    let accel = Accel::build(scene());
    let rays = [Ray::new(DVec3::ZERO, DVec3::X); 3];
    accel.closest_hits(&rays, 0.0, f64::INFINITY, &mut [None; 2]);
}
