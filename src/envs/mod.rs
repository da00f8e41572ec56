//! Environments.

pub mod cartpole;

pub use cartpole::CartPole;
