//! Tiny networks with hand-written backward passes, each checked against finite differences.

pub mod gru;
mod optim;

pub use gru::{Gru, GruBlock, GruShape, Tape};
pub use optim::{clip_grad_norm, Adam};
