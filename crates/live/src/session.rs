//! The scene of a live session: the user's files plus a sky for a date and time — Perez from
//! the weather file (gendaylit), or a CIE clear, intermediate or overcast sky (gensky) — and
//! the renderer over both, rebuilt when the time or the sky changes.

use crate::LiveError;
use daylit_compile::compile;
use daylit_scene::{load_scene_then_text, LoadOptions};
use daylit_sky::weather::{Quantities, Weather};
use daylit_transport::{Options, Renderer};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The sky model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SkyKind {
    /// Perez all-weather sky from the weather file's irradiances for that hour.
    Perez,
    /// CIE clear sky with sun.
    Clear,
    /// CIE intermediate sky with sun.
    Intermediate,
    /// CIE overcast sky.
    Overcast,
}

impl SkyKind {
    /// Parses `perez`, `clear`, `intermediate` or `overcast`.
    pub fn parse(s: &str) -> Result<SkyKind, String> {
        match s {
            "perez" => Ok(SkyKind::Perez),
            "clear" => Ok(SkyKind::Clear),
            "intermediate" => Ok(SkyKind::Intermediate),
            "overcast" => Ok(SkyKind::Overcast),
            _ => Err(format!(
                "unknown sky \"{s}\" (perez, clear, intermediate or overcast)"
            )),
        }
    }
}

/// A date and local standard time (no year: skies repeat every year).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkyTime {
    /// 1–12.
    pub month: u32,
    /// 1–31 (checked against the month).
    pub day: u32,
    /// 0–23.
    pub hour: u32,
    /// 0–59.
    pub minute: u32,
}

const MONTH_DAYS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

impl SkyTime {
    /// Parses `MM-DD HH:MM` (or `MM-DDTHH:MM`).
    pub fn parse(s: &str) -> Result<SkyTime, String> {
        let err = || format!("time \"{s}\": expected 'MM-DD HH:MM'");
        let (date, time) = s.trim().split_once([' ', 'T']).ok_or_else(err)?;
        let (m, d) = date.split_once('-').ok_or_else(err)?;
        let (h, mi) = time.trim().split_once(':').ok_or_else(err)?;
        let num = |w: &str| w.trim().parse::<u32>().map_err(|_| err());
        let t = SkyTime {
            month: num(m)?,
            day: num(d)?,
            hour: num(h)?,
            minute: num(mi)?,
        };
        t.check()?;
        Ok(t)
    }

    /// Checks the ranges.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=12).contains(&self.month) {
            return Err(format!("month {} is not 1–12", self.month));
        }
        let days = MONTH_DAYS[self.month as usize - 1];
        if !(1..=days).contains(&self.day) {
            return Err(format!("day {} is not 1–{days}", self.day));
        }
        if self.hour > 23 || self.minute > 59 {
            return Err(format!(
                "time {}:{:02} is not 00:00–23:59",
                self.hour, self.minute
            ));
        }
        Ok(())
    }

    /// Decimal hours.
    pub fn hours(&self) -> f64 {
        self.hour as f64 + self.minute as f64 / 60.0
    }
}

/// Sky model and time: what a sky is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkySetting {
    /// The model.
    pub kind: SkyKind,
    /// Date and time.
    pub time: SkyTime,
}

/// The glowing hemispheres the sky function lights (as RADIANCE users write them).
const SKY_DOME: &str = "
skyfunc glow sky_glow
0
0
4 1 1 1 0

sky_glow source sky
0
0
4 0 0 1 180

skyfunc glow ground_glow
0
0
4 1 1 1 0

ground_glow source ground
0
0
4 0 0 -1 180
";

/// The scene text of a sky, and a line that describes it.
pub fn sky_text(s: &SkySetting, weather: Option<&Weather>) -> Result<(String, String), LiveError> {
    s.time.check().map_err(LiveError::Usage)?;
    let t = s.time;
    let hour = format!("{:.4}", t.hours());
    let mut args: Vec<String> = vec![t.month.to_string(), t.day.to_string(), hour];
    if let Some(w) = weather {
        for (o, v) in [
            ("-a", w.site.latitude),
            ("-o", w.site.longitude),
            ("-m", w.site.meridian),
        ] {
            args.push(o.into());
            args.push(v.to_string());
        }
    }
    let when = format!("{:02}-{:02} {:02}:{:02}", t.month, t.day, t.hour, t.minute);
    let (text, note) = match s.kind {
        SkyKind::Perez => {
            let w = weather.ok_or_else(|| {
                LiveError::Usage("a Perez sky needs a weather file (--weather)".into())
            })?;
            let r = nearest_record(w, &t).ok_or_else(|| {
                LiveError::Usage(format!("the weather file has no record for {when}"))
            })?;
            if r.direct <= 0.0 && r.diffuse <= 0.0 {
                // Night or no data: gendaylit has nothing to model; the sky is dark.
                return Ok((
                    String::new(),
                    format!("{when}: no daylight in the weather file"),
                ));
            }
            let flag = match w.quantities {
                Quantities::RadiometricNormal => "-W",
                Quantities::RadiometricHorizontal => "-G",
                Quantities::PhotometricNormal => "-L",
            };
            args.extend([flag.into(), r.direct.to_string(), r.diffuse.to_string()]);
            let out = daylit_sky::gendaylit::gendaylit_text(&args)
                .map_err(|e| LiveError::Sky(e.to_string()))?;
            let note = format!(
                "{when}: Perez sky, direct {:.0}, diffuse {:.0} ({})",
                r.direct, r.diffuse, w.site.name
            );
            (out.text, note)
        }
        k => {
            args.push(
                match k {
                    SkyKind::Clear => "+s",
                    SkyKind::Intermediate => "+i",
                    _ => "-c",
                }
                .into(),
            );
            let out = daylit_sky::gensky::gensky_text(&args)
                .map_err(|e| LiveError::Sky(e.to_string()))?;
            let name = match k {
                SkyKind::Clear => "CIE clear sky with sun",
                SkyKind::Intermediate => "CIE intermediate sky with sun",
                _ => "CIE overcast sky",
            };
            (out.text, format!("{when}: {name}"))
        }
    };
    Ok((format!("{text}\n{SKY_DOME}"), note))
}

/// The weather record whose hour interval holds the time (records stand for the hour around
/// their mid-interval time).
fn nearest_record<'a>(w: &'a Weather, t: &SkyTime) -> Option<&'a daylit_sky::weather::Record> {
    let h = t.hours();
    w.records
        .iter()
        .filter(|r| r.month == t.month && r.day == t.day)
        .min_by(|a, b| (a.hour - h).abs().total_cmp(&(b.hour - h).abs()))
}

/// Loads the scene files with a sky and prepares a renderer with `options`.
pub fn build_renderer(
    files: &[PathBuf],
    sky: &str,
    options: &Options,
) -> Result<Renderer, LiveError> {
    let scene = load_scene_then_text(files, sky, "sky", &LoadOptions::default())
        .map_err(|e| LiveError::Scene(e.to_string()))?;
    let compiled = compile(&scene);
    let raypath = daylit_cal::RayPath::from_env();
    Renderer::new(scene, compiled, options.clone(), &raypath)
        .map_err(|e| LiveError::Scene(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_and_check() {
        let t = SkyTime::parse("06-21 09:30").unwrap();
        assert_eq!((t.month, t.day, t.hour, t.minute), (6, 21, 9, 30));
        assert_eq!(t.hours(), 9.5);
        for bad in ["02-30 12:00", "00-01 12:00", "01-01 24:00", "1-1", "x"] {
            assert!(SkyTime::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn perez_skies_come_from_the_weather_hour() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/weather/723170TYA.CSV");
        let w = daylit_sky::weather::read_weather(&path).unwrap();
        let at = |s: &str| SkySetting {
            kind: SkyKind::Perez,
            time: SkyTime::parse(s).unwrap(),
        };
        let (noon, note) = sky_text(&at("03-21 12:00"), Some(&w)).unwrap();
        assert!(
            noon.contains("source sun") && noon.contains("sky_glow"),
            "{noon}"
        );
        assert!(
            note.contains("Perez") && note.contains("GREENSBORO"),
            "{note}"
        );
        let (later, _) = sky_text(&at("03-21 15:00"), Some(&w)).unwrap();
        assert_ne!(noon, later, "another hour, another sky");
        let (night, note) = sky_text(&at("03-21 23:00"), Some(&w)).unwrap();
        assert!(night.is_empty() && note.contains("no daylight"), "{note}");
    }

    #[test]
    fn cie_skies_have_a_sun_unless_overcast() {
        let t = SkyTime::parse("06-21 12:00").unwrap();
        let (clear, note) = sky_text(
            &SkySetting {
                kind: SkyKind::Clear,
                time: t,
            },
            None,
        )
        .unwrap();
        assert!(clear.contains("source sun") && clear.contains("sky_glow"));
        assert!(note.contains("clear"));
        let (overcast, _) = sky_text(
            &SkySetting {
                kind: SkyKind::Overcast,
                time: t,
            },
            None,
        )
        .unwrap();
        assert!(!overcast.contains("source sun"));
        assert!(sky_text(
            &SkySetting {
                kind: SkyKind::Perez,
                time: t
            },
            None
        )
        .is_err());
    }
}
