//! The wasm-bindgen boundary (wasm32 only): coarse entry points, nothing else.
