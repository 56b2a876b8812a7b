//! Deterministic mutation fuzzing of the weather readers: whatever the bytes, reading returns
//! weather or an error, never panics; and whatever weather comes back, gendaymtx does not
//! panic on it either.

use daylit_sky::gendaymtx::{sky_matrix, Options};
use daylit_sky::weather::parse_weather;
use rand::{Rng, SeedableRng};

const TOKENS: &[&str] = &[
    ",",
    "\n",
    " ",
    "-",
    "9999",
    "99.9",
    "1e999",
    "NaN",
    "\"",
    "24:00",
    "02/29/1999",
    "place ",
    "LOCATION,",
    "DATA PERIODS,1,1,",
    "0",
    "-1",
    "13",
    "\u{0}",
    "\u{ff}",
    ":",
    "/",
];

fn seeds() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmy = std::fs::read_to_string(root.join("../../examples/weather/723170TYA.CSV")).unwrap();
    // Short pieces keep each parse fast; a whole-year seed is mutated less often.
    let tmy_short: String = tmy.lines().take(40).map(|l| format!("{l}\n")).collect();
    let wea = std::fs::read(root.join("tests/golden/gendaymtx/days.wea")).unwrap();
    let epw = "LOCATION,A,B,C,D,1,36.1,-79.9,-5.0,273\nDESIGN CONDITIONS,0\nTYPICAL/EXTREME PERIODS,0\nGROUND TEMPERATURES,0\nHOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0\nCOMMENTS 1,\nCOMMENTS 2,\nDATA PERIODS,1,1,Data,Sunday, 1/ 1,12/31\n1999,1,1,12,60,?,20,5,50,100000,0,0,0,300,400,100,0\n";
    vec![tmy_short.into_bytes(), wea, epw.as_bytes().to_vec()]
}

fn mutate(rng: &mut impl Rng, data: &mut Vec<u8>) {
    for _ in 0..rng.random_range(1..6) {
        match rng.random_range(0..5) {
            0 if !data.is_empty() => {
                let i = rng.random_range(0..data.len());
                data[i] ^= 1 << rng.random_range(0..8);
            }
            1 if !data.is_empty() => {
                let a = rng.random_range(0..data.len());
                let b = (a + rng.random_range(0..64)).min(data.len());
                data.drain(a..b);
            }
            2 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                let at = rng.random_range(0..=data.len());
                data.splice(at..at, t.iter().copied());
            }
            3 if !data.is_empty() => {
                // Duplicate or drop a whole line.
                let text = String::from_utf8_lossy(data).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                let i = rng
                    .random_range(0..lines.len().max(1))
                    .min(lines.len().saturating_sub(1));
                if rng.random_bool(0.5) && !lines.is_empty() {
                    lines.remove(i);
                } else if let Some(&l) = lines.get(i) {
                    lines.insert(i, l);
                }
                *data = lines.join("\n").into_bytes();
            }
            _ => {
                let at = rng.random_range(0..=data.len());
                data.truncate(at);
            }
        }
    }
}

#[test]
fn mutated_weather_files_never_panic() {
    let seeds = seeds();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2024);
    let mut accepted = 0;
    for round in 0..3000 {
        let mut data = seeds[round % seeds.len()].clone();
        mutate(&mut rng, &mut data);
        let text = String::from_utf8_lossy(&data);
        if let Ok(w) = parse_weather(&text, "fuzz") {
            accepted += 1;
            let _ = sky_matrix(&w, &Options::default());
        }
    }
    // The mutations must leave some inputs valid, or the matrix path is never exercised.
    assert!(accepted > 50, "only {accepted} mutated files were accepted");
}
