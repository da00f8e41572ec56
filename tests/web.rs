//! Browser tests (wasm-bindgen-test, run in headless Chromium and Firefox): the figures drawn
//! on a real canvas by the same entry points the page uses.
#![cfg(target_arch = "wasm32")]

use pgbook::web;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh canvas of 720 × 320 CSS pixels attached to the test page.
fn canvas(id: &str) -> HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_id(id);
    canvas
        .set_attribute("style", "width:720px;height:320px;display:block")
        .unwrap();
    document.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

/// (fraction of non-white pixels, FNV hash of all pixels).
fn pixels(canvas: &HtmlCanvasElement) -> (f64, u32) {
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        )
        .unwrap()
        .data();
    let mut hash = 2_166_136_261u32;
    let mut inked = 0usize;
    for px in data.chunks_exact(4) {
        hash = (hash ^ u32::from_le_bytes([px[0], px[1], px[2], 0])).wrapping_mul(16_777_619);
        inked += usize::from(px[0] < 240 || px[1] < 240 || px[2] < 240);
    }
    (inked as f64 / (data.len() / 4) as f64, hash)
}

#[wasm_bindgen_test]
fn clipping_figure_draws_pixels_that_change_with_epsilon() {
    let c = canvas("test-clipping");
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    web::draw_clipping("test-clipping", 0.2).unwrap();
    // Backing store = CSS size × devicePixelRatio.
    assert_eq!(c.width(), (720.0 * dpr).round() as u32);
    let (inked, first) = pixels(&c);
    assert!(inked > 0.02, "figure looks blank: {inked}");
    web::draw_clipping("test-clipping", 0.4).unwrap();
    let (_, second) = pixels(&c);
    assert_ne!(first, second, "the figure did not change with ε");
    web::draw_clipping("test-clipping", 0.2).unwrap();
    assert_eq!(
        pixels(&c).1,
        first,
        "the same ε must redraw the same pixels"
    );
}

#[wasm_bindgen_test]
fn bad_arguments_are_errors_not_panics() {
    canvas("test-clipping-bad");
    assert!(web::draw_clipping("test-clipping-bad", 1.5).is_err());
    assert!(web::draw_clipping("test-clipping-bad", f64::NAN).is_err());
    assert!(web::draw_clipping("no-such-canvas", 0.2).is_err());
    assert!(web::clipping_rows(-0.1).is_err());
}
