//! Shared look: colours, and sizes that scale with the device pixel ratio so that a canvas
//! whose backing store is CSS size × DPR stays crisp and keeps its proportions.

pub use crate::text::decimal;
use plotters::chart::{ChartBuilder, MeshStyle};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::series::DashedLineSeries;
use plotters::style::{Color, FontDesc, FontFamily, RGBColor};

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
            device_pixel_ratio.clamp(0.5, 8.0)
        } else {
            1.0
        };
        Theme {
            scale,
            colors: PALETTE.with(|p| p.get()),
        }
    }

    /// The projector view's enlargement of a canvas's type, lines and margins, from the canvas's
    /// `data-scale` attribute (www/js/present.js): a number from 1 to 3, anything else 1.
    /// The backing store stays CSS size × DPR, so the enlarged figure is drawn, not zoomed.
    pub fn presentation_scale(attribute: Option<&str>) -> f64 {
        match attribute.map(str::trim).and_then(|a| a.parse::<f64>().ok()) {
            Some(k) if k.is_finite() => k.clamp(1.0, 3.0),
            _ => 1.0,
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
mod scale_tests {
    use super::Theme;

    #[test]
    fn the_projector_scale_enlarges_type_and_refuses_nonsense() {
        assert_eq!(Theme::presentation_scale(None), 1.0);
        assert_eq!(Theme::presentation_scale(Some("2")), 2.0);
        assert_eq!(Theme::presentation_scale(Some(" 1.5 ")), 1.5);
        for bad in ["", "abc", "NaN", "inf", "-2", "0.2"] {
            assert_eq!(Theme::presentation_scale(Some(bad)), 1.0, "{bad}");
        }
        assert_eq!(Theme::presentation_scale(Some("9")), 3.0);
        // A label of 11 CSS px at DPR 2, scale 2: 44 device px, 22 CSS px.
        let theme = Theme::for_dpr(2.0 * Theme::presentation_scale(Some("2")));
        assert_eq!(theme.px(11.0), 44);
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
