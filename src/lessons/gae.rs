//! Lesson 4: GAE with two masks. The figure's 12-step rollout buffer has a true terminal
//! (t = 3), a time-limit truncation (t = 8) and the buffer's edge (t = 11); the worked example
//! is a two-record buffer. Both compare `terminated` + `trace_cut` with a single `done` flag.

use super::Figure;
use crate::plots::gae::{Data, EpisodeEnd};
use crate::text::{num, yes_no, Description, Table};
use crate::{rl, Result};
use serde::Serialize;

/// A rollout buffer; rewards are 1 per step, as in CartPole.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GaeTrajectory {
    pub rewards: Vec<f64>,
    pub values: Vec<f64>,
    /// V of the observation after each step; at the truncation, the last real observation.
    pub next_values: Vec<f64>,
    pub terminated: Vec<bool>,
    pub trace_cuts: Vec<bool>,
    /// What a single `done` flag says: the episode (or the data) ends here.
    pub done: Vec<bool>,
}

/// The figure's buffer: episode 1 ends by termination at t = 3, episode 2 is truncated by the
/// time limit at t = 8 (its pole still up: high continuation value), episode 3 is cut by the
/// buffer's edge at t = 11.
pub fn trajectory() -> GaeTrajectory {
    let values = vec![2.8, 2.1, 1.5, 0.8, 4.5, 4.6, 4.4, 4.7, 4.5, 3.0, 3.2, 3.1];
    let mut next_values: Vec<f64> = values[1..].to_vec();
    next_values.push(3.3); // after the buffer's edge the episode goes on
    next_values[3] = 0.0; // after the terminal there is nothing (the next entry is a reset)
    next_values[8] = 4.6; // V(last real observation) before the reset
    let cut_at = [3, 8, 11];
    GaeTrajectory {
        rewards: vec![1.0; 12],
        terminated: (0..12).map(|t| t == 3).collect(),
        trace_cuts: (0..12).map(|t| cut_at.contains(&t)).collect(),
        done: (0..12).map(|t| cut_at.contains(&t)).collect(),
        next_values,
        values,
    }
}

/// δ, advantages and value targets of a buffer for one (γ, λ), with both mask conventions.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GaeAnalysis {
    pub gamma: f64,
    pub lambda: f64,
    pub deltas: Vec<f64>,
    pub advantages: Vec<f64>,
    pub value_targets: Vec<f64>,
    pub single_done_deltas: Vec<f64>,
    pub single_done_advantages: Vec<f64>,
    pub single_done_value_targets: Vec<f64>,
    /// (γλ)^k for k = 0..T: how much δ_{t+k} contributes to A_t.
    pub weights: Vec<f64>,
}

/// The analysis of the figure's buffer.
pub fn analyse(gamma: f64, lambda: f64) -> Result<GaeAnalysis> {
    analyse_trajectory(&trajectory(), gamma, lambda)
}

/// δ, advantages and value targets of `tr` with the two masks and with one `done` flag.
pub fn analyse_trajectory(tr: &GaeTrajectory, gamma: f64, lambda: f64) -> Result<GaeAnalysis> {
    let deltas = rl::td_errors(
        &tr.rewards,
        &tr.values,
        &tr.next_values,
        &tr.terminated,
        gamma,
    )?;
    let advantages = rl::gae_advantages(
        &tr.rewards,
        &tr.values,
        &tr.next_values,
        &tr.terminated,
        &tr.trace_cuts,
        gamma,
        lambda,
    )?;
    let single_done_deltas =
        rl::td_errors(&tr.rewards, &tr.values, &tr.next_values, &tr.done, gamma)?;
    let single_done_advantages = rl::gae_advantages(
        &tr.rewards,
        &tr.values,
        &tr.next_values,
        &tr.done,
        &tr.done,
        gamma,
        lambda,
    )?;
    let plus_v = |a: &[f64]| {
        a.iter()
            .zip(&tr.values)
            .map(|(a, v)| a + v)
            .collect::<Vec<_>>()
    };
    let mut weights = Vec::with_capacity(tr.rewards.len());
    let mut w = 1.0;
    for _ in 0..tr.rewards.len() {
        weights.push(w);
        w *= gamma * lambda;
    }
    Ok(GaeAnalysis {
        gamma,
        lambda,
        value_targets: plus_v(&advantages),
        single_done_value_targets: plus_v(&single_done_advantages),
        deltas,
        advantages,
        single_done_deltas,
        single_done_advantages,
        weights,
    })
}

/// The reader's flags on the figure's buffer: which records are true terminals and where the
/// GAE trace is cut, as bit masks over the records (bit t = record t).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flags {
    pub terminated: u32,
    pub trace_cut: u32,
    /// The bug of the lesson: `trace_cut` only where `terminated` is set, so the recursion
    /// runs on across a truncation.
    pub forgot_trace_cut: bool,
}

/// Records of the figure's buffer.
pub const RECORDS: usize = 12;

impl Default for Flags {
    /// The buffer as it is: a terminal at t = 3, cuts at t = 3, 8 and at the buffer's edge.
    fn default() -> Self {
        let tr = trajectory();
        Flags {
            terminated: bits(&tr.terminated),
            trace_cut: bits(&tr.trace_cuts),
            forgot_trace_cut: false,
        }
    }
}

fn bits(flags: &[bool]) -> u32 {
    flags
        .iter()
        .enumerate()
        .filter(|(_, &f)| f)
        .fold(0, |acc, (t, _)| acc | 1 << t)
}

/// The figure's buffer with the reader's flags. The buffer's last record always cuts the trace
/// (nothing follows it); one `done` flag is set wherever either mask is.
fn flagged_trajectory(flags: Flags) -> Result<GaeTrajectory> {
    for (name, mask) in [
        ("terminated", flags.terminated),
        ("trace_cut", flags.trace_cut),
    ] {
        if mask >> RECORDS != 0 {
            let rule = crate::error::Rule::WholeNumber {
                min: 0,
                max: (1 << RECORDS) - 1,
            };
            return Err(crate::Error::range(name, rule, mask));
        }
    }
    let mut tr = trajectory();
    let on = |mask: u32, t: usize| mask >> t & 1 == 1;
    tr.terminated = (0..RECORDS).map(|t| on(flags.terminated, t)).collect();
    tr.trace_cuts = (0..RECORDS)
        .map(|t| t + 1 == RECORDS || on(flags.trace_cut, t))
        .collect();
    if flags.forgot_trace_cut {
        tr.trace_cuts = (0..RECORDS)
            .map(|t| t + 1 == RECORDS || tr.terminated[t])
            .collect();
    }
    tr.done = (0..RECORDS)
        .map(|t| tr.terminated[t] || tr.trace_cuts[t])
        .collect();
    Ok(tr)
}

/// The figure at (γ, λ) with the reader's `flags`: the analysis for the page and the
/// buffer's series for the plot.
pub fn figure(gamma: f64, lambda: f64, flags: Flags) -> Result<Figure<GaeAnalysis, Data>> {
    let tr = flagged_trajectory(flags)?;
    let a = analyse_trajectory(&tr, gamma, lambda)?;
    let n = tr.rewards.len();
    // Episodes end where `done` says so; the buffer's edge closes the last one.
    let mut episodes = Vec::new();
    let mut start = 0;
    for t in 0..n {
        if tr.done[t] || t + 1 == n {
            episodes.push(start..t + 1);
            start = t + 1;
        }
    }
    let ends = episodes[..episodes.len().saturating_sub(1)]
        .iter()
        .map(|e| {
            let t = e.end - 1;
            let kind = if tr.terminated[t] {
                EpisodeEnd::Terminated
            } else {
                EpisodeEnd::Truncated
            };
            (t as f64 + 0.5, kind)
        })
        .collect();
    let description = describe(&tr, &a, flags);
    let data = Data {
        steps: (0..n).map(|t| t as f64).collect(),
        deltas: a.deltas.clone(),
        advantages: a.advantages.clone(),
        single_done_advantages: a.single_done_advantages.clone(),
        values: tr.values,
        value_targets: a.value_targets.clone(),
        single_done_value_targets: a.single_done_value_targets.clone(),
        weights: a.weights.clone(),
        episodes,
        ends,
        forgot_trace_cut: flags.forgot_trace_cut,
    };
    Ok(Figure {
        numbers: a,
        data,
        description,
    })
}

/// The figure in words: where the two conventions disagree, and every record's numbers.
fn describe(tr: &GaeTrajectory, a: &GaeAnalysis, flags: Flags) -> Description {
    let differ: Vec<String> = (0..tr.rewards.len())
        .filter(|&t| (a.advantages[t] - a.single_done_advantages[t]).abs() > 5e-4)
        .map(|t| t.to_string())
        .collect();
    let where_ = |mask: &[bool]| {
        let ts: Vec<String> = (0..mask.len())
            .filter(|&t| mask[t])
            .map(|t| t.to_string())
            .collect();
        if ts.is_empty() {
            "нигде".to_string()
        } else {
            format!("на шагах {}", ts.join(", "))
        }
    };
    let mut text = format!(
        "Преимущества GAE при γ = {}, λ = {}: terminated {}, trace_cut {}. ",
        num(a.gamma, 2),
        num(a.lambda, 2),
        where_(&tr.terminated),
        where_(&tr.trace_cuts),
    );
    if differ.is_empty() {
        text += "Две маски и один флаг done дают одинаковые преимущества.";
    } else {
        text += &format!(
            "Две маски и один флаг done расходятся на шагах {}; наибольшая разница {}.",
            differ.join(", "),
            num(
                (0..tr.rewards.len())
                    .map(|t| (a.advantages[t] - a.single_done_advantages[t]).abs())
                    .fold(0.0, f64::max),
                3
            )
        );
    }
    if flags.forgot_trace_cut {
        text += " На усечениях забыт обрыв рекурсии (trace_cut): преимущество следующего эпизода утекает назад.";
    }
    let mut table = Table::new(&[
        "t",
        "terminated",
        "trace_cut",
        "V_t",
        "δ_t",
        "Â_t (две маски)",
        "Â_t (один done)",
    ]);
    for t in 0..tr.rewards.len() {
        table = table.row([
            t.to_string(),
            yes_no(tr.terminated[t]).to_string(),
            yes_no(tr.trace_cuts[t]).to_string(),
            num(tr.values[t], 2),
            num(a.deltas[t], 3),
            num(a.advantages[t], 3),
            num(a.single_done_advantages[t], 3),
        ]);
    }
    Description { text, table }
}

/// The worked example: two records, with two masks and with a single `done` (both flattened
/// in JSON: `gae.rewards`, `gae.advantages`, `gae.single_done_advantages`, …).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Gae {
    #[serde(flatten)]
    pub trajectory: GaeTrajectory,
    #[serde(flatten)]
    pub analysis: GaeAnalysis,
}

/// Record 0 is a buffer boundary (bootstrap, cut), record 1 a terminal. One `done` flag
/// answers both questions at once: record 0 ends the data, so it is also treated as terminal.
pub fn worked() -> Result<Gae> {
    let trajectory = GaeTrajectory {
        rewards: vec![1.0, 100.0],
        values: vec![2.0, 0.0],
        next_values: vec![10.0, 0.0],
        terminated: vec![false, true],
        trace_cuts: vec![true, true],
        done: vec![true, true],
    };
    let analysis = analyse_trajectory(&trajectory, 0.9, 1.0)?;
    Ok(Gae {
        trajectory,
        analysis,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{self, Theme};

    #[test]
    fn two_masks_differ_from_one_done_only_where_the_bootstrap_matters() {
        let a = analyse(0.9, 0.95).unwrap();
        // Terminal at t = 3: both conventions agree (no bootstrap, cut).
        assert_eq!(a.advantages[3], a.single_done_advantages[3]);
        // Truncation at t = 8 and buffer edge at t = 11: one done drops γ·V(next), a bias.
        assert!((a.advantages[8] - a.single_done_advantages[8] - 0.9 * 4.6).abs() < 1e-12);
        assert!((a.advantages[11] - a.single_done_advantages[11] - 0.9 * 3.3).abs() < 1e-12);
        // The bias travels back through the recursion within the episode.
        assert!(a.advantages[5] > a.single_done_advantages[5]);
        // Episode 1 is untouched by what happens later in the buffer.
        assert_eq!(a.advantages[..4], a.single_done_advantages[..4]);
        assert_eq!(a.weights[0], 1.0);
        assert!((a.weights[2] - (0.9f64 * 0.95) * (0.9 * 0.95)).abs() < 1e-15);
    }

    #[test]
    fn the_trainers_truncation_settings_give_this_buffers_two_conventions() {
        use crate::rl::Truncation;
        let (tr, (gamma, lambda)) = (trajectory(), (0.9, 0.95));
        let a = analyse_trajectory(&tr, gamma, lambda).unwrap();
        // The buffer's records as CartPole reports them: a terminal, a truncation, the edge.
        let (terminated, truncated) = ((0..12).map(|t| t == 3), (0..12).map(|t| t == 8));
        let flags: Vec<(bool, bool)> = terminated.zip(truncated).collect();
        let advantages = |truncation: Truncation| {
            let no_bootstrap: Vec<bool> = flags
                .iter()
                .map(|&(term, trunc)| truncation.no_bootstrap(term, trunc))
                .collect();
            rl::gae_advantages(
                &tr.rewards,
                &tr.values,
                &tr.next_values,
                &no_bootstrap,
                &tr.trace_cuts,
                gamma,
                lambda,
            )
            .unwrap()
        };
        // `bootstrap` is the lesson's two masks, record for record.
        assert_eq!(advantages(Truncation::Bootstrap), a.advantages);
        // `terminal` is the one `done` flag wherever an episode ended (records 0–8); at the
        // buffer's edge the trainer still bootstraps, as CleanRL does.
        let terminal = advantages(Truncation::Terminal);
        assert_eq!(terminal[..9], a.single_done_advantages[..9]);
        assert_eq!(terminal[9..], a.advantages[9..]);
    }

    #[test]
    fn lambda_zero_gives_delta_and_bad_gamma_is_an_error() {
        let a = analyse(0.7, 0.0).unwrap();
        assert_eq!(a.advantages, a.deltas);
        assert!(analyse(1.2, 0.5).unwrap_err().to_string().contains("gamma"));
        let f = figure(0.9, 0.95, Flags::default()).unwrap();
        let svg = plots::to_svg(800, 420, |area| {
            plots::gae::draw(area, &f.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("усечение") && svg.contains("Веса"));
    }

    #[test]
    fn the_figure_splits_the_buffer_into_its_three_episodes() {
        let d = figure(0.9, 0.95, Flags::default()).unwrap().data;
        assert_eq!(d.episodes, vec![0..4, 4..9, 9..12]);
        assert_eq!(
            d.ends,
            vec![(3.5, EpisodeEnd::Terminated), (8.5, EpisodeEnd::Truncated)]
        );
    }

    #[test]
    fn the_figure_marks_the_buffer_end_and_names_v_and_delta() {
        use crate::plots::{self, Theme};
        let f = figure(0.9, 0.95, Flags::default()).unwrap();
        let svg = plots::to_svg(760, 520, |a| {
            plots::gae::draw(a, &f.data, &Theme::default())
        })
        .unwrap();
        for text in [
            "конец буфера",
            "δ: две маски",
            "один флаг done",
            "\nV\n",
            "4,0",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(!svg.contains("A_t") && !svg.contains("один done"));
    }

    #[test]
    fn forgetting_the_trace_cut_leaks_the_next_episode_back() {
        let (right, bug) = (
            figure(0.9, 0.95, Flags::default()).unwrap(),
            figure(
                0.9,
                0.95,
                Flags {
                    forgot_trace_cut: true,
                    ..Flags::default()
                },
            )
            .unwrap(),
        );
        let (a, b) = (&right.numbers.advantages, &bug.numbers.advantages);
        // After the truncation (t ≥ 9) nothing changes; at t = 8 and before, the episode's
        // advantages take γλ·A_9 and its echo.
        assert_eq!(a[9..], b[9..]);
        assert!((b[8] - a[8] - 0.9 * 0.95 * a[9]).abs() < 1e-12);
        assert!(b[5] != a[5]);
        // The terminal at t = 3 still cuts: the first episode is untouched.
        assert_eq!(a[..4], b[..4]);
        let svg = plots::to_svg(760, 520, |s| {
            plots::gae::draw(s, &bug.data, &Theme::default())
        })
        .unwrap();
        assert!(svg.contains("без trace_cut на усечении"));
    }

    #[test]
    fn the_readers_flags_move_the_boundaries() {
        let plain = figure(0.9, 0.95, Flags::default()).unwrap();
        crate::text::check_shape(&plain.description);
        assert_eq!(plain.description.table.rows.len(), RECORDS);
        assert!(
            plain.description.text.contains("расходятся на шагах"),
            "{}",
            plain.description.text
        );
        // The default flags are the buffer's own.
        assert_eq!(
            plain.numbers.advantages,
            analyse(0.9, 0.95).unwrap().advantages
        );
        // Marking the truncation at t = 8 as a terminal: both conventions agree there.
        let flags = Flags {
            terminated: 1 << 3 | 1 << 8,
            ..Flags::default()
        };
        let f = figure(0.9, 0.95, flags).unwrap();
        assert_eq!(f.numbers.advantages[8], f.numbers.single_done_advantages[8]);
        assert_eq!(f.data.ends[1], (8.5, EpisodeEnd::Terminated));
        // A cut in the middle of episode 2 splits it: t = 5 no longer sees t = 6's δ.
        let flags = Flags {
            trace_cut: Flags::default().trace_cut | 1 << 5,
            ..Flags::default()
        };
        let f = figure(0.9, 0.95, flags).unwrap();
        assert_eq!(f.data.episodes, vec![0..4, 4..6, 6..9, 9..12]);
        let d = &f.numbers.deltas;
        assert!((f.numbers.advantages[5] - d[5]).abs() < 1e-12);
        // No flags at all: one episode over the whole buffer, the last record still cuts.
        let f = figure(
            0.9,
            0.95,
            Flags {
                terminated: 0,
                trace_cut: 0,
                forgot_trace_cut: false,
            },
        )
        .unwrap();
        assert_eq!(f.data.episodes, vec![0..12]);
        // Bits beyond the buffer are refused with the setting's name.
        let e = figure(
            0.9,
            0.95,
            Flags {
                terminated: 1 << 12,
                ..Flags::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("terminated"), "{e}");
    }
}
