//! CSV exports of a run's history, one writer for the CLI and the page.

use super::curves::{self, CurvePoint};
use crate::error::Result;
use std::fmt::Write;

/// The runs' evaluation curves as CSV: one row per grid point (the transition counts every
/// run evaluated) with median, quartiles and every seed's mean return.
pub fn curves_csv<P: CurvePoint + Clone>(runs: &[(u64, Vec<P>)]) -> Result<String> {
    let evals: Vec<Vec<P>> = runs.iter().map(|(_, e)| e.clone()).collect();
    let curve = curves::aggregate(&evals)?;
    let mut out = String::from("env_steps,median,q25,q75");
    for (seed, _) in runs {
        let _ = write!(out, ",seed_{seed}");
    }
    out.push('\n');
    for i in 0..curve.env_steps.len() {
        let _ = write!(
            out,
            "{},{},{},{}",
            curve.env_steps[i], curve.median[i], curve.q25[i], curve.q75[i]
        );
        for run in &curve.runs {
            let _ = write!(out, ",{}", run[i]);
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::cartpole::tests::ev;

    #[test]
    fn curves_csv_has_a_column_per_seed_and_a_row_per_common_point() {
        let runs = vec![
            (11, vec![ev(0, 10.0), ev(256, 30.0)]),
            (37, vec![ev(0, 20.0), ev(256, 50.0), ev(512, 60.0)]),
        ];
        let csv = curves_csv(&runs).unwrap();
        assert_eq!(
            csv,
            "env_steps,median,q25,q75,seed_11,seed_37\n0,15,12.5,17.5,10,20\n256,40,35,45,30,50\n"
        );
        assert!(curves_csv::<crate::train::cartpole::Evaluation>(&[]).is_err());
    }
}
