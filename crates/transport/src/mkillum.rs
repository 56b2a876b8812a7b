//! RADIANCE's mkillum: surfaces that relay light into a space (windows, skylights) replaced by
//! `illum` (or `light`) secondary sources whose distribution is sampled from the scene, so
//! that the direct calculation finds the light they bring.
//!
//! For each polygon, ring or sphere selected by the `#@mkillum` settings, rays start just in
//! front of the surface and look back through it, `s` rays in each of about `d × π` direction
//! bins (uniform in projected solid angle), from random points on the surface. Rays are traced
//! as RADIANCE's mkillum traces them, as specular samples: light sources seen directly do not
//! count (the alternate material shows them), unless `l+` asks for a `light` whose
//! distribution then also holds the sources behind the surface, sampled as the direct
//! calculation samples them. The output is RADIANCE's: the distribution as a `brightdata` or
//! `colordata` pattern over `illum.cal`'s `il_alth`/`il_azih` (`il_alt`/`il_azi` for
//! spheres) with its data files, the `illum` material with the input's material as its
//! alternate, and the surface itself. Everything not selected passes through unchanged.

use crate::Renderer;
use daylit_radfile::printf::{format_e, format_g18};
use daylit_scene::parse::RawPrim;
use daylit_scene::PrimType;
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use std::f64::consts::PI;

const FTINY: f64 = 1e-6;
/// Ray origins sit this fraction of the surface's size in front of it.
const R_EPS: f64 = 0.005;

/// How colour is kept (`c=`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColorMode {
    /// One distribution per channel (`c=d`).
    Distribution,
    /// The average colour only (`c=a`).
    Average,
    /// Grey (`c=n`).
    None,
}

/// Which surfaces become sources (`a`, `n`, `i=`, `e=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Select {
    All,
    Nothing,
    Only(String),
    AllBut(String),
}

/// The `#@mkillum` variables in force.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Material name of the new sources (`m=`), also the distribution's name.
    pub material: String,
    /// Data file name (`f=`).
    pub data_file: String,
    /// Number appended to the data file name to keep it new.
    pub data_number: u32,
    /// Overwrite existing data files (set by `f=`).
    pub clobber: bool,
    pub color: ColorMode,
    /// `light` instead of `illum` (`l+`), the sources behind included.
    pub light: bool,
    /// Direction samples per projected steradian (`d=`); 0: diffuse.
    pub density: i64,
    /// Rays per direction (`s=`).
    pub samples: i64,
    /// Least average radiance for a source (`b=`).
    pub min_brightness: f64,
    pub select: Select,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            material: "illum_mat".into(),
            data_file: "illum".into(),
            data_number: 0,
            clobber: false,
            color: ColorMode::Average,
            light: false,
            density: 48,
            samples: 32,
            min_brightness: 0.0,
            select: Select::All,
        }
    }
}

/// What a run writes: text for each output (`None`: standard output; `o=` names files) and
/// the data files, in order.
#[derive(Default, Debug)]
pub struct Output {
    pub texts: Vec<(Option<String>, String)>,
    pub data_files: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

/// One mkillum run over its inputs.
pub struct MkIllum<'r> {
    rd: &'r Renderer,
    set: Settings,
    /// The first line of each output: `#` and the command line.
    command: String,
    header_done: bool,
    out: Output,
    /// Whether a data file name is taken (on disk, or written by this run).
    exists: Box<dyn Fn(&str) -> bool + 'r>,
    /// Objects made into sources so far (each gets its own random sequence).
    made: u64,
    /// The average radiance of the surface being made (per channel).
    avg: DVec3,
}

impl<'r> MkIllum<'r> {
    /// A run with `rd` tracing; `command` is the command line for the output's header;
    /// `exists` tells whether a file is already there.
    pub fn new(
        rd: &'r Renderer,
        command: String,
        exists: impl Fn(&str) -> bool + 'r,
    ) -> MkIllum<'r> {
        MkIllum {
            rd,
            set: Settings::default(),
            command,
            header_done: false,
            out: Output {
                texts: vec![(None, String::new())],
                ..Default::default()
            },
            exists: Box::new(exists),
            made: 0,
            avg: DVec3::ZERO,
        }
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.set
    }

    /// The results.
    pub fn finish(self) -> Output {
        self.out
    }

    fn print(&mut self, s: &str) {
        if let Some(t) = self.out.texts.last_mut() {
            t.1.push_str(s);
        }
    }

    fn header(&mut self) {
        if !self.header_done {
            self.header_done = true;
            let h = format!("{}\n#@mkillum !\n", self.command);
            self.print(&h);
        }
    }

    fn warn(&mut self, w: String) {
        self.out.warnings.push(w);
    }

    /// A comment line of the input (`source` names the input): `#@mkillum` settings are
    /// applied and kept as a comment, other comments pass through.
    pub fn comment(&mut self, line: &str, source: &str) {
        let Some(rest) = line
            .strip_prefix("#@mkillum")
            .filter(|r| r.starts_with(|c: char| c.is_ascii_whitespace()))
        else {
            self.print(line);
            self.print("\n");
            return;
        };
        let mut errors = 0;
        for word in rest.split_ascii_whitespace() {
            if word == "!" || word.starts_with('!') {
                self.warn(format!("({source}): already processed!"));
                self.set.select = Select::Nothing;
                return;
            }
            if !self.setting(word) {
                errors += 1;
            }
        }
        self.header();
        if errors > 0 {
            self.warn(format!(
                "({source}): {errors} error(s) in option line: {line}"
            ));
            self.print(&format!(
                "# mkillum: the following option line has {errors} error(s):\n"
            ));
        }
        self.print(&format!("# {}\n", &line[2..]));
    }

    /// Applies one `#@mkillum` word; false if it is malformed.
    fn setting(&mut self, w: &str) -> bool {
        let s = &mut self.set;
        let (key, value) = match w.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (w, None),
        };
        match (key, value) {
            ("m", Some(v)) if !v.is_empty() => {
                s.material = v.to_string();
                if !s.clobber {
                    s.data_file = v.to_string();
                    s.data_number = 0;
                }
            }
            ("f", Some("")) => {
                s.data_file = s.material.clone();
                s.data_number = 0;
                s.clobber = false;
            }
            ("f", Some(v)) => {
                s.data_file = v.to_string();
                s.data_number = 0;
                s.clobber = true;
            }
            ("i", Some(v)) => s.select = Select::Only(v.to_string()),
            ("e", Some(v)) => s.select = Select::AllBut(v.to_string()),
            ("a", None) => s.select = Select::All,
            ("n", None) => s.select = Select::Nothing,
            ("c", Some("a")) => s.color = ColorMode::Average,
            ("c", Some("d")) => s.color = ColorMode::Distribution,
            ("c", Some("n")) => s.color = ColorMode::None,
            ("d", Some("")) => {}
            ("d", Some(v)) => match v.parse() {
                Ok(d) => s.density = d,
                Err(_) => return false,
            },
            ("s", Some(v)) => match v.parse() {
                Ok(n) => s.samples = n,
                Err(_) => return false,
            },
            ("b", Some(v)) => match daylit_scene::parse::parse_real(v) {
                Some(b) => s.min_brightness = b.max(0.0),
                None => return false,
            },
            ("l+", None) => s.light = true,
            ("l-", None) => s.light = false,
            ("o", Some(v)) if !v.is_empty() => {
                self.out.texts.push((Some(v.to_string()), String::new()));
                self.header_done = false;
            }
            _ => return false,
        }
        true
    }

    /// One object of the input: a selected polygon, ring or sphere becomes a source, anything
    /// else passes through.
    pub fn object(&mut self, p: &RawPrim) -> Result<(), String> {
        if p.ptype == PrimType::Alias {
            self.print(&format!(
                "\n{} alias {}\t{}\n",
                p.modifier,
                p.name,
                p.sargs.first().map_or("", String::as_str)
            ));
            return Ok(());
        }
        let chosen = match &self.set.select {
            Select::All => true,
            Select::Nothing => false,
            Select::Only(m) => &p.modifier == m,
            Select::AllBut(m) => &p.modifier != m,
        } && p.ptype.class() == daylit_scene::Class::Surface;
        self.header();
        if !chosen {
            let text = object_text(&p.modifier, p);
            self.print(&text);
            return Ok(());
        }
        let made = match p.ptype {
            PrimType::Polygon => self.face(p)?,
            PrimType::Sphere => self.sphere(p)?,
            PrimType::Ring => self.ring(p)?,
            _ => false,
        };
        if !made {
            self.warn(format!(
                "({}): cannot make illum for {} \"{}\"",
                p.loc,
                p.ptype.name(),
                p.name
            ));
            let text = object_text(&p.modifier, p);
            self.print(&text);
        }
        Ok(())
    }

    /// Directions per bin layout for a flat surface: (altitudes, azimuths).
    fn flat_bins(&self) -> (usize, usize) {
        if self.set.density <= 0 {
            return (1, 1);
        }
        let n = (PI * self.set.density as f64) as i64;
        let nalt = ((n as f64 / PI).sqrt() + 0.5) as usize;
        let nazi = (PI * nalt as f64 + 0.5) as usize;
        (nalt.max(1), nazi.max(1))
    }

    /// A polygon; false if it has no area or its shape defeats the sampling.
    fn face(&mut self, p: &RawPrim) -> Result<bool, String> {
        let Some(face) = Face::new(&p.fargs) else {
            return Ok(false);
        };
        // Axes: the first edge at least as long as the square root of the area, if any.
        let nv = face.verts.len();
        let u = (0..nv)
            .map(|i| face.verts[i] - face.verts[(i + nv - 1) % nv])
            .find(|e| e.length_squared() >= face.area - FTINY)
            .map(|e| e.normalize())
            .unwrap_or_else(|| face.normal.any_orthonormal_vector());
        let v = face.normal.cross(u);
        let frame = Frame {
            u,
            v,
            w: face.normal,
        };
        let eps = R_EPS * face.area.sqrt();
        let sampler = |rng: &mut Pcg64Mcg| face.random_point(&frame, rng);
        self.flat_source(p, &frame, eps, &sampler)
    }

    /// A flat surface's source from points `point` picks on it: its distribution sampled
    /// (with the sources behind for `l+`) and written; false if no points could be found.
    fn flat_source(
        &mut self,
        p: &RawPrim,
        frame: &Frame,
        eps: f64,
        point: &(dyn Fn(&mut Pcg64Mcg) -> Option<DVec3> + Sync),
    ) -> Result<bool, String> {
        let (nalt, nazi) = self.flat_bins();
        let Some(mut dist) = self.sample_flat(frame, nalt, nazi, eps, point) else {
            self.warn(format!(
                "({}): {} \"{}\": bad aspect",
                p.loc,
                p.ptype.name(),
                p.name
            ));
            return Ok(false);
        };
        if self.set.light {
            self.sources_behind(frame, nalt, nazi, eps, point, &mut dist)?;
        }
        self.write_flat(p, &dist, nalt, nazi, frame)?;
        Ok(true)
    }

    /// A ring (disc or annulus).
    fn ring(&mut self, p: &RawPrim) -> Result<bool, String> {
        let &[cx, cy, cz, nx, ny, nz, ra, rb] = p.fargs.as_slice() else {
            return Ok(false);
        };
        let centre = DVec3::new(cx, cy, cz);
        let Some(w) = DVec3::new(nx, ny, nz).try_normalize() else {
            return Ok(false);
        };
        let (r0, r1) = (ra.min(rb), ra.max(rb));
        if r1 <= FTINY {
            return Ok(false);
        }
        let u = w.any_orthonormal_vector();
        let frame = Frame {
            u,
            v: w.cross(u),
            w,
        };
        let eps = R_EPS * r1;
        let sampler = |rng: &mut Pcg64Mcg| {
            let r = (r0 * r0 + rng.random::<f64>() * (r1 * r1 - r0 * r0)).sqrt();
            let phi = 2.0 * PI * rng.random::<f64>();
            Some(centre + frame.u * (r * phi.cos()) + frame.v * (r * phi.sin()))
        };
        self.flat_source(p, &frame, eps, &sampler)
    }

    /// A sphere: light leaving it in every direction.
    fn sphere(&mut self, p: &RawPrim) -> Result<bool, String> {
        let &[cx, cy, cz, r] = p.fargs.as_slice() else {
            return Ok(false);
        };
        let centre = DVec3::new(cx, cy, cz);
        let radius = r.abs();
        let (nalt, nazi) = if self.set.density <= 0 {
            (1, 1)
        } else {
            let n = (4.0 * PI * self.set.density as f64) as i64;
            let nalt = ((2.0 / PI * n as f64).sqrt() + 0.5) as usize;
            let nazi = (PI / 2.0 * nalt as f64 + 0.5) as usize;
            (nalt.max(1), nazi.max(1))
        };
        let seed = self.next_seed();
        let ray = |bin: usize, k: usize| -> Option<(DVec3, DVec3)> {
            let mut rng = sample_rng(seed, bin, k);
            let (alt, azi) = jittered(&mut rng, bin, nalt, nazi);
            let z = 1.0 - 2.0 * alt;
            let s = (1.0 - z * z).max(0.0).sqrt();
            let dir = DVec3::new(s * (2.0 * PI * azi).cos(), s * (2.0 * PI * azi).sin(), z);
            // A point on the disc the sphere shows in that direction, just outside it.
            let u = dir.any_orthonormal_vector();
            let v = dir.cross(u);
            let r = rng.random::<f64>().sqrt();
            let phi = 2.0 * PI * rng.random::<f64>();
            let h = radius * (1.01 - r * r).sqrt();
            let org =
                centre + u * (r * radius * phi.cos()) + v * (r * radius * phi.sin()) + dir * h;
            Some((org, -dir))
        };
        let dist = self
            .sample(nalt * nazi, seed, &ray)
            .ok_or("sphere sampling failed")?;
        if !self.average(&dist) {
            let text = object_text(&p.modifier, p);
            self.print(&text);
            return Ok(true);
        }
        if self.set.density > 0 {
            self.write_round(&dist, nalt, nazi)?;
        } else {
            self.warn(format!(
                "({}): sphere \"{}\": diffuse distribution",
                p.loc, p.name
            ));
        }
        self.illum_text(p);
        Ok(true)
    }

    fn next_seed(&mut self) -> u64 {
        self.made += 1;
        (self.rd.opts.seed ^ 0x6d6b_696c_6c75_6d00).wrapping_add(self.made.wrapping_mul(1 << 32))
    }

    /// The sums of `s` radiance samples in each direction bin of a flat surface; `None` if
    /// points on the surface could not be found.
    fn sample_flat(
        &mut self,
        frame: &Frame,
        nalt: usize,
        nazi: usize,
        eps: f64,
        point: &(dyn Fn(&mut Pcg64Mcg) -> Option<DVec3> + Sync),
    ) -> Option<Vec<DVec3>> {
        let seed = self.next_seed();
        let ray = |bin: usize, k: usize| -> Option<(DVec3, DVec3)> {
            let mut rng = sample_rng(seed, bin, k);
            let (alt, azi) = jittered(&mut rng, bin, nalt, nazi);
            let dn = flat_dir(alt, azi);
            let dir = -(frame.u * dn.x + frame.v * dn.y + frame.w * dn.z);
            Some((point(&mut rng)? - dir * eps, dir))
        };
        self.sample(nalt * nazi, seed, &ray)
    }

    /// The sums over `s` rays of each of `bins` bins (`ray(bin, k)` gives the `k`th), traced
    /// as specular samples, through an irradiance cache built from them when `-aa` asks for
    /// one. `None` if a ray could not be made.
    fn sample(
        &self,
        bins: usize,
        seed: u64,
        ray: &(dyn Fn(usize, usize) -> Option<(DVec3, DVec3)> + Sync),
    ) -> Option<Vec<DVec3>> {
        let ns = self.set.samples.max(1) as usize;
        let rd = self.rd;
        let total = bins * ns;
        let stride = total.div_ceil(CACHE_PRIMARIES).max(1);
        let cache = rd.build_irradiance_cache_if_asked(total.div_ceil(stride), |rd, i, ctx| {
            let j = i * stride;
            if let Some((org, dir)) = ray(j % bins, j / bins) {
                rd.specular_radiance(org, dir, ctx);
            }
        });
        (0..bins)
            .into_par_iter()
            .map(|bin| {
                let mut ctx = rd.ctx(seed.wrapping_add(bin as u64));
                ctx.use_irradiance_cache(cache.clone());
                let mut sum = DVec3::ZERO;
                for k in 0..ns {
                    let (org, dir) = ray(bin, k)?;
                    sum += rd.specular_radiance(org, dir, &mut ctx);
                }
                Some(sum)
            })
            .collect()
    }

    /// With `l+`: the sources behind the surface, seen from `s` points on it through it, added
    /// to the bins of their directions.
    fn sources_behind(
        &mut self,
        frame: &Frame,
        nalt: usize,
        nazi: usize,
        eps: f64,
        point: &(dyn Fn(&mut Pcg64Mcg) -> Option<DVec3> + Sync),
        dist: &mut [DVec3],
    ) -> Result<(), String> {
        let rd = self.rd;
        if rd.sources.iter().any(|s| s.relay.is_some()) {
            return Err(
                "l+ (a light with the sources behind) in a scene with virtual sources \
                 (mirrors, -dr above 0) is not supported yet; give -dr 0 or use l-"
                    .into(),
            );
        }
        let seed = self.next_seed();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut ctx = rd.ctx(seed);
        let mut samples = Vec::new();
        for _ in 0..self.set.samples.max(1) {
            let org = point(&mut rng).ok_or("could not find points on the surface")?;
            for src in &rd.sources {
                samples.clear();
                src.samples(org, 1.0, rd.opts.ds, rd.opts.dj, &mut rng, &mut samples);
                for s in &samples {
                    let local =
                        DVec3::new(s.dir.dot(frame.u), s.dir.dot(frame.v), s.dir.dot(frame.w));
                    if local.z >= -FTINY {
                        continue; // only light coming through the surface
                    }
                    let back = -local;
                    let bin = flat_index(back, nalt, nazi);
                    let coef = (nalt * nazi) as f64 / PI * back.z * s.omega;
                    let value = rd.shadow_value(org - s.dir * eps, s.dir, &mut ctx);
                    dist[bin] += value * coef;
                }
            }
        }
        Ok(())
    }

    /// Sets the average colour; whether the surface is bright enough to become a source.
    fn average(&mut self, dist: &[DVec3]) -> bool {
        let mut avg = dist.iter().copied().sum::<DVec3>() / dist.len() as f64;
        if self.set.samples > 1 {
            avg /= self.set.samples as f64;
        }
        self.avg = avg;
        bright(avg) > self.set.min_brightness + FTINY
    }

    /// Writes a flat surface's source: its distribution (unless diffuse), material and
    /// surface; or the surface unchanged when it is too dark.
    fn write_flat(
        &mut self,
        p: &RawPrim,
        dist: &[DVec3],
        nalt: usize,
        nazi: usize,
        frame: &Frame,
    ) -> Result<(), String> {
        if !self.average(dist) {
            let text = object_text(&p.modifier, p);
            self.print(&text);
            return Ok(());
        }
        if self.set.density > 0 {
            let first = &dist[..nazi];
            let inverse = mirrored_row(first);
            let rows: Vec<&[DVec3]> = std::iter::once(inverse.as_slice())
                .chain(dist.chunks(nazi))
                .collect();
            let ranges = format!(
                "2\n{:.6} {:.6} {}\n{:.6} {:.6} {}\n",
                1.0 + 0.5 / nalt as f64,
                0.5 / nalt as f64,
                nalt + 1,
                0.0,
                2.0 * PI,
                nazi + 1
            );
            self.write_distribution(&ranges, &rows, "il_alth il_azih")?;
            let f = |x: DVec3| format!("\t{:.6}\t{:.6}\t{:.6}\n", x.x, x.y, x.z);
            let axes = format!("\n0\n9\n{}{}{}", f(frame.u), f(frame.v), f(frame.w));
            self.print(&axes);
            self.set.data_number += 1;
        }
        self.illum_text(p);
        Ok(())
    }

    /// Writes a sphere's distribution: the rows from pole to pole, each pole row's mirror
    /// beyond it.
    fn write_round(&mut self, dist: &[DVec3], nalt: usize, nazi: usize) -> Result<(), String> {
        let north = mirrored_row(&dist[..nazi]);
        let south = mirrored_row(&dist[dist.len() - nazi..]);
        let rows: Vec<&[DVec3]> = std::iter::once(north.as_slice())
            .chain(dist.chunks(nazi))
            .chain(std::iter::once(south.as_slice()))
            .collect();
        let ranges = format!(
            "2\n{:.6} {:.6} {}\n{:.6} {:.6} {}\n",
            1.0 + 1.0 / nalt as f64,
            -1.0 - 1.0 / nalt as f64,
            nalt + 2,
            0.0,
            2.0 * PI,
            nazi + 1
        );
        self.write_distribution(&ranges, &rows, "il_alt il_azi")?;
        self.print("\n0\n0\n");
        self.set.data_number += 1;
        Ok(())
    }

    /// The distribution pattern and its data files.
    fn write_distribution(
        &mut self,
        ranges: &str,
        rows: &[&[DVec3]],
        functions: &str,
    ) -> Result<(), String> {
        let scale = 1.0 / self.set.samples.max(1) as f64;
        let avg = self.avg;
        let name = format!("{}.dist", self.set.material);
        if self.set.color == ColorMode::Distribution {
            self.print(&format!("\nvoid colordata {name}\n9 red green blue"));
            for (ch, letter) in ["R", "G", "B"].into_iter().enumerate() {
                let file = self.data_file_name(letter);
                let data = data_text(ranges, rows, |c| c[ch] * scale / avg[ch]);
                self.out.data_files.push((file.clone(), data));
                self.print(&format!(" {file}"));
            }
        } else {
            let file = self.data_file_name("");
            let data = data_text(ranges, rows, |c| bright(c) * scale / bright(avg));
            self.out.data_files.push((file.clone(), data));
            self.print(&format!("\nvoid brightdata {name}\n5 noneg {file}"));
        }
        self.print(&format!("\n\tillum.cal {functions}"));
        Ok(())
    }

    /// The next free data file name (`f=` names are overwritten).
    fn data_file_name(&mut self, letter: &str) -> String {
        loop {
            let number = if self.set.data_number > 0 {
                self.set.data_number.to_string()
            } else {
                String::new()
            };
            let name = format!("{}{letter}{number}.dat", self.set.data_file);
            let taken = (self.exists)(&name) || self.out.data_files.iter().any(|(f, _)| *f == name);
            if self.set.clobber || !taken {
                return name;
            }
            self.set.data_number += 1;
        }
    }

    /// The `illum` (or `light`) material and the surface it now modifies.
    fn illum_text(&mut self, p: &RawPrim) {
        let s = &self.set;
        let modifier = if s.density <= 0 {
            "void".to_string()
        } else {
            format!("{}.dist", s.material)
        };
        let kind = if s.light { "light" } else { "illum" };
        let alternate = if s.light || p.modifier == "void" {
            "\n0".to_string()
        } else {
            format!("\n1 {}", p.modifier)
        };
        let c = match s.color {
            ColorMode::None => DVec3::splat(bright(self.avg)),
            _ => self.avg,
        };
        let text = format!(
            "\n{modifier} {kind} {}{alternate}\n0\n3 {:.6} {:.6} {:.6}\n{}",
            s.material,
            c.x,
            c.y,
            c.z,
            object_text(&s.material.clone(), p)
        );
        self.print(&text);
    }
}

/// The random sequence of sample `k` of direction bin `bin` of a surface.
fn sample_rng(seed: u64, bin: usize, k: usize) -> Pcg64Mcg {
    let h = seed
        ^ (bin as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (k as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    Pcg64Mcg::seed_from_u64(h)
}

/// A random (altitude, azimuth) fraction within direction bin `bin` of `nalt × nazi`; the
/// azimuth bins are centred on their index.
fn jittered(rng: &mut Pcg64Mcg, bin: usize, nalt: usize, nazi: usize) -> (f64, f64) {
    let (ia, iz) = (bin / nazi, bin % nazi);
    let alt = (ia as f64 + rng.random::<f64>()) / nalt as f64;
    let azi = (iz as f64 + rng.random::<f64>() - 0.5) / nazi as f64;
    (alt, azi)
}

/// Rays the irradiance cache is built from, at most (a sample of them when there are more).
const CACHE_PRIMARIES: usize = 1 << 16;

/// A frame on a flat surface: `w` its normal.
struct Frame {
    u: DVec3,
    v: DVec3,
    w: DVec3,
}

/// A polygon: vertices, unit normal, area, plane offset.
struct Face {
    verts: Vec<DVec3>,
    normal: DVec3,
    area: f64,
    offset: f64,
}

impl Face {
    fn new(args: &[f64]) -> Option<Face> {
        if args.len() < 9 || !args.len().is_multiple_of(3) {
            return None;
        }
        let verts: Vec<DVec3> = args
            .chunks(3)
            .map(|c| DVec3::new(c[0], c[1], c[2]))
            .collect();
        let n = verts.len();
        // Newell's normal: its length is twice the area.
        let mut sum = DVec3::ZERO;
        for i in 0..n {
            sum += verts[i].cross(verts[(i + 1) % n]);
        }
        let area = 0.5 * sum.length();
        if area <= 0.0 {
            return None;
        }
        let normal = sum.normalize();
        let offset = verts.iter().map(|v| v.dot(normal)).sum::<f64>() / n as f64;
        Some(Face {
            verts,
            normal,
            area,
            offset,
        })
    }

    /// A uniformly random point on the polygon, by rejection in its bounding rectangle in
    /// the `(u, v)` axes (`None` after many misses: a sliver).
    fn random_point(&self, f: &Frame, rng: &mut Pcg64Mcg) -> Option<DVec3> {
        let (mut umin, mut umax, mut vmin, mut vmax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        let poly: Vec<(f64, f64)> = self
            .verts
            .iter()
            .map(|p| (p.dot(f.u), p.dot(f.v)))
            .collect();
        for &(a, b) in &poly {
            (umin, umax, vmin, vmax) = (umin.min(a), umax.max(a), vmin.min(b), vmax.max(b));
        }
        for _ in 0..1000 {
            let a = umin + (umax - umin) * rng.random::<f64>();
            let b = vmin + (vmax - vmin) * rng.random::<f64>();
            if inside(&poly, a, b) {
                return Some(f.u * a + f.v * b + f.w * self.offset);
            }
        }
        None
    }
}

/// Even-odd test of a point against a polygon in the plane.
fn inside(poly: &[(f64, f64)], x: f64, y: f64) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (xi, yi) = poly[i];
        let (xj, yj) = poly[(i + n - 1) % n];
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            inside = !inside;
        }
    }
    inside
}

/// The direction of altitude fraction `alt` (of projected solid angle) and azimuth fraction
/// `azi`, about +z.
fn flat_dir(alt: f64, azi: f64) -> DVec3 {
    let s = alt.sqrt();
    let phi = 2.0 * PI * azi;
    DVec3::new(s * phi.cos(), s * phi.sin(), (1.0 - alt).max(0.0).sqrt())
}

/// The bin of a direction about +z.
fn flat_index(d: DVec3, nalt: usize, nazi: usize) -> usize {
    let i = (((1.0 - d.z * d.z) * nalt as f64) as usize).min(nalt - 1);
    let mut a = d.y.atan2(d.x) * (0.5 / PI);
    if a < 0.0 {
        a += 1.0;
    }
    let mut j = (a * nazi as f64 + 0.5) as usize;
    if j >= nazi {
        j = 0;
    }
    i * nazi + j
}

/// A row reflected through its average: the values just beyond the pole.
fn mirrored_row(row: &[DVec3]) -> Vec<DVec3> {
    let avg = row.iter().copied().sum::<DVec3>() / row.len() as f64;
    row.iter().map(|&c| 2.0 * avg - c).collect()
}

/// RADIANCE's brightness of a colour.
fn bright(c: DVec3) -> f64 {
    let k = daylit_image::filter::BRIGHT_RGB;
    k[0] * c.x + k[1] * c.y + k[2] * c.z
}

/// A data file: the ranges, then each row's values with its first repeated (the azimuth
/// wraps), five numbers a line.
fn data_text(ranges: &str, rows: &[&[DVec3]], value: impl Fn(DVec3) -> f64) -> String {
    let mut out = ranges.to_string();
    let mut column = 0;
    let mut put = |x: f64, out: &mut String| {
        if column % 5 == 0 {
            out.push('\n');
        }
        column += 1;
        out.push_str(&format!(" {:>11}", format_e(x, 6)));
    };
    for row in rows {
        for &c in row.iter() {
            put(value(c), &mut out);
        }
        put(value(row[0]), &mut out);
    }
    out.push('\n');
    out
}

/// A primitive as mkillum writes it back (nothing for a surface of `void`).
fn object_text(modifier: &str, p: &RawPrim) -> String {
    if modifier == "void" && p.ptype.class() == daylit_scene::Class::Surface {
        return String::new();
    }
    let mut s = format!(
        "\n{modifier} {} {}\n{}",
        p.ptype.name(),
        p.name,
        p.sargs.len()
    );
    for a in &p.sargs {
        s.push(' ');
        s.push_str(a);
    }
    s.push_str(&format!("\n0\n{}", p.fargs.len()));
    for (i, x) in p.fargs.iter().enumerate() {
        if i % 3 == 0 {
            s.push('\n');
        }
        s.push(' ');
        s.push_str(&format_g18(*x));
    }
    s.push('\n');
    s
}
