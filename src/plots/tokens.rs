//! The token figure: the lesson's two-row batch after the causal shift — which labels the
//! response mask keeps, the token ratios against the clip band, and the clipped terms. The
//! batch and its terms come from the lesson (`lessons::tokens`).

use super::theme::{swatch_legend, Theme, BLUE, GREY, INK, RED};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the figure draws; every grid is `[B, T−1]`, one column per label position.
#[derive(Debug, Clone)]
pub struct Data {
    /// The clip range ε: the band [1 − ε, 1 + ε].
    pub clip_epsilon: f64,
    /// The label token of each position (written under its column).
    pub labels: Vec<Vec<i64>>,
    /// 1 where the label is a response token.
    pub mask: Vec<Vec<f64>>,
    /// Token probability ratios (exactly 1 off the mask).
    pub ratio: Vec<Vec<f64>>,
    /// r·A per position.
    pub unclipped: Vec<Vec<f64>>,
    /// min(r·A, clip(r)·A) per position.
    pub pessimistic: Vec<Vec<f64>>,
    /// One advantage per row.
    pub advantages: Vec<f64>,
}

/// x position of column k of row b: the rows side by side with a gap.
fn x_of(b: usize, k: usize, t: usize) -> f64 {
    (b * (t + 1) + k) as f64
}

/// Draws the ratios (top) and the terms (bottom) of every label position.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    let (tk, theme, clip_epsilon) = (data, *theme, data.clip_epsilon);
    let t = tk.mask.first().map_or(0, Vec::len);
    if t == 0 {
        return Err(crate::Error::range(
            "mask",
            crate::error::Rule::NonEmpty,
            0usize,
        ));
    }
    let x_max = x_of(tk.mask.len() - 1, t - 1, t) + 0.7;
    area.fill(&WHITE)?;
    let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 / 2);

    let mut chart = theme
        .chart(
            &top,
            "Отношения вероятностей токенов (маска ответа)",
            26.0,
            40.0,
        )
        .build_cartesian_2d(-0.7..x_max, 0.5..1.5)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_desc("r")
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    let band = [(-0.7, 1.0 - clip_epsilon), (x_max, 1.0 + clip_epsilon)];
    chart.draw_series(std::iter::once(Rectangle::new(
        band,
        BLUE.mix(0.10).filled(),
    )))?;
    for (b, row) in tk.mask.iter().enumerate() {
        for (k, &m) in row.iter().enumerate() {
            let x = x_of(b, k, t);
            let label = tk.labels[b][k];
            let ratio = tk.ratio[b][k];
            if m == 1.0 {
                let outside = ratio < 1.0 - clip_epsilon || ratio > 1.0 + clip_epsilon;
                let color = if outside { RED } else { BLUE };
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.35, 1.0), (x + 0.35, ratio.clamp(0.5, 1.5))],
                    color.mix(0.8).filled(),
                )))?;
            } else {
                // Off the mask: the ratio is exactly 1 and the label takes no part.
                chart.draw_series(std::iter::once(Cross::new(
                    (x, 1.0),
                    theme.ipx(4.0),
                    GREY.stroke_width(theme.px(1.5)),
                )))?;
            }
            chart.draw_series(std::iter::once(Text::new(
                format!("{label}"),
                (x - 0.25, 0.58),
                theme.font(11.0).color(&INK),
            )))?;
        }
    }
    swatch_legend(
        &top,
        theme,
        (0.70, 0.13),
        &[
            (BLUE, "в маске, внутри 1 ± ε"),
            (RED, "в маске, вне 1 ± ε"),
            (GREY, "вне маски (r = 1)"),
        ],
    )?;

    // Bottom: unclipped r·A (outline) and the pessimistic term (filled) per kept label.
    let mut chart = theme
        .chart(
            &bottom,
            "Члены r·A (контур) и min(r·A, clip(r)·A) (заливка)",
            26.0,
            40.0,
        )
        .build_cartesian_2d(-0.7..x_max, -1.2..2.2)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_desc("член цели")
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(-0.7, 0.0), (x_max, 0.0)],
        GREY.stroke_width(theme.px(1.0)),
    ))?;
    for (b, row) in tk.mask.iter().enumerate() {
        let color = if tk.advantages[b] > 0.0 { BLUE } else { RED };
        for (k, &m) in row.iter().enumerate() {
            if m != 1.0 {
                continue;
            }
            let x = x_of(b, k, t);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.35, 0.0), (x + 0.35, tk.pessimistic[b][k])],
                color.mix(0.75).filled(),
            )))?;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.35, 0.0), (x + 0.35, tk.unclipped[b][k])],
                color.stroke_width(theme.px(1.5)),
            )))?;
        }
        let mid = x_of(b, t / 2, t) - 1.0;
        let caption = format!("строка {}: A = {}", b + 1, tk.advantages[b]).replace('-', "−");
        chart.draw_series(std::iter::once(Text::new(
            caption,
            (mid, 2.0),
            theme.font(11.0).color(&INK),
        )))?;
    }
    Ok(())
}
