//! evalglare's output lines, character for character, so that scripts that parse evalglare's
//! output read ours.

use crate::evaluate::{BandStats, Evaluation};

/// A number as C's `%.Nf` prints it (glibc: `nan`, `-nan`, `inf`, `-inf`).
pub fn c_fixed(v: f64, decimals: usize) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.into();
    }
    format!("{v:.decimals$}")
}

/// `%f`.
pub fn c_f(v: f64) -> String {
    c_fixed(v, 6)
}

fn join(v: &[f64]) -> String {
    v.iter().map(|&x| c_f(x)).collect::<Vec<_>>().join(" ")
}

/// The default output line: `dgp,dgi,ugr,vcp,cgi,Lveil: …`.
pub fn default_line(e: &Evaluation) -> String {
    format!(
        "dgp,dgi,ugr,vcp,cgi,Lveil: {}  \n",
        join(&[
            e.dgp,
            e.dgi as f64,
            e.ugr as f64,
            e.vcp as f64,
            e.cgi as f64,
            e.lveil
        ])
    )
}

/// The `-D` output line.
pub fn detail2_line(e: &Evaluation) -> String {
    format!(
        "dgp,dgi,ugr,vcp,cgi,dgp_ext,Ev_calc,abs_max,Lveil: {} \n",
        join(&[
            e.dgp_own,
            e.dgi as f64,
            e.ugr as f64,
            e.vcp as f64,
            e.cgi as f64,
            e.dgp_ext_detail2,
            e.ev,
            e.abs_max,
            e.lveil
        ])
    )
}

/// The band line of `-B`.
pub fn band_line(b: &BandStats) -> String {
    format!(
        "band:band_omega,band_av_lum,band_median_lum,band_std_lum,band_perc_75,band_perc_95,band_lum_min,band_lum_max: {}\n",
        join(&[b.omega, b.mean, b.median, b.std, b.p75, b.p95, b.min, b.max])
    )
}

/// The glare-source table of `-d`: a header line with the count, then one line per source
/// (or a line of zeros).
pub fn source_lines(e: &Evaluation) -> String {
    let n = e.sources.len();
    let mut out = format!(
        "{n} No pixels x-pos y-pos L_s Omega_s Posindx L_b L_t E_v Edir Max_Lum Sigma xdir ydir zdir Eglare Lveil_cie teta glare_zone r_contrast r_dgp\n"
    );
    if n == 0 {
        let mut f = vec![0.0; 4];
        out.push_str(&format!(
            "0 {} {} {} {} {}\n",
            join(&f),
            c_fixed(0.0, 10),
            c_f(0.0),
            join(&[e.lum_backg, e.lum_task as f64, e.ev, e.ev_dir, e.abs_max]),
            {
                f.resize(11, 0.0);
                join(&f)
            }
        ));
        return out;
    }
    for (k, r) in e.sources.iter().enumerate() {
        let s = &r.source;
        let pos = s.position.unwrap_or([0.0, 0.0]);
        out.push_str(&format!(
            "{} {} {} {} {} 0 {} {} \n",
            k + 1,
            join(&[s.pixels, pos[0], pos[1], s.luminance]),
            c_fixed(s.omega, 10),
            join(&[
                s.posindex as f64,
                e.lum_backg,
                e.lum_task as f64,
                e.ev,
                e.ev_dir,
                e.abs_max,
                r.sigma_deg
            ]),
            join(&[
                s.direction[0],
                s.direction[1],
                s.direction[2],
                s.e_glare,
                r.lveil_cie,
                r.sigma_deg
            ]),
            c_f(r.r_contrast),
            c_f(r.r_dgp)
        ));
    }
    out
}

/// The summary line of `-d`.
pub fn detail_line(e: &Evaluation) -> String {
    format!(
        "dgp,av_lum,E_v,lum_backg,E_v_dir,dgi,ugr,vcp,cgi,lum_sources,omega_sources,Lveil,Lveil_cie,dgr,ugp,ugr_exp,dgi_mod,av_lum_pos,av_lum_pos2,med_lum,med_lum_pos,med_lum_pos2,ugp2: {}\n",
        join(&[
            e.dgp,
            e.avlum,
            e.ev,
            e.lum_backg,
            e.ev_dir,
            e.dgi as f64,
            e.ugr as f64,
            e.vcp as f64,
            e.cgi as f64,
            e.lum_sources,
            e.omega_sources,
            e.lveil,
            e.lveil_cie,
            e.dgr as f64,
            e.ugp,
            e.ugr_exp,
            e.dgi_mod,
            e.av_lum_pos,
            e.av_lum_pos2,
            e.med_lum,
            e.med_lum_pos,
            e.med_lum_pos2,
            e.ugp2
        ])
    )
}

/// How much evalglare prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The default line.
    Default,
    /// `-d`: band line, source table, summary line.
    Sources,
    /// `-D`: the second detailed line.
    Second,
}

/// Everything evalglare prints on standard output for an evaluation.
pub fn output(e: &Evaluation, detail: Detail) -> String {
    let mut out = String::new();
    for l in &e.preamble {
        out.push_str(l);
        out.push('\n');
    }
    if let Some(b) = &e.band {
        out.push_str(&band_line(b));
    }
    match detail {
        Detail::Sources => {
            out.push_str(&source_lines(e));
            out.push_str(&detail_line(e));
        }
        Detail::Second => out.push_str(&detail2_line(e)),
        Detail::Default => out.push_str(&default_line(e)),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_style_numbers() {
        assert_eq!(c_f(f64::NAN), "nan");
        assert_eq!(c_f(-f64::NAN), "-nan");
        assert_eq!(c_f(f64::NEG_INFINITY), "-inf");
        assert_eq!(c_f(0.125), "0.125000");
        assert_eq!(c_fixed(1e-4, 10), "0.0001000000");
    }
}
