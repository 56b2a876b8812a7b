//! Shards of an annual study merge to the single-process result bit for bit (issue 21 item 3),
//! on the bundled annual example (examples/reference_office in Greensboro, README "Two
//! commands"), with a coarser sensor grid and lighter tracing than `daylit annual`'s defaults
//! to keep a debug build quick: equality of bits does not depend on either.

use daylit_annual::{GridOptions, SensorSet};
use daylit_coefficients::shards::{
    decode, encode, merge, Layout, Partial, Plan, Prepared, ShardError, Study, Traced,
};
use daylit_coefficients::{
    annual_illuminance, sky_scene, AnnualIlluminance, Sensor, TraceSettings,
};
use daylit_scene::LoadOptions;
use daylit_sky::patches::Subdivision;
use glam::DVec3;
use std::path::{Path, PathBuf};

fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(path)
}

/// The sensors `daylit annual --floor floor --spacing 1.2` puts in the reference office.
fn sensors(scene: &Path) -> Vec<Sensor> {
    let loaded = daylit_scene::load_scene(&[scene.to_path_buf()], &LoadOptions::default()).unwrap();
    let floor = loaded
        .prims
        .iter()
        .rev()
        .find(|p| p.name == "floor")
        .unwrap();
    let poly: Vec<[f64; 3]> = floor
        .fargs
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let grid = GridOptions {
        height: 0.8,
        spacing: 1.2,
    };
    SensorSet::from_polygon(&poly, &grid)
        .unwrap()
        .sensors
        .iter()
        .map(|s| {
            Sensor::new(
                DVec3::from_array(s.position),
                DVec3::from_array(s.direction),
            )
        })
        .collect()
}

fn study(patch_blocks: usize) -> Study {
    let scene = example("reference_office/office.rad");
    let mut study = Study::new(
        vec![scene.clone()],
        sensors(&scene),
        example("weather/723170TYA.CSV"),
    );
    study.trace = TraceSettings {
        ab: 2,
        ad: 128,
        lw: 1e-3,
        seed: 7,
    };
    study.patch_blocks = patch_blocks;
    study
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn rgb_bits(v: &[[f32; 3]]) -> Vec<u32> {
    v.iter().flatten().map(|x| x.to_bits()).collect()
}

/// Every array of `a` equals that of `b`, bit for bit.
fn assert_same(a: &AnnualIlluminance, b: &AnnualIlluminance, what: &str) {
    assert_eq!((a.sensors, a.steps), (b.sensors, b.steps), "{what}: shape");
    assert!(bits(&a.total) == bits(&b.total), "{what}: total differs");
    assert!(
        bits(&a.two_phase) == bits(&b.two_phase),
        "{what}: two-phase differs"
    );
    assert!(
        bits(&a.direct_sun) == bits(&b.direct_sun),
        "{what}: direct sun differs"
    );
    assert!(
        rgb_bits(&a.coefficients.total) == rgb_bits(&b.coefficients.total)
            && rgb_bits(&a.coefficients.direct) == rgb_bits(&b.coefficients.direct),
        "{what}: coefficients differ"
    );
}

/// Runs `plan`'s shards as a worker would: each spec and result through bytes, the sensor
/// shards traced last-first, the products handed to the merge in reverse order.
fn run_apart(prepared: &Prepared, plan: &Plan) -> AnnualIlluminance {
    let mut traced: Vec<(usize, Vec<u8>)> = Vec::new();
    for shard in plan.sensor_shards.iter().rev() {
        let shard = decode(&encode(shard), "sensor shard").unwrap();
        let t = prepared.trace(&shard, &|_| {}).unwrap();
        traced.push((shard.id, encode(&t)));
    }
    let traced: Vec<Traced> = traced
        .iter()
        .map(|(_, b)| decode(b, "traced block").unwrap())
        .collect();
    let mut partials: Vec<Partial> = Vec::new();
    for shard in &plan.product_shards {
        let t = traced.iter().find(|t| t.sensors == shard.sensors).unwrap();
        let p = prepared.product(t, shard).unwrap();
        partials.push(decode(&encode(&p), "partial product").unwrap());
    }
    partials.reverse();
    merge(plan, &traced, &partials).unwrap()
}

#[test]
fn shards_merge_to_the_single_process_year_bit_for_bit() {
    // `daylit annual`'s path: one patch block, the scene loaded by the caller.
    let one = study(1);
    let n = one.sensors.len();
    assert!(n >= 20, "{n} sensors");
    let load = LoadOptions::default();
    let sky = sky_scene(
        &one.scene,
        &load,
        one.trace.options().unwrap(),
        Subdivision::Reinhart(1),
    )
    .unwrap();
    let weather = daylit_sky::weather::read_weather(&one.weather).unwrap();
    let single = annual_illuminance(&sky, &one.sensors, &weather, &|_| {}).unwrap();
    assert!(single.total.iter().any(|&v| v > 100.0), "a lit year");
    // The canonical sums agree with dctimestep's product (daylit-matrix, blocked by faer)
    // up to the order of the f64 sum: the f32 results within one or two units in the last place.
    let sky_mtx = daylit_sky::gendaymtx::sky_matrix(&weather, &Default::default()).unwrap();
    let mut s = vec![0.0f32; sky_mtx.rows * sky_mtx.columns * 3];
    for c in 0..sky_mtx.columns {
        for p in 0..sky_mtx.rows {
            let v = sky_mtx.data[c * sky_mtx.rows + p];
            s[(p * sky_mtx.columns + c) * 3..][..3].copy_from_slice(&v);
        }
    }
    let s = daylit_matrix::Matrix::new(sky_mtx.rows, sky_mtx.columns, 3, s).unwrap();
    let dc = &single.coefficients;
    let a = daylit_matrix::Matrix::new(
        dc.sensors,
        dc.bins,
        3,
        dc.total.iter().flatten().copied().collect(),
    )
    .unwrap();
    let faer = daylit_matrix::illuminance(&a, &s).unwrap().into_data();
    let (mut differ, mut worst) = (0, 0.0f32);
    for (x, y) in single.two_phase.iter().zip(&faer) {
        assert!((x - y).abs() <= 2.5e-7 * x.abs(), "{x} {y}");
        if x != y {
            differ += 1;
            worst = worst.max((x - y).abs() / x.abs());
        }
    }
    eprintln!(
        "canonical sums against faer's: {differ} of {} values differ, by at most {worst:e} (relative)",
        faer.len()
    );

    let prepared = Prepared::new(&one).unwrap();
    for layout in [(1, 1), (7, 1), (n - 1, 1)] {
        let layout = Layout {
            sensors_per_shard: layout.0,
            patch_blocks_per_shard: layout.1,
        };
        let plan = one.plan(&layout).unwrap();
        assert_same(
            &single,
            &run_apart(&prepared, &plan),
            &format!("{layout:?}"),
        );
    }

    // Three canonical patch blocks: layouts that cut them differently merge alike.
    let three = study(3);
    let prepared = Prepared::new(&three).unwrap();
    let whole = prepared
        .run(&three.plan(&Layout::WHOLE).unwrap(), &|_| {})
        .unwrap();
    for layout in [(5, 1), (9, 2), (n, 1), (4, 3)] {
        let layout = Layout {
            sensors_per_shard: layout.0,
            patch_blocks_per_shard: layout.1,
        };
        let plan = three.plan(&layout).unwrap();
        assert!(plan.product_shards.len() > 1);
        assert_same(
            &whole,
            &run_apart(&prepared, &plan),
            &format!("3 blocks, {layout:?}"),
        );
    }
    // Another block count changes only the rounding of the sums (f64 sums rounded to f32).
    assert!(bits(&whole.direct_sun) == bits(&single.direct_sun));
    for (a, b) in whole.two_phase.iter().zip(&single.two_phase) {
        assert!((a - b).abs() <= 1e-6 * a.abs().max(1e-3), "{a} {b}");
    }
}

#[test]
fn merge_refuses_missing_repeated_and_foreign_results() {
    let study = study(2);
    let prepared = Prepared::new(&study).unwrap();
    let plan = study
        .plan(&Layout {
            sensors_per_shard: 10,
            patch_blocks_per_shard: 1,
        })
        .unwrap();
    let traced: Vec<Traced> = plan
        .sensor_shards
        .iter()
        .map(|s| prepared.trace(s, &|_| {}).unwrap())
        .collect();
    let partials: Vec<Partial> = plan
        .product_shards
        .iter()
        .map(|p| prepared.product(&traced[p.sensor_shard], p).unwrap())
        .collect();
    assert!(merge(&plan, &traced, &partials).is_ok());

    let err = |r: Result<AnnualIlluminance, ShardError>| r.err().map(|e| e.to_string()).unwrap();
    let e = err(merge(&plan, &traced, &partials[1..]));
    assert!(
        e.contains("sensor 0 and patch block 0 were not multiplied"),
        "{e}"
    );
    let mut twice = partials.clone();
    twice.push(partials[2].clone());
    let e = err(merge(&plan, &traced, &twice));
    assert!(e.contains("multiplied twice"), "{e}");
    let e = err(merge(&plan, &traced[1..], &partials));
    assert!(e.contains("sensor 0 was not traced"), "{e}");
    // A product shard given another block's traced sensors.
    let e = prepared
        .product(&traced[1], &plan.product_shards[0])
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs sensors 0..10"), "{e}");
    // Bytes of the wrong kind.
    let e = decode::<Traced>(&encode(&plan.sensor_shards[0]), "traced block")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("cannot decode traced block"), "{e}");
    // Settings checked before any file is read.
    let mut bad = study.clone();
    bad.patch_blocks = 500;
    let e = bad.plan(&Layout::WHOLE).unwrap_err().to_string();
    assert!(e.contains("patch_blocks 500: expected 1 to 146"), "{e}");
}
