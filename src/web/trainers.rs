//! Trainer handles for the Web Workers, and the live figures the page draws from their
//! reports. A worker owns one handle and calls `step()` between its message checks.

use super::{canvas, js_error, to_js, whole_number};
use crate::plots::{self, Theme};
use crate::rl::Reduction;
use crate::train::curves;
use crate::train::ppo::{Evaluation as PpoEvaluation, PpoConfig, PpoTrainer, UpdateReport};
use crate::train::sequence::{task, IterationReport, SequenceConfig, SequenceTrainer};
use crate::{Error, Result};
use plots::{cartpole::Data as CartPole, learning_curve::Data as LearningCurve};
use plots::{ppo_diagnostics::Data as PpoDiagnostics, sequence_curves::Data as SequenceCurves};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Reads a JS value into a Rust type, naming what was expected.
fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: JsValue) -> Result<T> {
    serde_wasm_bindgen::from_value(value).map_err(|e| Error::parse(what, "", e))
}

/// A seed typed by the reader: a whole number below 2^53 (JS numbers are exact up to there).
fn parse_seed(text: &str) -> Result<u64> {
    let t = text.trim();
    t.parse::<u64>()
        .ok()
        .filter(|&s| s < (1u64 << 53))
        .ok_or_else(|| {
            let rule = crate::error::Rule::WholeNumber {
                min: 0,
                max: (1 << 53) - 1,
            };
            Error::range("seed", rule, t)
        })
}

// ---------------------------------------------------------------- the sequence policy

/// Checked settings of a sequence run.
#[derive(Serialize)]
struct SequenceSettings {
    profile: String,
    seed: u64,
    reduction: String,
}

/// Checks the reader's sequence settings before any worker starts; returns them normalised.
#[wasm_bindgen]
pub fn validate_sequence_settings(
    profile: &str,
    seed: &str,
    reduction: &str,
) -> std::result::Result<JsValue, JsError> {
    let check = || -> Result<SequenceSettings> {
        let mut config = SequenceConfig::profile(profile)?;
        config.reduction = reduction.parse()?;
        config.validate()?;
        Ok(SequenceSettings {
            profile: profile.to_string(),
            seed: parse_seed(seed)?,
            reduction: config.reduction.name().into(),
        })
    };
    to_js(&check().map_err(js_error)?)
}

/// A first-batch row as the page shows it.
#[derive(Serialize)]
struct BatchRowView {
    prompt: String,
    sequence: String,
    reward: f64,
    advantage: f64,
    mask: Vec<u8>,
}

/// A greedy answer as the page shows it.
#[derive(Serialize)]
struct GreedyView {
    prompt: String,
    answer: String,
    correct_answer: String,
    reward: f64,
    correct: bool,
}

/// One sequence run inside a worker.
#[wasm_bindgen]
pub struct SequenceRun {
    trainer: SequenceTrainer,
    profile: String,
    last: Option<IterationReport>,
    sent_first_batch: bool,
}

#[wasm_bindgen]
impl SequenceRun {
    /// A run of `profile` with `seed` and `reduction`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        profile: &str,
        seed: f64,
        reduction: &str,
    ) -> std::result::Result<SequenceRun, JsError> {
        let build = || -> Result<SequenceRun> {
            let mut config = SequenceConfig::profile(profile)?;
            config.reduction = reduction.parse::<Reduction>()?;
            let seed = whole_number("seed", seed)? as u64;
            Ok(SequenceRun {
                trainer: SequenceTrainer::new(config, seed)?,
                profile: profile.into(),
                last: None,
                sent_first_batch: false,
            })
        };
        build().map_err(js_error)
    }

    /// What the page needs to show progress.
    pub fn info(&self) -> std::result::Result<JsValue, JsError> {
        let c = self.trainer.config();
        to_js(&serde_json::json!({
            "profile": self.profile, "seed": self.trainer.seed(), "reduction": c.reduction.name(),
            "iterations": c.iterations, "group_size": c.group_size, "ppo_epochs": c.ppo_epochs,
        }))
    }

    /// Whether the configured iterations are done.
    pub fn finished(&self) -> bool {
        self.trainer.done()
    }

    /// One iteration; its report.
    pub fn step(&mut self) -> std::result::Result<JsValue, JsError> {
        let report = self.trainer.step().map_err(js_error)?;
        let value = to_js(&report)?;
        self.last = Some(report);
        Ok(value)
    }

    /// The greedy answers now, and (once) the first rollout batch.
    pub fn extra(&mut self) -> std::result::Result<JsValue, JsError> {
        let prompt = |class: usize| task::token_text(task::PROMPT_TOKENS[class]);
        let greedy: Vec<GreedyView> = self
            .trainer
            .greedy_answers()
            .map_err(js_error)?
            .into_iter()
            .map(|g| GreedyView {
                prompt: prompt(g.prompt_class),
                answer: g.text,
                correct_answer: task::decode(&task::layout_row(
                    g.prompt_class,
                    &task::correct_response(g.prompt_class),
                    0,
                )),
                reward: g.reward,
                correct: g.correct,
            })
            .collect();
        let first_batch: Option<Vec<BatchRowView>> =
            match (self.sent_first_batch, self.trainer.first_batch()) {
                (false, Some(rows)) => {
                    self.sent_first_batch = true;
                    Some(
                        rows.iter()
                            .map(|r| BatchRowView {
                                prompt: prompt(r.prompt_class),
                                sequence: r.text.clone(),
                                reward: r.reward,
                                advantage: r.advantage,
                                mask: r.mask.clone(),
                            })
                            .collect(),
                    )
                }
                _ => None,
            };
        to_js(&serde_json::json!({ "greedy": greedy, "first_batch": first_batch }))
    }

    /// The final summary (same fields as the CLI's, without the wall time).
    pub fn summary(&self) -> std::result::Result<JsValue, JsError> {
        let last = self
            .last
            .as_ref()
            .ok_or_else(|| JsError::new("no iteration has run"))?;
        to_js(&serde_json::json!({
            "kind": "summary", "seed": self.trainer.seed(), "profile": self.profile,
            "reduction": self.trainer.config().reduction.name(),
            "final_mean_reward": last.eval_mean_reward, "final_success_rate": last.eval_success_rate,
            "greedy_correct": last.greedy_correct, "prompts": task::NUM_PROMPTS, "iterations": last.iteration,
        }))
    }
}

/// Draws the sequence run's evaluation curves from its reports so far.
#[wasm_bindgen]
pub fn draw_sequence_curves(canvas_id: &str, reports: JsValue) -> std::result::Result<(), JsError> {
    let reports: Vec<IterationReport> = from_js("reports", reports).map_err(js_error)?;
    canvas::with_canvas(canvas_id, |area, dpr| {
        plots::sequence_curves::draw(
            area,
            &SequenceCurves { reports: &reports },
            &Theme::for_dpr(dpr),
        )
    })
    .map_err(js_error)
}

/// The reports as CSV, one row per iteration.
#[wasm_bindgen]
pub fn sequence_reports_csv(reports: JsValue) -> std::result::Result<String, JsError> {
    let reports: Vec<IterationReport> = from_js("reports", reports).map_err(js_error)?;
    let mut out = String::from(
        "iteration,mean_reward,success_rate,mean_response_length,approx_kl,ratio_outside_fraction,active_clip_fraction,policy_loss,entropy,grad_norm,eval_mean_reward,eval_success_rate,greedy_correct\n",
    );
    for r in &reports {
        out += &format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            r.iteration,
            r.mean_reward,
            r.success_rate,
            r.mean_response_length,
            r.approx_kl,
            r.ratio_outside_fraction,
            r.active_clip_fraction,
            r.policy_loss,
            r.entropy,
            r.grad_norm,
            r.eval_mean_reward,
            r.eval_success_rate,
            r.greedy_correct
        );
    }
    Ok(out)
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
) -> std::result::Result<(), JsError> {
    canvas::with_canvas(canvas_id, |area, dpr| {
        let state = [x, x_dot, theta, theta_dot];
        plots::cartpole::draw(area, &CartPole { state, caption }, &Theme::for_dpr(dpr))
    })
    .map_err(js_error)
}

// ---------------------------------------------------------------- PPO on CartPole

/// Most seeds one run may train side by side (one worker each).
const MAX_SEEDS: usize = 8;

/// Checked settings of a PPO run.
#[derive(Serialize)]
struct PpoSettings {
    profile: String,
    seeds: Vec<u64>,
    total_env_steps_per_seed: u64,
}

/// The course's default seeds of a profile.
#[wasm_bindgen]
pub fn ppo_default_seeds(profile: &str) -> Vec<f64> {
    PpoConfig::default_seeds(profile)
        .into_iter()
        .map(|s| s as f64)
        .collect()
}

/// Checks the reader's PPO settings (profile, comma-separated seeds) before any worker starts.
#[wasm_bindgen]
pub fn validate_ppo_settings(profile: &str, seeds: &str) -> std::result::Result<JsValue, JsError> {
    let check = || -> Result<PpoSettings> {
        let config = PpoConfig::profile(profile)?;
        config.validate()?;
        let list: Vec<u64> = seeds.split(',').map(parse_seed).collect::<Result<_>>()?;
        if list.len() > MAX_SEEDS {
            let rule = crate::error::Rule::Count {
                min: 1,
                max: MAX_SEEDS,
            };
            return Err(Error::range("seeds", rule, list.len()));
        }
        if let Some(d) = list
            .iter()
            .enumerate()
            .find_map(|(i, s)| list[..i].contains(s).then_some(*s))
        {
            return Err(Error::range("seeds", crate::error::Rule::Distinct, d));
        }
        Ok(PpoSettings {
            profile: profile.into(),
            total_env_steps_per_seed: config.total_env_steps(),
            seeds: list,
        })
    };
    to_js(&check().map_err(js_error)?)
}

/// One PPO run (one seed) inside a worker.
#[wasm_bindgen]
pub struct PpoRun {
    trainer: PpoTrainer,
    profile: String,
    last_update: usize,
    evaluated: bool,
}

#[wasm_bindgen]
impl PpoRun {
    /// A run of `profile` with `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(profile: &str, seed: f64) -> std::result::Result<PpoRun, JsError> {
        let build = || -> Result<PpoRun> {
            let config = PpoConfig::profile(profile)?;
            let seed = whole_number("seed", seed)? as u64;
            Ok(PpoRun {
                trainer: PpoTrainer::new(config, seed)?,
                profile: profile.into(),
                last_update: 0,
                evaluated: false,
            })
        };
        build().map_err(js_error)
    }

    /// Totals for the progress bar, and the evaluation of the untrained policy.
    pub fn info(&self) -> std::result::Result<JsValue, JsError> {
        let c = self.trainer.config();
        to_js(&serde_json::json!({
            "profile": self.profile, "seed": self.trainer.seed(),
            "total_env_steps": c.total_env_steps(), "updates": c.num_updates,
            "evaluations": self.trainer.evaluations(),
        }))
    }

    /// Whether all updates are done.
    pub fn finished(&self) -> bool {
        self.trainer.is_finished()
    }

    /// One rollout + one update; its report (with an evaluation when one was due).
    pub fn step(&mut self) -> std::result::Result<JsValue, JsError> {
        let report = self.trainer.step().map_err(js_error)?;
        self.last_update = report.update;
        self.evaluated = report.evaluation.is_some();
        to_js(&report)
    }

    /// After an evaluation: a fresh greedy episode of the current policy for the animation,
    /// as a flat [x, ẋ, θ, θ̇, …] array.
    pub fn extra(&self) -> std::result::Result<JsValue, JsError> {
        if !self.evaluated {
            return to_js(&serde_json::json!({}));
        }
        let reset_seed = self
            .trainer
            .seed()
            .wrapping_mul(1_000_003)
            .wrapping_add(self.last_update as u64);
        let episode: Vec<f64> = self
            .trainer
            .greedy_episode(reset_seed)
            .into_iter()
            .flatten()
            .collect();
        to_js(&serde_json::json!({ "episode": episode }))
    }

    /// The run's summary (as the CLI's summary line, without timings).
    pub fn summary(&self) -> std::result::Result<JsValue, JsError> {
        let mut value = serde_json::to_value(self.trainer.summary())
            .map_err(|e| JsError::new(&e.to_string()))?;
        value["kind"] = "summary".into();
        to_js(&value)
    }
}

/// One seed's evaluations as the page keeps them.
#[derive(serde::Deserialize)]
struct PageRun {
    seed: u64,
    evaluations: Vec<PpoEvaluation>,
}

/// Draws the live learning curve (median, IQR band, per-seed lines) of several seeds.
#[wasm_bindgen]
pub fn draw_ppo_curves(
    canvas_id: &str,
    profile: &str,
    runs: JsValue,
) -> std::result::Result<(), JsError> {
    let runs: Vec<PageRun> = from_js("runs", runs).map_err(js_error)?;
    let evals: Vec<Vec<PpoEvaluation>> = runs.into_iter().map(|r| r.evaluations).collect();
    let curve = curves::aggregate(&evals).map_err(js_error)?;
    canvas::with_canvas(canvas_id, |area, dpr| {
        plots::learning_curve::draw(
            area,
            &LearningCurve {
                curve: &curve,
                profile,
            },
            &Theme::for_dpr(dpr),
        )
    })
    .map_err(js_error)
}

/// Draws one seed's diagnostics per update.
#[wasm_bindgen]
pub fn draw_ppo_diagnostics(
    canvas_id: &str,
    seed: f64,
    reports: JsValue,
) -> std::result::Result<(), JsError> {
    let reports: Vec<UpdateReport> = from_js("reports", reports).map_err(js_error)?;
    let seed = whole_number("seed", seed).map_err(js_error)? as u64;
    canvas::with_canvas(canvas_id, |area, dpr| {
        plots::ppo_diagnostics::draw(
            area,
            &PpoDiagnostics {
                history: &reports,
                seed,
            },
            &Theme::for_dpr(dpr),
        )
    })
    .map_err(js_error)
}

/// The runs' evaluation curves as CSV: one row per grid point with median, quartiles and
/// every seed's mean return.
#[wasm_bindgen]
pub fn ppo_runs_csv(runs: JsValue) -> std::result::Result<String, JsError> {
    let runs: Vec<PageRun> = from_js("runs", runs).map_err(js_error)?;
    let seeds: Vec<u64> = runs.iter().map(|r| r.seed).collect();
    let evals: Vec<Vec<PpoEvaluation>> = runs.into_iter().map(|r| r.evaluations).collect();
    let curve = curves::aggregate(&evals).map_err(js_error)?;
    let mut out = String::from("env_steps,median,q25,q75");
    for s in &seeds {
        out += &format!(",seed_{s}");
    }
    out.push('\n');
    for i in 0..curve.env_steps.len() {
        out += &format!(
            "{},{},{},{}",
            curve.env_steps[i], curve.median[i], curve.q25[i], curve.q75[i]
        );
        for run in &curve.runs {
            out += &format!(",{}", run[i]);
        }
        out.push('\n');
    }
    Ok(out)
}

/// The CLI's `bench ppo`, run in this (worker) thread with the browser's clock.
#[wasm_bindgen]
pub fn bench_ppo(updates: f64, repeats: f64) -> std::result::Result<JsValue, JsError> {
    let updates = whole_number("updates", updates).map_err(js_error)?;
    let repeats = whole_number("repeats", repeats).map_err(js_error)?;
    let r = crate::train::bench::bench_ppo(updates, repeats, || js_sys::Date::now() / 1000.0)
        .map_err(js_error)?;
    to_js(&r)
}
