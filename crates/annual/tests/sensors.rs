//! Sensor files and work-plane grids.

use daylit_annual::{GridOptions, SensorError, SensorSet};

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() < 1e-9)
}

#[test]
fn rectangle_grid() {
    // Clockwise as seen from above (normal down): the grid still faces up.
    let poly = [
        [0.0, 0.0, 0.0],
        [0.0, 3.0, 0.0],
        [4.0, 3.0, 0.0],
        [4.0, 0.0, 0.0],
    ];
    let s = SensorSet::from_polygon(&poly, &GridOptions::default()).unwrap();
    assert_eq!(s.len(), 48);
    let g = s.grids[0];
    assert_eq!((g.columns, g.rows), (8, 6));
    assert!(close(g.u, [1.0, 0.0, 0.0]) && close(g.v, [0.0, 1.0, 0.0]));
    let first = s.sensors[0];
    assert!(close(first.position, [0.25, 0.25, 0.8]));
    assert!(close(first.direction, [0.0, 0.0, 1.0]));
    assert_eq!(first.cell.map(|c| (c.i, c.j)), Some((0, 0)));
    // Row-major: sensor 8 starts the second row.
    assert!(close(s.sensors[8].position, [0.25, 0.75, 0.8]));
    assert!(close(s.sensors[47].position, [3.75, 2.75, 0.8]));
    let corners = g.cell_corners(7, 5);
    assert!(close(corners[2], [4.0, 3.0, 0.8]));
}

#[test]
fn odd_extent_is_centred() {
    // 1.2 m at 0.5 m: 3 cells centred, overhanging 0.15 m each side; only centres inside.
    let poly = [
        [0.0, 0.0, 1.0],
        [1.2, 0.0, 1.0],
        [1.2, 0.5, 1.0],
        [0.0, 0.5, 1.0],
    ];
    let s = SensorSet::from_polygon(
        &poly,
        &GridOptions {
            height: 0.75,
            spacing: 0.5,
        },
    )
    .unwrap();
    let xs: Vec<f64> = s.sensors.iter().map(|p| p.position[0]).collect();
    assert_eq!(s.len(), 3);
    for (x, want) in xs.iter().zip([0.1, 0.6, 1.1]) {
        assert!((x - want).abs() < 1e-9, "{xs:?}");
    }
    assert!((s.sensors[0].position[2] - 1.75).abs() < 1e-12);
}

#[test]
fn l_shaped_grid() {
    // An L: 4 × 4 square less its top-right 2 × 2 quarter; 12 m², 48 cells at 0.5 m.
    let poly = [
        [0.0, 0.0, 0.0],
        [4.0, 0.0, 0.0],
        [4.0, 2.0, 0.0],
        [2.0, 2.0, 0.0],
        [2.0, 4.0, 0.0],
        [0.0, 4.0, 0.0],
    ];
    let s = SensorSet::from_polygon(&poly, &GridOptions::default()).unwrap();
    assert_eq!(s.len(), 48);
    assert!(s
        .sensors
        .iter()
        .all(|p| !(p.position[0] > 2.0 && p.position[1] > 2.0)));
    assert!(s
        .sensors
        .iter()
        .any(|p| close(p.position, [1.75, 3.75, 0.8])));
    assert!(s
        .sensors
        .iter()
        .any(|p| close(p.position, [3.75, 1.75, 0.8])));
    // Cells keep their place in the 8 × 8 grid.
    let last = s.sensors.last().unwrap().cell.unwrap();
    assert_eq!((last.i, last.j), (3, 7));
}

#[test]
fn rotated_grid_follows_longest_edge() {
    // A 4 × 2 rectangle turned by 30° about z.
    let (c, sn) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
    let rot = |x: f64, y: f64| [c * x - sn * y, sn * x + c * y, 0.0];
    let poly = [rot(0.0, 0.0), rot(4.0, 0.0), rot(4.0, 2.0), rot(0.0, 2.0)];
    let s = SensorSet::from_polygon(&poly, &GridOptions::default()).unwrap();
    assert_eq!(s.len(), 32);
    assert!(close(s.grids[0].u, [c, sn, 0.0]));
    assert!(close(s.sensors[0].position, {
        let p = rot(0.25, 0.25);
        [p[0], p[1], 0.8]
    }));
}

#[test]
fn bad_polygons() {
    let o = GridOptions::default();
    let line = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
    assert!(matches!(
        SensorSet::from_polygon(&line, &o),
        Err(SensorError::Polygon(_))
    ));
    let wall = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0]];
    let e = SensorSet::from_polygon(&wall, &o).unwrap_err();
    assert!(e.to_string().contains("vertical"), "{e}");
    let sq = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]];
    let zero = GridOptions { spacing: 0.0, ..o };
    assert!(SensorSet::from_polygon(&sq, &zero).is_err());
    let tiny = GridOptions { spacing: 1e-6, ..o };
    assert!(SensorSet::from_polygon(&sq, &tiny).is_err());
}

#[test]
fn sensor_file_reads() {
    let text = "# header\n\n0 0 0.8 0 0 1\n  1.5 2 0.8  0 0 1 # trailing comment\n";
    let s = SensorSet::parse(text, "a.pts").unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s.sensors[1].position, [1.5, 2.0, 0.8]);
    assert!(s.sensors[1].cell.is_none());
    let back = SensorSet::parse(&s.to_radiance_text(), "b.pts").unwrap();
    assert_eq!(back, s);
}

#[test]
fn sensor_file_errors() {
    let e = |t: &str| SensorSet::parse(t, "a.pts").unwrap_err().to_string();
    let m = e("0 0 0 0 0 1\n0 0 0 0 1\n");
    assert!(
        m.starts_with("a.pts:2:") && m.contains("expected 6 numbers"),
        "{m}"
    );
    let m = e("0 0 0 0 0 1\n\n0 0 x 0 0 1\n");
    assert!(
        m.starts_with("a.pts:3:") && m.contains("for z") && m.contains("'x'"),
        "{m}"
    );
    let m = e("0 0 0 0 0 0\n");
    assert!(m.starts_with("a.pts:1:") && m.contains("zero"), "{m}");
    let m = e("0 0 nan 0 0 1\n");
    assert!(m.starts_with("a.pts:1:"), "{m}");
    let m = e("# nothing\n\n");
    assert!(m.contains("a.pts") && m.contains("no sensors"), "{m}");
    let io = SensorSet::read(std::path::Path::new("/nonexistent/x.pts")).unwrap_err();
    assert!(io.to_string().contains("/nonexistent/x.pts"));
}

#[test]
fn append_renumbers_grids() {
    let a = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    let b = [
        [5.0, 0.0, 0.0],
        [6.0, 0.0, 0.0],
        [6.0, 1.0, 0.0],
        [5.0, 1.0, 0.0],
    ];
    let mut s = SensorSet::from_polygon(&a, &GridOptions::default()).unwrap();
    s.append(SensorSet::from_polygon(&b, &GridOptions::default()).unwrap());
    s.append(SensorSet::parse("9 9 9 0 0 1\n", "c.pts").unwrap());
    assert_eq!((s.len(), s.grids.len()), (9, 2));
    assert_eq!(s.sensors[4].cell.unwrap().grid, 1);
    assert!(s.sensors[8].cell.is_none());
}
