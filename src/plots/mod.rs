//! Every figure as `NAME::draw(area, &NAME::Data, &Theme)`, generic over the plotters drawing
//! backend: the same code draws on a `<canvas>` in the browser and to SVG natively (tests,
//! CLI). Plots only draw: each `Data` holds the numbers to show, computed elsewhere — by the
//! lesson (`lessons::NAME::figure`) or by a trainer (`train`). Nothing here imports `lessons`.

pub mod attention;
pub mod baselines;
pub mod bstar;
pub mod cartpole;
pub mod clipping;
pub mod difficulty;
pub mod drift;
pub mod gae;
pub mod kl_estimators;
pub mod learning_curve;
pub mod legend;
pub mod length_weights;
pub mod marks;
pub mod pass_at_k;
pub mod pipeline_run;
pub mod ppo_diagnostics;
pub mod returns;
pub mod score;
pub mod sequence_curves;
pub mod sequence_lab;
pub mod sequence_ratio;
pub mod theme;
pub mod tokens;

pub use theme::Theme;

use crate::Result;
use plotters::prelude::*;

/// The native SVG backend, recording what it draws for legend placement ([`marks`]).
pub type Svg<'a> = marks::Recording<SVGBackend<'a>>;

/// Renders `draw` into an SVG string of `width × height` (natively: tests and the CLI).
pub fn to_svg(
    width: u32,
    height: u32,
    draw: impl FnOnce(&DrawingArea<Svg, plotters::coord::Shift>) -> Result<()>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let area = marks::Recording::new(SVGBackend::with_string(&mut svg, (width, height)))
            .into_drawing_area();
        draw(&area)?;
        area.present()?;
    }
    Ok(svg)
}
