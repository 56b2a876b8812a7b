//! Sky matrices as RADIANCE's `gendaymtx` makes them: for every time step of a weather file,
//! the Perez all-weather sky radiance of each Reinhart/Tregenza patch, the sun's direct
//! radiance spread over the patches nearest to it, and a uniform ground patch.
//!
//! Per time step (`compute_step`), as gendaymtx does it:
//! 1. Solar position from RADIANCE's formulas ([`crate::solar`]) at the record's standard
//!    time, with gendaymtx's day count (after a 29 February every later day counts one more).
//! 2. Night (direct + diffuse ≤ 1e-4): an all-zero column.
//! 3. Perez clearness ε (held to 1…11.9) and brightness Δ (0.01…0.6) with the solar zenith
//!    limited to 3°…90° ([`crate::perez::limit_zenith`]); luminous efficacies give diffuse
//!    and direct illuminance (or, with `-O1`, irradiance × 179).
//! 4. Ground (bin 0): `(Ed + En·sin h) / (π·179)` times the ground reflectance.
//! 5. Sky patches: the Perez relative luminance at each patch centre, normalised so that the
//!    patches (cosine- and solid-angle-weighted) give the diffuse horizontal illuminance,
//!    divided by 179 and multiplied by the sky colour.
//! 6. Sun: the direct illuminance divided among the `n` patches whose centres are nearest
//!    the sun (4, or 1 with `-5`), each weighted by `1/(1.002 − cos θ)` and divided by the
//!    patch's solid angle (or by the fixed solar disc of `-5`).

use crate::patches::{from_alt_azi, Subdivision};
use crate::perez::{self, PerezParameters, SkyCondition, WHITE_EFFICACY};
use crate::solar;
use crate::weather::{Quantities, Weather};
use rayon::prelude::*;
use std::f64::consts::PI;

/// Default sky colour of gendaymtx (`-c`).
pub const DEFAULT_SKY_COLOR: [f64; 3] = [0.96, 1.004, 1.118];
/// Default ground reflectance of gendaymtx (`-g`).
pub const DEFAULT_GROUND: [f64; 3] = [0.2, 0.2, 0.2];
/// Full angle of the solar disc in degrees, as gendaymtx uses it.
pub const SUN_ANGLE_DEG: f64 = 0.533;
/// Most patches the sun may be spread over.
pub const MAX_SUN_PATCHES: usize = 4;
/// Dew point gendaymtx assumes when the weather data has none, °C.
pub const DEFAULT_DEW_POINT: f64 = 11.0;

/// What the matrix values are (`-O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// Visible radiance (`-O0`, the default): luminance / 179.
    Visible,
    /// Solar radiance (`-O1`): irradiance-based, full spectrum.
    Solar,
}

/// Options of a sky matrix, gendaymtx's defaults by [`Default`].
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Reinhart subdivision (`-m`; 1 = Tregenza).
    pub mf: u32,
    /// Sky colour (`-c`); all zero with `-d`.
    pub sky_color: [f64; 3],
    /// Sun colour; all zero with `-s`.
    pub sun_color: [f64; 3],
    /// Ground reflectance (`-g`); all zero with `-d`.
    pub ground: [f64; 3],
    /// Rotation of the sky about the zenith in degrees (`-r`), counter-clockwise seen from
    /// above as gendaymtx applies it.
    pub rotation: f64,
    /// Visible or solar radiance (`-O0`/`-O1`).
    pub output: OutputKind,
    /// One averaged column instead of one per time step (`-A`).
    pub average: bool,
    /// Number of nearest patches the sun is spread over (1…4).
    pub sun_patches: usize,
    /// With `-5 ang`: the solid angle of a sun of that full angle (degrees), which replaces
    /// the patch solid angle when the direct radiance is spread.
    pub fixed_sun_solid_angle: Option<f64>,
    /// Only steps with the sun above the horizon get a column (`-u`).
    pub sun_hours_only: bool,
    /// Time-step length in minutes (`-i`): steps within half an interval of sunrise or sunset
    /// are moved to the middle of their sunlit part. 0 = off.
    pub interval_minutes: f64,
    /// Use the dew point of EPW/TMY3 records (3-hour running mean, as gendaymtx does for EPW
    /// input); when false, or for WEA input, 11 °C.
    pub use_dew_point: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mf: 1,
            sky_color: DEFAULT_SKY_COLOR,
            sun_color: [1.0; 3],
            ground: DEFAULT_GROUND,
            rotation: 0.0,
            output: OutputKind::Visible,
            average: false,
            sun_patches: MAX_SUN_PATCHES,
            fixed_sun_solid_angle: None,
            sun_hours_only: false,
            interval_minutes: 0.0,
            use_dew_point: true,
        }
    }
}

impl Options {
    /// Sun only (`-d`): no sky and no ground.
    pub fn sun_only(&mut self) {
        self.sky_color = [0.0; 3];
        self.ground = [0.0; 3];
    }

    /// Sky only (`-s`): no direct sun in the patches (the ground still sees it).
    pub fn sky_only(&mut self) {
        self.sun_color = [0.0; 3];
    }

    /// `-5 ang`: the sun goes into its one nearest patch, as a disc of `full_angle` degrees.
    pub fn five_phase(&mut self, full_angle: f64) {
        self.sun_patches = 1;
        let r = (PI / 360.0) * full_angle;
        self.fixed_sun_solid_angle = Some(PI * r * r);
    }
}

/// A sky matrix: `rows` patches (ground first) × `columns` time steps, RGB.
#[derive(Clone, Debug, PartialEq)]
pub struct SkyMatrix {
    /// Number of patches (rows).
    pub rows: usize,
    /// Number of stored columns (time steps, or 1 when averaged).
    pub columns: usize,
    /// Time steps read (the `NAVERAGED` count when averaged).
    pub steps: usize,
    /// Whether the single column is an average.
    pub averaged: bool,
    /// Values in column order: `data[column * rows + patch]`.
    pub data: Vec<[f32; 3]>,
    /// Site latitude (° north) and longitude (° **east**, as the header's `LATLONG=` has it).
    pub latlong: (f64, f64),
    /// Warnings, as gendaymtx prints them (unusually bright night-time hours).
    pub warnings: Vec<String>,
}

impl SkyMatrix {
    /// The RGB value of patch `row` at column `col`.
    pub fn get(&self, row: usize, col: usize) -> [f32; 3] {
        self.data[col * self.rows + row]
    }
}

/// A sky matrix could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    /// The subdivision factor is not usable.
    #[error("bad Reinhart subdivision -m {0}: expected 1 or more")]
    Subdivision(u32),
    /// No time step was left (every step skipped, or no records).
    #[error("no valid time steps in the weather data")]
    NoSteps,
}

/// Patch geometry gendaymtx works with (single precision, as RADIANCE keeps it).
struct Patches {
    /// Unit centre directions of the sky patches (index 0 = ground, unused).
    dirs: Vec<[f64; 3]>,
    /// Solid angles.
    dom: Vec<f64>,
    /// Cosine of each sky patch's zenith angle.
    cos_zen: Vec<f64>,
    /// Zenith angle of each sky patch.
    zen: Vec<f64>,
}

impl Patches {
    fn new(mf: u32) -> Self {
        let sub = Subdivision::Reinhart(mf);
        let n = sub.len();
        let mut p = Patches {
            dirs: Vec::with_capacity(n),
            dom: Vec::with_capacity(n),
            cos_zen: Vec::with_capacity(n),
            zen: Vec::with_capacity(n),
        };
        for i in 0..n {
            let c = sub.centre(i).unwrap_or_default();
            // RADIANCE stores altitude, azimuth and solid angle as floats.
            let alt = c.z.clamp(-1.0, 1.0).asin() as f32 as f64;
            let azi = c.x.atan2(c.y).rem_euclid(2.0 * PI) as f32 as f64;
            let d = from_alt_azi(alt, azi);
            p.dirs.push([d.x, d.y, d.z]);
            p.dom.push(sub.solid_angle(i) as f32 as f64);
            p.cos_zen.push(alt.sin());
            p.zen.push(PI / 2.0 - alt);
        }
        p
    }

    fn len(&self) -> usize {
        self.dirs.len()
    }
}

/// Everything one time step needs, fixed before the (parallel) sky evaluation.
#[derive(Clone, Copy, Debug)]
struct Step {
    day_of_year: u32,
    /// gendaymtx's sun id: minutes from midnight on 1 January to the record's time.
    minute: i64,
    /// Some of the solar disc is above the horizon.
    sun_in_sky: bool,
    altitude: f64,
    /// Unit vector towards the sun (rotated), +X east, +Y north.
    sun: [f64; 3],
    direct: f64,
    diffuse: f64,
    dew_point: f64,
    night: bool,
}

/// RADIANCE's luminance weighting of RGB (`bright()`).
fn bright(c: [f64; 3]) -> f64 {
    0.265074126 * c[0] + 0.670114631 * c[1] + 0.064811243 * c[2]
}

/// Makes the sky matrix of a weather file.
pub fn sky_matrix(weather: &Weather, opts: &Options) -> Result<SkyMatrix, MatrixError> {
    if opts.mf == 0 || opts.mf > 1000 {
        return Err(MatrixError::Subdivision(opts.mf));
    }
    let (steps, warnings) = plan_steps(weather, opts);
    if steps.is_empty() {
        return Err(MatrixError::NoSteps);
    }
    let patches = Patches::new(opts.mf);
    let rows = patches.len();
    let compute =
        |s: &Step, col: &mut [[f32; 3]]| compute_step(s, opts, weather.quantities, &patches, col);
    let mut data;
    let columns;
    if opts.average {
        columns = 1;
        let mut sum = vec![[0.0f64; 3]; rows];
        let partial: Vec<Vec<[f64; 3]>> = steps
            .par_chunks(256)
            .map(|chunk| {
                let mut acc = vec![[0.0f64; 3]; rows];
                let mut col = vec![[0.0f32; 3]; rows];
                for s in chunk {
                    compute(s, &mut col);
                    for (a, v) in acc.iter_mut().zip(&col) {
                        for k in 0..3 {
                            a[k] += v[k] as f64;
                        }
                    }
                }
                acc
            })
            .collect();
        for p in partial {
            for (a, v) in sum.iter_mut().zip(p) {
                for k in 0..3 {
                    a[k] += v[k];
                }
            }
        }
        let scale = 1.0 / steps.len() as f64;
        data = sum
            .iter()
            .map(|v| {
                [
                    (v[0] * scale) as f32,
                    (v[1] * scale) as f32,
                    (v[2] * scale) as f32,
                ]
            })
            .collect();
    } else {
        columns = steps.len();
        data = vec![[0.0f32; 3]; rows * columns];
        data.par_chunks_mut(rows)
            .zip(steps.par_iter())
            .for_each(|(col, s)| compute(s, col));
    }
    Ok(SkyMatrix {
        rows,
        columns,
        steps: steps.len(),
        averaged: opts.average,
        data,
        latlong: (weather.site.latitude, -weather.site.longitude),
        warnings,
    })
}

/// The sun of one time step, for direct-sun coefficients (the five-phase sun term).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepSun {
    /// Unit vector towards the sun's centre (+X east, +Y north, +Z up, after `-r`).
    pub dir: [f64; 3],
    /// Direct-normal irradiance in the matrix's units (visible W/m², illuminance / 179, or
    /// solar W/m² with `-O1`), times the sun colour: what the sun's patches of the `-d`
    /// matrix hold times their solid angle.
    pub normal: [f64; 3],
}

/// The sun of every column [`sky_matrix`] would make with `opts` (not averaged), `None` at
/// night and when the direct component is negligible.
pub fn step_suns(weather: &Weather, opts: &Options) -> Vec<Option<StepSun>> {
    let (steps, _) = plan_steps(weather, opts);
    steps
        .par_iter()
        .map(|s| {
            if s.night {
                return None;
            }
            let zenith = perez::limit_zenith(s.altitude);
            let l = light(s, weather.quantities, opts.output, zenith);
            if l.direct_illum <= 1e-4 || bright(opts.sun_color) <= 1e-4 {
                return None;
            }
            let e = l.direct_illum / WHITE_EFFICACY;
            Some(StepSun {
                dir: s.sun,
                normal: opts.sun_color.map(|c| e * c),
            })
        })
        .collect()
}

/// One sun of gendaymtx's `-D` output: a `light` and a `source` named by the minute of
/// the year.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SunDescription {
    /// Minutes from midnight on 1 January (the names `solarN`, `sunN`).
    pub minute: i64,
    /// Radiance of the disc (direct illuminance / (179 · disc solid angle)) times the sun
    /// colour; 0 at night.
    pub radiance: [f64; 3],
    /// Unit vector towards the sun (after `-r`).
    pub dir: [f64; 3],
}

/// The suns gendaymtx `-D` describes: one per step with some of the disc above the horizon.
pub fn sun_descriptions(weather: &Weather, opts: &Options) -> Vec<SunDescription> {
    let (steps, _) = plan_steps(weather, opts);
    let r = (SUN_ANGLE_DEG / 2.0).to_radians();
    steps
        .iter()
        .filter(|s| s.sun_in_sky)
        .map(|s| {
            let radiance = if s.night {
                0.0
            } else {
                let zenith = perez::limit_zenith(s.altitude);
                let l = light(s, weather.quantities, opts.output, zenith);
                l.direct_illum / (WHITE_EFFICACY * PI * r * r)
            };
            SunDescription {
                minute: s.minute,
                radiance: opts.sun_color.map(|c| radiance * c),
                dir: s.sun,
            }
        })
        .collect()
}

/// The scene text of `-D`: for each sun, `void light solarN` and `solarN source sunN`.
pub fn sun_scene(suns: &[SunDescription]) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    for s in suns {
        let [r, g, b] = s.radiance;
        let [x, y, z] = s.dir;
        let id = s.minute;
        let _ = write!(
            t,
            "\nvoid light solar{id}\n0\n0\n3 {} {} {}\n\nsolar{id} source sun{id}\n0\n0\n4 {x:.6} {y:.6} {z:.6} {SUN_ANGLE_DEG:.4}\n",
            format_e3(r),
            format_e3(g),
            format_e3(b)
        );
    }
    t
}

/// The modifier list of `-M`: `solarN`, one per line.
pub fn sun_modifiers(suns: &[SunDescription]) -> String {
    suns.iter()
        .map(|s| format!("solar{}\n", s.minute))
        .collect()
}

/// C's `%.3e`.
fn format_e3(v: f64) -> String {
    let s = format!("{v:.3e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let e: i32 = e.parse().unwrap_or(0);
            format!(
                "{m}e{}{:02}",
                if e < 0 { '-' } else { '+' },
                e.unsigned_abs()
            )
        }
        None => s,
    }
}

/// Solar positions, irradiances and dew points of every step, in file order (the dew-point
/// running mean and gendaymtx's leap-day counting make this sequential).
fn plan_steps(weather: &Weather, opts: &Options) -> (Vec<Step>, Vec<String>) {
    let site = solar::Site {
        latitude: weather.site.latitude,
        longitude: weather.site.longitude,
        meridian: weather.site.meridian,
    };
    let mut steps = Vec::with_capacity(weather.records.len());
    let mut warnings = Vec::new();
    let mut dew_point = DEFAULT_DEW_POINT;
    let mut history: Option<[f64; 2]> = None;
    let mut leap_day = 0;
    for r in &weather.records {
        if opts.use_dew_point {
            match r.dew_point {
                Some(dp) => {
                    let [h0, h1] = history.unwrap_or([dp, dp]);
                    dew_point = (h0 + h1 + dp) / 3.0;
                    history = Some([h1, dp]);
                }
                None => history = None,
            }
        }
        let day_of_year = if r.month == 2 && r.day == 29 {
            leap_day = 1;
            60
        } else {
            solar::day_of_year(r.month, r.day).unwrap_or(1) + leap_day
        };
        let dec = solar::declination(day_of_year);
        let mut st = r.hour + solar::solar_time_offset(&site, day_of_year);
        if opts.interval_minutes > 0.0 {
            st = interval_adjust(&site, r.month, r.day, st, opts.interval_minutes);
        }
        let sun = solar::sun_at_solar_time(&site, dec, st);
        let altitude = sun.altitude;
        let sun_in_sky = altitude > -(SUN_ANGLE_DEG / 2.0).to_radians();
        if opts.sun_hours_only && !sun_in_sky {
            continue;
        }
        // gendaymtx measures azimuth from north towards east: south-based azimuth + 180°.
        let azimuth = sun.azimuth + PI - opts.rotation.to_radians();
        let d = from_alt_azi(altitude, azimuth);
        let (mut direct, diffuse) = match weather.quantities {
            Quantities::RadiometricHorizontal => {
                // Stored as global horizontal in single precision, then differenced.
                let global = (r.direct + r.diffuse) as f32 as f64;
                (global - r.diffuse, r.diffuse)
            }
            _ => (r.direct, r.diffuse),
        };
        let night = direct + diffuse <= 1e-4;
        let bright_limit = match weather.quantities {
            Quantities::PhotometricNormal => 20.0 * WHITE_EFFICACY,
            _ => 20.0,
        };
        if !night && !sun_in_sky && direct > bright_limit {
            warnings.push(format!(
                "warning - unusually bright at {:.1} on {}-{}",
                r.hour, r.month, r.day
            ));
        }
        if weather.quantities == Quantities::RadiometricHorizontal && altitude > 1e-6 {
            direct /= altitude.sin();
        }
        steps.push(Step {
            day_of_year,
            minute: 1440 * (i64::from(day_of_year) - 1) + (r.hour * 60.0 + 0.5) as i64,
            sun_in_sky,
            altitude,
            sun: [d.x, d.y, d.z],
            direct,
            diffuse,
            dew_point,
            night,
        });
    }
    (steps, warnings)
}

/// gendaymtx's `-i`: a step whose solar time lies within half an interval of sunrise or
/// sunset is moved to the middle of its sunlit part.
fn interval_adjust(site: &solar::Site, month: u32, day: u32, st: f64, minutes: f64) -> f64 {
    let half = minutes / 120.0;
    let jd = solar::day_of_year(month, day).unwrap_or(1);
    // RADIANCE computes the hour angle term in single precision.
    let w = (-(site.latitude.to_radians().tan() * solar::declination(jd).tan())) as f32 as f64;
    let h = (PI / 2.0 - w.atan2((1.0 - w * w).sqrt())) * 180.0 / (PI * 15.0);
    let (sunrise, sunset) = (12.0 - h, 12.0 + h);
    if (sunrise - st).abs() <= half {
        (st + half + sunrise) / 2.0
    } else if (sunset - st).abs() < half {
        (st - half + sunset) / 2.0
    } else {
        st
    }
}

/// Illuminances and Perez sky condition of one step.
struct Light {
    diffuse_illum: f64,
    direct_illum: f64,
    sky: SkyCondition,
    category: usize,
}

/// gendaymtx's conversion of irradiance (or illuminance) to illuminance and ε, Δ.
fn light(s: &Step, quantities: Quantities, output: OutputKind, zenith: f64) -> Light {
    let water = perez::precipitable_water(s.dew_point);
    let doy = s.day_of_year as f64;
    let condition = |direct: f64, diffuse: f64| {
        let sky = SkyCondition::from_irradiance(direct, diffuse, zenith, doy);
        // gendaymtx holds ε below 11.9 (gendaylit's limit is 12.01).
        let clearness = sky.clearness.clamp(1.0, 11.9);
        let brightness = sky
            .brightness
            .clamp(perez::BRIGHTNESS_MIN, perez::BRIGHTNESS_MAX);
        SkyCondition {
            clearness,
            brightness,
        }
    };
    let (mut direct_irr, mut diffuse_irr, sky);
    let (mut diffuse_illum, mut direct_illum);
    if quantities == Quantities::PhotometricNormal {
        // Iterate irradiances until the efficacies reproduce the measured illuminances.
        let k = perez::SOLAR_CONSTANT_IRRADIANCE / perez::SOLAR_CONSTANT_ILLUMINANCE;
        (diffuse_illum, direct_illum) = (s.diffuse, s.direct);
        (diffuse_irr, direct_irr) = (diffuse_illum * k, direct_illum * k);
        let limit12 = |c: SkyCondition| SkyCondition {
            clearness: c.clearness.clamp(1.0, 12.0),
            brightness: c.brightness,
        };
        let mut c = limit12(condition_raw(direct_irr, diffuse_irr, zenith, doy));
        let (mut t1, mut t2) = (0.1, 0.1);
        let mut count = 0;
        while ((diffuse_irr - t1).abs() > 10.0 || (direct_irr - t2).abs() > 10.0) && count != 5 {
            (t1, t2) = (diffuse_irr, direct_irr);
            count += 1;
            let cat = category(c.clearness);
            diffuse_irr = diffuse_illum / perez::diffuse_efficacy(cat, water, zenith, c.brightness);
            direct_irr = perez::direct_efficacy(cat, water, zenith, c.brightness);
            if direct_irr > 0.1 {
                direct_irr = direct_illum / direct_irr;
            }
            c = limit12(condition_raw(direct_irr, diffuse_irr, zenith, doy));
        }
        sky = c;
    } else {
        (direct_irr, diffuse_irr) = (s.direct, s.diffuse);
        sky = condition(direct_irr, diffuse_irr);
        let cat = category(sky.clearness);
        diffuse_illum = diffuse_irr * perez::diffuse_efficacy(cat, water, zenith, sky.brightness);
        direct_illum = direct_irr * perez::direct_efficacy(cat, water, zenith, sky.brightness);
    }
    if output == OutputKind::Solar {
        diffuse_illum = diffuse_irr * WHITE_EFFICACY;
        direct_illum = direct_irr * WHITE_EFFICACY;
    }
    Light {
        diffuse_illum,
        direct_illum,
        sky,
        category: category(sky.clearness),
    }
}

/// ε and Δ held to Δ ∈ [0.01, 0.6], ε ≥ 1 (the photometric path's limits, before its 12 cap).
fn condition_raw(direct: f64, diffuse: f64, zenith: f64, doy: f64) -> SkyCondition {
    let sky = SkyCondition::from_irradiance(direct, diffuse, zenith, doy);
    SkyCondition {
        clearness: if sky.clearness < 1.0 {
            1.0
        } else {
            sky.clearness
        },
        brightness: sky
            .brightness
            .clamp(perez::BRIGHTNESS_MIN, perez::BRIGHTNESS_MAX),
    }
}

/// gendaymtx's category search: the first category whose range holds ε (7 beyond).
fn category(clearness: f64) -> usize {
    perez::clearness_category(clearness).unwrap_or(if clearness < 1.0 { 0 } else { 7 })
}

/// Fills one column (`col.len()` = patches) for a step.
fn compute_step(
    s: &Step,
    opts: &Options,
    quantities: Quantities,
    p: &Patches,
    col: &mut [[f32; 3]],
) {
    col.fill([0.0; 3]);
    if s.night {
        return;
    }
    let zenith = perez::limit_zenith(s.altitude);
    let l = light(s, quantities, opts.output, zenith);
    // Ground: diffuse plus direct on the horizontal, as a uniform radiance.
    let mut ground = l.diffuse_illum;
    if s.altitude > 0.0 {
        ground += l.direct_illum * s.altitude.sin();
    }
    let ground = (ground as f32 * (1.0 / PI / WHITE_EFFICACY) as f32) as f64;
    col[0] = opts.ground.map(|g| (ground * g) as f32);
    if bright(opts.sky_color) > 1e-4 {
        sky_patches(s, opts, &l, zenith, p, col);
    }
    add_direct(s, opts, &l, p, col);
}

/// Perez sky radiance of every sky patch, normalised to the diffuse illuminance.
fn sky_patches(
    s: &Step,
    opts: &Options,
    l: &Light,
    zenith: f64,
    p: &Patches,
    col: &mut [[f32; 3]],
) {
    let params = PerezParameters::for_category(zenith, l.sky, l.category);
    // gendaymtx's sun vector for the Perez angles uses the limited zenith angle.
    let (sz, cz) = zenith.sin_cos();
    let horiz = (s.sun[0] * s.sun[0] + s.sun[1] * s.sun[1]).sqrt();
    let (sx, sy) = if horiz > 0.0 {
        (s.sun[0] / horiz * sz, s.sun[1] / horiz * sz)
    } else {
        (0.0, sz)
    };
    let [a, b, c, d, e] = params.abcde;
    let mut total = 0.0;
    // The gradation term depends only on the patch's zenith angle: once per row.
    let mut row = (f64::NAN, 0.0);
    for (i, v) in col.iter_mut().enumerate().skip(1) {
        if p.zen[i] != row.0 {
            row = (p.zen[i], 1.0 + a * (b / p.zen[i].cos()).exp());
        }
        let dir = p.dirs[i];
        let cos_gamma = (dir[0] * sx + dir[1] * sy + dir[2] * cz).clamp(-1.0, 1.0);
        let indicatrix = 1.0 + c * (d * cos_gamma.acos()).exp() + e * cos_gamma * cos_gamma;
        let lv = (row.1 * indicatrix).max(0.0) as f32;
        *v = [lv; 3];
        total += lv as f64 * p.cos_zen[i] * p.dom[i];
    }
    if total <= 1e-6 {
        col[1..].fill([1.0; 3]);
        total = PI;
    }
    let scale = l.diffuse_illum / total / WHITE_EFFICACY;
    for v in &mut col[1..] {
        let x = (v[1] as f64 * scale) as f32;
        *v = [0, 1, 2].map(|k| (x as f64 * opts.sky_color[k]) as f32);
    }
}

/// Spreads the direct illuminance over the nearest patches to the sun.
fn add_direct(s: &Step, opts: &Options, l: &Light, p: &Patches, col: &mut [[f32; 3]]) {
    if l.direct_illum <= 1e-4 || bright(opts.sun_color) <= 1e-4 {
        return;
    }
    let n = opts.sun_patches.clamp(1, MAX_SUN_PATCHES);
    let mut near = [(-1.0f64, 0usize); MAX_SUN_PATCHES];
    for (i, d) in p.dirs.iter().enumerate().skip(1) {
        let dot = d[0] * s.sun[0] + d[1] * s.sun[1] + d[2] * s.sun[2];
        if let Some(k) = near[..n].iter().position(|&(best, _)| dot > best) {
            near.copy_within(k..n - 1, k + 1);
            near[k] = (dot, i);
        }
    }
    let weights: Vec<f64> = near[..n]
        .iter()
        .map(|&(dot, _)| 1.0 / (1.002 - dot))
        .collect();
    let total: f64 = weights.iter().sum();
    for (&(_, i), w) in near[..n].iter().zip(&weights) {
        let mut add = (w * l.direct_illum / (WHITE_EFFICACY * total)) as f32 as f64;
        add /= opts.fixed_sun_solid_angle.unwrap_or(p.dom[i]);
        let add = add as f32;
        for (x, sc) in col[i].iter_mut().zip(opts.sun_color) {
            *x += add * sc as f32;
        }
    }
}

/// Output number format (`-fa`/`-oa`, `-ff`/`-of`, `-fd`/`-od`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text, `%.3g` per component.
    Ascii,
    /// Native 32-bit floats.
    Float,
    /// Native 64-bit floats.
    Double,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Ascii => "ascii",
            Format::Float => "float",
            Format::Double => "double",
        }
    }
}

/// The RADIANCE header gendaymtx writes, ending with the blank line; `command` is the
/// command line to record. Binary formats are padded as RADIANCE pads them for `mmap`.
pub fn header(m: &SkyMatrix, format: Format, command: &str) -> String {
    let mut h = format!(
        "#?RADIANCE\n{command}\nLATLONG= {:.8} {:.8}\nNROWS={}\nNCOLS={}\n",
        m.latlong.0, m.latlong.1, m.rows, m.columns
    );
    if m.averaged {
        h += &format!("NAVERAGED={}\n", m.steps);
    }
    h += "NCOMP=3\n";
    if format != Format::Ascii {
        h += if cfg!(target_endian = "big") {
            "BigEndian=1\n"
        } else {
            "BigEndian=0\n"
        };
    }
    h += "FORMAT=";
    h += format.name();
    let align = match format {
        Format::Ascii => 0,
        Format::Float => 4,
        Format::Double => 8,
    };
    if align > 0 {
        let rem = (h.len() + 2) % align;
        if rem > 0 {
            h.extend(std::iter::repeat_n(' ', align - rem));
        }
    }
    h += "\n\n";
    h
}

/// The matrix body: patches as rows (outer), time steps within; ASCII rows of a matrix
/// with more than one column end with a blank line, as gendaymtx writes them.
pub fn body(m: &SkyMatrix, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_body(m, format, &mut out);
    out
}

/// Streams the matrix body (see [`body`]) to `out`, one patch row at a time.
pub fn write_body(
    m: &SkyMatrix,
    format: Format,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(m.columns * 24 + 1);
    for row in 0..m.rows {
        buf.clear();
        for col in 0..m.columns {
            let v = m.get(row, col);
            match format {
                Format::Ascii => {
                    let [a, b, c] = v.map(|x| format_g3(x as f64));
                    buf.extend_from_slice(format!("{a} {b} {c}\n").as_bytes());
                }
                Format::Float => v
                    .iter()
                    .for_each(|x| buf.extend_from_slice(&x.to_ne_bytes())),
                Format::Double => v
                    .iter()
                    .for_each(|x| buf.extend_from_slice(&(*x as f64).to_ne_bytes())),
            }
        }
        if format == Format::Ascii && m.columns > 1 {
            buf.push(b'\n');
        }
        out.write_all(&buf)?;
    }
    Ok(())
}

/// C's `%.3g`.
pub fn format_g3(v: f64) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    if !v.is_finite() {
        return if v.is_nan() {
            "nan".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let e = format!("{v:.2e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    if (-4..3).contains(&x) {
        let s = format!("{:.*}", (2 - x) as usize, v);
        trim_zeros(&s).to_string()
    } else {
        let m = trim_zeros(mant);
        format!("{m}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}
