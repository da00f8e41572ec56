//! No legend covers data (issue 38): every figure the book draws, at the pages' desktop and
//! phone canvas sizes, at its sliders' starting values and with each slider at its ends, keeps
//! every boxed legend off the data drawn before it (lines, markers, bars, bands; the recorded
//! backend's log, `plots::marks`), and no legend falls back to a covered place: a panel with
//! no free place gets a row under it (`Theme::fit_legends`). And the check can fail: with the
//! old fixed corner the reported legends (lesson 1's repeated-sample panel, lesson 4's critic
//! targets) cover data.
//! Colours do not move anything (the placement reads geometry only): the light palette.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use pgbook::lessons::figures;
use pgbook::plots::marks::{self, LegendBox, Mark};
use pgbook::plots::{self, to_svg, Svg, Theme};
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::curves::aggregate;
use pgbook::train::ppo::{PpoConfig, PpoTrainer};
use pgbook::train::sequence::lab::ConfigLab;
use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;

type Area<'a> = DrawingArea<Svg<'a>, Shift>;

/// A canvas as the page sizes it: CSS width and height, device pixel ratio.
#[derive(Debug, Clone, Copy)]
struct Canvas {
    css: (u32, u32),
    dpr: u32,
}

/// book.css: `figure.live` canvases are 320 px high (`tall` 420), on a phone (< 560 px) 260
/// (`tall` 360, `pair` 520, `tall pair` 720); a desktop page's column is 720 px, a 390 px
/// phone's about 370. Phones at devicePixelRatio 2.
fn canvases(class: &str) -> [Canvas; 2] {
    let (desktop, phone) = match class {
        "tall pair" => (420, 720),
        "pair" => (320, 520),
        "tall" => (420, 360),
        "plain" => (300, 240),
        _ => (320, 260),
    };
    [
        Canvas {
            css: (720, desktop),
            dpr: 1,
        },
        Canvas {
            css: (370, phone),
            dpr: 2,
        },
    ]
}

/// Draws with `draw` on `canvas`; the legends drawn and the marks they were placed among.
fn render(
    canvas: Canvas,
    draw: &dyn Fn(&Area, &Theme) -> pgbook::Result<()>,
) -> (Vec<LegendBox>, Vec<Mark>) {
    rendered(canvas, draw).0
}

/// [`render`], and whether the figure was drawn again with its legends in rows.
fn rendered(
    canvas: Canvas,
    draw: &dyn Fn(&Area, &Theme) -> pgbook::Result<()>,
) -> ((Vec<LegendBox>, Vec<Mark>), bool) {
    let theme = Theme::for_dpr(f64::from(canvas.dpr));
    let (w, h) = (canvas.css.0 * canvas.dpr, canvas.css.1 * canvas.dpr);
    let svg = to_svg(w, h, |area| draw(area, &theme)).expect("the figure draws");
    LAST_SVG.with(|last| *last.borrow_mut() = svg);
    ((marks::legends(), marks::drawn()), marks::relaid() > 0)
}

/// The legends of one rendering that cover data: (box, how many data marks it covers).
fn covered(canvas: Canvas, legends: &[LegendBox], drawn: &[Mark]) -> Vec<(LegendBox, usize)> {
    let theme = Theme::for_dpr(f64::from(canvas.dpr));
    legends
        .iter()
        .filter_map(|legend| {
            let data: Vec<&Mark> = drawn[..legend.after]
                .iter()
                .filter(|m| theme.is_data(m))
                .collect();
            let hits = marks::covering(&data, legend.rect);
            if std::env::var("LEGEND_DEBUG").is_ok() && hits > 0 {
                for m in data
                    .iter()
                    .filter(|m| marks::covers(&m.shape, legend.rect))
                    .take(3)
                {
                    eprintln!("{m:?}");
                }
            }
            (hits > 0).then_some((*legend, hits))
        })
        .collect()
}

std::thread_local! {
    /// The last rendering, kept for a look (target/tmp/legends/*.svg).
    static LAST_SVG: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

type Draw = Box<dyn Fn(&Area, &Theme) -> pgbook::Result<()>>;

/// A lesson figure drawn at values `p` (by its parameters' declared names), through the same
/// dispatch as the page's draw call.
fn lesson_figure(name: &str, p: &figures::Values) -> Draw {
    let live = figures::figure(name, p, None).expect("a figure at a slider's position");
    Box::new(move |a: &Area, t: &Theme| live.draw(a, t))
}

/// Every lesson figure: its name and its `figure.live` class.
const LESSON_FIGURES: [(&str, &str); 13] = [
    ("score", "tall pair"),
    ("returns", "pair"),
    ("bstar", "pair"),
    ("baselines", "tall pair"),
    ("gae", "tall pair"),
    ("clipping", ""),
    ("drift", "tall"),
    ("tokens", ""),
    ("seqratio", ""),
    ("difficulty", ""),
    ("length_weights", ""),
    ("kl_estimators", "pair"),
    ("pass_at_k", ""),
];

/// Settings of a figure: the starting values, then each slider alone at either end (and, for
/// the baselines, with and without the z-score).
fn settings(name: &str) -> Vec<figures::Values> {
    let spec = figures::spec(name).expect("a declared figure");
    let start = spec.start();
    let mut out = vec![start.clone()];
    for p in spec.params {
        if let figures::Control::Slider(s) = p.control {
            for end in [s.min, s.max] {
                let mut v = start.clone();
                v.insert(p.name.to_string(), end);
                out.push(v);
            }
        }
    }
    if name == "baselines" {
        let with_z: Vec<_> = out
            .iter()
            .map(|p| {
                let mut p = p.clone();
                p.insert("zscore".to_string(), 1.0);
                p
            })
            .collect();
        out.extend(with_z);
    }
    out
}

#[test]
fn no_lesson_figure_legend_covers_data_at_any_slider_end() {
    let mut problems = Vec::new();
    let mut legends_seen = 0;
    let mut relaid = BTreeMap::new();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("legends");
    std::fs::create_dir_all(&dir).expect("a directory for the renderings");
    for (name, class) in LESSON_FIGURES {
        for (k, p) in settings(name).into_iter().enumerate() {
            let draw = lesson_figure(name, &p);
            for canvas in canvases(class) {
                let ((legends, drawn), rows) = rendered(canvas, &draw);
                if rows {
                    *relaid.entry(name).or_insert(0) += 1;
                }
                if k == 0 {
                    let file = dir.join(format!("{name}-{}.svg", canvas.css.0));
                    LAST_SVG
                        .with(|svg| std::fs::write(file, &*svg.borrow()))
                        .expect("the rendering written");
                }
                legends_seen += legends.len();
                let changed = &p;
                for legend in legends.iter().filter(|l| !l.free) {
                    problems.push(format!(
                        "{name} at {canvas:?}, {changed:?}: legend {:?} fell back to a covered place",
                        legend.rect
                    ));
                }
                for (legend, hits) in covered(canvas, &legends, &drawn) {
                    let changed = &p;
                    problems.push(format!(
                        "{name} at {canvas:?}, {changed:?}: legend {:?} covers {hits} data marks",
                        legend.rect
                    ));
                }
            }
        }
    }
    assert!(legends_seen > 100, "only {legends_seen} legends drawn");
    println!("{legends_seen} legends inside charts; redrawn with rows: {relaid:?}");
    // The crowded panels of session 16 (lesson 1's sample panels, the optimal baseline, the
    // baselines, GAE, the drift, difficulty and length weights) are laid out again, so the
    // fallback is exercised, not absent.
    for name in [
        "score",
        "bstar",
        "baselines",
        "difficulty",
        "length_weights",
    ] {
        assert!(
            relaid.contains_key(name),
            "{name} never needed rows: {relaid:?}"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_trainer_figure_legend_covers_data() {
    let mut ppo = PpoTrainer::new(
        PpoConfig {
            num_updates: 6,
            ..PpoConfig::smoke()
        },
        11,
    )
    .expect("a valid configuration");
    let reports: Vec<_> = (0..6).map(|_| ppo.step().expect("a step")).collect();
    let curve = aggregate(&[ppo.evaluations().to_vec()]).expect("a curve");
    let mut seq = SequenceTrainer::new(SequenceConfig::smoke(), 5).expect("a configuration");
    let iterations: Vec<_> = (0..4).map(|_| seq.step().expect("an iteration")).collect();
    let lab = ConfigLab::of(&[&iterations[..], &iterations[..2]]);
    let compared = [("A: smoke", &lab), ("B: smoke; ε 0,2 → 0,3", &lab)];
    let curves = [("A", &curve), ("B", &curve)];
    let runs = [("A", &iterations[..]), ("B", &iterations[..2])];
    let figures: Vec<(&str, Draw)> = vec![
        ("learning curve", {
            let curve = curve.clone();
            Box::new(move |a: &Area, t: &Theme| {
                plots::learning_curve::draw(
                    a,
                    &plots::learning_curve::Data {
                        curve: &curve,
                        profile: "smoke",
                        x_end: 0.0,
                    },
                    t,
                )
            })
        }),
        ("ppo diagnostics", {
            let reports = reports.clone();
            Box::new(move |a: &Area, t: &Theme| {
                plots::ppo_diagnostics::draw(
                    a,
                    &plots::ppo_diagnostics::Data {
                        history: &reports,
                        seed: 11,
                        x_end: 0,
                    },
                    t,
                )
            })
        }),
    ];
    let mut problems = Vec::new();
    let mut check = |name: &str, draw: &dyn Fn(&Area, &Theme) -> pgbook::Result<()>| {
        for canvas in canvases("plain") {
            let (legends, drawn) = render(canvas, draw);
            for legend in legends.iter().filter(|l| !l.free) {
                problems.push(format!(
                    "{name} at {canvas:?}: legend {:?} fell back to a covered place",
                    legend.rect
                ));
            }
            for (legend, hits) in covered(canvas, &legends, &drawn) {
                problems.push(format!(
                    "{name} at {canvas:?}: legend {:?} covers {hits} data marks",
                    legend.rect
                ));
            }
        }
    };
    for (name, draw) in &figures {
        check(name, draw);
    }
    check("compared curves", &|a, t| {
        plots::learning_curve::draw_compared(
            a,
            &plots::learning_curve::Compared {
                title: "",
                configs: &curves,
                x_end: 0.0,
            },
            t,
        )
    });
    check("sequence curves", &|a, t| {
        plots::sequence_curves::draw(
            a,
            &plots::sequence_curves::Data {
                reports: &iterations,
                x_end: 0,
            },
            t,
        )
    });
    check("compared sequence curves", &|a, t| {
        plots::sequence_curves::draw_compared(
            a,
            &plots::sequence_curves::Compared {
                configs: &runs,
                x_end: 0,
            },
            t,
        )
    });
    for details in [false, true] {
        check("sequence lab", &|a, t| {
            let data = plots::sequence_lab::Data {
                title: "",
                configs: &compared,
                x_end: 0,
            };
            if details {
                plots::sequence_lab::draw_details(a, &data, t)
            } else {
                plots::sequence_lab::draw_success(a, &data, t)
            }
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The old placement (a fixed corner, whatever is there) on the two reported figures' other
/// panels at desktop width (their reported panels now keep the legend in a row below): the
/// check finds legends on data, so the tests above can fail; the placement covers less.
#[test]
fn the_check_finds_the_old_fixed_corner_on_data() {
    for canvas in [canvases("tall pair")[0]] {
        for name in ["score", "gae"] {
            let draw = lesson_figure(name, &figures::spec(name).unwrap().start());
            marks::fixed_corner(true);
            let (legends, drawn) = render(canvas, &draw);
            marks::fixed_corner(false);
            let old: usize = covered(canvas, &legends, &drawn).iter().map(|c| c.1).sum();
            assert!(old > 0, "{name}: the fixed corner covered nothing");
            assert!(legends.iter().any(|l| !l.free));
            let (legends, drawn) = render(canvas, &draw);
            let new: usize = covered(canvas, &legends, &drawn).iter().map(|c| c.1).sum();
            assert!(
                new < old,
                "{name} at {canvas:?}: {new} marks covered, {old} before"
            );
        }
    }
}
