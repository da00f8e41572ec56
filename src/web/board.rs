//! A trainer panel's run history on the main thread ([`RunBoard`]): the page pushes each
//! worker's lines once, then asks for figures, exports, progress and the results table. One
//! implementation for every trainer ([`BoardOf`]); what differs comes from its panel kind.

use super::panel::{Canvases, Described, Diagnostics, Extent, PanelKind};
use super::{js_error_of, to_js, JsResult};
use crate::train::board::{CsvExport, StartInfo};
use crate::train::cartpole::Evaluation;
use crate::train::compare::{self, Comparison, ConfigResult};
use crate::train::registry;
use crate::train::settings::seeds;
use crate::train::verdict;
use crate::train::Trainer;
use crate::{Error, Result};
use serde::Serialize;
use std::marker::PhantomData;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsError;

/// What the page asks of a panel's history, whatever the trainer.
trait PanelBoard {
    /// `info` as the worker sent it (the trainer's own [`StartInfo`]).
    fn start(&mut self, job: usize, info: JsValue) -> Result<()>;
    fn push_line(&mut self, job: usize, line: &str) -> Result<()>;
    fn is_finished(&self) -> bool;
    fn progress(&self) -> (u64, u64);
    fn runs(&self) -> JsResult<JsValue>;
    fn infos(&self) -> JsResult<JsValue>;
    fn summaries(&self) -> JsResult<JsValue>;
    fn results(&self) -> Vec<ConfigResult>;
    fn describe(&self) -> Option<Described>;
    fn draw(
        &self,
        canvases: Canvases<'_>,
        profile: &str,
        extent: Extent,
        chosen: usize,
    ) -> Result<()>;
    fn csv(&self) -> Result<String>;
    fn json_lines(&self, config: usize) -> Result<String>;
}

/// One seed's run as the page reads it (`RunBoard.runs`): the board's [`SeedRun`] with its
/// configuration and, on CartPole panels, its evaluations.
///
/// [`SeedRun`]: crate::train::board::SeedRun
#[derive(Serialize, tsify::Tsify)]
#[tsify(missing_as_null)] // as `to_js` writes `None`
struct BoardRun<'a, R, S, E> {
    seed: u64,
    info: Option<&'a StartInfo<E>>,
    reports: &'a [R],
    summary: Option<&'a S>,
    config: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    evaluations: Option<Vec<Evaluation>>,
}

/// A finished run's summary with its configuration and job (`RunBoard.summaries`). Declared
/// for TypeScript in `ANY_RUN` below: tsify writes a flattened generic as an interface that
/// extends its parameter, which tsc refuses.
#[derive(Serialize)]
struct BoardSummary<'a, S> {
    #[serde(flatten)]
    summary: &'a S,
    config: usize,
    job: usize,
}

// The trainers' own types in one name each, for the page (tsc): a board, a worker's start
// message and a summary are one of these, whichever trainer the panel runs.
#[wasm_bindgen(typescript_custom_section)]
const ANY_RUN: &str = r#"
export type AnyBoardRun =
  | BoardRun<PpoReport, CartPoleSummary, Evaluation>
  | BoardRun<A2cReport, CartPoleSummary, Evaluation>
  | BoardRun<ReinforceReport, CartPoleSummary, Evaluation>
  | BoardRun<IterationReport, SequenceSummary, SampleEvaluation>;
export type AnyStartInfo = StartInfo<Evaluation> | StartInfo<SampleEvaluation>;
export type BoardSummary<S> = S & { config: number; job: number };
export type AnyBoardSummary = BoardSummary<CartPoleSummary> | BoardSummary<SequenceSummary>;
"#;

/// The comparison of trainer `T` with its panel kind `F` and diagnostics `D`.
struct BoardOf<T: Trainer, F, D> {
    c: Comparison<T>,
    panel: PhantomData<(F, D)>,
}

impl<T, F, D> PanelBoard for BoardOf<T, F, D>
where
    T: Trainer,
    T::Report: CsvExport<T::Evaluation>,
    F: PanelKind<T>,
    D: Diagnostics<T>,
{
    fn start(&mut self, job: usize, info: JsValue) -> Result<()> {
        let info: StartInfo<T::Evaluation> =
            serde_wasm_bindgen::from_value(info).map_err(|e| Error::parse("info", "", e))?;
        self.c.start(job, info)
    }
    fn push_line(&mut self, job: usize, line: &str) -> Result<()> {
        self.c.push_line(job, line)
    }
    fn is_finished(&self) -> bool {
        self.c.is_finished()
    }
    fn progress(&self) -> (u64, u64) {
        F::progress(&self.c)
    }
    fn runs(&self) -> JsResult<JsValue> {
        let mut evaluations = F::evaluations(&self.c).into_iter();
        let mut runs = Vec::new();
        for (config, b) in self.c.boards().iter().enumerate() {
            for r in b.runs() {
                runs.push(BoardRun {
                    seed: r.seed,
                    info: r.info.as_ref(),
                    reports: &r.reports,
                    summary: r.summary.as_ref(),
                    config,
                    evaluations: evaluations.next(),
                });
            }
        }
        to_js(&runs)
    }
    fn infos(&self) -> JsResult<JsValue> {
        let infos: Vec<Option<&StartInfo<T::Evaluation>>> = self
            .c
            .boards()
            .iter()
            .flat_map(|b| b.runs().iter().map(|r| r.info.as_ref()))
            .collect();
        to_js(&infos)
    }
    fn summaries(&self) -> JsResult<JsValue> {
        let seeds = self.c.boards()[0].runs().len();
        let mut out = Vec::new();
        for (config, b) in self.c.boards().iter().enumerate() {
            for (i, r) in b.runs().iter().enumerate() {
                if let Some(summary) = r.summary.as_ref() {
                    out.push(BoardSummary {
                        summary,
                        config,
                        job: config * seeds + i,
                    });
                }
            }
        }
        to_js(&out)
    }
    fn results(&self) -> Vec<ConfigResult> {
        F::results(&self.c)
    }
    fn describe(&self) -> Option<Described> {
        F::describe(&self.c)
    }
    fn draw(
        &self,
        canvases: Canvases<'_>,
        profile: &str,
        extent: Extent,
        chosen: usize,
    ) -> Result<()> {
        F::draw::<D>(&self.c, canvases, profile, extent, chosen)
    }
    fn csv(&self) -> Result<String> {
        let csvs: Vec<String> = self
            .c
            .boards()
            .iter()
            .map(|b| b.csv())
            .collect::<Result<_>>()?;
        Ok(match &csvs[..] {
            [one] => one.clone(),
            _ => compare::joined_csv(self.c.labels(), &csvs),
        })
    }
    fn json_lines(&self, config: usize) -> Result<String> {
        self.c.json_lines(config)
    }
}

fn board<T, F, D>(labels: Vec<String>, seeds: &[u64]) -> Result<Box<dyn PanelBoard>>
where
    T: Trainer + 'static,
    T::Report: CsvExport<T::Evaluation>,
    F: PanelKind<T> + 'static,
    D: Diagnostics<T> + 'static,
{
    Ok(Box::new(BoardOf::<T, F, D> {
        c: Comparison::new(labels, seeds)?,
        panel: PhantomData,
    }))
}

/// Units done and in total over a board's runs (the progress bar's).
#[derive(serde::Serialize, tsify::Tsify)]
struct Progress {
    done: u64,
    total: u64,
}

/// A trainer panel's run history, kept in Rust on the main thread. It holds one
/// configuration (a run) or up to four (a comparison), each on the same seeds; job
/// `c · seeds + i` is configuration `c` on the `i`-th seed.
#[wasm_bindgen]
pub struct RunBoard {
    board: Box<dyn PanelBoard>,
    name: String,
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
            let board = crate::by_trainer!(name, <T, F, D> => board::<T, F, D>(labels, &seeds)?,
                other => return Err(registry::unknown(other)));
            Ok(RunBoard {
                board,
                name: name.to_string(),
            })
        };
        make().map_err(js_error_of(name))
    }

    fn fail(&self) -> impl Fn(Error) -> JsError + '_ {
        js_error_of(&self.name)
    }

    /// Records job `job`'s start message.
    pub fn start(
        &mut self,
        job: usize,
        #[wasm_bindgen(unchecked_param_type = "AnyStartInfo")] info: JsValue,
    ) -> JsResult<()> {
        let name = self.name.clone();
        self.board.start(job, info).map_err(js_error_of(&name))
    }

    /// Adds one JSON line of job `job`.
    pub fn push(&mut self, job: usize, line: &str) -> JsResult<()> {
        let name = self.name.clone();
        self.board.push_line(job, line).map_err(js_error_of(&name))
    }

    /// Whether every run has its summary.
    pub fn is_finished(&self) -> bool {
        self.board.is_finished()
    }

    /// Units done and in total over all runs, for the progress bar.
    #[wasm_bindgen(unchecked_return_type = "Progress")]
    pub fn progress(&self) -> JsResult<JsValue> {
        let (done, total) = self.board.progress();
        to_js(&Progress { done, total })
    }

    /// Every run so far, job by job (configuration, seed, info, reports, summary; CartPole
    /// runs also their evaluations).
    #[wasm_bindgen(unchecked_return_type = "AnyBoardRun[]")]
    pub fn runs(&self) -> JsResult<JsValue> {
        self.board.runs()
    }

    /// Each job's start message (totals, the untrained policy's evaluation), job by job: with
    /// the JSON lines, all a saved run needs to be drawn again.
    #[wasm_bindgen(unchecked_return_type = "(AnyStartInfo | null)[]")]
    pub fn infos(&self) -> JsResult<JsValue> {
        self.board.infos()
    }

    /// The summaries so far, one per finished run, each with its `config` and `job`.
    #[wasm_bindgen(unchecked_return_type = "AnyBoardSummary[]")]
    pub fn summaries(&self) -> JsResult<JsValue> {
        self.board.summaries()
    }

    /// The results table: per configuration, the final score's median and IQR over its
    /// finished seeds, and how many of them reached the goal for good, and where.
    #[wasm_bindgen(unchecked_return_type = "ConfigResult[]")]
    pub fn results(&self) -> JsResult<JsValue> {
        to_js(&self.board.results())
    }

    /// The live figures in words, from the runs so far: `{ curve, detail }`, each a
    /// description (a sentence and a table of its numbers), or null for a trainer whose
    /// captions are the page's own.
    #[wasm_bindgen(unchecked_return_type = "Described | null")]
    pub fn describe(&self) -> JsResult<JsValue> {
        to_js(&self.board.describe())
    }

    /// Redraws the panel's live figures. One configuration: the learning curve (CartPole:
    /// median, IQR, every seed; sequence: the evaluation curves) on `curve_canvas`. Several:
    /// every configuration's median and band (sequence: its curves) in its own colour, one
    /// legend. A trainer with diagnostics (PPO) also draws job `chosen`'s on `detail_canvas`
    /// (an empty id skips a figure). `total_per_seed` and `steps_per_seed` are the longest
    /// configuration's totals from `check_run`: they fix the x axes, so that they do not
    /// rescale as the run goes on.
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
        let canvases = Canvases {
            curve: curve_canvas,
            detail: detail_canvas,
        };
        self.board
            .draw(canvases, profile, extent, chosen)
            .map_err(self.fail())
    }

    /// The curves as CSV (several configurations: one table, a first column naming each
    /// row's configuration).
    pub fn csv(&self) -> JsResult<String> {
        self.board.csv().map_err(self.fail())
    }

    /// The first configuration's JSON lines so far, as the CLI prints them with `--json`.
    pub fn json_lines(&self) -> JsResult<String> {
        self.json_lines_of(0)
    }

    /// Configuration `config`'s JSON lines so far, as the CLI prints them with `--json
    /// --threads 1` for that configuration.
    pub fn json_lines_of(&self, config: usize) -> JsResult<String> {
        self.board.json_lines(config).map_err(self.fail())
    }
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
    let canvases = Canvases {
        curve: curve_canvas,
        detail: detail_canvas,
    };
    let run = || -> Result<()> {
        let seed = seeds::check_seed(seed)?;
        crate::by_trainer!(name, <T, F, D> => <F as PanelKind<T>>::draw_empty::<D>(canvases, profile, seed),
            other => Err(registry::unknown(other)))
    };
    run().map_err(js_error_of(name))
}

/// A results table the page hands back (the panel's own, or a saved run's, in order).
fn results_of(results: JsValue) -> Result<Vec<ConfigResult>> {
    serde_wasm_bindgen::from_value(results).map_err(|e| Error::parse("results", "", e))
}

/// What trainer `name`'s results table calls its score and its goal, and the score's decimals:
/// `{ score, goal, digits }`.
#[wasm_bindgen(unchecked_return_type = "ScoreNames")]
pub fn score_names(name: &str) -> JsResult<JsValue> {
    to_js(&verdict::ScoreNames::of(name).map_err(js_error_of(name))?)
}

/// A comparison of trainer `name` in words, from its results table: each configuration
/// against A, and whether the difference stands out of the spread over seeds.
#[wasm_bindgen]
pub fn describe_comparison(
    name: &str,
    #[wasm_bindgen(unchecked_param_type = "ConfigResult[]")] results: JsValue,
) -> JsResult<String> {
    let run = || -> Result<String> {
        let names = verdict::ScoreNames::of(name)?;
        Ok(verdict::describe(&results_of(results)?, &names))
    };
    run().map_err(js_error_of(name))
}

/// Whether the predictions of the lesson's prepared comparison `id` held on the reader's
/// results table (its configurations in the block's order): `{ summary, checked: [{ outcome,
/// text }] }`.
#[wasm_bindgen(unchecked_return_type = "Verdict")]
pub fn prepared_verdict(
    id: &str,
    #[wasm_bindgen(unchecked_param_type = "ConfigResult[]")] results: JsValue,
) -> JsResult<JsValue> {
    let run = || crate::lessons::prepared::verdict(id, &results_of(results)?);
    to_js(&run().map_err(js_error_of(""))?)
}
