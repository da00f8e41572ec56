//! What `pgbook train NAME` prints as text and draws as SVG for every CartPole trainer.

use crate::train::{write_learning_curve, FinishedRun, SvgDiagnostics, TextOutput};
use pgbook::train::cartpole::{CartPoleReport, CartPoleTrainer, Evaluation};
use pgbook::train::compare::Extra;
use pgbook::train::registry::CartPole;
use pgbook::Result;
use std::path::Path;

impl<T: CartPoleTrainer> TextOutput<T> for CartPole
where
    T::Report: CartPoleReport,
{
    fn header(config: &T::Config, profile: &str, seeds: &[u64]) -> String {
        format!("{}, seeds {seeds:?}", T::headline(config, profile))
    }

    fn seed_text(run: &FinishedRun<T>) -> String {
        let agent = run.trainer.agent();
        let s = agent.summary();
        let solved = s
            .solved_from_env_steps
            .map_or("never".to_string(), |v| v.to_string());
        format!(
            "seed {:>4} | final evaluation {:7.2} ± {:6.2} | solved from {solved:>8} | {:>4} updates | {:6.2} s",
            run.seed,
            s.final_evaluation_mean,
            s.final_evaluation_std,
            agent.updates_done(),
            run.wall_s
        )
    }

    fn final_extras(finished: &[&[T::Report]]) -> Vec<Extra> {
        pgbook::train::cartpole::final_extras(finished)
    }

    fn write_svgs<D: SvgDiagnostics<T>>(
        dir: &Path,
        profile: &str,
        runs: &[FinishedRun<T>],
    ) -> Result<()> {
        let evaluations: Vec<Vec<Evaluation>> = runs
            .iter()
            .map(|r| r.trainer.agent().evaluations().to_vec())
            .collect();
        write_learning_curve(dir, T::NAME, profile, &evaluations)?;
        match runs.first() {
            Some(first) => D::write(dir, profile, first),
            None => Ok(()),
        }
    }
}
