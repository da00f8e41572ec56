//! Trainers for the page, thin over the core: the schema the page builds its controls from,
//! one check of a run's settings before any worker starts, one worker handle for every
//! trainer ([`TrainerRun`]), and a panel's run history on the main thread ([`RunBoard`]).

use super::{canvas, js_error, to_js};
use crate::nn::Mlp;
use crate::plots::{self, Theme};
use crate::train::board::Board;
use crate::train::cartpole::CartPoleReport;
use crate::train::cartpole::{self, SOLVED_THRESHOLD, TIME_STEP_S};
use crate::train::compare::{self, Comparison, Scored};
use crate::train::curves::Curve;
use crate::train::lines::{report_line, summary_line};
use crate::train::policy::{self, PolicyFile};
use crate::train::ppo::{PpoConfig, PpoTrainer};
use crate::train::reinforce::{ReinforceConfig, ReinforceTrainer};
use crate::train::sequence::{IterationReport, SequenceConfig, SequenceTrainer};
use crate::train::settings::{schema_json, seeds, Request, Settings};
use crate::train::{Progress, Trainer};
use crate::{Error, Result};
use serde::Serialize;
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsError>;

/// The trainers the page hosts.
const TRAINERS: [&str; 3] = [
    PpoTrainer::NAME,
    ReinforceTrainer::NAME,
    SequenceTrainer::NAME,
];

fn unknown_trainer(name: &str) -> Error {
    Error::unknown("trainer", name, &TRAINERS)
}

/// Everything the page needs to know about a trainer: its settings' schema (fields, bounds,
/// defaults per profile, Russian labels), its profiles and their seeds, the seed rule and the
/// facts its panel shows (the solved threshold, CartPole's time step).
#[wasm_bindgen]
pub fn trainer_schema(name: &str) -> JsResult<JsValue> {
    let (mut schema, page) = match name {
        PpoTrainer::NAME => (schema_json::<PpoConfig>(), PpoTrainer::PAGE),
        ReinforceTrainer::NAME => (schema_json::<ReinforceConfig>(), ReinforceTrainer::PAGE),
        SequenceTrainer::NAME => (schema_json::<SequenceConfig>(), SequenceTrainer::PAGE),
        other => return Err(js_error(unknown_trainer(other))),
    };
    // Where its panel is: a run link opened on another page is forwarded there.
    schema["page"] = json!(page);
    schema["name"] = name.into();
    schema["max_seed"] = seeds::MAX_SEED.into();
    schema["max_seeds"] = seeds::MAX_SEEDS.into();
    schema["solved_threshold"] = SOLVED_THRESHOLD.into();
    schema["time_step_s"] = TIME_STEP_S.into();
    to_js(&schema)
}

/// A run's settings, checked: the profile, the overrides that differ from it (normalised
/// text), the seeds, and the totals of one seed.
#[derive(Serialize)]
struct CheckedRun {
    name: String,
    profile: String,
    set: Vec<(String, String)>,
    seeds: Vec<u64>,
    /// Progress units of one seed's run.
    total_per_seed: u64,
    unit: &'static str,
    /// Steps (updates, iterations) of one seed's run.
    steps_per_seed: u64,
}

fn check<S: Settings, T: Trainer<Config = S>>(
    request: &Request,
    seeds_text: &str,
) -> Result<CheckedRun> {
    let (profile, settings) = request.resolve::<S>()?;
    let seeds = seeds::parse_seeds(seeds_text)?;
    let base = S::for_profile(profile);
    // `resolve` validated the settings; the totals follow from them (no trainer is built).
    let progress = T::planned(&settings);
    Ok(CheckedRun {
        name: T::NAME.into(),
        profile: request.profile.clone(),
        set: settings.overrides_of(&base),
        seeds,
        total_per_seed: progress.total,
        unit: progress.unit,
        steps_per_seed: progress.steps,
    })
}

/// Checks a run before any worker starts: `set` is an array of `[name, value]` text pairs
/// (from the form or the URL), `seeds` a comma-separated list. Errors are Russian messages
/// naming the setting and its bounds.
#[wasm_bindgen]
pub fn check_run(name: &str, profile: &str, set: JsValue, seeds: &str) -> JsResult<JsValue> {
    let run = || -> Result<CheckedRun> {
        let set: Vec<(String, String)> =
            serde_wasm_bindgen::from_value(set).map_err(|e| Error::parse("settings", "", e))?;
        let request = Request {
            profile: profile.to_string(),
            set,
        };
        match name {
            PpoTrainer::NAME => check::<PpoConfig, PpoTrainer>(&request, seeds),
            ReinforceTrainer::NAME => check::<ReinforceConfig, ReinforceTrainer>(&request, seeds),
            SequenceTrainer::NAME => check::<SequenceConfig, SequenceTrainer>(&request, seeds),
            other => Err(unknown_trainer(other)),
        }
    };
    to_js(&run().map_err(js_error)?)
}

// ---------------------------------------------------------------- the worker's handle

/// What the page shows of a run besides its reports (the CartPole animation, the greedy
/// answers and the first batch): one method per trainer, none in JavaScript.
trait PageExtras: Trainer {
    /// After a step: anything new to show.
    fn extra(&mut self, report: &Self::Report, first: bool) -> Value;
    /// At the start: totals, and what the untrained policy does.
    fn info(&self) -> Value;
    /// The policy as a file the page can download and load back (CartPole trainers).
    fn policy(&self) -> Result<Option<String>> {
        Ok(None)
    }
}

/// What a CartPole panel shows after a step: the greedy episode (`episode` of a reset seed)
/// after each evaluation (the same reset seed as the CLI's animation rule).
fn cartpole_extra(
    episode: impl FnOnce(u64) -> Vec<[f64; 4]>,
    seed: u64,
    update: usize,
    evaluated: bool,
) -> Value {
    if !evaluated {
        return json!({});
    }
    let reset = cartpole::animation_seed(seed, update);
    let episode: Vec<f64> = episode(reset).into_iter().flatten().collect();
    json!({ "episode": episode, "update": update })
}

/// A CartPole trainer's policy file now.
fn cartpole_policy<T: Trainer>(
    trainer: &T,
    actor: &Mlp,
    updates: usize,
    env_steps: u64,
) -> Result<Option<String>> {
    PolicyFile::of(trainer, actor, updates, env_steps)
        .to_json()
        .map(Some)
}

impl PageExtras for PpoTrainer {
    fn extra(&mut self, report: &Self::Report, _first: bool) -> Value {
        cartpole_extra(
            |reset| self.greedy_episode(reset),
            self.seed(),
            report.update,
            report.evaluation.is_some(),
        )
    }
    fn info(&self) -> Value {
        json!({ "evaluations": self.evaluations() })
    }
    fn policy(&self) -> Result<Option<String>> {
        cartpole_policy(
            self,
            &self.actor(),
            self.updates_done(),
            self.summary().env_steps,
        )
    }
}

impl PageExtras for ReinforceTrainer {
    fn extra(&mut self, report: &Self::Report, _first: bool) -> Value {
        cartpole_extra(
            |reset| self.greedy_episode(reset),
            self.seed(),
            report.update,
            report.evaluation.is_some(),
        )
    }
    fn info(&self) -> Value {
        json!({ "evaluations": self.evaluations() })
    }
    fn policy(&self) -> Result<Option<String>> {
        cartpole_policy(
            self,
            self.policy(),
            self.updates_done(),
            self.summary().env_steps,
        )
    }
}

impl PageExtras for SequenceTrainer {
    fn extra(&mut self, _report: &Self::Report, first: bool) -> Value {
        let greedy: Vec<Value> = self
            .last_evaluation()
            .map(|e| e.greedy.clone())
            .unwrap_or_default()
            .into_iter()
            .map(|g| {
                json!({
                    "prompt": g.prompt, "answer": g.text,
                    "correct_answer": g.correct_answer, "reward": g.reward, "correct": g.correct,
                })
            })
            .collect();
        let first_batch = first.then(|| {
            self.first_batch()
                .unwrap_or_default()
                .iter()
                .map(|r| {
                    json!({
                        "prompt": r.prompt, "sequence": r.text, "reward": r.reward,
                        "advantage": r.advantage, "mask": r.mask,
                    })
                })
                .collect::<Vec<_>>()
        });
        json!({ "greedy": greedy, "first_batch": first_batch })
    }
    fn info(&self) -> Value {
        json!({})
    }
}

/// A trainer of any kind behind one interface, for the worker.
trait AnyRun {
    fn step_line(&mut self) -> Result<(String, Value)>;
    fn summary_line(&self) -> Result<String>;
    fn is_finished(&self) -> bool;
    fn info(&self) -> Value;
    fn policy(&self) -> Result<Option<String>>;
}

struct Run<T: PageExtras> {
    trainer: T,
    steps: usize,
}

impl<T: PageExtras> AnyRun for Run<T> {
    fn step_line(&mut self) -> Result<(String, Value)> {
        let report = self.trainer.step()?;
        self.steps += 1;
        let extra = self.trainer.extra(&report, self.steps == 1);
        Ok((report_line::<T>(self.trainer.seed(), &report)?, extra))
    }
    fn summary_line(&self) -> Result<String> {
        summary_line::<T>(&self.trainer.summary(), &Map::new())
    }
    fn is_finished(&self) -> bool {
        self.trainer.is_finished()
    }
    fn policy(&self) -> Result<Option<String>> {
        self.trainer.policy()
    }
    fn info(&self) -> Value {
        let p: Progress = self.trainer.progress();
        let mut info = self.trainer.info();
        info["seed"] = self.trainer.seed().into();
        info["total"] = p.total.into();
        info["unit"] = p.unit.into();
        info
    }
}

fn build<T: PageExtras + 'static>(request: &Request, seed: u64) -> Result<Box<dyn AnyRun>> {
    let (_, config) = request.resolve::<T::Config>()?;
    Ok(Box::new(Run {
        trainer: T::new(config, seed)?,
        steps: 0,
    }))
}

/// One run (one seed) of any trainer inside a worker: the worker drives every trainer through
/// these same methods.
#[wasm_bindgen]
pub struct TrainerRun {
    run: Box<dyn AnyRun>,
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
            let run = match name {
                PpoTrainer::NAME => build::<PpoTrainer>(&request, seed)?,
                ReinforceTrainer::NAME => build::<ReinforceTrainer>(&request, seed)?,
                SequenceTrainer::NAME => build::<SequenceTrainer>(&request, seed)?,
                other => return Err(unknown_trainer(other)),
            };
            Ok(TrainerRun { run })
        };
        make().map_err(js_error)
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
        let (line, extra) = self.run.step_line().map_err(js_error)?;
        to_js(&json!({ "line": line, "extra": extra }))
    }

    /// The summary as the CLI's JSON line (without the CLI's timings).
    pub fn summary(&self) -> JsResult<String> {
        self.run.summary_line().map_err(js_error)
    }

    /// The policy now as a policy file's JSON text (`undefined` for trainers without one).
    pub fn policy(&self) -> JsResult<Option<String>> {
        self.run.policy().map_err(js_error)
    }
}

/// Reads a policy file (as `PolicyFile::parse` checks it) and plays its greedy episode from
/// `reset_seed` (NaN: the episode the page showed when it was saved): what the policy is, and
/// the episode's states, flat.
#[wasm_bindgen]
pub fn replay_policy(text: &str, reset_seed: f64) -> JsResult<JsValue> {
    let run = || -> Result<Value> {
        let (file, actor) = PolicyFile::parse(text)?;
        let reset = if reset_seed.is_nan() {
            file.replay_seed()
        } else {
            seeds::check_seed(reset_seed)?
        };
        let r = policy::replay(&actor, file.precision()?, reset);
        let flat: Vec<f64> = r.states.iter().flatten().copied().collect();
        Ok(json!({
            "trainer": file.trainer, "seed": file.seed, "update": file.update,
            "env_steps": file.env_steps, "sizes": file.sizes, "settings": file.settings,
            "reset_seed": r.reset_seed, "episode_return": r.episode_return, "episode": flat,
        }))
    };
    to_js(&run().map_err(js_error)?)
}

// ---------------------------------------------------------------- a panel's run history

enum AnyBoard {
    Ppo(Comparison<PpoTrainer>),
    Reinforce(Comparison<ReinforceTrainer>),
    Sequence(Comparison<SequenceTrainer>),
}

/// Calls `$body` with the comparison of whichever trainer the board holds.
macro_rules! with_board {
    ($board:expr, $b:ident => $body:expr) => {
        match $board {
            AnyBoard::Ppo($b) => $body,
            AnyBoard::Reinforce($b) => $body,
            AnyBoard::Sequence($b) => $body,
        }
    };
}

/// A trainer panel's run history, kept in Rust on the main thread: the page pushes each
/// worker's lines once, then asks for figures, exports, progress and the results table. It
/// holds one configuration (a run) or up to four (a comparison), each on the same seeds; job
/// `c · seeds + i` is configuration `c` on the `i`-th seed.
#[wasm_bindgen]
pub struct RunBoard {
    board: AnyBoard,
}

fn seeds_of(seeds: Vec<f64>) -> Result<Vec<u64>> {
    seeds.into_iter().map(seeds::check_seed).collect()
}

#[wasm_bindgen]
impl RunBoard {
    /// An empty history of one configuration of trainer `name` for `seeds`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, seeds: Vec<f64>) -> JsResult<RunBoard> {
        RunBoard::compare(name, seeds, vec![String::new()])
    }

    /// An empty comparison of the configurations named by `labels` (1 to 4), each on `seeds`.
    pub fn compare(name: &str, seeds: Vec<f64>, labels: Vec<String>) -> JsResult<RunBoard> {
        let make = || -> Result<RunBoard> {
            let seeds = seeds_of(seeds)?;
            let board = match name {
                PpoTrainer::NAME => AnyBoard::Ppo(Comparison::new(labels, &seeds)?),
                ReinforceTrainer::NAME => AnyBoard::Reinforce(Comparison::new(labels, &seeds)?),
                SequenceTrainer::NAME => AnyBoard::Sequence(Comparison::new(labels, &seeds)?),
                other => return Err(unknown_trainer(other)),
            };
            Ok(RunBoard { board })
        };
        make().map_err(js_error)
    }

    /// Records job `job`'s start message.
    pub fn start(&mut self, job: usize, info: JsValue) -> JsResult<()> {
        let info: Value = serde_wasm_bindgen::from_value(info)
            .map_err(|e| js_error(Error::parse("info", "", e)))?;
        with_board!(&mut self.board, b => b.start(job, info)).map_err(js_error)
    }

    /// Adds one JSON line of job `job`.
    pub fn push(&mut self, job: usize, line: &str) -> JsResult<()> {
        with_board!(&mut self.board, b => b.push_line(job, line)).map_err(js_error)
    }

    /// Whether every run has its summary.
    pub fn is_finished(&self) -> bool {
        with_board!(&self.board, b => b.is_finished())
    }

    /// Units done and in total over all runs, for the progress bar.
    pub fn progress(&self) -> JsResult<JsValue> {
        let total_of = |info: &Value| info.get("total").and_then(Value::as_u64).unwrap_or(0);
        let (done, total) = match &self.board {
            AnyBoard::Ppo(c) => cartpole_progress(c),
            AnyBoard::Reinforce(c) => cartpole_progress(c),
            AnyBoard::Sequence(c) => c
                .boards()
                .iter()
                .flat_map(|b| b.runs())
                .fold((0, 0), |(d, t), r| {
                    (d + r.reports.len() as u64, t + total_of(&r.info))
                }),
        };
        to_js(&json!({ "done": done, "total": total }))
    }

    /// Every run so far, job by job (configuration, seed, info, reports, summary; PPO runs
    /// also their evaluations).
    pub fn runs(&self) -> JsResult<JsValue> {
        let runs: Vec<Value> = with_board!(&self.board, c => c
            .boards()
            .iter()
            .enumerate()
            .flat_map(|(k, b)| b.runs().iter().map(move |r| (k, r)))
            .map(|(k, r)| {
                let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
                v["config"] = k.into();
                v
            })
            .collect());
        let mut runs = runs;
        let evaluations = match &self.board {
            AnyBoard::Ppo(c) => cartpole_evaluations(c),
            AnyBoard::Reinforce(c) => cartpole_evaluations(c),
            AnyBoard::Sequence(_) => Vec::new(),
        };
        for (v, e) in runs.iter_mut().zip(evaluations) {
            v["evaluations"] = json!(e);
        }
        to_js(&runs)
    }

    /// Each job's start message (totals, the untrained policy's evaluation), job by job: with
    /// the JSON lines, all a saved run needs to be drawn again.
    pub fn infos(&self) -> JsResult<JsValue> {
        let infos: Vec<&Value> = with_board!(&self.board, c => c
            .boards()
            .iter()
            .flat_map(|b| b.runs().iter().map(|r| &r.info))
            .collect());
        to_js(&infos)
    }

    /// The summaries so far, one per finished run, each with its `config` and `job`.
    pub fn summaries(&self) -> JsResult<JsValue> {
        let seeds = with_board!(&self.board, c => c.boards()[0].runs().len());
        let summaries: Vec<Value> = with_board!(&self.board, c => c
            .boards()
            .iter()
            .enumerate()
            .flat_map(|(k, b)| b.runs().iter().enumerate().map(move |(i, r)| (k, i, r)))
            .filter_map(|(k, i, r)| {
                let mut v = serde_json::to_value(r.summary.as_ref()?).ok()?;
                v["config"] = k.into();
                v["job"] = (k * seeds + i).into();
                Some(v)
            })
            .collect());
        to_js(&summaries)
    }

    /// The results table: per configuration, the final score's median and IQR over its
    /// finished seeds, and how many of them reached the goal for good, and where.
    pub fn results(&self) -> JsResult<JsValue> {
        with_board!(&self.board, c => to_js(&c.results()))
    }

    /// Redraws the panel's live figures. One configuration: PPO — the learning curve (median,
    /// IQR, every seed) on `curve_canvas`; sequence — the evaluation curves. Several: every
    /// configuration's median and band (sequence: its curves) in its own colour, one legend.
    /// PPO also draws job `chosen`'s diagnostics on `detail_canvas` (an empty id skips a
    /// figure). `total_per_seed` and `steps_per_seed` are the longest configuration's totals
    /// from `check_run`: they fix the x axes, so that they do not rescale as the run goes on.
    pub fn draw(
        &self,
        curve_canvas: &str,
        detail_canvas: &str,
        profile: &str,
        total_per_seed: f64,
        steps_per_seed: f64,
        chosen: usize,
    ) -> JsResult<()> {
        let extent = Extent {
            total: total_per_seed,
            steps: steps_per_seed as usize,
        };
        match &self.board {
            AnyBoard::Reinforce(c) => {
                let curves = cartpole_curves(c);
                let configs: Vec<(&str, &Curve)> =
                    c.labels().iter().map(String::as_str).zip(&curves).collect();
                let title = format!("REINFORCE на CartPole — профиль {profile}");
                draw_curves(
                    curve_canvas,
                    &configs,
                    &title,
                    "REINFORCE на CartPole: сравнение конфигураций",
                    extent,
                )
            }
            AnyBoard::Ppo(c) => {
                let curves = cartpole_curves(c);
                let configs: Vec<(&str, &Curve)> =
                    c.labels().iter().map(String::as_str).zip(&curves).collect();
                let (history, seed) = c
                    .locate(chosen)
                    .ok()
                    .and_then(|(k, i)| c.boards()[k].runs().get(i))
                    .map_or((&[][..], 0), |r| (&r.reports[..], r.seed));
                let canvases = (curve_canvas, detail_canvas);
                draw_ppo(canvases, &configs, history, seed, profile, extent)
            }
            AnyBoard::Sequence(c) => {
                let configs: Vec<(&str, &[IterationReport])> = c
                    .labels()
                    .iter()
                    .zip(c.boards())
                    .map(|(l, b)| {
                        (
                            l.as_str(),
                            b.runs().first().map_or(&[][..], |r| &r.reports[..]),
                        )
                    })
                    .collect();
                draw_sequence(curve_canvas, &configs, extent)
            }
        }
        .map_err(js_error)
    }

    /// The curves as CSV (several configurations: one table, a first column naming each
    /// row's configuration).
    pub fn csv(&self) -> JsResult<String> {
        let make = || -> Result<String> {
            let (labels, csvs): (&[String], Vec<String>) = match &self.board {
                AnyBoard::Ppo(c) => (
                    c.labels(),
                    c.boards()
                        .iter()
                        .map(Board::<PpoTrainer>::csv)
                        .collect::<Result<_>>()?,
                ),
                AnyBoard::Reinforce(c) => (
                    c.labels(),
                    c.boards()
                        .iter()
                        .map(Board::<ReinforceTrainer>::csv)
                        .collect::<Result<_>>()?,
                ),
                AnyBoard::Sequence(c) => (
                    c.labels(),
                    c.boards()
                        .iter()
                        .map(Board::<SequenceTrainer>::csv)
                        .collect(),
                ),
            };
            Ok(match &csvs[..] {
                [one] => one.clone(),
                _ => compare::joined_csv(labels, &csvs),
            })
        };
        make().map_err(js_error)
    }

    /// The first configuration's JSON lines so far, as the CLI prints them with `--json`.
    pub fn json_lines(&self) -> JsResult<String> {
        self.json_lines_of(0)
    }

    /// Configuration `config`'s JSON lines so far, as the CLI prints them with `--json
    /// --threads 1` for that configuration.
    pub fn json_lines_of(&self, config: usize) -> JsResult<String> {
        with_board!(&self.board, c => c.json_lines(config)).map_err(js_error)
    }
}

/// How far a run's x axes reach: its progress units (transitions, iterations) and steps.
#[derive(Debug, Clone, Copy)]
struct Extent {
    total: f64,
    steps: usize,
}

impl Extent {
    /// The extent of a run of `profile` as it stands (for the empty axes).
    fn of_profile<T: Trainer>(profile: &str) -> Result<Self> {
        use crate::train::settings::Profile;
        let profile = <T::Config as Settings>::Profile::parse(profile)?;
        let planned = T::planned(&T::Config::for_profile(profile));
        Ok(Extent {
            total: planned.total as f64,
            steps: planned.steps as usize,
        })
    }
}

/// The learning curve of a CartPole trainer's run (titled `title`) or, with several
/// configurations, their comparison (titled `compared`); an empty id draws nothing.
fn draw_curves(
    curve_canvas: &str,
    configs: &[(&str, &Curve)],
    title: &str,
    compared: &str,
    extent: Extent,
) -> Result<()> {
    // An empty id skips the figure: the page draws its figures in alternate frames, so that no
    // frame's task grows long.
    if curve_canvas.is_empty() {
        return Ok(());
    }
    canvas::with_canvas(curve_canvas, |area, dpr| {
        let theme = Theme::for_dpr(dpr);
        match configs {
            [(_, curve)] => {
                let data = plots::learning_curve::Data {
                    curve,
                    profile: "",
                    x_end: extent.total,
                };
                plots::learning_curve::draw_titled(area, &data, title, &theme)
            }
            _ => {
                let data = plots::learning_curve::Compared {
                    title: compared,
                    configs,
                    x_end: extent.total,
                };
                plots::learning_curve::draw_compared(area, &data, &theme)
            }
        }
    })
}

/// Units done and in total over a CartPole comparison's runs (a finished run counts whole: it
/// may end a batch short of its budget).
fn cartpole_progress<T: Scored>(c: &Comparison<T>) -> (u64, u64)
where
    T::Report: CartPoleReport + PartialEq,
    T::Summary: PartialEq,
{
    let total_of = |info: &Value| info.get("total").and_then(Value::as_u64).unwrap_or(0);
    c.boards()
        .iter()
        .flat_map(|b| b.runs())
        .fold((0, 0), |(d, t), r| {
            let total = total_of(&r.info);
            let done = match r.summary {
                Some(_) => total,
                None => r.reports.last().map_or(0, CartPoleReport::env_steps),
            };
            (d + done, t + total)
        })
}

/// Every job's evaluations, job by job.
fn cartpole_evaluations<T: Scored>(c: &Comparison<T>) -> Vec<Vec<cartpole::Evaluation>>
where
    T::Report: CartPoleReport + PartialEq,
    T::Summary: PartialEq,
{
    c.boards()
        .iter()
        .flat_map(|b| (0..b.runs().len()).map(move |i| b.evaluations(i)))
        .collect()
}

/// Each configuration's curve (empty until all its seeds have evaluated).
fn cartpole_curves<T: Scored>(c: &Comparison<T>) -> Vec<Curve>
where
    T::Report: CartPoleReport + PartialEq,
    T::Summary: PartialEq,
{
    c.curves()
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect()
}

fn draw_ppo(
    (curve_canvas, detail_canvas): (&str, &str),
    configs: &[(&str, &Curve)],
    history: &[crate::train::ppo::UpdateReport],
    seed: u64,
    profile: &str,
    extent: Extent,
) -> Result<()> {
    // An empty id skips that figure: the page draws the two in alternate frames, so that no
    // frame's task grows long.
    let title = format!("PPO на CartPole — профиль {profile}");
    let compared = "PPO на CartPole: сравнение конфигураций";
    draw_curves(curve_canvas, configs, &title, compared, extent)?;
    if detail_canvas.is_empty() {
        return Ok(());
    }
    canvas::with_canvas(detail_canvas, |area, dpr| {
        let data = plots::ppo_diagnostics::Data {
            history,
            seed,
            x_end: extent.steps,
        };
        plots::ppo_diagnostics::draw(area, &data, &Theme::for_dpr(dpr))
    })
}

fn draw_sequence(
    curve_canvas: &str,
    configs: &[(&str, &[IterationReport])],
    extent: Extent,
) -> Result<()> {
    canvas::with_canvas(curve_canvas, |area, dpr| {
        let theme = Theme::for_dpr(dpr);
        match configs {
            [(_, reports)] => {
                let data = plots::sequence_curves::Data {
                    reports,
                    x_end: extent.steps,
                };
                plots::sequence_curves::draw(area, &data, &theme)
            }
            _ => {
                let data = plots::sequence_curves::Compared {
                    configs,
                    x_end: extent.steps,
                };
                plots::sequence_curves::draw_compared(area, &data, &theme)
            }
        }
    })
}

/// Draws trainer `name`'s live figures with no run: their empty axes (the panel before its
/// first run and after Reset).
#[wasm_bindgen]
pub fn draw_empty_trainer(
    name: &str,
    curve_canvas: &str,
    detail_canvas: &str,
    profile: &str,
    seed: f64,
) -> JsResult<()> {
    let seed = seeds::check_seed(seed).map_err(js_error)?;
    match name {
        PpoTrainer::NAME => Extent::of_profile::<PpoTrainer>(profile).and_then(|extent| {
            let canvases = (curve_canvas, detail_canvas);
            draw_ppo(
                canvases,
                &[("", &Curve::default())],
                &[],
                seed,
                profile,
                extent,
            )
        }),
        ReinforceTrainer::NAME => {
            Extent::of_profile::<ReinforceTrainer>(profile).and_then(|extent| {
                let title = format!("REINFORCE на CartPole — профиль {profile}");
                let configs = [("", &Curve::default())];
                draw_curves(curve_canvas, &configs, &title, "", extent)
            })
        }
        SequenceTrainer::NAME => Extent::of_profile::<SequenceTrainer>(profile)
            .and_then(|extent| draw_sequence(curve_canvas, &[("", &[])], extent)),
        other => Err(unknown_trainer(other)),
    }
    .map_err(js_error)
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
#[wasm_bindgen]
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
