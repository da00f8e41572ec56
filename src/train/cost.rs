//! What a run will cost, known from its settings before it starts: its peak memory (the
//! buffers its trainer allocates, counted) and its planned work (matrix-product FLOPs plus a
//! fixed cost per environment step or token, the greedy evaluations included), which the page
//! turns into a time with a speed it measures (and corrects per trainer by the reader's
//! finished runs). A run whose memory cannot fit is refused with the settings that drive it.

use crate::error::{Error, Result};

/// The memory one page worker may use: wasm32 addresses 4 GiB, the browser gives a tab less,
/// and two workers run side by side.
pub const WASM_BUDGET_BYTES: u64 = 3 << 29; // 1.5 GiB
/// The CLI's budget per seed (each of `--threads` runs holds its own trainer).
pub const NATIVE_BUDGET_BYTES: u64 = 4 << 30; // 4 GiB

/// Work of one environment step (or sampled token) besides the matrix products, in
/// FLOP-equivalents: the environment, sampling, GAE and the bookkeeping per sample.
const PER_STEP_WORK: f64 = 3000.0;

/// Work units are f32 FLOPs (the speed is measured on PPO's f32 networks): an f64 FLOP costs
/// more, SIMD holding half as many lanes — not twice, the rest of a step not being in the
/// kernels (1.6 fits the CartPole trainers' measured times, native runs, issue 25).
pub const F64_FLOP: f64 = 1.6;

/// Work of one optimiser step per parameter (Adam's moments and update, the gradient's
/// norm and clipping), in FLOPs of the networks' scalar.
const OPTIMISER_WORK_PER_PARAMETER: f64 = 20.0;

/// A product one vector at a time (the GRU's every token, any policy's sampling:
/// matrix–vector products, no blocked kernels): each of its multiply-adds costs this many of
/// the batched kernels' (measured for the GRU against PPO's minibatches, issue 25: 5
/// natively, where the kernels use AVX, about 2.5 in Chromium's wasm).
pub const VECTOR_COST: f64 = 3.0;

/// Steps of a greedy evaluation episode, planned: episodes last 8 to 500 steps, short while
/// the policy is untrained, 500 once it balances, and a learning run spends most of its
/// evaluations in between.
pub const EVALUATION_EPISODE_STEPS: f64 = 250.0;

/// A run's cost, for one seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    /// Peak bytes the trainer holds.
    pub bytes: u64,
    /// Planned work of the whole run (FLOP-equivalents).
    pub work: f64,
    /// The most work the run may do: more than `work` only where the trainer draws more data
    /// when it needs it (the sequence trainer's dynamic sampling, up to its bound).
    pub work_max: f64,
    /// The share of a step's work that collects experience (the rest optimises): where the
    /// progress bar stands inside a step.
    pub rollout_share: f64,
    /// The settings that make the memory large, most important first.
    pub drivers: Vec<&'static str>,
}

impl Cost {
    /// `Ok` when the run fits in `budget` bytes; otherwise an error naming the settings that
    /// drive its memory.
    pub fn check_memory(&self, budget: u64) -> Result<()> {
        if self.bytes <= budget {
            return Ok(());
        }
        Err(Error::too_large(
            self.drivers.iter().map(|d| d.to_string()).collect(),
            self.bytes,
            budget,
        ))
    }
}

/// The layer shapes `(fan_in, fan_out)` of a tanh MLP `inputs → hidden… → outputs`.
fn layers(inputs: usize, hidden: &[usize], outputs: usize) -> Vec<(usize, usize)> {
    let widths: Vec<usize> = [inputs]
        .into_iter()
        .chain(hidden.iter().copied())
        .chain([outputs])
        .collect();
    widths.windows(2).map(|w| (w[0], w[1])).collect()
}

/// An actor (2 logits) and a critic (1 value) on CartPole's 4 observations, in `scalar` bytes.
#[derive(Debug, Clone, Copy)]
pub struct CartPoleNets<'a> {
    /// Hidden widths of both networks.
    pub hidden: &'a [usize],
    /// Bytes of the networks' scalar (4: f32, 8: f64).
    pub scalar: u64,
}

impl CartPoleNets<'_> {
    fn nets(&self) -> [Vec<(usize, usize)>; 2] {
        let obs = crate::envs::cartpole::OBS_DIM;
        [layers(obs, self.hidden, 2), layers(obs, self.hidden, 1)]
    }

    /// Work units per FLOP in the networks' scalar.
    fn flop(&self) -> f64 {
        if self.scalar > 4 {
            F64_FLOP
        } else {
            1.0
        }
    }

    /// Work of one optimiser step on both networks.
    pub fn optimiser_work(&self) -> f64 {
        let params: usize = self.nets().iter().flatten().map(|&(i, o)| i * o + o).sum();
        params as f64 * OPTIMISER_WORK_PER_PARAMETER * self.flop()
    }

    /// Parameters, gradients and Adam's two moments of both networks.
    pub fn parameter_bytes(&self) -> u64 {
        let params: u64 = self
            .nets()
            .iter()
            .flatten()
            .map(|&(i, o)| (i * o + o) as u64)
            .sum();
        4 * params * self.scalar
    }

    /// A batch of `m` samples through both networks, forward and backward: each layer keeps
    /// its output for the backward pass, and the backward pass a gradient of each output.
    pub fn batch_bytes(&self, m: usize) -> u64 {
        // In u64: wasm's usize is 32 bits, and these products are what is too large for it.
        let per_sample: u64 = self
            .nets()
            .iter()
            .flatten()
            .map(|&(_, o)| 2 * o as u64)
            .sum();
        m as u64 * per_sample * self.scalar
    }

    /// Work of `m` samples forward through both networks (their FLOPs, in work units).
    pub fn forward_flops(&self, m: usize) -> f64 {
        let macs: f64 = self
            .nets()
            .iter()
            .flatten()
            .map(|&(i, o)| (i * o) as f64)
            .sum();
        2.0 * m as f64 * macs * self.flop()
    }

    /// Work of `m` samples forward through the actor alone.
    pub fn actor_forward_flops(&self, m: usize) -> f64 {
        let [actor, _] = self.nets();
        let macs: f64 = actor.iter().map(|&(i, o)| (i * o) as f64).sum();
        2.0 * m as f64 * macs * self.flop()
    }
}

/// Bytes per stored transition of a rollout buffer: the observation in the networks' scalar,
/// and action, log-prob, value, reward, two masks, advantage, return and an index in f64 (the
/// minibatch gathered from it is counted with the activations' batch).
pub fn transition_bytes(scalar: u64) -> u64 {
    crate::envs::cartpole::OBS_DIM as u64 * scalar + 9 * 8
}

/// How often a CartPole run evaluates its greedy policy, and on how many episodes.
#[derive(Debug, Clone, Copy)]
pub struct Evaluations {
    /// Every this many updates (0: only after the last).
    pub every: usize,
    /// Episodes per evaluation.
    pub episodes: usize,
}

impl Evaluations {
    /// Work of the evaluations of a run of `updates` updates: the actor's forward pass and an
    /// environment step per greedy step, [`EVALUATION_EPISODE_STEPS`] per episode.
    pub fn work(&self, nets: CartPoleNets<'_>, updates: f64) -> f64 {
        let due = if self.every > 0 {
            (updates / self.every as f64).floor()
        } else {
            0.0
        };
        // The last update evaluates whether due or not (the untrained policy's, before the
        // first update, is short and not counted).
        let count = due.max(1.0);
        let per_step = nets.actor_forward_flops(1) + PER_STEP_WORK;
        count * self.episodes as f64 * EVALUATION_EPISODE_STEPS * per_step
    }
}

/// The cost of an N × T rollout trainer (PPO, A2C): `batch` transitions per update,
/// `epochs` passes of `minibatch` samples, `updates` updates, the greedy `evaluations`; the
/// caller names the drivers of its memory.
pub fn rollout_trainer(
    nets: CartPoleNets<'_>,
    batch: usize,
    minibatch: usize,
    epochs: usize,
    updates: usize,
    num_envs: usize,
    evaluations: Evaluations,
) -> Cost {
    let minibatch = minibatch.min(batch);
    let bytes = nets.parameter_bytes()
        + batch as u64 * transition_bytes(nets.scalar)
        + nets.batch_bytes(minibatch)
        + nets.batch_bytes(num_envs);
    // The rollout's forward passes, then forward and backward (≈ 3 forwards) per epoch.
    let rollout = nets.forward_flops(batch) + PER_STEP_WORK * batch as f64;
    let optimiser_steps = (epochs * batch.div_ceil(minibatch.max(1))) as f64;
    let per_update = rollout
        + nets.forward_flops(batch) * 3.0 * epochs as f64
        + nets.optimiser_work() * optimiser_steps;
    let work = per_update * updates as f64 + evaluations.work(nets, updates as f64);
    Cost {
        bytes,
        work,
        work_max: work,
        rollout_share: rollout / per_update,
        drivers: Vec::new(),
    }
}

/// Work of `tokens` sampled tokens besides the products (the sequence trainer).
pub fn per_token_work(tokens: f64) -> f64 {
    PER_STEP_WORK * tokens
}
