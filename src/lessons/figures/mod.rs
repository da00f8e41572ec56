//! The lessons' live figures, each parameter declared once ([`FIGURES`]): the site build
//! writes every control of the pages from the table (`{{param.FIGURE.NAME}}`), and the page's
//! one draw call ([`figure`]) reads the values by the declared names, checks them against the
//! declared ranges, and dispatches to the lesson's `figure` and its plot.

/// Declares the live figures' numbers and drawings: one variant each, its numbers' type and
/// its plot module.
macro_rules! live {
    ($($variant:ident: $numbers:ty => $plot:ident,)*) => {
        /// A figure's numbers as the page receives them (each figure's own shape).
        #[derive(Debug, Clone, serde::Serialize)]
        #[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
        #[serde(untagged)]
        pub enum FigureNumbers { $($variant($numbers)),* }

        #[derive(Debug, Clone)]
        pub(super) enum Data { $($variant(crate::plots::$plot::Data)),* }

        impl super::Live {
            /// Draws the figure on `area`.
            pub fn draw<DB: plotters::prelude::DrawingBackend>(
                &self,
                area: &plotters::drawing::DrawingArea<DB, plotters::coord::Shift>,
                theme: &crate::plots::Theme,
            ) -> crate::Result<()> {
                match &self.data { $(Data::$variant(d) => crate::plots::$plot::draw(area, d, theme)),* }
            }
        }

        $(impl From<crate::lessons::Figure<$numbers, crate::plots::$plot::Data>> for super::Live {
            fn from(f: crate::lessons::Figure<$numbers, crate::plots::$plot::Data>) -> super::Live {
                super::Live { numbers: FigureNumbers::$variant(f.numbers), description: f.description, data: Data::$variant(f.data) }
            }
        })*
    };
}

mod table;
#[cfg(test)]
mod tests;

pub use table::{FigureNumbers, FIGURES};

use crate::error::{Bound, Error, Name, Rule};
use crate::Result;
use serde::Serialize;
use std::collections::BTreeMap;

/// One live figure: its name (the page's `data-figure`), its parameters in page order, and
/// its drawing from their checked values (`network`: a trained policy file, the attention
/// figure's).
#[derive(Clone, Copy, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FigureSpec {
    pub name: &'static str,
    pub params: &'static [Param],
    #[serde(skip)]
    pub(crate) draw: fn(&Read<'_>, Option<&str>) -> Result<Live>,
}

impl std::fmt::Debug for FigureSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let params = self.params;
        f.debug_struct("FigureSpec")
            .field("name", &self.name)
            .field("params", &params)
            .finish()
    }
}

/// One parameter: the name the draw call reads (`data-param`), the page's control (its `id`,
/// its label — HTML, math spans render —, the short label of messages and aria-valuetext,
/// the URL key a shared link keeps) and what it may take.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Param {
    pub name: &'static str,
    pub id: &'static str,
    pub label: &'static str,
    pub short: &'static str,
    pub url: &'static str,
    /// Decimals the slider's output shows (`data-digits`; none: 2).
    pub digits: Option<u8>,
    /// The id of the text that describes the control (`aria-describedby`).
    pub described_by: Option<&'static str>,
    pub control: Control,
}

/// A slider's `min`, `max`, `step` and starting `value`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Slider {
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub value: f64,
}

/// What a parameter's control is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Control {
    /// A range input.
    Slider(Slider),
    /// A checkbox: 0 or 1.
    Switch { checked: bool },
    /// One checkbox per record in a table the page writes itself (`data-flag`), read as a bit
    /// mask (bit t = record t).
    Flags { records: usize },
}

impl Control {
    /// Whether `x` is a value this control can deliver (a slider: inside its range, and whole
    /// where its grid is).
    fn check(&self, name: &str, x: f64) -> Result<()> {
        let whole = |max: f64| {
            if x.is_finite() && x >= 0.0 && x <= max && x.fract() == 0.0 {
                Ok(())
            } else {
                let rule = Rule::WholeNumber {
                    min: 0,
                    max: max as u64,
                };
                Err(Error::range(name, rule, x))
            }
        };
        match *self {
            Control::Slider(s) if s.step.fract() == 0.0 && s.min.fract() == 0.0 && s.min >= 0.0 => {
                whole(s.max)?;
                if x < s.min {
                    let rule = Rule::WholeNumber {
                        min: s.min as u64,
                        max: s.max as u64,
                    };
                    return Err(Error::range(name, rule, x));
                }
                Ok(())
            }
            Control::Slider(s) => {
                if x.is_finite() && s.min <= x && x <= s.max {
                    Ok(())
                } else {
                    let bound = |value| Some(Bound { value, open: false });
                    let rule = Rule::Interval {
                        min: bound(s.min),
                        max: bound(s.max),
                    };
                    Err(Error::range(name, rule, x))
                }
            }
            Control::Switch { .. } if x == 0.0 || x == 1.0 => Ok(()),
            Control::Switch { .. } => Err(Error::range(name, Rule::Binary, x)),
            Control::Flags { records } => whole(((1u64 << records) - 1) as f64),
        }
    }
}

/// A figure's parameter values by name, as the page sends them.
pub type Values = BTreeMap<String, f64>;

/// The declared figure `name`.
pub fn spec(name: &str) -> Result<&'static FigureSpec> {
    FIGURES.iter().find(|f| f.name == name).ok_or_else(|| {
        let known: Vec<&str> = FIGURES.iter().map(|f| f.name).collect();
        Error::unknown(Name::Figure, name, &known)
    })
}

impl FigureSpec {
    /// The parameter's short label (messages name it so), if declared.
    pub fn label(&self, name: &str) -> Option<&'static str> {
        self.params.iter().find(|p| p.name == name).map(|p| p.short)
    }

    /// Every declared parameter at its starting value (a switch: 0 or 1, flags: none set).
    pub fn start(&self) -> Values {
        let start = |c: &Control| match *c {
            Control::Slider(s) => s.value,
            Control::Switch { checked } => f64::from(u8::from(checked)),
            Control::Flags { .. } => 0.0,
        };
        let values = self
            .params
            .iter()
            .map(|p| (p.name.to_string(), start(&p.control)));
        values.collect()
    }

    /// `values` checked: every one declared, none missing, each one its control can deliver.
    fn read<'a>(&self, values: &'a Values) -> Result<Read<'a>> {
        let declared: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        if let Some(extra) = values.keys().find(|k| !declared.contains(&k.as_str())) {
            return Err(Error::unknown(
                Name::FigureParameter,
                extra.as_str(),
                &declared,
            ));
        }
        for p in self.params {
            let x = *values.get(p.name).ok_or_else(|| {
                let rule = Rule::Count { min: 1, max: 1 };
                Error::range(p.name, rule, crate::error::Value::Int(0))
            })?;
            p.control.check(p.name, x)?;
        }
        Ok(Read(values))
    }
}

/// Checked values ([`FigureSpec::read`]); a name the figure does not declare is refused.
pub(crate) struct Read<'a>(&'a Values);

impl Read<'_> {
    pub(super) fn x(&self, name: &str) -> Result<f64> {
        self.0
            .get(name)
            .copied()
            .ok_or_else(|| Error::unknown(Name::FigureParameter, name, &[]))
    }
    /// A whole-number parameter (checked whole by its control).
    pub(super) fn n(&self, name: &str) -> Result<usize> {
        Ok(self.x(name)? as usize)
    }
    pub(super) fn on(&self, name: &str) -> Result<bool> {
        Ok(self.x(name)? == 1.0)
    }
}

/// One figure at one setting: the numbers beside it, the figure in words, and its drawing.
#[derive(Debug, Clone)]
pub struct Live {
    pub numbers: FigureNumbers,
    pub description: crate::text::Description,
    data: table::Data,
}

/// Figure `name` at `values` (by the declared names; each checked against its control);
/// `network`: a trained policy file the attention figure answers with (none: untrained).
pub fn figure(name: &str, values: &Values, network: Option<&str>) -> Result<Live> {
    let spec = spec(name)?;
    (spec.draw)(&spec.read(values)?, network)
}
