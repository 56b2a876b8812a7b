//! The report of `daylit glare --annual`: for each view, the daylight glare probability (DGP)
//! hour by hour as a day × hour map ([`crate::temporal`]) in the four comfort classes of
//! Wienold (2009) — imperceptible below 0.35, perceptible to 0.40, disturbing to 0.45,
//! intolerable above — and the hours at or above each class limit, in `glare_report.html`
//! (offline, as [`crate::html`]'s report: inline style, pictures as data: URIs).

use crate::html::{esc, figure, Picture, ReportInputs, STYLE};
use crate::report::{write_atomic, ReportError};
use crate::temporal::{temporal_png, TemporalSpec};
use daylit_falsecolor::{Bands, Palette};
use daylit_sky::weather::Record;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// DGP class limits: perceptible, disturbing, intolerable glare from these up.
pub const DGP_LIMITS: [f64; 3] = [0.35, 0.40, 0.45];

/// The classes' colours: green, yellow, orange, red.
const CLASS_COLOURS: [[u8; 3]; 4] = [[60, 170, 80], [245, 205, 50], [240, 130, 40], [200, 30, 30]];

/// One view's DGP per evaluated hour.
#[derive(Clone, Debug, PartialEq)]
pub struct GlareView {
    /// How the report names it, e.g. `"1.8 4.5 1.2 → 0 -1 0"`.
    pub label: String,
    /// DGP at each hour, in the order of the hours.
    pub dgp: Vec<f64>,
}

/// Hours with DGP at or above `limit`.
pub fn hours_at_least(dgp: &[f64], limit: f64) -> usize {
    dgp.iter().filter(|&&g| g >= limit).count()
}

/// The DGP bands: the four comfort classes.
pub fn dgp_bands() -> Bands {
    Bands::new(vec![0.0, DGP_LIMITS[0], DGP_LIMITS[1], DGP_LIMITS[2], 1.0]).expect("increasing")
}

/// Writes into `dir` (created if missing) one DGP map per view (`glare_dgp_<k>.png`, `k`
/// counting from 1) and `glare_report.html`; `hours` are the evaluated hours as (month, day,
/// hour at the middle of the interval). Returns the pictures' paths and the page's.
pub fn write_glare_report(
    dir: &Path,
    hours: &[(u32, u32, f64)],
    views: &[GlareView],
    inputs: &ReportInputs,
) -> Result<(Vec<PathBuf>, PathBuf), ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let records: Vec<Record> = hours
        .iter()
        .map(|&(month, day, hour)| Record {
            month,
            day,
            hour,
            direct: 0.0,
            diffuse: 0.0,
            dew_point: None,
        })
        .collect();
    let text = inputs
        .provenance
        .as_ref()
        .map(|p| p.png_text())
        .unwrap_or_default();
    let mut pictures = Vec::new();
    for (k, v) in views.iter().enumerate() {
        let spec = TemporalSpec {
            title: format!("Daylight glare probability, view {}: {}", k + 1, v.label),
            subtitle: format!(
                "hours ≥ 0.35: {}, ≥ 0.40: {}, ≥ 0.45: {} of {} evaluated",
                hours_at_least(&v.dgp, DGP_LIMITS[0]),
                hours_at_least(&v.dgp, DGP_LIMITS[1]),
                hours_at_least(&v.dgp, DGP_LIMITS[2]),
                v.dgp.len()
            ),
            unit: "DGP".into(),
            bands: dgp_bands(),
            palette: Palette::Viridis,
            colours: CLASS_COLOURS.to_vec(),
            note: "day of the year; white: hours not evaluated (night or unoccupied)".into(),
        };
        let path = dir.join(format!("glare_dgp_{}.png", k + 1));
        let png = temporal_png(&records, &v.dgp, None, &spec)?;
        write_atomic(&path, &crate::maps::stamped(png, &text, &spec.title)?)?;
        pictures.push(Picture {
            path,
            caption: format!("DGP hour by hour, view {} ({})", k + 1, v.label),
        });
    }
    let page = dir.join("glare_report.html");
    write_atomic(
        &page,
        glare_html(hours.len(), views, &pictures, inputs)?.as_bytes(),
    )?;
    Ok((pictures.into_iter().map(|p| p.path).collect(), page))
}

/// The page's HTML.
fn glare_html(
    hours: usize,
    views: &[GlareView],
    pictures: &[Picture],
    inputs: &ReportInputs,
) -> Result<String, ReportError> {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Annual glare</title><style>{STYLE}</style></head><body>\n<header>\
         <h1>Annual glare</h1><p>{} views · {hours} evaluated hours · {} · daylit {}</p></header>\
         <main>\n<section id=\"summary\"><h2>Summary</h2><table>\n<tr><th>view</th>\
         <th>hours DGP ≥ 0.35 (perceptible)</th><th>≥ 0.40 (disturbing)</th>\
         <th>≥ 0.45 (intolerable)</th><th>highest DGP</th></tr>\n",
        views.len(),
        esc(&inputs.site),
        esc(&inputs.version)
    );
    for (k, v) in views.iter().enumerate() {
        let pct = |n: usize| 100.0 * n as f64 / v.dgp.len().max(1) as f64;
        let _ = write!(out, "<tr><td>{} {}</td>", k + 1, esc(&v.label));
        for limit in DGP_LIMITS {
            let n = hours_at_least(&v.dgp, limit);
            let _ = write!(out, "<td>{n} h ({:.1}&nbsp;%)</td>", pct(n));
        }
        let most = v.dgp.iter().copied().fold(0.0, f64::max);
        let _ = writeln!(out, "<td>{most:.2}</td></tr>");
    }
    out.push_str("</table></section>\n<section id=\"maps\"><h2>Hour by hour</h2>\n");
    for p in pictures {
        figure(&mut out, p)?;
    }
    out.push_str("</section>\n");
    crate::html::inputs_section(&mut out, inputs);
    out.push_str("</main></body></html>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_counts_and_files() {
        assert_eq!(dgp_bands().band(0.34), 0);
        assert_eq!(dgp_bands().band(0.35), 1);
        assert_eq!(dgp_bands().band(0.44), 2);
        assert_eq!(dgp_bands().band(0.9), 3);
        let dgp = vec![0.2, 0.35, 0.41, 0.5, 0.3];
        assert_eq!(DGP_LIMITS.map(|l| hours_at_least(&dgp, l)), [3, 2, 1]);
        let dir = tempfile::tempdir().unwrap();
        let hours: Vec<(u32, u32, f64)> = (0..5).map(|h| (6, 21, 10.5 + h as f64)).collect();
        let views = [GlareView {
            label: "desk".into(),
            dgp,
        }];
        let (pngs, page) =
            write_glare_report(dir.path(), &hours, &views, &ReportInputs::default()).unwrap();
        assert_eq!(pngs.len(), 1);
        let html = std::fs::read_to_string(page).unwrap();
        assert!(html.contains("<td>3 h (60.0&nbsp;%)</td><td>2 h (40.0&nbsp;%)</td><td>1 h (20.0&nbsp;%)</td><td>0.50</td>"), "{html}");
        assert!(html.contains("data:image/png;base64,"));
        assert!(
            write_glare_report(dir.path(), &hours[..2], &views, &ReportInputs::default()).is_err()
        );
    }
}
