//! The trainers the page hosts and their schemas: the page builds its panels, controls, URL
//! overrides and messages from these, and checks a run before any worker starts.

use super::panel::{Diagnostics, PanelKind};
use super::{js_error_of, to_js, JsResult};
use crate::train::cartpole::{SOLVED_THRESHOLD, TIME_STEP_S};
use crate::train::registry::{self, Page, NAMES};
use crate::train::settings::{schema, seeds, Request, Schema, Settings};
use crate::train::{ProgressUnit, Trainer};
use crate::Result;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What the page's list of panels says of one trainer.
#[derive(Serialize, tsify::Tsify)]
struct Listed {
    name: &'static str,
    /// Which panel class shows it (`cartpole`, `sequence`).
    panel: &'static str,
    /// Whether its panel draws a diagnostics figure.
    diagnostics: bool,
    /// The page that hosts its panel.
    page: &'static str,
}

fn listed<T: Trainer, F: PanelKind<T>, D: Diagnostics<T>>() -> Result<Listed> {
    Ok(Listed {
        name: T::NAME,
        panel: F::KIND,
        diagnostics: D::DRAWS,
        page: registry::page(T::NAME)?.file,
    })
}

/// Every trainer of the registry, in the book's order: name, panel kind, diagnostics, page.
#[wasm_bindgen(unchecked_return_type = "Listed[]")]
pub fn trainer_list() -> JsResult<JsValue> {
    let list: Result<Vec<Listed>> = NAMES
        .iter()
        .map(|&name| {
            crate::by_trainer!(name, <T, F, D> => listed::<T, F, D>(),
                other => Err(registry::unknown(other)))
        })
        .collect();
    to_js(&list.map_err(js_error_of(""))?)
}

/// Everything the page needs to know about a trainer: its settings' schema (fields, bounds,
/// defaults per profile, Russian labels), its profiles and their seeds, the seed rule, its
/// panel (kind, diagnostics, page) and the facts the panel shows (the solved threshold,
/// CartPole's time step).
#[derive(Serialize, tsify::Tsify)]
struct TrainerSchema {
    name: String,
    #[serde(flatten)]
    schema: Schema,
    /// Where its panel is: a run link opened on another page is forwarded there.
    page: Page,
    /// Which panel class shows it (`cartpole`, `sequence`).
    panel: &'static str,
    /// Whether its panel draws a diagnostics figure.
    diagnostics: bool,
    max_seed: u64,
    max_seeds: usize,
    solved_threshold: f64,
    time_step_s: f64,
}

/// Trainer `name`'s [`TrainerSchema`].
#[wasm_bindgen(unchecked_return_type = "TrainerSchema")]
pub fn trainer_schema(name: &str) -> JsResult<JsValue> {
    let made: Result<TrainerSchema> = crate::by_trainer!(name, <T, F, D> => schema_of::<T, F, D>(),
        other => Err(registry::unknown(other)));
    to_js(&made.map_err(js_error_of(name))?)
}

fn schema_of<T: Trainer, F: PanelKind<T>, D: Diagnostics<T>>() -> Result<TrainerSchema> {
    Ok(TrainerSchema {
        name: T::NAME.into(),
        schema: schema::<T::Config>(),
        page: registry::page(T::NAME)?,
        panel: F::KIND,
        diagnostics: D::DRAWS,
        max_seed: seeds::MAX_SEED,
        max_seeds: seeds::MAX_SEEDS,
        solved_threshold: SOLVED_THRESHOLD,
        time_step_s: TIME_STEP_S,
    })
}

/// A run's settings, checked: the profile, the overrides that differ from it (normalised
/// text), the seeds, and the totals of one seed.
#[derive(Serialize, tsify::Tsify)]
struct CheckedRun {
    name: String,
    profile: String,
    set: Vec<(String, String)>,
    seeds: Vec<u64>,
    /// Progress units of one seed's run.
    total_per_seed: u64,
    /// Their name as the status line counts them («из 1 000 шагов среды»).
    unit: &'static str,
    /// Steps (updates, iterations) of one seed's run.
    steps_per_seed: u64,
    /// Peak bytes one seed's trainer holds (by the count of its buffers).
    memory_bytes: u64,
    /// Planned work of one seed's run, in the units `measure_speed` measures per second.
    work_per_seed: f64,
    /// The most work a seed may do (above `work_per_seed` under dynamic sampling).
    work_per_seed_max: f64,
}

fn check<T: Trainer>(request: &Request, seeds_text: &str) -> Result<CheckedRun> {
    let (profile, settings) = request.resolve::<T::Config>()?;
    let seeds = seeds::parse_seeds(seeds_text)?;
    let base = T::Config::for_profile(profile);
    // `resolve` validated the settings; the totals follow from them (no trainer is built).
    let progress = T::planned(&settings);
    // A run that cannot fit in a worker is refused before any worker starts.
    let cost = T::cost(&settings);
    cost.check_memory(crate::train::cost::WASM_BUDGET_BYTES)?;
    Ok(CheckedRun {
        name: T::NAME.into(),
        profile: request.profile.clone(),
        set: settings.overrides_of(&base),
        seeds,
        total_per_seed: progress.total,
        unit: unit_ru(progress.unit),
        steps_per_seed: progress.steps,
        memory_bytes: cost.bytes,
        work_per_seed: cost.work,
        work_per_seed_max: cost.work_max,
    })
}

/// A progress unit in Russian, in the genitive plural.
fn unit_ru(unit: ProgressUnit) -> &'static str {
    match unit {
        ProgressUnit::EnvSteps => "шагов среды",
        ProgressUnit::Iterations => "итераций",
    }
}

/// Checks a run before any worker starts: `set` is an array of `[name, value]` text pairs
/// (from the form or the URL), `seeds` a comma-separated list. Errors are Russian messages
/// naming the setting (by this trainer's label) and its bounds.
#[wasm_bindgen(unchecked_return_type = "CheckedRun")]
pub fn check_run(
    name: &str,
    profile: &str,
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] set: JsValue,
    seeds: &str,
) -> JsResult<JsValue> {
    let run = || -> Result<CheckedRun> {
        let set: Vec<(String, String)> = serde_wasm_bindgen::from_value(set)
            .map_err(|e| crate::Error::parse("settings", "", e))?;
        let request = Request {
            profile: profile.to_string(),
            set,
        };
        crate::by_trainer!(name, T => check::<T>(&request, seeds),
            other => Err(registry::unknown(other)))
    };
    to_js(&run().map_err(js_error_of(name))?)
}

/// This machine's speed in the work units of `check_run`'s `work_per_seed`, per second: the
/// median of five short windows of a small PPO run's updates (the first update, which
/// allocates, not counted), about 45 ms.
#[wasm_bindgen]
pub fn measure_speed() -> JsResult<f64> {
    use crate::train::ppo::{PpoConfig, PpoTrainer};
    // Training only: the evaluations' work is planned per episode step, and an untrained
    // policy's episodes are short.
    let config = PpoConfig {
        num_updates: 1000,
        evaluation_every: 0,
        ..PpoConfig::smoke()
    };
    let work = |updates| {
        PpoTrainer::cost(&PpoConfig {
            num_updates: updates,
            ..config.clone()
        })
        .work
    };
    let per_update = work(2) - work(1);
    let mut trainer = PpoTrainer::new(config, 1).map_err(js_error_of("ppo"))?;
    trainer.step().map_err(js_error_of("ppo"))?;
    // The median of five windows of at least 8 ms (an update may take about a millisecond,
    // the clock's step): a page loading beside other work is interrupted now and then, and one
    // interruption must not halve the speed.
    let mut speeds = Vec::new();
    for _ in 0..5 {
        let (t0, mut updates) = (js_sys::Date::now(), 0.0);
        while js_sys::Date::now() - t0 < 8.0 {
            trainer.step().map_err(js_error_of("ppo"))?;
            updates += 1.0;
        }
        speeds.push(per_update * updates * 1000.0 / (js_sys::Date::now() - t0));
    }
    speeds.sort_by(f64::total_cmp);
    Ok(speeds[2])
}
