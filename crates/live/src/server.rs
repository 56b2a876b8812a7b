//! The HTTP side: the page's embedded assets, the JSON API and the frame stream
//! (server-sent events). Nothing else is served: every other path is 404, whatever dots or
//! escapes it holds, and bodies that do not parse or fail their checks are 400.
//!
//! | route | what |
//! | --- | --- |
//! | `GET /`, `/app.js`, `/style.css` | the page |
//! | `GET /events` | frames: `frame` events, the state as JSON with an `image` PNG data URL |
//! | `GET /api/state` | the latest state (`frame`, `elapsed_ms`, `ev`, `dgp`, `ugp`, ...) |
//! | `POST /api/view` | `{typ, vp, vd, vu, vh, vv, moving}` |
//! | `POST /api/sky` | `{kind, time: {month, day, hour, minute}}`; `kind` `scene` is the sky in the scene files |
//! | `POST /api/display` | `{mode, scale, decades, palette, exposure, denoise}` |
//! | `POST /api/regions` | `{task, contrast}` |
//! | `GET /api/save.hdr`, `/api/save.png` | the accumulated picture, the shown picture |

use crate::assets;
use crate::display::Display;
use crate::engine::{Live, ViewParts};
use crate::metrics::Regions;
use crate::session::{SkyKind, SkySetting};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::stream::Stream;
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::Arc;

/// Shared by the handlers.
#[derive(Clone)]
struct App {
    live: Arc<Live>,
}

/// The router of a live session.
pub fn router(live: Arc<Live>) -> Router {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route("/app.js", get(|| async { asset("app.js") }))
        .route("/style.css", get(|| async { asset("style.css") }))
        .route("/events", get(events))
        .route("/api/state", get(state))
        .route("/api/view", post(set_view))
        .route("/api/sky", post(set_sky))
        .route("/api/display", post(set_display))
        .route("/api/regions", post(set_regions))
        .route("/api/save.hdr", get(save_hdr))
        .route("/api/save.png", get(save_png))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found\n") })
        .with_state(App { live })
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, live: Arc<Live>) -> std::io::Result<()> {
    axum::serve(listener, router(live)).await
}

fn asset(name: &str) -> Response {
    match assets::get(name) {
        Some((body, mime)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

fn bad(msg: impl Into<String>) -> Response {
    (StatusCode::BAD_REQUEST, format!("{}\n", msg.into())).into_response()
}

/// Parses a JSON body into `T`; a body that is not JSON or not a `T` is a 400 that says why.
fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("bad request body: {e}"))
}

async fn state(State(app): State<App>) -> Response {
    match app.live.latest() {
        Some(f) => {
            let mut s = f.state.clone();
            s.error = app.live.error();
            axum::Json(s).into_response()
        }
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "1")],
            "no frame yet\n",
        )
            .into_response(),
    }
}

async fn events(State(app): State<App>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let rx = app.live.subscribe();
    // The latest frame at once, then each new one; frames the page is too slow for are
    // skipped (a watch channel keeps only the newest).
    let stream = futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first || rx.borrow().is_none() {
            loop {
                rx.changed().await.ok()?;
                if rx.borrow().is_some() {
                    break;
                }
            }
        }
        let f = rx.borrow_and_update().clone()?;
        let ev = Event::default().event("frame").data(f.event.as_str());
        Some((Ok(ev), (rx, false)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

#[derive(Deserialize)]
struct ViewRequest {
    #[serde(flatten)]
    parts: ViewParts,
    #[serde(default)]
    moving: bool,
}

async fn set_view(State(app): State<App>, body: Bytes) -> Response {
    let r: ViewRequest = match parse(&body) {
        Ok(r) => r,
        Err(e) => return bad(e),
    };
    match r.parts.to_view(&app.live.settings().view) {
        Ok(v) => {
            app.live.set_view(v, r.moving);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(e) => bad(e),
    }
}

async fn set_sky(State(app): State<App>, body: Bytes) -> Response {
    let s: SkySetting = match parse(&body) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    if let Err(e) = s.time.check() {
        return bad(e);
    }
    if s.kind == SkyKind::Scene && app.live.scene_sky.is_none() {
        return bad("the scene files have no sky (no source primitive) to show");
    }
    if s.kind == SkyKind::Perez && !app.live.has_weather {
        return bad("a Perez sky needs a weather file (daylit live --weather FILE)");
    }
    app.live.set_sky(s);
    StatusCode::NO_CONTENT.into_response()
}

async fn set_display(State(app): State<App>, body: Bytes) -> Response {
    let d: Display = match parse(&body) {
        Ok(d) => d,
        Err(e) => return bad(e),
    };
    if let Err(e) = d.check() {
        return bad(e);
    }
    app.live.set_display(d);
    StatusCode::NO_CONTENT.into_response()
}

async fn set_regions(State(app): State<App>, body: Bytes) -> Response {
    let r: Regions = match parse(&body) {
        Ok(r) => r,
        Err(e) => return bad(e),
    };
    if let Err(e) = r.check() {
        return bad(e);
    }
    app.live.set_regions(r);
    StatusCode::NO_CONTENT.into_response()
}

fn download(body: Vec<u8>, mime: &'static str, name: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CONTENT_DISPOSITION, name),
        ],
        body,
    )
        .into_response()
}

async fn save_hdr(State(app): State<App>) -> Response {
    match app.live.hdr() {
        Some(b) => download(
            b,
            "image/vnd.radiance",
            "attachment; filename=\"daylit-live.hdr\"",
        ),
        None => (StatusCode::SERVICE_UNAVAILABLE, "no frame yet\n").into_response(),
    }
}

async fn save_png(State(app): State<App>) -> Response {
    match app.live.png() {
        Some(png) => download(png, "image/png", "attachment; filename=\"daylit-live.png\""),
        None => (StatusCode::SERVICE_UNAVAILABLE, "no frame yet\n").into_response(),
    }
}
