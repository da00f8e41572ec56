//! Shared look: colours, and sizes that scale with the device pixel ratio so that a canvas
//! whose backing store is CSS size × DPR stays crisp and keeps its proportions.

use super::marks::{self, LegendBox, Mark};
pub use crate::text::decimal;
use plotters::chart::{ChartBuilder, ChartContext, MeshStyle};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::{CoordTranslate, Shift};
use plotters::drawing::DrawingAreaErrorKind;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::series::DashedLineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontDesc, FontFamily, RGBColor, ShapeStyle};

/// Sizes and colours of one rendering.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// Device pixels per CSS pixel (1 for SVG).
    pub scale: f64,
    /// The colours: the page's theme (light, dark, high contrast), or the light one natively.
    pub colors: Palette,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            scale: 1.0,
            colors: Palette::LIGHT,
        }
    }
}

/// A figure's colours. On the page they come from the theme's CSS custom properties
/// (`--fig-*` in book.css, read by theme.js and set with [`set_palette`]), so a colour is
/// written once; natively (SVG) the light theme's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// The figure's background.
    pub paper: RGBColor,
    /// Text.
    pub ink: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// Positive advantage, or the main series.
    pub blue: RGBColor,
    /// Negative advantage, or the second series.
    pub red: RGBColor,
    /// A third series.
    pub green: RGBColor,
    /// Reference marks, guides and axes.
    pub grey: RGBColor,
    /// A fourth series (a comparison's second configuration).
    pub orange: RGBColor,
    /// A fifth series (a comparison's fourth configuration).
    pub purple: RGBColor,
}

impl Palette {
    /// The light theme (book.css's `:root`).
    pub const LIGHT: Palette = Palette {
        paper: RGBColor(255, 255, 255),
        ink: RGBColor(30, 30, 30),
        grid: RGBColor(235, 235, 235),
        blue: RGBColor(31, 104, 178),
        red: RGBColor(200, 60, 45),
        green: RGBColor(40, 140, 80),
        grey: RGBColor(120, 120, 120),
        orange: RGBColor(214, 110, 0),
        purple: RGBColor(120, 70, 160),
    };

    /// The palette of nine `#rrggbb` colours in the field order (paper, ink, grid, blue, red,
    /// green, grey, orange, purple), as the page reads them from its CSS.
    pub fn from_hex(colors: &[String]) -> crate::Result<Palette> {
        let parse = |i: usize| -> crate::Result<RGBColor> {
            let text = colors.get(i).map(|c| c.trim()).unwrap_or("");
            let hex = text
                .strip_prefix('#')
                .filter(|h| h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()));
            let byte = |k: usize| hex.and_then(|h| u8::from_str_radix(&h[k..k + 2], 16).ok());
            match (byte(0), byte(2), byte(4)) {
                (Some(r), Some(g), Some(b)) => Ok(RGBColor(r, g, b)),
                _ => Err(crate::Error::parse(
                    format!("figure colour {}", i + 1),
                    text,
                    "not #rrggbb",
                )),
            }
        };
        Ok(Palette {
            paper: parse(0)?,
            ink: parse(1)?,
            grid: parse(2)?,
            blue: parse(3)?,
            red: parse(4)?,
            green: parse(5)?,
            grey: parse(6)?,
            orange: parse(7)?,
            purple: parse(8)?,
        })
    }
}

std::thread_local! {
    /// The page's current palette: every canvas drawn from now on takes it.
    static PALETTE: std::cell::Cell<Palette> = const { std::cell::Cell::new(Palette::LIGHT) };
}

/// Sets the palette of every figure drawn after it (the page calls this on a theme change).
pub fn set_palette(palette: Palette) {
    PALETTE.with(|p| p.set(palette));
}

impl Theme {
    /// A theme for a canvas with `device_pixel_ratio` (clamped to a sane range).
    pub fn for_dpr(device_pixel_ratio: f64) -> Self {
        let scale = if device_pixel_ratio.is_finite() {
            device_pixel_ratio.clamp(0.5, 4.0)
        } else {
            1.0
        };
        Theme {
            scale,
            colors: PALETTE.with(|p| p.get()),
        }
    }

    /// `css_px` CSS pixels in device pixels.
    pub fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }

    /// Same, signed (for offsets).
    pub fn ipx(&self, css_px: f64) -> i32 {
        (css_px * self.scale).round() as i32
    }

    /// A sans-serif font of `css_px` CSS pixels.
    pub fn font(&self, css_px: f64) -> FontDesc<'static> {
        FontDesc::new(
            FontFamily::SansSerif,
            css_px * self.scale,
            plotters::style::FontStyle::Normal,
        )
    }
}

impl Theme {
    /// A chart in the house style: `caption` on top, label areas of `x_area` and `y_area` CSS
    /// pixels for the axes' tick labels and descriptions.
    pub fn chart<'a, 'b, DB: DrawingBackend>(
        &self,
        area: &'a DrawingArea<DB, Shift>,
        caption: &str,
        x_area: f64,
        y_area: f64,
    ) -> ChartBuilder<'a, 'b, DB> {
        let mut builder = ChartBuilder::on(area);
        builder
            .caption(caption, self.font(14.0).color(&self.colors.ink))
            .margin(self.px(6.0))
            .margin_right(self.px(16.0))
            .x_label_area_size(self.px(x_area))
            .y_label_area_size(self.px(y_area));
        builder
    }

    /// Grid, axes and label fonts in the house style; the caller adds ticks and descriptions.
    pub fn mesh<'m, 'a, 'b, X, Y, XT, YT, DB>(
        &self,
        mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    ) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
    where
        X: Ranged<ValueType = XT> + ValueFormatter<XT>,
        Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
        DB: DrawingBackend,
    {
        mesh.light_line_style(self.colors.paper)
            .bold_line_style(self.colors.grid.stroke_width(self.px(1.0)))
            .axis_style(self.colors.grey.stroke_width(self.px(1.0)))
            .label_style(self.font(11.0).color(&self.colors.ink))
            .axis_desc_style(self.font(12.0).color(&self.colors.ink))
    }

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

/// An area split in two: the chart's part and the legend's strip.
pub type Split<DB> = (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>);

/// An area and, on a phone, the legend's strip split off it.
pub type MaybeSplit<DB> = (DrawingArea<DB, Shift>, Option<DrawingArea<DB, Shift>>);

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

    /// On a narrow `area` (a phone), splits off a strip at the bottom for `entries` legend
    /// lines: `(chart area, Some(strip))`; otherwise `(area, None)` and the legend goes inside.
    pub fn legend_strip<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        entries: usize,
    ) -> (DrawingArea<DB, Shift>, Option<DrawingArea<DB, Shift>>) {
        let (w, h) = area.dim_in_pixel();
        if f64::from(w) / self.scale >= NARROW_CSS_PX {
            return (area.clone(), None);
        }
        let strip = (self.px(16.0 * entries as f64 + 6.0)).min(h / 2);
        let (chart, below) = area.split_vertically(h - strip);
        (chart, Some(below))
    }

    /// The legend of a chart drawn by [`Theme::legend_strip`]'s split: in the strip under the
    /// chart when there is one (a phone), otherwise boxed inside the chart ([`Theme::legend`]).
    pub fn place_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
        &self,
        strip: Option<&DrawingArea<DB, Shift>>,
        chart: &ChartContext<'a, DB, CT>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match strip {
            Some(strip) => self.strip_legend(strip, entries),
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

    /// For a panel too full for a legend anywhere inside (a cloud of points over its whole
    /// width): splits off a strip at the bottom of `area` where `entries` go side by side
    /// ([`Theme::row_legend`]); `(chart area, strip)`.
    pub fn row_strip<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<Split<DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        let rows = self
            .legend_rows(area, entries)?
            .last()
            .map_or(1, |r| r.1 + 1);
        let h = area.dim_in_pixel().1;
        let strip = self.px(16.0 * f64::from(rows as u32) + 6.0).min(h / 3);
        Ok(area.split_vertically(h - strip))
    }

    /// On a phone ([`Theme::is_narrow`] of `whole`), [`Theme::row_strip`] of `area`; otherwise
    /// `area` whole and no strip (the legend goes inside, [`Theme::legend_or_row`]).
    pub fn row_strip_if_narrow<DB: DrawingBackend>(
        &self,
        whole: &DrawingArea<DB, Shift>,
        area: DrawingArea<DB, Shift>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<MaybeSplit<DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        if self.is_narrow(whole) {
            let (chart, strip) = self.row_strip(&area, entries)?;
            Ok((chart, Some(strip)))
        } else {
            Ok((area, None))
        }
    }

    /// The legend in `strip` side by side when there is one, else inside `chart`.
    pub fn legend_or_row<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
        &self,
        strip: Option<&DrawingArea<DB, Shift>>,
        chart: &ChartContext<'a, DB, CT>,
        entries: &[(ShapeStyle, &str)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match strip {
            Some(strip) => self.row_legend(strip, entries),
            None => self.legend(chart, entries),
        }
    }

    /// The legend in a [`Theme::row_strip`]'s strip: entries side by side, wrapped to rows.
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

    /// A thin grey dashed line from `from` to `to`: a level or a marker the data is read
    /// against, drawn the same in every figure.
    pub fn guide(
        &self,
        from: (f64, f64),
        to: (f64, f64),
    ) -> DashedLineSeries<std::array::IntoIter<(f64, f64), 2>, u32> {
        DashedLineSeries::new(
            [from, to],
            self.px(4.0),
            self.px(3.0),
            self.colors.grey.stroke_width(self.px(1.0)),
        )
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

/// A legend of colour patches (an entry's colour and label), placed like every legend by
/// [`Theme::legend`] where `chart` shows no data.
pub(crate) fn swatch_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &ChartContext<'a, DB, CT>,
    theme: Theme,
    entries: &[(RGBColor, &str)],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let entries: Vec<(ShapeStyle, &str)> = entries
        .iter()
        .map(|(color, label)| (color.filled(), *label))
        .collect();
    theme.legend(chart, &entries)
}

/// At most `most` tick labels on an axis over `lo..hi` whose labels show `digits` decimals.
/// plotters picks "nice" steps finer than such a label can show on a short range (a run of one
/// update read «0 0 0 1 1 1»), so the count is capped by the distinct labels the range holds.
pub fn tick_count(lo: f64, hi: f64, digits: usize, most: usize) -> usize {
    let unit = (0..digits).fold(1.0, |u, _| u / 10.0);
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return 1;
    }
    let fit = (span / unit + 1e-9).floor();
    if fit >= most as f64 {
        most
    } else {
        (fit as usize + 1).clamp(1, most)
    }
}

/// A tick label with `digits` decimals, or nothing for a tick between the values such a label
/// can show (with [`tick_count`] no two ticks of an axis then read the same).
pub fn tick_label(x: f64, digits: usize) -> String {
    let scale = (0..digits).fold(1.0, |s, _| s * 10.0);
    let scaled = x * scale;
    if (scaled - scaled.round()).abs() > 1e-6 * scale.max(1.0) {
        String::new()
    } else {
        decimal(x, digits)
    }
}

#[cfg(test)]
mod tick_tests {
    use super::{tick_count, tick_label};

    #[test]
    fn short_ranges_get_fewer_ticks_and_no_label_between_values() {
        assert_eq!(tick_count(0.0, 1.0, 0, 6), 2);
        assert_eq!(tick_count(0.0, 2.0, 0, 6), 3);
        assert_eq!(tick_count(0.0, 3.0, 0, 6), 4);
        assert_eq!(tick_count(0.0, 500.0, 0, 6), 6);
        assert_eq!(tick_count(0.0, 0.05, 2, 6), 6);
        assert_eq!(tick_count(0.0, 0.03, 2, 6), 4);
        assert_eq!(tick_count(1.0, 1.0, 0, 6), 1);
        assert_eq!(tick_label(2.0, 0), "2");
        assert_eq!(tick_label(0.5, 0), "");
        assert_eq!(tick_label(0.25, 2), "0,25");
        assert_eq!(tick_label(0.255, 2), "");
        assert_eq!(tick_label(-3.0, 0), "−3");
    }
}

#[cfg(test)]
mod palette_tests {
    use super::Palette;

    const FIELDS: [&str; 9] = [
        "paper", "ink", "grid", "blue", "red", "green", "grey", "orange", "purple",
    ];

    /// The page's light theme (book.css's first `--fig-*` values) is the SVG's palette, and
    /// the page's nine colours are read in set_palette's order.
    #[test]
    fn the_light_palette_is_the_pages_light_theme() {
        let css = include_str!("../../www/css/book.css");
        let colors: Vec<String> = FIELDS
            .iter()
            .map(|f| {
                let key = format!("--fig-{f}:");
                let at = css.find(&key).map(|i| i + key.len()).unwrap_or(0);
                css[at..].split(';').next().unwrap_or("").trim().to_string()
            })
            .collect();
        assert_eq!(Palette::from_hex(&colors).ok(), Some(Palette::LIGHT));
    }

    #[test]
    fn a_colour_that_is_not_rrggbb_is_refused_with_its_position() {
        let mut colors: Vec<String> = vec!["#000000".into(); 9];
        assert!(Palette::from_hex(&colors).is_ok());
        for bad in [
            "",
            "#fff",
            "rgb(0, 0, 0)",
            "#12345g",
            "#1234567",
            "#aéxyz",
            "#+f+f+f",
        ] {
            colors[4] = bad.into();
            let error = Palette::from_hex(&colors).err().map(|e| e.to_string());
            assert!(
                error.as_deref().is_some_and(|e| e.contains("colour 5")),
                "{bad:?}: {error:?}"
            );
        }
        assert!(Palette::from_hex(&colors[..8]).is_err());
    }
}
