//! Weather files: EnergyPlus EPW, RADIANCE WEA and NREL TMY3 CSV, read into one common form.
//!
//! The format is told apart by content, never by file name: a WEA file starts with `place `,
//! an EPW file with `LOCATION,`, and a TMY3 file has a seven-field site line followed by a
//! column-name line that starts with `Date (MM/DD/YYYY)`.
//!
//! # Sign conventions
//! [`Site`] uses RADIANCE's convention: latitude in degrees north, **longitude and the
//! time-zone meridian in degrees west** (Greensboro, NC is longitude `79.95`, meridian `75`).
//! EPW and TMY3 files store longitude east-positive and the time zone in hours east of
//! Greenwich (`-79.95`, `-5`); they are converted on reading (`longitude = -lon`,
//! `meridian = -15·tz`). WEA files already store west-positive values (`longitude 79.95`,
//! `time_zone 75`) and are taken as they are.
//!
//! # Time convention
//! [`Record::hour`] is the local standard time at the middle of the hour the record covers,
//! as RADIANCE's `epw2wea` writes it: EPW and TMY3 label an hour by its end (hour `1` covers
//! 0:00–1:00), so hour `h` becomes `h - 0.5`. WEA hours are taken as written. EPW files with
//! several records per hour use `h - 1 + minute/60`, as RADIANCE's EPW reader does.

use std::fmt::Write as _;
use std::path::Path;

/// Reading a weather file failed.
#[derive(Debug, thiserror::Error)]
pub enum WeatherError {
    /// The file could not be read.
    #[error("{file}: cannot read")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A line did not hold what the format requires there.
    #[error("{file}:{line}: {message}")]
    Line {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was found and what was expected.
        message: String,
    },
    /// The file as a whole is wrong (unknown format, wrong number of records).
    #[error("{file}: {message}")]
    File {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// Which kind of file the data came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeatherFormat {
    /// EnergyPlus weather file.
    Epw,
    /// RADIANCE weather file (`epw2wea` output).
    Wea,
    /// NREL Typical Meteorological Year 3 CSV.
    Tmy3,
}

/// What the two irradiance numbers of a record mean (WEA `weather_data_file_units`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantities {
    /// Direct-normal and diffuse-horizontal irradiance in W/m² (units `1`; EPW and TMY3).
    RadiometricNormal,
    /// Direct-horizontal and diffuse-horizontal irradiance in W/m² (units `2`).
    RadiometricHorizontal,
    /// Direct-normal and diffuse-horizontal illuminance in lux (units `3`).
    PhotometricNormal,
}

/// Where the weather was recorded, in RADIANCE's conventions (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    /// Place name as the file gives it.
    pub name: String,
    /// Degrees north of the equator.
    pub latitude: f64,
    /// Degrees **west** of Greenwich.
    pub longitude: f64,
    /// Standard meridian of the time zone, degrees **west** of Greenwich.
    pub meridian: f64,
    /// Metres above sea level.
    pub elevation: f64,
}

/// One time step of weather data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    /// Month, 1–12.
    pub month: u32,
    /// Day of the month, 1–31.
    pub day: u32,
    /// Local standard time in decimal hours at the middle of the interval (0.5 … 23.5 for
    /// hourly data).
    pub hour: f64,
    /// Direct irradiance (or illuminance), see [`Weather::quantities`].
    pub direct: f64,
    /// Diffuse-horizontal irradiance (or illuminance), see [`Weather::quantities`].
    pub diffuse: f64,
    /// Dew-point temperature in °C when the file gives one (EPW, TMY3).
    pub dew_point: Option<f64>,
}

/// A whole weather file: the site and its records in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Weather {
    /// The format the data was read from.
    pub format: WeatherFormat,
    /// The site.
    pub site: Site,
    /// What `direct` and `diffuse` mean.
    pub quantities: Quantities,
    /// The records, in file order.
    pub records: Vec<Record>,
}

/// Hours in a common and in a leap year.
const YEAR_HOURS: [usize; 2] = [8760, 8784];

impl Weather {
    /// A note for the user when the data does not cover a whole year (WEA files may hold any
    /// span), e.g. `"partial year: 24 hourly records (a full year has 8760)"`.
    pub fn coverage_note(&self) -> Option<String> {
        let n = self.records.len();
        (!YEAR_HOURS.contains(&n))
            .then(|| format!("partial year: {n} records (a full year has 8760 hourly records)"))
    }

    /// The data as a RADIANCE WEA file (`weather_data_file_units 1` for irradiance), with
    /// numbers written in full so that reading it back gives the same records (less the dew
    /// point, which WEA does not hold).
    pub fn to_wea(&self) -> String {
        let units = match self.quantities {
            Quantities::RadiometricNormal => 1,
            Quantities::RadiometricHorizontal => 2,
            Quantities::PhotometricNormal => 3,
        };
        let s = &self.site;
        let mut out = format!(
            "place {}\nlatitude {}\nlongitude {}\ntime_zone {}\nsite_elevation {}\n\
             weather_data_file_units {units}\n",
            s.name.replace(char::is_whitespace, "_"),
            s.latitude,
            s.longitude,
            s.meridian,
            s.elevation
        );
        for r in &self.records {
            let _ = writeln!(
                out,
                "{} {} {} {} {}",
                r.month, r.day, r.hour, r.direct, r.diffuse
            );
        }
        out
    }
}

/// Reads a weather file of any of the three formats, told apart by content.
pub fn read_weather(path: &Path) -> Result<Weather, WeatherError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| WeatherError::Io {
        file: file.clone(),
        source,
    })?;
    // Station names may be Latin-1; the numbers we need are ASCII either way.
    parse_weather(&String::from_utf8_lossy(&bytes), &file)
}

/// Parses weather-file text; `file` names it in errors.
pub fn parse_weather(text: &str, file: &str) -> Result<Weather, WeatherError> {
    let mut lines = text.lines().map(|l| l.trim_start_matches('\u{feff}'));
    let first = lines.next().unwrap_or("").trim();
    let second = lines.next().unwrap_or("").trim();
    let p = Parser { file };
    if starts_with_ci(first, "place ") || first.eq_ignore_ascii_case("place") {
        wea::parse(text, &p)
    } else if starts_with_ci(first, "LOCATION,") {
        epw::parse(text, &p)
    } else if starts_with_ci(second, "Date (MM/DD/YYYY)") {
        tmy3::parse(text, &p)
    } else {
        Err(p.file_err(
            "not a weather file: expected a WEA header ('place …'), an EPW header \
             ('LOCATION,…') or a TMY3 CSV (site line, then 'Date (MM/DD/YYYY),…')",
        ))
    }
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// Error helpers that know the file name.
struct Parser<'a> {
    file: &'a str,
}

impl Parser<'_> {
    fn line_err(&self, line: usize, message: impl Into<String>) -> WeatherError {
        WeatherError::Line {
            file: self.file.to_string(),
            line,
            message: message.into(),
        }
    }

    fn file_err(&self, message: impl Into<String>) -> WeatherError {
        WeatherError::File {
            file: self.file.to_string(),
            message: message.into(),
        }
    }

    /// A finite number, or an error naming the field.
    fn number(&self, line: usize, word: &str, what: &str) -> Result<f64, WeatherError> {
        word.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                self.line_err(line, format!("expected {what} (a number), found '{word}'"))
            })
    }

    /// A number within `lo..=hi`.
    fn ranged(
        &self,
        line: usize,
        word: &str,
        what: &str,
        lo: f64,
        hi: f64,
    ) -> Result<f64, WeatherError> {
        let v = self.number(line, word, what)?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(self.line_err(
                line,
                format!("{what} {v} is out of range (expected {lo} to {hi})"),
            ))
        }
    }

    /// A whole number within `lo..=hi`.
    fn int(
        &self,
        line: usize,
        word: &str,
        what: &str,
        lo: u32,
        hi: u32,
    ) -> Result<u32, WeatherError> {
        word.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| {
                self.line_err(
                    line,
                    format!("expected {what} (a whole number {lo} to {hi}), found '{word}'"),
                )
            })
    }

    /// Checks that `day` exists in `month` (29 February allowed).
    fn date(&self, line: usize, month: u32, day: u32) -> Result<(), WeatherError> {
        const DAYS: [u32; 12] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        if day >= 1 && day <= DAYS[(month as usize - 1).min(11)] {
            Ok(())
        } else {
            Err(self.line_err(line, format!("day {day} does not exist in month {month}")))
        }
    }

    /// Whole files (EPW, TMY3) must hold a common or a leap year of records.
    fn full_year(&self, n: usize, per_hour: usize, what: &str) -> Result<(), WeatherError> {
        if YEAR_HOURS.iter().any(|&h| h * per_hour == n) {
            Ok(())
        } else {
            Err(self.file_err(format!(
                "{what} holds {n} records; expected a whole year ({} or, for a leap year, {})",
                8760 * per_hour,
                8784 * per_hour
            )))
        }
    }
}

/// Splits a CSV line on commas outside double quotes, removing the quotes.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// A field by index, or an error saying which column is missing.
fn field<'f>(
    p: &Parser,
    fields: &'f [String],
    line: usize,
    i: usize,
    what: &str,
) -> Result<&'f str, WeatherError> {
    fields.get(i).map(String::as_str).ok_or_else(|| {
        p.line_err(
            line,
            format!(
                "missing column {} ({what}): the line has {} fields",
                i + 1,
                fields.len()
            ),
        )
    })
}

fn site_checked(p: &Parser, line: usize, site: Site) -> Result<Site, WeatherError> {
    if site.meridian.abs() > 180.0 {
        return Err(p.line_err(
            line,
            format!(
                "time zone meridian {} is out of range (-180 to 180)",
                site.meridian
            ),
        ));
    }
    Ok(site)
}

mod wea {
    use super::*;

    const KEYS: [&str; 5] = [
        "latitude",
        "longitude",
        "time_zone",
        "site_elevation",
        "weather_data_file_units",
    ];

    pub(super) fn parse(text: &str, p: &Parser) -> Result<Weather, WeatherError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (_, first) = lines.next().unwrap_or((1, ""));
        let name = first.trim().get(5..).unwrap_or("").trim().to_string();
        let mut vals = [0.0; 5];
        for (k, key) in KEYS.iter().enumerate() {
            let (n, line) = lines
                .next()
                .ok_or_else(|| p.file_err(format!("header ends before '{key}'")))?;
            let mut words = line.split_whitespace();
            if words.next() != Some(*key) {
                return Err(p.line_err(n, format!("expected '{key} <number>', found '{line}'")));
            }
            let (lo, hi) = [
                (-90.0, 90.0),
                (-180.0, 180.0),
                (-180.0, 180.0),
                (-1000.0, 9999.9),
                (1.0, 3.0),
            ][k];
            vals[k] = p.ranged(n, words.next().unwrap_or(""), key, lo, hi)?;
        }
        let site = site_checked(
            p,
            4,
            Site {
                name,
                latitude: vals[0],
                longitude: vals[1],
                meridian: vals[2],
                elevation: vals[3],
            },
        )?;
        let quantities = match vals[4] as i32 {
            1 => Quantities::RadiometricNormal,
            2 => Quantities::RadiometricHorizontal,
            _ => Quantities::PhotometricNormal,
        };
        let mut records = Vec::with_capacity(8760);
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            records.push(row(p, n, line)?);
        }
        if records.is_empty() {
            return Err(p.file_err("no data rows after the WEA header"));
        }
        Ok(Weather {
            format: WeatherFormat::Wea,
            site,
            quantities,
            records,
        })
    }

    /// `month day hour direct diffuse [more]`.
    fn row(p: &Parser, n: usize, line: &str) -> Result<Record, WeatherError> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() < 5 {
            return Err(p.line_err(
                n,
                format!(
                    "expected 'month day hour direct diffuse', found {} fields",
                    w.len()
                ),
            ));
        }
        let month = p.int(n, w[0], "month", 1, 12)?;
        let day = p.int(n, w[1], "day", 1, 31)?;
        p.date(n, month, day)?;
        Ok(Record {
            month,
            day,
            hour: p.ranged(n, w[2], "hour", 0.0, 24.0)?,
            direct: p.number(n, w[3], "direct irradiance")?,
            diffuse: p.number(n, w[4], "diffuse irradiance")?,
            dew_point: None,
        })
    }
}

mod epw {
    use super::*;

    /// Columns of an EPW data row (0-based) that we use.
    const DEW_POINT: usize = 7;
    const DNI: usize = 14;
    const DHI: usize = 15;
    /// EPW's "missing" values.
    const MISSING_IRRADIANCE: f64 = 9999.0;
    const MISSING_DEW_POINT: f64 = 99.9;

    pub(super) fn parse(text: &str, p: &Parser) -> Result<Weather, WeatherError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (_, first) = lines.next().unwrap_or((1, ""));
        let site = location(p, first)?;
        // Header lines up to and including DATA PERIODS.
        let mut per_hour = None;
        for (n, line) in lines.by_ref() {
            if starts_with_ci(line, "DATA PERIODS,") {
                let f = csv_fields(line);
                per_hour = Some(p.int(
                    n,
                    field(p, &f, n, 2, "records per hour")?,
                    "records per hour",
                    1,
                    60,
                )?);
                break;
            }
            if line
                .split(',')
                .next()
                .is_some_and(|w| w.trim().parse::<i64>().is_ok())
            {
                return Err(p.line_err(n, "data row before the 'DATA PERIODS,' header line"));
            }
        }
        let per_hour = per_hour
            .ok_or_else(|| p.file_err("no 'DATA PERIODS,' header line (expected on line 8)"))?;
        let mut records = Vec::with_capacity(8760 * per_hour as usize);
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            records.push(row(p, n, line, per_hour)?);
        }
        p.full_year(records.len(), per_hour as usize, "the EPW file")?;
        Ok(Weather {
            format: WeatherFormat::Epw,
            site,
            quantities: Quantities::RadiometricNormal,
            records,
        })
    }

    /// `LOCATION,city,state,country,source,WMO,lat,lon(east+),tz(hours east),elevation`.
    fn location(p: &Parser, line: &str) -> Result<Site, WeatherError> {
        let f = csv_fields(line);
        let num = |i: usize, what: &str, lo: f64, hi: f64| {
            p.ranged(1, field(p, &f, 1, i, what)?, what, lo, hi)
        };
        let latitude = num(6, "latitude", -90.0, 90.0)?;
        let longitude = -num(7, "longitude", -180.0, 180.0)?;
        let meridian = -15.0 * num(8, "time zone (hours)", -12.0, 14.0)?;
        let elevation = num(9, "elevation", -1000.0, 9999.9)?;
        let name = f[1..4.min(f.len())]
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty() && *s != "-")
            .collect::<Vec<_>>()
            .join(", ");
        site_checked(
            p,
            1,
            Site {
                name,
                latitude,
                longitude,
                meridian,
                elevation,
            },
        )
    }

    fn row(p: &Parser, n: usize, line: &str, per_hour: u32) -> Result<Record, WeatherError> {
        let f = csv_fields(line);
        let month = p.int(n, field(p, &f, n, 1, "month")?, "month", 1, 12)?;
        let day = p.int(n, field(p, &f, n, 2, "day")?, "day", 1, 31)?;
        p.date(n, month, day)?;
        let hour = p.int(n, field(p, &f, n, 3, "hour")?, "hour", 1, 24)? as f64;
        let minute = p.number(n, field(p, &f, n, 4, "minute")?, "minute")?;
        let hour = if per_hour == 1 {
            hour - 0.5
        } else {
            hour - 1.0 + minute / 60.0
        };
        let dew = p.number(
            n,
            field(p, &f, n, DEW_POINT, "dew-point temperature")?,
            "dew-point temperature",
        )?;
        let direct = p.number(
            n,
            field(p, &f, n, DNI, "direct normal irradiance")?,
            "direct normal irradiance",
        )?;
        let diffuse = p.number(
            n,
            field(p, &f, n, DHI, "diffuse horizontal irradiance")?,
            "diffuse horizontal irradiance",
        )?;
        if direct >= MISSING_IRRADIANCE || diffuse >= MISSING_IRRADIANCE {
            return Err(p.line_err(
                n,
                "direct normal or diffuse horizontal irradiance is missing (9999)",
            ));
        }
        Ok(Record {
            month,
            day,
            hour,
            direct,
            diffuse,
            dew_point: (dew < MISSING_DEW_POINT).then_some(dew),
        })
    }
}

mod tmy3 {
    use super::*;

    /// Columns located by the start of their names on line 2.
    struct Columns {
        date: usize,
        time: usize,
        dni: usize,
        dhi: usize,
        dew: Option<usize>,
    }

    pub(super) fn parse(text: &str, p: &Parser) -> Result<Weather, WeatherError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (_, first) = lines.next().unwrap_or((1, ""));
        let site = site_line(p, first)?;
        let (_, names) = lines.next().unwrap_or((2, ""));
        let cols = columns(p, names)?;
        let mut records = Vec::with_capacity(8760);
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            records.push(row(p, n, line, &cols)?);
        }
        p.full_year(records.len(), 1, "the TMY3 file")?;
        Ok(Weather {
            format: WeatherFormat::Tmy3,
            site,
            quantities: Quantities::RadiometricNormal,
            records,
        })
    }

    /// `id,"name",state,tz(hours east),lat,lon(east+),elevation`.
    fn site_line(p: &Parser, line: &str) -> Result<Site, WeatherError> {
        let f = csv_fields(line);
        let num = |i: usize, what: &str, lo: f64, hi: f64| {
            p.ranged(1, field(p, &f, 1, i, what)?, what, lo, hi)
        };
        let meridian = -15.0 * num(3, "time zone (hours)", -12.0, 14.0)?;
        let latitude = num(4, "latitude", -90.0, 90.0)?;
        let longitude = -num(5, "longitude", -180.0, 180.0)?;
        let elevation = num(6, "elevation", -1000.0, 9999.9)?;
        let name = [1, 2]
            .iter()
            .filter_map(|&i| f.get(i).map(|s| s.trim()))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(", ");
        site_checked(
            p,
            1,
            Site {
                name,
                latitude,
                longitude,
                meridian,
                elevation,
            },
        )
    }

    fn columns(p: &Parser, line: &str) -> Result<Columns, WeatherError> {
        let names = csv_fields(line);
        let find = |prefix: &str| names.iter().position(|s| starts_with_ci(s.trim(), prefix));
        let need = |prefix: &str| {
            find(prefix).ok_or_else(|| {
                p.line_err(
                    2,
                    format!("missing column '{prefix}…' in the TMY3 column names"),
                )
            })
        };
        Ok(Columns {
            date: need("Date")?,
            time: need("Time")?,
            dni: need("DNI (")?,
            dhi: need("DHI (")?,
            dew: find("Dew-point"),
        })
    }

    fn row(p: &Parser, n: usize, line: &str, c: &Columns) -> Result<Record, WeatherError> {
        let f = csv_fields(line);
        let date = field(p, &f, n, c.date, "date MM/DD/YYYY")?;
        let mut d = date.split('/');
        let month = p.int(n, d.next().unwrap_or(""), "month (MM/DD/YYYY)", 1, 12)?;
        let day = p.int(n, d.next().unwrap_or(""), "day (MM/DD/YYYY)", 1, 31)?;
        p.date(n, month, day)?;
        let time = field(p, &f, n, c.time, "time HH:MM")?;
        let (hh, mm) = time.split_once(':').unwrap_or((time, "0"));
        let hour = p.int(n, hh, "hour (HH:MM)", 1, 24)? as f64;
        let minute = p.int(n, mm, "minute (HH:MM)", 0, 59)? as f64;
        let dew_point = match c.dew {
            Some(i) => Some(p.number(
                n,
                field(p, &f, n, i, "dew-point temperature")?,
                "dew-point temperature",
            )?),
            None => None,
        };
        Ok(Record {
            month,
            day,
            hour: hour - 0.5 + minute / 60.0,
            direct: p.number(n, field(p, &f, n, c.dni, "DNI")?, "DNI (W/m²)")?,
            diffuse: p.number(n, field(p, &f, n, c.dhi, "DHI")?, "DHI (W/m²)")?,
            dew_point,
        })
    }
}
