//! Step-able trainers shared by the Web Worker, the CLI and the tests.

pub mod bench;
pub mod curves;
pub mod ppo;
pub mod sequence;
