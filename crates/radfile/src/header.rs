//! RADIANCE's information header: `#?RADIANCE`, then lines of text (the commands that made
//! the file, `FORMAT=`, `CAPDATE=`, …) up to a blank line. The readers of each kind of file
//! (matrices in `daylit-matrix`, pictures in `daylit-image`) interpret their own lines.

/// The start of a RADIANCE header: `#?RADIANCE` and `lines`, each ended by a newline.
pub fn header_start(lines: &[String]) -> String {
    let mut h = String::from("#?RADIANCE\n");
    for l in lines {
        h += l;
        h.push('\n');
    }
    h
}

/// A command line as RADIANCE's programs write it (`printargs`): words joined by spaces, a
/// word quoted when it is empty, holds white space, or holds a quote after its first
/// character and before its last (then in the other kind of quote).
pub fn command_line(program: &str, args: &[String]) -> String {
    let mut line = program.to_string();
    for a in args {
        line.push(' ');
        line.push_str(&word(a));
    }
    line
}

/// One word as RADIANCE's `fputword` writes it: quoted when it is empty, holds white space, or
/// holds a quote after its first character and before its last (then in the other kind of
/// quote).
pub fn word(a: &str) -> String {
    let b = a.as_bytes();
    let mut quote = None;
    let mut space = false;
    for (i, &c) in b.iter().enumerate() {
        let inner = i > 0 && i + 1 < b.len();
        if c.is_ascii_whitespace() {
            space = true;
        } else if inner && c == b'"' {
            quote = Some('\'');
        } else if inner && c == b'\'' {
            quote = Some('"');
        }
    }
    if a.is_empty() || space || quote.is_some() {
        let q = quote.unwrap_or('"');
        format!("{q}{a}{q}")
    } else {
        a.to_string()
    }
}

/// The `CAPDATE=` (local time) and `GMT=` lines RADIANCE programs put in the headers they
/// write, for the current time: `CAPDATE= 2026:11:21 08:05:13`.
pub fn date_lines() -> [String; 2] {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let offset = local_offset_seconds(now);
    [
        format!("CAPDATE= {}", civil(now + offset)),
        format!("GMT= {}", civil(now)),
    ]
}

/// `YYYY:MM:DD HH:MM:SS` of seconds since 1970 (proleptic Gregorian calendar).
fn civil(t: i64) -> String {
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    // Days to civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}:{m:02}:{d:02} {:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Seconds east of UTC of the local time zone at `t`.
#[cfg(unix)]
fn local_offset_seconds(t: i64) -> i64 {
    let tt = t as libc::time_t;
    // SAFETY: localtime_r only reads `tt` and writes the `tm` it is given; a zeroed `tm` is
    // a valid value of that plain C struct.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&tt, &mut tm).is_null() {
            0
        } else {
            tm.tm_gmtoff as i64
        }
    }
}

#[cfg(not(unix))]
fn local_offset_seconds(_t: i64) -> i64 {
    0
}

#[cfg(test)]
mod tests {
    use super::civil;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), "1970:01:01 00:00:00");
        assert_eq!(civil(951_782_400), "2000:02:29 00:00:00");
        assert_eq!(civil(1_795_248_313), "2026:11:21 08:05:13");
    }
}
