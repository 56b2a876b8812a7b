//! RADIANCE's `gendaylit`: the Perez all-weather sky (function `skybright` of `perezlum.cal`)
//! and sun from measured irradiances or illuminances, as scene text.
//!
//! Inputs: `-W` direct-normal and diffuse-horizontal irradiance, `-G` direct-horizontal and
//! diffuse-horizontal irradiance, `-L` direct-normal and diffuse-horizontal illuminance, `-P`
//! the Perez parameters ε and Δ, `-E` global-horizontal irradiance split by the Erbs model.
//! Output units (`-O`): 0 visible radiance (luminance / 179, W/sr/m²), 1 solar radiance
//! (W/sr/m² over the whole solar spectrum), 2 luminance (cd/m²).
//!
//! When the sun is below the horizon, or the data cannot describe a sky, gendaylit prints an
//! "error sky" of zero brightness (and exits successfully); [`gendaylit_text`] does the same.

use crate::gensky::{command_line, ground_factor, integer, number, GenskyError, SkyType};
use crate::perez::{
    self, PerezParameters, SkyCondition, SOLAR_CONSTANT_ILLUMINANCE, SOLAR_CONSTANT_IRRADIANCE,
    WHITE_EFFICACY,
};
use crate::solar::{self, Site, SunPosition, TimeKind};
use daylit_radfile::printf::format_e;
use std::f64::consts::PI;
use std::fmt::Write as _;
use thiserror::Error;

/// Half the angle the sun subtends, degrees, as gendaylit writes it (its source is 0.533°).
pub const HALF_SUN_ANGLE: f64 = 0.2665;
/// Dew point gendaylit assumes, °C: it makes the precipitable water exactly 2 cm.
pub const DEFAULT_DEW_POINT: f64 = 10.973_531_15;

/// A gendaylit command line that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum GendaylitError {
    /// A problem shared with gensky's syntax (numbers, options, dates).
    #[error(transparent)]
    Args(#[from] GenskyError),
    /// The hour is outside 0 ≤ h < 24.
    #[error("bad hour {0}: expected 0 <= hour < 24 (prefix + for solar time)")]
    Hour(String),
    /// `-O` other than 0, 1, 2.
    #[error("bad output specification -O {0}: expected 0 (visible W/sr/m²), 1 (solar W/sr/m²) or 2 (cd/m²)")]
    Output(String),
    /// A negative time interval (`-i`).
    #[error("time interval {0} is negative: expected minutes >= 0")]
    Interval(f64),
    /// Sky clearness outside the model's table.
    #[error("sky clearness {0} is outside the Perez model's range [1, 12.01)")]
    Clearness(f64),
    /// An option daylit does not support.
    #[error("{0}")]
    Unsupported(String),
}

/// What the sky is computed from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// Perez parameters ε and Δ (`-P`).
    Perez(f64, f64),
    /// Direct-normal and diffuse-horizontal irradiance, W/m² (`-W`).
    Irradiance(f64, f64),
    /// Direct-normal and diffuse-horizontal illuminance, lux (`-L`).
    Illuminance(f64, f64),
    /// Direct-horizontal and diffuse-horizontal irradiance, W/m² (`-G`).
    Horizontal(f64, f64),
    /// Global-horizontal irradiance, W/m², split by the Erbs model (`-E`).
    Global(f64),
}

/// Units of the sky and sun radiance written (`-O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputUnits {
    /// Visible radiance: luminance / 179 (RADIANCE's usual unit), `-O 0`.
    Visible,
    /// Solar (full-spectrum) radiance, `-O 1`.
    Solar,
    /// Luminance, cd/m², `-O 2`.
    Luminance,
}

/// When the sun is: the same as for gensky.
pub use crate::gensky::When;

/// Everything a gendaylit command line says.
#[derive(Clone, Debug, PartialEq)]
pub struct GendaylitOptions {
    /// The sun's time or angles.
    pub when: When,
    /// Measured input.
    pub input: Input,
    /// Output units.
    pub output: OutputUnits,
    /// Whether a sun source is written (`+s` / `-s`; `-c` turns it off).
    pub sun: bool,
    /// `-c`/`+c` given: no sun and no 87° altitude limit.
    pub cloudy: bool,
    /// Ground reflectance (`-g`), default 0.2.
    pub ground_reflectance: f64,
    /// Surface dew point, °C (`-d`).
    pub dew_point: f64,
    /// Length of the time step, minutes (`-i`), for sun positions near sunrise and sunset.
    pub interval: f64,
    /// Suppress warnings (`-w`).
    pub quiet: bool,
    /// Site (`-a`, `-o`, `-m`).
    pub site: Site,
}

/// Reads a gendaylit command line (the words after the program name).
pub fn parse_args(args: &[String]) -> Result<GendaylitOptions, GendaylitError> {
    if args.len() < 3 {
        return Err(GenskyError::ArgCount.into());
    }
    let mut when = if args[0] == "-ang" {
        When::Angles {
            altitude: number(&args[1], "altitude")?,
            azimuth: number(&args[2], "azimuth")?,
        }
    } else {
        let month = integer(&args[0], "month")?;
        if !(1..=12).contains(&month) {
            return Err(GenskyError::Date(solar::SolarError::Month(month)).into());
        }
        let day = integer(&args[1], "day")?;
        if !(1..=31).contains(&day) {
            return Err(GenskyError::Date(solar::SolarError::Day(day)).into());
        }
        let hour = number(&args[2], "hour").map_err(|_| GendaylitError::Hour(args[2].clone()))?;
        if !(0.0..24.0).contains(&hour) {
            return Err(GendaylitError::Hour(args[2].clone()));
        }
        let kind = if args[2].starts_with('+') {
            TimeKind::Solar
        } else {
            TimeKind::Standard
        };
        When::Date {
            month: month as u32,
            day: day as u32,
            hour,
            kind,
            year: None,
        }
    };
    let mut o = GendaylitOptions {
        when,
        // Without an input option gendaylit takes ε = Δ = 0, which its limits turn into the
        // darkest overcast sky.
        input: Input::Perez(0.0, 0.0),
        output: OutputUnits::Visible,
        sun: true,
        cloudy: false,
        ground_reflectance: 0.2,
        dew_point: DEFAULT_DEW_POINT,
        interval: 0.0,
        quiet: false,
        site: Site::default(),
    };
    let mut i = 3;
    while i < args.len() {
        let word = args[i].as_str();
        let plus = word.starts_with('+');
        if !(plus || word.starts_with('-')) {
            return Err(GenskyError::BadOption(word.to_string()).into());
        }
        let mut value = |what: &str| -> Result<f64, GenskyError> {
            i += 1;
            let w = args
                .get(i)
                .ok_or_else(|| GenskyError::MissingValue(word.to_string()))?;
            number(w, what)
        };
        match word.as_bytes().get(1) {
            Some(b'd') => {
                let td = value("dew point")?;
                // gendaylit ignores implausible dew points.
                o.dew_point = if (-40.0..=40.0).contains(&td) {
                    td
                } else {
                    DEFAULT_DEW_POINT
                };
            }
            Some(b's') => (o.cloudy, o.sun) = (false, plus),
            Some(b'c') => (o.cloudy, o.sun) = (true, false),
            Some(b'y') => {
                let y = value("year")? as i32;
                if let When::Date { year, .. } = &mut when {
                    *year = Some(y);
                }
            }
            // Accepted for compatibility; gendaylit does not use these values.
            Some(b'R') => _ = value("solar radiance")?,
            Some(b't') => _ = value("turbidity")?,
            Some(b'b') => _ = value("zenith brightness")?,
            Some(b'C') | Some(b'l') => {
                return Err(GendaylitError::Unsupported(format!(
                    "{word}: coloured Perez skies (perezlum_c.cal) are not supported yet"
                )))
            }
            Some(b'w') => o.quiet = true,
            Some(b'g') => o.ground_reflectance = value("ground reflectance")?,
            Some(b'a') => o.site.latitude = value("latitude")?,
            Some(b'o') => o.site.longitude = value("longitude")?,
            Some(b'm') => o.site.meridian = value("standard meridian")?,
            Some(b'O') => {
                let v = value("output specification")?;
                // gendaylit truncates the number to an integer.
                o.output = match v.trunc() as i64 {
                    0 => OutputUnits::Visible,
                    1 => OutputUnits::Solar,
                    2 => OutputUnits::Luminance,
                    _ => return Err(GendaylitError::Output(args[i].clone())),
                };
            }
            Some(b'P') => o.input = Input::Perez(value("epsilon")?, value("delta")?),
            Some(b'W') => o.input = Input::Irradiance(value("direct")?, value("diffuse")?),
            Some(b'L') => o.input = Input::Illuminance(value("direct")?, value("diffuse")?),
            Some(b'G') => o.input = Input::Horizontal(value("direct")?, value("diffuse")?),
            Some(b'E') => o.input = Input::Global(value("global irradiance")?),
            Some(b'i') => o.interval = value("time interval")?,
            _ => return Err(GenskyError::UnknownOption(word.to_string()).into()),
        }
        i += 1;
    }
    o.when = when;
    if o.interval < 0.0 {
        return Err(GendaylitError::Interval(o.interval));
    }
    Ok(o)
}

/// Solar time of sunrise (`rise`) or sunset for a date, by RADIANCE's declination fit; NaN in
/// polar day or night (so neither test below fires, as in gendaylit).
fn sun_crossing(site: &Site, day_of_year: u32, rise: bool) -> f64 {
    // gendaylit holds this in single precision.
    let w = (-(site.latitude.to_radians().tan() * solar::declination(day_of_year).tan())) as f32;
    let w = w as f64;
    let half_day = (PI / 2.0 - w.atan2((1.0 - w * w).sqrt())) * 180.0 / (PI * 15.0);
    if rise {
        12.0 - half_day
    } else {
        12.0 + half_day
    }
}

/// The state gendaylit works through: sun, irradiances, illuminances, sky condition.
struct State {
    altitude: f64,
    azimuth: f64,
    solar_time: f64,
    day_of_year: f64,
    zenith_deg: f64,
    water: f64,
    sky: SkyCondition,
    direct_irr: f64,
    diffuse_irr: f64,
    direct_ill: f64,
    diffuse_ill: f64,
    lines: Vec<String>,
    warnings: Vec<String>,
    quiet: bool,
}

/// A computation stopped early: gendaylit prints its error sky instead.
struct ErrorSky;

impl State {
    fn warn(&mut self, msg: String) {
        if !self.quiet {
            self.warnings.push(msg);
        }
    }

    fn zenith(&self) -> f64 {
        self.zenith_deg.to_radians()
    }

    /// Air mass, with gendaylit's side effect of holding the zenith angle at 90°.
    fn air_mass(&mut self) -> f64 {
        if self.zenith_deg > 90.0 {
            self.warn("Warning: air mass has reached the maximal value".into());
            self.zenith_deg = 90.0;
        }
        perez::air_mass(self.zenith())
    }

    fn update_condition(&mut self) {
        let am = self.air_mass();
        let e0 = perez::eccentricity(self.day_of_year);
        self.sky = SkyCondition {
            clearness: perez::sky_clearness(self.direct_irr, self.diffuse_irr, self.zenith()),
            brightness: self.diffuse_irr * am / (SOLAR_CONSTANT_IRRADIANCE * e0),
        }
        .limited();
    }

    fn check_irradiances(&mut self) -> Result<(), ErrorSky> {
        for (v, name) in [
            (&mut self.direct_irr, "direct"),
            (&mut self.diffuse_irr, "diffuse"),
        ] {
            if *v < 0.0 {
                *v = 0.0;
                if !self.quiet {
                    self.warnings
                        .push(format!("Warning: {name} irradiance < 0. Using 0.0"));
                }
            }
        }
        if self.direct_irr + self.diffuse_irr == 0.0 && self.altitude > 0.0 {
            self.warn("Warning: zero irradiance at sun altitude > 0, printing error sky".into());
            return Err(ErrorSky);
        }
        if self.direct_irr > SOLAR_CONSTANT_IRRADIANCE {
            self.warn("Warning: direct irradiance exceeds solar constant".into());
            return Err(ErrorSky);
        }
        Ok(())
    }

    fn check_illuminances(&mut self) -> Result<(), ErrorSky> {
        for (v, name) in [
            (&mut self.direct_ill, "direct"),
            (&mut self.diffuse_ill, "diffuse"),
        ] {
            if *v < 0.0 {
                *v = 0.0;
                if !self.quiet {
                    self.warnings
                        .push(format!("Warning: {name} illuminance < 0. Using 0.0"));
                }
            }
        }
        if self.direct_ill + self.diffuse_ill == 0.0 && self.altitude > 0.0 {
            self.warn("Warning: zero illuminance at sun altitude > 0, printing error sky".into());
            return Err(ErrorSky);
        }
        if self.direct_ill > SOLAR_CONSTANT_ILLUMINANCE {
            self.warn("Warning: direct illuminance exceeds solar constant".into());
            return Err(ErrorSky);
        }
        Ok(())
    }

    fn diffuse_efficacy(&mut self) -> Result<f64, ErrorSky> {
        let Some(cat) = perez::clearness_category(self.sky.clearness) else {
            let eps = self.sky.clearness;
            self.warn(format!(
                "Warning: sky clearness (= {eps:.3}) too high, printing error sky"
            ));
            return Err(ErrorSky);
        };
        let z = self.zenith();
        Ok(perez::diffuse_efficacy(
            cat,
            self.water,
            z,
            self.sky.brightness,
        ))
    }

    fn direct_efficacy(&self) -> f64 {
        let cat = self.sky.category();
        perez::direct_efficacy(cat, self.water, self.zenith(), self.sky.brightness)
    }

    /// Illuminances from the irradiances by the Perez efficacy models.
    fn illuminances(&mut self) -> Result<(), ErrorSky> {
        self.diffuse_ill = self.diffuse_irr * self.diffuse_efficacy()?;
        self.direct_ill = self.direct_irr * self.direct_efficacy();
        self.check_illuminances()
    }

    /// Irradiances and sky condition from illuminances: gendaylit's fixed nine refinements of
    /// the efficacies, starting from the ratio of the solar constants.
    fn solve_illuminance(&mut self) -> Result<(), ErrorSky> {
        let ratio = SOLAR_CONSTANT_IRRADIANCE / SOLAR_CONSTANT_ILLUMINANCE;
        self.diffuse_irr = self.diffuse_ill * ratio;
        self.direct_irr = self.direct_ill * ratio;
        self.update_condition();
        for _ in 0..9 {
            self.diffuse_irr = self.diffuse_ill / self.diffuse_efficacy()?;
            let d_eff = self.direct_efficacy();
            self.direct_irr = if d_eff < 0.1 {
                0.0
            } else {
                self.direct_ill / d_eff
            };
            self.update_condition();
        }
        Ok(())
    }

    /// The Erbs split of global irradiance, with gendaylit's two comment lines.
    fn erbs(&mut self, global: f64) {
        if self.altitude <= 0.0 {
            if global > 50.0 {
                self.warn("Warning: global irradiance higher than 50 W/m^2 while the sun altitude is lower than zero".into());
            }
            (self.direct_irr, self.diffuse_irr) = (0.0, 0.0);
            return;
        }
        let s0 =
            SOLAR_CONSTANT_IRRADIANCE * perez::eccentricity(self.day_of_year) * self.altitude.sin();
        let mut g = global;
        if g > s0 {
            self.warn(
                "Warning: global irradiance is higher than the time-dependent solar constant s0"
                    .into(),
            );
            g = s0 * 0.999;
        }
        let kt = g / s0;
        let diffuse = if kt <= 0.22 {
            g * (1.0 - 0.09 * kt)
        } else if kt <= 0.8 {
            g * (0.9511 - 0.1604 * kt + 4.388 * kt.powi(2) - 16.638 * kt.powi(3)
                + 12.336 * kt.powi(4))
        } else {
            g * 0.165
        };
        let direct_h = g - diffuse;
        self.lines.push(format!(
            "erbs_s0, erbs_kt, irr_dir_h, irr_diff: {s0:.3} {kt:.3} {direct_h:.3} {diffuse:.3}"
        ));
        self.lines
            .push("WARNING: the -E option is only recommended for a rough estimation!".into());
        self.diffuse_irr = diffuse;
        self.direct_irr = direct_h / self.altitude.sin();
    }

    /// Fills the irradiances, illuminances and sky condition from the input.
    fn apply_input(&mut self, input: Input, output: OutputUnits) -> Result<(), ErrorSky> {
        let visible = output != OutputUnits::Solar;
        match input {
            Input::Perez(eps, delta) => {
                self.sky = SkyCondition {
                    clearness: eps,
                    brightness: delta,
                }
                .limited();
                let am = self.air_mass();
                let e0 = perez::eccentricity(self.day_of_year);
                self.diffuse_irr = self.sky.brightness / am * SOLAR_CONSTANT_IRRADIANCE * e0;
                let k = 1.041 * self.zenith().powi(3);
                self.direct_irr = self.diffuse_irr * (self.sky.clearness - 1.0) * (1.0 + k);
                self.check_irradiances()?;
            }
            Input::Illuminance(dn, dh) => {
                (self.direct_ill, self.diffuse_ill) = (dn, dh);
                self.check_illuminances()?;
                return self.solve_illuminance();
            }
            Input::Irradiance(dn, dh) => {
                (self.direct_irr, self.diffuse_irr) = (dn, dh);
                self.check_irradiances()?;
                self.update_condition();
            }
            Input::Horizontal(direct_h, dh) => {
                if self.altitude <= 0.0 {
                    self.warn(
                        "Warning: sun altitude < 0, proceed with irradiance values of zero".into(),
                    );
                    (self.direct_irr, self.diffuse_irr) = (0.0, 0.0);
                } else {
                    (self.direct_irr, self.diffuse_irr) = (direct_h / self.altitude.sin(), dh);
                }
                self.check_irradiances()?;
                self.update_condition();
            }
            Input::Global(g) => {
                self.erbs(g);
                self.check_irradiances()?;
                self.update_condition();
            }
        }
        if visible {
            self.illuminances()?;
        }
        Ok(())
    }
}

/// The sun for the options, its solar time and day of the year, and whether it is up (by
/// gendaylit's sunrise and sunset test, widened by half the time step when `-i` is given).
fn sun_for(o: &GendaylitOptions) -> Result<(SunPosition, f64, f64, bool), GendaylitError> {
    let (month, day, hour, kind, year) = match o.when {
        When::Angles { altitude, azimuth } => {
            return Ok((SunPosition::from_degrees(altitude, azimuth), 0.0, 0.0, true))
        }
        When::Date {
            month,
            day,
            hour,
            kind,
            year,
        } => (month, day, hour, kind, year),
    };
    let jd = solar::day_of_year(month, day).map_err(GenskyError::from)?;
    let (dec, mut st) = match year {
        Some(y) => {
            let days =
                solar::almanac_days(&o.site, y, month, day, hour).map_err(GenskyError::from)?;
            let (dec, st) = solar::almanac_declination(&o.site, days);
            (dec, if kind == TimeKind::Solar { hour } else { st })
        }
        None => {
            let st = match kind {
                TimeKind::Solar => hour,
                TimeKind::Standard => hour + solar::solar_time_offset(&o.site, jd),
            };
            (solar::declination(jd), st)
        }
    };
    let rise = sun_crossing(&o.site, jd, true);
    let set = sun_crossing(&o.site, jd, false);
    let up = if o.interval > 0.0 {
        let half = o.interval / 120.0;
        if (rise - st).abs() <= half {
            st = (st + half + rise) / 2.0;
        }
        if (set - st).abs() < half {
            st = (st - half + set) / 2.0;
        }
        !(st < rise - half || st > set + half)
    } else {
        !(st < rise || st > set)
    };
    Ok((
        solar::sun_at_solar_time(&o.site, dec, st),
        st,
        jd as f64,
        up,
    ))
}

/// The numbers of a gendaylit sky.
#[derive(Clone, Debug, PartialEq)]
pub struct Daylit {
    /// Sun position used.
    pub sun: SunPosition,
    /// Local solar time printed (0 for `-ang`).
    pub solar_time: f64,
    /// Unit vector toward the sun.
    pub sun_dir: [f64; 3],
    /// Perez condition used, or `None` for an error sky.
    pub sky: Option<SkyCondition>,
    /// Precipitable water, cm.
    pub water: f64,
    /// Whether a sun source is written.
    pub with_sun: bool,
    /// Sun radiance in the output units (0 for a sky with ε = 1).
    pub solar_radiance: f64,
    /// Factor from relative Perez luminance to the output units (`perezlum.cal` argument 1).
    pub normalisation: f64,
    /// Ground radiance in the output units (argument 2).
    pub ground_radiance: f64,
    /// Perez a…e (arguments 3–7).
    pub params: [f64; 5],
    /// Comment lines printed before the solar-time comment (the Erbs split).
    pub lines: Vec<String>,
    /// Warnings gendaylit prints on standard error.
    pub warnings: Vec<String>,
}

/// Computes the sky gendaylit would write for the options.
pub fn compute(o: &GendaylitOptions) -> Result<Daylit, GendaylitError> {
    let (mut sun, solar_time, day_of_year, up) = sun_for(o)?;
    let mut st = State {
        altitude: sun.altitude,
        azimuth: sun.azimuth,
        solar_time,
        day_of_year,
        zenith_deg: 0.0,
        water: perez::precipitable_water(o.dew_point),
        sky: SkyCondition {
            clearness: 0.0,
            brightness: 0.0,
        },
        direct_irr: 0.0,
        diffuse_irr: 0.0,
        direct_ill: 0.0,
        diffuse_ill: 0.0,
        lines: Vec::new(),
        warnings: Vec::new(),
        quiet: o.quiet,
    };
    if !up {
        st.warn("Warning: sun altitude below zero, printing error sky".into());
        return Ok(error_sky(st));
    }
    if !o.cloudy && st.altitude > 87f64.to_radians() {
        st.warn("warning - sun too close to zenith, reducing altitude to 87 degrees".into());
        st.altitude = 87f64.to_radians();
    }
    sun.altitude = st.altitude;
    st.zenith_deg = 90.0 - st.altitude.to_degrees();
    if st.apply_input(o.input, o.output).is_err() {
        return Ok(error_sky(st));
    }
    finish(o, st, sun)
}

/// Distribution, normalisation, sun and ground once the sky condition is known.
fn finish(o: &GendaylitOptions, mut st: State, sun: SunPosition) -> Result<Daylit, GendaylitError> {
    let sky = st.sky;
    if !(perez::CLEARNESS_MIN..perez::CLEARNESS_MAX).contains(&sky.clearness) {
        return Err(GendaylitError::Clearness(sky.clearness));
    }
    let z = st.zenith();
    let params = PerezParameters::new(z, sky);
    let integral = perez::gendaylit_horizontal_integral(&params, z);
    let sun_solid_angle = 2.0 * PI * (1.0 - HALF_SUN_ANGLE.to_radians().cos());
    let (norm, solar) = match o.output {
        OutputUnits::Visible => (
            st.diffuse_ill / integral / WHITE_EFFICACY,
            st.direct_ill / sun_solid_angle / WHITE_EFFICACY,
        ),
        OutputUnits::Solar => (st.diffuse_irr / integral, st.direct_irr / sun_solid_angle),
        OutputUnits::Luminance => (st.diffuse_ill / integral, st.direct_ill / sun_solid_angle),
    };
    let dir = sun.direction();
    let zenith_radiance = params.relative_luminance(0.0, z) * norm;
    let model = if sky.clearness == 1.0 {
        SkyType::Overcast
    } else if sky.clearness >= 6.0 {
        SkyType::Clear
    } else {
        SkyType::Intermediate
    };
    let (factor, _) = ground_factor(model, st.altitude, dir[2]);
    let mut ground = zenith_radiance * factor;
    let sun_lit = o.sun && sky.clearness > 1.0;
    if sun_lit {
        ground += 6.8e-5 / PI * solar * dir[2];
    }
    if params.abcde[1] > 0.0 {
        let b = params.abcde[1];
        st.warn(format!(
            "Warning: positive Perez parameter B (= {b:.6}), printing error sky"
        ));
        return Ok(error_sky(st));
    }
    Ok(Daylit {
        sun,
        solar_time: st.solar_time,
        sun_dir: dir,
        sky: Some(sky),
        water: st.water,
        with_sun: o.sun,
        solar_radiance: if sun_lit { solar } else { 0.0 },
        normalisation: norm,
        ground_radiance: ground * o.ground_reflectance,
        params: params.abcde,
        lines: st.lines,
        warnings: st.warnings,
    })
}

/// gendaylit's zero sky, for a sun below the horizon or unusable data.
fn error_sky(st: State) -> Daylit {
    let sun = SunPosition {
        altitude: st.altitude,
        azimuth: st.azimuth,
        solar_time: Some(st.solar_time),
    };
    Daylit {
        sun,
        solar_time: st.solar_time,
        sun_dir: sun.direction(),
        sky: None,
        water: st.water,
        with_sun: false,
        solar_radiance: 0.0,
        normalisation: 0.0,
        ground_radiance: 0.0,
        params: [0.0; 5],
        lines: st.lines,
        warnings: st.warnings,
    }
}

impl Daylit {
    /// The scene text gendaylit prints, with `header` (the command line) as its first comment.
    pub fn scene_text(&self, header: &str) -> String {
        let mut t = format!("# {header}\n");
        for l in &self.lines {
            let _ = writeln!(t, "# {l}");
        }
        let _ = writeln!(t, "# Local solar time: {:.2}", self.solar_time);
        let _ = writeln!(
            t,
            "# Solar altitude and azimuth: {:.1} {:.1}",
            self.sun.altitude.to_degrees(),
            self.sun.azimuth.to_degrees()
        );
        let [x, y, z] = self.sun_dir;
        let Some(sky) = self.sky else {
            let _ = write!(
                t,
                "\nvoid brightfunc skyfunc\n2 skybright perezlum.cal\n0\n10 0.00 0.00  0.000 0.000 0.000 0.000 0.000  {x:.6} {y:.6} {z:.6} \n"
            );
            return t;
        };
        let _ = writeln!(
            t,
            "# epsilon, delta, atmospheric precipitable water content : {:.4} {:.4} {:.4} ",
            sky.clearness, sky.brightness, self.water
        );
        if self.with_sun {
            let s = if sky.clearness > 1.0 {
                let s = format_e(self.solar_radiance, 3);
                format!("{s} {s} {s}")
            } else {
                "0.0 0.0 0.0".to_string()
            };
            let _ = write!(
                t,
                "\nvoid light solar\n0\n0\n3 {s}\n\nsolar source sun\n0\n0\n4 {x:.6} {y:.6} {z:.6} {:.6}\n",
                2.0 * HALF_SUN_ANGLE
            );
        }
        let [a, b, c, d, e] = self.params;
        let _ = write!(
            t,
            "\nvoid brightfunc skyfunc\n2 skybright perezlum.cal\n0\n10 {} {} {a:.6} {b:.6} {c:.6} {d:.6} {e:.6} {x:.6} {y:.6} {z:.6} \n",
            format_e(self.normalisation, 3),
            format_e(self.ground_radiance, 3)
        );
        t
    }
}

/// What a gendaylit run prints: the scene text, and warnings for standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct GendaylitOutput {
    /// The scene text.
    pub text: String,
    /// Warnings.
    pub warnings: Vec<String>,
}

/// Runs gendaylit on its argument words (without the program name).
pub fn gendaylit_text(args: &[String]) -> Result<GendaylitOutput, GendaylitError> {
    let o = parse_args(args)?;
    let sky = compute(&o)?;
    Ok(GendaylitOutput {
        text: sky.scene_text(&command_line("gendaylit", args)),
        warnings: sky.warnings,
    })
}
