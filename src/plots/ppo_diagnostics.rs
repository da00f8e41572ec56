//! Local optimisation diagnostics of one PPO run per update: the non-negative approx KL, the
//! active clip fraction and the fraction of ratios outside [1 − ε, 1 + ε]. The KL is typically
//! ten times smaller than the fractions, so it gets its own scale on the right axis.

use super::theme::{tick_count, tick_label, Palette, Theme};
use crate::train::ppo::UpdateReport;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A line: its legend label, colour and how to read it from a report.
type Series = (
    &'static str,
    fn(&Palette) -> RGBColor,
    fn(&UpdateReport) -> f64,
);

/// Left axis: the two fractions.
const FRACTIONS: [Series; 2] = [
    (
        "доля активного клиппирования",
        |p| p.red,
        |r| r.active_clip_fraction,
    ),
    (
        "доля отношений вне интервала",
        |p| p.green,
        |r| r.ratio_outside_fraction,
    ),
];

/// Right axis: the approx KL.
const KL: Series = (
    "неотрицательная приближённая KL (правая ось)",
    |p| p.blue,
    |r| r.approx_kl,
);

/// The top of an axis for the largest finite value of `series` (a small floor keeps an
/// all-zero history drawable).
fn axis_top(history: &[UpdateReport], series: &[Series], floor: f64) -> f64 {
    history
        .iter()
        .flat_map(|r| series.iter().map(move |(_, _, get)| get(r)))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(floor)
        * 1.08
}

/// What the figure draws: one run's reports.
#[derive(Debug, Clone, Copy)]
pub struct Data<'a> {
    /// The run's update reports, in order.
    pub history: &'a [UpdateReport],
    /// The run's seed (named in the title).
    pub seed: u64,
    /// The x axis reaches at least this update: the run's planned updates.
    pub x_end: usize,
}

/// Draws the three diagnostics against the update number. An empty history draws empty axes.
/// The legend goes inside where it covers no data, else in a row under the chart
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let (
            Data {
                history,
                seed,
                x_end,
            },
            theme,
        ) = (*data, *theme);
        let x_max = history.last().map_or(0, |r| r.update).max(x_end).max(1) as f64;
        // Floors that keep short tick labels (0.00–0.05 and 0.000–0.005) for small values.
        let (y_max, kl_max) = (
            axis_top(history, &FRACTIONS, 0.05),
            axis_top(history, &[KL], 0.005),
        );
        area.fill(&theme.colors.paper)?;
        let width = theme.px(1.5);
        let entries: Vec<(ShapeStyle, &str)> = FRACTIONS
            .iter()
            .chain(std::iter::once(&KL))
            .map(|(label, color, _)| (color(&theme.colors).stroke_width(width), *label))
            .collect();
        let (plot, strip) = theme.legend_space(layout, area, &entries)?;
        let mut chart = theme
            .chart(
                &plot,
                &format!("Локальная диагностика PPO, начальное значение {seed}"),
                36.0,
                44.0,
            )
            .right_y_label_area_size(theme.px(52.0))
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)?
            .set_secondary_coord(0.0..x_max, 0.0..kl_max);
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(tick_count(0.0, x_max, 0, 6))
            .y_labels(6)
            .x_desc("обновление PPO")
            .y_desc("доля")
            .x_label_formatter(&|x| tick_label(*x, 0))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .draw()?;
        chart
            .configure_secondary_axes()
            .y_labels(6)
            .y_desc("KL")
            .axis_style(theme.colors.blue.stroke_width(theme.px(1.0)))
            .label_style(theme.font(11.0).color(&theme.colors.blue))
            .axis_desc_style(theme.font(12.0).color(&theme.colors.blue))
            .y_label_formatter(&|y| format!("{y:.3}"))
            .draw()?;
        for (_, color, get) in FRACTIONS {
            let points = history.iter().map(|r| (r.update as f64, get(r)));
            chart.draw_series(LineSeries::new(
                points,
                color(&theme.colors).stroke_width(width),
            ))?;
        }
        let (_, color, get) = KL;
        chart.draw_secondary_series(LineSeries::new(
            history.iter().map(|r| (r.update as f64, get(r))),
            color(&theme.colors).stroke_width(width),
        ))?;
        theme.place_legend(strip.as_ref(), &chart, &entries)?;
        Ok(())
    })
}
