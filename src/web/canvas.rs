//! The page's canvases as a plotters backend. The page sizes each canvas's backing store (CSS
//! size × devicePixelRatio, `www/js/canvas.js`); a redraw here never reads the layout: one
//! layout read after the page changed (a slider's value, a table) forces a reflow of the whole
//! lesson, and plotters' own text measure (a `<span>` added to the page and measured) forced
//! one per label. Text is measured with the canvas's `measureText` instead.

use crate::error::CanvasProblem;
use crate::plots::marks::Recording;
use crate::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Looks up `<canvas id=canvas_id>` and runs `draw` on its backing store at the size the
/// page gave it, with devicePixelRatio (times the projector view's scale) for the theme's scale.
pub fn with_canvas<T>(
    canvas_id: &str,
    draw: impl FnOnce(&DrawingArea<Recording<Canvas>, Shift>, f64) -> Result<T>,
) -> Result<T> {
    let problem = |p| Error::canvas(canvas_id, p);
    let window = web_sys::window().ok_or_else(|| problem(CanvasProblem::NoPage))?;
    let document = window
        .document()
        .ok_or_else(|| problem(CanvasProblem::NoPage))?;
    let canvas: HtmlCanvasElement = document
        .get_element_by_id(canvas_id)
        .ok_or_else(|| Error::unknown(crate::error::Name::Canvas, canvas_id, &[]))?
        .dyn_into()
        .map_err(|_| problem(CanvasProblem::NotACanvas))?;
    if canvas.width() == 0 || canvas.height() == 0 {
        return Err(problem(CanvasProblem::NoSize));
    }
    // The projector view enlarges what is drawn, not the bitmap (Theme::presentation_scale).
    let scale = crate::plots::theme::Theme::presentation_scale(
        canvas.get_attribute("data-scale").as_deref(),
    );
    let dpr = window.device_pixel_ratio() * scale;
    // Recording: the legends go where the figure drew no data (plots::marks).
    let area =
        Recording::new(Canvas::new(canvas).ok_or_else(|| problem(CanvasProblem::NoContext))?)
            .into_drawing_area();
    let out = draw(&area, dpr)?;
    area.present()?;
    Ok(out)
}

/// plotters-canvas's backend with a text measure that does not touch the page's layout.
pub struct Canvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl Canvas {
    /// The canvas's backend, if the browser gives it a 2d context.
    fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Self { inner, context })
    }
}

/// plotters-canvas does not export its error type by name.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;
type Drawn = std::result::Result<(), DrawingErrorKind<CanvasError>>;

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Drawn {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Drawn {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        self.inner.draw_text(text, style, pos)
    }

    /// Width from `measureText`; height from the font's ascent and descent, which is what the
    /// height of a line of that font (plotters' `<span>` measure) comes to.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> std::result::Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        let metrics = self
            .context
            .measure_text(text)
            .map_err(|_| DrawingErrorKind::FontError("measureText failed".into()))?;
        let height = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        let height = if height.is_finite() && height > 0.0 {
            height
        } else {
            1.15 * style.size()
        };
        Ok((metrics.width().ceil() as u32, height.ceil() as u32))
    }
}
