//! Timing of the products on files named by DAYLIT_BENCH_DC and DAYLIT_BENCH_SKY (run by
//! bench/dctimestep.sh; ignored in the normal test run).

use daylit_matrix::{illuminance, multiply, read_matrix_file, ReadOptions};
use std::time::Instant;

#[test]
#[ignore]
fn speed() {
    let (Ok(dc), Ok(sky)) = (
        std::env::var("DAYLIT_BENCH_DC"),
        std::env::var("DAYLIT_BENCH_SKY"),
    ) else {
        eprintln!("set DAYLIT_BENCH_DC and DAYLIT_BENCH_SKY");
        return;
    };
    let t = Instant::now();
    let dc = read_matrix_file(dc.as_ref(), &ReadOptions::default())
        .unwrap()
        .matrix;
    let sky = read_matrix_file(sky.as_ref(), &ReadOptions::default())
        .unwrap()
        .matrix;
    println!(
        "speed: read both matrices {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let rgb = multiply(&dc, &sky).unwrap();
    println!(
        "speed: multiply {}x{} by {}x{} RGB {:.2} s",
        dc.rows(),
        dc.cols(),
        sky.rows(),
        sky.cols(),
        t.elapsed().as_secs_f64()
    );
    drop(rgb);
    let t = Instant::now();
    let lux = illuminance(&dc, &sky).unwrap();
    println!(
        "speed: illuminance {}x{} lux {:.2} s",
        lux.rows(),
        lux.cols(),
        t.elapsed().as_secs_f64()
    );
    let mut grey = sky.clone();
    grey.data_mut().chunks_exact_mut(3).for_each(|c| {
        c[1] = c[0];
        c[2] = c[0];
    });
    let t = Instant::now();
    let lux = illuminance(&dc, &grey).unwrap();
    println!(
        "speed: illuminance, grey sky {}x{} lux {:.2} s",
        lux.rows(),
        lux.cols(),
        t.elapsed().as_secs_f64()
    );
}
