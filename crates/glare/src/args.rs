//! evalglare's command-line syntax: options up to the first word that does not start with
//! `-`, which names the picture (standard input when there is none).

use crate::evaluate::{Options, Task};
use crate::metrics::DgpCoefficients;
use crate::picture::apply_view_text;
use crate::report::Detail;
use crate::GlareError;
use daylit_image::View;

/// evalglare's usage line.
pub const USAGE: &str = "Usage: evalglare [-s][-d][-c picture][-t xpos ypos angle] [-T xpos ypos angle] [-b fact] [-r angle] [-y] [-Y lum] [-i Ev] [-I Ev ymax ymin] [-v] picfile";

/// What one evalglare command line asks for.
#[derive(Debug, Clone)]
pub struct Request {
    pub options: Options,
    /// A view given on the command line (`-vt? -vh -vv …`, `-vf`), replacing the picture's.
    pub view: Option<View>,
    /// The picture; `None` reads standard input.
    pub picture: Option<String>,
    /// `-c`: where to write the check image.
    pub check_file: Option<String>,
    pub detail: Detail,
    /// `-V`: print Ev only.
    pub ev_only: bool,
    /// `-p`: write the position-index picture to the `-c` file and stop.
    pub posindex_picture: bool,
    /// `-v` alone: print the version.
    pub version: bool,
}

fn bad(msg: impl Into<String>) -> GlareError {
    GlareError::Input(msg.into())
}

/// Parses evalglare's arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Request, GlareError> {
    let mut o = Options {
        statistics: false,
        ..Options::default()
    };
    let mut req = Request {
        options: o.clone(),
        view: None,
        picture: None,
        check_file: None,
        detail: Detail::Default,
        ev_only: false,
        posindex_picture: false,
        version: false,
    };
    let mut view = View::default();
    let (mut got_view, mut got_t, mut got_h, mut got_v) = (false, false, false, false);
    let mut detail_d = false;
    let mut detail_2 = false;
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].as_str();
        let val = |k: usize| -> Result<&str, GlareError> {
            args.get(i + k)
                .map(|s| s.as_str())
                .ok_or_else(|| bad(format!("option {a} needs {k} value(s)\n{USAGE}")))
        };
        let num = |k: usize| -> Result<f64, GlareError> {
            let s = val(k)?;
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("option {a}: bad number {s:?}")))
        };
        let int = |k: usize| -> Result<i32, GlareError> {
            let s = val(k)?;
            s.parse::<i32>()
                .map_err(|_| bad(format!("option {a}: bad integer {s:?}")))
        };
        // View options, as RADIANCE's getviewopt takes them.
        if let Some(rest) = a.strip_prefix("-v") {
            let n = match rest {
                "p" | "d" | "u" => 3,
                "h" | "v" | "o" | "a" | "s" | "l" => 1,
                "" => {
                    req.version = true;
                    return Ok(req);
                }
                "f" => {
                    let f = val(1)?;
                    let text = std::fs::read_to_string(f)
                        .map_err(|e| bad(format!("cannot open view file \"{f}\": {e}")))?;
                    let mut applied = 0;
                    for l in text.lines() {
                        applied += apply_view_text(&mut view, l);
                        for w in l.split_whitespace() {
                            got_t |= w.starts_with("-vt");
                            got_h |= w == "-vh";
                            got_v |= w == "-vv";
                        }
                    }
                    if applied == 0 {
                        return Err(bad(format!("bad view file \"{f}\"")));
                    }
                    got_view = true;
                    i += 2;
                    continue;
                }
                t if t.len() == 2 && t.starts_with('t') => 0,
                _ => return Err(bad(format!("unknown option {a}\n{USAGE}"))),
            };
            let mut text = a.to_string();
            for k in 1..=n {
                num(k)?;
                text.push(' ');
                text.push_str(val(k)?);
            }
            view.apply(&text)
                .map_err(|e| bad(format!("option {a}: {e}")))?;
            got_t |= rest.starts_with('t');
            got_h |= rest == "h";
            got_v |= rest == "v";
            got_view = true;
            i += 1 + n;
            continue;
        }
        let used = match a {
            "-b" => {
                o.threshold = Some(num(1)? as f32);
                1
            }
            "-c" => {
                req.check_file = Some(val(1)?.to_string());
                1
            }
            "-u" => {
                o.uniform_colour = Some([num(1)?, num(2)?, num(3)?]);
                3
            }
            "-r" => {
                o.search_radius = num(1)?;
                1
            }
            "-s" => {
                o.smoothing = true;
                0
            }
            "-f" => {
                o.force = true;
                0
            }
            "-k" => {
                o.disability_threshold = Some(num(1)?);
                1
            }
            "-p" => {
                req.posindex_picture = true;
                0
            }
            "-P" => {
                o.posindex_model = int(1)?;
                1
            }
            "-y" => {
                o.peak_extraction = true;
                0
            }
            "-x" => {
                o.peak_extraction = false;
                0
            }
            "-Y" => {
                o.peak_extraction = true;
                o.peak_limit = num(1)? as f32;
                1
            }
            "-i" => {
                o.external_ev = Some(num(1)?);
                1
            }
            "-I" => {
                o.external_ev = Some(num(1)?);
                o.fill = Some((int(2)?, int(3)?));
                3
            }
            "-d" => {
                detail_d = true;
                0
            }
            "-D" => {
                detail_2 = true;
                0
            }
            "-q" => {
                o.background = int(1)?;
                1
            }
            "-t" | "-T" => {
                o.task = Some(Task {
                    x: int(1)?,
                    y: int(2)?,
                    angle: num(3)? as f32,
                    colour: a == "-T",
                });
                3
            }
            "-B" => {
                o.band = Some(num(1)?);
                1
            }
            "-w" => {
                let v: Vec<f64> = (1..=8).map(num).collect::<Result<_, _>>()?;
                o.dgp = DgpCoefficients {
                    a1: v[0],
                    a2: v[1],
                    a3: v[2],
                    a4: v[3],
                    a5: v[4],
                    c1: v[5],
                    c2: v[6],
                    c3: v[7],
                };
                8
            }
            "-V" => {
                req.ev_only = true;
                0
            }
            "-C" => {
                match val(1)? {
                    "l-" | "0" => o.low_light = false,
                    "l+" => o.low_light = true,
                    _ => {}
                }
                1
            }
            "-4" => {
                o.low_light = false;
                0
            }
            "-a" => return Err(bad("age factor not supported any more")),
            "-A" | "-m" | "-M" | "-N" | "-O" | "-l" | "-L" | "-G" | "-g" | "-1" | "-2"
            | "-3" | "-Q" | "-z" => {
                return Err(bad(format!(
                    "option {a} is not supported by daylit's evalglare (supported: -v* -vf -b -c -u -r -s -f -k -p -P -y -x -Y -i -I -d -D -q -t -T -B -w -V -C -4)"
                )))
            }
            _ => return Err(bad(format!("unknown option {a}\n{USAGE}"))),
        };
        for k in 1..=used {
            val(k)?;
        }
        i += 1 + used;
    }
    if let Some(p) = args.get(i) {
        req.picture = Some(p.clone());
    }
    if got_view {
        if !(got_t && got_h && got_v) {
            return Err(bad(
                "error: if specified, a view must at least contain -vt -vv and -vh",
            ));
        }
        req.view = Some(view);
    }
    req.detail = if detail_d {
        o.statistics = true;
        Detail::Sources
    } else if detail_2 {
        Detail::Second
    } else {
        Detail::Default
    };
    req.options = o;
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Request, GlareError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn options_and_picture() {
        let r = p("-d -b 5 -r 0.3 -T 10 20 0.5 -vta -vh 180 -vv 180 pic.hdr").unwrap();
        assert_eq!(r.detail, Detail::Sources);
        assert_eq!(r.options.threshold, Some(5.0));
        assert_eq!(r.options.search_radius, 0.3);
        let t = r.options.task.unwrap();
        assert_eq!((t.x, t.y, t.colour), (10, 20, true));
        assert_eq!(r.picture.as_deref(), Some("pic.hdr"));
        assert!(r.view.is_some());
        assert!(p("pic.hdr").unwrap().view.is_none());
        assert!(p("-vta pic.hdr").is_err()); // a view needs -vt -vh -vv
        assert!(p("-b").is_err());
        assert!(p("-b x p.hdr").is_err());
        assert!(p("-Q 1 p.hdr").is_err());
        assert!(p("-e p.hdr").is_err());
        assert!(p("-v").unwrap().version);
        assert!(p("-d").unwrap().picture.is_none());
    }
}
