//! Local optimisation diagnostics of one PPO run per update: the non-negative approx KL, the
//! active clip fraction and the fraction of ratios outside [1 − ε, 1 + ε].

use super::theme::{Theme, BLUE, GREEN, GREY, INK, RED};
use crate::train::ppo::UpdateReport;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A line: its legend label, colour and how to read it from a report.
type Series = (&'static str, RGBColor, fn(&UpdateReport) -> f64);

const SERIES: [Series; 3] = [
    ("неотрицательная приближённая KL", BLUE, |r| r.approx_kl),
    (
        "доля активного клиппирования",
        RED,
        |r| r.active_clip_fraction,
    ),
    (
        "доля отношений вне интервала",
        GREEN,
        |r| r.ratio_outside_fraction,
    ),
];

/// Draws the three diagnostics of `history` (one run, seed `seed`) against the update number.
/// An empty history draws empty axes.
pub fn draw_ppo_diagnostics<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    history: &[UpdateReport],
    seed: u64,
    theme: Theme,
) -> Result<()> {
    let x_max = history.last().map_or(1, |r| r.update.max(1)) as f64;
    let y_max = history
        .iter()
        .flat_map(|r| SERIES.map(|(_, _, get)| get(r)))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.08;
    area.fill(&WHITE)?;
    let mut chart = theme
        .chart(
            area,
            &format!("Локальная диагностика PPO, начальное значение {seed}"),
            36.0,
            44.0,
        )
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(6)
        .y_labels(6)
        .x_desc("обновление PPO")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    let width = theme.px(1.5);
    let sample = theme.px(18.0) as i32;
    for (label, color, get) in SERIES {
        let points = history.iter().map(|r| (r.update as f64, get(r)));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(width)))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new([(x, y), (x + sample, y)], color.stroke_width(width))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(theme.font(12.0).color(&INK))
        .background_style(WHITE.mix(0.85))
        .border_style(GREY.mix(0.5))
        .draw()?;
    Ok(())
}
