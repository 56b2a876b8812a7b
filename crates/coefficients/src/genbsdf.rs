//! `genBSDF` (Klems): the BSDF of a fenestration layer computed from its RADIANCE model, as
//! RADIANCE 6.0a's genBSDF does it, natively and in process.
//!
//! The model lies between z = 0 (the room side) and z = −thickness (outside), as genBSDF
//! assumes. For each direction asked for (backward: light from the room side, the default;
//! forward: from outside), a Klems Full sender rectangle just beyond the model's box sends
//! `-c` rays per incident patch into it, and two receiver hemispheres (glow sources facing
//! +Z and −Z) gather what leaves, binned by Klems Full patch: flux factors, as rfluxmtx
//! computes them ([`crate::rfluxmtx`]). Each matrix is transposed to exiting × incident,
//! reduced to CIE Y (and X, Z with colour), and wrapped into a WindowElement file as
//! `wrapBSDF -a kf -c` does ([`daylit_bsdf::write`]), the flux factors divided by the
//! exiting patch's projected solid angle.

use crate::rfluxmtx::parse_receivers;
use crate::rfluxmtx::sender::parse_sender;
use daylit_bsdf::write::{DataBlock, Direction, Spectrum, Wrap, WrapBasis, Wrapped};
use daylit_radfile::printf::{format_e, format_g_digits};
use daylit_transport::contrib::{BinFn, BinRay, ContribModifier, ContribSpec};
use daylit_transport::{Options as RenderOptions, Renderer};
use glam::DVec3;
use rayon::prelude::*;
use std::sync::Arc;

/// What went wrong making a BSDF.
#[derive(Debug, thiserror::Error)]
pub enum GenBsdfError {
    /// A bad option or model (the message says which).
    #[error("{0}")]
    Input(String),
    /// The model could not be read.
    #[error(transparent)]
    Scene(#[from] daylit_scene::SceneError),
    /// The model cannot be traced.
    #[error(transparent)]
    Trace(#[from] daylit_transport::TransportError),
    /// The sender or receivers genBSDF writes were refused (a bug).
    #[error(transparent)]
    Rflux(#[from] crate::rfluxmtx::RfluxError),
    /// The XML could not be made.
    #[error(transparent)]
    Xml(#[from] daylit_bsdf::BsdfError),
}

/// The model: RADIANCE scene files (genBSDF's default, read as `xform -e` reads them) or MGF
/// files (`+mgf`, read through mgf2rad with spectral colours).
#[derive(Clone, Debug)]
pub enum Model {
    /// RADIANCE scene files.
    Radiance(Vec<std::path::PathBuf>),
    /// MGF files.
    Mgf(Vec<std::path::PathBuf>),
}

/// genBSDF's options (Klems matrices only).
#[derive(Clone, Debug)]
pub struct Options {
    /// `-c`: rays per incident patch asked for (genBSDF rounds it up to a grid over the
    /// sender's aspect ratio).
    pub samples: usize,
    /// `-n`: threads (0: all cores).
    pub threads: usize,
    /// Rendering options: rcontrib's defaults with genBSDF's `-ab 5 -ad 700 -lw 3e-6` and then
    /// the user's `-r` applied.
    pub render: RenderOptions,
    /// `+f`: light from outside (the −Z side): "Transmission Front", "Reflection Front".
    pub forward: bool,
    /// `+b` (default): light from the room side: "Transmission Back", "Reflection Back".
    pub backward: bool,
    /// `+C`: CIE X and Z data besides Y.
    pub colour: bool,
    /// `-dim`: the box to sample instead of the model's bounding box (xmin xmax ymin ymax
    /// zmin zmax).
    pub dim: Option<[f64; 6]>,
    /// Unit of the model (`-geom`/`+geom`): the XML's dimensions and geometry are in it.
    pub unit: String,
    /// MGF geometry to put into the XML (`+geom`), centred on the device there; `None` for
    /// `-geom`.
    pub geometry: Option<String>,
    /// `-s`: field assignments passed to the XML (`x=string;y=string`).
    pub fields: Vec<String>,
    /// `-W`: the WINDOW 6 template.
    pub window6: bool,
    /// The command line, for the "Created by" comment.
    pub command: String,
}

impl Options {
    /// genBSDF's rendering options before the user's `-r`: rcontrib's defaults with
    /// `-ab 5 -ad 700 -lw 3e-6`.
    pub fn default_render() -> RenderOptions {
        let mut r = RenderOptions::rcontrib();
        let words: Vec<String> = ["-ab", "5", "-ad", "700", "-lw", "3e-6"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut i = 0;
        while i < words.len() {
            i += r.parse_arg(&words, i).expect("genBSDF's own options parse");
        }
        r
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            samples: 2000,
            threads: 0,
            render: Options::default_render(),
            forward: false,
            backward: true,
            colour: false,
            dim: None,
            unit: "meter".into(),
            geometry: None,
            fields: Vec::new(),
            window6: false,
            command: "genBSDF".into(),
        }
    }
}

/// The result: the XML and what genBSDF warns about.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The XML file and the wrapper's warnings.
    pub wrapped: Wrapped,
    /// genBSDF's warnings (device extends into the room, far behind z = 0).
    pub warnings: Vec<String>,
    /// The box sampled (xmin xmax ymin ymax zmin zmax).
    pub dim: [f64; 6],
    /// Rays per incident patch used.
    pub samples: usize,
}

/// Offset of the senders from the model's box (genBSDF's `FEPS`).
const FEPS: f64 = 1e-5;

/// The box of a scene's surfaces, as getbbox prints it (`%9g`: six significant digits, which
/// genBSDF then reads back).
pub fn model_box(scene: &daylit_scene::Scene) -> Result<[f64; 6], GenBsdfError> {
    let (lo, hi) = daylit_compile::shapes(scene)
        .bounds()
        .ok_or_else(|| GenBsdfError::Input("the model has no surfaces".into()))?;
    let g = |x: f64| format_g_digits(x, 6).parse::<f64>().unwrap_or(x);
    Ok([g(lo.x), g(hi.x), g(lo.y), g(hi.y), g(lo.z), g(hi.z)])
}

/// Numbers as Perl prints them (`%.15g`).
fn perl_num(x: f64) -> String {
    format_g_digits(x, 15)
}

/// The receiver file genBSDF writes.
fn receivers_text() -> &'static str {
    "#@rfluxmtx h=-kf\n#@rfluxmtx u=-Y o=face.dat\n\n\
     void glow receiver_face\n0\n0\n4 1 1 1 0\n\n\
     receiver_face source f_receiver\n0\n0\n4 0 0 1 180\n\n\
     #@rfluxmtx h=+kf\n#@rfluxmtx u=-Y o=behind.dat\n\n\
     void glow receiver_behind\n0\n0\n4 1 1 1 0\n\n\
     receiver_behind source b_receiver\n0\n0\n4 0 0 -1 180\n"
}

/// The sender file genBSDF writes: forward below the box facing −Z, backward above it.
fn sender_text(d: &[f64; 6], forward: bool) -> String {
    let v = |x: f64, y: f64, z: f64| {
        format!(
            "\t{}\t{}\t{}\n",
            format_e(x, 6),
            format_e(y, 6),
            format_e(z, 6)
        )
    };
    if forward {
        let z = d[4] - FEPS;
        format!(
            "#@rfluxmtx u=-Y h=-kf\n\nvoid polygon fwd_sender\n0\n0\n12\n{}{}{}{}",
            v(d[0], d[2], z),
            v(d[0], d[3], z),
            v(d[1], d[3], z),
            v(d[1], d[2], z)
        )
    } else {
        let z = d[5] + FEPS;
        format!(
            "#@rfluxmtx u=-Y h=+kf\n\nvoid polygon bwd_sender\n0\n0\n12\n{}{}{}{}",
            v(d[0], d[2], z),
            v(d[1], d[2], z),
            v(d[1], d[3], z),
            v(d[0], d[3], z)
        )
    }
}

/// Flux factors from one sender to the two receivers: per sender patch (row), the 145 bins
/// of the face receiver (+Z) then the 145 of the one behind (−Z), RGB.
fn trace_direction(
    scene_for: &dyn Fn(&str) -> Result<daylit_scene::Scene, GenBsdfError>,
    opts: &Options,
    dim: &[f64; 6],
    forward: bool,
    samples: usize,
) -> Result<Vec<Vec<DVec3>>, GenBsdfError> {
    let recv = parse_receivers(receivers_text(), "receivers.rad")?;
    let name = if forward {
        "fsender.rad"
    } else {
        "bsender.rad"
    };
    let snd = parse_sender(&sender_text(dim, forward), name)?;
    let scene = scene_for(receivers_text())?;
    let raypath = daylit_cal::RayPath::from_env();
    let compiled = daylit_compile::compile(&scene);
    let mut renderer = Renderer::new(scene, compiled, opts.render.clone(), &raypath)?;
    let mut modifiers = Vec::new();
    for r in &recv.receivers {
        let id = renderer.scene.find_modifier(&r.modifier).ok_or_else(|| {
            GenBsdfError::Input(format!("receiver '{}' missing from the scene", r.modifier))
        })?;
        let bins = r.bins();
        let n = bins.len();
        let f = bins.into_fn();
        let bin: BinFn = Arc::new(move |ray: &BinRay| f(ray.dir));
        modifiers.push(ContribModifier {
            modifier: id,
            bins: n,
            bin: Some(bin),
        });
    }
    renderer.set_contributions(ContribSpec {
        modifiers,
        values: false,
        split_direct: false,
    });
    let rays = snd.rays(samples, opts.render.seed)?;
    let len = renderer.contrib_len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| GenBsdfError::Input(format!("cannot start threads: {e}")))?;
    let rd = &renderer;
    let rows: Vec<Vec<DVec3>> = pool.install(|| {
        (0..snd.bin_count())
            .into_par_iter()
            .map(|b| {
                let mut ctx = rd.ctx(0);
                ctx.contrib.clear();
                ctx.contrib.resize(len, DVec3::ZERO);
                for (k, ray) in rays.iter().enumerate().skip(b * samples).take(samples) {
                    rd.reseed(&mut ctx, k as u64);
                    rd.radiance(ray.origin, ray.dir, &mut ctx);
                }
                let scale = 1.0 / samples as f64;
                ctx.contrib.iter().map(|v| *v * scale).collect()
            })
            .collect()
    });
    Ok(rows)
}

/// One matrix block as text: exiting patch down, incident patch across (the transpose of the
/// flux factors), the component `comp` (0 X, 1 Y, 2 Z) of RGB as rmtxop's `-c` makes it.
fn component_text(rows: &[Vec<DVec3>], first_bin: usize, comp: usize) -> String {
    let w = daylit_matrix::ops::rgb_to_xyz()[comp].map(f64::from);
    let n = rows.len();
    let mut s = String::with_capacity(n * n * 14);
    for out in 0..n {
        for (i, row) in rows.iter().enumerate() {
            let c = row[first_bin + out];
            let v = (w[0] * c.x + w[1] * c.y + w[2] * c.z) as f32;
            if i > 0 {
                s.push('\t');
            }
            s.push_str(&format_g_digits(f64::from(v), 7));
        }
        s.push('\n');
    }
    s
}

/// Makes the Klems BSDF of a model. `scene_for(extra)` loads the model followed by scene
/// text `extra` (the receivers); the model alone is `scene_for("")`.
pub fn generate_with(
    scene_for: &dyn Fn(&str) -> Result<daylit_scene::Scene, GenBsdfError>,
    opts: &Options,
) -> Result<Generated, GenBsdfError> {
    if !opts.forward && !opts.backward {
        return Err(GenBsdfError::Input(
            "Must have at least one of +forward or +backward".into(),
        ));
    }
    let dim = match opts.dim {
        Some(d) => d,
        None => model_box(&scene_for("")?)?,
    };
    if dim[4] >= 0.0 {
        return Err(GenBsdfError::Input("Device entirely inside room!".into()));
    }
    let mut warnings = Vec::new();
    if dim[5] > 1e-5 {
        warnings.push("Device extends into room".to_string());
    } else if dim[5] * dim[5] > 0.01 * (dim[1] - dim[0]) * (dim[3] - dim[2]) {
        warnings.push("Device far behind Z==0 plane".to_string());
    }
    let (dx, dy) = (dim[1] - dim[0], dim[3] - dim[2]);
    if !(dx > 0.0 && dy > 0.0) {
        return Err(GenBsdfError::Input(format!(
            "the model's box is flat in x or y ({dx} by {dy}): nothing to send rays through"
        )));
    }
    let nx = ((opts.samples as f64 * dx / dy).sqrt() + 1.0) as usize;
    let ny = (opts.samples as f64 / nx as f64 + 1.0) as usize;
    let samples = nx * ny;

    let mut fields = opts.fields.clone();
    fields.push(format!(
        "t={};w={};h={}",
        perl_num(-dim[4]),
        perl_num(dx),
        perl_num(dy)
    ));
    let mut wrap = Wrap {
        input: None,
        window6: opts.window6,
        fields,
        unit: Some(opts.unit.clone()),
        // Centred on the device, as genBSDF writes it.
        geometry: opts.geometry.as_ref().map(|g| {
            format!(
                "xf -t {:.6} {:.6} 0\n{g}xf\n",
                -(dim[0] + dim[1]) / 2.0,
                -(dim[2] + dim[3]) / 2.0
            )
        }),
        basis: Some(WrapBasis::KlemsFull),
        correct_solid_angle: true,
        comments: vec![format!("Created by: {}", opts.command)],
        blocks: Vec::new(),
    };
    let mut spectra = vec![(1, Spectrum::Visible)];
    if opts.colour {
        spectra.push((0, Spectrum::CieX));
        spectra.push((2, Spectrum::CieZ));
    }
    for forward in [false, true] {
        if !(if forward { opts.forward } else { opts.backward }) {
            continue;
        }
        let rows = trace_direction(scene_for, opts, &dim, forward, samples)?;
        let n = rows.len();
        // The face receiver (+Z) takes reflection of backward light and transmission of
        // forward light.
        let (face, behind) = (0, n);
        let (trans, refl, td, rdn) = if forward {
            (
                face,
                behind,
                Direction::TransmissionFront,
                Direction::ReflectionFront,
            )
        } else {
            (
                behind,
                face,
                Direction::TransmissionBack,
                Direction::ReflectionBack,
            )
        };
        for (first, direction, file) in [(trans, td, "t"), (refl, rdn, "r")] {
            for (comp, spectrum) in &spectra {
                wrap.blocks.push(DataBlock {
                    direction,
                    spectrum: spectrum.clone(),
                    source: format!("{file}{}", if forward { "f" } else { "b" }),
                    text: component_text(&rows, first, *comp),
                });
            }
        }
    }
    let wrapped = wrap.write()?;
    Ok(Generated {
        wrapped,
        warnings,
        dim,
        samples,
    })
}

/// Makes the Klems BSDF of a model read from files ([`Model`]).
pub fn generate(model: &Model, opts: &Options) -> Result<Generated, GenBsdfError> {
    let load = daylit_scene::LoadOptions::default();
    match model {
        Model::Radiance(files) => {
            let f = |extra: &str| -> Result<daylit_scene::Scene, GenBsdfError> {
                Ok(daylit_scene::load_scene_then_text(
                    files,
                    extra,
                    "receivers.rad",
                    &load,
                )?)
            };
            generate_with(&f, opts)
        }
        Model::Mgf(files) => {
            let sources = files
                .iter()
                .map(|p| daylit_scene::mgf2rad::Source::File(p.display().to_string()))
                .collect();
            let mo = daylit_scene::mgf2rad::Options {
                spectra: true,
                ..Default::default()
            };
            let text = daylit_scene::mgf2rad::mgf2rad(sources, "mgf2rad", &["-s".into()], &mo)
                .map_err(|e| GenBsdfError::Input(e.to_string()))?
                .scene;
            let cwd = std::path::Path::new(".");
            let f = |extra: &str| -> Result<daylit_scene::Scene, GenBsdfError> {
                let all = format!("{text}\n{extra}");
                Ok(daylit_scene::load_scene_text(&all, "mgf2rad", cwd, &load)?)
            };
            generate_with(&f, opts)
        }
    }
}
