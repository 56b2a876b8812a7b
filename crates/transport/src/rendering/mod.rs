//! Pictures of a view as rpict makes them: the resolution fitted to the view, the irradiance
//! cache built from the pixels traced first and extended as adaptive sampling refines
//! ([`adaptive`]: `-ps`, `-pt`), jittered pixel rays (`-pj`), and each pixel's distance (the
//! z-file). A sequence of frames shares one cache.
//!
//! ```no_run
//! # fn run(mut renderer: daylit_transport::Renderer) -> Result<(), String> {
//! use daylit_transport::rendering::{prepare_cache, render_frame, Frame, PictureOptions};
//! let options = PictureOptions::default();
//! let frame = Frame::new(daylit_image::View::default(), &options)?;
//! let notes = prepare_cache(&mut renderer, std::slice::from_ref(&frame), options.ps, false)?;
//! let picture = render_frame(&mut renderer, &options, &frame, false, None);
//! let image = picture.image(&frame, &options, vec!["rpict -vf view.vf".into()]);
//! # Ok(()) }
//! ```

pub mod adaptive;

use crate::irradiance_cache::MAX_PRIMARIES;
use crate::{Ctx, Renderer};
use adaptive::Progress;
use daylit_image::{HdrImage, View, ViewFrame};
use glam::DVec3;
use rand::Rng;
use std::sync::{Arc, RwLock};

/// How a picture is sampled, in rpict's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureOptions {
    /// `-x`: the largest width in pixels.
    pub xres: usize,
    /// `-y`: the largest height in pixels.
    pub yres: usize,
    /// `-pa`: the pixel aspect ratio the resolution is fitted to (0 keeps `-x` and `-y`).
    pub aspect: f64,
    /// `-pj`: how far within its pixel a ray is jittered (0 to 1).
    pub jitter: f64,
    /// `-ps`: pixel sample spacing (1 traces every pixel).
    pub ps: usize,
    /// `-pt`: pixel sample tolerance.
    pub pt: f64,
}

impl Default for PictureOptions {
    /// rpict's defaults.
    fn default() -> Self {
        PictureOptions {
            xres: 512,
            yres: 512,
            aspect: 1.0,
            jitter: 0.67,
            ps: 4,
            pt: 0.05,
        }
    }
}

/// One picture to render: its view and resolution.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The view as given.
    pub view: View,
    frame: ViewFrame,
    /// Pixels across, fitted to the view.
    pub xres: usize,
    /// Pixels up, fitted to the view.
    pub yres: usize,
}

impl Frame {
    /// The frame of `view` at the resolution `options` allow; an impossible view is an error.
    pub fn new(view: View, options: &PictureOptions) -> Result<Frame, String> {
        let frame = view.frame().map_err(|e| format!("bad view: {}", e.0))?;
        let (xres, yres) = fit_resolution(
            frame.vn / frame.hn,
            options.aspect,
            options.xres,
            options.yres,
        );
        Ok(Frame {
            view,
            frame,
            xres: xres.max(1),
            yres: yres.max(1),
        })
    }
}

/// RADIANCE's `normaspect`: fits the resolution to the view's aspect and the pixel aspect.
pub fn fit_resolution(view_aspect: f64, pa: f64, x: usize, y: usize) -> (usize, usize) {
    if pa <= 1e-6 {
        return (x, y);
    }
    if view_aspect * x as f64 > pa * y as f64 {
        (((y as f64) / view_aspect * pa + 0.5) as usize, y)
    } else {
        (x, ((x as f64) * view_aspect / pa + 0.5) as usize)
    }
}

/// Builds (or reads, with `-af`) one irradiance cache for all `frames`, from the rays of the
/// pixels that adaptive sampling traces first (every `-ps`-th pixel of every `-ps`-th row, or
/// sparser when there are many), before any pixel is traced; [`render_frame`] adds records
/// for the pixels each level of refinement traces. RADIANCE's lazy cache, too, makes records
/// only where pixels are traced (`-ps 4` gives it about half the records of `-ps 1`).
/// Returns what the user should hear (warnings, and the cache's statistics when `stats`).
pub fn prepare_cache(
    renderer: &mut Renderer,
    frames: &[Frame],
    ps: usize,
    stats: bool,
) -> Result<Vec<String>, String> {
    let per_frame = (MAX_PRIMARIES / frames.len().max(1)).max(1 << 12);
    let grids: Vec<(usize, usize, usize)> = frames
        .iter()
        .map(|f| {
            let step = ((f.xres * f.yres) as f64 / per_frame as f64)
                .sqrt()
                .ceil()
                .max(ps.max(1) as f64) as usize;
            (step, f.xres.div_ceil(step), f.yres.div_ceil(step))
        })
        .collect();
    // Frame k's primaries start at starts[k].
    let starts: Vec<usize> = grids
        .iter()
        .scan(0, |n, &(_, nx, ny)| {
            let at = *n;
            *n += nx * ny;
            Some(at)
        })
        .collect();
    let total: usize = grids.iter().map(|&(_, nx, ny)| nx * ny).sum();
    let prepared = renderer.prepare_irradiance_cache(total, |rd, i, ctx| {
        let k = starts.partition_point(|&s| s <= i) - 1;
        let (f, (step, nx, _)) = (&frames[k], grids[k]);
        let i = i - starts[k];
        let (col, row) = ((i % nx) * step, (i / nx) * step);
        let x = (col as f64 + 0.5) / f.xres as f64;
        let y = 1.0 - (row as f64 + 0.5) / f.yres as f64;
        if let Some(ray) = f.frame.ray(x, y) {
            rd.radiance(ray.origin, ray.dir, ctx);
        }
    })?;
    let mut notes: Vec<String> = prepared
        .warnings
        .iter()
        .map(|w| format!("warning: {w}\n"))
        .collect();
    if let Some(c) = renderer.irradiance_cache().filter(|_| stats) {
        notes.push(prepared.stats.report(c));
    }
    Ok(notes)
}

/// A rendered frame: colours and distances, rows top to bottom.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// Pixel values (W/sr/m² per channel).
    pub pixels: Vec<[f32; 3]>,
    /// Each pixel's distance to what it shows (RADIANCE's `raydistance`: through glass, or to
    /// the image in a mirror), as rpict's z-file holds it.
    pub depths: Vec<f32>,
    /// What the user should hear (warnings; the cache's statistics when asked for).
    pub notes: Vec<String>,
}

impl Rendered {
    /// The picture with RADIANCE's header: `header` first (the command line, the software),
    /// then the view and the pixel aspect as rpict writes them.
    pub fn image(&self, f: &Frame, options: &PictureOptions, header: Vec<String>) -> HdrImage {
        let mut img = HdrImage::new(0, 0);
        (img.width, img.height, img.pixels) = (f.xres, f.yres, self.pixels.clone());
        img.program = "RADIANCE".into();
        img.header = header;
        let view = f.view.to_options();
        img.header.push(format!("VIEW= {view}"));
        img.view = Some(view);
        if options.aspect > 0.0 && (options.aspect - 1.0).abs() > 1e-9 {
            img.header.push(format!("PIXASPECT= {}", options.aspect));
        }
        img
    }

    /// The z-file's bytes: each distance a 4-byte float in the machine's order, as RADIANCE's
    /// rpict writes them.
    pub fn depth_bytes(&self) -> Vec<u8> {
        self.depths.iter().flat_map(|d| d.to_ne_bytes()).collect()
    }
}

/// Traces one frame with a renderer whose cache [`prepare_cache`] made; the records that
/// refinement adds stay in the renderer for the next frame of a sequence (and in `-af`).
/// `stats` adds the cache's statistics to the notes; `progress` hears finished scanlines.
pub fn render_frame(
    renderer: &mut Renderer,
    options: &PictureOptions,
    f: &Frame,
    stats: bool,
    progress: Option<Progress>,
) -> Rendered {
    let (frame, xres, yres) = (&f.frame, f.xres, f.yres);
    let jitter = options.jitter;
    let mut notes = Vec::new();
    // Pixel (col, row)'s ray, jittered from the pixel's own random sequence.
    let pixel_ray = |ctx: &mut Ctx, col: usize, row: usize| {
        renderer.reseed(ctx, (row * xres + col) as u64);
        let (mut jx, mut jy) = (0.5, 0.5);
        if jitter > 0.0 {
            jx += jitter * (ctx.rng.random::<f64>() - 0.5);
            jy += jitter * (ctx.rng.random::<f64>() - 0.5);
        }
        let x = (col as f64 + jx) / xres as f64;
        let y = 1.0 - (row as f64 + jy) / yres as f64;
        frame.ray(x, y)
    };
    let trace = |ctx: &mut Ctx, col: usize, row: usize| match pixel_ray(ctx, col, row) {
        Some(ray) => {
            let r = renderer.radiance(ray.origin, ray.dir, ctx);
            let v: DVec3 = r.value;
            // The z-file's distance, also what refinement compares.
            ([v.x as f32, v.y as f32, v.z as f32], r.distance())
        }
        None => ([0.0; 3], 0.0),
    };
    // The cache was built from the first grid of samples; each level of refinement adds
    // records where its pixels find none, before they are traced.
    let cache = RwLock::new(renderer.irradiance_cache().cloned());
    let current = || cache.read().unwrap_or_else(|e| e.into_inner()).clone();
    let mut round = 0;
    let refine = |at: &[usize]| {
        let Some(c) = current() else { return };
        let primary = |rd: &Renderer, i: usize, ctx: &mut Ctx| {
            if let Some(ray) = pixel_ray(ctx, at[i] % xres, at[i] / xres) {
                rd.radiance(ray.origin, ray.dir, ctx);
            }
        };
        let (more, st) = renderer.extend_irradiance_cache(&c, at.len(), primary, round);
        round += 1;
        if stats {
            notes.push(format!("refinement {round}: {}", st.report(&more)));
        }
        *cache.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(more));
    };
    let init = || {
        let mut ctx = renderer.ctx(0);
        ctx.use_irradiance_cache(current());
        ctx
    };
    let (pixels, depths) = adaptive::fill(
        xres,
        yres,
        (options.ps, options.pt),
        init,
        trace,
        refine,
        progress,
    );
    // Later frames of a sequence start from the records this one added; `-af` keeps them.
    let grown = cache.into_inner().unwrap_or_else(|e| e.into_inner());
    let added = grown.as_ref().map(|c| c.len()) != renderer.irradiance_cache().map(|c| c.len());
    renderer.set_irradiance_cache(grown);
    if added {
        if let Some(w) = renderer.save_irradiance_cache() {
            notes.push(format!("warning: {w}\n"));
        }
    }
    if let Some(c) = renderer.irradiance_cache().filter(|_| stats) {
        notes.push(format!(
            "irradiance cache: final gathers per level while rendering: {:?}\n",
            c.gathers()
        ));
    }
    Rendered {
        pixels,
        depths,
        notes,
    }
}
