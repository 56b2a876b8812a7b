//! RADIANCE's file converters by name against RADIANCE's own (pyradiance's 6.0a): `ies2rad`
//! (scene text and data files byte for byte), `ra_tiff` and `ra_ppm` (both ways, by sample and
//! pixel). Each case of tests/golden/PROGRAM/cases.txt runs in a fresh copy of PROGRAM/inputs;
//! tests/golden/make_cases.sh PROGRAM makes the goldens: standard output (out/N), exit code
//! (out/N.rc) and every file written (out/N.d/).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
}

/// Every file under `dir`, as paths relative to it, with their bytes.
fn files_under(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// One case run by daylit, beside RADIANCE's goldens for it.
struct Case {
    /// The arguments as cases.txt gives them.
    line: String,
    /// daylit's standard output, error and exit code.
    got: Output,
    /// The folder it ran in (a copy of the inputs, plus what it wrote).
    work: tempfile::TempDir,
    /// RADIANCE's exit code.
    want_rc: i32,
    /// RADIANCE's standard output.
    want_stdout: Vec<u8>,
    /// The files RADIANCE wrote.
    want_files: std::collections::BTreeMap<PathBuf, Vec<u8>>,
}

impl Case {
    /// The files daylit wrote (those not among the inputs).
    fn written(
        &self,
        inputs: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
    ) -> Vec<(PathBuf, Vec<u8>)> {
        files_under(self.work.path())
            .into_iter()
            .filter(|(rel, _)| !inputs.contains_key(rel) && !rel.starts_with("bin"))
            .collect()
    }
}

/// Runs daylit as `program`, by that name (it may write its name into what it writes), on
/// every case of `dir`, each in a fresh copy of `dir/inputs` with the folders of
/// `dir/dirs.txt`, with no lamp table or function files on the RAYPATH but daylit's own.
fn run_cases(
    program: &str,
    dir: &str,
) -> (Vec<Case>, std::collections::BTreeMap<PathBuf, Vec<u8>>) {
    let here = golden(dir);
    let inputs = files_under(&here.join("inputs"));
    let dirs = std::fs::read_to_string(here.join("dirs.txt")).unwrap_or_default();
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let runs = cases
        .lines()
        .enumerate()
        .map(|(k, line)| {
            let out = here.join("out").join((k + 1).to_string());
            let work = tempfile::tempdir().unwrap();
            for (rel, bytes) in &inputs {
                std::fs::write(work.path().join(rel), bytes).unwrap();
            }
            for d in dirs.lines().chain(["bin"]) {
                std::fs::create_dir_all(work.path().join(d)).unwrap();
            }
            let bin = work.path().join("bin");
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.join(program)).unwrap();
            let mut words: Vec<&str> = line.split_whitespace().collect();
            let stdin = if words.first() == Some(&"<") {
                let f = work.path().join(words[1]);
                words.drain(..2);
                Stdio::from(std::fs::File::open(f).unwrap())
            } else {
                Stdio::null()
            };
            let path = format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            );
            let got = Command::new(program)
                .args(&words)
                .env("PATH", path)
                .env("RAYPATH", ".")
                .current_dir(work.path())
                .stdin(stdin)
                .output()
                .unwrap();
            let want_rc = std::fs::read_to_string(out.with_extension("rc"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            let want_files = if out.with_extension("d").exists() {
                files_under(&out.with_extension("d"))
            } else {
                Default::default()
            };
            Case {
                line: line.to_string(),
                got,
                work,
                want_rc,
                want_stdout: std::fs::read(&out).unwrap(),
                want_files,
            }
        })
        .collect();
    (runs, inputs)
}

/// ies2rad on RADIANCE's example luminaire, a manufacturer's LED file and files of every
/// LM-63 version, shape, symmetry, tilt source and photometric type, with its naming, unit,
/// colour and library options (tests/golden/ies2rad, inputs.txt says where the files come
/// from): standard output, exit code and every file written, byte for byte. Where RADIANCE
/// fails, each file daylit wrote (for the other inputs of the run) must be RADIANCE's.
#[test]
fn ies2rad_matches_radiance() {
    let (cases, inputs) = run_cases("ies2rad", "ies2rad");
    for c in &cases {
        let (line, err) = (&c.line, String::from_utf8_lossy(&c.got.stderr));
        assert_eq!(
            c.got.status.code(),
            Some(c.want_rc),
            "ies2rad {line}: exit code ({err})"
        );
        let written = c.written(&inputs);
        for (rel, bytes) in &written {
            let want = c.want_files.get(rel);
            assert!(
                want == Some(bytes),
                "ies2rad {line}: {} differs\n got: {}\nwant: {}",
                rel.display(),
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(want.map_or(&[][..], |w| w))
            );
        }
        if c.want_rc == 0 {
            let names: Vec<_> = written.iter().map(|(r, _)| r).collect();
            assert_eq!(
                names,
                c.want_files.keys().collect::<Vec<_>>(),
                "ies2rad {line}: files"
            );
            assert!(
                c.got.stdout == c.want_stdout,
                "ies2rad {line}: standard output differs\n got: {}\nwant: {}",
                String::from_utf8_lossy(&c.got.stdout),
                String::from_utf8_lossy(&c.want_stdout)
            );
        } else {
            assert!(err.starts_with("ies2rad"), "ies2rad {line}: error {err:?}");
        }
    }
}

/// Luminaires from daylit's ies2rad light a floor as RADIANCE's light it (tests/golden/ies2rad
/// trace/, out/trace.txt from make_more.sh): tilt data from the IES file and from a file of its
/// own through tilt.cal, type B photometry, a sphere; direct irradiance at 12 points within 2 %
/// (the sources are sampled by area, so both carry a little noise).
#[test]
fn ies2rad_luminaires_light_as_radiance_s() {
    let here = golden("ies2rad");
    let work = tempfile::tempdir().unwrap();
    for (rel, bytes) in files_under(&here.join("inputs")) {
        std::fs::write(work.path().join(rel), bytes).unwrap();
    }
    std::fs::copy(here.join("trace/scene.rad"), work.path().join("scene.rad")).unwrap();
    let daylit = |prog: &str, args: &[&str], stdin: Stdio| {
        let link = work.path().join(prog);
        if !link.exists() {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
        }
        let out = Command::new(&link)
            .args(args)
            .env("RAYPATH", ".")
            .env("PATH", format!("{}:/usr/bin:/bin", work.path().display()))
            .current_dir(work.path())
            .stdin(stdin)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{prog}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let files = [
        "downlight_tilt.ies",
        "ellipse_tiltfile.ies",
        "roadway_typeB.ies",
        "globe_2002.ies",
    ];
    daylit(
        "ies2rad",
        &[&["-t", "default"][..], &files[..]].concat(),
        Stdio::null(),
    );
    let sensors = std::fs::File::open(here.join("trace/sensors.pts")).unwrap();
    let args = ["-h", "-I", "-ab", "0", "-ds", ".05", "scene.rad"];
    let got = String::from_utf8(daylit("rtrace", &args, Stdio::from(sensors))).unwrap();
    let want = std::fs::read_to_string(here.join("out/trace.txt")).unwrap();
    let first = |l: &str| l.split_whitespace().next().unwrap().parse::<f64>().unwrap();
    assert_eq!(got.lines().count(), want.lines().count());
    for (g, w) in got.lines().zip(want.lines()) {
        let (g, w) = (first(g), first(w));
        assert!((g - w).abs() <= 0.02 * w, "irradiance {g}, RADIANCE {w}");
    }
}

/// A TIFF's dimensions, sample layout, samples (as f64) and STONITS tag.
fn tiff_samples(bytes: &[u8]) -> ((u32, u32), tiff::ColorType, Vec<f64>, Option<f64>) {
    use tiff::decoder::{ifd::Value, Decoder, DecodingResult};
    let mut d = Decoder::new(std::io::Cursor::new(bytes)).unwrap();
    let dims = d.dimensions().unwrap();
    let ct = d.colortype().unwrap();
    let stonits = match d.find_tag(tiff::tags::Tag::Unknown(37439)).unwrap() {
        Some(Value::Double(v)) => Some(v),
        Some(Value::Float(v)) => Some(v as f64),
        _ => None,
    };
    let orientation: u16 = d
        .find_tag_unsigned(tiff::tags::Tag::Orientation)
        .unwrap()
        .unwrap_or(1);
    let stored: Vec<f64> = match d.read_image().unwrap() {
        DecodingResult::U8(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::U16(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::F32(v) => v.into_iter().map(f64::from).collect(),
        other => panic!("unexpected samples {:?}", std::mem::discriminant(&other)),
    };
    // As displayed: TIFF orientations 1-8 put stored (col, row) at (x, y).
    let (w, h) = (dims.0 as usize, dims.1 as usize);
    let n = stored.len() / (w * h);
    let shown_w = if orientation >= 5 { h } else { w };
    let mut samples = vec![0.0; stored.len()];
    for row in 0..h {
        for col in 0..w {
            let (x, y) = match orientation {
                2 => (w - 1 - col, row),
                3 => (w - 1 - col, h - 1 - row),
                4 => (col, h - 1 - row),
                5 => (row, col),
                6 => (h - 1 - row, col),
                7 => (h - 1 - row, w - 1 - col),
                8 => (row, w - 1 - col),
                _ => (col, row),
            };
            for c in 0..n {
                samples[(y * shown_w + x) * n + c] = stored[(row * w + col) * n + c];
            }
        }
    }
    let shown = if orientation >= 5 {
        (dims.1, dims.0)
    } else {
        dims
    };
    (shown, ct, samples, stonits)
}

/// Two RADIANCE pictures agree: size, exposure, and every pixel within `rel` (or 1e-9).
fn same_picture(got: &[u8], want: &[u8], rel: f32, what: &str) {
    let g = daylit_image::HdrImage::decode(got, "daylit").unwrap();
    let w = daylit_image::HdrImage::decode(want, "RADIANCE").unwrap();
    assert_eq!((g.width, g.height), (w.width, w.height), "{what}: size");
    assert!(
        (g.exposure / w.exposure - 1.0).abs() < 1e-5,
        "{what}: exposure {} vs {}",
        g.exposure,
        w.exposure
    );
    for (k, (a, b)) in g.pixels.iter().zip(&w.pixels).enumerate() {
        for c in 0..3 {
            assert!(
                (a[c] - b[c]).abs() <= rel * b[c].abs() + 1e-9,
                "{what}: pixel {k}: {a:?} vs RADIANCE {b:?}"
            );
        }
    }
}

/// ra_tiff both ways against RADIANCE's (tests/golden/ra_tiff): 8-bit, 16-bit and float, RGB
/// and grey, LZW, exposure and gamma options, a rotated picture, standard input and output.
/// TIFFs are compared by their samples as shown (8-bit within one level: RADIANCE quantises
/// through lookup tables) and STONITS tag, pictures by pixel (1 %: one step of the RGBE
/// mantissa) and exposure; exit codes exactly.
#[test]
fn ra_tiff_matches_radiance() {
    let (cases, _) = run_cases("ra_tiff", "ra_tiff");
    for c in cases.iter().filter(|c| exit_code_agrees("ra_tiff", c)) {
        let line = &c.line;
        if !c.want_stdout.is_empty() {
            same_picture(
                &c.got.stdout,
                &c.want_stdout,
                0.01,
                &format!("ra_tiff {line}: output"),
            );
        }
        for (rel, want) in &c.want_files {
            let what = format!("ra_tiff {line}: {}", rel.display());
            let got = std::fs::read(c.work.path().join(rel))
                .unwrap_or_else(|_| panic!("{what}: not written"));
            if rel.extension().is_some_and(|e| e == "hdr") {
                same_picture(&got, want, 0.01, &what);
                continue;
            }
            let (gd, gc, gs, gn) = tiff_samples(&got);
            let (wd, wc, ws, wn) = tiff_samples(want);
            assert_eq!((gd, gc), (wd, wc), "{what}: size and samples");
            let tol = |w: f64| match wc {
                tiff::ColorType::RGB(32) | tiff::ColorType::Gray(32) => 1e-6 * w.abs() + 1e-30,
                _ => 1.0,
            };
            for (i, (g, w)) in gs.iter().zip(&ws).enumerate() {
                assert!(
                    (g - w).abs() <= tol(*w),
                    "{what}: sample {i}: {g} vs RADIANCE {w}"
                );
            }
            let (g, w) = (gn.unwrap(), wn.unwrap());
            assert!(
                (g / w - 1.0).abs() < 1e-5,
                "{what}: STONITS {g} vs RADIANCE {w}"
            );
        }
    }
}

/// The exit codes agree; whether the case succeeded (its outputs are compared).
fn exit_code_agrees(program: &str, c: &Case) -> bool {
    let err = String::from_utf8_lossy(&c.got.stderr);
    assert_eq!(
        c.got.status.code(),
        Some(c.want_rc),
        "{program} {}: exit code ({err})",
        c.line
    );
    c.want_rc == 0
}

/// What daylit's ra_tiff cannot write (LogLuv TIFFs, XYZE pictures) is refused by name, with
/// nothing written.
#[test]
fn ra_tiff_refuses_logluv_and_xyze() {
    let here = golden("ra_tiff").join("inputs");
    let work = tempfile::tempdir().unwrap();
    let link = work.path().join("ra_tiff");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let pic = here.join("sky.hdr").display().to_string();
    let tif = here.join("rgb8.tif").display().to_string();
    for (args, want) in [
        (vec!["-L", pic.as_str(), "out.tif"], "LogLuv"),
        (vec!["-l", pic.as_str(), "out.tif"], "LogLuv"),
        (vec!["-b", "-L", pic.as_str(), "out.tif"], "LogLuv"),
        (vec!["-r", "-x", tif.as_str(), "out.hdr"], "XYZE"),
    ] {
        let out = Command::new(&link)
            .args(&args)
            .current_dir(work.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!work.path().join("out.tif").exists() && !work.path().join("out.hdr").exists());
    }
}

/// A pixmap's type, width, height, maximum and samples.
fn pixmap(b: &[u8]) -> (u8, Vec<u32>, Vec<u32>) {
    let kind = b[1];
    let mut pos = 2;
    let mut ints = Vec::new();
    let int = |pos: &mut usize| {
        while b[*pos].is_ascii_whitespace() {
            *pos += 1;
        }
        let start = *pos;
        while *pos < b.len() && b[*pos].is_ascii_digit() {
            *pos += 1;
        }
        std::str::from_utf8(&b[start..*pos])
            .unwrap()
            .parse::<u32>()
            .unwrap()
    };
    for _ in 0..3 {
        ints.push(int(&mut pos));
    }
    let n = (ints[0] * ints[1]) as usize * if matches!(kind, b'2' | b'5') { 1 } else { 3 };
    let samples = match kind {
        b'2' | b'3' => (0..n).map(|_| int(&mut pos)).collect(),
        _ if ints[2] >= 256 => b[pos + 1..]
            .chunks(2)
            .take(n)
            .map(|c| u16::from_be_bytes([c[0], c[1]]) as u32)
            .collect(),
        _ => b[pos + 1..pos + 1 + n].iter().map(|&v| v as u32).collect(),
    };
    (kind, ints, samples)
}

/// Two pixmaps agree: type, size and maximum exactly, samples within one level (RADIANCE
/// quantises 8-bit samples through lookup tables).
fn same_pixmap(got: &[u8], want: &[u8], what: &str) {
    let (gk, gi, gs) = pixmap(got);
    let (wk, wi, ws) = pixmap(want);
    assert_eq!((gk, &gi), (wk, &wi), "{what}: type, size, maximum");
    assert_eq!(gs.len(), ws.len(), "{what}: samples");
    for (i, (g, w)) in gs.iter().zip(&ws).enumerate() {
        assert!(
            g.abs_diff(*w) <= 1,
            "{what}: sample {i}: {g} vs RADIANCE {w}"
        );
    }
}

/// ra_ppm both ways against RADIANCE's (tests/golden/ra_ppm): binary and ASCII, colour and
/// grey, one and two bytes per sample, exposure and gamma, standard input and output files, a
/// hand-written pixmap with a comment.
#[test]
fn ra_ppm_matches_radiance() {
    let (cases, _) = run_cases("ra_ppm", "ra_ppm");
    for c in cases.iter().filter(|c| exit_code_agrees("ra_ppm", c)) {
        let mut outputs = vec![(
            c.got.stdout.clone(),
            c.want_stdout.clone(),
            "output".to_string(),
        )];
        for (rel, want) in &c.want_files {
            let got = std::fs::read(c.work.path().join(rel)).unwrap();
            outputs.push((got, want.clone(), rel.display().to_string()));
        }
        for (got, want, name) in outputs {
            let what = format!("ra_ppm {}: {name}", c.line);
            if want.is_empty() {
                assert!(
                    got.is_empty(),
                    "{what}: written where RADIANCE wrote nothing"
                );
            } else if want.starts_with(b"#?") {
                same_picture(&got, &want, 0.01, &what);
            } else {
                same_pixmap(&got, &want, &what);
            }
        }
    }
}

/// xform by name against RADIANCE's (tests/golden/xform): every primitive type it transforms its
/// own way (and the rest passed on), translation, rotation, scaling, mirrors, inversion, name
/// prefixes, a new modifier, iteration, one- and two-dimensional arrays, argument files,
/// standard input, inline commands expanded (genbox, genprism, gensky piped into xform, xform
/// itself) or passed on with `-c`: the text byte for byte and the exit code.
#[test]
fn xform_matches_radiance() {
    let (cases, _) = run_cases("xform", "xform");
    for c in &cases {
        if !exit_code_agrees("xform", c) {
            assert!(
                c.got.stdout.is_empty(),
                "xform {}: output on failure",
                c.line
            );
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "xform {}: output differs\n got: {}\nwant: {}",
            c.line,
            String::from_utf8_lossy(&c.got.stdout),
            String::from_utf8_lossy(&c.want_stdout)
        );
    }
}

/// A command daylit does not run natively is an error naming `-c`, never dropped.
#[test]
fn xform_refuses_commands_it_cannot_run() {
    let here = golden("xform").join("inputs");
    let bin = tempfile::tempdir().unwrap();
    let link = bin.path().join("xform");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let out = Command::new(&link)
        .arg("unknown.rad")
        .current_dir(&here)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("!cat all.rad") && err.contains("-c"), "{err}");
}

/// obj2rad by name against RADIANCE's (tests/golden/obj2rad): RADIANCE's own test-scene OBJ
/// files (cab.obj; the vase, 6 306 smoothed triangles), and a hand-written file with groups,
/// materials, objects, vertex normals that bend, a warped face split into triangles, negative
/// indices, degenerate triangles, zero normals, continued lines and statements obj2rad does not
/// know; `-f`, `-o`, `-n`, mapping files (`-m`: names, ranges, numbers, `void`, the last rule
/// winning; malformed rules), standard input and errors: the text byte for byte, the exit code.
#[test]
fn obj2rad_matches_radiance() {
    let (cases, _) = run_cases("obj2rad", "obj2rad");
    for c in &cases {
        if !exit_code_agrees("obj2rad", c) {
            assert!(
                c.got.stdout.is_empty(),
                "obj2rad {}: output on failure",
                c.line
            );
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "obj2rad {}: output differs\n got: {}\nwant: {}",
            c.line,
            String::from_utf8_lossy(&c.got.stdout),
            String::from_utf8_lossy(&c.want_stdout)
        );
    }
}

/// ra_xyze by name against RADIANCE's (tests/golden/ra_xyze): RGBE to XYZE and back, flat and
/// run-length encoded, exposure by factor and by stops, original units (`-o`), other primaries
/// with a D65 white (`-p`, white balanced), a rotated picture, standard input, an output file:
/// every byte, and the exit code.
#[test]
fn ra_xyze_matches_radiance() {
    let (cases, _) = run_cases("ra_xyze", "ra_xyze");
    for c in &cases {
        if !exit_code_agrees("ra_xyze", c) {
            assert!(
                c.got.stdout.is_empty(),
                "ra_xyze {}: output on failure",
                c.line
            );
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "ra_xyze {}: output differs",
            c.line
        );
        for (rel, want) in &c.want_files {
            let got = std::fs::read(c.work.path().join(rel)).unwrap();
            assert!(
                &got == want,
                "ra_xyze {}: {} differs",
                c.line,
                rel.display()
            );
        }
    }
}
