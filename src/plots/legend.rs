//! Legends: where a figure's legend goes (boxed inside a chart where no data is, in a row under
//! its panel, or in a strip of lines on a phone) and how it is drawn. [`Theme::fit_legends`]
//! chooses the layout per rendering from what [`marks`] logged.

use super::marks::{self, LegendBox, Mark};
use super::theme::Theme;
use plotters::chart::ChartContext;
use plotters::coord::{CoordTranslate, Shift};
use plotters::drawing::DrawingAreaErrorKind;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, ShapeStyle};

impl Theme {
    /// Length of a legend's sample line (or patch), in backend pixels.
    pub fn legend_sample(&self) -> i32 {
        self.px(18.0) as i32
    }

    /// Draws one legend entry's sample with its left end at `(x, mid)`: a filled style as a
    /// patch, a stroke as a line.
    fn legend_entry_sample<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, mid): (i32, i32),
        style: ShapeStyle,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let sample = self.legend_sample();
        if style.filled {
            let half = self.ipx(5.0);
            area.draw(&Rectangle::new(
                [(x, mid - half), (x + sample, mid + half)],
                style,
            ))
        } else {
            area.draw(&PathElement::new(vec![(x, mid), (x + sample, mid)], style))
        }
    }

    /// Draws a boxed legend of `entries` (a series' style and its label) inside `chart`'s
    /// plotting area where it covers no data: the first free place of
    /// [`marks::free_spot`]'s fixed order among what the figure has drawn so far (the
    /// [`marks::Recording`] log), else the least-covered one. Call it after the data. The labels
    /// are measured by the backend (on the page, the canvas's `measureText`; plotters' own
    /// series labels measure each line in the page's layout, which costs a reflow per label).
    pub fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
        &self,
        chart: &ChartContext<'a, DB, CT>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let area = chart.plotting_area().strip_coord_spec();
        let font = self.font(12.0).color(&self.colors.ink);
        let mut text_w = 0;
        let mut row_h = self.ipx(16.0);
        for (_, label) in entries {
            let (w, h) = area.estimate_text_size(label, &font)?;
            text_w = text_w.max(w as i32);
            row_h = row_h.max(h as i32 + self.ipx(2.0));
        }
        let (pad, gap, margin) = (self.ipx(6.0), self.ipx(6.0), self.ipx(8.0));
        let box_w = 2 * pad + self.legend_sample() + gap + text_w;
        let box_h = 2 * pad + row_h * entries.len() as i32;
        let (w, h) = area.dim_in_pixel();
        let (bx, by) = area.get_base_pixel();
        let plot = ((bx, by), (bx + w as i32 - 1, by + h as i32 - 1));
        let (placed, after) = marks::with_marks(|drawn| {
            let data: Vec<&Mark> = drawn.iter().filter(|m| self.is_data(m)).collect();
            let placed = marks::free_spot(&data, plot, (box_w, box_h), margin);
            (placed, drawn.len())
        });
        let (rect, free) = match placed {
            Ok(rect) => (rect, true),
            Err(rect) => (rect, false),
        };
        marks::log_legend(LegendBox { rect, free, after });
        let (left, top) = (rect.0 .0 - bx, rect.0 .1 - by);
        let corners = [(left, top), (left + box_w, top + box_h)];
        area.draw(&Rectangle::new(
            corners,
            self.colors.paper.mix(0.85).filled(),
        ))?;
        area.draw(&Rectangle::new(corners, self.colors.grey.mix(0.5)))?;
        for (i, (style, label)) in entries.iter().enumerate() {
            let mid = top + pad + row_h * i as i32 + row_h / 2;
            self.legend_entry_sample(&area, (left + pad, mid), *style)?;
            area.draw(&Text::new(
                label.to_string(),
                (left + pad + self.legend_sample() + gap, mid),
                font.pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        Ok(())
    }

    /// Whether a drawn mark shows data a legend must leave visible: not the paper, the grid,
    /// a hairline in grey (axes, guides, a legend's frame), nor a light shading (a band's or a
    /// region's fill under 35 % opacity, which a legend may lie on where no line, point or bar
    /// is). Grey series drawn thicker, and grey markers, bars and bands, are data.
    pub fn is_data(&self, mark: &Mark) -> bool {
        let rgb = |c: RGBColor| (c.0, c.1, c.2);
        let hairline = mark.width > 0 && mark.width <= self.px(1.0);
        let shading = mark.width == 0 && mark.alpha < 0.35;
        !(shading
            || mark.rgb == rgb(self.colors.paper)
            || mark.rgb == rgb(self.colors.grid)
            || (mark.rgb == rgb(self.colors.grey) && hairline))
    }
}

/// How a figure lays out its legends: boxed inside each chart where no data is, or each in a
/// row of its own under its panel. [`Theme::fit_legends`] chooses per rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Inside the charts, where [`Theme::legend`] finds a free place.
    Inside,
    /// In a strip under each panel ([`Theme::row_strip_if`]): some panel had no free place.
    Rows,
}

/// A strip split off under a chart for its legend, and how the legend fills it.
pub struct Strip<DB: DrawingBackend> {
    /// The strip.
    pub area: DrawingArea<DB, Shift>,
    /// Entries side by side, wrapped to rows ([`Theme::row_legend`]); else one per line
    /// ([`Theme::strip_legend`]).
    pub row: bool,
}

/// An area and, when the legend goes under it, the legend's strip split off it.
pub type MaybeSplit<DB> = (DrawingArea<DB, Shift>, Option<Strip<DB>>);

/// Below this width (CSS pixels) a legend inside a chart covers its data and axis labels:
/// the chart leaves a strip under itself for the legend instead ([`Theme::legend_strip`]).
pub const NARROW_CSS_PX: f64 = 560.0;

impl Theme {
    /// Whether `area` is narrower than [`NARROW_CSS_PX`] CSS pixels (a phone).
    pub fn is_narrow<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> bool {
        f64::from(area.dim_in_pixel().0) / self.scale < NARROW_CSS_PX
    }

    /// Two panels: side by side on a wide `area`, the first taking `share` of its width; on a
    /// narrow one (a phone, where the page gives such figures a taller canvas) one above the
    /// other, each the whole width.
    pub fn panel_pair<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        share: f64,
    ) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
        let (w, h) = area.dim_in_pixel();
        if self.is_narrow(area) {
            area.split_vertically(h / 2)
        } else {
            area.split_horizontally((f64::from(w) * share).round() as u32)
        }
    }

    /// Draws a figure with its legends inside its charts (`draw(Layout::Inside)`) where each finds
    /// a free place, else with each legend in a row under its panel (`draw(Layout::Rows)`): first
    /// laid out muted ([`marks::muted`]: logged, not drawn) to see whether every legend found a
    /// free place inside, then drawn once. No legend covers data.
    pub fn fit_legends(
        &self,
        mut draw: impl FnMut(Layout) -> crate::Result<()>,
    ) -> crate::Result<()> {
        let start = marks::checkpoint();
        marks::muted(|| draw(Layout::Inside))?;
        let rows = !marks::legends_free_since(start);
        marks::rewind(start, rows);
        draw(if rows { Layout::Rows } else { Layout::Inside })
    }

    /// A strip for a chart's legend: in [`Layout::Rows`] a row under the chart; otherwise, on
    /// a phone, one line per entry under it ([`Theme::legend_strip`]), else none.
    pub fn legend_space<DB: DrawingBackend>(
        &self,
        layout: Layout,
        area: &DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<MaybeSplit<DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        match layout {
            Layout::Rows => self.row_strip_if(true, area, entries),
            Layout::Inside => Ok(self.legend_strip(area, entries.len())),
        }
    }

    /// On a narrow `area` (a phone), splits off a strip at the bottom for `entries` legend
    /// lines: `(chart area, Some(strip))`; otherwise `(area, None)` and the legend goes inside.
    pub fn legend_strip<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        entries: usize,
    ) -> MaybeSplit<DB> {
        let (w, h) = area.dim_in_pixel();
        if f64::from(w) / self.scale >= NARROW_CSS_PX {
            return (area.clone(), None);
        }
        let strip = (self.px(16.0 * entries as f64 + 6.0)).min(h / 2);
        let (chart, below) = area.split_vertically(h - strip);
        (
            chart,
            Some(Strip {
                area: below,
                row: false,
            }),
        )
    }

    /// The legend of a chart: in the strip under it when there is one, laid out as the strip
    /// says (side by side in rows, or one per line), otherwise boxed inside the chart where it
    /// covers no data ([`Theme::legend`]).
    pub fn place_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
        &self,
        strip: Option<&Strip<DB>>,
        chart: &ChartContext<'a, DB, CT>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match strip {
            Some(Strip { area, row: true }) => self.row_legend(area, entries),
            Some(Strip { area, row: false }) => self.strip_legend(area, entries),
            None => self.legend(chart, entries),
        }
    }

    /// The rows of a legend laid out side by side across `width` backend pixels: each entry's
    /// left end and row, measured with `area`'s backend.
    fn legend_rows<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<Vec<(i32, i32)>, DrawingAreaErrorKind<DB::ErrorType>> {
        let width = area.dim_in_pixel().0 as i32;
        let font = self.font(12.0).color(&self.colors.ink);
        let (x0, gap) = (self.ipx(12.0), self.ipx(16.0));
        let (mut x, mut row) = (x0, 0);
        let mut out = Vec::with_capacity(entries.len());
        for (_, label) in entries {
            let w = self.legend_sample()
                + self.ipx(6.0)
                + area.estimate_text_size(label, &font)?.0 as i32;
            if x > x0 && x + w > width {
                (x, row) = (x0, row + 1);
            }
            out.push((x, row));
            x += w + gap;
        }
        Ok(out)
    }

    /// With `rows` true, splits off a strip at the bottom of `area` where `entries` go side by
    /// side ([`Theme::row_legend`]): for a panel too full for a legend anywhere inside (a cloud
    /// of points over its whole width, long labels on a phone). Otherwise `area` whole and no
    /// strip (the legend goes inside).
    pub fn row_strip_if<DB: DrawingBackend>(
        &self,
        rows: bool,
        area: &DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<MaybeSplit<DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        if !rows {
            return Ok((area.clone(), None));
        }
        let rows = self
            .legend_rows(area, entries)?
            .last()
            .map_or(1, |r| r.1 + 1);
        let h = area.dim_in_pixel().1;
        let strip = self.px(16.0 * f64::from(rows as u32) + 6.0).min(h / 3);
        let (chart, below) = area.split_vertically(h - strip);
        Ok((
            chart,
            Some(Strip {
                area: below,
                row: true,
            }),
        ))
    }

    /// The legend in a [`Theme::row_strip_if`]'s strip: entries side by side, wrapped to rows.
    pub fn row_legend<DB: DrawingBackend>(
        &self,
        strip: &DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let at = self.legend_rows(strip, entries)?;
        for ((style, label), (x, row)) in entries.iter().zip(at) {
            let mid = self.ipx(11.0) + self.ipx(16.0) * row;
            self.legend_entry_sample(strip, (x, mid), *style)?;
            strip.draw(&Text::new(
                label.to_string(),
                (x + self.legend_sample() + self.ipx(6.0), mid),
                self.font(12.0)
                    .color(&self.colors.ink)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        Ok(())
    }

    /// A legend in its own strip: one line per entry, the series' style as its sample (a
    /// filled style draws a patch, a stroke a line).
    pub fn strip_legend<DB: DrawingBackend>(
        &self,
        strip: &DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let x0 = self.ipx(12.0);
        let sample = self.legend_sample();
        for (i, (style, label)) in entries.iter().enumerate() {
            let y = self.ipx(4.0 + 16.0 * i as f64);
            self.legend_entry_sample(strip, (x0, y + self.ipx(7.0)), *style)?;
            strip.draw(&Text::new(
                label.to_string(),
                (x0 + sample + self.ipx(6.0), y),
                self.font(12.0).color(&self.colors.ink),
            ))?;
        }
        Ok(())
    }
}

/// Legend entries of colour patches: each entry's colour filled, and its label.
pub fn swatches<'l>(entries: &[(RGBColor, &'l str)]) -> Vec<(ShapeStyle, &'l str)> {
    entries
        .iter()
        .map(|(color, label)| (color.filled(), *label))
        .collect()
}

/// A legend of colour patches (an entry's colour and label), placed like every legend by
/// [`Theme::legend`] where `chart` shows no data.
pub(crate) fn swatch_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &ChartContext<'a, DB, CT>,
    theme: Theme,
    entries: &[(RGBColor, &str)],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    theme.legend(chart, &swatches(entries))
}
