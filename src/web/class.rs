//! The class experiment's entry points: a seat's run and its code (in a worker), a code
//! checked against its recomputed seed (in a worker), the class's configuration, its codes
//! merged into table and band, and the band drawn.

use super::{canvas, js_error_of, to_js, JsResult};
use crate::class::{self, merge, ClassKind};
use crate::plots::{self, Theme};
use crate::train::registry::{self, NAMES};
use crate::train::settings::{seeds, Request};
use crate::train::Trainer;
use crate::{Error, Result};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn config_of<T: Trainer>(request: &str) -> Result<T::Config> {
    let request: Request =
        serde_json::from_str(request).map_err(|e| Error::parse("settings", request, e))?;
    Ok(request.resolve::<T::Config>()?.1)
}

/// One class seat's run, step by step, for the worker's progress line.
trait AnyClassRun {
    fn step(&mut self) -> Result<()>;
    fn is_finished(&self) -> bool;
    fn progress(&self) -> (u64, u64);
    fn code(&self) -> Result<String>;
}

struct SeatRun<T: Trainer, F> {
    trainer: T,
    reports: Vec<T::Report>,
    kind: std::marker::PhantomData<F>,
}

impl<T: Trainer, F: ClassKind<T>> AnyClassRun for SeatRun<T, F> {
    fn step(&mut self) -> Result<()> {
        self.reports.push(self.trainer.step()?);
        Ok(())
    }
    fn is_finished(&self) -> bool {
        self.trainer.is_finished()
    }
    fn progress(&self) -> (u64, u64) {
        let p = self.trainer.progress();
        (p.done, p.total)
    }
    fn code(&self) -> Result<String> {
        Ok(class::code_of::<T, F>(&self.trainer, &self.reports)?.encode())
    }
}

fn seat<T: Trainer + 'static, F: ClassKind<T> + 'static>(
    request: &str,
    seed: u64,
) -> Result<Box<dyn AnyClassRun>> {
    Ok(Box::new(SeatRun::<T, F> {
        trainer: T::new(config_of::<T>(request)?, seed)?,
        reports: Vec::new(),
        kind: std::marker::PhantomData,
    }))
}

/// A class seat's run in a worker, a step at a time; its code at the end is the same text as
/// `pgbook train … --class-code`'s for that seed.
#[wasm_bindgen]
pub struct ClassRun {
    run: Box<dyn AnyClassRun>,
    name: String,
}

#[wasm_bindgen]
impl ClassRun {
    /// Seed `seed` of trainer `name` with `request`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, request: &str, seed: f64) -> JsResult<ClassRun> {
        let make = || -> Result<ClassRun> {
            let seed = seeds::check_seed(seed)?;
            let run = crate::by_trainer!(name, <T, F, D> => seat::<T, F>(request, seed)?,
                other => return Err(registry::unknown(other)));
            Ok(ClassRun {
                run,
                name: name.to_string(),
            })
        };
        make().map_err(js_error_of(name))
    }
    /// One step (update, iteration).
    pub fn step(&mut self) -> JsResult<()> {
        self.run.step().map_err(js_error_of(&self.name))
    }
    /// Whether every step has run.
    pub fn is_finished(&self) -> bool {
        self.run.is_finished()
    }
    /// `[done, total]` in the trainer's progress unit.
    pub fn progress(&self) -> Vec<f64> {
        let (done, total) = self.run.progress();
        vec![done as f64, total as f64]
    }
    /// The finished run's class code.
    pub fn code(&self) -> JsResult<String> {
        self.run.code().map_err(js_error_of(&self.name))
    }
}

/// Recomputes `code`'s seed with trainer `name`'s `request` and returns its seed if the code
/// is that run's; a forged fingerprint, other numbers or another configuration throw the
/// reason in Russian.
#[wasm_bindgen]
pub fn class_verify(name: &str, request: &str, code: &str) -> JsResult<f64> {
    let run = || -> Result<f64> {
        crate::by_trainer!(name, <T, F, D> => {
            let config = config_of::<T>(request)?;
            merge::verify::<T, F>(&config, code).map(|c| c.seed as f64)
        }, other => Err(registry::unknown(other)))
    };
    run().map_err(js_error_of(name))
}

/// What identifies a class: the trainer's index and the configuration's hash.
#[derive(Serialize, tsify::Tsify)]
struct ClassId {
    trainer: String,
    index: usize,
    config: String,
}

fn class_id(name: &str, request: &str) -> Result<(u8, u64)> {
    let index = NAMES
        .iter()
        .position(|&n| n == name)
        .ok_or_else(|| registry::unknown(name))?;
    let hash = crate::by_trainer!(name, T => class::config_hash::<T>(&config_of::<T>(request)?),
        other => return Err(registry::unknown(other)));
    Ok((index as u8, hash))
}

/// The class of trainer `name` with `request`: `{trainer, index, config}` (the hash in hex).
#[wasm_bindgen(unchecked_return_type = "ClassId")]
pub fn class_config(name: &str, request: &str) -> JsResult<JsValue> {
    let (index, hash) = class_id(name, request).map_err(js_error_of(name))?;
    to_js(&ClassId {
        trainer: name.to_string(),
        index: usize::from(index),
        config: merge::hex(hash),
    })
}

/// The codes in `text` (one a line) merged for the class of trainer `name` with `request`:
/// rows, results, band and the refused lines with their reasons.
#[wasm_bindgen(unchecked_return_type = "ClassResult")]
pub fn class_merge(text: &str, name: &str, request: &str) -> JsResult<JsValue> {
    let merged = class_id(name, request).and_then(|id| merge::merge(text, Some(id)));
    to_js(&merged.map_err(js_error_of(name))?)
}

/// Draws the band of the codes in `text` (as [`class_merge`]) on `canvas_id`: CartPole
/// trainers' return against transitions, the sequence trainer's share of correct answers
/// against iterations.
#[wasm_bindgen]
pub fn draw_class(canvas_id: &str, text: &str, name: &str, request: &str) -> JsResult<()> {
    let run = || -> Result<()> {
        let merged = merge::merge(text, Some(class_id(name, request)?))?;
        let (axes, task) = match name {
            "sequence" => (
                plots::learning_curve::SUCCESS,
                "на задаче последовательностей",
            ),
            _ => (plots::learning_curve::CARTPOLE, "на CartPole"),
        };
        let curve = merged.curve;
        canvas::with_canvas(canvas_id, |area, dpr| {
            let theme = Theme::for_dpr(dpr);
            let data = plots::learning_curve::Data {
                curve: &curve,
                profile: "",
                x_end: 0.0,
            };
            let seeds = merged.rows.len();
            let title = format!("Класс: {} {task}, {seeds} нач. чисел", name.to_uppercase());
            plots::learning_curve::draw_on(area, &data, &title, &axes, &theme)
        })
    };
    run().map_err(js_error_of(name))
}
