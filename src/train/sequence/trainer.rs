//! The sequence trainer whatever its network: [`SequenceTrainer`] holds one
//! [`SequenceRun`] of the network its settings name (`policy`, `precision`) and passes every
//! call through, the way PPO holds one run per precision.

use super::config::PolicyKind;
use super::config::SequenceConfig;
use super::loss::LossAndGradient;
use super::report::{FirstBatchRow, GreedyAnswer, IterationReport, SampleEvaluation};
use super::rollout::RolloutBatch;
use super::{SequenceRun, SequenceSummary};
use crate::error::{Result, StepUnit};
use crate::nn::{Gru, Precision, Transformer};
use crate::rl::DiagnosticsAccumulator;
use crate::train::{Progress, ProgressUnit, Record, Trainer};
use ndarray::{Array1, Array2};

/// The trainer: one seeded run of the network the settings name.
///
/// ```
/// use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};
/// let mut trainer = SequenceTrainer::new(SequenceConfig::smoke(), 5)?;
/// let report = trainer.step()?;
/// assert_eq!(report.iteration, 1);
/// let first = trainer.first_batch().unwrap();
/// assert!(first[0].text.starts_with("<bos> q0"));
/// # Ok::<(), pgbook::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SequenceTrainer {
    run: ByPolicy,
}

/// One arm per network (and scalar) the trainer can train.
#[derive(Debug, Clone)]
enum ByPolicy {
    Gru(SequenceRun<Gru>),
    Transformer(SequenceRun<Transformer<f64>>),
    TransformerF32(SequenceRun<Transformer<f32>>),
}

/// `$body` with `$r` bound to the run, whatever its network.
macro_rules! by_policy {
    ($self:expr, $r:ident => $body:expr) => {
        match $self {
            ByPolicy::Gru($r) => $body,
            ByPolicy::Transformer($r) => $body,
            ByPolicy::TransformerF32($r) => $body,
        }
    };
}

/// The run's record, whatever its network.
type SequenceRecord = dyn Record<Summary = SequenceSummary, Evaluation = SampleEvaluation>;

impl SequenceTrainer {
    /// Validates `config` and initialises the network it names from `seed`.
    pub fn new(config: SequenceConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let run = match (config.policy, config.precision) {
            (PolicyKind::Gru, _) => ByPolicy::Gru(SequenceRun::new(config, seed)?),
            (PolicyKind::Transformer, Precision::F64) => {
                ByPolicy::Transformer(SequenceRun::new(config, seed)?)
            }
            (PolicyKind::Transformer, Precision::F32) => {
                ByPolicy::TransformerF32(SequenceRun::new(config, seed)?)
            }
        };
        Ok(SequenceTrainer { run })
    }

    /// The run's settings.
    pub fn config(&self) -> &SequenceConfig {
        by_policy!(&self.run, r => r.config())
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        by_policy!(&self.run, r => r.seed())
    }

    /// Iterations done so far.
    pub fn iteration(&self) -> usize {
        by_policy!(&self.run, r => r.iteration())
    }

    /// Whether every configured iteration has run.
    pub fn done(&self) -> bool {
        self.is_finished()
    }

    /// Whether every configured iteration has run.
    pub fn is_finished(&self) -> bool {
        by_policy!(&self.run, r => r.is_finished())
    }

    /// [`SequenceRun::summary`].
    pub fn summary(&self) -> SequenceSummary {
        by_policy!(&self.run, r => r.summary())
    }

    /// [`SequenceRun::first_batch`].
    pub fn first_batch(&self) -> Option<&[FirstBatchRow]> {
        by_policy!(&self.run, r => r.first_batch())
    }

    /// [`SequenceRun::step`]: one iteration.
    pub fn step(&mut self) -> Result<IterationReport> {
        by_policy!(&mut self.run, r => r.step())
    }

    /// [`SequenceRun::evaluate`].
    pub fn evaluate(&mut self) -> Result<SampleEvaluation> {
        by_policy!(&mut self.run, r => r.evaluate())
    }

    /// [`SequenceRun::greedy_answers`].
    pub fn greedy_answers(&self) -> Result<Vec<GreedyAnswer>> {
        by_policy!(&self.run, r => r.greedy_answers())
    }

    /// [`SequenceRun::collect_rollout`].
    pub fn collect_rollout(&mut self) -> Result<RolloutBatch> {
        by_policy!(&mut self.run, r => r.collect_rollout())
    }

    /// [`SequenceRun::advantages`].
    pub fn advantages(&self, batch: &RolloutBatch) -> Result<Array1<f64>> {
        by_policy!(&self.run, r => r.advantages(batch))
    }

    /// [`SequenceRun::token_log_probs`].
    pub fn token_log_probs(&self, batch: &RolloutBatch) -> Result<Array2<f64>> {
        by_policy!(&self.run, r => r.token_log_probs(batch))
    }

    /// [`SequenceRun::entropy_coef_now`].
    pub fn entropy_coef_now(&self) -> f64 {
        by_policy!(&self.run, r => r.entropy_coef_now())
    }

    /// [`SequenceRun::loss_and_gradient`], the gradient in f64 whatever the network's scalar.
    pub fn loss_and_gradient(
        &self,
        batch: &RolloutBatch,
        diagnostics: Option<&mut DiagnosticsAccumulator>,
    ) -> Result<LossAndGradient> {
        by_policy!(&self.run, r => r.loss_and_gradient(batch, diagnostics).map(LossAndGradient::widened))
    }

    /// The trained network as a policy file ([`super::policy_file`]): a transformer's; the
    /// GRU has none.
    pub fn policy_file(&self) -> Option<Result<String>> {
        use super::policy_file::to_json;
        match &self.run {
            ByPolicy::Gru(_) => None,
            ByPolicy::Transformer(r) => {
                Some(to_json(r.config(), r.seed(), r.iteration(), r.policy()))
            }
            ByPolicy::TransformerF32(r) => {
                Some(to_json(r.config(), r.seed(), r.iteration(), r.policy()))
            }
        }
    }

    /// [`SequenceRun::inspect_group`]: one group's tokens and their loss terms.
    pub fn inspect_group(
        &self,
        group: usize,
        stream: Option<u64>,
    ) -> Result<super::inspect::GroupInspection> {
        by_policy!(&self.run, r => r.inspect_group(group, stream))
    }

    /// The run a policy file was saved from, as far as the file tells: its settings and seed,
    /// the saved network, the iterations it had done (the optimiser's moments and the random
    /// streams are not in the file: they start afresh).
    pub fn from_policy_file(text: &str) -> Result<Self> {
        use super::policy_file::{AnyTransformer, PolicyFile};
        let (file, config, net) = PolicyFile::parse(text)?;
        let precision = config.precision.name();
        let mut trainer = SequenceTrainer::new(config, file.seed)?;
        match (&mut trainer.run, net) {
            (ByPolicy::Transformer(r), AnyTransformer::F64(n)) => r.load_policy(n, file.iteration),
            (ByPolicy::TransformerF32(r), AnyTransformer::F32(n)) => {
                r.load_policy(n, file.iteration)
            }
            // parse builds the network its settings name: a mismatch is a damaged file.
            _ => {
                let rule = crate::error::Rule::one_of(&["f32", "f64"]);
                return Err(crate::Error::range("precision", rule, precision));
            }
        }
        Ok(trainer)
    }

    /// The policy's parameters in f64 (exactly: f32 widens without rounding).
    pub fn params(&self) -> Vec<f64> {
        use crate::nn::{Scalar, SequencePolicy};
        by_policy!(&self.run, r => r.policy().params().iter().map(|p| p.to_f64()).collect())
    }

    /// The reference policy's parameters in f64.
    pub fn reference_params(&self) -> Vec<f64> {
        use crate::nn::{Scalar, SequencePolicy};
        by_policy!(&self.run, r => r.reference().params().iter().map(|p| p.to_f64()).collect())
    }
}

impl<P: super::Policy> Record for SequenceRun<P> {
    type Summary = SequenceSummary;
    type Evaluation = SampleEvaluation;
    fn seed(&self) -> u64 {
        SequenceRun::seed(self)
    }
    fn units_done(&self) -> u64 {
        self.iteration() as u64
    }
    fn summary(&self) -> SequenceSummary {
        SequenceRun::summary(self)
    }
    fn last_evaluation(&self) -> Option<&SampleEvaluation> {
        SequenceRun::last_evaluation(self)
    }
}

/// A sequence run's progress counts iterations.
impl Trainer for SequenceTrainer {
    type Config = SequenceConfig;
    type Report = IterationReport;
    type Summary = SequenceSummary;
    type Evaluation = SampleEvaluation;
    type Record = SequenceRecord;
    const NAME: &'static str = "sequence";
    const STEP: StepUnit = StepUnit::Iteration;

    fn new(config: SequenceConfig, seed: u64) -> Result<Self> {
        SequenceTrainer::new(config, seed)
    }
    fn config(&self) -> &SequenceConfig {
        SequenceTrainer::config(self)
    }
    fn step(&mut self) -> Result<IterationReport> {
        SequenceTrainer::step(self)
    }
    fn is_finished(&self) -> bool {
        SequenceTrainer::is_finished(self)
    }
    fn record(&self) -> &SequenceRecord {
        by_policy!(&self.run, r => r)
    }
    fn planned(config: &SequenceConfig) -> Progress {
        Progress {
            done: 0,
            total: config.iterations as u64,
            unit: ProgressUnit::Iterations,
            steps: config.iterations as u64,
        }
    }
    fn cost(config: &SequenceConfig) -> crate::train::cost::Cost {
        config.cost()
    }
}
