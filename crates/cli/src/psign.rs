//! `psign`: a RADIANCE picture of text, with RADIANCE's arguments (`-cf -cb r g b`, `-dr -du
//! -dl -dd`, `-h`, `-a`, `-x`, `-y`, `-s`, `-f font`); the text from the remaining arguments
//! (joined by spaces) or, without any, from standard input, one line each. The drawing is
//! `daylit_image::sign`.

use anyhow::{bail, Context};
use daylit_image::font::{text_lines, Font};
use daylit_image::sign::{Direction, Sign};
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "psign [-cf r g b][-cb r g b][-dr|-du|-dl|-dd][-h cheight][-a aspect][-x xres][-y yres][-s spacing][-f fontfile] [text]";

/// Runs psign with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut sign = Sign::default();
    let mut font_file = "helvet.fnt".to_string();
    let mut i = 0;
    // The word at `i`, the value of option `opt`.
    let value = |i: usize, opt: &str, what: &str| -> anyhow::Result<&String> {
        args.get(i)
            .with_context(|| format!("{opt} needs {what} ({USAGE})"))
    };
    let number = |i: usize, opt: &str, what: &str| -> anyhow::Result<f64> {
        let w = value(i, opt, what)?;
        w.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .with_context(|| format!("{opt} {w}: {what} expected"))
    };
    let whole = |i: usize, opt: &str| -> anyhow::Result<i64> {
        let w = value(i, opt, "a size in pixels")?;
        w.parse::<i64>()
            .ok()
            .with_context(|| format!("{opt} {w}: a size in pixels (a whole number) expected"))
    };
    while i < args.len() && args[i].starts_with('-') {
        let a = args[i].as_str();
        match a {
            "-cf" | "-cb" => {
                let mut c = [0f32; 3];
                for (k, v) in c.iter_mut().enumerate() {
                    *v = number(i + 1 + k, a, "a colour r g b")? as f32;
                }
                if a == "-cf" {
                    sign.foreground = c;
                } else {
                    sign.background = c;
                }
                i += 3;
            }
            "-dr" => sign.direction = Direction::Right,
            "-du" => sign.direction = Direction::Up,
            "-dl" => sign.direction = Direction::Left,
            "-dd" => sign.direction = Direction::Down,
            "-f" => {
                font_file = value(i + 1, a, "a font file")?.clone();
                i += 1;
            }
            "-x" | "-y" | "-h" => {
                let v = whole(i + 1, a)?;
                match a {
                    "-x" => sign.width = v,
                    "-y" => sign.height = v,
                    _ => sign.char_height = v,
                }
                i += 1;
            }
            "-a" | "-s" => {
                let v = number(i + 1, a, "a number")?;
                if a == "-a" {
                    sign.aspect = v;
                } else {
                    sign.spacing = v;
                }
                i += 1;
            }
            _ => bail!("unknown option: {a} ({USAGE})"),
        }
        i += 1;
    }
    if sign.char_height <= 0 && sign.width <= 0 && sign.height <= 0 {
        bail!(
            "-h {}: the character height must be positive",
            sign.char_height
        );
    }
    let path = daylit_cal::RayPath::from_env()
        .find(&font_file)
        .with_context(|| format!("cannot find font file \"{font_file}\" in the RAYPATH"))?;
    let font = Font::load(&path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let lines = if i < args.len() {
        vec![args[i..].join(" ").into_bytes()]
    } else {
        let mut text = Vec::new();
        std::io::stdin()
            .read_to_end(&mut text)
            .context("cannot read the text from standard input")?;
        text_lines(&text)
    };
    let img = sign
        .draw(&font, &lines)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let head = daylit_radfile::header::header_start(&[daylit_radfile::header::command_line(
        "psign", args,
    )]) + "FORMAT=32-bit_rle_rgbe\n\n";
    let mut out = head.into_bytes();
    out.extend_from_slice(format!("-Y {} +X {}\n", img.height, img.width).as_bytes());
    img.encode_scanlines(true, &mut out);
    crate::output::print_bytes([out.as_slice()])?;
    Ok(ExitCode::SUCCESS)
}
