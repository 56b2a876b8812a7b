//! RADIANCE's rtrace on a batch of rays: the records it writes per ray (the `-o` outputs in
//! `-fa`, `-ff` or `-fd`), its header, and the parallel, per-ray seeded tracing that the
//! `daylit rtrace` front end and [`Renderer::trace_batch`] (Python's `Scene.trace`) share.
//!
//! Ray `i` of a run draws the random sequence of primary ray `i`, and the irradiance cache
//! (`-aa` above 0) is built from every `stride`-th ray before tracing, so the values depend
//! neither on the thread count nor on which front end asked for them.

use crate::irradiance_cache::{Prepared, MAX_PRIMARIES};
use crate::ray::FHUGE;
use crate::{origin_modifier, Ctx, Radiance, Renderer};
use daylit_compile::{CompiledScene, Origin};
use daylit_geometry::Ray;
use daylit_scene::{PrimType, Scene};
use glam::DVec3;
use rayon::prelude::*;

/// Rays a worker traces between two picks of work; also the unit of output buffering.
const CHUNK: usize = 64;

/// How numbers are written or read (rtrace's `-f` letters).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Format {
    /// Text (`a`): numbers as `%e` separated by tabs, one record per line.
    #[default]
    Ascii,
    /// 32-bit floats in the machine's byte order (`f`).
    Float,
    /// 64-bit floats in the machine's byte order (`d`).
    Double,
}

impl Format {
    /// The format of a `-f` letter (`a`, `f` or `d`).
    pub fn from_letter(c: char) -> Option<Format> {
        match c {
            'a' => Some(Format::Ascii),
            'f' => Some(Format::Float),
            'd' => Some(Format::Double),
            _ => None,
        }
    }

    /// Bytes of one number in a binary format (0 for text).
    fn width(self) -> usize {
        match self {
            Format::Ascii => 0,
            Format::Float => 4,
            Format::Double => 8,
        }
    }
}

/// One output column of a record (rtrace's `-o` letters).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Output {
    /// `o`: the ray's origin.
    Origin,
    /// `d`: its unit direction.
    Dir,
    /// `L`: the distance to the first hit.
    Dist,
    /// `p`: the hit point (the origin for a ray that hits nothing).
    Point,
    /// `N`: the surface normal.
    Normal,
    /// `n`: the shading normal: a mesh's interpolated one where it has vertex normals.
    PertNormal,
    /// `c`: local (u,v) coordinates.
    Local,
    /// `s`: the surface's name.
    Surface,
    /// `m`: the modifier's name.
    Modifier,
    /// `M`: the material's name.
    Material,
    /// `v`: the value (radiance, or irradiance with `-I`/`-i`).
    Value,
    /// `V`: the contribution (the value: primary rays weigh 1).
    Contribution,
    /// `w`: the ray's weight.
    Weight,
    /// `l`: RADIANCE's `raydistance`: the mirror image's distance or the effective length.
    EffectiveLength,
    /// `r`: the part of the value a pure mirror reflection brought.
    Mirrored,
    /// `R`: the length to what that reflection shows.
    MirroredLength,
    /// `x`: the rest of the value.
    Unmirrored,
    /// `X`: the length on through what the ray passes unperturbed.
    UnmirroredLength,
}

impl Output {
    /// The output of an `-o` letter, `None` for letters daylit does not know or write.
    pub fn from_letter(c: char) -> Option<Output> {
        Some(match c {
            'o' => Output::Origin,
            'd' => Output::Dir,
            'L' => Output::Dist,
            'p' => Output::Point,
            'N' => Output::Normal,
            'n' => Output::PertNormal,
            'c' => Output::Local,
            's' => Output::Surface,
            'm' => Output::Modifier,
            'M' => Output::Material,
            'v' => Output::Value,
            'V' => Output::Contribution,
            'w' => Output::Weight,
            'l' => Output::EffectiveLength,
            'r' => Output::Mirrored,
            'R' => Output::MirroredLength,
            'x' => Output::Unmirrored,
            'X' => Output::UnmirroredLength,
            _ => return None,
        })
    }

    /// Whether the light-transport engine must run for this output (not geometry alone).
    pub fn needs_transport(self) -> bool {
        matches!(
            self,
            Output::Value
                | Output::Contribution
                | Output::Weight
                | Output::EffectiveLength
                | Output::Mirrored
                | Output::MirroredLength
                | Output::Unmirrored
                | Output::UnmirroredLength
        )
    }

    /// Whether it is a name (written only as text).
    pub fn is_name(self) -> bool {
        matches!(self, Output::Surface | Output::Modifier | Output::Material)
    }

    /// Whether it splits the value at mirrors (`-orRxX`, meaningless with `-I`/`-i`).
    pub fn is_mirror_split(self) -> bool {
        matches!(
            self,
            Output::Mirrored
                | Output::MirroredLength
                | Output::Unmirrored
                | Output::UnmirroredLength
        )
    }

    /// Components it counts in the header's `NCOMP` (a name counts one).
    pub fn components(self) -> usize {
        match self {
            Output::Origin
            | Output::Dir
            | Output::Point
            | Output::Normal
            | Output::PertNormal
            | Output::Value
            | Output::Contribution
            | Output::Mirrored
            | Output::Unmirrored => 3,
            Output::Local => 2,
            _ => 1,
        }
    }
}

/// What a run writes per ray.
#[derive(Clone, Debug, PartialEq)]
pub struct RtraceOptions {
    /// The columns of each record, in order.
    pub outputs: Vec<Output>,
    /// `-I`: irradiance at each ray's origin on a surface facing its direction, instead of
    /// the radiance along it.
    pub irradiance_at_points: bool,
    /// How records are written.
    pub format: Format,
    /// `-bv`: back faces are visible (shading normals of two-sided materials turn to the ray).
    pub backvis: bool,
}

/// What traces the rays: geometry alone (outputs that need no light transport) or the
/// light-transport engine.
#[derive(Clone, Copy)]
pub enum Engine<'a> {
    /// Intersections only: values come out as for a ray that was not traced.
    Geometry(&'a Scene, &'a CompiledScene),
    /// Full light transport.
    Transport(&'a Renderer),
}

impl<'a> Engine<'a> {
    fn scene(self) -> &'a Scene {
        match self {
            Engine::Geometry(s, _) => s,
            Engine::Transport(r) => &r.scene,
        }
    }

    fn compiled(self) -> &'a CompiledScene {
        match self {
            Engine::Geometry(_, c) => c,
            Engine::Transport(r) => &r.compiled,
        }
    }

    fn renderer(self) -> Option<&'a Renderer> {
        match self {
            Engine::Geometry(..) => None,
            Engine::Transport(r) => Some(r),
        }
    }
}

/// Rays from rtrace's input: six numbers each (origin, direction) as text (white space
/// separated, any number per line) or binary floats or doubles. `source` names the input in
/// errors (`standard input:LINE: …`).
pub fn decode_rays(bytes: &[u8], format: Format, source: &str) -> Result<Vec<Ray>, String> {
    let size = 6 * format.width();
    if size > 0 && !bytes.len().is_multiple_of(size) {
        let letter = if format == Format::Float { 'f' } else { 'd' };
        return Err(format!(
            "{source}: {} bytes is not a whole number of rays ({size} bytes each in -f{letter} format)",
            bytes.len()
        ));
    }
    let nums: Vec<f64> = match format {
        Format::Float => bytes
            .chunks_exact(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as f64)
            .collect(),
        Format::Double => bytes
            .chunks_exact(8)
            .map(|c| f64::from_ne_bytes(c.try_into().unwrap_or([0; 8])))
            .collect(),
        Format::Ascii => {
            let text = String::from_utf8_lossy(bytes);
            let mut v = Vec::new();
            for (n, line) in text.lines().enumerate() {
                for w in line.split_whitespace() {
                    v.push(w.parse::<f64>().map_err(|_| {
                        format!("{source}:{}: expected a number, found \"{w}\"", n + 1)
                    })?);
                }
            }
            if v.len() % 6 != 0 {
                return Err(format!(
                    "{source}: {} numbers is not a whole number of rays (6 each: origin, direction)",
                    v.len()
                ));
            }
            v
        }
    };
    Ok(nums
        .chunks_exact(6)
        .map(|c| Ray {
            origin: DVec3::new(c[0], c[1], c[2]),
            dir: DVec3::new(c[3], c[4], c[5]),
        })
        .collect())
}

/// rtrace's information header for these options: the command line, the software, the
/// components per record and the format, ended by the blank line.
pub fn header(command_line: &str, opts: &RtraceOptions) -> String {
    let mut h = String::from("#?RADIANCE\n");
    h += command_line;
    h.push('\n');
    h += &format!("SOFTWARE= daylit {}\n", env!("CARGO_PKG_VERSION"));
    let ncomp: usize = opts.outputs.iter().map(|x| x.components()).sum();
    h += &format!("NCOMP={ncomp}\n");
    h += match opts.format {
        Format::Float => "BigEndian=0\nFORMAT=float\n",
        Format::Double => "BigEndian=0\nFORMAT=double\n",
        Format::Ascii => "FORMAT=ascii\n",
    };
    h.push('\n');
    h
}

/// The resolution line rtrace writes after the header with `-x` and `-y`.
pub fn resolution_line(x: usize, y: usize) -> String {
    format!("-Y {y:8} +X {x:8}\n")
}

/// The value of one input ray: radiance along it, or with `irradiance_at_points` the
/// irradiance at its origin; a zero or non-finite direction gives nothing (zero, lengths
/// [`FHUGE`]).
pub fn shade(rd: &Renderer, ray: &Ray, irradiance_at_points: bool, ctx: &mut Ctx) -> Radiance {
    let len = ray.dir.length();
    let nothing = Radiance {
        value: DVec3::ZERO,
        dist: FHUGE,
        extent: FHUGE,
        mirror: DVec3::ZERO,
        mirror_dist: FHUGE,
    };
    if len == 0.0 || !len.is_finite() {
        return nothing;
    }
    let dir = ray.dir / len;
    if irradiance_at_points {
        // RADIANCE pretends the ray hit a surface 1e-5 away.
        return Radiance {
            value: rd.irradiance(ray.origin, dir, ctx),
            dist: 1e-5,
            extent: 1e-5,
            ..nothing
        };
    }
    rd.radiance(ray.origin, dir, ctx)
}

impl Renderer {
    /// Builds (or reads from `-af`) the irradiance cache a run over `rays` needs, from the
    /// rays themselves as rtrace does: every `stride`-th ray, so that at most
    /// [`MAX_PRIMARIES`] primaries are sampled. Nothing happens with `-aa 0`.
    pub fn prepare_for_rays(
        &mut self,
        rays: &[Ray],
        irradiance_at_points: bool,
    ) -> Result<Prepared, String> {
        let stride = rays.len().div_ceil(MAX_PRIMARIES).max(1);
        let n = rays.len().div_ceil(stride);
        self.prepare_irradiance_cache(n, |rd, i, ctx| {
            shade(rd, &rays[i * stride], irradiance_at_points, ctx);
        })
    }
}

impl Renderer {
    /// Traces `rays` (origin, direction) in parallel: radiance, or irradiance with
    /// `irradiance` (rtrace `-I`), equal to rtrace's `-ov` values for the same rays and
    /// options. With `-aa` above 0 the irradiance cache is built (or read from `-af`) first
    /// from the rays themselves, as rtrace builds it. Errors come from the cache; the
    /// returned [`Prepared`] carries its warnings.
    pub fn trace_batch(
        &mut self,
        rays: &[(DVec3, DVec3)],
        irradiance: bool,
    ) -> Result<(Vec<DVec3>, Prepared), String> {
        let rays: Vec<Ray> = rays
            .iter()
            .map(|&(origin, dir)| Ray { origin, dir })
            .collect();
        let prepared = self.prepare_for_rays(&rays, irradiance)?;
        let chunks = shade_chunks(
            Some(&*self),
            &rays,
            irradiance,
            |acc: &mut Vec<DVec3>, _, s| acc.push(s.map_or(DVec3::ZERO, |s| s.value)),
        );
        Ok((chunks.into_iter().flatten().collect(), prepared))
    }
}

/// Traces `rays` in parallel on the current rayon pool and folds each chunk of them, in
/// input order, into one accumulator: `record` gets the accumulator, the ray and (with the
/// light-transport engine) its value. Ray `i` is seeded as primary ray `i`.
pub fn shade_chunks<A, F>(
    renderer: Option<&Renderer>,
    rays: &[Ray],
    irradiance_at_points: bool,
    record: F,
) -> Vec<A>
where
    A: Default + Send,
    F: Fn(&mut A, &Ray, Option<&Radiance>) + Sync,
{
    rays.par_chunks(CHUNK)
        .enumerate()
        .map(|(ci, chunk)| {
            let mut acc = A::default();
            let mut ctx = renderer.map(|r| r.ctx(0));
            for (k, ray) in chunk.iter().enumerate() {
                let shaded = match (renderer, ctx.as_mut()) {
                    (Some(rd), Some(ctx)) => {
                        rd.reseed(ctx, (ci * CHUNK + k) as u64);
                        Some(shade(rd, ray, irradiance_at_points, ctx))
                    }
                    _ => None,
                };
                record(&mut acc, ray, shaded.as_ref());
            }
            acc
        })
        .collect()
}

/// Traces `rays` and returns rtrace's records for them, in input order, as byte chunks to be
/// written one after another (after [`header`] where wanted). With [`Engine::Transport`] the
/// irradiance cache should already be prepared ([`Renderer::prepare_for_rays`]).
pub fn trace_records(engine: Engine<'_>, rays: &[Ray], opts: &RtraceOptions) -> Vec<Vec<u8>> {
    shade_chunks(
        engine.renderer(),
        rays,
        opts.irradiance_at_points,
        |buf: &mut Vec<u8>, ray, shaded| write_record(engine, opts, ray, shaded, buf),
    )
}

/// Names of the shape's surface, modifier and material.
fn names(scene: &Scene, origin: Origin) -> [&str; 3] {
    let surface = match origin {
        Origin::Prim(id) => scene.prim(id).name.as_str(),
        Origin::MeshTri { mesh, .. } => scene.meshes[mesh as usize].source.as_str(),
    };
    let modifier = origin_modifier(scene, origin);
    let name = |m: Option<u32>| m.map_or("void", |i| scene.prim(i).name.as_str());
    [surface, name(modifier), name(scene.material_of(modifier))]
}

/// Does the material of `origin` turn a back face toward the ray when it shades it?
fn flips_back_faces(scene: &Scene, origin: Origin) -> bool {
    use PrimType as T;
    scene
        .material_of(origin_modifier(scene, origin))
        .is_some_and(|m| {
            matches!(
                scene.prim(m).ptype,
                T::Plastic
                    | T::Metal
                    | T::Trans
                    | T::Plastic2
                    | T::Metal2
                    | T::Trans2
                    | T::Ashik2
                    | T::Glass
                    | T::BrtdFunc
                    | T::Plasfunc
                    | T::Metfunc
                    | T::Transfunc
                    | T::Plasdata
                    | T::Metdata
                    | T::Transdata
            )
        })
}

/// A mesh's interpolated normal `smooth` at a hit with geometric normal `ron` by a ray along
/// `dir`, turned back to the ray's side of the surface if it left it (RADIANCE's
/// `raynormal`).
fn shading_normal(ron: DVec3, smooth: DVec3, dir: DVec3) -> DVec3 {
    let rod = -dir.dot(ron);
    let d = -dir.dot(smooth);
    if (d > 0.0) != (rod > 0.0) {
        smooth + dir * (2.0 * d)
    } else {
        smooth
    }
}

/// Appends one ray's record to `out`.
fn write_record(
    engine: Engine<'_>,
    opts: &RtraceOptions,
    ray: &Ray,
    shaded: Option<&Radiance>,
    out: &mut Vec<u8>,
) {
    let (scene, compiled) = (engine.scene(), engine.compiled());
    let fmt = opts.format;
    let len = ray.dir.length();
    let hit = if len > 0.0 {
        let r = Ray::new(ray.origin, ray.dir / len);
        compiled
            .accel
            .closest_hit(&r, 0.0, f64::INFINITY)
            .map(|h| (h, r.dir))
    } else {
        None
    };
    let dir = hit.map_or(
        if len > 0.0 {
            ray.dir / len
        } else {
            DVec3::ZERO
        },
        |(_, d)| d,
    );
    let [s, m, mm] = hit.map_or(["*"; 3], |(h, _)| {
        names(scene, compiled.origins[h.prim as usize])
    });
    let put = |out: &mut Vec<u8>, v: f64| match fmt {
        Format::Float => out.extend_from_slice(&(v as f32).to_ne_bytes()),
        Format::Double => out.extend_from_slice(&v.to_ne_bytes()),
        Format::Ascii => out
            .extend_from_slice(format!("{}\t", daylit_radfile::printf::format_e(v, 6)).as_bytes()),
    };
    let put3 = |out: &mut Vec<u8>, v: DVec3| v.to_array().into_iter().for_each(|x| put(out, x));
    for o in &opts.outputs {
        match o {
            Output::Origin => put3(out, ray.origin),
            Output::Dir => put3(out, dir),
            // The traced ray's own (RADIANCE's `rot`: 1e-5 with `-I`) where it was traced.
            Output::Dist => put(
                out,
                shaded.map_or_else(|| hit.map_or(1e10, |(h, _)| h.t), |s| s.dist),
            ),
            // RADIANCE gives the origin as the point of a ray that hits nothing.
            Output::Point => put3(out, hit.map_or(ray.origin, |(h, _)| h.point)),
            Output::Normal => put3(out, hit.map_or(DVec3::ZERO, |(h, _)| h.normal)),
            Output::PertNormal => put3(
                out,
                hit.map_or(DVec3::ZERO, |(h, d)| {
                    let o = compiled.origins[h.prim as usize];
                    let n = match daylit_compile::mesh_point(scene, o, h.point)
                        .and_then(|m| m.normal)
                    {
                        Some(n) => shading_normal(h.normal, n, d),
                        None => h.normal,
                    };
                    // Shading turns a back face's normal toward the ray for the materials
                    // that shade both sides, as RADIANCE's do (its `flipsurface`).
                    if opts.backvis && d.dot(h.normal) > 0.0 && flips_back_faces(scene, o) {
                        -n
                    } else {
                        n
                    }
                }),
            ),
            Output::Local => {
                let uv = hit
                    .and_then(|(h, _)| {
                        let o = compiled.origins[h.prim as usize];
                        daylit_compile::mesh_point(scene, o, h.point).and_then(|m| m.uv)
                    })
                    .unwrap_or([0.0; 2]);
                put(out, uv[0]);
                put(out, uv[1]);
            }
            Output::Surface | Output::Modifier | Output::Material => {
                let name = match o {
                    Output::Surface => s,
                    Output::Modifier => m,
                    _ => mm,
                };
                if fmt == Format::Ascii {
                    out.extend_from_slice(format!("{name}\t").as_bytes());
                }
            }
            Output::Value | Output::Contribution => {
                put3(out, shaded.map_or(DVec3::ZERO, |s| s.value))
            }
            Output::Weight => put(out, 1.0),
            Output::EffectiveLength => put(out, shaded.map_or(FHUGE, |s| s.distance())),
            Output::Mirrored => put3(out, shaded.map_or(DVec3::ZERO, |s| s.mirror)),
            Output::MirroredLength => put(out, shaded.map_or(FHUGE, |s| s.mirror_dist)),
            Output::Unmirrored => put3(out, shaded.map_or(DVec3::ZERO, |s| s.value - s.mirror)),
            Output::UnmirroredLength => put(out, shaded.map_or(FHUGE, |s| s.extent)),
        }
    }
    if fmt == Format::Ascii {
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use daylit_scene::{load_scene, LoadOptions};

    /// A grey ball of radius 1 at the origin inside a glowing bubble of radius 100.
    fn renderer() -> Renderer {
        let dir = std::env::temp_dir().join(format!("daylit-rtrace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("scene.rad");
        std::fs::write(
            &path,
            "void plastic grey 0 0 5 .5 .5 .5 0 0\ngrey sphere ball 0 0 4 0 0 0 1\n\
             void glow bright 0 0 4 1 1 1 0\nbright bubble sky 0 0 4 0 0 0 100\n",
        )
        .unwrap();
        let scene = load_scene(&[path], &LoadOptions::default()).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        let compiled = daylit_compile::compile(&scene);
        let raypath = daylit_cal::RayPath::new([std::env::temp_dir()]);
        Renderer::new(scene, compiled, crate::Options::rtrace(), &raypath).unwrap()
    }

    const RAYS: &str = "0 0 5 0 0 -2\n0 0 5 0 0 1\n";

    #[test]
    fn rays_decode_from_text_and_binary() {
        let rays = decode_rays(RAYS.as_bytes(), Format::Ascii, "in").unwrap();
        assert_eq!(rays.len(), 2);
        assert_eq!(rays[0].dir, DVec3::new(0.0, 0.0, -2.0));
        let bytes: Vec<u8> = [1.0f32, 2.0, 3.0, 0.0, 0.0, 1.0]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        let rays = decode_rays(&bytes, Format::Float, "in").unwrap();
        assert_eq!(rays[0].origin, DVec3::new(1.0, 2.0, 3.0));
        let e = decode_rays(&bytes[..20], Format::Float, "in").unwrap_err();
        assert_eq!(
            e,
            "in: 20 bytes is not a whole number of rays (24 bytes each in -ff format)"
        );
        let e = decode_rays(b"0 0 0\n1 x", Format::Ascii, "in").unwrap_err();
        assert_eq!(e, "in:2: expected a number, found \"x\"");
    }

    #[test]
    fn header_counts_components() {
        let opts = RtraceOptions {
            outputs: vec![
                Output::Origin,
                Output::Local,
                Output::Surface,
                Output::Value,
            ],
            irradiance_at_points: false,
            format: Format::Float,
            backvis: true,
        };
        assert_eq!(
            header("rtrace -ff", &opts),
            format!(
                "#?RADIANCE\nrtrace -ff\nSOFTWARE= daylit {}\nNCOMP=9\nBigEndian=0\nFORMAT=float\n\n",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(resolution_line(4, 3), "-Y        3 +X        4\n");
    }

    #[test]
    fn records_give_distances_names_and_values() {
        let mut rd = renderer();
        let rays = decode_rays(RAYS.as_bytes(), Format::Ascii, "in").unwrap();
        rd.prepare_for_rays(&rays, false).unwrap();
        let opts = RtraceOptions {
            outputs: vec![
                Output::Dist,
                Output::Surface,
                Output::Modifier,
                Output::Value,
            ],
            irradiance_at_points: false,
            format: Format::Ascii,
            backvis: true,
        };
        let text = String::from_utf8(trace_records(Engine::Transport(&rd), &rays, &opts).concat())
            .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("4.000000e+00\tball\tgrey\t"), "{text}");
        assert_eq!(
            lines[1],
            "9.500000e+01\tsky\tbright\t1.000000e+00\t1.000000e+00\t1.000000e+00\t"
        );
        // Geometry alone: the hit distance, no value.
        let geo = Engine::Geometry(&rd.scene, &rd.compiled);
        let text = String::from_utf8(trace_records(geo, &rays, &opts).concat()).unwrap();
        assert!(text
            .ends_with("9.500000e+01\tsky\tbright\t0.000000e+00\t0.000000e+00\t0.000000e+00\t\n"));
        // Python's batch gives the same values.
        let pairs: Vec<(DVec3, DVec3)> = rays.iter().map(|r| (r.origin, r.dir)).collect();
        let (values, _) = rd.trace_batch(&pairs, false).unwrap();
        assert_eq!(values[1], DVec3::ONE);
    }
}
