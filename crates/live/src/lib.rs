//! daylit-live: progressive path tracing with glare feedback in the browser (thesis ch. 7,
//! AcceleradRT).
//!
//! [`progressive`] traces frames — frame 0 direct and specular light, then one diffuse sample
//! per pixel per frame, accumulated as eq. 7.1 — over the scene and sky of a [`session`]: the
//! sky in the user's files ([`scene_sky`]) or one generated for a date and time, which replaces
//! every `source` in the files;
//! [`engine`] keeps tracing in a thread of its own and restarts on any change of view, time
//! or sky (at reduced resolution while the view moves); [`metrics`] evaluates each frame's
//! glare through `daylit_glare::rays` and the regions the user drew; [`display`] colours it;
//! [`server`] serves the embedded page ([`assets`]), the JSON API and the frame stream.

pub mod assets;
pub mod config;
pub mod denoise;
pub mod display;
pub mod engine;
pub mod fireflies;
pub mod metrics;
pub mod progressive;
pub mod scene_sky;
pub mod server;
pub mod session;

use std::sync::Arc;

/// Errors of a live session, each a message for the user.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// Bad arguments.
    #[error("{0}")]
    Usage(String),
    /// The scene does not load or render.
    #[error("scene: {0}")]
    Scene(String),
    /// The sky cannot be made.
    #[error("sky: {0}")]
    Sky(String),
    /// The weather file does not read.
    #[error("weather: {0}")]
    Weather(String),
    /// Serving failed.
    #[error("{0}")]
    Io(String),
}

/// Runs `daylit live` with `config`: loads the scene, starts tracing and serves the page until
/// the process is stopped. `ready` is told the address once the server listens.
pub fn run(
    config: config::Config,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), LiveError> {
    if config.threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build_global()
            .map_err(|e| LiveError::Io(format!("threads: {e}")))?;
    }
    let weather = match &config.weather {
        Some(p) => Some(
            daylit_sky::weather::read_weather(p).map_err(|e| LiveError::Weather(e.to_string()))?,
        ),
        None => None,
    };
    let scene = session::UserScene::load(&config.scene)?;
    let (kind, notice) = session::initial_kind(config.sky, weather.is_some(), scene.sky.as_ref())?;
    if let Some(n) = notice {
        eprintln!("daylit live: {n}");
    }
    // The date and time start at --time, else at the scene sky's `!gensky` line's, else (with
    // a weather file) at a sunny occupied hour, else at the March equinox noon.
    let sunny = match (
        &config.time,
        scene.sky.as_ref().and_then(|s| s.time),
        &weather,
    ) {
        (None, None, Some(w)) => session::sunny_occupied_time(w),
        _ => None,
    };
    if let Some(t) = sunny {
        eprintln!(
            "daylit live: no --time: opening at {}, the sunny occupied hour of the weather file \
             nearest the March equinox noon",
            t.text()
        );
    }
    let time = config
        .time
        .or_else(|| scene.sky.as_ref().and_then(|s| s.time))
        .or(sunny)
        .unwrap_or(config::DEFAULT_TIME);
    let settings = engine::Settings {
        view: config.view.clone(),
        sky: session::SkySetting { kind, time },
        display: display::Display::default(),
        regions: metrics::Regions::default(),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| LiveError::Io(format!("runtime: {e}")))?;
    let listener = rt
        .block_on(tokio::net::TcpListener::bind((config.bind, config.port)))
        .map_err(|e| {
            LiveError::Io(format!(
                "cannot listen on {}:{}: {e}",
                config.bind, config.port
            ))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| LiveError::Io(e.to_string()))?;
    let (live, _thread) = engine::start(engine::Setup {
        scene,
        options: config.render.clone(),
        weather,
        weather_file: config.weather.clone(),
        settings,
        full: (config.xres, config.yres),
        max_frames: config.max_frames,
    })?;
    ready(addr);
    let r = rt.block_on(server::serve(listener, Arc::clone(&live)));
    live.quit();
    r.map_err(|e| LiveError::Io(e.to_string()))
}
