//! The PPO learning curve: median evaluation return over seeds, the interquartile band, a thin
//! line per seed and the dashed 500 ceiling, against environment transitions.

use super::theme::{tick_count, tick_label, Theme};
use crate::train::curves::Curve;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the figure draws.
#[derive(Debug, Clone, Copy)]
pub struct Data<'a> {
    /// From [`crate::train::curves::aggregate`]; one run works too.
    pub curve: &'a Curve,
    /// Names the run in the title.
    pub profile: &'a str,
    /// The x axis reaches at least this far: the run's planned transitions, so that the axis
    /// does not rescale as the run goes on (and empty axes have the run's extent).
    pub x_end: f64,
}

/// Draws the curve on `area`. An empty curve draws empty axes (the page shows them before the
/// first evaluation). Labels are Russian and few: the canvas backend lays out every label
/// separately.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    theme: &Theme,
) -> Result<()> {
    draw_titled(
        area,
        data,
        &format!("PPO на CartPole — профиль {}", data.profile),
        theme,
    )
}

/// What a curve is plotted against: its axes' names, the score's range and its ceiling.
#[derive(Debug, Clone, Copy)]
pub struct Axes<'a> {
    /// The x axis's name.
    pub x_desc: &'a str,
    /// The y axis's name.
    pub y_desc: &'a str,
    /// The top of the y axis.
    pub y_max: f64,
    /// Decimals of the y axis's tick labels.
    pub y_decimals: usize,
    /// A dashed line at the best possible score, with its legend entry.
    pub ceiling: Option<(f64, &'a str)>,
}

/// CartPole's: the greedy evaluation's return against environment transitions, up to 500.
pub const CARTPOLE: Axes<'static> = Axes {
    x_desc: "переходы среды",
    y_desc: "возврат (жадная оценка)",
    y_max: 520.0,
    y_decimals: 0,
    ceiling: Some((500.0, "потолок 500 (лимит времени)")),
};

/// The sequence trainer's: the evaluation's share of correct answers against iterations.
pub const SUCCESS: Axes<'static> = Axes {
    x_desc: "итерации",
    y_desc: "доля верных ответов",
    y_max: 1.04,
    y_decimals: 1,
    ceiling: Some((1.0, "все ответы верны")),
};

/// [`draw`] with another title (another trainer's curve).
pub fn draw_titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    title: &str,
    theme: &Theme,
) -> Result<()> {
    draw_on(area, data, title, &CARTPOLE, theme)
}

/// [`draw_titled`] on other [`Axes`] (a class's band of any trainer).
pub fn draw_on<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    title: &str,
    axes: &Axes<'_>,
    theme: &Theme,
) -> Result<()> {
    let (Data { curve, x_end, .. }, theme) = (*data, *theme);
    let xs: Vec<f64> = curve.env_steps.iter().map(|&s| s as f64).collect();
    let x_max = xs.last().copied().unwrap_or(0.0).max(x_end).max(1.0);
    area.fill(&theme.colors.paper)?;
    let (plot, strip) = theme.legend_strip(area, 3);
    let mut chart = theme
        .chart(&plot, title, 36.0, 44.0)
        .build_cartesian_2d(0.0..x_max, 0.0..axes.y_max)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, x_max, 0, 6))
        .y_labels(6)
        .x_desc(axes.x_desc)
        .y_desc(axes.y_desc)
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| match axes.y_decimals {
            0 => format!("{y:.0}"),
            d => tick_label(*y, d),
        })
        .draw()?;
    chart.draw_series(std::iter::once(Polygon::new(
        band(curve),
        theme.colors.blue.mix(0.2).filled(),
    )))?;
    for run in &curve.runs {
        let points = xs.iter().copied().zip(run.iter().copied());
        chart.draw_series(LineSeries::new(
            points,
            theme.colors.blue.mix(0.35).stroke_width(theme.px(1.0)),
        ))?;
    }
    let width = theme.px(2.5);
    let median = xs.iter().copied().zip(curve.median.iter().copied());
    chart.draw_series(LineSeries::new(
        median,
        theme.colors.blue.stroke_width(width),
    ))?;
    let thin = theme.px(1.0);
    let mut entries = vec![
        (
            theme.colors.blue.mix(0.2).filled(),
            "межквартильный диапазон",
        ),
        (
            theme.colors.blue.stroke_width(width),
            "медиана по начальным значениям",
        ),
    ];
    if let Some((top, name)) = axes.ceiling {
        chart.draw_series(DashedLineSeries::new(
            [(0.0, top), (x_max, top)],
            theme.px(8.0),
            theme.px(5.0),
            theme.colors.ink.stroke_width(thin),
        ))?;
        entries.push((theme.colors.ink.stroke_width(thin), name));
    }
    theme.place_legend(strip.as_ref(), &chart, &entries)?;
    Ok(())
}

/// A curve's interquartile band as a polygon: along q75, back along q25.
pub fn band(curve: &Curve) -> Vec<(f64, f64)> {
    let xs: Vec<f64> = curve.env_steps.iter().map(|&s| s as f64).collect();
    xs.iter()
        .zip(&curve.q75)
        .map(|(&x, &y)| (x, y))
        .chain(xs.iter().zip(&curve.q25).rev().map(|(&x, &y)| (x, y)))
        .collect()
}

/// The colours of a comparison's configurations, in order (told apart in grey-scale prints
/// by their lightness too).
pub fn config_colors(theme: &Theme) -> [RGBColor; 4] {
    let c = theme.colors;
    [c.blue, c.orange, c.green, c.purple]
}

/// What the comparison figure draws: each configuration's curve under its label.
#[derive(Debug, Clone, Copy)]
pub struct Compared<'a> {
    /// The title (which trainer is compared).
    pub title: &'a str,
    /// Each configuration's label and curve (an empty curve while it has not evaluated).
    pub configs: &'a [(&'a str, &'a Curve)],
    /// The x axis reaches at least this far: the longest configuration's planned transitions.
    pub x_end: f64,
}

/// Draws each configuration's median and interquartile band in its own colour (at most
/// [`config_colors`] of them), with a legend naming each one, and the 500 ceiling.
pub fn draw_compared<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Compared<'_>,
    theme: &Theme,
) -> Result<()> {
    let theme = *theme;
    let x_last = data
        .configs
        .iter()
        .filter_map(|(_, c)| c.env_steps.last())
        .fold(0.0_f64, |m, &s| m.max(s as f64));
    let x_max = x_last.max(data.x_end).max(1.0);
    area.fill(&theme.colors.paper)?;
    let (plot, strip) = theme.legend_strip(area, data.configs.len() + 1);
    let mut chart = theme
        .chart(&plot, data.title, 36.0, 44.0)
        .build_cartesian_2d(0.0..x_max, 0.0..520.0)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(tick_count(0.0, x_max, 0, 6))
        .y_labels(6)
        .x_desc("переходы среды")
        .y_desc("возврат (жадная оценка)")
        .x_label_formatter(&|x| tick_label(*x, 0))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    let width = theme.px(2.5);
    // The bands first, then every median over them: no band hides another's median.
    for ((_, curve), color) in data.configs.iter().zip(config_colors(&theme)) {
        chart.draw_series(std::iter::once(Polygon::new(
            band(curve),
            color.mix(0.15).filled(),
        )))?;
    }
    for ((_, curve), color) in data.configs.iter().zip(config_colors(&theme)) {
        let points = curve
            .env_steps
            .iter()
            .map(|&s| s as f64)
            .zip(curve.median.iter().copied());
        chart.draw_series(LineSeries::new(points, color.stroke_width(width)))?;
    }
    let thin = theme.px(1.0);
    chart.draw_series(DashedLineSeries::new(
        [(0.0, 500.0), (x_max, 500.0)],
        theme.px(8.0),
        theme.px(5.0),
        theme.colors.ink.stroke_width(thin),
    ))?;
    let mut entries: Vec<(ShapeStyle, &str)> = data
        .configs
        .iter()
        .zip(config_colors(&theme))
        .map(|((label, _), color)| (color.stroke_width(width), *label))
        .collect();
    entries.push((
        theme.colors.ink.stroke_width(thin),
        "потолок 500 (лимит времени)",
    ));
    theme.place_legend(strip.as_ref(), &chart, &entries)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::curves::Curve;

    #[test]
    fn a_success_band_is_drawn_on_its_own_axes() {
        let curve = Curve {
            env_steps: vec![1, 5, 10],
            median: vec![0.1, 0.4, 0.7],
            q25: vec![0.0, 0.3, 0.6],
            q75: vec![0.2, 0.5, 0.8],
            runs: vec![vec![0.1, 0.4, 0.7]],
        };
        let data = Data {
            curve: &curve,
            profile: "",
            x_end: 0.0,
        };
        let theme = Theme::default();
        let svg = crate::plots::to_svg(640, 400, |a| draw_on(a, &data, "Класс", &SUCCESS, &theme))
            .unwrap();
        assert!(svg.contains("доля верных ответов") && svg.contains("итерации"));
        assert!(svg.contains("все ответы верны") && !svg.contains("потолок 500"));
        let cartpole =
            crate::plots::to_svg(640, 400, |a| draw_titled(a, &data, "PPO", &theme)).unwrap();
        assert!(cartpole.contains("потолок 500") && cartpole.contains("переходы среды"));
    }
}
