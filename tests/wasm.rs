//! The wasm tests as one binary, run in headless Chromium and Firefox by
//! `wasm-pack test --headless --chrome|--firefox`; natively it is empty.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod sequence_wasm;
mod web;
