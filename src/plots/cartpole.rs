//! One frame of CartPole: the track with its ±2.4 limits, the cart at x and the pole at θ,
//! drawn to scale (pole length 1.0 = 2 × the half-length 0.5 of the dynamics).

use super::theme::Theme;
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Track half-width where the episode terminates.
const X_LIMIT: f64 = 2.4;
/// Pole angle where the episode terminates (12°).
const THETA_LIMIT: f64 = 12.0 * 2.0 * std::f64::consts::PI / 360.0;

/// What the figure draws.
#[derive(Debug, Clone, Copy)]
pub struct Data<'a> {
    /// [x, ẋ, θ, θ̇].
    pub state: [f64; 4],
    /// Goes in the top-left corner.
    pub caption: &'a str,
}

/// Draws the frame; a non-finite state is an error.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data<'_>,
    theme: &Theme,
) -> Result<()> {
    let (Data { state, caption }, theme) = (*data, *theme);
    if let Some(i) = state.iter().position(|v| !v.is_finite()) {
        return Err(crate::Error::non_finite("state", i));
    }
    area.fill(&theme.colors.paper)?;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (f64::from(w), f64::from(h));
    // World → pixels: the track spans the width with a margin; y grows upwards from the rail.
    let rail_y = h * 0.85;
    // Fit the track's width and the upright pole's height (cart 0.3 + pole 1.0) with margins.
    let scale = ((w * 0.9) / (2.0 * X_LIMIT + 0.6)).min(rail_y * 0.85 / 1.3);
    let to_px = |x: f64, y: f64| ((w / 2.0 + x * scale) as i32, (rail_y - y * scale) as i32);
    let [x, _, theta, _] = state;
    let failed = x.abs() > X_LIMIT || theta.abs() > THETA_LIMIT;

    area.draw(&PathElement::new(
        [to_px(-X_LIMIT - 0.3, 0.0), to_px(X_LIMIT + 0.3, 0.0)],
        theme.colors.grey.stroke_width(theme.px(2.0)),
    ))?;
    for edge in [-X_LIMIT, X_LIMIT] {
        area.draw(&PathElement::new(
            [to_px(edge, -0.12), to_px(edge, 0.12)],
            theme.colors.red.stroke_width(theme.px(2.0)),
        ))?;
    }
    let (cart_w, cart_h) = (0.5, 0.3);
    let (x0, y0) = to_px(x - cart_w / 2.0, cart_h);
    let (x1, y1) = to_px(x + cart_w / 2.0, 0.0);
    area.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        theme.colors.ink.filled(),
    ))?;
    let pivot = (x, cart_h);
    let tip = (
        x + crate::math::sin(theta),
        cart_h + crate::math::cos(theta),
    );
    let pole_color = if failed {
        theme.colors.red
    } else {
        theme.colors.blue
    };
    area.draw(&PathElement::new(
        [to_px(pivot.0, pivot.1), to_px(tip.0, tip.1)],
        pole_color.stroke_width(theme.px(6.0)),
    ))?;
    area.draw(&Circle::new(
        to_px(pivot.0, pivot.1),
        theme.ipx(4.0),
        theme.colors.grey.filled(),
    ))?;
    area.draw(&Text::new(
        caption.to_string(),
        (theme.ipx(8.0), theme.ipx(6.0)),
        theme.font(13.0).color(&theme.colors.ink),
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_differ_with_the_state_and_reject_nan() {
        let frame = |state, caption| Data { state, caption };
        let svg = |s| {
            crate::plots::to_svg(400, 200, |a| draw(a, &frame(s, "шаг 1"), &Theme::default()))
                .unwrap()
        };
        assert_ne!(svg([0.0, 0.0, 0.0, 0.0]), svg([1.0, 0.0, 0.1, 0.0]));
        assert!(svg([0.0; 4]).contains("шаг 1"));
        let bad = crate::plots::to_svg(400, 200, |a| {
            draw(a, &frame([f64::NAN, 0.0, 0.0, 0.0], ""), &Theme::default())
        });
        assert!(bad.is_err());
    }
}
