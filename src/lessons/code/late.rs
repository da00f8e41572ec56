//! Lessons 7–9's exercises: the response mask, the reductions, the group advantages and the
//! KL estimators; and the vectors of the snippets that are no exercise.

use super::{outputs, value, Case, CodeExercise, Named};
use crate::rl::{self, AdvantageEstimator, Grid, Reduction};
use crate::{lessons, Result};
use ndarray::{aview1, Array1, Array2};
use serde_json::{json, Value};

type Out = Result<Named>;
/// What, input ids, prompt lengths, PAD, EOS, include_eos.
type MaskCase = (&'static str, Vec<Vec<i64>>, Vec<usize>, i64, i64, bool);
/// What, terms, mask, reduction, max_length.
type ReduceCase = (String, Grid, Grid, Value, Option<usize>);
/// What, log-probs, reference log-probs, mask.
type KlCase<'a> = (&'static str, &'a Grid, &'a Grid, &'a Grid);

fn grid(rows: &[Vec<f64>]) -> Result<Array2<f64>> {
    rl::array2("grid", rows)
}

pub(super) fn response_token_mask() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "response_token_mask",
        "Маска токенов ответа",
        "tokens.html",
        "Напишите `response_token_mask(input_ids, prompt_lengths, pad_token_id, eos_token_id, \
         include_eos=True)`: маску формы [B, T − 1], где столбец k относится к метке \
         input_ids[b, k + 1]. Метка входит, если её позиция ≥ prompt_lengths[b], она не PAD и \
         стоит не после первого EOS ответа; сам EOS входит при include_eos. PAD пропускается \
         где угодно и ответ не обрывает; EOS внутри запроса не считается. Проверяйте PAD \
         раньше EOS, как в курсе.",
    );
    const UNSHIFTED: &str = "Похоже, маска не сдвинута: нужна форма [B, T − 1], столбец k — \
        метка input_ids[b, k + 1] (логиты позиции k предсказывают следующий токен).";
    const NO_EOS: &str = "Похоже, EOS не вошёл в маску. При include_eos=True он — действие \
        политики, как любой токен ответа: модель должна учиться останавливаться.";
    const NO_STOP: &str = "Похоже, ответ не кончается на первом EOS: токены после него \
        (мусор генерации или следующий PAD) не должны входить в маску.";
    const EOS_FIRST: &str = "Похоже, EOS проверяется раньше PAD. В курсе и в ядре книги \
        первым идёт PAD, поэтому при PAD == EOS конец ответа не виден и в маску не входит — \
        известная ловушка: на практике PAD делают отличным от EOS или маску строят по длинам.";
    let run = |ids: &[Vec<i64>], lens: &[usize], pad: i64, eos: i64, with_eos: bool| -> Out {
        let ids = rl::array2("input_ids", ids)?;
        let m = rl::response_token_mask(ids.view(), aview1(lens), pad, eos, with_eos)?;
        Ok(outputs(&[("mask", value(rl::rows(m.view())))]))
    };
    let unshifted = |ids: &[Vec<i64>], lens: &[usize], pad: i64, eos: i64, with_eos: bool| -> Out {
        let ids = rl::array2("input_ids", ids)?;
        let m = rl::response_token_mask(ids.view(), aview1(lens), pad, eos, with_eos)?;
        let rows: Vec<Vec<f64>> = rl::rows(m.view())
            .into_iter()
            .map(|r| std::iter::once(0.0).chain(r).collect())
            .collect();
        Ok(outputs(&[("mask", value(rows))]))
    };
    let ex7 = lessons::tokens::token_example();
    let (pad, eos) = (lessons::tokens::TOKEN_PAD, lessons::tokens::TOKEN_EOS);
    // An id no input holds: an EOS test that never fires, a PAD test that never fires.
    let none = -1;
    let cases: Vec<MaskCase> = vec![
        (
            "пример урока 7",
            ex7.input_ids.clone(),
            ex7.prompt_lengths.clone(),
            pad,
            eos,
            true,
        ),
        (
            "пример урока 7 без EOS в маске (include_eos=False)",
            ex7.input_ids.clone(),
            ex7.prompt_lengths.clone(),
            pad,
            eos,
            false,
        ),
        (
            "PAD посреди ответа пропускается, ответ продолжается",
            vec![vec![1, 10, 0, 11, 2, 7]],
            vec![2],
            pad,
            eos,
            true,
        ),
        (
            "EOS внутри запроса не считается",
            vec![vec![1, 2, 5, 6, 2, 0]],
            vec![3],
            pad,
            eos,
            true,
        ),
        (
            "PAD == EOS: проверка PAD первой прячет конец ответа",
            vec![vec![1, 10, 11, 12, 2, 2, 2]],
            vec![2],
            2,
            2,
            true,
        ),
        (
            "строка без токенов ответа",
            vec![vec![1, 10, 11, 12], vec![1, 13, 2, 0]],
            vec![4, 2],
            pad,
            eos,
            true,
        ),
    ];
    for (about, ids, lens, p, e, with_eos) in &cases {
        let inputs = [
            ("input_ids", json!(ids)),
            ("prompt_lengths", json!(lens)),
            ("pad_token_id", json!(p)),
            ("eos_token_id", json!(e)),
            ("include_eos", json!(with_eos)),
        ];
        ex.add(
            Case::new(
                "response_token_mask",
                *about,
                &inputs,
                run(ids, lens, *p, *e, *with_eos),
            )
            .mistake(UNSHIFTED, unshifted(ids, lens, *p, *e, *with_eos))
            .mistake(NO_EOS, run(ids, lens, *p, *e, !with_eos))
            .mistake(NO_STOP, run(ids, lens, *p, none, *with_eos))
            .mistake(EOS_FIRST, run(ids, lens, none, *e, *with_eos)),
        );
    }
    Ok(ex)
}

pub(super) fn aggregate_token_terms() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "aggregate_token_terms",
        "Редукции по токенам",
        "tokens.html",
        "Напишите `aggregate_token_terms(terms, mask, reduction, max_length=None)`: с s_b — \
         суммой членов строки b по маске и n_b — числом токенов ответа верните token_mean = \
         Σs_b / max(Σn_b, 1), sequence_mean = (1/B)·Σ s_b / max(n_b, 1), sequence_sum_mean = \
         (1/B)·Σ s_b или constant_length = Σs_b / (B·max_length). Пустые строки дают 0, но \
         входят в B. Неизвестная редукция, маска не из 0 и 1, max_length < 1 или меньше \
         какого-то n_b у constant_length — ошибка.",
    );
    const SWAPPED: &str = "Похоже, token_mean и sequence_mean перепутаны: token_mean делит \
        общую сумму на общее число токенов, sequence_mean усредняет средние по ответам.";
    const EMPTY_ROWS: &str = "Похоже, пустые строки выброшены из среднего по B. Ответ без \
        токенов даёт 0, но остаётся в пакете: делите на B, а не на число непустых строк.";
    const OFF_MASK: &str = "Похоже, суммируются и члены вне маски (запрос, PAD). s_b — сумма \
        только по токенам ответа: умножьте на маску или возьмите np.where.";
    let reduce = |sums: &[f64], counts: &[f64], r: Reduction, l: Option<usize>| -> Out {
        Ok(outputs(&[("value", value(r.reduce(sums, counts, l)?))]))
    };
    let parts = |terms: &[Vec<f64>], mask: &[Vec<f64>]| -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let masked = terms
            .iter()
            .zip(mask)
            .map(|(t, m)| {
                t.iter()
                    .zip(m)
                    .filter(|(_, &m)| m == 1.0)
                    .map(|(t, _)| t)
                    .sum()
            })
            .collect();
        let all = terms.iter().map(|t| t.iter().sum()).collect();
        let counts = mask.iter().map(|m| m.iter().sum()).collect();
        (masked, all, counts)
    };
    let run = |terms: &[Vec<f64>], mask: &[Vec<f64>], r: Reduction, l: Option<usize>| -> Out {
        let v = rl::aggregate_token_terms(grid(terms)?.view(), grid(mask)?.view(), r, l)?;
        Ok(outputs(&[("value", value(v))]))
    };
    let t7 = lessons::tokens::tokens(0.2)?;
    let junk = vec![
        vec![0.5, -1.0, 9.0, 9.0],
        vec![2.0, 9.0, 9.0, 9.0],
        vec![9.0, 9.0, 9.0, 9.0],
    ];
    let junk_mask = vec![
        vec![1.0, 1.0, 0.0, 0.0],
        vec![1.0, 0.0, 0.0, 0.0],
        vec![0.0; 4],
    ];
    let width = t7.mask[0].len();
    let mut cases: Vec<ReduceCase> = Vec::new();
    for r in Reduction::EVERY {
        let l = (r == Reduction::ConstantLength).then_some(width);
        cases.push((
            format!("пример урока 7, {}", r.name()),
            t7.pessimistic.clone(),
            t7.mask.clone(),
            json!(r.name()),
            l,
        ));
    }
    for r in Reduction::EVERY {
        let l = (r == Reduction::ConstantLength).then_some(4);
        cases.push((
            format!("пустая строка и мусор вне маски, {}", r.name()),
            junk.clone(),
            junk_mask.clone(),
            json!(r.name()),
            l,
        ));
    }
    let empty = vec![vec![0.0; 3]; 2];
    cases.push((
        "все строки пусты: 0".into(),
        vec![vec![1.0; 3]; 2],
        empty,
        json!("sequence_mean"),
        None,
    ));
    for (about, terms, mask, name, l) in &cases {
        let inputs = [
            ("terms", json!(terms)),
            ("mask", json!(mask)),
            ("reduction", name.clone()),
            ("max_length", json!(l)),
        ];
        let r: Reduction = name.as_str().unwrap_or_default().parse()?;
        let (masked, all, counts) = parts(terms, mask);
        let swapped = match r {
            Reduction::TokenMean => Reduction::SequenceMean,
            Reduction::SequenceMean => Reduction::TokenMean,
            other => other,
        };
        let non_empty: Vec<usize> = (0..counts.len()).filter(|&b| counts[b] > 0.0).collect();
        let pick = |xs: &[f64]| -> Vec<f64> { non_empty.iter().map(|&b| xs[b]).collect() };
        ex.add(
            Case::new(
                "aggregate_token_terms",
                about.clone(),
                &inputs,
                run(terms, mask, r, *l),
            )
            .mistake(SWAPPED, reduce(&masked, &counts, swapped, *l))
            .mistake(EMPTY_ROWS, reduce(&pick(&masked), &pick(&counts), r, *l))
            .mistake(OFF_MASK, reduce(&all, &counts, r, *l)),
        );
    }
    let errors: [(&str, Value, Option<usize>); 2] = [
        (
            "constant_length с max_length меньше длины ответа: ошибка",
            json!("constant_length"),
            Some(1),
        ),
        ("неизвестная редукция «mean»: ошибка", json!("mean"), None),
    ];
    for (about, name, l) in errors {
        let answer = name
            .as_str()
            .unwrap_or_default()
            .parse::<Reduction>()
            .and_then(|r| run(&junk, &junk_mask, r, l));
        let inputs = [
            ("terms", json!(junk)),
            ("mask", json!(junk_mask)),
            ("reduction", name),
            ("max_length", json!(l)),
        ];
        ex.add(Case::new("aggregate_token_terms", about, &inputs, answer));
    }
    Ok(ex)
}

pub(super) fn group_advantages() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "group_advantages",
        "Преимущества группы: пять оценок",
        "grpo.html",
        "Напишите `group_advantages(rewards, estimator, eps=1e-8)` для одной группы из G \
         ответов: none — r_i; mean — r_i − r̄ (Dr. GRPO); rloo — r_i − среднее остальных \
         (G ≥ 2); mean_std_population и mean_std_sample — (r_i − r̄)/std с ddof 0 и 1 (GRPO), \
         нули, если std < eps. Пустая группа, неизвестная оценка, отрицательный eps, rloo или \
         mean_std_sample при G = 1 — ошибка.",
    );
    const DDOF: &str = "Похоже, перепутаны ddof: mean_std_population делит на G (ddof = 0), \
        mean_std_sample — на G − 1 (ddof = 1, как .std() в PyTorch). np.std по умолчанию — ddof = 0.";
    const RLOO_AS_MEAN: &str = "Похоже, для rloo вычтено среднее всей группы вместе с самим \
        ответом. RLOO вычитает среднее остальных: r_i − (S − r_i)/(G − 1).";
    const NO_GUARD: &str = "Похоже, при одинаковых наградах std = 0 и деление дало nan. Такая \
        группа ничему не учит: при std < eps верните нули.";
    let run = |r: &[f64], e: AdvantageEstimator| -> Out {
        Ok(outputs(&[(
            "advantages",
            value(rl::group_advantages(aview1(r), e, 1e-8)?.to_vec()),
        )]))
    };
    let unguarded = |r: &[f64], e: AdvantageEstimator| -> Out {
        let a = rl::group_advantages(aview1(r), e, 1e-8)?;
        let flat = a.iter().all(|&x| x == 0.0) && !matches!(e, AdvantageEstimator::None);
        let out: Array1<f64> = if flat { a.mapv(|_| f64::NAN) } else { a };
        Ok(outputs(&[("advantages", value(out.to_vec()))]))
    };
    use AdvantageEstimator as E;
    let group = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let equal = vec![1.0; 4];
    let mut cases: Vec<(String, Vec<f64>, E)> = E::ALL
        .iter()
        .map(|&e| (format!("группа урока 9, {}", e.name()), group.clone(), e))
        .collect();
    for e in [E::MeanStdPopulation, E::MeanStdSample] {
        cases.push((
            format!("все награды равны, {}: нули", e.name()),
            equal.clone(),
            e,
        ));
    }
    cases.push(("один ответ, mean: 0".into(), vec![1.0], E::Mean));
    for (about, r, e) in &cases {
        let inputs = [
            ("rewards", json!(r)),
            ("estimator", json!(e.name())),
            ("eps", json!(1e-8)),
        ];
        let other = match e {
            E::MeanStdPopulation => Some(E::MeanStdSample),
            E::MeanStdSample => Some(E::MeanStdPopulation),
            _ => None,
        };
        let mut case = Case::new("group_advantages", about.clone(), &inputs, run(r, *e));
        if let Some(o) = other {
            case = case.mistake(DDOF, run(r, o));
        }
        if *e == E::Rloo {
            case = case.mistake(RLOO_AS_MEAN, run(r, E::Mean));
        }
        ex.add(case.mistake(NO_GUARD, unguarded(r, *e)));
    }
    let errors: [(&str, Vec<f64>, &str, f64); 4] = [
        ("один ответ, rloo: ошибка", vec![1.0], "rloo", 1e-8),
        (
            "один ответ, mean_std_sample: ошибка",
            vec![1.0],
            "mean_std_sample",
            1e-8,
        ),
        (
            "неизвестная оценка «std»: ошибка",
            group.clone(),
            "std",
            1e-8,
        ),
        (
            "отрицательный eps: ошибка",
            group.clone(),
            "mean_std_population",
            -1.0,
        ),
    ];
    for (about, r, name, eps) in errors {
        let answer = name.parse::<E>().and_then(|e| {
            Ok(outputs(&[(
                "advantages",
                value(rl::group_advantages(aview1(&r), e, eps)?.to_vec()),
            )]))
        });
        let inputs = [
            ("rewards", json!(r)),
            ("estimator", json!(name)),
            ("eps", json!(eps)),
        ];
        ex.add(Case::new("group_advantages", about, &inputs, answer));
    }
    Ok(ex)
}

pub(super) fn kl_estimators() -> Result<CodeExercise> {
    let mut ex = CodeExercise::new(
        "kl_estimators",
        "Оценки KL k1, k2, k3",
        "grpo.html",
        "Напишите `kl_estimators(log_probs, ref_log_probs, mask)`: с d = log_probs − \
         ref_log_probs на токенах маски — dict с k1 = d, k2 = d²/2, k3 = e^(−d) − 1 + d (каждый \
         [B, T], ровно 0 вне маски) и их средними k1_mean, k2_mean, k3_mean = сумма / max(число \
         единиц маски, 1). Вне маски стоят значения вплоть до ±1e4: они не должны попасть в exp. \
         Формы не совпадают или маска не из 0 и 1 — ошибка.",
    );
    const SIGN: &str = "Похоже, d взято с обратным знаком: d = log π_θ − log π_ref, логарифм \
        текущей политики минус логарифм опорной.";
    const OFF_MASK: &str = "Похоже, exp применён до маски: вне ответа стоят числа вроде ±1e4, \
        и e^(−d) переполняется. Сначала обнулите d вне маски (np.where), потом считайте.";
    const HALF: &str = "Похоже, у k2 забыта половина: k2 = d²/2.";
    let run = |lp: &[Vec<f64>], rf: &[Vec<f64>], m: &[Vec<f64>], half: f64| -> Out {
        let k = rl::kl_estimators(grid(lp)?.view(), grid(rf)?.view(), grid(m)?.view())?;
        Ok(outputs(&[
            ("k1", value(rl::rows(k.k1.view()))),
            ("k2", value(rl::rows(k.k2.mapv(|x| x * half).view()))),
            ("k3", value(rl::rows(k.k3.view()))),
            ("k1_mean", value(k.k1_mean)),
            ("k2_mean", value(k.k2_mean * half)),
            ("k3_mean", value(k.k3_mean)),
        ]))
    };
    let overflow = |lp: &[Vec<f64>], rf: &[Vec<f64>], m: &[Vec<f64>]| -> Out {
        let mut out = run(lp, rf, m, 1.0)?;
        let junk = lp.iter().zip(rf).zip(m).any(|((l, r), m)| {
            l.iter()
                .zip(r)
                .zip(m)
                .any(|((l, r), &m)| m == 0.0 && (r - l) > 700.0)
        });
        if junk {
            out.set("k3", Value::Null);
        }
        Ok(out)
    };
    let lp = vec![vec![-1.5]];
    let rf = vec![vec![-0.7]];
    let one = vec![vec![1.0]];
    let b_lp = vec![vec![-0.5, -1.0, -1.0e4], vec![-2.0, 1.0e4, -0.1]];
    let b_rf = vec![vec![-0.7, -0.4, 1.0e4], vec![-1.0, -1.0e4, -0.3]];
    let b_m = vec![vec![1.0, 1.0, 0.0], vec![1.0, 0.0, 1.0]];
    let cases: [KlCase; 3] = [
        ("один токен (упражнение урока 9)", &lp, &rf, &one),
        ("пакет 2 × 3, вне маски ±1e4", &b_lp, &b_rf, &b_m),
        (
            "маска пуста: всё по нулям",
            &b_lp,
            &b_rf,
            &vec![vec![0.0; 3]; 2],
        ),
    ];
    for (about, l, r, m) in cases {
        let inputs = [
            ("log_probs", json!(l)),
            ("ref_log_probs", json!(r)),
            ("mask", json!(m)),
        ];
        ex.add(
            Case::new("kl_estimators", about, &inputs, run(l, r, m, 1.0))
                .mistake(SIGN, run(r, l, m, 1.0))
                .mistake(OFF_MASK, overflow(l, r, m))
                .mistake(HALF, run(l, r, m, 2.0)),
        );
    }
    let half_mask = vec![vec![0.5]];
    let errors: [KlCase; 2] = [
        ("маска 0,5: ошибка", &lp, &rf, &half_mask),
        ("формы не совпадают: ошибка", &b_lp, &rf, &b_m),
    ];
    for (about, l, r, m) in errors {
        let inputs = [
            ("log_probs", json!(l)),
            ("ref_log_probs", json!(r)),
            ("mask", json!(m)),
        ];
        ex.add(Case::new(
            "kl_estimators",
            about,
            &inputs,
            run(l, r, m, 1.0),
        ));
    }
    Ok(ex)
}

/// The vectors of the snippets that are no exercise.
pub(super) fn snippet_cases() -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    // Lesson 1: −(1/N)·f_i·(e_{a_i} − π_i), row by row, from the core's score.
    let score = lessons::score::score()?;
    let k = score.logits.len();
    let logits = vec![
        score.logits.clone(),
        score.logits.clone(),
        score.logits.clone(),
    ];
    let actions: Vec<usize> = (0..3).map(|i| i % k).collect();
    let weights = [2.0, -1.0, 0.5];
    let n = actions.len() as f64;
    let grad = |z: &[f64], a: usize, f: f64| -> Result<Vec<f64>> {
        Ok(rl::grad_log_softmax(z, a)?
            .iter()
            .map(|g| -f * g / n)
            .collect())
    };
    let rows: Result<Vec<Vec<f64>>> = (0..3)
        .map(|i| grad(&logits[i], actions[i], weights[i]))
        .collect();
    let inputs = [
        ("logits", json!(logits)),
        ("actions", json!(actions)),
        ("weights", json!(weights)),
    ];
    cases.push(Case::new(
        "surrogate_grad",
        "три примера урока 1",
        &inputs,
        rows.map(|g| outputs(&[("grad", value(g))])),
    ));
    // Lesson 7's shift: log π of each next token, by the core's log-softmax.
    let ids = vec![vec![1i64, 3, 0, 2], vec![2, 2, 1, 0]];
    let logits: Vec<Vec<Vec<f64>>> = (0..2)
        .map(|b| {
            (0..4)
                .map(|t| {
                    (0..4)
                        .map(|v| ((b * 7 + t * 3 + v * 5) % 11) as f64 * 0.3 - 1.0)
                        .collect()
                })
                .collect()
        })
        .collect();
    let shifted: Result<Vec<Vec<f64>>> = (0..2)
        .map(|b| {
            (0..3)
                .map(|t| Ok(rl::log_softmax(&logits[b][t])?[ids[b][t + 1] as usize]))
                .collect()
        })
        .collect();
    let inputs = [("logits", json!(logits)), ("input_ids", json!(ids))];
    cases.push(Case::new(
        "token_log_probs",
        "причинный сдвиг на пакете 2 × 4, словарь из 4",
        &inputs,
        shifted.map(|l| outputs(&[("log_probs", value(l))])),
    ));
    // Lessons 3 and 8: RLOO advantages of the worked group.
    let rloo = lessons::baselines::rloo()?;
    let inputs = [("rewards", json!(rloo.rewards))];
    let answer = rl::rloo_advantages(aview1(&rloo.rewards))
        .map(|a| outputs(&[("advantages", value(a.to_vec()))]));
    cases.push(Case::new(
        "rloo_advantages",
        "группа урока 3",
        &inputs,
        answer,
    ));
    Ok(cases)
}
