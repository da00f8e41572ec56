//! The baseline-variance figure: for the lesson's bandit and a chosen group size G, the std of
//! the per-group gradient estimate (no baseline, same-group mean, RLOO) — exact curves over
//! G = 2…64 and Monte Carlo points at G — and the Monte Carlo means against the exact gradient
//! and (G−1)/G · exact.

use super::gae::legend;
use super::theme::{Theme, BLUE, GREEN, GREY, INK, RED};
use crate::rl::{self, BaselineBias};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Groups sampled per redraw: enough for visible error bars, cheap enough for a slider.
pub const FIGURE_GROUPS: usize = 4000;
/// Largest group size the figure offers.
pub const MAX_GROUP: usize = 64;
/// Seed of the figure's Monte Carlo (the same G always shows the same sample).
pub const FIGURE_SEED: u64 = 2026;

/// What the figure shows at one group size.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BaselineFigure {
    pub group_size: usize,
    pub groups: usize,
    pub monte_carlo: BaselineBias,
    /// Exact stds (plain, same-group, RLOO) at this G.
    pub exact_std: (f64, f64, f64),
}

/// Runs the Monte Carlo and the exact formulas at `group_size`.
pub fn compute(group_size: usize, groups: usize) -> Result<BaselineFigure> {
    if !(2..=MAX_GROUP).contains(&group_size) {
        return Err(crate::Error::range(
            "group_size",
            crate::error::Rule::between(2.0, MAX_GROUP as f64),
            group_size,
        ));
    }
    let monte_carlo = rl::simulate_group_baseline_bias(group_size, groups, FIGURE_SEED)?;
    Ok(BaselineFigure {
        group_size,
        groups,
        monte_carlo,
        exact_std: rl::bandit_exact_stds(group_size),
    })
}

/// Draws both panels.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    group_size: usize,
    theme: Theme,
) -> Result<BaselineFigure> {
    let fig = compute(group_size, FIGURE_GROUPS)?;
    let mc = &fig.monte_carlo;
    area.fill(&WHITE)?;
    let (left, right) = area.split_horizontally(area.dim_in_pixel().0 * 11 / 20);
    let g = group_size as f64;

    // Left: std against G on a log axis.
    let curve: Vec<(f64, (f64, f64, f64))> = (2..=MAX_GROUP)
        .map(|k| (k as f64, rl::bandit_exact_stds(k)))
        .collect();
    let mut chart = theme
        .chart(&left, "Стандартное отклонение оценки", 38.0, 44.0)
        .build_cartesian_2d(
            (2.0..64.0)
                .log_scale()
                .with_key_points(vec![2.0, 4.0, 8.0, 16.0, 32.0, 64.0]),
            0.0..0.26,
        )?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(6)
        .y_labels(6)
        .x_desc("размер группы G")
        .y_desc("std по группам")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .draw()?;
    let styles = [(BLUE, 0usize), (RED, 1), (GREEN, 2)];
    for (color, k) in styles {
        let pick = |s: &(f64, f64, f64)| [s.0, s.1, s.2][k];
        chart.draw_series(LineSeries::new(
            curve.iter().map(|(x, s)| (*x, pick(s))),
            color.stroke_width(theme.px(2.0)),
        ))?;
    }
    chart.draw_series(DashedLineSeries::new(
        [(g, 0.0), (g, 0.26)],
        theme.px(4.0),
        theme.px(3.0),
        GREY.stroke_width(theme.px(1.0)),
    ))?;
    for (color, value) in [
        (BLUE, mc.plain_std),
        (RED, mc.same_group_std),
        (GREEN, mc.rloo_std),
    ] {
        chart.draw_series(std::iter::once(Circle::new(
            (g, value),
            theme.ipx(5.0),
            color.filled(),
        )))?;
    }
    legend(
        &left,
        theme,
        (0.62, 0.12),
        &[(BLUE, "без базы"), (RED, "среднее группы"), (GREEN, "RLOO")],
    )?;

    // Right: the means at G with ±2 standard errors, against exact and (G−1)/G · exact.
    let se = |std: f64| 2.0 * std / (fig.groups as f64).sqrt();
    let rows = [
        (0.0, mc.plain_mean, se(mc.plain_std), BLUE),
        (1.0, mc.same_group_mean, se(mc.same_group_std), RED),
        (2.0, mc.rloo_mean, se(mc.rloo_std), GREEN),
    ];
    let mut chart = theme
        .chart(
            &right,
            &format!("Средние оценки при G = {group_size}"),
            38.0,
            50.0,
        )
        .build_cartesian_2d(-0.6..2.6, 0.02..0.125)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(3)
        .y_labels(6)
        .y_desc("среднее по группам")
        .x_label_formatter(&|x: &f64| match x.round() as i64 {
            0 => "без базы".into(),
            1 => "среднее".into(),
            2 => "RLOO".into(),
            _ => String::new(),
        })
        .y_label_formatter(&|y| format!("{y:.3}"))
        .draw()?;
    let exact = mc.exact;
    chart.draw_series(LineSeries::new(
        [(-0.6, exact), (2.6, exact)],
        INK.stroke_width(theme.px(1.5)),
    ))?;
    chart.draw_series(DashedLineSeries::new(
        [
            (-0.6, mc.predicted_same_group),
            (2.6, mc.predicted_same_group),
        ],
        theme.px(5.0),
        theme.px(4.0),
        RED.stroke_width(theme.px(1.5)),
    ))?;
    chart.draw_series(std::iter::once(Text::new(
        "точный градиент",
        (-0.55, exact + 0.006),
        theme.font(11.0).color(&INK),
    )))?;
    chart.draw_series(std::iter::once(Text::new(
        "(G−1)/G · точный",
        (-0.55, mc.predicted_same_group - 0.0015),
        theme.font(11.0).color(&RED),
    )))?;
    for (x, mean, err, color) in rows {
        let style = color.stroke_width(theme.px(2.0));
        chart.draw_series(std::iter::once(PathElement::new(
            [(x, mean - err), (x, mean + err)],
            style,
        )))?;
        for y in [mean - err, mean + err] {
            chart.draw_series(std::iter::once(PathElement::new(
                [(x - 0.08, y), (x + 0.08, y)],
                style,
            )))?;
        }
        chart.draw_series(std::iter::once(Circle::new(
            (x, mean),
            theme.ipx(5.0),
            color.filled(),
        )))?;
    }
    Ok(fig)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monte_carlo_sits_near_the_exact_values_and_range_is_checked() {
        for g in [2, 8, 64] {
            let f = compute(g, FIGURE_GROUPS).unwrap();
            let m = (FIGURE_GROUPS as f64).sqrt();
            let mc = &f.monte_carlo;
            assert!(
                ((mc.rloo_mean - mc.exact) / (f.exact_std.2 / m)).abs() < 4.0,
                "G = {g}"
            );
            assert!(
                ((mc.same_group_mean - mc.predicted_same_group) / (f.exact_std.1 / m)).abs() < 4.0
            );
            assert!((mc.plain_std / f.exact_std.0 - 1.0).abs() < 0.1);
        }
        assert!(compute(1, 10).is_err());
        let e = compute(65, 10).unwrap_err();
        assert!(matches!(
            e.kind(),
            crate::error::ErrorKind::Range { rule, .. } if *rule == crate::error::Rule::between(2.0, 64.0)
        ));
        let svg =
            crate::plots::to_svg(800, 420, |a| draw(a, 8, Theme::default()).map(|_| ())).unwrap();
        assert!(svg.contains("RLOO") && svg.contains("G = 8"));
    }
}
