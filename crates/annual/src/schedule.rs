//! Occupancy: which time steps of the weather year count in the metrics.
//!
//! A [`Schedule`] holds one flag per weather record (`daylit_sky::weather::Record`), in the
//! same order, so `schedule.is_occupied(k)` speaks of the same hour as column `k` of a sky
//! matrix made from that weather file.
//!
//! # Time convention
//! `Record::hour` is the local standard time at the *middle* of the hour a record covers
//! (0.5 … 23.5; EPW and TMY3 hour-ending labels `h` are read as `h - 0.5`). The default
//! schedule ([`Schedule::office`]) marks a record occupied when that time `t` satisfies
//! `8 ≤ t < 18`: for hourly data, exactly the hours whose interval `[h, h+1)` lies within
//! 8:00–18:00, ten a day (3650 in an 8760-hour year, 3660 in 8784). No daylight-saving shift
//! is applied, as LM-83 asks for standard time.
//!
//! # Schedule files
//! [`Schedule::read`] takes a CSV with one row per weather record, in either form:
//! - DAYSIM style, `month,day,hour,occupancy`: each row is checked against the weather
//!   record of the same index (same month and day, hour within half an hour of the record's
//!   mid-hour time, so mid-hour `8.5`, hour-ending `9` and hour-starting `8` all match the
//!   record covering 8:00–9:00);
//! - one occupancy value per line.
//!
//! Fields may be separated by commas, semicolons or white space. Lines starting with `#`
//! and blank lines are skipped anywhere; lines that are not numbers are skipped as headers
//! only before the first data row. **Occupancy rule:** a value greater than 0 means
//! occupied (a fraction such as 0.5 counts as occupied), 0 means unoccupied; negative or
//! non-numeric values are errors. The number of data rows must equal the number of weather
//! records.

use daylit_sky::weather::Record;
use std::path::Path;

/// Start of the default occupied period, hours local standard time.
pub const DEFAULT_START_HOUR: f64 = 8.0;
/// End (exclusive) of the default occupied period, hours local standard time.
pub const DEFAULT_END_HOUR: f64 = 18.0;

/// Reading a schedule file failed.
#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    /// The file could not be read.
    #[error("{file}: cannot read schedule")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A line did not hold what was expected there.
    #[error("{file}:{line}: {message}")]
    Line {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was found and what was expected.
        message: String,
    },
    /// The file as a whole is wrong (too few rows, no rows).
    #[error("{file}: {message}")]
    File {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// Occupancy flags, one per weather record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    occupied: Vec<bool>,
}

impl Schedule {
    /// The default LM-83 schedule, 8:00–18:00 local standard time every day (see the module
    /// documentation for the exact rule).
    pub fn office(records: &[Record]) -> Schedule {
        Schedule::daily(records, DEFAULT_START_HOUR, DEFAULT_END_HOUR)
    }

    /// Occupied every day when the record's time `t` (`Record::hour`, mid-interval) satisfies
    /// `start ≤ t < end`.
    pub fn daily(records: &[Record], start: f64, end: f64) -> Schedule {
        Schedule {
            occupied: records
                .iter()
                .map(|r| r.hour >= start && r.hour < end)
                .collect(),
        }
    }

    /// A schedule from explicit flags (`true` = occupied), one per hour.
    pub fn from_flags(occupied: Vec<bool>) -> Schedule {
        Schedule { occupied }
    }

    /// Reads a schedule file that must line up with `records` (see the module documentation).
    pub fn read(path: &Path, records: &[Record]) -> Result<Schedule, ScheduleError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| ScheduleError::Io {
            file: file.clone(),
            source,
        })?;
        Schedule::parse(&String::from_utf8_lossy(&bytes), &file, records)
    }

    /// Parses schedule text; `file` names it in errors.
    pub fn parse(text: &str, file: &str, records: &[Record]) -> Result<Schedule, ScheduleError> {
        let line_err = |line: usize, message: String| ScheduleError::Line {
            file: file.to_string(),
            line,
            message,
        };
        let mut occupied = Vec::with_capacity(records.len());
        // Fields per data row, fixed by the first one (1 or 4).
        let mut form: Option<usize> = None;
        let mut last_line = 0;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim_start_matches('\u{feff}').trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line
                .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
                .filter(|f| !f.is_empty())
                .collect();
            let numbers: Option<Vec<f64>> = fields
                .iter()
                .map(|f| f.parse::<f64>().ok().filter(|v| v.is_finite()))
                .collect();
            let Some(numbers) = numbers else {
                if form.is_none() {
                    continue; // a header line before the data
                }
                return Err(line_err(
                    n,
                    format!(
                        "expected {}, found '{}'",
                        describe(form.unwrap_or(1)),
                        clip(line)
                    ),
                ));
            };
            let expected = *form.get_or_insert(numbers.len());
            if expected != 1 && expected != 4 {
                return Err(line_err(
                    n,
                    format!(
                        "expected 'month,day,hour,occupancy' or one occupancy value per line, \
                         found {} fields",
                        numbers.len()
                    ),
                ));
            }
            if numbers.len() != expected {
                return Err(line_err(
                    n,
                    format!(
                        "expected {}, found {} fields",
                        describe(expected),
                        numbers.len()
                    ),
                ));
            }
            let k = occupied.len();
            let Some(rec) = records.get(k) else {
                return Err(line_err(
                    n,
                    format!(
                        "one row too many: the weather has {} hours and this is row {}",
                        records.len(),
                        k + 1
                    ),
                ));
            };
            let value = *numbers.last().unwrap_or(&0.0);
            if expected == 4 {
                let (m, d, h) = (numbers[0], numbers[1], numbers[2]);
                let lines_up = m == rec.month as f64
                    && d == rec.day as f64
                    && (h - rec.hour).abs() <= 0.5 + 1e-6;
                if !lines_up {
                    return Err(line_err(
                        n,
                        format!(
                            "row {} is for month {m}, day {d}, hour {h}, but weather hour {} \
                             is month {}, day {}, hour {} (mid-hour); expected the same day \
                             and an hour within 0.5 of it",
                            k + 1,
                            k + 1,
                            rec.month,
                            rec.day,
                            rec.hour
                        ),
                    ));
                }
            }
            if value < 0.0 {
                return Err(line_err(
                    n,
                    format!("occupancy {value} is negative (expected 0 or 1)"),
                ));
            }
            occupied.push(value > 0.0);
            last_line = n;
        }
        if occupied.len() != records.len() {
            let file = file.to_string();
            let message = if occupied.is_empty() {
                format!(
                    "no schedule rows; expected {} ('month,day,hour,occupancy' or one value \
                     per line)",
                    records.len()
                )
            } else {
                format!(
                    "{} schedule rows (last at line {last_line}); expected {}, one per weather \
                     hour",
                    occupied.len(),
                    records.len()
                )
            };
            return Err(ScheduleError::File { file, message });
        }
        Ok(Schedule { occupied })
    }

    /// Number of hours (occupied or not).
    pub fn len(&self) -> usize {
        self.occupied.len()
    }

    /// Whether the schedule covers no hours.
    pub fn is_empty(&self) -> bool {
        self.occupied.is_empty()
    }

    /// Number of occupied hours.
    pub fn occupied_hours(&self) -> usize {
        self.occupied.iter().filter(|&&o| o).count()
    }

    /// Whether hour `k` (index into the weather records) is occupied; `false` past the end.
    pub fn is_occupied(&self, k: usize) -> bool {
        self.occupied.get(k).copied().unwrap_or(false)
    }

    /// The flags, one per hour.
    pub fn flags(&self) -> &[bool] {
        &self.occupied
    }

    /// Indices of the occupied hours, ascending.
    pub fn occupied_indices(&self) -> Vec<usize> {
        (0..self.occupied.len())
            .filter(|&k| self.occupied[k])
            .collect()
    }
}

fn describe(fields: usize) -> &'static str {
    if fields == 4 {
        "'month,day,hour,occupancy' (4 numbers, as the first data row)"
    } else {
        "one occupancy value (as the first data row)"
    }
}

/// A line shortened for an error message.
fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}
