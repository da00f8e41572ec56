//! The KL-estimator figure (lesson 9): the exact mean (left) and spread (right) of k1, k2, k3
//! over tokens drawn from π_θ against how far π_θ's logits are shifted from the reference's,
//! with the true KL and the chosen shift. Computed in `lessons::grpo::kl_figure`.

use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    /// The chosen shift.
    pub shift: f64,
    /// (shift, KL).
    pub kl_curve: Vec<(f64, f64)>,
    /// Per estimator k1, k2, k3: (shift, mean) and (shift, standard deviation).
    pub means: Vec<Vec<(f64, f64)>>,
    pub stds: Vec<Vec<(f64, f64)>>,
}

/// One colour per estimator (k1, k2, k3), from the page's theme.
fn colors(theme: &Theme) -> [RGBColor; 3] {
    let c = &theme.colors;
    [c.blue, c.red, c.green]
}
const NAMES: [&str; 3] = ["k1", "k2", "k3"];

/// Draws both panels.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    let theme = *theme;
    area.fill(&theme.colors.paper)?;
    let (left, right) = theme.panel_pair(area, 0.5);
    let x_hi = data.kl_curve.last().map_or(1.0, |p| p.0).max(1e-6);
    for (panel, series, caption, with_kl) in [
        (&left, &data.means, "Среднее оценки и KL", true),
        (&right, &data.stds, "Ст. откл. по одному токену", false),
    ] {
        let y_hi = series
            .iter()
            .flatten()
            .chain(&data.kl_curve)
            .map(|p| p.1)
            .fold(1e-6, f64::max)
            * 1.1;
        let mut chart = theme
            .chart(panel, caption, 36.0, 48.0)
            .build_cartesian_2d(0.0..x_hi, 0.0..y_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(4)
            .y_labels(5)
            .x_desc("сдвиг логитов")
            .x_label_formatter(&|x| decimal(*x, 1))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        chart.draw_series(theme.guide((data.shift, 0.0), (data.shift, y_hi)))?;
        let mut entries = Vec::new();
        for (k, line) in series.iter().enumerate() {
            // k1 and k3 have the same mean: k3 thinner on top.
            let width = if k == 2 { 1.5 } else { 2.5 };
            let style = colors(&theme)[k].stroke_width(theme.px(width));
            chart.draw_series(LineSeries::new(line.iter().copied(), style))?;
            entries.push((style, NAMES[k]));
        }
        if with_kl {
            let style = theme.colors.ink.stroke_width(theme.px(1.0));
            chart.draw_series(DashedLineSeries::new(
                data.kl_curve.iter().copied(),
                theme.px(2.0),
                theme.px(3.0),
                style,
            ))?;
            entries.push((style, "KL"));
        }
        theme.legend(&chart, &entries)?;
    }
    Ok(())
}
