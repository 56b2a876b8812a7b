//! `ra_xyze`: RADIANCE pictures between RGBE and XYZE (CIE XYZ, Y in cd/m²), with other
//! primaries (`-p`, white balanced as RADIANCE balances them), exposure (`-e`, `-o`) and flat or
//! run-length encoded output (`-u`, `-c`), as RADIANCE's ra_xyze converts them. Hyperspectral
//! pictures are refused by name.

use anyhow::{bail, Context};
use daylit_image::hdr::{float_to_rgbe, read_raw_pixels, rgbe_to_float, write_scanline};
use std::process::ExitCode;

const USAGE: &str =
    "usage: ra_xyze [-r][-o][-e exp][-c|-u][-p rx ry gx gy bx by wx wy] [input [output]]";

/// RADIANCE's luminous efficacy of white light, lm/W.
const WHTEFFICACY: f64 = 179.0;

/// Chromaticities of red, green, blue and white.
type Prims = [[f32; 2]; 4];
/// A 3×3 colour matrix in single precision, as RADIANCE keeps them.
type Mat = [[f32; 3]; 3];

const STD_PRIMS: Prims = [
    [0.640, 0.330],
    [0.290, 0.600],
    [0.150, 0.060],
    [1.0 / 3.0, 1.0 / 3.0],
];
const NEUTRAL: [f32; 2] = [1.0 / 3.0, 1.0 / 3.0];
/// The sharpened cone primaries of RADIANCE's von Kries white balance, and their inverse.
const VK: Mat = [
    [1.2694, -0.0988, -0.1706],
    [-0.8364, 1.8006, 0.0357],
    [0.0297, -0.0315, 1.0018],
];
const IVK: Mat = [
    [0.8156, 0.0472, 0.1372],
    [0.3791, 0.5769, 0.0440],
    [-0.0123, 0.0167, 0.9955],
];

fn ceq(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-4
}

fn xyeq(a: [f32; 2], b: [f32; 2]) -> bool {
    ceq(a[0] as f64, b[0] as f64) && ceq(a[1] as f64, b[1] as f64)
}

fn identity() -> Mat {
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
}

/// `b · a`: apply `a`, then `b`.
fn then(a: &Mat, b: &Mat) -> Mat {
    let mut m = [[0f32; 3]; 3];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = b[i][0] * a[0][j] + b[i][1] * a[1][j] + b[i][2] * a[2][j];
        }
    }
    m
}

fn apply(m: &Mat, c: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|i| m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2])
}

/// The (C_rD, C_gD, C_bD) scale factors of primaries `p` with their white.
fn white_scales(p: &Prims) -> Option<[f64; 3]> {
    let [r, g, b, w] = p.map(|c| c.map(f64::from));
    if ceq(w[0], 0.0) || ceq(w[1], 0.0) {
        return None;
    }
    let inv = 1.0 / w[1];
    let c = [
        inv * (w[0] * (g[1] - b[1]) - w[1] * (g[0] - b[0]) + g[0] * b[1] - b[0] * g[1]),
        inv * (w[0] * (b[1] - r[1]) - w[1] * (b[0] - r[0]) - r[0] * b[1] + b[0] * r[1]),
        inv * (w[0] * (r[1] - g[1]) - w[1] * (r[0] - g[0]) + r[0] * g[1] - g[0] * r[1]),
    ];
    c.iter().all(|v| !ceq(*v, 0.0)).then_some(c)
}

/// RGB of primaries `p` to CIE XYZ.
fn rgb_to_xyz(p: &Prims) -> Option<Mat> {
    let c = white_scales(p)?;
    let [r, g, b, _] = p.map(|c| c.map(f64::from));
    let d = r[0] * (g[1] - b[1]) + g[0] * (b[1] - r[1]) + b[0] * (r[1] - g[1]);
    if ceq(d, 0.0) {
        return None;
    }
    let col = |q: [f64; 2], k: usize| {
        [
            q[0] * c[k] / d,
            q[1] * c[k] / d,
            (1.0 - q[0] - q[1]) * c[k] / d,
        ]
    };
    let (cr, cg, cb) = (col(r, 0), col(g, 1), col(b, 2));
    Some(std::array::from_fn(|i| {
        [cr[i] as f32, cg[i] as f32, cb[i] as f32]
    }))
}

/// CIE XYZ to RGB of primaries `p`.
fn xyz_to_rgb(p: &Prims) -> Option<Mat> {
    let c = white_scales(p)?;
    let [r, g, b, _] = p.map(|c| c.map(f64::from));
    let rows = [
        [
            g[1] - b[1] - b[0] * g[1] + b[1] * g[0],
            b[0] - g[0] - b[0] * g[1] + g[0] * b[1],
            g[0] * b[1] - b[0] * g[1],
        ],
        [
            b[1] - r[1] - b[1] * r[0] + r[1] * b[0],
            r[0] - b[0] - r[0] * b[1] + b[0] * r[1],
            b[0] * r[1] - r[0] * b[1],
        ],
        [
            r[1] - g[1] - r[1] * g[0] + g[1] * r[0],
            g[0] - r[0] - g[0] * r[1] + r[0] * g[1],
            r[0] * g[1] - g[0] * r[1],
        ],
    ];
    Some(std::array::from_fn(|i| rows[i].map(|v| (v / c[i]) as f32)))
}

/// The von Kries white balance from white `w1` to white `w2`.
fn white_balance(w1: [f32; 2], w2: [f32; 2]) -> Option<Mat> {
    if xyeq(w1, w2) {
        return Some(identity());
    }
    let cone = |w: [f32; 2]| -> Option<[f32; 3]> {
        if ceq(w[0] as f64, 0.0) || ceq(w[1] as f64, 0.0) {
            return None;
        }
        let (x, y) = (w[0] as f64, w[1] as f64);
        let xyz = [(x / y) as f32, 1.0, ((1.0 - x - y) / y) as f32];
        Some(apply(&VK, xyz))
    };
    let (c1, c2) = (cone(w1)?, cone(w2)?);
    if c1.iter().any(|v| ceq(*v as f64, 0.0)) {
        return None;
    }
    let mut d = [[0f32; 3]; 3];
    for k in 0..3 {
        d[k][k] = c2[k] / c1[k];
    }
    Some(then(&then(&VK, &d), &IVK))
}

/// RADIANCE's lower gamut clip in single precision: a colour with a negative channel moved
/// towards the grey of its brightness.
fn clip_lower(c: [f32; 3]) -> [f32; 3] {
    let brt = daylit_image::color::brightness(c);
    if brt < 0.0 {
        return [0.0; 3];
    }
    let mut t = 1.0f64;
    for &v in &c {
        if (v as f64) < 0.0 {
            t = t.min(-brt / (v as f64 - brt));
        }
    }
    if t < 1.0 {
        c.map(|v| (t * v as f64 + (1.0 - t) * brt) as f32)
    } else {
        c
    }
}

/// Runs ra_xyze with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let (mut rgbout, mut flat, mut original) = (false, None, false);
    let mut outprims = STD_PRIMS;
    let mut expcomp = 1.0f64;
    let mut i = 0;
    let atof = daylit_radfile::scan::atof;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        match a.as_bytes().get(1) {
            Some(b'c') => flat = Some(false),
            Some(b'u') => flat = Some(true),
            Some(b'r') => rgbout = true,
            Some(b'o') => original = true,
            Some(b'p') => {
                if i + 8 >= args.len() {
                    bail!("{USAGE}");
                }
                for k in 0..8 {
                    outprims[k / 2][k % 2] = atof(&args[i + 1 + k]) as f32;
                }
                i += 8;
            }
            Some(b'e') => {
                let v = args
                    .get(i + 1)
                    .with_context(|| format!("-e needs a value\n{USAGE}"))?;
                expcomp = atof(v);
                if v.starts_with(['+', '-']) {
                    expcomp = 2f64.powf(expcomp);
                }
                i += 1;
            }
            _ => bail!("bad option {a}\n{USAGE}"),
        }
        i += 1;
    }
    let flat = flat.unwrap_or(!rgbout);
    let rest = &args[i..];
    if rest.len() > 2 {
        bail!("{USAGE}");
    }
    let (name, bytes) =
        crate::input::read_operand("ra_xyze", rest.first().map_or("-", String::as_str))?;

    // The header: kept as it is but for the format, primaries and (with -o) exposure lines.
    let (mut xyz_in, mut known) = (false, false);
    let mut inprims = STD_PRIMS;
    let mut origexp = 1.0f64;
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|k| pos + k + 1)
            .with_context(|| format!("{name}: the header does not end"))?;
        let line = &bytes[pos..end];
        pos = end;
        let text = String::from_utf8_lossy(line);
        let t = text.trim_end();
        if t.is_empty() {
            break;
        }
        if let Some(f) = t.strip_prefix("FORMAT=") {
            let f = f.trim();
            xyz_in = f == "32-bit_rle_xyze";
            known = xyz_in || f == "32-bit_rle_rgbe";
            if f.contains("spec") || f.contains("Spectral") {
                bail!("{name}: hyperspectral pictures are not read by daylit's ra_xyze");
            }
        } else if original && t.starts_with("EXPOSURE=") {
            origexp *= atof(&t["EXPOSURE=".len()..]);
        } else if let Some(p) = t.strip_prefix("PRIMARIES=") {
            let v: Vec<f32> = p.split_whitespace().map(|w| atof(w) as f32).collect();
            if v.len() >= 8 {
                inprims = std::array::from_fn(|k| [v[2 * k], v[2 * k + 1]]);
            }
        } else if t.starts_with("NCOMP=") || t.starts_with("WAVELENGTH_SPLITS=") {
            bail!("{name}: hyperspectral pictures are not read by daylit's ra_xyze");
        } else {
            out.extend_from_slice(line);
        }
    }
    if !known {
        bail!("{name}: unrecognized/missing input file format");
    }
    let argv0 = std::env::args()
        .next()
        .filter(|a| a.rsplit('/').next() == Some("ra_xyze"))
        .unwrap_or_else(|| "ra_xyze".into());
    out.extend_from_slice(daylit_radfile::header::command_line(&argv0, args).as_bytes());
    out.push(b'\n');

    let mut exp2do = expcomp;
    let mut exp2report = expcomp;
    if original {
        exp2do /= origexp;
    }
    let bad = || anyhow::anyhow!("ra_xyze: bad primaries");
    let mut m = if rgbout {
        let to_rgb = xyz_to_rgb(&outprims).ok_or_else(bad)?;
        if xyz_in {
            if original {
                exp2do /= WHTEFFICACY;
            } else {
                exp2report *= WHTEFFICACY;
            }
            if xyeq(outprims[3], NEUTRAL) {
                to_rgb
            } else {
                then(
                    &white_balance(NEUTRAL, outprims[3]).ok_or_else(bad)?,
                    &to_rgb,
                )
            }
        } else {
            let to_xyz = rgb_to_xyz(&inprims).ok_or_else(bad)?;
            let wb = white_balance(inprims[3], outprims[3]).ok_or_else(bad)?;
            then(&then(&to_xyz, &wb), &to_rgb)
        }
    } else if xyz_in {
        identity()
    } else {
        if original {
            exp2do *= WHTEFFICACY;
        } else {
            exp2report /= WHTEFFICACY;
        }
        let to_xyz = rgb_to_xyz(&inprims).ok_or_else(bad)?;
        if xyeq(inprims[3], NEUTRAL) {
            to_xyz
        } else {
            then(
                &to_xyz,
                &white_balance(inprims[3], NEUTRAL).ok_or_else(bad)?,
            )
        }
    };
    for row in &mut m {
        for v in row.iter_mut() {
            *v = (*v as f64 * exp2do) as f32;
        }
    }
    let raw = read_raw_pixels(&bytes, pos, &name)?;
    if !(0.99..=1.01).contains(&exp2report) {
        out.extend_from_slice(
            format!("EXPOSURE={}\n", crate::pfilt::format_e4(exp2report)).as_bytes(),
        );
    }
    if rgbout {
        let p = outprims
            .as_flattened()
            .iter()
            .map(|v| format!("{v:.4}"))
            .collect::<Vec<_>>();
        out.extend_from_slice(format!("PRIMARIES= {}\n", p.join(" ")).as_bytes());
        out.extend_from_slice(b"FORMAT=32-bit_rle_rgbe\n");
    } else {
        out.extend_from_slice(b"FORMAT=32-bit_rle_xyze\n");
    }
    out.push(b'\n');
    // The resolution line as RADIANCE writes it: the sizes in eight columns.
    let w: Vec<&str> = raw.resolution.split_whitespace().collect();
    if let [a, m, b, n] = w[..] {
        out.extend_from_slice(format!("{a} {m:>8} {b} {n:>8}\n").as_bytes());
    }
    for scan in &raw.scans {
        let line: Vec<[u8; 4]> = scan
            .iter()
            .map(|&q| {
                let c = apply(&m, rgbe_to_float(q));
                float_to_rgbe(if rgbout { clip_lower(c) } else { c })
            })
            .collect();
        write_scanline(&line, !flat, &mut out);
    }
    match rest.get(1) {
        Some(p) => crate::output::write_atomic(std::path::Path::new(p), &out)?,
        None => crate::output::print_bytes([out.as_slice()])?,
    }
    Ok(ExitCode::SUCCESS)
}
