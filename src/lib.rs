//! # pgbook — «Градиенты политики: от REINFORCE к PPO»
//!
//! The engine of an interactive textbook on policy-gradient reinforcement learning. One crate,
//! built natively (tests, the `pgbook` CLI, benchmarks) and to WebAssembly (the page). Every
//! number the textbook shows is computed here.
//!
//! - [`rl`]: the course's mathematics as pure functions (returns, baselines, GAE, PPO, tokens).
//! - [`nn`]: tiny networks with hand-written, gradient-checked backward passes; Adam.
//! - [`envs`]: CartPole-v1 with Gymnasium's exact dynamics.
//! - [`train`]: step-able trainers (REINFORCE, A2C, PPO on CartPole; the sequence trainer
//!   with a GRU or transformer policy) and curves.
//! - [`lessons`]: each lesson's inputs, worked examples and the analyses behind its figure.
//! - [`plots`]: every figure, generic over the plotters drawing backend (canvas or SVG).
//! - [`qr`]: QR codes (SVG and terminal text) for links and class codes.
//! - [`rng`]: seeded portable randomness.
//! - [`choice`]: the `choice!` macro, a setting's named choices written once.
//! - [`text`]: the ground floor: numbers, lists and Russian numerals as the book writes them,
//!   and a figure's words ([`text::Description`]); it imports nothing of the crate.
//! - `web` (wasm32 only): the wasm-bindgen boundary.

pub mod choice;
pub mod class;
pub mod envs;
pub mod error;
pub mod lessons;
pub mod math;
pub mod nn;
pub mod plots;
pub mod qr;
pub mod rl;
pub mod rng;
pub mod text;
pub mod train;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use error::{Error, Result};
