//! dctimestep's results: the names of per-step files and component pictures (`%d`
//! specifications as printf fills them), one time step's column, the `-x`/`-y` reshaping,
//! a result written as a matrix or an RGBE picture with dctimestep's header, and the sum of
//! component pictures weighted by a step's coefficients.

use crate::{Format, Matrix, MatrixError, ReadOptions};
use daylit_image::HdrImage;
use std::io::Write;
use std::path::Path;

/// How results are written: a matrix format (`-oa`, `-of`, `-od`) or RGBE pictures (`-oc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// A matrix in this format.
    Matrix(Format),
    /// An RGBE picture, a row of the result per scanline.
    Picture,
}

/// Whether `s` holds a `%d`-like conversion (`%%` does not count), as dctimestep checks.
pub fn has_number_format(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if b.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if matches!(b.get(i), Some(b'd' | b'i' | b'o' | b'x' | b'X')) {
            return true;
        }
    }
    false
}

/// `spec` with its first `%d`-like conversion (flags and width as printf takes them) replaced
/// by `n`, and `%%` by `%`: the name of picture or time step `n`.
pub fn frame_name(spec: &str, n: usize) -> String {
    let mut out = String::new();
    let mut rest = spec;
    let mut done = false;
    while let Some(p) = rest.find('%') {
        out.push_str(&rest[..p]);
        let tail = &rest[p + 1..];
        if let Some(after) = tail.strip_prefix('%') {
            out.push('%');
            rest = after;
            continue;
        }
        let flags = tail
            .find(|c: char| !"-+ #0".contains(c))
            .unwrap_or(tail.len());
        let width_end = flags
            + tail[flags..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(tail.len() - flags);
        let conv = tail[width_end..].chars().next();
        match conv {
            Some(c @ ('d' | 'i' | 'o' | 'x' | 'X')) if !done => {
                let digits = match c {
                    'o' => format!("{n:o}"),
                    'x' => format!("{n:x}"),
                    'X' => format!("{n:X}"),
                    _ => n.to_string(),
                };
                out += &daylit_radfile::printf::pad(digits, &tail[..width_end], true);
                done = true;
                rest = &tail[width_end + 1..];
            }
            _ => {
                out.push('%');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `-o spec` makes one file per time step: it holds a `%d` and `result` has several
/// (with one, the name takes 0 and that file holds the result).
pub fn per_step(spec: &str, result: &Matrix) -> bool {
    has_number_format(spec) && result.cols() > 1
}

/// Column `step` of `m`: one time step's results.
pub fn column_of(m: &Matrix, step: usize) -> Result<Matrix, MatrixError> {
    let n = m.ncomp();
    let data = (0..m.rows())
        .flat_map(|r| m.get(r, step).iter().copied())
        .collect();
    Matrix::new(m.rows(), 1, n, data)
}

/// `-x`/`-y`: the result's shape for a picture-like layout, as dctimestep's `alt_dim`
/// (0 for either derives it from the other; both 0 leave it).
pub fn reshape(m: &mut Matrix, yres: usize, xres: usize) -> Result<(), String> {
    let n = m.rows() * m.cols();
    let (rows, cols) = match (yres, xres) {
        (0, 0) => return Ok(()),
        (r, 0) => (r, n / r),
        (0, c) => (n / c, c),
        (r, c) => (r, c),
    };
    if rows * cols != n {
        return Err(format!(
            "bad dimensions: {rows}×{cols} does not hold the {}×{} result",
            m.rows(),
            m.cols()
        ));
    }
    m.reshape(rows, cols).map_err(|e| e.to_string())
}

/// A matrix of one (grey) or three (RGB) components as a picture, rows from the top, with
/// header lines `header`.
pub fn to_picture(m: &Matrix, header: Vec<String>) -> Result<HdrImage, String> {
    if m.ncomp() != 1 && m.ncomp() != 3 {
        return Err(format!(
            "a picture needs 1 or 3 components, not {} (spectral pictures are not supported by daylit yet)",
            m.ncomp()
        ));
    }
    let mut img = HdrImage::new(m.cols(), m.rows());
    for (px, el) in img.pixels.iter_mut().zip(m.data().chunks_exact(m.ncomp())) {
        *px = if el.len() == 1 {
            [el[0]; 3]
        } else {
            [el[0], el[1], el[2]]
        };
    }
    img.header = header;
    Ok(img)
}

/// A picture header without its resolution line: `#?RADIANCE`, `lines`, `FORMAT=`, blank.
pub fn picture_header(lines: &[String]) -> String {
    daylit_radfile::header::header_start(lines) + "FORMAT=32-bit_rle_rgbe\n\n"
}

/// A result (the whole matrix or one time step's column) as dctimestep writes it: with
/// `header`, an information header of `lines` (the command, dates, `FRAME=`), then the values
/// or the picture.
pub fn write_result(
    kind: ResultKind,
    header: bool,
    lines: &[String],
    m: &Matrix,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
    match kind {
        ResultKind::Matrix(format) => {
            if header {
                crate::write_header(&mut out, lines, m.rows(), m.cols(), m.ncomp(), format)?;
            }
            crate::write_body(m, format, &mut out)?;
        }
        ResultKind::Picture => {
            if header {
                out.write_all(picture_header(lines).as_bytes())?;
            }
            let picture = to_picture(m, Vec::new()).map_err(std::io::Error::other)?;
            let mut bytes = Vec::new();
            picture.encode_pixels(true, &mut bytes);
            out.write_all(&bytes)?;
        }
    }
    out.flush()
}

/// How dctimestep and dcglare read a sky matrix: `nsteps` columns (`-n`) and the `-i` format.
pub fn sky_read_options(nsteps: Option<usize>, format: Option<Format>) -> ReadOptions {
    ReadOptions {
        format,
        cols: nsteps,
        ncomp: Some(3),
        // `-n` announces header-less ASCII, unless a later -i asked for a binary format.
        header: if nsteps.is_some() && format == Some(Format::Ascii) {
            crate::HeaderMode::Absent
        } else {
            crate::HeaderMode::Auto
        },
        ..ReadOptions::default()
    }
}

/// Sums of component pictures, in float as dctimestep sums them, alternating the order of
/// the components from one sum to the next (so a file read last stays cached for the next).
#[derive(Default)]
pub struct PictureSum {
    calls: usize,
}

impl PictureSum {
    /// The pictures `spec` (`%d` = row of `coefs`), weighted by the RGB coefficients of the
    /// one-column matrix `coefs` and summed. A picture whose coefficients are all zero is not
    /// read, unless no other is.
    pub fn sum(&mut self, spec: &str, coefs: &Matrix) -> Result<HdrImage, String> {
        let n = coefs.rows();
        let backwards = self.calls % 2 == 1;
        self.calls += 1;
        let mut total: Option<HdrImage> = None;
        for k in 0..n {
            let r = if backwards { n - 1 - k } else { k };
            let c = coefs.get(r, 0);
            if c.iter().all(|&v| v == 0.0) && (total.is_some() || k + 1 < n) {
                continue;
            }
            let name = frame_name(spec, r);
            let pic = HdrImage::read(Path::new(&name))
                .map_err(|e| format!("cannot read component picture: {e}"))?;
            let acc = total.get_or_insert_with(|| HdrImage::new(pic.width, pic.height));
            if (pic.width, pic.height) != (acc.width, acc.height) {
                return Err(format!(
                    "picture '{name}' is {}×{}, the first one read is {}×{}",
                    pic.width, pic.height, acc.width, acc.height
                ));
            }
            for (a, p) in acc.pixels.iter_mut().zip(&pic.pixels) {
                for i in 0..3 {
                    a[i] += p[i] * c[i];
                }
            }
        }
        total.ok_or_else(|| {
            "no component pictures to sum (the coefficients have no rows)".to_string()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert!(has_number_format("img%03d.hdr"));
        assert!(!has_number_format("100%%.mtx"));
        assert!(!has_number_format("dc.mtx"));
        assert!(!has_number_format("50%"));
    }

    #[test]
    fn frame_names_follow_printf() {
        assert_eq!(frame_name("img%03d.hdr", 7), "img007.hdr");
        assert_eq!(frame_name("a%d_%%_%d", 12), "a12_%_%d");
        assert_eq!(frame_name("[%-4d][%4i]", 5), "[5   ][%4i]");
        assert_eq!(frame_name("%x.%o", 255), "ff.%o");
        assert_eq!(frame_name("plain.mtx", 3), "plain.mtx");
    }

    #[test]
    fn columns_and_shapes() {
        let m = Matrix::new(2, 3, 1, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        assert_eq!(column_of(&m, 1).unwrap().data(), &[2.0, 5.0]);
        let mut r = m.clone();
        reshape(&mut r, 0, 2).unwrap();
        assert_eq!((r.rows(), r.cols()), (3, 2));
        assert!(reshape(&mut r, 4, 2)
            .unwrap_err()
            .starts_with("bad dimensions: 4×2"));
    }

    #[test]
    fn component_pictures_sum_weighted() {
        let dir = tempfile::tempdir().unwrap();
        for (k, v) in [1.0f32, 4.0].into_iter().enumerate() {
            let mut img = HdrImage::new(2, 1);
            img.pixels = vec![[v; 3]; 2];
            let mut bytes = picture_header(&[]).into_bytes();
            img.encode_pixels(true, &mut bytes);
            std::fs::write(dir.path().join(format!("c{k}.hdr")), bytes).unwrap();
        }
        let spec = dir.path().join("c%d.hdr").display().to_string();
        let coefs = Matrix::new(2, 1, 3, vec![0.5, 1.0, 2.0, 0.25, 0.0, 1.0]).unwrap();
        let sum = PictureSum::default().sum(&spec, &coefs).unwrap();
        // What was stored (RGBE rounds), weighted: 0.5/1/2 of the first, 0.25/0/1 of the second.
        let read = |k: usize| {
            HdrImage::read(&dir.path().join(format!("c{k}.hdr")))
                .unwrap()
                .pixels[0]
        };
        let (a, b) = (read(0), read(1));
        let want = [
            0.0 + a[0] * 0.5 + b[0] * 0.25,
            0.0 + a[1] * 1.0 + b[1] * 0.0,
            0.0 + a[2] * 2.0 + b[2] * 1.0,
        ];
        assert_eq!(sum.pixels, vec![want; 2]);
        assert!((want[2] - 6.0).abs() < 0.1, "{want:?}");
    }
}
