//! `daylit falsecolor` (PNG and HDR files) and RADIANCE's `falsecolor` (its own options, HDR on
//! standard output): false-colour pictures with a legend, from `daylit_falsecolor`.

use crate::output::{print_bytes, write_atomic};
use anyhow::{bail, Context};
use daylit_falsecolor::args as radiance_args;
use daylit_falsecolor::picture::{self, palettes_picture, Contour, FalseColour, Options, Scale};
use daylit_falsecolor::Palette;
use daylit_image::HdrImage;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `daylit falsecolor`.
#[derive(clap::Args)]
pub struct Args {
    /// The picture whose values are shown (RADIANCE RGBE .hdr); `-` reads standard input.
    #[arg(required_unless_present = "palettes")]
    input: Option<PathBuf>,
    /// The PNG to write (shown through a 2.2 gamma; its folder must exist) [default: none;
    /// give -o, --hdr or both].
    #[arg(short = 'o', long, required_unless_present = "hdr")]
    output: Option<PathBuf>,
    /// Also (or only) write the false-colour picture as RADIANCE HDR, as falsecolor does
    /// [default: none].
    #[arg(long)]
    hdr: Option<PathBuf>,
    /// Top of the scale in the legend's unit, or `auto` for the picture's maximum.
    #[arg(short = 's', long, default_value = "1000")]
    scale: String,
    /// Number of divisions: legend entries and contours.
    #[arg(short = 'n', long, default_value_t = 8, value_parser = crate::args::whole::<usize>(1, 1000))]
    ndivs: usize,
    /// Legend title.
    #[arg(short = 'l', long, default_value = "cd/m2")]
    label: String,
    /// Logarithmic scale over this many decades below the top (0: linear).
    #[arg(long, default_value_t = 0.0, value_parser = crate::args::real(0.0, 100.0))]
    log: f64,
    /// Contour lines at the division boundaries instead of a filled picture.
    #[arg(long, group = "mode")]
    contour_lines: bool,
    /// Contour bands around the division boundaries.
    #[arg(long, group = "mode")]
    contour_bands: bool,
    /// One flat colour per division.
    #[arg(long, group = "mode")]
    posterize: bool,
    /// Legend width in pixels (20 or less: no legend).
    #[arg(long, default_value_t = 100, value_parser = crate::args::whole::<usize>(0, 65536))]
    legend_width: usize,
    /// Legend height in pixels (40 or less: no legend).
    #[arg(long, default_value_t = 200, value_parser = crate::args::whole::<usize>(0, 65536))]
    legend_height: usize,
    /// Multiplier from radiance to the legend's unit (179: cd/m2, or lux for irradiance).
    #[arg(short = 'm', long, default_value_t = 179.0, value_parser = crate::args::positive(1e30))]
    mult: f64,
    /// Colour palette.
    #[arg(long, default_value = "def", value_parser = ["def", "spec", "pm3d", "hot", "eco", "viridis"])]
    palette: String,
    /// Picture shown between contour lines or bands (same size as the input) [default: none].
    #[arg(short = 'p', long)]
    background: Option<PathBuf>,
    /// Most decimals in the legend's numbers (cut, not rounded).
    #[arg(short = 'd', long, default_value_t = 3)]
    digits: i32,
    /// Write the lowest and highest values on their pixels.
    #[arg(short = 'e', long)]
    extrema: bool,
    /// Show every palette instead (no input needed).
    #[arg(long)]
    palettes: bool,
}

/// Reads a picture from a file, or standard input for `-`.
fn read_picture(path: &Path) -> anyhow::Result<HdrImage> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        Ok(HdrImage::decode(&bytes, "<standard input>")?)
    } else {
        Ok(HdrImage::read(path)?)
    }
}

/// Runs the false colour, naming the input in errors.
fn make(
    input: &Path,
    background: Option<&Path>,
    o: &Options,
) -> anyhow::Result<(HdrImage, FalseColour)> {
    let img = read_picture(input)?;
    let bg = background.map(read_picture).transpose()?;
    let fc = picture::false_colour(&img, bg.as_ref(), o)
        .with_context(|| format!("{}", input.display()))?;
    Ok((img, fc))
}

/// `daylit falsecolor`.
pub fn run(a: &Args) -> anyhow::Result<ExitCode> {
    crate::args::check_outputs(a.output.iter().chain(&a.hdr).map(PathBuf::as_path), [])?;
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // How it was made: the pictures with their hashes and the scale, in both outputs.
    let mut prov = crate::provenance::start();
    if let Some(i) = &a.input {
        prov.add_input("picture", i)?;
    }
    if let Some(b) = &a.background {
        prov.add_input("background", b)?;
    }
    prov.add_setting("scale", &a.scale);
    prov.add_setting("log", a.log);
    let mut header = vec![format!("daylit {}", argv.join(" "))];
    header.extend(prov.header_lines());
    let (hdr, png) = if a.palettes {
        let r = palettes_picture();
        (r.to_hdr(header), r.to_display().png()?)
    } else {
        let input = a.input.as_deref().context("no input picture")?;
        let (_, fc) = make(input, a.background.as_deref(), &options(a)?)?;
        eprintln!(
            "daylit falsecolor: scale {} {}{}",
            picture::legend_number(fc.scale, 6),
            a.label,
            if a.log > 0.0 {
                format!(", {} decades", a.log)
            } else {
                String::new()
            }
        );
        (fc.to_hdr(header), fc.to_png()?)
    };
    if let Some(p) = &a.output {
        write_atomic(
            p,
            &daylit_falsecolor::raster::insert_png_text(&png, &prov.png_text())?,
        )?;
    }
    if let Some(p) = &a.hdr {
        write_atomic(p, &hdr.encode(true))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The library's options from the friendly command line.
fn options(a: &Args) -> anyhow::Result<Options> {
    let scale = if a.scale.starts_with(['a', 'A']) {
        Scale::Auto
    } else {
        match a.scale.parse() {
            Ok(s) => Scale::Value(s),
            Err(_) => bail!("--scale: '{}' is neither a number nor 'auto'", a.scale),
        }
    };
    let contour = if a.contour_lines {
        Contour::Lines
    } else if a.contour_bands {
        Contour::Bands
    } else if a.posterize {
        Contour::Posterize
    } else {
        Contour::None
    };
    Ok(Options {
        scale,
        mult: a.mult,
        ndivs: a.ndivs,
        label: a.label.clone(),
        decades: a.log,
        contour,
        legend_width: a.legend_width,
        legend_height: a.legend_height,
        // The value parser admits only palette names.
        palette: Palette::from_name(&a.palette).unwrap_or(Palette::Def),
        digits: a.digits,
        extrema: a.extrema,
    })
}

/// RADIANCE's `falsecolor`: its options, the HDR picture on standard output.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let a = radiance_args::parse(args)?;
    let header = vec![format!("falsecolor {}", args.join(" "))
        .trim_end()
        .to_string()];
    let out = if a.show_palettes {
        palettes_picture().to_hdr(header)
    } else {
        let input = a.input.unwrap_or_else(|| PathBuf::from("-"));
        let (_, fc) = make(&input, a.background.as_deref(), &a.options)?;
        fc.to_hdr(header)
    };
    print_bytes([out.encode(true).as_slice()])?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        a: Args,
    }

    /// `daylit falsecolor` arguments from words.
    fn cli(words: &[&str]) -> Args {
        Cli::parse_from(std::iter::once("falsecolor").chain(words.iter().copied())).a
    }

    /// A 16 × 8 picture whose luminance rises from 0 to 1500 cd/m² left to right.
    fn ramp(dir: &Path) -> PathBuf {
        let mut img = HdrImage::new(16, 8);
        for y in 0..8 {
            for x in 0..16 {
                let l = 1500.0 / 179.0 * x as f32 / 15.0;
                img.set(x, y, [l; 3]);
            }
        }
        let p = dir.join("ramp.hdr");
        img.write(&p, true).unwrap();
        p
    }

    #[test]
    fn friendly_form_writes_png_and_hdr() {
        let d = tempfile::tempdir().unwrap();
        let input = ramp(d.path());
        let (png, hdr) = (d.path().join("o.png"), d.path().join("o.hdr"));
        let a = cli(&[
            input.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
            "--hdr",
            hdr.to_str().unwrap(),
            "--log",
            "2",
            "--contour-lines",
            "--palette",
            "hot",
        ]);
        let o = options(&a).unwrap();
        assert_eq!(
            (o.decades, o.contour, o.palette),
            (2.0, Contour::Lines, Palette::Hot)
        );
        run(&a).unwrap();
        let h = HdrImage::read(&hdr).unwrap();
        // With contours, a legend of 8 divisions is 100 wide and 222 tall (RADIANCE's layout).
        assert_eq!((h.width, h.height), (116, 222));
        let dec = png::Decoder::new(std::io::Cursor::new(std::fs::read(&png).unwrap()));
        let info = dec.read_info().unwrap().info().clone();
        assert_eq!((info.width, info.height), (116, 222));
        // Both record how they were made.
        assert!(
            h.header.iter().any(|l| l.starts_with("PICTURE_SHA256= ")),
            "{:?}",
            h.header
        );
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.windows(18).any(|w| w == b"daylit:provenance\0"));
        // Only the two files: no temporary ones left.
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 3);
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let d = tempfile::tempdir().unwrap();
        let input = ramp(d.path());
        let out = d.path().join("o.png");
        let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
        let e = run(&cli(&[i, "-o", o, "-s", "bright"])).unwrap_err();
        assert!(e.to_string().contains("neither a number nor 'auto'"), "{e}");
        let e = format!("{:#}", run(&cli(&["missing.hdr", "-o", o])).unwrap_err());
        assert!(e.contains("missing.hdr"), "{e}");
        let e = run(&cli(&[i, "-o", o, "--contour-bands", "-n", "1"])).unwrap_err();
        let e = format!("{e:#}");
        assert!(e.contains("ramp.hdr") && e.contains("at least 2"), "{e}");
        assert!(!out.exists());
        let e = run_radiance(&["-i".into(), input.to_str().unwrap().into(), "-pal".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("-pal needs a palette"), "{e}");
    }
}
