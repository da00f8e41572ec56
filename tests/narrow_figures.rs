//! At phone width (390 px screens: canvases of about 370 × 240 CSS pixels) no legend of the
//! trainer figures covers an axis, its labels or the data: it sits in a strip below the x axis.
//! At desktop width it stays inside the chart, unless no place inside is free (then the figure
//! puts it in a row under the chart, `Theme::fit_legends`). Checked on the SVG each figure writes.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::plots::{
    learning_curve, pipeline_run, ppo_diagnostics, sequence_curves, sequence_lab, to_svg, Theme,
};
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::curves::aggregate;
use pgbook::train::ppo::{PpoConfig, PpoTrainer};
use pgbook::train::sequence::lab::ConfigLab;
use pgbook::train::sequence::pipeline_run::PipelineRun;
use pgbook::train::sequence::{SequenceConfig, SequenceProfile, SequenceTrainer};
use pgbook::train::settings::Settings;

/// The y (backend pixels) of the first `<text>` whose content contains `needle`.
fn text_y(svg: &str, needle: &str) -> f64 {
    let at = svg
        .find(needle)
        .unwrap_or_else(|| panic!("no text «{needle}» in the figure"));
    let start = svg[..at].rfind("<text").expect("a text element");
    let tag = &svg[start..at];
    let y = tag.split(" y=\"").nth(1).expect("a y attribute");
    y[..y.find('"').expect("quote")].parse().expect("a number")
}

/// Renders at `css` size with device pixel ratio 2, as a phone does.
fn render(
    css: (u32, u32),
    draw: impl Fn(
        &plotters::prelude::DrawingArea<pgbook::plots::Svg, plotters::coord::Shift>,
        &Theme,
    ) -> pgbook::Result<()>,
) -> String {
    let theme = Theme::for_dpr(2.0);
    to_svg(css.0 * 2, css.1 * 2, |area| draw(area, &theme)).expect("the figure draws")
}

fn legend_below_axis(svg: &str, axis: &str, legend: &[&str]) -> bool {
    let axis_y = text_y(svg, axis);
    legend.iter().all(|l| text_y(svg, l) > axis_y)
}

#[test]
fn legends_leave_the_data_at_phone_width_and_stay_inside_on_a_desktop() {
    let mut ppo = PpoTrainer::new(
        PpoConfig {
            num_updates: 6,
            ..PpoConfig::smoke()
        },
        11,
    )
    .unwrap();
    let reports: Vec<_> = (0..6).map(|_| ppo.step().unwrap()).collect();
    let curve = aggregate(&[ppo.evaluations().to_vec()]).unwrap();
    let mut seq = SequenceTrainer::new(SequenceConfig::smoke(), 5).unwrap();
    let iterations: Vec<_> = (0..4).map(|_| seq.step().unwrap()).collect();
    let lab = ConfigLab::of(&[&iterations[..], &iterations[..2]]);
    let compared = [("A: smoke", &lab), ("B: smoke; ε 0,2 → 0,3", &lab)];
    type Case<'a> = (
        &'a str,
        &'a [&'a str],
        Box<dyn Fn((u32, u32)) -> String + 'a>,
    );
    let cases: Vec<Case> = vec![
        (
            "переходы среды",
            &[
                "межквартильный диапазон",
                "медиана по начальным значениям",
                "потолок 500",
            ],
            Box::new(|size| {
                render(size, |a, t| {
                    learning_curve::draw(
                        a,
                        &learning_curve::Data {
                            curve: &curve,
                            profile: "smoke",
                            x_end: 0.0,
                        },
                        t,
                    )
                })
            }),
        ),
        (
            "обновление PPO",
            &[
                "доля активного клиппирования",
                "доля отношений вне интервала",
                "приближённая KL",
            ],
            Box::new(|size| {
                render(size, |a, t| {
                    ppo_diagnostics::draw(
                        a,
                        &ppo_diagnostics::Data {
                            history: &reports,
                            seed: 11,
                            x_end: 0,
                        },
                        t,
                    )
                })
            }),
        ),
        (
            "итерация",
            &["средняя награда", "доля правильных ответов"],
            Box::new(|size| {
                render(size, |a, t| {
                    sequence_curves::draw(
                        a,
                        &sequence_curves::Data {
                            reports: &iterations,
                            x_end: 0,
                        },
                        t,
                    )
                })
            }),
        ),
        (
            "итерация",
            &["A: smoke", "межквартильный диапазон"],
            Box::new(|size| {
                render(size, |a, t| {
                    sequence_lab::draw_success(
                        a,
                        &sequence_lab::Data {
                            title: "Доля верных ответов по конфигурациям",
                            configs: &compared,
                            x_end: 0,
                        },
                        t,
                    )
                })
            }),
        ),
    ];
    // The lab's second figure keeps its legend in a strip below its charts at every width.
    for size in [(370, 620), (900, 320)] {
        let svg = render(size, |a, t| {
            sequence_lab::draw_details(
                a,
                &sequence_lab::Data {
                    title: "",
                    configs: &compared,
                    x_end: 0,
                },
                t,
            )
        });
        assert!(
            legend_below_axis(&svg, "итерация", &["A: smoke", "пунктир: неверные ответы"]),
            "the lab's details legend is not below its charts at {size:?}"
        );
    }
    // The phone renderings, for a look: target/narrow-figures/*.svg.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("narrow-figures");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (axis, legend, draw)) in cases.iter().enumerate() {
        let phone = draw((370, 240));
        std::fs::write(dir.join(format!("figure-{i}.svg")), &phone).unwrap();
        assert!(
            legend_below_axis(&phone, axis, legend),
            "{axis}: a legend inside the chart at phone width"
        );
        let desktop = draw((900, 320));
        let rows = pgbook::plots::marks::relaid() > 0;
        assert!(
            rows == legend_below_axis(&desktop, axis, legend),
            "{axis}: the desktop legend {} the chart",
            if rows {
                "was laid out in a row but is not below"
            } else {
                "left"
            }
        );
    }
}

/// Lesson 10's pipeline figure (the sequence panel's `#canvas-seq-pipeline`: 720 × 520 on a
/// desktop, 370 × 1000 on a phone): two by two on a desktop, the four charts one above the
/// other on a phone, and its legend strip under the lowest chart at both widths.
#[test]
fn the_pipeline_figure_stacks_on_a_phone_with_its_legend_under_the_charts() {
    let config = SequenceConfig::for_profile(SequenceProfile::R1Smoke);
    let mut t = SequenceTrainer::new(config.clone(), 5).unwrap();
    let reports: Vec<_> = (0..config.iterations).map(|_| t.step().unwrap()).collect();
    let run = PipelineRun::of(&reports).expect("r1_smoke has the pipeline");
    let legend = ["после RL", "группы: все выбранные"];
    for (size, narrow) in [((370, 1000), true), ((720, 520), false)] {
        let svg = render(size, |a, t| pipeline_run::draw(a, &run, t));
        let (sft, levels, iterations) = (
            text_y(&svg, "шаг SFT"),
            text_y(&svg, "уровень трудности"),
            text_y(&svg, "итерация"),
        );
        assert!(
            sft < levels,
            "{size:?}: the level chart is not below the SFT chart"
        );
        assert_eq!(
            iterations > levels + 1.0,
            narrow,
            "{size:?}: the dead-groups chart {} the level chart",
            if narrow {
                "is not below"
            } else {
                "is not beside"
            }
        );
        assert!(
            legend_below_axis(&svg, "итерация", &legend)
                && legend_below_axis(&svg, "уровень трудности", &legend),
            "{size:?}: the pipeline's legend is not under its charts"
        );
    }
}
