//! RADIANCE's `xform`, run natively: transform options, arrays (`-a`), iteration (`-i`),
//! argument files (`-f`), name prefixes (`-n`), modifier replacement (`-m`) and inversion (`-I`).

use crate::error::{Loc, Result, SceneError};
use crate::parse::{parse_real, RawPrim};
use crate::types::{Class, PrimType};
use glam::{DMat4, DVec3};

/// A regular (distortion-free) transform: rotation, uniform scale, mirror and translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// The matrix (column vectors: `p' = m * p`).
    pub m: DMat4,
    /// The scale factor, negative when the transform mirrors.
    pub scale: f64,
}

impl Default for Transform {
    fn default() -> Self {
        Transform {
            m: DMat4::IDENTITY,
            scale: 1.0,
        }
    }
}

impl Transform {
    /// Applies `self`, then `next`.
    pub fn then(&self, next: &Transform) -> Transform {
        Transform {
            m: next.m * self.m,
            scale: self.scale * next.scale,
        }
    }

    /// `self` applied `n` times, by repeated squaring (arrays ask for copy `i` with `-i i`,
    /// so a loop would make large arrays take quadratic time).
    pub fn pow(&self, mut n: u64) -> Transform {
        let mut result = Transform::default();
        let mut base = *self;
        while n > 0 {
            if n & 1 == 1 {
                result = result.then(&base);
            }
            base = base.then(&base);
            n >>= 1;
        }
        result
    }

    /// Transforms a point.
    pub fn point(&self, p: DVec3) -> DVec3 {
        self.m.transform_point3(p)
    }

    /// Transforms a direction (scaled with the transform, as RADIANCE does).
    pub fn vector(&self, v: DVec3) -> DVec3 {
        self.m.transform_vector3(v)
    }

    /// Does the transform reverse handedness?
    pub fn mirrors(&self) -> bool {
        self.scale < 0.0
    }
}

/// True if the word starts a transform option.
pub fn is_xf_option(w: &str) -> bool {
    matches!(
        w,
        "-t" | "-s" | "-i" | "-rx" | "-ry" | "-rz" | "-mx" | "-my" | "-mz"
    )
}

fn real_arg(args: &[String], i: usize, opt: &str, loc: &Loc) -> Result<f64> {
    let w = args
        .get(i)
        .ok_or_else(|| SceneError::at(loc, format!("xform: option {opt} needs a number")))?;
    parse_real(w).ok_or_else(|| {
        SceneError::at(
            loc,
            format!("xform: option {opt} expects a number, found \"{w}\""),
        )
    })
}

/// Parses transform options starting at `args[*i]`, stopping at the first word that is not one.
pub fn parse_transform(args: &[String], i: &mut usize, loc: &Loc) -> Result<Transform> {
    let mut total = Transform::default();
    let mut block = Transform::default();
    let mut count: i64 = 1;
    let flush = |total: &mut Transform, block: &Transform, count: i64| {
        *total = total.then(&block.pow(count.max(0) as u64));
    };
    while let Some(opt) = args.get(*i).filter(|w| is_xf_option(w)) {
        let opt = opt.clone();
        let step = match opt.as_str() {
            "-t" => {
                let v = DVec3::new(
                    real_arg(args, *i + 1, &opt, loc)?,
                    real_arg(args, *i + 2, &opt, loc)?,
                    real_arg(args, *i + 3, &opt, loc)?,
                );
                *i += 4;
                Transform {
                    m: DMat4::from_translation(v),
                    scale: 1.0,
                }
            }
            "-rx" | "-ry" | "-rz" => {
                let a = real_arg(args, *i + 1, &opt, loc)?.to_radians();
                *i += 2;
                let m = match opt.as_str() {
                    "-rx" => DMat4::from_rotation_x(a),
                    "-ry" => DMat4::from_rotation_y(a),
                    _ => DMat4::from_rotation_z(a),
                };
                Transform { m, scale: 1.0 }
            }
            "-s" => {
                let s = real_arg(args, *i + 1, &opt, loc)?;
                if s == 0.0 {
                    return Err(SceneError::at(loc, "xform: scale factor -s must not be 0"));
                }
                *i += 2;
                Transform {
                    m: DMat4::from_scale(DVec3::splat(s)),
                    scale: s,
                }
            }
            "-mx" | "-my" | "-mz" => {
                *i += 1;
                let mut d = DVec3::ONE;
                d[(opt.as_bytes()[2] - b'x') as usize] = -1.0;
                Transform {
                    m: DMat4::from_scale(d),
                    scale: -1.0,
                }
            }
            _ => {
                // "-i n": what came before is repeated its count, a new block starts.
                let n = args
                    .get(*i + 1)
                    .and_then(|w| w.parse::<i64>().ok())
                    .ok_or_else(|| {
                        SceneError::at(loc, "xform: option -i expects an integer count")
                    })?;
                *i += 2;
                flush(&mut total, &block, count);
                block = Transform::default();
                count = n;
                continue;
            }
        };
        block = block.then(&step);
    }
    flush(&mut total, &block, count);
    Ok(total)
}

/// What one `xform` invocation does to each primitive.
pub struct XformSpec {
    /// Prefix for surface identifiers (`-n`, nested prefixes joined by `.`).
    pub prefix: Option<String>,
    /// New modifier for surfaces (`-m`).
    pub new_mod: Option<String>,
    /// Reverse surface orientation (`-I`).
    pub invert: bool,
    /// The transform.
    pub xf: Transform,
    /// The transform options as written, appended to function-type string arguments.
    pub xf_words: Vec<String>,
}

fn pts(f: &[f64]) -> impl Iterator<Item = DVec3> + '_ {
    f.chunks_exact(3).map(|c| DVec3::new(c[0], c[1], c[2]))
}

fn put(out: &mut [f64], v: DVec3) {
    out[..3].copy_from_slice(&v.to_array());
}

impl XformSpec {
    /// Transforms one primitive in place, as RADIANCE's xform does for its type.
    pub fn apply(&self, p: &mut RawPrim) {
        let xf = &self.xf;
        let sca = xf.scale.abs();
        let surface = matches!(p.ptype.class(), Class::Surface | Class::Instance);
        if surface {
            if let Some(m) = &self.new_mod {
                p.modifier = m.clone();
            }
            if let Some(pre) = &self.prefix {
                p.name = format!("{pre}.{}", p.name);
            }
            if self.invert {
                p.ptype = p.ptype.inverted();
            }
        }
        if self.transform_geometry(p.ptype, &mut p.sargs, &mut p.fargs) {
            return;
        }
        let f = &mut p.fargs;
        match p.ptype {
            PrimType::Glow => f[3] *= sca,
            PrimType::Spotlight => {
                let d = xf.vector(DVec3::from_slice(&f[4..]));
                put(&mut f[4..], d);
            }
            PrimType::Dielectric | PrimType::Interface => {
                // Absorption is per unit length, so colours scale with the size.
                let blocks: &[usize] = if p.ptype == PrimType::Dielectric {
                    &[0]
                } else {
                    &[0, 4]
                };
                for &b in blocks {
                    for c in &mut f[b..b + 3] {
                        *c = c.powf(1.0 / sca);
                    }
                }
            }
            PrimType::Mist => {
                if f.len() > 2 {
                    for c in &mut f[..3] {
                        *c /= sca;
                    }
                }
                if let Some(pre) = &self.prefix {
                    for s in &mut p.sargs {
                        *s = s
                            .split('>')
                            .map(|part| format!("{pre}.{part}"))
                            .collect::<Vec<_>>()
                            .join(">");
                    }
                }
            }
            PrimType::Brighttext | PrimType::Colortext | PrimType::Mixtext => {
                let (o, r, d) = (
                    xf.point(DVec3::from_slice(f)),
                    xf.vector(DVec3::from_slice(&f[3..])),
                    xf.vector(DVec3::from_slice(&f[6..])),
                );
                put(f, o);
                put(&mut f[3..], r);
                put(&mut f[6..], d);
            }
            _ => {}
        }
    }

    /// Moves what is placed in space: surfaces, and the frames of modifiers that take a
    /// transform (patterns, textures, mixtures and materials with function files) and of
    /// `instance`s and `mesh`es, whose transforms grow by this one. Returns false for types
    /// it leaves to [`XformSpec::apply`] (materials whose arguments depend on size or
    /// direction, text patterns), which RADIANCE does not change inside an instance.
    pub fn transform_geometry(
        &self,
        ptype: PrimType,
        sargs: &mut Vec<String>,
        f: &mut [f64],
    ) -> bool {
        let xf = &self.xf;
        let sca = xf.scale.abs();
        let reverse = xf.mirrors() != self.invert;
        match ptype {
            PrimType::Source => {
                let d = xf.vector(DVec3::from_slice(f));
                put(f, d);
            }
            PrimType::Sphere | PrimType::Bubble => {
                let c = xf.point(DVec3::from_slice(f));
                put(f, c);
                f[3] *= sca;
            }
            PrimType::Polygon => {
                let mut v: Vec<DVec3> = pts(f).map(|q| xf.point(q)).collect();
                if reverse {
                    v.reverse();
                }
                for (k, q) in v.into_iter().enumerate() {
                    put(&mut f[3 * k..], q);
                }
            }
            PrimType::Cone | PrimType::Cup | PrimType::Cylinder | PrimType::Tube => {
                let (a, b) = (
                    xf.point(DVec3::from_slice(f)),
                    xf.point(DVec3::from_slice(&f[3..])),
                );
                put(f, a);
                put(&mut f[3..], b);
                for r in &mut f[6..] {
                    *r *= sca;
                }
            }
            PrimType::Ring => {
                let c = xf.point(DVec3::from_slice(f));
                let mut d = xf.vector(DVec3::from_slice(&f[3..]));
                if self.invert {
                    d = -d;
                }
                put(f, c);
                put(&mut f[3..], d);
                f[6] *= sca;
                f[7] *= sca;
            }
            t if t.takes_transform() || matches!(t, PrimType::Instance | PrimType::Mesh) => {
                // The pattern, function or compound surface moves with the geometry: its
                // transform grows.
                if self.xf_words.first().is_some_and(|w| w != "-i") {
                    sargs.extend(["-i".to_string(), "1".to_string()]);
                }
                sargs.extend(self.xf_words.iter().cloned());
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn loc() -> Loc {
        Loc::new("t".into(), 1, 1)
    }

    #[test]
    fn rotation_is_counter_clockwise() {
        let a = words("-rz 90 file");
        let mut i = 0;
        let xf = parse_transform(&a, &mut i, &loc()).unwrap();
        assert_eq!(i, 2);
        let p = xf.point(DVec3::X);
        assert!((p - DVec3::Y).length() < 1e-12);
    }

    #[test]
    fn order_and_iteration() {
        // Translate then rotate: (1,0,0) -> (2,0,0) -> (0,2,0).
        let a = words("-t 1 0 0 -rz 90");
        let mut i = 0;
        let xf = parse_transform(&a, &mut i, &loc()).unwrap();
        assert!((xf.point(DVec3::X) - DVec3::new(0.0, 2.0, 0.0)).length() < 1e-12);
        // -i 3 repeats the translation three times; -i 0 none.
        for (n, x) in [(3, 3.0), (0, 0.0)] {
            let a = words(&format!("-i {n} -t 1 0 0"));
            let mut i = 0;
            let xf = parse_transform(&a, &mut i, &loc()).unwrap();
            assert!((xf.point(DVec3::ZERO).x - x).abs() < 1e-12);
        }
        let a = words("-s 2 -mx");
        let mut i = 0;
        let xf = parse_transform(&a, &mut i, &loc()).unwrap();
        assert_eq!(xf.scale, -2.0);
        assert!(xf.mirrors());
    }

    #[test]
    fn large_iteration_counts_are_quick_and_exact() {
        let a = words("-i 1000000000 -t 1 0 0");
        let mut i = 0;
        let xf = parse_transform(&a, &mut i, &loc()).unwrap();
        assert_eq!(xf.point(DVec3::ZERO).x, 1e9);
    }
}
