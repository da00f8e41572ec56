//! The optimal-baseline figure (lesson 3): the variance of the one-sample estimate
//! (q_A − b)·∇log π(A) as a parabola in b with V and b* marked (left), and each action's weight
//! in V and in b* (right). Computed in `lessons::baselines::bstar_figure`.

use super::legend::{swatches, Layout};
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    /// (b, variance at b).
    pub curve: Vec<(f64, f64)>,
    pub value: f64,
    pub b_star: f64,
    pub variance_at_value: f64,
    pub variance_at_b_star: f64,
    /// Each action's weight in V and in b*.
    pub weights_value: Vec<f64>,
    pub weights_b_star: Vec<f64>,
}

/// Draws both panels: legends inside where they cover no data, else in rows under the panels
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let (d, theme) = (data, *theme);
        area.fill(&theme.colors.paper)?;
        let (left, right) = theme.panel_pair(area, 0.6);
        let (b_lo, b_hi) = (
            d.curve.first().map_or(-1.0, |p| p.0),
            d.curve.last().map_or(1.0, |p| p.0),
        );
        let v_hi = d.curve.iter().map(|p| p.1).fold(1e-6, f64::max) * 1.15;
        let mut chart = theme
            .chart(&left, "Дисперсия оценки в зависимости от b", 30.0, 48.0)
            .build_cartesian_2d(b_lo..b_hi, 0.0..v_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(6)
            .y_labels(5)
            .x_desc("опорный уровень b")
            .x_label_formatter(&|x| decimal(*x, 1))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        chart.draw_series(LineSeries::new(
            d.curve.iter().copied(),
            theme.colors.blue.stroke_width(theme.px(2.5)),
        ))?;
        for (b, var, color, label) in [
            (d.value, d.variance_at_value, theme.colors.grey, "V"),
            (d.b_star, d.variance_at_b_star, theme.colors.red, "b*"),
        ] {
            chart.draw_series(DashedLineSeries::new(
                [(b, 0.0), (b, v_hi)],
                theme.px(4.0),
                theme.px(3.0),
                color.stroke_width(theme.px(1.5)),
            ))?;
            chart.draw_series(std::iter::once(Circle::new(
                (b, var),
                theme.ipx(5.0),
                color.filled(),
            )))?;
            let h = if b >= (d.value + d.b_star) / 2.0 {
                HPos::Left
            } else {
                HPos::Right
            };
            let dx = if matches!(h, HPos::Left) { 0.05 } else { -0.05 } * (b_hi - b_lo);
            chart.draw_series(std::iter::once(Text::new(
                label,
                (b + dx, v_hi * 0.95),
                theme.font(12.0).color(&color).pos(Pos::new(h, VPos::Top)),
            )))?;
        }

        let legend = swatches(&[
            (theme.colors.grey, "в V: p_a"),
            (theme.colors.red, "в b*: p_a·‖s_a‖² / Σ"),
        ]);
        let (right, strip) = theme.row_strip_if(layout == Layout::Rows, &right, &legend)?;
        let mut chart = theme
            .chart(&right, "Вес действия в V и в b*", 30.0, 40.0)
            .build_cartesian_2d(-0.6..1.6, 0.0..1.1)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(2)
            .y_labels(5)
            .x_desc("действие")
            .x_label_formatter(&|x: &f64| {
                let k = x.round();
                if (x - k).abs() < 1e-9 && (0.0..=1.0).contains(&k) {
                    format!("{k:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| decimal(*y, 1))
            .draw()?;
        for (a, (&wv, &wb)) in d.weights_value.iter().zip(&d.weights_b_star).enumerate() {
            let x = a as f64;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.32, 0.0), (x - 0.02, wv)],
                theme.colors.grey.mix(0.7).filled(),
            )))?;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.02, 0.0), (x + 0.32, wb)],
                theme.colors.red.mix(0.75).filled(),
            )))?;
        }
        theme.place_legend(strip.as_ref(), &chart, &legend)?;
        Ok(())
    })
}
