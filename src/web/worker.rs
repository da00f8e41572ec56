//! One run (one seed) of any trainer inside a Web Worker: the worker drives every trainer
//! through [`TrainerRun`]'s methods; what each kind of panel adds comes from [`PanelKind`].
//! While a step runs, the trainer's stages ([`Stage`]) reach the worker's script as
//! [`StepProgress`], at most every [`PROGRESS_MS`].

use super::panel::PanelKind;
use super::{js_error_of, to_js, JsResult};
use crate::train::board::StartInfo;
use crate::train::lines::{report_line, summary_line};
use crate::train::registry;
use crate::train::settings::{seeds, Request};
use crate::train::{with_progress_hook, Stage, Trainer};
use crate::{Error, Result};
use serde::Serialize;
use serde_json::Map;
use std::marker::PhantomData;
use wasm_bindgen::prelude::*;

/// The shortest time between two progress messages of a worker (at most four a second).
const PROGRESS_MS: f64 = 250.0;

/// Where a running step is: www/js/protocol.js's `StepProgress`.
#[derive(Debug, Serialize, tsify::Tsify)]
pub(super) struct StepProgress {
    /// The step (update, iteration) running, from 1, of `steps`.
    step: u64,
    steps: u64,
    /// How much of this step is done (0–1, by its planned work).
    fraction: f64,
    stage: Stage,
}

/// A step's line and what it adds for the panel: www/js/protocol.js's `update` message.
#[derive(Debug, Serialize, tsify::Tsify)]
struct StepOut<E> {
    line: String,
    extra: E,
}

/// A trainer of any kind behind one interface, for the worker.
trait AnyRun {
    /// One step as `StepOut` (in JS), calling `progress` with `StepProgress` meanwhile.
    fn step(&mut self, name: &str, progress: Option<js_sys::Function>) -> JsResult<JsValue>;
    fn summary_line(&self) -> Result<String>;
    fn is_finished(&self) -> bool;
    /// The start message (the trainer's own [`StartInfo`]) as JS.
    fn info(&self) -> JsResult<JsValue>;
    fn policy(&self) -> Result<Option<String>>;
}

struct Run<T, F> {
    trainer: T,
    steps: usize,
    kind: PhantomData<F>,
}

impl<T: Trainer, F: PanelKind<T>> Run<T, F> {
    fn step_out(&mut self) -> Result<StepOut<F::Extra>> {
        let report = self.trainer.step()?;
        self.steps += 1;
        let extra = F::after_step(&mut self.trainer, &report, self.steps == 1);
        let line = report_line::<T>(self.trainer.seed(), &report)?;
        Ok(StepOut { line, extra })
    }
}

/// A progress hook that posts through `progress`, time-throttled: the trainer reports every
/// environment step or minibatch, the page hears of it at most every [`PROGRESS_MS`].
fn throttled(progress: js_sys::Function, step: u64, steps: u64, share: f64) -> impl FnMut(Stage) {
    let mut last = js_sys::Date::now();
    move |stage| {
        let now = js_sys::Date::now();
        if now - last < PROGRESS_MS {
            return;
        }
        last = now;
        let message = StepProgress {
            step,
            steps,
            fraction: stage.fraction(share),
            stage,
        };
        if let Ok(value) = to_js(&message) {
            // A failing callback only loses a progress message.
            let _ = progress.call1(&JsValue::NULL, &value);
        }
    }
}

impl<T: Trainer, F: PanelKind<T>> AnyRun for Run<T, F> {
    fn step(&mut self, name: &str, progress: Option<js_sys::Function>) -> JsResult<JsValue> {
        let out = match progress {
            Some(f) => {
                let config = self.trainer.config();
                let (steps, share) = (T::planned(config).steps, T::cost(config).rollout_share);
                let hook = throttled(f, self.steps as u64 + 1, steps, share);
                with_progress_hook(hook, || self.step_out())
            }
            None => self.step_out(),
        };
        to_js(&out.map_err(js_error_of(name))?)
    }
    fn summary_line(&self) -> Result<String> {
        summary_line::<T>(&self.trainer.summary(), &Map::new())
    }
    fn is_finished(&self) -> bool {
        self.trainer.is_finished()
    }
    fn policy(&self) -> Result<Option<String>> {
        F::policy(&self.trainer)
    }
    fn info(&self) -> JsResult<JsValue> {
        to_js(&StartInfo::of(
            &self.trainer,
            F::start_evaluations(&self.trainer),
        ))
    }
}

fn build<T: Trainer + 'static, F: PanelKind<T> + 'static>(
    request: &Request,
    seed: u64,
) -> Result<Box<dyn AnyRun>> {
    let (_, config) = request.resolve::<T::Config>()?;
    Ok(Box::new(Run::<T, F> {
        trainer: T::new(config, seed)?,
        steps: 0,
        kind: PhantomData,
    }))
}

/// What the worker hands `TrainerRun::step` to hear where the step is.
type OnProgress = Option<js_sys::Function>;

/// One run (one seed) of any trainer inside a worker.
#[wasm_bindgen]
pub struct TrainerRun {
    run: Box<dyn AnyRun>,
    name: String,
}

#[wasm_bindgen]
impl TrainerRun {
    /// The run of trainer `name` with `request` (JSON `{"profile": …, "set": [[k, v], …]}`)
    /// and `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, request: &str, seed: f64) -> JsResult<TrainerRun> {
        let make = || -> Result<TrainerRun> {
            let request: Request =
                serde_json::from_str(request).map_err(|e| Error::parse("settings", request, e))?;
            let seed = seeds::check_seed(seed)?;
            let run = crate::by_trainer!(name, <T, F, D> => build::<T, F>(&request, seed)?,
                other => return Err(registry::unknown(other)));
            Ok(TrainerRun {
                run,
                name: name.to_string(),
            })
        };
        make().map_err(js_error_of(name))
    }

    /// Totals for the progress bar and what the untrained policy does.
    #[wasm_bindgen(unchecked_return_type = "AnyStartInfo")]
    pub fn info(&self) -> JsResult<JsValue> {
        self.run.info()
    }

    /// Whether every configured step has run.
    pub fn is_finished(&self) -> bool {
        self.run.is_finished()
    }

    /// One step: `{ line, extra }` — the report as the CLI's JSON line, and what is new to show
    /// (the panel kind's typed extra). Meanwhile `progress`, when given, is called with where
    /// the step is (`StepProgress`), at most every 250 ms.
    #[wasm_bindgen(unchecked_return_type = "StepOut<StepExtra>")]
    pub fn step(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "(p: StepProgress) => void")] progress: OnProgress,
    ) -> JsResult<JsValue> {
        self.run.step(&self.name, progress)
    }

    /// The summary as the CLI's JSON line (without the CLI's timings).
    pub fn summary(&self) -> JsResult<String> {
        self.run.summary_line().map_err(js_error_of(&self.name))
    }

    /// The policy now as a policy file's JSON text (`undefined` for trainers without one).
    pub fn policy(&self) -> JsResult<Option<String>> {
        self.run.policy().map_err(js_error_of(&self.name))
    }
}
