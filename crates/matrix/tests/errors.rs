//! Bad matrices give errors that name the input, the line and what was expected; no input
//! makes the reader panic.

use daylit_matrix::{
    illuminance, multiply, read_matrix, HeaderMode, Matrix, MatrixError, ReadOptions,
};
use rand::{Rng, SeedableRng};

const GOOD: &str = "#?RADIANCE\nNROWS=2\nNCOLS=2\nNCOMP=3\nFORMAT=ascii\n\n\
1 2 3 4 5 6\n7 8 9 10 11 12\n";

fn err(text: &[u8], opts: &ReadOptions) -> String {
    match read_matrix(text, "m.mtx", opts) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

fn default_err(text: &str) -> String {
    err(text.as_bytes(), &ReadOptions::default())
}

#[test]
fn good_matrix_reads() {
    let m = read_matrix(GOOD.as_bytes(), "m.mtx", &ReadOptions::default()).unwrap();
    assert_eq!(m.matrix.get(1, 0), &[7.0, 8.0, 9.0]);
    assert!(m.warnings.is_empty());
}

#[test]
fn bad_number_names_file_and_line() {
    let e = default_err(&GOOD.replace("10 11", "10 x11"));
    assert_eq!(e, "m.mtx: line 8: expected a number, found 'x11'");
}

#[test]
fn bad_header_values() {
    assert_eq!(
        default_err(&GOOD.replace("NROWS=2", "NROWS=two")),
        "m.mtx: line 2: NROWS=two: expected a whole number"
    );
    assert_eq!(
        default_err(&GOOD.replace("FORMAT=ascii", "FORMAT=text")),
        "m.mtx: line 5: FORMAT=text: expected ascii, float or double"
    );
    assert!(
        default_err(&GOOD.replace("FORMAT=ascii", "FORMAT=32-bit_rle_rgbe"))
            .contains("pictures are not read as matrices")
    );
    assert_eq!(
        default_err(&GOOD.replace("\n\n1", "\nBigEndian=2\n\n1")),
        "m.mtx: line 6: BigEndian=2: expected 0 or 1"
    );
    assert_eq!(
        default_err("#?RADIANCE\nNROWS=2\n"),
        "m.mtx: line 3: unexpected end of input in the header (expected a blank line ending it)"
    );
    assert_eq!(
        default_err(&GOOD.replace("FORMAT=ascii\n", "")),
        "m.mtx: no FORMAT= line in the header: expected FORMAT=ascii, float or double"
    );
}

#[test]
fn dimensions_checked_against_expectations() {
    let opts = ReadOptions {
        cols: Some(3),
        ncomp: Some(3),
        ..ReadOptions::default()
    };
    assert_eq!(
        err(GOOD.as_bytes(), &opts),
        "m.mtx: NCOLS=2 in the header, expected 3"
    );
    let opts = ReadOptions {
        ncomp: Some(1),
        ..ReadOptions::default()
    };
    assert_eq!(
        err(GOOD.as_bytes(), &opts),
        "m.mtx: NCOMP=3 in the header, expected 1"
    );
    let opts = ReadOptions {
        format: Some(daylit_matrix::Format::Float),
        ..ReadOptions::default()
    };
    assert_eq!(
        err(GOOD.as_bytes(), &opts),
        "m.mtx: FORMAT=ascii in the header, expected float"
    );
}

#[test]
fn short_and_long_data() {
    assert_eq!(
        default_err(GOOD.trim_end_matches("10 11 12\n")),
        "m.mtx: unexpected end of data: expected 12 numbers (2×2×3), found 9"
    );
    let m = read_matrix(
        format!("{GOOD}13\n").as_bytes(),
        "m.mtx",
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(
        m.warnings,
        ["m.mtx: line 9: unexpected data after the matrix ('13'), ignored"]
    );
}

#[test]
fn binary_lengths() {
    let head = "#?RADIANCE\nNCOLS=2\nNCOMP=3\nFORMAT=float\n\n";
    let mut bytes = head.as_bytes().to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 4 * 6 * 3 + 4));
    assert_eq!(
        err(&bytes, &ReadOptions::default()),
        "m.mtx: improper length: 76 bytes of float data are not whole elements of 12 bytes"
    );
    let head = "#?RADIANCE\nNROWS=3\nNCOLS=2\nNCOMP=3\nFORMAT=double\n\n";
    let mut bytes = head.as_bytes().to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 8 * 6));
    assert_eq!(
        err(&bytes, &ReadOptions::default()),
        "m.mtx: unexpected end of data: expected 18 double numbers (3×2×3, 144 bytes), found 48 bytes"
    );
}

#[test]
fn big_endian_is_swapped() {
    let mut bytes =
        b"#?RADIANCE\nNROWS=1\nNCOLS=1\nNCOMP=3\nBigEndian=1\nFORMAT=float\n\n".to_vec();
    for v in [1.5f32, -2.0, 1e-3] {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
    let m = read_matrix(&bytes, "m.mtx", &ReadOptions::default()).unwrap();
    assert_eq!(m.matrix.data(), &[1.5, -2.0, 1e-3]);
}

#[test]
fn exposure_is_divided_out() {
    let text = GOOD.replace("FORMAT=ascii", "FORMAT=ascii\nEXPOSURE=2");
    let m = read_matrix(text.as_bytes(), "m.mtx", &ReadOptions::default()).unwrap();
    assert_eq!(m.matrix.get(0, 0), &[0.5, 1.0, 1.5]);
}

#[test]
fn headerless_needs_a_size() {
    assert_eq!(
        default_err("1 2 3 4 5 6\n"),
        "m.mtx: unspecified matrix size: expected NROWS= and NCOLS= in the header (or the size from the other operand)"
    );
    let opts = ReadOptions {
        cols: Some(4),
        ..ReadOptions::default()
    };
    assert_eq!(
        err(b"1 2 3 4 5 6\n", &opts),
        "m.mtx: 2 elements do not make whole rows of 4 elements"
    );
    assert_eq!(err(b"  \n", &opts), "m.mtx: empty input: expected a matrix");
    let opts = ReadOptions {
        cols: Some(1),
        header: HeaderMode::Absent,
        ..ReadOptions::default()
    };
    let m = read_matrix(b"1 2 3\n4 5 6\n", "m.mtx", &opts).unwrap();
    assert_eq!(m.matrix.rows(), 2);
}

#[test]
fn shapes_must_fit() {
    let a = Matrix::zeros(2, 3, 3).unwrap();
    let b = Matrix::zeros(2, 3, 3).unwrap();
    assert!(matches!(multiply(&a, &b), Err(MatrixError::Shape(_))));
    assert!(illuminance(&a, &b).is_err());
    assert!(Matrix::new(2, 2, 3, vec![0.0; 11]).is_err());
    assert!(Matrix::zeros(0, 2, 3).is_err());
    assert!(Matrix::zeros(usize::MAX, 2, 3).is_err());
}

/// Mutates valid ascii, float and double matrices thousands of times: errors, never panics.
#[test]
fn mutations_never_panic() {
    let mut float =
        b"#?RADIANCE\nNROWS=2\nNCOLS=2\nNCOMP=3\nBigEndian=0\nFORMAT=float\n\n".to_vec();
    (0..12).for_each(|i| float.extend_from_slice(&(i as f32).to_le_bytes()));
    let mut double = b"#?RADIANCE\nNCOLS=2\nNCOMP=3\nFORMAT=double\n\n".to_vec();
    (0..12).for_each(|i| double.extend_from_slice(&(i as f64).to_le_bytes()));
    let seeds: [&[u8]; 4] = [GOOD.as_bytes(), &float, &double, b"1 2 3 4 5 6\n7 8 9\n"];
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let pieces: [&[u8]; 9] = [
        b"\n",
        b"NROWS=",
        b"NCOLS=99999999999999",
        b"NCOMP=0",
        b"FORMAT=",
        b"=",
        b"-",
        b"e",
        b"\0",
    ];
    let mut ok = 0;
    for i in 0..6000 {
        let mut b = seeds[i % seeds.len()].to_vec();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..=b.len());
            match rng.random_range(0..4) {
                0 if at < b.len() => b[at] = rng.random(),
                1 if at < b.len() => {
                    b.remove(at);
                }
                2 => b.truncate(at),
                _ => {
                    let p = pieces[rng.random_range(0..pieces.len())];
                    b.splice(at..at, p.iter().copied());
                }
            }
        }
        let opts = match i % 3 {
            0 => ReadOptions::default(),
            1 => ReadOptions {
                cols: Some(2),
                ..ReadOptions::default()
            },
            _ => ReadOptions {
                rows: Some(2),
                cols: Some(2),
                header: HeaderMode::Auto,
                ..ReadOptions::default()
            },
        };
        match std::panic::catch_unwind(|| read_matrix(&b, "fuzz", &opts)) {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(e)) => assert!(e.to_string().starts_with("fuzz"), "{e}"),
            Err(_) => panic!("panic on input {:?}", String::from_utf8_lossy(&b)),
        }
    }
    assert!(ok > 100, "too few mutations still read: {ok}");
}
