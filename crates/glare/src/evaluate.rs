//! The evaluation of a picture as evalglare 3.06 runs it: vertical illuminance and average
//! luminance, the detection threshold (absolute, or a factor of the task or average
//! luminance), glare sources, the direct part of the illuminance, the background luminance
//! and every index.

use crate::detect::{DetectParams, Detector};
use crate::geometry::{dot, PI_EG};
use crate::metrics::{self, DgpCoefficients, GlareSource};
use crate::picture::{
    grey, luminance, GlarePicture, CIE_BF, CIE_GF, CIE_RF, HAS_DIR, VALID, WHTEFFICACY,
};
use crate::GlareError;
use daylit_image::ViewType;
use rayon::prelude::*;
use serde::Serialize;

/// A task area (evalglare `-t`/`-T x y angle`): the pixels within `angle` (radians, measured
/// as evalglare does: twice the angular distance) of pixel `(x, y)` (y from the bottom).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Task {
    pub x: i32,
    pub y: i32,
    pub angle: f32,
    /// Colour the task area blue in the check image (`-T`).
    pub colour: bool,
}

/// Evaluation options, evalglare's defaults in [`Options::default`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Options {
    /// `-b`: above 100, the detection threshold in cd/m²; otherwise a factor of the task
    /// luminance (or of the average luminance without a task). `None`: 2000 cd/m², or 5 ×
    /// the task luminance when a task is given.
    pub threshold: Option<f32>,
    /// `-r`: search radius for joining pixels into sources (radians, default 0.2).
    pub search_radius: f64,
    /// `-s`: smoothing.
    pub smoothing: bool,
    /// `-y`/`-x`: peak extraction (on by default).
    pub peak_extraction: bool,
    /// `-Y`: luminance above which pixels split off as a peak source (default 50000 cd/m²).
    pub peak_limit: f32,
    /// `-t`/`-T`: the task area.
    pub task: Option<Task>,
    /// `-B`: half-width of the horizontal band (radians).
    pub band: Option<f64>,
    /// `-i`/`-I`: a measured vertical illuminance used for DGP.
    pub external_ev: Option<f64>,
    /// `-I`: fill rows at and above `ymax` and from `ymin` down to row 1 (cut-off pictures).
    pub fill: Option<(i32, i32)>,
    /// `-C l+`: low-light correction of DGP below 1000 lux (off by default in 3.06).
    pub low_light: bool,
    /// `-q`: background luminance: 0 (Ev − Edir)/π, 1 mean luminance outside the sources,
    /// 2 Ev/π.
    pub background: i32,
    /// `-w`: DGP coefficients.
    pub dgp: DgpCoefficients,
    /// `-P`: position-index model (0 Guth, 1 Kim).
    pub posindex_model: i32,
    /// `-k`: CIE veiling luminances at or below this are not counted.
    pub disability_threshold: Option<f64>,
    /// `-u r g b`: colour every source alike in the check image.
    pub uniform_colour: Option<[f64; 3]>,
    /// `-f`: go on with a perspective view over a fisheye-looking picture.
    pub force: bool,
    /// Compute the luminance medians and position-weighted means of the detailed output.
    pub statistics: bool,
    /// Keep which glare source each pixel belongs to ([`Evaluation::source_map`]).
    pub source_map: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: None,
            search_radius: 0.2,
            smoothing: false,
            peak_extraction: true,
            peak_limit: 50000.0,
            task: None,
            band: None,
            external_ev: None,
            fill: None,
            low_light: false,
            background: 0,
            dgp: DgpCoefficients::default(),
            posindex_model: 0,
            disability_threshold: None,
            uniform_colour: None,
            force: false,
            statistics: true,
            source_map: false,
        }
    }
}

/// Luminance statistics of the band (`-B`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandStats {
    pub omega: f64,
    pub mean: f64,
    pub median: f64,
    pub std: f64,
    pub p75: f64,
    pub p95: f64,
    pub min: f64,
    pub max: f64,
}

/// One glare source in evalglare's detailed output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceReport {
    #[serde(flatten)]
    pub source: GlareSource,
    /// Angle from the line of sight in degrees (evalglare's `Sigma` and `teta`).
    pub sigma_deg: f64,
    /// CIE veiling luminance of the source (cd/m²).
    pub lveil_cie: f64,
    /// Share of the DGP glare term this source makes.
    pub r_contrast: f64,
    /// This source's glare term over DGP.
    pub r_dgp: f64,
}

/// Everything evalglare reports for a picture.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    /// DGP as evalglare prints it (from the external Ev with `-i`, low-light corrected when
    /// asked).
    pub dgp: f64,
    /// DGP from the picture's own Ev (no low-light correction).
    pub dgp_picture: f64,
    /// DGP from the picture's own Ev, low-light corrected when asked (what `-D` prints).
    pub dgp_own: f64,
    pub dgps: f64,
    /// Vertical illuminance at the eye (lux).
    pub ev: f64,
    /// Solid-angle-weighted mean luminance of the picture (cd/m²).
    pub avlum: f64,
    /// Background luminance used by UGR, DGI, UGP (cd/m²).
    pub lum_backg: f64,
    /// Ev from the glare sources' pixels (lux).
    pub ev_dir: f64,
    pub dgi: f32,
    pub ugr: f32,
    pub vcp: f32,
    pub cgi: f32,
    /// Mean luminance (cd/m²) and total solid angle (sr) of the glare sources.
    pub lum_sources: f64,
    pub omega_sources: f64,
    /// Veiling luminance after Poynter (cd/m²).
    pub lveil: f64,
    /// Sum of the CIE veiling luminances of the sources (cd/m²).
    pub lveil_cie: f64,
    pub dgr: f32,
    pub ugp: f64,
    pub ugr_exp: f64,
    pub dgi_mod: f64,
    pub av_lum_pos: f64,
    pub av_lum_pos2: f64,
    pub med_lum: f64,
    pub med_lum_pos: f64,
    pub med_lum_pos2: f64,
    pub ugp2: f64,
    /// Task luminance (the mean luminance without a task), cd/m².
    pub lum_task: f32,
    /// The detection threshold used (cd/m²).
    pub threshold: f64,
    /// Brightest pixel (cd/m²).
    pub abs_max: f64,
    /// Total solid angle of the evaluated pixels (sr).
    pub omega_total: f64,
    pub sources: Vec<SourceReport>,
    pub band: Option<BandStats>,
    /// evalglare's warnings and notices, for standard error.
    #[serde(skip)]
    pub notices: Vec<String>,
    /// Lines evalglare prints on standard output before its results (black-corner check).
    #[serde(skip)]
    pub preamble: Vec<String>,
    /// `-D` prints a zero here: evalglare computes its external DGP only with `-i` in the
    /// other output modes.
    #[serde(skip)]
    pub dgp_ext_detail2: f64,
    /// With [`Options::source_map`]: for each pixel (row-major, top row first) the number of
    /// its glare source as reported (1, 2, …), 0 for none.
    #[serde(skip)]
    pub source_map: Vec<u32>,
}

/// Median as RADIANCE's `muc_rvar_get_median` takes it (by selection, not a full sort).
fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let n = v.len();
    let (lower, &mut mid, _) = v.select_nth_unstable_by(n / 2, |a, b| a.total_cmp(b));
    let mut m = mid;
    if n.is_multiple_of(2) {
        m += lower.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        m /= 2.0;
    }
    m
}

/// Percentile as `muc_rvar_get_percentile` takes it (always the mean of two neighbours).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let k = (sorted.len() as f64 * p) as usize;
    let a = sorted.get(k).copied().unwrap_or(0.0);
    let b = if k >= 1 { sorted[k - 1] } else { 0.0 };
    (a + b) / 2.0
}

/// Evaluates a picture. The picture's colours change as evalglare changes them (invalid
/// pixels black, task area, glare sources and band coloured), so that it can be written as
/// the check image afterwards.
pub fn evaluate(pic: &mut GlarePicture, opt: &Options) -> Result<Evaluation, GlareError> {
    let (w, h) = (pic.width, pic.height);
    let (wi, hi) = (w as i32, h as i32);
    let vdir = pic.view.vdir;
    let mut notices = Vec::new();
    let mut preamble = Vec::new();
    if pic.view.typ == ViewType::Perspective {
        notices.push("warning: image has perspective view type specified in header ! ".into());
    }
    // Search radius in pixels, from the angle of 10 diagonal pixels at the centre.
    let (rmx, rmy) = (wi / 2, hi / 2);
    let (rx, ry) = ((wi / 2 + 10).min(wi - 1), (hi / 2 + 10).min(hi - 1));
    let r_center = dot(
        pic.direction(rmx as usize, rmy as usize),
        pic.direction(rx as usize, ry as usize),
    )
    .acos()
        * 2.0
        / 10.0;
    let search_pix = opt.search_radius / r_center;
    let (mut split, mut smoothing) = (opt.peak_extraction, opt.smoothing);
    if search_pix < 1.0 {
        notices.push("warning: search radius less than 1 pixel! deactivating smoothing and peak extraction...".into());
        split = false;
        smoothing = false;
    } else if search_pix < 3.0 {
        notices.push(format!(
            "warning: search radius less than 3 pixels! -> {search_pix:.6} "
        ));
    }
    if let Some(t) = &opt.task {
        if t.x >= wi || t.y >= hi || t.x < 0 || t.y < 0 {
            return Err(GlareError::Input(
                "error: task position outside picture!! exit...".into(),
            ));
        }
    }
    // Fill (-I): rows ymin..1 from the row above, sequentially downwards.
    if let Some((_, ymin)) = opt.fill {
        for x in 0..w {
            let mut y = ymin;
            while y > 0 {
                if (y + 1) < hi {
                    let l = luminance(pic.colour[x * h + (y + 1) as usize]);
                    pic.colour[x * h + y as usize] = grey_179(l);
                }
                y -= 1;
            }
        }
    }
    // Black-corner check, counted on the colours before invalid pixels are blacked out.
    let half = ((rmx + rmy) / 2) as f64;
    let (mut n_corner, mut zero_corner) = (0.0f64, 0.0f64);
    for x in 0..wi {
        for y in 0..hi {
            let d = (((x - rmx) * (x - rmx) + (y - rmy) * (y - rmy)) as f64).sqrt();
            if d > half {
                n_corner += 1.0;
                if luminance(pic.colour[(x * hi + y) as usize]) < 7.0 {
                    zero_corner += 1.0;
                }
            }
        }
    }
    // Invalid pixels go black; with -I rows at and above ymax take the row below's value.
    for x in 0..w {
        for y in 0..h {
            let i = x * h + y;
            let f = pic.flags[i];
            if f & HAS_DIR != 0 && f & VALID != 0 {
                if let Some((ymax, _)) = opt.fill {
                    if y as i32 >= ymax && y >= 1 {
                        let l = luminance(pic.colour[i - 1]);
                        pic.colour[i] = grey_179(l);
                    }
                }
            } else {
                pic.colour[i] = [0.0; 3];
            }
        }
    }
    if zero_corner / n_corner > 0.70 && pic.view.typ == ViewType::Perspective {
        preamble.push(format!(
            " corner pixels are to  {:.6} % black! ",
            zero_corner / n_corner * 100.0
        ));
        preamble.push("error! The image has black corners AND header contains a perspective view type definition !!!".into());
        if !opt.force {
            preamble.push("stopping...!!!!".into());
            return Err(GlareError::BlackCorners(preamble));
        }
    }

    // Sums over valid pixels in evalglare's order (the position indices of the detailed
    // statistics computed in parallel first).
    let model = opt.posindex_model;
    let stats = opt.statistics;
    let posidx: Vec<f32> = if stats {
        let view = &pic.view;
        (0..w * h)
            .into_par_iter()
            .map(|i| {
                let f = pic.flags[i];
                if f & HAS_DIR != 0 && f & VALID != 0 {
                    view.posindex(pic.dir[i], model)
                } else {
                    1.0
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let (mut sang, mut ev, mut avlum, mut lpm, mut lp2m, mut abs_max) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0f64);
    let cap = if stats { w * h } else { 0 };
    let mut s_lum = Vec::with_capacity(cap);
    let mut s_pos = Vec::with_capacity(cap);
    let mut s_pos2 = Vec::with_capacity(cap);
    for (i, &f) in pic.flags.iter().enumerate() {
        if f & HAS_DIR == 0 || f & VALID == 0 {
            continue;
        }
        let (l, om) = (luminance(pic.colour[i]), pic.omega[i]);
        if l > abs_max {
            abs_max = l;
        }
        sang += om;
        ev += dot(vdir, pic.dir[i]) * om * l;
        avlum += om * l;
        if stats {
            let p = posidx[i] as f64;
            let lp = l / p;
            lpm += lp * om;
            let lp2 = lp / p;
            lp2m += lp2 * om;
            s_lum.push(l);
            s_pos.push(lp);
            s_pos2.push(lp2);
        }
    }
    drop(posidx);
    lpm /= sang;
    lp2m /= sang;
    avlum /= sang;
    let mut lum_task = avlum as f32;
    if opt.task.is_some() || smoothing {
        pic.complete_solid_angles();
    }
    if let Some(t) = &opt.task {
        lum_task = task_luminance(pic, t);
    }
    let thres = opt
        .threshold
        .unwrap_or(if opt.task.is_some() { 5.0 } else { 2000.0 });
    let mut lum_source = (thres * lum_task) as f64;
    if thres > 100.0 {
        lum_source = thres as f64;
    }
    // Glare sources.
    let params = DetectParams {
        lum_source,
        max_angle: opt.search_radius,
        search_pix,
        r_center,
        smoothing,
        split,
        limit: opt.peak_limit,
    };
    let (gsn, src, igs) = {
        let mut det = Detector::new(
            w,
            h,
            &pic.dir,
            &pic.omega,
            &pic.flags,
            &pic.colour,
            opt.search_radius,
        );
        let igs = det.run(&params);
        (det.gsn, det.src, igs)
    };
    let mut src = src;
    // Direct vertical illuminance, per source and in all; colour the sources.
    let mut ev_dir = 0.0;
    for (i, &g) in gsn.iter().enumerate() {
        if g > 0 && pic.flags[i] & (HAS_DIR | VALID) == HAS_DIR | VALID {
            let de = dot(vdir, pic.dir[i]) * pic.omega[i] * luminance(pic.colour[i]);
            src[g as usize].eglare += de;
            ev_dir += de;
            pic.colour[i] = glare_colour(pic.colour[i], g as i32, opt.uniform_colour);
        }
    }
    let lum_backg_cos = (ev - ev_dir) / PI_EG;
    let source_map = if opt.source_map {
        // Sources numbered as evalglare reports them (the non-empty ones, in order).
        let mut number = vec![0u32; src.len()];
        let mut k = 0;
        for (g, s) in src.iter().enumerate().take(igs as usize + 1) {
            if s.npix > 0.0 {
                k += 1;
                number[g] = k;
            }
        }
        let mut m = vec![0u32; w * h];
        for x in 0..w {
            for y in 0..h {
                let i = x * h + y;
                if pic.flags[i] & (HAS_DIR | VALID) == HAS_DIR | VALID {
                    m[(h - 1 - y) * w + x] = number[gsn[i] as usize];
                }
            }
        }
        m
    } else {
        Vec::new()
    };
    let band = opt.band.map(|a| band_stats(pic, a));
    // The sources as the indices see them, numbered as evalglare renumbers them.
    let mut sources: Vec<GlareSource> = Vec::new();
    let at = |x: i32, y: i32| {
        if x >= 0 && x < wi && y >= 0 && y < hi {
            pic.direction(x as usize, y as usize)
        } else {
            vdir
        }
    };
    for s in src.iter().take(igs as usize + 1) {
        if s.npix > 0.0 {
            // evalglare passes the centre to its position index as floats, to its angle
            // from the line of sight as doubles; both end truncated to a pixel.
            let d = at(s.posx as i32, s.posy as i32);
            let dp = at(s.posx as f32 as i32, s.posy as f32 as i32);
            sources.push(GlareSource {
                luminance: s.lum,
                omega: s.omega,
                posindex: pic.view.posindex(dp, model),
                direction: [d.x, d.y, d.z],
                sigma: dot(vdir, d).acos(),
                e_glare: s.eglare,
                pixels: s.npix,
                max_luminance: s.lum_max,
                position: Some([s.posx, h as f64 - s.posy]),
            });
        }
    }
    let k = &opt.dgp;
    let sum_glare_terms: f64 = sources.iter().fold(0.0, |a, g| {
        a + g.luminance.powf(2.0) * g.omega / (g.posindex as f64).powf(2.0)
    });
    let sum_glare = k.c2 * (1.0 + sum_glare_terms / ev.powf(k.a3)).log10();
    let (lum_sources_sum, omega_sources) = sources.iter().fold((0.0, 0.0), |(l, o), g| {
        (l + g.luminance * g.omega, o + g.omega)
    });
    let mut lum_backg = if sang == omega_sources {
        avlum
    } else {
        (sang * avlum - lum_sources_sum) / (sang - omega_sources)
    };
    let lum_sources = if sources.is_empty() {
        0.0
    } else {
        lum_sources_sum / omega_sources
    };
    match opt.background {
        0 => lum_backg = lum_backg_cos,
        2 => lum_backg = ev / PI_EG,
        _ => {}
    }
    // Per-source details.
    let dgp_picture = metrics::dgp(ev, &sources, k);
    let mut lveil_cie_sum = 0.0;
    let reports: Vec<SourceReport> = sources
        .iter()
        .map(|g| {
            let teta = 180.0 / PI_EG * g.sigma;
            let mut lv = metrics::veiling_luminance_cie(g.e_glare, teta);
            if opt.disability_threshold.is_some_and(|t| lv <= t) {
                lv = 0.0;
            }
            lveil_cie_sum += lv;
            let r_glare = metrics::dgp_term(ev, g, k);
            SourceReport {
                source: g.clone(),
                sigma_deg: g.sigma * 180.0 / PI_EG,
                lveil_cie: lv,
                r_contrast: r_glare / sum_glare,
                r_dgp: r_glare / dgp_picture,
            }
        })
        .collect();
    if ev < 100.0 {
        notices.push("Notice: Vertical illuminance is below 100 lux !!".into());
    }
    let mut dgp = dgp_picture;
    if opt.low_light {
        dgp *= metrics::low_light_factor(ev);
    }
    if let Some(e) = opt.external_ev {
        if e < 100.0 {
            notices.push("Notice: Vertical illuminance is below 100 lux !!".into());
        }
    }
    let lum_a = ev / PI_EG;
    let ((med_lum, med_lum_pos), med_lum_pos2) = rayon::join(
        || rayon::join(|| median(&mut s_lum), || median(&mut s_pos)),
        || median(&mut s_pos2),
    );
    let none = sources.is_empty();
    let z = |v: f32| if none { 0.0 } else { v };
    let dgr = metrics::dgr(avlum, &sources);
    let mut e = Evaluation {
        dgp,
        dgp_picture,
        dgp_own: dgp,
        dgps: metrics::dgps(ev),
        ev,
        avlum,
        lum_backg,
        ev_dir,
        dgi: z(metrics::dgi(lum_backg as f32, &sources)),
        ugr: z(metrics::ugr(lum_backg, &sources)),
        vcp: if none { 100.0 } else { metrics::vcp(dgr) },
        cgi: z(metrics::cgi(ev, ev_dir, &sources)),
        lum_sources,
        omega_sources,
        lveil: metrics::veiling_luminance(&sources) as f64,
        lveil_cie: lveil_cie_sum,
        dgr: z(dgr),
        ugp: z(metrics::ugp(lum_backg, &sources)) as f64,
        ugr_exp: z(metrics::ugr_exp(lum_backg_cos, lum_a, &sources)) as f64,
        dgi_mod: z(metrics::dgi_mod(lum_a as f32, &sources)) as f64,
        av_lum_pos: lpm,
        av_lum_pos2: lp2m / sang,
        med_lum,
        med_lum_pos,
        med_lum_pos2,
        ugp2: z(metrics::ugp2(lum_backg, &sources)) as f64,
        lum_task,
        threshold: lum_source,
        abs_max,
        omega_total: sang,
        sources: reports,
        band,
        notices,
        preamble,
        dgp_ext_detail2: 0.0,
        source_map,
    };
    if let Some(ext) = opt.external_ev {
        let mut d = metrics::dgp(ext, &sources, k);
        if opt.low_light {
            d *= metrics::low_light_factor(ext);
        }
        e.dgp = d;
    }
    if e.dgp <= 0.2 {
        e.notices.push(
            "Notice: Low brightness scene. dgp below 0.2! dgp might underestimate glare sources"
                .into(),
        );
    }
    if ev < 380.0 {
        e.notices.push("Notice: Low brightness scene. Vertical illuminance less than 380 lux! dgp might underestimate glare sources".into());
    }
    Ok(e)
}

/// evalglare's grey of a luminance written as `lum / 179.0` per channel.
fn grey_179(l: f64) -> [f32; 3] {
    let g = (l / 179.0) as f32;
    [g, g, g]
}

/// Task luminance as evalglare's `get_task_lum` takes it (rows outer, columns inner), and the
/// task area coloured blue with `-T`.
fn task_luminance(pic: &mut GlarePicture, t: &Task) -> f32 {
    let (w, h) = (pic.width, pic.height);
    let c = pic.direction(t.x as usize, t.y as usize);
    let r = t.angle as f64;
    let inside: Vec<bool> = (0..w * h)
        .into_par_iter()
        .map(|i| dot(c, pic.dir[i]).acos() * 2.0 <= r)
        .collect();
    let (mut av, mut om) = (0.0, 0.0);
    for y in 0..h {
        for x in 0..w {
            let i = x * h + y;
            if inside[i] {
                let l = luminance(pic.colour[i]);
                av += pic.omega[i] * l;
                om += pic.omega[i];
                if t.colour {
                    pic.colour[i] = [0.0, 0.0, (l / WHTEFFICACY / CIE_BF) as f32];
                }
            }
        }
    }
    (av / om) as f32
}

/// The colour evalglare gives a glare-source pixel of source `acol` (luminance kept).
fn glare_colour(c: [f32; 3], acol: i32, uniform: Option<[f64; 3]>) -> [f32; 3] {
    let pal: [[f64; 3]; 7] = [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.15, 0.15, 0.7],
        [0.5, 0.5, 0.0],
        [0.5, 0.0, 0.5],
        [0.0, 0.5, 0.5],
        [0.333, 0.333, 0.333],
    ];
    let col = match uniform {
        Some(u) => {
            let l = u[0] + u[1] + u[2];
            [u[0] / l, u[1] / l, u[2] / l]
        }
        None if acol == -1 => return grey(luminance(c)),
        None => pal[if acol > 0 { (acol % 5 + 1) as usize } else { 0 }],
    };
    let act = luminance(c);
    [
        (col[0] / CIE_RF * act / WHTEFFICACY) as f32,
        (col[1] / CIE_GF * act / WHTEFFICACY) as f32,
        (col[2] / CIE_BF * act / WHTEFFICACY) as f32,
    ]
}

/// Luminance statistics of the horizontal band (`-B`), the band coloured green.
fn band_stats(pic: &mut GlarePicture, angle: f64) -> BandStats {
    let (w, h) = (pic.width, pic.height);
    let y_mid = (h - 1) / 2;
    let (mut sum, mut om) = (0.0, 0.0);
    let (mut s1, mut s2, mut n) = (0.0, 0.0, 0.0);
    let (mut lo, mut hi) = (f64::MAX, -f64::MAX);
    let mut samples = Vec::new();
    for x in 0..w {
        let m = pic.dir[x * h + y_mid];
        for y in 0..h {
            let i = x * h + y;
            if pic.flags[i] & (HAS_DIR | VALID) != HAS_DIR | VALID {
                continue;
            }
            if dot(m, pic.dir[i]).acos() <= angle || y == y_mid {
                let l = luminance(pic.colour[i]);
                samples.push(l);
                s1 += l;
                s2 += l * l;
                n += 1.0;
                lo = lo.min(l);
                hi = hi.max(l);
                sum += pic.omega[i] * l;
                om += pic.omega[i];
                pic.colour[i] = [0.0, (l / WHTEFFICACY / CIE_GF) as f32, 0.0];
            }
        }
    }
    samples.sort_unstable_by(f64::total_cmp);
    let med = median(&mut samples);
    let ex = s1 / n;
    BandStats {
        omega: om,
        mean: sum / om,
        median: med,
        std: (s2 / n - ex * ex).sqrt(),
        p75: percentile(&samples, 0.75),
        p95: percentile(&samples, 0.95),
        min: lo,
        max: hi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_follows_radiance() {
        let v: Vec<f64> = (0..10).map(|i| i as f64).collect();
        // index 7 and 6 averaged
        assert_eq!(percentile(&v, 0.75), 6.5);
        assert_eq!(median(&mut v.clone()), 4.5);
    }
}
