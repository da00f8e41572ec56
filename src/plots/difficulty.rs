//! The difficulty-bias figure (lesson 9): each group advantage estimator's expected gradient
//! over the true one against a prompt's success probability p, at one group size.
//! Computed in `lessons::grpo::difficulty_figure`.

use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    pub group_size: usize,
    /// Per estimator: its label and (p, ratio) points (NaN where the true gradient is 0).
    pub lines: Vec<(String, Vec<(f64, f64)>)>,
}

/// One colour per estimator, from the page's theme.
fn colors(theme: &Theme) -> [RGBColor; 5] {
    let c = &theme.colors;
    [c.grey, c.green, c.blue, c.red, c.ink]
}

/// Draws one line per estimator and the unbiased level 1: legends inside where they cover no data, else in rows under the panels
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let theme = *theme;
        area.fill(&theme.colors.paper)?;
        let palette = colors(&theme);
        let entries: Vec<(ShapeStyle, &str)> = data
            .lines
            .iter()
            .enumerate()
            .map(|(i, (label, _))| {
                // RLOO and no baseline coincide: the later one is drawn thinner on top.
                let width = if i == 2 { 1.5 } else { 2.5 };
                let color = palette[i % palette.len()];
                (color.stroke_width(theme.px(width)), label.as_str())
            })
            .collect();
        let (chart_area, strip) = theme.legend_space(layout, area, &entries)?;
        let y_hi = data
            .lines
            .iter()
            .flat_map(|(_, c)| c.iter().map(|p| p.1))
            .filter(|y| y.is_finite())
            .fold(1.0, f64::max)
            * 1.6; // headroom: the legend sits above the lines
        let caption = format!("Ожидаемый градиент / истинный, G = {}", data.group_size);
        let mut chart = theme
            .chart(&chart_area, &caption, 36.0, 48.0)
            .build_cartesian_2d(0.0..1.0, 0.0..y_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(6)
            .y_labels(6)
            .x_desc("вероятность успеха p")
            .x_label_formatter(&|x| decimal(*x, 1))
            .y_label_formatter(&|y| decimal(*y, 1))
            .draw()?;
        chart.draw_series(theme.guide((0.0, 1.0), (1.0, 1.0)))?;
        for ((_, curve), (style, _)) in data.lines.iter().zip(&entries) {
            chart.draw_series(LineSeries::new(
                curve.iter().copied().filter(|p| p.1.is_finite()),
                *style,
            ))?;
        }
        theme.place_legend(strip.as_ref(), &chart, &entries)?;
        Ok(())
    })
}
