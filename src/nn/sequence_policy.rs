//! The seam between the sequence trainer and its network: what an autoregressive policy over
//! tokens must offer — sampling one token at a time from a state it carries (the GRU's hidden
//! state, the transformer's KV cache), a batched forward over whole rows that keeps what the
//! backward pass needs, that backward pass, its flat parameters, and its cost from its shape
//! alone. The trainer (`train::sequence`) is generic over it; `tests/policy_contract.rs`
//! checks every implementation with the same gradient and bit-identity checks.
//!
//! The contract: [`SequencePolicy::step`] reproduces [`SequencePolicy::forward`]'s
//! log-probabilities **bit for bit** (the first PPO epoch's ratio is then exactly 1), and
//! [`SequencePolicy::backward`] is the exact gradient of any loss on the logits.

use super::scalar::Scalar;
use crate::error::Result;
use crate::rng::Rng;

/// What a batched forward pass keeps: the log-probabilities of every output after every
/// input step (f64, whatever the network's scalar), and whatever its backward pass needs.
pub trait PolicyTape {
    /// Number of sequences.
    fn batch(&self) -> usize;
    /// Input steps per sequence.
    fn steps(&self) -> usize;
    /// Log-probabilities of the outputs after input step `t` of sequence `b`.
    fn log_probs(&self, b: usize, t: usize) -> &[f64];
}

/// An autoregressive policy over a vocabulary of input tokens with a categorical head over
/// `outputs` actions.
pub trait SequencePolicy: Clone + std::fmt::Debug + Send + 'static {
    /// The scalar the parameters are stored and trained in.
    type Scalar: Scalar;
    /// The sizes that define the network (and its cost).
    type Shape: Copy + std::fmt::Debug + PartialEq;
    /// What sampling carries from one token to the next.
    type State: Clone + std::fmt::Debug;
    /// What [`SequencePolicy::forward`] keeps for [`SequencePolicy::backward`].
    type Tape: PolicyTape;

    /// A freshly initialised network from `rng`; `head_scale` scales the output head (small:
    /// the first policy is close to uniform, so every answer gets explored).
    fn init(shape: Self::Shape, head_scale: f64, rng: &mut Rng) -> Result<Self>;
    /// What a network of `shape` costs, known before it exists.
    fn cost(shape: &Self::Shape) -> PolicyCost;
    /// The network's sizes.
    fn shape(&self) -> Self::Shape;
    /// Number of output logits (actions).
    fn outputs(&self) -> usize;
    /// Every parameter, in one flat slice (what Adam and the gradient's clipping see).
    fn params(&self) -> &[Self::Scalar];
    /// Every parameter, writable.
    fn params_mut(&mut self) -> &mut [Self::Scalar];
    /// The state before the first token.
    fn initial_state(&self) -> Self::State;
    /// Reads `token`, advances `state`, and writes the log-probabilities of the next output
    /// into `log_probs` (`outputs()` values), bit for bit what `forward` gives at that step.
    fn step(&self, token: usize, state: &mut Self::State, log_probs: &mut [f64]) -> Result<()>;
    /// Runs `B` rows of equal length `S` (`inputs[b][t]`, the token read at step `t`) from the
    /// initial state and keeps what the backward pass needs.
    fn forward(&self, inputs: &[Vec<usize>]) -> Result<Self::Tape>;
    /// The gradient of a scalar loss with respect to every parameter (flat, like
    /// [`SequencePolicy::params`]), given `d_logits` `[B, S, outputs]`: its gradient with
    /// respect to every logit of the tape's forward pass.
    fn backward(&self, tape: &Self::Tape, d_logits: &[f64]) -> Result<Vec<Self::Scalar>>;
}

/// What a policy of a given shape costs per token: the sequence trainer's memory bound and its
/// time estimate both read it (`train::sequence::cost`), so that they never disagree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolicyCost {
    /// Number of parameters.
    pub params: u64,
    /// Bytes of one parameter (4: f32, 8: f64).
    pub scalar_bytes: u64,
    /// Scalars the batched forward and backward hold per token of the batch (activations,
    /// log-probabilities and the gradients flowing back through them).
    pub tape_per_token: u64,
    /// Scalars a sampling state holds at its longest.
    pub state: u64,
    /// Multiply-adds of one token read by [`SequencePolicy::step`] (matrix–vector products).
    pub step_macs: f64,
    /// Multiply-adds of one token through the batched forward.
    pub forward_macs: f64,
    /// The share of `forward_macs` that runs through the blocked matrix kernels (many rows at
    /// once); the rest runs one vector at a time. The backward pass costs about twice the
    /// forward's.
    pub forward_blocked_share: f64,
}
