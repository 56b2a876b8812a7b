//! rpict's z-file (`-z`), rtrace's mirrored part and lengths (`-or -oR -ox -oX -ol -oL`) and
//! rad's `ZFILE`, against RADIANCE 6.0a on a room with a plain wall, a flat mirror, a glass
//! pane, a dielectric slab, an `illum` window, a polished metal panel and a clear `trans`
//! panel (`tests/golden/rpict_z`, made by its `make.sh`).

mod common;

use std::path::Path;
use std::process::Command;

/// The options every run shares (deterministic direct light, no ambient bounce).
const OPTS: &[&str] = &[
    "-ab", "0", "-av", ".05", ".05", ".05", "-dj", "0", "-ds", "0", "-dr", "1",
];

/// A fresh folder holding the golden's inputs and daylit linked as `programs`.
fn workspace(programs: &[&str]) -> tempfile::TempDir {
    let here = common::golden("rpict_z");
    let dir = tempfile::tempdir().unwrap();
    for f in ["scene.rad", "view.vf", "z.rif", "rays.txt"] {
        std::fs::copy(here.join(f), dir.path().join(f)).unwrap();
    }
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for p in programs {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_daylit"), bin.join(p)).unwrap();
    }
    dir
}

fn run(dir: &Path, program: &str, args: &[&str], stdin: Option<&Path>) -> std::process::Output {
    let mut cmd = Command::new(dir.join("bin").join(program));
    cmd.args(args)
        .current_dir(dir)
        .env("PATH", "/usr/bin:/bin")
        .env("RAYPATH", ".");
    if let Some(f) = stdin {
        cmd.stdin(std::fs::File::open(f).unwrap());
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A z-file's floats.
fn floats(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(1e-30)
}

/// `-pj 0 -ps 1`: every pixel's ray is RADIANCE's, so each distance agrees within 1e-4
/// (relative) but at most 2 % of the pixels, those on silhouettes where a ray grazes an edge.
#[test]
fn rpict_z_file_matches_radiance() {
    let dir = workspace(&["rpict"]);
    let mut args = vec![
        "-vf", "view.vf", "-x", "64", "-y", "48", "-pj", "0", "-ps", "1",
    ];
    args.extend_from_slice(OPTS);
    args.extend_from_slice(&["-z", "z.zbf", "scene.rad"]);
    let out = run(dir.path(), "rpict", &args, None);
    let pic = dir.path().join("z.hdr");
    std::fs::write(&pic, &out.stdout).unwrap();
    let img = daylit_image::HdrImage::read(&pic).unwrap();
    let res = std::fs::read_to_string(common::golden("rpict_z").join("z.res")).unwrap();
    assert_eq!(
        res.trim(),
        format!("-Y {:8} +X {:8}", img.height, img.width)
    );
    let got = floats(&dir.path().join("z.zbf"));
    let want = floats(&common::golden("rpict_z").join("z.zbf"));
    assert_eq!(got.len(), want.len(), "one float per pixel");
    assert_eq!(got.len(), img.width * img.height);
    let off: Vec<(usize, f32, f32)> = got
        .iter()
        .zip(&want)
        .enumerate()
        .filter(|(_, (g, w))| relative(**g as f64, **w as f64) > 1e-4)
        .map(|(k, (g, w))| (k, *g, *w))
        .collect();
    assert!(
        off.len() * 50 <= want.len(),
        "{} of {} pixels differ: {:?}",
        off.len(),
        want.len(),
        &off[..off.len().min(20)]
    );
}

/// One rtrace record's numbers.
fn records(text: &str) -> Vec<Vec<f64>> {
    text.lines()
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect()
}

/// rtrace `-ovrxRXlL` per ray: the lengths (R X l L) within 1e-4 relative, the value and its
/// mirrored and unmirrored parts within 1 % (or 1e-4 absolute), except on at most 2 % of the
/// rays (silhouettes).
#[test]
fn rtrace_mirrored_parts_and_lengths_match_radiance() {
    let dir = workspace(&["rtrace"]);
    let mut args = vec!["-h", "-fa"];
    args.extend_from_slice(OPTS);
    args.extend_from_slice(&["-ovrxRXlL", "scene.rad"]);
    let rays = dir.path().join("rays.txt");
    let out = run(dir.path(), "rtrace", &args, Some(&rays));
    let got = records(&String::from_utf8_lossy(&out.stdout));
    let want =
        records(&std::fs::read_to_string(common::golden("rpict_z").join("out.txt")).unwrap());
    assert_eq!(got.len(), want.len());
    let mut off = Vec::new();
    let (mut mirrored, mut through) = (0, 0);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.len(), 13, "ray {k}: {g:?}");
        let colours = (0..9).all(|i| (g[i] - w[i]).abs() <= 1e-4_f64.max(0.01 * w[i].abs()));
        let lengths = (9..13).all(|i| relative(g[i], w[i]) <= 1e-4);
        if !(colours && lengths) {
            off.push((k, g.clone(), w.clone()));
        }
        mirrored += usize::from(w[3] + w[4] + w[5] > 0.0 && w[9] < 1e9);
        through += usize::from(w[10] > w[12] * 1.001);
    }
    // The scene shows both kinds of length somewhere.
    assert!(mirrored > 10 && through > 10, "{mirrored} {through}");
    assert!(
        off.len() * 50 <= want.len(),
        "{} of {} rays differ: {:?}",
        off.len(),
        want.len(),
        &off[..off.len().min(5)]
    );
}

/// With `-I` RADIANCE pretends the ray met a surface 1e-5 away: no mirrored part, lengths 1e-5.
#[test]
fn rtrace_irradiance_lengths_are_radiances() {
    let dir = workspace(&["rtrace"]);
    let three: String = std::fs::read_to_string(dir.path().join("rays.txt"))
        .unwrap()
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("three.txt"), three).unwrap();
    let mut args = vec!["-h", "-fa", "-I"];
    args.extend_from_slice(OPTS);
    args.extend_from_slice(&["-ovxXlL", "scene.rad"]);
    let out = run(
        dir.path(),
        "rtrace",
        &args,
        Some(&dir.path().join("three.txt")),
    );
    let got = records(&String::from_utf8_lossy(&out.stdout));
    let want =
        records(&std::fs::read_to_string(common::golden("rpict_z").join("out_irr.txt")).unwrap());
    assert_eq!(got.len(), 3);
    for (g, w) in got.iter().zip(&want) {
        for i in 0..6 {
            assert!(relative(g[i], w[i]) <= 0.01, "{g:?} against {w:?}");
        }
        for i in 6..9 {
            assert!(relative(g[i], w[i]) <= 1e-6, "{g:?} against {w:?}");
        }
    }
}

/// rad with `ZFILE`: the same commands as RADIANCE's rad (`-n`), and a real run with daylit's
/// programs writes `dist_def.zbf`, one float per pixel of the unfiltered picture. rad's
/// `QUAL=Low` puts `-ps 8 -pt .16` last, and daylit refines blocks where RADIANCE refines
/// scanlines, so the two interpolate different pixels: the distances agree within 1 % on at
/// least 85 % of the pixels and their median difference is under 1e-3 (measured: 87 %, 4.9e-4).
/// Traced distances are compared tightly in `rpict_z_file_matches_radiance`.
#[test]
fn rad_writes_the_z_file() {
    let dir = workspace(&["rad", "oconv", "rpict", "pfilt"]);
    let dry = run(dir.path(), "rad", &["-n", "z.rif"], None);
    let want = std::fs::read_to_string(common::golden("rpict_z").join("rad_n.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&dry.stdout), want);
    run(dir.path(), "rad", &["-s", "z.rif"], None);
    let got = floats(&dir.path().join("dist_def.zbf"));
    let want = floats(&common::golden("rpict_z").join("rad_dist_def.zbf"));
    assert_eq!(got.len(), want.len(), "one float per pixel");
    let mut diff: Vec<f64> = got
        .iter()
        .zip(&want)
        .map(|(g, w)| relative(*g as f64, *w as f64))
        .collect();
    diff.sort_by(f64::total_cmp);
    let close = diff.iter().filter(|&&d| d <= 0.01).count();
    assert!(
        close * 100 >= want.len() * 85,
        "{close} of {} pixels agree within 1 %",
        want.len()
    );
    assert!(
        diff[diff.len() / 2] < 1e-3,
        "median {}",
        diff[diff.len() / 2]
    );
}

/// A z-file that cannot be written, or `-z` without a name: an error naming it, a non-zero
/// exit and no picture.
#[test]
fn bad_z_files_are_errors() {
    let dir = workspace(&["rpict"]);
    for (args, says) in [
        (&["-z", "no/such/dir/z.zbf", "scene.rad"][..], "no/such/dir"),
        (&["scene.rad", "-z"][..], "-z needs a file name"),
    ] {
        let mut all = vec!["-vf", "view.vf", "-x", "8", "-y", "8"];
        all.extend_from_slice(args);
        let out = Command::new(dir.path().join("bin/rpict"))
            .args(&all)
            .current_dir(dir.path())
            .env("RAYPATH", ".")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(says),
            "{all:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{all:?}: no picture");
    }
}
