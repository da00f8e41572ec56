//! A CartPole policy on the page outside training: a loaded policy file's greedy episode,
//! one animation frame, and the PPO and transformer benchmarks run in a worker.

use super::{canvas, js_error, to_js, JsResult};
use crate::plots::{self, Theme};
use crate::train::policy::{self, PolicyFile};
use crate::train::settings::seeds;
use crate::Result;
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

/// What a loaded policy file is and its greedy episode (`replay_policy`).
#[derive(Serialize, tsify::Tsify)]
struct Replay {
    trainer: String,
    seed: u64,
    update: usize,
    env_steps: u64,
    sizes: Vec<usize>,
    #[tsify(type = "Record<string, unknown>")]
    settings: Map<String, Value>,
    reset_seed: u64,
    episode_return: f64,
    /// The episode's states, four numbers a step, flat.
    episode: Vec<f64>,
}

/// Reads a policy file (as `PolicyFile::parse` checks it) and plays its greedy episode from
/// `reset_seed` (NaN: the episode the page showed when it was saved): what the policy is, and
/// the episode's states, flat.
#[wasm_bindgen(unchecked_return_type = "Replay")]
pub fn replay_policy(text: &str, reset_seed: f64) -> JsResult<JsValue> {
    let run = || -> Result<Replay> {
        let (file, actor) = PolicyFile::parse(text)?;
        let reset = if reset_seed.is_nan() {
            file.replay_seed()
        } else {
            seeds::check_seed(reset_seed)?
        };
        let r = policy::replay(&actor, file.precision()?, reset);
        Ok(Replay {
            episode: r.states.iter().flatten().copied().collect(),
            reset_seed: r.reset_seed,
            episode_return: r.episode_return,
            trainer: file.trainer,
            seed: file.seed,
            update: file.update,
            env_steps: file.env_steps,
            sizes: file.sizes,
            settings: file.settings,
        })
    };
    to_js(&run().map_err(js_error)?)
}

/// Draws one CartPole frame.
#[wasm_bindgen]
pub fn draw_cartpole(
    canvas_id: &str,
    x: f64,
    x_dot: f64,
    theta: f64,
    theta_dot: f64,
    caption: &str,
) -> JsResult<()> {
    canvas::with_canvas(canvas_id, |area, dpr| {
        let data = plots::cartpole::Data {
            state: [x, x_dot, theta, theta_dot],
            caption,
        };
        plots::cartpole::draw(area, &data, &Theme::for_dpr(dpr))
    })
    .map_err(js_error)
}

/// The CLI's `bench ppo`, run in this (worker) thread with the browser's clock; `precision`
/// `f32` or `f64` (the default).
#[wasm_bindgen(unchecked_return_type = "BenchResult")]
pub fn bench_ppo(updates: f64, repeats: f64, precision: Option<String>) -> JsResult<JsValue> {
    let updates = super::whole_number("updates", updates).map_err(js_error)?;
    let repeats = super::whole_number("repeats", repeats).map_err(js_error)?;
    let precision = match precision {
        Some(p) => crate::nn::Precision::parse(&p).map_err(js_error)?,
        None => crate::nn::Precision::F64,
    };
    let now = || js_sys::Date::now() / 1000.0;
    let r = crate::train::bench::bench_ppo(updates, repeats, precision, now).map_err(js_error)?;
    to_js(&r)
}

/// The CLI's `bench transformer` in this (worker) thread with the browser's clock
/// (`Date.now()`: each timed round is many milliseconds); `precision` `f32` (the default) or
/// `f64`.
#[wasm_bindgen(unchecked_return_type = "TransformerBench")]
pub fn bench_transformer(repeats: f64, precision: Option<String>) -> JsResult<JsValue> {
    let repeats = super::whole_number("repeats", repeats).map_err(js_error)?;
    let precision = match precision {
        Some(p) => crate::nn::Precision::parse(&p).map_err(js_error)?,
        None => crate::nn::Precision::F32,
    };
    let now = || js_sys::Date::now() / 1000.0;
    let r = crate::train::bench_transformer::bench_transformer(repeats, precision, now)
        .map_err(js_error)?;
    to_js(&r)
}
