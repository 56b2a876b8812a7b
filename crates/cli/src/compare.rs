//! `daylit compare`: the Tregenza-patch comparison of two luminance pictures of the same view
//! (seed 001, eq. 2-5), the second being the reference. See `daylit_image::tregenza` for the
//! patch frame (the view direction is the zenith, the view up vector north).

use crate::output::{self, outln};
use anyhow::{bail, Context};
use daylit_image::tregenza::{self, Comparison, PatchMap};
use daylit_image::{HdrImage, View};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The picture to judge (RADIANCE RGBE .hdr).
    test: PathBuf,
    /// The reference picture: same view, same resolution.
    reference: PathBuf,
    /// Print the metrics as JSON.
    #[arg(long)]
    json: bool,
    /// Also print one line per compared patch.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// View of both pictures as RADIANCE options (e.g. "-vta -vh 180 -vv 180 -vd 0 1 0"),
    /// instead of their VIEW= header lines.
    #[arg(long, allow_hyphen_values = true)]
    view: Option<String>,
}

fn picture_view(img: &HdrImage, path: &std::path::Path) -> anyhow::Result<Option<View>> {
    img.parsed_view()
        .with_context(|| format!("{}: bad VIEW= line", path.display()))
}

/// Reads both pictures, settles the view and compares them.
fn evaluate(a: &Args) -> anyhow::Result<(View, HdrImage, Comparison)> {
    let test = HdrImage::read(&a.test)?;
    let reference = HdrImage::read(&a.reference)?;
    if (test.width, test.height) != (reference.width, reference.height) {
        bail!(
            "the pictures differ in size: {} is {}x{}, {} is {}x{}",
            a.test.display(),
            test.width,
            test.height,
            a.reference.display(),
            reference.width,
            reference.height
        );
    }
    let view = match &a.view {
        Some(s) => View::parse(s).context("--view")?,
        None => {
            let tv = picture_view(&test, &a.test)?;
            let rv = picture_view(&reference, &a.reference)?;
            match (tv, rv) {
                (Some(t), Some(r)) => {
                    if !t.same_as(&r) {
                        bail!(
                            "the pictures have different views:\n  {}: {}\n  {}: {}\n(give --view to compare them anyway)",
                            a.test.display(),
                            t.to_options(),
                            a.reference.display(),
                            r.to_options()
                        );
                    }
                    r
                }
                (Some(v), None) | (None, Some(v)) => {
                    let (has, lacks) = if test.view.is_some() {
                        (&a.test, &a.reference)
                    } else {
                        (&a.reference, &a.test)
                    };
                    eprintln!(
                        "daylit compare: {} has no VIEW= line; using the view of {}",
                        lacks.display(),
                        has.display()
                    );
                    v
                }
                (None, None) => bail!(
                    "neither picture has a VIEW= line in its header; give the view with --view"
                ),
            }
        }
    };
    let frame = view.frame()?;
    let map = PatchMap::new(&frame, reference.width, reference.height);
    let Some(c) = tregenza::compare(&map, &test.luminance_image(), &reference.luminance_image())
    else {
        bail!(
            "no Tregenza patch can be compared: {} of 145 patches are fully inside the view ({}) and none has a positive reference luminance",
            map.visible.iter().filter(|&&v| v).count(),
            view.to_options()
        );
    };
    Ok((view, reference, c))
}

pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    let (view, reference, c) = evaluate(a)?;
    let mut out = String::new();
    if a.json {
        outln!(out, "{{");
        outln!(out, "  \"view\": \"{}\",", view.to_options());
        outln!(
            out,
            "  \"width\": {}, \"height\": {},",
            reference.width,
            reference.height
        );
        outln!(out, "  \"patches_visible\": {},", c.visible);
        outln!(out, "  \"patches_compared\": {},", c.patches.len());
        outln!(out, "  \"patches_dark_reference\": {},", c.dark_reference);
        outln!(out, "  \"mbe_rel\": {},", json_num(c.mbe_rel));
        outln!(out, "  \"abs_mbe_rel\": {},", json_num(c.mbe_rel.abs()));
        outln!(out, "  \"rmse_rel\": {},", json_num(c.rmse_rel));
        outln!(
            out,
            "  \"within\": {{\"0.05\": {}, \"0.10\": {}, \"0.20\": {}}}{}",
            json_num(c.within[0].1),
            json_num(c.within[1].1),
            json_num(c.within[2].1),
            if a.verbose { "," } else { "" }
        );
        if a.verbose {
            outln!(out, "  \"per_patch\": [");
            for (i, p) in c.patches.iter().enumerate() {
                outln!(
                    out,
                    "    {{\"patch\": {}, \"test\": {}, \"reference\": {}, \"rel_error\": {}, \"covered_sr\": {}, \"patch_sr\": {}}}{}",
                    p.patch + 1,
                    json_num(p.test),
                    json_num(p.reference),
                    json_num(p.rel_error),
                    json_num(p.covered_sr),
                    json_num(p.patch_sr),
                    if i + 1 < c.patches.len() { "," } else { "" }
                );
            }
            outln!(out, "  ]");
        }
        outln!(out, "}}");
    } else {
        outln!(out, "test:      {}", a.test.display());
        outln!(out, "reference: {}", a.reference.display());
        outln!(out, "view:      {}", view.to_options());
        outln!(
            out,
            "patches:   {} compared ({} fully visible, {} with a black reference)",
            c.patches.len(),
            c.visible,
            c.dark_reference
        );
        outln!(out, "MBE_rel:   {:+.3}%", 100.0 * c.mbe_rel);
        outln!(out, "RMSE_rel:  {:.3}%", 100.0 * c.rmse_rel);
        for (t, f) in c.within {
            outln!(
                out,
                "within {:>2.0}%: {:.1}% of patches",
                100.0 * t,
                100.0 * f
            );
        }
        if a.verbose {
            outln!(
                out,
                "\npatch  band  test(cd/m2)  reference(cd/m2)  error  covered/patch sr"
            );
            for p in &c.patches {
                let (band, _) = tregenza::patch_band(p.patch);
                outln!(
                    out,
                    "{:>5}  {:>4}  {:>11.4e}  {:>16.4e}  {:>+6.2}%  {:.4}/{:.4}",
                    p.patch + 1,
                    band + 1,
                    p.test,
                    p.reference,
                    100.0 * p.rel_error,
                    p.covered_sr,
                    p.patch_sr
                );
            }
        }
    }
    output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// A JSON number (non-finite values as null).
fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(
        dir: &std::path::Path,
        name: &str,
        n: usize,
        scale: f32,
        view: Option<&str>,
    ) -> PathBuf {
        let mut img = HdrImage::new(n, n);
        for r in 0..n {
            for c in 0..n {
                img.set(
                    c,
                    r,
                    [
                        scale * (1.0 + c as f32 / 8.0),
                        scale * (0.5 + r as f32 / 16.0),
                        scale,
                    ],
                );
            }
        }
        if let Some(v) = view {
            img.header.push(format!("VIEW= {v}"));
        }
        let path = dir.join(name);
        img.write(&path, true).unwrap();
        path
    }

    fn args(test: PathBuf, reference: PathBuf, view: Option<&str>) -> Args {
        Args {
            test,
            reference,
            json: true,
            verbose: true,
            view: view.map(str::to_string),
        }
    }

    const FISH: &str = "-vta -vh 180 -vv 180 -vd 0 1 0 -vu 0 0 1";

    #[test]
    fn doubled_picture_is_exactly_plus_100_percent() {
        let d = tempfile::tempdir().unwrap();
        let r = picture(d.path(), "r.hdr", 64, 1.0, Some(FISH));
        let t = picture(d.path(), "t.hdr", 64, 2.0, Some(FISH));
        let (_, _, c) = evaluate(&args(t.clone(), r.clone(), None)).unwrap();
        assert_eq!(c.patches.len(), 145);
        assert_eq!((c.mbe_rel, c.rmse_rel), (1.0, 1.0));
        let (_, _, c) = evaluate(&args(r.clone(), r.clone(), None)).unwrap();
        assert_eq!((c.mbe_rel, c.rmse_rel), (0.0, 0.0));
    }

    #[test]
    fn mismatches_are_errors() {
        let d = tempfile::tempdir().unwrap();
        let r = picture(d.path(), "r.hdr", 32, 1.0, Some(FISH));
        let small = picture(d.path(), "s.hdr", 16, 1.0, Some(FISH));
        let other = picture(
            d.path(),
            "o.hdr",
            32,
            1.0,
            Some("-vta -vh 180 -vv 180 -vd 1 0 0"),
        );
        let bare = picture(d.path(), "b.hdr", 32, 1.0, None);
        let e = evaluate(&args(small, r.clone(), None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("differ in size"), "{e}");
        let e = evaluate(&args(other.clone(), r.clone(), None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("different views"), "{e}");
        assert!(evaluate(&args(other, r.clone(), Some(FISH))).is_ok());
        let e = evaluate(&args(bare.clone(), bare.clone(), None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--view"), "{e}");
        assert!(evaluate(&args(bare, r, None)).is_ok());
        let e = format!(
            "{:#}",
            evaluate(&args(
                d.path().join("none.hdr"),
                d.path().join("none.hdr"),
                None
            ))
            .unwrap_err()
        );
        assert!(e.contains("none.hdr"), "{e}");
    }
}
