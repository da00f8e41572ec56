//! Several runs' evaluation curves aggregated into median and interquartile band: any
//! trainer's evaluations ([`CurvePoint`], CartPole's) on the transition counts every run shares ([`aggregate`]), or any per-step
//! series — the sequence trainer's — over the runs that have a value at each step
//! ([`aggregate_steps`]).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Evaluation returns of several runs on their common grid of transition counts (or, from
/// [`aggregate_steps`], any series per step).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Curve {
    /// Transition counts evaluated by every run, ascending ([`aggregate_steps`]: the steps,
    /// 1-based, where some run has a value).
    pub env_steps: Vec<u64>,
    /// Median over runs at each grid point.
    pub median: Vec<f64>,
    /// 25th percentile (linear interpolation, as NumPy's default).
    pub q25: Vec<f64>,
    /// 75th percentile.
    pub q75: Vec<f64>,
    /// Each run's evaluation means on the grid (`runs[r][i]`; empty from [`aggregate_steps`]).
    pub runs: Vec<Vec<f64>>,
}

/// One point of a run's learning curve, as a trainer's own evaluation protocol records it
/// (CartPole: the mean greedy return at a transition count).
pub trait CurvePoint {
    /// The curve's x: training transitions when evaluated.
    fn env_steps(&self) -> u64;
    /// The curve's y: the evaluation's mean.
    fn mean(&self) -> f64;
}

/// Aggregates runs' evaluations (their means) on the transition counts that all runs share.
pub fn aggregate<P: CurvePoint>(runs: &[Vec<P>]) -> Result<Curve> {
    let Some(first) = runs.first() else {
        return Err(Error::range("runs", crate::error::Rule::NonEmpty, 0usize));
    };
    let env_steps: Vec<u64> = first
        .iter()
        .map(P::env_steps)
        .filter(|s| runs.iter().all(|r| r.iter().any(|e| e.env_steps() == *s)))
        .collect();
    let mut on_grid = Vec::with_capacity(runs.len());
    for run in runs {
        let ys: Vec<f64> = env_steps
            .iter()
            .filter_map(|s| run.iter().find(|e| e.env_steps() == *s).map(P::mean))
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

/// Median and quartiles at every step (1-based: `runs[r][i]` is run r's value after step
/// i + 1) over the runs that have a value there — those that have reached the step and did not
/// leave it out (`None`, e.g. no incorrect answer to measure). While some runs are still
/// behind, the late steps count only those ahead; once all have finished, every run counts.
pub fn aggregate_steps(runs: &[Vec<Option<f64>>]) -> Curve {
    let steps = runs.iter().map(Vec::len).max().unwrap_or(0);
    let mut curve = Curve::default();
    for i in 0..steps {
        let mut col: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.get(i).copied().flatten())
            .collect();
        if col.is_empty() {
            continue;
        }
        col.sort_by(f64::total_cmp);
        curve.env_steps.push(i as u64 + 1);
        curve.q25.push(quantile(&col, 0.25));
        curve.median.push(quantile(&col, 0.5));
        curve.q75.push(quantile(&col, 0.75));
    }
    curve
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
        assert!(aggregate::<crate::train::cartpole::Evaluation>(&[]).is_err());
    }

    #[test]
    fn per_step_quartiles_count_the_runs_with_a_value() {
        let runs = vec![
            vec![Some(1.0), None, Some(3.0)],
            vec![Some(3.0), None],
            vec![Some(2.0), None, Some(5.0), Some(7.0)],
        ];
        let c = aggregate_steps(&runs);
        assert_eq!(c.env_steps, vec![1, 3, 4]);
        assert_eq!(c.median, vec![2.0, 4.0, 7.0]);
        assert_eq!((c.q25[0], c.q75[0]), (1.5, 2.5));
        assert_eq!((c.q25[1], c.q75[1]), (3.5, 4.5));
        assert!(c.runs.is_empty());
        assert_eq!(aggregate_steps(&[]), Curve::default());
    }
}
