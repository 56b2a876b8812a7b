//! `report.html`: one page a designer opens offline (no network: the style sheet is inline
//! and every picture is embedded as a `data:` URI, so the file can be mailed or moved on its
//! own). Its sections, each an element with an id a test can find:
//! - `#summary`: sDA and ASE with their pass/fail thresholds (LEED v4: sDA300/50% ≥ 55 % for 2
//!   points, ≥ 75 % for 3; ASE1000,250 ≤ 10 %, as LM-83), then the summary exactly as
//!   `daylit annual` prints it;
//! - `#maps`: the plan maps ([`crate::maps`]);
//! - `#temporal`: the day × hour maps ([`crate::temporal`]);
//! - `#inputs`: how the results were made (command line, daylit's version, scene and weather
//!   files, schedule, method, settings, seed), from a [`ReportInputs`] the caller fills.

use crate::maps::{ASE_LIMIT, SDA_LEED};
use crate::metrics::AnnualMetrics;
use crate::report::{summary, window_summary, write_atomic, ReportError, WindowStates};
use base64::Engine as _;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How the results were made, as the report lists them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportInputs {
    /// The command line, as typed.
    pub command_line: String,
    /// daylit's version.
    pub version: String,
    /// The scene files.
    pub scene_files: Vec<String>,
    /// The weather file.
    pub weather_file: String,
    /// The site, as the weather file names and places it.
    pub site: String,
    /// The occupancy schedule (a file, or the default's description).
    pub schedule: String,
    /// Where the sensors came from (a file, or the floor polygon and grid).
    pub sensors: String,
    /// The simulation method.
    pub method: String,
    /// Every other setting, name and value, in the order to list them (the seed among them).
    pub settings: Vec<(String, String)>,
    /// How the results were made, for the text chunks of the report's PNG maps.
    pub provenance: Option<daylit_radfile::provenance::Provenance>,
}

/// A picture for the report: a PNG file and its caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The PNG file (read and embedded).
    pub path: PathBuf,
    /// What it shows.
    pub caption: String,
}

/// Escapes text for HTML.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) const STYLE: &str = "
body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; margin: 0; color: #1a1a1a;
       background: #f4f4f2; }
header { background: #1d2a38; color: #fff; padding: 18px 32px; }
header h1 { margin: 0 0 4px 0; font-size: 24px; }
header p { margin: 0; color: #c8d2dc; }
main { padding: 8px 32px 32px 32px; max-width: 1100px; }
section { background: #fff; border-radius: 6px; padding: 12px 20px 18px 20px; margin-top: 18px;
          box-shadow: 0 1px 3px rgba(0,0,0,0.12); }
h2 { font-size: 19px; border-bottom: 1px solid #ddd; padding-bottom: 6px; }
.cards { display: flex; gap: 16px; flex-wrap: wrap; }
.card { flex: 1 1 220px; border-radius: 6px; padding: 12px 16px; border: 1px solid #ddd; }
.card .value { font-size: 30px; font-weight: bold; }
.card.pass { border-left: 6px solid #0a7a35; } .card.pass .verdict { color: #0a7a35; }
.card.fail { border-left: 6px solid #be1414; } .card.fail .verdict { color: #be1414; }
.card.none { border-left: 6px solid #888; }
pre { background: #f7f7f7; padding: 10px 14px; overflow-x: auto; font-size: 13px; }
figure { margin: 16px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }
figcaption { color: #444; font-size: 14px; margin-top: 4px; }
table { border-collapse: collapse; font-size: 14px; }
td, th { text-align: left; padding: 4px 12px 4px 0; vertical-align: top; border-bottom: 1px solid #eee; }
code { font-size: 13px; word-break: break-all; }
";

/// A picture as an `<img>` with its bytes inline.
pub(crate) fn figure(out: &mut String, p: &Picture) -> Result<(), ReportError> {
    let bytes = std::fs::read(&p.path).map_err(|source| ReportError::Io {
        path: p.path.clone(),
        source,
    })?;
    let name = p
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "<figure><img alt=\"{}\" data-file=\"{}\" src=\"data:image/png;base64,{}\">\
         <figcaption>{} <span class=\"file\">({})</span></figcaption></figure>",
        esc(&p.caption),
        esc(&name),
        base64::engine::general_purpose::STANDARD.encode(&bytes),
        esc(&p.caption),
        esc(&name),
    );
    Ok(())
}

/// One summary card: a metric, its value and whether it passes.
fn card(out: &mut String, name: &str, value: &str, pass: Option<bool>, verdict: &str) {
    let class = match pass {
        Some(true) => "pass",
        Some(false) => "fail",
        None => "none",
    };
    let _ = writeln!(
        out,
        "<div class=\"card {class}\"><div class=\"name\">{}</div><div class=\"value\">{}</div>\
         <div class=\"verdict\">{}</div></div>",
        esc(name),
        esc(value),
        // A number and its unit stay on one line.
        esc(verdict).replace(" %", "&nbsp;%")
    );
}

/// The report page as HTML text.
pub fn report_html(
    m: &AnnualMetrics,
    windows: &[WindowStates],
    maps: &[Picture],
    temporal: &[Picture],
    inputs: &ReportInputs,
) -> Result<String, ReportError> {
    let o = &m.options;
    let mut out = String::new();
    let title = match inputs.scene_files.first() {
        Some(f) => format!("Annual daylight: {f}"),
        None => "Annual daylight".to_string(),
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n<header><h1>{}</h1>\
         <p>{} sensors · {} occupied of {} hours · {} · daylit {}</p></header>\n<main>\n",
        esc(&title),
        esc(&title),
        m.sensors,
        m.occupied_hours,
        m.hours,
        esc(&inputs.site),
        esc(&inputs.version)
    );

    // Summary.
    out.push_str("<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">\n");
    let sda_name = format!(
        "sDA{}/{}%",
        o.da_threshold,
        (o.sda_fraction * 100.0).round()
    );
    let sda_verdict = if m.sda >= SDA_LEED.1 {
        "meets LEED v4 for 3 points (≥ 75 %)"
    } else if m.sda >= SDA_LEED.0 {
        "meets LEED v4 for 2 points (≥ 55 %); 3 points from 75 %"
    } else {
        "below LEED v4's 55 % (2 points) and 75 % (3 points)"
    };
    card(
        &mut out,
        &sda_name,
        &format!("{:.1} %", m.sda * 100.0),
        Some(m.sda >= SDA_LEED.0),
        sda_verdict,
    );
    let ase_name = format!("ASE{},{}", o.ase_threshold, o.ase_hours);
    match m.ase {
        Some(a) => card(
            &mut out,
            &ase_name,
            &format!("{:.1} %", a * 100.0),
            Some(a <= ASE_LIMIT),
            if a <= ASE_LIMIT {
                "passes: at most 10 % of the floor (LEED v4, LM-83)"
            } else {
                "fails: more than 10 % of the floor (LEED v4, LM-83)"
            },
        ),
        None => card(
            &mut out,
            &ase_name,
            "–",
            None,
            "not computed: no direct-sun illuminance",
        ),
    }
    let mean = m.mean_lux.iter().sum::<f64>() / m.mean_lux.len().max(1) as f64;
    card(
        &mut out,
        "mean illuminance",
        &format!("{mean:.0} lux"),
        None,
        "over occupied hours and sensors",
    );
    out.push_str("</div>\n<pre class=\"terminal\">");
    out.push_str(&esc(&summary(m)));
    out.push_str(&esc(&window_summary(windows)));
    out.push_str("</pre></section>\n");

    // Pictures.
    out.push_str("<section id=\"maps\"><h2>Maps</h2>\n");
    for p in maps {
        figure(&mut out, p)?;
    }
    out.push_str("</section>\n<section id=\"temporal\"><h2>Through the year</h2>\n");
    for p in temporal {
        figure(&mut out, p)?;
    }
    out.push_str("</section>\n");

    inputs_section(&mut out, inputs);
    out.push_str("</main></body></html>\n");
    Ok(out)
}

/// The "Settings and inputs" section: how the results were made (rows left empty by the
/// caller are left out).
pub(crate) fn inputs_section(out: &mut String, inputs: &ReportInputs) {
    out.push_str("<section id=\"inputs\"><h2>Settings and inputs</h2><table>\n");
    let mut row = |k: &str, v: &str| {
        if !v.is_empty() {
            let _ = writeln!(
                out,
                "<tr><th>{}</th><td><code>{}</code></td></tr>",
                esc(k),
                esc(v)
            );
        }
    };
    row("command line", &inputs.command_line);
    row("daylit version", &inputs.version);
    row("scene files", &inputs.scene_files.join("\n"));
    row("weather file", &inputs.weather_file);
    row("site", &inputs.site);
    row("sensors", &inputs.sensors);
    row("occupancy", &inputs.schedule);
    row("method", &inputs.method);
    for (k, v) in &inputs.settings {
        row(k, v);
    }
    out.push_str("</table></section>\n");
}

/// Writes [`report_html`] to `path` atomically.
pub fn write_report(
    path: &Path,
    m: &AnnualMetrics,
    windows: &[WindowStates],
    maps: &[Picture],
    temporal: &[Picture],
    inputs: &ReportInputs,
) -> Result<(), ReportError> {
    write_atomic(
        path,
        report_html(m, windows, maps, temporal, inputs)?.as_bytes(),
    )
}

/// What [`write_annual_report`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The plan maps.
    pub maps: Vec<PathBuf>,
    /// The day × hour maps.
    pub temporal: Vec<PathBuf>,
    /// The report page.
    pub report: PathBuf,
}

/// The hourly illuminance a report draws its day × hour maps from.
#[derive(Clone, Copy, Debug)]
pub struct Year<'a> {
    /// The weather records, one per hour of the illuminance.
    pub records: &'a [daylit_sky::weather::Record],
    /// The occupancy schedule.
    pub schedule: &'a crate::schedule::Schedule,
    /// Illuminance of every sensor at every hour, lux.
    pub total: &'a crate::metrics::Illuminance<'a>,
    /// Its direct-sun part, when computed.
    pub sun: Option<&'a crate::metrics::Illuminance<'a>>,
}

/// Writes into `dir` (created if missing) the plan maps ([`crate::maps::write_maps`], with the
/// plan when given), the day × hour maps ([`crate::temporal::write_temporal_maps`]) and
/// `report.html` showing them with the summary and `inputs`.
pub fn write_annual_report(
    dir: &Path,
    sensors: &crate::sensors::SensorSet,
    m: &AnnualMetrics,
    windows: &[WindowStates],
    plan: Option<&crate::plan::Plan>,
    year: &Year,
    inputs: &ReportInputs,
) -> Result<Written, ReportError> {
    let maps = crate::maps::write_maps(dir, sensors, m, plan, inputs.provenance.as_ref())?;
    let captions: Vec<String> = crate::maps::standard_maps(m)
        .into_iter()
        .map(|(_, _, spec)| spec.title)
        .collect();
    let temporal = crate::temporal::write_temporal_maps(
        dir,
        year.records,
        Some(year.schedule),
        year.total,
        year.sun,
        m.options.ase_threshold,
        inputs.provenance.as_ref(),
    )?;
    let temporal_captions = [
        "The room's mean illuminance at each hour of the year".to_string(),
        format!(
            "How many sensors get direct sun of at least {} lux (ASE's threshold) at each hour",
            m.options.ase_threshold
        ),
    ];
    let pictures = |paths: &[PathBuf], captions: &[String]| -> Vec<Picture> {
        paths
            .iter()
            .zip(captions)
            .map(|(path, caption)| Picture {
                path: path.clone(),
                caption: caption.clone(),
            })
            .collect()
    };
    let report = dir.join("report.html");
    write_report(
        &report,
        m,
        windows,
        &pictures(&maps, &captions),
        &pictures(&temporal, &temporal_captions),
        inputs,
    )?;
    Ok(Written {
        maps,
        temporal,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(esc("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
    }
}
