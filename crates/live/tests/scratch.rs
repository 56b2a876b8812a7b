use daylit_image::View;
use daylit_live::metrics::Regions;
use daylit_live::progressive::{self, Accumulator, FrameKind, PixelGrid};
use daylit_live::session::{self, SkyKind, SkySetting, SkyTime};
use std::path::PathBuf;
use std::time::Instant;

#[test]
#[ignore]
fn scratch() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let sky = std::env::var("SKY").unwrap_or("clear".into());
    let vs = std::env::var("VIEW").unwrap();
    let res: usize = std::env::var("RES")
        .unwrap_or("256".into())
        .parse()
        .unwrap();
    let frames: u64 = std::env::var("FRAMES")
        .unwrap_or("64".into())
        .parse()
        .unwrap();
    let user = session::UserScene::load(&[
        root.join("../../examples/reference_office/office.rad"),
        root.join(format!("tests/golden/{sky}.rad")),
    ])
    .unwrap();
    let opts = daylit_live::config::live_defaults();
    let (direct, diffuse) = progressive::frame_options(&opts);
    let setting = SkySetting {
        kind: SkyKind::Scene,
        time: SkyTime::parse("12-21 14:00").unwrap(),
    };
    let (mut r, note) = user.renderer(&setting, None, &direct).unwrap();
    eprintln!("{note}");
    let view = View::parse(&vs).unwrap();
    let grid = PixelGrid::new(&view.frame().unwrap(), res, res);
    let never = || false;
    let t = Instant::now();
    let px0 = progressive::trace_frame(&r, &grid, FrameKind::Direct, &never).unwrap();
    eprintln!("frame 0 {:?}", t.elapsed());
    let mut acc = Accumulator::new(res, res, px0);
    r.opts = diffuse;
    let inside = grid.inside();
    let mut hist: Vec<(u64, f64, f64, f64)> = Vec::new();
    for i in 1..=frames {
        let f = progressive::trace_frame(&r, &grid, FrameKind::Diffuse(i), &never).unwrap();
        acc.add(&f);
        let te = Instant::now();
        let m = daylit_live::metrics::evaluate_with_sources(
            &grid,
            &acc.picture(),
            &acc.glare_picture(&inside),
            view.vdir,
            view.vup,
            &Regions::default(),
        )
        .unwrap();
        let m0 = daylit_live::metrics::evaluate(
            &grid,
            &acc.picture(),
            view.vdir,
            view.vup,
            &Regions::default(),
        )
        .unwrap();
        hist.push((i, m.ev, m.dgp, m.ugp));
        let se = |f: &dyn Fn(&(u64, f64, f64, f64)) -> f64| {
            daylit_live::metrics::standard_error(
                &hist.iter().map(|h| (h.0, f(h))).collect::<Vec<_>>(),
            )
        };
        if i.is_power_of_two() || i == frames || i < 8 {
            eprintln!("frame {i} t={:.1}s ev {:.1}±{:?} dgp {:.4}±{:?} ugp {:.4}±{:?} sources {} | raw dgp {:.4} ugp {:.4} src {} (eval {:?})", t.elapsed().as_secs_f64(), m.ev, se(&|h| h.1), m.dgp, se(&|h| h.2), m.ugp, se(&|h| h.3), m.sources, m0.dgp, m0.ugp, m0.sources, te.elapsed());
        }
    }
}
