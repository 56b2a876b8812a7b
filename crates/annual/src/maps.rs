//! False-colour plan-view maps of per-sensor values, as PNG.
//!
//! Looking down: x to the right, y up, equal scale on both axes. A sensor made on a grid is
//! drawn as its grid cell; any other sensor as a square whose side is the median distance
//! (in plan) from a sensor to its nearest neighbour. Colours run along a viridis-like scale
//! from [`MapSpec::range`]'s low end (dark blue) to its high end (yellow), values outside
//! the range clamped; a colour bar with numbers sits on the right. Palette, text (a DejaVu
//! Sans subset compiled into the binary, so no system font is needed) and the colour bar come
//! from `daylit-falsecolor`, shared with `daylit falsecolor`.

use crate::metrics::AnnualMetrics;
use crate::report::{check_count, write_atomic, ReportError};
use crate::sensors::{Sensor, SensorSet, DEFAULT_SPACING};
use daylit_falsecolor::legend::{ColourScale, LabelStyle};
use daylit_falsecolor::raster::insert_png_text;
use daylit_falsecolor::{Palette, Raster};
use daylit_radfile::provenance::Provenance;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Width of every map, pixels.
pub const MAP_WIDTH: u32 = 1000;
/// Height of every map, pixels.
pub const MAP_HEIGHT: u32 = 760;

/// Width of the legend strip on the right, pixels.
const LEGEND_WIDTH: u32 = 170;

/// What one map shows.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSpec {
    /// Title drawn above the plan.
    pub title: String,
    /// Heading of the colour bar (the unit), e.g. `"%"` or `"lux"`.
    pub unit: String,
    /// Values mapped to the two ends of the colour scale.
    pub range: (f64, f64),
    /// Label numbers as percentages (values are fractions 0..1).
    pub percent: bool,
}

/// The colour of position `t` (0..1, clamped) along the scale: viridis.
pub fn colour(t: f64) -> [u8; 3] {
    Palette::Viridis.display8(t)
}

/// The plan-view outline (x, y) of every sensor.
fn footprints(sensors: &SensorSet) -> Vec<[(f64, f64); 4]> {
    let side = nearest_neighbour_median(&sensors.sensors).unwrap_or(DEFAULT_SPACING);
    let h = side / 2.0;
    sensors
        .sensors
        .iter()
        .map(
            |s| match s.cell.and_then(|c| Some((sensors.grids.get(c.grid)?, c))) {
                Some((g, c)) => g.cell_corners(c.i, c.j).map(|p| (p[0], p[1])),
                None => {
                    let [x, y, _] = s.position;
                    [
                        (x - h, y - h),
                        (x + h, y - h),
                        (x + h, y + h),
                        (x - h, y + h),
                    ]
                }
            },
        )
        .collect()
}

/// Median over sensors of the plan distance to the nearest other sensor; `None` when it is
/// not positive (a single sensor, or all at one spot).
fn nearest_neighbour_median(sensors: &[Sensor]) -> Option<f64> {
    let mut pts: Vec<(f64, f64)> = sensors
        .iter()
        .map(|s| (s.position[0], s.position[1]))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Sweep outward in x order, stopping once the x gap alone exceeds the best distance.
    let mut nn: Vec<f64> = (0..pts.len())
        .map(|i| {
            let mut best = f64::INFINITY;
            for j in (0..i).rev() {
                let dx = pts[i].0 - pts[j].0;
                if dx > best {
                    break;
                }
                best = best.min(dx.hypot(pts[i].1 - pts[j].1));
            }
            for p in &pts[i + 1..] {
                let dx = p.0 - pts[i].0;
                if dx > best {
                    break;
                }
                best = best.min(dx.hypot(p.1 - pts[i].1));
            }
            best
        })
        .collect();
    nn.sort_by(f64::total_cmp);
    let m = nn[nn.len() / 2];
    (m > 0.0 && m.is_finite()).then_some(m)
}

/// Draws one map and returns the PNG file's bytes (`MAP_WIDTH × MAP_HEIGHT`, RGB).
pub fn map_png(
    sensors: &SensorSet,
    values: &[f64],
    spec: &MapSpec,
) -> Result<Vec<u8>, ReportError> {
    if values.len() != sensors.len() {
        return Err(ReportError::Mismatch(format!(
            "{} sensors but {} values for map '{}'",
            sensors.len(),
            values.len(),
            spec.title
        )));
    }
    let err = |e: String| ReportError::Draw {
        title: spec.title.clone(),
        message: e,
    };
    let mut r = Raster::new(MAP_WIDTH as usize, MAP_HEIGHT as usize, [255u8; 3]);
    draw(&mut r, sensors, values, spec).map_err(err)?;
    r.png().map_err(|e| err(e.to_string()))
}

/// Whether a quadrilateral's pixel corners form an axis-aligned rectangle.
fn axis_aligned(p: &[(i32, i32)]) -> bool {
    p.len() == 4
        && (0..4).all(|k| {
            let (a, b) = (p[k], p[(k + 1) % 4]);
            a.0 == b.0 || a.1 == b.1
        })
}

fn min_max(it: impl Iterator<Item = i32>) -> (i32, i32) {
    it.fold((i32::MAX, i32::MIN), |(a, b), v| (a.min(v), b.max(v)))
}

/// A tick step of 1, 2, 2.5 or 5 × a power of ten giving at most about `n` ticks over `span`.
fn tick_step(span: f64, n: f64) -> f64 {
    nice_ceil(span / n)
}

fn draw(
    cv: &mut Raster<[u8; 3]>,
    sensors: &SensorSet,
    values: &[f64],
    spec: &MapSpec,
) -> Result<(), String> {
    let (w, h) = (MAP_WIDTH as i32, MAP_HEIGHT as i32);
    // The plan's frame, pixels.
    let (fx0, fx1, fy0, fy1) = (80, w - LEGEND_WIDTH as i32 - 20, 60, h - 70);

    // Metres to pixels: equal scale on both axes, the plan centred in its frame.
    let shapes = footprints(sensors);
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in shapes.iter().flatten() {
        x0 = x0.min(p.0);
        x1 = x1.max(p.0);
        y0 = y0.min(p.1);
        y1 = y1.max(p.1);
    }
    let pad = 0.04 * (x1 - x0).max(y1 - y0).max(1e-6);
    let (aw, ah) = ((fx1 - fx0) as f64, (fy1 - fy0) as f64);
    let per_px = ((x1 - x0 + 2.0 * pad) / aw).max((y1 - y0 + 2.0 * pad) / ah);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (vx0, vy0) = (cx - per_px * aw / 2.0, cy - per_px * ah / 2.0);
    let to_px = |x: f64, y: f64| {
        (
            fx0 + ((x - vx0) / per_px).round() as i32,
            fy1 - ((y - vy0) / per_px).round() as i32,
        )
    };

    let (lo, hi) = spec.range;
    let span = if hi > lo { hi - lo } else { 1.0 };
    {
        let root =
            BitMapBackend::with_buffer(cv.bytes_mut(), (MAP_WIDTH, MAP_HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|x| x.to_string())?;
        for (shape, &v) in shapes.iter().zip(values) {
            let pts: Vec<(i32, i32)> = shape.iter().map(|p| to_px(p.0, p.1)).collect();
            if axis_aligned(&pts) {
                continue; // filled below, edge to edge
            }
            let c = colour((v - lo) / span);
            root.draw(&Polygon::new(pts, RGBColor(c[0], c[1], c[2]).filled()))
                .map_err(|x| x.to_string())?;
        }
        root.present().map_err(|x| x.to_string())?;
    }

    // Axis-aligned cells as half-open pixel rectangles, so neighbours tile without gaps.
    for (shape, &v) in shapes.iter().zip(values) {
        let pts: Vec<(i32, i32)> = shape.iter().map(|p| to_px(p.0, p.1)).collect();
        if axis_aligned(&pts) {
            let (xa, xb) = min_max(pts.iter().map(|p| p.0));
            let (ya, yb) = min_max(pts.iter().map(|p| p.1));
            if xb > xa && yb > ya {
                cv.rect(xa, ya, xb - 1, yb - 1, colour((v - lo) / span));
            }
        }
    }
    const BLACK_: [u8; 3] = [0; 3];
    cv.text(&spec.title, 24.0, w as f32 / 2.0, 28.0, 0.5, BLACK_);
    // Frame and ticks in metres.
    cv.rect(fx0, fy0, fx1, fy0, BLACK_);
    cv.rect(fx0, fy1, fx1, fy1, BLACK_);
    cv.rect(fx0, fy0, fx0, fy1, BLACK_);
    cv.rect(fx1, fy0, fx1, fy1, BLACK_);
    let step = tick_step(per_px * aw.max(ah), 8.0);
    // Fewest decimals that write the step exactly (0.25 → 2, 0.5 → 1, 2 → 0).
    let decimals = (0..6)
        .find(|&d| {
            let x = step * 10f64.powi(d);
            (x - x.round()).abs() < 1e-6 * x.max(1.0)
        })
        .unwrap_or(6) as usize;
    let label = |v: f64| {
        format!(
            "{:.*}",
            decimals,
            if v.abs() < step * 1e-9 { 0.0 } else { v }
        )
    };
    let mut t = (vx0 / step).ceil() * step;
    while t <= vx0 + per_px * aw + 1e-9 {
        let (px, _) = to_px(t, vy0);
        cv.rect(px, fy1, px, fy1 + 5, BLACK_);
        cv.text(&label(t), 13.0, px as f32, (fy1 + 16) as f32, 0.5, BLACK_);
        t += step;
    }
    let mut t = (vy0 / step).ceil() * step;
    while t <= vy0 + per_px * ah + 1e-9 {
        let (_, py) = to_px(vx0, t);
        cv.rect(fx0 - 5, py, fx0, py, BLACK_);
        cv.text(&label(t), 13.0, (fx0 - 8) as f32, py as f32, 1.0, BLACK_);
        t += step;
    }
    cv.text(
        "x (m)",
        14.0,
        ((fx0 + fx1) / 2) as f32,
        (fy1 + 38) as f32,
        0.5,
        BLACK_,
    );
    cv.text(
        "y (m)",
        14.0,
        (fx0 - 8) as f32,
        (fy0 - 14) as f32,
        1.0,
        BLACK_,
    );

    // Colour bar: the top row is exactly the high end, the bottom row the low end.
    let (bx0, bx1) = (fx1 + 45, fx1 + 73);
    let (by0, by1) = (fy0 + 20, fy1);
    let rows = by1 - by0;
    let fill = |y: i32| colour(1.0 - (y - by0) as f64 / rows as f64);
    const TICKS: i32 = 5;
    ColourScale {
        columns: (bx0, bx1),
        rows: (by0, by1),
        fill: &fill,
        title: Some((spec.unit.clone(), (by0 - 20) as f32)),
        labels: (0..=TICKS)
            .map(|k| {
                let v = lo + (hi - lo) * k as f64 / TICKS as f64;
                let y = by1 - rows * k / TICKS;
                (tick_label(v, hi - lo, spec.percent), y as f32)
            })
            .collect(),
        text_size: 14.0,
        style: LabelStyle::Beside {
            ink: BLACK_,
            tick: 6,
        },
    }
    .draw(cv);
    Ok(())
}

fn tick_label(v: f64, span: f64, percent: bool) -> String {
    if percent {
        format!("{:.0}", v * 100.0)
    } else if span >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The smallest of 1, 2, 2.5, 5 × a power of ten that is ≥ `x` (1 for `x ≤ 0`).
fn nice_ceil(x: f64) -> f64 {
    if !(x > 0.0 && x.is_finite()) {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&c| c >= x * (1.0 - 1e-12))
        .unwrap_or(10.0 * p)
}

/// Writes the standard maps into `dir` (created if missing) and returns their paths:
/// `DA<t>.png` (DA at the main threshold), `UDI.png` (in-band UDI-a), `mean_lux.png` and,
/// with direct-sun input, `ASE_hours.png`. Each file is written atomically.
pub fn write_maps(
    dir: &Path,
    sensors: &SensorSet,
    m: &AnnualMetrics,
) -> Result<Vec<PathBuf>, ReportError> {
    write_maps_with(dir, sensors, m, None)
}

/// [`write_maps`], each PNG carrying text chunks that say how it was made
/// ([`Provenance::png_text`]) when `provenance` is given.
pub fn write_maps_with(
    dir: &Path,
    sensors: &SensorSet,
    m: &AnnualMetrics,
    provenance: Option<&Provenance>,
) -> Result<Vec<PathBuf>, ReportError> {
    let text = provenance.map(Provenance::png_text).unwrap_or_default();
    check_count(sensors, m)?;
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let o = &m.options;
    let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    let mut maps: Vec<(String, Vec<f64>, MapSpec)> = vec![
        (
            format!("DA{}.png", o.da_threshold),
            m.da.clone(),
            MapSpec {
                title: format!(
                    "Daylight autonomy DA{} ({} occupied hours)",
                    o.da_threshold, m.occupied_hours
                ),
                unit: "% of hours".into(),
                range: (0.0, 1.0),
                percent: true,
            },
        ),
        (
            "UDI.png".into(),
            m.udi_a.clone(),
            MapSpec {
                title: format!(
                    "Useful daylight illuminance {}–{} lux",
                    o.udi_lower, o.udi_upper
                ),
                unit: "% of hours".into(),
                range: (0.0, 1.0),
                percent: true,
            },
        ),
        (
            "mean_lux.png".into(),
            m.mean_lux.clone(),
            MapSpec {
                title: "Mean illuminance over occupied hours".into(),
                unit: "lux".into(),
                range: (0.0, nice_ceil(max(&m.mean_lux))),
                percent: false,
            },
        ),
    ];
    if let Some(h) = &m.ase_hours {
        let v: Vec<f64> = h.iter().map(|&x| x as f64).collect();
        let top = nice_ceil(max(&v).max(o.ase_hours as f64));
        maps.push((
            "ASE_hours.png".into(),
            v,
            MapSpec {
                title: format!("Hours of direct sun ≥ {} lux (ASE)", o.ase_threshold),
                unit: "hours".into(),
                range: (0.0, top),
                percent: false,
            },
        ));
    }
    let mut written = Vec::new();
    for (name, values, spec) in maps {
        let path = dir.join(name);
        let png = insert_png_text(&map_png(sensors, &values, &spec)?, &text).map_err(|e| {
            ReportError::Draw {
                title: spec.title.clone(),
                message: e.to_string(),
            }
        })?;
        write_atomic(&path, &png)?;
        written.push(path);
    }
    Ok(written)
}
