//! The drift figure (lesson 5): each action's probability ratio over full-batch Adam steps on
//! the clipped objective against the band 1 ± ε (top), and the clipped objective beside the
//! unclipped surrogate (bottom). Computed in `lessons::clipping::drift`.

use super::legend::Layout;
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    pub clip_epsilon: f64,
    /// Each action's ratio after each step (index 0: before any step).
    pub ratios: Vec<[f64; 3]>,
    pub clipped_objective: Vec<f64>,
    pub surrogate: Vec<f64>,
    /// The first step from which every term is flat.
    pub flat_from: Option<usize>,
}

/// Draws both panels: legends inside where they cover no data, else in rows under the panels
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let (d, theme, eps) = (data, *theme, data.clip_epsilon);
        area.fill(&theme.colors.paper)?;
        let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 * 11 / 20);
        let x_hi = (d.ratios.len().max(2) - 1) as f64;
        let (mut lo, mut hi) = (1.0 - eps, 1.0 + eps);
        for r in d.ratios.iter().flatten() {
            lo = lo.min(*r);
            hi = hi.max(*r);
        }
        let pad = 0.08 * (hi - lo);
        // On a phone the long labels leave no place inside free: rows under each panel.
        let top_legend = [
            (theme.colors.blue.filled(), "действие 0 (A > 0)"),
            (theme.colors.red.filled(), "действие 1 (A < 0)"),
            (theme.colors.green.filled(), "действие 2 (A < 0)"),
            (theme.colors.grey.filled(), "с этого шага все члены плоские"),
        ];
        let bottom_legend = [
            (theme.colors.ink.filled(), "клиппированная цель"),
            (theme.colors.grey.filled(), "r·A без клиппирования"),
        ];
        let rows = layout == Layout::Rows || theme.is_narrow(area);
        let (top, top_strip) = theme.row_strip_if(rows, &top, &top_legend)?;
        let (bottom, bottom_strip) = theme.row_strip_if(rows, &bottom, &bottom_legend)?;
        let mut chart = theme
            .chart(&top, "Отношения вероятностей по шагам Adam", 30.0, 44.0)
            .build_cartesian_2d(0.0..x_hi, (lo - pad)..(hi + pad))?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(6)
            .y_labels(5)
            .y_desc("r")
            .x_label_formatter(&|x| decimal(*x, 0))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 1.0 - eps), (x_hi, 1.0 + eps)],
            theme.colors.blue.mix(0.10).filled(),
        )))?;
        if let Some(f) = d.flat_from {
            let f = f as f64;
            chart.draw_series(theme.guide((f, lo - pad), (f, hi + pad)))?;
        }
        let colors = [theme.colors.blue, theme.colors.red, theme.colors.green];
        for (a, color) in colors.iter().enumerate() {
            chart.draw_series(LineSeries::new(
                d.ratios.iter().enumerate().map(|(t, r)| (t as f64, r[a])),
                color.stroke_width(theme.px(2.0)),
            ))?;
        }
        theme.place_legend(top_strip.as_ref(), &chart, &top_legend)?;

        let all = d.clipped_objective.iter().chain(&d.surrogate);
        let lo = all.clone().copied().fold(f64::INFINITY, f64::min);
        let hi = all.copied().fold(f64::NEG_INFINITY, f64::max);
        let pad = 0.1 * (hi - lo).max(1e-3);
        let mut chart = theme
            .chart(
                &bottom,
                "Цель пакета: клиппированная и без клиппирования",
                36.0,
                44.0,
            )
            .build_cartesian_2d(0.0..x_hi, (lo - pad)..(hi + 3.0 * pad))?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(6)
            .y_labels(4)
            .x_desc("шаг оптимизатора")
            .x_label_formatter(&|x| decimal(*x, 0))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        chart.draw_series(LineSeries::new(
            d.clipped_objective
                .iter()
                .enumerate()
                .map(|(t, &v)| (t as f64, v)),
            theme.colors.ink.stroke_width(theme.px(2.5)),
        ))?;
        chart.draw_series(DashedLineSeries::new(
            d.surrogate.iter().enumerate().map(|(t, &v)| (t as f64, v)),
            theme.px(5.0),
            theme.px(3.0),
            theme.colors.grey.stroke_width(theme.px(1.5)),
        ))?;
        theme.place_legend(bottom_strip.as_ref(), &chart, &bottom_legend)?;
        Ok(())
    })
}
