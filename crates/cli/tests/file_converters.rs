//! RADIANCE's file converters by name against RADIANCE's own (pyradiance's 6.0a): `ies2rad`
//! (scene text and data files byte for byte), `ra_tiff` and `ra_ppm` (both ways, by sample and
//! pixel). Each case of tests/golden/PROGRAM/cases.txt runs in a fresh copy of PROGRAM/inputs;
//! tests/golden/make_cases.sh PROGRAM makes the goldens: standard output (out/N), exit code
//! (out/N.rc) and every file written (out/N.d/).

use std::process::{Command, Stdio};

mod common;
use common::{exit_code_agrees, files_under, golden, run_cases};

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

/// genglaze against RADIANCE 6.0a's (tests/golden/genglaze): the material on standard output
/// and both data files it writes, byte for byte (RADIANCE keeps data values in single
/// precision, so daylit reads them so too); where RADIANCE refuses the arguments, daylit does
/// and writes nothing.
#[test]
fn genglaze_matches_radiance() {
    let (cases, inputs) = run_cases("genglaze", "genglaze");
    for c in &cases {
        let (line, err) = (&c.line, String::from_utf8_lossy(&c.got.stderr));
        assert_eq!(
            c.got.status.code(),
            Some(c.want_rc),
            "genglaze {line}: exit code ({err})"
        );
        let written = c.written(&inputs);
        if c.want_rc != 0 {
            assert!(
                written.is_empty() && c.got.stdout.is_empty(),
                "genglaze {line}"
            );
            assert!(
                err.starts_with("genglaze"),
                "genglaze {line}: error {err:?}"
            );
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "genglaze {line}: standard output differs\n got: {}\nwant: {}",
            String::from_utf8_lossy(&c.got.stdout),
            String::from_utf8_lossy(&c.want_stdout)
        );
        let names: Vec<_> = written.iter().map(|(r, _)| r).collect();
        assert_eq!(
            names,
            c.want_files.keys().collect::<Vec<_>>(),
            "genglaze {line}: files"
        );
        for (rel, bytes) in &written {
            assert!(
                c.want_files.get(rel) == Some(bytes),
                "genglaze {line}: {} differs",
                rel.display()
            );
        }
    }
}

/// genglaze's material traced: radiance seen through the pane under a uniform sky of radiance
/// 1 (with the floor below reflected in it), normal and at 37 degrees, against RADIANCE 6.0a's rtrace on the same files (RGB,
/// written down once, `rtrace -h -ab 1`): within 1 % (the angles and wavelengths are
/// interpolated the same way; the rest is sampling).
#[test]
fn genglaze_material_traces_as_radiance_s() {
    let dir = tempfile::tempdir().unwrap();
    let here = golden("genglaze").join("inputs");
    for f in ["clear.dat", "coat.dat"] {
        std::fs::copy(here.join(f), dir.path().join(f)).unwrap();
    }
    let link = |name: &str| {
        let l = dir.path().join(name);
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &l).unwrap();
        l
    };
    let (genglaze, rtrace) = (link("genglaze"), link("rtrace"));
    let o = Command::new(&genglaze)
        .args(["-m", "clear.dat", "0.006", "-c", "coat.dat", "-p", "two"])
        .current_dir(dir.path())
        .env("RAYPATH", ".")
        .output()
        .unwrap();
    assert!(o.status.success());
    std::fs::write(dir.path().join("glaze.rad"), &o.stdout).unwrap();
    std::fs::write(
        dir.path().join("scene.rad"),
        "void glow skyglow 0 0 4 1 1 1 0\nskyglow source sky 0 0 4 0 0 1 180\n\
         glaze_mat_two polygon pane 0 0 12 -5 -5 1 5 -5 1 5 5 1 -5 5 1\n\
         void plastic grey 0 0 5 .5 .5 .5 0 0\n\
         grey polygon floor 0 0 12 -5 -5 0 -5 5 0 5 5 0 5 -5 0\n",
    )
    .unwrap();
    let mut child = Command::new(&rtrace)
        .args(["-h", "-ab", "1", "glaze.rad", "scene.rad"])
        .current_dir(dir.path())
        .env("RAYPATH", ".")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"0 0 0.5 0 0 1\n0 0 0.5 0.6 0 0.8\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let got: Vec<f64> = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let want = [
        0.2591081, 0.2379509, 0.3077524, 0.2444819, 0.2244377, 0.2896812,
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g / w - 1.0).abs() < 0.01, "{g} against RADIANCE's {w}");
    }
}

/// obj2mesh by name against RADIANCE's (tests/golden/obj2mesh, make.sh): a cube with face
/// normals and materials by group, a textured quad and concave pentagon with negative indices,
/// a smooth sphere-ish mesh (bent normals, (u,v), groups, two materials, several patches and
/// joiners) with the default octree, `-n 4 -r 32` and `-n 200`, materials redefined and
/// aliased (`inherit`, `void`, chains), a pattern as a group's material, surfaces among the
/// materials, standard input and output, turned-over and degenerate triangles (the triangle
/// after a zero-area one takes its material, as in RADIANCE), a 602-vertex face (RADIANCE keeps
/// 510) and a line past 8191 bytes, `-l` from the RAYPATH; malformed files and arguments. Every `.rtm` byte for byte (header, octree,
/// materials, patches) and the exit code; a failed run writes nothing, and a syntax error
/// names the file and line.
#[test]
fn obj2mesh_matches_radiance() {
    let (cases, inputs) = run_cases("obj2mesh", "obj2mesh");
    for c in &cases {
        let written = c.written(&inputs);
        let err = String::from_utf8_lossy(&c.got.stderr);
        if !exit_code_agrees("obj2mesh", c) {
            assert!(
                c.got.stdout.is_empty() && written.is_empty(),
                "obj2mesh {}: output on failure",
                c.line
            );
            assert!(err.starts_with("obj2mesh"), "obj2mesh {}: {err}", c.line);
            if let Some(f) = c.line.split_whitespace().find(|w| w.starts_with("bad_")) {
                assert!(
                    err.contains(&format!("{f}: Wavefront syntax error near line")),
                    "obj2mesh {}: {err}",
                    c.line
                );
            }
            // The warning RADIANCE prints before giving up.
            if c.line.contains("bad_index") || c.line.contains("bad_face") {
                assert!(
                    err.contains("warning - bad vertex reference"),
                    "obj2mesh {}: {err}",
                    c.line
                );
            }
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "obj2mesh {}: standard output differs",
            c.line
        );
        let names: Vec<_> = written.iter().map(|(r, _)| r).collect();
        assert_eq!(
            names,
            c.want_files.keys().collect::<Vec<_>>(),
            "obj2mesh {}: files",
            c.line
        );
        for (rel, bytes) in &written {
            assert!(
                Some(bytes) == c.want_files.get(rel),
                "obj2mesh {}: {} differs from RADIANCE's",
                c.line,
                rel.display()
            );
        }
    }
}

/// daylit's rtrace on mesh `rtm` (written into `dir` as NAME.rtm and placed by a `mesh`
/// primitive) at the rays of tests/golden/obj2mesh/RAYS: value under a uniform ambient,
/// distance, shading normal.
fn trace_mesh(dir: &std::path::Path, rtm: &[u8], name: &str, rays: &str) -> Vec<Vec<f64>> {
    std::fs::write(dir.join(format!("{name}.rtm")), rtm).unwrap();
    std::fs::write(dir.join("s.rad"), format!("void mesh m 1 {name}.rtm 0 0\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_daylit"))
        .args([
            "rtrace", "-w", "-h", "-ab", "0", "-av", "1", "1", "1", "-ovLn", "s.rad",
        ])
        .current_dir(dir)
        .stdin(std::fs::File::open(golden("obj2mesh").join(rays)).unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// `got` against RADIANCE's rtrace values in tests/golden/obj2mesh/out/trace_NAME.txt, to
/// 1e-5; normals up to sign (on a back face RADIANCE's plastic turns the normal to the ray,
/// which daylit's `-on` does not).
fn same_as_radiance_trace(name: &str, got: &[Vec<f64>]) {
    let want: Vec<Vec<f64>> =
        std::fs::read_to_string(golden("obj2mesh").join(format!("out/trace_{name}.txt")))
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
            .collect();
    assert_eq!(got.len(), want.len(), "{name}: rays");
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let near = |a: f64, b: f64| (a - b).abs() <= 1e-5 * b.abs().max(1.0);
        let same_normal = (4..7).all(|i| near(g[i], w[i])) || (4..7).all(|i| near(g[i], -w[i]));
        assert!(
            (0..4).all(|i| near(g[i], w[i])) && same_normal,
            "{name} ray {k}: {g:?} against RADIANCE's {w:?}"
        );
    }
}

/// daylit's meshes trace as RADIANCE traces them: daylit's rtrace reads the `.rtm` daylit's
/// obj2mesh wrote and RADIANCE's (tests/golden/obj2mesh/out/N.d) with identical results, and
/// both match RADIANCE's rtrace on RADIANCE's oconv of the mesh (out/trace_NAME.txt from
/// make_more.sh).
#[test]
fn obj2mesh_meshes_trace_as_radiance_s() {
    let here = golden("obj2mesh");
    let (cases, _) = run_cases("obj2mesh", "obj2mesh");
    for (n, name, rays) in [
        (1, "cube", "rays_cube.txt"),
        (2, "quad", "rays_quad.txt"),
        (3, "sphere", "rays_sphere.txt"),
        (4, "sphere_n4", "rays_sphere.txt"),
    ] {
        let c = &cases[n - 1];
        let ours = std::fs::read(c.work.path().join(format!("{name}.rtm"))).unwrap();
        let theirs = std::fs::read(here.join(format!("out/{n}.d/{name}.rtm"))).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let got = trace_mesh(dir.path(), &ours, name, rays);
        assert_eq!(got, trace_mesh(dir.path(), &theirs, name, rays), "{name}");
        same_as_radiance_trace(name, &got);
    }
}

/// Where daylit's bytes differ from pyradiance's obj2mesh (tests/golden/obj2mesh/inputs/
/// edge.obj: that build's fast arithmetic puts a triangle touching a cube's face in one more
/// leaf; daylit follows RADIANCE's source in IEEE arithmetic), the meshes trace alike:
/// daylit's rtrace gives identical values on both files, and they match RADIANCE's rtrace on
/// RADIANCE's file (out/trace_edge.txt) at 400 rays.
#[test]
fn obj2mesh_meshes_trace_alike_where_bytes_differ() {
    let here = golden("obj2mesh");
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("obj2mesh");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let out = Command::new(&link)
        .args(["-w", "-n", "8", "-r", "128", "-a", "mats.rad", "edge.obj"])
        .arg(dir.path().join("ours.rtm"))
        .current_dir(here.join("inputs"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let ours = std::fs::read(dir.path().join("ours.rtm")).unwrap();
    let theirs = std::fs::read(here.join("out/edge_radiance.rtm")).unwrap();
    let got = trace_mesh(dir.path(), &ours, "edge", "rays_edge.txt");
    assert_eq!(
        got,
        trace_mesh(dir.path(), &theirs, "edge", "rays_edge.txt")
    );
    assert!(
        got.iter().filter(|v| v[3] < 1e9).count() > 100,
        "rays miss the mesh"
    );
    same_as_radiance_trace("edge", &got);
}

/// `obj2mesh -v` prints RADIANCE's mesh statistics (materials, patches and their memory,
/// vertices with normals and (u,v), local and joiner triangles, octree leaves) as RADIANCE's
/// does (tests/golden/obj2mesh/out/stats_sphere.txt).
#[test]
fn obj2mesh_statistics_match_radiance() {
    let here = golden("obj2mesh");
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("obj2mesh");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let out = Command::new(&link)
        .args(["-v", "-n", "4", "-a", "mats.rad", "sphere.obj"])
        .arg(dir.path().join("v.rtm"))
        .current_dir(here.join("inputs"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(here.join("out/stats_sphere.txt")).unwrap()
    );
}

/// obj2mesh refuses what it cannot do as RADIANCE does, naming it: a command in a material
/// file (RADIANCE runs it), a polygon among the materials (RADIANCE would take it for a mesh
/// face), `-r` below 1 (RADIANCE divides by zero or subdivides without end). No file is
/// written.
#[test]
fn obj2mesh_refuses_what_it_cannot_do() {
    let here = golden("obj2mesh").join("inputs");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("poly.rad"),
        "void plastic red 0 0 5 .8 .1 .1 0 0\nred polygon p 0 0 9 0 0 0 1 0 0 0 1 0\n",
    )
    .unwrap();
    let link = dir.path().join("obj2mesh");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let out_file = dir.path().join("x.rtm");
    for (args, want) in [
        (vec!["-a", "cmd.rad"], "!echo void plastic blue"),
        (
            vec!["-a", dir.path().join("poly.rad").to_str().unwrap()],
            "polygon \"p\"",
        ),
        (vec!["-r", "0"], "-r 0"),
    ] {
        let out = Command::new(&link)
            .args(&args)
            .args(["red.obj", out_file.to_str().unwrap()])
            .current_dir(&here)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!out_file.exists(), "{args:?}");
    }
}

/// robjutil by name against RADIANCE's (tests/golden/robjutil): a cube with duplicate (rotated,
/// reversed) and degenerate faces, a mesh of objects and groups (a multi-name group), two
/// materials, texture coordinates, negative indices, normals that bend (smoothed through
/// tmesh.cal, a bent quad split first), agree or point against the face, and statements
/// robjutil passes over; a warped quad, a concave hexagon and a pentagon for `+T`, nearly
/// coincident positions, coordinates and normals for `-c`; every option (`+/-r +/-v +/-t
/// +/-n +/-m +/-g -c +T -x`), several files, standard input, and the errors (bad statements,
/// missing files, exclusive and unknown options, bad transforms): the text byte for byte and
/// the exit code, nothing written on failure. `xcases.txt` holds the `-x` specs of several
/// words (its lines are read with their single quotes).
#[test]
fn robjutil_matches_radiance() {
    let (cases, _) = run_cases("robjutil", "robjutil");
    for c in &cases {
        if !exit_code_agrees("robjutil", c) {
            assert!(
                c.got.stdout.is_empty(),
                "robjutil {}: output on failure",
                c.line
            );
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "robjutil {}: output differs\n got: {}\nwant: {}",
            c.line,
            String::from_utf8_lossy(&c.got.stdout),
            String::from_utf8_lossy(&c.want_stdout)
        );
    }
    let here = golden("robjutil");
    let bin = tempfile::tempdir().unwrap();
    let link = bin.path().join("robjutil");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let xcases = std::fs::read_to_string(here.join("xcases.txt")).unwrap();
    for (k, line) in xcases.lines().enumerate() {
        // Words split at white space, a '...' quote holding its spaces as one word.
        let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
        for ch in line.chars() {
            match ch {
                '\'' => (quoted, any) = (!quoted, true),
                c if c.is_whitespace() && !quoted => {
                    if any {
                        words.push(std::mem::take(&mut word));
                    }
                    any = false;
                }
                c => (word, any) = (word + &c.to_string(), true),
            }
        }
        if any {
            words.push(word);
        }
        let got = Command::new(&link)
            .args(&words)
            .current_dir(here.join("inputs"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let out = here.join("out").join(format!("x{}", k + 1));
        let want_rc: i32 = std::fs::read_to_string(out.with_extension("rc"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let err = String::from_utf8_lossy(&got.stderr);
        assert_eq!(got.status.code(), Some(want_rc), "robjutil {line}: {err}");
        if want_rc == 0 {
            let want = std::fs::read(&out).unwrap();
            assert!(
                got.stdout == want,
                "robjutil {line}: output differs\n got: {}\nwant: {}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want)
            );
        } else {
            assert!(
                got.stdout.is_empty() && err.starts_with("robjutil"),
                "{line}: {err}"
            );
        }
    }
}

/// mgf2rad by name against RADIANCE's (tests/golden/mgf2rad): RADIANCE's own MGF files
/// (blinds20c.mgf with its 33-slat array, testspecmat.mgf, sawtooth.mgf, examp1.mgf) and
/// hand-written files covering every entity — colours by chromaticity, spectrum, temperature
/// and mixture; every material class (light, glow, glass, dielectric, trans, WGMDfunc,
/// plastic, metal); faces (smoothed, reversed, degenerate), faces with holes, spheres,
/// cylinders, cones, rings, prisms, tori; nested objects and transforms, arrays, includes with
/// transforms and arrays, IES luminaires; continued lines, CR-LF ends, unknown entities — with
/// `-s`, `-e`, `-g`, `-m` (the materials file compared too), several files and standard input;
/// and malformed input. Output and files byte for byte, the exit code; nothing on failure.
#[test]
fn mgf2rad_matches_radiance() {
    let (cases, inputs) = run_cases("mgf2rad", "mgf2rad");
    // iesrun.mgf runs ies2rad: mgf2rad_runs_ies2rad_as_radiance_s.
    for c in cases.iter().filter(|c| c.line != "iesrun.mgf") {
        if !exit_code_agrees("mgf2rad", c) {
            assert!(
                c.got.stdout.is_empty(),
                "mgf2rad {}: output on failure",
                c.line
            );
            let err = String::from_utf8_lossy(&c.got.stderr);
            assert!(err.starts_with("mgf2rad"), "mgf2rad {}: {err}", c.line);
            continue;
        }
        assert!(
            c.got.stdout == c.want_stdout,
            "mgf2rad {}: output differs\n got: {}\nwant: {}",
            c.line,
            String::from_utf8_lossy(&c.got.stdout),
            String::from_utf8_lossy(&c.want_stdout)
        );
        let written = c.written(&inputs);
        assert_eq!(
            written.iter().map(|(r, _)| r).collect::<Vec<_>>(),
            c.want_files.keys().collect::<Vec<_>>(),
            "mgf2rad {}: files",
            c.line
        );
        for (rel, bytes) in &written {
            assert!(
                c.want_files.get(rel) == Some(bytes),
                "mgf2rad {}: {} differs",
                c.line,
                rel.display()
            );
        }
    }
}

/// Runs daylit by a RADIANCE name in `dir`.
fn run_named(dir: &std::path::Path, prog: &str, args: &[&str]) -> std::process::Output {
    let link = dir.join(prog);
    if !link.exists() {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    }
    Command::new(&link)
        .args(args)
        .env("RAYPATH", ".")
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// mgf2rad's errors say where and what: the file and line (and, in an included file, where it
/// was included from), the kind of error and what was expected; the exit code is 1, nothing
/// goes to standard output and no materials file is written.
#[test]
fn mgf2rad_errors_are_located() {
    let here = golden("mgf2rad");
    let work = tempfile::tempdir().unwrap();
    for (rel, bytes) in files_under(&here.join("inputs")) {
        let to = work.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, bytes).unwrap();
    }
    for (args, want) in [
        (
            &["undef.mgf"][..],
            &["undef.mgf:5:", "Undefined reference", "\"q\""][..],
        ),
        (
            &["argc.mgf"],
            &["argc.mgf:2:", "Wrong number of arguments", "x, y and z"],
        ),
        (
            &["argtype.mgf"],
            &["argtype.mgf:2:", "must be a number", "\"zero\""],
        ),
        (
            &["badinc.mgf"],
            &["undef.mgf:5:", "included from badinc.mgf:2"],
        ),
        (
            &["-m", "m.rad", "badmat.mgf"],
            &["badmat.mgf:10:", "Illegal material"],
        ),
        (
            &["badxf.mgf"],
            &["badxf.mgf:1:", "expected a transform option"],
        ),
        (
            &["xfclose.mgf"],
            &["xfclose.mgf:3:", "Unmatched context close"],
        ),
    ] {
        let out = run_named(work.path(), "mgf2rad", args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: output on failure");
        for w in want {
            assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
        }
    }
    assert!(
        !work.path().join("m.rad").exists(),
        "materials file written on failure"
    );
}

/// daylit's oconv and rtrace take daylit's translation of RADIANCE's blinds20c.mgf: the first
/// hit's distance and normal of the rays in tests/golden/mgf2rad/rays.txt agree with
/// RADIANCE's on RADIANCE's translation (out/trace.txt) within 1e-5.
#[test]
fn mgf2rad_blinds_trace_as_radiance_s() {
    let here = golden("mgf2rad");
    let work = tempfile::tempdir().unwrap();
    std::fs::copy(here.join("inputs/blinds20c.mgf"), work.path().join("b.mgf")).unwrap();
    let rad = run_named(work.path(), "mgf2rad", &["b.mgf"]);
    assert!(rad.status.success());
    std::fs::write(work.path().join("b.rad"), &rad.stdout).unwrap();
    let oct = run_named(work.path(), "oconv", &["b.rad"]);
    assert!(
        oct.status.success(),
        "{}",
        String::from_utf8_lossy(&oct.stderr)
    );
    std::fs::write(work.path().join("b.oct"), &oct.stdout).unwrap();
    let link = work.path().join("rtrace");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), &link).unwrap();
    let got = Command::new(&link)
        .args(["-h", "-oLn", "b.oct"])
        .env("RAYPATH", ".")
        .current_dir(work.path())
        .stdin(std::fs::File::open(here.join("rays.txt")).unwrap())
        .output()
        .unwrap();
    assert!(got.status.success());
    let want = std::fs::read_to_string(here.join("out/trace.txt")).unwrap();
    let got = String::from_utf8(got.stdout).unwrap();
    assert_eq!(got.lines().count(), want.lines().count());
    let mut hits = 0;
    for (g, w) in got.lines().zip(want.lines()) {
        let nums =
            |l: &str| -> Vec<f64> { l.split_whitespace().map(|x| x.parse().unwrap()).collect() };
        let (g, w) = (nums(g), nums(w));
        hits += (w[0] < 1e9) as usize;
        for (a, b) in g.iter().zip(&w) {
            assert!(
                (a - b).abs() <= 1e-5 * b.abs().max(1.0),
                "{g:?} vs RADIANCE {w:?}"
            );
        }
    }
    assert!(hits >= 5, "only {hits} rays hit the blinds");
}

/// An `ies` entity whose luminaire is not converted yet runs `ies2rad` (daylit's, by its
/// RADIANCE name on the PATH) with the entity's `-m`, and places the result by `!xform` with
/// the object name and the transforms around it: the scene text and the `.rad` and `.dat`
/// files ies2rad writes, byte for byte as RADIANCE's (tests/golden/mgf2rad, case iesrun.mgf).
#[test]
fn mgf2rad_runs_ies2rad_as_radiance_s() {
    let here = golden("mgf2rad");
    let cases = std::fs::read_to_string(here.join("cases.txt")).unwrap();
    let n = cases.lines().position(|l| l == "iesrun.mgf").unwrap() + 1;
    let work = tempfile::tempdir().unwrap();
    for (rel, bytes) in files_under(&here.join("inputs")) {
        let to = work.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, bytes).unwrap();
    }
    let bin = tempfile::tempdir().unwrap();
    for prog in ["mgf2rad", "ies2rad"] {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.path().join(prog)).unwrap();
    }
    let out = Command::new("mgf2rad")
        .arg("iesrun.mgf")
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        .current_dir(work.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read(here.join("out").join(n.to_string())).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want)
    );
    for f in ["examp1.rad", "examp1.dat"] {
        let want = std::fs::read(here.join(format!("out/{n}.d/{f}"))).unwrap();
        assert!(
            std::fs::read(work.path().join(f)).unwrap() == want,
            "{f} differs"
        );
    }
}
