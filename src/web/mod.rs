//! The wasm-bindgen boundary (wasm32 only): coarse entry points — one call per redraw — and
//! nothing else. Errors become JS exceptions with the crate's message; the page shows them
//! next to the figure. Panics are reported to the page by the hook installed at start.

mod canvas;
mod panic;

use crate::plots::{self, Theme};
use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated (page or worker).
#[wasm_bindgen(start)]
pub fn start() {
    panic::install_hook();
}

fn js_error(e: crate::Error) -> JsError {
    JsError::new(&e.to_string())
}

/// Redraws the PPO clipping figure on the canvas `canvas_id` for clip range `clip_epsilon`;
/// returns the four worked rows (terms and diagnostics) for the table beside it.
#[wasm_bindgen]
pub fn draw_clipping(canvas_id: &str, clip_epsilon: f64) -> Result<JsValue, JsError> {
    let rows = canvas::with_canvas(canvas_id, |area, dpr| {
        plots::clipping::draw(area, clip_epsilon, Theme::for_dpr(dpr))
    })
    .map_err(js_error)?;
    serde_wasm_bindgen::to_value(&rows).map_err(|e| JsError::new(&e.to_string()))
}

/// The four worked rows alone (no drawing), for the lesson text.
#[wasm_bindgen]
pub fn clipping_rows(clip_epsilon: f64) -> Result<JsValue, JsError> {
    let rows = plots::clipping::four_rows(clip_epsilon).map_err(js_error)?;
    serde_wasm_bindgen::to_value(&rows).map_err(|e| JsError::new(&e.to_string()))
}

/// Deliberately panics: the page's self-check that a panic inside wasm reaches the reader.
#[wasm_bindgen]
pub fn self_test_panic() {
    panic!("self-test: a deliberate panic inside the wasm module");
}
