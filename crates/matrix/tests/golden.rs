//! Products and files checked against RADIANCE 6.0a's dctimestep (goldens made by
//! tests/golden/make_goldens.sh; RADIANCE is not needed to run these tests).

use daylit_matrix::{
    chain, multiply, parse_header, read_matrix, read_matrix_file, write_matrix, Format, HeaderMode,
    Loaded, Matrix, ReadOptions,
};
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

fn load(name: &str) -> Loaded {
    read_matrix_file(&golden(name), &ReadOptions::default()).unwrap()
}

/// Same shape, values within 1e-5 relative (or 1e-6 absolute near zero).
fn assert_close(ours: &Matrix, theirs: &Matrix) {
    assert_eq!(
        (ours.rows(), ours.cols(), ours.ncomp()),
        (theirs.rows(), theirs.cols(), theirs.ncomp())
    );
    for (i, (a, b)) in ours.data().iter().zip(theirs.data()).enumerate() {
        let tol = 1e-5 * b.abs().max(0.1);
        assert!((a - b).abs() <= tol, "value {i}: daylit {a}, RADIANCE {b}");
    }
}

/// Header keys a matrix header must agree on.
fn fields(bytes: &[u8]) -> Vec<String> {
    let (h, _) = parse_header(bytes, "output").unwrap();
    vec![
        format!("{:?}", h.rows),
        format!("{:?}", h.cols),
        format!("{:?}", h.ncomp),
        format!("{:?}", h.format),
        format!("{:?}", h.big_endian),
    ]
}

/// Our product written in `format`, re-read; checked against RADIANCE's output file.
fn check(ours: &Matrix, format: Format, radiance: &str) {
    let mut bytes = Vec::new();
    write_matrix(ours, format, &mut bytes).unwrap();
    let theirs_bytes = std::fs::read(golden(radiance)).unwrap();
    assert_eq!(fields(&bytes), fields(&theirs_bytes), "header fields");
    let back = read_matrix(&bytes, "ours", &ReadOptions::default()).unwrap();
    let theirs = load(radiance);
    assert_eq!(back.format, theirs.format);
    assert_close(&back.matrix, &theirs.matrix);
}

#[test]
fn two_phase_ascii() {
    let (dc, sky) = (load("dc.mtx"), load("sky.mtx"));
    assert_eq!((sky.matrix.rows(), sky.matrix.cols()), (146, 6));
    assert!(sky
        .matrix
        .header_lines
        .iter()
        .any(|l| l.starts_with("LATLONG=")));
    let r = multiply(&dc.matrix, &sky.matrix).unwrap();
    check(&r, Format::Ascii, "out_2ph_aa.mtx");
}

#[test]
fn ascii_text_matches_radiance_exactly() {
    let r = multiply(&load("dc.mtx").matrix, &load("sky.mtx").matrix).unwrap();
    let mut ours = Vec::new();
    daylit_matrix::write_body(&r, Format::Ascii, &mut ours).unwrap();
    let theirs = std::fs::read(golden("out_2ph_aa.mtx")).unwrap();
    let (_, start) = parse_header(&theirs, "golden").unwrap();
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs[start..])
    );
}

#[test]
fn two_phase_float() {
    let (dc, sky) = (load("dc_f.mtx"), load("sky_f.mtx"));
    assert_eq!(dc.format, Format::Float);
    assert_close(&dc.matrix, &load("dc.mtx").matrix);
    let r = multiply(&dc.matrix, &sky.matrix).unwrap();
    check(&r, Format::Float, "out_2ph_ff.mtx");
}

#[test]
fn two_phase_float_sky_double_output() {
    let opts = ReadOptions {
        format: Some(Format::Float),
        ..ReadOptions::default()
    };
    let sky = read_matrix_file(&golden("sky_f.mtx"), &opts).unwrap();
    let r = multiply(&load("dc.mtx").matrix, &sky.matrix).unwrap();
    check(&r, Format::Double, "out_2ph_fd.mtx");
}

#[test]
fn headerless_sky_with_steps() {
    let opts = ReadOptions {
        cols: Some(6),
        header: HeaderMode::Absent,
        ..ReadOptions::default()
    };
    let sky = read_matrix_file(&golden("sky_h.txt"), &opts).unwrap();
    assert!(!sky.had_header);
    let r = multiply(&load("dc.mtx").matrix, &sky.matrix).unwrap();
    // RADIANCE wrote it with -h: no header, ascii.
    let theirs = read_matrix_file(
        &golden("out_2ph_h.mtx"),
        &ReadOptions {
            rows: Some(4),
            cols: Some(6),
            header: HeaderMode::Absent,
            ..ReadOptions::default()
        },
    )
    .unwrap();
    assert_close(&r, &theirs.matrix);
}

#[test]
fn headerless_sky_sized_by_the_other_operand() {
    let dc = load("dc.mtx");
    let opts = ReadOptions {
        rows: Some(dc.matrix.cols()),
        ..ReadOptions::default()
    };
    let sky = read_matrix_file(&golden("sky_h.txt"), &opts).unwrap();
    assert_eq!((sky.matrix.rows(), sky.matrix.cols()), (146, 6));
    assert_close(&sky.matrix, &load("sky.mtx").matrix);
}

#[test]
fn three_phase() {
    let (v, t, d, s) = (load("v.mtx"), load("t.mtx"), load("d.mtx"), load("sky.mtx"));
    let r = chain(&[&v.matrix, &t.matrix, &d.matrix, &s.matrix]).unwrap();
    check(&r, Format::Ascii, "out_3ph_aa.mtx");
    let sf = load("sky_f.mtx");
    let r = chain(&[&v.matrix, &t.matrix, &d.matrix, &sf.matrix]).unwrap();
    check(&r, Format::Float, "out_3ph_ff.mtx");
}

#[test]
fn illuminance_is_the_weighted_product() {
    let (dc, sky) = (load("dc.mtx").matrix, load("sky.mtx").matrix);
    let rgb = multiply(&dc, &sky).unwrap();
    let lux = daylit_matrix::illuminance(&dc, &sky).unwrap();
    assert_eq!((lux.rows(), lux.cols(), lux.ncomp()), (4, 6, 1));
    for (l, c) in lux.data().iter().zip(rgb.data().chunks_exact(3)) {
        let want = 179.0 * (0.265 * c[0] as f64 + 0.670 * c[1] as f64 + 0.065 * c[2] as f64);
        assert!(
            (*l as f64 - want).abs() <= 1e-5 * want.abs().max(1.0),
            "{l} vs {want}"
        );
    }
}
