//! The sequence lab's figures over several seeds: the success rate per iteration (each
//! configuration's median and interquartile band, every seed a thin line) and, beside it, the
//! lengths of correct and incorrect responses, the KL to the reference and the entropy (medians
//! and bands), each configuration in its own colour.

use super::learning_curve::{band, config_colors};
use super::theme::{tick_count, tick_label, Theme};
use crate::train::curves::Curve;
use crate::train::sequence::lab::{ConfigLab, Series};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What both figures draw: each configuration's label and lab curves.
#[derive(Debug, Clone, Copy)]
pub struct Data<'a> {
    /// The title of the success figure.
    pub title: &'a str,
    /// Each configuration's label (empty for a single run) and its curves.
    pub configs: &'a [(&'a str, &'a ConfigLab)],
    /// The x axis reaches at least this iteration: the longest configuration's plan.
    pub x_end: usize,
}

fn x_max(data: &Data<'_>) -> f64 {
    let last = data
        .configs
        .iter()
        .filter_map(|(_, lab)| lab.success_runs.iter().map(Vec::len).max())
        .max()
        .unwrap_or(0);
    last.max(data.x_end).max(1) as f64
}

/// The legend's configuration entries (none for a single run).
fn config_entries<'a>(data: &Data<'a>, theme: &Theme) -> Vec<(ShapeStyle, &'a str)> {
    if data.configs.len() < 2 {
        return Vec::new();
    }
    data.configs
        .iter()
        .zip(config_colors(theme))
        .map(|((label, _), color)| (color.stroke_width(theme.px(2.5)), *label))
        .collect()
}

/// Draws the success rate against the iteration: per configuration its interquartile band,
/// every seed's line (thin) and the median (thick). Empty curves draw empty axes.
pub fn draw_success<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    theme: &Theme,
) -> Result<()> {
    let theme = *theme;
    let x_max = x_max(data);
    area.fill(&theme.colors.paper)?;
    let mut entries = config_entries(data, &theme);
    let width = theme.px(2.5);
    let first = config_colors(&theme)[0];
    entries.push((first.mix(0.2).filled(), "межквартильный диапазон"));
    entries.push((
        first.mix(0.4).stroke_width(theme.px(1.0)),
        "отдельные начальные значения",
    ));
    if data.configs.len() < 2 {
        entries.push((first.stroke_width(width), "медиана по начальным значениям"));
    }
    let (plot, strip) = theme.legend_strip(area, entries.len());
    let mut chart = theme
        .chart(&plot, data.title, 36.0, 44.0)
        .build_cartesian_2d(0.0..x_max, 0.0..1.05)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, x_max, 0, 6))
        .y_labels(6)
        .x_desc("итерация")
        .y_desc("доля верных ответов")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    let colors = config_colors(&theme);
    for ((_, lab), color) in data.configs.iter().zip(colors) {
        chart.draw_series(std::iter::once(Polygon::new(
            band(&lab.success),
            color.mix(0.15).filled(),
        )))?;
    }
    for ((_, lab), color) in data.configs.iter().zip(colors) {
        for run in &lab.success_runs {
            let points = run.iter().enumerate().map(|(i, &y)| ((i + 1) as f64, y));
            chart.draw_series(LineSeries::new(
                points,
                color.mix(0.35).stroke_width(theme.px(1.0)),
            ))?;
        }
    }
    for ((_, lab), color) in data.configs.iter().zip(colors) {
        chart.draw_series(LineSeries::new(
            points(&lab.success),
            color.stroke_width(width),
        ))?;
    }
    theme.place_legend(strip.as_ref(), &chart, &entries)?;
    Ok(())
}

fn points(curve: &Curve) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
    curve
        .env_steps
        .iter()
        .map(|&s| s as f64)
        .zip(curve.median.iter().copied())
}

/// One small chart of the details figure: `series` (one or two, the second dashed) of every
/// configuration, median and band, on a y axis from 0 to a little above the largest quartile.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    title: &str,
    series: &[Series],
    theme: Theme,
) -> Result<()> {
    let x_max = x_max(data);
    let top = data
        .configs
        .iter()
        .flat_map(|(_, lab)| {
            series
                .iter()
                .flat_map(|&s| lab.curve(s).q75.iter().copied())
        })
        .fold(0.0_f64, f64::max);
    let y_max = if top > 0.0 { top * 1.1 } else { 1.0 };
    let digits = if y_max < 0.1 {
        3
    } else if y_max < 3.0 {
        2
    } else {
        0
    };
    let mut chart = theme
        .chart(area, title, 36.0, 44.0)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, x_max, 0, 4))
        .y_labels(5)
        .x_desc("итерация")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| tick_label(*y, digits))
        .draw()?;
    let colors = config_colors(&theme);
    for ((_, lab), color) in data.configs.iter().zip(colors) {
        for &s in series {
            chart.draw_series(std::iter::once(Polygon::new(
                band(lab.curve(s)),
                color.mix(0.12).filled(),
            )))?;
        }
    }
    let width = theme.px(2.0);
    for ((_, lab), color) in data.configs.iter().zip(colors) {
        for (k, &s) in series.iter().enumerate() {
            let style = color.stroke_width(width);
            if k == 0 {
                chart.draw_series(LineSeries::new(points(lab.curve(s)), style))?;
            } else {
                chart.draw_series(DashedLineSeries::new(
                    points(lab.curve(s)),
                    theme.px(6.0),
                    theme.px(4.0),
                    style,
                ))?;
            }
        }
    }
    Ok(())
}

/// Draws the three details charts — lengths of correct (solid) and incorrect (dashed)
/// responses, KL to the reference, entropy — side by side on a wide area, one above the other
/// on a narrow one, with one legend under them.
pub fn draw_details<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    theme: &Theme,
) -> Result<()> {
    let theme = *theme;
    area.fill(&theme.colors.paper)?;
    let mut entries = config_entries(data, &theme);
    let ink = theme.colors.ink;
    entries.push((ink.stroke_width(theme.px(2.0)), "сплошная: верные ответы"));
    entries.push((
        theme.colors.grey.stroke_width(theme.px(2.0)),
        "пунктир: неверные ответы",
    ));
    let (_, h) = area.dim_in_pixel();
    let strip_h = theme.px(16.0 * entries.len() as f64 + 8.0).min(h / 2);
    let (charts, strip) = area.split_vertically(h - strip_h);
    let panels: Vec<DrawingArea<DB, Shift>> = if theme.is_narrow(area) {
        charts.split_evenly((3, 1))
    } else {
        charts.split_evenly((1, 3))
    };
    let specs: [(&str, &[Series]); 3] = [
        (
            "длина ответа, токенов",
            &[Series::LengthCorrect, Series::LengthIncorrect],
        ),
        ("KL к опорной политике", &[Series::Kl]),
        ("энтропия политики", &[Series::Entropy]),
    ];
    for (panel, (title, series)) in panels.iter().zip(specs) {
        draw_panel(panel, data, title, series, theme)?;
    }
    theme.strip_legend(&strip, &entries)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::to_svg;
    use crate::train::sequence::{SequenceConfig, SequenceProfile, SequenceTrainer};
    use crate::train::settings::Settings;

    #[test]
    fn both_figures_draw_a_comparison_and_empty_axes() {
        let config = SequenceConfig {
            iterations: 4,
            group_size: 4,
            prompts_per_iteration: 2,
            hidden_dim: 6,
            embed_dim: 4,
            eval_samples_per_prompt: 4,
            ..SequenceConfig::for_profile(SequenceProfile::DrGrpo)
        };
        let runs: Vec<Vec<_>> = [1, 2]
            .iter()
            .map(|&seed| {
                let mut t = SequenceTrainer::new(config.clone(), seed).unwrap();
                (0..4).map(|_| t.step().unwrap()).collect()
            })
            .collect();
        let views: Vec<&[_]> = runs.iter().map(Vec::as_slice).collect();
        let lab = ConfigLab::of(&views);
        let empty = ConfigLab::default();
        for configs in [
            vec![("A: dr_grpo", &lab), ("B: dr_grpo; β 0 → 0,1", &lab)],
            vec![("", &empty)],
        ] {
            let data = Data {
                title: "Доля верных ответов",
                configs: &configs,
                x_end: 4,
            };
            for (w, h) in [(720, 300), (360, 600)] {
                let svg = to_svg(w, h, |a| draw_success(a, &data, &Theme::default())).unwrap();
                assert!(svg.contains("итерация"));
                let svg = to_svg(w, h, |a| draw_details(a, &data, &Theme::default())).unwrap();
                assert!(svg.contains("энтропия политики"));
            }
        }
    }
}
