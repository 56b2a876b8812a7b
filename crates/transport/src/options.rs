//! The rendering options RADIANCE's `rtrace` and `rpict` share (`-a* -d* -s* -l* -m* -i -u -bv -dv`),
//! with each program's defaults.

use glam::DVec3;

/// Light-transport options, named as RADIANCE names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `-ab`: ambient bounces.
    pub ab: u32,
    /// `-ad`: ambient divisions (hemisphere samples of a first bounce).
    pub ad: u32,
    /// `-as`: ambient super-samples.
    pub as_: u32,
    /// `-aa`: ambient accuracy. 0 computes every ambient value; above 0 ambient values come
    /// from an irradiance cache built before tracing, whose records cover `-aa ×` their radii.
    pub aa: f64,
    /// `-ar`: ambient resolution: the smallest cache record radius is the scene size over this.
    pub ar: u32,
    /// `-af`: the irradiance cache file, read when it fits the scene and options, else written.
    pub af: Option<std::path::PathBuf>,
    /// `-av`: ambient value returned where the bounce limit is reached.
    pub av: DVec3,
    /// `-ae`/`-aE` (exclude) or `-ai`/`-aI` (include): surfaces whose modifier is excluded,
    /// or not included, get `-av` instead of a computed ambient value.
    pub ambient_set: Option<AmbientSet>,
    /// `-aw`: ambient value weight (accepted; daylit returns `-av` as is).
    pub aw: u32,
    /// `-dj`: source jitter (0 aims at part centres).
    pub dj: f64,
    /// `-ds`: source subdivision ratio (0 turns subdivision off).
    pub ds: f64,
    /// `-dt`: direct threshold: sources below this fraction of the value are not shadow-tested.
    pub dt: f64,
    /// `-dc`: direct certainty.
    pub dc: f64,
    /// `-dr`: virtual source relays (mirrors).
    pub dr: u32,
    /// `-dp`: virtual source pretest density (accepted).
    pub dp: u32,
    /// `-dv`: light sources visible to primary and specular rays.
    pub dv: bool,
    /// `-ss`: specular sampling: 0 one unjittered sample, >1 several samples per lobe.
    pub ss: f64,
    /// `-st`: specular threshold: weaker rough specular is folded into the ambient value.
    pub st: f64,
    /// `-lr`: reflection limit; 0 or negative turns Russian roulette on (negative: a hard limit
    /// of `|lr|` as well).
    pub lr: i32,
    /// `-lw`: weight limit.
    pub lw: f64,
    /// `-i`: irradiance at surfaces hit by primary rays instead of radiance.
    pub irradiance: bool,
    /// `-bv`: back faces visible.
    pub backvis: bool,
    /// `-me`: extinction per unit length of the global medium (RGB), 0 without a medium.
    pub me: DVec3,
    /// `-ma`: scattering albedo of the global medium (RGB).
    pub ma: DVec3,
    /// `-mg`: Henyey–Greenstein eccentricity of the global medium (0: isotropic).
    pub mg: f64,
    /// `-ms`: in-scattering sample spacing along rays in a medium (0: one sample a ray).
    pub ms: f64,
    /// Seed of the random sequences (daylit's addition: same seed, same output).
    pub seed: u64,
    /// `--radiance-ambient` (daylit's addition): without a cache, RADIANCE's own ambient estimator
    /// (cosine-weighted hemispheres, `-as` super-samples, rays below `-lw` ended when `-lr`
    /// is above 0) instead of daylit's, which also aims samples at the windows and continues
    /// weak rays by Russian roulette. For reference runs.
    pub radiance_ambient: bool,
    /// `--daylit-ambient` (daylit's addition): daylit's estimator in contribution runs too
    /// (`rcontrib`, `rfluxmtx`), which otherwise keep RADIANCE's: per sky patch its
    /// coefficients of the mid-altitude sky are still noisier than RADIANCE's.
    pub daylit_ambient: bool,
}

/// The modifiers of `-ae`/`-ai` (and the files of `-aE`/`-aI`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AmbientSet {
    /// The list names the only modifiers whose surfaces get an ambient calculation.
    pub include: bool,
    /// Modifier names.
    pub names: Vec<String>,
}

impl AmbientSet {
    /// Whether a surface of modifier `name` gets `-av` instead of an ambient calculation.
    pub fn skips(&self, name: &str) -> bool {
        self.include != self.names.iter().any(|n| n == name)
    }
}

impl Options {
    /// `rtrace`'s defaults in RADIANCE 6.0a.
    pub fn rtrace() -> Options {
        Options {
            ab: 0,
            ad: 1024,
            as_: 512,
            aa: 0.1,
            ar: 256,
            af: None,
            av: DVec3::ZERO,
            ambient_set: None,
            aw: 0,
            dj: 0.0,
            ds: 0.2,
            dt: 0.03,
            dc: 0.75,
            dr: 2,
            dp: 512,
            dv: true,
            ss: 1.0,
            st: 0.15,
            lr: -10,
            lw: 1e-4,
            irradiance: false,
            backvis: true,
            me: DVec3::ZERO,
            ma: DVec3::ZERO,
            mg: 0.0,
            ms: 0.0,
            seed: 0,
            radiance_ambient: false,
            daylit_ambient: false,
        }
    }

    /// Do rays go on by Russian roulette below `-lw` whatever `-lr` says? daylit's estimator
    /// does so at `-aa 0`, where ending them would lose their light.
    pub fn daylit_roulette(&self) -> bool {
        self.aa <= 0.0 && !self.radiance_ambient
    }

    /// `rpict`'s defaults in RADIANCE 6.0a.
    pub fn rpict() -> Options {
        Options {
            aa: 0.2,
            ar: 64,
            ad: 512,
            as_: 128,
            dt: 0.05,
            dc: 0.5,
            ds: 0.25,
            dr: 1,
            lr: 7,
            ..Options::rtrace()
        }
    }

    /// `rcontrib`'s defaults in RADIANCE 6.0a (`rcontrib -defaults`): one bounce at 350
    /// divisions, no super-samples, no shadow threshold, -lw 2e-3, -dj .9, -st .02.
    pub fn rcontrib() -> Options {
        Options {
            ab: 1,
            ad: 350,
            as_: 0,
            aa: 0.0,
            dj: 0.9,
            dt: 0.0,
            dr: 3,
            st: 0.02,
            lw: 2e-3,
            ..Options::rtrace()
        }
    }

    /// The defaults of `daylit render` (and of `daylit live`, with one division a frame):
    /// converged enough for design decisions on a typical room (three bounces, every source
    /// tested, jittered sources), with no bias from super-sampling.
    pub fn render() -> Options {
        Options {
            ab: 3,
            ad: 512,
            as_: 0,
            aa: 0.0,
            lw: 1e-3,
            lr: -8,
            dj: 0.7,
            ds: 0.2,
            dt: 0.0,
            dc: 1.0,
            dr: 2,
            ..Options::rtrace()
        }
    }

    /// Parses one option at `args[i]`. Returns the number of words used, 0 if the word is not a
    /// rendering option, or an error naming the option and what it expected.
    pub fn parse_arg(&mut self, args: &[String], i: usize) -> Result<usize, String> {
        let a = args[i].as_str();
        let num = |k: usize| -> Result<f64, String> {
            let w = args
                .get(i + k)
                .ok_or_else(|| format!("option {a} needs a value"))?;
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("option {a} expects a number, found \"{w}\""))
        };
        let count = |k: usize| -> Result<u32, String> {
            let v = num(k)?;
            if v < 0.0 || v > u32::MAX as f64 {
                return Err(format!(
                    "option {a} expects a count of 0 or more, found {v}"
                ));
            }
            Ok(v as u32)
        };
        let switch = |name: &str, cur: bool| -> Option<bool> {
            match a.strip_prefix(name)? {
                "" => Some(!cur),
                "+" => Some(true),
                "-" => Some(false),
                _ => None,
            }
        };
        if a == "--radiance-ambient" {
            self.radiance_ambient = true;
            return Ok(1);
        }
        if a == "--daylit-ambient" {
            self.daylit_ambient = true;
            return Ok(1);
        }
        if let Some(v) = switch("-i", self.irradiance) {
            self.irradiance = v;
            return Ok(1);
        }
        if let Some(v) = switch("-bv", self.backvis) {
            self.backvis = v;
            return Ok(1);
        }
        if let Some(v) = switch("-dv", self.dv) {
            self.dv = v;
            return Ok(1);
        }
        // -u (correlated sampling) is accepted: daylit always samples independently, seeded.
        if switch("-u", true).is_some() {
            return Ok(1);
        }
        match a {
            "-ab" => self.ab = count(1)?,
            "-ad" => self.ad = count(1)?,
            "-as" => self.as_ = count(1)?,
            "-aa" => self.aa = num(1)?.max(0.0),
            "-ar" => self.ar = count(1)?,
            "-af" => {
                let w = args
                    .get(i + 1)
                    .ok_or_else(|| format!("option {a} needs a value"))?;
                self.af = Some(w.into());
            }
            "-aw" => self.aw = count(1)?,
            "-ae" | "-ai" | "-aE" | "-aI" => {
                let w = args
                    .get(i + 1)
                    .ok_or_else(|| format!("option {a} needs a modifier name or file"))?;
                let include = matches!(a, "-ai" | "-aI");
                // Switching between including and excluding starts a new list, as in RADIANCE.
                let set = self.ambient_set.get_or_insert_with(AmbientSet::default);
                if set.include != include {
                    *set = AmbientSet {
                        include,
                        names: Vec::new(),
                    };
                }
                if a == "-aE" || a == "-aI" {
                    let text = std::fs::read_to_string(w).map_err(|e| {
                        format!("option {a}: cannot open ambient modifier file \"{w}\": {e}")
                    })?;
                    set.names
                        .extend(text.split_ascii_whitespace().map(str::to_string));
                } else {
                    set.names.push(w.clone());
                }
            }
            "-av" => {
                self.av = DVec3::new(num(1)?, num(2)?, num(3)?);
                return Ok(4);
            }
            "-me" | "-ma" => {
                let v = DVec3::new(num(1)?, num(2)?, num(3)?);
                if a == "-me" {
                    self.me = v;
                } else {
                    self.ma = v;
                }
                return Ok(4);
            }
            "-mg" => self.mg = num(1)?,
            "-ms" => self.ms = num(1)?,
            "-dj" => self.dj = num(1)?.clamp(0.0, 1.0),
            "-ds" => self.ds = num(1)?.max(0.0),
            "-dt" => self.dt = num(1)?.max(0.0),
            "-dc" => self.dc = num(1)?.clamp(0.0, 1.0),
            "-dr" => self.dr = count(1)?,
            "-dp" => self.dp = count(1)?,
            "-ss" => self.ss = num(1)?.max(0.0),
            "-st" => self.st = num(1)?.max(0.0),
            "-lr" => self.lr = num(1)? as i32,
            "-lw" => self.lw = num(1)?.max(0.0),
            "-seed" => {
                let v = num(1)?;
                if v < 0.0 || v.fract() != 0.0 {
                    return Err(format!("option -seed expects a whole number, found {v}"));
                }
                self.seed = v as u64;
            }
            _ => return Ok(0),
        }
        Ok(2)
    }

    /// Checks combinations RADIANCE refuses.
    pub fn validate(&self) -> Result<(), String> {
        if self.lr <= 0 && self.lw <= 0.0 {
            return Err("-lr 0 or below (Russian roulette) needs -lw above 0".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<Options, String> {
        let args: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        let mut o = Options::rtrace();
        let mut i = 0;
        while i < args.len() {
            let n = o.parse_arg(&args, i)?;
            assert!(n > 0, "{} not recognised", args[i]);
            i += n;
        }
        Ok(o)
    }

    #[test]
    fn parses_radiance_options() {
        let o = parse(&[
            "-ab", "3", "-av", "1", "2", "3", "-i+", "-bv-", "-lw", "1e-6",
        ])
        .unwrap();
        assert_eq!(o.ab, 3);
        assert_eq!(o.av, DVec3::new(1.0, 2.0, 3.0));
        assert!(o.irradiance && !o.backvis);
        assert_eq!(o.lw, 1e-6);
        let m = parse(&[
            "-me", ".1", ".2", ".3", "-ma", ".9", ".8", ".7", "-mg", ".5", "-ms", ".25",
        ])
        .unwrap();
        assert_eq!(m.me, DVec3::new(0.1, 0.2, 0.3));
        assert_eq!(m.ma, DVec3::new(0.9, 0.8, 0.7));
        assert_eq!((m.mg, m.ms), (0.5, 0.25));
        assert!(parse(&["-ab", "x"])
            .unwrap_err()
            .contains("expects a number"));
        assert!(parse(&["-ad"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["-ad", "-3"]).unwrap_err().contains("count"));
    }
}
