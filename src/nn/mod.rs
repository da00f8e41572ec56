//! Tiny networks with hand-written backward passes, each checked against finite differences.

mod optim;

pub use optim::{clip_grad_norm, Adam};
