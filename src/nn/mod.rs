//! Tiny networks with hand-written backward passes, each checked against finite differences
//! (in f64); the MLP, its kernels and Adam are generic over the scalar ([`Scalar`]: f32, f64).

pub mod categorical;
mod gemm;
pub mod gru;
mod init;
mod linear;
mod mlp;
mod optim;
mod scalar;
pub mod sequence_policy;
mod simd;
mod tanh;
pub mod transformer;

pub use gru::{Gru, GruBlock, GruShape, GruTape};
pub use init::orthogonal;
pub use linear::Linear;
pub use mlp::{Mlp, MlpCache};
pub use optim::{clip_grad_norm, Adam};
pub use scalar::{tanh_in_place, Precision, Scalar, TileWidths};
pub use sequence_policy::{PolicyCost, PolicyTape, SequencePolicy};
pub use simd::{kernel_path, set_widest_kernels, Kernels};
pub use tanh::{fast_tanh, fast_tanh_f32};
pub use transformer::{KvCache, Transformer, TransformerShape, TransformerTape};
