//! daylit's false colour against RADIANCE 6.0a's falsecolor on the same inputs
//! (tests/golden/make_goldens.sh regenerates the goldens; cases.txt lists them).
//!
//! Compared: the output size, every pixel of the false-colour picture (the scale, the log
//! mapping, the palettes, contour lines and bands exactly where RADIANCE puts them), and the
//! legend's colour strip along its right-hand columns, which the numbers never reach. The
//! numbers themselves are drawn in another font, so they are checked as text.

use daylit_falsecolor::args;
use daylit_falsecolor::picture::{auto_scale, extrema, false_colour, FalseColour};
use daylit_image::HdrImage;
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

fn office() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../validation/goldens/07_office_clear_sun/view.hdr")
}

fn input(name: &str) -> PathBuf {
    if name == "office" {
        office()
    } else {
        golden(&format!("{name}.hdr"))
    }
}

/// Same colour within the precision of an RGBE pixel (8-bit mantissas, one exponent).
fn same(a: [f32; 3], b: [f32; 3]) -> bool {
    let m = a.iter().chain(&b).fold(0f32, |m, &c| m.max(c));
    (0..3).all(|k| (a[k] - b[k]).abs() <= m / 200.0 + 1e-9)
}

struct Case {
    name: String,
    ours: FalseColour,
    theirs: HdrImage,
    legend_width: usize,
    input: HdrImage,
}

fn cases() -> Vec<Case> {
    let list = std::fs::read_to_string(golden("cases.txt")).unwrap();
    list.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let path = input(f[1]);
            let words: Vec<String> = f[2]
                .split_whitespace()
                .map(|w| w.replace("@IN@", path.to_str().unwrap()))
                .collect();
            let a = args::parse(&words).unwrap();
            let input = HdrImage::read(a.input.as_ref().unwrap()).unwrap();
            let bg = a.background.as_ref().map(|p| HdrImage::read(p).unwrap());
            let ours = false_colour(&input, bg.as_ref(), &a.options).unwrap();
            let theirs = HdrImage::read(&golden(&format!("{}.hdr", f[0]))).unwrap();
            let lw = ours.picture_at.0;
            Case {
                name: f[0].to_string(),
                ours,
                theirs,
                legend_width: lw,
                input,
            }
        })
        .collect()
}

#[test]
fn pictures_match_radiance_falsecolor() {
    let cases = cases();
    assert_eq!(cases.len(), 11);
    for c in &cases {
        let (o, t) = (&c.ours.image, &c.theirs);
        assert_eq!((o.width, o.height), (t.width, t.height), "{}", c.name);
        let (px, py) = c.ours.picture_at;
        assert_eq!(
            (o.width - px, o.height - py),
            (c.input.width, c.input.height),
            "{}",
            c.name
        );
        // Every pixel of the picture.
        let mut bad = Vec::new();
        for y in py..o.height {
            for x in px..o.width {
                let (a, b) = (o.pixels[y * o.width + x], t.get(x, y));
                if !same(a, b) {
                    bad.push((x, y, a, b));
                }
            }
        }
        // Contours leave much of the picture to the background (black, or with -ip the input
        // picture itself), not all of it.
        if c.name.contains("lines") || c.name.contains("bands") {
            let over = c.name.contains("over");
            let background = (py..o.height)
                .flat_map(|y| (px..o.width).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let b = if over {
                        c.input.get(x - px, y - py)
                    } else {
                        [0.0; 3]
                    };
                    t.get(x, y) == b
                })
                .count();
            let n = (o.height - py) * (o.width - px);
            assert!(
                background > n / 4 && background < n,
                "{}: {background} of {n}",
                c.name
            );
        }
        assert!(
            bad.is_empty(),
            "{}: {} picture pixels differ, first {:?}",
            c.name,
            bad.len(),
            &bad[..bad.len().min(5)]
        );
        // The legend strip's right-hand columns, top to bottom.
        let lw = c.legend_width;
        for x in lw.saturating_sub(3)..lw {
            for y in 0..o.height {
                let (a, b) = (o.pixels[y * o.width + x], t.get(x, y));
                assert!(same(a, b), "{} legend ({x},{y}): {a:?} {b:?}", c.name);
            }
        }
    }
}

#[test]
fn legend_numbers() {
    let want: &[(&str, &[&str])] = &[
        (
            "ramp_def",
            &["1000", "875", "750", "625", "500", "375", "250", "125", "0"],
        ),
        (
            "ramp_spec_log",
            &["2000", "796.214", "316.978", "126.191", "50.237", "20"],
        ),
        (
            "ramp_lines_hot",
            &["1200", "1000", "800", "600", "400", "200"],
        ),
        ("ramp_bands_eco", &["1200", "900", "600", "300"]),
        ("ramp_poster_pm3d", &["1000", "800", "600", "400", "200"]),
        (
            "ramp_lines_over",
            &[
                "500", "374.947", "281.170", "210.848", "158.113", "118.568", "88.913", "66.676",
            ],
        ),
        ("ramp_nolegend", &[]),
    ];
    let cases = cases();
    for (name, labels) in want {
        let c = cases.iter().find(|c| c.name == *name).unwrap();
        assert_eq!(c.ours.labels, *labels, "{name}");
    }
}

/// `-s auto` against the histogram line falsecolor reads from phisto.
#[test]
fn auto_scale_matches_phisto() {
    for (pic, path) in [
        ("ramp", golden("ramp.hdr")),
        ("spot", golden("spot.hdr")),
        ("office", office()),
    ] {
        let line = std::fs::read_to_string(golden(&format!("{pic}.phisto"))).unwrap();
        let log: f64 = line.split_whitespace().next().unwrap().parse().unwrap();
        let want = 10f64.powf(log);
        let img = HdrImage::read(&path).unwrap();
        let got = auto_scale(&img, 179.0).unwrap();
        assert!((got / want - 1.0).abs() < 1e-9, "{pic}: {got} vs {want}");
        // The multiplier scales it.
        let got = auto_scale(&img, 17.9).unwrap();
        assert!((got / want - 0.1).abs() < 1e-9);
    }
}

/// `-e` marks the pixels `pextrem -o` finds (x from the left, y from the bottom).
#[test]
fn extrema_where_pextrem_finds_them() {
    let img = HdrImage::read(&office()).unwrap();
    let text = std::fs::read_to_string(golden("office.pextrem")).unwrap();
    let at: Vec<(usize, usize)> = text
        .lines()
        .map(|l| {
            let f: Vec<usize> = l
                .split_whitespace()
                .take(2)
                .map(|w| w.parse().unwrap())
                .collect();
            (f[0], img.height - 1 - f[1])
        })
        .collect();
    let (lo, hi) = extrema(&img).unwrap();
    assert_eq!(vec![lo, hi], at);
}
