//! Finding a canvas, sizing its backing store for the device pixel ratio, and handing a
//! plotters drawing area to a figure function.

use crate::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

/// Looks up `<canvas id=canvas_id>`, sets its backing size to CSS size × devicePixelRatio (so
/// lines and text stay crisp on hi-DPI screens) and runs `draw` on it.
pub fn with_canvas<T>(
    canvas_id: &str,
    draw: impl FnOnce(&DrawingArea<CanvasBackend, Shift>, f64) -> Result<T>,
) -> Result<T> {
    let window = web_sys::window()
        .ok_or_else(|| Error::plot("no window: figures are drawn on the page, not in a worker"))?;
    let document = window
        .document()
        .ok_or_else(|| Error::plot("no document"))?;
    let canvas: HtmlCanvasElement = document
        .get_element_by_id(canvas_id)
        .ok_or_else(|| Error::unknown("canvas", canvas_id, &[]))?
        .dyn_into()
        .map_err(|_| Error::plot(format!("element '{canvas_id}' is not a <canvas>")))?;
    let dpr = window.device_pixel_ratio();
    let (css_w, css_h) = (
        f64::from(canvas.client_width()),
        f64::from(canvas.client_height()),
    );
    if css_w < 1.0 || css_h < 1.0 {
        return Err(Error::plot(format!(
            "canvas '{canvas_id}' has no size on the page"
        )));
    }
    let (w, h) = ((css_w * dpr).round() as u32, (css_h * dpr).round() as u32);
    // Assigning width/height clears the canvas even when unchanged: only touch them on resize.
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| Error::plot("no 2d context"))?;
    let area = backend.into_drawing_area();
    let out = draw(&area, dpr)?;
    area.present()?;
    Ok(out)
}
