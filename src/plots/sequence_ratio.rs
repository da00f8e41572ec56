//! The sequence-ratio figure (lesson 7): ln ρ_b = n·δ against the answer's length n when every
//! token's log-ratio moved by δ, against the band ln(1 ± ε) — a product of ratios near 1 is not
//! near 1. Computed in `lessons::tokens::sequence_ratio_figure`.

use super::legend::swatch_legend;
use super::theme::{decimal, Theme};
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

/// Half the y axis's range: three to four widths of the band's wider side, never the line's
/// whole range (the band must stay visible).
pub(crate) fn y_reach(d: &Data) -> f64 {
    let b = d.band.0.abs().max(d.band.1.abs()).max(1e-6);
    (d.log_ratio.abs() * 1.15).clamp(3.0 * b, 4.0 * b)
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
    // The y axis stays near the band: beside n·δ of a long answer, ln(1 ± ε) would be a
    // hairline. Three to four band widths each side; the line leaves the frame past them, and
    // a chosen point beyond sits on the edge, its label giving the true ρ_b.
    let reach = y_reach(d);
    let (lo, hi) = (-reach, reach);
    let inside = |&(x, y): &(f64, f64)| -> (f64, f64) {
        match (y > reach, y < -reach) {
            // Where the line y = x·(y/x) crosses the edge.
            (true, _) => (x * reach / y, reach),
            (_, true) => (x * -reach / y, -reach),
            _ => (x, y),
        }
    };
    let mut line: Vec<(f64, f64)> = Vec::new();
    for p in &d.curve {
        let q = inside(p);
        line.push(q);
        if q != *p {
            break;
        }
    }
    let mut chart = theme
        .chart(
            area,
            "Логарифм отношения ответа: ln ρ_b = n·δ (крупно — у полосы)",
            36.0,
            52.0,
        )
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
        line.iter().copied(),
        theme.colors.ink.stroke_width(theme.px(2.0)),
    ))?;
    let point = (d.length as f64, d.log_ratio.clamp(lo, hi));
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
    // Above the point, or below it when it sits on the top edge.
    let on_top = d.log_ratio >= hi;
    let (vpos, dy) = if on_top {
        (plotters::style::text_anchor::VPos::Top, theme.ipx(10.0))
    } else {
        (plotters::style::text_anchor::VPos::Bottom, -theme.ipx(10.0))
    };
    let style = theme
        .font(12.0)
        .color(&theme.colors.red)
        .pos(plotters::style::text_anchor::Pos::new(hpos, vpos));
    let beyond = match d.log_ratio {
        y if y > hi => " ↑",
        y if y < lo => " ↓",
        _ => "",
    };
    let label = format!("n = {}: ρ_b = {}{beyond}", d.length, d.ratio_label);
    chart.draw_series(std::iter::once(
        EmptyElement::at(point) + Text::new(label, (dx, dy), style),
    ))?;
    swatch_legend(
        &chart,
        theme,
        &[
            (theme.colors.blue, "полоса 1 ± ε"),
            (theme.colors.grey, "отсюда ρ_b вне полосы"),
        ],
    )?;
    Ok(())
}
