//! The pass@k figure (lesson «R1-Zero во вкладке»): for one prompt, the true pass@k against k
//! and the expectations of its naive and unbiased estimates from n samples. Computed in
//! `lessons::r1zero::pass_at_k_figure`.

use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    pub samples: usize,
    /// The truth, the unbiased estimate's expectation, the naive one's: label and (k, value).
    pub lines: Vec<(String, Vec<(f64, f64)>)>,
}

/// Draws the three curves over k = 1 … n: legends inside where they cover no data, else in
/// rows under the panel ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let theme = *theme;
        area.fill(&theme.colors.paper)?;
        let c = &theme.colors;
        let colors = [c.ink, c.blue, c.red];
        let entries: Vec<(ShapeStyle, &str)> = data
            .lines
            .iter()
            .enumerate()
            .map(|(i, (label, _))| {
                // The unbiased estimate lies on the truth: drawn thinner on top of it.
                let width = if i == 1 { 1.5 } else { 3.0 };
                let color = colors[i % colors.len()];
                (color.stroke_width(theme.px(width)), label.as_str())
            })
            .collect();
        let (chart_area, strip) = theme.legend_space(layout, area, &entries)?;
        let caption = format!("pass@k одного запроса по n = {} ответам", data.samples);
        let mut chart = theme
            .chart(&chart_area, &caption, 36.0, 48.0)
            .build_cartesian_2d(1.0..data.samples as f64, 0.0..1.0)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(8)
            .y_labels(6)
            .x_desc("k")
            .x_label_formatter(&|x| decimal(*x, 0))
            .y_label_formatter(&|y| decimal(*y, 1))
            .draw()?;
        for ((_, curve), (style, _)) in data.lines.iter().zip(&entries) {
            chart.draw_series(LineSeries::new(curve.iter().copied(), *style))?;
        }
        theme.place_legend(strip.as_ref(), &chart, &entries)?;
        Ok(())
    })
}
