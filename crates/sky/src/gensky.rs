//! RADIANCE's `gensky`: the CIE clear, intermediate and overcast skies and a uniform sky, with
//! or without a sun, as scene text for `skybright.cal` (function `skybr`).
//!
//! [`parse_args`] reads gensky's own argument syntax (`month day hour [options]` or `-ang alt azi
//! [options]`), [`compute`] turns the options into the sky's numbers, and [`Sky::scene_text`]
//! prints them as gensky does. [`gensky_text`] does all three.
//!
//! Site and sun conventions are RADIANCE's; see [`crate::solar`].

use crate::solar::{self, Site, SolarError, SunPosition, TimeKind};
use daylit_radfile::printf::format_e;
use std::f64::consts::PI;
use std::fmt::Write as _;
use thiserror::Error;

/// Luminous efficacy gensky assumes for sky light, lm/W (RADIANCE's D65 value).
pub const SKY_EFFICACY: f64 = 203.0;
/// Luminous efficacy gensky assumes for direct sunlight, lm/W (illuminant B).
pub const SUN_EFFICACY: f64 = 208.0;

/// A gensky command line that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum GenskyError {
    /// Too few arguments.
    #[error("expected `month day hour [options]` or `-ang altitude azimuth [options]`")]
    ArgCount,
    /// A word that should be a number is not one.
    #[error("{what}: expected a number, found `{word}`")]
    Number {
        /// What the number is.
        what: String,
        /// The word found.
        word: String,
    },
    /// An option needs more values than follow it.
    #[error("option {0} needs a value")]
    MissingValue(String),
    /// An option gensky does not know.
    #[error("unknown option: {0}")]
    UnknownOption(String),
    /// A word where an option was expected.
    #[error("bad option `{0}`: expected an option starting with - or +")]
    BadOption(String),
    /// `-spa` (daylit's precise sun) asked for without what it needs.
    #[error("-spa: {0}")]
    Spa(&'static str),
    /// The hour is not `H`, `H.h`, `H:MM`, `+H` (solar time) or `H`+time zone.
    #[error(
        "bad time format `{0}`: expected an hour like 14, 14.5, 14:30, +12 (solar time) or 14EST"
    )]
    TimeFormat(String),
    /// A time-zone name not in gensky's table.
    #[error("unknown time zone `{0}`")]
    TimeZone(String),
    /// Month or day out of range.
    #[error(transparent)]
    Date(#[from] SolarError),
}

/// The CIE sky distributions gensky makes (the numbers are the first argument of `skybr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkyType {
    /// CIE clear sky (`+s`, `-s`).
    Clear = 1,
    /// CIE overcast sky (`-c`).
    Overcast = 2,
    /// Uniform sky (`-u`).
    Uniform = 3,
    /// CIE intermediate sky (`+i`, `-i`).
    Intermediate = 4,
}

impl SkyType {
    fn overcast(self) -> bool {
        matches!(self, SkyType::Overcast | SkyType::Uniform)
    }
}

/// A brightness given on the command line, or none (gensky then models it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Given {
    /// Computed from the sky model.
    Model,
    /// A radiance, W/sr/m² (`-b`, `-r`).
    Radiance(f64),
    /// A horizontal irradiance, W/m² (`-B`, `-R`).
    Irradiance(f64),
}

/// When the sun is: a date and hour, or given angles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum When {
    /// Month, day and hour, with the hour in standard or solar time, and an optional year
    /// (which selects the almanac algorithm, [`solar::michalsky_sun`]).
    Date {
        /// Month 1–12.
        month: u32,
        /// Day 1–31.
        day: u32,
        /// Hour, 0–24.
        hour: f64,
        /// Standard or solar time.
        kind: TimeKind,
        /// Year, if given with `-y`.
        year: Option<i32>,
    },
    /// Solar altitude and azimuth in degrees (azimuth from south, west positive).
    Angles {
        /// Altitude, degrees.
        altitude: f64,
        /// Azimuth, degrees.
        azimuth: f64,
    },
}

/// Everything a gensky command line says.
#[derive(Clone, Debug, PartialEq)]
pub struct GenskyOptions {
    /// The sun's time or angles.
    pub when: When,
    /// Sky distribution.
    pub sky: SkyType,
    /// Whether a sun source is wanted (`+s`/`+i` versus `-s`/`-i`).
    pub sun: bool,
    /// Zenith brightness (`-b`, `-B`).
    pub zenith: Given,
    /// Solar brightness (`-r`, `-R`).
    pub solar: Given,
    /// Linke turbidity (`-t`), default 2.45.
    pub turbidity: f64,
    /// Ground reflectance (`-g`), default 0.2.
    pub ground_reflectance: f64,
    /// Site (`-a`, `-o`, `-m`, or a time-zone suffix on the hour).
    pub site: Site,
    /// daylit's `-spa`: the sun by NREL's SPA (needs `-y`) instead of RADIANCE's formulas.
    pub precise: bool,
    /// Whether the hour carried a time-zone name (then `-m` is ignored).
    pub zone_given: bool,
    /// The words as given, for the header line.
    pub args: Vec<String>,
}

/// Time-zone names gensky accepts after the hour, with their standard meridians (degrees
/// west). The first match wins (so "AST" is Atlantic, 60° W).
const TIME_ZONES: [(&str, f64); 30] = [
    ("YST", 135.0),
    ("YDT", 120.0),
    ("PST", 120.0),
    ("PDT", 105.0),
    ("MST", 105.0),
    ("MDT", 90.0),
    ("CST", 90.0),
    ("CDT", 75.0),
    ("EST", 75.0),
    ("EDT", 60.0),
    ("AST", 60.0),
    ("ADT", 45.0),
    ("NST", 52.5),
    ("NDT", 37.5),
    ("GMT", 0.0),
    ("BST", -15.0),
    ("CET", -15.0),
    ("CEST", -30.0),
    ("EET", -30.0),
    ("EEST", -45.0),
    ("AST", -45.0),
    ("ADT", -60.0),
    ("GST", -60.0),
    ("GDT", -75.0),
    ("IST", -82.5),
    ("IDT", -97.5),
    ("JST", -135.0),
    ("NDT", -150.0),
    ("NZST", -180.0),
    ("NZDT", -195.0),
];

/// Parses a number the way the command line must give it.
pub(crate) fn number(word: &str, what: &str) -> Result<f64, GenskyError> {
    word.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| GenskyError::Number {
            what: what.to_string(),
            word: word.to_string(),
        })
}

/// Parses an integer (month, day, year).
pub(crate) fn integer(word: &str, what: &str) -> Result<i64, GenskyError> {
    word.trim().parse::<i64>().map_err(|_| GenskyError::Number {
        what: what.to_string(),
        word: word.to_string(),
    })
}

/// A parsed hour word: the hour, standard or solar time, and a time-zone meridian if named.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hour {
    /// Hours.
    pub hour: f64,
    /// Standard or solar time (a leading `+`).
    pub kind: TimeKind,
    /// Standard meridian of a named time zone, degrees west.
    pub meridian: Option<f64>,
}

/// Reads gensky's hour word: `14`, `14.5`, `14:30`, `+12` (solar time) or `14EST`.
pub fn parse_hour(word: &str) -> Result<Hour, GenskyError> {
    let bad = || GenskyError::TimeFormat(word.to_string());
    let (kind, rest) = match word.strip_prefix('+') {
        Some(r) => (TimeKind::Solar, r),
        None => (TimeKind::Standard, word),
    };
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ':'))
        .unwrap_or(rest.len());
    let (clock, zone) = rest.split_at(end);
    let hour = match clock.split_once(':') {
        Some((h, m)) => {
            let h: u32 = h.parse().map_err(|_| bad())?;
            let m: u32 = m.parse().map_err(|_| bad())?;
            h as f64 + m as f64 / 60.0
        }
        None => clock.parse::<f64>().map_err(|_| bad())?,
    };
    if zone.is_empty() {
        return Ok(Hour {
            hour,
            kind,
            meridian: None,
        });
    }
    if kind == TimeKind::Solar || !zone.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(bad());
    }
    let upper = zone.to_ascii_uppercase();
    let meridian = TIME_ZONES
        .iter()
        .find(|(name, _)| *name == upper)
        .map(|&(_, m)| m)
        .ok_or_else(|| GenskyError::TimeZone(zone.to_string()))?;
    Ok(Hour {
        hour,
        kind,
        meridian: Some(meridian),
    })
}

/// Reads a gensky command line (the words after the program name).
pub fn parse_args(args: &[String]) -> Result<GenskyOptions, GenskyError> {
    if args.len() < 3 {
        return Err(GenskyError::ArgCount);
    }
    let mut site = Site::default();
    let mut zone_given = false;
    let (mut month, mut day, mut hour) = (
        0,
        0,
        Hour {
            hour: 0.0,
            kind: TimeKind::Standard,
            meridian: None,
        },
    );
    let mut angles = None;
    if args[0] == "-ang" {
        angles = Some((number(&args[1], "altitude")?, number(&args[2], "azimuth")?));
    } else {
        let m = integer(&args[0], "month")?;
        if !(1..=12).contains(&m) {
            return Err(SolarError::Month(m).into());
        }
        let d = integer(&args[1], "day")?;
        if !(1..=31).contains(&d) {
            return Err(SolarError::Day(d).into());
        }
        (month, day) = (m as u32, d as u32);
        hour = parse_hour(&args[2])?;
        if let Some(m) = hour.meridian {
            site.meridian = m;
            zone_given = true;
        }
    }
    let mut o = GenskyOptions {
        when: When::Angles {
            altitude: 0.0,
            azimuth: 0.0,
        },
        sky: SkyType::Clear,
        sun: true,
        zenith: Given::Model,
        solar: Given::Model,
        turbidity: 2.45,
        ground_reflectance: 0.2,
        site,
        precise: false,
        zone_given,
        args: args.to_vec(),
    };
    let mut year = None;
    let mut i = 3;
    while i < args.len() {
        let word = args[i].as_str();
        let plus = word.starts_with('+');
        if !(plus || word.starts_with('-')) {
            return Err(GenskyError::BadOption(word.to_string()));
        }
        let mut value = |what: &str| -> Result<f64, GenskyError> {
            i += 1;
            let w = args
                .get(i)
                .ok_or_else(|| GenskyError::MissingValue(word.to_string()))?;
            number(w, what)
        };
        if word == "-spa" {
            o.precise = true;
            i += 1;
            continue;
        }
        match word.as_bytes().get(1) {
            Some(b's') => (o.sky, o.sun) = (SkyType::Clear, plus),
            Some(b'i') => (o.sky, o.sun) = (SkyType::Intermediate, plus),
            Some(b'c') => o.sky = SkyType::Overcast,
            Some(b'u') => o.sky = SkyType::Uniform,
            Some(b'y') => year = Some(value("year")? as i32),
            Some(b'r') => o.solar = Given::Radiance(value("solar radiance")?),
            Some(b'R') => o.solar = Given::Irradiance(value("solar irradiance")?),
            Some(b'b') => o.zenith = Given::Radiance(value("zenith radiance")?),
            Some(b'B') => o.zenith = Given::Irradiance(value("horizontal irradiance")?),
            Some(b't') => o.turbidity = value("turbidity")?,
            Some(b'g') => o.ground_reflectance = value("ground reflectance")?,
            Some(b'a') => o.site.latitude = value("latitude")?,
            Some(b'o') => o.site.longitude = value("longitude")?,
            Some(b'm') => {
                let m = value("standard meridian")?;
                // A time zone on the hour overrides -m.
                if !o.zone_given {
                    o.site.meridian = m;
                }
            }
            _ => return Err(GenskyError::UnknownOption(word.to_string())),
        }
        i += 1;
    }
    o.when = match angles {
        Some((altitude, azimuth)) => When::Angles { altitude, azimuth },
        None => When::Date {
            month,
            day,
            hour: hour.hour,
            kind: hour.kind,
            year,
        },
    };
    Ok(o)
}

/// The numbers of a gensky sky.
#[derive(Clone, Debug, PartialEq)]
pub struct Sky {
    /// Sky distribution.
    pub sky: SkyType,
    /// Sun position used (after the 87° limit).
    pub sun: SunPosition,
    /// Unit vector toward the sun.
    pub sun_dir: [f64; 3],
    /// Whether a sun source is written.
    pub with_sun: bool,
    /// Radiance of the sun source, W/sr/m².
    pub solar_radiance: f64,
    /// Zenith radiance of the sky, W/sr/m².
    pub zenith_radiance: f64,
    /// Ground radiance (after the ground reflectance), W/sr/m².
    pub ground_radiance: f64,
    /// Normalisation factor of the clear and intermediate distributions (`F2`; 0 otherwise).
    pub f2: f64,
    /// Comment lines printed after the header (solar time, angles, warnings, ambient level).
    pub comments: Vec<String>,
    /// Warnings gensky prints on standard error.
    pub warnings: Vec<String>,
}

/// The polynomial fit of E0·F2/L0 (horizontal illuminance over zenith luminance, times F2)
/// against solar altitude, for clear and intermediate skies.
fn horizontal_factor(sky: SkyType, altitude: f64) -> f64 {
    const CLEAR: [f64; 5] = [2.766521, 0.547665, -0.369832, 0.009237, 0.059229];
    const INTER: [f64; 5] = [3.5556, -2.7152, -1.3081, 1.0660, 0.60227];
    let c = if sky == SkyType::Intermediate {
        &INTER
    } else {
        &CLEAR
    };
    let x = (altitude - PI / 4.0) / (PI / 4.0);
    c.iter().rev().fold(0.0, |acc, k| acc * x + k)
}

/// The clear-sky normalisation F2 for a solar altitude.
pub(crate) fn clear_f2(altitude: f64, sz: f64) -> f64 {
    0.274 * (0.91 + 10.0 * (-3.0 * (PI / 2.0 - altitude)).exp() + 0.45 * sz * sz)
}

/// The intermediate-sky normalisation F2 for a solar altitude.
pub(crate) fn intermediate_f2(altitude: f64) -> f64 {
    (2.739 + 0.9891 * (0.3119 + 2.6 * altitude).sin())
        * (-(PI / 2.0 - altitude) * (0.4441 + 1.48 * altitude)).exp()
}

/// The ratio of horizontal irradiance to π times zenith radiance, and F2, for a sky type
/// (clear and intermediate depend on the solar altitude; gendaylit reuses this for its ground).
pub(crate) fn ground_factor(sky: SkyType, altitude: f64, sz: f64) -> (f64, f64) {
    match sky {
        SkyType::Uniform => (1.0, 0.0),
        SkyType::Overcast => (0.777778, 0.0),
        SkyType::Clear => {
            let f2 = clear_f2(altitude, sz);
            (horizontal_factor(sky, altitude) / f2 / PI, f2)
        }
        SkyType::Intermediate => {
            let f2 = intermediate_f2(altitude);
            (horizontal_factor(sky, altitude) / f2 / PI, f2)
        }
    }
}

/// The sun position of the options, with the comment lines gensky prints for a date.
fn sun_position(o: &GenskyOptions) -> Result<(SunPosition, Vec<String>), GenskyError> {
    let (month, day, hour, kind, year) = match o.when {
        When::Angles { altitude, azimuth } => {
            return Ok((SunPosition::from_degrees(altitude, azimuth), Vec::new()))
        }
        When::Date {
            month,
            day,
            hour,
            kind,
            year,
        } => (month, day, hour, kind, year),
    };
    let sun = match year {
        Some(year) if o.precise => {
            if kind == TimeKind::Solar {
                return Err(GenskyError::Spa(
                    "give the hour in standard time, not solar time",
                ));
            }
            // Sea level, geometric position; ΔT of the 2020s.
            let t = solar::CivilTime {
                year,
                month,
                day,
                hour,
            };
            solar::precise_sun(&o.site, 0.0, t, 69.0, None)?
        }
        _ if o.precise => return Err(GenskyError::Spa("give the year with -y")),
        Some(y) => solar::michalsky_sun(&o.site, y, month, day, hour, kind)?,
        None => solar::radiance_sun(&o.site, month, day, hour, kind)?,
    };
    let comments = vec![
        format!("Local solar time: {:.2}", sun.solar_time.unwrap_or(hour)),
        format!(
            "Solar altitude and azimuth: {:.1} {:.1}",
            sun.altitude.to_degrees(),
            sun.azimuth.to_degrees()
        ),
    ];
    Ok((sun, comments))
}

/// Warnings about the options themselves (year range, meridian far from longitude).
fn option_warnings(o: &GenskyOptions) -> Vec<String> {
    let mut w = Vec::new();
    if let When::Date { year, kind, .. } = o.when {
        if let Some(y) = year.filter(|y| !(1950..=2050).contains(y)) {
            w.push(format!("warning - year {y} should be in range 1950-2050"));
        }
        let gap = o.site.longitude - o.site.meridian;
        if kind == TimeKind::Standard && gap.abs() > 45.0 {
            w.push(format!(
                "warning - {:.1} hours btwn. standard meridian and longitude",
                gap / 15.0
            ));
        }
    }
    w
}

/// Computes the sky gensky would write for the options.
pub fn compute(o: &GenskyOptions) -> Result<Sky, GenskyError> {
    let (mut sun, mut comments) = sun_position(o)?;
    let mut warnings = option_warnings(o);
    let overcast = o.sky.overcast();
    if !overcast && sun.altitude > 87f64.to_radians() {
        let msg = "warning - sun too close to zenith, reducing altitude to 87 degrees";
        warnings.push(msg.to_string());
        comments.push(msg.to_string());
        sun.altitude = 87f64.to_radians();
    }
    let dir = sun.direction();
    let sz = dir[2];
    let (norm, f2) = ground_factor(o.sky, sun.altitude, sz);
    let zenith = zenith_radiance(o, sun.altitude, sz, norm);
    let mut ground = zenith * norm;
    comments.push(format!("Ground ambient level: {ground:.1}"));
    let (mut with_sun, mut solar) = (o.sun, 0.0);
    let solar_wanted = match o.solar {
        Given::Model => true,
        Given::Radiance(v) | Given::Irradiance(v) => v > 0.0,
    };
    if !overcast && sz > 0.0 && solar_wanted {
        solar = match o.solar {
            // 5.98e-5 sr is the solid angle of the 0.5° sun.
            Given::Irradiance(v) => v / (5.98e-5 * sz),
            Given::Radiance(v) => v,
            Given::Model => {
                let s = 1.5e9 / SUN_EFFICACY * (1.147 - 0.147 / sz.max(0.16));
                if o.sky == SkyType::Intermediate {
                    s * 0.15
                } else {
                    s
                }
            }
        };
        // The sun lights the ground even when no sun source is written (-s, -i).
        ground += 6e-5 / PI * solar * sz;
    } else {
        with_sun = false;
    }
    Ok(Sky {
        sky: o.sky,
        sun,
        sun_dir: dir,
        with_sun,
        solar_radiance: solar,
        zenith_radiance: zenith,
        ground_radiance: ground * o.ground_reflectance,
        f2,
        comments,
        warnings,
    })
}

/// Zenith radiance: given (`-b`), from a horizontal irradiance (`-B`), or from the sky model.
fn zenith_radiance(o: &GenskyOptions, altitude: f64, sz: f64, norm: f64) -> f64 {
    match o.zenith {
        Given::Radiance(v) => v,
        Given::Irradiance(v) => v / (norm * PI),
        Given::Model => {
            let overcast_lum = 8.6 * sz + 0.123;
            let z = match o.sky {
                SkyType::Overcast | SkyType::Uniform => overcast_lum,
                SkyType::Clear => (1.376 * o.turbidity - 1.81) * altitude.tan() + 0.38,
                SkyType::Intermediate => {
                    ((1.376 * o.turbidity - 1.81) * altitude.tan() + 0.38 + overcast_lum) / 2.0
                }
            };
            // Model values are luminances in kcd/m²; radiance = luminance / efficacy.
            z.max(0.0) * 1000.0 / SKY_EFFICACY
        }
    }
}

/// Joins command words as RADIANCE's header line does, quoting words with white space.
pub(crate) fn command_line(program: &str, args: &[String]) -> String {
    let mut line = program.to_string();
    for a in args {
        line.push(' ');
        if a.contains(char::is_whitespace) {
            let _ = write!(line, "\"{a}\"");
        } else {
            line.push_str(a);
        }
    }
    line
}

impl Sky {
    /// The scene text gensky prints, with `header` (the command line) as its first comment.
    pub fn scene_text(&self, header: &str) -> String {
        let mut t = format!("# {header}\n");
        for c in &self.comments {
            let _ = writeln!(t, "# {c}");
        }
        let [x, y, z] = self.sun_dir;
        if self.with_sun {
            let s = format_e(self.solar_radiance, 3);
            let _ = write!(
                t,
                "\nvoid light solar\n0\n0\n3 {s} {s} {s}\n\nsolar source sun\n0\n0\n4 {x:.6} {y:.6} {z:.6} 0.5\n"
            );
        }
        let _ = write!(t, "\nvoid brightfunc skyfunc\n2 skybr skybright.cal\n0\n");
        let (zb, gb) = (
            format_e(self.zenith_radiance, 3),
            format_e(self.ground_radiance, 3),
        );
        let n = self.sky as u8;
        if self.sky.overcast() {
            let _ = writeln!(t, "3 {n} {zb} {gb}");
        } else {
            let f2 = format_e(self.f2, 3);
            let _ = writeln!(t, "7 {n} {zb} {gb} {f2} {x:.6} {y:.6} {z:.6}");
        }
        t
    }
}

/// gensky's `-defaults` listing.
pub fn defaults_text() -> String {
    let s = Site::default();
    format!(
        "+s\t\t\t\t# Sunny sky with sun\n-g {:.6}\t\t\t# Ground plane reflectance\n-t {:.6}\t\t\t# Atmospheric turbidity\n-a {:.6}\t\t\t# Site latitude (degrees)\n-o {:.6}\t\t\t# Site longitude (degrees)\n-m {:.6}\t\t\t# Standard meridian (degrees)\n",
        0.2, 2.45, s.latitude, s.longitude, s.meridian
    )
}

/// What a gensky run prints: the scene text, and warnings for standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct GenskyOutput {
    /// The scene text (or the `-defaults` listing).
    pub text: String,
    /// Warnings, without the program name.
    pub warnings: Vec<String>,
}

/// Runs gensky on its argument words (without the program name).
pub fn gensky_text(args: &[String]) -> Result<GenskyOutput, GenskyError> {
    if args.len() == 1 && args[0] == "-defaults" {
        return Ok(GenskyOutput {
            text: defaults_text(),
            warnings: Vec::new(),
        });
    }
    let o = parse_args(args)?;
    let sky = compute(&o)?;
    Ok(GenskyOutput {
        text: sky.scene_text(&command_line("gensky", args)),
        warnings: sky.warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_parse_in_every_form() {
        assert_eq!(parse_hour("14:30").unwrap().hour, 14.5);
        assert_eq!(parse_hour("+12").unwrap().kind, TimeKind::Solar);
        assert_eq!(parse_hour("10edt").unwrap().meridian, Some(60.0));
        assert!(matches!(
            parse_hour("+10EST"),
            Err(GenskyError::TimeFormat(_))
        ));
        assert!(matches!(parse_hour("10XYZ"), Err(GenskyError::TimeZone(_))));
        assert!(matches!(parse_hour("-3"), Err(GenskyError::TimeFormat(_))));
    }
}
