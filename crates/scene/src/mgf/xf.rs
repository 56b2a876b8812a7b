//! MGF transforms: the `xf` arguments (`-t`, `-rx/-ry/-rz`, `-s`, `-mx/-my/-mz`, `-i`, and
//! `-a` for arrays) as a 4×4 matrix acting on row vectors (`p' = p M`, RADIANCE's layout),
//! with the scale factor and whether the transform mirrors (reverses vertex order).

use daylit_radfile::scan::{atof, atoi, is_float};

/// A 4×4 matrix, rows first; points are row vectors multiplied on the left.
pub type Mat4 = [[f64; 4]; 4];

/// The identity matrix.
pub const IDENT: Mat4 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// `a × b`, summing each element's products in index order.
pub fn mult(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut m = [[0.0; 4]; 4];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j];
        }
    }
    m
}

/// A direction transformed by `m` (no translation).
pub fn vector(m: &Mat4, v: [f64; 3]) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (j, o) in out.iter_mut().enumerate() {
        *o = v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j];
    }
    out
}

/// A point transformed by `m`.
pub fn point(m: &Mat4, p: [f64; 3]) -> [f64; 3] {
    let v = vector(m, p);
    [v[0] + m[3][0], v[1] + m[3][1], v[2] + m[3][2]]
}

/// Is the word an integer (optional sign, digits)?
pub fn is_int(w: &str) -> bool {
    let d = w.strip_prefix(['-', '+']).unwrap_or(w);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// The transform of `args` and its (signed) scale, and how many arguments it understood: it
/// stops at the first word that is not a transform option with well-formed values (a caller
/// treats fewer than all as an error).
pub fn parse(args: &[String]) -> (Mat4, f64, usize) {
    let mut total = IDENT;
    let mut total_sca = 1.0;
    let mut block = IDENT;
    let mut block_sca = 1.0;
    let mut count: i64 = 1;
    let floats = |i: usize, n: usize| {
        (1..=n).all(|k| args.get(i + k).is_some_and(|w| is_float(w.as_bytes())))
    };
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        let w = args[i].as_bytes();
        let mut m = IDENT;
        match (w.get(1), w.get(2), w.len()) {
            (Some(b't'), None, _) if floats(i, 3) => {
                m[3] = [
                    atof(&args[i + 1]),
                    atof(&args[i + 2]),
                    atof(&args[i + 3]),
                    1.0,
                ];
                i += 3;
            }
            (Some(b'r'), Some(&axis @ b'x'..=b'z'), 3) if floats(i, 1) => {
                let a = atof(&args[i + 1]) * (std::f64::consts::PI / 180.0);
                let (s, c) = (a.sin(), a.cos());
                let (p, q) = match axis {
                    b'x' => (1, 2),
                    b'y' => (2, 0),
                    _ => (0, 1),
                };
                m[p][p] = c;
                m[q][q] = c;
                m[p][q] = s;
                m[q][p] = -s;
                i += 1;
            }
            (Some(b's'), None, _) if floats(i, 1) && atof(&args[i + 1]) != 0.0 => {
                let s = atof(&args[i + 1]);
                block_sca *= s;
                m[0][0] = s;
                m[1][1] = s;
                m[2][2] = s;
                i += 1;
            }
            (Some(b'm'), Some(&axis @ b'x'..=b'z'), 3) => {
                block_sca *= -1.0;
                let k = (axis - b'x') as usize;
                m[k][k] = -1.0;
            }
            (Some(b'i'), None, _) if args.get(i + 1).is_some_and(|w| is_int(w)) => {
                // What came before is applied its count; a new block starts.
                repeat(&mut total, &mut total_sca, &block, block_sca, count);
                count = atoi(&args[i + 1]);
                block = IDENT;
                block_sca = 1.0;
                i += 2;
                continue;
            }
            _ => break,
        }
        block = mult(&block, &m);
        i += 1;
    }
    repeat(&mut total, &mut total_sca, &block, block_sca, count);
    (total, total_sca, i)
}

/// `total` followed by `block` `count` times: one product at a time as RADIANCE multiplies
/// (so the rounding is its), by repeated squaring for counts too large to loop over.
fn repeat(total: &mut Mat4, sca: &mut f64, block: &Mat4, block_sca: f64, count: i64) {
    if count <= 10_000 {
        for _ in 0..count.max(0) {
            *total = mult(total, block);
            *sca *= block_sca;
        }
        return;
    }
    let (mut base, mut base_sca, mut n) = (*block, block_sca, count as u64);
    while n > 0 {
        if n & 1 == 1 {
            *total = mult(total, &base);
            *sca *= base_sca;
        }
        base = mult(&base, &base);
        base_sca *= base_sca;
        n >>= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn rotation_then_translation() {
        let (m, s, n) = parse(&words("-rz 90 -t 1 0 0"));
        assert_eq!((s, n), (1.0, 6));
        let p = point(&m, [1.0, 0.0, 0.0]);
        assert!(
            (p[0] - 1.0).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12,
            "{p:?}"
        );
    }

    #[test]
    fn iteration_and_mirror() {
        let (m, s, n) = parse(&words("-t 1 0 0 -i 3 -mx -s 2"));
        // The mirrored doubling applies three times after the translation.
        assert_eq!((s, n), (-8.0, 9));
        assert_eq!(point(&m, [0.0, 0.0, 0.0]), [-8.0, 0.0, 0.0]);
        let (_, _, n) = parse(&words("-t 1 x 0"));
        assert_eq!(n, 0);
        let (_, _, n) = parse(&words("-s 0"));
        assert_eq!(n, 0);
    }
}
