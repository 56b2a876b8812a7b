//! The reports of an annual glare run: JSON (the hours, then each view's series and summary),
//! CSV (one row per view and hour) and the terminal summary (glare hours and autonomy per
//! view, work and time per position).

use crate::skies::Hour;
use crate::AnnualGlare;
use serde_json::json;
use std::fmt::Write as _;

impl AnnualGlare {
    /// The JSON: `hours` as `[month, day, hour]`, `views` with their point, direction, series
    /// (`dgp`, `ugp`, `ev`, `dgps`, `ugr`, one value per hour) and `summary`.
    pub fn to_json(&self, hours: &[Hour]) -> serde_json::Value {
        let hours: Vec<_> = hours
            .iter()
            .map(|h| json!([h.month, h.day, h.hour]))
            .collect();
        let views: Vec<_> = self
            .views
            .iter()
            .map(|v| {
                json!({
                    "point": v.view.point.to_array(),
                    "direction": v.view.direction.to_array(),
                    "dgp": v.series.dgp,
                    "ugp": v.series.ugp,
                    "ev": v.series.ev,
                    "dgps": v.series.dgps,
                    "ugr": v.series.ugr,
                    "summary": v.summary,
                })
            })
            .collect();
        json!({ "hours": hours, "views": views })
    }

    /// The CSV: a header line, then one row per view and hour (view numbered from 1, its
    /// point and direction, month, day, hour, Ev to 0.01 lux, DGP, DGPs and UGP to 1e-4,
    /// UGR to 0.01).
    pub fn to_csv(&self, hours: &[Hour]) -> String {
        let hours: Vec<[f64; 3]> = hours
            .iter()
            .map(|h| [h.month as f64, h.day as f64, h.hour])
            .collect();
        let mut s = String::from("view,x,y,z,dx,dy,dz,month,day,hour,ev,dgp,dgps,ugp,ugr\n");
        for (k, v) in self.views.iter().enumerate() {
            let (p, d) = (v.view.point, v.view.direction);
            for (h, t) in hours.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{},{:.2},{:.4},{:.4},{:.4},{:.2}",
                    k + 1,
                    p.x,
                    p.y,
                    p.z,
                    d.x,
                    d.y,
                    d.z,
                    t[0],
                    t[1],
                    t[2],
                    v.series.ev[h],
                    v.series.dgp[h],
                    v.series.dgps[h],
                    v.series.ugp[h],
                    v.series.ugr[h]
                );
            }
        }
        s
    }

    /// The terminal summary over `hours` evaluated hours: per view the hours with DGP at or
    /// above 0.35, 0.40 and 0.45, the glare autonomy and the mean DGP; per position the
    /// samples, suns, views and seconds spent.
    pub fn summary(&self, hours: usize) -> String {
        let mut s = format!("annual glare over {hours} occupied daylight hours\n");
        s +=
            "view  point               direction           DGP>=.35 >=.40 >=.45  GA     mean DGP\n";
        for (k, v) in self.views.iter().enumerate() {
            let (p, d, m) = (v.view.point, v.view.direction, &v.summary);
            let _ = writeln!(
                s,
                "{:<5} {:>5.2} {:>5.2} {:>5.2}   {:>5.2} {:>5.2} {:>5.2}   {:>8} {:>5} {:>5}  {:>5.1}% {:.3}",
                k + 1,
                p.x,
                p.y,
                p.z,
                d.x,
                d.y,
                d.z,
                m.above_035,
                m.above_040,
                m.above_045,
                100.0 * m.glare_autonomy,
                m.mean_dgp
            );
        }
        for t in &self.points {
            let _ = writeln!(
                s,
                "point {:.2} {:.2} {:.2}: {} sky samples in {:.1} s, {} suns in {:.1} s, {} views × {} hours in {:.1} s",
                t.point.x, t.point.y, t.point.z, t.sky_samples, t.sky_s, t.suns, t.sun_s, t.views, hours, t.evaluate_s
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::annual::{PointTiming, ViewResult};
    use crate::evaluate::{Series, Summary};
    use crate::skies::Hour;
    use crate::{AnnualGlare, ViewSpec};
    use glam::DVec3;

    fn result() -> (AnnualGlare, Vec<Hour>) {
        let hours = vec![
            Hour {
                record: 10,
                month: 3,
                day: 21,
                hour: 12.5,
            },
            Hour {
                record: 11,
                month: 3,
                day: 21,
                hour: 13.5,
            },
        ];
        let view = ViewResult {
            view: ViewSpec {
                point: DVec3::new(1.0, 2.0, 1.2),
                direction: DVec3::new(0.0, -1.0, 0.0),
            },
            series: Series {
                ev: vec![1234.567, 2000.0],
                dgp: vec![0.31234, 0.41],
                dgps: vec![0.3, 0.35],
                ugp: vec![0.2, 0.25],
                ugr: vec![18.004, 21.5],
            },
            summary: Summary {
                hours: 2,
                above_035: 1,
                above_040: 1,
                above_045: 0,
                glare_autonomy: 0.5,
                mean_dgp: 0.36117,
                max_dgp: 0.41,
            },
        };
        let timing = PointTiming {
            point: DVec3::new(1.0, 2.0, 1.2),
            sky_samples: 4000,
            suns: 2,
            sky_s: 1.26,
            sun_s: 0.5,
            evaluate_s: 0.14,
            views: 1,
        };
        (
            AnnualGlare {
                views: vec![view],
                points: vec![timing],
            },
            hours,
        )
    }

    #[test]
    fn csv_rows_per_view_and_hour() {
        let (r, hours) = result();
        let csv = r.to_csv(&hours);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[1],
            "1,1,2,1.2,0,-1,0,3,21,12.5,1234.57,0.3123,0.3000,0.2000,18.00"
        );
    }

    #[test]
    fn json_holds_hours_series_and_summary() {
        let (r, hours) = result();
        let j = r.to_json(&hours);
        assert_eq!(j["hours"][1], serde_json::json!([3, 21, 13.5]));
        assert_eq!(j["views"][0]["dgp"][1], 0.41);
        assert_eq!(j["views"][0]["summary"]["above_040"], 1);
    }

    #[test]
    fn summary_lines() {
        let (r, _) = result();
        let s = r.summary(2);
        assert!(s.starts_with("annual glare over 2 occupied daylight hours\n"));
        assert!(
            s.contains("1      1.00  2.00  1.20    0.00 -1.00  0.00          1     1     0   50.0% 0.361\n"),
            "{s}"
        );
        assert!(s.ends_with(
            "point 1.00 2.00 1.20: 4000 sky samples in 1.3 s, 2 suns in 0.5 s, 1 views × 2 hours in 0.1 s\n"
        ));
    }
}
