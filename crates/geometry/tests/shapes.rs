//! Analytic intersection tests for every primitive and RADIANCE's argument rules.

use daylit_geometry::*;

const INF: f64 = f64::INFINITY;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn ray(o: DVec3, d: DVec3) -> Ray {
    Ray::new(o, d.normalize())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

fn close_v(a: DVec3, b: DVec3) -> bool {
    (a - b).length() <= 1e-12
}

#[track_caller]
fn expect_hit(s: &Shape, r: &Ray, tmin: f64, tmax: f64, t: f64, n: DVec3) {
    let (ht, hn) = s.intersect(r, tmin, tmax).expect("expected a hit");
    assert!(close(ht, t), "t {ht} != {t}");
    assert!(close_v(hn, n), "normal {hn} != {n}");
    assert!(close(hn.length(), 1.0));
}

#[track_caller]
fn expect_miss(s: &Shape, r: &Ray, tmin: f64, tmax: f64) {
    assert!(
        s.intersect(r, tmin, tmax).is_none(),
        "unexpected hit {:?}",
        s.intersect(r, tmin, tmax)
    );
}

#[test]
fn triangle_hits_and_orientation() {
    // Counter-clockwise seen from +z: normal +z.
    let t: Shape = Triangle::new([v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.)])
        .unwrap()
        .into();
    let down = ray(v(0.25, 0.25, 2.), v(0., 0., -1.));
    expect_hit(&t, &down, 0., INF, 2., v(0., 0., 1.));
    // From behind: same normal, not flipped.
    let up = ray(v(0.25, 0.25, -3.), v(0., 0., 1.));
    expect_hit(&t, &up, 0., INF, 3., v(0., 0., 1.));
    // Outside the edge, tmin/tmax limits, parallel.
    expect_miss(&t, &ray(v(0.6, 0.6, 2.), v(0., 0., -1.)), 0., INF);
    expect_miss(&t, &down, 0., 2.);
    expect_miss(&t, &down, 2., INF);
    expect_miss(&t, &ray(v(-1., 0.25, 0.), v(1., 0., 0.)), 0., INF);
    // Far from the origin keeps full precision.
    let off = v(1e5, -2e5, 3e4);
    let tf: Shape = Triangle::new([off, off + v(1., 0., 0.), off + v(0., 1., 0.)])
        .unwrap()
        .into();
    expect_hit(
        &tf,
        &ray(off + v(0.3, 0.3, 1.5), v(0., 0., -1.)),
        0.,
        INF,
        1.5,
        v(0., 0., 1.),
    );
    assert!(matches!(
        Triangle::new([v(0., 0., 0.), v(1., 1., 1.), v(2., 2., 2.)]),
        Err(GeometryError::ZeroArea)
    ));
    assert!(matches!(
        Triangle::new([v(0., 0., f64::NAN), v(1., 1., 1.), v(2., 0., 2.)]),
        Err(GeometryError::NonFinite(_))
    ));
}

#[test]
fn polygon_square_and_orientation() {
    // Clockwise seen from +z: RADIANCE normal is -z.
    let sq = Polygon::new(vec![
        v(0., 0., 1.),
        v(0., 2., 1.),
        v(2., 2., 1.),
        v(2., 0., 1.),
    ])
    .unwrap();
    assert!(close_v(sq.normal(), v(0., 0., -1.)));
    assert!(close(sq.area(), 4.));
    assert_eq!(sq.max_nonplanarity(), 0.0);
    let s: Shape = sq.into();
    expect_hit(
        &s,
        &ray(v(1., 1., 5.), v(0., 0., -1.)),
        0.,
        INF,
        4.,
        v(0., 0., -1.),
    );
    expect_hit(
        &s,
        &ray(v(1.5, 0.5, 0.), v(0., 0., 1.)),
        0.,
        INF,
        1.,
        v(0., 0., -1.),
    );
    expect_miss(&s, &ray(v(2.5, 1., 5.), v(0., 0., -1.)), 0., INF);
    // Oblique ray.
    let d = v(1., 0., -1.);
    expect_hit(
        &s,
        &ray(v(0.0, 1., 2.), d),
        0.,
        INF,
        2f64.sqrt(),
        v(0., 0., -1.),
    );
    // Grazing (parallel to the plane) misses.
    expect_miss(&s, &ray(v(-1., 1., 1.), v(1., 0., 0.)), 0., INF);
    expect_miss(&s, &ray(v(1., 1., 5.), v(0., 0., -1.)), 0., 3.9);
    // Closing vertex equal to the first is dropped, as RADIANCE does.
    let closed = Polygon::new(vec![
        v(0., 0., 0.),
        v(1., 0., 0.),
        v(1., 1., 0.),
        v(0., 1., 0.),
        v(0., 0., 0.),
    ])
    .unwrap();
    assert_eq!(closed.vertices().len(), 4);
    // Three vertices through Shape::polygon become the triangle fast path.
    assert!(matches!(
        Shape::polygon(vec![v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.)]).unwrap(),
        Shape::Triangle(_)
    ));
}

#[test]
fn polygon_concave() {
    // An L shape in the xy plane, counter-clockwise from +z.
    let l: Shape = Polygon::new(vec![
        v(0., 0., 0.),
        v(2., 0., 0.),
        v(2., 1., 0.),
        v(1., 1., 0.),
        v(1., 2., 0.),
        v(0., 2., 0.),
    ])
    .unwrap()
    .into();
    let n = v(0., 0., 1.);
    expect_hit(&l, &ray(v(0.5, 1.5, 1.), v(0., 0., -1.)), 0., INF, 1., n);
    expect_hit(&l, &ray(v(1.5, 0.5, 1.), v(0., 0., -1.)), 0., INF, 1., n);
    // The notch is not part of the polygon.
    expect_miss(&l, &ray(v(1.5, 1.5, 1.), v(0., 0., -1.)), 0., INF);
    if let Shape::Polygon(p) = &l {
        assert!(close(p.area(), 3.));
    }
}

#[test]
fn polygon_with_seam_hole() {
    // 4x4 square (ccw from +z), seam from (0,0) to the 2x2 hole at (1,1)-(3,3) traced cw.
    let verts = vec![
        v(0., 0., 0.),
        v(4., 0., 0.),
        v(4., 4., 0.),
        v(0., 4., 0.),
        v(0., 0., 0.),
        v(1., 1., 0.),
        v(1., 3., 0.),
        v(3., 3., 0.),
        v(3., 1., 0.),
        v(1., 1., 0.),
    ];
    let p = Polygon::new(verts).unwrap();
    assert!(close(p.area(), 12.), "area {}", p.area());
    assert!(close_v(p.normal(), v(0., 0., 1.)));
    let s: Shape = p.into();
    let dn = v(0., 0., -1.);
    expect_hit(&s, &ray(v(0.5, 2., 1.), dn), 0., INF, 1., v(0., 0., 1.));
    expect_hit(&s, &ray(v(3.5, 3.5, 1.), dn), 0., INF, 1., v(0., 0., 1.));
    // Points on the seam's line but off it, and on the diagonal where the seam runs.
    expect_hit(
        &s,
        &ray(v(0.5, 0.5 + 1e-9, 1.), dn),
        0.,
        INF,
        1.,
        v(0., 0., 1.),
    );
    // Through the hole: miss.
    expect_miss(&s, &ray(v(2., 2., 1.), dn), 0., INF);
    expect_miss(&s, &ray(v(1.2, 2.9, 1.), dn), 0., INF);
    expect_miss(&s, &ray(v(2.9, 1.1, -1.), v(0., 0., 1.)), 0., INF);
}

#[test]
fn polygon_errors_and_nonplanarity() {
    assert!(matches!(
        Polygon::new(vec![v(0., 0., 0.), v(1., 0., 0.)]),
        Err(GeometryError::TooFewVertices(2))
    ));
    assert!(matches!(
        Polygon::new(vec![
            v(0., 0., 0.),
            v(1., 0., 0.),
            v(2., 0., 0.),
            v(3., 0., 0.)
        ]),
        Err(GeometryError::ZeroArea)
    ));
    assert!(matches!(
        Polygon::new(vec![v(0., 0., 0.), v(1., 0., 0.), v(1., f64::INFINITY, 0.)]),
        Err(GeometryError::NonFinite(_))
    ));
    // A quad with one vertex lifted.
    let p = Polygon::new(vec![
        v(0., 0., 0.),
        v(1., 0., 0.),
        v(1., 1., 0.1),
        v(0., 1., 0.),
    ])
    .unwrap();
    assert!(p.max_nonplanarity() > 0.01 && p.max_nonplanarity() < 0.05);
    let msg = GeometryError::ZeroArea.to_string();
    assert!(msg.contains("zero area"));
}

#[test]
fn sphere_and_bubble() {
    let c = v(1., 2., 3.);
    let s: Shape = Sphere::new(c, 2., false).unwrap().into();
    let r = ray(c + v(-5., 0., 0.), v(1., 0., 0.));
    expect_hit(&s, &r, 0., INF, 3., v(-1., 0., 0.));
    // From inside: far side, outward normal.
    let inside = ray(c, v(0., 0., 1.));
    expect_hit(&s, &inside, 0., INF, 2., v(0., 0., 1.));
    // tmin past the first root gives the second.
    expect_hit(&s, &r, 3.5, INF, 7., v(1., 0., 0.));
    expect_miss(&s, &r, 0., 2.9);
    // Grazing: misses just outside the silhouette.
    expect_miss(&s, &ray(c + v(-5., 2. + 1e-9, 0.), v(1., 0., 0.)), 0., INF);
    let b: Shape = Sphere::new(c, 2., true).unwrap().into();
    expect_hit(&b, &r, 0., INF, 3., v(1., 0., 0.));
    expect_hit(&b, &inside, 0., INF, 2., v(0., 0., -1.));
    // Negative radius inverts (RADIANCE: warning "negative radius").
    let neg = Sphere::new(c, -2., false).unwrap();
    assert!(neg.is_bubble());
    assert_eq!(neg.radius(), 2.);
    assert!(matches!(
        Sphere::new(c, 1e-7, false),
        Err(GeometryError::IllegalRadii(_))
    ));
    // Small sphere far away: precise t.
    let far: Shape = Sphere::new(v(1e5, 1e5, 0.), 0.5, false).unwrap().into();
    let rf = ray(v(0., 1e5, 0.), v(1., 0., 0.));
    expect_hit(&far, &rf, 0., INF, 1e5 - 0.5, v(-1., 0., 0.));
    let (lo, hi) = s.bounds();
    assert!(close_v(lo, c - DVec3::splat(2.)) && close_v(hi, c + DVec3::splat(2.)));
}

#[test]
fn cylinder_and_tube() {
    let cy: Shape = Cone::cylinder(v(0., 0., 0.), v(0., 0., 4.), 1.)
        .unwrap()
        .into();
    let r = ray(v(-3., 0., 1.), v(1., 0., 0.));
    expect_hit(&cy, &r, 0., INF, 2., v(-1., 0., 0.));
    // From inside (on the axis): outward normal on the far wall.
    expect_hit(
        &cy,
        &ray(v(0., 0., 2.), v(0., 1., 0.)),
        0.,
        INF,
        1.,
        v(0., 1., 0.),
    );
    // Beyond the ends: miss (no caps).
    expect_miss(&cy, &ray(v(-3., 0., 4.5), v(1., 0., 0.)), 0., INF);
    expect_miss(&cy, &ray(v(0., 0., -1.), v(0., 0., 1.)), 0., INF);
    // Grazing just outside.
    expect_miss(&cy, &ray(v(-3., 1. + 1e-9, 1.), v(1., 0., 0.)), 0., INF);
    // Oblique into the open end, hits the inside wall from inside.
    let d = v(1., 0., -1.);
    expect_hit(
        &cy,
        &ray(v(0., 0., 5.), d),
        0.,
        INF,
        2f64.sqrt(),
        v(1., 0., 0.),
    );
    let tu: Shape = Cone::tube(v(0., 0., 0.), v(0., 0., 4.), 1.).unwrap().into();
    expect_hit(&tu, &r, 0., INF, 2., v(1., 0., 0.));
    expect_hit(&tu, &r, 2.5, INF, 4., v(-1., 0., 0.));
    // Negative radius inverts the kind.
    let c = Cone::cylinder(v(0., 0., 0.), v(0., 0., 1.), -1.).unwrap();
    assert_eq!(c.kind(), ConeKind::Tube);
    assert!(c.was_inverted());
    assert!(matches!(
        Cone::cylinder(v(0., 0., 0.), v(0., 0., 1.), 0.),
        Err(GeometryError::IllegalRadii(_))
    ));
    assert!(matches!(
        Cone::cylinder(v(1., 1., 1.), v(1., 1., 1.), 1.),
        Err(GeometryError::ZeroAxis(_))
    ));
    // Tilted cylinder bounds are tight disks.
    let (lo, hi) = cy.bounds();
    assert!(close_v(lo, v(-1., -1., 0.)) && close_v(hi, v(1., 1., 4.)));
}

#[test]
fn cone_and_cup() {
    // Apex at z=0 (r0=0), radius 1 at z=1: 45 degree cone.
    let co: Shape = Cone::cone(v(0., 0., 0.), v(0., 0., 1.), 0., 1.)
        .unwrap()
        .into();
    let s = 0.5f64.sqrt();
    // Horizontal ray at z=0.5 hits at x=-0.5.
    let r = ray(v(-2., 0., 0.5), v(1., 0., 0.));
    expect_hit(&co, &r, 0., INF, 1.5, v(-s, 0., -s));
    // Second root: far side.
    expect_hit(&co, &r, 1.6, INF, 2.5, v(s, 0., -s));
    // Above the wide end: miss; the other nappe below the apex: miss.
    expect_miss(&co, &ray(v(-2., 0., 1.5), v(1., 0., 0.)), 0., INF);
    expect_miss(&co, &ray(v(-2., 0., -0.5), v(1., 0., 0.)), 0., INF);
    let cu: Shape = Cone::cup(v(0., 0., 0.), v(0., 0., 1.), 0., 1.)
        .unwrap()
        .into();
    expect_hit(&cu, &r, 0., INF, 1.5, v(s, 0., s));
    // Radii given wide end first: ends are swapped, same surface and normals.
    let sw = Cone::cone(v(0., 0., 1.), v(0., 0., 0.), 1., 0.).unwrap();
    assert_eq!(sw.radii(), (0., 1.));
    assert!(close_v(sw.end_points().0, v(0., 0., 0.)));
    expect_hit(&sw.into(), &r, 0., INF, 1.5, v(-s, 0., -s));
    // Truncated cone r 1 -> 2 over length 1, hit from inside the wide end.
    let tc: Shape = Cone::cone(v(0., 0., 0.), v(0., 0., 1.), 1., 2.)
        .unwrap()
        .into();
    let down = ray(v(0., 0., 3.), v(0., 0., -1.));
    expect_miss(&tc, &down, 0., INF);
    expect_hit(
        &tc,
        &ray(v(0., 0., 0.5), v(1., 0., 0.)),
        0.,
        INF,
        1.5,
        v(s, 0., -s),
    );
    // Equal radii: cone -> cylinder, cup -> tube.
    assert_eq!(
        Cone::cone(v(0., 0., 0.), v(0., 0., 1.), 1., 1.)
            .unwrap()
            .kind(),
        ConeKind::Cylinder
    );
    assert_eq!(
        Cone::cup(v(0., 0., 0.), v(0., 0., 1.), 1., 1. + 1e-7)
            .unwrap()
            .kind(),
        ConeKind::Tube
    );
    // Negative radii invert (cone -> cup); one zero and one negative is allowed.
    let n = Cone::cone(v(0., 0., 0.), v(0., 0., 1.), 0., -1.).unwrap();
    assert_eq!(n.kind(), ConeKind::Cup);
    assert_eq!(n.radii(), (0., 1.));
    for (a, b) in [(0., 0.), (1., -1.), (-2., 2.), (1e-7, -1e-7)] {
        assert!(
            matches!(
                Cone::cone(v(0., 0., 0.), v(0., 0., 1.), a, b),
                Err(GeometryError::IllegalRadii(_))
            ),
            "{a} {b}"
        );
    }
    assert!(matches!(
        Cone::cone(v(0., 0., 0.), v(0., 0., 0.), 0., 1.),
        Err(GeometryError::ZeroAxis(_))
    ));
    // Far from the origin.
    let off = v(-1e5, 1e5, 2e4);
    let cf: Shape = Cone::cone(off, off + v(0., 0., 1.), 0., 1.).unwrap().into();
    expect_hit(
        &cf,
        &ray(off + v(-2., 0., 0.5), v(1., 0., 0.)),
        0.,
        INF,
        1.5,
        v(-s, 0., -s),
    );
}

#[test]
fn ring_disk_and_annulus() {
    let disk: Shape = Ring::new(v(0., 0., 1.), v(0., 0., 2.), 0., 1.)
        .unwrap()
        .into();
    expect_hit(
        &disk,
        &ray(v(0.5, 0., 3.), v(0., 0., -1.)),
        0.,
        INF,
        2.,
        v(0., 0., 1.),
    );
    expect_hit(
        &disk,
        &ray(v(0., 0., -1.), v(0., 0., 1.)),
        0.,
        INF,
        2.,
        v(0., 0., 1.),
    );
    expect_miss(&disk, &ray(v(1.1, 0., 3.), v(0., 0., -1.)), 0., INF);
    expect_miss(&disk, &ray(v(-2., 0., 1.), v(1., 0., 0.)), 0., INF);
    // Radii given outer first are swapped (RADIANCE), inner hole misses.
    let ann = Ring::new(v(0., 0., 0.), v(1., 0., 0.), 2., 1.).unwrap();
    assert_eq!(ann.radii(), (1., 2.));
    let ann: Shape = ann.into();
    expect_miss(&ann, &ray(v(5., 0.5, 0.), v(-1., 0., 0.)), 0., INF);
    expect_hit(
        &ann,
        &ray(v(5., 1.5, 0.), v(-1., 0., 0.)),
        0.,
        INF,
        5.,
        v(1., 0., 0.),
    );
    expect_miss(&ann, &ray(v(5., 1.5, 0.), v(-1., 0., 0.)), 0., 5.);
    for (a, b) in [(0., 0.), (-1., 2.), (1., 1.), (0., -1.)] {
        assert!(
            matches!(
                Ring::new(v(0., 0., 0.), v(0., 0., 1.), a, b),
                Err(GeometryError::IllegalRadii(_))
            ),
            "{a} {b}"
        );
    }
    assert!(matches!(
        Ring::new(v(0., 0., 0.), v(0., 0., 0.), 0., 1.),
        Err(GeometryError::ZeroAxis(_))
    ));
    let (lo, hi) = disk.bounds();
    assert!(close_v(lo, v(-1., -1., 1.)) && close_v(hi, v(1., 1., 1.)));
}
