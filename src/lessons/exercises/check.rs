//! Checking a reader's answer to an exercise of `super`: the text parsed as a reader types a
//! number, compared with the right answer within the tolerance, the verdict in Russian naming
//! only what was judged wrong, and the hint of a typical mistake when the answer matches one.

use super::{exercises, Exercise, Mistake};
use crate::error::{Error, Name, Rule};
use crate::Result;
use serde::Serialize;

/// The verdict on one answer.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Check {
    pub correct: bool,
    /// What the page says (Russian).
    pub message: String,
    /// Numeric: whether each field is right; choice: whether each option was judged right.
    pub items: Vec<bool>,
}

/// A number as a reader types it: decimal comma or point, a hyphen or a real minus.
pub fn parse_answer(text: &str) -> Option<f64> {
    let t = text.trim().replace(',', ".").replace('−', "-");
    let ok = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    t.parse::<f64>().ok().filter(|x| ok && x.is_finite())
}

fn list(xs: &[usize]) -> String {
    xs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks exercise `number`: `answers` are the marked options' numbers (choice) or the fields'
/// texts in order (numeric).
pub fn check(number: usize, answers: &[String]) -> Result<Check> {
    let all = exercises()?;
    let ex = all.get(&number).ok_or_else(|| {
        let names: Vec<String> = all.keys().map(ToString::to_string).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        Error::unknown(Name::Exercise, number.to_string(), &names)
    })?;
    if ex.options > 0 {
        let mut marked = Vec::new();
        for a in answers {
            match a.trim().parse::<usize>() {
                Ok(k) if (1..=ex.options).contains(&k) => marked.push(k),
                _ => {
                    let rule = Rule::WholeNumber {
                        min: 1,
                        max: ex.options as u64,
                    };
                    return Err(Error::range("option", rule, a.as_str()));
                }
            }
        }
        let items: Vec<bool> = (1..=ex.options)
            .map(|k| marked.contains(&k) == ex.correct_options.contains(&k))
            .collect();
        let wrongly: Vec<usize> = marked
            .iter()
            .copied()
            .filter(|k| !ex.correct_options.contains(k))
            .collect();
        let missed: Vec<usize> = ex
            .correct_options
            .iter()
            .copied()
            .filter(|k| !marked.contains(k))
            .collect();
        let correct = wrongly.is_empty() && missed.is_empty();
        let message = if correct {
            "Верно: отмечены ровно верные утверждения. Почему каждое верно или неверно — под ним."
                .to_string()
        } else if marked.is_empty() {
            "Ничего не отмечено: отметьте утверждения, которые считаете верными.".to_string()
        } else {
            let mut parts = Vec::new();
            if !wrongly.is_empty() {
                parts.push(format!("неверные отмечены: {}", list(&wrongly)));
            }
            if !missed.is_empty() {
                parts.push(format!("не отмечено верных: {}", missed.len()));
            }
            format!(
                "Неверно: {}. Пояснения к отмеченным неверно — под ними.",
                parts.join("; ")
            )
        };
        return Ok(Check {
            correct,
            message,
            items,
        });
    }
    if answers.len() != ex.expected.len() {
        return Err(Error::shape(
            "answers",
            vec![ex.expected.len()],
            vec![answers.len()],
        ));
    }
    let mut items = Vec::with_capacity(answers.len());
    let (mut empty, mut unreadable) = (Vec::new(), Vec::new());
    for (i, (a, e)) in answers.iter().zip(&ex.expected).enumerate() {
        if a.trim().is_empty() {
            empty.push(i + 1);
            items.push(false);
            continue;
        }
        match parse_answer(a) {
            Some(x) => items.push((x - e).abs() <= ex.tolerance),
            None => {
                unreadable.push(i + 1);
                items.push(false);
            }
        }
    }
    let tol = crate::text::decimal(ex.tolerance, 3);
    let wrong: Vec<usize> = (1..=items.len()).filter(|&i| !items[i - 1]).collect();
    let correct = wrong.is_empty();
    let message = if correct {
        format!("Верно: все значения совпадают с вычисленными с точностью ±{tol}.")
    } else if !unreadable.is_empty() {
        format!(
            "Не число в полях {}: пишите десятичную дробь, например −0,25.",
            list(&unreadable)
        )
    } else if empty.len() == items.len() {
        "Поля пусты: впишите свои значения.".to_string()
    } else {
        let hint = typical_mistake(ex, answers)
            .map(|h| format!(" {h}"))
            .unwrap_or_default();
        format!(
            "Неверно: не совпадают поля {} (допуск ±{tol}){}.{hint}",
            list(&wrong),
            if empty.is_empty() {
                String::new()
            } else {
                format!("; пусты поля {}", list(&empty))
            }
        )
    };
    Ok(Check {
        correct,
        message,
        items,
    })
}

/// The hint of the typical mistake the answer matches: every field holds either the right
/// value or that mistake's value. A mistake the answer makes in full (its value in every field
/// where it differs from the right one) comes before one it only fits.
fn typical_mistake(ex: &Exercise, answers: &[String]) -> Option<&'static str> {
    let typed: Option<Vec<f64>> = answers.iter().map(|a| parse_answer(a)).collect();
    let typed = typed?;
    let near = |a: f64, b: f64| (a - b).abs() <= ex.tolerance;
    // Per mistake: whether it fits, and whether the answer makes it in full.
    let judge = |m: &Mistake| {
        let fields = typed.iter().zip(&ex.expected).zip(&m.values);
        let fits = fields
            .clone()
            .all(|((&x, &e), &w)| near(x, e) || near(x, w));
        let made = fields
            .clone()
            .all(|((&x, &e), &w)| if near(w, e) { near(x, e) } else { near(x, w) });
        (fits, made)
    };
    let fitting: Vec<(&Mistake, bool)> = ex
        .mistakes
        .iter()
        .filter_map(|m| {
            let (fits, made) = judge(m);
            fits.then_some((m, made))
        })
        .collect();
    let best = fitting.iter().find(|(_, made)| *made).or(fitting.first());
    best.map(|(m, _)| m.hint)
}
