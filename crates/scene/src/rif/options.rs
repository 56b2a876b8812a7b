//! What rad derives from the variables for the programs it runs: rpict's rendering options
//! for each QUALITY, DETAIL, VARIABILITY and PENUMBRAS, pfilt's options, picture sizes and
//! reporting, a variable's program and options.

use super::{leading_int, leading_number, Level, RenderOptions, Resolution, Rif, RifError, Var};
use daylit_radfile::printf::format_g_digits;
use daylit_radfile::scan::{atof, atoi};

impl Rif {
    /// The ambient value: from EXPOSURE (a multiplier, or f-stops when signed), else 10 for
    /// an exterior zone and 0.01 for an interior one.
    fn ambient_value(&self) -> Result<f64, RifError> {
        if let Some(e) = self.get(Var::Exposure) {
            return Ok(if e.starts_with(['+', '-']) {
                0.18 / 2f64.powf(atof(e))
            } else {
                0.18 / atof(e)
            });
        }
        match self.get(Var::Zone).and_then(|z| z.chars().next()) {
            Some(c) if c.eq_ignore_ascii_case(&'E') => Ok(10.0),
            Some(c) if c.eq_ignore_ascii_case(&'I') => Ok(0.01),
            _ => Err(Self::bad(Var::Zone)),
        }
    }

    /// The program a variable names (its first word when that is not an option) and the
    /// options it adds, each preceded by a space (`None`: the variable is not set).
    pub fn program_options(&self, var: Var, default: &str) -> (String, Option<String>) {
        match self.get(var) {
            None => (default.to_string(), None),
            Some(v) if !v.starts_with('-') => {
                let mut it = v.splitn(2, |c: char| c.is_ascii_whitespace());
                let prog = it.next().unwrap_or(default).to_string();
                let rest = it.next().unwrap_or("").trim_start();
                (prog, Some(format!(" {rest}")))
            }
            Some(v) => (default.to_string(), Some(format!(" {v}"))),
        }
    }

    /// The rendering options rad derives from QUALITY, DETAIL, VARIABILITY, PENUMBRAS,
    /// INDIRECT, AMBFILE, EXPOSURE and the zone, for a scene whose bounding cube has sides of
    /// `cube_size`; then the `render` and `rpict` variables.
    pub fn render_options(&self, cube_size: f64) -> Result<RenderOptions, RifError> {
        let zone = self.zone()?;
        let sides: f64 = (0..3).map(|i| zone.max[i] - zone.min[i]).sum();
        let mean_side = sides / 3.0;
        let detail = self.level(Var::Detail);
        let penumbras = self.flag(Var::Penumbras);
        let quality = self.level(Var::Quality);
        let g2 = |x: f64| format_g_digits(x, 2);
        // Per quality: [(-ps without, with penumbras), -dp, -ar per cube/zone, zone/-ms] by
        // detail; then the fixed options.
        let (row, pt, penumbra_opts, direct, ambient, limits) = match quality {
            Level::Low => (
                [
                    (16, 16, 64, 8, 0.0),
                    (8, 8, 128, 16, 0.0),
                    (4, 4, 256, 32, 0.0),
                ],
                ".16",
                if penumbras { " -ds .4" } else { " -ds 0" },
                " -dt .1 -dc .5 -dr 0 -ss 0 -st .5",
                ["-aa .3 -ad 256", "-aa .25 -ad 512", "-aa .2 -ad 1024"],
                " -lr 6 -lw .001",
            ),
            Level::Medium => (
                [
                    (8, 4, 256, 16, 20.0),
                    (6, 3, 512, 32, 40.0),
                    (4, 2, 1024, 64, 80.0),
                ],
                ".08",
                if penumbras {
                    " -ds .2 -dj .9"
                } else {
                    " -ds .3"
                },
                " -dt .07 -dc .7 -dr 1 -ss 1 -st .1",
                [
                    "-aa .2 -ad 329 -as 42",
                    "-aa .15 -ad 800 -as 128",
                    "-aa .1 -ad 1536 -as 392",
                ],
                " -lr 8 -lw 1e-4",
            ),
            Level::High => (
                [
                    (8, 1, 1024, 32, 40.0),
                    (5, 1, 2048, 64, 80.0),
                    (3, 1, 4096, 128, 160.0),
                ],
                ".04",
                if penumbras {
                    " -ds .1 -dj .9"
                } else {
                    " -ds .2"
                },
                " -dt .04 -dc .9 -dr 3 -ss 16 -st .01",
                [
                    "-aa .125 -ad 512 -as 64",
                    "-aa .1 -ad 1536 -as 768",
                    "-aa .075 -ad 4096 -as 2048",
                ],
                " -lr 12 -lw 5e-6",
            ),
        };
        let (ps_plain, ps_penumbra, dp, ar_per, ms_div) = row[detail as usize];
        // LOW quality measures the cube against the mean side times three; the others
        // against the mean side.
        let ratio = if quality == Level::Low {
            cube_size * 3.0 / sides
        } else {
            cube_size / mean_side
        };
        let mut op = format!(" -dp {dp} -ar {}", (ar_per as f64 * ratio) as i64);
        if quality != Level::Low {
            op += &format!(" -ms {}", g2(mean_side / ms_div));
        }
        let ps = if penumbras { ps_penumbra } else { ps_plain };
        let mut po = format!(" -ps {ps} -pt {pt}");
        op += penumbra_opts;
        op += direct;
        let indirect = atoi(self.get(Var::Indirect).unwrap_or("0"));
        let mut overture = false;
        match quality {
            Level::Low => {}
            Level::Medium => {
                if indirect != 0 {
                    op += &format!(" -ab {indirect}");
                    overture = true;
                }
            }
            Level::High => {
                op += &format!(" -ab {}", indirect + 1);
                overture = indirect + 1 != 0;
            }
        }
        match self.get(Var::AmbFile) {
            Some(f) => op += &format!(" -af {f}"),
            None => overture = false,
        }
        op += " ";
        op += ambient[self.level(Var::Variability) as usize];
        if quality == Level::Low {
            op += " -as 0";
        }
        let av = g2(self.ambient_value()?);
        op += &format!(" -av {av} {av} {av}");
        op += limits;
        if let Some(r) = self.get(Var::Render) {
            op += " ";
            op += r;
            if let Some(i) = r.find("-aa ") {
                if atof(&r[i + 4..]) <= 1e-6 {
                    overture = false;
                }
            }
        }
        let (program, extra) = self.program_options(Var::Rpict, "rpict");
        if let Some(extra) = extra {
            po += &extra;
        }
        Ok(RenderOptions {
            program,
            shared: op,
            picture: po,
            overture,
        })
    }

    /// pfilt's program and options: exposure, then the filter QUALITY asks for, then the
    /// `pfilt` variable.
    pub fn pfilt_options(&self) -> (String, String) {
        let mut po = String::new();
        if let Some(e) = self.get(Var::Exposure) {
            po += &format!(" -1 -e {e}");
        }
        match self.level(Var::Quality) {
            Level::Low => {}
            Level::Medium => po += " -r .6",
            Level::High => po += " -m .25",
        }
        let (program, extra) = self.program_options(Var::Pfilt, "pfilt");
        if let Some(extra) = extra {
            po += &extra;
        }
        (program, po)
    }

    /// The picture size: RESOLUTION (x, y, pixel aspect) times the quality's oversampling.
    pub fn resolution(&self) -> Result<Resolution, RifError> {
        let v = self.get(Var::Resolution).unwrap_or("512");
        let words: Vec<&str> = v.split_ascii_whitespace().collect();
        let ints: Vec<i64> = words.iter().take(2).map_while(|w| leading_int(w)).collect();
        let aspect = (ints.len() == 2)
            .then(|| words.get(2).and_then(|w| leading_number(w)))
            .flatten();
        let mult = match self.level(Var::Quality) {
            Level::Low => 1,
            Level::Medium => 2,
            Level::High => 3,
        };
        match (ints.as_slice(), aspect) {
            ([x, y], Some(a)) => Ok(Resolution {
                options: format!("-x {} -y {} -pa {a:.3}", mult * x, mult * y),
                x: *x,
                y: *y,
                aspect: a,
                mult,
            }),
            ([x], _) | ([x, _], None) => {
                let y = ints.get(1).copied().unwrap_or(*x);
                Ok(Resolution {
                    options: format!("-x {} -y {}", mult * x, mult * y),
                    x: *x,
                    y,
                    aspect: 1.0,
                    mult,
                })
            }
            _ => Err(Self::bad(Var::Resolution)),
        }
    }

    /// rpict's reporting options from REPORT (minutes, and an error file).
    pub fn report_options(&self) -> Result<String, RifError> {
        let Some(v) = self.get(Var::Report) else {
            return Ok(String::new());
        };
        let mut words = v.split_ascii_whitespace();
        let minutes = words
            .next()
            .and_then(leading_number)
            .ok_or_else(|| Self::bad(Var::Report))?;
        let seconds = (minutes * 60.0) as i64;
        Ok(match words.next() {
            Some(file) => format!(" -t {seconds} -e {file}"),
            None => format!(" -t {seconds}"),
        })
    }
}
