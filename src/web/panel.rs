//! What a trainer's panel shows beyond what every trainer shares, written once per kind of
//! panel (the registry's markers): CartPole trainers — learning curves from greedy
//! evaluations, the animated greedy episode, policy files — and the sequence trainer — its
//! curves, greedy answers and first batch. A diagnostics marker adds PPO's figure.

use super::canvas;
use crate::plots::{self, Theme};
use crate::text::Description;
use crate::train::board::StartInfo;
use crate::train::cartpole::{self, CartPoleReport, CartPoleTrainer, Evaluation};
use crate::train::compare::{Comparison, ConfigResult};
use crate::train::curves::Curve;
use crate::train::ppo::PpoTrainer;
use crate::train::registry::{CartPole, NoDiagnostics, PpoDiagnostics, Sequence};
use crate::train::sequence::lab::{self, ConfigLab};
use crate::train::sequence::{IterationReport, SampleEvaluation, SequenceTrainer};
use crate::train::settings::{Profile, Settings};
use crate::train::Trainer;
use crate::Result;
use serde::Serialize;

/// How far a run's x axes reach: its progress units (transitions, iterations) and steps.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extent {
    pub(super) total: f64,
    pub(super) steps: usize,
}

impl Extent {
    /// The extent of a run of `profile` as it stands (for the empty axes).
    pub(super) fn of_profile<T: Trainer>(profile: &str) -> Result<Self> {
        let profile = <T::Config as Settings>::Profile::parse(profile)?;
        let planned = T::planned(&T::Config::for_profile(profile));
        Ok(Extent {
            total: planned.total as f64,
            steps: planned.steps as usize,
        })
    }
}

/// Where a panel draws: its curve canvas and its detail canvas (an empty id skips a figure:
/// the page draws them in alternate frames, so that no frame's task grows long).
#[derive(Debug, Clone, Copy)]
pub(super) struct Canvases<'a> {
    pub(super) curve: &'a str,
    pub(super) detail: &'a str,
}

/// A kind of panel for trainer `T`.
pub(super) trait PanelKind<T: Trainer> {
    /// The page's name of the kind (which panel class it builds).
    const KIND: &'static str;
    /// What a step adds for the panel (www/js/protocol.js's `StepExtra`, by its `panel` tag).
    type Extra: Serialize;
    /// After a step: anything new to show (the worker sends it with the line).
    fn after_step(trainer: &mut T, report: &T::Report, first: bool) -> Self::Extra;
    /// At the start: the untrained policy's evaluations (none for panels without them).
    fn start_evaluations(trainer: &T) -> Vec<T::Evaluation>;
    /// The policy as a file the page can download and load back.
    fn policy(trainer: &T) -> Result<Option<String>>;
    /// Units done and in total over a comparison's runs.
    fn progress(c: &Comparison<T>) -> (u64, u64);
    /// Each job's evaluations, job by job (none for panels without them).
    fn evaluations(c: &Comparison<T>) -> Vec<Vec<Evaluation>>;
    /// Redraws the live figures; job `chosen`'s diagnostics if `D` draws any.
    fn draw<D: Diagnostics<T>>(
        c: &Comparison<T>,
        canvases: Canvases<'_>,
        profile: &str,
        extent: Extent,
        chosen: usize,
    ) -> Result<()>;
    /// The figures' empty axes (before the first run, after Reset).
    fn draw_empty<D: Diagnostics<T>>(
        canvases: Canvases<'_>,
        profile: &str,
        seed: u64,
    ) -> Result<()>;
    /// The results table (the sequence lab adds its own columns).
    fn results(c: &Comparison<T>) -> Vec<ConfigResult> {
        c.results()
    }
    /// The live figures in words, computed from the runs (none: the page's own captions).
    fn describe(_c: &Comparison<T>) -> Option<Described> {
        None
    }
}

/// A panel's two live figures in words: the learning curve's and the detail figure's.
#[derive(Debug, Serialize, tsify::Tsify)]
pub(super) struct Described {
    curve: Description,
    detail: Description,
}

/// A per-step diagnostics figure beside the learning curve, or none.
pub(super) trait Diagnostics<T: Trainer> {
    /// Whether there is one.
    const DRAWS: bool;
    /// Draws `history` (one seed's reports) on `canvas`.
    fn draw(canvas: &str, history: &[T::Report], seed: u64, extent: Extent) -> Result<()>;
}

impl<T: Trainer> Diagnostics<T> for NoDiagnostics {
    const DRAWS: bool = false;
    fn draw(_: &str, _: &[T::Report], _: u64, _: Extent) -> Result<()> {
        Ok(())
    }
}

impl Diagnostics<PpoTrainer> for PpoDiagnostics {
    const DRAWS: bool = true;
    fn draw(
        canvas: &str,
        history: &[crate::train::ppo::UpdateReport],
        seed: u64,
        extent: Extent,
    ) -> Result<()> {
        canvas::with_canvas(canvas, |area, dpr| {
            let data = plots::ppo_diagnostics::Data {
                history,
                seed,
                x_end: extent.steps,
            };
            plots::ppo_diagnostics::draw(area, &data, &Theme::for_dpr(dpr))
        })
    }
}

// ---------------------------------------------------------------- CartPole

/// What a CartPole step adds: after an evaluation, the greedy episode the panel animates.
#[derive(Debug, Serialize, tsify::Tsify)]
#[tsify(missing_as_null)] // as `to_js` writes `None`
#[serde(tag = "panel", rename = "cartpole")]
pub(super) struct CartPoleExtra {
    /// The episode's states, flat: x, ẋ, θ, θ̇ per frame (`null` without an evaluation).
    episode: Option<Vec<f64>>,
    /// The update after which it was evaluated.
    update: Option<usize>,
}

impl<T: CartPoleTrainer> PanelKind<T> for CartPole
where
    T::Report: CartPoleReport,
{
    const KIND: &'static str = "cartpole";

    type Extra = CartPoleExtra;

    /// The greedy episode after each evaluation (the CLI's animation seed rule).
    fn after_step(trainer: &mut T, report: &T::Report, _first: bool) -> CartPoleExtra {
        let Some(ev) = report.evaluation() else {
            return CartPoleExtra {
                episode: None,
                update: None,
            };
        };
        let update = ev.update;
        let reset = cartpole::animation_seed(trainer.seed(), update);
        let episode: Vec<f64> = trainer
            .agent()
            .greedy_episode(reset)
            .into_iter()
            .flatten()
            .collect();
        CartPoleExtra {
            episode: Some(episode),
            update: Some(update),
        }
    }

    fn start_evaluations(trainer: &T) -> Vec<Evaluation> {
        trainer.agent().evaluations().to_vec()
    }

    fn policy(trainer: &T) -> Result<Option<String>> {
        trainer.policy_file().to_json().map(Some)
    }

    /// A finished run counts whole: it may end a batch short of its budget.
    fn progress(c: &Comparison<T>) -> (u64, u64) {
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

    fn evaluations(c: &Comparison<T>) -> Vec<Vec<Evaluation>> {
        c.boards()
            .iter()
            .flat_map(|b| (0..b.runs().len()).map(move |i| b.evaluations(i)))
            .collect()
    }

    fn results(c: &Comparison<T>) -> Vec<ConfigResult> {
        c.results_with(cartpole::final_extras::<T::Report>)
    }

    fn draw<D: Diagnostics<T>>(
        c: &Comparison<T>,
        canvases: Canvases<'_>,
        profile: &str,
        extent: Extent,
        chosen: usize,
    ) -> Result<()> {
        let curves: Vec<Curve> = c
            .curves()
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect();
        let configs: Vec<(&str, &Curve)> =
            c.labels().iter().map(String::as_str).zip(&curves).collect();
        draw_curves::<T>(canvases.curve, &configs, profile, extent)?;
        if !D::DRAWS || canvases.detail.is_empty() {
            return Ok(());
        }
        let (history, seed) = c
            .locate(chosen)
            .ok()
            .and_then(|(k, i)| c.boards()[k].runs().get(i))
            .map_or((&[][..], 0), |r| (&r.reports[..], r.seed));
        D::draw(canvases.detail, history, seed, extent)
    }

    fn draw_empty<D: Diagnostics<T>>(
        canvases: Canvases<'_>,
        profile: &str,
        seed: u64,
    ) -> Result<()> {
        let extent = Extent::of_profile::<T>(profile)?;
        draw_curves::<T>(canvases.curve, &[("", &Curve::default())], profile, extent)?;
        if !D::DRAWS || canvases.detail.is_empty() {
            return Ok(());
        }
        D::draw(canvases.detail, &[], seed, extent)
    }
}

/// The `total` a worker's start message carried (0 before it arrived).
fn total_of<E>(info: &Option<StartInfo<E>>) -> u64 {
    info.as_ref().map_or(0, |i| i.total)
}

/// The learning curve of a CartPole trainer's run or, with several configurations, their
/// comparison; an empty id draws nothing.
fn draw_curves<T: Trainer>(
    curve_canvas: &str,
    configs: &[(&str, &Curve)],
    profile: &str,
    extent: Extent,
) -> Result<()> {
    if curve_canvas.is_empty() {
        return Ok(());
    }
    let algorithm = T::NAME.to_uppercase();
    canvas::with_canvas(curve_canvas, |area, dpr| {
        let theme = Theme::for_dpr(dpr);
        match configs {
            [(_, curve)] => {
                let data = plots::learning_curve::Data {
                    curve,
                    profile: "",
                    x_end: extent.total,
                };
                let title = format!("{algorithm} на CartPole — профиль {profile}");
                plots::learning_curve::draw_titled(area, &data, &title, &theme)
            }
            _ => {
                let title = format!("{algorithm} на CartPole: сравнение конфигураций");
                let data = plots::learning_curve::Compared {
                    title: &title,
                    configs,
                    x_end: extent.total,
                };
                plots::learning_curve::draw_compared(area, &data, &theme)
            }
        }
    })
}

// ---------------------------------------------------------------- sequence

/// What a sequence iteration adds: the greedy answers, and after the first the first batch.
#[derive(Debug, Serialize, tsify::Tsify)]
#[tsify(missing_as_null)] // as `to_js` writes `None`
#[serde(tag = "panel", rename = "sequence")]
pub(super) struct SequenceExtra {
    greedy: Vec<GreedyRow>,
    first_batch: Option<Vec<FirstBatchView>>,
}

/// One showcase prompt's greedy answer, as the panel's table shows it.
#[derive(Debug, Serialize, tsify::Tsify)]
#[tsify(missing_as_null)] // as `to_js` writes `None`
struct GreedyRow {
    prompt: String,
    /// The whole row decoded.
    answer: String,
    correct_answer: String,
    reward: f64,
    correct: bool,
}

/// One row of the first batch, as lesson 8's table shows it.
#[derive(Debug, Serialize, tsify::Tsify)]
#[tsify(missing_as_null)] // as `to_js` writes `None`
struct FirstBatchView {
    prompt: String,
    /// The row decoded, PAD left out.
    sequence: String,
    reward: f64,
    advantage: f64,
    mask: Vec<u8>,
}

impl PanelKind<SequenceTrainer> for Sequence {
    const KIND: &'static str = "sequence";

    type Extra = SequenceExtra;

    /// The greedy answers after each iteration; the first batch after the first.
    fn after_step(
        trainer: &mut SequenceTrainer,
        _: &IterationReport,
        first: bool,
    ) -> SequenceExtra {
        let greedy = trainer
            .last_evaluation()
            .map(|e| e.greedy.clone())
            .unwrap_or_default()
            .into_iter()
            .map(|g| GreedyRow {
                prompt: g.prompt,
                answer: g.text,
                correct_answer: g.correct_answer,
                reward: g.reward,
                correct: g.correct,
            })
            .collect();
        let first_batch = first.then(|| {
            trainer
                .first_batch()
                .unwrap_or_default()
                .iter()
                .map(|r| FirstBatchView {
                    prompt: r.prompt.clone(),
                    sequence: r.text.clone(),
                    reward: r.reward,
                    advantage: r.advantage,
                    mask: r.mask.clone(),
                })
                .collect()
        });
        SequenceExtra {
            greedy,
            first_batch,
        }
    }

    fn start_evaluations(_: &SequenceTrainer) -> Vec<SampleEvaluation> {
        Vec::new()
    }

    /// A transformer's network (lesson 8's attention figure draws it); the GRU has none.
    fn policy(trainer: &SequenceTrainer) -> Result<Option<String>> {
        trainer.policy_file().transpose()
    }

    fn progress(c: &Comparison<SequenceTrainer>) -> (u64, u64) {
        c.boards()
            .iter()
            .flat_map(|b| b.runs())
            .fold((0, 0), |(d, t), r| {
                (d + r.reports.len() as u64, t + total_of(&r.info))
            })
    }

    fn evaluations(_: &Comparison<SequenceTrainer>) -> Vec<Vec<Evaluation>> {
        Vec::new()
    }

    fn draw<D: Diagnostics<SequenceTrainer>>(
        c: &Comparison<SequenceTrainer>,
        canvases: Canvases<'_>,
        profile: &str,
        extent: Extent,
        _chosen: usize,
    ) -> Result<()> {
        let labs = labs_of(c);
        let configs: Vec<(&str, &ConfigLab)> =
            c.labels().iter().map(String::as_str).zip(&labs).collect();
        draw_lab(canvases, &configs, profile, extent)
    }

    fn draw_empty<D: Diagnostics<SequenceTrainer>>(
        canvases: Canvases<'_>,
        profile: &str,
        _seed: u64,
    ) -> Result<()> {
        let extent = Extent::of_profile::<SequenceTrainer>(profile)?;
        draw_lab(canvases, &[("", &ConfigLab::default())], profile, extent)
    }

    fn results(c: &Comparison<SequenceTrainer>) -> Vec<ConfigResult> {
        c.results_with(lab::final_extras)
    }

    fn describe(c: &Comparison<SequenceTrainer>) -> Option<Described> {
        let labs = labs_of(c);
        Some(Described {
            curve: lab::describe_success(c.labels(), &labs),
            detail: lab::describe_details(c.labels(), &labs),
        })
    }
}

/// Each configuration's lab curves over all its seeds so far.
fn labs_of(c: &Comparison<SequenceTrainer>) -> Vec<ConfigLab> {
    c.boards()
        .iter()
        .map(|b| {
            let runs: Vec<&[IterationReport]> = b.runs().iter().map(|r| &r.reports[..]).collect();
            ConfigLab::of(&runs)
        })
        .collect()
}

/// The sequence lab's two figures: the success rate on the curve canvas, lengths, KL and
/// entropy on the detail canvas (an empty id skips one).
fn draw_lab(
    canvases: Canvases<'_>,
    configs: &[(&str, &ConfigLab)],
    profile: &str,
    extent: Extent,
) -> Result<()> {
    let title = match configs {
        [_] => format!("Доля верных ответов — профиль {profile}"),
        _ => "Доля верных ответов по конфигурациям".to_string(),
    };
    let data = plots::sequence_lab::Data {
        title: &title,
        configs,
        x_end: extent.steps,
    };
    if !canvases.curve.is_empty() {
        canvas::with_canvas(canvases.curve, |area, dpr| {
            plots::sequence_lab::draw_success(area, &data, &Theme::for_dpr(dpr))
        })?;
    }
    if !canvases.detail.is_empty() {
        canvas::with_canvas(canvases.detail, |area, dpr| {
            plots::sequence_lab::draw_details(area, &data, &Theme::for_dpr(dpr))
        })?;
    }
    Ok(())
}
