//! The native integration tests as one binary (one link instead of one per file): every file
//! beside this one is a module. Filter by file with its module path, e.g.
//! `cargo test --test it ppo::` or `cargo test --test it reference_cases::`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod a2c;
mod axis_labels;
mod bad_input;
mod baseline_simulation;
mod cartpole;
mod class;
mod cli;
mod grpo;
mod grpo_figures;
mod import_map;
mod legends;
mod memory_estimate;
mod narrow_figures;
mod nn_gradcheck;
mod policy_contract;
mod ppo;
mod ppo_reference_clip;
mod progress_hook;
mod properties;
mod python;
mod r1;
mod reference_cases;
mod reinforce;
mod sequence;
mod sequence_before_seam;
mod sequence_transformer;
mod source_layout;
mod transformer_gradcheck;
mod worked_examples;
