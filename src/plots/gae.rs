//! The GAE figure: advantages of a rollout buffer with two masks against one `done` flag
//! (top), value targets (bottom left) and the weights (γλ)^k (bottom right). The buffer and its
//! analysis come from the lesson (`lessons::gae`).

use super::legend::Layout;
use super::theme::{decimal, Theme};
use crate::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// How an episode inside the buffer ends (the figure labels the boundary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EpisodeEnd {
    /// A true terminal: no bootstrap, trace cut.
    Terminated,
    /// A time-limit truncation: bootstrap from V(last observation), trace cut.
    Truncated,
}

/// Everything the figure draws: per-step series over the buffer (all of one length).
#[derive(Debug, Clone)]
pub struct Data {
    /// The step index t of each record, as x.
    pub steps: Vec<f64>,
    /// δ_t with the two masks.
    pub deltas: Vec<f64>,
    /// A_t with `terminated` + `trace_cut`.
    pub advantages: Vec<f64>,
    /// A_t with one `done` flag.
    pub single_done_advantages: Vec<f64>,
    /// V_t.
    pub values: Vec<f64>,
    /// A_t + V_t with the two masks.
    pub value_targets: Vec<f64>,
    /// A_t + V_t with one `done` flag.
    pub single_done_value_targets: Vec<f64>,
    /// (γλ)^k for k = 0..T.
    pub weights: Vec<f64>,
    /// The episodes' index ranges: lines are drawn within an episode only.
    pub episodes: Vec<Range<usize>>,
    /// Episode boundaries inside the buffer: x between the two records, and how it ended.
    pub ends: Vec<(f64, EpisodeEnd)>,
    /// The two-mask series was computed without the trace cut at the truncation (the legend
    /// says so).
    pub forgot_trace_cut: bool,
}

fn range_of<'a>(series: impl IntoIterator<Item = &'a [f64]>) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for s in series {
        for &x in s {
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    let pad = 0.08 * (hi - lo);
    (lo - pad, hi + pad)
}

/// Draws the three panels: advantages (top), value targets and weights (bottom); legends
/// inside where they cover no data, else in rows under the panels ([`Theme::fit_legends`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Data,
    theme: &Theme,
) -> Result<()> {
    theme.fit_legends(|layout| {
        let (a, theme) = (data, *theme);
        area.fill(&theme.colors.paper)?;
        // The advantages above the targets and weights; on a phone, three rows.
        let (top, bottom) = if theme.is_narrow(area) {
            area.split_vertically(area.dim_in_pixel().1 / 3)
        } else {
            area.split_vertically(area.dim_in_pixel().1 / 2)
        };
        let (left, right) = theme.panel_pair(&bottom, 0.6);
        let ts = &a.steps;
        let x_range = -0.5..(ts.len() as f64 + 0.5);
        // The buffer ends after its last record: the rollout boundary, where the trace is cut too.
        let buffer_end = ts.len() as f64 - 0.5;

        // Top: δ_t and A_t, two masks against one done flag.
        let (lo, hi) = range_of([
            &a.deltas[..],
            &a.advantages[..],
            &a.single_done_advantages[..],
        ]);
        // On a phone the three series leave no corner free: the legend takes a row below.
        let top_legend = [
            (
                theme.colors.blue.filled(),
                if a.forgot_trace_cut {
                    "Â: без trace_cut на усечении"
                } else {
                    "Â: terminated + trace_cut"
                },
            ),
            (theme.colors.red.filled(), "Â: один флаг done"),
            (theme.colors.grey.filled(), "δ: две маски"),
        ];
        let rows = layout == Layout::Rows || theme.is_narrow(area);
        let (top, top_strip) = theme.row_strip_if(rows, &top, &top_legend)?;
        let mut chart = theme
            .chart(
                &top,
                if theme.is_narrow(area) {
                    "Преимущества Â"
                } else {
                    "Преимущества Â: две маски против одного флага done"
                },
                36.0,
                40.0,
            )
            .build_cartesian_2d(x_range.clone(), lo..hi)?;
        mesh(&mut chart, theme, "шаг t", "преимущество Â")?;
        let mut labels: Vec<(f64, &str)> = a
            .ends
            .iter()
            .map(|&(t, end)| {
                let label = match end {
                    EpisodeEnd::Terminated => "завершение",
                    EpisodeEnd::Truncated => "усечение",
                };
                (t, label)
            })
            .collect();
        // The buffer's end first: it is always there, so it keeps its place on the first row.
        labels.insert(0, (buffer_end, "конец буфера"));
        for &(t, _) in &labels {
            boundary(&mut chart, t, lo, hi, theme)?;
        }
        boundary_labels(&mut chart, &labels, lo, hi, theme)?;
        chart.draw_series(
            ts.iter()
                .zip(&a.deltas)
                .map(|(&t, &d)| Circle::new((t, d), theme.ipx(3.0), theme.colors.grey.filled())),
        )?;
        let episodes = &a.episodes;
        series(
            &mut chart,
            ts,
            &a.single_done_advantages,
            episodes,
            theme.colors.red,
            true,
            theme,
        )?;
        series(
            &mut chart,
            ts,
            &a.advantages,
            episodes,
            theme.colors.blue,
            false,
            theme,
        )?;
        theme.place_legend(top_strip.as_ref(), &chart, &top_legend)?;

        // Bottom left: value targets A_t + V_t and V_t itself.
        let (lo, hi) = range_of([
            &a.value_targets[..],
            &a.single_done_value_targets[..],
            &a.values[..],
        ]);
        // Three series over every step leave no corner free: the legend takes a row below.
        let legend = [
            (theme.colors.blue.filled(), "две маски"),
            (theme.colors.red.filled(), "один флаг done"),
            (theme.colors.grey.filled(), "V"),
        ];
        let (left, strip) = theme.row_strip_if(true, &left, &legend)?;
        let mut chart = theme
            .chart(&left, "Цели критика Â + V", 36.0, 40.0)
            .build_cartesian_2d(x_range.clone(), lo..hi)?;
        mesh(&mut chart, theme, "шаг t", "цель")?;
        for &(t, _) in &a.ends {
            boundary(&mut chart, t, lo, hi, theme)?;
        }
        boundary(&mut chart, buffer_end, lo, hi, theme)?;
        chart.draw_series(
            ts.iter()
                .zip(&a.values)
                .map(|(&t, &v)| Circle::new((t, v), theme.ipx(3.0), theme.colors.grey.filled())),
        )?;
        series(
            &mut chart,
            ts,
            &a.single_done_value_targets,
            episodes,
            theme.colors.red,
            true,
            theme,
        )?;
        series(
            &mut chart,
            ts,
            &a.value_targets,
            episodes,
            theme.colors.blue,
            false,
            theme,
        )?;
        theme.place_legend(strip.as_ref(), &chart, &legend)?;

        // Bottom right: the weights (γλ)^k.
        let mut chart = theme
            .chart(&right, "Веса (γλ)^k", 36.0, 36.0)
            .build_cartesian_2d(x_range, 0.0..1.05)?;
        mesh(&mut chart, theme, "k", "вес")?;
        chart.draw_series(a.weights.iter().enumerate().map(|(k, &w)| {
            Rectangle::new(
                [(k as f64 - 0.35, 0.0), (k as f64 + 0.35, w)],
                theme.colors.blue.mix(0.7).filled(),
            )
        }))?;
        Ok(())
    })
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

fn mesh<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    theme: Theme,
    x: &str,
    y: &str,
) -> Result<()> {
    theme
        .mesh(&mut chart.configure_mesh())
        .x_labels(6)
        .y_labels(5)
        .x_desc(x)
        .y_desc(y)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| decimal(*y, 1))
        .draw()?;
    Ok(())
}

/// The boundaries' names low in the panel, where the curves are not: each on the first of
/// three rows where it overlaps no other (the reader's flags can put boundaries side by side),
/// or left out. The buffer's end is the last line, so its name goes to the left of it.
fn boundary_labels<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    labels: &[(f64, &str)],
    lo: f64,
    hi: f64,
    theme: Theme,
) -> Result<()> {
    let end = chart.x_range().end;
    let mut rows: [Vec<(i32, i32)>; 3] = Default::default();
    for &(t, label) in labels {
        let last = (t - end).abs() < 1.5;
        // About 6.5 CSS pixels per character of an 11-pixel font, and a gap.
        let width = theme.ipx(6.5 * label.chars().count() as f64 + 6.0);
        let x = chart.backend_coord(&(t, lo)).0;
        let span = if last { (x - width, x) } else { (x, x + width) };
        let Some(row) = rows
            .iter()
            .position(|taken| taken.iter().all(|&(a, b)| span.1 <= a || span.0 >= b))
        else {
            continue;
        };
        rows[row].push(span);
        let (x, h) = if last {
            (t - 0.1, HPos::Right)
        } else {
            (t + 0.1, HPos::Left)
        };
        let font = theme
            .font(11.0)
            .color(&theme.colors.grey)
            .pos(Pos::new(h, VPos::Top));
        let y = lo + (0.1 + 0.09 * row as f64) * (hi - lo);
        chart.draw_series(std::iter::once(Text::new(label.to_string(), (x, y), font)))?;
    }
    Ok(())
}

fn boundary<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    t: f64,
    lo: f64,
    hi: f64,
    theme: Theme,
) -> Result<()> {
    let style = theme.colors.grey.stroke_width(theme.px(1.0));
    chart.draw_series(DashedLineSeries::new(
        [(t, lo), (t, hi)],
        theme.px(4.0),
        theme.px(3.0),
        style,
    ))?;
    Ok(())
}

fn series<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    ts: &[f64],
    ys: &[f64],
    episodes: &[Range<usize>],
    color: RGBColor,
    dashed: bool,
    theme: Theme,
) -> Result<()> {
    let points: Vec<(f64, f64)> = ts.iter().copied().zip(ys.iter().copied()).collect();
    // Segments only within an episode: a line across a boundary would suggest continuity.
    for episode in episodes {
        let Some(seg) = points.get(episode.clone()) else {
            continue;
        };
        let seg = seg.to_vec();
        if dashed {
            chart.draw_series(DashedLineSeries::new(
                seg,
                theme.px(5.0),
                theme.px(3.0),
                color.stroke_width(theme.px(2.0)),
            ))?;
        } else {
            chart.draw_series(LineSeries::new(seg, color.stroke_width(theme.px(2.5))))?;
        }
    }
    let marker = theme.ipx(if dashed { 4.0 } else { 3.5 });
    if dashed {
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, marker, color.stroke_width(theme.px(1.5)))),
        )?;
    } else {
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, marker, color.filled())),
        )?;
    }
    Ok(())
}
