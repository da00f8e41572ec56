use super::*;
use crate::error::ErrorKind;
use crate::lessons::score;

/// The starting value of figure `figure`'s parameter `name`.
fn value(figure: &str, name: &str) -> f64 {
    spec(figure).expect("a declared figure").start()[name]
}

/// The figures start from the worked examples the text computes.
#[test]
fn starting_values_are_the_worked_examples_inputs() {
    let w = super::super::worked_examples().unwrap();
    let z = ["z0", "z1", "z2"].map(|n| value("score", n));
    assert_eq!(z.to_vec(), w.score.logits);
    assert_eq!(value("score", "action") as usize, w.score.action);
    let r = ["r0", "r1", "r2"].map(|n| value("returns", n));
    assert_eq!(r.to_vec(), w.returns.rewards);
    assert_eq!(value("returns", "gamma"), w.returns.gamma);
    assert!((value("bstar", "p0") - w.bstar.probs[0]).abs() < 1e-12);
    let q = [value("bstar", "q0"), value("bstar", "q1")];
    assert_eq!(q.to_vec(), w.bstar.q);
    let g = value("baselines", "group_size") as usize;
    assert_eq!(g, w.simulation.group_size);
    assert_eq!(value("gae", "gamma"), w.gae.analysis.gamma);
    for figure in ["clipping", "drift", "seqratio", "tokens"] {
        assert_eq!(value(figure, "eps"), w.ppo.clip_epsilon, "{figure}");
    }
    let prompt = value("tokens", "prompt") as usize;
    assert_eq!(prompt, w.tokens.prompt_lengths[0]);
    let g = &w.grpo;
    let group = value("difficulty", "group_size") as usize;
    assert_eq!(group, g.difficulty.group_size);
    let l = &g.lengths;
    let lengths = ["short", "long", "max"].map(|n| value("length_weights", n) as usize);
    assert_eq!(lengths, [l.short_length, l.long_length, l.max_length]);
    assert_eq!(value("kl_estimators", "shift"), g.kl.shift);
}

/// Every slider's range is a whole number of steps and holds its starting value, and every
/// figure draws at its starting values and with each parameter alone at either end.
#[test]
fn every_slider_position_is_accepted_by_its_figure() {
    for f in FIGURES {
        let start = f.start();
        figure(f.name, &start, None).unwrap_or_else(|e| panic!("{}: {e}", f.name));
        for p in f.params {
            let ends = match p.control {
                Control::Slider(s) => {
                    let steps = (s.max - s.min) / s.step;
                    assert!(
                        (steps - steps.round()).abs() < 1e-9,
                        "{}.{}",
                        f.name,
                        p.name
                    );
                    assert!(
                        s.min <= s.value && s.value <= s.max,
                        "{}.{}",
                        f.name,
                        p.name
                    );
                    [s.min, s.max]
                }
                Control::Switch { .. } => [0.0, 1.0],
                Control::Flags { records } => [0.0, ((1u64 << records) - 1) as f64],
            };
            for end in ends {
                let mut v = start.clone();
                v.insert(p.name.to_string(), end);
                let at = format!("{}.{} = {end}", f.name, p.name);
                figure(f.name, &v, None).unwrap_or_else(|e| panic!("{at}: {e}"));
            }
        }
    }
}

/// The page's names: figures and, within a figure, parameters, ids and URL keys are unique.
#[test]
fn names_ids_and_url_keys_are_unique() {
    let mut ids = std::collections::BTreeSet::new();
    let mut figures = std::collections::BTreeSet::new();
    for f in FIGURES {
        assert!(figures.insert(f.name), "{}", f.name);
        let mut names = std::collections::BTreeSet::new();
        for p in f.params {
            assert!(names.insert(p.name), "{}.{}", f.name, p.name);
            let flags = matches!(p.control, Control::Flags { .. });
            assert!(flags || ids.insert(p.id), "{}", p.id);
        }
    }
}

/// The same numbers as the lesson's own call (the dispatch adds nothing).
#[test]
fn the_dispatch_draws_what_the_lesson_computes() {
    let mut v = spec("score").unwrap().start();
    v.insert("c".into(), 5.0);
    let live = figure("score", &v, None).unwrap();
    let direct = score::figure([1.0, 0.0, -1.0], 2, 5.0, 10).unwrap();
    let json = |x: &dyn erased::Json| x.json();
    assert_eq!(json(&live.numbers), json(&direct.numbers));
    assert_eq!(live.description.text, direct.description.text);
}

mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

fn refusal(name: &str, values: &Values) -> ErrorKind {
    match figure(name, values, None) {
        Ok(_) => panic!("{name} drew at {values:?}"),
        Err(e) => e.into_kind(),
    }
}

#[test]
fn an_unknown_figure_is_refused_by_name() {
    let kind = refusal("nope", &Values::new());
    assert!(
        matches!(&kind, ErrorKind::Unknown { what: Name::Figure, name, known } if name == "nope" && known.len() == FIGURES.len()),
        "{kind:?}"
    );
    let e = figure("nope", &Values::new(), None).expect_err("refused");
    assert_eq!(
        e.russian(&|_| None),
        format!(
            "нет такого рисунка «nope»; есть: {}",
            FIGURES
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
}

#[test]
fn an_unknown_or_missing_parameter_is_refused_by_name() {
    let mut v = spec("bstar").unwrap().start();
    v.insert("p1".into(), 0.5);
    let kind = refusal("bstar", &v);
    assert!(
        matches!(&kind, ErrorKind::Unknown { what: Name::FigureParameter, name, .. } if name == "p1"),
        "{kind:?}"
    );
    let mut v = spec("bstar").unwrap().start();
    v.remove("q1");
    let e = figure("bstar", &v, None).expect_err("a missing parameter refused");
    assert_eq!(e.arg(), Some("q1"));
    let label = |n: &str| spec("bstar").unwrap().label(n).map(str::to_string);
    assert_eq!(e.russian(&label), "q₁: нужно ровно 1 значение (получено 0)");
}

#[test]
fn a_value_out_of_its_range_is_refused_by_name() {
    let cases: [(&str, &str, f64); 5] = [
        ("bstar", "p0", 0.99),
        ("score", "n", 0.0),
        ("score", "action", 1.5),
        ("baselines", "zscore", 2.0),
        ("gae", "terminated", 4096.0),
    ];
    for (name, param, x) in cases {
        let mut v = spec(name).unwrap().start();
        v.insert(param.into(), x);
        let kind = refusal(name, &v);
        assert!(
            matches!(&kind, ErrorKind::Range { arg, .. } if arg == param),
            "{name}.{param} = {x}: {kind:?}"
        );
    }
    let mut v = spec("clipping").unwrap().start();
    v.insert("eps".into(), f64::NAN);
    let e = figure("clipping", &v, None).expect_err("refused");
    let label = |n: &str| spec("clipping").unwrap().label(n).map(str::to_string);
    assert_eq!(
        e.russian(&label),
        "ε: допустимы значения в [0,05; 0,7] (получено не число)"
    );
}
