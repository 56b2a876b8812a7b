//! `vwright`: a RADIANCE view shifted to the right (a stereo pair's other eye), or its
//! parameters as constants for `rcalc`, printed as RADIANCE's vwright prints them.
//!
//! `vwright [view options] distance` prints the whole view, moved `distance` along the image's
//! horizontal; `vwright [view options] name` prints `namet:1;namepx:…;` (type, point,
//! direction, distance, up, sizes, shift and lift, clipping, and the image-plane vectors with
//! their lengths). Without view options the view is read from standard input (a view file).

use anyhow::{bail, Context};
use daylit_image::view::apply_view_file;
use daylit_image::{View, ViewType};
use daylit_radfile::printf::{format_g, format_g_digits};
use std::process::ExitCode;

const USAGE: &str = "Usage: vwright [view options] {offset|name}";

/// Runs vwright with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut view = View::default();
    let mut got = false;
    let mut i = 0;
    while i < args.len() && args[i].starts_with("-v") {
        if args[i] == "-vf" && args.len() - i > 2 {
            let path = &args[i + 1];
            let text = std::fs::read_to_string(path)
                .ok()
                .with_context(|| format!("cannot open view file '{path}'"))?;
            if apply_view_file(&mut view, &text) == 0 {
                bail!("no view in file '{path}'");
            }
            i += 2;
        } else {
            let mut words = Vec::new();
            let used = crate::vwrays::view_option(args, i, &mut words)
                .ok()
                .filter(|_| view.apply(&words.join(" ")).is_ok())
                .with_context(|| format!("bad view option at '{}'", args[i]))?;
            i += 1 + used;
        }
        got = true;
    }
    let [what] = &args[i..] else { bail!(USAGE) };
    if !got {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("cannot read standard input")?;
        if apply_view_file(&mut view, &text) == 0 {
            bail!("no view on standard input");
        }
    }
    let frame = view.frame().map_err(|e| anyhow::anyhow!("{}", e.0))?;
    // RADIANCE keeps the direction's length as the view distance and the direction unit.
    let vdist = view.vdir.length();
    view.vdir = frame.vdir;
    view.vup = view.vup.normalize();
    let out = if what.starts_with(|c: char| c.is_ascii_alphabetic()) {
        constants(what, &view, vdist, &frame)
    } else {
        if !daylit_radfile::scan::is_float(what.as_bytes()) {
            bail!(USAGE);
        }
        let dist: f64 = what.parse()?;
        view.vp += frame.hu * dist;
        format!("{}\n", options(&view, vdist))
    };
    crate::output::print_bytes([out.as_bytes()])?;
    Ok(ExitCode::SUCCESS)
}

/// The view as RADIANCE's `fprintview` writes it: the point and the direction (scaled by the
/// view distance) to 7 significant digits, the rest to 5.
pub(crate) fn options(v: &View, vdist: f64) -> String {
    let g = |x: f64| format_g_digits(x, 5);
    let g3 = |p: glam::DVec3, n| {
        let g = |x| format_g_digits(x, n);
        format!("{} {} {}", g(p.x), g(p.y), g(p.z))
    };
    format!(
        " -vt{} -vp {} -vd {} -vu {} -vh {} -vv {} -vo {} -va {} -vs {} -vl {}",
        v.typ.letter(),
        g3(v.vp, 7),
        g3(v.vdir * vdist, 7),
        g3(v.vup, 5),
        g(v.horiz),
        g(v.vert),
        g(v.vfore),
        g(v.vaft),
        g(v.hoff),
        g(v.voff)
    )
}

/// `name`-prefixed constant assignments for rcalc, in RADIANCE's order.
fn constants(name: &str, v: &View, vdist: f64, f: &daylit_image::ViewFrame) -> String {
    let typ = match v.typ {
        ViewType::Perspective => 1,
        ViewType::Parallel => 2,
        ViewType::Angular => 3,
        ViewType::Hemispherical => 4,
        ViewType::Cylindrical => 5,
        ViewType::Planisphere => 6,
    };
    let vals = [
        ("px", v.vp.x),
        ("py", v.vp.y),
        ("pz", v.vp.z),
        ("dx", v.vdir.x),
        ("dy", v.vdir.y),
        ("dz", v.vdir.z),
        ("d", vdist),
        ("ux", v.vup.x),
        ("uy", v.vup.y),
        ("uz", v.vup.z),
        ("h", v.horiz),
        ("v", v.vert),
        ("s", v.hoff),
        ("l", v.voff),
        ("o", v.vfore),
        ("a", v.vaft),
        ("hx", f.hu.x),
        ("hy", f.hu.y),
        ("hz", f.hu.z),
        ("hn", f.hn),
        ("vx", f.vu.x),
        ("vy", f.vu.y),
        ("vz", f.vu.z),
        ("vn", f.vn),
    ];
    let mut s = format!("{name}t:{typ};");
    for (k, x) in vals {
        s += &format!("{name}{k}:{};", format_g(x));
    }
    s.push('\n');
    s
}
