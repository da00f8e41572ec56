//! Several runs' evaluation curves aggregated into median and interquartile band.

use super::cartpole::Evaluation;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Evaluation returns of several runs on their common grid of transition counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// Transition counts evaluated by every run, ascending.
    pub env_steps: Vec<u64>,
    /// Median over runs at each grid point.
    pub median: Vec<f64>,
    /// 25th percentile (linear interpolation, as NumPy's default).
    pub q25: Vec<f64>,
    /// 75th percentile.
    pub q75: Vec<f64>,
    /// Each run's evaluation means on the grid (`runs[r][i]`).
    pub runs: Vec<Vec<f64>>,
}

/// Aggregates runs' evaluations (mean return per evaluation) on the transition counts that
/// all runs share.
pub fn aggregate(runs: &[Vec<Evaluation>]) -> Result<Curve> {
    let Some(first) = runs.first() else {
        return Err(Error::range("runs", crate::error::Rule::NonEmpty, 0usize));
    };
    let env_steps: Vec<u64> = first
        .iter()
        .map(|e| e.env_steps)
        .filter(|s| runs.iter().all(|r| r.iter().any(|e| e.env_steps == *s)))
        .collect();
    let mut on_grid = Vec::with_capacity(runs.len());
    for run in runs {
        let ys: Vec<f64> = env_steps
            .iter()
            .filter_map(|s| run.iter().find(|e| e.env_steps == *s).map(|e| e.mean))
            .collect();
        on_grid.push(ys);
    }
    let (mut median, mut q25, mut q75) = (vec![], vec![], vec![]);
    for i in 0..env_steps.len() {
        let mut col: Vec<f64> = on_grid.iter().map(|r| r[i]).collect();
        col.sort_by(f64::total_cmp);
        q25.push(quantile(&col, 0.25));
        median.push(quantile(&col, 0.5));
        q75.push(quantile(&col, 0.75));
    }
    Ok(Curve {
        env_steps,
        median,
        q25,
        q75,
        runs: on_grid,
    })
}

/// Quantile `q` of sorted, non-empty `xs` with linear interpolation between order statistics.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    let pos = q * (xs.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(xs.len() - 1);
    xs[lo] + (pos - lo as f64) * (xs[hi] - xs[lo])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::cartpole::tests::ev;

    #[test]
    fn median_and_quartiles_on_the_common_grid() {
        let runs = vec![
            vec![ev(0, 10.0), ev(100, 20.0), ev(200, 30.0)],
            vec![ev(0, 20.0), ev(100, 40.0)],
            vec![ev(0, 30.0), ev(100, 60.0), ev(200, 90.0)],
        ];
        let c = aggregate(&runs).unwrap();
        assert_eq!(c.env_steps, vec![0, 100]);
        assert_eq!(c.median, vec![20.0, 40.0]);
        assert_eq!(c.q25, vec![15.0, 30.0]);
        assert_eq!(c.q75, vec![25.0, 50.0]);
        assert_eq!(c.runs[2], vec![30.0, 60.0]);
        assert!(aggregate(&[]).is_err());
    }
}
