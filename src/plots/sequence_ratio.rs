//! The sequence-ratio figure (lesson 7): ln ρ_b = n·δ against the answer's length n when every
//! token's log-ratio moved by δ, against the band ln(1 ± ε) — a product of ratios near 1 is not
//! near 1. Computed in `lessons::tokens::sequence_ratio_figure`.

use super::theme::{decimal, swatch_legend, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    pub clip_epsilon: f64,
    /// The chosen length n and its ln ρ_b.
    pub length: usize,
    pub log_ratio: f64,
    /// The ratio at n, as the label writes it.
    pub ratio_label: String,
    /// (n, n·δ) over the axis.
    pub curve: Vec<(f64, f64)>,
    /// The band ln(1 − ε) … ln(1 + ε).
    pub band: (f64, f64),
    /// The first length whose ratio leaves the band (none when δ = 0).
    pub leaves_at: Option<usize>,
}

/// Draws ln ρ_b against n with the band, the chosen length and where the band is left.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    let (d, theme) = (data, *theme);
    area.fill(&theme.colors.paper)?;
    let x_hi = d.curve.last().map_or(1.0, |p| p.0);
    let (mut lo, mut hi) = d.band;
    for &(_, y) in &d.curve {
        lo = lo.min(y);
        hi = hi.max(y);
    }
    let pad = 0.08 * (hi - lo).max(0.1);
    let (lo, hi) = (lo - pad, hi + pad);
    let mut chart = theme
        .chart(area, "Логарифм отношения ответа: ln ρ_b = n·δ", 36.0, 52.0)
        .build_cartesian_2d(0.0..x_hi, lo..hi)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(6)
        .y_labels(5)
        .x_desc("длина ответа n (токенов в маске)")
        .y_desc("ln ρ_b")
        .x_label_formatter(&|x| decimal(*x, 0))
        .y_label_formatter(&|y| decimal(*y, 1))
        .draw()?;
    chart.draw_series(std::iter::once(Rectangle::new(
        [(0.0, d.band.0), (x_hi, d.band.1)],
        theme.colors.blue.mix(0.15).filled(),
    )))?;
    if let Some(n) = d.leaves_at {
        let n = n as f64;
        chart.draw_series(theme.guide((n, lo), (n, hi)))?;
    }
    chart.draw_series(LineSeries::new(
        d.curve.iter().copied(),
        theme.colors.ink.stroke_width(theme.px(2.0)),
    ))?;
    let point = (d.length as f64, d.log_ratio);
    chart.draw_series(std::iter::once(Circle::new(
        point,
        theme.ipx(5.0),
        theme.colors.red.filled(),
    )))?;
    // The label sits above the point, clear of the line, on the side with room.
    let right_half = point.0 > x_hi / 2.0;
    let (hpos, dx) = if right_half {
        (plotters::style::text_anchor::HPos::Right, -theme.ipx(8.0))
    } else {
        (plotters::style::text_anchor::HPos::Left, theme.ipx(8.0))
    };
    let style =
        theme
            .font(12.0)
            .color(&theme.colors.red)
            .pos(plotters::style::text_anchor::Pos::new(
                hpos,
                plotters::style::text_anchor::VPos::Bottom,
            ));
    let label = format!("n = {}: ρ_b = {}", d.length, d.ratio_label);
    chart.draw_series(std::iter::once(
        EmptyElement::at(point) + Text::new(label, (dx, -theme.ipx(10.0)), style),
    ))?;
    // The legend takes the corner the line leaves free: lower right when it rises.
    let corner = if d.log_ratio >= 0.0 {
        (0.56, 0.66)
    } else {
        (0.56, 0.14)
    };
    swatch_legend(
        area,
        theme,
        corner,
        &[
            (theme.colors.blue, "полоса 1 ± ε"),
            (theme.colors.grey, "отсюда ρ_b вне полосы"),
        ],
    )?;
    Ok(())
}
