//! The PPO clipping figure: the per-sample objective min(r·A, clip(r, 1−ε, 1+ε)·A) against the
//! probability ratio r, for A > 0 and A < 0, with the flat (clipped, zero-gradient) regions
//! shaded and the lesson's four worked rows marked.

use super::theme::{Theme, BLUE, GREY, INK, RED};
use crate::rl::{self, ClippedTerms, PpoDiagnostics};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Ratios of the four worked rows (A = +1, +1, −1, −1).
pub const FOUR_ROWS_RATIO: [f64; 4] = [1.5, 0.5, 1.5, 0.5];
/// Advantages of the four worked rows: clipping is active in rows 1 and 4 only.
pub const FOUR_ROWS_ADVANTAGE: [f64; 4] = [1.0, 1.0, -1.0, -1.0];

/// The four rows at a given ε: their terms and the batch diagnostics.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FourRows {
    /// The clip range used.
    pub clip_epsilon: f64,
    /// Ratios of the rows.
    pub ratio: [f64; 4],
    /// Advantages of the rows.
    pub advantage: [f64; 4],
    /// r·A, clip(r)·A and their minimum.
    pub terms: ClippedTerms,
    /// Whether clipping changed the minimum (the row's gradient is zero).
    pub active: [bool; 4],
    /// Mean of the pessimistic terms: the batch objective.
    pub mean_objective: f64,
    /// ratio_outside_fraction, active_clip_fraction, approx KL, mean log-ratio.
    pub diagnostics: PpoDiagnostics,
}

/// Computes the four worked rows at `clip_epsilon`.
pub fn four_rows(clip_epsilon: f64) -> Result<FourRows> {
    let terms = rl::ppo_clipped_terms(&FOUR_ROWS_RATIO, &FOUR_ROWS_ADVANTAGE, clip_epsilon)?;
    let new_log_prob = FOUR_ROWS_RATIO.map(crate::math::ln);
    let diagnostics =
        rl::ppo_diagnostics(&new_log_prob, &[0.0; 4], &FOUR_ROWS_ADVANTAGE, clip_epsilon)?;
    let active = [0, 1, 2, 3].map(|i| terms.pessimistic[i] < terms.unclipped[i] - 1e-15);
    let mean_objective = terms.pessimistic.iter().sum::<f64>() / 4.0;
    Ok(FourRows {
        clip_epsilon,
        ratio: FOUR_ROWS_RATIO,
        advantage: FOUR_ROWS_ADVANTAGE,
        terms,
        active,
        mean_objective,
        diagnostics,
    })
}

const R_MAX: f64 = 2.0;
const SAMPLES: usize = 201;

/// Draws both panels (A = +1 left, A = −1 right) into `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    clip_epsilon: f64,
    theme: Theme,
) -> Result<FourRows> {
    let rows = four_rows(clip_epsilon)?;
    area.fill(&WHITE)?;
    let panels = area.split_evenly((1, 2));
    for (panel, advantage) in panels.iter().zip([1.0, -1.0]) {
        draw_panel(panel, &rows, advantage, theme)?;
    }
    Ok(rows)
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: &FourRows,
    advantage: f64,
    theme: Theme,
) -> Result<()> {
    let eps = rows.clip_epsilon;
    let color = if advantage > 0.0 { BLUE } else { RED };
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
        .build_cartesian_2d(0.0..R_MAX, y_lo..y_hi)?;
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(5)
        .y_labels(5)
        .x_desc("отношение вероятностей r")
        .y_desc("вклад в цель")
        .x_label_formatter(&|x| format!("{x:.1}"))
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()?;

    // The flat region, where the minimum picks the clipped term and the gradient is zero.
    let flat = if advantage > 0.0 {
        (1.0 + eps, R_MAX)
    } else {
        (0.0, 1.0 - eps)
    };
    chart.draw_series(std::iter::once(Rectangle::new(
        [(flat.0, y_lo), (flat.1, y_hi)],
        color.mix(0.12).filled(),
    )))?;
    let guide = GREY.stroke_width(theme.px(1.0));
    for r in [1.0 - eps, 1.0 + eps] {
        chart.draw_series(DashedLineSeries::new(
            [(r, y_lo), (r, y_hi)],
            theme.px(4.0),
            theme.px(4.0),
            guide,
        ))?;
    }

    // The unclipped term r·A (dashed) and the pessimistic minimum PPO maximises (solid).
    let rs = (0..SAMPLES).map(|i| R_MAX * i as f64 / (SAMPLES - 1) as f64);
    chart.draw_series(DashedLineSeries::new(
        rs.clone().map(|r| (r, r * advantage)),
        theme.px(6.0),
        theme.px(4.0),
        GREY.stroke_width(theme.px(1.5)),
    ))?;
    chart.draw_series(LineSeries::new(
        rs.map(|r| (r, rl::clipped_objective(r, advantage, eps))),
        color.stroke_width(theme.px(3.0)),
    ))?;

    // The worked rows with this sign of A: filled where clipping is active.
    for i in (0..4).filter(|&i| rows.advantage[i] == advantage) {
        let point = (rows.ratio[i], rows.terms.pessimistic[i]);
        let size = theme.ipx(6.0);
        let style = if rows.active[i] {
            color.filled()
        } else {
            color.stroke_width(theme.px(2.0))
        };
        chart.draw_series(std::iter::once(Circle::new(point, size, style)))?;
        // The row number beside its marker, offset in pixels so it never covers the point.
        let label = EmptyElement::at(point)
            + Text::new(
                format!("{}", i + 1),
                (theme.ipx(7.0), -theme.ipx(20.0)),
                theme.font(12.0).color(&INK),
            );
        chart.draw_series(std::iter::once(label))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_rows_at_the_lesson_epsilon() {
        let rows = four_rows(0.2).unwrap();
        assert_eq!(rows.active, [true, false, false, true]);
        assert_eq!(rows.diagnostics.ratio_outside_fraction, 1.0);
        assert_eq!(rows.diagnostics.active_clip_fraction, 0.5);
        assert!((rows.diagnostics.approx_kl_nonnegative - 0.14384103622589045).abs() < 1e-12);
        assert!((rows.mean_objective + 0.15).abs() < 1e-12);
        // With ε = 0.6 both ratios lie inside [0.4, 1.6]: nothing is clipped.
        let wide = four_rows(0.6).unwrap();
        assert_eq!(wide.diagnostics.ratio_outside_fraction, 0.0);
        assert_eq!(wide.active, [false; 4]);
    }

    #[test]
    fn the_svg_changes_with_epsilon_and_rejects_bad_epsilon() {
        let svg =
            |eps| crate::plots::to_svg(720, 320, |a| draw(a, eps, Theme::default()).map(|_| ()));
        let (a, b) = (svg(0.2).unwrap(), svg(0.3).unwrap());
        assert!(a.contains("отношение вероятностей r"), "axis label missing");
        assert!(
            a.contains("A &gt; 0") || a.contains("A > 0"),
            "caption missing"
        );
        assert!(a.len() > 5_000, "suspiciously small SVG");
        assert_ne!(a, b);
        assert!(svg(1.5).unwrap_err().to_string().contains("clip_epsilon"));
        assert!(svg(f64::NAN).is_err());
    }
}
