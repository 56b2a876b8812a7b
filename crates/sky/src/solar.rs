//! Solar position, three ways:
//!
//! - [`radiance_sun`]: RADIANCE's own approximation (declination and equation of time as sine
//!   fits over a 365-day year, no leap years), which `gensky`, `gendaylit` and `gendaymtx` use
//!   when no year is given. Use it for parity with RADIANCE.
//! - [`michalsky_sun`]: the Astronomical Almanac's approximate algorithm (Michalsky 1988),
//!   which RADIANCE uses when a year is given (`-y`); about 0.01° for 1950–2050.
//! - [`precise_sun`]: NREL's Solar Position Algorithm (Reda & Andreas 2004, ±0.0003°) through
//!   the `solar-positioning` crate, for users who need the true position.
//!
//! # Conventions (RADIANCE's, at every interface here)
//! - Latitude in degrees, **north positive**.
//! - Longitude in degrees, **west positive** (Greenwich 0, New York about +74, Berlin about
//!   −13.4): the opposite of ISO 6709 and of most GIS software.
//! - Standard meridian of the time zone in degrees, **west positive**: 15° per hour behind UTC,
//!   so US Eastern Standard Time is +75 and Central European Time is −15. Local standard time
//!   plus `meridian / 15` hours is UTC.
//! - Solar altitude above the horizon; solar azimuth measured from **south, positive toward
//!   west** (−90° east, +90° west). In scene coordinates +X is east, +Y north and +Z up, so the
//!   sun direction is `(−sin A cos h, −cos A cos h, sin h)`.
//! - Solar time in hours, 12 at solar noon.

use std::f64::consts::PI;
use thiserror::Error;

/// A bad date, time or place for a solar position.
#[derive(Debug, Error, PartialEq)]
pub enum SolarError {
    /// The month is not 1–12.
    #[error("bad month {0}: expected 1 to 12")]
    Month(i64),
    /// The day is not 1–31.
    #[error("bad day {0}: expected 1 to 31")]
    Day(i64),
    /// The precise algorithm rejected the input (coordinates or time out of its range).
    #[error("solar position: {0}")]
    Precise(String),
}

/// Where the sun is seen from, in RADIANCE's conventions (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Site {
    /// Latitude, degrees north.
    pub latitude: f64,
    /// Longitude, degrees **west**.
    pub longitude: f64,
    /// Standard meridian of the local time zone, degrees **west**.
    pub meridian: f64,
}

impl Default for Site {
    /// RADIANCE's default site (0.66 rad N, 2.13 rad W, meridian 120° W: San Francisco Bay).
    fn default() -> Self {
        Site {
            latitude: 0.66_f64.to_degrees(),
            longitude: 2.13_f64.to_degrees(),
            meridian: 120.0,
        }
    }
}

/// Whether a clock time is local standard time or local solar time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeKind {
    /// Local standard time of the site's meridian (no daylight saving).
    Standard,
    /// Local apparent solar time (12 = solar noon).
    Solar,
}

/// A solar position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SunPosition {
    /// Altitude above the horizon, radians.
    pub altitude: f64,
    /// Azimuth from south, positive toward west, radians.
    pub azimuth: f64,
    /// Local solar time, hours, where the algorithm gives it.
    pub solar_time: Option<f64>,
}

impl SunPosition {
    /// A position from altitude and azimuth in degrees (RADIANCE's `-ang alt azi`).
    pub fn from_degrees(altitude: f64, azimuth: f64) -> Self {
        SunPosition {
            altitude: altitude.to_radians(),
            azimuth: azimuth.to_radians(),
            solar_time: None,
        }
    }

    /// Unit vector toward the sun: +X east, +Y north, +Z up.
    pub fn direction(&self) -> [f64; 3] {
        let (sa, ca) = self.altitude.sin_cos();
        let (sz, cz) = self.azimuth.sin_cos();
        [-sz * ca, -cz * ca, sa]
    }

    /// Zenith angle, radians.
    pub fn zenith(&self) -> f64 {
        PI / 2.0 - self.altitude
    }
}

/// Day of the year (1 January = 1) in a 365-day year, as RADIANCE counts it (no leap days).
pub fn day_of_year(month: u32, day: u32) -> Result<u32, SolarError> {
    const BEFORE: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    if !(1..=12).contains(&month) {
        return Err(SolarError::Month(month.into()));
    }
    if !(1..=31).contains(&day) {
        return Err(SolarError::Day(day.into()));
    }
    Ok(BEFORE[month as usize - 1] + day)
}

/// Solar declination, radians, for a day of the year (RADIANCE's sine fit).
pub fn declination(day_of_year: u32) -> f64 {
    0.4093 * (2.0 * PI / 365.0 * (day_of_year as f64 - 81.0)).sin()
}

/// Hours to add to local standard time to get solar time: the equation of time (RADIANCE's
/// two-sine fit) plus the longitude correction `(meridian − longitude) / 15`.
pub fn solar_time_offset(site: &Site, day_of_year: u32) -> f64 {
    let d = day_of_year as f64;
    0.170 * (4.0 * PI / 373.0 * (d - 80.0)).sin() - 0.129 * (2.0 * PI / 355.0 * (d - 8.0)).sin()
        + (site.meridian - site.longitude) / 15.0
}

/// Sun altitude and azimuth from declination (radians) and solar time (hours) at a latitude.
pub fn sun_at_solar_time(site: &Site, declination: f64, solar_time: f64) -> SunPosition {
    let lat = site.latitude.to_radians();
    let h = solar_time * (PI / 12.0);
    let (sl, cl) = lat.sin_cos();
    let (sd, cd) = declination.sin_cos();
    let altitude = (sl * sd - cl * cd * h.cos()).asin();
    let azimuth = -(cd * h.sin()).atan2(-cl * sd - sl * cd * h.cos());
    SunPosition {
        altitude,
        azimuth,
        solar_time: Some(solar_time),
    }
}

/// The sun as RADIANCE computes it without a year: `hour` is local standard time of
/// `site.meridian` or local solar time, as `kind` says.
pub fn radiance_sun(
    site: &Site,
    month: u32,
    day: u32,
    hour: f64,
    kind: TimeKind,
) -> Result<SunPosition, SolarError> {
    let jd = day_of_year(month, day)?;
    let st = match kind {
        TimeKind::Solar => hour,
        TimeKind::Standard => hour + solar_time_offset(site, jd),
    };
    Ok(sun_at_solar_time(site, declination(jd), st))
}

/// Reduces `x` into `[0, period)`.
fn wrap(x: f64, period: f64) -> f64 {
    x.rem_euclid(period)
}

/// Days from 2000-01-01 12:00 UT for a local standard time, counted as RADIANCE's almanac
/// routine does (Gregorian leap rule simplified to every fourth year, valid 1901–2099).
pub fn almanac_days(
    site: &Site,
    year: i32,
    month: u32,
    day: u32,
    hour: f64,
) -> Result<f64, SolarError> {
    let mut jd = day_of_year(month, day)? as i64;
    if month > 2 && year % 4 == 0 {
        jd += 1;
    }
    let y = (year - 1949) as i64;
    // C's integer division truncates toward zero; so does Rust's.
    jd += y * 365 + y / 4;
    let utc_hour = hour + site.meridian / 15.0;
    Ok(jd as f64 + utc_hour / 24.0 + (2_432_916.5 - 2_451_545.0))
}

/// Solar declination (radians) and local solar time (hours) from [`almanac_days`], by the
/// Astronomical Almanac's low-precision formulas (Michalsky 1988).
pub fn almanac_declination(site: &Site, days: f64) -> (f64, f64) {
    let deg = PI / 180.0;
    let mean_lon = wrap(280.460 * deg + 0.985_647_4 * deg * days, 2.0 * PI);
    let anomaly = wrap(357.528 * deg + 0.985_600_3 * deg * days, 2.0 * PI);
    let ecl_lon = mean_lon + 1.915 * deg * anomaly.sin() + 0.020 * deg * (2.0 * anomaly).sin();
    let obliquity = 23.439 * deg - 4e-7 * deg * days;
    let sin_l = ecl_lon.sin();
    let right_asc = (sin_l * obliquity.cos()).atan2(ecl_lon.cos());
    let ut = 24.0 * (days - days.floor()) + 12.0;
    let gmst = 6.697375 + 0.065_709_824_2 * days + ut;
    let lmst = gmst - site.longitude / 15.0;
    let solar_time = wrap(lmst - right_asc * (12.0 / PI) + 12.0, 24.0);
    ((obliquity.sin() * sin_l).asin(), solar_time)
}

/// The sun as RADIANCE computes it with a year (`gensky -y`, `gendaylit -y`): the almanac
/// declination and, for standard time, the almanac solar time.
pub fn michalsky_sun(
    site: &Site,
    year: i32,
    month: u32,
    day: u32,
    hour: f64,
    kind: TimeKind,
) -> Result<SunPosition, SolarError> {
    let days = almanac_days(site, year, month, day, hour)?;
    let (dec, st) = almanac_declination(site, days);
    let st = if kind == TimeKind::Solar { hour } else { st };
    Ok(sun_at_solar_time(site, dec, st))
}

/// Atmospheric conditions for the refraction correction of [`precise_sun`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Atmosphere {
    /// Mean annual pressure, millibars.
    pub pressure: f64,
    /// Mean annual temperature, °C.
    pub temperature: f64,
}

/// A calendar date and local standard time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CivilTime {
    /// Year (Gregorian).
    pub year: i32,
    /// Month 1–12.
    pub month: u32,
    /// Day 1–31.
    pub day: u32,
    /// Hour of local standard time, fractional (12.5 = 12:30).
    pub hour: f64,
}

/// Julian date (UT) of a Gregorian calendar date with a fractional day (Meeus, ch. 7).
pub fn julian_date(year: i32, month: u32, day: f64) -> f64 {
    let (y, m) = if month <= 2 {
        (year as f64 - 1.0, month as f64 + 12.0)
    } else {
        (year as f64, month as f64)
    };
    let a = (y / 100.0).floor();
    let b = 2.0 - a + (a / 4.0).floor();
    (365.25 * (y + 4716.0)).floor() + (30.6001 * (m + 1.0)).floor() + day + b - 1524.5
}

/// The true topocentric sun by NREL's SPA (through the `solar-positioning` crate): `time` is
/// local standard time of `site.meridian` (west positive, so `meridian / 15` hours behind UTC),
/// `elevation` metres above sea level, `delta_t` = TT − UT1 in seconds (about 69 s in 2020),
/// and `atmosphere` adds refraction (none: the geometric position).
pub fn precise_sun(
    site: &Site,
    elevation: f64,
    time: CivilTime,
    delta_t: f64,
    atmosphere: Option<Atmosphere>,
) -> Result<SunPosition, SolarError> {
    use solar_positioning::{time::JulianDate, Location, RefractionCorrection, SolarPositions};
    let CivilTime {
        year,
        month,
        day,
        hour,
    } = time;
    day_of_year(month, day)?;
    let err = |e: solar_positioning::Error| SolarError::Precise(e.to_string());
    let utc_day = day as f64 + (hour + site.meridian / 15.0) / 24.0;
    let jd = JulianDate::new(julian_date(year, month, utc_day), delta_t).map_err(err)?;
    let location = Location {
        latitude: site.latitude,
        longitude: -site.longitude,
    };
    let refraction = atmosphere
        .map(|a| RefractionCorrection::new(a.pressure, a.temperature))
        .transpose()
        .map_err(err)?;
    let pos = SolarPositions::new()
        .at_from_julian(jd, location, elevation, refraction)
        .map_err(err)?;
    Ok(SunPosition {
        altitude: (90.0 - pos.zenith_angle()).to_radians(),
        // SPA's azimuth runs clockwise from north; RADIANCE's from south toward west.
        azimuth: (pos.azimuth() - 180.0).to_radians(),
        solar_time: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn julian_date_matches_meeus_examples() {
        // Meeus, Astronomical Algorithms, example 7.a: 1957 October 4.81 = JD 2436116.31.
        assert!((julian_date(1957, 10, 4.81) - 2_436_116.31).abs() < 1e-6);
        assert!((julian_date(2000, 1, 1.5) - 2_451_545.0).abs() < 1e-9);
    }

    #[test]
    fn direction_points_south_at_zero_azimuth() {
        let d = SunPosition::from_degrees(30.0, 0.0).direction();
        assert!(d[0].abs() < 1e-12 && d[1] < 0.0 && (d[2] - 0.5).abs() < 1e-12);
    }
}
