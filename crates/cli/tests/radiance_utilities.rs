//! RADIANCE utilities and generators by name against RADIANCE's own (pyradiance's 6.0a, or
//! built from RADIANCE's public source where pyradiance has none): every case's standard output
//! byte for byte, and its exit code. tests/golden/make_cases.sh PROGRAM makes the goldens.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(dir)
}

/// Runs daylit as `program` on every line of `dir/cases.txt` (arguments; `< file args` reads
/// `file` on standard input) and compares with RADIANCE's `dir/out/N` (standard output) and
/// `dir/out/N.rc` (exit code). Where RADIANCE fails, only the exit code is compared: it may
/// have written part of its output, daylit writes none.
fn check_cases(program: &str, dir: &str) {
    let here = golden(dir);
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join(program);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    for (k, line) in cases.lines().enumerate() {
        let out_file = here.join("out").join((k + 1).to_string());
        let want = std::fs::read(&out_file).unwrap();
        let rc_file = out_file.with_extension("rc");
        let want_rc: i32 = std::fs::read_to_string(rc_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = words[1];
            words.drain(..2);
            Stdio::from(std::fs::File::open(here.join(f)).unwrap())
        } else {
            Stdio::null()
        };
        // To a file, as make_cases.sh runs RADIANCE's: binary headers are padded in files only.
        let stdout_path = tmp.path().join("stdout");
        let stdout = std::fs::File::create(&stdout_path).unwrap();
        let mut out = Command::new(&link)
            .args(&words)
            .current_dir(&here)
            .stdin(stdin)
            .stdout(stdout)
            .output()
            .unwrap();
        out.stdout = std::fs::read(&stdout_path).unwrap();
        assert_eq!(
            out.status.code(),
            Some(want_rc),
            "{program} {line}: exit code"
        );
        if want_rc == 0 {
            assert!(
                out.stdout == want,
                "{program} {line}: output differs\n got: {:?}\nwant: {:?}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&want)
            );
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.starts_with(program), "{program} {line}: error {err:?}");
        }
    }
}

#[test]
fn vwright_matches_radiance() {
    check_cases("vwright", "vwright");
}

#[test]
fn rcollate_matches_radiance() {
    check_cases("rcollate", "rcollate");
}

#[test]
fn genprism_matches_radiance() {
    check_cases("genprism", "genprism");
}

#[test]
fn genbox_matches_radiance() {
    check_cases("genbox", "genbox");
}

/// What RADIANCE writes through its OBJ library (rounded edges in segments, OBJ output,
/// smoothing) is refused by name, with nothing printed.
#[test]
fn genbox_refuses_what_radiance_writes_through_its_obj_library() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("genbox");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    for args in [
        "m b 1 2 3 -i -r .1",
        "m b 1 2 3 -r .1 -n 3",
        "m b 1 2 3 -o",
        "m b 1 2 3 -r .1 -s",
    ] {
        let out = Command::new(&link).args(args.split(' ')).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert!(out.stdout.is_empty(), "{args}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("OBJ library"), "{args}: {err}");
    }
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

/// ies2rad on RADIANCE's example luminaire, a manufacturer's LED file and files of every
/// LM-63 version, shape, symmetry, tilt source and photometric type, with its naming, unit,
/// colour and library options (tests/golden/ies2rad, made by its make_cases.sh): standard
/// output, exit code and every file written, byte for byte. Where RADIANCE fails, each file
/// daylit wrote (for the other inputs of the run) must be RADIANCE's.
#[test]
fn ies2rad_matches_radiance() {
    let here = golden("ies2rad");
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.path().join("ies2rad")).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let inputs = files_under(&here.join("inputs"));
    for (k, line) in cases.lines().enumerate() {
        let out = here.join("out").join((k + 1).to_string());
        let want_rc: i32 = std::fs::read_to_string(out.with_extension("rc"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let work = tempfile::tempdir().unwrap();
        for (rel, bytes) in &inputs {
            std::fs::write(work.path().join(rel), bytes).unwrap();
        }
        for d in ["lib/source/ies", "local"] {
            std::fs::create_dir_all(work.path().join(d)).unwrap();
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = work.path().join(words[1]);
            words.drain(..2);
            Stdio::from(std::fs::File::open(f).unwrap())
        } else {
            Stdio::null()
        };
        // By name, as RADIANCE's was run: the program name goes into the scene text; no lamp
        // table on the RAYPATH, so daylit's own is used.
        let got = Command::new("ies2rad")
            .args(&words)
            .env("PATH", &path)
            .env("RAYPATH", ".")
            .current_dir(work.path())
            .stdin(stdin)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&got.stderr);
        assert_eq!(
            got.status.code(),
            Some(want_rc),
            "ies2rad {line}: exit code ({err})"
        );
        let mut written = files_under(work.path());
        written.retain(|rel, _| !inputs.contains_key(rel));
        let want_files = if out.with_extension("d").exists() {
            files_under(&out.with_extension("d"))
        } else {
            Default::default()
        };
        for (rel, bytes) in &written {
            let want = want_files.get(rel);
            assert!(
                want == Some(bytes),
                "ies2rad {line}: {} differs\n got: {}\nwant: {}",
                rel.display(),
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(want.map_or(&[][..], |w| w))
            );
        }
        if want_rc == 0 {
            assert_eq!(
                written.keys().collect::<Vec<_>>(),
                want_files.keys().collect::<Vec<_>>(),
                "ies2rad {line}: files written"
            );
            let want = std::fs::read(&out).unwrap();
            assert!(
                got.stdout == want,
                "ies2rad {line}: standard output differs\n got: {}\nwant: {}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want)
            );
        } else {
            assert!(err.starts_with("ies2rad"), "ies2rad {line}: error {err:?}");
        }
    }
}

/// Luminaires from daylit's ies2rad light a floor as RADIANCE's light it (tests/golden/ies2rad
/// trace/, out/trace.txt from make_cases.sh): tilt data from the IES file and from a file of its
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

/// ra_tiff both ways against RADIANCE's (tests/golden/ra_tiff, made by its make_cases.sh):
/// 8-bit, 16-bit and float, RGB and grey, LZW, exposure and gamma options, a rotated picture,
/// standard input and output. TIFFs are compared by their samples (8-bit within one level:
/// RADIANCE quantises through lookup tables) and STONITS tag, pictures by pixel (1 %: one step
/// of the RGBE mantissa) and exposure; exit codes exactly.
#[test]
fn ra_tiff_matches_radiance() {
    let here = golden("ra_tiff");
    let inputs = files_under(&here.join("inputs"));
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    for (k, line) in cases.lines().enumerate() {
        let out = here.join("out").join((k + 1).to_string());
        let want_rc: i32 = std::fs::read_to_string(out.with_extension("rc"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let work = tempfile::tempdir().unwrap();
        for (rel, bytes) in &inputs {
            std::fs::write(work.path().join(rel), bytes).unwrap();
        }
        let link = work.path().join("ra_tiff");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = work.path().join(words[1]);
            words.drain(..2);
            Stdio::from(std::fs::File::open(f).unwrap())
        } else {
            Stdio::null()
        };
        let got = Command::new(&link)
            .args(&words)
            .current_dir(work.path())
            .stdin(stdin)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&got.stderr);
        assert_eq!(
            got.status.code(),
            Some(want_rc),
            "ra_tiff {line}: exit code ({err})"
        );
        if want_rc != 0 {
            continue;
        }
        let want_stdout = std::fs::read(&out).unwrap();
        if !want_stdout.is_empty() {
            same_picture(
                &got.stdout,
                &want_stdout,
                0.01,
                &format!("ra_tiff {line}: output"),
            );
        }
        let wanted = if out.with_extension("d").exists() {
            files_under(&out.with_extension("d"))
        } else {
            Default::default()
        };
        for (rel, want) in wanted {
            let what = format!("ra_tiff {line}: {}", rel.display());
            let got = std::fs::read(work.path().join(&rel))
                .unwrap_or_else(|_| panic!("{what}: not written"));
            if rel.extension().is_some_and(|e| e == "hdr") {
                same_picture(&got, &want, 0.01, &what);
                continue;
            }
            let (gd, gc, gs, gn) = tiff_samples(&got);
            let (wd, wc, ws, wn) = tiff_samples(&want);
            assert_eq!((gd, gc), (wd, wc), "{what}: size and samples");
            let tol = |w: f64| match wc {
                tiff::ColorType::RGB(8) | tiff::ColorType::Gray(8) => 1.0,
                tiff::ColorType::RGB(16) | tiff::ColorType::Gray(16) => 1.0,
                _ => 1e-6 * w.abs() + 1e-30,
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

/// ra_ppm both ways against RADIANCE's (tests/golden/ra_ppm, made by its make_cases.sh):
/// binary and ASCII, colour and grey, one and two bytes per sample, exposure and gamma,
/// standard input and output files, a hand-written pixmap with a comment.
#[test]
fn ra_ppm_matches_radiance() {
    let here = golden("ra_ppm");
    let inputs = files_under(&here.join("inputs"));
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    for (k, line) in cases.lines().enumerate() {
        let out = here.join("out").join((k + 1).to_string());
        let want_rc: i32 = std::fs::read_to_string(out.with_extension("rc"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let work = tempfile::tempdir().unwrap();
        for (rel, bytes) in &inputs {
            std::fs::write(work.path().join(rel), bytes).unwrap();
        }
        let link = work.path().join("ra_ppm");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let stdin = if words.first() == Some(&"<") {
            let f = work.path().join(words[1]);
            words.drain(..2);
            Stdio::from(std::fs::File::open(f).unwrap())
        } else {
            Stdio::null()
        };
        let got = Command::new(&link)
            .args(&words)
            .current_dir(work.path())
            .stdin(stdin)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&got.stderr);
        assert_eq!(
            got.status.code(),
            Some(want_rc),
            "ra_ppm {line}: exit code ({err})"
        );
        if want_rc != 0 {
            continue;
        }
        let mut outputs = vec![(
            got.stdout.clone(),
            std::fs::read(&out).unwrap(),
            "output".to_string(),
        )];
        if out.with_extension("d").exists() {
            for (rel, want) in files_under(&out.with_extension("d")) {
                let got = std::fs::read(work.path().join(&rel)).unwrap();
                outputs.push((got, want, rel.display().to_string()));
            }
        }
        for (got, want, name) in outputs {
            let what = format!("ra_ppm {line}: {name}");
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
