//! The PPO learning curve: median evaluation return over seeds, the interquartile band, a thin
//! line per seed and the dashed 500 ceiling, against environment transitions.

use crate::error::{Error, Result};
use crate::train::curves::Curve;
use plotters::coord::Shift;
use plotters::prelude::*;

fn plot_err(e: impl std::fmt::Display) -> Error {
    Error::Input(format!("drawing the learning curve failed: {e}"))
}

/// Draws `curve` (from [`crate::train::curves::aggregate`]) on `area`; `profile` names the run
/// in the title.
pub fn draw_learning_curve<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curve: &Curve,
    profile: &str,
) -> Result<()> {
    if curve.env_steps.is_empty() {
        return Err(Error::invalid("curve", "has no evaluation points"));
    }
    let xs: Vec<f64> = curve.env_steps.iter().map(|&s| s as f64).collect();
    let x_max = xs.last().copied().unwrap_or(1.0).max(1.0);
    area.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("PPO на CartPole — профиль {profile}"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max, 0.0..520.0)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_desc("переходы среды")
        .y_desc("возврат (жадная оценка)")
        .light_line_style(WHITE)
        .draw()
        .map_err(plot_err)?;
    let blue = RGBColor(31, 119, 180);
    // Interquartile band: the q75 line out and the q25 line back.
    let band: Vec<(f64, f64)> = xs
        .iter()
        .zip(&curve.q75)
        .map(|(&x, &y)| (x, y))
        .chain(xs.iter().zip(&curve.q25).rev().map(|(&x, &y)| (x, y)))
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, blue.mix(0.2).filled())))
        .map_err(plot_err)?
        .label("межквартильный диапазон")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 16, y + 5)], blue.mix(0.2).filled())
        });
    for run in &curve.runs {
        chart
            .draw_series(LineSeries::new(
                xs.iter().copied().zip(run.iter().copied()),
                blue.mix(0.35).stroke_width(1),
            ))
            .map_err(plot_err)?;
    }
    chart
        .draw_series(LineSeries::new(
            xs.iter().copied().zip(curve.median.iter().copied()),
            blue.stroke_width(3),
        ))
        .map_err(plot_err)?
        .label("медиана по начальным значениям")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], blue.stroke_width(3)));
    chart
        .draw_series(DashedLineSeries::new(
            [(0.0, 500.0), (x_max, 500.0)],
            8,
            5,
            BLACK.stroke_width(1),
        ))
        .map_err(plot_err)?
        .label("потолок 500 (лимит времени)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()
        .map_err(plot_err)?;
    Ok(())
}
