//! Browser tests (wasm-bindgen-test, run in headless Chromium and Firefox): the figures drawn
//! on a real canvas by the same entry points the page uses.
#![cfg(target_arch = "wasm32")]

use pgbook::web;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A fresh canvas of 720 × 320 CSS pixels attached to the test page, its backing store sized
/// as the book's page sizes it (`www/js/canvas.js`: CSS size × devicePixelRatio).
fn canvas(id: &str) -> HtmlCanvasElement {
    let window = web_sys::window().unwrap();
    let document = window.document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_id(id);
    canvas
        .set_attribute("style", "width:720px;height:320px;display:block")
        .unwrap();
    document.body().unwrap().append_child(&canvas).unwrap();
    let dpr = window.device_pixel_ratio();
    canvas.set_width((720.0 * dpr).round() as u32);
    canvas.set_height((320.0 * dpr).round() as u32);
    canvas
}

/// (fraction of non-white pixels, FNV hash of all pixels).
fn pixels(canvas: &HtmlCanvasElement) -> (f64, u32) {
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        )
        .unwrap()
        .data();
    let mut hash = 2_166_136_261u32;
    let mut inked = 0usize;
    for px in data.chunks_exact(4) {
        hash = (hash ^ u32::from_le_bytes([px[0], px[1], px[2], 0])).wrapping_mul(16_777_619);
        inked += usize::from(px[0] < 240 || px[1] < 240 || px[2] < 240);
    }
    (inked as f64 / (data.len() / 4) as f64, hash)
}

#[wasm_bindgen_test]
fn clipping_figure_draws_pixels_that_change_with_epsilon() {
    let c = canvas("test-clipping");
    let size = (c.width(), c.height());
    fig("clipping", "test-clipping", &[("eps", 0.2)]).unwrap();
    // The figure fills the backing store the page gave it and leaves its size alone.
    assert_eq!((c.width(), c.height()), size);
    let (inked, first) = pixels(&c);
    assert!(inked > 0.02, "figure looks blank: {inked}");
    fig("clipping", "test-clipping", &[("eps", 0.4)]).unwrap();
    let (_, second) = pixels(&c);
    assert_ne!(first, second, "the figure did not change with ε");
    fig("clipping", "test-clipping", &[("eps", 0.2)]).unwrap();
    assert_eq!(
        pixels(&c).1,
        first,
        "the same ε must redraw the same pixels"
    );
}

#[wasm_bindgen_test]
fn bad_arguments_are_errors_not_panics() {
    canvas("test-clipping-bad");
    assert!(fig("clipping", "test-clipping-bad", &[("eps", 1.5)]).is_err());
    assert!(fig("clipping", "test-clipping-bad", &[("eps", f64::NAN)]).is_err());
    assert!(fig("clipping", "no-such-canvas", &[("eps", 0.2)]).is_err());
    // An unknown figure, an undeclared or a missing parameter: the page's message names it.
    let message = |r: Result<wasm_bindgen::JsValue, wasm_bindgen::JsError>| {
        let e: wasm_bindgen::JsValue = r.unwrap_err().into();
        let e = e.unchecked_into::<js_sys::Error>();
        e.message().as_string().unwrap()
    };
    let no_values = wasm_bindgen::JsValue::from(js_sys::Object::new());
    let m = message(web::draw_figure(
        "nope",
        "test-clipping-bad",
        no_values.clone(),
        None,
    ));
    assert!(m.starts_with("нет такого рисунка «nope»"), "{m}");
    let m = message(web::draw_figure(
        "clipping",
        "test-clipping-bad",
        no_values,
        None,
    ));
    assert!(m.starts_with("ε: нужно ровно 1 значение"), "{m}");
    let m = message(fig("clipping", "test-clipping-bad", &[("epsilon", 0.2)]));
    assert!(m.starts_with("у рисунка нет параметра «epsilon»"), "{m}");
    // A canvas the page has not sized (hidden, or not laid out yet) is an error, not a blank.
    canvas("test-clipping-unsized").set_width(0);
    assert!(fig("clipping", "test-clipping-unsized", &[("eps", 0.2)]).is_err());
}

/// Draws with `draw`, then again with `redraw`; more than `min_ink` of the pixels must be
/// inked, and the two drawings must differ.
fn assert_redraw_changes(
    id: &str,
    min_ink: f64,
    draw: impl Fn() -> Result<(), String>,
    redraw: impl Fn() -> Result<(), String>,
) {
    let c = canvas(id);
    draw().unwrap();
    let (inked, first) = pixels(&c);
    assert!(inked > min_ink, "{id}: figure looks blank ({inked})");
    redraw().unwrap();
    assert_ne!(pixels(&c).1, first, "{id}: the figure did not change");
}

/// Figure `name` drawn on `canvas_id` by the page's one entry, at its starting values with
/// `set` changed (by the declared parameter names).
fn fig(
    name: &str,
    canvas_id: &str,
    set: &[(&str, f64)],
) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsError> {
    let mut values = pgbook::lessons::figures::spec(name).unwrap().start();
    for (k, v) in set {
        values.insert(k.to_string(), *v);
    }
    let values =
        serde::Serialize::serialize(&values, &serde_wasm_bindgen::Serializer::json_compatible())
            .unwrap();
    web::draw_figure(name, canvas_id, values, None)
}

fn err<T>(r: Result<T, wasm_bindgen::JsError>) -> Result<(), String> {
    r.map(|_| ()).map_err(|_| "wasm call failed".to_string())
}

/// The GAE buffer's flags as the page sends them (bit t = record t): a terminal at t = 3, trace
/// cuts at t = 3, 8 and 11.
const GAE_TERMINATED: f64 = 8.0;
const GAE_CUTS: f64 = (1 << 3 | 1 << 8 | 1 << 11) as f64;

#[wasm_bindgen_test]
fn gae_baseline_and_token_figures_redraw_with_their_sliders() {
    assert_redraw_changes(
        "t-gae",
        0.02,
        || {
            err(fig(
                "gae",
                "t-gae",
                &[
                    ("gamma", 0.9),
                    ("lambda", 0.95),
                    ("terminated", GAE_TERMINATED),
                    ("trace_cut", GAE_CUTS),
                    ("forgot_cut", 0.0),
                ],
            ))
        },
        || {
            err(fig(
                "gae",
                "t-gae",
                &[
                    ("gamma", 0.9),
                    ("lambda", 0.5),
                    ("terminated", GAE_TERMINATED),
                    ("trace_cut", GAE_CUTS),
                    ("forgot_cut", 0.0),
                ],
            ))
        },
    );
    assert_redraw_changes(
        "t-base",
        0.02,
        || {
            err(fig(
                "baselines",
                "t-base",
                &[("group_size", 8.0), ("zscore", 0.0)],
            ))
        },
        || {
            err(fig(
                "baselines",
                "t-base",
                &[("group_size", 32.0), ("zscore", 0.0)],
            ))
        },
    );
    assert_redraw_changes(
        "t-tok",
        0.02,
        || {
            err(fig(
                "tokens",
                "t-tok",
                &[("eps", 0.2), ("prompt", 3.0), ("eos", 1.0), ("shift", 0.0)],
            ))
        },
        || {
            err(fig(
                "tokens",
                "t-tok",
                &[("eps", 0.45), ("prompt", 3.0), ("eos", 1.0), ("shift", 0.0)],
            ))
        },
    );
    assert_redraw_changes(
        "t-pole",
        0.005, // a cart and a pole on a track: mostly white
        || err(web::draw_cartpole("t-pole", 0.0, 0.0, 0.0, 0.0, "шаг 1")),
        || err(web::draw_cartpole("t-pole", 1.0, 0.0, 0.15, 0.0, "шаг 2")),
    );
    // Out of range: errors, never panics.
    assert!(fig(
        "gae",
        "t-gae",
        &[
            ("gamma", 1.5),
            ("lambda", 0.5),
            ("terminated", GAE_TERMINATED),
            ("trace_cut", GAE_CUTS),
            ("forgot_cut", 0.0)
        ]
    )
    .is_err());
    assert!(fig(
        "baselines",
        "t-base",
        &[("group_size", 2.5), ("zscore", 0.0)]
    )
    .is_err());
    assert!(fig(
        "baselines",
        "t-base",
        &[("group_size", 65.0), ("zscore", 1.0)]
    )
    .is_err());
    assert!(fig(
        "tokens",
        "t-tok",
        &[("eps", -0.1), ("prompt", 3.0), ("eos", 1.0), ("shift", 0.0)]
    )
    .is_err());
    assert!(web::draw_cartpole("t-pole", f64::NAN, 0.0, 0.0, 0.0, "").is_err());
}

#[wasm_bindgen_test]
fn the_new_switches_redraw_and_every_redraw_returns_numbers_and_words() {
    // The z-scores on the group figure, the GAE buffer's flags, the sequence ratio.
    assert_redraw_changes(
        "t-base-z",
        0.02,
        || {
            err(fig(
                "baselines",
                "t-base-z",
                &[("group_size", 8.0), ("zscore", 0.0)],
            ))
        },
        || {
            err(fig(
                "baselines",
                "t-base-z",
                &[("group_size", 8.0), ("zscore", 1.0)],
            ))
        },
    );
    let (term, cut) = (8.0, 8.0 + 256.0 + 2048.0); // the buffer's own: t = 3; 3, 8, 11
    assert_redraw_changes(
        "t-gae-flags",
        0.02,
        || {
            err(fig(
                "gae",
                "t-gae-flags",
                &[
                    ("gamma", 0.9),
                    ("lambda", 0.95),
                    ("terminated", term),
                    ("trace_cut", cut),
                    ("forgot_cut", 0.0),
                ],
            ))
        },
        || {
            err(fig(
                "gae",
                "t-gae-flags",
                &[
                    ("gamma", 0.9),
                    ("lambda", 0.95),
                    ("terminated", term + 256.0),
                    ("trace_cut", cut),
                    ("forgot_cut", 0.0),
                ],
            ))
        },
    );
    assert_redraw_changes(
        "t-seq",
        0.01,
        || {
            err(fig(
                "seqratio",
                "t-seq",
                &[("length", 1000.0), ("delta", 0.01), ("eps", 0.2)],
            ))
        },
        || {
            err(fig(
                "seqratio",
                "t-seq",
                &[("length", 200.0), ("delta", 0.01), ("eps", 0.2)],
            ))
        },
    );
    let shown = fig(
        "seqratio",
        "t-seq",
        &[("length", 1000.0), ("delta", 0.01), ("eps", 0.2)],
    )
    .unwrap();
    let get = |v: &wasm_bindgen::JsValue, k: &str| {
        js_sys::Reflect::get(v, &wasm_bindgen::JsValue::from_str(k)).unwrap()
    };
    let numbers = get(&shown, "numbers");
    assert!((get(&numbers, "log_ratio").as_f64().unwrap() - 10.0).abs() < 1e-12);
    let description = get(&shown, "description");
    let text = get(&description, "text").as_string().unwrap();
    assert!(text.contains("ρ_b = 22"), "{text}");
    let rows = js_sys::Array::from(&get(&get(&description, "table"), "rows"));
    assert!(rows.length() >= 4);
    // Bad flags and lengths: errors with the setting's name, never panics.
    let message = |r: Result<wasm_bindgen::JsValue, wasm_bindgen::JsError>| {
        let e: wasm_bindgen::JsValue = r.unwrap_err().into();
        e.unchecked_into::<js_sys::Error>()
            .message()
            .as_string()
            .unwrap()
    };
    assert!(message(fig(
        "gae",
        "t-gae-flags",
        &[
            ("gamma", 0.9),
            ("lambda", 0.95),
            ("terminated", 4096.0),
            ("trace_cut", cut),
            ("forgot_cut", 0.0)
        ]
    ))
    .contains("terminated"));
    assert!(message(fig(
        "gae",
        "t-gae-flags",
        &[
            ("gamma", 0.9),
            ("lambda", 0.95),
            ("terminated", term),
            ("trace_cut", -1.0),
            ("forgot_cut", 0.0)
        ]
    ))
    .contains("trace_cut"));
    assert!(fig(
        "gae",
        "t-gae-flags",
        &[
            ("gamma", 0.9),
            ("lambda", 0.95),
            ("terminated", 0.5),
            ("trace_cut", cut),
            ("forgot_cut", 0.0)
        ]
    )
    .is_err());
    assert!(message(fig(
        "seqratio",
        "t-seq",
        &[("length", 0.0), ("delta", 0.01), ("eps", 0.2)]
    ))
    .starts_with("n: "));
    assert!(fig(
        "seqratio",
        "t-seq",
        &[("length", 10.0), ("delta", f64::NAN), ("eps", 0.2)]
    )
    .is_err());
}

#[wasm_bindgen_test]
fn worked_examples_are_computed_in_the_browser() {
    let w = web::worked_examples().unwrap();
    let get = |path: &[&str]| {
        path.iter().fold(w.clone(), |v, k| {
            js_sys::Reflect::get(&v, &wasm_bindgen::JsValue::from_str(k)).unwrap()
        })
    };
    let adv = js_sys::Array::from(&get(&["gae", "advantages"]));
    assert_eq!(
        (adv.get(0).as_f64(), adv.get(1).as_f64()),
        (Some(8.0), Some(100.0))
    );
    assert_eq!(get(&["ppo", "active_clip_fraction"]).as_f64(), Some(0.5));
    let kl = get(&["ppo", "approx_kl"]).as_f64().unwrap();
    assert!((kl - 0.14384103622589045).abs() < 1e-12);
    assert!((get(&["bstar", "b_star"]).as_f64().unwrap() - 2.6).abs() < 1e-12);
}

fn pairs(list: &[(&str, &str)]) -> wasm_bindgen::JsValue {
    let v: Vec<(String, String)> = list
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    serde_wasm_bindgen::to_value(&v).unwrap()
}

#[wasm_bindgen_test]
fn trainer_settings_are_checked_before_a_worker_starts() {
    assert!(web::check_run("ppo", "smoke", pairs(&[]), "11, 37").is_ok());
    for (profile, seeds) in [
        ("smoke", "abc"),
        ("smoke", ""),
        ("smoke", "1, 1"),
        ("huge", "11"),
        ("full", "1,2,3,4,5,6,7,8,9"),
        ("smoke", "1000000001000000000"),
    ] {
        assert!(
            web::check_run("ppo", profile, pairs(&[]), seeds).is_err(),
            "{profile} {seeds}"
        );
    }
    assert!(web::check_run("ppo", "smoke", pairs(&[("gamma", "0.99")]), "11").is_ok());
    assert!(web::check_run("ppo", "smoke", pairs(&[("gamma", "")]), "11").is_err());
    let ok = |r| web::check_run("sequence", "smoke", pairs(&[("reduction", r)]), "5");
    assert!(ok("token_mean").is_ok());
    assert!(ok("sum").is_err());
    assert!(web::check_run("sequence", "smoke", pairs(&[]), "-1").is_err());
    assert!(web::check_run("reinforce", "smoke", pairs(&[]), "11, 37").is_ok());
    let weight = |w| web::check_run("reinforce", "full", pairs(&[("weight", w)]), "11");
    assert!(weight("whole_return").is_ok());
    assert!(weight("everything").is_err());
    assert!(web::check_run("warp", "smoke", pairs(&[]), "1").is_err());
}

#[wasm_bindgen_test]
fn a_ppo_run_steps_in_the_browser() {
    let mut run = web::TrainerRun::new("ppo", r#"{"profile":"smoke"}"#, 11.0).unwrap();
    assert!(!run.is_finished());
    let mut extra = wasm_bindgen::JsValue::UNDEFINED;
    for _ in 0..2 {
        let step = run.step(None).unwrap();
        extra = js_sys::Reflect::get(&step, &"extra".into()).unwrap();
    }
    let panel = js_sys::Reflect::get(&extra, &"panel".into()).unwrap();
    assert_eq!(panel.as_string().as_deref(), Some("cartpole"));
    // Two updates of the smoke profile include an evaluation, so the animation gets an episode.
    let episode =
        js_sys::Reflect::get(&extra, &wasm_bindgen::JsValue::from_str("episode")).unwrap();
    assert!(
        js_sys::Array::from(&episode).length() >= 4 * 9,
        "a greedy episode has at least 9 states"
    );
    assert!(web::TrainerRun::new("ppo", r#"{"profile":"smoke"}"#, -1.0).is_err());
}

#[wasm_bindgen_test]
fn one_seed_rule_for_the_page_and_the_cli() {
    // Every seed the CLI takes (0 to 2^53 − 1) is taken by the page's check and its worker
    // handle, and the first one past it by neither.
    for seed in [0.0, 1_000_000_001.0, 9_007_199_254_740_991.0] {
        let text = format!("{seed}");
        assert!(
            web::check_run("ppo", "smoke", pairs(&[]), &text).is_ok(),
            "{text}"
        );
        assert!(
            web::TrainerRun::new("ppo", r#"{"profile":"smoke"}"#, seed).is_ok(),
            "{text}"
        );
    }
    assert!(web::check_run("ppo", "smoke", pairs(&[]), "9007199254740992").is_err());
    assert!(
        web::TrainerRun::new("ppo", r#"{"profile":"smoke"}"#, 9_007_199_254_740_992.0).is_err()
    );
}

#[wasm_bindgen_test]
fn lesson_nine_figures_redraw_with_their_sliders() {
    assert_redraw_changes(
        "t-difficulty",
        0.01,
        || err(fig("difficulty", "t-difficulty", &[("group_size", 8.0)])),
        || err(fig("difficulty", "t-difficulty", &[("group_size", 32.0)])),
    );
    assert_redraw_changes(
        "t-length",
        0.01,
        || {
            err(fig(
                "length_weights",
                "t-length",
                &[("short", 2.0), ("long", 8.0), ("max", 16.0)],
            ))
        },
        || {
            err(fig(
                "length_weights",
                "t-length",
                &[("short", 2.0), ("long", 16.0), ("max", 32.0)],
            ))
        },
    );
    assert_redraw_changes(
        "t-kl",
        0.01,
        || err(fig("kl_estimators", "t-kl", &[("shift", 1.0)])),
        || err(fig("kl_estimators", "t-kl", &[("shift", 2.5)])),
    );
    let shown = fig("kl_estimators", "t-kl", &[("shift", 1.0)]).unwrap();
    let get = |v: &wasm_bindgen::JsValue, k: &str| {
        js_sys::Reflect::get(v, &wasm_bindgen::JsValue::from_str(k)).unwrap()
    };
    assert!(get(&get(&shown, "numbers"), "kl").as_f64().unwrap() > 0.0);
    let text = get(&get(&shown, "description"), "text")
        .as_string()
        .unwrap();
    assert!(text.contains("KL"), "{text}");
    // Out of range: errors, never panics.
    assert!(fig("difficulty", "t-difficulty", &[("group_size", 1.0)]).is_err());
    assert!(fig("difficulty", "t-difficulty", &[("group_size", 2.5)]).is_err());
    assert!(fig(
        "length_weights",
        "t-length",
        &[("short", 17.0), ("long", 2.0), ("max", 16.0)]
    )
    .is_err());
    assert!(fig(
        "length_weights",
        "t-length",
        &[("short", 0.0), ("long", 2.0), ("max", 16.0)]
    )
    .is_err());
    assert!(fig("kl_estimators", "t-kl", &[("shift", f64::NAN)]).is_err());
    assert!(fig("kl_estimators", "t-kl", &[("shift", -1.0)]).is_err());
}

#[wasm_bindgen_test]
fn the_pass_at_k_figure_redraws_and_the_inspector_shows_a_group() {
    assert_redraw_changes(
        "t-passk",
        0.01,
        || {
            err(fig(
                "pass_at_k",
                "t-passk",
                &[("samples", 16.0), ("p", 0.05)],
            ))
        },
        || {
            err(fig(
                "pass_at_k",
                "t-passk",
                &[("samples", 64.0), ("p", 0.5)],
            ))
        },
    );
    assert!(fig("pass_at_k", "t-passk", &[("samples", 1.0), ("p", 0.05)]).is_err());
    assert!(fig(
        "pass_at_k",
        "t-passk",
        &[("samples", 16.0), ("p", f64::NAN)]
    )
    .is_err());
    let get = |v: &wasm_bindgen::JsValue, k: &str| {
        js_sys::Reflect::get(v, &wasm_bindgen::JsValue::from_str(k)).unwrap()
    };
    let request = r#"{"profile":"transformer"}"#;
    let shown = web::inspect_untrained(request, 1.0, 0.0, 0.0).unwrap();
    let answers = js_sys::Array::from(&get(&shown, "answers"));
    assert!(answers.length() > 1);
    let tokens = js_sys::Array::from(&get(&answers.get(0), "tokens"));
    assert!(get(&tokens.get(0), "ratio").as_f64().unwrap() > 0.0);
    assert!(web::inspect_untrained(request, 1.0, 99.0, 0.0).is_err());
    assert!(web::inspect_untrained("{", 1.0, 0.0, 0.0).is_err());
    assert!(web::inspect_policy("{}", 0.0, 0.0).is_err());
    // Lesson 10's pipeline figure: a run without SFT or pass@k draws nothing; bad JSON is an
    // error, never a panic.
    assert!(web::draw_pipeline_run("t-passk", "[]").unwrap().is_null());
    assert!(web::draw_pipeline_run("t-passk", "{").is_err());
}
