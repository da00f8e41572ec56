//! The baseline-variance figure: for the lesson's bandit and a chosen group size G, the std of
//! the per-group gradient estimate (no baseline, same-group mean, RLOO) — exact curves over G
//! and Monte Carlo points at G — and the Monte Carlo means against the exact gradient and
//! (G−1)/G · exact. The simulation runs in the lesson (`lessons::baselines`), not here.

use super::legend::{swatches, Layout};
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws. Triples are in the order: no baseline, same-group mean, RLOO.
#[derive(Debug, Clone)]
pub struct Data {
    /// The chosen group size G (the marked x).
    pub group_size: usize,
    /// (G, exact stds) for each group size on the curve.
    pub exact_std_curve: Vec<(f64, [f64; 3])>,
    /// Monte Carlo stds at G.
    pub monte_carlo_std: [f64; 3],
    /// Monte Carlo means at G.
    pub means: [f64; 3],
    /// Their error bars: two standard errors.
    pub errors: [f64; 3],
    /// The exact gradient component.
    pub exact: f64,
    /// (G − 1)/G · exact: where the same-group mean should land.
    pub predicted_same_group: f64,
    /// The z-scored estimate at G, when shown: mean, Monte Carlo std, two standard errors.
    pub zscore: Option<(f64, f64, f64)>,
}

/// The z-scored estimate's colour.
const ZSCORE: RGBColor = RGBColor(140, 80, 170);

/// Draws both panels: legends inside where they cover no data, else in rows under the panels
/// ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let (d, theme, group_size) = (data, *theme, data.group_size);
        area.fill(&theme.colors.paper)?;
        let (left, right) = theme.panel_pair(area, 0.55);
        let g = group_size as f64;
        let mut legend = vec![
            (theme.colors.blue, "без опорного уровня"),
            (theme.colors.red, "среднее той же группы"),
            (theme.colors.green, "RLOO"),
        ];
        if d.zscore.is_some() {
            legend.push((ZSCORE, "z-оценка"));
        }
        let legend = swatches(&legend);
        let (left, strip) = theme.row_strip_if(layout == Layout::Rows, &left, &legend)?;

        // Left: std against G on a log axis (taller when the z-scores' spread needs it).
        let std_top = d.zscore.map_or(0.26, |(_, std, _)| (std * 1.15).max(0.26));
        let mut chart = theme
            .chart(&left, "Стандартное отклонение оценки", 38.0, 44.0)
            .build_cartesian_2d(
                (2.0..64.0)
                    .log_scale()
                    .with_key_points(vec![2.0, 4.0, 8.0, 16.0, 32.0, 64.0]),
                0.0..std_top,
            )?;
        theme
            .mesh(&mut chart.configure_mesh())
            .x_labels(6)
            .y_labels(6)
            .x_desc("размер группы G")
            .y_desc("ст. откл. по группам")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| decimal(*y, 2))
            .draw()?;
        let styles = [
            (theme.colors.blue, 0usize),
            (theme.colors.red, 1),
            (theme.colors.green, 2),
        ];
        for (color, k) in styles {
            chart.draw_series(LineSeries::new(
                d.exact_std_curve.iter().map(|(x, s)| (*x, s[k])),
                color.stroke_width(theme.px(2.0)),
            ))?;
        }
        chart.draw_series(theme.guide((g, 0.0), (g, std_top)))?;
        for (color, value) in [theme.colors.blue, theme.colors.red, theme.colors.green]
            .into_iter()
            .zip(d.monte_carlo_std)
        {
            chart.draw_series(std::iter::once(Circle::new(
                (g, value),
                theme.ipx(5.0),
                color.filled(),
            )))?;
        }
        if let Some((_, std, _)) = d.zscore {
            chart.draw_series(std::iter::once(TriangleMarker::new(
                (g, std),
                theme.ipx(6.0),
                ZSCORE.filled(),
            )))?;
        }
        theme.place_legend(strip.as_ref(), &chart, &legend)?;

        // Right: the means at G with ±2 standard errors, against exact and (G−1)/G · exact.
        let mut rows = vec![
            (0.0, d.means[0], d.errors[0], theme.colors.blue),
            (1.0, d.means[1], d.errors[1], theme.colors.red),
            (2.0, d.means[2], d.errors[2], theme.colors.green),
        ];
        if let Some((mean, _, err)) = d.zscore {
            rows.push((3.0, mean, err, ZSCORE));
        }
        let x_end = rows.len() as f64 - 0.4;
        // The z-scores live on another scale: the axis stretches to hold them.
        let (y_lo, y_hi) = rows
            .iter()
            .fold((0.02f64, 0.125f64), |(lo, hi), (_, m, e, _)| {
                (lo.min(m - e - 0.005), hi.max(m + e + 0.01))
            });
        let mut chart = theme
            .chart(
                &right,
                &format!("Средние оценки при G = {group_size}"),
                38.0,
                50.0,
            )
            .build_cartesian_2d(-0.6..x_end, y_lo..y_hi)?;
        theme
            .mesh(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(rows.len())
            .y_labels(6)
            .y_desc("среднее по группам")
            .x_label_formatter(&|x: &f64| match x.round() as i64 {
                // Four columns leave no room for the whole name (the legend on the left has it).
                0 if d.zscore.is_some() => "без опорного".into(),
                0 => "без опорного уровня".into(),
                1 => "среднее".into(),
                2 => "RLOO".into(),
                3 => "z-оценка".into(),
                _ => String::new(),
            })
            .y_label_formatter(&|y| decimal(*y, 3))
            .draw()?;
        let exact = d.exact;
        chart.draw_series(LineSeries::new(
            [(-0.6, exact), (x_end, exact)],
            theme.colors.ink.stroke_width(theme.px(1.5)),
        ))?;
        chart.draw_series(DashedLineSeries::new(
            [
                (-0.6, d.predicted_same_group),
                (x_end, d.predicted_same_group),
            ],
            theme.px(5.0),
            theme.px(4.0),
            theme.colors.red.stroke_width(theme.px(1.5)),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            "точный градиент",
            (-0.55, exact + 0.006),
            theme.font(11.0).color(&theme.colors.ink),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            "(G−1)/G · точный",
            (-0.55, d.predicted_same_group - 0.0015),
            theme.font(11.0).color(&theme.colors.red),
        )))?;
        for (x, mean, err, color) in rows {
            let style = color.stroke_width(theme.px(2.0));
            chart.draw_series(std::iter::once(PathElement::new(
                [(x, mean - err), (x, mean + err)],
                style,
            )))?;
            for y in [mean - err, mean + err] {
                chart.draw_series(std::iter::once(PathElement::new(
                    [(x - 0.08, y), (x + 0.08, y)],
                    style,
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new(
                (x, mean),
                theme.ipx(5.0),
                color.filled(),
            )))?;
        }
        Ok(())
    })
}
