//! The PPO clipping figure: the per-sample objective min(r·A, clip(r, 1−ε, 1+ε)·A) against the
//! probability ratio r, for A > 0 and A < 0, with the flat (clipped, zero-gradient) regions
//! shaded and the lesson's worked rows marked. The curves and rows come from the lesson
//! (`lessons::clipping`).

use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A worked row on a panel.
#[derive(Debug, Clone)]
pub struct Marker {
    /// Drawn beside the marker (the row number).
    pub label: String,
    /// Its ratio r (x).
    pub ratio: f64,
    /// Its pessimistic term (y).
    pub objective: f64,
    /// Whether clipping is active (filled marker) or not (outline).
    pub active: bool,
}

/// One panel: one sign of the advantage.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The advantage A of the panel; its sign picks colour, caption and y range.
    pub advantage: f64,
    /// (r, r·A), drawn dashed.
    pub unclipped: Vec<(f64, f64)>,
    /// (r, min(r·A, clip(r)·A)), drawn solid.
    pub pessimistic: Vec<(f64, f64)>,
    /// The worked rows with this sign of A.
    pub markers: Vec<Marker>,
}

/// Everything the figure draws.
#[derive(Debug, Clone)]
pub struct Data {
    /// The clip range ε: the band [1 − ε, 1 + ε].
    pub clip_epsilon: f64,
    /// The ratio axis runs over 0 … r_max.
    pub r_max: f64,
    /// The panels, left to right.
    pub panels: Vec<Panel>,
}

/// Draws the panels side by side into `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    area.fill(&theme.colors.paper)?;
    let cells = area.split_evenly((1, data.panels.len().max(1)));
    for (cell, panel) in cells.iter().zip(&data.panels) {
        draw_panel(cell, data, panel, *theme)?;
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    panel: &Panel,
    theme: Theme,
) -> Result<()> {
    let (eps, r_max, advantage) = (data.clip_epsilon, data.r_max, panel.advantage);
    let color = if advantage > 0.0 {
        theme.colors.blue
    } else {
        theme.colors.red
    };
    let (y_lo, y_hi) = if advantage > 0.0 {
        (-0.15, 2.1)
    } else {
        (-2.1, 0.15)
    };
    let caption = if advantage > 0.0 {
        "A > 0 (A = +1)"
    } else {
        "A < 0 (A = −1)"
    };
    let mut chart = theme
        .chart(area, caption, 36.0, 44.0)
        .build_cartesian_2d(0.0..r_max, y_lo..y_hi)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(5)
        .y_labels(5)
        .x_desc("отношение вероятностей r")
        .y_desc("вклад в цель")
        .x_label_formatter(&|x| decimal(*x, 1))
        .y_label_formatter(&|y| decimal(*y, 1))
        .draw()?;

    // The flat region, where the minimum picks the clipped term and the gradient is zero.
    let flat = if advantage > 0.0 {
        (1.0 + eps, r_max)
    } else {
        (0.0, 1.0 - eps)
    };
    chart.draw_series(std::iter::once(Rectangle::new(
        [(flat.0, y_lo), (flat.1, y_hi)],
        color.mix(0.12).filled(),
    )))?;
    let guide = theme.colors.grey.stroke_width(theme.px(1.0));
    for r in [1.0 - eps, 1.0 + eps] {
        chart.draw_series(DashedLineSeries::new(
            [(r, y_lo), (r, y_hi)],
            theme.px(4.0),
            theme.px(4.0),
            guide,
        ))?;
    }

    // The unclipped term r·A (dashed) and the pessimistic minimum PPO maximises (solid).
    chart.draw_series(DashedLineSeries::new(
        panel.unclipped.iter().copied(),
        theme.px(6.0),
        theme.px(4.0),
        theme.colors.grey.stroke_width(theme.px(1.5)),
    ))?;
    chart.draw_series(LineSeries::new(
        panel.pessimistic.iter().copied(),
        color.stroke_width(theme.px(3.0)),
    ))?;

    // The worked rows with this sign of A: filled where clipping is active.
    for m in &panel.markers {
        let point = (m.ratio, m.objective);
        let size = theme.ipx(6.0);
        let style = if m.active {
            color.filled()
        } else {
            color.stroke_width(theme.px(2.0))
        };
        chart.draw_series(std::iter::once(Circle::new(point, size, style)))?;
        // The row number beside its marker, offset in pixels so it never covers the point.
        let label = EmptyElement::at(point)
            + Text::new(
                m.label.clone(),
                (theme.ipx(7.0), -theme.ipx(20.0)),
                theme.font(12.0).color(&theme.colors.ink),
            );
        chart.draw_series(std::iter::once(label))?;
    }
    Ok(())
}
