//! rcomb's pictures as inputs (a matrix of a row per scanline, with the exposure to undo),
//! the type it writes its result in, and its rows written in that type.

use super::DataType;
use crate::{Format, Matrix};

/// A picture read as rcomb reads it.
pub struct PictureInput {
    /// A row per scanline from the top, three components.
    pub matrix: Matrix,
    /// Information lines of the header (without `FORMAT=`, exposures, sizes).
    pub info: Vec<String>,
    /// The product of its `EXPOSURE=` and `COLORCORR=` lines, per channel, in `f32` steps
    /// as RADIANCE keeps it.
    pub exposure: [f64; 3],
}

/// A picture (RGBE or XYZE, standard orientation) from its bytes. Errors are as rcomb's
/// (`Bad header from: NAME (…)`) without its prefix.
pub fn read_picture(bytes: &[u8], name: &str) -> Result<PictureInput, String> {
    let bad = |what: String| format!("Bad header from: {name} ({what})");
    let mut pos = 0;
    let mut info = Vec::new();
    let mut exposure = [1.0f64; 3];
    let mut first = true;
    loop {
        let Some(len) = bytes[pos..].iter().position(|&b| b == b'\n') else {
            return Err(bad("header not ended by an empty line".into()));
        };
        let line = String::from_utf8_lossy(&bytes[pos..pos + len]).to_string();
        pos += len + 1;
        if std::mem::take(&mut first) && line.starts_with("#?") {
            continue;
        }
        if line.is_empty() {
            break;
        }
        let t = line.trim_start();
        let value = |p: &str| t.strip_prefix(p).map(str::trim);
        if value("FORMAT=").is_some() || value("BigEndian=").is_some() {
        } else if let Some(v) = value("EXPOSURE=") {
            let e = daylit_radfile::scan::atof(v);
            if e <= 0.0 {
                return Err(bad(format!("EXPOSURE={v}")));
            }
            // RADIANCE keeps the exposure as floats.
            exposure
                .iter_mut()
                .for_each(|x| *x = f64::from(*x as f32 * e as f32));
        } else if let Some(v) = value("COLORCORR=") {
            let w: Vec<f64> = v
                .split_whitespace()
                .map(daylit_radfile::scan::atof)
                .collect();
            if w.len() != 3 {
                return Err(bad(format!("COLORCORR={v}")));
            }
            exposure
                .iter_mut()
                .zip(w)
                .for_each(|(x, c)| *x = f64::from(*x as f32 * c as f32));
        } else if let Some(v) = value("NCOMP=") {
            if daylit_radfile::scan::atoi(v) != 3 {
                return Err(bad(format!("NCOMP={v} in a picture")));
            }
        } else if value("NROWS=").is_some()
            || value("NCOLS=").is_some()
            || value("WLSPLIT=").is_some()
        {
        } else {
            info.push(line);
        }
    }
    let raw = daylit_image::hdr::read_raw_pixels(bytes, pos, name).map_err(|e| e.to_string())?;
    let w: Vec<&str> = raw.resolution.split_whitespace().collect();
    if w.len() != 4 || w[0] != "-Y" || w[2] != "+X" {
        return Err(bad(format!(
            "resolution {:?}: the picture must be in standard orientation",
            raw.resolution
        )));
    }
    let (height, width) = (raw.scans.len(), raw.scans.first().map_or(0, Vec::len));
    let data: Vec<f32> = raw
        .scans
        .iter()
        .flatten()
        .flat_map(|&c| daylit_image::hdr::rgbe_to_float(c))
        .collect();
    let matrix = Matrix::new(height, width, 3, data).map_err(|e| format!("{name}: {e}"))?;
    Ok(PictureInput {
        matrix,
        info,
        exposure,
    })
}

/// The type the output is written in (RADIANCE's `rmx_write_header`): as `asked`, else the
/// result's (double written as float); more than three components make a spectral picture
/// of a picture. Spectral output and pictures of other than 1 or 3 components are errors.
pub fn output_type(
    asked: Option<DataType>,
    result: DataType,
    ncomp: usize,
) -> Result<DataType, String> {
    let mut t = match asked {
        None if result == DataType::Double => DataType::Float,
        None => result,
        Some(DataType::Rgbe) if result == DataType::Xyze => DataType::Xyze,
        Some(t) => t,
    };
    if t < DataType::Spectral && ncomp > 3 {
        t = DataType::Spectral;
    } else if t == DataType::Spectral && ncomp <= 3 {
        return Err("unsupported output format".into());
    }
    if t == DataType::Spectral {
        return Err(format!(
            "spectral picture output ({ncomp} components) is not supported by daylit yet"
        ));
    }
    if t.is_picture() && ncomp != 1 && ncomp != 3 {
        return Err("unsupported output format".into());
    }
    Ok(t)
}

/// Appends the values of `m`, row by row, in type `t` as rcomb writes them (a picture's
/// scanlines run-length encoded, one component spread over three).
pub fn write_values(m: &Matrix, t: DataType, out: &mut Vec<u8>) {
    let nc = m.ncomp();
    match t {
        DataType::Ascii => {
            let _ = crate::write_body_rmtxop(m, out);
        }
        DataType::Float => {
            let _ = crate::write_body(m, Format::Float, out);
        }
        DataType::Double => {
            let _ = crate::write_body(m, Format::Double, out);
        }
        _ => {
            for row in 0..m.rows() {
                let line: Vec<[u8; 4]> = (0..m.cols())
                    .map(|c| {
                        let v = m.get(row, c);
                        let p = if nc == 1 {
                            [v[0]; 3]
                        } else {
                            [v[0], v[1], v[2]]
                        };
                        daylit_image::hdr::float_to_rgbe(p)
                    })
                    .collect();
                daylit_image::hdr::write_scanline(&line, true, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_type_follows_rmx_write_header() {
        assert_eq!(
            output_type(None, DataType::Double, 3).unwrap(),
            DataType::Float
        );
        assert_eq!(
            output_type(Some(DataType::Rgbe), DataType::Xyze, 3).unwrap(),
            DataType::Xyze
        );
        assert!(output_type(Some(DataType::Rgbe), DataType::Float, 2).is_err());
        assert!(output_type(Some(DataType::Rgbe), DataType::Float, 5).is_err());
    }

    #[test]
    fn a_picture_reads_with_its_exposure_and_writes_back() {
        let m = Matrix::new(1, 2, 3, vec![1.0, 0.5, 0.25, 2.0, 2.0, 2.0]).unwrap();
        let mut bytes =
            b"#?RADIANCE\nEXPOSURE=2\nVIEW= -vtv\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 2\n".to_vec();
        write_values(&m, DataType::Rgbe, &mut bytes);
        let p = read_picture(&bytes, "p.hdr").unwrap();
        assert_eq!(p.exposure, [2.0; 3]);
        assert_eq!(p.info, vec!["VIEW= -vtv".to_string()]);
        let want: Vec<f32> = m
            .data()
            .chunks(3)
            .flat_map(|c| {
                let rgbe = daylit_image::hdr::float_to_rgbe([c[0], c[1], c[2]]);
                daylit_image::hdr::rgbe_to_float(rgbe)
            })
            .collect();
        assert_eq!(p.matrix.data(), &want[..]);
        let e = read_picture(b"#?RADIANCE\n-Y 1 +X 2\n", "p.hdr")
            .err()
            .unwrap();
        assert!(e.starts_with("Bad header from: p.hdr"), "{e}");
    }
}
