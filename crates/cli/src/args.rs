//! Range-checked value parsers shared by daylit's own commands, so that every out-of-range
//! option is refused before any work with one message style:
//! `daylit annual: --ad: expected a whole number from 1 to 1000000, got "1e12"`
//! (the command and option are added by [`crate::usage_error`]).

/// A whole number from `lo` to `hi` (inclusive), as type `T`.
pub fn whole<T>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |s: &str| {
        s.trim()
            .parse::<u64>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| format!("expected a whole number from {lo} to {hi}, got \"{s}\""))
    }
}

/// A number from `lo` to `hi` (inclusive).
pub fn real(
    lo: f64,
    hi: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| format!("expected a number from {lo} to {hi}, got \"{s}\""))
    }
}

/// A number above 0 and at most `hi`.
pub fn positive(hi: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| *v > 0.0 && *v <= hi)
            .ok_or_else(|| format!("expected a number above 0 and at most {hi}, got \"{s}\""))
    }
}

/// [`real`] as an `f32`.
pub fn real32(
    lo: f32,
    hi: f32,
) -> impl Fn(&str) -> Result<f32, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| format!("expected a number from {lo} to {hi}, got \"{s}\""))
    }
}

/// Ambient bounces: more than this is no longer a simulation anyone waits for.
pub const MAX_AB: u64 = 100;
/// Ambient divisions, sky samples and the like.
pub const MAX_SAMPLES: u64 = 1_000_000;

/// Checks before any work that every output file can be written and every output folder
/// exists (or, where `create` says so, can be made): no result is computed only to fail at
/// the end, and no folder is made that the user did not ask for.
pub fn check_outputs<'a>(
    files: impl IntoIterator<Item = &'a std::path::Path>,
    folders: impl IntoIterator<Item = (&'a std::path::Path, bool)>,
) -> anyhow::Result<()> {
    for f in files {
        daylit_radfile::check_output_file(f)?;
    }
    for (d, create) in folders {
        daylit_radfile::check_output_folder(d, create)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_refused_in_one_style() {
        let ad = whole::<u32>(1, MAX_SAMPLES);
        assert_eq!(ad("1024"), Ok(1024));
        assert_eq!(
            ad("1e12"),
            Err("expected a whole number from 1 to 1000000, got \"1e12\"".into())
        );
        assert!(ad("0").is_err() && ad("-3").is_err() && ad("1000001").is_err());
        let lw = real(0.0, 1.0);
        assert_eq!(lw("1e-4"), Ok(1e-4));
        assert_eq!(
            lw("nan"),
            Err("expected a number from 0 to 1, got \"nan\"".into())
        );
        assert!(lw("inf").is_err() && lw("2").is_err());
        let spacing = positive(1e6);
        assert!(spacing("0").is_err() && spacing("0.5").is_ok());
        assert!(real32(0.0, 1e6)("-1").is_err());
    }
}
