//! JSON, CSV, summary and PNG maps.

use daylit_annual::maps::{
    band_colour, map_png, standard_maps, write_maps, MapSpec, MAP_HEIGHT, MAP_WIDTH,
};
use daylit_annual::report::{csv, json_value, summary, write_csv, write_json};
use daylit_annual::{
    compute, AnnualMetrics, GridOptions, Illuminance, MetricOptions, Schedule, SensorSet,
};
use daylit_falsecolor::Bands;

/// A 2 × 1.5 m floor (4 × 3 = 12 sensors), 48 hours, illuminance rising across the room.
fn case() -> (SensorSet, AnnualMetrics) {
    let poly = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 1.5, 0.0],
        [0.0, 1.5, 0.0],
    ];
    let sensors = SensorSet::from_polygon(&poly, &GridOptions::default()).unwrap();
    let (n, h) = (sensors.len(), 48);
    let mut lux = vec![0f32; n * h];
    let mut sun = vec![0f32; n * h];
    for s in 0..n {
        for k in 0..h {
            lux[s * h + k] = 100.0 * s as f32 + (k % 24) as f32;
            sun[s * h + k] = if s >= 9 { 1200.0 } else { 0.0 };
        }
    }
    let sched = Schedule::from_flags((0..h).map(|k| (8..18).contains(&(k % 24))).collect());
    let m = compute(
        &Illuminance::sensor_major(&lux, n, h),
        Some(&Illuminance::sensor_major(&sun, n, h)),
        &sched,
        &MetricOptions {
            ase_hours: 5,
            ..Default::default()
        },
    )
    .unwrap();
    (sensors, m)
}

#[test]
fn json_keys_and_values() {
    let (_, m) = case();
    let j = json_value(&m);
    // DA300: sensors with 100·s + hour ≥ 300 at all occupied hours 8..17 are s ≥ 3; s = 2
    // reaches it at hours ≥ 100 (none). 9 of 12 sensors.
    assert_eq!(j["sDA"], 0.75);
    assert_eq!(j["ASE"], 0.25);
    assert_eq!(j["occupied_hours"], 20);
    assert_eq!(j["hours"], 48);
    assert_eq!(j["sensor_count"], 12);
    assert_eq!(j["settings"]["da_threshold"], 300.0);
    let per = &j["per_sensor"];
    for key in [
        "DA",
        "DA150",
        "cDA",
        "UDI",
        "UDI_n",
        "UDI_e",
        "mean_lux",
        "ASE_hours",
    ] {
        assert_eq!(per[key].as_array().map(Vec::len), Some(12), "{key}");
    }
    assert_eq!(per["DA"][2], 0.0);
    assert_eq!(per["DA"][3], 1.0);
    // Sensor 0: hours 8..17 → 8 and 9 below 100? no: 0 + hour < 100 always → UDI-n 1.
    assert_eq!(per["UDI"][0], 0.0);
    assert_eq!(per["UDI"][5], 1.0);
    assert_eq!(per["mean_lux"][1], 112.5);
    assert_eq!(per["ASE_hours"][11], 20);
    // Round trip through text.
    let text = daylit_annual::report::json(&m);
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, j);
}

#[test]
fn csv_rows() {
    let (sensors, m) = case();
    let text = csv(&sensors, &m).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "x,y,z,DA300,DA150,cDA300,UDI_n,UDI_a,UDI_e,mean_lux,ASE_hours"
    );
    assert_eq!(lines.len(), 13);
    assert_eq!(
        lines[1],
        "0.25,0.25,0.8,0.0000,0.0000,0.0417,1.0000,0.0000,0.0000,12.5,0"
    );
    assert!(lines[12].ends_with(",1112.5,20"), "{}", lines[12]);
}

#[test]
fn summary_lines() {
    let (_, m) = case();
    let s = summary(&m);
    assert!(
        s.starts_with("Annual daylight: 12 sensors, 48 hours, 20 occupied\n"),
        "{s}"
    );
    assert!(
        s.contains("sDA300/50%") && s.contains(" 75.0 %  (9 of 12 sensors)"),
        "{s}"
    );
    assert!(
        s.contains("ASE1000,5") && s.contains(" 25.0 %  (3 of 12 sensors)"),
        "{s}"
    );
    assert!(s.lines().skip(1).all(|l| l.starts_with("  ")), "{s}");
}

fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn has_colour(px: &[u8], c: [u8; 3]) -> bool {
    px.chunks_exact(3).any(|p| p == c)
}

#[test]
fn maps_are_written_and_decode() {
    let (sensors, m) = case();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("maps");
    let files = write_maps(&out, &sensors, &m, None, None).unwrap();
    // DAYLIT_KEEP_MAPS=<dir> keeps copies for a look by eye.
    if let Ok(keep) = std::env::var("DAYLIT_KEEP_MAPS") {
        for f in &files {
            std::fs::copy(f, std::path::Path::new(&keep).join(f.file_name().unwrap())).unwrap();
        }
    }
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["DA300.png", "UDI.png", "mean_lux.png", "ASE_hours.png"]
    );
    let specs = standard_maps(&m);
    for (f, (_, values, spec)) in files.iter().zip(&specs) {
        let (w, h, px) = decode(&std::fs::read(f).unwrap());
        assert_eq!((w, h), (MAP_WIDTH, MAP_HEIGHT));
        // Every sensor's band colour is on the map, and the title's dark text.
        for &v in values {
            assert!(has_colour(&px, band_colour(spec, v)), "{f:?} {v}");
        }
        assert!(
            px.chunks_exact(3).any(|p| p.iter().all(|&c| c < 40)),
            "{f:?}"
        );
    }
    // The titles carry the metric and its threshold.
    assert!(
        specs[0].2.subtitle.contains("sDA300/50% = 75.0 %"),
        "{}",
        specs[0].2.subtitle
    );
    assert!(specs[0].2.subtitle.contains("3 points"));
    assert_eq!(specs[0].2.verdict, Some(true));
    assert!(
        specs[3].2.subtitle.contains("ASE1000,5 = 25.0 %") && specs[3].2.subtitle.contains("fails")
    );
    assert_eq!(specs[3].2.verdict, Some(false));
    // Mean illuminance (12.5 to 1112.5 lux) in logarithmic bands.
    let edges = specs[2].2.bands.edges();
    assert_eq!(edges[..4], [10.0, 20.0, 30.0, 50.0]);
    assert_eq!(edges.last(), Some(&2000.0));
    // No temporary files left behind.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 4);
    write_json(&dir.path().join("a.json"), &m).unwrap();
    write_csv(&dir.path().join("a.csv"), &sensors, &m).unwrap();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

fn spec(title: &str, bands: Bands, percent: bool) -> MapSpec {
    MapSpec {
        title: title.into(),
        subtitle: String::new(),
        verdict: None,
        unit: "lux".into(),
        bands,
        percent,
        contour: None,
        uncertain: Vec::new(),
    }
}

/// Sensors from a file (no grid) are drawn as squares of their spacing: the plan is covered
/// with the value colours of both sensors.
#[test]
fn map_of_loose_sensors() {
    let sensors = SensorSet::parse("0 0 0.8 0 0 1\n1 0 0.8 0 0 1\n", "p.pts").unwrap();
    let spec = spec("Test", Bands::linear(0.0, 100.0, 10.0).unwrap(), false);
    let (w, h, px) = decode(&map_png(&sensors, &[25.0, 75.0], &spec, None).unwrap());
    assert_eq!((w, h), (MAP_WIDTH, MAP_HEIGHT));
    let count = |c: [u8; 3]| px.chunks_exact(3).filter(|p| *p == c).count();
    // Two squares side by side fill much of the plan; the legend's bands are a few rows each.
    assert!(
        count(band_colour(&spec, 25.0)) > 10_000,
        "{}",
        count(band_colour(&spec, 25.0))
    );
    assert!(count(band_colour(&spec, 75.0)) > 10_000);
    assert!(map_png(&sensors, &[1.0], &spec, None).is_err());
}

/// A rotated L-shaped floor at a fine spacing: cells drawn as rotated squares.
#[test]
fn map_of_rotated_l_shape() {
    let (c, s) = (20f64.to_radians().cos(), 20f64.to_radians().sin());
    let rot = |x: f64, y: f64| [c * x - s * y, s * x + c * y, 0.0];
    let poly = [
        rot(0.0, 0.0),
        rot(8.0, 0.0),
        rot(8.0, 3.0),
        rot(3.0, 3.0),
        rot(3.0, 6.0),
        rot(0.0, 6.0),
    ];
    let opts = GridOptions {
        spacing: 0.25,
        ..Default::default()
    };
    let sensors = SensorSet::from_polygon(&poly, &opts).unwrap();
    let values: Vec<f64> = sensors
        .sensors
        .iter()
        .map(|p| (-p.position[1].max(0.0) / 2.0).exp())
        .collect();
    let spec = spec(
        "Daylight autonomy DA300",
        Bands::linear(0.0, 1.0, 0.1).unwrap(),
        true,
    );
    let bytes = map_png(&sensors, &values, &spec, None).unwrap();
    if let Ok(keep) = std::env::var("DAYLIT_KEEP_MAPS") {
        std::fs::write(std::path::Path::new(&keep).join("rotated_l.png"), &bytes).unwrap();
    }
    let (w, h, px) = decode(&bytes);
    assert_eq!((w, h), (MAP_WIDTH, MAP_HEIGHT));
    assert!(has_colour(&px, band_colour(&spec, 0.0)) && has_colour(&px, band_colour(&spec, 1.0)));
}

/// Cells flagged as not settled by the noise are hatched: white diagonals across them, and a
/// key entry; cells not flagged keep their band colour.
#[test]
fn unsettled_cells_are_hatched() {
    let poly = [
        [0.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
        [3.0, 3.0, 0.0],
        [0.0, 3.0, 0.0],
    ];
    let opts = GridOptions {
        spacing: 0.5,
        ..Default::default()
    };
    let sensors = SensorSet::from_polygon(&poly, &opts).unwrap();
    let values = vec![0.55; sensors.len()];
    let mut plain = spec("DA300", Bands::linear(0.0, 1.0, 0.1).unwrap(), true);
    plain.contour = Some((0.5, "DA ≥ 50 % (sDA)".into()));
    let white = |s: &MapSpec| {
        let (_, _, px) = decode(&map_png(&sensors, &values, s, None).unwrap());
        px.chunks_exact(3)
            .filter(|p| p.iter().all(|&c| c > 240))
            .count()
    };
    let mut hatched = plain.clone();
    hatched.uncertain = vec![true; sensors.len()];
    let (before, after) = (white(&plain), white(&hatched));
    // 36 cells of about 60 × 60 pixels, three 1.2-pixel diagonals each.
    assert!(
        after > before + 36 * 100,
        "white pixels {before} -> {after}"
    );
}
