//! The scene of a live session: the user's files, read once, with their own sky (their
//! `source` primitives, see [`crate::scene_sky`]) or a sky for a date and time — Perez from the
//! weather file (gendaylit), or a CIE clear, intermediate or overcast sky (gensky) — that
//! replaces every `source` in the files; and the renderer over them, rebuilt when the time or
//! the sky changes.

use crate::scene_sky::SceneSky;
use crate::LiveError;
use daylit_compile::compile;
use daylit_scene::{load_scene, load_scene_text, LoadOptions, PrimType, Scene, SceneBuilder};
use daylit_sky::weather::{Quantities, Weather};
use daylit_transport::{Options, Renderer};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The sky model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SkyKind {
    /// The sky in the user's scene files (their `source` primitives), as they wrote it.
    Scene,
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
    /// The word [`SkyKind::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            SkyKind::Scene => "scene",
            SkyKind::Perez => "perez",
            SkyKind::Clear => "clear",
            SkyKind::Intermediate => "intermediate",
            SkyKind::Overcast => "overcast",
        }
    }

    /// Parses `scene`, `perez`, `clear`, `intermediate` or `overcast`.
    pub fn parse(s: &str) -> Result<SkyKind, String> {
        match s {
            "scene" => Ok(SkyKind::Scene),
            "perez" => Ok(SkyKind::Perez),
            "clear" => Ok(SkyKind::Clear),
            "intermediate" => Ok(SkyKind::Intermediate),
            "overcast" => Ok(SkyKind::Overcast),
            _ => Err(format!(
                "unknown sky \"{s}\" (scene, perez, clear, intermediate or overcast)"
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

    /// The time as the page shows it, `MM-DD HH:MM`.
    pub fn text(&self) -> String {
        format!(
            "{:02}-{:02} {:02}:{:02}",
            self.month, self.day, self.hour, self.minute
        )
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

/// Occupied hours for the opening time: 8:00–18:00 local standard time, `daylit annual`'s
/// default schedule.
const OCCUPIED_HOURS: std::ops::Range<f64> = 8.0..18.0;

/// The time a session with a weather file and no other time opens at: the sunny occupied hour
/// nearest the March equinox noon ([`crate::config::DEFAULT_TIME`]), so the first picture
/// shows sun where the building lets it in. Sunny: the record's direct part at least half the
/// largest of the file's occupied records (in whatever quantity the file gives). `None` when
/// the file has no direct sun in occupied hours.
pub fn sunny_occupied_time(w: &Weather) -> Option<SkyTime> {
    let occupied = || {
        w.records
            .iter()
            .filter(|r| OCCUPIED_HOURS.contains(&r.hour))
    };
    let peak = occupied().map(|r| r.direct).fold(0.0, f64::max);
    if peak <= 0.0 {
        return None;
    }
    let target = crate::config::DEFAULT_TIME;
    let hours_of_year = |month: u32, day: u32, hour: f64| {
        let before: u32 = MONTH_DAYS[..month as usize - 1].iter().sum();
        (before + day - 1) as f64 * 24.0 + hour
    };
    let t0 = hours_of_year(target.month, target.day, target.hours());
    let r = occupied()
        .filter(|r| r.direct >= 0.5 * peak && (1..=12).contains(&r.month))
        .min_by(|a, b| {
            let d = |r: &daylit_sky::weather::Record| {
                (hours_of_year(r.month, r.day, r.hour) - t0).abs()
            };
            d(a).total_cmp(&d(b))
        })?;
    let minutes = (r.hour * 60.0).round() as u32;
    Some(SkyTime {
        month: r.month,
        day: r.day,
        hour: minutes / 60,
        minute: minutes % 60,
    })
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

/// The scene text of a generated sky, and a line that describes it ([`SkyKind::Scene`] has
/// none: its text is in the user's files).
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
    let when = t.text();
    let (text, note) = match s.kind {
        SkyKind::Scene => return Ok((String::new(), "the sky in the scene files".into())),
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

/// The user's scene files, read once, and the sky they hold.
#[derive(Clone, Debug)]
pub struct UserScene {
    /// The files, in order.
    pub files: Vec<PathBuf>,
    /// Everything they hold, their `source` primitives included.
    pub scene: Scene,
    /// Their sky, if they have one.
    pub sky: Option<SceneSky>,
}

impl UserScene {
    /// Reads `files` (RADIANCE scene files, `!command` lines, OBJ or binary scenes).
    pub fn load(files: &[PathBuf]) -> Result<UserScene, LiveError> {
        let scene = load_scene(files, &LoadOptions::default())
            .map_err(|e| LiveError::Scene(e.to_string()))?;
        // Surfaces too large or too far away to be meant are refused, as by daylit's other
        // own commands.
        daylit_scene::extent::refuse_implausible(&scene)
            .map_err(|e| LiveError::Scene(e.to_string()))?;
        let sky = SceneSky::of(&scene);
        Ok(UserScene {
            files: files.to_vec(),
            scene,
            sky,
        })
    }

    /// The scene to render under `sky`: the files as they are for [`SkyKind::Scene`] (an
    /// error when they have no sky), else the files without their `source` primitives plus
    /// the generated sky. Returns the scene and the line that describes its sky.
    pub fn with_sky(
        &self,
        sky: &SkySetting,
        weather: Option<&Weather>,
    ) -> Result<(Scene, String), LiveError> {
        if sky.kind == SkyKind::Scene {
            let s = self.sky.as_ref().ok_or_else(|| {
                LiveError::Usage("the scene files have no sky (no source primitive)".into())
            })?;
            return Ok((self.scene.clone(), s.note.clone()));
        }
        let (text, mut note) = sky_text(sky, weather)?;
        let mut b = SceneBuilder::new();
        match &self.sky {
            Some(s) => {
                b.merge(self.scene.without_surfaces(|p| p.ptype == PrimType::Source));
                note.push_str(&format!(
                    " (replaces the {} source primitive{} of {})",
                    s.sources.len(),
                    if s.sources.len() == 1 { "" } else { "s" },
                    s.label
                ));
            }
            None => b.merge(self.scene.clone()),
        }
        if !text.is_empty() {
            let generated = load_scene_text(&text, "sky", Path::new("."), &LoadOptions::default())
                .map_err(|e| LiveError::Sky(e.to_string()))?;
            b.merge(generated);
        }
        Ok((b.finish(), note))
    }

    /// A renderer with `options` over the scene under `sky`, and the line that describes
    /// the sky.
    pub fn renderer(
        &self,
        sky: &SkySetting,
        weather: Option<&Weather>,
        options: &Options,
    ) -> Result<(Renderer, String), LiveError> {
        let (scene, note) = self.with_sky(sky, weather)?;
        let compiled = compile(&scene);
        let raypath = daylit_cal::RayPath::from_env();
        let r = Renderer::new(scene, compiled, options.clone(), &raypath)
            .map_err(|e| LiveError::Scene(e.to_string()))?;
        Ok((r, note))
    }
}

/// The sky a session starts with: the one asked for on the command line (`--sky`), else the
/// scene files' own, else Perez with a weather file and CIE clear without. Also returns the
/// notice to print when `--sky` replaces the files' sky.
pub fn initial_kind(
    asked: Option<SkyKind>,
    has_weather: bool,
    scene_sky: Option<&SceneSky>,
) -> Result<(SkyKind, Option<String>), LiveError> {
    match (asked, scene_sky) {
        (Some(SkyKind::Scene), None) => Err(LiveError::Usage(
            "--sky scene: the scene files have no sky (no source primitive)".into(),
        )),
        (Some(SkyKind::Perez), _) if !has_weather => {
            Err(LiveError::Usage("--sky perez needs --weather FILE".into()))
        }
        (Some(k), Some(s)) if k != SkyKind::Scene => Ok((
            k,
            Some(format!(
                "--sky {} replaces the sky of the scene files ({}: {} source primitive{} left out; \
                 choose \"from scene files\" on the page to see it)",
                k.name(),
                s.label,
                s.sources.len(),
                if s.sources.len() == 1 { "" } else { "s" }
            )),
        )),
        (Some(k), _) => Ok((k, None)),
        (None, Some(_)) => Ok((SkyKind::Scene, None)),
        (None, None) if has_weather => Ok((SkyKind::Perez, None)),
        (None, None) => Ok((SkyKind::Clear, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn office_with(sky: &str) -> UserScene {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        UserScene::load(&[
            dir.join("../../examples/reference_office/office.rad"),
            dir.join("tests/golden").join(sky),
        ])
        .unwrap()
    }

    fn sources(s: &Scene) -> Vec<String> {
        let mut v: Vec<String> = s.distant_sources().into_iter().map(|d| d.name).collect();
        v.sort();
        v
    }

    /// The files' sky as it is, or a generated one in its place: never both.
    #[test]
    fn a_page_sky_replaces_every_source_in_the_files() {
        let user = office_with("overcast.rad");
        let at = |kind| SkySetting {
            kind,
            time: SkyTime::parse("06-21 12:00").unwrap(),
        };
        let (own, note) = user.with_sky(&at(SkyKind::Scene), None).unwrap();
        assert_eq!(sources(&own), ["ground", "sky"]);
        assert!(
            note.contains("overcast.rad") && note.contains("!gensky 12 21 14"),
            "{note}"
        );
        let (clear, note) = user.with_sky(&at(SkyKind::Clear), None).unwrap();
        assert_eq!(sources(&clear), ["ground", "sky", "sun"]);
        assert!(
            note.contains("replaces the 2 source primitives of overcast.rad"),
            "{note}"
        );
        // The generated sun is the only sun, at 06-21 noon (high in the south).
        let sun = clear.prims.iter().find(|p| p.name == "sun").unwrap();
        assert!(sun.fargs[2] > 0.9, "{:?}", sun.fargs);
        // Without a sky in the files, the scene sky is refused and the generated one added.
        let bare = UserScene::load(&[std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/reference_office/office.rad")])
        .unwrap();
        assert!(bare.sky.is_none());
        assert!(bare.with_sky(&at(SkyKind::Scene), None).is_err());
        let (s, _) = bare.with_sky(&at(SkyKind::Overcast), None).unwrap();
        assert_eq!(sources(&s), ["ground", "sky"]);
    }

    #[test]
    fn a_surface_too_large_to_be_meant_is_refused_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.rad");
        std::fs::write(
            &bad,
            "void plastic m 0 0 5 .5 .5 .5 0 0\nm sphere huge 0 0 4 0 0 0 1e300\n",
        )
        .unwrap();
        let office = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/reference_office/office.rad");
        let Err(e) = UserScene::load(&[office, bad]) else {
            panic!("the scene was accepted");
        };
        let e = e.to_string();
        assert!(
            e.contains("bad.rad:2:1: sphere \"huge\": its coordinates reach 1e300"),
            "{e}"
        );
    }

    #[test]
    fn the_first_sky() {
        let user = office_with("clear.rad");
        let own = user.sky.as_ref();
        assert_eq!(own.unwrap().time.unwrap().hour, 14);
        assert_eq!(
            initial_kind(None, false, own).unwrap(),
            (SkyKind::Scene, None)
        );
        assert_eq!(initial_kind(None, true, None).unwrap().0, SkyKind::Perez);
        assert_eq!(initial_kind(None, false, None).unwrap().0, SkyKind::Clear);
        let (k, notice) = initial_kind(Some(SkyKind::Overcast), false, own).unwrap();
        assert_eq!(k, SkyKind::Overcast);
        assert!(notice
            .unwrap()
            .contains("replaces the sky of the scene files (clear.rad"));
        assert!(initial_kind(Some(SkyKind::Scene), false, None).is_err());
        assert!(initial_kind(Some(SkyKind::Perez), false, own).is_err());
    }

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
    fn a_weather_file_opens_on_a_sunny_occupied_hour() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/weather/723170TYA.CSV");
        let w = daylit_sky::weather::read_weather(&path).unwrap();
        let t = sunny_occupied_time(&w).unwrap();
        let r = nearest_record(&w, &t).unwrap();
        let peak = w
            .records
            .iter()
            .filter(|r| (8.0..18.0).contains(&r.hour))
            .map(|r| r.direct)
            .fold(0.0, f64::max);
        assert!((8..18).contains(&t.hour), "{}", t.text());
        assert!(r.direct >= 0.5 * peak, "{} {}", r.direct, peak);
        // Near the equinox: within a few weeks of 03-21.
        assert!((2..=4).contains(&t.month), "{}", t.text());
        // No direct sun at all: no such hour.
        let mut dark = w.clone();
        dark.records.iter_mut().for_each(|r| r.direct = 0.0);
        assert_eq!(sunny_occupied_time(&dark), None);
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
