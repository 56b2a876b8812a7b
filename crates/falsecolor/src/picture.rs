//! False-colour pictures as RADIANCE's `falsecolor` makes them.
//!
//! **Values.** A pixel's value is `mult × (0.265106 R + 0.670106 G + 0.064788 B) / exposure`
//! (RADIANCE's luminance coefficients for its default primaries; `mult` = 179 gives cd/m²).
//! Its position on the scale is `v = value / scale`, or with `decades` > 0 (logarithmic)
//! `v = log10(value / scale) / decades + 1`, and 0 for values at or below
//! `scale · 10^-decades`. The palette colours `v` (clamped to 0..1).
//!
//! **Contours**, with `n` divisions: *lines* colour a pixel when `v` lies in
//! `[1/2n, 1 + 1/2n)` and its left and right (or upper and lower) neighbours fall in different
//! divisions `floor(n·v)` — the pixels along each boundary `k/n`, k = 1..n; *bands* colour it
//! when the fractional part of `n·v` is below 0.1 or above 0.9; other pixels show the
//! background (black, or the `background` picture). Lines and bands take the colour of
//! `(v − 1/n)·n/(n − 1)`, so the first boundary gets the bottom colour and the last the top.
//! *Posterize* colours every pixel with the division's `(floor(n·v) − 1/2)/(n − 1)`.
//! *Off* (`-c0`) shows only the background picture.
//!
//! **Layout.** As falsecolor composes it: the legend, `legend_width` pixels wide, on the left
//! and the picture on its right, both standing on the bottom edge; the result is as tall as
//! the taller. The legend is a colour strip (the scale, with the same contour treatment) with
//! `n` numbers (plus 0 or the log-scale floor when not drawing contours) centred on their
//! values, and the label above them, in white over a black shadow. Legends narrower than 21 or
//! lower than 41 pixels are left out. Numbers are printed as Perl prints them (up to 15
//! significant digits) with the decimals cut, not rounded, to `digits`.

use crate::legend::{ColourScale, LabelStyle};
use crate::palette::{Palette, PALETTES};
use crate::raster::Raster;
use daylit_image::hdr::{float_to_rgbe, rgbe_to_float};
use daylit_image::HdrImage;

/// RADIANCE's luminous coefficients of R, G and B: the Y row of its RGB-to-XYZ matrix for its
/// nominal primaries (0.640, 0.330), (0.290, 0.600), (0.150, 0.060) and equal-energy white, as
/// `bright()` computes them (its header's comment quotes older values, 0.265074126 …).
pub const LUMINANCE_RGB: [f64; 3] = daylit_image::filter::BRIGHT_RGB;

/// Top of the scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// A fixed value (in the units of `mult`, cd/m² by default).
    Value(f64),
    /// The picture's maximum, found as falsecolor finds it (see [`auto_scale`]).
    Auto,
}

/// How values are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contour {
    /// Every pixel in false colour (the default).
    None,
    /// Contour lines at the division boundaries (`-cl`).
    Lines,
    /// Contour bands around the boundaries (`-cb`).
    Bands,
    /// One flat colour per division (`-cp`).
    Posterize,
    /// No false colour, no legend: the background picture alone (`-c0`), with extrema.
    Off,
}

/// falsecolor's options, with its defaults from [`Default`].
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub scale: Scale,
    /// Multiplier from radiance to the legend's unit (179: cd/m² or lux).
    pub mult: f64,
    /// Number of divisions (legend entries, contours).
    pub ndivs: usize,
    /// Legend title.
    pub label: String,
    /// Decades below the top of a logarithmic scale; 0 for a linear scale.
    pub decades: f64,
    pub contour: Contour,
    /// Legend size, pixels (0 for none).
    pub legend_width: usize,
    pub legend_height: usize,
    pub palette: Palette,
    /// Most decimals printed in the legend (cut, not rounded); 0 or less prints none.
    pub digits: i32,
    /// Print the lowest and highest values at their pixels (`-e`).
    pub extrema: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            scale: Scale::Value(1000.0),
            mult: 179.0,
            ndivs: 8,
            label: "cd/m2".into(),
            decades: 0.0,
            contour: Contour::None,
            legend_width: 100,
            legend_height: 200,
            palette: Palette::Def,
            digits: 3,
            extrema: false,
        }
    }
}

/// What is wrong with a false-colour request.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FalseColourError {
    #[error("{0}")]
    BadOption(String),
    #[error("the background picture is {bw}x{bh} but the input is {w}x{h}: they must match")]
    BackgroundSize {
        w: usize,
        h: usize,
        bw: usize,
        bh: usize,
    },
    #[error("an automatic scale needs a picture with some positive value, and this one has none")]
    NothingToScale,
}

/// A finished false-colour picture.
#[derive(Debug, Clone)]
pub struct FalseColour {
    /// Linear RGB, legend included.
    pub image: Raster<[f32; 3]>,
    /// The top of the scale used (the resolved automatic scale).
    pub scale: f64,
    /// The legend's numbers, top first (empty without a legend).
    pub labels: Vec<String>,
    /// Column and row of the picture's top-left pixel within `image`.
    pub picture_at: (usize, usize),
}

impl FalseColour {
    /// The picture as RADIANCE HDR, with `header` lines (e.g. the command line).
    pub fn to_hdr(&self, header: Vec<String>) -> HdrImage {
        self.image.to_hdr(header)
    }

    /// The picture as an 8-bit PNG file, shown through a 2.2 gamma as RADIANCE's converters do.
    pub fn to_png(&self) -> Result<Vec<u8>, png::EncodingError> {
        self.image.to_display().png()
    }
}

/// Luminance-weighted value of a pixel in the units of `mult`, exposure undone.
fn value(p: [f32; 3], mult: f64, exposure: f64) -> f64 {
    let b: f64 = (0..3).map(|k| LUMINANCE_RGB[k] * p[k] as f64).sum();
    b * (mult / exposure)
}

/// The scale falsecolor finds with `-s auto`: the maximum "foveal" value (the picture box
/// filtered to fit 128 × 128 as `pfilt -1 -x 128 -y 128 -p 1` does, stored as RGBE), placed
/// in the second-highest of 777 logarithmic histogram bins between the minimum and maximum
/// (widened by 0.01 decade each way) as `phisto` makes them, and that bin's centre taken.
pub fn auto_scale(img: &HdrImage, mult: f64) -> Result<f64, FalseColourError> {
    let (w, h) = (img.width, img.height);
    if w == 0 || h == 0 {
        return Err(FalseColourError::NothingToScale);
    }
    // pfilt's output size: fit 128 × 128 keeping square pixels.
    let (mut nc, mut nr) = (128usize, 128usize);
    let d = h as f64 / w as f64;
    if d * nc as f64 > nr as f64 {
        nc = (nr as f64 / d) as usize;
    } else {
        nr = (nc as f64 * d) as usize;
    }
    let (nc, nr) = (nc.max(1), nr.max(1));
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for r in 0..nr {
        let rows = box_range(r, h, nr);
        for c in 0..nc {
            let cols = box_range(c, w, nc);
            let (mut sum, mut n) = ([0f64; 3], 0u32);
            for y in rows.clone() {
                for x in cols.clone() {
                    let p = img.get(x, y);
                    for (s, v) in sum.iter_mut().zip(p) {
                        *s += v as f64;
                    }
                    n += 1;
                }
            }
            if n == 0 {
                continue;
            }
            let avg = sum.map(|s| (s / n as f64) as f32);
            let stored = rgbe_to_float(float_to_rgbe(avg));
            let l = value(stored, 179.0, img.exposure);
            lo = lo.min(l);
            hi = hi.max(l);
        }
    }
    if !(hi > 0.0 && hi.is_finite()) {
        return Err(FalseColourError::NothingToScale);
    }
    let lmin = if lo > 1e-7 { lo.log10() - 0.01 } else { -7.0 };
    let lmax = hi.log10() + 0.01;
    let centre = lmin + (lmax - lmin) * 775.5 / 777.0;
    // histo prints the bin centre with six significant digits.
    let centre: f64 = format!("{centre:.5e}").parse().unwrap_or(centre);
    Ok(mult / 179.0 * 10f64.powf(centre))
}

/// The input samples (of `n`) that pfilt's box filter averages into output sample `o` (of
/// `m`) along one axis: those within half an output pixel of its centre, searched around
/// the nearest input sample.
fn box_range(o: usize, n: usize, m: usize) -> std::ops::Range<usize> {
    let ratio = m as f64 / n as f64;
    let centre = ((o as f64 + 0.5) * n as f64 / m as f64) as i64;
    let radius = (n / m / 2 + 1) as i64;
    let inside = |i: i64| {
        let d = if ratio < 1.0 {
            ratio * i as f64 - (o as f64 + 0.5)
        } else {
            (i - centre) as f64
        };
        (0..n as i64).contains(&i) && (-0.5..0.5).contains(&d)
    };
    // The offset grows with i, so the samples inside are consecutive.
    let mut ins = (centre + 1 - radius..=centre + radius).filter(|&i| inside(i));
    match ins.next() {
        Some(first) => first as usize..ins.next_back().unwrap_or(first) as usize + 1,
        None => 0..0,
    }
}

/// A number as Perl prints it (`%.15g`), then its decimals cut to `digits` as falsecolor's
/// legend does (all of them, with the point, for `digits` ≤ 0).
pub fn legend_number(x: f64, digits: i32) -> String {
    let s = perl_number(x);
    let Some(dot) = s.find('.') else {
        return s;
    };
    let frac_end = s[dot + 1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |k| dot + 1 + k);
    if digits <= 0 {
        format!("{}{}", &s[..dot], &s[frac_end..])
    } else {
        let keep = (dot + 1 + digits as usize).min(frac_end);
        if frac_end - (dot + 1) < digits as usize {
            return s;
        }
        format!("{}{}", &s[..keep], &s[frac_end..])
    }
}

/// C's `%.15g`, which Perl uses to print numbers.
fn perl_number(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let e = format!("{x:.14e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if !(-4..15).contains(&exp) {
        format!(
            "{}e{}{:02}",
            trim(mant.to_string()),
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    } else {
        trim(format!("{x:.*}", (14 - exp) as usize))
    }
}

/// The legend's numbers, top first: the scale at each division (and at the bottom, 0 or the
/// log floor, unless contours are drawn).
pub fn legend_values(o: &Options, scale: f64) -> Vec<f64> {
    let n = o.ndivs;
    let entries = n + usize::from(has_zero(o.contour));
    (0..entries)
        .map(|i| {
            let imap = (n as f64 - i as f64) / n as f64;
            if o.decades > 0.0 {
                scale * 10f64.powf((imap - 1.0) * o.decades)
            } else {
                scale * imap
            }
        })
        .collect()
}

/// Whether the legend has an entry for the bottom of the scale.
fn has_zero(c: Contour) -> bool {
    matches!(c, Contour::None | Contour::Off)
}

/// The per-pixel rules: scale position, contour test and colour.
struct Mapper {
    norm: f64,
    decades: f64,
    n: f64,
    contour: Contour,
    palette: Palette,
}

impl Mapper {
    /// Position on the scale of a value already divided by the scale.
    fn map(&self, x: f64) -> f64 {
        if self.decades > 0.0 {
            if x > 10f64.powf(-self.decades) {
                x.log10() / self.decades + 1.0
            } else {
                0.0
            }
        } else {
            x
        }
    }

    /// Position on the scale of a stored pixel value.
    fn v(&self, p: [f32; 3]) -> f64 {
        self.map(value(p, 1.0, 1.0) * self.norm)
    }

    fn division(&self, v: f64) -> f64 {
        (self.n * v).floor()
    }

    /// Whether a pixel at `v`, with neighbours left/right and above/below, is coloured.
    fn inside(&self, v: f64, lr: (f64, f64), ab: (f64, f64)) -> bool {
        let n = self.n;
        let in_range = v >= 1.0 / n / 2.0 && v < 1.0 + 1.0 / n / 2.0;
        match self.contour {
            Contour::None | Contour::Posterize => true,
            Contour::Off => false,
            Contour::Lines => {
                in_range
                    && (self.division(lr.0) != self.division(lr.1)
                        || self.division(ab.0) != self.division(ab.1))
            }
            Contour::Bands => {
                let f = n * v - (n * v).floor();
                in_range && !(0.1..=0.9).contains(&f)
            }
        }
    }

    /// The palette position a coloured pixel at `v` takes.
    fn colour(&self, v: f64) -> [f32; 3] {
        let n = self.n;
        let x = match self.contour {
            Contour::Lines | Contour::Bands => (v - 1.0 / n) * n / (n - 1.0),
            Contour::Posterize => (((v * n).floor() + 0.5) / n - 1.0 / n) * n / (n - 1.0),
            Contour::None | Contour::Off => v,
        };
        self.palette.linear(x).map(|c| c as f32)
    }
}

/// Legend geometry as falsecolor computes it (integer arithmetic as its script does).
struct LegendLayout {
    width: usize,
    /// Height of one division in the strip.
    sheight: i64,
    /// Text height.
    theight: i64,
    /// Height of the colour strip and where its bottom row stands (from the bottom, < 0).
    strip_rows: i64,
    strip_at: i64,
    /// Centre rows (from the bottom) of the title and of each number.
    title_centre: i64,
    centres: Vec<i64>,
}

impl LegendLayout {
    fn new(o: &Options) -> Option<LegendLayout> {
        let (lw, lh) = (o.legend_width as f64, o.legend_height as f64);
        if o.contour == Contour::Off || lw <= 20.0 || lh <= 40.0 {
            return None;
        }
        let n = o.ndivs as f64;
        let sheight = (lh / n) as i64;
        let theight = sheight.min((lw / (8.0 / 1.67)) as i64);
        let strip_rows = (sheight as f64 * n * (1.0 + 1.5 / n)) as i64;
        let entries = (o.ndivs + usize::from(has_zero(o.contour))) as i64;
        let centre = |k: i64| (sheight as f64 * k as f64 + sheight as f64 * 0.5) as i64;
        let strip_at = if has_zero(o.contour) {
            -((lh / n / 2.0) as i64)
        } else {
            -((lh / n * 1.5) as i64)
        };
        Some(LegendLayout {
            width: o.legend_width,
            sheight,
            theight,
            strip_rows,
            strip_at,
            title_centre: centre(entries),
            centres: (0..entries).map(|i| centre(entries - i - 1)).collect(),
        })
    }

    /// Height the legend needs: the strip's top, or the title's.
    fn height(&self) -> i64 {
        let title_top = self.title_centre - self.theight / 2 + self.theight;
        (self.strip_at + self.strip_rows).max(title_top)
    }
}

/// Makes the false-colour picture of `input` (over `background` where contours leave gaps).
pub fn false_colour(
    input: &HdrImage,
    background: Option<&HdrImage>,
    o: &Options,
) -> Result<FalseColour, FalseColourError> {
    let bad = |m: String| Err(FalseColourError::BadOption(m));
    let contours = !matches!(o.contour, Contour::None | Contour::Off);
    if o.ndivs < 1 || (contours && o.ndivs < 2) {
        return bad(format!(
            "the number of divisions must be at least {} (got {})",
            if contours { 2 } else { 1 },
            o.ndivs
        ));
    }
    if !(o.mult.is_finite() && o.mult > 0.0) {
        return bad(format!("the multiplier must be positive (got {})", o.mult));
    }
    if !(o.decades.is_finite() && o.decades >= 0.0) {
        return bad(format!(
            "the number of decades must be 0 or more (got {})",
            o.decades
        ));
    }
    if let Some(b) = background {
        if (b.width, b.height) != (input.width, input.height) {
            return Err(FalseColourError::BackgroundSize {
                w: input.width,
                h: input.height,
                bw: b.width,
                bh: b.height,
            });
        }
    }
    let scale = match o.scale {
        Scale::Value(s) if s.is_finite() && s > 0.0 => s,
        Scale::Value(s) => return bad(format!("the scale must be positive (got {s})")),
        Scale::Auto => auto_scale(input, o.mult)?,
    };
    let m = Mapper {
        norm: o.mult / scale / input.exposure,
        decades: o.decades,
        n: o.ndivs as f64,
        contour: o.contour,
        palette: o.palette,
    };

    // The false-colour picture itself.
    let (w, h) = (input.width, input.height);
    let vs: Vec<f64> = input.pixels.iter().map(|&p| m.v(p)).collect();
    let at = |x: usize, y: usize| vs[y * w + x];
    let mut pic = Raster::new(w, h, [0f32; 3]);
    for y in 0..h {
        for x in 0..w {
            let v = at(x, y);
            // Neighbours clamped at the edges, as pcomb reads them.
            let lr = (at(x.saturating_sub(1), y), at((x + 1).min(w - 1), y));
            let ab = (at(x, y.saturating_sub(1)), at(x, (y + 1).min(h - 1)));
            pic.pixels[y * w + x] = if m.inside(v, lr, ab) {
                m.colour(v)
            } else if let Some(b) = background {
                b.get(x, y)
            } else if o.contour == Contour::Off {
                input.get(x, y)
            } else {
                [0.0; 3]
            };
        }
    }
    if o.extrema {
        mark_extrema(&mut pic, input, o);
    }

    // The legend on its left, both standing on the bottom edge.
    let layout = LegendLayout::new(o);
    let (lw, lh) = layout
        .as_ref()
        .map_or((0, 0), |l| (l.width, l.height().max(0) as usize));
    let (out_w, out_h) = (lw + w, h.max(lh));
    let mut image = Raster::new(out_w, out_h, [0f32; 3]);
    let mut labels = Vec::new();
    if let Some(l) = &layout {
        labels = legend_values(o, scale)
            .into_iter()
            .map(|x| legend_number(x, o.digits))
            .collect();
        // From rows counted up from the bottom to rows counted down from the top.
        let top = |y: f64| out_h as f64 - 1.0 - y;
        // The middle of a text line centred (as pcompos centres it) on `c`.
        let text_mid = |c: i64| top((c - l.theight / 2) as f64 + (l.theight - 1) as f64 / 2.0);
        let d = l.strip_rows as f64 / (1.0 + 1.5 / m.n);
        let fill = |row: i32| {
            let ys = (out_h as i64 - 1 - row as i64 - l.strip_at) as f64;
            let sh = l.sheight as f64;
            let v = (ys + 0.5 - sh) / d;
            let (below, above) = ((ys - 0.5 - sh) / d, (ys + 1.5 - sh) / d);
            if m.inside(v, (v, v), (above, below)) {
                m.colour(v)
            } else {
                [0.0; 3]
            }
        };
        let strip_top = top((l.strip_at + l.strip_rows - 1) as f64) as i32;
        let strip_bottom = top(l.strip_at as f64) as i32;
        ColourScale {
            columns: (0, lw as i32 - 1),
            rows: (strip_top.max(0), strip_bottom.min(out_h as i32 - 1)),
            fill: &fill,
            title: Some((o.label.clone(), text_mid(l.title_centre) as f32)),
            labels: labels
                .iter()
                .zip(&l.centres)
                .map(|(t, &c)| (t.clone(), text_mid(c) as f32))
                .collect(),
            // psign's character cell: its digits fill about 0.65 of it, as DejaVu's do of
            // the font height.
            text_size: l.theight as f32,
            style: LabelStyle::Over {
                ink: [1.0; 3],
                shadow: [0.0; 3],
                offset: (2, 1),
            },
        }
        .draw(&mut image);
    }
    let picture_at = (lw, out_h - h);
    image.paste(&pic, picture_at.0 as i32, picture_at.1 as i32);
    Ok(FalseColour {
        image,
        scale,
        labels,
        picture_at,
    })
}

/// Every palette as `falsecolor -palettes` shows them: for each, a 256 × 30 strip running
/// from the bottom of the scale (left) to the top, then its name on a 20-pixel black row.
pub fn palettes_picture() -> Raster<[f32; 3]> {
    const STRIP: usize = 30;
    const NAME: usize = 20;
    let per = STRIP + NAME;
    let mut r = Raster::new(256, PALETTES.len() * per, [0f32; 3]);
    for (k, p) in PALETTES.into_iter().enumerate() {
        for x in 0..256 {
            let c = p.linear(x as f64 / 256.0).map(|c| c as f32);
            r.rect(x, (k * per) as i32, x, (k * per + STRIP - 1) as i32, c);
        }
        let mid = (k * per + STRIP) as f32 + (NAME - 1) as f32 / 2.0;
        r.text(p.name(), NAME as f32, 2.0, mid, 0.0, [1.0; 3]);
    }
    r
}

/// The pixels (column, row from the top) of the lowest and highest values as `pextrem` picks
/// them: by RGBE exponent first, then by an 8-bit luminance of the mantissas; the first found
/// wins, scanning from the top row and each row right to left. `None` for an empty picture.
pub fn extrema(img: &HdrImage) -> Option<((usize, usize), (usize, usize))> {
    let weights = LUMINANCE_RGB.map(|f| (f * 256.0 + 0.5) as u32);
    let key = |p: [f32; 3]| {
        let c = float_to_rgbe(p);
        let nb = (0..3).map(|k| weights[k] * c[k] as u32).sum::<u32>() >> 8;
        (c[3], nb)
    };
    let w = img.width;
    let order = (0..img.height).flat_map(|row| (0..w).rev().map(move |col| row * w + col));
    // (pixel index, key) of the lowest and the highest so far.
    type Found = (usize, (u8, u32));
    let mut best: Option<(Found, Found)> = None;
    for i in order {
        let k = key(img.pixels[i]);
        let (lo, hi) = best.get_or_insert(((i, k), (i, k)));
        if k < lo.1 {
            *lo = (i, k);
        }
        if k > hi.1 {
            *hi = (i, k);
        }
    }
    best.map(|((lo, _), (hi, _))| ((lo % w, lo / w), (hi % w, hi / w)))
}

/// Writes the lowest and highest values on their pixels (see [`extrema`]), black on white, as
/// falsecolor's `-e` does (its values weigh R, G, B by 0.27, 0.67, 0.06).
fn mark_extrema(pic: &mut Raster<[f32; 3]>, input: &HdrImage, o: &Options) {
    let Some((lo, hi)) = extrema(input) else {
        return;
    };
    const HEIGHT: f32 = 32.0;
    for (x, y) in [lo, hi] {
        let p = rgbe_to_float(float_to_rgbe(input.get(x, y)));
        let v = (0.27 * p[0] as f64 + 0.67 * p[1] as f64 + 0.06 * p[2] as f64) / input.exposure
            * o.mult;
        let t = legend_number(v, o.digits);
        let size = HEIGHT;
        let half = (crate::text::text_width(&t, size) / 2.0).ceil() as i32 + 2;
        let (x, y) = (x as i32, y as i32);
        let hh = HEIGHT as i32 / 2;
        pic.rect(x - half, y - hh, x + half, y + hh - 1, [1.0; 3]);
        pic.text(&t, size, x as f32, y as f32 - 0.5, 0.5, [0.0; 3]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luminance_coefficients_from_the_primaries() {
        let (xr, yr, xg, yg, xb, yb, w) = (0.640, 0.330, 0.290, 0.600, 0.150, 0.060, 1.0 / 3.0);
        let d = xr * (yg - yb) + xg * (yb - yr) + xb * (yr - yg);
        let cr = (w * (yg - yb) - w * (xg - xb) + xg * yb - xb * yg) / w;
        let cg = (w * (yb - yr) - w * (xb - xr) - xr * yb + xb * yr) / w;
        let cb = (w * (yr - yg) - w * (xr - xg) + xr * yg - xg * yr) / w;
        let want = [yr * cr / d, yg * cg / d, yb * cb / d];
        for k in 0..3 {
            assert!((LUMINANCE_RGB[k] - want[k]).abs() < 1e-15, "{k}");
        }
        assert!((LUMINANCE_RGB.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn numbers_as_the_legend_prints_them() {
        assert_eq!(legend_number(875.0, 3), "875");
        assert_eq!(legend_number(0.0, 3), "0");
        assert_eq!(legend_number(562.341325190349, 3), "562.341");
        assert_eq!(legend_number(562.341325190349, 0), "562");
        assert_eq!(legend_number(562.341325190349, 1), "562.3");
        assert_eq!(legend_number(12.5, 3), "12.5");
        assert_eq!(legend_number(0.1 + 0.2, 3), "0.3");
        assert_eq!(legend_number(0.0001234567, 3), "0.000");
        assert_eq!(legend_number(1.234567e-5, 3), "1.234e-05");
        assert_eq!(legend_number(1e20, 3), "1e+20");
        assert_eq!(legend_number(-2.75, 1), "-2.7");
    }

    #[test]
    fn legend_values_linear_and_log() {
        let o = Options::default();
        let v: Vec<String> = legend_values(&o, 1000.0)
            .into_iter()
            .map(|x| legend_number(x, 3))
            .collect();
        assert_eq!(
            v,
            ["1000", "875", "750", "625", "500", "375", "250", "125", "0"]
        );
        let o = Options {
            decades: 2.0,
            ndivs: 4,
            contour: Contour::Lines,
            ..Options::default()
        };
        let v: Vec<String> = legend_values(&o, 1000.0)
            .into_iter()
            .map(|x| legend_number(x, 3))
            .collect();
        assert_eq!(v, ["1000", "316.227", "100", "31.622"]);
    }

    /// A one-row picture whose pixel `i` has luminance `lum(i)` cd/m² (grey).
    fn row(n: usize, lum: impl Fn(usize) -> f64) -> HdrImage {
        let mut img = HdrImage::new(n, 1);
        for i in 0..n {
            let r = (lum(i) / 179.0) as f32;
            img.set(i, 0, [r; 3]);
        }
        img
    }

    fn no_legend(o: Options) -> Options {
        Options {
            legend_width: 0,
            ..o
        }
    }

    #[test]
    fn known_luminances_get_their_colours() {
        let lums = [0.0, 125.0, 500.0, 1000.0, 2000.0];
        let img = row(5, |i| lums[i]);
        let fc = false_colour(&img, None, &no_legend(Options::default())).unwrap();
        assert_eq!((fc.image.width, fc.image.height), (5, 1));
        // 500 cd/m² on the default 0..1000 scale: v = 0.5, the default palette's control
        // point 11 (0.2881156, 0.1725325, 0.09881395), give or take RADIANCE's 0.0454545 step.
        let mid = fc.image.pixels[2];
        let want = [0.2881156, 0.1725325, 0.09881395];
        for (got, want) in mid.iter().zip(want) {
            assert!((*got as f64 - want).abs() < 2e-5, "{mid:?}");
        }
        // 0 and anything above the scale: the end colours.
        assert_eq!(fc.image.pixels[0], [0.18848, 0.0009766, 0.2666]);
        assert_eq!(fc.image.pixels[3], [0.9863, 0.9707, 0.02539]);
        assert_eq!(fc.image.pixels[4], fc.image.pixels[3]);
        // A grey of 125 cd/m²: v = 0.125 (a grey's luminance is its value).
        let want = Palette::Def.linear(0.125);
        for (got, want) in fc.image.pixels[1].iter().zip(want) {
            assert!((*got as f64 - want).abs() < 1e-6);
        }
        // Log scale, 2 decades below 1000: 10 cd/m² and less at the bottom, 100 in the middle.
        let img = row(4, |i| [5.0, 10.0, 100.0, 1000.0][i]);
        let o = no_legend(Options {
            decades: 2.0,
            palette: Palette::Spec,
            ..Options::default()
        });
        let fc = false_colour(&img, None, &o).unwrap();
        let spec = |v: f64| Palette::Spec.linear(v).map(|c| c as f32);
        assert_eq!(fc.image.pixels[0], spec(0.0));
        assert_eq!(fc.image.pixels[1], spec(0.0));
        let p = fc.image.pixels[2];
        assert!(
            (0..3).all(|k| (p[k] - [0.2, 0.8, 0.0][k]).abs() < 1e-6),
            "{p:?}"
        );
        assert_eq!(fc.image.pixels[3], spec(1.0));
        // The multiplier: -m 17.9 shows a tenth of the value.
        let o = no_legend(Options {
            mult: 17.9,
            ..Options::default()
        });
        let fc = false_colour(&row(1, |_| 5000.0), None, &o).unwrap();
        assert_eq!(
            fc.image.pixels[0],
            Palette::Def.linear(0.5).map(|c| c as f32)
        );
    }

    #[test]
    fn contour_lines_sit_on_the_division_boundaries() {
        // 1 cd/m² per column from 0.5, scale 800, 8 divisions: boundaries at 100, 200, ...,
        // 800 cd/m², between columns 99 and 100, 199 and 200, ...
        let img = row(851, |i| i as f64 + 0.5);
        let o = no_legend(Options {
            scale: Scale::Value(800.0),
            contour: Contour::Lines,
            ..Options::default()
        });
        let fc = false_colour(&img, None, &o).unwrap();
        let lit: Vec<usize> = (0..851)
            .filter(|&i| fc.image.pixels[i] != [0.0; 3])
            .collect();
        let want: Vec<usize> = (1..=8).flat_map(|k| [100 * k - 1, 100 * k]).collect();
        assert_eq!(lit, want);
        // The first boundary takes the bottom colour, the last the top, the fourth 3/7 of the
        // way up (the default palette's control point 9 3/7, between 0.0617 and 0.1739 red).
        let def = |v: f64| Palette::Def.linear(v).map(|c| c as f32);
        let near = |a: [f32; 3], b: [f32; 3]| (0..3).all(|k| (a[k] - b[k]).abs() < 2e-3);
        assert!(near(fc.image.pixels[99], def(0.0)));
        assert!(near(fc.image.pixels[800], def(1.0)));
        let f = 22.0 * 3.0 / 7.0 - 9.0;
        let want = [
            0.06170773 + f * (0.1739422 - 0.06170773),
            0.3671876 + f * (0.2629843 - 0.3671876),
        ];
        let got = fc.image.pixels[400];
        assert!(
            (got[0] - want[0]).abs() < 5e-3 && (got[1] - want[1]).abs() < 5e-3,
            "{got:?}"
        );
        // Bands: the pixels within a tenth of a division of each boundary.
        let o = Options {
            contour: Contour::Bands,
            ..o
        };
        let fc = false_colour(&img, None, &o).unwrap();
        let lit: Vec<usize> = (0..851)
            .filter(|&i| fc.image.pixels[i] != [0.0; 3])
            .collect();
        let want: Vec<usize> = (1..=8)
            .flat_map(|k| (100 * k - 10)..=(100 * k + 9))
            .collect();
        assert_eq!(lit, want);
        // Posterize: one colour per division, flat.
        let o = Options {
            contour: Contour::Posterize,
            palette: Palette::Hot,
            ..o
        };
        let fc = false_colour(&img, None, &o).unwrap();
        let hot = |v: f64| Palette::Hot.linear(v).map(|c| c as f32);
        for k in 0..8 {
            let c = fc.image.pixels[100 * k + 50];
            assert!(
                (100 * k..100 * k + 100).all(|i| fc.image.pixels[i] == c),
                "{k}"
            );
            let want = hot((k as f64 - 0.5) / 7.0);
            assert_eq!(c, want, "{k}");
        }
    }

    #[test]
    fn layout_and_errors() {
        let img = row(30, |i| i as f64);
        // Default legend: 100 wide, 247 tall (the picture stands on the bottom edge).
        let fc = false_colour(&img, None, &Options::default()).unwrap();
        assert_eq!((fc.image.width, fc.image.height), (130, 247));
        assert_eq!(fc.picture_at, (100, 246));
        // Legend too small to read: none.
        let o = Options {
            legend_height: 40,
            ..Options::default()
        };
        let fc = false_colour(&img, None, &o).unwrap();
        assert_eq!(
            (fc.image.width, fc.image.height, fc.labels.len()),
            (30, 1, 0)
        );
        for (o, msg) in [
            (
                Options {
                    ndivs: 0,
                    ..Options::default()
                },
                "at least 1",
            ),
            (
                Options {
                    contour: Contour::Lines,
                    ndivs: 1,
                    ..Options::default()
                },
                "at least 2",
            ),
            (
                Options {
                    scale: Scale::Value(-1.0),
                    ..Options::default()
                },
                "scale must be positive",
            ),
            (
                Options {
                    mult: f64::NAN,
                    ..Options::default()
                },
                "multiplier",
            ),
            (
                Options {
                    decades: -1.0,
                    ..Options::default()
                },
                "decades",
            ),
        ] {
            let e = false_colour(&img, None, &o).unwrap_err().to_string();
            assert!(e.contains(msg), "{e}");
        }
        let e = false_colour(&img, Some(&row(3, |_| 1.0)), &Options::default()).unwrap_err();
        assert!(e.to_string().contains("must match"), "{e}");
        let o = Options {
            scale: Scale::Auto,
            ..Options::default()
        };
        assert_eq!(
            false_colour(&row(4, |_| 0.0), None, &o).unwrap_err(),
            FalseColourError::NothingToScale
        );
    }

    #[test]
    fn log_mapping_decades() {
        let m = Mapper {
            norm: 1.0,
            decades: 3.0,
            n: 6.0,
            contour: Contour::None,
            palette: Palette::Def,
        };
        assert_eq!(m.map(1.0), 1.0);
        assert!((m.map(0.1) - 2.0 / 3.0).abs() < 1e-15);
        assert!((m.map(0.01) - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(m.map(0.001), 0.0);
        assert_eq!(m.map(0.0), 0.0);
        assert!((m.map(10.0) - 4.0 / 3.0).abs() < 1e-15);
    }
}
