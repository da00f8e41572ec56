//! Local optimisation diagnostics of one PPO run per update: the non-negative approx KL, the
//! active clip fraction and the fraction of ratios outside [1 − ε, 1 + ε].

use crate::error::{Error, Result};
use crate::train::ppo::UpdateReport;
use plotters::coord::Shift;
use plotters::prelude::*;

fn plot_err(e: impl std::fmt::Display) -> Error {
    Error::Input(format!("drawing the PPO diagnostics failed: {e}"))
}

/// A line: its legend label, colour and how to read it from a report.
type Series = (&'static str, RGBColor, fn(&UpdateReport) -> f64);

/// Draws the three diagnostics of `history` (one run, seed `seed`) against the update number.
pub fn draw_ppo_diagnostics<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    history: &[UpdateReport],
    seed: u64,
) -> Result<()> {
    if history.is_empty() {
        return Err(Error::invalid("history", "has no updates"));
    }
    let x_max = history.iter().map(|r| r.update).max().unwrap_or(1) as f64;
    let y_max = history
        .iter()
        .flat_map(|r| {
            [
                r.approx_kl,
                r.active_clip_fraction,
                r.ratio_outside_fraction,
            ]
        })
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.08;
    area.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Локальная диагностика PPO, начальное значение {seed}"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max.max(1.0), 0.0..y_max)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("обновление PPO")
        .light_line_style(WHITE)
        .draw()
        .map_err(plot_err)?;
    let series: [Series; 3] = [
        (
            "неотрицательная приближённая KL",
            RGBColor(31, 119, 180),
            |r| r.approx_kl,
        ),
        (
            "доля активного клиппирования",
            RGBColor(255, 127, 14),
            |r| r.active_clip_fraction,
        ),
        (
            "доля отношений вне интервала",
            RGBColor(44, 160, 44),
            |r| r.ratio_outside_fraction,
        ),
    ];
    for (label, color, get) in series {
        chart
            .draw_series(LineSeries::new(
                history.iter().map(|r| (r.update as f64, get(r))),
                color.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()
        .map_err(plot_err)?;
    Ok(())
}
