//! rad's views: standard views placed on the zone (`Xy`, `Zl`, …), named views with the up
//! vector of UP, and the selection of `rad -v`.

use super::{first_word, is_integer, Rif, RifError, Var};
use daylit_radfile::printf::format_g_digits;
use daylit_radfile::scan::atoi;

impl Rif {
    /// The up axis UP names: 1, 2, 3 for X, Y, Z, negative for `-X` …, 0 when not set.
    fn up_axis(&self) -> Result<i32, RifError> {
        let Some(v) = self.get(Var::Up) else {
            return Ok(0);
        };
        let b = v.as_bytes();
        let (sign, letter) = match b.first() {
            Some(b'-') => (-1, b.get(1)),
            Some(b'+') => (1, b.get(1)),
            _ => (1, b.first()),
        };
        let axis = match letter.map(|c| c.to_ascii_uppercase()) {
            Some(b'X') => 1,
            Some(b'Y') => 2,
            Some(b'Z') => 3,
            _ => return Err(Self::bad(Var::Up)),
        };
        Ok(sign * axis)
    }

    /// The view options for a `view` value: a standard view (`[Xx]?[Yy]?[Zz]?[vlcahs]?`,
    /// placed on the zone) with any options after it, or a name followed by options (the up
    /// vector of UP put first), or options alone. `None`: a name alone that is no standard
    /// view.
    pub fn view_options(&self, value: &str) -> Result<Option<String>, RifError> {
        if value.starts_with('-') {
            return Ok(Some(value.to_string()));
        }
        const UP: [&str; 7] = [
            "-vu 0 0 -1",
            "-vu 0 -1 0",
            "-vu -1 0 0",
            "-vu 0 0 1",
            "-vu 1 0 0",
            "-vu 0 1 0",
            "-vu 0 0 1",
        ];
        let mut upax = self.up_axis()?;
        let b = value.as_bytes();
        let mut i = 0;
        let mut pos = [0i32; 3];
        for (axis, (hi, lo)) in [(b'X', b'x'), (b'Y', b'y'), (b'Z', b'z')]
            .into_iter()
            .enumerate()
        {
            match b.get(i) {
                Some(&c) if c == hi => {
                    pos[axis] = 1;
                    i += 1;
                }
                Some(&c) if c == lo => {
                    pos[axis] = -1;
                    i += 1;
                }
                _ => {}
            }
        }
        let view_type = match b.get(i) {
            Some(&c) if b"vlahsc".contains(&c) => {
                i += 1;
                c as char
            }
            _ => 'v',
        };
        let rest_is_options = b.get(i).is_none_or(|c| c.is_ascii_whitespace());
        let mut out = String::new();
        let rest;
        if rest_is_options && pos != [0, 0, 0] {
            let zone = self.zone()?;
            let mult = if zone.exterior { 2.0 } else { 0.45 };
            let g3 = |x: f64| format_g_digits(x, 3);
            let mut vp = [0.0; 3];
            let mut vd = [0.0; 3];
            for k in 0..3 {
                let dim = zone.max[k] - zone.min[k];
                let cent = zone.min[k] + 0.5 * dim;
                vp[k] = cent + pos[k] as f64 * mult * dim;
                // The sign is flipped on the integer, so no -0 is written.
                vd[k] = (-pos[k]) as f64 * dim;
            }
            out += &format!(
                "-vt{view_type} -vp {} {} {} -vd {} {} {}",
                g3(vp[0]),
                g3(vp[1]),
                g3(vp[2]),
                g3(vd[0]),
                g3(vd[1]),
                g3(vd[2])
            );
            // A view straight along the up axis looks with another axis up.
            let [x, y, z] = pos;
            match upax {
                0 | 3 | -3 if x == 0 && y == 0 => upax = 2,
                2 | -2 if x == 0 && z == 0 => upax = 1,
                1 | -1 if y == 0 && z == 0 => upax = 3,
                _ => {}
            }
            out += " ";
            out += UP[(upax + 3) as usize];
            match view_type {
                'v' => out += " -vh 45 -vv 45",
                'l' => {
                    let dims: f64 = (0..3)
                        .map(|k| (zone.max[k] - zone.min[k]).powi(2))
                        .sum::<f64>()
                        .sqrt();
                    out += &format!(" -vh {} -vv {}", g3(dims), g3(dims));
                }
                'c' => out += " -vh 180 -vv 90",
                _ => out += " -vh 180 -vv 180",
            }
            rest = &value[i..];
        } else {
            // A name: skip it; a name alone is no view.
            let Some(end) = value.find(|c: char| c.is_ascii_whitespace()) else {
                return Ok(None);
            };
            if upax != 0 {
                out += UP[(upax + 3) as usize];
            }
            rest = &value[end..];
        }
        if out.is_empty() {
            out += rest.get(1..).unwrap_or("");
        } else {
            out += rest;
        }
        Ok(Some(out))
    }

    /// View `n` (from 0) of the `view` variable, or of the selection `select` (`rad -v`: a
    /// number, a name in the file, a standard view or options): its name for file names and
    /// its options. `None`: no such view.
    pub fn view(
        &self,
        n: usize,
        select: Option<&str>,
    ) -> Result<Option<(String, String)>, RifError> {
        let views = self.all(Var::View);
        let numbered = |k: usize| -> Result<Option<(String, String)>, RifError> {
            let Some(v) = views.get(k) else {
                return Ok(None);
            };
            let name = if v.starts_with('-') {
                (k + 1).to_string()
            } else {
                first_word(v).to_string()
            };
            Ok(self.view_options(v)?.map(|o| (name, o)))
        };
        let Some(sel) = select else {
            return numbered(n);
        };
        if n > 0 {
            return Ok(None);
        }
        if is_integer(sel) {
            let k = atoi(sel) - 1;
            return if k < 0 {
                Ok(None)
            } else {
                numbered(k as usize)
            };
        }
        if sel.starts_with('-') {
            return Ok(Some(("0".into(), sel.to_string())));
        }
        let name = first_word(sel).to_string();
        let chosen = views
            .iter()
            .find(|v| first_word(v) == name)
            .map_or(sel, String::as_str);
        Ok(self.view_options(chosen)?.map(|o| (name, o)))
    }
}
