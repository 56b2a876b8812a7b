//! Multi-layer glazing optics for spectral `specdata` materials, as RADIANCE's `genglaze`
//! computes them from the formulas of LBNL WINDOW's technical documentation (sections 7.6.1
//! and 7.7).
//!
//! Each layer's normal-incidence spectra (transmittance, front and back reflectance) come
//! from a RADIANCE data file whose first axis is 0 = front reflectance, 1 = back reflectance,
//! 2 = transmittance and whose second is the wavelength in nm. A monolithic (uncoated) layer
//! is turned into angular data through its surface reflectance, refractive index and
//! absorption coefficient (Fresnel reflection at each face, Beer–Lambert absorption along the
//! refracted path, the inter-reflections summed); a coated or laminated layer through
//! WINDOW's polynomial angular fits for clear (normal transmittance above 0.645) and bronze
//! glass. Layers combine front to back with their inter-reflections. The result is tabulated
//! at RADIANCE's 59 incidence angles (every 5° to 40°, then every degree to 90°).

use crate::data::DataArray;

/// The incidence angles of the tables, degrees.
pub const THETAS: [f64; 59] = {
    let mut t = [0.0; 59];
    let mut k = 0;
    while k < 59 {
        t[k] = if k <= 8 {
            5.0 * k as f64
        } else {
            32.0 + k as f64
        };
        k += 1;
    }
    t
};

/// Denominators and values below this are treated as zero, as genglaze does.
const TINY: f64 = 1e-9;

/// WINDOW's angular fits (coefficients of cos θ⁰ … cos θ⁴) for transmittance and for
/// reflectance plus transmittance, clear and bronze glass.
const TAU_CLEAR: [f64; 5] = [-0.0015, 3.355, -3.84, 1.46, 0.0288];
const TAU_BRONZE: [f64; 5] = [0.002, 2.813, -2.341, -0.05725, 0.599];
const RHO_CLEAR: [f64; 5] = [0.999, -0.563, 2.043, -2.532, 1.054];
const RHO_BRONZE: [f64; 5] = [0.997, -1.868, 6.513, -7.862, 3.225];

/// How a layer's spectra change with the angle of incidence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LayerKind {
    /// Uncoated glass of this thickness (m).
    Monolithic { thickness: f64 },
    /// A coated or laminated layer (WINDOW's fits).
    Coated,
}

/// One layer's normal-incidence spectra at the output wavelengths.
#[derive(Clone, Debug)]
pub struct Layer {
    pub kind: LayerKind,
    pub t: Vec<f64>,
    pub rf: Vec<f64>,
    pub rb: Vec<f64>,
}

impl Layer {
    /// The spectra of `data` (axis 0: 0 front reflectance, 1 back reflectance, 2
    /// transmittance; axis 1: wavelength) at `wavelengths`, interpolated as RADIANCE does.
    pub fn from_data(
        kind: LayerKind,
        data: &DataArray,
        wavelengths: &[f64],
    ) -> Result<Layer, String> {
        if data.dims() != 2 {
            return Err(format!(
                "a glazing layer's data has 2 dimensions (property, wavelength), not {}",
                data.dims()
            ));
        }
        let at = |k: f64| wavelengths.iter().map(|&w| data.value(&[k, w])).collect();
        Ok(Layer {
            kind,
            rf: at(0.0),
            rb: at(1.0),
            t: at(2.0),
        })
    }

    /// The layer's spectra at each of [`THETAS`].
    pub fn angular(&self) -> Angular {
        match self.kind {
            LayerKind::Monolithic { thickness } => self.monolithic(thickness),
            LayerKind::Coated => self.coated(),
        }
    }

    fn monolithic(&self, thickness: f64) -> Angular {
        let n = self.t.len();
        let mut out = Angular::new(n);
        for w in 0..n {
            let (t0, r0) = (self.t[w], self.rf[w]);
            // One face's reflectance at normal incidence, from the layer's R and T.
            let beta = t0 * t0 - r0 * r0 + 2.0 * r0 + 1.0;
            let mut den = 2.0 * (2.0 - r0);
            if den.abs() < TINY {
                den = TINY;
            }
            let disc = (beta * beta - 2.0 * den * r0).max(0.0);
            let rho0 = ((beta - disc.sqrt()) / den).clamp(0.0, 1.0);
            let sr = rho0.sqrt();
            let index = if 1.0 - sr < TINY {
                1.0
            } else {
                (1.0 + sr) / (1.0 - sr)
            };
            let (num, den) = (r0 - rho0, rho0 * t0);
            let mut alpha = if den > TINY && num > TINY {
                -(num / den).ln() / thickness
            } else {
                1.0
            };
            if !alpha.is_finite() || alpha < 0.0 {
                alpha = 0.0;
            }
            for (k, theta) in THETAS.iter().enumerate() {
                let (s, c) = theta.to_radians().sin_cos();
                let s2 = s * s / (index * index);
                let cp = if s2 >= 1.0 { 0.0 } else { (1.0 - s2).sqrt() };
                let rho = fresnel(index, c, cp);
                let arg = if cp < TINY {
                    -700.0
                } else {
                    (-alpha * thickness / cp).max(-700.0)
                };
                let ti = arg.exp();
                let d = 1.0 - rho * rho * ti * ti;
                let (t, r) = if d.abs() < TINY || rho >= 1.0 {
                    (0.0, 1.0)
                } else {
                    let tau = 1.0 - rho;
                    let t = tau * tau * ti / d;
                    (t, rho * (1.0 + t * ti))
                };
                let i = k * n + w;
                out.t[i] = t.clamp(0.0, 1.0);
                out.rf[i] = r;
                out.rb[i] = r;
            }
        }
        out
    }

    fn coated(&self) -> Angular {
        let n = self.t.len();
        let mut out = Angular::new(n);
        for (k, theta) in THETAS.iter().enumerate() {
            let c = theta.to_radians().cos();
            for w in 0..n {
                let clear = self.t[w] > 0.645;
                let tau = poly(c, if clear { &TAU_CLEAR } else { &TAU_BRONZE });
                let rho = poly(c, if clear { &RHO_CLEAR } else { &RHO_BRONZE }) - tau;
                let i = k * n + w;
                out.t[i] = self.t[w] * tau;
                out.rf[i] = self.rf[w] * (1.0 - rho) + rho;
                out.rb[i] = self.rb[w] * (1.0 - rho) + rho;
            }
        }
        out
    }
}

/// Unpolarised Fresnel reflectance of a face of index `n`, for cosines of the incident and
/// refracted angles; total reflection where the refracted ray grazes.
fn fresnel(n: f64, c: f64, cp: f64) -> f64 {
    if cp <= TINY {
        return 1.0;
    }
    let (par_den, per_den) = (n * c + cp, n * cp + c);
    if par_den.abs() < TINY || per_den.abs() < TINY {
        return 1.0;
    }
    let par = (n * c - cp) / par_den;
    let per = (n * cp - c) / per_den;
    (0.5 * (par * par + per * per)).clamp(0.0, 1.0)
}

/// c⁰a₀ + c¹a₁ + … + c⁴a₄, in Horner's order.
fn poly(c: f64, a: &[f64; 5]) -> f64 {
    c * (c * (c * (a[4] * c + a[3]) + a[2]) + a[1]) + a[0]
}

/// Spectra at every angle of [`THETAS`], angle-major (`[θ][λ]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Angular {
    pub t: Vec<f64>,
    pub rf: Vec<f64>,
    pub rb: Vec<f64>,
}

impl Angular {
    fn new(nwvl: usize) -> Angular {
        let z = vec![0.0; THETAS.len() * nwvl];
        Angular {
            t: z.clone(),
            rf: z.clone(),
            rb: z,
        }
    }
}

/// The system of `layers`, front (outside) first: each added behind the ones before with
/// their inter-reflections.
pub fn combine(layers: &[Angular]) -> Option<Angular> {
    let (first, rest) = layers.split_first()?;
    let mut sys = first.clone();
    for l in rest {
        for i in 0..sys.t.len() {
            let mut d = 1.0 - l.rf[i] * sys.rb[i];
            if d.abs() < TINY {
                d = TINY;
            }
            let (t, rf, rb) = (sys.t[i], sys.rf[i], sys.rb[i]);
            sys.t[i] = t * l.t[i] / d;
            sys.rf[i] = rf + t * t * l.rf[i] / d;
            sys.rb[i] = l.rb[i] + l.t[i] * l.t[i] * rb / d;
        }
    }
    Some(sys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(kind: LayerKind, t: f64, r: f64) -> Layer {
        Layer {
            kind,
            t: vec![t],
            rf: vec![r],
            rb: vec![r],
        }
    }

    #[test]
    fn angles_are_genglaze_s() {
        assert_eq!(
            THETAS[..9],
            [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0]
        );
        assert_eq!(THETAS[9], 41.0);
        assert_eq!(THETAS[58], 90.0);
    }

    #[test]
    fn monolithic_glass_reproduces_its_normal_values() {
        // A clear 6 mm pane, T 0.88 and R 0.08 at normal incidence: the angular model must give
        // back T and R at 0 degrees and reflect everything at grazing incidence.
        let a = layer(LayerKind::Monolithic { thickness: 0.006 }, 0.88, 0.08).angular();
        assert!((a.t[0] - 0.88).abs() < 1e-9, "{}", a.t[0]);
        assert!((a.rf[0] - 0.08).abs() < 1e-9, "{}", a.rf[0]);
        assert!(a.t[58] < 1e-9 && (a.rf[58] - 1.0).abs() < 1e-9);
        // Transmittance falls with the angle.
        assert!(a.t.windows(2).all(|w| w[1] <= w[0] + 1e-12));
    }

    #[test]
    fn a_layer_behind_a_clear_one_adds_interreflections() {
        let a = layer(LayerKind::Monolithic { thickness: 0.006 }, 0.88, 0.08).angular();
        let b = layer(LayerKind::Coated, 0.5, 0.3).angular();
        let s = combine(&[a.clone(), b.clone()]).unwrap();
        // At normal incidence: T = T1 T2 / (1 − R2f R1b), Rf = R1f + T1² R2f / (1 − R2f R1b).
        let d = 1.0 - b.rf[0] * a.rb[0];
        assert!((s.t[0] - a.t[0] * b.t[0] / d).abs() < 1e-12);
        assert!((s.rf[0] - (a.rf[0] + a.t[0] * a.t[0] * b.rf[0] / d)).abs() < 1e-12);
        // Coated at normal incidence keeps its data (the fits give 1 and 0 at cos 1).
        assert!((b.t[0] - 0.5 * poly(1.0, &TAU_BRONZE)).abs() < 1e-12);
        assert_eq!(combine(&[]), None);
    }
}
