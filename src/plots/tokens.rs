//! The token figure: the lesson's two-row batch after the causal shift — which labels the
//! response mask keeps, the token ratios against the clip band, and the clipped terms. The
//! batch and its terms come from the lesson (`lessons::tokens`).

use super::legend::NARROW_CSS_PX;
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What a label position holds (the figure names it under its column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A prompt token: given, not chosen.
    Prompt,
    /// A generated response token.
    Response,
    /// The generated EOS: the decision to stop, an action of the policy.
    Eos,
    /// Padding.
    Pad,
    /// A non-pad token after the first EOS.
    AfterEos,
}

impl TokenKind {
    /// The column's name: full on a wide canvas, short on a narrow one.
    fn name(self, narrow: bool) -> &'static str {
        match (self, narrow) {
            (TokenKind::Prompt, false) => "запрос",
            (TokenKind::Prompt, true) => "зап.",
            (TokenKind::Response, false) => "ответ",
            (TokenKind::Response, true) => "отв.",
            (TokenKind::Eos, _) => "EOS",
            (TokenKind::Pad, _) => "PAD",
            (TokenKind::AfterEos, _) => "после",
        }
    }
}

/// Everything the figure draws; every grid is `[B, T−1]`, one column per label position.
#[derive(Debug, Clone)]
pub struct Data {
    /// The clip range ε: the band [1 − ε, 1 + ε].
    pub clip_epsilon: f64,
    /// What the label of each position is (written under its column with its index k).
    pub labels: Vec<Vec<TokenKind>>,
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
    area.fill(&theme.colors.paper)?;
    let narrow = f64::from(area.dim_in_pixel().0) / theme.scale < NARROW_CSS_PX;
    // One colour code for both panels: blue inside the band, red outside, grey off the mask.
    let legend = [
        (theme.colors.blue, "в маске, r внутри 1 ± ε"),
        (theme.colors.red, "в маске, r вне 1 ± ε"),
        (theme.colors.grey, "вне маски (r = 1)"),
    ];
    let strip_h = theme.px(if narrow { 46.0 } else { 18.0 });
    let (charts, strip) = area.split_vertically(area.dim_in_pixel().1 - strip_h);
    let (top, bottom) = charts.split_vertically(charts.dim_in_pixel().1 / 2);
    flow_legend(&strip, theme, &legend, narrow)?;
    let outside = |ratio: f64| ratio < 1.0 - clip_epsilon || ratio > 1.0 + clip_epsilon;

    let mut chart = theme
        .chart(
            &top,
            "Отношения вероятностей токенов (маска ответа)",
            26.0,
            40.0,
        )
        .build_cartesian_2d(-0.7..x_max, 0.35..1.5)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_desc("r")
        .y_label_formatter(&|y| {
            if *y < 0.55 {
                String::new()
            } else {
                decimal(*y, 1)
            }
        })
        .draw()?;
    let band = [(-0.7, 1.0 - clip_epsilon), (x_max, 1.0 + clip_epsilon)];
    chart.draw_series(std::iter::once(Rectangle::new(
        band,
        theme.colors.blue.mix(0.10).filled(),
    )))?;
    for (b, row) in tk.mask.iter().enumerate() {
        for (k, &m) in row.iter().enumerate() {
            let x = x_of(b, k, t);
            let label = tk.labels[b][k];
            let ratio = tk.ratio[b][k];
            if m == 1.0 {
                let color = if outside(ratio) {
                    theme.colors.red
                } else {
                    theme.colors.blue
                };
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.35, 1.0), (x + 0.35, ratio.clamp(0.5, 1.5))],
                    color.mix(0.8).filled(),
                )))?;
            } else {
                // Off the mask: the ratio is exactly 1 and the label takes no part.
                chart.draw_series(std::iter::once(Cross::new(
                    (x, 1.0),
                    theme.ipx(4.0),
                    theme.colors.grey.stroke_width(theme.px(1.5)),
                )))?;
            }
            let centred = |size: f64| {
                theme
                    .font(size)
                    .color(&theme.colors.ink)
                    .pos(Pos::new(HPos::Center, VPos::Top))
            };
            chart.draw_series(std::iter::once(Text::new(
                label.name(narrow).to_string(),
                (x, 0.66),
                centred(if narrow { 9.0 } else { 11.0 }),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("k = {k}"),
                (x, 0.52),
                centred(if narrow { 8.0 } else { 10.0 }).color(&theme.colors.grey),
            )))?;
        }
    }

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
        .y_label_formatter(&|y| decimal(*y, 1))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(-0.7, 0.0), (x_max, 0.0)],
        theme.colors.grey.stroke_width(theme.px(1.0)),
    ))?;
    for (b, row) in tk.mask.iter().enumerate() {
        for (k, &m) in row.iter().enumerate() {
            if m != 1.0 {
                continue;
            }
            let color = if outside(tk.ratio[b][k]) {
                theme.colors.red
            } else {
                theme.colors.blue
            };
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
        // Over the row's first columns (its prompt: no bars there).
        let mid = x_of(b, 0, t) - 0.4;
        let caption = format!("ответ {}: A = {}", b + 1, decimal(tk.advantages[b], 1));
        chart.draw_series(std::iter::once(Text::new(
            caption,
            (mid, 2.0),
            theme.font(11.0).color(&theme.colors.ink),
        )))?;
    }
    Ok(())
}

/// The legend in its own strip under the panels: one row on a wide canvas, stacked on a narrow
/// one (it never covers a title or the data).
fn flow_legend<DB: DrawingBackend>(
    strip: &DrawingArea<DB, Shift>,
    theme: Theme,
    entries: &[(RGBColor, &str)],
    narrow: bool,
) -> Result<()> {
    let mut x = theme.ipx(44.0);
    for (i, (color, label)) in entries.iter().enumerate() {
        let y = if narrow {
            theme.ipx(15.0 * i as f64)
        } else {
            0
        };
        let x0 = if narrow { theme.ipx(44.0) } else { x };
        strip.draw(&Rectangle::new(
            [
                (x0, y + theme.ipx(4.0)),
                (x0 + theme.ipx(14.0), y + theme.ipx(10.0)),
            ],
            color.mix(0.8).filled(),
        ))?;
        let font = theme.font(11.0).color(&theme.colors.ink);
        strip.draw(&Text::new(
            label.to_string(),
            (x0 + theme.ipx(20.0), y),
            font.clone(),
        ))?;
        let (w, _) = strip.estimate_text_size(label, &font)?;
        x = x0 + theme.ipx(20.0) + w as i32 + theme.ipx(24.0);
    }
    Ok(())
}
