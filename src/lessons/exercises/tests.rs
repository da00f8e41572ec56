use super::*;
use crate::lessons;

fn texts(xs: &[f64]) -> Vec<String> {
    xs.iter()
        .map(|x| format!("{x:.4}").replace('.', ",").replace('-', "−"))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn right_and_wrong_answers() {
    let all = exercises().unwrap();
    for (n, ex) in &all {
        if ex.options > 0 {
            let right: Vec<String> = ex.correct_options.iter().map(|k| k.to_string()).collect();
            assert!(check(*n, &right).unwrap().correct, "{n}");
            assert!(!check(*n, &["1".into()]).unwrap().correct, "{n}");
            assert!(!check(*n, &[]).unwrap().correct);
        } else {
            let right = texts(&ex.expected);
            assert!(check(*n, &right).unwrap().correct, "{n}: {right:?}");
            let mut wrong = ex.expected.clone();
            wrong[0] += 0.1;
            let c = check(*n, &texts(&wrong)).unwrap();
            assert!(!c.correct && !c.items[0], "{n}");
            assert!(c.message.contains("поля 1"), "{}", c.message);
        }
    }
    let numbered: Vec<usize> = all.keys().copied().collect();
    let mut want = vec![1, 6, 9];
    want.extend(11..=35);
    assert_eq!(numbered, want);
}

/// Each typical mistake gets its own hint, and a different wrong answer does not.
#[test]
fn typical_mistakes_get_their_hint() {
    let all = exercises().unwrap();
    let mut hinted = Vec::new();
    for (n, ex) in &all {
        for m in &ex.mistakes {
            assert_eq!(m.values.len(), ex.expected.len(), "{n}");
            let differs = m
                .values
                .iter()
                .zip(&ex.expected)
                .any(|(a, b)| (a - b).abs() > ex.tolerance);
            assert!(differs, "{n}: the mistake is the right answer");
            let c = check(*n, &texts(&m.values)).unwrap();
            assert!(
                !c.correct && c.message.contains(m.hint),
                "{n}: {}",
                c.message
            );
            hinted.push(*n);
        }
        if !ex.mistakes.is_empty() {
            let mut other = ex.expected.clone();
            other[0] += 1.0;
            let c = check(*n, &texts(&other)).unwrap();
            assert!(
                ex.mistakes.iter().all(|m| !c.message.contains(m.hint)),
                "{n}"
            );
        }
    }
    for n in [9, 11, 12, 13, 14, 15, 16, 19, 23, 24, 25, 26, 27] {
        assert!(hinted.contains(&n), "exercise {n} has no typical mistake");
    }
    for n in 28..=35 {
        assert!(hinted.contains(&n), "exercise {n} has no typical mistake");
    }
}

/// Exercises 9 and 11–16 do not reuse the lessons' worked examples (they test transfer).
#[test]
fn the_numeric_exercises_have_inputs_of_their_own() {
    let all = exercises().unwrap();
    let w = lessons::worked_examples().unwrap();
    let given = |n: usize, name: &str| all[&n].given[name].clone();
    assert_ne!(given(11, "logits"), w.score.logits);
    assert_ne!(given(12, "rewards"), w.returns.rewards);
    assert_ne!(given(13, "q"), w.bstar.q);
    assert_ne!(given(14, "rewards"), w.rloo.rewards);
    assert_ne!(given(15, "rewards"), w.gae.trajectory.rewards);
    assert_ne!(given(16, "ratio"), w.ppo.ratio);
    assert_eq!(given(9, "ratio"), given(16, "ratio"));
    // And no answer is a worked example's answer.
    for (n, worked) in [
        (11, [w.score.probs.clone(), w.score.grad.clone()].concat()),
        (14, [vec![w.rloo.group_mean], w.rloo.rloo.clone()].concat()),
    ] {
        assert_ne!(all[&n].expected, worked, "{n}");
    }
}

#[test]
fn the_numeric_exercises_expected_values() {
    let all = exercises().unwrap();
    let e = |n: usize| all[&n].expected.clone();
    // 9: rows 1, 2 and 4 leave [0.8, 1.2]; clipping changes the minimum in rows 1 and 4.
    assert_eq!(e(9), vec![0.75, 0.5]);
    // 12: G = (0 + 0.8·2.8, 2 + 0.8·1, 1), weights (2.24, 0.8·2.8, 0.64·1).
    let want = [2.24, 2.8, 1.0, 2.24, 2.24, 0.64];
    assert!(e(12).iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
    // 13: V = 0.7·2 − 0.3 = 1.1; ‖u‖² = 2(1 − p)² = (0.18, 0.98); b* = −0.042/0.42 = −0.1.
    let want = [1.1, 0.18, 0.98, -0.1];
    assert!(e(13).iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
    // 14: mean 0.5, RLOO = 5/4 · (R − 0.5).
    assert_eq!(e(14), vec![0.5, 0.625, -0.625, -0.625, 0.625, 0.0]);
    // 15: δ_0 = 1 + 0.9·6 − 4, δ_1 = 5 − 3; both records cut the trace.
    let want = [2.4, 2.0, 2.4, 2.0, 6.4, 5.0];
    assert!(e(15).iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
    // 16: min(2.6, 2.4), min(0.7, 0.8), −1.1, min(−0.375, −0.4); their mean 0.4.
    let want = [2.4, 0.7, -1.1, -0.4, 0.4];
    assert!(e(16).iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
    // One success of four: σ = √(1/4 · 3/4), z = 0.75/σ = √3; two of four: σ = 0.5, z = 1.
    assert!((e(24)[0] - (0.1875f64).sqrt()).abs() < 1e-12);
    assert!((e(24)[1] - 3f64.sqrt()).abs() < 1e-6 && (e(24)[3] - 1.0).abs() < 1e-6);
    // The solution separates centring (0.75 against 0.5) from 1/σ (2.309 against 2).
    let s = &all[&24].solution;
    assert_eq!(s["centred"], vec![0.75, 0.5]);
    assert!((s["ratios"][1] - 2.0 / 3f64.sqrt()).abs() < 1e-12);
    // Value clipping: V_clip = 1,2, ½·0,8² = 0,32, no gradient.
    assert!((e(25)[0] - 1.2).abs() < 1e-12 && (e(25)[1] - 0.32).abs() < 1e-12);
    assert_eq!(e(25)[2], 0.0);
}

#[test]
fn lesson_nine_exercises() {
    let all = exercises().unwrap();
    // Two successes of six: mean 1/3; RLOO 1 − 1/5; σ = √(2/9), sample σ = √(4/15).
    let e = &all[&26].expected;
    let want = [
        2.0 / 3.0,
        0.8,
        (2.0 / 3.0) / (2.0f64 / 9.0).sqrt(),
        (2.0 / 3.0) / (4.0f64 / 15.0).sqrt(),
    ];
    for (got, want) in e.iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    let k = &all[&27].expected;
    assert!((k[0] + 0.8).abs() < 1e-12 && (k[1] - 0.32).abs() < 1e-12);
    assert!((k[2] - (crate::math::exp(0.8) - 1.8)).abs() < 1e-12);
}

#[test]
fn exercise_23_solution_doubles_the_first_answer() {
    let all = exercises().unwrap();
    let ex = &all[&23];
    assert!((ex.expected[0] - 0.530272250309676).abs() < 1e-12);
    let d = &ex.solution["doubled"];
    // sequence_mean keeps its value; token_mean and sequence_sum_mean both grow (audit I13).
    assert!(close(d[1], ex.expected[1]));
    assert!(d[0] > ex.expected[0] && d[2] > ex.expected[2]);
}

#[test]
fn the_readers_text_is_parsed_not_trusted() {
    assert_eq!(parse_answer(" −0,25 "), Some(-0.25));
    assert_eq!(parse_answer("1.5"), Some(1.5));
    for bad in ["", "abc", "1,2,3", "NaN", "inf", "0x10"] {
        assert_eq!(parse_answer(bad), None, "{bad}");
    }
    let c = check(
        14,
        &[
            "x".into(),
            "".into(),
            "".into(),
            "".into(),
            "".into(),
            "".into(),
        ],
    )
    .unwrap();
    assert!(!c.correct && c.message.contains("Не число в полях 1"));
    assert!(check(99, &[]).is_err());
    assert!(check(11, &["1".into()]).is_err());
    assert!(check(1, &["7".into()]).is_err());
}

#[test]
fn code_exercises_have_their_expected_values() {
    let all = exercises().unwrap();
    // e_0 − softmax(2, 0); G for rewards (0, 1, 1) at γ = 0.9; exercise 15's leak
    // 2.4 + 0.9·0.95·2.
    let e = |n: usize| all[&n].expected.clone();
    assert!((e(17)[0] + e(17)[1]).abs() < 1e-15);
    assert!((e(18)[0] - 0.9 * 1.9).abs() < 1e-12);
    assert!(
        (e(20)[0] - (2.4 + 0.9 * 0.95 * 2.0)).abs() < 1e-12,
        "{:?}",
        e(20)
    );
    assert_eq!(e(21)[..2], [0.0, 0.0]);
    assert_eq!(e(22), vec![0.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
}

/// 28: λ = 1 telescopes: Â_0 is the three-step return with its bootstrap minus V(s_0).
#[test]
fn the_telescoping_holds() {
    let all = exercises().unwrap();
    let ex = &all[&28];
    let t = &ex.solution["telescoped"];
    let v0 = derivations::SEGMENT_VALUES[0];
    assert!((ex.expected[3] - (t[2] - v0)).abs() < 1e-12);
    // 1 + 0 + 0.81·2 + 0.729·4 − 3 = 2.536.
    assert!((ex.expected[3] - 2.536).abs() < 1e-12, "{:?}", ex.expected);
}

/// 29: E_old[r·A] = E_new[A]; 30: the zero derivatives are exactly the active clips.
#[test]
fn importance_sampling_and_the_clip_gradient() {
    let all = exercises().unwrap();
    let is = &all[&29];
    assert!((is.expected[3] - is.solution["new_mean"][0]).abs() < 1e-12);
    assert!((is.expected[3] - is.solution["old_mean"][0]).abs() > 0.1);
    use derivations::{CLIP_ADVANTAGE, CLIP_EPSILON, CLIP_RATIO};
    let d = &all[&30].expected;
    let new_log_prob = CLIP_RATIO.map(crate::math::ln);
    let diag = crate::rl::ppo_diagnostics(&new_log_prob, &[0.0; 6], &CLIP_ADVANTAGE, CLIP_EPSILON)
        .unwrap();
    let zeros = d.iter().filter(|&&x| x == 0.0).count() as f64;
    assert!((zeros / 6.0 - diag.active_clip_fraction).abs() < 1e-12);
    assert!(diag.ratio_outside_fraction > diag.active_clip_fraction);
    assert_eq!(*d, vec![0.0, 2.0, 2.0, 0.0, -1.0, -1.0]);
}

/// 31–33: each function's result differs from the right one, where the exercise says.
#[test]
fn the_bugs_change_the_result() {
    let all = exercises().unwrap();
    let right = |n: usize| all[&n].solution["right"].clone();
    // 31: the truncated episode takes in the next one's advantage; the next one is unchanged.
    let (got, want) = (&all[&31].expected, right(31));
    assert!(got[0] != want[0] && got[1] != want[1]);
    assert_eq!(got[2..], want[2..]);
    assert!((got[1] - (want[1] + 0.9 * 0.8 * want[2])).abs() < 1e-12);
    // 32: the mask moved one column to the right: the first response token out, a PAD in.
    assert_eq!(all[&32].expected, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
    assert_eq!(right(32), vec![0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
    // 33: with PAD = EOS the project's mask drops the EOS; with two ids it keeps it.
    assert_eq!(all[&33].expected, vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(right(33), vec![0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
    let mut row = bugs::SAME_ROW;
    row[6] = crate::lessons::tokens::TOKEN_PAD;
    row[7] = crate::lessons::tokens::TOKEN_PAD;
    let two_ids = crate::rl::response_token_mask(
        ndarray::aview2(&[row]),
        ndarray::aview1(&[bugs::SAME_PROMPT]),
        crate::lessons::tokens::TOKEN_PAD,
        bugs::SAME_ID,
        true,
    )
    .unwrap();
    assert_eq!(two_ids.row(0).to_vec(), right(33));
}
