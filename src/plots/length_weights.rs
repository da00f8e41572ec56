//! The length-bias figure (lesson 9): the implicit weight of one token of each of two
//! responses under each reduction (a batch of the two). Computed in
//! `lessons::grpo::length_figure`.

use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    /// The reductions' names, one group of bars each.
    pub labels: Vec<String>,
    pub short_length: usize,
    pub long_length: usize,
    /// Per reduction: (weight of a short response's token, of a long response's token).
    pub weights: Vec<(f64, f64)>,
}

/// Draws two bars per reduction: legends inside where they cover no data, else in rows under the panels
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let theme = *theme;
        area.fill(&theme.colors.paper)?;
        let short = format!("токен ответа 1 (длина {})", data.short_length);
        let long = format!("токен ответа 2 (длина {})", data.long_length);
        let entries = [
            (theme.colors.blue.mix(0.8).filled(), short.as_str()),
            (theme.colors.red.mix(0.8).filled(), long.as_str()),
        ];
        let (chart_area, strip) = theme.legend_space(layout, area, &entries)?;
        let n = data.labels.len();
        let y_hi = data
            .weights
            .iter()
            .map(|w| w.0.max(w.1))
            .fold(1e-6, f64::max)
            * 1.25;
        let labels = data.labels.clone();
        let mut chart = theme
            .chart(&chart_area, "Вес одного токена в цели", 36.0, 56.0)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..y_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(n)
            .y_labels(6)
            .x_desc("редукция")
            .x_label_formatter(&move |x: &f64| {
                let k = x.round();
                if (x - k).abs() < 1e-9 && k >= 0.0 && (k as usize) < labels.len() {
                    labels[k as usize].clone()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| decimal(*y, 3))
            .draw()?;
        for (i, &(s, l)) in data.weights.iter().enumerate() {
            let x = i as f64;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.36, 0.0), (x - 0.02, s)],
                theme.colors.blue.mix(0.8).filled(),
            )))?;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.02, 0.0), (x + 0.36, l)],
                theme.colors.red.mix(0.8).filled(),
            )))?;
        }
        theme.place_legend(strip.as_ref(), &chart, &entries)?;
        Ok(())
    })
}
