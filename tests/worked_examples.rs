//! The lessons' worked examples, read from `reference_cases.json` → `worked_examples`.

#![cfg(not(target_arch = "wasm32"))]

use crate::common::{close, f, load_fixture, vec_f64};
use ndarray::aview1;
use pgbook::rl::{self, Reduction};
use serde_json::Value;

fn example(name: &str) -> Value {
    let v = load_fixture("reference_cases.json")["worked_examples"][name].clone();
    assert!(
        v.is_object(),
        "worked example `{name}` is missing from reference_cases.json"
    );
    v
}

fn grid(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .expect("2-D array")
        .iter()
        .map(vec_f64)
        .collect()
}

fn assert_all_close(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(close(*a, *e), "{what}[{i}]: {a} != {e}");
    }
}

#[test]
fn gae_with_two_masks_gives_8_and_100() {
    let ex = example("gae_two_masks");
    let x = &ex["inputs"];
    let bools = |k: &str| {
        x[k].as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_bool().unwrap())
            .collect::<Vec<_>>()
    };
    let values = vec_f64(&x["values"]);
    let adv = rl::gae_advantages(
        &vec_f64(&x["rewards"]),
        &values,
        &vec_f64(&x["next_values"]),
        &bools("terminated"),
        &bools("trace_cuts"),
        f(&x["gamma"]),
        f(&x["gae_lambda"]),
    )
    .unwrap();
    assert_all_close(&adv, &vec_f64(&ex["expected"]["advantages"]), "advantages");
    assert_eq!(adv, vec![8.0, 100.0]);
    // The value target of the first record is A_0 + V_0 = 10: the bootstrap survives the cut.
    assert!(close(
        adv[0] + values[0],
        f(&ex["expected"]["value_target_first"])
    ));
}

#[test]
fn ppo_four_rows_outside_1_active_half_kl_0_1438() {
    let ex = example("ppo_clipping_four_rows");
    let (x, e) = (&ex["inputs"], &ex["expected"]);
    let eps = f(&x["clip_epsilon"]);
    let terms =
        rl::ppo_clipped_terms(&vec_f64(&x["ratio"]), &vec_f64(&x["advantage"]), eps).unwrap();
    assert_all_close(&terms.unclipped, &vec_f64(&e["unclipped"]), "unclipped");
    assert_all_close(&terms.clipped, &vec_f64(&e["clipped"]), "clipped");
    assert_all_close(
        &terms.pessimistic,
        &vec_f64(&e["pessimistic"]),
        "pessimistic",
    );
    let mean = terms.pessimistic.iter().sum::<f64>() / 4.0;
    assert!(close(mean, f(&e["mean_objective"])));
    let d = rl::ppo_diagnostics(
        &vec_f64(&x["new_log_prob"]),
        &vec_f64(&x["old_log_prob"]),
        &vec_f64(&x["advantage"]),
        eps,
    )
    .unwrap();
    assert_eq!(d.ratio_outside_fraction, 1.0);
    assert_eq!(d.active_clip_fraction, 0.5);
    assert!(
        close(d.approx_kl_nonnegative, 0.14384103622589045),
        "{}",
        d.approx_kl_nonnegative
    );
    assert!(close(
        d.approx_kl_nonnegative,
        f(&e["approx_kl_nonnegative"])
    ));
    assert!(close(d.mean_log_ratio, f(&e["mean_log_ratio"])));
}

#[test]
fn rloo_is_four_thirds_of_centered_in_a_group_of_four() {
    let ex = example("rloo_group_of_four");
    let (x, e) = (&ex["inputs"], &ex["expected"]);
    let rewards = vec_f64(&x["rewards"]);
    let centered = rl::group_mean_advantages(aview1(&rewards))
        .unwrap()
        .to_vec();
    let baselines = rl::leave_one_out_baselines(aview1(&rewards))
        .unwrap()
        .to_vec();
    let rloo = rl::rloo_advantages(aview1(&rewards)).unwrap().to_vec();
    assert_all_close(&centered, &vec_f64(&e["centered_advantages"]), "centered");
    assert_all_close(
        &baselines,
        &vec_f64(&e["leave_one_out_baselines"]),
        "baselines",
    );
    assert_all_close(&rloo, &vec_f64(&e["rloo_advantages"]), "rloo");
    for (r, c) in rloo.iter().zip(&centered) {
        assert!(close(*r, 4.0 / 3.0 * c), "{r} != 4/3 · {c}");
    }
    assert!(close(f(&e["rloo_over_centered"]), 4.0 / 3.0));
}

#[test]
fn token_example_mask_ratios_and_three_reductions() {
    let ex = example("token_mask_section4");
    let (x, e) = (&ex["inputs"], &ex["expected"]);
    let ids: Vec<Vec<i64>> = x["input_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect()
        })
        .collect();
    let lengths: Vec<usize> = x["prompt_lengths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let (ids, lengths) = (rl::array2("input_ids", &ids).unwrap(), aview1(&lengths));
    let mask = rl::response_token_mask(ids.view(), lengths, 0, 2, true).unwrap();
    assert_eq!(rl::rows(mask.view()), grid(&e["mask"]));
    assert_eq!(
        rl::rows(
            rl::response_token_mask(ids.view(), lengths, 0, 2, false)
                .unwrap()
                .view()
        ),
        grid(&e["mask_include_eos_false"])
    );
    let (new, old) = (grid(&x["new_log_probs"]), grid(&x["old_log_probs"]));
    let (new, old) = (
        rl::array2("new", &new).unwrap(),
        rl::array2("old", &old).unwrap(),
    );
    let (new, old, mask) = (new.view(), old.view(), mask.view());
    let adv = vec_f64(&x["advantages"]);
    let adv = aview1(&adv);
    let terms = rl::masked_token_ppo_terms(new, old, adv, mask, 0.2).unwrap();
    for (name, got) in [
        ("ratio", &terms.ratio),
        ("unclipped", &terms.unclipped),
        ("clipped", &terms.clipped),
        ("pessimistic", &terms.pessimistic),
    ] {
        let want = grid(&e[name]);
        for (b, row) in rl::rows(got.view()).iter().enumerate() {
            assert_all_close(row, &want[b], name);
        }
    }
    // The ±20…50 junk at masked positions never reaches exp: the ratio there is exactly 1.
    assert_eq!(terms.ratio[[1, 5]], 1.0);
    let seq = rl::sequence_log_probability_ratio(new, old, mask)
        .unwrap()
        .to_vec();
    assert_all_close(
        &seq,
        &vec_f64(&e["sequence_log_ratio"]),
        "sequence_log_ratio",
    );
    let ratio = rl::sequence_probability_ratio(new, old, mask)
        .unwrap()
        .to_vec();
    assert_all_close(&ratio, &vec_f64(&e["sequence_ratio"]), "sequence_ratio");
    for r in Reduction::ALL {
        let v = rl::masked_token_ppo_objective(new, old, adv, mask, 0.2, r).unwrap();
        assert!(close(v, f(&e["objective"][r.name()])), "{r}: {v}");
    }
}

/// The lessons also describe their examples in words («все четыре отношения лежат вне
/// интервала», «награда … относится к другому эпизоду», «два токена запроса, два токена ответа»):
/// the core's examples are the course's, whose outcomes the tests above pin, so those words
/// stay true while the numbers are filled from the core.
#[test]
fn the_lessons_examples_are_the_courses() {
    use pgbook::lessons;
    let gae = lessons::gae::worked().unwrap();
    let inp = &example("gae_two_masks")["inputs"];
    assert_eq!(gae.trajectory.rewards, vec_f64(&inp["rewards"]));
    assert_eq!(gae.trajectory.values, vec_f64(&inp["values"]));
    assert_eq!(gae.trajectory.next_values, vec_f64(&inp["next_values"]));
    assert_eq!(gae.analysis.gamma, f(&inp["gamma"]));
    assert_eq!(gae.analysis.lambda, f(&inp["gae_lambda"]));
    let ppo = lessons::clipping::ppo().unwrap();
    let inp = &example("ppo_clipping_four_rows")["inputs"];
    assert_eq!(ppo.ratio, vec_f64(&inp["ratio"]));
    assert_eq!(ppo.advantage, vec_f64(&inp["advantage"]));
    assert_eq!(ppo.clip_epsilon, f(&inp["clip_epsilon"]));
    let rloo = lessons::baselines::rloo().unwrap();
    assert_eq!(
        rloo.rewards,
        vec_f64(&example("rloo_group_of_four")["inputs"]["rewards"])
    );
    let inp = &example("token_mask_section4")["inputs"];
    let tokens = lessons::tokens::tokens(f(&inp["clip_epsilon"])).unwrap();
    let ids: Vec<Vec<f64>> = tokens
        .input_ids
        .iter()
        .map(|row| row.iter().map(|&x| x as f64).collect())
        .collect();
    assert_eq!(ids, grid(&inp["input_ids"]));
    let lengths: Vec<f64> = tokens.prompt_lengths.iter().map(|&n| n as f64).collect();
    assert_eq!(lengths, vec_f64(&inp["prompt_lengths"]));
    assert_eq!(tokens.advantages, vec_f64(&inp["advantages"]));
}
