//! The CLI's messages: every kind of [`Error`] in English, from the same fields as the page's
//! Russian ones ([`super::russian`]).

use super::{quote, CanvasProblem, Error, ErrorKind, Name, Quantity, Rule, Value, GIB};
use std::fmt;

impl Name {
    /// What the name is, in English.
    fn english(self) -> &'static str {
        match self {
            Name::Option => "option",
            Name::Argument => "argument",
            Name::Command => "command",
            Name::Trainer => "trainer",
            Name::Setting => "setting",
            Name::Profile => "profile",
            Name::Reduction => "reduction",
            Name::Estimator => "estimator",
            Name::KlEstimator => "kl_estimator",
            Name::Task => "task",
            Name::Precision => "precision",
            Name::Kernels => "kernels",
            Name::LineKind => "line kind",
            Name::Exercise => "exercise",
            Name::Canvas => "canvas",
            Name::Comparison => "prepared comparison",
            Name::Figure => "figure",
            Name::FigureParameter => "figure parameter",
        }
    }
}

/// A number as the messages print it: integers without a fraction, others in shortest form.
fn number(x: f64) -> String {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn dims(d: &[usize]) -> String {
    let inner: Vec<String> = d.iter().map(usize::to_string).collect();
    format!("[{}]", inner.join(", "))
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Real(x) => write!(f, "{}", number(*x)),
            Value::Int(i) => write!(f, "{i}"),
            Value::Text(s) => write!(f, "'{}'", quote(s)),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Interval { min, max } => match (min, max) {
                (Some(lo), Some(hi)) => write!(
                    f,
                    "must lie in {}{}, {}{}",
                    if lo.open { '(' } else { '[' },
                    number(lo.value),
                    number(hi.value),
                    if hi.open { ')' } else { ']' }
                ),
                (Some(lo), None) if lo.open && lo.value == 0.0 => write!(f, "must be positive"),
                (Some(lo), None) if lo.open => {
                    write!(f, "must be greater than {}", number(lo.value))
                }
                (Some(lo), None) => write!(f, "must be at least {}", number(lo.value)),
                (None, Some(hi)) if hi.open => write!(f, "must be less than {}", number(hi.value)),
                (None, Some(hi)) => write!(f, "must be at most {}", number(hi.value)),
                (None, None) => write!(f, "must be a finite number"),
            },
            Rule::NotAbove { what, limit } => {
                write!(f, "must not exceed {what} = {}", number(*limit))
            }
            Rule::WholeNumber { min, max } => {
                write!(f, "must be a whole number from {min} to {max}")
            }
            Rule::OneOf(names) => write!(f, "must be one of {}", names.join(", ")),
            Rule::Binary => write!(f, "must hold only 0 and 1"),
            Rule::Distinct => write!(f, "must not list a value twice"),
            Rule::NonEmpty => write!(f, "must not be empty"),
            Rule::Count { min, max } if min == max => write!(f, "must hold exactly {min}"),
            Rule::Count { min, max } => write!(f, "must hold {min} to {max} items"),
            Rule::IndexBelow(len) => write!(f, "must be an index below {len}"),
            Rule::Requires { what } => write!(f, "needs {what}"),
            Rule::MultipleOf { what, of } => write!(f, "must be a multiple of {what} = {of}"),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Quantity::Loss => "the loss",
            Quantity::Parameters => "a parameter",
            Quantity::LogProbability => "a log-probability",
            Quantity::Gradient => "a gradient",
            Quantity::ValueEstimate => "a value estimate",
            Quantity::Ratio => "a probability ratio",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ErrorKind::Shape { arg, expected, got } => write!(
                f,
                "invalid `{arg}`: expected shape {}, got {}",
                dims(expected),
                dims(got)
            ),
            ErrorKind::Range { arg, rule, value } => {
                write!(f, "invalid `{arg}`: {rule} (got {value})")
            }
            ErrorKind::NonFinite { arg, index } => {
                write!(f, "invalid `{arg}`: element {index} is not a finite number")
            }
            ErrorKind::Unknown { what, name, known } => {
                write!(f, "unknown {} '{}'", what.english(), quote(name))?;
                if !known.is_empty() {
                    write!(f, " (expected one of: {})", known.join(", "))?;
                }
                Ok(())
            }
            ErrorKind::Parse {
                what,
                input,
                reason,
            } => write!(f, "cannot read {what} '{}': {reason}", quote(input)),
            ErrorKind::Io { path, message } => write!(f, "{path}: {message}"),
            ErrorKind::Diverged {
                step,
                unit,
                quantity,
            } => write!(
                f,
                "training diverged: in {} {step}, {quantity} is not a finite number",
                unit.name()
            ),
            ErrorKind::Finished { steps, unit } => {
                write!(
                    f,
                    "the run is finished: all {steps} {}s are done",
                    unit.name()
                )
            }
            ErrorKind::Canvas { id, problem } => write!(
                f,
                "cannot draw on canvas '{}': {}",
                quote(id),
                match problem {
                    CanvasProblem::NoPage =>
                        "no page (figures are drawn on the page, not in a worker)",
                    CanvasProblem::NotACanvas => "the element is not a <canvas>",
                    CanvasProblem::NoSize => "it has no size on the page",
                    CanvasProblem::NoContext => "the browser gave it no 2d context",
                }
            ),
            ErrorKind::Plot { message } => write!(f, "drawing failed: {message}"),
            ErrorKind::TooLarge {
                settings,
                need,
                budget,
            } => write!(
                f,
                "the run needs about {:.1} GiB of memory, over the budget of {:.1} GiB; reduce {}",
                *need as f64 / GIB,
                *budget as f64 / GIB,
                settings.join(", ")
            ),
            ErrorKind::ClassCode { line: 0, problem } => {
                write!(f, "the code is refused: {}", problem.english())
            }
            ErrorKind::ClassCode { line, problem } => {
                write!(
                    f,
                    "the code on line {line} is refused: {}",
                    problem.english()
                )
            }
        }
    }
}
