//! What `pgbook train reinforce` prints as text and draws as SVG.

use crate::train::{write_learning_curve, FinishedRun, TextOutput};
use pgbook::train::cartpole::Evaluation;
use pgbook::train::reinforce::{ReinforceConfig, ReinforceTrainer};
use pgbook::train::settings::Settings;
use pgbook::Result;
use std::path::Path;

impl TextOutput for ReinforceTrainer {
    fn header(config: &ReinforceConfig, profile: &str, seeds: &[u64]) -> String {
        let json = config.to_json();
        let text = |name: &str| {
            json.get(name).map_or(String::new(), |v| match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        };
        format!(
            "REINFORCE on CartPole-v1, profile {profile}: weight {}, baseline {}, normalisation {}, \
             {} episodes per update, budget {} env steps, seeds {seeds:?}",
            text("weight"),
            text("baseline"),
            if config.norm_adv { "on" } else { "off" },
            config.episodes_per_update,
            config.env_step_budget
        )
    }

    fn seed_text(run: &FinishedRun<Self>) -> String {
        let s = run.trainer.summary();
        let solved = s
            .solved_from_env_steps
            .map_or("never".to_string(), |v| v.to_string());
        format!(
            "seed {:>4} | final evaluation {:7.2} ± {:6.2} | solved from {solved:>8} | {:>4} updates | {:6.2} s",
            run.seed,
            s.final_evaluation_mean,
            s.final_evaluation_std,
            run.trainer.updates_done(),
            run.wall_s
        )
    }

    fn write_svgs(dir: &Path, profile: &str, runs: &[FinishedRun<Self>]) -> Result<()> {
        let evaluations: Vec<Vec<Evaluation>> = runs
            .iter()
            .map(|r| r.trainer.evaluations().to_vec())
            .collect();
        write_learning_curve(dir, "reinforce", profile, &evaluations)
    }
}
