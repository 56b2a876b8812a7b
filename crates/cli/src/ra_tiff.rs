//! `ra_tiff`: RADIANCE pictures to TIFF images and back, with RADIANCE's options
//! (`daylit_image::tiff` does the conversion). What daylit cannot write or read (LogLuv TIFFs,
//! XYZE output) is refused by name.

use anyhow::{bail, Context};
use daylit_image::tiff::{decode_tiff, encode_tiff, Sample, ToTiff};
use daylit_image::HdrImage;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: ra_tiff [-z|-L|-l|-f|-w][-b][-e +/-stops][-g gamma] {in.hdr|-} out.tif\n   or: ra_tiff -r [-x][-e +/-stops][-g gamma] in.tif [out.hdr|-]";

/// Runs ra_tiff with RADIANCE's arguments.
pub fn run_radiance(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut o = ToTiff {
        sample: Sample::U8,
        grey: false,
        lzw: false,
        gamma: 2.2,
        stops: 0,
    };
    let (mut reverse, mut words16, mut float) = (false, false, false);
    let mut i = 0;
    while let Some(a) = args.get(i).filter(|a| a.starts_with('-')) {
        let value = || {
            args.get(i + 1)
                .with_context(|| format!("{a} needs a value\n{USAGE}"))
        };
        match a.as_bytes().get(1) {
            None => break,
            Some(b'g') => {
                o.gamma = daylit_radfile::scan::atof(value()?);
                i += 1;
            }
            Some(b'e') => {
                o.stops = crate::input::signed_stops(value()?, USAGE)?;
                i += 1;
            }
            Some(b'z') => o.lzw = true,
            Some(b'w') => words16 = !words16,
            Some(b'f') => float = !float,
            Some(b'b') => o.grey = !o.grey,
            Some(b'r') => reverse = !reverse,
            Some(b'L') | Some(b'l') => bail!(
                "{a}: LogLuv (SGILOG) TIFF output is not supported by daylit; -f writes float samples"
            ),
            Some(b'x') => bail!("-x: XYZE pictures are not written by daylit"),
            _ => bail!("bad option {a}\n{USAGE}"),
        }
        i += 1;
    }
    let rest = &args[i..];
    if reverse {
        if rest.is_empty() || rest.len() > 2 {
            bail!("{USAGE}");
        }
        let tif = &rest[0];
        let bytes = std::fs::read(tif).with_context(|| format!("cannot open TIFF input {tif}"))?;
        let mut img = decode_tiff(&bytes, tif, o.gamma, o.stops)?;
        // The command line goes into the header, as RADIANCE's programs record it.
        let command = std::iter::once("ra_tiff")
            .chain(args[..i].iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        img.header.insert(0, command);
        img.program = "RADIANCE".into();
        let out = img.encode(true);
        match rest.get(1).map(String::as_str) {
            None | Some("-") => crate::output::print_bytes([out.as_slice()])?,
            Some(p) => crate::output::write_atomic(Path::new(p), &out)?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    if rest.len() != 2 || (words16 && float) {
        bail!("{USAGE}");
    }
    o.sample = match (words16, float) {
        (true, _) => Sample::U16,
        (_, true) => Sample::F32,
        _ => Sample::U8,
    };
    let (name, bytes) = crate::input::read_operand("ra_tiff", &rest[0])?;
    let img = HdrImage::decode(&bytes, &name)?;
    let tif = encode_tiff(&img, &o, &name)?;
    crate::output::write_atomic(Path::new(&rest[1]), &tif)?;
    Ok(ExitCode::SUCCESS)
}
