//! One error type for the whole crate: every fallible public function returns [`Result`].

use std::fmt;

/// What went wrong, with the argument and the rule it broke spelled out for the reader.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An argument broke a rule: `arg` names it, `rule` says what was expected.
    InvalidArgument { arg: String, rule: String },
    /// A value that must be finite was NaN or infinite.
    NonFinite { arg: String, index: usize },
    /// Training produced a non-finite loss or parameter; names where it happened.
    Diverged { context: String },
    /// Reading or parsing an external input (a file, a JSON message, a URL setting).
    Input(String),
    /// A drawing backend failed (canvas or SVG).
    Plot(String),
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Shorthand for [`Error::InvalidArgument`].
    pub fn invalid(arg: impl Into<String>, rule: impl Into<String>) -> Self {
        Error::InvalidArgument {
            arg: arg.into(),
            rule: rule.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidArgument { arg, rule } => write!(f, "invalid `{arg}`: {rule}"),
            Error::NonFinite { arg, index } => {
                write!(f, "invalid `{arg}`: element {index} is not a finite number")
            }
            Error::Diverged { context } => write!(f, "training diverged: {context}"),
            Error::Input(msg) => write!(f, "{msg}"),
            Error::Plot(msg) => write!(f, "drawing failed: {msg}"),
        }
    }
}

impl std::error::Error for Error {}

impl<E: std::error::Error + Send + Sync> From<plotters::drawing::DrawingAreaErrorKind<E>>
    for Error
{
    fn from(e: plotters::drawing::DrawingAreaErrorKind<E>) -> Self {
        Error::Plot(e.to_string())
    }
}

/// Every element of `xs` must be finite.
pub(crate) fn check_finite(arg: &str, xs: &[f64]) -> Result<()> {
    match xs.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(Error::NonFinite {
            arg: arg.to_string(),
            index,
        }),
        None => Ok(()),
    }
}

/// A scalar that must be finite.
pub(crate) fn check_finite_scalar(arg: &str, x: f64) -> Result<()> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(Error::invalid(
            arg,
            format!("must be a finite number (got {x})"),
        ))
    }
}

/// A probability-like parameter in the closed interval [0, 1] (γ, λ).
pub(crate) fn check_unit_interval(arg: &str, x: f64) -> Result<()> {
    if (0.0..=1.0).contains(&x) {
        Ok(())
    } else {
        Err(Error::invalid(arg, format!("must lie in [0, 1] (got {x})")))
    }
}

/// The PPO clip range ε: 0 ≤ ε < 1 (ε = 0 is the degenerate "no movement" case the
/// reference cases include; ε ≥ 1 would let the lower clip bound reach zero).
pub(crate) fn check_clip_epsilon(x: f64) -> Result<()> {
    if (0.0..1.0).contains(&x) {
        Ok(())
    } else {
        Err(Error::invalid(
            "clip_epsilon",
            format!("must lie in [0, 1) (got {x})"),
        ))
    }
}

/// `len` must equal `expected`; `what` describes the required shape.
pub(crate) fn check_len(arg: &str, len: usize, expected: usize, what: &str) -> Result<()> {
    if len == expected {
        Ok(())
    } else {
        Err(Error::invalid(
            arg,
            format!("{what} (length {len}, expected {expected})"),
        ))
    }
}

/// A rectangular, finite `[B, T]` grid; returns `(B, T)`.
pub(crate) fn check_grid(arg: &str, rows: &[Vec<f64>]) -> Result<(usize, usize)> {
    let t = rows.first().map_or(0, Vec::len);
    for (b, row) in rows.iter().enumerate() {
        if row.len() != t {
            return Err(Error::invalid(
                arg,
                format!(
                    "must be a rectangular [B, T] array (row {b} has {} columns, row 0 has {t})",
                    row.len()
                ),
            ));
        }
        if let Some(k) = row.iter().position(|x| !x.is_finite()) {
            return Err(Error::NonFinite {
                arg: arg.to_string(),
                index: b * t + k,
            });
        }
    }
    Ok((rows.len(), t))
}
