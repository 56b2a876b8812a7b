//! Shade schedules: which state each window group is in at each time step, read from a CSV
//! file whose first row names the groups (their BSDF materials) and whose following rows,
//! one per weather record, give each group's state by number (0 = the material's own file)
//! or by name (the XML file's name without suffix). Blank lines and lines starting with `#`
//! are skipped.

use super::windows::WindowGroup;
use super::PhaseError;
use std::path::Path;

/// Reads `path` for `groups` over `steps` time steps: `states[group][step]`.
pub fn read_schedule(
    path: &Path,
    groups: &[WindowGroup],
    steps: usize,
) -> Result<Vec<Vec<usize>>, PhaseError> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| PhaseError::Input(format!("{name}: cannot read the shade schedule: {e}")))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((hl, header)) = lines.next() else {
        return Err(PhaseError::Input(format!(
            "{name}: empty; expected a first row naming the window groups"
        )));
    };
    let cells = |l: &str| {
        l.split(',')
            .map(|c| c.trim().to_string())
            .collect::<Vec<_>>()
    };
    let columns: Vec<usize> = cells(header)
        .iter()
        .map(|c| {
            groups.iter().position(|g| g.name == *c).ok_or_else(|| {
                PhaseError::Input(format!(
                    "{name}:{}: '{c}' is not a window group (the groups are: {})",
                    hl + 1,
                    groups
                        .iter()
                        .map(|g| g.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if let Some(g) = groups
        .iter()
        .enumerate()
        .find(|(k, _)| !columns.contains(k))
    {
        return Err(PhaseError::Input(format!(
            "{name}:{}: no column for window group '{}'",
            hl + 1,
            g.1.name
        )));
    }
    let mut out = vec![Vec::with_capacity(steps); groups.len()];
    for (l, line) in lines {
        let row = cells(line);
        if row.len() != columns.len() {
            return Err(PhaseError::Input(format!(
                "{name}:{}: {} values, expected {} (one per group)",
                l + 1,
                row.len(),
                columns.len()
            )));
        }
        for (cell, &g) in row.iter().zip(&columns) {
            let states = &groups[g].states;
            let k = cell
                .parse::<usize>()
                .ok()
                .filter(|k| *k < states.len())
                .or_else(|| states.iter().position(|s| s.name == *cell))
                .ok_or_else(|| {
                    PhaseError::Input(format!(
                        "{name}:{}: '{cell}' is not a state of window group '{}' (0 to {} or one of: {})",
                        l + 1,
                        groups[g].name,
                        states.len() - 1,
                        states.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")
                    ))
                })?;
            out[g].push(k);
        }
    }
    if out[0].len() != steps {
        return Err(PhaseError::Input(format!(
            "{name}: {} rows of states, the weather file has {steps} records",
            out[0].len()
        )));
    }
    Ok(out)
}
