//! Occupancy schedules: the default, CSV files, and their line-up with weather records.

use daylit_annual::{Schedule, ScheduleError};
use daylit_sky::weather::{parse_weather, read_weather, Record};
use std::path::Path;

/// Hourly records of a whole year as the weather readers give them (mid-hour times).
fn year(leap: bool) -> Vec<Record> {
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut out = Vec::new();
    for (m, &d) in days.iter().enumerate() {
        for day in 1..=d {
            for h in 0..24 {
                out.push(Record {
                    month: m as u32 + 1,
                    day,
                    hour: h as f64 + 0.5,
                    direct: 0.0,
                    diffuse: 0.0,
                    dew_point: None,
                });
            }
        }
    }
    out
}

#[test]
fn default_counts() {
    let s = Schedule::office(&year(false));
    assert_eq!((s.len(), s.occupied_hours()), (8760, 3650));
    let s = Schedule::office(&year(true));
    assert_eq!((s.len(), s.occupied_hours()), (8784, 3660));
    // Hours 8:00–9:00 through 17:00–18:00 of 1 January: indices 8..=17.
    let first_day: Vec<usize> = (0..24).filter(|&k| s.is_occupied(k)).collect();
    assert_eq!(first_day, (8..18).collect::<Vec<_>>());
}

/// The TMY3 reader labels hour-ending `09:00` as 8.5 (8:00–9:00): the first occupied row of
/// the file is the one stamped 09:00, the last one of the day is stamped 18:00.
#[test]
fn default_lines_up_with_tmy3_rows() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/weather/723170TYA.CSV");
    let w = read_weather(&path).unwrap();
    let s = Schedule::office(&w.records);
    assert_eq!(s.occupied_hours(), 3650);
    let text = std::fs::read_to_string(&path).unwrap();
    let stamps: Vec<&str> = text
        .lines()
        .skip(2)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(stamps.len(), s.len());
    let occupied: Vec<&str> = (0..24)
        .filter(|&k| s.is_occupied(k))
        .map(|k| stamps[k])
        .collect();
    assert_eq!(occupied.first(), Some(&"09:00"));
    assert_eq!(occupied.last(), Some(&"18:00"));
    assert_eq!(occupied.len(), 10);
}

/// An EPW-style (hour-ending 1..24) and a WEA-style (mid-hour) schedule both line up.
#[test]
fn daysim_rows_match_weather() {
    let recs = year(false);
    let mut mid = String::from("# Daysim occupancy file\n# time_step 60\nmonth,day,hour,occ\n");
    let mut ending = String::new();
    for r in &recs {
        let occ = u8::from(r.hour > 8.0 && r.hour < 18.0);
        mid.push_str(&format!("{},{},{},{occ}\n", r.month, r.day, r.hour));
        ending.push_str(&format!("{},{},{},{occ}\n", r.month, r.day, r.hour + 0.5));
    }
    let a = Schedule::parse(&mid, "mid.csv", &recs).unwrap();
    let b = Schedule::parse(&ending, "ending.csv", &recs).unwrap();
    assert_eq!(a, Schedule::office(&recs));
    assert_eq!(b, a);
}

#[test]
fn plain_values_and_fractions() {
    let recs = &year(false)[..4];
    let s = Schedule::parse("occupancy\n0\n0.25\n\n# note\n1\n0\n", "p.csv", recs).unwrap();
    assert_eq!(s.flags(), &[false, true, true, false]);
    assert_eq!(s.occupied_indices(), vec![1, 2]);
}

/// With the weather records of a real WEA file, a schedule shifted by an hour is refused.
#[test]
fn shifted_schedule_refused() {
    let wea = "place X\nlatitude 36\nlongitude 80\ntime_zone 75\nsite_elevation 0\n\
               weather_data_file_units 1\n1 1 0.5 0 0\n1 1 1.5 0 0\n";
    let recs = parse_weather(wea, "x.wea").unwrap().records;
    let err = Schedule::parse("1,1,1.5,1\n1,1,2.5,0\n", "shift.csv", &recs).unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("shift.csv:1:"), "{msg}");
    assert!(msg.contains("hour 0.5"), "{msg}");
}

fn err_of(text: &str, n: usize) -> String {
    let recs = &year(false)[..n];
    match Schedule::parse(text, "s.csv", recs) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted: {text:?}"),
    }
}

#[test]
fn errors_name_file_line_and_expectation() {
    let m = err_of("0\n1\nx\n", 3);
    assert!(
        m.starts_with("s.csv:3:") && m.contains("expected one occupancy value"),
        "{m}"
    );
    let m = err_of("0\n1,2\n", 2);
    assert!(
        m.starts_with("s.csv:2:") && m.contains("found 2 fields"),
        "{m}"
    );
    let m = err_of("1,2\n", 1);
    assert!(
        m.starts_with("s.csv:1:") && m.contains("month,day,hour,occupancy"),
        "{m}"
    );
    let m = err_of("0\n-1\n", 2);
    assert!(m.starts_with("s.csv:2:") && m.contains("negative"), "{m}");
    let m = err_of("0\n1\n1\n", 2);
    assert!(
        m.starts_with("s.csv:3:") && m.contains("row too many"),
        "{m}"
    );
    let m = err_of("0\n1\n", 3);
    assert!(
        m.starts_with("s.csv:") && m.contains("2 schedule rows") && m.contains("expected 3"),
        "{m}"
    );
    let m = err_of("header only\n", 3);
    assert!(m.contains("no schedule rows"), "{m}");
    let m = err_of("1,2,8.5,1\n", 1);
    assert!(
        m.starts_with("s.csv:1:") && m.contains("month 1, day 1"),
        "{m}"
    );
}

#[test]
fn missing_file_names_it() {
    let e = Schedule::read(Path::new("/nonexistent/occ.csv"), &year(false)).unwrap_err();
    assert!(matches!(e, ScheduleError::Io { .. }));
    assert!(e.to_string().contains("/nonexistent/occ.csv"));
}
