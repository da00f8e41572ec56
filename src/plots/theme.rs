//! Shared look: colours, and sizes that scale with the device pixel ratio so that a canvas
//! whose backing store is CSS size × DPR stays crisp and keeps its proportions.

use plotters::style::{FontDesc, FontFamily, RGBColor};

/// Sizes and colours of one rendering.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// Device pixels per CSS pixel (1 for SVG).
    pub scale: f64,
}

impl Default for Theme {
    fn default() -> Self {
        Theme { scale: 1.0 }
    }
}

/// Positive advantage, or the main series.
pub const BLUE: RGBColor = RGBColor(31, 104, 178);
/// Negative advantage, or the second series.
pub const RED: RGBColor = RGBColor(200, 60, 45);
/// A third series.
pub const GREEN: RGBColor = RGBColor(40, 140, 80);
/// Reference marks and guides.
pub const GREY: RGBColor = RGBColor(120, 120, 120);
/// Text.
pub const INK: RGBColor = RGBColor(30, 30, 30);

impl Theme {
    /// A theme for a canvas with `device_pixel_ratio` (clamped to a sane range).
    pub fn for_dpr(device_pixel_ratio: f64) -> Self {
        let scale = if device_pixel_ratio.is_finite() {
            device_pixel_ratio.clamp(0.5, 4.0)
        } else {
            1.0
        };
        Theme { scale }
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
