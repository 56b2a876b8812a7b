//! Glare metrics of synthetic pictures with answers known in closed form.

use daylit_glare::{evaluate, GlarePicture, Options};
use daylit_image::HdrImage;
use std::f64::consts::PI;

/// A picture of uniform luminance `l` (cd/m²) with the given view, and optionally a square of
/// `side` pixels of luminance `ls` at the centre.
fn picture(view: &str, n: usize, l: f64, square: Option<(usize, f64)>) -> HdrImage {
    let mut img = HdrImage::new(n, n);
    img.header.push(format!("VIEW= {view}"));
    // Grey radiance whose RADIANCE luminance is `l`.
    let grey = |l: f64| (l / 179.0) as f32;
    for p in img.pixels.iter_mut() {
        *p = [grey(l); 3];
    }
    if let Some((side, ls)) = square {
        let c = n / 2 - side / 2;
        for r in c..c + side {
            for col in c..c + side {
                img.pixels[r * n + col] = [grey(ls); 3];
            }
        }
    }
    img
}

#[test]
fn uniform_hemisphere_gives_pi_l() {
    let l = 1000.0;
    let img = picture("-vta -vh 180 -vv 180", 401, l, None);
    let mut pic = GlarePicture::new(&img, None, "uniform").unwrap();
    let e = evaluate(&mut pic, &Options::default()).unwrap();
    let want = PI * l;
    assert!(
        (e.ev - want).abs() < 0.001 * want,
        "Ev {} want {want}",
        e.ev
    );
    assert!((e.avlum - l).abs() < 1e-6 * l);
    assert!((e.omega_total - 2.0 * PI).abs() < 0.005 * 2.0 * PI);
    assert!(e.sources.is_empty());
    // No glare source: evalglare's values for an empty source list.
    assert_eq!((e.ugr, e.dgi, e.vcp), (0.0, 0.0, 100.0));
    let dgp = 5.87e-5 * e.ev + 0.159;
    assert!((e.dgp - dgp).abs() < 1e-12);
    assert!((e.dgps - (6.22e-5 * e.ev + 0.184)).abs() < 1e-12);
    // Background (Ev − Edir)/π is the uniform luminance itself.
    assert!((e.lum_backg - e.ev / daylit_glare::geometry::PI_EG).abs() < 1e-9);

    // Hemispherical fisheye: evalglare drops the pixels with a corner outside the circle, a
    // ring where cos θ < √(2δ) (δ: a pixel in units of the radius), which takes cos²θ = 2δ of
    // Ev away.
    let n = 401;
    let img = picture("-vth -vh 180 -vv 180", n, l, None);
    let mut pic = GlarePicture::new(&img, None, "uniform").unwrap();
    let e = evaluate(&mut pic, &Options::default()).unwrap();
    let lost = 2.0 * 1.5 / (n as f64 / 2.0);
    assert!(
        e.ev < want && e.ev > want * (1.0 - 1.5 * lost),
        "Ev {} want {want}",
        e.ev
    );
}

#[test]
fn one_small_source_on_axis_by_hand() {
    let (lb, ls, side, n) = (200.0, 50000.0, 5, 361);
    let img = picture("-vta -vh 180 -vv 180", n, lb, Some((side, ls)));
    let mut pic = GlarePicture::new(&img, None, "source").unwrap();
    let opt = Options {
        peak_extraction: false,
        ..Options::default()
    };
    let e = evaluate(&mut pic, &opt).unwrap();
    assert_eq!(e.sources.len(), 1);
    let s = &e.sources[0].source;
    assert_eq!(s.pixels, (side * side) as f64);
    // An angular fisheye's pixels near the axis are squares of π/n radians on a side.
    let omega = (side * side) as f64 * (PI / n as f64).powi(2);
    assert!(
        (s.omega - omega).abs() < 1e-4 * omega,
        "{} {omega}",
        s.omega
    );
    assert!((s.luminance - ls).abs() < 1e-6 * ls);
    assert!((s.posindex - 1.0).abs() < 1e-6, "P {}", s.posindex);
    // Ev: the uniform field plus the source's excess over it.
    let ev = PI * lb + (ls - lb) * omega;
    assert!((e.ev - ev).abs() < 0.002 * ev, "Ev {} want {ev}", e.ev);
    // The indices by hand from the measured Ev, source and background.
    let dgp = 5.87e-5 * e.ev + 0.159 + 0.092 * (1.0 + ls * ls * s.omega / e.ev.powf(1.87)).log10();
    assert!((e.dgp - dgp).abs() < 1e-6, "DGP {} by hand {dgp}", e.dgp);
    // Direct part: the source's pixels, all within a degree of the axis.
    assert!((e.ev_dir - ls * s.omega).abs() < 1e-3 * e.ev_dir);
    let lbg = (e.ev - e.ev_dir) / daylit_glare::geometry::PI_EG;
    assert!((e.lum_backg - lbg).abs() < 1e-9 * lbg);
    assert!((lbg - lb).abs() < 0.01 * lb, "background {lbg}");
    let ugr = 8.0 * (0.25 / lbg * ls * ls * s.omega).log10();
    assert!(
        (e.ugr as f64 - ugr).abs() < 1e-4,
        "UGR {} by hand {ugr}",
        e.ugr
    );
    let cgi = 8.0 * (2.0 * (1.0 + ls * s.omega / 500.0) / e.ev * ls * ls * s.omega).log10();
    assert!((e.cgi as f64 - cgi).abs() < 1e-4);
    // Threshold: 2000 cd/m² by default; as a factor of the mean luminance with -b 5.
    assert_eq!(e.threshold, 2000.0);
    let mut pic = GlarePicture::new(&img, None, "source").unwrap();
    let e5 = evaluate(
        &mut pic,
        &Options {
            threshold: Some(5.0),
            ..opt.clone()
        },
    )
    .unwrap();
    assert!((e5.threshold - 5.0 * e5.avlum).abs() < 1e-3 * e5.threshold);
}

#[test]
fn a_peak_splits_off_and_two_distant_sources_stay_apart() {
    let n = 361;
    let mut img = picture("-vta -vh 180 -vv 180", n, 100.0, Some((9, 10000.0)));
    // A hot spot inside the source, above the 50000 cd/m² peak limit.
    let c = n / 2;
    img.pixels[c * n + c] = [(1e6 / 179.0) as f32; 3];
    // A second source far to the side.
    for r in c - 2..=c + 2 {
        for col in 40..45 {
            img.pixels[r * n + col] = [(8000.0 / 179.0) as f32; 3];
        }
    }
    let mut pic = GlarePicture::new(&img, None, "peaks").unwrap();
    let e = evaluate(&mut pic, &Options::default()).unwrap();
    assert_eq!(e.sources.len(), 3, "window, peak, side source");
    assert!(e
        .sources
        .iter()
        .any(|s| s.source.pixels == 1.0 && s.source.luminance > 9e5));
    let mut pic = GlarePicture::new(&img, None, "peaks").unwrap();
    let no_split = evaluate(
        &mut pic,
        &Options {
            peak_extraction: false,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(no_split.sources.len(), 2);
    // A side source has a position index above 1 and a smaller share of DGP.
    let side = no_split
        .sources
        .iter()
        .find(|s| s.source.pixels == 25.0)
        .unwrap();
    assert!(side.source.posindex > 2.0, "{}", side.source.posindex);
}

#[test]
fn bad_views_and_pictures_are_errors_not_panics() {
    let img = HdrImage::new(10, 10);
    assert!(GlarePicture::new(&img, None, "noview").is_err());
    let mut img = HdrImage::new(10, 10);
    img.header.push("VIEW= -vtl -vh 10 -vv 10".into());
    assert!(GlarePicture::new(&img, None, "parallel").is_err());
    let img = picture("-vta -vh 180 -vv 180", 31, 10.0, None);
    let mut pic = GlarePicture::new(&img, None, "t").unwrap();
    let bad_task = Options {
        task: Some(daylit_glare::Task {
            x: 100,
            y: 0,
            angle: 0.2,
            colour: false,
        }),
        ..Options::default()
    };
    assert!(evaluate(&mut pic, &bad_task).is_err());
}

#[test]
fn rays_from_a_picture_give_the_pictures_metrics() {
    // The picture of one_small_source_on_axis_by_hand, evaluated as a plain set of rays.
    let (lb, ls, side, n) = (200.0, 50000.0, 5, 361);
    let img = picture("-vta -vh 180 -vv 180", n, lb, Some((side, ls)));
    let pic = GlarePicture::new(&img, None, "rays").unwrap();
    let mut rays = Vec::new();
    for x in 0..n {
        for y in 0..n {
            if pic.is_valid(x, y) {
                rays.push(daylit_glare::Ray {
                    dir: pic.direction(x, y),
                    omega: pic.solid_angle(x, y),
                    lum: pic.luminance_at(x, y),
                });
            }
        }
    }
    let mut p2 = pic.clone();
    let e = evaluate(&mut p2, &Options::default()).unwrap();
    let vup = pic.view.vup;
    let r = daylit_glare::evaluate_rays(&rays, pic.view.vdir, vup, &Default::default()).unwrap();
    assert!((r.ev - e.ev).abs() < 1e-9 * e.ev, "{} {}", r.ev, e.ev);
    assert!((r.avlum - e.avlum).abs() < 1e-9 * e.avlum);
    assert_eq!(r.sources.len(), e.sources.len());
    let (a, b) = (&r.sources[0], &e.sources[0].source);
    assert!((a.omega - b.omega).abs() < 1e-12 && (a.luminance - b.luminance).abs() < 1e-6);
    // Only the source centre differs (the rays' weighted mean direction against evalglare's
    // centre pixel), by a fraction of a pixel on the axis.
    assert!((r.dgp - e.dgp).abs() < 1e-4, "{} {}", r.dgp, e.dgp);
    assert!((r.ugr - e.ugr).abs() < 0.01, "{} {}", r.ugr, e.ugr);
    assert!((r.lum_backg - e.lum_backg).abs() < 1e-6 * e.lum_backg);
}
