//! The page's messages: the same kinds and fields as the English ones, in Russian, with
//! decimal commas and the settings' Russian names.

use super::{quote, Bound, CanvasProblem, Error, ErrorKind, Name, Quantity, Rule, StepUnit, Value};
use crate::text as numerals;

/// A number the Russian way: decimal comma, no fraction for integers.
pub(crate) fn number_ru(x: f64) -> String {
    if x.is_nan() {
        return "не число".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "+∞".into()
        } else {
            "−∞".into()
        };
    }
    let s = if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    };
    s.replace('.', ",").replace('-', "−")
}

fn value_ru(v: &Value) -> String {
    match v {
        Value::Real(x) => number_ru(*x),
        Value::Int(i) => i.to_string().replace('-', "−"),
        Value::Text(s) => format!("«{}»", quote(s)),
    }
}

fn bound_ru(b: &Bound) -> String {
    number_ru(b.value)
}

fn rule_ru(rule: &Rule) -> String {
    match rule {
        Rule::Interval { min, max } => match (min, max) {
            (Some(lo), Some(hi)) => format!(
                "допустимы значения в {}{}; {}{}",
                if lo.open { '(' } else { '[' },
                bound_ru(lo),
                bound_ru(hi),
                if hi.open { ')' } else { ']' }
            ),
            (Some(lo), None) if lo.open && lo.value == 0.0 => "нужно положительное значение".into(),
            (Some(lo), None) if lo.open => format!("нужно значение больше {}", bound_ru(lo)),
            (Some(lo), None) => format!("нужно значение не меньше {}", bound_ru(lo)),
            (None, Some(hi)) if hi.open => format!("нужно значение меньше {}", bound_ru(hi)),
            (None, Some(hi)) => format!("нужно значение не больше {}", bound_ru(hi)),
            (None, None) => "нужно конечное число".into(),
        },
        Rule::NotAbove { what, limit } => {
            format!("нужно значение не больше {what} = {}", number_ru(*limit))
        }
        Rule::WholeNumber { min, max } => {
            format!("нужно целое число от {min} до {max}")
        }
        Rule::OneOf(names) => format!("допустимы значения: {}", names.join(", ")),
        Rule::Binary => "допустимы только 0 и 1".into(),
        Rule::Distinct => "одно и то же значение указано дважды".into(),
        Rule::NonEmpty => "нужно хотя бы одно значение".into(),
        Rule::Count { min, max } if min == max => format!(
            "нужно ровно {}",
            numerals::count(*min as f64, 0, ["значение", "значения", "значений"])
        ),
        // «до» takes the genitive: до 1 значения, до 4 значений, до 21 значения.
        Rule::Count { min, max } => format!(
            "нужно от {min} до {}",
            numerals::count(*max as f64, 0, ["значения", "значений", "значений"])
        ),
        Rule::IndexBelow(len) => format!("нужен индекс меньше {len}"),
        Rule::Requires { what } => format!("работает только при {what}"),
        Rule::MultipleOf { what, of } => format!("нужно значение, кратное {what} = {of}"),
    }
}

fn dims(d: &[usize]) -> String {
    let inner: Vec<String> = d.iter().map(usize::to_string).collect();
    format!("[{}]", inner.join("; "))
}

fn quantity_ru(q: Quantity) -> &'static str {
    match q {
        Quantity::Loss => "функция потерь",
        Quantity::Parameters => "параметр сети",
        Quantity::LogProbability => "логарифм вероятности",
        Quantity::Gradient => "градиент",
        Quantity::ValueEstimate => "оценка ценности V(s)",
        Quantity::Ratio => "отношение вероятностей",
    }
}

fn unknown_ru(what: Name) -> &'static str {
    match what {
        Name::Option => "неизвестный параметр командной строки",
        Name::Argument => "неизвестный аргумент командной строки",
        Name::Command => "неизвестная команда",
        Name::Trainer => "неизвестный вид обучения",
        Name::Setting => "неизвестная настройка",
        Name::Profile => "неизвестный профиль",
        Name::Reduction => "неизвестная редукция",
        Name::Estimator => "неизвестный оцениватель преимущества",
        Name::KlEstimator => "неизвестная оценка KL",
        Name::Task => "неизвестная задача",
        Name::Precision => "неизвестная точность",
        Name::Kernels => "неизвестный вариант ядер",
        Name::LineKind => "неизвестный вид строки",
        Name::Exercise => "нет такого упражнения",
        Name::Canvas => "на странице нет рисунка",
        Name::Comparison => "нет такого подготовленного сравнения",
        Name::Figure => "нет такого рисунка",
        Name::FigureParameter => "у рисунка нет параметра",
    }
}

/// Forms of a step's name for [`numerals::count`], and the step's name in the locative
/// («на обновлении 3»).
fn step_ru(unit: StepUnit) -> ([&'static str; 3], &'static str) {
    match unit {
        StepUnit::Update => (["обновление", "обновления", "обновлений"], "обновлении"),
        StepUnit::Iteration => (["итерация", "итерации", "итераций"], "итерации"),
    }
}

/// The Russian message of `e`.
pub(crate) fn message(e: &Error, label: &dyn Fn(&str) -> Option<String>) -> String {
    // A composite argument ("num_envs × num_steps") is named part by part.
    let name = |arg: &str| -> String {
        let parts: Vec<String> = arg
            .split(" × ")
            .map(|p| label(p).unwrap_or_else(|| format!("«{p}»")))
            .collect();
        parts.join(" × ")
    };
    match e.kind() {
        ErrorKind::Shape { arg, expected, got } => format!(
            "{}: ожидалась форма {}, получена {}",
            name(arg),
            dims(expected),
            dims(got)
        ),
        ErrorKind::Range { arg, rule, value } => {
            format!(
                "{}: {} (получено {})",
                name(arg),
                rule_ru(rule),
                value_ru(value)
            )
        }
        ErrorKind::NonFinite { arg, index } => {
            format!("{}: элемент {index} не является конечным числом", name(arg))
        }
        ErrorKind::Unknown {
            what,
            name: n,
            known,
        } => {
            let mut s = format!("{} «{}»", unknown_ru(*what), quote(n));
            if !known.is_empty() {
                s += &format!("; есть: {}", known.join(", "));
            }
            s
        }
        ErrorKind::Parse { what, input, .. } => {
            format!("{}: не удалось прочитать «{}»", name(what), quote(input))
        }
        ErrorKind::Io { path, message } => format!("файл {path}: {message}"),
        ErrorKind::Diverged {
            step,
            unit,
            quantity,
        } => format!(
            "обучение разошлось: на {} {step} величина «{}» перестала быть конечным числом",
            step_ru(*unit).1,
            quantity_ru(*quantity)
        ),
        ErrorKind::Finished { steps, unit } => format!(
            "обучение уже закончено: сделано {}",
            numerals::count(*steps as f64, 0, step_ru(*unit).0)
        ),
        ErrorKind::Canvas { id, problem } => format!(
            "не удалось нарисовать рисунок «{}»: {}",
            quote(id),
            match problem {
                CanvasProblem::NoPage => "рисунки рисуются только на странице",
                CanvasProblem::NotACanvas => "на странице под этим именем не холст",
                CanvasProblem::NoSize => "у холста нет размера (рисунок скрыт или ещё не показан)",
                CanvasProblem::NoContext => "браузер не дал холсту контекст рисования",
            }
        ),
        ErrorKind::Plot { message } => format!("не удалось нарисовать рисунок: {message}"),
        ErrorKind::TooLarge {
            settings,
            need,
            budget,
        } => {
            let gib = |b: u64| number_ru((b as f64 / super::GIB * 10.0).round() / 10.0);
            let names: Vec<String> = settings.iter().map(|s| name(s)).collect();
            format!(
                "запуску нужно около {} ГиБ памяти, а на один запуск есть {} ГиБ; память определяют настройки {} — уменьшите их",
                gib(*need),
                gib(*budget),
                names.join(", ")
            )
        }
        ErrorKind::ClassCode { line: 0, problem } => format!("код отклонён: {}", problem.russian()),
        ErrorKind::ClassCode { line, problem } => {
            format!("код в строке {line} отклонён: {}", problem.russian())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_messages_use_labels_and_decimal_commas() {
        let label = |a: &str| (a == "gamma").then(|| "γ (коэффициент дисконтирования)".to_string());
        let e = Error::range("gamma", Rule::between(0.0, 1.0), 1.5);
        assert_eq!(
            e.russian(&label),
            "γ (коэффициент дисконтирования): допустимы значения в [0; 1] (получено 1,5)"
        );
        let e = Error::range(
            "seed",
            Rule::WholeNumber { min: 0, max: 9 },
            "x".repeat(500),
        );
        let m = e.russian(&label);
        assert!(
            m.starts_with("«seed»: нужно целое число") && m.chars().count() < 120,
            "{m}"
        );
    }

    #[test]
    fn every_kind_of_name_step_and_canvas_problem_is_said_in_russian() {
        let none = |_: &str| None;
        let e = Error::unknown(Name::Task, "x", &["copy"]);
        assert_eq!(e.russian(&none), "неизвестная задача «x»; есть: copy");
        let e = Error::diverged(StepUnit::Iteration, 3, Quantity::Loss);
        assert!(
            e.russian(&none).contains("на итерации 3"),
            "{}",
            e.russian(&none)
        );
        assert!(e.to_string().contains("in iteration 3"), "{e}");
        let e = Error::finished(StepUnit::Update, 21);
        assert!(
            e.russian(&none).ends_with("сделано 21 обновление"),
            "{}",
            e.russian(&none)
        );
        let e = Error::canvas("canvas-gae", CanvasProblem::NoSize);
        let m = e.russian(&none);
        assert!(
            m.contains("«canvas-gae»") && m.contains("нет размера"),
            "{m}"
        );
        assert!(!m.contains("canvas '"), "{m}");
    }
}
