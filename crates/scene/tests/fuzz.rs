//! Deterministic mutation fuzzing of the scene reader and the binary scene decoder: whatever
//! the input, reading returns a scene or an error, never panics. (Coverage-guided fuzz targets
//! for longer runs live in fuzz/.)

use daylit_scene::{archive, load_scene_text, LoadOptions};
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};

const TOKENS: &[&str] = &[
    " 0",
    " -1",
    " 3",
    " 1e999",
    " .5",
    " polygon",
    " sphere",
    " alias",
    " void",
    " inherit",
    " plastic",
    " brightfunc",
    "\n!xform -a 3 -t 1 0 0 -rz 30",
    "\n!genbox m b 1 1 1 -r .1\n",
    "\n!genbox m b 1 2 3 | xform -I -mx -a 2 -s 2\n",
    "'",
    "\"",
    "#",
    "\n",
    " 99999999999",
    "\\\n",
    "!",
    " -i",
    " -a",
    " |",
    " skybright.cal",
    "\t",
    "\u{0}",
    "\u{ff}",
];

fn seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = vec![
        root.join("tests/scenes/all_types.rad"),
        root.join("tests/golden/base.rad"),
        root.join("../../examples/office/office.rad"),
        root.join("../../examples/office/sky.rad"),
    ];
    files.extend(
        std::fs::read_dir(root.join("tests/golden/xform"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

fn mutate(rng: &mut impl Rng, data: &mut Vec<u8>, pool: &[Vec<u8>]) {
    for _ in 0..rng.random_range(1..6) {
        let len = data.len().max(1);
        match rng.random_range(0..6) {
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
                let a = rng.random_range(0..data.len());
                let b = (a + rng.random_range(0..128)).min(data.len());
                let chunk = data[a..b].to_vec();
                let at = rng.random_range(0..=data.len());
                data.splice(at..at, chunk);
            }
            4 => {
                let other = &pool[rng.random_range(0..pool.len())];
                let a = rng.random_range(0..other.len().max(1)).min(other.len());
                let at = rng.random_range(0..len).min(data.len());
                data.truncate(at);
                data.extend_from_slice(&other[a..]);
            }
            _ => data.truncate(rng.random_range(0..len)),
        }
    }
}

#[test]
fn scene_reader_never_panics() {
    let pool = seeds();
    let dir = tempfile::tempdir().unwrap();
    let opts = LoadOptions {
        check_files: false,
        ..Default::default()
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(2026);
    let mut ok = 0;
    for i in 0..4000 {
        let mut data = pool[i % pool.len()].clone();
        mutate(&mut rng, &mut data, &pool);
        let text = String::from_utf8_lossy(&data);
        let r = std::panic::catch_unwind(|| load_scene_text(&text, "fuzz", dir.path(), &opts));
        match r {
            Ok(res) => ok += usize::from(res.is_ok()),
            Err(_) => panic!("panic on input:\n{text}"),
        }
    }
    // The mutations are mild enough that some inputs still parse: the fuzzer reaches past
    // the first error.
    assert!(ok > 100, "only {ok} inputs parsed");
}

#[test]
fn archive_decoder_never_panics() {
    let pool = seeds();
    let opts = LoadOptions {
        check_files: false,
        ..Default::default()
    };
    let scene = load_scene_text(
        std::str::from_utf8(&pool[1]).unwrap(),
        "base",
        Path::new("."),
        &opts,
    )
    .unwrap();
    let good = archive::encode(&scene, &["oconv base.rad".into()]);
    // Payload starts after "DLSC", version, length and checksum.
    let start = good.windows(4).position(|w| w == b"DLSC").unwrap() + 20;
    let payload = good[start..].to_vec();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
    let mut decoded = 0;
    for i in 0..3000 {
        let mut data = good.clone();
        if i % 2 == 0 {
            mutate(&mut rng, &mut data, std::slice::from_ref(&good));
        } else {
            // Damage the payload but fix length and checksum, so decoding goes deep.
            let mut p = payload.clone();
            mutate(&mut rng, &mut p, std::slice::from_ref(&payload));
            data.truncate(start - 12);
            data.extend_from_slice(&(p.len() as u64).to_le_bytes());
            data.extend_from_slice(&crc32fast::hash(&p).to_le_bytes());
            data.extend_from_slice(&p);
        }
        let r = std::panic::catch_unwind(|| archive::decode(&data).is_ok());
        decoded += usize::from(r.expect("panic decoding a mutated scene file"));
    }
    assert!(decoded < 3000);
}

/// The files of one of the CLI's golden input folders.
fn golden_inputs(program: &str, ext: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cli/tests/golden")
        .join(program)
        .join("inputs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// Runs `convert` on 1500 mutations of `pool`: an error or a result, never a panic; returns
/// how many converted.
fn never_panics(pool: &[Vec<u8>], seed: u64, convert: impl Fn(&[u8]) -> bool) -> usize {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut ok = 0;
    for i in 0..1500 {
        let mut data = pool[i % pool.len()].clone();
        mutate(&mut rng, &mut data, pool);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| convert(&data))) {
            Ok(r) => ok += usize::from(r),
            Err(_) => panic!("panic on input:\n{}", String::from_utf8_lossy(&data)),
        }
    }
    ok
}

#[test]
fn ies2rad_never_panics() {
    use daylit_scene::ies2rad::{convert, LampColor, LampTable, Options, BUILTIN_LAMP_TABLE};
    let lamp = LampColor::Table {
        table: LampTable::parse(BUILTIN_LAMP_TABLE, "lamp.tab").unwrap(),
        default: [1.0; 3],
    };
    let opts = Options::default();
    let pool = golden_inputs("ies2rad", "ies");
    let ok = never_panics(&pool, 11, |d| {
        convert(d, None, "fuzz", &["ies2rad".into()], &opts, &lamp).is_ok()
    });
    assert!(ok > 50, "only {ok} inputs converted");
}

#[test]
fn obj2rad_never_panics() {
    use daylit_scene::obj2rad::{obj2rad, qualifiers, Mapping, Options};
    let rules = golden_inputs("obj2rad", "map");
    let mapping = Mapping::parse(&String::from_utf8_lossy(&rules[3]), "rules.map").unwrap();
    let opts = Options {
        mapping: Some(mapping),
        ..Options::default()
    };
    let pool = golden_inputs("obj2rad", "obj");
    let ok = never_panics(&pool, 12, |d| {
        let text = String::from_utf8_lossy(d);
        qualifiers(&text, "fuzz");
        obj2rad(&text, "fuzz", &["obj2rad".into()], &opts).is_ok()
    });
    assert!(ok > 50, "only {ok} inputs converted");
    let parsed = never_panics(&rules, 14, |d| {
        Mapping::parse(&String::from_utf8_lossy(d), "fuzz").is_ok()
    });
    assert!(parsed > 50, "only {parsed} mapping files parsed");
}

#[test]
fn mgf2rad_never_panics() {
    use daylit_scene::mgf2rad::{mgf2rad, Options, Source};
    let opts = Options {
        spectra: true,
        ..Options::default()
    };
    let pool = golden_inputs("mgf2rad", "mgf");
    // From standard input: arrays cannot re-read it, so no mutated count loops long.
    let ok = never_panics(&pool, 15, |d| {
        mgf2rad(vec![Source::Stdin(d.to_vec())], "mgf2rad", &[], &opts).is_ok()
    });
    assert!(ok > 50, "only {ok} inputs converted");
}

#[test]
fn xform_program_never_panics() {
    use daylit_scene::xform_text::Xform;
    let opts = LoadOptions::default();
    let mut pool = golden_inputs("xform", "rad");
    pool.extend(seeds());
    let dir = tempfile::tempdir().unwrap();
    let ok = never_panics(&pool, 13, |d| {
        let input = d.to_vec();
        let mut stdin = || Ok(input.clone());
        let mut x = Xform::new(&opts, &mut stdin);
        let args: Vec<String> = "xform -n f -rz 30 -t 1 2 3"
            .split(' ')
            .map(String::from)
            .collect();
        x.run(&args, dir.path()).is_ok()
    });
    assert!(ok > 50, "only {ok} inputs transformed");
}
