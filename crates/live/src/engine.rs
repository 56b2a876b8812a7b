//! The live session: the settings the page changes, and the render thread that keeps tracing
//! frames for them. Any change of view, time or sky bumps a generation counter; the thread
//! abandons the frame in progress, starts a new accumulation with a quarter-resolution frame 0
//! (so that something is on screen at once), then goes on at full resolution unless the view
//! is still moving. Each frame is evaluated, coloured and published to the page's event
//! stream.

use crate::denoise::Guide;
use crate::display::{self, Display, Legend};
use crate::metrics::{self, Metrics, Regions, Uncertainty};
use crate::progressive::{self, Accumulator, FrameKind, PixelGrid};
use crate::scene_sky::SceneSky;
use crate::session::{SkySetting, UserScene};
use crate::LiveError;
use base64::Engine as _;
use daylit_glare::classes::Classes;
use daylit_image::{HdrImage, View};
use daylit_sky::weather::Weather;
use daylit_transport::{Options, Renderer};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Reduction of each side while the view moves, and of the first frame after a change.
pub const MOVING_REDUCTION: usize = 4;

/// How long after the last view update the view counts as moving (a drag that ended without
/// word from the page).
const MOVING_HOLD: Duration = Duration::from_millis(400);

/// What the page can change.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The view.
    pub view: View,
    /// Sky model and time.
    pub sky: SkySetting,
    /// How the picture is shown.
    pub display: Display,
    /// Task and contrast regions.
    pub regions: Regions,
}

/// One metrics sample of the history plot.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    /// Frame number.
    pub frame: u64,
    /// Milliseconds since the change.
    pub elapsed_ms: f64,
    /// Ev, lux.
    pub ev: f64,
    /// DGP.
    pub dgp: f64,
    /// UGP.
    pub ugp: f64,
}

/// The state the page reads (`GET /api/state`, and every frame event without the image).
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// Frames accumulated since the last change (0: the direct frame only).
    pub frame: u64,
    /// Milliseconds from the last change to this frame.
    pub elapsed_ms: f64,
    /// Changes so far (view, time or sky).
    pub generation: u64,
    /// Frames published so far (any generation).
    pub seq: u64,
    /// Picture size of this frame.
    pub width: usize,
    /// See `width`.
    pub height: usize,
    /// Full-resolution size.
    pub full_width: usize,
    /// See `full_width`.
    pub full_height: usize,
    /// Whether this frame is at reduced resolution.
    pub reduced: bool,
    /// Vertical illuminance, lux.
    pub ev: f64,
    /// Daylight glare probability.
    pub dgp: f64,
    /// Simplified DGP.
    pub dgps: f64,
    /// Unified glare probability.
    pub ugp: f64,
    /// Each value's glare class (imperceptible … intolerable).
    pub classes: Classes,
    /// All metrics, regions included.
    pub metrics: Metrics,
    /// How far Ev, DGP and UGP may still move: standard errors from the last frames, and the
    /// frame count they rest on.
    pub uncertainty: Uncertainty,
    /// The view as RADIANCE options.
    pub view: String,
    /// The view's parts, for the page's navigation.
    pub view_parts: ViewParts,
    /// Sky model and time.
    pub sky: SkySetting,
    /// What the sky is and where it came from.
    pub sky_note: String,
    /// The sky in the scene files (what [`crate::session::SkyKind::Scene`] shows), if any.
    pub scene_sky: Option<SceneSky>,
    /// Whether a weather file is loaded (Perez skies).
    pub has_weather: bool,
    /// Display settings.
    pub display: Display,
    /// The false-colour legend.
    pub legend: Legend,
    /// Regions.
    pub regions: Regions,
    /// Metrics per frame since the last change.
    pub history: Vec<HistoryPoint>,
    /// The last error (a sky that could not be built, say), if any.
    pub error: Option<String>,
}

/// View type, position and directions as the page edits them.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ViewParts {
    /// `v` perspective, `a` angular fisheye, `h` hemispherical.
    pub typ: String,
    /// Position.
    pub vp: [f64; 3],
    /// Direction.
    pub vd: [f64; 3],
    /// Up.
    pub vu: [f64; 3],
    /// Horizontal angle, degrees.
    pub vh: f64,
    /// Vertical angle, degrees.
    pub vv: f64,
}

impl ViewParts {
    /// The parts of `v`.
    pub fn of(v: &View) -> ViewParts {
        ViewParts {
            typ: v.typ.letter().to_string(),
            vp: v.vp.to_array(),
            vd: v.vdir.to_array(),
            vu: v.vup.to_array(),
            vh: v.horiz,
            vv: v.vert,
        }
    }

    /// The view, checked.
    pub fn to_view(&self, base: &View) -> Result<View, String> {
        if !matches!(self.typ.as_str(), "v" | "a" | "h") {
            return Err(format!(
                "view type \"{}\" is not v (perspective), a (angular fisheye) or h (hemispherical)",
                self.typ
            ));
        }
        let all = [self.vp, self.vd, self.vu]
            .into_iter()
            .flatten()
            .chain([self.vh, self.vv]);
        if all.clone().any(|x| !x.is_finite()) {
            return Err("view numbers must be finite".into());
        }
        let max_angle = if self.typ == "v" { 179.0 } else { 360.0 };
        if !(self.vh > 0.0 && self.vh <= max_angle && self.vv > 0.0 && self.vv <= max_angle) {
            return Err(format!(
                "view angles must be above 0 and at most {max_angle}°"
            ));
        }
        let mut v = base.clone();
        v.typ = match self.typ.as_str() {
            "v" => daylit_image::ViewType::Perspective,
            "a" => daylit_image::ViewType::Angular,
            _ => daylit_image::ViewType::Hemispherical,
        };
        v.vp = self.vp.into();
        v.vdir = self.vd.into();
        v.vup = self.vu.into();
        v.horiz = self.vh;
        v.vert = self.vv;
        v.frame().map_err(|e| e.0)?;
        Ok(v)
    }
}

/// A published frame.
pub struct Frame {
    /// The state with this frame's numbers.
    pub state: State,
    /// The display PNG.
    pub png: Arc<Vec<u8>>,
    /// The event the page receives: the state with the PNG as a data URL.
    pub event: String,
    /// The accumulated picture (radiance), for saving.
    pub picture: Arc<Vec<[f32; 3]>>,
}

struct Control {
    settings: Settings,
    moving_until: Option<Instant>,
    /// When the view, time or sky last changed.
    changed_at: Instant,
    /// Display or regions changed: publish again without tracing.
    republish: bool,
    quit: bool,
}

/// The shared side of a live session: what the server reads and changes.
pub struct Live {
    control: Mutex<Control>,
    wake: Condvar,
    generation: AtomicU64,
    latest: Mutex<Option<Arc<Frame>>>,
    frames: tokio::sync::watch::Sender<Option<Arc<Frame>>>,
    error: Mutex<Option<String>>,
    /// Full-resolution width and height.
    pub full: (usize, usize),
    /// Whether a weather file was given.
    pub has_weather: bool,
    /// The sky in the scene files, if any.
    pub scene_sky: Option<SceneSky>,
    /// How the session's pictures are made (scene and weather files with their hashes), for
    /// the saved HDR's header and PNG's text chunks.
    pub provenance: daylit_radfile::Provenance,
}

/// What the render thread starts from.
pub struct Setup {
    /// The user's scene files, read.
    pub scene: UserScene,
    /// The user's rendering options.
    pub options: Options,
    /// Weather, for Perez skies.
    pub weather: Option<Weather>,
    /// The weather file it was read from (recorded with its hash in saved pictures).
    pub weather_file: Option<std::path::PathBuf>,
    /// First settings.
    pub settings: Settings,
    /// Full resolution.
    pub full: (usize, usize),
    /// Diffuse frames after which tracing pauses.
    pub max_frames: u64,
}

impl Live {
    /// The settings now.
    pub fn settings(&self) -> Settings {
        self.lock().settings.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Control> {
        self.control.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the view; `moving` asks for reduced resolution until the view rests.
    pub fn set_view(&self, view: View, moving: bool) {
        let mut c = self.lock();
        c.settings.view = view;
        c.moving_until = moving.then(|| Instant::now() + MOVING_HOLD);
        self.changed(&mut c);
    }

    /// Changes sky model and time.
    pub fn set_sky(&self, sky: SkySetting) {
        let mut c = self.lock();
        c.settings.sky = sky;
        c.moving_until = None;
        self.changed(&mut c);
    }

    /// Changes how the picture is shown (no new tracing).
    pub fn set_display(&self, d: Display) {
        let mut c = self.lock();
        c.settings.display = d;
        c.republish = true;
        self.wake.notify_all();
    }

    /// Changes the regions (no new tracing).
    pub fn set_regions(&self, r: Regions) {
        let mut c = self.lock();
        c.settings.regions = r;
        c.republish = true;
        self.wake.notify_all();
    }

    fn changed(&self, c: &mut Control) {
        c.changed_at = Instant::now();
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_all();
    }

    /// Stops the render thread.
    pub fn quit(&self) {
        self.lock().quit = true;
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_all();
    }

    /// The latest frame.
    pub fn latest(&self) -> Option<Arc<Frame>> {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// A receiver of published frames.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<Option<Arc<Frame>>> {
        self.frames.subscribe()
    }

    /// The last error, if any.
    pub fn error(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set_error(&self, e: Option<String>) {
        *self.error.lock().unwrap_or_else(|e| e.into_inner()) = e;
    }

    /// The accumulated picture as a RADIANCE HDR file, with its view.
    pub fn hdr(&self) -> Option<Vec<u8>> {
        let f = self.latest()?;
        let mut img = HdrImage::new(f.state.width, f.state.height);
        img.program = "RADIANCE".into();
        img.header
            .push(format!("SOFTWARE= daylit {}", env!("CARGO_PKG_VERSION")));
        img.header.push(format!(
            "daylit live: frame {} ({} ms), {}",
            f.state.frame, f.state.elapsed_ms as u64, f.state.sky_note
        ));
        img.header.push(format!("VIEW= {}", f.state.view));
        img.header.extend(self.provenance.header_lines());
        img.view = Some(f.state.view.clone());
        img.pixels.copy_from_slice(&f.picture);
        Some(img.encode(true))
    }

    /// The picture as shown, a PNG carrying how it was made in text chunks.
    pub fn png(&self) -> Option<Vec<u8>> {
        let f = self.latest()?;
        daylit_falsecolor::raster::insert_png_text(&f.png, &self.provenance.png_text()).ok()
    }
}

/// The record of a session: this process's command line, the scene files and what they read
/// or name, and the weather file, each with its hash (a file that can no longer be read is
/// listed without one).
fn provenance(setup: &Setup) -> daylit_radfile::Provenance {
    let mut p =
        daylit_radfile::Provenance::new(std::env::args().collect(), env!("CARGO_PKG_VERSION"));
    let files = &setup.scene.files;
    let raypath = daylit_cal::RayPath::from_env();
    let data = setup.scene.scene.referenced_files(files, &raypath);
    let inputs = files
        .iter()
        .map(|f| ("scene", f))
        .chain(data.iter().map(|f| ("scene data", f)))
        .chain(setup.weather_file.iter().map(|f| ("weather", f)));
    for (role, f) in inputs {
        if p.add_input(role, f).is_err() {
            p.inputs.push(daylit_radfile::InputFile {
                role: role.into(),
                path: f.clone(),
                sha256: None,
            });
        }
    }
    p
}

/// Starts the session: builds the first scene (errors here are the user's: bad scene files,
/// bad sky), then traces in a thread of its own until [`Live::quit`].
pub fn start(setup: Setup) -> Result<(Arc<Live>, std::thread::JoinHandle<()>), LiveError> {
    let (renderer, sky_note) =
        setup
            .scene
            .renderer(&setup.settings.sky, setup.weather.as_ref(), &setup.options)?;
    let (tx, _) = tokio::sync::watch::channel(None);
    let live = Arc::new(Live {
        control: Mutex::new(Control {
            settings: setup.settings.clone(),
            moving_until: None,
            changed_at: Instant::now(),
            republish: false,
            quit: false,
        }),
        wake: Condvar::new(),
        generation: AtomicU64::new(0),
        latest: Mutex::new(None),
        frames: tx,
        error: Mutex::new(None),
        full: setup.full,
        has_weather: setup.weather.is_some(),
        provenance: provenance(&setup),
        scene_sky: setup.scene.sky.clone(),
    });
    let l = live.clone();
    let handle = std::thread::Builder::new()
        .name("daylit-live-render".into())
        .spawn(move || {
            Worker {
                live: l,
                setup,
                renderer,
                sky: None,
                sky_note,
                seq: 0,
            }
            .run()
        })
        .map_err(|e| LiveError::Io(format!("render thread: {e}")))?;
    Ok((live, handle))
}

struct Accumulation {
    generation: u64,
    reduction: usize,
    view: View,
    grid: PixelGrid,
    /// Which pixels lie in the picture.
    inside: Vec<bool>,
    /// The pixels' primary hits, for the display's denoiser.
    guide: Guide,
    acc: Accumulator,
    history: Vec<HistoryPoint>,
}

struct Worker {
    live: Arc<Live>,
    setup: Setup,
    renderer: Renderer,
    /// The sky the renderer has (`None`: the first one, built by `start`).
    sky: Option<SkySetting>,
    sky_note: String,
    seq: u64,
}

impl Worker {
    fn run(mut self) {
        self.sky = Some(self.setup.settings.sky);
        let (direct_opts, diffuse_opts) = progressive::frame_options(&self.setup.options);
        let mut cur: Option<Accumulation> = None;
        loop {
            let (settings, generation, moving, changed_at, republish) = {
                let mut c = self.live.lock();
                if c.quit {
                    return;
                }
                let now = Instant::now();
                let moving = c.moving_until.is_some_and(|t| t > now);
                let idle = cur.as_ref().is_some_and(|a| {
                    a.generation == self.live.generation.load(Ordering::SeqCst)
                        && a.reduction == 1
                        && a.acc.frames() >= self.setup.max_frames
                });
                if idle && !c.republish {
                    // Woken by a change, or by the timeout; the guard is released either way.
                    drop(self.live.wake.wait_timeout(c, Duration::from_millis(200)));
                    continue;
                }
                let r = std::mem::take(&mut c.republish);
                (
                    c.settings.clone(),
                    self.live.generation.load(Ordering::SeqCst),
                    moving,
                    c.changed_at,
                    r,
                )
            };
            if self.sky != Some(settings.sky) {
                self.rebuild_sky(&settings.sky);
            }
            let cancelled = || self.live.generation.load(Ordering::SeqCst) != generation;
            // A new generation starts reduced; it stays reduced while the view moves.
            let reduction = match &cur {
                Some(a) if a.generation == generation && (a.reduction == 1 || moving) => {
                    a.reduction
                }
                Some(a) if a.generation == generation => 1,
                _ => MOVING_REDUCTION,
            };
            let restart = cur
                .as_ref()
                .is_none_or(|a| a.generation != generation || a.reduction != reduction);
            if restart {
                let (w, h) = (
                    self.setup.full.0.div_ceil(reduction).max(1),
                    self.setup.full.1.div_ceil(reduction).max(1),
                );
                let frame = match settings.view.frame() {
                    Ok(f) => f,
                    Err(e) => {
                        self.live.set_error(Some(e.0));
                        cur = None;
                        std::thread::sleep(Duration::from_millis(50));
                        continue;
                    }
                };
                let grid = PixelGrid::new(&frame, w, h);
                self.renderer.opts = direct_opts.clone();
                let Some(px) =
                    progressive::trace_frame(&self.renderer, &grid, FrameKind::Direct, &cancelled)
                else {
                    continue;
                };
                cur = Some(Accumulation {
                    generation,
                    reduction,
                    view: settings.view.clone(),
                    acc: Accumulator::new(w, h, px),
                    inside: grid.inside(),
                    guide: Guide::trace(&self.renderer, &grid),
                    grid,
                    history: Vec::new(),
                });
            } else if let Some(a) = cur.as_mut() {
                if a.acc.frames() < self.setup.max_frames {
                    self.renderer.opts = diffuse_opts.clone();
                    let Some(px) = progressive::trace_frame(
                        &self.renderer,
                        &a.grid,
                        FrameKind::Diffuse(a.acc.frames() + 1),
                        &cancelled,
                    ) else {
                        continue;
                    };
                    a.acc.add(&px);
                    // More samples where the picture is least certain (per-pixel means stay
                    // means of their own samples, so the glare values keep their expectation).
                    if let Some(plan) = a.acc.extra_plan() {
                        let Some(extra) = progressive::trace_extra(
                            &self.renderer,
                            &a.grid,
                            a.acc.frames(),
                            &plan,
                            &cancelled,
                        ) else {
                            continue;
                        };
                        a.acc.add_extra(&extra);
                    }
                } else if !republish {
                    // Done at reduced resolution while the view still moves: wait for it.
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
            }
            if let Some(a) = cur.as_mut() {
                if cancelled() {
                    continue;
                }
                self.publish(a, &settings, changed_at);
            }
        }
    }

    fn rebuild_sky(&mut self, sky: &SkySetting) {
        let built =
            self.setup
                .scene
                .renderer(sky, self.setup.weather.as_ref(), &self.setup.options);
        match built {
            Ok((r, note)) => {
                self.renderer = r;
                self.sky_note = note;
                self.live.set_error(None);
            }
            Err(e) => self.live.set_error(Some(e.to_string())),
        }
        // Either way this sky has been tried; the page sees the error.
        self.sky = Some(*sky);
    }

    fn publish(&mut self, a: &mut Accumulation, settings: &Settings, changed_at: Instant) {
        let picture = a.acc.picture();
        let elapsed_ms = changed_at.elapsed().as_secs_f64() * 1000.0;
        // Glare sources from the picture without its fireflies, Ev from the picture.
        let m = match metrics::evaluate_with_sources(
            &a.grid,
            &picture,
            &a.acc.glare_picture(&a.inside),
            a.view.vdir,
            a.view.vup,
            &settings.regions,
        ) {
            Ok(m) => m,
            Err(e) => {
                self.live.set_error(Some(e));
                Metrics::default()
            }
        };
        let frame = a.acc.frames();
        if a.history.last().is_none_or(|h| h.frame != frame) {
            a.history.push(HistoryPoint {
                frame,
                elapsed_ms,
                ev: m.ev,
                dgp: m.dgp,
                ugp: m.ugp,
            });
        }
        // Frame 0 (direct light only) is not a sample of the mean: errors start at frame 1.
        let points: Vec<(u64, f64, f64, f64)> = a
            .history
            .iter()
            .filter(|p| p.frame > 0)
            .map(|p| (p.frame, p.ev, p.dgp, p.ugp))
            .collect();
        let uncertainty = Uncertainty::of(&points);
        let (w, h) = (a.acc.width, a.acc.height);
        // The denoiser changes only what is shown: metrics and saved pictures are unfiltered.
        let shown = if settings.display.denoise {
            a.acc.denoised_picture(&a.guide)
        } else {
            picture.clone()
        };
        let png = match display::png(w, h, &settings.display.rgb8(&shown)) {
            Ok(p) => p,
            Err(e) => {
                self.live.set_error(Some(format!("PNG: {e}")));
                return;
            }
        };
        self.seq += 1;
        let state = State {
            frame,
            elapsed_ms,
            generation: a.generation,
            seq: self.seq,
            width: w,
            height: h,
            full_width: self.setup.full.0,
            full_height: self.setup.full.1,
            reduced: a.reduction > 1,
            ev: m.ev,
            dgp: m.dgp,
            dgps: m.dgps,
            ugp: m.ugp,
            classes: Classes::of(m.ev, m.dgp, m.dgps, m.ugp, m.ugr),
            metrics: m,
            uncertainty,
            view: a.view.to_options(),
            view_parts: ViewParts::of(&a.view),
            sky: settings.sky,
            sky_note: self.sky_note.clone(),
            scene_sky: self.live.scene_sky.clone(),
            has_weather: self.live.has_weather,
            display: settings.display.clone(),
            legend: settings.display.legend(),
            regions: settings.regions.clone(),
            history: a.history.clone(),
            error: self.live.error(),
        };
        let event = event_json(&state, &png);
        let f = Arc::new(Frame {
            state,
            png: Arc::new(png),
            event,
            picture: Arc::new(picture),
        });
        *self.live.latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(f.clone());
        self.live.frames.send_replace(Some(f));
    }
}

/// The frame event: the state's JSON with an `image` data URL added.
fn event_json(state: &State, png: &[u8]) -> String {
    let mut v = serde_json::to_value(state).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(m) = &mut v {
        let b64 = base64::engine::general_purpose::STANDARD.encode(png);
        m.insert(
            "image".into(),
            serde_json::Value::String(format!("data:image/png;base64,{b64}")),
        );
    }
    v.to_string()
}
