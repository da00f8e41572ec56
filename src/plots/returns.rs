//! The returns figure (lesson 2): G_t and γ^t G_t of the edited rewards side by side (left),
//! and on a small chain the full-return and reward-to-go estimates of one step's gradient over
//! every episode — the same mean, a narrower spread (right). Computed in `lessons::returns`.

use super::legend::swatch_legend;
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    /// G_t per step.
    pub reward_to_go: Vec<f64>,
    /// γ^t G_t per step.
    pub weights: Vec<f64>,
    /// The chain step whose gradient is estimated.
    pub step: usize,
    /// The exact gradient of that step's logit.
    pub exact: f64,
    /// (mean, std, value in each episode) of the full-return and reward-to-go estimators.
    pub estimators: [(f64, f64, Vec<f64>); 2],
}

/// The y range with zero in it, a margin below and room for the legend above the data.
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let (lo, hi) = (lo.min(0.0), hi.max(0.0));
    let span = (hi - lo).max(1e-6);
    (lo - 0.12 * span, hi + 0.45 * span)
}

/// Draws both panels.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    let (d, theme) = (data, *theme);
    area.fill(&theme.colors.paper)?;
    let (left, right) = theme.panel_pair(area, 0.5);

    // Left: G_t and γ^t G_t per step.
    let all = d.reward_to_go.iter().chain(&d.weights);
    let (lo, hi) = padded(
        all.clone().copied().fold(f64::INFINITY, f64::min),
        all.copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let steps = d.reward_to_go.len() as f64;
    let mut chart = theme
        .chart(&left, "G_t и γ^t·G_t", 30.0, 44.0)
        .build_cartesian_2d(-0.6..(steps - 0.4), lo..hi)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(d.reward_to_go.len())
        .y_labels(5)
        .x_desc("шаг t")
        .x_label_formatter(&|x: &f64| {
            let k = x.round();
            if (x - k).abs() < 1e-9 && k >= 0.0 {
                format!("{k:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| decimal(*y, 1))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(-0.6, 0.0), (steps - 0.4, 0.0)],
        theme.colors.grey.stroke_width(theme.px(1.0)),
    ))?;
    for (t, (&g, &w)) in d.reward_to_go.iter().zip(&d.weights).enumerate() {
        let x = t as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.34, 0.0), (x - 0.02, g)],
            theme.colors.blue.mix(0.75).filled(),
        )))?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x + 0.02, 0.0), (x + 0.34, w)],
            theme.colors.green.mix(0.75).filled(),
        )))?;
        for (value, dx) in [(g, -0.18), (w, 0.18)] {
            let v = if value >= 0.0 {
                VPos::Bottom
            } else {
                VPos::Top
            };
            chart.draw_series(std::iter::once(Text::new(
                decimal(value, 2),
                (x + dx, value),
                theme
                    .font(10.0)
                    .color(&theme.colors.ink)
                    .pos(Pos::new(HPos::Center, v)),
            )))?;
        }
    }
    swatch_legend(
        &chart,
        theme,
        &[(theme.colors.blue, "G_t"), (theme.colors.green, "γ^t·G_t")],
    )?;

    // Right: both estimators in every episode, with mean ± std, against the exact gradient.
    let values = d.estimators.iter().flat_map(|e| e.2.iter().copied());
    let (lo, hi) = padded(
        values.clone().fold(d.exact, f64::min),
        values.fold(d.exact, f64::max),
    );
    let mut chart = theme
        .chart(
            &right,
            &format!("Оценки градиента шага {} по эпизодам", d.step),
            30.0,
            48.0,
        )
        .build_cartesian_2d(-0.6..1.6, lo..hi)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(2)
        .y_labels(5)
        .x_label_formatter(&|x: &f64| match x.round() as i64 {
            0 if x.abs() < 1e-9 => "полный возврат".into(),
            1 if (x - 1.0).abs() < 1e-9 => "накопленная награда".into(),
            _ => String::new(),
        })
        .y_label_formatter(&|y| decimal(*y, 2))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(-0.6, d.exact), (1.6, d.exact)],
        theme.colors.ink.stroke_width(theme.px(1.5)),
    ))?;
    for (i, (mean, std, vals)) in d.estimators.iter().enumerate() {
        let x = i as f64;
        let color = if i == 0 {
            theme.colors.red
        } else {
            theme.colors.blue
        };
        chart.draw_series(vals.iter().enumerate().map(|(e, &v)| {
            // A small horizontal offset per episode so equal values stay visible.
            let dx = -0.2 + 0.4 * e as f64 / (vals.len().max(2) - 1) as f64;
            Circle::new((x + dx, v), theme.ipx(3.0), color.mix(0.5).filled())
        }))?;
        let style = color.stroke_width(theme.px(2.5));
        chart.draw_series(std::iter::once(PathElement::new(
            [(x + 0.3, mean - std), (x + 0.3, mean + std)],
            style,
        )))?;
        chart.draw_series(std::iter::once(Circle::new(
            (x + 0.3, *mean),
            theme.ipx(5.0),
            color.filled(),
        )))?;
    }
    swatch_legend(
        &chart,
        theme,
        &[
            (theme.colors.ink, "точный градиент"),
            (
                theme.colors.grey,
                "точка — эпизод; черта — среднее ± ст. откл.",
            ),
        ],
    )?;
    Ok(())
}
