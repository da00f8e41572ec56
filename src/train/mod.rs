//! Step-able trainers shared by the Web Worker, the CLI and the tests, behind one contract
//! ([`Trainer`]): settings from a schema ([`settings`]), `step() → report`, `is_finished()`,
//! `summary()`, the latest evaluation, progress; [`lines`] turns any of them into the JSON lines
//! the CLI prints and the page downloads. Inside a step, trainers tell a progress hook where
//! they are ([`report_stage`]); only the page's worker installs one ([`with_progress_hook`]).

pub mod a2c;
pub mod bench;
pub mod bench_transformer;
pub mod board;
pub mod cartpole;
pub mod compare;
pub mod cost;
pub mod curves;
pub mod export;
pub mod lines;
pub mod links;
/// A trained CartPole policy as one file (CartPole's own: [`cartpole::policy`]).
pub use cartpole::policy;
pub mod ppo;
pub mod registry;
pub mod reinforce;
pub mod sequence;
pub mod settings;
pub mod verdict;

use crate::error::{Result, StepUnit};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use settings::Settings;
use std::cell::RefCell;

/// One trainer: a seeded run that advances one update (or iteration) per [`Trainer::step`].
///
/// A trainer writes its algorithm (`new`, `step`, when it is finished, what a run plans and
/// costs); what it has recorded so far (seed, progress, evaluations, summary) it hands over as
/// a [`Record`], from which the accessors below are derived.
pub trait Trainer: Sized {
    /// Its settings, described by a schema.
    type Config: Settings;
    /// What one step reports.
    type Report: Serialize + DeserializeOwned + Clone + std::fmt::Debug + PartialEq;
    /// The run's end-of-run numbers (meaningful mid-run too: "so far").
    type Summary: Score + Serialize + DeserializeOwned + Clone + std::fmt::Debug + PartialEq;
    /// One evaluation of the policy.
    type Evaluation: Serialize + DeserializeOwned + Clone + std::fmt::Debug + PartialEq;
    /// What the run records as it goes (CartPole trainers: their agent).
    type Record: Record<Summary = Self::Summary, Evaluation = Self::Evaluation> + ?Sized;
    /// The trainer's name: the CLI's `train NAME`, the page's `run=NAME`.
    const NAME: &'static str;
    /// What one step is called in JSON lines (`"kind"`) and messages.
    const STEP: StepUnit;

    /// Validates `config` and initialises the run from `seed`.
    fn new(config: Self::Config, seed: u64) -> Result<Self>;
    /// The run's settings.
    fn config(&self) -> &Self::Config;
    /// One step; its report. [`crate::ErrorKind::Finished`] once the run is finished.
    fn step(&mut self) -> Result<Self::Report>;
    /// Whether every configured step has run.
    fn is_finished(&self) -> bool;
    /// The progress units of a whole run of `config` (`done` is 0), known before it starts.
    fn planned(config: &Self::Config) -> Progress;
    /// What one seed's run of `config` will cost (peak memory, planned work), known before it
    /// starts.
    fn cost(config: &Self::Config) -> cost::Cost;
    /// What the run has recorded so far.
    fn record(&self) -> &Self::Record;

    /// The run's seed.
    fn seed(&self) -> u64 {
        self.record().seed()
    }
    /// The summary so far.
    fn summary(&self) -> Self::Summary {
        self.record().summary()
    }
    /// The latest evaluation (`None` before the first).
    fn last_evaluation(&self) -> Option<&Self::Evaluation> {
        self.record().last_evaluation()
    }
    /// How far the run is.
    fn progress(&self) -> Progress {
        Progress {
            done: self.record().units_done(),
            ..Self::planned(self.config())
        }
    }
}

/// What a run records as it goes, whatever its algorithm: the accessors of [`Trainer`] read it.
pub trait Record {
    /// The run's summary.
    type Summary;
    /// One evaluation.
    type Evaluation;
    /// The run's seed.
    fn seed(&self) -> u64;
    /// Progress units done so far (those [`Trainer::planned`] counts).
    fn units_done(&self) -> u64;
    /// The summary so far.
    fn summary(&self) -> Self::Summary;
    /// The latest evaluation (`None` before the first).
    fn last_evaluation(&self) -> Option<&Self::Evaluation>;
}

/// What a comparison table says of one seed's summary.
pub trait Score {
    /// The run's final score (CartPole: the last evaluation's mean return; sequence: the
    /// fully correct fraction) and where it was reached for good (CartPole: the env step from
    /// which it stayed ≥ 475; sequence: the solved iteration), if it was.
    fn score(&self) -> (f64, Option<u64>);
}

/// How far a run is, in the unit its progress bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Units done.
    pub done: u64,
    /// Units in the whole run.
    pub total: u64,
    /// What is counted.
    pub unit: ProgressUnit,
    /// Steps (`step()` calls: updates, iterations) in the whole run.
    pub steps: u64,
}

/// What a progress bar counts (the page words it: `web::schema`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(rename_all = "snake_case")]
pub enum ProgressUnit {
    /// Environment steps (transitions). Runs saved by earlier builds wrote the Russian word.
    #[serde(alias = "шагов среды")]
    EnvSteps,
    /// Iterations.
    #[serde(alias = "итераций")]
    Iterations,
}

/// Offset of the evaluation stream's seed from the run's seed: evaluation draws never shift
/// the training stream.
const EVALUATION_SEED_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

/// The seed of a run's evaluation stream, the one rule every trainer uses.
pub fn evaluation_seed(seed: u64) -> u64 {
    seed.wrapping_add(EVALUATION_SEED_OFFSET)
}

/// Where a running step is inside itself, as a trainer reports it to the progress hook. The
/// counts start at 1 for the epoch, minibatch or critic step now running.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Collecting experience: `done` of `total` (environment steps, episodes or answers).
    Rollout { done: u64, total: u64 },
    /// Optimising the policy: minibatch `minibatch` of `minibatches` in epoch `epoch` of
    /// `epochs` (a full-batch step is minibatch 1 of 1).
    Minibatch {
        epoch: u64,
        epochs: u64,
        minibatch: u64,
        minibatches: u64,
    },
    /// Fitting the critic to the batch (REINFORCE's learned baseline): step `step` of `steps`.
    Critic { step: u64, steps: u64 },
    /// The greedy evaluation of the updated policy.
    Evaluation,
    /// Supervised training before RL (the sequence trainer's SFT, inside its first
    /// iteration): step `step` of `steps`.
    Pretrain { step: u64, steps: u64 },
}

impl Stage {
    /// How much of the step is done at this stage, given the share of the step's work that
    /// collects experience (the rest optimises; the evaluation comes last).
    pub fn fraction(&self, rollout_share: f64) -> f64 {
        let r = rollout_share.clamp(0.0, 1.0);
        let of = |done: u64, total: u64| done as f64 / total.max(1) as f64;
        match *self {
            Stage::Rollout { done, total } => r * of(done, total),
            Stage::Minibatch {
                epoch,
                epochs,
                minibatch,
                minibatches,
            } => {
                let before = epoch.saturating_sub(1) * minibatches + minibatch.saturating_sub(1);
                r + (1.0 - r) * of(before, epochs * minibatches)
            }
            Stage::Critic { step, steps } => r + (1.0 - r) * of(step.saturating_sub(1), steps),
            Stage::Evaluation => 1.0,
            // SFT outweighs its iteration's rollout and update by far.
            Stage::Pretrain { step, steps } => of(step.saturating_sub(1), steps),
        }
    }
}

type Hook = Box<dyn FnMut(Stage)>;

thread_local! {
    /// The progress hook of this thread's running step (the page's worker: one per worker).
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// Tells the progress hook, if one is installed, where the running step is. Trainers call it
/// inside `step()` as they go; without a hook (the CLI, the tests) it does nothing, and it
/// never touches the computation.
pub fn report_stage(stage: Stage) {
    HOOK.with(|h| {
        // A hook that reports from inside itself is not called again.
        if let Ok(mut h) = h.try_borrow_mut() {
            if let Some(f) = h.as_mut() {
                f(stage);
            }
        }
    });
}

/// Runs `f` with `hook` receiving every [`Stage`] reported meanwhile on this thread.
pub fn with_progress_hook<R>(hook: impl FnMut(Stage) + 'static, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Hook>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            HOOK.with(|h| *h.borrow_mut() = previous);
        }
    }
    let _restore = Restore(HOOK.with(|h| h.replace(Some(Box::new(hook)))));
    f()
}
