//! The plan under the annual maps: a horizontal section of the scene a little above the work
//! plane, as an architect's floor plan is cut, with what lies below the cut seen from above.
//!
//! - **Cut**: every surface that crosses the plane `z = cut` (by default the sensors' median
//!   height + 0.5 m, so that it passes through windows above a sill) gives the line where the
//!   plane meets it. A polygon's crossings are sorted along that line and paired (even–odd),
//!   so RADIANCE's seam-cut openings leave gaps. Spheres, cones and rings are cut as the
//!   facets of a fine tessellation. A line is [`LineKind::Glazing`] when the surface's
//!   material lets light through (glass, dielectric, interface, trans, trans2, transfunc,
//!   transdata, BSDF, aBSDF, illum) or the surface, its modifier or its material is named like
//!   a window ("window", "glaz", "glass", "pane"); otherwise [`LineKind::Wall`]. Openings are
//!   the gaps between cut lines.
//! - **Below the cut**: surfaces lying wholly between the floor and the cut whose middle is in
//!   the room (the sensors' extent) are drawn as [`LineKind::Furniture`] outlines, seen from
//!   above: their edges projected onto the plan, leaving out edges between two facets of one
//!   flat or gently curved surface (a mesh's inner edges) and edges seen end-on.
//! - **Floor**: the highest horizontal surface below a sensor, lowest over the sensors (so a
//!   desk under some sensors is not taken for the floor); its outlines bound the map's cells.
//! - **North**: RADIANCE's convention, +Y, unless rotated ([`PlanOptions::north`]).
//!
//! Surfaces modified by `void`, light sources and antimatter are left out: they are not
//! walls a designer would see.

use crate::sensors::{SensorSet, DEFAULT_HEIGHT, DEFAULT_SPACING};
use daylit_geometry::{DVec3, Shape};
use daylit_scene::{PrimId, PrimType, Scene};
use std::collections::HashMap;

/// Height of the cut above the sensors, metres (RADIANCE's and most plans' convention is a
/// cut through the windows; 0.5 m above a 0.8 m work plane is 1.3 m).
pub const DEFAULT_CUT_ABOVE: f64 = 0.5;

/// Facets around a tessellated sphere, cone or ring.
const ROUND_FACETS: usize = 48;

/// Facets of one surface, or of an edge, meeting at less than this angle (degrees) are one
/// smooth surface: the edge between them is not an outline.
const CREASE_DEGREES: f64 = 30.0;

/// What a plan line shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// An opaque surface cut by the plane: a wall, column or mullion.
    Wall,
    /// A surface that lets light through, cut by the plane: glazing.
    Glazing,
    /// An edge of something below the cut, seen from above: furniture.
    Furniture,
}

/// A straight line on the plan, metres (x, y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanLine {
    /// One end.
    pub a: [f64; 2],
    /// The other end.
    pub b: [f64; 2],
    /// What it shows.
    pub kind: LineKind,
}

/// How the plan is cut.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanOptions {
    /// Height of the cut above the sensors' median height, metres.
    pub cut_above: f64,
    /// Direction of north, degrees counter-clockwise from +Y seen from above (RADIANCE's
    /// convention is north = +Y, 0; a sky rotated with gendaymtx -r turns it by that angle).
    pub north: f64,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            cut_above: DEFAULT_CUT_ABOVE,
            north: 0.0,
        }
    }
}

/// A plan of the room around the sensors.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// Height of the cut, metres.
    pub cut_height: f64,
    /// Height of the floor found under the sensors, metres.
    pub floor_height: Option<f64>,
    /// The lines: furniture first, then glazing, then walls (the order to draw them in).
    pub lines: Vec<PlanLine>,
    /// Outlines (x, y) of the floor surfaces under the sensors.
    pub floors: Vec<Vec<[f64; 2]>>,
    /// Direction of north, degrees counter-clockwise from +Y.
    pub north: f64,
}

/// How a surface lets light through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Opaque,
    Glazing,
}

/// One planar facet of a surface, with the surface's kind and identity.
struct Facet {
    vertices: Vec<DVec3>,
    normal: DVec3,
    kind: Kind,
    /// Which surface it belongs to (facets of one surface share an outline).
    surface: usize,
}

/// Whether a name reads like a window's.
fn window_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["window", "glaz", "glass", "pane"]
        .iter()
        .any(|w| n.contains(w))
}

/// The kind of a surface with modifier `m` and name `name`, or `None` when it is not drawn
/// (`void`, light sources, antimatter, mist).
fn kind_of(scene: &Scene, m: Option<PrimId>, name: &str) -> Option<Kind> {
    let m = m?;
    let material = scene.material_of(Some(m));
    let mtype = material.map(|id| scene.prim(id).ptype);
    if matches!(
        mtype,
        Some(
            PrimType::Light
                | PrimType::Glow
                | PrimType::Spotlight
                | PrimType::Antimatter
                | PrimType::Mist
        )
    ) {
        return None;
    }
    let see_through = matches!(
        mtype,
        Some(
            PrimType::Glass
                | PrimType::Dielectric
                | PrimType::Interface
                | PrimType::Trans
                | PrimType::Trans2
                | PrimType::Transfunc
                | PrimType::Transdata
                | PrimType::Bsdf
                | PrimType::ABsdf
                | PrimType::Illum
        )
    );
    let named = window_name(name)
        || window_name(&scene.prim(m).name)
        || material.is_some_and(|id| window_name(&scene.prim(id).name));
    Some(if see_through || named {
        Kind::Glazing
    } else {
        Kind::Opaque
    })
}

/// Unit vectors perpendicular to `axis` and to each other.
fn basis(axis: DVec3) -> (DVec3, DVec3) {
    let helper = if axis.x.abs() < 0.9 {
        DVec3::X
    } else {
        DVec3::Y
    };
    let u = axis.cross(helper).normalize();
    (u, axis.cross(u))
}

/// Points around a circle of radius `r` about `c` in the plane spanned by `u`, `v`.
fn circle(c: DVec3, u: DVec3, v: DVec3, r: f64) -> Vec<DVec3> {
    (0..ROUND_FACETS)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / ROUND_FACETS as f64;
            c + r * (a.cos() * u + a.sin() * v)
        })
        .collect()
}

/// The planar facets of a shape: polygons and triangles as they are, round surfaces as a
/// tessellation fine enough to draw.
fn facets_of(shape: &Shape) -> Vec<Vec<DVec3>> {
    match shape {
        Shape::Triangle(t) => vec![t.vertices().to_vec()],
        Shape::Polygon(p) => vec![p.vertices().to_vec()],
        Shape::Sphere(s) => {
            let (c, r) = (s.center(), s.radius());
            let rings = ROUND_FACETS / 2;
            let at = |i: usize, k: usize| {
                let th = std::f64::consts::PI * i as f64 / rings as f64;
                let ph = std::f64::consts::TAU * k as f64 / ROUND_FACETS as f64;
                c + r * DVec3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos())
            };
            let mut out = Vec::new();
            for i in 0..rings {
                for k in 0..ROUND_FACETS {
                    let q = [at(i, k), at(i + 1, k), at(i + 1, k + 1), at(i, k + 1)];
                    // The poles' quads have two equal corners: keep them as triangles.
                    let mut f: Vec<DVec3> = Vec::with_capacity(4);
                    for p in q {
                        if f.last().is_none_or(|l: &DVec3| l.distance(p) > 1e-12 * r) {
                            f.push(p);
                        }
                    }
                    if f.len() >= 3 {
                        out.push(f);
                    }
                }
            }
            out
        }
        Shape::Cone(c) => {
            let (p0, p1) = c.end_points();
            let (r0, r1) = c.radii();
            let (u, v) = basis((p1 - p0).normalize());
            let (a, b) = (circle(p0, u, v, r0), circle(p1, u, v, r1));
            (0..ROUND_FACETS)
                .map(|k| {
                    let n = (k + 1) % ROUND_FACETS;
                    vec![a[k], a[n], b[n], b[k]]
                })
                .collect()
        }
        Shape::Ring(g) => {
            let (r0, r1) = g.radii();
            let (u, v) = basis(g.normal());
            let outer = circle(g.center(), u, v, r1);
            if r0 <= 0.0 {
                return vec![outer];
            }
            let inner = circle(g.center(), u, v, r0);
            (0..ROUND_FACETS)
                .map(|k| {
                    let n = (k + 1) % ROUND_FACETS;
                    vec![inner[k], outer[k], outer[n], inner[n]]
                })
                .collect()
        }
    }
}

/// Newell's normal of a polygon (unit; zero for a degenerate one).
fn normal_of(v: &[DVec3]) -> DVec3 {
    let mut n = DVec3::ZERO;
    for (k, a) in v.iter().enumerate() {
        let b = v[(k + 1) % v.len()];
        n += DVec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    n.normalize_or_zero()
}

/// Every drawable facet of the scene.
fn scene_facets(scene: &Scene) -> Vec<Facet> {
    let mut out = Vec::new();
    let mut surface = 0;
    for id in scene.surfaces() {
        let p = scene.prim(id);
        let Some(kind) = kind_of(scene, p.modifier, &p.name) else {
            continue;
        };
        let Some(Ok(shape)) = daylit_compile::shape_of(p.ptype, &p.fargs) else {
            continue; // sources, instances (placed by the loader) and degenerate surfaces
        };
        for vertices in facets_of(&shape) {
            let normal = normal_of(&vertices);
            out.push(Facet {
                vertices,
                normal,
                kind,
                surface,
            });
        }
        surface += 1;
    }
    for mesh in &scene.meshes {
        let kinds: Vec<Option<Kind>> = mesh
            .modifiers
            .iter()
            .map(|&m| kind_of(scene, m, ""))
            .collect();
        for (t, tri) in mesh.triangles.iter().enumerate() {
            let m = mesh.tri_modifier.get(t).copied().unwrap_or(0) as usize;
            let Some(kind) = kinds.get(m).copied().flatten() else {
                continue;
            };
            let vertices: Vec<DVec3> = tri
                .iter()
                .map(|&k| DVec3::from_array(mesh.vertices[k as usize]))
                .collect();
            let normal = normal_of(&vertices);
            if normal == DVec3::ZERO {
                continue;
            }
            out.push(Facet {
                vertices,
                normal,
                kind,
                surface,
            });
        }
        surface += 1;
    }
    out
}

/// The segments (x, y) where the plane `z = c` meets a planar polygon, crossings paired
/// even–odd along the line so that holes and seams leave gaps.
pub fn cut_polygon(vertices: &[DVec3], c: f64) -> Vec<([f64; 2], [f64; 2])> {
    let n = normal_of(vertices);
    // The line of the cut runs along n × z; a horizontal polygon has none.
    let dir = DVec3::new(n.y, -n.x, 0.0);
    if dir.length() < 1e-9 {
        return Vec::new();
    }
    let dir = dir.normalize();
    let mut hits: Vec<(f64, [f64; 2])> = Vec::new();
    for (k, a) in vertices.iter().enumerate() {
        let b = vertices[(k + 1) % vertices.len()];
        // Half-open rule: a vertex on the plane counts as above, so each crossing counts once.
        if (a.z >= c) != (b.z >= c) {
            let t = (c - a.z) / (b.z - a.z);
            let p = *a + t * (b - *a);
            hits.push((p.x * dir.x + p.y * dir.y, [p.x, p.y]));
        }
    }
    hits.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Pieces that meet end to end (where a seam crosses the cut) make one line.
    let mut out: Vec<(f64, f64, [f64; 2], [f64; 2])> = Vec::new();
    for h in hits.chunks_exact(2).filter(|h| h[1].0 - h[0].0 > 1e-9) {
        match out.last_mut() {
            Some(last) if (h[0].0 - last.1).abs() <= 1e-9 => {
                last.1 = h[1].0;
                last.3 = h[1].1;
            }
            _ => out.push((h[0].0, h[1].0, h[0].1, h[1].1)),
        }
    }
    out.into_iter().map(|(_, _, a, b)| (a, b)).collect()
}

/// Whether (x, y) is inside a polygon's outline (even–odd).
fn inside(poly: &[[f64; 2]], x: f64, y: f64) -> bool {
    let mut odd = false;
    for (k, a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        if (a[1] > y) != (b[1] > y) {
            let xc = a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if x < xc {
                odd = !odd;
            }
        }
    }
    odd
}

fn plan_of(v: &[DVec3]) -> Vec<[f64; 2]> {
    v.iter().map(|p| [p.x, p.y]).collect()
}

/// Extent of the sensors on plan, their cells included: `[x0, y0, x1, y1]`.
pub fn sensor_extent(sensors: &SensorSet) -> [f64; 4] {
    let half = sensors.grids.first().map_or(DEFAULT_SPACING, |g| g.spacing) / 2.0;
    let mut e = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for s in &sensors.sensors {
        let [x, y, _] = s.position;
        e = [
            e[0].min(x - half),
            e[1].min(y - half),
            e[2].max(x + half),
            e[3].max(y + half),
        ];
    }
    e
}

/// The sensors' median height.
fn median_height(sensors: &SensorSet) -> f64 {
    let mut z: Vec<f64> = sensors.sensors.iter().map(|s| s.position[2]).collect();
    z.sort_by(f64::total_cmp);
    z.get(z.len() / 2).copied().unwrap_or(0.0)
}

/// Cuts `scene` into the plan around `sensors` (see the module documentation).
pub fn cut_scene(scene: &Scene, sensors: &SensorSet, options: &PlanOptions) -> Plan {
    cut_facets(scene_facets(scene), sensors, options)
}

/// Loads the scene `files` and cuts it into the plan around `sensors`.
pub fn cut_files(
    files: &[std::path::PathBuf],
    load: &daylit_scene::LoadOptions,
    sensors: &SensorSet,
    options: &PlanOptions,
) -> Result<Plan, daylit_scene::SceneError> {
    Ok(cut_scene(
        &daylit_scene::load_scene(files, load)?,
        sensors,
        options,
    ))
}

fn cut_facets(facets: Vec<Facet>, sensors: &SensorSet, options: &PlanOptions) -> Plan {
    let work_plane = median_height(sensors);
    let cut = work_plane + options.cut_above;
    let room = sensor_extent(sensors);
    // Lines are kept a little beyond the room, so walls just outside the cells show.
    let margin = 0.5f64.max(0.1 * (room[2] - room[0]).max(room[3] - room[1]));
    let near = |lo: DVec3, hi: DVec3| {
        hi.x >= room[0] - margin
            && lo.x <= room[2] + margin
            && hi.y >= room[1] - margin
            && lo.y <= room[3] + margin
    };
    let bounds = |f: &Facet| {
        let lo = f.vertices.iter().fold(DVec3::MAX, |a, &b| a.min(b));
        let hi = f.vertices.iter().fold(DVec3::MIN, |a, &b| a.max(b));
        (lo, hi)
    };

    // The floor: under each of up to 64 sensors, the highest horizontal facet below it.
    let flat: Vec<(usize, f64, Vec<[f64; 2]>)> = facets
        .iter()
        .enumerate()
        .filter(|(_, f)| f.normal.z.abs() > 0.999)
        .filter(|(_, f)| {
            let (lo, hi) = bounds(f);
            near(lo, hi)
        })
        .map(|(i, f)| (i, f.vertices[0].z, plan_of(&f.vertices)))
        .collect();
    let step = (sensors.sensors.len() / 64).max(1);
    let floor_height = sensors
        .sensors
        .iter()
        .step_by(step)
        .filter_map(|s| {
            let [x, y, z] = s.position;
            flat.iter()
                .filter(|(_, fz, poly)| *fz < z - 1e-3 && inside(poly, x, y))
                .map(|(_, fz, _)| *fz)
                .reduce(f64::max)
        })
        .reduce(f64::min);
    let floors: Vec<Vec<[f64; 2]>> = match floor_height {
        Some(fz) => flat
            .iter()
            .filter(|(_, z, _)| (z - fz).abs() < 1e-3)
            .map(|(_, _, poly)| poly.clone())
            .collect(),
        None => Vec::new(),
    };
    let low = floor_height.unwrap_or(work_plane - DEFAULT_HEIGHT) + 0.02;

    let mut cut_lines = Vec::new();
    let mut below: Vec<&Facet> = Vec::new();
    // Which surfaces lie wholly below the cut, and their extents.
    let mut extent: HashMap<usize, (DVec3, DVec3)> = HashMap::new();
    for f in &facets {
        let (lo, hi) = bounds(f);
        let e = extent.entry(f.surface).or_insert((lo, hi));
        *e = (e.0.min(lo), e.1.max(hi));
        if !near(lo, hi) {
            continue;
        }
        if lo.z < cut && hi.z >= cut {
            let kind = match f.kind {
                Kind::Glazing => LineKind::Glazing,
                Kind::Opaque => LineKind::Wall,
            };
            for (a, b) in cut_polygon(&f.vertices, cut) {
                cut_lines.push(PlanLine { a, b, kind });
            }
        }
        below.push(f);
    }
    let furniture_surface = |s: usize| {
        extent.get(&s).is_some_and(|(lo, hi)| {
            let (mx, my) = ((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0);
            hi.z < cut
                && hi.z > low
                && (room[0]..=room[2]).contains(&mx)
                && (room[1]..=room[3]).contains(&my)
        })
    };
    let outline = outline_edges(below.into_iter().filter(|f| furniture_surface(f.surface)));

    let mut lines: Vec<PlanLine> = outline
        .into_iter()
        .map(|(a, b)| PlanLine {
            a,
            b,
            kind: LineKind::Furniture,
        })
        .collect();
    cut_lines.sort_by_key(|l| l.kind == LineKind::Wall);
    lines.extend(cut_lines);
    Plan {
        cut_height: cut,
        floor_height,
        lines,
        floors,
        north: options.north,
    }
}

/// The edges of facets seen from above that outline things: edges of one facet only, or
/// between facets that meet at a crease; not edges seen end-on.
fn outline_edges<'a>(facets: impl Iterator<Item = &'a Facet>) -> Vec<([f64; 2], [f64; 2])> {
    // Endpoints to 0.1 mm, so edges shared by two facets meet in one key.
    let key = |p: DVec3| [p.x, p.y, p.z].map(|c| (c * 1e4).round() as i64);
    // Per edge (its end keys): its ends and the normals of the facets that share it.
    type Shared = (DVec3, DVec3, Vec<DVec3>);
    let mut edges: HashMap<([i64; 3], [i64; 3]), Shared> = HashMap::new();
    for f in facets {
        for (k, &a) in f.vertices.iter().enumerate() {
            let b = f.vertices[(k + 1) % f.vertices.len()];
            let (ka, kb) = (key(a), key(b));
            if ka == kb {
                continue;
            }
            let k = if ka < kb { (ka, kb) } else { (kb, ka) };
            edges
                .entry(k)
                .or_insert((a, b, Vec::new()))
                .2
                .push(f.normal);
        }
    }
    let crease = CREASE_DEGREES.to_radians().cos();
    let mut out: Vec<([f64; 2], [f64; 2])> = edges
        .into_values()
        .filter(|(a, b, normals)| {
            let seen = (a.x - b.x).hypot(a.y - b.y) > 1e-6;
            let sharp = normals.len() == 1
                || normals
                    .iter()
                    .enumerate()
                    .any(|(i, n)| normals[i + 1..].iter().any(|m| n.dot(*m).abs() < crease));
            seen && sharp
        })
        .map(|(a, b, _)| ([a.x, a.y], [b.x, b.y]))
        .collect();
    // A fixed order, so maps are the same from run to run.
    out.sort_by(|p, q| {
        p.0.iter()
            .chain(&p.1)
            .zip(q.0.iter().chain(&q.1))
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensors::GridOptions;
    use daylit_scene::{load_scene_text, LoadOptions};

    /// A 4 m × 6 m room, 3 m high, with a 2.4 m × 1.4 m window (sill 0.9 m) cut into its
    /// south wall at x 0.8–3.2, a desk, and a ground disk outside.
    const ROOM: &str = "
void plastic wall 0 0 5 .5 .5 .5 0 0
void glass clear 0 0 3 .9 .9 .9
void plastic wood 0 0 5 .4 .3 .2 0 0
wall polygon floor 0 0 12  0 0 0  4 0 0  4 6 0  0 6 0
wall polygon ceiling 0 0 12  0 0 3  0 6 3  4 6 3  4 0 3
wall polygon west 0 0 12  0 0 0  0 6 0  0 6 3  0 0 3
wall polygon east 0 0 12  4 0 0  4 0 3  4 6 3  4 6 0
wall polygon north 0 0 12  0 6 0  4 6 0  4 6 3  0 6 3
wall polygon south 0 0 30  0 0 0  0 0 3  4 0 3  4 0 0  0 0 0
    0.8 0 0.9  3.2 0 0.9  3.2 0 2.3  0.8 0 2.3  0.8 0 0.9
clear polygon pane 0 0 12  0.8 0 0.9  3.2 0 0.9  3.2 0 2.3  0.8 0 2.3
!genbox wood desk 1.2 0.6 0.03 | xform -t 1 3 0.72
wall ring ground 0 0 8  2 -10 -0.01  0 0 1  0 30
";

    fn room() -> (Scene, SensorSet) {
        let scene = load_scene_text(ROOM, "room.rad", ".".as_ref(), &LoadOptions::default())
            .expect("test room parses");
        let floor = scene.polygon_vertices("floor").unwrap();
        let sensors = SensorSet::from_polygon(&floor, &GridOptions::default()).unwrap();
        (scene, sensors)
    }

    fn close(p: [f64; 2], q: [f64; 2]) -> bool {
        (p[0] - q[0]).abs() < 1e-9 && (p[1] - q[1]).abs() < 1e-9
    }

    /// Whether `lines` hold a segment from `a` to `b` (either way round).
    fn has(lines: &[PlanLine], kind: LineKind, a: [f64; 2], b: [f64; 2]) -> bool {
        lines.iter().any(|l| {
            l.kind == kind && ((close(l.a, a) && close(l.b, b)) || (close(l.a, b) && close(l.b, a)))
        })
    }

    #[test]
    fn a_box_room_with_a_window_cuts_into_walls_and_glazing() {
        let (scene, sensors) = room();
        let plan = cut_scene(&scene, &sensors, &PlanOptions::default());
        assert!((plan.cut_height - 1.3).abs() < 1e-12);
        assert_eq!(plan.floor_height, Some(0.0));
        let of = |k| plan.lines.iter().filter(|l| l.kind == k).count();
        // West, east, north and the two pieces of the south wall beside the window.
        assert_eq!(of(LineKind::Wall), 5, "{:?}", plan.lines);
        assert!(has(&plan.lines, LineKind::Wall, [0.0, 0.0], [0.0, 6.0]));
        assert!(has(&plan.lines, LineKind::Wall, [4.0, 0.0], [4.0, 6.0]));
        assert!(has(&plan.lines, LineKind::Wall, [0.0, 6.0], [4.0, 6.0]));
        assert!(has(&plan.lines, LineKind::Wall, [0.0, 0.0], [0.8, 0.0]));
        assert!(has(&plan.lines, LineKind::Wall, [3.2, 0.0], [4.0, 0.0]));
        assert_eq!(of(LineKind::Glazing), 1);
        assert!(has(&plan.lines, LineKind::Glazing, [0.8, 0.0], [3.2, 0.0]));
        // The desk below the cut: its outline, 1.2 m × 0.6 m at (1, 3); nothing of the floor,
        // the ceiling or the ground.
        let desk: Vec<&PlanLine> = plan
            .lines
            .iter()
            .filter(|l| l.kind == LineKind::Furniture)
            .collect();
        assert!(!desk.is_empty());
        for l in &desk {
            for p in [l.a, l.b] {
                assert!((1.0 - 1e-9..=2.2 + 1e-9).contains(&p[0]), "{l:?}");
                assert!((3.0 - 1e-9..=3.6 + 1e-9).contains(&p[1]), "{l:?}");
            }
        }
        let furniture: Vec<PlanLine> = desk.into_iter().copied().collect();
        assert!(has(&furniture, LineKind::Furniture, [1.0, 3.0], [2.2, 3.0]));
        assert!(has(&furniture, LineKind::Furniture, [2.2, 3.0], [2.2, 3.6]));
        // The floor outline bounds the cells; walls come last, to be drawn on top.
        assert_eq!(
            plan.floors,
            vec![vec![[0.0, 0.0], [4.0, 0.0], [4.0, 6.0], [0.0, 6.0]]]
        );
        assert_eq!(plan.lines.last().unwrap().kind, LineKind::Wall);
    }

    #[test]
    fn a_cut_lower_than_the_sill_closes_the_wall_and_takes_in_the_desk() {
        let (scene, sensors) = room();
        let options = PlanOptions {
            cut_above: -0.06, // 0.74 m: under the sill (0.9 m), through the desk top
            north: 0.0,
        };
        let plan = cut_scene(&scene, &sensors, &options);
        let walls: Vec<&PlanLine> = plan
            .lines
            .iter()
            .filter(|l| l.kind == LineKind::Wall)
            .collect();
        // The south wall is whole below the window; the desk top's sides are cut.
        assert!(
            has(&plan.lines, LineKind::Wall, [0.0, 0.0], [4.0, 0.0]),
            "{walls:?}"
        );
        assert!(!plan.lines.iter().any(|l| l.kind == LineKind::Glazing));
        assert!(has(&plan.lines, LineKind::Wall, [1.0, 3.0], [2.2, 3.0]));
    }

    #[test]
    fn polygons_with_seams_cylinders_and_names() {
        // A wall with two openings by seams, cut through both.
        let v: Vec<DVec3> = [
            [0., 0., 0.],
            [0., 0., 3.],
            [6., 0., 3.],
            [6., 0., 0.],
            [0., 0., 0.],
            [1., 0., 1.],
            [2., 0., 1.],
            [2., 0., 2.],
            [1., 0., 2.],
            [1., 0., 1.],
            [0., 0., 0.],
            [4., 0., 1.],
            [5., 0., 1.],
            [5., 0., 2.],
            [4., 0., 2.],
            [4., 0., 1.],
        ]
        .iter()
        .map(|&p| DVec3::from_array(p))
        .collect();
        let mut segs = cut_polygon(&v, 1.5);
        segs.sort_by(|a, b| a.0[0].min(a.1[0]).total_cmp(&b.0[0].min(b.1[0])));
        let xs: Vec<(f64, f64)> = segs
            .iter()
            .map(|(a, b)| (a[0].min(b[0]), a[0].max(b[0])))
            .collect();
        assert_eq!(xs, vec![(0.0, 1.0), (2.0, 4.0), (5.0, 6.0)]);
        // A horizontal polygon has no cut line.
        assert!(cut_polygon(
            &v.iter()
                .map(|p| DVec3::new(p.x, p.z, 1.0))
                .collect::<Vec<_>>(),
            1.0
        )
        .is_empty());
        // A vertical cylinder's cut is a circle of its radius.
        let cyl =
            daylit_geometry::Cone::cylinder(DVec3::new(1., 2., 0.), DVec3::new(1., 2., 3.), 0.25)
                .unwrap();
        let segs: Vec<_> = facets_of(&Shape::Cone(cyl))
            .iter()
            .flat_map(|f| cut_polygon(f, 1.0))
            .collect();
        assert_eq!(segs.len(), ROUND_FACETS);
        for (a, _) in segs {
            assert!(((a[0] - 1.0).hypot(a[1] - 2.0) - 0.25).abs() < 1e-9);
        }
        assert!(window_name("South_Window_2") && window_name("glazing") && !window_name("wall"));
    }
}
