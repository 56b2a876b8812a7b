//! Checks against RADIANCE-made goldens (tests/golden/make_goldens.sh regenerates them).

use daylit_image::{HdrImage, View};
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

fn floats(name: &str) -> Vec<f32> {
    std::fs::read(golden(name))
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Every pixel's ray against `vwrays -ff`: directions within 1e-6, origins within 1e-6
/// relative, and no ray exactly where RADIANCE gives none.
#[test]
fn view_rays_match_vwrays() {
    let cases = std::fs::read_to_string(golden("views.txt")).unwrap();
    let mut checked = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('|').collect();
        let (name, opts) = (f[0], f[1]);
        let (xres, yres): (usize, usize) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let frame = View::parse(opts).unwrap().frame().unwrap();
        let want = floats(&format!("{name}.rays"));
        assert_eq!(want.len(), xres * yres * 6, "{name}");
        let mut missing = 0;
        for row in 0..yres {
            for col in 0..xres {
                let w = &want[(row * xres + col) * 6..][..6];
                let got = frame.pixel_ray(xres, yres, col, row);
                if w[3..].iter().all(|&v| v == 0.0) {
                    assert!(got.is_none(), "{name} ({col},{row}): RADIANCE has no ray");
                    missing += 1;
                    continue;
                }
                let r = got.unwrap_or_else(|| panic!("{name} ({col},{row}): no ray"));
                let o = [r.origin.x, r.origin.y, r.origin.z];
                let d = [r.dir.x, r.dir.y, r.dir.z];
                for k in 0..3 {
                    let dd = (d[k] - w[3 + k] as f64).abs();
                    assert!(
                        dd <= 1e-6,
                        "{name} ({col},{row}) dir {d:?} vs {:?}",
                        &w[3..]
                    );
                    let od = (o[k] - w[k] as f64).abs();
                    assert!(
                        od <= 1e-6 * (1.0 + o[k].abs()),
                        "{name} ({col},{row}) origin"
                    );
                }
                checked += 1;
            }
        }
        if name.starts_with("hem") {
            assert!(missing > 0, "{name}: the fisheye corners have no ray");
        }
    }
    assert!(checked > 2500);
}

fn check_picture(name: &str, w: usize, h: usize, exposure: f64) {
    let img = HdrImage::read(&golden(&format!("{name}.hdr"))).unwrap();
    assert_eq!((img.width, img.height), (w, h));
    assert!((img.exposure - exposure).abs() < 1e-9);
    let want = floats(&format!("{name}.rgbf"));
    assert_eq!(want.len(), w * h * 3);
    for row in 0..h {
        for col in 0..w {
            let got = img.radiance(col, row);
            let wv = &want[(row * w + col) * 3..][..3];
            for k in 0..3 {
                let tol = 1e-6 * wv[k].abs().max(1e-30);
                assert!(
                    (got[k] - wv[k]).abs() <= tol,
                    "{name} ({col},{row}): {got:?} vs {wv:?}"
                );
            }
        }
    }
}

#[test]
fn reads_radiance_pictures() {
    // pcomb writes run-length encoded scanlines (width 40) with two pfilt EXPOSUREs (2 × 1.5).
    check_picture("ramp", 40, 20, 3.0);
    // Width 5: flat scanlines.
    check_picture("narrow", 5, 3, 1.0);
}

#[test]
fn rewritten_pictures_read_back_identically() {
    let img = HdrImage::read(&golden("ramp.hdr")).unwrap();
    for rle in [true, false] {
        let back = HdrImage::decode(&img.encode(rle), "mem").unwrap();
        assert_eq!(back.pixels, img.pixels);
        assert_eq!(back.exposure, img.exposure);
    }
}

/// With RADIANCE at hand (`RADIANCE_BIN`), its `pvalue` reads what daylit writes, flat and
/// run-length encoded, to the same values; skipped otherwise.
#[test]
fn radiance_reads_written_pictures() {
    let Some(bin) = std::env::var_os("RADIANCE_BIN") else {
        eprintln!("RADIANCE_BIN not set: skipped");
        return;
    };
    let img = HdrImage::read(&golden("ramp.hdr")).unwrap();
    let dir = std::env::temp_dir().join(format!("daylit-image-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for rle in [true, false] {
        let path = dir.join(format!("out{rle}.hdr"));
        img.write(&path, rle).unwrap();
        let out = std::process::Command::new(PathBuf::from(&bin).join("pvalue"))
            .args(["-h", "-H", "-o", "-df"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(out.stdout, std::fs::read(golden("ramp.rgbf")).unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
