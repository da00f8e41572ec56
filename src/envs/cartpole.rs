//! CartPole-v1 with Gymnasium's exact dynamics (Euler integration, f64 state, f32 observation).
//!
//! The operation order below is Gymnasium 1.x's, so that one step from a recorded state
//! reproduces the recorded next state bit for bit (with glibc `sin`/`cos`). Reward is 1.0 on
//! every step, the terminating one included; `terminated` (the pole fell or the cart left the
//! track) and `truncated` (the 500-step time limit) are separate flags because only the first
//! one means "there is no future": a truncated episode is bootstrapped from V.

use crate::math;
use crate::rng::{uniform_in, Rng};
use serde::{Deserialize, Serialize};

/// Acceleration of gravity, m/s².
pub const GRAVITY: f64 = 9.8;
/// Mass of the cart, kg.
pub const MASS_CART: f64 = 1.0;
/// Mass of the pole, kg.
pub const MASS_POLE: f64 = 0.1;
/// Half the pole's length, m.
pub const LENGTH: f64 = 0.5;
/// Magnitude of the push, N.
pub const FORCE_MAG: f64 = 10.0;
/// Integration step, s.
pub const TAU: f64 = 0.02;
/// The cart may not leave |x| ≤ 2.4.
pub const X_THRESHOLD: f64 = 2.4;
/// The pole may not lean more than 12° (computed as Gymnasium does: 12·2π/360).
pub const THETA_THRESHOLD: f64 = 12.0 * 2.0 * std::f64::consts::PI / 360.0;
/// CartPole-v1's time limit.
pub const MAX_EPISODE_STEPS: u32 = 500;
/// Observation size: [x, ẋ, θ, θ̇].
pub const OBS_DIM: usize = 4;
/// Actions: 0 pushes left, 1 pushes right.
pub const NUM_ACTIONS: usize = 2;

/// The outcome of one step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    /// Always 1.0 (the terminating step included).
    pub reward: f64,
    /// The pole fell or the cart left the track: no bootstrap.
    pub terminated: bool,
    /// The time limit was reached: the episode was cut, not finished.
    pub truncated: bool,
}

/// The Euler step on the f64 state `[x, ẋ, θ, θ̇]`, in Gymnasium's operation order.
#[inline]
pub fn dynamics(state: [f64; 4], action: usize) -> [f64; 4] {
    // Written as Gymnasium computes them (0.1 + 1.0 and 0.1 · 0.5), not as rounded literals.
    let total_mass = MASS_POLE + MASS_CART;
    let polemass_length = MASS_POLE * LENGTH;
    let [x, x_dot, theta, theta_dot] = state;
    let force = if action == 1 { FORCE_MAG } else { -FORCE_MAG };
    let costheta = math::cos(theta);
    let sintheta = math::sin(theta);
    let temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass;
    let thetaacc = (GRAVITY * sintheta - costheta * temp)
        / (LENGTH * (4.0 / 3.0 - MASS_POLE * (costheta * costheta) / total_mass));
    let xacc = temp - polemass_length * thetaacc * costheta / total_mass;
    [
        x + TAU * x_dot,
        x_dot + TAU * xacc,
        theta + TAU * theta_dot,
        theta_dot + TAU * thetaacc,
    ]
}

/// Whether a state is terminal (tested on the f64 state, after the step).
#[inline]
#[allow(clippy::manual_range_contains)] // Gymnasium's four comparisons, verbatim
pub fn is_terminal(state: &[f64; 4]) -> bool {
    let (x, theta) = (state[0], state[2]);
    x < -X_THRESHOLD || x > X_THRESHOLD || theta < -THETA_THRESHOLD || theta > THETA_THRESHOLD
}

/// The observation an agent sees: the state cast to f32, as Gymnasium returns it.
#[inline]
pub fn observe(state: &[f64; 4]) -> [f32; 4] {
    state.map(|s| s as f32)
}

/// One CartPole-v1 environment: state plus step counter.
///
/// ```
/// use pgbook::envs::CartPole;
/// let mut env = CartPole::new(&mut pgbook::rng::seeded(0));
/// let mut total = 0.0;
/// loop {
///     let t = env.step(0); // always push left: the pole falls within a few dozen steps
///     total += t.reward;
///     if t.terminated || t.truncated {
///         break;
///     }
/// }
/// assert!(total >= 1.0 && total < 100.0);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CartPole {
    state: [f64; 4],
    steps: u32,
}

impl CartPole {
    /// A fresh episode with the state uniform in [−0.05, 0.05]^4 from `rng`.
    pub fn new(rng: &mut Rng) -> Self {
        let mut env = CartPole {
            state: [0.0; 4],
            steps: 0,
        };
        env.reset(rng);
        env
    }

    /// An episode starting from a given state (e.g. a recorded one).
    pub fn from_state(state: [f64; 4]) -> Self {
        CartPole { state, steps: 0 }
    }

    /// An episode resumed at `state` after `steps` steps (e.g. just before the time limit).
    pub fn from_state_at(state: [f64; 4], steps: u32) -> Self {
        CartPole { state, steps }
    }

    /// Starts a new episode: state uniform in [−0.05, 0.05]^4; returns the observation.
    pub fn reset(&mut self, rng: &mut Rng) -> [f32; 4] {
        for s in &mut self.state {
            *s = uniform_in(rng, -0.05, 0.05);
        }
        self.steps = 0;
        self.observation()
    }

    /// The internal f64 state `[x, ẋ, θ, θ̇]`.
    pub fn state(&self) -> [f64; 4] {
        self.state
    }

    /// The observation (state cast to f32).
    pub fn observation(&self) -> [f32; 4] {
        observe(&self.state)
    }

    /// Steps taken in the current episode.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// Applies `action` (0 = left, anything else is treated as 1 = right, as in the fixtures'
    /// `action == 1` test) and reports reward and the two end flags. The caller resets after
    /// either flag.
    pub fn step(&mut self, action: usize) -> Transition {
        self.state = dynamics(self.state, action);
        self.steps += 1;
        let terminated = is_terminal(&self.state);
        Transition {
            reward: 1.0,
            terminated,
            // As Gymnasium's TimeLimit: both flags may be set on step 500; `terminated` wins.
            truncated: self.steps >= MAX_EPISODE_STEPS,
        }
    }
}
