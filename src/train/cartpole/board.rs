//! The CartPole panels' learning curves: a run's greedy evaluations (the untrained policy's
//! from its start message, then those its reports carry), aggregated over the seeds and
//! written as CSV. The generic board and comparison know nothing of CartPole; this is
//! CartPole's evaluation protocol seen from them.

use super::{CartPoleReport, Evaluation};
use crate::error::Result;
use crate::train::board::Board;
use crate::train::compare::Comparison;
use crate::train::curves::{self, Curve, CurvePoint};
use crate::train::{export, Trainer};

impl CurvePoint for Evaluation {
    fn env_steps(&self) -> u64 {
        self.env_steps
    }
    fn mean(&self) -> f64 {
        self.mean
    }
}

/// The panels of the CartPole trainers: learning curves from evaluations.
impl<T: Trainer<Evaluation = Evaluation>> Board<T>
where
    T::Report: CartPoleReport,
{
    /// Run `index`'s evaluations: the untrained policy's (from the start message), then those
    /// its reports carry.
    pub fn evaluations(&self, index: usize) -> Vec<Evaluation> {
        let Some(run) = self.runs().get(index) else {
            return Vec::new();
        };
        let first = run.info.as_ref().map_or(&[][..], |i| &i.evaluations[..]);
        first
            .iter()
            .cloned()
            .chain(run.reports.iter().filter_map(|r| r.evaluation().cloned()))
            .collect()
    }

    /// Median and IQR over the seeds, on the transition counts all of them evaluated
    /// (`None` until every seed has an evaluation).
    pub fn curve(&self) -> Option<Curve> {
        let evals: Vec<Vec<Evaluation>> = (0..self.runs().len())
            .map(|i| self.evaluations(i))
            .collect();
        if evals.iter().any(Vec::is_empty) {
            return None;
        }
        curves::aggregate(&evals).ok()
    }

    /// The curves as CSV ([`crate::train::export::curves_csv`]).
    pub fn curves_csv(&self) -> Result<String> {
        let runs: Vec<(u64, Vec<Evaluation>)> = self
            .runs()
            .iter()
            .enumerate()
            .map(|(i, r)| (r.seed, self.evaluations(i)))
            .collect();
        export::curves_csv(&runs)
    }
}

impl<T: Trainer<Evaluation = Evaluation>> Comparison<T>
where
    T::Report: CartPoleReport,
{
    /// Each configuration's learning curve (`None` until all its seeds have evaluated).
    pub fn curves(&self) -> Vec<Option<Curve>> {
        self.boards().iter().map(Board::curve).collect()
    }
}
