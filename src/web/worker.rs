//! One run (one seed) of any trainer inside a Web Worker: the worker drives every trainer
//! through [`TrainerRun`]'s methods; what each kind of panel adds comes from [`PanelKind`].

use super::panel::PanelKind;
use super::{js_error_of, to_js, JsResult};
use crate::train::board::StartInfo;
use crate::train::lines::{report_line, summary_line};
use crate::train::registry;
use crate::train::settings::{seeds, Request};
use crate::train::Trainer;
use crate::{Error, Result};
use serde_json::{json, Map, Value};
use std::marker::PhantomData;
use wasm_bindgen::prelude::*;

/// A trainer of any kind behind one interface, for the worker.
trait AnyRun {
    fn step_line(&mut self) -> Result<(String, Value)>;
    fn summary_line(&self) -> Result<String>;
    fn is_finished(&self) -> bool;
    fn info(&self) -> StartInfo;
    fn policy(&self) -> Result<Option<String>>;
}

struct Run<T, F> {
    trainer: T,
    steps: usize,
    kind: PhantomData<F>,
}

impl<T: Trainer, F: PanelKind<T>> AnyRun for Run<T, F> {
    fn step_line(&mut self) -> Result<(String, Value)> {
        let report = self.trainer.step()?;
        self.steps += 1;
        let extra = F::after_step(&mut self.trainer, &report, self.steps == 1);
        Ok((report_line::<T>(self.trainer.seed(), &report)?, extra))
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
    fn info(&self) -> StartInfo {
        StartInfo::of(&self.trainer, F::start_evaluations(&self.trainer))
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
    pub fn info(&self) -> JsResult<JsValue> {
        to_js(&self.run.info())
    }

    /// Whether every configured step has run.
    pub fn is_finished(&self) -> bool {
        self.run.is_finished()
    }

    /// One step: `{ line, extra }` — the report as the CLI's JSON line, and what is new to show.
    pub fn step(&mut self) -> JsResult<JsValue> {
        let (line, extra) = self.run.step_line().map_err(js_error_of(&self.name))?;
        to_js(&json!({ "line": line, "extra": extra }))
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
