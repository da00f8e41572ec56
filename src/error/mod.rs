//! One error type for the whole crate: every fallible public function returns [`Result`].
//!
//! An [`Error`] is a boxed [`ErrorKind`] with typed fields, so that tests match kinds rather
//! than message text, the CLI prints them in English ([`std::fmt::Display`]) and the page in
//! Russian ([`Error::russian`]), both built from the same fields.

mod checks;
mod class;
mod english;
mod russian;

pub(crate) use checks::*;
pub use class::CodeProblem;

use std::fmt;

/// What went wrong, with the argument and the rule it broke as data.
#[derive(Debug, Clone, PartialEq)]
pub struct Error(Box<ErrorKind>);

/// The kinds of error, each with the fields a message is built from.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An array (or a list) has the wrong shape: `expected` and `got` are its dimensions.
    Shape {
        /// The argument, e.g. `values` or `token_log_probs[2]` for one row.
        arg: String,
        /// The dimensions it must have.
        expected: Vec<usize>,
        /// The dimensions it has.
        got: Vec<usize>,
    },
    /// A value broke its rule (a bound, a set of choices, …).
    Range {
        /// The argument or setting.
        arg: String,
        /// The rule it broke.
        rule: Rule,
        /// What it was.
        value: Value,
    },
    /// An element that must be finite was NaN or infinite.
    NonFinite {
        /// The argument.
        arg: String,
        /// The flat index of the first bad element.
        index: usize,
    },
    /// A name that is not one of the known ones: an option, a setting, a command.
    Unknown {
        /// What kind of name.
        what: Name,
        /// The name given.
        name: String,
        /// The names that exist (may be empty when there are too many to list).
        known: Vec<String>,
    },
    /// Text that could not be read as what it should be (JSON, a number, a list).
    Parse {
        /// What was being read, e.g. `--seeds` or `settings JSON`.
        what: String,
        /// The text (a prefix of it is quoted in messages).
        input: String,
        /// The reader's explanation (English, from serde or the parser).
        reason: String,
    },
    /// A file could not be read or written.
    Io {
        /// The path.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// Training produced a non-finite number.
    Diverged {
        /// The step (1-based) in which it happened.
        step: usize,
        /// What a step of the run is.
        unit: StepUnit,
        /// Which quantity stopped being finite.
        quantity: Quantity,
    },
    /// A step was asked of a run that has done every step it was configured for.
    Finished {
        /// Steps the run did.
        steps: usize,
        /// What a step of the run is.
        unit: StepUnit,
    },
    /// A figure's canvas on the page cannot be drawn on.
    Canvas {
        /// The canvas's id.
        id: String,
        /// Why not.
        problem: CanvasProblem,
    },
    /// A drawing backend failed (canvas or SVG).
    Plot {
        /// The backend's message.
        message: String,
    },
    /// A run whose memory would not fit in `budget` bytes (`need` by the count of its
    /// buffers).
    TooLarge {
        /// The settings that drive it, most important first.
        settings: Vec<String>,
        /// Bytes the run would hold.
        need: u64,
        /// Bytes it may hold.
        budget: u64,
    },
    /// A class result code refused: `line` (1-based; 0 for one code alone) and why.
    ClassCode {
        /// The code's line in what was pasted or read.
        line: usize,
        /// Why it is refused.
        problem: CodeProblem,
    },
}

/// The rule a value broke.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// An interval; either end may be missing or open.
    Interval {
        /// Lower bound.
        min: Option<Bound>,
        /// Upper bound.
        max: Option<Bound>,
    },
    /// Must not exceed a quantity made of other settings, e.g. `num_envs × num_steps = 256`.
    NotAbove {
        /// The quantity's name.
        what: String,
        /// Its value.
        limit: f64,
    },
    /// A whole number within bounds (for text or JS numbers that must be integers).
    WholeNumber {
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// One of a fixed set of names.
    OneOf(Vec<String>),
    /// Only 0 and 1 (a mask).
    Binary,
    /// A list must not contain the same value twice.
    Distinct,
    /// A list or vector must not be empty.
    NonEmpty,
    /// A list must hold from `min` to `max` items.
    Count {
        /// Fewest items.
        min: usize,
        /// Most items.
        max: usize,
    },
    /// The argument must be an index below `len`.
    IndexBelow(usize),
    /// The setting only works together with another setting's value, e.g. value clipping
    /// needs a clip range.
    Requires {
        /// The other setting and the value it needs.
        what: String,
    },
    /// Must be a whole multiple of another setting's value, e.g. a width split among heads.
    MultipleOf {
        /// The other setting's name.
        what: String,
        /// Its value.
        of: u64,
    },
}

/// One end of an interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// The bound.
    pub value: f64,
    /// Whether the bound itself is excluded.
    pub open: bool,
}

/// The value that broke a rule.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// A real number.
    Real(f64),
    /// A whole number (wide enough for any `u64` or `i64`).
    Int(i128),
    /// Text as given (messages quote a short prefix).
    Text(String),
}

/// What stopped being finite when training diverged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Quantity {
    /// The loss of a minibatch or batch.
    Loss,
    /// A network parameter after an update.
    Parameters,
    /// A log-probability of a sampled action or token.
    LogProbability,
    /// A gradient.
    Gradient,
    /// A value estimate V(s) of the critic.
    ValueEstimate,
    /// A probability ratio π/π_old.
    Ratio,
}

/// The kinds of name an [`ErrorKind::Unknown`] can be about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Name {
    /// A command-line option (`--seeds`).
    Option,
    /// A positional command-line argument.
    Argument,
    /// A CLI command (`train ppo`).
    Command,
    /// A trainer of the registry.
    Trainer,
    /// A setting of a trainer's schema.
    Setting,
    /// A settings profile.
    Profile,
    /// A token-loss reduction.
    Reduction,
    /// A group advantage estimator.
    Estimator,
    /// A KL estimator (k1, k2, k3).
    KlEstimator,
    /// A sequence task.
    Task,
    /// A network precision (f32, f64).
    Precision,
    /// A GEMM kernel path.
    Kernels,
    /// A JSON line's `kind`.
    LineKind,
    /// An exercise of the exercises lesson.
    Exercise,
    /// A canvas on the page.
    Canvas,
    /// A lesson's prepared comparison.
    Comparison,
    /// A live figure of the lessons.
    Figure,
    /// A parameter of a live figure.
    FigureParameter,
}

/// Why a canvas cannot be drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CanvasProblem {
    /// Not on a page (a worker has no document).
    NoPage,
    /// The element with the id is not a `<canvas>`.
    NotACanvas,
    /// The page has not sized it (hidden, or not laid out yet).
    NoSize,
    /// The browser gave it no 2d context.
    NoContext,
}

/// What one step of a run is: an update (CartPole trainers) or an iteration (the sequence
/// trainer). Its name is the JSON lines' `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepUnit {
    /// One rollout and its gradient steps.
    Update,
    /// One iteration of the sequence loop.
    Iteration,
}

impl StepUnit {
    /// The name: `"update"` or `"iteration"`.
    pub const fn name(self) -> &'static str {
        match self {
            StepUnit::Update => "update",
            StepUnit::Iteration => "iteration",
        }
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Bytes in a GiB, for the memory messages.
pub(crate) const GIB: f64 = (1u64 << 30) as f64;

impl Error {
    /// The kind and its fields.
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }

    /// Unwraps the kind.
    pub fn into_kind(self) -> ErrorKind {
        *self.0
    }

    /// The argument or setting the error is about, when it names one.
    pub fn arg(&self) -> Option<&str> {
        match self.kind() {
            ErrorKind::Shape { arg, .. }
            | ErrorKind::Range { arg, .. }
            | ErrorKind::NonFinite { arg, .. } => Some(arg),
            ErrorKind::Unknown { name, .. } => Some(name),
            ErrorKind::Parse { what, .. } => Some(what),
            _ => None,
        }
    }

    /// [`ErrorKind::Shape`].
    pub fn shape(arg: impl Into<String>, expected: Vec<usize>, got: Vec<usize>) -> Self {
        ErrorKind::Shape {
            arg: arg.into(),
            expected,
            got,
        }
        .into()
    }

    /// [`ErrorKind::Range`].
    pub fn range(arg: impl Into<String>, rule: Rule, value: impl Into<Value>) -> Self {
        ErrorKind::Range {
            arg: arg.into(),
            rule,
            value: value.into(),
        }
        .into()
    }

    /// [`ErrorKind::NonFinite`].
    pub fn non_finite(arg: impl Into<String>, index: usize) -> Self {
        ErrorKind::NonFinite {
            arg: arg.into(),
            index,
        }
        .into()
    }

    /// [`ErrorKind::Unknown`].
    pub fn unknown(what: Name, name: impl Into<String>, known: &[&str]) -> Self {
        ErrorKind::Unknown {
            what,
            name: name.into(),
            known: known.iter().map(|s| s.to_string()).collect(),
        }
        .into()
    }

    /// [`ErrorKind::Parse`].
    pub fn parse(
        what: impl Into<String>,
        input: impl Into<String>,
        reason: impl fmt::Display,
    ) -> Self {
        ErrorKind::Parse {
            what: what.into(),
            input: input.into(),
            reason: reason.to_string(),
        }
        .into()
    }

    /// [`ErrorKind::Io`].
    pub fn io(path: impl fmt::Display, source: impl fmt::Display) -> Self {
        ErrorKind::Io {
            path: path.to_string(),
            message: source.to_string(),
        }
        .into()
    }

    /// [`ErrorKind::Diverged`]: in `unit` number `step`, `quantity` stopped being finite.
    pub fn diverged(unit: StepUnit, step: usize, quantity: Quantity) -> Self {
        ErrorKind::Diverged {
            step,
            unit,
            quantity,
        }
        .into()
    }

    /// [`ErrorKind::Finished`] after `steps` steps of `unit`.
    pub fn finished(unit: StepUnit, steps: usize) -> Self {
        ErrorKind::Finished { steps, unit }.into()
    }

    /// [`ErrorKind::ClassCode`].
    pub fn class_code(line: usize, problem: CodeProblem) -> Self {
        ErrorKind::ClassCode { line, problem }.into()
    }

    /// [`ErrorKind::Canvas`].
    pub fn canvas(id: impl Into<String>, problem: CanvasProblem) -> Self {
        ErrorKind::Canvas {
            id: id.into(),
            problem,
        }
        .into()
    }

    /// [`ErrorKind::Plot`].
    pub fn plot(message: impl fmt::Display) -> Self {
        ErrorKind::Plot {
            message: message.to_string(),
        }
        .into()
    }

    /// [`ErrorKind::TooLarge`].
    pub fn too_large(settings: Vec<String>, need: u64, budget: u64) -> Self {
        ErrorKind::TooLarge {
            settings,
            need,
            budget,
        }
        .into()
    }

    /// The message in Russian, for the page. `label` gives the Russian name of an argument or
    /// setting (e.g. from the settings schemas); unnamed arguments are quoted as they are.
    pub fn russian(&self, label: &dyn Fn(&str) -> Option<String>) -> String {
        russian::message(self, label)
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error(Box::new(kind))
    }
}

impl Rule {
    /// `[min, max]`.
    pub fn between(min: f64, max: f64) -> Self {
        Rule::Interval {
            min: Some(Bound::closed(min)),
            max: Some(Bound::closed(max)),
        }
    }

    /// `≥ min`.
    pub fn at_least(min: f64) -> Self {
        Rule::Interval {
            min: Some(Bound::closed(min)),
            max: None,
        }
    }

    /// `≤ max`.
    pub fn at_most(max: f64) -> Self {
        Rule::Interval {
            min: None,
            max: Some(Bound::closed(max)),
        }
    }

    /// `> 0`.
    pub fn positive() -> Self {
        Rule::Interval {
            min: Some(Bound::open(0.0)),
            max: None,
        }
    }

    /// `≥ 0`.
    pub fn non_negative() -> Self {
        Self::at_least(0.0)
    }

    /// [`Rule::OneOf`] from names.
    pub fn one_of(names: &[&str]) -> Self {
        Rule::OneOf(names.iter().map(|s| s.to_string()).collect())
    }

    /// Whether `x` satisfies an interval rule (other rules: `true`).
    pub fn admits(&self, x: f64) -> bool {
        match self {
            Rule::Interval { min, max } => {
                let above = min.is_none_or(|b| if b.open { x > b.value } else { x >= b.value });
                let below = max.is_none_or(|b| if b.open { x < b.value } else { x <= b.value });
                x.is_finite() && above && below
            }
            Rule::NotAbove { limit, .. } => x <= *limit,
            _ => true,
        }
    }
}

impl Bound {
    /// An included bound.
    pub const fn closed(value: f64) -> Self {
        Bound { value, open: false }
    }

    /// An excluded bound.
    pub const fn open(value: f64) -> Self {
        Bound { value, open: true }
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Real(x)
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Self {
                Value::Int(x as i128)
            }
        }
    )*};
}
int_value!(usize, u64, u32, i64, i32);

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Text(s)
    }
}

/// The longest prefix of user text that messages quote (a 20,000-character URL value must not
/// become a 20,000-character message).
pub(crate) const QUOTE_CHARS: usize = 40;

/// `text`, cut to [`QUOTE_CHARS`] characters with an ellipsis.
pub(crate) fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_CHARS {
        text.to_string()
    } else {
        let head: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{head}…")
    }
}

impl std::error::Error for Error {}

impl<E: std::error::Error + Send + Sync> From<plotters::drawing::DrawingAreaErrorKind<E>>
    for Error
{
    fn from(e: plotters::drawing::DrawingAreaErrorKind<E>) -> Self {
        Error::plot(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_argument_and_the_rule() {
        let e = Error::range("gamma", Rule::between(0.0, 1.0), 1.5);
        assert_eq!(
            e.to_string(),
            "invalid `gamma`: must lie in [0, 1] (got 1.5)"
        );
        let e = Error::shape("values", vec![5], vec![4]);
        assert_eq!(
            e.to_string(),
            "invalid `values`: expected shape [5], got [4]"
        );
        assert_eq!(e.arg(), Some("values"));
        let long = "9".repeat(20_000);
        let e = Error::parse("--seeds", long, "not a number");
        assert!(e.to_string().len() < 120, "{e}");
    }

    #[test]
    fn interval_rules_admit_exactly_their_values() {
        let r = Rule::Interval {
            min: Some(Bound::open(0.0)),
            max: Some(Bound::closed(1.0)),
        };
        assert!(!r.admits(0.0) && r.admits(1e-12) && r.admits(1.0) && !r.admits(1.0 + 1e-12));
        assert!(!r.admits(f64::NAN));
        assert!(Rule::positive().admits(3.0) && !Rule::positive().admits(0.0));
    }
}
