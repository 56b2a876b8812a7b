//! RADIANCE falsecolor's command line: `falsecolor [-i input][-p picture][-ip input]
//! [-cb|-cl|-cp|-c0][-e][-s scale|auto][-d digits][-l label][-n ndivs][-lw w][-lh h]
//! [-log decades][-m mult][-pal palette]` and `falsecolor -palettes`.
//!
//! Options are matched whole (RADIANCE's script also accepts any word that merely contains an
//! option's name). `-odim`, `-orct` and the `-r/-g/-b` colour expressions are refused by name.

use crate::palette::Palette;
use crate::picture::{Contour, FalseColourError, Options, Scale};
use std::path::PathBuf;

/// What a falsecolor command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// The picture whose values are shown (`None`: standard input).
    pub input: Option<PathBuf>,
    /// The picture shown where contours leave gaps (`-p`, or the input itself with `-ip`).
    pub background: Option<PathBuf>,
    pub options: Options,
    /// `-palettes`: show the palettes instead.
    pub show_palettes: bool,
}

fn bad(m: impl Into<String>) -> FalseColourError {
    FalseColourError::BadOption(m.into())
}

/// Parses falsecolor's arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Args, FalseColourError> {
    let mut a = Args {
        input: None,
        background: None,
        options: Options::default(),
        show_palettes: false,
    };
    let o = &mut a.options;
    let mut it = args.iter();
    while let Some(opt) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| bad(format!("option {opt} needs {what}")))
        };
        fn number<T: std::str::FromStr>(opt: &str, s: &str) -> Result<T, FalseColourError> {
            s.parse()
                .map_err(|_| bad(format!("option {opt}: '{s}' is not a valid number")))
        }
        match opt.as_str() {
            "-i" => a.input = Some(value("a picture")?.into()),
            "-p" => a.background = Some(value("a picture")?.into()),
            "-ip" | "-pi" => {
                let p: PathBuf = value("a picture")?.into();
                a.input = Some(p.clone());
                a.background = Some(p);
            }
            "-cl" => o.contour = Contour::Lines,
            "-cb" => o.contour = Contour::Bands,
            "-cp" => o.contour = Contour::Posterize,
            "-c0" => {
                o.contour = Contour::Off;
                o.legend_width = 0;
                o.legend_height = 0;
            }
            "-e" => o.extrema = true,
            "-s" => {
                let s = value("a scale or 'auto'")?;
                o.scale = if s.starts_with(['a', 'A']) {
                    Scale::Auto
                } else {
                    Scale::Value(number(opt, &s)?)
                };
            }
            "-d" => o.digits = number(opt, &value("a number of digits")?)?,
            "-l" => o.label = value("a label")?,
            "-n" => o.ndivs = number(opt, &value("a number of divisions")?)?,
            "-lw" => o.legend_width = number(opt, &value("a width")?)?,
            "-lh" => o.legend_height = number(opt, &value("a height")?)?,
            "-log" => o.decades = number(opt, &value("a number of decades")?)?,
            "-m" => o.mult = number(opt, &value("a multiplier")?)?,
            "-pal" => {
                let p = value("a palette")?;
                o.palette = Palette::from_name(&p).ok_or_else(|| {
                    bad(format!(
                        "invalid palette '{p}' (daylit has def, spec, pm3d, hot, eco, viridis)"
                    ))
                })?;
            }
            "-palettes" => a.show_palettes = true,
            "-spec" => return Err(bad("deprecated option '-spec': use '-pal spec'")),
            "-odim" | "-orct" | "-r" | "-g" | "-b" => {
                return Err(bad(format!(
                    "option {opt} is not supported by daylit's falsecolor"
                )))
            }
            _ => return Err(bad(format!("bad option \"{opt}\""))),
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Args, FalseColourError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn options_as_falsecolor_takes_them() {
        let a = p("-i x.hdr -s auto -log 2 -n 5 -l Lux -pal hot -cl -lw 80 -lh 150 -d 1 -m 100")
            .unwrap();
        assert_eq!(a.input, Some("x.hdr".into()));
        assert_eq!(a.background, None);
        let o = &a.options;
        assert_eq!(o.scale, Scale::Auto);
        assert_eq!((o.decades, o.ndivs, o.digits, o.mult), (2.0, 5, 1, 100.0));
        assert_eq!((o.legend_width, o.legend_height), (80, 150));
        assert_eq!(
            (o.palette, o.contour, o.label.as_str()),
            (Palette::Hot, Contour::Lines, "Lux")
        );
        let a = p("-ip y.hdr -s 250 -c0 -e").unwrap();
        assert_eq!(a.input, a.background);
        assert_eq!(a.options.scale, Scale::Value(250.0));
        assert_eq!(
            (a.options.legend_width, a.options.contour),
            (0, Contour::Off)
        );
        assert!(a.options.extrema);
        assert_eq!(p("").unwrap().options, Options::default());
        assert!(p("-palettes").unwrap().show_palettes);
        for (args, msg) in [
            ("-pal tbo", "invalid palette 'tbo'"),
            ("-s", "needs a scale"),
            ("-n eight", "'eight' is not a valid number"),
            ("-odim 3 4", "not supported"),
            ("-x", "bad option \"-x\""),
        ] {
            let e = p(args).unwrap_err().to_string();
            assert!(e.contains(msg), "{args}: {e}");
        }
    }
}
