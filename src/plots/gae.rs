//! The GAE figure: a 12-step rollout buffer with a true terminal (t = 3), a time-limit
//! truncation (t = 8) and the buffer's edge (t = 11). Two masks against one `done` flag.

use super::theme::{Theme, BLUE, GREY, INK, RED};
use crate::rl;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The buffer the figure analyses; rewards are 1 per step, as in CartPole.
#[derive(Debug, Clone, serde::Serialize)]
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

/// The lesson's buffer: episode 1 ends by termination at t = 3, episode 2 is truncated by the
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

/// Everything the figure shows, for one (γ, λ).
#[derive(Debug, Clone, serde::Serialize)]
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

/// Computes the analysis of the lesson's buffer with both mask conventions.
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

fn range_of<'a>(series: impl IntoIterator<Item = &'a [f64]>) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for s in series {
        for &x in s {
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    let pad = 0.08 * (hi - lo);
    (lo - pad, hi + pad)
}

/// Draws the three panels: advantages (top), value targets and weights (bottom).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    gamma: f64,
    lambda: f64,
    theme: Theme,
) -> Result<GaeAnalysis> {
    let a = analyse(gamma, lambda)?;
    let tr = trajectory();
    area.fill(&WHITE)?;
    let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 / 2);
    let (left, right) = bottom.split_horizontally(bottom.dim_in_pixel().0 * 3 / 5);
    let ts: Vec<f64> = (0..12).map(f64::from).collect();

    // Top: δ_t and A_t, two masks against one done flag.
    let (lo, hi) = range_of([
        &a.deltas[..],
        &a.advantages[..],
        &a.single_done_advantages[..],
    ]);
    let mut chart = theme
        .chart(
            &top,
            "Преимущества A_t: две маски против одного done",
            36.0,
            40.0,
        )
        .build_cartesian_2d(-0.5..11.5, lo..hi)?;
    mesh(&mut chart, theme, "шаг t", "A_t")?;
    for (t, label) in [(3.5, "завершение"), (8.5, "усечение")] {
        boundary(&mut chart, t, lo, hi, label, theme)?;
    }
    chart.draw_series(
        ts.iter()
            .zip(&a.deltas)
            .map(|(&t, &d)| Circle::new((t, d), theme.ipx(3.0), GREY.filled())),
    )?;
    series(&mut chart, &ts, &a.single_done_advantages, RED, true, theme)?;
    series(&mut chart, &ts, &a.advantages, BLUE, false, theme)?;
    legend(
        &top,
        theme,
        (0.06, 0.58),
        &[
            (BLUE, "terminated + trace_cut"),
            (RED, "один done"),
            (GREY, "δ_t"),
        ],
    )?;

    // Bottom left: value targets A_t + V_t and V_t itself.
    let (lo, hi) = range_of([
        &a.value_targets[..],
        &a.single_done_value_targets[..],
        &tr.values[..],
    ]);
    let mut chart = theme
        .chart(&left, "Цели ценности A_t + V_t", 36.0, 40.0)
        .build_cartesian_2d(-0.5..11.5, lo..hi)?;
    mesh(&mut chart, theme, "шаг t", "цель")?;
    for t in [3.5, 8.5] {
        boundary(&mut chart, t, lo, hi, "", theme)?;
    }
    chart.draw_series(
        ts.iter()
            .zip(&tr.values)
            .map(|(&t, &v)| Circle::new((t, v), theme.ipx(3.0), GREY.filled())),
    )?;
    series(
        &mut chart,
        &ts,
        &a.single_done_value_targets,
        RED,
        true,
        theme,
    )?;
    series(&mut chart, &ts, &a.value_targets, BLUE, false, theme)?;

    // Bottom right: the weights (γλ)^k.
    let mut chart = theme
        .chart(&right, "Веса (γλ)^k", 36.0, 36.0)
        .build_cartesian_2d(-0.5..11.5, 0.0..1.05)?;
    mesh(&mut chart, theme, "k", "вес")?;
    chart.draw_series(a.weights.iter().enumerate().map(|(k, &w)| {
        Rectangle::new(
            [(k as f64 - 0.35, 0.0), (k as f64 + 0.35, w)],
            BLUE.mix(0.7).filled(),
        )
    }))?;
    Ok(a)
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

fn mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    theme: Theme,
    x: &str,
    y: &str,
) -> Result<()> {
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(6)
        .y_labels(5)
        .x_desc(x)
        .y_desc(y)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    Ok(())
}

fn boundary<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    t: f64,
    lo: f64,
    hi: f64,
    label: &str,
    theme: Theme,
) -> Result<()> {
    let style = GREY.stroke_width(theme.px(1.0));
    chart.draw_series(DashedLineSeries::new(
        [(t, lo), (t, hi)],
        theme.px(4.0),
        theme.px(3.0),
        style,
    ))?;
    if !label.is_empty() {
        chart.draw_series(std::iter::once(Text::new(
            label.to_string(),
            (t + 0.1, hi),
            theme.font(11.0).color(&GREY),
        )))?;
    }
    Ok(())
}

fn series<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    ts: &[f64],
    ys: &[f64],
    color: RGBColor,
    dashed: bool,
    theme: Theme,
) -> Result<()> {
    let points: Vec<(f64, f64)> = ts.iter().copied().zip(ys.iter().copied()).collect();
    // Segments only within an episode: a line across a boundary would suggest continuity.
    for episode in [0..4, 4..9, 9..12] {
        let seg = points[episode].to_vec();
        if dashed {
            chart.draw_series(DashedLineSeries::new(
                seg,
                theme.px(5.0),
                theme.px(3.0),
                color.stroke_width(theme.px(2.0)),
            ))?;
        } else {
            chart.draw_series(LineSeries::new(seg, color.stroke_width(theme.px(2.5))))?;
        }
    }
    let marker = theme.ipx(if dashed { 4.0 } else { 3.5 });
    if dashed {
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, marker, color.stroke_width(theme.px(1.5)))),
        )?;
    } else {
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, marker, color.filled())),
        )?;
    }
    Ok(())
}

/// A compact legend: colour swatch and label per entry, its top-left corner at the fractions
/// `anchor` = (x, y) of `area` (so each figure can put it where no data is drawn).
pub(crate) fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: Theme,
    anchor: (f64, f64),
    entries: &[(RGBColor, &str)],
) -> Result<()> {
    let (w, h) = area.dim_in_pixel();
    let x0 = (f64::from(w) * anchor.0) as i32;
    let y0 = (f64::from(h) * anchor.1) as i32;
    for (i, (color, label)) in entries.iter().enumerate() {
        let y = y0 + theme.ipx(15.0 * i as f64);
        area.draw(&Rectangle::new(
            [
                (x0, y + theme.ipx(3.0)),
                (x0 + theme.ipx(14.0), y + theme.ipx(9.0)),
            ],
            color.filled(),
        ))?;
        area.draw(&Text::new(
            label.to_string(),
            (x0 + theme.ipx(20.0), y),
            theme.font(11.0).color(&INK),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn lambda_zero_gives_delta_and_bad_gamma_is_an_error() {
        let a = analyse(0.7, 0.0).unwrap();
        assert_eq!(a.advantages, a.deltas);
        assert!(analyse(1.2, 0.5).unwrap_err().to_string().contains("gamma"));
        let svg = crate::plots::to_svg(800, 420, |area| {
            draw(area, 0.9, 0.95, Theme::default()).map(|_| ())
        })
        .unwrap();
        assert!(svg.contains("усечение") && svg.contains("Веса"));
    }
}
