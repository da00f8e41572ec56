//! Figures, each a function generic over the drawing backend.

pub mod learning_curve;
pub mod ppo_diagnostics;
