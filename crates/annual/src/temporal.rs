//! Temporal maps: the year as a picture, one column per day and one row per hour of the day
//! (midnight at the top), each cell coloured by a value of that hour over the whole room:
//! the room's mean illuminance, or how many sensors get direct sun above ASE's threshold.
//! Hours of zero (night, or no sensor in the sun) are dark grey; unoccupied hours are drawn
//! pale, so the hours that count for the metrics stand out; hours the weather file does not
//! cover are left white. Records are placed by their month, day and the
//! hour at the middle of their interval; several in one hour (sub-hourly data) are averaged.

use crate::maps::{edge_label, lux_bands};
use crate::metrics::Illuminance;
use crate::report::{write_atomic, ReportError};
use crate::schedule::Schedule;
use daylit_falsecolor::legend::{ColourScale, LabelStyle};
use daylit_falsecolor::{Bands, Palette, Raster};
use daylit_sky::weather::Record;
use std::path::{Path, PathBuf};

/// Width of a temporal map, pixels.
pub const TEMPORAL_WIDTH: u32 = 1000;
/// Height of a temporal map, pixels.
pub const TEMPORAL_HEIGHT: u32 = 420;

/// Plot area: left, top; each day is `DAY_PX` wide, each hour `HOUR_PX` high.
const PLOT: (i32, i32) = (70, 70);
const DAY_PX: i32 = 2;
const HOUR_PX: i32 = 12;

const INK: [u8; 3] = [20, 20, 20];
const NO_DATA: [u8; 3] = [255, 255, 255];
/// Hours with nothing to show (no daylight, no sensor in the sun).
const NONE: [u8; 3] = [70, 70, 70];

/// Days before each month in a common year.
const MONTH_START: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// What a temporal map shows.
#[derive(Clone, Debug, PartialEq)]
pub struct TemporalSpec {
    /// Title above the map.
    pub title: String,
    /// A second line (may be empty).
    pub subtitle: String,
    /// Heading of the legend.
    pub unit: String,
    /// The colour bands.
    pub bands: Bands,
    /// The palette the bands take their colours from.
    pub palette: Palette,
    /// Colours of the bands, lowest first, instead of the palette's (when not empty: one per
    /// band, e.g. green to red for comfort classes).
    pub colours: Vec<[u8; 3]>,
    /// The line under the map (what pale, grey and white mean).
    pub note: String,
}

/// The note under the maps of [`write_temporal_maps`].
const NOTE: &str =
    "day of the year; dark grey: none; pale: unoccupied hours; white: no weather data";

/// The mean over sensors at each hour.
pub fn room_mean(lux: &Illuminance) -> Vec<f64> {
    (0..lux.hours)
        .map(|h| {
            let sum: f64 = (0..lux.sensors).map(|s| lux.at(s, h) as f64).sum();
            sum / lux.sensors.max(1) as f64
        })
        .collect()
}

/// The number of sensors at or above `threshold` at each hour.
pub fn count_at_least(lux: &Illuminance, threshold: f32) -> Vec<f64> {
    (0..lux.hours)
        .map(|h| {
            (0..lux.sensors)
                .filter(|&s| lux.at(s, h) >= threshold)
                .count() as f64
        })
        .collect()
}

/// Day of the year (0-based) of a record; `leap` years have a 29 February.
fn day_of_year(r: &Record, leap: bool) -> usize {
    let m = r.month.clamp(1, 12) as usize;
    let extra = usize::from(leap && m > 2);
    MONTH_START[m - 1] as usize + r.day.max(1) as usize - 1 + extra
}

/// The values on a days × 24 grid (day-major), `None` where no record falls; and the
/// occupancy of each cell (any occupied record).
fn grid(
    records: &[Record],
    values: &[f64],
    schedule: Option<&Schedule>,
) -> (usize, Vec<Option<f64>>, Vec<bool>) {
    let leap = records.iter().any(|r| r.month == 2 && r.day == 29);
    let days = if leap { 366 } else { 365 };
    let mut sum = vec![(0.0, 0u32); days * 24];
    let mut occupied = vec![false; days * 24];
    for (k, (r, &v)) in records.iter().zip(values).enumerate() {
        let d = day_of_year(r, leap).min(days - 1);
        let h = (r.hour.floor().clamp(0.0, 23.0)) as usize;
        let cell = &mut sum[d * 24 + h];
        cell.0 += v;
        cell.1 += 1;
        if schedule.is_none_or(|s| k < s.len() && s.is_occupied(k)) {
            occupied[d * 24 + h] = true;
        }
    }
    let cells = sum
        .into_iter()
        .map(|(s, n)| (n > 0).then(|| s / n as f64))
        .collect();
    (days, cells, occupied)
}

/// The colour of band `k`.
fn band_rgb(spec: &TemporalSpec, k: usize) -> [u8; 3] {
    match spec.colours.get(k) {
        Some(&c) => c,
        None => spec.palette.display8(spec.bands.position(k)),
    }
}

/// Draws a temporal map of one value per weather record and returns the PNG file's bytes.
pub fn temporal_png(
    records: &[Record],
    values: &[f64],
    schedule: Option<&Schedule>,
    spec: &TemporalSpec,
) -> Result<Vec<u8>, ReportError> {
    if values.len() != records.len() {
        return Err(ReportError::Mismatch(format!(
            "{} weather records but {} values for map '{}'",
            records.len(),
            values.len(),
            spec.title
        )));
    }
    let (days, cells, occupied) = grid(records, values, schedule);
    let mut r = Raster::new(
        TEMPORAL_WIDTH as usize,
        TEMPORAL_HEIGHT as usize,
        [255u8; 3],
    );
    let (px0, py0) = PLOT;
    let (px1, py1) = (px0 + DAY_PX * days as i32 - 1, py0 + HOUR_PX * 24 - 1);
    for d in 0..days {
        for h in 0..24 {
            let k = d * 24 + h;
            let c = match cells[k] {
                None => NO_DATA,
                Some(v) => {
                    let c = if v > 0.0 {
                        band_rgb(spec, spec.bands.band(v))
                    } else {
                        NONE
                    };
                    if occupied[k] {
                        c
                    } else {
                        // Pale, as a tint towards white.
                        c.map(|x| (x as f32 + (255.0 - x as f32) * 0.55).round() as u8)
                    }
                }
            };
            let (x, y) = (px0 + d as i32 * DAY_PX, py0 + h as i32 * HOUR_PX);
            r.rect(x, y, x + DAY_PX - 1, y + HOUR_PX - 1, c);
        }
    }
    r.outline(px0, py0, px1, py1, INK);
    r.text(
        &spec.title,
        20.0,
        TEMPORAL_WIDTH as f32 / 2.0,
        22.0,
        0.5,
        INK,
    );
    if !spec.subtitle.is_empty() {
        r.text(
            &spec.subtitle,
            14.0,
            TEMPORAL_WIDTH as f32 / 2.0,
            46.0,
            0.5,
            INK,
        );
    }
    // Months along the bottom, hours down the left.
    let leap = days == 366;
    for (m, name) in MONTHS.iter().enumerate() {
        let start = MONTH_START[m] as i32 + i32::from(leap && m >= 2);
        let x = px0 + start * DAY_PX;
        r.rect(x, py1 + 1, x, py1 + 6, INK);
        let next = if m == 11 {
            days as i32
        } else {
            MONTH_START[m + 1] as i32 + i32::from(leap && m + 1 >= 2)
        };
        let mid = px0 + (start + next) * DAY_PX / 2;
        r.text(name, 12.0, mid as f32, (py1 + 16) as f32, 0.5, INK);
    }
    for h in (0..=24).step_by(3) {
        let y = py0 + h * HOUR_PX;
        r.rect(px0 - 5, y, px0 - 1, y, INK);
        r.text(
            &format!("{h}:00"),
            12.0,
            (px0 - 8) as f32,
            y as f32,
            1.0,
            INK,
        );
    }
    r.text(
        &spec.note,
        12.0,
        ((px0 + px1) / 2) as f32,
        (py1 + 36) as f32,
        0.5,
        INK,
    );
    // Legend on the right.
    let (bx0, bx1) = (px1 + 40, px1 + 62);
    let (by0, by1) = (py0 + 20, py1);
    let n = spec.bands.count() as i32;
    let rows = by1 - by0 + 1;
    let band_at = |y: i32| (n - 1 - ((y - by0) * n / rows).clamp(0, n - 1)) as usize;
    let fill = |y: i32| band_rgb(spec, band_at(y));
    let labels = spec
        .bands
        .edges()
        .iter()
        .enumerate()
        .map(|(k, &e)| {
            let y = by1 as f32 + 1.0 - rows as f32 * k as f32 / n as f32;
            (edge_label(e, false), y.min(by1 as f32))
        })
        .collect();
    ColourScale {
        columns: (bx0, bx1),
        rows: (by0, by1),
        fill: &fill,
        title: Some((spec.unit.clone(), (by0 - 16) as f32)),
        labels,
        text_size: 12.0,
        style: LabelStyle::Beside { ink: INK, tick: 4 },
    }
    .draw(&mut r);
    r.png().map_err(|e| ReportError::Draw {
        title: spec.title.clone(),
        message: e.to_string(),
    })
}

/// The bands for counts up to `n`: one sensor and more, then even steps of a round size up
/// to `n`.
pub fn count_bands(n: usize) -> Bands {
    let n = n.max(2) as f64;
    let step = [
        1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0,
    ]
    .into_iter()
    .find(|s| n / s <= 8.0)
    .unwrap_or_else(|| (n / 8.0).ceil());
    let mut edges = vec![1.0];
    let mut e = step;
    while edges.last().is_some_and(|&l| l < n) {
        if e > 1.0 {
            edges.push(e);
        }
        e += step;
    }
    Bands::new(edges).expect("increasing edges")
}

/// Writes the two temporal maps into `dir` and returns their paths: `temporal_lux.png` (the
/// room's mean illuminance, logarithmic bands) and, with direct-sun input,
/// `temporal_sun.png` (sensors with direct sun at or above `sun_threshold` lux), each with
/// `provenance` in its text chunks when given.
pub fn write_temporal_maps(
    dir: &Path,
    records: &[Record],
    schedule: Option<&Schedule>,
    total: &Illuminance,
    sun: Option<&Illuminance>,
    sun_threshold: f32,
    provenance: Option<&daylit_radfile::Provenance>,
) -> Result<Vec<PathBuf>, ReportError> {
    let text = provenance.map(|p| p.png_text()).unwrap_or_default();
    let mut written = Vec::new();
    let mean = room_mean(total);
    let positive: Vec<f64> = mean.iter().copied().filter(|&v| v > 0.0).collect();
    let spec = TemporalSpec {
        title: "Mean illuminance over the room, hour by hour".into(),
        subtitle: format!("{} sensors; logarithmic bands", total.sensors),
        unit: "lux".into(),
        bands: lux_bands(&positive),
        palette: Palette::Viridis,
        colours: Vec::new(),
        note: NOTE.into(),
    };
    let path = dir.join("temporal_lux.png");
    let png = temporal_png(records, &mean, schedule, &spec)?;
    write_atomic(&path, &crate::maps::stamped(png, &text, &spec.title)?)?;
    written.push(path);
    if let Some(sun) = sun {
        let count = count_at_least(sun, sun_threshold);
        let hours = count
            .iter()
            .enumerate()
            .filter(|&(k, &c)| c > 0.0 && schedule.is_none_or(|s| k < s.len() && s.is_occupied(k)))
            .count();
        let most = count.iter().copied().fold(0.0, f64::max) as usize;
        let spec = TemporalSpec {
            title: format!("Sensors in direct sun ≥ {sun_threshold} lux, hour by hour"),
            subtitle: format!(
                "of {} sensors; {hours} occupied hours with direct sun on at least one",
                sun.sensors
            ),
            unit: "sensors".into(),
            bands: count_bands(most),
            palette: Palette::Viridis,
            colours: Vec::new(),
            note: NOTE.into(),
        };
        let path = dir.join("temporal_sun.png");
        let png = temporal_png(records, &count, schedule, &spec)?;
        write_atomic(&path, &crate::maps::stamped(png, &text, &spec.title)?)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(month: u32, day: u32, hour: f64) -> Record {
        Record {
            month,
            day,
            hour,
            direct: 0.0,
            diffuse: 0.0,
            dew_point: None,
        }
    }

    #[test]
    fn records_land_on_their_day_and_hour() {
        let recs = [
            record(1, 1, 0.5),
            record(3, 1, 12.5),
            record(3, 1, 12.75),
            record(12, 31, 23.5),
        ];
        let (days, cells, occ) = grid(&recs, &[1.0, 2.0, 4.0, 8.0], None);
        assert_eq!(days, 365);
        assert_eq!(cells[0], Some(1.0));
        assert_eq!(cells[59 * 24 + 12], Some(3.0)); // two records in one hour: their mean
        assert_eq!(cells[364 * 24 + 23], Some(8.0));
        assert_eq!(cells.iter().filter(|c| c.is_some()).count(), 3);
        assert!(occ[0]);
        // A leap year shifts March by a day.
        let recs = [record(2, 29, 0.5), record(3, 1, 0.5)];
        let (days, cells, _) = grid(&recs, &[1.0, 2.0], None);
        assert_eq!(days, 366);
        assert_eq!((cells[59 * 24], cells[60 * 24]), (Some(1.0), Some(2.0)));
    }

    #[test]
    fn room_means_counts_and_bands() {
        // 2 sensors × 3 hours, sensor-major.
        let v = [0.0f32, 500.0, 2000.0, 0.0, 1500.0, 100.0];
        let lux = Illuminance::sensor_major(&v, 2, 3);
        assert_eq!(room_mean(&lux), vec![0.0, 1000.0, 1050.0]);
        assert_eq!(count_at_least(&lux, 1000.0), vec![0.0, 1.0, 1.0]);
        assert_eq!(count_bands(4).edges(), &[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(count_bands(0).edges(), &[1.0, 2.0]);
        assert_eq!(count_bands(336).edges()[..3], [1.0, 50.0, 100.0]);
        assert_eq!(count_bands(336).edges().last(), Some(&350.0));
        let recs: Vec<Record> = (0..3).map(|h| record(6, 21, h as f64 + 0.5)).collect();
        let spec = TemporalSpec {
            title: "t".into(),
            subtitle: String::new(),
            unit: "lux".into(),
            bands: lux_bands(&[1000.0, 1050.0]),
            palette: Palette::Viridis,
            colours: Vec::new(),
            note: NOTE.into(),
        };
        let png = temporal_png(&recs, &room_mean(&lux), None, &spec).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(temporal_png(&recs, &[1.0], None, &spec).is_err());
    }
}
