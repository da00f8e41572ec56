//! The wasm-bindgen boundary (wasm32 only): coarse entry points — one call per redraw, each
//! composing a lesson's analysis with its plot — and nothing else; the trainers' entry points
//! only with the `trainers` feature (on by default). Errors become JS exceptions
//! with the crate's message; the page shows them next to the figure. Panics are reported to the page by the hook installed at start.

// The trainers' side (schemas, run boards, panels, policy files, the workers' TrainerRun and
// bench) only with the `trainers` feature: the page of a lesson that only draws figures loads a
// module built without it (scripts/build-wasm.sh's pgbook_figures).
#[cfg(feature = "trainers")]
mod board;
mod canvas;
#[cfg(feature = "trainers")]
mod class;
#[cfg(feature = "trainers")]
mod inspect;
#[cfg(feature = "trainers")]
mod panel;
mod panic;
#[cfg(feature = "trainers")]
mod pipeline;
#[cfg(feature = "trainers")]
mod protocol;
#[cfg(feature = "trainers")]
mod replay;
#[cfg(feature = "trainers")]
mod schema;
#[cfg(feature = "trainers")]
mod worker;

#[cfg(feature = "trainers")]
pub use board::*;
#[cfg(feature = "trainers")]
pub use class::*;
#[cfg(feature = "trainers")]
pub use inspect::*;
#[cfg(feature = "trainers")]
pub use pipeline::*;
#[cfg(feature = "trainers")]
pub use replay::*;
#[cfg(feature = "trainers")]
pub use schema::*;
#[cfg(feature = "trainers")]
pub use worker::*;

use crate::lessons;
use crate::plots::{self, Theme};
use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated (page or worker).
#[wasm_bindgen(start)]
pub fn start() {
    panic::install_hook();
}

#[cfg(feature = "trainers")]
type JsResult<T> = Result<T, JsError>;

/// The core's error as a JS exception with the Russian message (the page shows it as is);
/// arguments that are not a trainer's settings are named by their Russian labels.
fn js_error(e: crate::Error) -> JsError {
    JsError::new(&e.russian(&|name| crate::train::registry::label("", name)))
}

/// [`js_error`] for trainer `trainer`: its settings are named by its own Russian labels.
#[cfg(feature = "trainers")]
fn js_error_of(trainer: &str) -> impl Fn(crate::Error) -> JsError + '_ {
    move |e| JsError::new(&e.russian(&|name| crate::train::registry::label(trainer, name)))
}

/// Plain JS objects (not Maps) so the page can read fields by name.
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// A JS number that must be a whole number ≥ 0 (sliders and URLs deliver f64).
fn whole_number(arg: &str, x: f64) -> crate::Result<usize> {
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= 1e9 {
        Ok(x as usize)
    } else {
        let rule = crate::error::Rule::WholeNumber {
            min: 0,
            max: 1_000_000_000,
        };
        Err(crate::Error::range(arg, rule, x))
    }
}

/// What a redraw returns to the page: the numbers its text shows and the figure in words.
#[derive(serde::Serialize, tsify::Tsify)]
struct Shown {
    numbers: lessons::figures::FigureNumbers,
    description: crate::text::Description,
}

/// Redraws live figure `name` (the page's `data-figure`) on the canvas `canvas_id` at
/// `values`, its parameters by their declared names ([`lessons::figures::FIGURES`]); `network`:
/// the policy file of a transformer lesson 8's trainer finished (the attention figure; none:
/// the untrained network). An unknown figure, a missing or undeclared parameter, or a value its
/// control cannot deliver is refused with a message naming it. Returns the figure's numbers
/// and its description.
#[wasm_bindgen(unchecked_return_type = "Shown")]
pub fn draw_figure(
    name: &str,
    canvas_id: &str,
    #[wasm_bindgen(unchecked_param_type = "Record<string, number>")] values: JsValue,
    network: Option<String>,
) -> Result<JsValue, JsError> {
    let spec = lessons::figures::spec(name).map_err(js_error)?;
    // The figure's parameters by their short labels, other arguments as the core names them.
    let label = |arg: &str| {
        let short = spec.label(arg).map(str::to_string);
        short.or_else(|| crate::train::registry::label("", arg))
    };
    let error = |e: crate::Error| JsError::new(&e.russian(&label));
    let values: lessons::figures::Values = serde_wasm_bindgen::from_value(values)
        .map_err(|e| error(crate::Error::parse("values", "", e.to_string())))?;
    let live = lessons::figures::figure(name, &values, network.as_deref()).map_err(error)?;
    canvas::with_canvas(canvas_id, |area, dpr| live.draw(area, &Theme::for_dpr(dpr)))
        .map_err(error)?;
    to_js(&Shown {
        numbers: live.numbers,
        description: live.description,
    })
}

/// The figures' colours from the page's theme: nine `#rrggbb` strings (paper, ink, grid,
/// blue, red, green, grey, orange, purple), read from its CSS custom properties once per theme change; every
/// canvas drawn after the call takes them.
#[wasm_bindgen]
pub fn set_palette(colors: Vec<String>) -> Result<(), JsError> {
    let palette = plots::theme::Palette::from_hex(&colors).map_err(js_error)?;
    plots::theme::set_palette(palette);
    Ok(())
}

/// `text` as an SVG QR code ([`crate::qr::svg`]): worksheets' links, class result codes.
#[wasm_bindgen]
pub fn qr_svg(text: &str) -> Result<String, JsError> {
    crate::qr::svg(text).map_err(js_error)
}

/// Every worked example of the lessons (the page fills `data-worked` elements from it).
#[wasm_bindgen(unchecked_return_type = "WorkedExamples")]
pub fn worked_examples() -> Result<JsValue, JsError> {
    to_js(&lessons::worked_examples().map_err(js_error)?)
}

/// Lesson 10's coding exercises as JSON text (task, stub, solution, test vectors, hints): the
/// site build writes them into the page. Only the build asks: only its module has it.
#[cfg(feature = "book-build")]
#[wasm_bindgen]
pub fn code_exercises() -> Result<String, JsError> {
    let all = lessons::code::for_page().map_err(js_error)?;
    serde_json::to_string(&all).map_err(|e| JsError::new(&e.to_string()))
}

/// The notebook of the coding exercises (the student's copy, stubs; JSON text) that the site
/// build writes beside the book.
#[cfg(feature = "book-build")]
#[wasm_bindgen]
pub fn exercise_notebook() -> Result<String, JsError> {
    lessons::code::notebook(false).map_err(js_error)
}

/// `n` and its noun in the agreeing form («32 шага»): the one Russian-numeral rule
/// ([`crate::text`]), used by the site build for the lessons' phrases.
#[wasm_bindgen]
pub fn russian_count(n: f64, digits: usize, one: &str, few: &str, many: &str) -> String {
    crate::text::count(n, digits, [one, few, many])
}

/// Checks the reader's answer to exercise `number` of lesson 9: the marked options' numbers
/// or the fields' texts in order; returns { correct, message (Russian), items }.
#[wasm_bindgen(unchecked_return_type = "Check")]
pub fn check_exercise(number: f64, answers: Vec<String>) -> Result<JsValue, JsError> {
    let check = whole_number("exercise", number)
        .and_then(|n| lessons::exercises::check(n, &answers))
        .map_err(js_error)?;
    to_js(&check)
}

/// Deliberately panics: the page's self-check that a panic inside wasm reaches the reader.
#[wasm_bindgen]
pub fn self_test_panic() {
    panic!("self-test: a deliberate panic inside the wasm module");
}
