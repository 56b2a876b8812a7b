//! What the three- and five-phase methods refuse, and how: every case names the file and
//! line (or the option) and what was expected; none runs on with a part of the input dropped.

use daylit_coefficients::phases::{annual_phases, Method, PhaseError, PhaseSettings, ShadeControl};
use daylit_coefficients::{Sensor, TraceSettings};
use daylit_scene::LoadOptions;
use glam::DVec3;
use std::io::Read;
use std::path::{Path, PathBuf};

const ROOM: &str = "void plastic white 0 0 5 .5 .5 .5 0 0
white polygon floor 0 0 12 0 0 0  0 4 0  3 4 0  3 0 0
";

fn setup(window: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bsdf/tests/data");
    for n in ["pyradiance-clear", "pyradiance-blinds"] {
        let mut xml = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(data.join(format!("{n}.xml.gz"))).unwrap(),
        )
        .read_to_end(&mut xml)
        .unwrap();
        std::fs::write(dir.path().join(format!("{n}.xml")), xml).unwrap();
    }
    let scene = dir.path().join("room.rad");
    std::fs::write(&scene, format!("{ROOM}{window}")).unwrap();
    (dir, scene)
}

fn run(dir: &Path, scene: &Path, settings: &PhaseSettings) -> Result<(), PhaseError> {
    let weather = daylit_sky::weather::read_weather(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/annual/goldens/gso.wea"),
    )
    .unwrap();
    let load = LoadOptions {
        raypath: daylit_cal::RayPath::new([dir.to_path_buf()]),
        ..LoadOptions::default()
    };
    let sensors = [Sensor::new(DVec3::new(1.5, 2.0, 0.8), DVec3::Z)];
    annual_phases(
        &[scene.to_path_buf()],
        &load,
        settings,
        &sensors,
        &weather,
        &|_| {},
    )
    .map(|_| ())
}

/// Quick settings: the refusals come before any real tracing.
fn quick() -> PhaseSettings {
    PhaseSettings {
        trace: TraceSettings {
            ab: 1,
            ad: 16,
            ..TraceSettings::default()
        },
        d_samples: 4,
        sun_samples: 16,
        ..PhaseSettings::new(Method::ThreePhase)
    }
}

const WINDOW: &str = "void BSDF glazing 6 0 pyradiance-clear.xml 0 0 1 . 0 0
glazing polygon window 0 0 12 0.5 0 0.8  0.5 0 2.5  2.5 0 2.5  2.5 0 0.8
";

fn message(r: Result<(), PhaseError>) -> String {
    match r {
        Ok(()) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_scene_without_bsdf_windows_is_refused() {
    let (dir, scene) = setup("");
    let m = message(run(dir.path(), &scene, &quick()));
    assert!(
        m.contains("need window groups") && m.contains("BSDF"),
        "{m}"
    );
}

#[test]
fn a_bsdf_on_a_sphere_names_the_sphere() {
    let (dir, scene) =
        setup("void BSDF glazing 6 0 pyradiance-clear.xml 0 0 1 . 0 0\nglazing sphere ball 0 0 4 1 1 1 .5\n");
    let m = message(run(dir.path(), &scene, &quick()));
    assert!(
        m.contains("room.rad:4:") && m.contains("sphere 'ball'") && m.contains("polygons"),
        "{m}"
    );
}

#[test]
fn a_proxy_with_thickness_is_refused() {
    let (dir, scene) = setup(&WINDOW.replace("6 0 pyradiance", "6 0.01 pyradiance"));
    let m = message(run(dir.path(), &scene, &quick()));
    assert!(m.contains("room.rad:3:") && m.contains("thickness"), "{m}");
}

#[test]
fn a_variable_up_vector_is_refused() {
    let (dir, scene) = setup(&WINDOW.replace("0 0 1 .", "0 0 Dz ."));
    let m = message(run(dir.path(), &scene, &quick()));
    assert!(
        m.contains("room.rad:3:") && m.contains("up vector") && m.contains("\"Dz\""),
        "{m}"
    );
}

#[test]
fn a_state_for_a_material_that_is_not_a_window_is_refused() {
    let (dir, scene) = setup(WINDOW);
    let mut s = quick();
    s.states = vec![("glass".into(), dir.path().join("pyradiance-blinds.xml"))];
    let m = message(run(dir.path(), &scene, &s));
    assert!(
        m.contains("--state glass=") && m.contains("no polygon"),
        "{m}"
    );
}

#[test]
fn a_bad_schedule_names_its_line() {
    let (dir, scene) = setup(WINDOW);
    let csv = dir.path().join("shades.csv");
    std::fs::write(&csv, "glazing\n0\n# a comment\npyradiance-blinds\nhalf\n").unwrap();
    let mut s = quick();
    s.states = vec![("glazing".into(), dir.path().join("pyradiance-blinds.xml"))];
    s.shade = ShadeControl::Schedule(csv.clone());
    let m = message(run(dir.path(), &scene, &s));
    assert!(
        m.contains("shades.csv:5:") && m.contains("'half' is not a state"),
        "{m}"
    );
    // Right states, too few rows.
    std::fs::write(&csv, "glazing\n0\n1\npyradiance-blinds\n").unwrap();
    let m = message(run(dir.path(), &scene, &s));
    assert!(m.contains("3 rows") && m.contains("8760 records"), "{m}");
    // A column that is not a group.
    std::fs::write(&csv, "glazing,skylight\n0,0\n").unwrap();
    let m = message(run(dir.path(), &scene, &s));
    assert!(
        m.contains("shades.csv:1:") && m.contains("'skylight' is not a window group"),
        "{m}"
    );
}
