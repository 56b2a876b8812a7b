//! False-colour plan maps of per-sensor values, as PNG, with the room drawn in.
//!
//! Looking down: x to the right, y up, equal scale on both axes. A sensor made on a grid is
//! drawn as its grid cell; any other sensor as a square whose side is the median distance
//! (in plan) from a sensor to its nearest neighbour. Cells are clipped to the floor found under
//! the sensors, so a grid centred on a room does not spill through its walls.
//!
//! Colours are banded ([`Bands`]): each band one flat viridis colour, so "50–60 % of hours" or
//! "300–500 lux" can be read off the map; illuminance bands are logarithmic (1, 2, 3, 5 × 10^k
//! lux), so the back of a side-lit room is not one flat colour next to 20 000 lux at the
//! window. A metric's pass line (DA ≥ 50 % counts toward sDA; more than 250 h of direct sun
//! counts toward ASE) is drawn as a dashed white line between the cells on either side.
//!
//! Over the cells: the plan ([`crate::plan`]: walls as thick dark lines, glazing as a blue
//! double line, furniture as thin lines with a pale halo), and around it a north arrow, a scale bar in metres,
//! the title with the metric's summary and its pass/fail threshold, and the legend. Text comes
//! from the DejaVu Sans subset compiled into `daylit-falsecolor` (no system font is read); lines
//! and fills are antialiased by `tiny-skia`.

use crate::metrics::AnnualMetrics;
use crate::plan::{LineKind, Plan};
use crate::report::{check_count, write_atomic, ReportError};
use crate::sensors::{Sensor, SensorSet, DEFAULT_SPACING};
use daylit_falsecolor::legend::{ColourScale, LabelStyle};
use daylit_falsecolor::raster::insert_png_text;
use daylit_falsecolor::tiny_skia::{
    FillRule, LineCap, Mask, Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform,
};
use daylit_falsecolor::{Bands, Palette, Raster};
use daylit_radfile::provenance::Provenance;
use std::path::{Path, PathBuf};

/// Width of every map, pixels.
pub const MAP_WIDTH: u32 = 1000;
/// Height of every map, pixels.
pub const MAP_HEIGHT: u32 = 800;

/// The plan's frame, pixels: left, top, right, bottom.
const FRAME: (i32, i32, i32, i32) = (64, 84, 770, 744);
/// Left edge of the right-hand column (north arrow, legend, scale bar).
const COLUMN_X: i32 = 810;

/// sDA thresholds of LEED v4 (EQ credit Daylight, option 1), as fractions of the floor: 2
/// points from 55 %, 3 points from 75 %.
pub const SDA_LEED: (f64, f64) = (0.55, 0.75);
/// ASE limit of LEED v4 and IES LM-83: at most 10 % of the floor.
pub const ASE_LIMIT: f64 = 0.10;

const INK: [u8; 3] = [20, 20, 20];
const GREY: [u8; 3] = [110, 110, 110];
const PASS: [u8; 3] = [0, 110, 40];
const FAIL: [u8; 3] = [190, 20, 20];

/// What one map shows.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSpec {
    /// Title drawn above the plan.
    pub title: String,
    /// The second line: the metric's summary and its threshold (may be empty).
    pub subtitle: String,
    /// Whether the summary passes its threshold (green) or not (red); `None`: plain.
    pub verdict: Option<bool>,
    /// Heading of the legend (the unit), e.g. `"% of hours"` or `"lux"`.
    pub unit: String,
    /// The colour bands.
    pub bands: Bands,
    /// Label the band edges as percentages (values are fractions 0..1).
    pub percent: bool,
    /// A pass line: drawn between neighbouring grid cells on either side of this value, with
    /// its note in the legend.
    pub contour: Option<(f64, String)>,
    /// Per sensor: whether its cell is hatched as not settled by this run's Monte Carlo noise
    /// (within two standard errors of the pass line, [`crate::uncertainty::near_level`]);
    /// empty: none.
    pub uncertain: Vec<bool>,
}

/// The colour of position `t` (0..1, clamped) along the scale: viridis.
pub fn colour(t: f64) -> [u8; 3] {
    Palette::Viridis.display8(t)
}

/// The display colour of value `v` on `spec`'s bands.
pub fn band_colour(spec: &MapSpec, v: f64) -> [u8; 3] {
    spec.bands.colour(Palette::Viridis, v)
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

/// Draws one map and returns the PNG file's bytes (`MAP_WIDTH × MAP_HEIGHT`, RGB), with the
/// plan drawn in when one is given.
pub fn map_png(
    sensors: &SensorSet,
    values: &[f64],
    spec: &MapSpec,
    plan: Option<&Plan>,
) -> Result<Vec<u8>, ReportError> {
    if values.len() != sensors.len() {
        return Err(ReportError::Mismatch(format!(
            "{} sensors but {} values for map '{}'",
            sensors.len(),
            values.len(),
            spec.title
        )));
    }
    let mut r = Raster::new(MAP_WIDTH as usize, MAP_HEIGHT as usize, [255u8; 3]);
    draw(&mut r, sensors, values, spec, plan);
    r.png().map_err(|e| ReportError::Draw {
        title: spec.title.clone(),
        message: e.to_string(),
    })
}

/// Metres to pixels: equal scale on both axes, the sensors (and a margin for the walls
/// around them) centred in the frame.
#[derive(Clone, Copy)]
struct View {
    /// Metres per pixel.
    per_px: f64,
    /// Plan coordinates of the frame's bottom-left corner.
    x0: f64,
    y0: f64,
}

impl View {
    fn fit(shapes: &[[(f64, f64); 4]]) -> View {
        let (fx0, fy0, fx1, fy1) = FRAME;
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for p in shapes.iter().flatten() {
            x0 = x0.min(p.0);
            x1 = x1.max(p.0);
            y0 = y0.min(p.1);
            y1 = y1.max(p.1);
        }
        let pad = 0.3f64.max(0.06 * (x1 - x0).max(y1 - y0)).max(1e-6);
        let (aw, ah) = ((fx1 - fx0) as f64, (fy1 - fy0) as f64);
        let per_px = ((x1 - x0 + 2.0 * pad) / aw).max((y1 - y0 + 2.0 * pad) / ah);
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        View {
            per_px,
            x0: cx - per_px * aw / 2.0,
            y0: cy - per_px * ah / 2.0,
        }
    }

    fn px(&self, x: f64, y: f64) -> (f32, f32) {
        (
            (FRAME.0 as f64 + (x - self.x0) / self.per_px) as f32,
            (FRAME.3 as f64 - (y - self.y0) / self.per_px) as f32,
        )
    }
}

fn paint(c: [u8; 3], antialias: bool) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c[0], c[1], c[2], 255);
    p.anti_alias = antialias;
    p
}

fn stroke(width: f32) -> Stroke {
    Stroke {
        width,
        line_cap: LineCap::Round,
        ..Stroke::default()
    }
}

/// A mask of the frame, intersected with the floor outlines when there are any.
fn clip_mask(view: &View, plan: Option<&Plan>, floors: bool) -> Option<Mask> {
    let mut mask = Mask::new(MAP_WIDTH, MAP_HEIGHT)?;
    let (fx0, fy0, fx1, fy1) = FRAME;
    let frame = daylit_falsecolor::tiny_skia::Rect::from_ltrb(
        fx0 as f32, fy0 as f32, fx1 as f32, fy1 as f32,
    )?;
    let floors = plan.filter(|p| floors && !p.floors.is_empty());
    match floors {
        None => mask.fill_path(
            &PathBuilder::from_rect(frame),
            FillRule::Winding,
            false,
            Transform::identity(),
        ),
        Some(plan) => {
            for f in &plan.floors {
                if let Some(path) = polygon_path(view, f.iter().map(|p| (p[0], p[1]))) {
                    mask.fill_path(&path, FillRule::EvenOdd, true, Transform::identity());
                }
            }
            let mut frame_mask = Mask::new(MAP_WIDTH, MAP_HEIGHT)?;
            frame_mask.fill_path(
                &PathBuilder::from_rect(frame),
                FillRule::Winding,
                false,
                Transform::identity(),
            );
            // Keep only what is in both.
            for (m, f) in mask.data_mut().iter_mut().zip(frame_mask.data()) {
                *m = (*m).min(*f);
            }
        }
    }
    Some(mask)
}

/// The closed outline of plan points `(x, y)` in picture coordinates (`None` when empty).
fn polygon_path(
    view: &View,
    points: impl Iterator<Item = (f64, f64)>,
) -> Option<daylit_falsecolor::tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for (k, (px, py)) in points.enumerate() {
        let (x, y) = view.px(px, py);
        if k == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
    pb.finish()
}

/// The cells, coloured by band.
fn draw_cells(
    pm: &mut Pixmap,
    view: &View,
    shapes: &[[(f64, f64); 4]],
    values: &[f64],
    spec: &MapSpec,
    mask: Option<&Mask>,
) {
    for (shape, &v) in shapes.iter().zip(values) {
        if let Some(path) = polygon_path(view, shape.iter().copied()) {
            // Not antialiased: neighbouring cells then tile without seams.
            pm.fill_path(
                &path,
                &paint(band_colour(spec, v), false),
                FillRule::Winding,
                Transform::identity(),
                mask,
            );
        }
    }
}

/// Three thin white diagonals across each grid cell flagged in `uncertain`.
fn draw_hatch(pm: &mut Pixmap, view: &View, sensors: &SensorSet, uncertain: &[bool]) {
    let mut pb = PathBuilder::new();
    for (s, _) in sensors.sensors.iter().zip(uncertain).filter(|(_, &u)| u) {
        let Some(c) = s.cell else { continue };
        let corners = sensors.grids[c.grid].cell_corners(c.i, c.j);
        let p: Vec<(f32, f32)> = corners.iter().map(|q| view.px(q[0], q[1])).collect();
        let mid = |a: (f32, f32), b: (f32, f32)| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        for (a, b) in [
            (p[0], p[2]),
            (mid(p[0], p[1]), mid(p[1], p[2])),
            (mid(p[2], p[3]), mid(p[3], p[0])),
        ] {
            pb.move_to(a.0, a.1);
            pb.line_to(b.0, b.1);
        }
    }
    if let Some(path) = pb.finish() {
        pm.stroke_path(
            &path,
            &paint([255; 3], true),
            &stroke(1.2),
            Transform::identity(),
            None,
        );
    }
}

/// The pass line: the shared edges of neighbouring grid cells on either side of `level`.
fn draw_contour(pm: &mut Pixmap, view: &View, sensors: &SensorSet, values: &[f64], level: f64) {
    use std::collections::HashMap;
    let cells: HashMap<(usize, u32, u32), f64> = sensors
        .sensors
        .iter()
        .zip(values)
        .filter_map(|(s, &v)| s.cell.map(|c| ((c.grid, c.i, c.j), v)))
        .collect();
    let mut pb = PathBuilder::new();
    for (&(g, i, j), &v) in &cells {
        let grid = &sensors.grids[g];
        let corners = grid.cell_corners(i, j);
        // Right and top neighbours, so each shared edge is looked at once.
        for (ni, nj, a, b) in [(i + 1, j, 1, 2), (i, j + 1, 2, 3)] {
            if let Some(&w) = cells.get(&(g, ni, nj)) {
                if (v >= level) != (w >= level) {
                    let (ax, ay) = view.px(corners[a][0], corners[a][1]);
                    let (bx, by) = view.px(corners[b][0], corners[b][1]);
                    pb.move_to(ax, ay);
                    pb.line_to(bx, by);
                }
            }
        }
    }
    if let Some(path) = pb.finish() {
        pm.stroke_path(
            &path,
            &paint([255; 3], true),
            &Stroke {
                dash: StrokeDash::new(vec![6.0, 4.0], 0.0),
                ..stroke(2.5)
            },
            Transform::identity(),
            None,
        );
    }
}

/// The plan's lines: furniture thin and grey, glazing a blue double line, walls thick and
/// dark, clipped to the frame.
fn draw_plan(pm: &mut Pixmap, view: &View, plan: &Plan, frame: Option<&Mask>) {
    let path_of = |kind: LineKind| {
        let mut pb = PathBuilder::new();
        for l in plan.lines.iter().filter(|l| l.kind == kind) {
            let (ax, ay) = view.px(l.a[0], l.a[1]);
            let (bx, by) = view.px(l.b[0], l.b[1]);
            pb.move_to(ax, ay);
            pb.line_to(bx, by);
        }
        pb.finish()
    };
    let t = Transform::identity();
    if let Some(p) = path_of(LineKind::Furniture) {
        // A pale halo under the dark line, so it reads on dark and light cells alike.
        let mut halo = paint([255; 3], true);
        halo.set_color_rgba8(255, 255, 255, 150);
        pm.stroke_path(&p, &halo, &stroke(3.2), t, frame);
        pm.stroke_path(&p, &paint([40, 40, 40], true), &stroke(1.2), t, frame);
    }
    if let Some(p) = path_of(LineKind::Glazing) {
        pm.stroke_path(&p, &paint([10, 90, 200], true), &stroke(8.0), t, frame);
        pm.stroke_path(&p, &paint([235, 245, 255], true), &stroke(3.0), t, frame);
    }
    if let Some(p) = path_of(LineKind::Wall) {
        pm.stroke_path(&p, &paint(INK, true), &stroke(6.0), t, frame);
    }
}

/// The north arrow, centred at (cx, cy), `north` degrees counter-clockwise from +Y.
fn draw_north(r: &mut Raster<[u8; 3]>, cx: f32, cy: f32, north: f64) {
    let a = north.to_radians();
    // Up the page is +Y; counter-clockwise on the plan is counter-clockwise on the page.
    let (dx, dy) = (-(a.sin()) as f32, -(a.cos()) as f32);
    let (nx, ny) = (-dy, dx);
    let len = 34.0;
    r.draw_vector(|pm| {
        let circle = PathBuilder::from_circle(cx, cy, len + 4.0);
        if let Some(c) = circle {
            pm.stroke_path(
                &c,
                &paint(GREY, true),
                &stroke(1.0),
                Transform::identity(),
                None,
            );
        }
        // A two-tone arrowhead: dark on one side of its axis, white on the other.
        let tip = (cx + dx * len, cy + dy * len);
        let tail = (cx - dx * len * 0.6, cy - dy * len * 0.6);
        let side = |s: f32| (cx + nx * 11.0 * s, cy + ny * 11.0 * s);
        for (s, fill) in [(1.0, INK), (-1.0, [255; 3])] {
            let mut pb = PathBuilder::new();
            pb.move_to(tip.0, tip.1);
            let (sx, sy) = side(s);
            pb.line_to(sx, sy);
            pb.line_to(tail.0, tail.1);
            pb.close();
            if let Some(p) = pb.finish() {
                pm.fill_path(
                    &p,
                    &paint(fill, true),
                    FillRule::Winding,
                    Transform::identity(),
                    None,
                );
                pm.stroke_path(
                    &p,
                    &paint(INK, true),
                    &stroke(1.2),
                    Transform::identity(),
                    None,
                );
            }
        }
    });
    let (lx, ly) = (cx + dx * (len + 16.0), cy + dy * (len + 16.0));
    r.text("N", 18.0, lx, ly, 0.5, INK);
}

/// A scale bar in metres, its left end at (x, y), at most `max_px` long.
fn draw_scale_bar(r: &mut Raster<[u8; 3]>, x: i32, y: i32, per_px: f64, max_px: f64) {
    let metres = [
        0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0,
    ]
    .into_iter()
    .rev()
    .find(|m| m / per_px <= max_px)
    .unwrap_or(0.5);
    let len = (metres / per_px).round() as i32;
    let half = len / 2;
    r.rect(x, y, x + half, y + 7, INK);
    r.rect(x + half + 1, y, x + len, y + 7, [255; 3]);
    r.outline(x, y, x + len, y + 7, INK);
    let label = |m: f64| {
        if m.fract() == 0.0 {
            format!("{m:.0}")
        } else {
            format!("{m}")
        }
    };
    r.text("0", 13.0, x as f32, (y + 20) as f32, 0.5, INK);
    r.text(
        &label(metres / 2.0),
        13.0,
        (x + half) as f32,
        (y + 20) as f32,
        0.5,
        INK,
    );
    r.text(
        &format!("{} m", label(metres)),
        13.0,
        (x + len) as f32,
        (y + 20) as f32,
        0.5,
        INK,
    );
}

/// A band edge as a legend label.
pub fn edge_label(v: f64, percent: bool) -> String {
    if percent {
        format!("{:.0}", v * 100.0)
    } else if v >= 1.0 && v.fract() == 0.0 {
        // Thousands apart by a space, as lighting designers write lux: 20 000.
        let digits = format!("{v:.0}");
        let mut out = String::new();
        for (k, ch) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k) % 3 == 0 && digits.len() > 4 {
                out.push(' ');
            }
            out.push(ch);
        }
        out
    } else {
        format!("{v}")
    }
}

/// A tick step of 1, 2, 2.5 or 5 × a power of ten giving at most about `n` ticks over `span`.
fn tick_step(span: f64, n: f64) -> f64 {
    nice_ceil(span / n)
}

fn draw(
    r: &mut Raster<[u8; 3]>,
    sensors: &SensorSet,
    values: &[f64],
    spec: &MapSpec,
    plan: Option<&Plan>,
) {
    let (w, h) = (MAP_WIDTH as i32, MAP_HEIGHT as i32);
    let (fx0, fy0, fx1, fy1) = FRAME;
    let shapes = footprints(sensors);
    let view = View::fit(&shapes);

    r.draw_vector(|pm| {
        let cell_mask = clip_mask(&view, plan, true);
        draw_cells(pm, &view, &shapes, values, spec, cell_mask.as_ref());
        draw_hatch(pm, &view, sensors, &spec.uncertain);
        if let Some((level, _)) = spec.contour {
            draw_contour(pm, &view, sensors, values, level);
        }
        if let Some(plan) = plan {
            let frame = clip_mask(&view, None, false);
            draw_plan(pm, &view, plan, frame.as_ref());
        }
    });

    // Title and the summary line.
    r.text(&spec.title, 22.0, w as f32 / 2.0, 24.0, 0.5, INK);
    if !spec.subtitle.is_empty() {
        let ink = match spec.verdict {
            Some(true) => PASS,
            Some(false) => FAIL,
            None => INK,
        };
        r.text(&spec.subtitle, 15.0, w as f32 / 2.0, 52.0, 0.5, ink);
    }

    // Frame and ticks in metres.
    r.outline(fx0, fy0, fx1, fy1, GREY);
    let (aw, ah) = ((fx1 - fx0) as f64, (fy1 - fy0) as f64);
    let step = tick_step(view.per_px * aw.max(ah), 8.0);
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
    let mut t = (view.x0 / step).ceil() * step;
    while t <= view.x0 + view.per_px * aw + 1e-9 {
        let px = view.px(t, view.y0).0.round() as i32;
        r.rect(px, fy1 + 1, px, fy1 + 5, GREY);
        r.text(&label(t), 12.0, px as f32, (fy1 + 15) as f32, 0.5, GREY);
        t += step;
    }
    let mut t = (view.y0 / step).ceil() * step;
    while t <= view.y0 + view.per_px * ah + 1e-9 {
        let py = view.px(view.x0, t).1.round() as i32;
        r.rect(fx0 - 5, py, fx0 - 1, py, GREY);
        r.text(&label(t), 12.0, (fx0 - 8) as f32, py as f32, 1.0, GREY);
        t += step;
    }
    r.text(
        "x (m)",
        12.0,
        ((fx0 + fx1) / 2) as f32,
        (fy1 + 32) as f32,
        0.5,
        GREY,
    );
    r.text(
        "y (m)",
        12.0,
        (fx0 - 8) as f32,
        (fy0 - 12) as f32,
        1.0,
        GREY,
    );

    // The right-hand column: north, the legend, the plan's key, the scale bar.
    let cx = (COLUMN_X + w) as f32 / 2.0 - 10.0;
    draw_north(r, cx, 150.0, plan.map_or(0.0, |p| p.north));
    let (bx0, bx1) = (COLUMN_X + 8, COLUMN_X + 34);
    let (by0, by1) = (250, 600);
    let n = spec.bands.count() as i32;
    let rows = by1 - by0 + 1;
    // Band k (0 = lowest) fills an equal share of the strip, the highest at the top.
    let band_at = |y: i32| (n - 1 - ((y - by0) * n / rows).clamp(0, n - 1)) as usize;
    let fill = |y: i32| Palette::Viridis.display8(spec.bands.position(band_at(y)));
    let edge_y = |k: usize| by1 as f32 + 1.0 - rows as f32 * k as f32 / n as f32;
    let labels = spec
        .bands
        .edges()
        .iter()
        .enumerate()
        .map(|(k, &e)| (edge_label(e, spec.percent), edge_y(k).min(by1 as f32)))
        .collect();
    ColourScale {
        columns: (bx0, bx1),
        rows: (by0, by1),
        fill: &fill,
        title: Some((spec.unit.clone(), (by0 - 18) as f32)),
        labels,
        text_size: 13.0,
        style: LabelStyle::Beside { ink: INK, tick: 5 },
    }
    .draw(r);
    // Band boundaries as thin white rules, so neighbouring bands read apart.
    for k in 1..n as usize {
        let y = edge_y(k).round() as i32;
        r.rect(bx0, y, bx1, y, [255; 3]);
    }

    // The key: pass line and plan symbols.
    let mut ky = by1 + 28;
    let key_x = COLUMN_X + 8;
    let mut key = |r: &mut Raster<[u8; 3]>, text: &str, draw: &dyn Fn(&mut Pixmap, f32, f32)| {
        let y = ky as f32;
        r.draw_vector(|pm| draw(pm, key_x as f32, y));
        r.text(text, 12.0, (key_x + 34) as f32, y, 0.0, INK);
        ky += 20;
    };
    let line = |c: [u8; 3], width: f32| {
        move |pm: &mut Pixmap, x: f32, y: f32| {
            let mut pb = PathBuilder::new();
            pb.move_to(x + 2.0, y);
            pb.line_to(x + 24.0, y);
            if let Some(p) = pb.finish() {
                pm.stroke_path(
                    &p,
                    &paint(c, true),
                    &stroke(width),
                    Transform::identity(),
                    None,
                );
            }
        }
    };
    if let Some((_, note)) = &spec.contour {
        key(r, note, &|pm, x, y| {
            // The dashed white line on a mid-scale colour, as it shows on the map.
            let bg = daylit_falsecolor::tiny_skia::Rect::from_xywh(x, y - 7.0, 26.0, 14.0);
            if let Some(bg) = bg {
                pm.fill_rect(bg, &paint(colour(0.5), true), Transform::identity(), None);
            }
            line([255; 3], 2.5)(pm, x, y);
        });
    }
    if spec.uncertain.iter().any(|&u| u) {
        key(r, "not settled (noise)", &|pm, x, y| {
            let bg = daylit_falsecolor::tiny_skia::Rect::from_xywh(x, y - 7.0, 26.0, 14.0);
            if let Some(bg) = bg {
                pm.fill_rect(bg, &paint(colour(0.5), true), Transform::identity(), None);
            }
            let mut pb = PathBuilder::new();
            for k in 0..3 {
                let dx = 9.0 * k as f32;
                pb.move_to(x + dx, y + 7.0);
                pb.line_to(x + dx + 8.0, y - 7.0);
            }
            if let Some(p) = pb.finish() {
                pm.stroke_path(
                    &p,
                    &paint([255; 3], true),
                    &stroke(1.2),
                    Transform::identity(),
                    None,
                );
            }
        });
    }
    if plan.is_some_and(|p| !p.lines.is_empty()) {
        key(r, "wall", &line(INK, 6.0));
        key(r, "glazing", &|pm, x, y| {
            line([10, 90, 200], 8.0)(pm, x, y);
            line([235, 245, 255], 3.0)(pm, x, y);
        });
        key(r, "furniture", &line([40, 40, 40], 1.2));
    }
    draw_scale_bar(r, COLUMN_X + 8, h - 64, view.per_px, 150.0);
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

/// The bands of an illuminance map: 1-2-3-5 logarithmic edges over the values (from 10 lux
/// at least, as below that a room is dark whatever its exact value).
pub fn lux_bands(values: &[f64]) -> Bands {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min).max(10.0);
    let hi = finite.fold(0.0, f64::max).max(lo);
    let lo = if lo.is_finite() { lo } else { 10.0 };
    Bands::log_steps(lo, hi)
        .or_else(|_| Bands::log_steps(10.0, 100.0))
        .expect("10 to 100 lux makes bands")
}

/// The bands of a map of hours: 0, 1, 50, 100, 250, 500, 1000, 2000 … up to the most hours
/// (so "none", "a few" and the 250-hour ASE limit each have a band of their own).
pub fn hour_bands(most: f64, limit: f64) -> Bands {
    let mut edges = vec![0.0, 1.0];
    for e in [50.0, 100.0, limit, 500.0, 1000.0, 2000.0, 4000.0, 8784.0] {
        let last = *edges.last().unwrap_or(&0.0);
        if last > most {
            break;
        }
        if e > last {
            edges.push(e);
        }
    }
    Bands::new(edges).expect("increasing edges")
}

fn pct(v: f64) -> String {
    format!("{:.1} %", 100.0 * v)
}

/// The standard maps of a run: file name, per-sensor values and how to draw them:
/// `DA<t>.png` (DA at the main threshold, with sDA and its LEED thresholds), `UDI.png`
/// (in-band UDI-a), `mean_lux.png` (log bands) and, with direct-sun input, `ASE_hours.png`
/// (with ASE and its limit).
pub fn standard_maps(m: &AnnualMetrics) -> Vec<(String, Vec<f64>, MapSpec)> {
    let o = &m.options;
    let tenths = Bands::linear(0.0, 1.0, 0.1).expect("ten bands");
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let sda_pct = (o.sda_fraction * 100.0).round();
    let sda_verdict = if m.sda >= SDA_LEED.1 {
        "meets LEED v4 for 3 points (≥ 75 %)".to_string()
    } else if m.sda >= SDA_LEED.0 {
        "meets LEED v4 for 2 points (≥ 55 %; 3 points from 75 %)".to_string()
    } else {
        "below LEED v4's 55 % (2 points; 3 points from 75 %)".to_string()
    };
    let mut maps = vec![
        (
            format!("DA{}.png", o.da_threshold),
            m.da.clone(),
            MapSpec {
                title: format!(
                    "Daylight autonomy DA{}: share of {} occupied hours at ≥ {} lux",
                    o.da_threshold, m.occupied_hours, o.da_threshold
                ),
                subtitle: format!(
                    "sDA{}/{}% = {} of sensors: {}",
                    o.da_threshold,
                    sda_pct,
                    pct(m.sda),
                    sda_verdict
                ),
                verdict: Some(m.sda >= SDA_LEED.0),
                unit: "% of occupied hours".into(),
                bands: tenths.clone(),
                percent: true,
                contour: Some((o.sda_fraction, format!("DA ≥ {sda_pct} % (sDA)"))),
                uncertain: Vec::new(),
            },
        ),
        (
            "UDI.png".into(),
            m.udi_a.clone(),
            MapSpec {
                title: format!(
                    "Useful daylight illuminance {}–{} lux: share of occupied hours",
                    o.udi_lower, o.udi_upper
                ),
                subtitle: format!(
                    "mean UDI {}; below {} lux {}, above {} lux {}",
                    pct(mean(&m.udi_a)),
                    o.udi_lower,
                    pct(mean(&m.udi_n)),
                    o.udi_upper,
                    pct(mean(&m.udi_e))
                ),
                verdict: None,
                unit: "% of occupied hours".into(),
                bands: tenths,
                percent: true,
                contour: None,
                uncertain: Vec::new(),
            },
        ),
        (
            "mean_lux.png".into(),
            m.mean_lux.clone(),
            MapSpec {
                title: "Mean illuminance over occupied hours (logarithmic bands)".into(),
                subtitle: format!(
                    "room mean {:.0} lux; the white line is {} lux",
                    mean(&m.mean_lux),
                    o.da_threshold
                ),
                verdict: None,
                unit: "lux".into(),
                bands: lux_bands(&m.mean_lux),
                percent: false,
                contour: Some((o.da_threshold as f64, format!("{} lux", o.da_threshold))),
                uncertain: Vec::new(),
            },
        ),
    ];
    if let (Some(h), Some(ase)) = (&m.ase_hours, m.ase) {
        let v: Vec<f64> = h.iter().map(|&x| x as f64).collect();
        let most = v.iter().copied().fold(0.0, f64::max);
        // ASE counts sensors sunlit for more than the limit: the line sits just above it.
        let limit = o.ase_hours as f64;
        maps.push((
            "ASE_hours.png".into(),
            v,
            MapSpec {
                title: format!(
                    "Annual sunlight exposure: occupied hours of direct sun ≥ {} lux",
                    o.ase_threshold
                ),
                subtitle: format!(
                    "ASE{},{} = {} of sensors: {} (LEED v4 and LM-83: ≤ 10 %)",
                    o.ase_threshold,
                    o.ase_hours,
                    pct(ase),
                    if ase <= ASE_LIMIT { "passes" } else { "fails" }
                ),
                verdict: Some(ase <= ASE_LIMIT),
                unit: "occupied hours".into(),
                bands: hour_bands(most, limit),
                percent: false,
                contour: Some((limit + 0.5, format!("over {} h (ASE)", o.ase_hours))),
                uncertain: Vec::new(),
            },
        ));
    }
    maps
}

/// Writes the standard maps ([`standard_maps`]) into `dir` (created if missing), with the
/// plan drawn in when one is given, and returns their paths. Each file is written atomically;
/// each PNG carries text chunks that say how it was made ([`Provenance::png_text`]) when
/// `provenance` is given.
pub fn write_maps(
    dir: &Path,
    sensors: &SensorSet,
    m: &AnnualMetrics,
    plan: Option<&Plan>,
    provenance: Option<&Provenance>,
) -> Result<Vec<PathBuf>, ReportError> {
    let text = provenance.map(Provenance::png_text).unwrap_or_default();
    check_count(sensors, m)?;
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for (name, values, mut spec) in standard_maps(m) {
        // The DA map hatches the cells this run's noise leaves on either side of its line.
        if name.starts_with("DA") {
            if let Some((level, _)) = spec.contour {
                spec.uncertain = crate::uncertainty::near_level(sensors, &values, level);
            }
        }
        let path = dir.join(name);
        let png = stamped(map_png(sensors, &values, &spec, plan)?, &text, &spec.title)?;
        write_atomic(&path, &png)?;
        written.push(path);
    }
    Ok(written)
}

/// `png` with the text chunks `text` (a record of how it was made); `title` names the picture
/// in errors.
pub(crate) fn stamped(
    png: Vec<u8>,
    text: &[(String, String)],
    title: &str,
) -> Result<Vec<u8>, ReportError> {
    if text.is_empty() {
        return Ok(png);
    }
    insert_png_text(&png, text).map_err(|e| ReportError::Draw {
        title: title.to_string(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hour_and_lux_bands() {
        assert_eq!(
            hour_bands(800.0, 250.0).edges(),
            &[0.0, 1.0, 50.0, 100.0, 250.0, 500.0, 1000.0]
        );
        assert_eq!(hour_bands(0.0, 250.0).edges(), &[0.0, 1.0]);
        assert_eq!(hour_bands(60.0, 250.0).edges(), &[0.0, 1.0, 50.0, 100.0]);
        let b = lux_bands(&[120.0, 450.0, 19_000.0]);
        assert_eq!(b.edges().first(), Some(&100.0));
        assert_eq!(b.edges().last(), Some(&20_000.0));
        assert_eq!(lux_bands(&[0.0, 0.0]).edges(), &[10.0, 20.0]);
        assert_eq!(edge_label(20_000.0, false), "20 000");
        assert_eq!(edge_label(2000.0, false), "2000");
        assert_eq!(edge_label(0.5, true), "50");
        assert_eq!(edge_label(0.3, false), "0.3");
    }
}
