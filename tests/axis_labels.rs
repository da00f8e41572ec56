//! Axes never repeat a label, whatever the run's length: the trainer figures of runs of one,
//! two and three updates (or iterations), drawn as SVG, hold no row of tick labels (the x axis)
//! and no column (the y axes) in which one text appears twice.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use pgbook::plots::{learning_curve, ppo_diagnostics, sequence_curves, to_svg, Theme};
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::curves::aggregate;
use pgbook::train::ppo::{PpoConfig, PpoTrainer};
use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};

/// Every `<text>` of the SVG as (x, y, content).
fn texts(svg: &str) -> Vec<(String, String, String)> {
    let attr = |tag: &str, name: &str| -> String {
        let key = format!(" {name}=\"");
        tag.split(&key)
            .nth(1)
            .and_then(|v| v.split('"').next())
            .unwrap_or_default()
            .to_string()
    };
    svg.split("<text")
        .skip(1)
        .filter_map(|part| {
            let (tag, rest) = part.split_once('>')?;
            let content = rest.split("</text>").next()?.trim().to_string();
            Some((attr(tag, "x"), attr(tag, "y"), content))
        })
        .collect()
}

/// Panics (naming the figure) when a row or a column of labels repeats a text.
fn assert_no_repeated_label(name: &str, svg: &str) {
    let all = texts(svg);
    for (axis, key) in [("row", 1), ("column", 0)] {
        let mut lines: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for t in &all {
            let (pos, content) = (if key == 1 { &t.1 } else { &t.0 }, &t.2);
            if !content.is_empty() {
                lines.entry(pos.clone()).or_default().push(content.clone());
            }
        }
        for (pos, labels) in lines {
            let mut seen = labels.clone();
            seen.sort();
            seen.dedup();
            assert_eq!(
                seen.len(),
                labels.len(),
                "{name}: the {axis} at {pos} repeats a label: {labels:?}"
            );
        }
    }
}

fn render(
    draw: impl Fn(
        &plotters::prelude::DrawingArea<pgbook::plots::Svg, plotters::coord::Shift>,
        &Theme,
    ) -> pgbook::Result<()>,
) -> String {
    let theme = Theme::for_dpr(1.0);
    to_svg(640, 360, |area| draw(area, &theme)).expect("the figure draws")
}

#[test]
fn short_runs_draw_every_tick_label_once() {
    for updates in 1..=3 {
        let mut ppo = PpoTrainer::new(
            PpoConfig {
                num_updates: updates,
                ..PpoConfig::smoke()
            },
            11,
        )
        .expect("a valid configuration");
        let reports: Vec<_> = (0..updates)
            .map(|_| ppo.step().expect("an update"))
            .collect();
        let diagnostics = render(|a, t| {
            ppo_diagnostics::draw(
                a,
                &ppo_diagnostics::Data {
                    history: &reports,
                    seed: 11,
                    x_end: 0,
                },
                t,
            )
        });
        let labels: Vec<String> = texts(&diagnostics).into_iter().map(|t| t.2).collect();
        assert!(
            labels.iter().any(|l| l == "0") && labels.iter().any(|l| l == "1"),
            "the diagnostics' x axis names its updates"
        );
        assert_no_repeated_label(&format!("diagnostics, {updates} updates"), &diagnostics);
        let curve = aggregate(&[ppo.evaluations().to_vec()]).expect("a curve");
        let curves = render(|a, t| {
            learning_curve::draw(
                a,
                &learning_curve::Data {
                    curve: &curve,
                    profile: "smoke",
                    x_end: 0.0,
                },
                t,
            )
        });
        assert_no_repeated_label(&format!("learning curve, {updates} updates"), &curves);

        let mut seq = SequenceTrainer::new(SequenceConfig::smoke(), 5).expect("a trainer");
        let iterations: Vec<_> = (0..updates)
            .map(|_| seq.step().expect("an iteration"))
            .collect();
        let svg = render(|a, t| {
            sequence_curves::draw(
                a,
                &sequence_curves::Data {
                    reports: &iterations,
                    x_end: 0,
                },
                t,
            )
        });
        assert_no_repeated_label(&format!("sequence, {updates} iterations"), &svg);
    }
}
