//! The score-function figure (lesson 1): the probabilities π of a three-action softmax and the
//! score e_a − π of the chosen action (top left); the exact standard deviation of the N-sample
//! REINFORCE estimate of component a against the reward offset c (top right); and that estimate
//! over resamples against the exact gradient (bottom). Computed in `lessons::score`.

use super::legend::{swatches, Layout};
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    /// π for the three actions.
    pub probs: Vec<f64>,
    /// e_a − π.
    pub score: Vec<f64>,
    /// The chosen action a.
    pub action: usize,
    /// The reward offset c (marked on the std curve).
    pub offset: f64,
    /// The estimates of component a, one per resample of N outcomes.
    pub estimates: Vec<f64>,
    /// The exact gradient component a (the same at every c).
    pub exact: f64,
    /// The exact std of one estimate at c.
    pub exact_std: f64,
    /// (c, exact std) over the offsets the figure offers.
    pub std_curve: Vec<(f64, f64)>,
    /// The std over the resamples (the dot on the curve).
    pub resample_std: f64,
}

/// Draws the three panels: legends inside where they cover no data, else in rows under the panels
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let (d, theme) = (data, *theme);
        area.fill(&theme.colors.paper)?;
        // Two panels above the resamples; on a phone, three rows.
        let (top, bottom) = if theme.is_narrow(area) {
            area.split_vertically(area.dim_in_pixel().1 * 2 / 3)
        } else {
            area.split_vertically(area.dim_in_pixel().1 * 11 / 20)
        };
        let (left, right) = theme.panel_pair(&top, 0.5);
        let rows = layout == Layout::Rows;
        let left_legend = swatches(&[
            (theme.colors.blue, "π"),
            (theme.colors.red, "e_a − π (ярче — a)"),
        ]);
        let (left, left_strip) = theme.row_strip_if(rows, &left, &left_legend)?;
        let right_legend = swatches(&[
            (theme.colors.blue, "точно"),
            (theme.colors.red, "по выборкам"),
        ]);
        let (right, right_strip) = theme.row_strip_if(rows, &right, &right_legend)?;

        // Top left: π and e_a − π per action.
        let mut chart = theme
            .chart(&left, "π и градиент log π(a) = e_a − π", 30.0, 40.0)
            .build_cartesian_2d(-0.6..2.6, -1.05..1.05)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(3)
            .y_labels(5)
            .x_desc("действие")
            .x_label_formatter(&|x: &f64| {
                let k = x.round();
                if (x - k).abs() < 1e-9 && (0.0..=2.0).contains(&k) {
                    format!("{k:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| decimal(*y, 1))
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(-0.6, 0.0), (2.6, 0.0)],
            theme.colors.grey.stroke_width(theme.px(1.0)),
        ))?;
        for (j, (&p, &s)) in d.probs.iter().zip(&d.score).enumerate() {
            let x = j as f64;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.32, 0.0), (x - 0.02, p)],
                theme.colors.blue.mix(0.75).filled(),
            )))?;
            let outline = if j == d.action {
                theme.colors.red.filled()
            } else {
                theme.colors.red.mix(0.45).filled()
            };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.02, 0.0), (x + 0.32, s)],
                outline,
            )))?;
        }
        theme.place_legend(left_strip.as_ref(), &chart, &left_legend)?;

        // Top right: the exact std of the estimate against c, the current c marked.
        let c_lo = d.std_curve.first().map_or(-1.0, |p| p.0);
        let c_hi = d.std_curve.last().map_or(1.0, |p| p.0);
        let s_hi = d
            .std_curve
            .iter()
            .map(|p| p.1)
            .fold(d.resample_std, f64::max)
            .max(1e-6)
            * 1.08;
        let mut chart = theme
            .chart(&right, "Ст. откл. оценки от c", 30.0, 44.0)
            .build_cartesian_2d(c_lo..c_hi, 0.0..s_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(5)
            .y_labels(5)
            .x_desc("сдвиг награды c")
            .x_label_formatter(&|x| decimal(*x, 0))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        chart.draw_series(LineSeries::new(
            d.std_curve.iter().copied(),
            theme.colors.blue.stroke_width(theme.px(2.0)),
        ))?;
        chart.draw_series(theme.guide((d.offset, 0.0), (d.offset, s_hi)))?;
        chart.draw_series(std::iter::once(Circle::new(
            (d.offset, d.resample_std),
            theme.ipx(5.0),
            theme.colors.red.filled(),
        )))?;
        theme.place_legend(right_strip.as_ref(), &chart, &right_legend)?;

        // Bottom: the estimates over resamples against the exact gradient, ±1 exact std shaded.
        let m = d.estimates.len().max(1) as f64;
        let spread = d
            .estimates
            .iter()
            .map(|e| (e - d.exact).abs())
            .fold(2.0 * d.exact_std, f64::max)
            .max(1e-3)
            * 1.1;
        let (y_lo, y_hi) = (d.exact - spread, d.exact + spread);
        // The estimates fill the panel's width: its legend takes a row of its own below it.
        let legend = [
            (
                theme.colors.ink.stroke_width(theme.px(2.0)),
                "точный градиент",
            ),
            (
                theme.colors.blue.mix(0.25).filled(),
                "± одно точное ст. откл.",
            ),
            (theme.colors.red.filled(), "оценка по N исходам"),
        ];
        let (bottom, strip) = theme.row_strip_if(true, &bottom, &legend)?;
        let mut chart = theme
            .chart(
                &bottom,
                if theme.is_narrow(area) {
                    "Оценки по повторным выборкам"
                } else {
                    "Оценки REINFORCE компоненты a по повторным выборкам"
                },
                30.0,
                52.0,
            )
            .build_cartesian_2d(-1.0..m, y_lo..y_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(5)
            .y_labels(5)
            .x_desc("номер повторной выборки")
            .x_label_formatter(&|x| decimal(*x, 0))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(-1.0, d.exact - d.exact_std), (m, d.exact + d.exact_std)],
            theme.colors.blue.mix(0.10).filled(),
        )))?;
        chart.draw_series(d.estimates.iter().enumerate().map(|(i, &e)| {
            Circle::new(
                (i as f64, e),
                theme.ipx(2.5),
                theme.colors.red.mix(0.8).filled(),
            )
        }))?;
        chart.draw_series(LineSeries::new(
            [(-1.0, d.exact), (m, d.exact)],
            theme.colors.ink.stroke_width(theme.px(2.0)),
        ))?;
        theme.place_legend(strip.as_ref(), &chart, &legend)?;
        Ok(())
    })
}
