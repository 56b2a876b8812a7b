//! Pictures as patterns: `colorpict` and `mixpict`.
//!
//! A RADIANCE picture becomes a two-dimensional grid of pixel colours, looked up as RADIANCE
//! looks up its picture data: the picture's lower-left pixel sits at (0, 0) and the grid spans
//! 1 along its shorter side (in pixels corrected by `PIXASPECT=`) and the aspect ratio along
//! the other, so a 200 × 100 picture covers x in 0..2 and y in 0..1. Pixel centres are the
//! grid points (the first at 0, the last at the span), values are interpolated bilinearly
//! between them and, outside, extrapolated as data files are (one division linearly, then
//! tapering to zero). The values are those the file stores (its `EXPOSURE=` is not undone),
//! as RADIANCE uses them. The first coordinate expression gives x (horizontal), the second y.
//! Any orientation of the resolution line is read; pictures in another format than RGBE
//! (XYZE) are refused, as RADIANCE refuses them.

use crate::data::taper;
use crate::material::{frame, pattern, MixCoef, Mixture, Modifier, PatternKind, PatternRay};
use daylit_cal::{CalEnv, EvalState, ExprId, FuncId};
use daylit_image::HdrImage;
use daylit_scene::{PrimType, Primitive};
use std::path::Path;
use std::sync::Arc;

/// A picture as a grid of colours, bottom row first.
#[derive(Clone, Debug)]
pub struct Picture {
    /// Pixels across.
    nx: usize,
    /// Pixels up.
    ny: usize,
    /// Extent of the grid along x and y.
    span: [f64; 2],
    /// Colours, row by row from the bottom, each row left to right.
    pixels: Vec<[f32; 3]>,
}

impl Picture {
    /// Reads a picture file; the error names the file and what is wrong.
    pub fn load(path: &Path) -> Result<Picture, String> {
        let img = HdrImage::read(path).map_err(|e| format!("picture file {e}"))?;
        Picture::from_image(&img).map_err(|e| format!("picture file {}: {e}", path.display()))
    }

    /// The grid of a picture already read.
    pub fn from_image(img: &HdrImage) -> Result<Picture, String> {
        let aspect = img
            .pixel_aspect()
            .ok_or("a PIXASPECT= value is not a positive number")?;
        let (nx, ny) = (img.width, img.height);
        if nx < 2 || ny < 2 {
            return Err(format!(
                "a pattern picture needs at least 2 pixels each way, this one is {nx} x {ny}"
            ));
        }
        let (xr, yr) = (nx as f64, ny as f64);
        let span = if xr <= yr * aspect {
            [1.0, aspect * yr / xr]
        } else {
            [xr / yr / aspect, 1.0]
        };
        let mut pixels = Vec::with_capacity(nx * ny);
        for row in (0..ny).rev() {
            pixels.extend_from_slice(&img.pixels[row * nx..(row + 1) * nx]);
        }
        Ok(Picture {
            nx,
            ny,
            span,
            pixels,
        })
    }

    /// The interpolated colour at (x, y).
    pub fn value(&self, x: f64, y: f64) -> [f64; 3] {
        let (j, cy) = cell(y, self.span[1], self.ny);
        let (i, cx) = cell(x, self.span[0], self.nx);
        let mut out = [0.0; 3];
        for (row, wy) in [(j, cy.0), (j + 1, cy.1)] {
            // RADIANCE drops a row whose weight is negligible.
            if wy.abs() <= 1e-6 {
                continue;
            }
            let base = row * self.nx + i;
            for (p, wx) in [(self.pixels[base], cx.0), (self.pixels[base + 1], cx.1)] {
                let w = wy * wx;
                for k in 0..3 {
                    out[k] += w * p[k] as f64;
                }
            }
        }
        out
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.nx, self.ny)
    }
}

/// The lower grid point and the two weights for coordinate `p` on an axis of `n` points
/// spread evenly over 0..`span`.
fn cell(p: f64, span: f64, n: usize) -> (usize, (f64, f64)) {
    let x = p / span * (n - 1) as f64;
    let i = if x.is_nan() || x < 0.0 {
        0
    } else {
        (x as usize).min(n - 2)
    };
    (i, taper(i, x))
}

/// A picture looked up at coordinates computed per ray, then passed through functions.
#[derive(Clone, Debug)]
pub struct PictLookup {
    /// The functions applied to the colour (one for `mixpict`, three for `colorpict`).
    pub funcs: Vec<FuncId>,
    /// Their parameter counts.
    pub arity: Vec<usize>,
    /// The picture.
    pub pict: Arc<Picture>,
    /// The expressions for x and y.
    pub coords: [ExprId; 2],
}

impl PictLookup {
    /// The interpolated colour at this ray's coordinates.
    fn colour(&self, cal: &CalEnv, st: &mut EvalState, ray: &PatternRay) -> [f64; 3] {
        let x = cal.eval_expr(self.coords[0], st, ray);
        let y = cal.eval_expr(self.coords[1], st, ray);
        self.pict.value(x, y)
    }

    /// `colorpict`: the three function values, each function given the channel it stands
    /// for when it takes fewer than three parameters (red's always takes all three).
    pub fn color(&self, cal: &CalEnv, st: &mut EvalState, ray: &PatternRay) -> [f64; 3] {
        let c = self.colour(cal, st, ray);
        std::array::from_fn(|i| {
            let args = if i > 0 && self.arity[i] < 3 {
                &c[i..=i]
            } else {
                &c[..]
            };
            cal.call(self.funcs[i], args, st, ray)
        })
    }

    /// `mixpict`: the function of the three channels.
    pub fn coef(&self, cal: &CalEnv, st: &mut EvalState, ray: &PatternRay) -> f64 {
        let c = self.colour(cal, st, ray);
        cal.call(self.funcs[0], &c, st, ray)
    }
}

impl crate::material::Builder<'_> {
    /// A function named in function file `file`'s context, checked, with its parameter count.
    pub(crate) fn named_func(&mut self, file: &str, name: &str) -> Result<(FuncId, usize), String> {
        let fid = self
            .cal
            .function_in(file, name)
            .ok_or_else(|| format!("function \"{name}\" is not defined"))?;
        self.cal
            .check_func(fid)
            .map_err(|e| format!("function \"{name}\": {e}"))?;
        Ok((fid, self.cal.func_arity(fid)))
    }

    /// A picture, read once per run however many modifiers name it.
    fn picture_file(&mut self, name: &str) -> Result<Arc<Picture>, String> {
        if let Some(p) = self.pictures.get(name) {
            return Ok(p.clone());
        }
        let path = self
            .raypath
            .find(name)
            .ok_or_else(|| format!("picture file \"{name}\" not found in the RAYPATH"))?;
        let p = Arc::new(Picture::load(&path)?);
        self.pictures.insert(name.to_string(), p.clone());
        Ok(p)
    }

    /// `colorpict` (`rfunc gfunc bfunc picture funcfile x y [transform]`) and `mixpict`
    /// (`foremod backmod func picture funcfile x y [transform]`).
    pub(crate) fn picture(&mut self, p: &Primitive) -> Result<Modifier, String> {
        let sa = &p.sargs;
        let mix = p.ptype == PrimType::Mixpict;
        if sa.len() < 7 {
            return Err(if mix {
                "needs foremod backmod func picture funcfile x y [transform]".into()
            } else {
                "needs rfunc gfunc bfunc picture funcfile x y [transform]".into()
            });
        }
        let file = sa[4].as_str();
        self.load(file)?;
        let pict = self.picture_file(&sa[3])?;
        let coords = [self.expr(file, &sa[5])?, self.expr(file, &sa[6])?];
        let names = if mix { &sa[2..3] } else { &sa[0..3] };
        let mut funcs = Vec::with_capacity(3);
        let mut arity = Vec::with_capacity(3);
        for name in names {
            let (f, n) = self.named_func(file, name)?;
            funcs.push(f);
            arity.push(n);
        }
        let lookup = PictLookup {
            funcs,
            arity,
            pict,
            coords,
        };
        let frame = frame(p, 7, p.fargs.clone())?;
        Ok(if mix {
            let side = |i: usize| p.mod_refs.get(i).copied().flatten();
            Modifier::Mixture(Box::new(Mixture {
                fore: side(0),
                back: side(1),
                coef: MixCoef::Picture(lookup),
                frame,
            }))
        } else {
            pattern(PatternKind::Picture(lookup), frame)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pict(w: usize, h: usize, aspect: Option<f64>) -> Picture {
        let mut img = HdrImage::new(w, h);
        for r in 0..h {
            for c in 0..w {
                img.set(c, r, [c as f32, r as f32, 1.0]);
            }
        }
        if let Some(a) = aspect {
            img.header.push(format!("PIXASPECT={a}"));
        }
        Picture::from_image(&img).unwrap()
    }

    #[test]
    fn spans_follow_the_shorter_side() {
        assert_eq!(pict(4, 2, None).span, [2.0, 1.0]);
        assert_eq!(pict(2, 4, None).span, [1.0, 2.0]);
        // Pixels twice as tall as wide: 4 x 2 pixels make a square.
        assert_eq!(pict(4, 2, Some(2.0)).span, [1.0, 1.0]);
    }

    #[test]
    fn bilinear_between_pixel_centres_bottom_row_first() {
        // 5 x 3: x spans 5/3, y spans 1; value = (column, row from the top, 1).
        let p = pict(5, 3, None);
        let v = p.value(0.0, 0.0);
        assert_eq!(v, [0.0, 2.0, 1.0]);
        let v = p.value(5.0 / 3.0, 1.0);
        assert!((v[0] - 4.0).abs() < 1e-12 && v[1].abs() < 1e-12, "{v:?}");
        let v = p.value(5.0 / 3.0 / 8.0, 0.25);
        assert!(
            (v[0] - 0.5).abs() < 1e-12 && (v[1] - 1.5).abs() < 1e-12,
            "{v:?}"
        );
    }

    #[test]
    fn one_pixel_side_refused() {
        assert!(Picture::from_image(&HdrImage::new(1, 5)).is_err());
    }
}
