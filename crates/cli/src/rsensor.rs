//! `rsensor`: the signal of illumination sensors with a directional sensitivity, with
//! RADIANCE's arguments: rendering options, then for each sensor file its own view (`-vp
//! -vd -vu -vo`, `-vf`; the sensor looks along the view direction, azimuth 0 toward the up
//! vector; RADIANCE ignores the other view options and so does daylit), ray count `-rd` and
//! source samples `-dn`; the scene last. With `.` in place of the scene the rays are printed
//! instead, for `rtrace` and `total` to add up. The sampling is `daylit_transport::sensor`.
//!
//! One difference on purpose: with `-dn 0` RADIANCE's sample rays still leave the light
//! sources out (they are traced as specular rays, which never count a source), so its signal
//! loses the sources' direct light altogether; daylit's rays then see them.

use anyhow::{bail, Context};
use daylit_compile::compile;
use daylit_image::view::View;
use daylit_radfile::header::command_line;
use daylit_radfile::printf::{format_e, format_g_digits};
use daylit_scene::{load_scene, LoadOptions};
use daylit_transport::sensor::{SensitivityTable, SensorFrame, SensorSampler};
use daylit_transport::{Options, Renderer};
use glam::DVec3;
use std::process::ExitCode;

const USAGE: &str = "rsensor [-n nprocs][-h][render options] { [-rd nrays][-dn nsrc][view] sensor_file .. } octree|.";

/// Runs rsensor with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let args = crate::input::expand_arguments("rsensor", args)?;
    // rsensor's own rendering defaults.
    let mut opts = Options::rtrace();
    opts.dj = 0.65;
    opts.ds = 0.1;
    opts.dr = 3;
    opts.ab = 1;
    opts.lr = -10;
    let (mut nsamps, mut ndsamps) = (10_000usize, 32usize);
    let mut header = true;
    let mut threads = None;
    let mut view_words: Vec<String> = Vec::new();
    let Some(scene_arg) = args.last().filter(|a| !a.starts_with('-')) else {
        bail!("missing octree ({USAGE})");
    };
    let rays_only = scene_arg == ".";
    let mut renderer: Option<(Renderer, rayon::ThreadPool)> = None;
    let mut started = false;
    let mut out = String::new();
    let mut nsensors = 0u64;
    let last = args.len() - 1;
    let mut i = 0;
    while i < last {
        let a = args[i].as_str();
        let value = |k: usize| -> anyhow::Result<&String> {
            args.get(i + k)
                .filter(|_| i + k < last)
                .with_context(|| format!("{a} needs a value ({USAGE})"))
        };
        if !a.starts_with('-') {
            if !started {
                started = true;
                if header {
                    out += &daylit_radfile::header::header_start(&[command_line("rsensor", &args)]);
                    out += "FORMAT=ascii\n\n";
                }
                if !rays_only {
                    let scene = load_scene(&[scene_arg.into()], &LoadOptions::default())?;
                    let compiled = compile(&scene);
                    // RADIANCE's rsensor computes radiance whatever -i says.
                    opts.irradiance = false;
                    let rd = Renderer::new(
                        scene,
                        compiled,
                        opts.clone(),
                        &daylit_cal::RayPath::from_env(),
                    )?;
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads.unwrap_or(0))
                        .build()?;
                    renderer = Some((rd, pool));
                }
            }
            let frame = sensor_frame(&view_words)?;
            let sampler = load_sensor(a, nsamps)?;
            let seed = opts.seed.wrapping_add(nsensors.wrapping_mul(0x9e37_79b9));
            nsensors += 1;
            match &renderer {
                None => {
                    for d in sampler.directions(&frame, nsamps, seed) {
                        let o = frame.origin + d * frame.fore.max(0.0);
                        let g = |v: f64| format_g_digits(v, 6);
                        out += &format!(
                            "{} {} {} {:.8} {:.8} {:.8}\n",
                            g(o.x),
                            g(o.y),
                            g(o.z),
                            d.x,
                            d.y,
                            d.z
                        );
                    }
                }
                Some((rd, pool)) => {
                    let v =
                        pool.install(|| rd.sensor_signal(&sampler, &frame, nsamps, ndsamps, seed));
                    for c in [v.x, v.y, v.z] {
                        out += " ";
                        out += &format_e(c, 4);
                    }
                    out += "\n";
                }
            }
            i += 1;
            continue;
        }
        match a {
            "-rd" => {
                nsamps = value(1)?.parse().ok().filter(|&n| n > 0).with_context(|| {
                    format!("-rd {}: a positive number of rays expected", args[i + 1])
                })?;
                i += 1;
            }
            "-dn" => {
                ndsamps = value(1)?.parse().with_context(|| {
                    format!("-dn {}: a number of source samples expected", args[i + 1])
                })?;
                i += 1;
            }
            _ if a.starts_with("-v") => {
                let used = crate::vwrays::view_option(&args[..last], i, &mut view_words)?;
                i += used;
            }
            "-w" => {}
            _ if started => bail!(
                "rendering option {a} after the first sensor: give rendering options before it"
            ),
            "-defaults" => bail!(
                "-defaults is not supported by daylit; rsensor's defaults are -rd 10000 -dn 32 \
                 -vp 0 0 0 -vd 0 0 1 -vu 1 0 0 -vo 0, and rtrace's rendering defaults with \
                 -u+ -dj .65 -ds .1 -dr 3 -ab 1 -lr -10"
            ),
            _ if a.starts_with("-h") => header = !header,
            "-n" => {
                threads = Some(
                    value(1)?
                        .parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .context("illegal number of processes")?,
                );
                i += 1;
            }
            _ => {
                let used = opts
                    .parse_arg(&args[..last], i)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                if used == 0 {
                    bail!("bad render option at '{a}'");
                }
                i += used;
                continue;
            }
        }
        i += 1;
    }
    if !started {
        bail!("missing sensor file ({USAGE})");
    }
    crate::output::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The sensor's frame from the view options given so far (rsensor's default view looks up
/// the z axis with azimuth 0 along x).
fn sensor_frame(words: &[String]) -> anyhow::Result<SensorFrame> {
    let mut view = View {
        vp: DVec3::ZERO,
        vdir: DVec3::Z,
        vup: DVec3::X,
        ..View::default()
    };
    view.apply(&words.join(" "))
        .map_err(|e| anyhow::anyhow!("bad view: {e}"))?;
    SensorFrame::new(view.vp, view.vdir, view.vup, view.vfore)
        .map_err(|e| anyhow::anyhow!("bad view: {e}"))
}

/// Reads a sensor file from the RAYPATH (unless its name starts with `/`, `.` or `~`).
fn load_sensor(name: &str, nsamps: usize) -> anyhow::Result<SensorSampler> {
    let path = daylit_cal::RayPath::from_env()
        .find(name)
        .with_context(|| format!("cannot open sensor file '{name}'"))?;
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read sensor file '{}'", path.display()))?;
    let (sensor, warning) =
        SensitivityTable::parse(&text, name).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(w) = warning {
        eprintln!("rsensor: warning - {w}");
    }
    SensorSampler::new(sensor, nsamps).map_err(|e| anyhow::anyhow!("sensor file '{name}': {e}"))
}
