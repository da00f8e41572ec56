//! The type and bounds of a setting: how its value is checked, read from text (CLI, URL),
//! written back as text, and described to the page.

use crate::error::{Bound, Error, Result, Rule};
use serde_json::Value;

/// The type and bounds of one setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A finite real number within the bounds.
    Real {
        /// Lower bound, if any.
        min: Option<Bound>,
        /// Upper bound, if any.
        max: Option<Bound>,
    },
    /// On or off.
    Bool,
    /// One of a fixed set of names.
    Choice(&'static [&'static str]),
    /// A non-empty list of whole numbers in `min..=max`, at most `max_len` of them.
    IntList {
        /// Smallest element.
        min: u64,
        /// Largest element.
        max: u64,
        /// Most elements.
        max_len: usize,
    },
    /// The inner kind, or off (`null` in JSON, `off` as text).
    Optional(&'static Kind),
}

/// The text that means "off" for an optional setting.
pub const OFF: &str = "off";

impl Kind {
    /// A real number in `[min, max]`.
    pub const fn real(min: f64, max: f64) -> Kind {
        Kind::Real {
            min: Some(Bound::closed(min)),
            max: Some(Bound::closed(max)),
        }
    }

    /// A real number in `(min, max]`.
    pub const fn real_above(min: f64, max: f64) -> Kind {
        Kind::Real {
            min: Some(Bound::open(min)),
            max: Some(Bound::closed(max)),
        }
    }

    /// The interval rule of a real kind.
    fn real_rule(min: Option<Bound>, max: Option<Bound>) -> Rule {
        Rule::Interval { min, max }
    }

    /// Checks a JSON value against the kind; the error names `name`.
    pub fn check(&self, name: &str, value: &Value) -> Result<()> {
        match *self {
            Kind::Int { min, max } => {
                let rule = Rule::WholeNumber { min, max };
                match value.as_u64() {
                    Some(v) if (min..=max).contains(&v) => Ok(()),
                    Some(v) => Err(Error::range(name, rule, v)),
                    None => Err(Error::range(name, rule, json_text(value))),
                }
            }
            Kind::Real { min, max } => {
                let rule = Self::real_rule(min, max);
                let Some(x) = value.as_f64() else {
                    // serde writes NaN and ±∞ as null: a non-finite number, out of any range.
                    if value.is_null() {
                        return Err(Error::range(name, rule, f64::NAN));
                    }
                    return Err(Error::parse(name, json_text(value), "expected a number"));
                };
                if rule.admits(x) {
                    Ok(())
                } else {
                    Err(Error::range(name, rule, x))
                }
            }
            Kind::Bool => match value {
                Value::Bool(_) => Ok(()),
                _ => Err(Error::range(
                    name,
                    Rule::one_of(&["true", "false"]),
                    json_text(value),
                )),
            },
            Kind::Choice(choices) => match value.as_str() {
                Some(s) if choices.contains(&s) => Ok(()),
                _ => Err(Error::range(
                    name,
                    Rule::one_of(choices),
                    value
                        .as_str()
                        .map_or_else(|| json_text(value), str::to_string),
                )),
            },
            Kind::IntList { min, max, max_len } => {
                let Some(items) = value.as_array() else {
                    return Err(Error::parse(name, json_text(value), "expected a list"));
                };
                if items.is_empty() || items.len() > max_len {
                    let rule = Rule::Count {
                        min: 1,
                        max: max_len,
                    };
                    return Err(Error::range(name, rule, items.len()));
                }
                let element = Kind::Int { min, max };
                items.iter().try_for_each(|v| element.check(name, v))
            }
            Kind::Optional(inner) => match value {
                Value::Null => Ok(()),
                v => inner.check(name, v),
            },
        }
    }

    /// Reads a value typed as text (`--set name=value`, a URL parameter), strictly: no
    /// spaces around numbers, no hexadecimal, no empty value; then checks it.
    pub fn parse_text(&self, name: &str, text: &str) -> Result<Value> {
        let value = match *self {
            Kind::Int { .. } => int_text(name, text)?,
            Kind::Real { .. } => real_text(name, text)?,
            Kind::Bool => match text {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => {
                    return Err(Error::range(name, Rule::one_of(&["true", "false"]), text));
                }
            },
            Kind::Choice(_) => Value::String(text.to_string()),
            Kind::IntList { .. } => {
                let items: Result<Vec<Value>> =
                    text.split(',').map(|s| int_text(name, s.trim())).collect();
                Value::Array(items?)
            }
            Kind::Optional(inner) => {
                if text == OFF {
                    Value::Null
                } else {
                    return inner.parse_text(name, text).map_err(|e| {
                        // The message names the inner rule; "off" is the other choice.
                        match e.kind() {
                            crate::error::ErrorKind::Parse { .. } => {
                                Error::parse(name, text, "expected a number or 'off'")
                            }
                            _ => e,
                        }
                    });
                }
            }
        };
        self.check(name, &value)?;
        Ok(value)
    }

    /// A checked value as the text [`Kind::parse_text`] reads back to the same value.
    pub fn to_text(&self, value: &Value) -> String {
        match (self, value) {
            (Kind::Optional(_), Value::Null) => OFF.to_string(),
            (Kind::Optional(inner), v) => inner.to_text(v),
            (_, Value::String(s)) => s.clone(),
            (_, Value::Array(items)) => items
                .iter()
                .map(|v| self.element_text(v))
                .collect::<Vec<_>>()
                .join(","),
            (_, v) => self.element_text(v),
        }
    }

    fn element_text(&self, v: &Value) -> String {
        match v {
            Value::Number(n) => match (n.as_u64(), n.as_f64()) {
                (Some(i), _) => i.to_string(),
                // Rust prints the shortest text that parses back to the same f64.
                (None, Some(x)) => format!("{x}"),
                _ => n.to_string(),
            },
            Value::Bool(b) => b.to_string(),
            other => json_text(other),
        }
    }
}

/// A JSON value as a short text for messages.
fn json_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A whole number written in decimal digits only.
fn int_text(name: &str, text: &str) -> Result<Value> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::parse(name, text, "expected a whole number"));
    }
    match text.parse::<u64>() {
        Ok(v) => Ok(Value::from(v)),
        Err(_) => Err(Error::range(
            name,
            Rule::WholeNumber {
                min: 0,
                max: u64::MAX,
            },
            text,
        )),
    }
}

/// A finite decimal number: digits, an optional point and exponent (`1e-3`, `0.25`, `-2`).
fn real_text(name: &str, text: &str) -> Result<Value> {
    let bad = || Error::parse(name, text, "expected a decimal number");
    let body = text.strip_prefix('-').unwrap_or(text);
    let starts_right = body.starts_with(|c: char| c.is_ascii_digit() || c == '.');
    let allowed = body
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    if !starts_right || !allowed {
        return Err(bad());
    }
    let x: f64 = text.parse().map_err(|_| bad())?;
    if !x.is_finite() {
        return Err(Error::non_finite(name, 0));
    }
    serde_json::Number::from_f64(x)
        .map(Value::Number)
        .ok_or_else(bad)
}
