//! Lesson 8's attention figure: one heat map per head of every block. A row is one step of the
//! answer (labelled with the token that step chose), a column a position it could read (the
//! prompt, then the answer so far); the colour is the attention weight, from the paper's
//! colour at 0 to full blue at 1, and a red frame marks the prompt token the step needs. The
//! weights come from the lesson (`lessons::attention`).

use super::legend::NARROW_CSS_PX;
use super::theme::Theme;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One head's weights: `weights[step][position]` over the positions read so far.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadMap {
    /// «блок 1, голова 2».
    pub title: String,
    pub weights: Vec<Vec<f64>>,
}

/// Everything the figure draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    /// The token at every position (the prompt first).
    pub keys: Vec<String>,
    /// The token each answer step chose (one per row).
    pub queries: Vec<String>,
    /// Positions of the prompt (the rest are the answer's).
    pub prompt_len: usize,
    /// Per answer step, the position it needs (the symbol to repeat), if any.
    pub needed: Vec<Option<usize>>,
    /// Every head, block after block.
    pub heads: Vec<HeadMap>,
    /// Heads per row of panels (a block's heads side by side).
    pub columns: usize,
}

/// Draws every head's map in a grid, with a one-line key under it.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    let theme = *theme;
    area.fill(&theme.colors.paper)?;
    if data.heads.is_empty() || data.queries.is_empty() {
        return Err(crate::Error::range(
            "heads",
            crate::error::Rule::NonEmpty,
            0usize,
        ));
    }
    let narrow = f64::from(area.dim_in_pixel().0) / theme.scale < NARROW_CSS_PX;
    let columns = if narrow {
        data.columns.clamp(1, 2)
    } else {
        data.columns.max(1)
    };
    let rows = data.heads.len().div_ceil(columns);
    let key_h = theme.px(34.0);
    let (grid, key) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(key_h));
    legend(&key, theme)?;
    let panels = grid.split_evenly((rows, columns));
    for (i, (head, panel)) in data.heads.iter().zip(&panels).enumerate() {
        heat_map(panel, data, head, theme, i % columns == 0, narrow)?;
    }
    Ok(())
}

/// One head: its title, the row labels (on the grid's first column), the cells, the frames.
fn heat_map<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    data: &Data,
    head: &HeadMap,
    theme: Theme,
    first_column: bool,
    narrow: bool,
) -> Result<()> {
    let (w, h) = panel.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let font = |size: f64| theme.font(size).color(&theme.colors.ink);
    let title_h = theme.ipx(18.0);
    let label_w = if first_column {
        theme.ipx(34.0)
    } else {
        theme.ipx(6.0)
    };
    let keys_h = theme.ipx(if narrow { 14.0 } else { 16.0 });
    let pad = theme.ipx(6.0);
    panel.draw(&Text::new(
        head.title.clone(),
        (label_w, theme.ipx(2.0)),
        font(12.0),
    ))?;
    let n_keys = data.keys.len().max(1) as i32;
    let n_rows = head.weights.len().max(1) as i32;
    let cell_w = ((w - label_w - pad) / n_keys).max(1);
    let cell_h = ((h - title_h - keys_h - pad) / n_rows).clamp(1, theme.ipx(26.0));
    let x0 = label_w;
    let y0 = title_h;
    let blue = theme.colors.blue;
    for (r, row) in head.weights.iter().enumerate() {
        let y = y0 + r as i32 * cell_h;
        if first_column {
            panel.draw(&Text::new(
                format!("→ {}", data.queries.get(r).map_or("", String::as_str)),
                (x0 - theme.ipx(3.0), y + cell_h / 2),
                theme
                    .font(11.0)
                    .color(&theme.colors.ink)
                    .pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        for (k, &weight) in row.iter().enumerate() {
            let x = x0 + k as i32 * cell_w;
            let shade = weight.clamp(0.0, 1.0);
            panel.draw(&Rectangle::new(
                [(x, y), (x + cell_w - 1, y + cell_h - 1)],
                blue.mix(0.06 + 0.94 * shade).filled(),
            ))?;
        }
        // Positions the step could not read yet: the grid's own colour, a thin border.
        for k in row.len()..data.keys.len() {
            let x = x0 + k as i32 * cell_w;
            panel.draw(&Rectangle::new(
                [(x, y), (x + cell_w - 1, y + cell_h - 1)],
                theme.colors.grid.stroke_width(1),
            ))?;
        }
        if let Some(k) = data.needed.get(r).copied().flatten() {
            let x = x0 + k as i32 * cell_w;
            panel.draw(&Rectangle::new(
                [(x, y), (x + cell_w - 1, y + cell_h - 1)],
                theme.colors.red.stroke_width(theme.px(2.0)),
            ))?;
        }
    }
    // The positions' tokens under the cells; the prompt's apart from the answer's by a rule.
    let y_keys = y0 + n_rows * cell_h + theme.ipx(2.0);
    let size = if narrow || cell_w < theme.ipx(30.0) {
        9.0
    } else {
        11.0
    };
    for (k, token) in data.keys.iter().enumerate() {
        let x = x0 + k as i32 * cell_w + cell_w / 2;
        let short = match token.as_str() {
            "<bos>" => "bos",
            "<eos>" => "eos",
            t => t,
        };
        panel.draw(&Text::new(
            short.to_string(),
            (x, y_keys),
            theme
                .font(size)
                .color(&theme.colors.ink)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    let x_rule = x0 + data.prompt_len as i32 * cell_w;
    panel.draw(&PathElement::new(
        [
            (x_rule, y0 - theme.ipx(2.0)),
            (x_rule, y0 + n_rows * cell_h),
        ],
        theme.colors.ink.stroke_width(theme.px(1.0)),
    ))?;
    Ok(())
}

/// The key: what the colour and the frame mean.
fn legend<DB: DrawingBackend>(strip: &DrawingArea<DB, Shift>, theme: Theme) -> Result<()> {
    let font = theme.font(11.0).color(&theme.colors.ink);
    let x = theme.ipx(8.0);
    for (i, shade) in [0.0, 0.5, 1.0].into_iter().enumerate() {
        let xs = x + theme.ipx(14.0 * i as f64);
        strip.draw(&Rectangle::new(
            [
                (xs, theme.ipx(3.0)),
                (xs + theme.ipx(12.0), theme.ipx(13.0)),
            ],
            theme.colors.blue.mix(0.06 + 0.94 * shade).filled(),
        ))?;
    }
    let text = if f64::from(strip.dim_in_pixel().0) / theme.scale < NARROW_CSS_PX {
        "вес внимания от 0 до 1"
    } else {
        "вес внимания от 0 до 1 (строка — шаг ответа, столбец — позиция; справа от черты — ответ)"
    };
    strip.draw(&Text::new(
        text,
        (x + theme.ipx(46.0), theme.ipx(2.0)),
        font.clone(),
    ))?;
    let (frame_x, frame_y) = (x, theme.ipx(18.0));
    strip.draw(&Rectangle::new(
        [
            (frame_x, frame_y + theme.ipx(1.0)),
            (frame_x + theme.ipx(12.0), frame_y + theme.ipx(11.0)),
        ],
        theme.colors.red.stroke_width(theme.px(2.0)),
    ))?;
    strip.draw(&Text::new(
        "нужный токен запроса",
        (frame_x + theme.ipx(18.0), frame_y),
        font,
    ))?;
    Ok(())
}
