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

use crate::lessons::{self, Figure};
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

/// A figure drawing function on the page's canvas backend.
type DrawFn<D> = fn(
    &plotters::drawing::DrawingArea<
        crate::plots::marks::Recording<canvas::Canvas>,
        plotters::coord::Shift,
    >,
    &D,
    &Theme,
) -> crate::Result<()>;

/// What a redraw returns to the page: the numbers its text shows and the figure in words.
#[derive(serde::Serialize)]
struct Shown<'a, N> {
    numbers: &'a N,
    description: &'a crate::text::Description,
}

/// analyse → draw → numbers: draws a lesson's `figure` with `draw` on the canvas `canvas_id`
/// and returns the figure's numbers and description to the page.
fn show<N: serde::Serialize, D>(
    canvas_id: &str,
    figure: crate::Result<Figure<N, D>>,
    draw: DrawFn<D>,
) -> Result<JsValue, JsError> {
    let figure = figure.map_err(js_error)?;
    canvas::with_canvas(canvas_id, |area, dpr| {
        draw(area, &figure.data, &Theme::for_dpr(dpr))
    })
    .map_err(js_error)?;
    to_js(&Shown {
        numbers: &figure.numbers,
        description: &figure.description,
    })
}

/// Redraws the PPO clipping figure on the canvas `canvas_id` for clip range `clip_epsilon`;
/// returns the four worked rows (terms and diagnostics) for the table beside it.
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

#[wasm_bindgen]
pub fn draw_clipping(canvas_id: &str, clip_epsilon: f64) -> Result<JsValue, JsError> {
    let figure = lessons::clipping::figure(clip_epsilon);
    show(canvas_id, figure, plots::clipping::draw)
}

/// The GAE figure with the reader's flags: `terminated` and `trace_cut` as bit masks over the
/// buffer's records (bit t = record t), and the "forgot the trace cut" switch.
#[wasm_bindgen]
pub fn draw_gae_with(
    canvas_id: &str,
    gamma: f64,
    lambda: f64,
    terminated: f64,
    trace_cut: f64,
    forgot_trace_cut: bool,
) -> Result<JsValue, JsError> {
    let figure = whole_number("terminated", terminated).and_then(|terminated| {
        let flags = lessons::gae::Flags {
            terminated: u32::try_from(terminated).unwrap_or(u32::MAX),
            trace_cut: u32::try_from(whole_number("trace_cut", trace_cut)?).unwrap_or(u32::MAX),
            forgot_trace_cut,
        };
        lessons::gae::figure(gamma, lambda, flags)
    });
    show(canvas_id, figure, plots::gae::draw)
}

/// Redraws the baseline-variance figure for groups of `group_size` (a whole number, 2–64);
/// `zscore` adds the z-scored advantages on the same groups.
#[wasm_bindgen]
pub fn draw_baselines(canvas_id: &str, group_size: f64, zscore: bool) -> Result<JsValue, JsError> {
    let figure =
        whole_number("group_size", group_size).and_then(|g| lessons::baselines::figure(g, zscore));
    show(canvas_id, figure, plots::baselines::draw)
}

/// The token figure with its switches: the first row's `prompt_length` (BOS included),
/// `include_eos` in the mask, and the deliberate `off_by_one` mask.
#[wasm_bindgen]
pub fn draw_tokens_with(
    canvas_id: &str,
    clip_epsilon: f64,
    prompt_length: f64,
    include_eos: bool,
    off_by_one: bool,
) -> Result<JsValue, JsError> {
    let figure = whole_number("prompt_length", prompt_length).and_then(|first_prompt_length| {
        let opts = lessons::tokens::TokenOptions {
            first_prompt_length,
            include_eos,
            off_by_one,
        };
        lessons::tokens::figure(clip_epsilon, opts)
    });
    show(canvas_id, figure, plots::tokens::draw)
}

/// Redraws the sequence-ratio figure (lesson 7): an answer of `length` tokens whose every
/// log-ratio moved by `delta`, against the clip range `clip_epsilon`.
#[wasm_bindgen]
pub fn draw_sequence_ratio(
    canvas_id: &str,
    length: f64,
    delta: f64,
    clip_epsilon: f64,
) -> Result<JsValue, JsError> {
    let figure = whole_number("length", length)
        .and_then(|n| lessons::tokens::sequence_ratio_figure(n, delta, clip_epsilon));
    show(canvas_id, figure, plots::sequence_ratio::draw)
}

/// Redraws the score-function figure (lesson 1): logits `z0..z2`, chosen `action` (0–2), reward
/// offset `offset` and sample size `sample_size`; returns its numbers.
#[wasm_bindgen]
pub fn draw_score(
    canvas_id: &str,
    z0: f64,
    z1: f64,
    z2: f64,
    action: f64,
    offset: f64,
    sample_size: f64,
) -> Result<JsValue, JsError> {
    let figure = whole_number("action", action).and_then(|a| {
        let n = whole_number("sample_size", sample_size)?;
        lessons::score::figure([z0, z1, z2], a, offset, n)
    });
    show(canvas_id, figure, plots::score::draw)
}

/// Redraws the returns figure (lesson 2): rewards `r0..r2`, discount `gamma` and the chain's
/// step `step` (0–2); returns the worked example at these settings and the chain's estimators.
#[wasm_bindgen]
pub fn draw_returns(
    canvas_id: &str,
    r0: f64,
    r1: f64,
    r2: f64,
    gamma: f64,
    step: f64,
) -> Result<JsValue, JsError> {
    let figure =
        whole_number("step", step).and_then(|t| lessons::returns::figure([r0, r1, r2], gamma, t));
    show(canvas_id, figure, plots::returns::draw)
}

/// Redraws the optimal-baseline figure (lesson 3): probability `p0` of action 0 and action
/// values `q0`, `q1`; returns V, b* and the variances.
#[wasm_bindgen]
pub fn draw_bstar(canvas_id: &str, p0: f64, q0: f64, q1: f64) -> Result<JsValue, JsError> {
    let figure = lessons::baselines::bstar_figure(p0, [q0, q1]);
    show(canvas_id, figure, plots::bstar::draw)
}

/// Redraws the drift figure (lesson 5): full-batch Adam on the clipped objective at clip range
/// `clip_epsilon` for `steps` steps; returns the ratios and objectives per step.
#[wasm_bindgen]
pub fn draw_drift(canvas_id: &str, clip_epsilon: f64, steps: f64) -> Result<JsValue, JsError> {
    let figure =
        whole_number("steps", steps).and_then(|n| lessons::clipping::drift(clip_epsilon, n));
    show(canvas_id, figure, plots::drift::draw)
}

/// Every worked example of the lessons (the page fills `data-worked` elements from it).
#[wasm_bindgen]
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

#[wasm_bindgen]
pub fn draw_difficulty(canvas_id: &str, group_size: f64) -> Result<JsValue, JsError> {
    let figure = whole_number("group_size", group_size).and_then(lessons::grpo::difficulty_figure);
    show(canvas_id, figure, plots::difficulty::draw)
}

#[wasm_bindgen]
pub fn draw_length_weights(
    canvas_id: &str,
    short_length: f64,
    long_length: f64,
    max_length: f64,
) -> Result<JsValue, JsError> {
    let figure = whole_number("short_length", short_length).and_then(|s| {
        let l = whole_number("long_length", long_length)?;
        lessons::grpo::length_figure(s, l, whole_number("max_length", max_length)?)
    });
    show(canvas_id, figure, plots::length_weights::draw)
}

#[wasm_bindgen]
pub fn draw_kl_estimators(canvas_id: &str, shift: f64) -> Result<JsValue, JsError> {
    show(
        canvas_id,
        lessons::grpo::kl_figure(shift),
        plots::kl_estimators::draw,
    )
}

/// pass@k of one prompt from `samples` answers: the truth and the two estimates' expectations.
#[wasm_bindgen]
pub fn draw_pass_at_k(canvas_id: &str, samples: f64, p: f64) -> Result<JsValue, JsError> {
    let figure =
        whole_number("samples", samples).and_then(|n| lessons::r1zero::pass_at_k_figure(n, p));
    show(canvas_id, figure, plots::pass_at_k::draw)
}

/// Lesson 8's attention figure: the copy prompt of `level` symbols drawn by example `sample`,
/// answered by the network of `policy` (a trained transformer's policy file from the panel)
/// or, without one, by the untrained network.
#[wasm_bindgen]
pub fn draw_attention(
    canvas_id: &str,
    level: f64,
    sample: f64,
    policy: Option<String>,
) -> Result<JsValue, JsError> {
    let figure = whole_number("level", level).and_then(|level| {
        let sample = whole_number("sample", sample)? as u64;
        lessons::attention::figure(level, sample, policy.as_deref())
    });
    show(canvas_id, figure, plots::attention::draw)
}
