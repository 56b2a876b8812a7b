//! RADIANCE's `gensurf`, run natively: the parametric surface `x(s,t)`, `y(s,t)`, `z(s,t)`
//! sampled on an `m` × `n` grid, as quadrilaterals where a grid cell is flat and pairs of
//! triangles where it is not, with normals by the right-hand rule on (s, t) (`-i`: the left).
//! `z` may instead come from a data file (m+1)×(n+1) values at the vertices or m×n at the
//! cell centres, bilinearly interpolated), or all three coordinates from one file of triplets.
//! A `valid(s,t)` function cuts holes where it is not positive. `-s` adds a Phong texture per
//! cell (`surf.cal`) that interpolates the grid's averaged vertex normals.

use crate::curve::Curve;
use crate::error::{Loc, Result, SceneError};
use daylit_cal::RayPath;
use daylit_radfile::header::command_line;
use daylit_radfile::printf::format_g18 as g;
use glam::DVec3;
use std::fmt::Write;
use std::path::Path;

const USAGE: &str =
    "usage: gensurf material name x(s,t) y(s,t) z(s,t) m n [-s][-i][-e expr][-f file]";

/// RADIANCE's tolerance (its `FTINY`): cells flatter than this are quadrilaterals, pivots
/// smaller than this leave a cell unsmoothed.
const FTINY: f64 = 1e-6;

/// `v` scaled to unit length as RADIANCE's `normalize` does it (a first-order square root
/// when the length is within 1e-6 of 1, which the printed digits show); zero stays zero.
fn normalize(v: DVec3) -> Option<DVec3> {
    let len2 = v.dot(v);
    if len2 <= 0.0 {
        return None;
    }
    let len = if (1.0 - FTINY..=1.0 + FTINY).contains(&len2) {
        0.5 + 0.5 * len2
    } else {
        len2.sqrt()
    };
    Some(v / len)
}

/// The largest grid made (a typing slip in `m` or `n` must not exhaust memory).
const MAX_VERTICES: usize = 100_000_000;

/// A grid vertex.
#[derive(Clone, Copy, Default)]
struct Vertex {
    valid: bool,
    p: DVec3,
    /// Averaged normal (smoothing only); zero where it cannot be formed.
    n: DVec3,
}

/// Values read from a data file: `(m+1) × (n+1)` at the vertices, or `m × n` at the cell
/// centres, s varying fastest; `width` values per point (1: z, 3: x y z).
struct Data {
    values: Vec<f64>,
    /// Points along s and t.
    ns: usize,
    nt: usize,
    at_vertices: bool,
    width: usize,
}

impl Data {
    fn load(
        path: &Path,
        m: usize,
        n: usize,
        width: usize,
        err: &dyn Fn(String) -> SceneError,
    ) -> Result<Data> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| err(format!("cannot read data file {}: {e}", path.display())))?;
        let mut values = Vec::new();
        for w in text.split_whitespace() {
            values.push(
                crate::parse::parse_real(w).ok_or_else(|| {
                    err(format!("{}: garbled data value \"{w}\"", path.display()))
                })?,
            );
        }
        let (ns, nt, at_vertices) = if values.len() == (m + 1) * (n + 1) * width {
            (m + 1, n + 1, true)
        } else if values.len() == m * n * width {
            (m, n, false)
        } else {
            return Err(err(format!(
                "{}: {} values, expected {} at the vertices or {} at the cell centres",
                path.display(),
                values.len(),
                (m + 1) * (n + 1) * width,
                m * n * width
            )));
        };
        if ns < 2 || nt < 2 {
            return Err(err(format!("{}: too few data points", path.display())));
        }
        Ok(Data {
            values,
            ns,
            nt,
            at_vertices,
            width,
        })
    }

    /// Component `c` at (s, t), bilinear between the nearest points (extrapolated beyond).
    fn value(&self, c: usize, s: f64, t: f64) -> f64 {
        let (u, v) = if self.at_vertices {
            (s * (self.ns - 1) as f64, t * (self.nt - 1) as f64)
        } else {
            (s * self.ns as f64 - 0.5, t * self.nt as f64 - 0.5)
        };
        // C's truncation toward zero, then clamped to a cell.
        let i = (u.trunc() as i64).clamp(0, self.ns as i64 - 2) as usize;
        let j = (v.trunc() as i64).clamp(0, self.nt as i64 - 2) as usize;
        let at = |ii: usize, jj: usize| self.values[self.width * (jj * self.ns + ii) + c];
        let (fi, fj) = (i as f64, j as f64);
        (fj + 1.0 - v) * ((fi + 1.0 - u) * at(i, j) + (u - fi) * at(i + 1, j))
            + (v - fj) * ((fi + 1.0 - u) * at(i, j + 1) + (u - fi) * at(i + 1, j + 1))
    }
}

/// Where the coordinates come from.
struct Surface {
    curve: Curve,
    /// Which of x, y, z the curve's functions give (the rest from `data`).
    from_curve: Vec<usize>,
    data: Option<Data>,
    /// The curve's last function is `valid(s,t)`.
    has_valid: bool,
}

impl Surface {
    fn vertex(&mut self, s: f64, t: f64) -> Result<Vertex> {
        let v = self.curve.at2(s, t)?;
        if self.has_valid && v[v.len() - 1] <= 0.0 {
            return Ok(Vertex::default());
        }
        let mut p = [0.0; 3];
        for (k, &c) in self.from_curve.iter().enumerate() {
            p[c] = v[k];
        }
        if let Some(d) = &self.data {
            let comps: &[usize] = if d.width == 3 { &[0, 1, 2] } else { &[2] };
            for &c in comps {
                p[c] = d.value(if d.width == 3 { c } else { 0 }, s, t);
            }
        }
        Ok(Vertex {
            valid: true,
            p: DVec3::from_array(p),
            n: DVec3::ZERO,
        })
    }
}

/// The scene text `gensurf mat name x y z m n [-s] [-i] [-e ..] [-f ..]` writes, as RADIANCE's
/// gensurf writes it; data files are found relative to `cwd`.
pub fn gensurf(args: &[String], loc: &Loc, raypath: &RayPath, cwd: &Path) -> Result<String> {
    let err = |m: String| SceneError::at(loc, format!("gensurf: {m}"));
    if args.len() < 7 {
        return Err(err(USAGE.into()));
    }
    let (mat, name) = (&args[0], &args[1]);
    let mut smooth = false;
    let mut reverse = false;
    let mut options = Vec::new();
    for a in &args[7..] {
        match a.as_str() {
            "-s" => smooth = true,
            "-i" => reverse = true,
            "-o" => {
                return Err(err(
                    "-o writes a Wavefront OBJ file, not scene text; run gensurf -o outside the scene and read the OBJ file".into(),
                ))
            }
            _ => options.push(a.clone()),
        }
    }
    // A z argument naming a file (or the same file for all three) holds data.
    let zfile = cwd.join(&args[4]);
    let data_width = if args[4] == "-" {
        return Err(err(
            "data on standard input (\"-\") cannot be read inside a scene".into(),
        ));
    } else if zfile.is_file() {
        Some(if args[2] == args[4] && args[3] == args[4] {
            3
        } else {
            1
        })
    } else {
        None
    };
    let (exprs, from_curve): (Vec<&str>, Vec<usize>) = match data_width {
        None => (vec![&args[2], &args[3], &args[4]], vec![0, 1, 2]),
        Some(1) => (vec![&args[2], &args[3]], vec![0, 1]),
        Some(_) => (vec![], vec![]),
    };
    let mut curve = Curve::new("gensurf", "s, t", &exprs, &options, raypath, loc, USAGE)?;
    let has_valid = curve.add_if_defined("valid", 2);
    let m = curve.segments(&args[5])?;
    let n = curve.segments(&args[6])?;
    if (m + 1).saturating_mul(n + 1) > MAX_VERTICES {
        return Err(err(format!(
            "a {m} x {n} grid is more than {MAX_VERTICES} vertices"
        )));
    }
    let data = match data_width {
        Some(w) => Some(Data::load(&zfile, m, n, w, &err)?),
        None => None,
    };
    let mut surf = Surface {
        curve,
        from_curve,
        data,
        has_valid,
    };
    // Rows of vertices along t, one past each end when smoothing (normals need neighbours).
    let pad = usize::from(smooth);
    let row = |surf: &mut Surface, i: i64| -> Result<Vec<Vertex>> {
        let s = i as f64 / m as f64;
        (-(pad as i64)..=n as i64 + pad as i64)
            .map(|j| surf.vertex(s, j as f64 / n as f64))
            .collect()
    };
    let rows: Vec<Vec<Vertex>> = (-(pad as i64)..=m as i64 + pad as i64)
        .map(|i| row(&mut surf, i))
        .collect::<Result<_>>()?;
    let mut grid: Vec<Vec<Vertex>> = rows;
    if smooth {
        average_normals(&mut grid, reverse);
    }
    // Index (i, j) of the grid proper.
    let at = |i: usize, j: usize| grid[i + pad][j + pad];
    let mut out = format!("# {}\n", command_line("gensurf", args));
    let mut count = 0;
    for i in 0..m {
        for j in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
            // Diagonals alternate, turned away from an invalid corner.
            let mut orient = j % 2 == 1;
            if !(a.valid && d.valid) {
                orient = true;
            } else if !(b.valid && c.valid) {
                orient = false;
            }
            let cell = if orient { [a, b, c, d] } else { [b, d, a, c] };
            put_cell(cell, reverse, smooth, mat, name, &mut count, &mut out);
        }
    }
    Ok(out)
}

/// Each vertex's normal from its neighbours along s and t (one-sided at a hole or the edge).
fn average_normals(grid: &mut [Vec<Vertex>], reverse: bool) {
    let (rows, cols) = (grid.len(), grid[0].len());
    for i in 1..rows - 1 {
        for j in 1..cols - 1 {
            let here = grid[i][j];
            if !here.valid {
                continue;
            }
            let span = |prev: Vertex, next: Vertex| -> Option<DVec3> {
                match (prev.valid, next.valid) {
                    (false, false) => None,
                    (false, true) => Some(next.p - here.p),
                    (true, false) => Some(here.p - prev.p),
                    (true, true) => Some(next.p - prev.p),
                }
            };
            let along_s = span(grid[i - 1][j], grid[i + 1][j]);
            let along_t = span(grid[i][j - 1], grid[i][j + 1]);
            grid[i][j].n = match (along_s, along_t) {
                (Some(v1), Some(v2)) => {
                    let c = if reverse { v2.cross(v1) } else { v1.cross(v2) };
                    normalize(c).unwrap_or(c)
                }
                _ => DVec3::ZERO,
            };
        }
    }
}

/// Writes one grid cell `[p0, p1, p2, p3]` (p0 p1 p2 and p2 p1 p3 are its triangles): one
/// quadrilateral when both triangles face the same way, else the triangles that have area.
fn put_cell(
    cell: [Vertex; 4],
    reverse: bool,
    smooth: bool,
    mat: &str,
    name: &str,
    count: &mut usize,
    out: &mut String,
) {
    let [p0, mut p1, mut p2, p3] = cell;
    if reverse {
        std::mem::swap(&mut p1, &mut p2);
    }
    let face = |a: Vertex, b: Vertex, c: Vertex, o: Vertex| -> Option<DVec3> {
        if !(a.valid && b.valid && c.valid) {
            return None;
        }
        normalize((b.p - o.p).cross(c.p - o.p))
    };
    let n1 = face(p0, p1, p2, p0);
    // The second triangle's normal from p3: (p2 - p3) × (p1 - p3).
    let n2 = face(p3, p2, p1, p3);
    if n1.is_none() && n2.is_none() {
        return;
    }
    let texture = if smooth {
        normal_interpolation([p0, p1, p2, p3])
    } else {
        None
    };
    let point = |p: DVec3| format!("{} {} {}\n", g(p.x), g(p.y), g(p.z));
    let mut put = |corners: &[DVec3], constant: &dyn Fn(DVec3) -> DVec3| {
        let _ = write!(out, "\n{mat} ");
        if let Some((axis, m)) = texture {
            let _ = write!(
                out,
                "texfunc Phong\n4 surf_dx surf_dy surf_dz surf.cal\n0\n13\t{axis}\n"
            );
            for v in [m[0], m[1], m[2], constant(m[3])] {
                *out += &point(v);
            }
            *out += "\nPhong ";
        }
        *count += 1;
        let _ = write!(out, "polygon {name}.{count}\n0\n0\n{}\n", 3 * corners.len());
        for &c in corners {
            *out += &point(c);
        }
    };
    // The texture perturbs the face's own normal towards the interpolated one.
    if let (Some(a), Some(b)) = (n1, n2) {
        if a.dot(b) >= 1.0 - FTINY * FTINY {
            put(&[p0.p, p1.p, p3.p, p2.p], &|c| (c + a * -0.5) + b * -0.5);
            return;
        }
    }
    if let Some(a) = n1 {
        put(&[p0.p, p1.p, p2.p], &|c| c + a * -1.0);
    }
    if let Some(b) = n2 {
        put(&[p2.p, p1.p, p3.p], &|c| c + b * -1.0);
    }
}

/// The bilinear fit of the corners' normals in the two coordinates across the cell's dominant
/// axis: `(axis, [uv, u, v, 1] coefficients)`, or `None` when the corners cannot carry it.
fn normal_interpolation(p: [Vertex; 4]) -> Option<(usize, [DVec3; 4])> {
    let sum = p[0].n + p[1].n + p[2].n + p[3].n;
    let mut ax = if sum.x.abs() > sum.y.abs() { 0 } else { 1 };
    if sum[ax].abs() <= sum.z.abs() {
        ax = 2;
    }
    let (u, v) = ((ax + 1) % 3, (ax + 2) % 3);
    let mut a = [[0.0f64; 4]; 4];
    for (k, q) in p.iter().enumerate() {
        a[k] = [q.p[u] * q.p[v], q.p[u], q.p[v], 1.0];
    }
    let inv = invert4(a)?;
    let mut res = [DVec3::ZERO; 4];
    for (j, r) in res.iter_mut().enumerate() {
        *r = inv[j][0] * p[0].n + inv[j][1] * p[1].n + inv[j][2] * p[2].n + inv[j][3] * p[3].n;
    }
    Some((ax, res))
}

/// Gauss-Jordan inversion with partial pivoting; `None` when a pivot is not above `FTINY`
/// (RADIANCE's test, so the same cells go unsmoothed).
fn invert4(mut a: [[f64; 4]; 4]) -> Option<[[f64; 4]; 4]> {
    let mut inv = [[0.0f64; 4]; 4];
    for (i, row) in inv.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for i in 0..4 {
        let mut best = FTINY;
        let mut pivot = None;
        for (k, row) in a.iter().enumerate().skip(i) {
            if row[i].abs() > best {
                best = row[i].abs();
                pivot = Some(k);
            }
        }
        let k = pivot?;
        a.swap(i, k);
        inv.swap(i, k);
        let d = a[i][i];
        for c in 0..4 {
            a[i][c] /= d;
            inv[i][c] /= d;
        }
        for j in 0..4 {
            if j != i {
                let f = a[j][i];
                for c in 0..4 {
                    a[j][c] -= a[i][c] * f;
                    inv[j][c] -= inv[i][c] * f;
                }
            }
        }
    }
    Some(inv)
}
