//! Lesson 8's learning curves: the evaluation mean reward and the success rate per iteration.

use crate::error::{Error, Result};
use crate::train::sequence::IterationReport;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Turns a plotters error (whatever the backend) into the crate's error.
fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Input(format!("drawing the sequence curves failed: {e}"))
}

const REWARD_COLOR: RGBColor = RGBColor(31, 119, 180);
const SUCCESS_COLOR: RGBColor = RGBColor(214, 95, 14);

/// Draws the evaluation mean reward and the fraction of fully correct answers against the
/// iteration, on one pair of axes (both live on roughly [−0.2, 1]). Labels are Russian and few:
/// the canvas backend lays out every label separately.
pub fn draw_sequence_curves<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    reports: &[IterationReport],
) -> Result<()> {
    area.fill(&WHITE).map_err(plot_error)?;
    let last = reports.last().map_or(1, |r| r.iteration.max(1));
    let lowest = reports
        .iter()
        .map(|r| r.eval_mean_reward)
        .fold(0.0_f64, f64::min);
    let y_min = (lowest - 0.05).min(-0.05);
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Маленькая GRU-политика учится по награде проверяющей функции",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..last as f64, y_min..1.05)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc("итерация")
        .y_desc("значение на проверке")
        .x_labels(6)
        .y_labels(6)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(plot_error)?;
    let series = [
        (
            "средняя награда",
            REWARD_COLOR,
            reports
                .iter()
                .map(|r| (r.iteration as f64, r.eval_mean_reward))
                .collect::<Vec<_>>(),
        ),
        (
            "доля полностью правильных ответов",
            SUCCESS_COLOR,
            reports
                .iter()
                .map(|r| (r.iteration as f64, r.eval_success_rate))
                .collect(),
        ),
    ];
    for (label, color, points) in series {
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(plot_error)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(plot_error)?;
    area.present().map_err(plot_error)?;
    Ok(())
}
