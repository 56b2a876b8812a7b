//! `gendaymtx` against RADIANCE 6.0a's gendaymtx for the Greensboro TMY3 year
//! (goldens made by tests/golden/make_gendaymtx_goldens.sh).
//!
//! Tolerance: every patch of every hour within 0.5 % of RADIANCE, relative to the larger of
//! the two values, with an absolute floor of 1e-4 W·sr⁻¹·m⁻² for near-zero values. The goldens
//! are RADIANCE's float output rounded to 12 mantissa bits (≤ 0.013 %).

use daylit_sky::gendaymtx::{self, Format, Options, OutputKind, SkyMatrix};
use daylit_sky::weather::{parse_weather, read_weather, Weather};
use flate2::read::GzDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};

const REL: f64 = 0.005;
const FLOOR: f64 = 1e-4;

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/gendaymtx")
        .join(name)
}

fn gunzip(name: &str) -> Vec<u8> {
    let mut out = Vec::new();
    GzDecoder::new(std::fs::File::open(golden(name)).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// A packed golden matrix: rows × columns × components, RADIANCE's order.
struct Golden {
    rows: usize,
    cols: usize,
    comps: usize,
    data: Vec<f32>,
}

impl Golden {
    fn load(name: &str) -> Golden {
        let raw = gunzip(name);
        let word =
            |i: usize| u32::from_le_bytes(raw[4 * i..4 * i + 4].try_into().unwrap()) as usize;
        let (rows, cols, comps) = (word(0), word(1), word(2));
        let planes = &raw[12..];
        let n = rows * cols * comps;
        assert_eq!(planes.len(), 4 * n, "{name}: size");
        let data = (0..n)
            .map(|i| {
                f32::from_le_bytes([
                    planes[i],
                    planes[n + i],
                    planes[2 * n + i],
                    planes[3 * n + i],
                ])
            })
            .collect();
        Golden {
            rows,
            cols,
            comps,
            data,
        }
    }

    fn get(&self, row: usize, col: usize, comp: usize) -> f64 {
        self.data[(row * self.cols + col) * self.comps + comp] as f64
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= REL * a.abs().max(b.abs()) + FLOOR
}

fn rel_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).abs() - FLOOR;
    if d <= 0.0 {
        0.0
    } else {
        d / a.abs().max(b.abs())
    }
}

/// Compares `ours` (columns `cols` of it, in golden order) with a golden; returns the
/// largest relative difference and panics with the first disagreement.
fn compare(name: &str, ours: &SkyMatrix, cols: &[usize], comps: &[usize], g: &Golden) -> f64 {
    assert_eq!(ours.rows, g.rows, "{name}: rows");
    assert_eq!(cols.len(), g.cols, "{name}: columns");
    let mut worst: f64 = 0.0;
    for row in 0..g.rows {
        for (gc, &c) in cols.iter().enumerate() {
            let v = ours.get(row, c);
            for (gk, &k) in comps.iter().enumerate() {
                let (a, b) = (v[k] as f64, g.get(row, gc, gk));
                assert!(
                    close(a, b),
                    "{name}: patch {row} column {c} component {k}: ours {a}, RADIANCE {b}"
                );
                worst = worst.max(rel_diff(a, b));
            }
        }
    }
    eprintln!("{name}: max relative difference {:.3e}", worst);
    worst
}

fn wea_year() -> Weather {
    let text = String::from_utf8(gunzip("greensboro.wea.gz")).unwrap();
    parse_weather(&text, "greensboro.wea").unwrap()
}

fn days() -> Weather {
    read_weather(&golden("days.wea")).unwrap()
}

fn all(n: usize) -> Vec<usize> {
    (0..n).collect()
}

#[test]
fn whole_year_tregenza_matches_radiance() {
    let m = gendaymtx::sky_matrix(&wea_year(), &Options::default()).unwrap();
    assert_eq!((m.rows, m.columns), (146, 8760));
    let g = Golden::load("year_m1_g.mtx.gz");
    compare("year -m 1", &m, &all(8760), &[1], &g);
}

#[test]
fn whole_year_reinhart_4_matches_radiance() {
    let opts = Options {
        mf: 4,
        ..Options::default()
    };
    let m = gendaymtx::sky_matrix(&wea_year(), &opts).unwrap();
    assert_eq!((m.rows, m.columns), (2306, 8760));
    // Full columns for ~170 hours: sunrise, sunset, clear, overcast, partly cloudy, noons.
    let hours: Vec<usize> = std::fs::read_to_string(golden("year_m4_hours.txt"))
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let g = Golden::load("year_m4_selected.mtx.gz");
    compare("year -m 4 selected hours", &m, &hours, &[0, 1, 2], &g);
    // Every hour's column sum and every patch's annual sum.
    let table = |name: &str| -> Vec<[f64; 3]> {
        std::fs::read_to_string(golden(name))
            .unwrap()
            .lines()
            .map(|l| {
                let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
                [v[0], v[1], v[2]]
            })
            .collect()
    };
    let mut worst: f64 = 0.0;
    for (c, want) in table("year_m4_column_sums.txt").iter().enumerate() {
        for (k, &want) in want.iter().enumerate() {
            let got: f64 = (0..m.rows).map(|r| m.get(r, c)[k] as f64).sum();
            assert!(
                close(got, want),
                "column {c} sum {k}: ours {got}, RADIANCE {want}"
            );
            worst = worst.max(rel_diff(got, want));
        }
    }
    for (r, want) in table("year_m4_patch_sums.txt").iter().enumerate() {
        for (k, &want) in want.iter().enumerate() {
            let got: f64 = (0..m.columns).map(|c| m.get(r, c)[k] as f64).sum();
            assert!(
                close(got, want),
                "patch {r} sum {k}: ours {got}, RADIANCE {want}"
            );
            worst = worst.max(rel_diff(got, want));
        }
    }
    eprintln!("year -m 4 sums: max relative difference {worst:.3e}");
}

/// Runs one option variant on the five days and compares all of it.
fn variant(name: &str, opts: Options) {
    let m = gendaymtx::sky_matrix(&days(), &opts).unwrap();
    let g = Golden::load(&format!("days_{name}.mtx.gz"));
    compare(name, &m, &all(m.columns), &[0, 1, 2], &g);
}

#[test]
fn option_variants_match_radiance() {
    let base = Options::default;
    variant("m1", base());
    variant("m2", Options { mf: 2, ..base() });
    let mut d = base();
    d.sun_only();
    variant("d", d.clone());
    variant("m4d", Options { mf: 4, ..d });
    let mut s = base();
    s.sky_only();
    variant("s", s);
    variant(
        "O1",
        Options {
            output: OutputKind::Solar,
            ..base()
        },
    );
    let mut five = base();
    five.five_phase(0.533);
    variant("five", five);
    variant(
        "r30",
        Options {
            rotation: 30.0,
            ..base()
        },
    );
    variant(
        "c",
        Options {
            sky_color: [1.0; 3],
            ground: [0.3, 0.2, 0.1],
            ..base()
        },
    );
    variant(
        "A",
        Options {
            average: true,
            ..base()
        },
    );
    variant(
        "u",
        Options {
            sun_hours_only: true,
            ..base()
        },
    );
}

#[test]
fn epw_dew_point_matches_radiance() {
    let text = String::from_utf8(gunzip("greensboro.epw.gz")).unwrap();
    let w = parse_weather(&text, "greensboro.epw").unwrap();
    let jan = Weather {
        records: w.records[..744].to_vec(),
        ..w
    };
    let m = gendaymtx::sky_matrix(&jan, &Options::default()).unwrap();
    compare(
        "EPW January (dew point)",
        &m,
        &all(744),
        &[1],
        &Golden::load("jan_m1_epw_g.mtx.gz"),
    );
}

#[test]
fn ascii_output_and_header_match_radiance() {
    let want = std::fs::read_to_string(golden("days_m1_ascii.txt")).unwrap();
    let m = gendaymtx::sky_matrix(&days(), &Options::default()).unwrap();
    let mut got = gendaymtx::header(&m, Format::Ascii, "gendaymtx -m 1 days.wea").into_bytes();
    got.extend(gendaymtx::body(&m, Format::Ascii));
    let got = String::from_utf8(got).unwrap();
    let (gh, gb) = got.split_once("\n\n").unwrap();
    let (wh, wb) = want.split_once("\n\n").unwrap();
    assert_eq!(gh, wh);
    // %.3g text: values may round differently in the last digit near a half.
    let (gl, wl): (Vec<&str>, Vec<&str>) = (gb.lines().collect(), wb.lines().collect());
    assert_eq!(gl.len(), wl.len());
    for (i, (a, b)) in gl.iter().zip(&wl).enumerate() {
        for (x, y) in a.split_whitespace().zip(b.split_whitespace()) {
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!(
                close(x, y) || (x - y).abs() <= 0.0101 * x.abs().max(y.abs()),
                "line {i}: {a} vs {b}"
            );
        }
    }
    let avg = gendaymtx::sky_matrix(
        &days(),
        &Options {
            average: true,
            ..Options::default()
        },
    )
    .unwrap();
    let head = gendaymtx::header(&avg, Format::Float, "gendaymtx -m 1 -A -of days.wea");
    assert_eq!(
        head,
        std::fs::read_to_string(golden("days_A_float_header.txt")).unwrap()
    );
}

#[test]
fn every_weather_format_gives_the_same_matrix() {
    let tmy = read_weather(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/weather/723170TYA.CSV"),
    )
    .unwrap();
    let epw = parse_weather(
        &String::from_utf8(gunzip("greensboro.epw.gz")).unwrap(),
        "g.epw",
    )
    .unwrap();
    let wea = wea_year();
    // Written back out as WEA by our writer, too.
    let rewritten = parse_weather(&tmy.to_wea(), "rewritten.wea").unwrap();
    let no_dew = Options {
        use_dew_point: false,
        ..Options::default()
    };
    let reference = gendaymtx::sky_matrix(&wea, &no_dew).unwrap();
    for (name, w) in [("TMY3", &tmy), ("EPW", &epw), ("WEA rewritten", &rewritten)] {
        let m = gendaymtx::sky_matrix(w, &no_dew).unwrap();
        assert_eq!(m.data, reference.data, "{name} without dew point");
    }
    // With dew points, TMY3 and EPW (which both carry them) still agree.
    let a = gendaymtx::sky_matrix(&tmy, &Options::default()).unwrap();
    let b = gendaymtx::sky_matrix(&epw, &Options::default()).unwrap();
    assert_eq!(a.data, b.data);
    assert_ne!(
        a.data, reference.data,
        "the dew point must change the matrix"
    );
}

/// `-D` / `-M`: the sun descriptions and modifier names, byte for byte as RADIANCE writes
/// them (every sun with part of its disc above the horizon, black at night).
#[test]
fn sun_descriptions_match_radiance_byte_for_byte() {
    let w = days();
    let suns = gendaymtx::sun_descriptions(&w, &Options::default());
    let want = std::fs::read_to_string(golden("days_suns.rad")).unwrap();
    assert_eq!(gendaymtx::sun_scene(&suns), want);
    let want = std::fs::read_to_string(golden("days_suns.mod")).unwrap();
    assert_eq!(gendaymtx::sun_modifiers(&suns), want);
    let opts = Options {
        output: OutputKind::Solar,
        rotation: 30.0,
        ..Options::default()
    };
    let suns = gendaymtx::sun_descriptions(&w, &opts);
    let want = std::fs::read_to_string(golden("days_suns_O1_r30.rad")).unwrap();
    assert_eq!(gendaymtx::sun_scene(&suns), want);
}
