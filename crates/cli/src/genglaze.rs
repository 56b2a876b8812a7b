//! `genglaze`: a spectral glazing material from layer data, with RADIANCE's arguments (`-m
//! file thickness` an uncoated layer, `-c file` a coated one, front first; `-s start end
//! interval` the wavelengths in nm, `-p prefix`). Writes `PREFIX_t.dat` and `PREFIX_r.dat`
//! (transmittance by incidence angle and wavelength; reflectance with the back side as angles
//! past 90°) and prints the `specdata` patterns and the `WGMDfunc` material that use them. The
//! optics are `daylit_transport::glazing`.

use anyhow::{bail, Context};
use daylit_transport::data::DataArray;
use daylit_transport::glazing::{combine, Angular, Layer, LayerKind, THETAS};
use std::fmt::Write as _;
use std::process::ExitCode;

const USAGE: &str = "genglaze [-m monolithic_layer.dat thickness | -c coated_layer.dat] .. [-s start_wvl end_wvl interval] [-p prefix]";

/// Runs genglaze with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    if args.is_empty() {
        bail!("no layers given ({USAGE})");
    }
    let mut layers: Vec<(String, LayerKind)> = Vec::new();
    let (mut start, mut end, mut step) = (380.0f64, 780.0f64, 5.0f64);
    let mut prefix = "unnamed".to_string();
    let mut i = 0;
    // Word `k`, for option `opt`.
    let word = |k: usize, opt: &str, what: &str| -> anyhow::Result<&String> {
        args.get(k)
            .with_context(|| format!("{opt} needs {what} ({USAGE})"))
    };
    let number = |k: usize, opt: &str, what: &str| -> anyhow::Result<f64> {
        let w = word(k, opt, what)?;
        w.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .with_context(|| format!("{opt} {w}: {what} expected"))
    };
    while i < args.len() {
        match args[i].as_str() {
            "-m" => {
                let file = word(i + 1, "-m", "a data file and a thickness")?.clone();
                let thickness = number(i + 2, "-m", "a thickness in metres")?;
                if thickness <= 0.0 {
                    bail!("-m {file} {thickness}: the thickness must be positive");
                }
                layers.push((file, LayerKind::Monolithic { thickness }));
                i += 2;
            }
            "-c" => {
                layers.push((word(i + 1, "-c", "a data file")?.clone(), LayerKind::Coated));
                i += 1;
            }
            "-p" => {
                prefix = word(i + 1, "-p", "a prefix")?.clone();
                i += 1;
            }
            "-s" => {
                start = number(i + 1, "-s", "start, end and interval wavelengths")?;
                end = number(i + 2, "-s", "start, end and interval wavelengths")?;
                step = number(i + 3, "-s", "start, end and interval wavelengths")?;
                if start > end {
                    bail!("Starting wavelength > End wavelength");
                }
                // Whole nanometres, as RADIANCE checks them.
                let (span, whole) = ((end - start) as i64, step as i64);
                if whole <= 0 || span % whole > 0 {
                    bail!(
                        "Wavelength range ({start} to {end} nm) must be evenly divisible by the interval ({step} nm)"
                    );
                }
                i += 3;
            }
            "-h" | "--help" => bail!("usage: {USAGE}"),
            a => bail!("unknown argument {a} ({USAGE})"),
        }
        i += 1;
    }
    if layers.is_empty() {
        bail!("No layers specified ({USAGE})");
    }
    let nwvl = if (start - end).abs() < 1e-9 && step > 1e-9 {
        1
    } else {
        ((end - start) / step + 1.5) as usize
    };
    // Accumulated as RADIANCE steps through them.
    let mut wavelengths = Vec::with_capacity(nwvl);
    let mut w = start;
    for _ in 0..nwvl {
        wavelengths.push(w);
        w += step;
    }
    let raypath = daylit_cal::RayPath::from_env();
    let mut angular = Vec::with_capacity(layers.len());
    for (k, (file, kind)) in layers.iter().enumerate() {
        let path = raypath
            .find(file)
            .with_context(|| format!("Cannot open file '{file}' (layer {})", k + 1))?;
        let data = DataArray::load(&path).map_err(|e| anyhow::anyhow!("layer {}: {e}", k + 1))?;
        let layer = Layer::from_data(*kind, &data, &wavelengths)
            .map_err(|e| anyhow::anyhow!("{file} (layer {}): {e}", k + 1))?;
        angular.push(layer.angular());
    }
    let sys = combine(&angular).expect("at least one layer");
    let mut command = String::from("# genglaze ");
    for a in args {
        command += a;
        command.push(' ');
    }
    command.push('\n');
    let (t_file, r_file) = (format!("{prefix}_t.dat"), format!("{prefix}_r.dat"));
    let (t_text, r_text) = tables(&sys, &command, start, end, nwvl);
    crate::output::write_atomic(std::path::Path::new(&t_file), t_text.as_bytes())?;
    crate::output::write_atomic(std::path::Path::new(&r_file), r_text.as_bytes())?;
    let material = format!(
        "{command}void specdata refl_spec_{prefix}\n4 noop {r_file} . 'Acos(Rdot)/DEGREE'\n0\n0\n\n\
         void specdata trans_spec_{prefix}\n4 noop {t_file} . 'Acos(abs(Rdot))/DEGREE'\n0\n0\n\n\
         void WGMDfunc glaze_mat_{prefix}\n13\n\trefl_spec_{prefix} 1 0 0\n\ttrans_spec_{prefix} 1 0 0\n\
         \tvoid\n\t0 0 1 .\n0\n9 0 0 0 0 0 0 0 0 0\n"
    );
    crate::output::print(&material)?;
    Ok(ExitCode::SUCCESS)
}

/// The two data files' text: transmittance over angles 0–90°; front reflectance over 0–90°
/// followed by back reflectance as angles 91–180°.
fn tables(sys: &Angular, command: &str, start: f64, end: f64, nwvl: usize) -> (String, String) {
    let n = THETAS.len();
    let angles = |list: &mut String| {
        for t in THETAS {
            let _ = write!(list, " {}", t as i64);
        }
    };
    let wl_line = format!("\n{start:.0} {end:.0} {nwvl}\n");
    let mut t = format!("{command}2\n0 0 {n}");
    angles(&mut t);
    t += &wl_line;
    let mut r = format!("{command}2\n0 0 {}", 2 * n - 1);
    angles(&mut r);
    for k in (0..n - 1).rev() {
        let _ = write!(r, " {}", (180.0 - THETAS[k]) as i64);
    }
    r += &wl_line;
    for v in &sys.t {
        let _ = writeln!(t, "{v:.6}");
    }
    for v in &sys.rf {
        let _ = writeln!(r, "{v:.6}");
    }
    for k in (0..n - 1).rev() {
        for v in &sys.rb[k * nwvl..(k + 1) * nwvl] {
            let _ = writeln!(r, "{v:.6}");
        }
    }
    (t, r)
}
