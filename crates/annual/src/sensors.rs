//! Sensor points: RADIANCE point files and work-plane grids over floor polygons.
//!
//! # Grid rule ([`SensorSet::from_polygon`])
//! - The polygon (any orientation, convex or concave, as a RADIANCE `polygon`'s vertex list)
//!   defines a plane; its unit normal `n` is taken pointing up (`n.z > 0`). Vertical
//!   polygons are refused.
//! - Grid axes: `u` along the polygon's longest edge (projected into the plane), `v = n × u`.
//!   Of the four in-plane directions `±u`, `±v` the one closest to +x becomes `u`, so an
//!   axis-aligned floor gets `u = +x`, `v = +y` and a rotated one keeps its walls' directions.
//! - Cells are squares of side `spacing`. Along each axis the grid has
//!   `ceil(extent / spacing)` cells and is centred on the polygon's extent, so a side that is
//!   a whole number of spacings is tiled exactly (a 4 m × 3 m room at 0.5 m gives 8 × 6
//!   cells with centres 0.25 m from the walls).
//! - A cell yields a sensor when its **centre lies inside the polygon** (even–odd rule);
//!   centres within 1e-9 of an edge (relative to the polygon's size) count as outside.
//! - Sensors lie `height` above the polygon's plane along `n`, face `n`, and are ordered by
//!   row `j` (along `v`), then column `i` (along `u`).

use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Default work-plane height above the floor polygon, metres.
pub const DEFAULT_HEIGHT: f64 = 0.8;
/// Default grid spacing, metres.
pub const DEFAULT_SPACING: f64 = 0.5;
/// Most cells a grid may have (guards against a tiny spacing over a huge polygon).
pub const MAX_GRID_CELLS: u64 = 50_000_000;

/// Reading sensors or making a grid failed.
#[derive(Debug, thiserror::Error)]
pub enum SensorError {
    /// The file could not be read.
    #[error("{file}: cannot read sensor file")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A line of a sensor file is wrong.
    #[error("{file}:{line}: {message}")]
    Line {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was found and what was expected.
        message: String,
    },
    /// A sensor file holds no sensors.
    #[error("{file}: no sensors (expected lines of 'x y z dx dy dz')")]
    Empty {
        /// The file.
        file: String,
    },
    /// A polygon cannot carry a grid.
    #[error("grid polygon: {0}")]
    Polygon(String),
    /// A sensor that did not come from a file line is impossible (see
    /// [`SensorSet::validate`]).
    #[error("sensor {index}: {message}")]
    Sensor {
        /// 1-based position in the set.
        index: usize,
        /// What is wrong.
        message: String,
    },
}

/// A sensor farther than this many times the scene's size from the scene's bounding box is
/// refused: it cannot be in the building, and its numbers would mean nothing.
pub const SENSOR_REACH: f64 = 10.0;

/// Whether a sensor (or view point) at `position` facing `direction` can be meant, for a
/// scene bounded by `scene` (lower and upper corners; `None` without surfaces): finite
/// numbers, a direction that is not zero, and a place in or near the scene — no farther
/// from its box than [`SENSOR_REACH`] times its size (the box's diagonal). The message says
/// what is wrong and the rule.
pub fn check_position(
    position: [f64; 3],
    direction: [f64; 3],
    scene: Option<([f64; 3], [f64; 3])>,
) -> Result<(), String> {
    let g = daylit_radfile::printf::format_g;
    let at = format!(
        "({}, {}, {})",
        g(position[0]),
        g(position[1]),
        g(position[2])
    );
    if position.iter().chain(&direction).any(|c| !c.is_finite()) {
        return Err(format!("sensor at {at}: its numbers must be finite"));
    }
    if dot(direction, direction) == 0.0 {
        return Err(format!("sensor at {at}: its direction (dx dy dz) is zero"));
    }
    let Some((lo, hi)) = scene else {
        return Ok(());
    };
    let size = norm(sub(hi, lo));
    let outside: [f64; 3] =
        std::array::from_fn(|k| (lo[k] - position[k]).max(position[k] - hi[k]).max(0.0));
    // Scaled, so that a point near the largest doubles does not overflow to infinity.
    let big = outside.iter().fold(0.0f64, |m, c| m.max(*c));
    let away = if big > 0.0 {
        big * norm(scale(outside, 1.0 / big))
    } else {
        0.0
    };
    if away > SENSOR_REACH * size {
        return Err(format!(
            "sensor at {at} is {} from the scene's bounding box, more than {SENSOR_REACH} \
             times the scene's size ({}): sensors must lie in or near the scene",
            g(away),
            g(size)
        ));
    }
    Ok(())
}

/// Where a grid sensor sits on its grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridCell {
    /// Index into [`SensorSet::grids`].
    pub grid: usize,
    /// Column, along [`Grid::u`].
    pub i: u32,
    /// Row, along [`Grid::v`].
    pub j: u32,
}

/// One sensor: a point and the direction it faces (as an rtrace `-I` input line). The one
/// sensor type of daylit: grids, point files, annual studies, daylight coefficients and the
/// matrix methods all take it; the numbers are kept as given, so reports print them back.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sensor {
    /// Position.
    pub position: [f64; 3],
    /// Direction it faces (not necessarily unit length, never zero).
    pub direction: [f64; 3],
    /// Its grid cell, for sensors made by [`SensorSet::from_polygon`].
    pub cell: Option<GridCell>,
}

impl Sensor {
    /// A sensor at `position` facing `direction` (not on a grid).
    pub fn new(position: DVec3, direction: DVec3) -> Self {
        Sensor {
            position: position.to_array(),
            direction: direction.to_array(),
            cell: None,
        }
    }

    /// Its position as a vector.
    pub fn point(&self) -> DVec3 {
        DVec3::from_array(self.position)
    }

    /// The unit normal of the surface it measures on: its direction normalised.
    pub fn normal(&self) -> DVec3 {
        DVec3::from_array(self.direction).normalize()
    }
}

/// A regular grid of square cells in a plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Corner of cell (0, 0) at the work-plane height.
    pub origin: [f64; 3],
    /// Unit vector along columns `i`.
    pub u: [f64; 3],
    /// Unit vector along rows `j`.
    pub v: [f64; 3],
    /// Unit normal, pointing up; sensors face it.
    pub normal: [f64; 3],
    /// Cell side, metres.
    pub spacing: f64,
    /// Cells along `u`.
    pub columns: u32,
    /// Cells along `v`.
    pub rows: u32,
}

impl Grid {
    /// The four corners of cell `(i, j)`, counter-clockwise seen from above.
    pub fn cell_corners(&self, i: u32, j: u32) -> [[f64; 3]; 4] {
        let s = self.spacing;
        let at = |a: f64, b: f64| add(self.origin, add(scale(self.u, a * s), scale(self.v, b * s)));
        let (i, j) = (i as f64, j as f64);
        [
            at(i, j),
            at(i + 1.0, j),
            at(i + 1.0, j + 1.0),
            at(i, j + 1.0),
        ]
    }
}

/// Work-plane grid settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridOptions {
    /// Height of the work plane above the polygon's plane, metres (default 0.8).
    pub height: f64,
    /// Cell side, metres (default 0.5).
    pub spacing: f64,
}

impl Default for GridOptions {
    fn default() -> Self {
        GridOptions {
            height: DEFAULT_HEIGHT,
            spacing: DEFAULT_SPACING,
        }
    }
}

/// The sensors of one analysis, in result order, and the grids some of them came from.
/// Two sets are equal when their sensors and grids are; where they were read from is only
/// for messages.
#[derive(Clone, Debug, Default)]
pub struct SensorSet {
    /// The sensors; results are indexed in this order.
    pub sensors: Vec<Sensor>,
    /// Grids referred to by [`GridCell::grid`].
    pub grids: Vec<Grid>,
    /// The file the sensors were read from, if any, for messages.
    pub file: Option<String>,
    /// For sensors read from a file, each one's 1-based line (empty otherwise).
    pub lines: Vec<usize>,
}

impl PartialEq for SensorSet {
    fn eq(&self, other: &Self) -> bool {
        self.sensors == other.sensors && self.grids == other.grids
    }
}

impl SensorSet {
    /// Reads a RADIANCE sensor file: `x y z dx dy dz` per line; blank lines and `#` comments
    /// (to the end of the line) are skipped; commas also separate fields.
    pub fn read(path: &Path) -> Result<SensorSet, SensorError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| SensorError::Io {
            file: file.clone(),
            source,
        })?;
        SensorSet::parse(&String::from_utf8_lossy(&bytes), &file)
    }

    /// Parses sensor-file text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<SensorSet, SensorError> {
        let mut sensors = Vec::new();
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw
                .split('#')
                .next()
                .unwrap_or("")
                .trim_start_matches('\u{feff}');
            let fields: Vec<&str> = line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|f| !f.is_empty())
                .collect();
            if fields.is_empty() {
                continue;
            }
            let err = |message: String| SensorError::Line {
                file: file.to_string(),
                line: n,
                message,
            };
            if fields.len() != 6 {
                return Err(err(format!(
                    "expected 6 numbers 'x y z dx dy dz', found {} fields",
                    fields.len()
                )));
            }
            let mut v = [0.0; 6];
            for (k, f) in fields.iter().enumerate() {
                v[k] = f
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| {
                        err(format!(
                            "expected a number for {}, found '{}'",
                            ["x", "y", "z", "dx", "dy", "dz"][k],
                            f.chars().take(40).collect::<String>()
                        ))
                    })?;
            }
            let direction = [v[3], v[4], v[5]];
            if dot(direction, direction) == 0.0 {
                return Err(err("direction (dx dy dz) is zero".to_string()));
            }
            sensors.push(Sensor {
                position: [v[0], v[1], v[2]],
                direction,
                cell: None,
            });
            lines.push(n);
        }
        if sensors.is_empty() {
            return Err(SensorError::Empty {
                file: file.to_string(),
            });
        }
        Ok(SensorSet {
            sensors,
            grids: Vec::new(),
            file: Some(file.to_string()),
            lines,
        })
    }

    /// Refuses a sensor that cannot be meant for a scene bounded by `scene` (lower and upper
    /// corners, `None` for a scene without surfaces), by [`check_position`]'s rule, naming
    /// the sensor file and line (or the sensor's number for sets not read from a file).
    /// Commands call this before any work.
    pub fn validate(&self, scene: Option<([f64; 3], [f64; 3])>) -> Result<(), SensorError> {
        for (i, s) in self.sensors.iter().enumerate() {
            if let Err(message) = check_position(s.position, s.direction, scene) {
                return Err(match (&self.file, self.lines.get(i)) {
                    (Some(file), Some(&line)) => SensorError::Line {
                        file: file.clone(),
                        line,
                        message,
                    },
                    _ => SensorError::Sensor {
                        index: i + 1,
                        message,
                    },
                });
            }
        }
        Ok(())
    }

    /// A work-plane grid over a floor polygon (see the module documentation for the rule).
    pub fn from_polygon(
        vertices: &[[f64; 3]],
        options: &GridOptions,
    ) -> Result<SensorSet, SensorError> {
        let bad = |m: &str| Err(SensorError::Polygon(m.to_string()));
        let s = options.spacing;
        if !(s.is_finite() && s > 0.0) {
            return bad("spacing must be a positive number");
        }
        if !options.height.is_finite() {
            return bad("work-plane height must be a number");
        }
        if vertices.len() < 3 {
            return bad("a polygon needs at least 3 vertices");
        }
        if vertices.iter().flatten().any(|c| !c.is_finite()) {
            return bad("vertex coordinates must be finite numbers");
        }
        let p0 = vertices[0];
        // Newell's method: robust for concave polygons.
        let mut area2 = [0.0; 3];
        for (k, &a) in vertices.iter().enumerate() {
            let b = vertices[(k + 1) % vertices.len()];
            area2 = add(area2, cross(sub(a, p0), sub(b, p0)));
        }
        let size = vertices
            .iter()
            .map(|p| norm(sub(*p, p0)))
            .fold(0.0, f64::max);
        let len = norm(area2);
        if len <= 1e-12 * size * size || size == 0.0 {
            return bad("the polygon has no area");
        }
        let mut n = scale(area2, 1.0 / len);
        if n[2] < 0.0 {
            n = scale(n, -1.0);
        }
        if n[2] < 1e-6 {
            return bad("the polygon is vertical; a work-plane grid needs a floor");
        }
        // Longest edge, projected into the plane.
        let mut best = [0.0; 3];
        let mut best_len = 0.0;
        for (k, &a) in vertices.iter().enumerate() {
            let e = sub(vertices[(k + 1) % vertices.len()], a);
            let e = sub(e, scale(n, dot(e, n)));
            let l = norm(e);
            if l > best_len * (1.0 + 1e-9) {
                best = scale(e, 1.0 / l);
                best_len = l;
            }
        }
        let u0 = best;
        let v0 = cross(n, u0);
        // Of ±u0, ±v0 the one closest to +x, so axis-aligned floors get u = +x.
        let mut u = u0;
        for c in [v0, scale(u0, -1.0), scale(v0, -1.0)] {
            if c[0] > u[0] + 1e-9 {
                u = c;
            }
        }
        let v = cross(n, u);
        let pts: Vec<[f64; 2]> = vertices
            .iter()
            .map(|p| {
                let d = sub(*p, p0);
                [dot(d, u), dot(d, v)]
            })
            .collect();
        let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
        for p in &pts {
            for a in 0..2 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
            }
        }
        let cells = |a: usize| ((hi[a] - lo[a]) / s - 1e-9).ceil().max(1.0);
        let (nu, nv) = (cells(0), cells(1));
        if nu * nv > MAX_GRID_CELLS as f64 {
            return Err(SensorError::Polygon(format!(
                "{nu} × {nv} cells at spacing {s} is more than {MAX_GRID_CELLS}"
            )));
        }
        let (nu, nv) = (nu as u32, nv as u32);
        // Centre the grid on the polygon's extent.
        let oa = lo[0] - (nu as f64 * s - (hi[0] - lo[0])) / 2.0;
        let ob = lo[1] - (nv as f64 * s - (hi[1] - lo[1])) / 2.0;
        let lift = scale(n, options.height);
        let eps = 1e-9 * size;
        let mut sensors = Vec::new();
        for j in 0..nv {
            for i in 0..nu {
                let c = [oa + (i as f64 + 0.5) * s, ob + (j as f64 + 0.5) * s];
                if inside(&pts, c, eps) {
                    let on_plane = add(p0, add(scale(u, c[0]), scale(v, c[1])));
                    sensors.push(Sensor {
                        position: add(on_plane, lift),
                        direction: n,
                        cell: Some(GridCell { grid: 0, i, j }),
                    });
                }
            }
        }
        if sensors.is_empty() {
            return bad("no grid cell centre falls inside the polygon (spacing too large?)");
        }
        let origin = add(add(p0, add(scale(u, oa), scale(v, ob))), lift);
        Ok(SensorSet {
            sensors,
            grids: vec![Grid {
                origin,
                u,
                v,
                normal: n,
                spacing: s,
                columns: nu,
                rows: nv,
            }],
            ..SensorSet::default()
        })
    }

    /// Appends `other`'s sensors (after these) and grids, renumbering its grid cells. Lines
    /// in a file are kept only while all sensors come from that one file.
    pub fn append(&mut self, other: SensorSet) {
        if self.sensors.is_empty() {
            self.file = other.file.clone();
            self.lines = other.lines.clone();
        } else if self.file != other.file || self.lines.len() != self.sensors.len() {
            self.file = None;
            self.lines.clear();
        } else {
            self.lines.extend(&other.lines);
        }
        let base = self.grids.len();
        self.grids.extend(other.grids);
        self.sensors.extend(other.sensors.into_iter().map(|mut s| {
            if let Some(c) = &mut s.cell {
                c.grid += base;
            }
            s
        }));
    }

    /// Number of sensors.
    pub fn len(&self) -> usize {
        self.sensors.len()
    }

    /// Whether there are no sensors.
    pub fn is_empty(&self) -> bool {
        self.sensors.is_empty()
    }

    /// The sensors as rtrace input / RADIANCE sensor-file text, `x y z dx dy dz` per line.
    pub fn to_radiance_text(&self) -> String {
        let mut out = String::with_capacity(self.sensors.len() * 48);
        for s in &self.sensors {
            let [x, y, z] = s.position;
            let [dx, dy, dz] = s.direction;
            out.push_str(&format!("{x} {y} {z} {dx} {dy} {dz}\n"));
        }
        out
    }
}

/// Even–odd point-in-polygon test; points within `eps` of an edge are outside.
fn inside(poly: &[[f64; 2]], p: [f64; 2], eps: f64) -> bool {
    let mut odd = false;
    for k in 0..poly.len() {
        let a = poly[k];
        let b = poly[(k + 1) % poly.len()];
        if segment_distance(a, b, p) <= eps {
            return false;
        }
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                odd = !odd;
            }
        }
    }
    odd
}

fn segment_distance(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((a[0] + t * dx - p[0]).powi(2) + (a[1] + t * dy - p[1]).powi(2)).sqrt()
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: [f64; 3], k: f64) -> [f64; 3] {
    [a[0] * k, a[1] * k, a[2] * k]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOM: ([f64; 3], [f64; 3]) = ([0.0, 0.0, 0.0], [4.0, 6.0, 3.0]);

    #[test]
    fn sensors_far_from_the_scene_are_refused_with_their_line() {
        let text = "1 1 0.8 0 0 1\n# comment\n\n1e308 1e308 1e308 0 0 1\n";
        let set = SensorSet::parse(text, "grid.pts").unwrap();
        assert_eq!(set.lines, vec![1, 4]);
        let e = set.validate(Some(ROOM)).unwrap_err().to_string();
        assert_eq!(
            e,
            "grid.pts:4: sensor at (1e+308, 1e+308, 1e+308) is 1.73205e+308 from the scene's bounding \
             box, more than 10 times the scene's size (7.81025): sensors must lie in or near the scene"
        );
        // Ten times the size (78.1) away is the limit; just inside and outside it.
        let near = SensorSet::parse("82 3 1 0 0 1\n", "p").unwrap();
        near.validate(Some(ROOM)).unwrap();
        let far = SensorSet::parse("2 3 1 0 0 1\n2 3 -80 0 0 1\n", "p").unwrap();
        let e = far.validate(Some(ROOM)).unwrap_err().to_string();
        assert!(
            e.starts_with("p:2: sensor at (2, 3, -80) is 80 from"),
            "{e}"
        );
        // Without surfaces there is no box to be near.
        far.validate(None).unwrap();
    }

    #[test]
    fn sensors_not_from_a_file_are_named_by_number() {
        let set = SensorSet {
            sensors: vec![Sensor {
                position: [f64::NAN, 0.0, 0.0],
                direction: [0.0, 0.0, 1.0],
                cell: None,
            }],
            ..SensorSet::default()
        };
        assert_eq!(
            set.validate(Some(ROOM)).unwrap_err().to_string(),
            "sensor 1: sensor at (nan, 0, 0): its numbers must be finite"
        );
        let grid = SensorSet::from_polygon(
            &[
                [0.0, 0.0, 0.0],
                [4.0, 0.0, 0.0],
                [4.0, 6.0, 0.0],
                [0.0, 6.0, 0.0],
            ],
            &GridOptions::default(),
        )
        .unwrap();
        grid.validate(Some(ROOM)).unwrap();
    }
}
