//! `daylit rtrace` (and `rtrace`): RADIANCE's ray-tracing front end: values (`v V w l`, with
//! `-I` irradiance at points and `-i` irradiance at surfaces) from the light-transport engine,
//! and the geometric outputs (origin, direction, distance, point, normal, surface, modifier
//! and material names).

use anyhow::{bail, Context};
use daylit_compile::{compile, CompiledScene, Origin};
use daylit_geometry::{DVec3, Ray};
use daylit_scene::{load_scene, LoadOptions, PrimType, Scene};
use daylit_transport::ray::FHUGE;
use rayon::prelude::*;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `daylit rtrace`, written as RADIANCE's rtrace takes them.
#[derive(clap::Args)]
pub struct Args {
    /// RADIANCE rtrace options (with `-seed N`, and `--radiance-ambient` for RADIANCE's own
    /// `-aa 0` estimator instead of daylit's), then the scene (an octree from `daylit oconv`,
    /// or scene files).
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

/// rtrace options that take values and do not change the result (photon maps, cache
/// files, reporting).
const VALUE_OPTIONS: &[(&str, usize)] = &[
    ("-af", 1),
    ("-e", 1),
    ("-t", 1),
    ("-P", 1),
    ("-PP", 1),
    ("-pm", 1),
];

/// Switches (each may end in `+` or `-`) accepted without effect on geometric outputs.
const SWITCHES: &[&str] = &["-w", "-ld", "-co", "-dm"];

/// One requested output column.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Out {
    Origin,
    Dir,
    Dist,
    Point,
    Normal,
    /// The shading normal: a mesh's interpolated one where it has vertex normals.
    PertNormal,
    /// Local (u,v) coordinates.
    Local,
    Surface,
    Modifier,
    Material,
    Value,
    Contribution,
    Weight,
    /// RADIANCE's `raydistance`: the mirror image's distance or the effective length.
    EffectiveLength,
    /// The part of the value a pure mirror reflection brought (`-or`).
    Mirrored,
    /// The length to what that reflection shows (`-oR`).
    MirroredLength,
    /// The rest of the value (`-ox`).
    Unmirrored,
    /// The length on through what the ray passes unperturbed (`-oX`).
    UnmirroredLength,
}

impl Out {
    fn needs_transport(self) -> bool {
        matches!(
            self,
            Out::Value
                | Out::Contribution
                | Out::Weight
                | Out::EffectiveLength
                | Out::Mirrored
                | Out::MirroredLength
                | Out::Unmirrored
                | Out::UnmirroredLength
        )
    }
}

struct Options {
    render: daylit_transport::Options,
    irradiance_at_points: bool,
    outputs: Vec<Out>,
    fmt_in: char,
    fmt_out: char,
    header: bool,
    res: Option<(usize, usize)>,
    threads: usize,
    scene: Vec<PathBuf>,
}

fn parse(args: &[String]) -> anyhow::Result<Options> {
    let mut o = Options {
        render: daylit_transport::Options::rtrace(),
        irradiance_at_points: false,
        outputs: vec![],
        fmt_in: 'a',
        fmt_out: 'a',
        header: true,
        res: None,
        threads: 0,
        scene: vec![],
    };
    let mut spec = "v".to_string();
    let (mut x, mut y) = (0usize, 0usize);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let value = |k: usize| -> anyhow::Result<&str> {
            args.get(i + k)
                .map(String::as_str)
                .with_context(|| format!("rtrace: option {a} needs a value"))
        };
        let mut take = 0;
        let used = o
            .render
            .parse_arg(args, i)
            .map_err(|e| anyhow::anyhow!("rtrace: {e}"))?;
        if used > 0 {
            i += used;
            continue;
        }
        if matches!(a, "-I" | "-I+" | "-I-") {
            o.irradiance_at_points = match a {
                "-I+" => true,
                "-I-" => false,
                _ => !o.irradiance_at_points,
            };
        } else if let Some(s) = a.strip_prefix("-o") {
            spec = s.to_string();
        } else if let Some(f) = a.strip_prefix("-f") {
            let c: Vec<char> = f.chars().collect();
            match c[..] {
                [io] if "adf".contains(io) => (o.fmt_in, o.fmt_out) = (io, io),
                [i_, o_] if "adf".contains(i_) && "adf".contains(o_) => {
                    (o.fmt_in, o.fmt_out) = (i_, o_)
                }
                _ => {
                    bail!("rtrace: bad format {a} (expected -f followed by one or two of a, f, d)")
                }
            }
        } else if matches!(a, "-h" | "-h+" | "-h-") {
            // RADIANCE switches: alone they toggle, `+`/`-` set.
            o.header = match a {
                "-h+" => true,
                "-h-" => false,
                _ => !o.header,
            };
        } else if a == "-x" || a == "-y" || a == "-n" {
            let v = value(1)?;
            let n: usize = v
                .parse()
                .with_context(|| format!("rtrace: {a} expects a whole number, found \"{v}\""))?;
            match a {
                "-x" => x = n,
                "-y" => y = n,
                _ => o.threads = n,
            }
            take = 1;
        } else if let Some(&(_, n)) = VALUE_OPTIONS.iter().find(|(name, _)| *name == a) {
            for k in 1..=n {
                value(k)?;
            }
            take = n;
        } else if SWITCHES.iter().any(|s| {
            a.strip_prefix(s)
                .is_some_and(|r| r.is_empty() || r == "+" || r == "-")
        }) {
        } else if a.starts_with('-') && a.len() > 1 {
            bail!("rtrace: unknown option {a}");
        } else {
            o.scene.push(PathBuf::from(a));
        }
        i += 1 + take;
    }
    for c in spec.chars() {
        o.outputs.push(match c {
            'o' => Out::Origin,
            'd' => Out::Dir,
            'L' => Out::Dist,
            'p' => Out::Point,
            'N' => Out::Normal,
            'n' => Out::PertNormal,
            'c' => Out::Local,
            's' => Out::Surface,
            'm' => Out::Modifier,
            'M' => Out::Material,
            'v' => Out::Value,
            'V' => Out::Contribution,
            'w' => Out::Weight,
            'l' => Out::EffectiveLength,
            'r' => Out::Mirrored,
            'R' => Out::MirroredLength,
            'x' => Out::Unmirrored,
            'X' => Out::UnmirroredLength,
            'W' | '~' => bail!(
                "rtrace: output -o{c} is not in this version of daylit; v V w l r R x X and the geometric outputs (o d L p N n c s m M) work"
            ),
            _ => bail!("rtrace: unknown output -o{c}"),
        });
    }
    if x > 0 && y > 0 {
        o.res = Some((x, y));
    }
    if o.scene.is_empty() {
        bail!("rtrace: no scene given (an octree from daylit oconv, or scene files)");
    }
    o.render
        .validate()
        .map_err(|e| anyhow::anyhow!("rtrace: {e}"))?;
    Ok(o)
}

pub(crate) fn read_rays(fmt: char) -> anyhow::Result<Vec<Ray>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read standard input")?;
    let size = match fmt {
        'f' => 24,
        'd' => 48,
        _ => 0,
    };
    if size > 0 && bytes.len() % size != 0 {
        bail!(
            "standard input: {} bytes is not a whole number of rays ({size} bytes each in -f{fmt} format)",
            bytes.len()
        );
    }
    let nums: Vec<f64> = match fmt {
        'f' => bytes
            .chunks_exact(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]) as f64)
            .collect(),
        'd' => bytes
            .chunks_exact(8)
            .map(|c| f64::from_ne_bytes(c.try_into().unwrap_or([0; 8])))
            .collect(),
        _ => {
            let text = String::from_utf8_lossy(&bytes);
            let mut v = Vec::new();
            for (n, line) in text.lines().enumerate() {
                for w in line.split_whitespace() {
                    v.push(w.parse::<f64>().map_err(|_| {
                        anyhow::anyhow!(
                            "standard input:{}: expected a number, found \"{w}\"",
                            n + 1
                        )
                    })?);
                }
            }
            if v.len() % 6 != 0 {
                bail!("standard input: {} numbers is not a whole number of rays (6 each: origin, direction)", v.len());
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

/// Names of the shape's surface, modifier and material.
fn names(scene: &Scene, origin: Origin) -> [&str; 3] {
    let surface = match origin {
        Origin::Prim(id) => scene.prim(id).name.as_str(),
        Origin::MeshTri { mesh, .. } => scene.meshes[mesh as usize].source.as_str(),
    };
    let modifier = modifier_of(scene, origin);
    let name = |m: Option<u32>| m.map_or("void", |i| scene.prim(i).name.as_str());
    [surface, name(modifier), name(scene.material_of(modifier))]
}

/// The modifier of a hit surface or mesh triangle.
fn modifier_of(scene: &Scene, origin: Origin) -> Option<u32> {
    match origin {
        Origin::Prim(id) => scene.prim(id).modifier,
        Origin::MeshTri { mesh, tri } => {
            let m = &scene.meshes[mesh as usize];
            m.modifiers[m.tri_modifier[tri as usize] as usize]
        }
    }
}

/// Does the material of `origin` turn a back face toward the ray when it shades it?
fn flips_back_faces(scene: &Scene, origin: Origin) -> bool {
    use daylit_scene::PrimType as T;
    scene
        .material_of(modifier_of(scene, origin))
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

/// What the light-transport engine computes for one ray: its value, mirrored part and
/// lengths.
type Shaded = daylit_transport::Radiance;

/// One ray's output record.
#[allow(clippy::too_many_arguments)]
fn trace(
    scene: &Scene,
    compiled: &CompiledScene,
    outputs: &[Out],
    fmt: char,
    ray: &Ray,
    shaded: Option<&Shaded>,
    backvis: bool,
    out: &mut Vec<u8>,
) {
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
        'f' => out.extend_from_slice(&(v as f32).to_ne_bytes()),
        'd' => out.extend_from_slice(&v.to_ne_bytes()),
        _ => out.extend_from_slice(format!("{}\t", crate::output::c_exp(v, 6)).as_bytes()),
    };
    let put3 = |out: &mut Vec<u8>, v: DVec3| v.to_array().into_iter().for_each(|x| put(out, x));
    for o in outputs {
        match o {
            Out::Origin => put3(out, ray.origin),
            Out::Dir => put3(out, dir),
            // The traced ray's own (RADIANCE's `rot`: 1e-5 with `-I`) where it was traced.
            Out::Dist => put(
                out,
                shaded.map_or_else(|| hit.map_or(1e10, |(h, _)| h.t), |s| s.dist),
            ),
            // RADIANCE gives the origin as the point of a ray that hits nothing.
            Out::Point => put3(out, hit.map_or(ray.origin, |(h, _)| h.point)),
            Out::Normal => put3(out, hit.map_or(DVec3::ZERO, |(h, _)| h.normal)),
            Out::PertNormal => put3(
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
                    if backvis && d.dot(h.normal) > 0.0 && flips_back_faces(scene, o) {
                        -n
                    } else {
                        n
                    }
                }),
            ),
            Out::Local => {
                let uv = hit
                    .and_then(|(h, _)| {
                        let o = compiled.origins[h.prim as usize];
                        daylit_compile::mesh_point(scene, o, h.point).and_then(|m| m.uv)
                    })
                    .unwrap_or([0.0; 2]);
                put(out, uv[0]);
                put(out, uv[1]);
            }
            Out::Surface | Out::Modifier | Out::Material => {
                let name = match o {
                    Out::Surface => s,
                    Out::Modifier => m,
                    _ => mm,
                };
                if fmt == 'a' {
                    out.extend_from_slice(format!("{name}\t").as_bytes());
                }
            }
            Out::Value | Out::Contribution => put3(out, shaded.map_or(DVec3::ZERO, |s| s.value)),
            Out::Weight => put(out, 1.0),
            Out::EffectiveLength => put(out, shaded.map_or(FHUGE, |s| s.distance())),
            Out::Mirrored => put3(out, shaded.map_or(DVec3::ZERO, |s| s.mirror)),
            Out::MirroredLength => put(out, shaded.map_or(FHUGE, |s| s.mirror_dist)),
            Out::Unmirrored => put3(out, shaded.map_or(DVec3::ZERO, |s| s.value - s.mirror)),
            Out::UnmirroredLength => put(out, shaded.map_or(FHUGE, |s| s.extent)),
        }
    }
    if fmt == 'a' {
        out.push(b'\n');
    }
}

/// Rays per parallel work item.
const CHUNK: usize = 64;

/// The value of one input ray: radiance along it, or with `-I` irradiance at its origin.
fn shade(
    rd: &daylit_transport::Renderer,
    o: &Options,
    ray: &Ray,
    ctx: &mut daylit_transport::Ctx,
) -> Shaded {
    let len = ray.dir.length();
    let nothing = Shaded {
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
    if o.irradiance_at_points {
        // RADIANCE pretends the ray hit a surface 1e-5 away.
        return Shaded {
            value: rd.irradiance(ray.origin, dir, ctx),
            dist: 1e-5,
            extent: 1e-5,
            ..nothing
        };
    }
    rd.radiance(ray.origin, dir, ctx)
}

/// Runs rtrace with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = &crate::input::expand_arguments("rtrace", args)?;
    let o = parse(args)?;
    if o.fmt_out != 'a'
        && o.outputs
            .iter()
            .any(|x| matches!(x, Out::Surface | Out::Modifier | Out::Material))
    {
        bail!("rtrace: names (-os -om -oM) can only be written in ASCII output (-fa)");
    }
    if (o.irradiance_at_points || o.render.irradiance)
        && o.outputs.iter().any(|x| {
            matches!(
                x,
                Out::Mirrored | Out::MirroredLength | Out::Unmirrored | Out::UnmirroredLength
            )
        })
    {
        eprintln!("rtrace: warning - -orRxX options incompatible with -I+ and -i+");
    }
    let scene = load_scene(&o.scene, &LoadOptions::default())?;
    let has_textures = scene
        .prims
        .iter()
        .any(|p| matches!(p.ptype, PrimType::Texfunc | PrimType::Texdata));
    if has_textures && args.iter().any(|a| a.starts_with("-o") && a.contains('n')) {
        bail!("rtrace: -on (perturbed normal) with textures needs the light-transport engine; -oN gives the surface normal");
    }
    let compiled = compile(&scene);
    let (mut renderer, plain) = if o.outputs.iter().any(|x| x.needs_transport()) {
        let raypath = daylit_cal::RayPath::from_env();
        let r = daylit_transport::Renderer::new(scene, compiled, o.render.clone(), &raypath)?;
        (Some(r), None)
    } else {
        (None, Some((scene, compiled)))
    };
    let rays = read_rays(o.fmt_in)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .build()?;
    if let Some(rd) = renderer.as_mut() {
        // One irradiance cache for all the run's rays, built (or read) before tracing.
        let stride = rays.len().div_ceil(CACHE_PRIMARIES).max(1);
        let n = rays.len().div_ceil(stride);
        let prepared = pool
            .install(|| {
                rd.prepare_irradiance_cache(n, |rd, i, ctx| {
                    shade(rd, &o, &rays[i * stride], ctx);
                })
            })
            .map_err(|e| anyhow::anyhow!("rtrace: {e}"))?;
        for w in &prepared.warnings {
            eprintln!("rtrace: warning: {w}");
        }
        if let Some(c) = rd.irradiance_cache().filter(|_| cache_stats_wanted()) {
            eprint!("rtrace: {}", prepared.stats.report(c));
        }
    }
    let (scene, compiled) = match (&renderer, &plain) {
        (Some(r), _) => (&r.scene, &r.compiled),
        (None, Some((s, c))) => (s, c),
        (None, None) => unreachable!("one of the two is always set"),
    };
    let mut text = Vec::new();
    if o.header {
        let mut h = String::from("#?RADIANCE\n");
        h += &format!("rtrace {}\n", args.join(" "));
        h += &format!("SOFTWARE= daylit {}\n", env!("CARGO_PKG_VERSION"));
        let ncomp: usize = o
            .outputs
            .iter()
            .map(|x| match x {
                Out::Origin | Out::Dir | Out::Point | Out::Normal | Out::PertNormal => 3,
                Out::Local => 2,
                Out::Value | Out::Contribution | Out::Mirrored | Out::Unmirrored => 3,
                Out::Dist | Out::Surface | Out::Modifier | Out::Material => 1,
                Out::Weight
                | Out::EffectiveLength
                | Out::MirroredLength
                | Out::UnmirroredLength => 1,
            })
            .sum();
        h += &format!("NCOMP={ncomp}\n");
        match o.fmt_out {
            'f' => h += "BigEndian=0\nFORMAT=float\n",
            'd' => h += "BigEndian=0\nFORMAT=double\n",
            _ => h += "FORMAT=ascii\n",
        }
        h.push('\n');
        text.extend_from_slice(h.as_bytes());
    }
    if let Some((x, y)) = o.res {
        text.extend_from_slice(format!("-Y {y:8} +X {x:8}\n").as_bytes());
    }
    // Rays are traced in parallel in chunks; output keeps the input order.
    let records: Vec<Vec<u8>> = pool.install(|| {
        rays.par_chunks(CHUNK)
            .enumerate()
            .map(|(ci, chunk)| {
                let mut buf = Vec::new();
                let mut ctx = renderer.as_ref().map(|r| r.ctx(0));
                for (k, r) in chunk.iter().enumerate() {
                    let shaded = match (&renderer, ctx.as_mut()) {
                        (Some(rd), Some(ctx)) => {
                            rd.reseed(ctx, (ci * CHUNK + k) as u64);
                            Some(shade(rd, &o, r, ctx))
                        }
                        _ => None,
                    };
                    trace(
                        scene,
                        compiled,
                        &o.outputs,
                        o.fmt_out,
                        r,
                        shaded.as_ref(),
                        o.render.backvis,
                        &mut buf,
                    );
                }
                buf
            })
            .collect()
    });
    crate::output::print_bytes(std::iter::once(&text).chain(&records).map(Vec::as_slice))?;
    if let Some(c) = renderer
        .as_ref()
        .and_then(|r| r.irradiance_cache())
        .filter(|_| cache_stats_wanted())
    {
        eprintln!(
            "rtrace: irradiance cache: final gathers per level while tracing: {:?}",
            c.gathers()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Primary rays the irradiance cache samples its geometry from at most.
pub(crate) use daylit_transport::batch::CACHE_PRIMARIES;

/// Whether to print irradiance cache statistics to stderr (`DAYLIT_IC_STATS` set and not 0).
pub(crate) fn cache_stats_wanted() -> bool {
    std::env::var("DAYLIT_IC_STATS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `daylit rtrace`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    run_radiance(&a.args)
}
