//! Lesson 8's learning curves: the evaluation mean reward and the fraction of fully correct
//! answers per iteration of the GRU sequence policy.

use super::theme::{tick_count, tick_label, Theme};
use crate::train::sequence::IterationReport;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the figure draws: one run's reports.
#[derive(Debug, Clone, Copy)]
pub struct Data<'a> {
    /// The run's iteration reports, in order.
    pub reports: &'a [IterationReport],
    /// The x axis reaches at least this iteration: the run's planned iterations.
    pub x_end: usize,
}

/// Draws both curves against the iteration on one pair of axes (both live on roughly
/// [−0.2, 1]). Labels are Russian and few: the canvas backend lays out every label separately.
/// An empty history draws empty axes (the page shows them before the first iteration).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    theme: &Theme,
) -> Result<()> {
    let (reports, theme) = (data.reports, *theme);
    area.fill(&theme.colors.paper)?;
    let last = reports
        .last()
        .map_or(0, |r| r.iteration)
        .max(data.x_end)
        .max(1);
    // The reward can dip below zero (overlong answers are penalised); keep 0 and 1 in view.
    let lowest = reports
        .iter()
        .map(|r| r.eval_mean_reward)
        .fold(0.0_f64, f64::min);
    let y_min = (lowest - 0.05).min(-0.05);
    let (plot, strip) = theme.legend_strip(area, 2);
    let mut chart = theme
        .chart(&plot, "Проверка после каждой итерации", 36.0, 44.0)
        .build_cartesian_2d(0.0..last as f64, y_min..1.05)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, last as f64, 0, 6))
        .y_labels(6)
        .x_desc("итерация")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    let reward: Vec<f64> = reports.iter().map(|r| r.eval_mean_reward).collect();
    let success: Vec<f64> = reports.iter().map(|r| r.eval_success_rate).collect();
    let series = [
        ("средняя награда", theme.colors.blue, reward),
        ("доля правильных ответов", theme.colors.red, success),
    ];
    let width = theme.px(2.0);
    let entries: Vec<(ShapeStyle, &str)> = series
        .iter()
        .map(|(label, color, _)| (color.stroke_width(width), *label))
        .collect();
    for (_, color, values) in series {
        let points = reports.iter().map(|r| r.iteration as f64).zip(values);
        chart.draw_series(LineSeries::new(points, color.stroke_width(width)))?;
    }
    theme.place_legend(strip.as_ref(), &chart, &entries)?;
    Ok(())
}

/// What the comparison figure draws: each configuration's run under its label.
#[derive(Debug, Clone, Copy)]
pub struct Compared<'a> {
    /// Each configuration's label and its (first seed's) reports.
    pub configs: &'a [(&'a str, &'a [IterationReport])],
    /// The x axis reaches at least this iteration: the longest configuration's plan.
    pub x_end: usize,
}

/// Draws each configuration's evaluation curves in its own colour: the mean reward solid, the
/// fully correct fraction dashed; the legend names the configurations and the two line styles.
pub fn draw_compared<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Compared<'_>,
    theme: &Theme,
) -> Result<()> {
    use super::learning_curve::config_colors;
    let theme = *theme;
    area.fill(&theme.colors.paper)?;
    let all = || data.configs.iter().flat_map(|(_, r)| r.iter());
    let last = all()
        .map(|r| r.iteration)
        .max()
        .unwrap_or(0)
        .max(data.x_end)
        .max(1);
    let lowest = all().map(|r| r.eval_mean_reward).fold(0.0_f64, f64::min);
    let y_min = (lowest - 0.05).min(-0.05);
    let (plot, strip) = theme.legend_strip(area, data.configs.len() + 2);
    let mut chart = theme
        .chart(
            &plot,
            "Сравнение конфигураций: проверка после каждой итерации",
            36.0,
            44.0,
        )
        .build_cartesian_2d(0.0..last as f64, y_min..1.05)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, last as f64, 0, 6))
        .y_labels(6)
        .x_desc("итерация")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    let width = theme.px(2.0);
    for ((_, reports), color) in data.configs.iter().zip(config_colors(&theme)) {
        let x = |r: &IterationReport| r.iteration as f64;
        let reward = reports.iter().map(|r| (x(r), r.eval_mean_reward));
        chart.draw_series(LineSeries::new(reward, color.stroke_width(width)))?;
        let success = reports.iter().map(|r| (x(r), r.eval_success_rate));
        chart.draw_series(DashedLineSeries::new(
            success,
            theme.px(6.0),
            theme.px(4.0),
            color.stroke_width(width),
        ))?;
    }
    let mut entries: Vec<(ShapeStyle, &str)> = data
        .configs
        .iter()
        .zip(config_colors(&theme))
        .map(|((label, _), color)| (color.filled(), *label))
        .collect();
    entries.push((
        theme.colors.ink.stroke_width(width),
        "сплошная: средняя награда",
    ));
    entries.push((
        theme.colors.grey.stroke_width(width),
        "пунктир: доля правильных ответов",
    ));
    theme.place_legend(strip.as_ref(), &chart, &entries)?;
    Ok(())
}
