//! Weather readers: the Greensboro year in all three formats, conventions, and located errors.

use daylit_sky::weather::{parse_weather, read_weather, Quantities, WeatherError, WeatherFormat};
use std::path::Path;

fn tmy3_text() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/weather/723170TYA.CSV"),
    )
    .unwrap()
}

const WEA: &str = "place Somewhere_XX\nlatitude 36.1\nlongitude 79.95\ntime_zone 75\nsite_elevation 273\nweather_data_file_units 1\n1 1 11.5 500 100\n1 1 12.5 600 90\n";

#[test]
fn tmy3_year_is_read_with_radiance_conventions() {
    let w = parse_weather(&tmy3_text(), "723170TYA.CSV").unwrap();
    assert_eq!(w.format, WeatherFormat::Tmy3);
    assert_eq!(w.quantities, Quantities::RadiometricNormal);
    assert_eq!(w.records.len(), 8760);
    assert!(w.coverage_note().is_none());
    let s = &w.site;
    assert_eq!(
        (s.latitude, s.longitude, s.meridian, s.elevation),
        (36.1, 79.95, 75.0, 273.0)
    );
    assert!(s.name.contains("GREENSBORO"));
    let r = w.records[0];
    assert_eq!(
        (r.month, r.day, r.hour, r.dew_point),
        (1, 1, 0.5, Some(6.1))
    );
    let last = w.records[8759];
    assert_eq!((last.month, last.day, last.hour), (12, 31, 23.5));
    // 1 January 12:00 (the noon hour, 11:00-12:00): DNI and DHI columns.
    let noon = w.records[11];
    assert_eq!(noon.hour, 11.5);
    assert!(noon.direct >= 0.0 && noon.diffuse > 0.0);
}

#[test]
fn wea_partial_year_is_allowed_and_reported() {
    let w = parse_weather(WEA, "x.wea").unwrap();
    assert_eq!(w.format, WeatherFormat::Wea);
    assert_eq!(w.records.len(), 2);
    assert_eq!((w.site.longitude, w.site.meridian), (79.95, 75.0));
    assert_eq!(w.records[1].hour, 12.5);
    assert!(w.coverage_note().unwrap().contains("2 records"));
    // Round trip through our writer.
    assert_eq!(
        parse_weather(&w.to_wea(), "y.wea").unwrap().records,
        w.records
    );
}

fn err(text: &str) -> String {
    match parse_weather(text, "f") {
        Ok(_) => panic!("accepted: {text:.80}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn errors_name_file_line_and_expectation() {
    let bad_row = WEA.replace("1 1 12.5 600 90", "1 1 12.5 six 90");
    assert_eq!(
        err(&bad_row),
        "f:8: expected direct irradiance (a number), found 'six'"
    );
    let short = WEA.replace("1 1 12.5 600 90", "1 1 12.5");
    assert!(err(&short).starts_with("f:8: expected 'month day hour direct diffuse'"));
    assert!(err(&WEA.replace("1 1 11.5", "2 30 11.5"))
        .starts_with("f:7: day 30 does not exist in month 2"));
    assert!(err(&WEA.replace("latitude 36.1", "latitude 136.1"))
        .contains("f:2: latitude 136.1 is out of range"));
    assert!(err(&WEA.replace("time_zone 75\n", "")).contains("expected 'time_zone <number>'"));
    assert!(err("hello\nworld\n").starts_with("f: not a weather file"));
    // TMY3: a missing row is a partial year; a missing column is named.
    let text = tmy3_text();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(500);
    let e = err(&lines.join("\n"));
    assert!(
        e.contains("holds 8759 records; expected a whole year (8760"),
        "{e}"
    );
    let renamed = text.replacen("DNI (W/m^2)", "XNI", 1);
    assert!(err(&renamed).contains("f:2: missing column 'DNI ("));
    let cut: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 9 {
                l[..30].to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(err(&cut.join("\n")).starts_with("f:10: missing column"));
}

#[test]
fn epw_is_read_from_its_header_and_columns() {
    let mut epw = String::from(
        "LOCATION,Here,ST,USA,src,1,-33.5,151.25,10.0,20\nDESIGN CONDITIONS,0\nTYPICAL/EXTREME PERIODS,0\n\
         GROUND TEMPERATURES,0\nHOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0\nCOMMENTS 1,\nCOMMENTS 2,\n\
         DATA PERIODS,1,1,Data,Sunday, 1/ 1,12/31\n",
    );
    let days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    for (m, &n) in days.iter().enumerate() {
        for d in 1..=n {
            for h in 1..=24 {
                epw += &format!(
                    "1999,{},{d},{h},60,?,20,99.9,50,100000,0,0,0,300,{},{},0,0,0,0\n",
                    m + 1,
                    10 * h,
                    h
                );
            }
        }
    }
    let w = parse_weather(&epw, "x.epw").unwrap();
    assert_eq!(w.format, WeatherFormat::Epw);
    // East-positive longitude and time zone become RADIANCE's west-positive values.
    assert_eq!(
        (w.site.latitude, w.site.longitude, w.site.meridian),
        (-33.5, -151.25, -150.0)
    );
    let r = w.records[2];
    assert_eq!(
        (r.hour, r.direct, r.diffuse, r.dew_point),
        (2.5, 30.0, 3.0, None)
    );
    let missing = epw.replacen(",300,10,1,", ",300,9999,1,", 1);
    assert!(
        err(&missing).starts_with("f:9: direct normal or diffuse horizontal irradiance is missing")
    );
    let partial: String = epw.lines().take(100).map(|l| format!("{l}\n")).collect();
    assert!(err(&partial).contains("holds 92 records"));
}

#[test]
fn unreadable_file_is_an_error() {
    let e = read_weather(Path::new("/nonexistent/w.epw")).unwrap_err();
    assert!(matches!(e, WeatherError::Io { .. }));
    assert!(e.to_string().starts_with("/nonexistent/w.epw: cannot read"));
}
