//! The command line of `daylit live`: scene files, RADIANCE view and rendering options, the
//! weather file, date and time, and where to serve.

use crate::session::{SkyKind, SkyTime};
use crate::LiveError;
use daylit_image::View;
use daylit_transport::Options;
use std::net::IpAddr;
use std::path::PathBuf;

/// Everything `daylit live` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// Scene files, in order.
    pub scene: Vec<PathBuf>,
    /// The starting view.
    pub view: View,
    /// Full-resolution width and height.
    pub xres: usize,
    /// See `xres`.
    pub yres: usize,
    /// Rendering options as given (the frames' options derive from them).
    pub render: Options,
    /// Weather file for Perez skies.
    pub weather: Option<PathBuf>,
    /// Starting date and time (`None`: the scene sky's `!gensky` line's, else with a weather
    /// file [`crate::session::sunny_occupied_time`], else [`DEFAULT_TIME`]).
    pub time: Option<SkyTime>,
    /// Starting sky model (`None`: the scene files' sky if they have one, else Perez with a
    /// weather file, else CIE clear).
    pub sky: Option<SkyKind>,
    /// Address to listen on (loopback unless `--bind` says otherwise).
    pub bind: IpAddr,
    /// Port (0: any free port).
    pub port: u16,
    /// Worker threads for tracing (0: one per core).
    pub threads: usize,
    /// Diffuse frames after which accumulation stops.
    pub max_frames: u64,
}

/// The usage line.
pub const USAGE: &str =
    "usage: daylit live [scene files] [RADIANCE view options -vt? -vp -vd -vu -vh -vv ...] \
[rendering options -ab -lw -dj ...] [-x N -y N] [--weather FILE] [--time 'MM-DD HH:MM'] \
[--sky scene|perez|clear|intermediate|overcast] [--port N] [--bind ADDR] [--threads N] [--max-frames N]";

/// The date and time a session starts at when neither `--time` nor a `!gensky` line in the
/// scene files says: the March equinox at noon.
pub const DEFAULT_TIME: SkyTime = SkyTime {
    month: 3,
    day: 21,
    hour: 12,
    minute: 0,
};

/// The defaults of the live view: three bounces, jittered sources, every source tested (as
/// `daylit render`), Russian roulette below weight 1e-3.
pub fn live_defaults() -> Options {
    Options {
        ad: 1,
        ..Options::render()
    }
}

/// Words each RADIANCE view option takes after it.
fn view_words(opt: &str) -> Option<usize> {
    match opt {
        "-vp" | "-vd" | "-vu" => Some(3),
        "-vh" | "-vv" | "-vo" | "-va" | "-vs" | "-vl" => Some(1),
        _ if opt.len() == 4 && opt.starts_with("-vt") => Some(0),
        _ => None,
    }
}

/// Parses `daylit live`'s arguments.
pub fn parse(args: &[String]) -> Result<Config, LiveError> {
    let bad = LiveError::Usage;
    let mut c = Config {
        scene: Vec::new(),
        view: View::parse("-vta -vh 180 -vv 180").map_err(|e| bad(e.0))?,
        xres: 512,
        yres: 512,
        render: live_defaults(),
        weather: None,
        time: None,
        sky: None,
        bind: IpAddr::from([127, 0, 0, 1]),
        port: 8642,
        threads: 0,
        max_frames: 10_000,
    };
    let mut view_text = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let used = c.render.parse_arg(args, i).map_err(bad)?;
        if used > 0 {
            i += used;
            continue;
        }
        let value = |k: usize| -> Result<&str, LiveError> {
            args.get(i + k)
                .map(|s| s.as_str())
                .ok_or_else(|| bad(format!("option {a} needs a value")))
        };
        let count = |k: usize, max: f64| -> Result<f64, LiveError> {
            let w = value(k)?;
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v <= max && v.fract() == 0.0)
                .ok_or_else(|| {
                    bad(format!(
                        "{a}: expected a whole number from 0 to {max}, got \"{w}\""
                    ))
                })
        };
        if let Some(n) = view_words(a) {
            for k in 0..=n {
                view_text.push(value(k)?.to_string());
            }
            i += 1 + n;
            continue;
        }
        match a {
            "-x" | "-y" => {
                let v = count(1, 8192.0)?.max(1.0) as usize;
                if a == "-x" {
                    c.xres = v
                } else {
                    c.yres = v
                }
                i += 2;
            }
            "--weather" => {
                c.weather = Some(PathBuf::from(value(1)?));
                i += 2;
            }
            "--time" => {
                c.time = Some(SkyTime::parse(value(1)?).map_err(bad)?);
                i += 2;
            }
            "--sky" => {
                c.sky = Some(SkyKind::parse(value(1)?).map_err(bad)?);
                i += 2;
            }
            "--port" => {
                c.port = count(1, 65535.0)? as u16;
                i += 2;
            }
            "--bind" => {
                let w = value(1)?;
                c.bind = w
                    .parse()
                    .map_err(|_| bad(format!("--bind expects an IP address, found \"{w}\"")))?;
                i += 2;
            }
            "--threads" => {
                c.threads = count(1, 1024.0)? as usize;
                i += 2;
            }
            "--max-frames" => {
                c.max_frames = count(1, 1e12)? as u64;
                i += 2;
            }
            _ if a.starts_with('-') && a.len() > 1 => {
                return Err(bad(format!("unknown option {a}\n{USAGE}")))
            }
            _ => {
                c.scene.push(PathBuf::from(a));
                i += 1;
            }
        }
    }
    if c.scene.is_empty() {
        return Err(bad(format!("no scene files given\n{USAGE}")));
    }
    c.view.apply(&view_text.join(" ")).map_err(|e| bad(e.0))?;
    c.view.frame().map_err(|e| bad(e.0))?;
    c.render.validate().map_err(bad)?;
    if c.sky == Some(SkyKind::Perez) && c.weather.is_none() {
        return Err(bad("--sky perez needs --weather FILE".into()));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_views_options_and_time() {
        let c = parse(&words(
            "room.rad -vta -vp 1 2 1.2 -vd 0 -1 0 -ab 2 -x 64 -y 32 --time 06-21T09:30 --port 0",
        ))
        .unwrap();
        assert_eq!(c.scene, vec![PathBuf::from("room.rad")]);
        assert_eq!(c.view.vp, glam::DVec3::new(1.0, 2.0, 1.2));
        assert_eq!((c.render.ab, c.xres, c.yres, c.port), (2, 64, 32, 0));
        let t = c.time.unwrap();
        assert_eq!((t.month, t.hour, t.minute), (6, 9, 30));
        assert!(c.bind.is_loopback());
    }

    #[test]
    fn refuses_bad_input() {
        for bad in [
            "",
            "room.rad --port 70000",
            "room.rad --time 13-01 12:00",
            "room.rad -vp 1 2",
            "room.rad --bogus",
            "room.rad --sky perez",
            "room.rad --bind nowhere",
            "room.rad -x -3",
        ] {
            assert!(parse(&words(bad)).is_err(), "{bad}");
        }
    }
}
