//! One run of the R1-Zero pipeline (lesson 10) in four small charts: the SFT loss per step,
//! pass@k against k for the untrained, SFT and RL policies, the success per difficulty level
//! at the end, and the share of groups without reward spread per iteration (every group drawn,
//! solid; those trained on, dashed) — two by two on a wide area, one above the other on a
//! narrow one, with one legend under them.

use super::theme::{tick_count, tick_label, Theme};
use crate::train::sequence::pipeline_run::PipelineRun;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The stages' colours and dashes (dash, gap in CSS px; none: solid), in [`STAGES`]'s order.
///
/// [`STAGES`]: crate::train::sequence::pipeline_run::STAGES
fn stage_styles(theme: &Theme) -> [(RGBColor, Option<(f64, f64)>); 3] {
    let c = theme.colors;
    [
        (c.grey, Some((2.0, 3.0))),
        (c.blue, Some((6.0, 4.0))),
        (c.orange, None),
    ]
}

fn line<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'_, DB, CT>,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
    dash: Option<(f64, f64)>,
    theme: &Theme,
) -> Result<()> {
    match dash {
        None => {
            chart.draw_series(LineSeries::new(points, style))?;
        }
        Some((d, g)) => {
            chart.draw_series(DashedLineSeries::new(
                points,
                theme.px(d),
                theme.px(g),
                style,
            ))?;
        }
    }
    Ok(())
}

/// Draws the four charts of `run`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    run: &PipelineRun,
    theme: &Theme,
) -> Result<()> {
    let theme = *theme;
    area.fill(&theme.colors.paper)?;
    let width = theme.px(2.0);
    let styles = stage_styles(&theme);
    let mut entries: Vec<(ShapeStyle, &str)> = run
        .pass_at_k
        .iter()
        .zip(styles)
        .map(|((name, _), (color, _))| (color.stroke_width(width), *name))
        .collect();
    let ink = theme.colors.ink;
    entries.push((ink.stroke_width(width), "группы: все выбранные"));
    entries.push((
        theme.colors.grey.stroke_width(width),
        "пунктир: группы, на которых шло обучение",
    ));
    let (_, h) = area.dim_in_pixel();
    let strip_h = theme.px(16.0 * entries.len() as f64 + 8.0).min(h / 3);
    let (charts, strip) = area.split_vertically(h - strip_h);
    let panels = if theme.is_narrow(area) {
        charts.split_evenly((4, 1))
    } else {
        charts.split_evenly((2, 2))
    };

    // The SFT loss per step.
    let steps = run.sft_losses.len().max(1) as f64;
    let top = run.sft_losses.iter().copied().fold(0.0_f64, f64::max);
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };
    let mut chart = theme
        .chart(&panels[0], "функция потерь SFT", 36.0, 44.0)
        .build_cartesian_2d(0.0..steps, 0.0..top)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, steps, 0, 4))
        .y_labels(5)
        .x_desc("шаг SFT")
        .y_desc("нат на токен")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| tick_label(*y, 1))
        .draw()?;
    let losses: Vec<(f64, f64)> = (1..)
        .map(f64::from)
        .zip(run.sft_losses.iter().copied())
        .collect();
    line(&mut chart, losses, ink.stroke_width(width), None, &theme)?;

    // pass@k against k, each stage.
    let n = run
        .pass_at_k
        .iter()
        .map(|(_, p)| p.curve.len())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let mut chart = theme
        .chart(&panels[1], "pass@k на отложенных запросах", 36.0, 44.0)
        .build_cartesian_2d(1.0..n.max(2.0), 0.0..1.05)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(1.0, n.max(2.0), 0, 6))
        .y_labels(6)
        .x_desc("k")
        .y_desc("pass@k")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    for ((_, p), (color, dash)) in run.pass_at_k.iter().zip(styles) {
        let points = (1..).map(f64::from).zip(p.curve.iter().copied()).collect();
        line(&mut chart, points, color.stroke_width(width), dash, &theme)?;
    }

    // Success per level at the end: one bar per level.
    let levels = run.levels.len().max(1) as f64;
    let mut chart = theme
        .chart(&panels[2], "доля верных ответов по уровням", 36.0, 44.0)
        .build_cartesian_2d(0.5..levels + 0.5, 0.0..1.05)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(run.levels.len().max(1))
        .y_labels(6)
        .x_desc("уровень трудности")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    chart.draw_series(run.levels.iter().enumerate().map(|(l, &y)| {
        let x = (l + 1) as f64;
        Rectangle::new([(x - 0.3, 0.0), (x + 0.3, y)], theme.colors.orange.filled())
    }))?;

    // Dead groups per iteration.
    let x_max = run.iterations.max(1) as f64;
    let mut chart = theme
        .chart(&panels[3], "доля групп без разброса наград", 36.0, 44.0)
        .build_cartesian_2d(0.0..x_max, 0.0..1.05)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, x_max, 0, 4))
        .y_labels(6)
        .x_desc("итерация")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    let points = |xs: &[(usize, f64)]| xs.iter().map(|&(i, y)| (i as f64, y)).collect();
    line(
        &mut chart,
        points(&run.dead_drawn),
        ink.stroke_width(width),
        None,
        &theme,
    )?;
    line(
        &mut chart,
        points(&run.dead_trained),
        theme.colors.grey.stroke_width(width),
        Some((6.0, 4.0)),
        &theme,
    )?;
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
    fn the_pipeline_draws_wide_and_narrow() {
        let config = SequenceConfig {
            dynamic_sampling: true,
            ..SequenceConfig::for_profile(SequenceProfile::R1Smoke)
        };
        let mut t = SequenceTrainer::new(config.clone(), 5).unwrap();
        let reports: Vec<_> = (0..config.iterations).map(|_| t.step().unwrap()).collect();
        let run = PipelineRun::of(&reports).unwrap();
        for (w, h) in [(720, 520), (360, 900)] {
            let svg = to_svg(w, h, |a| draw(a, &run, &Theme::default())).unwrap();
            for words in [
                "функция потерь SFT",
                "pass@k",
                "уровень трудности",
                "после RL",
            ] {
                assert!(svg.contains(words), "{words}");
            }
        }
    }
}
