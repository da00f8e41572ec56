//! One description of every setting of a trainer, from which everything else is derived:
//! validation, the CLI's `--set key=value` and `--config file.json`, `pgbook settings`, the
//! page's forms, its URL overrides and its Russian messages.
//!
//! A trainer's configuration is declared with [`settings!`](crate::settings): each field once,
//! with its type, bounds ([`Kind`]), group, default in every profile, Russian label and help.
//! The macro writes the struct, the profile enum and the [`Settings`] implementation.

mod declare;
mod kind;
mod schema;
pub mod seeds;

pub use kind::Kind;
pub use schema::{schema, FieldSpec, KindSpec, ProfileSpec, Schema};

use crate::error::{Error, Name, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Where a field sits on the page's form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// How experience is collected.
    Rollout,
    /// Returns and advantages (γ, λ, baselines).
    Advantages,
    /// The terms of the loss.
    Loss,
    /// The optimiser and the length of the run.
    Optimisation,
    /// The networks.
    Network,
    /// How the policy is evaluated.
    Evaluation,
}

impl Group {
    /// Every group, in the order of the form.
    pub const ALL: [Group; 6] = [
        Group::Rollout,
        Group::Advantages,
        Group::Loss,
        Group::Optimisation,
        Group::Network,
        Group::Evaluation,
    ];

    /// The group's heading on the page.
    pub fn label(self) -> &'static str {
        match self {
            Group::Rollout => "Сбор опыта",
            Group::Advantages => "Возврат и преимущества",
            Group::Loss => "Функция потерь",
            Group::Optimisation => "Оптимизация",
            Group::Network => "Сети",
            Group::Evaluation => "Оценка политики",
        }
    }
}

/// The description of one setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    /// The field's name (as in JSON, `--set` and the URL).
    pub name: &'static str,
    /// Its type and bounds.
    pub kind: Kind,
    /// Where it sits on the form.
    pub group: Group,
    /// Russian label, short (a form label, a legend, a message).
    pub label: &'static str,
    /// One-line Russian help text.
    pub help: &'static str,
    /// Unit, if any (Russian).
    pub unit: Option<&'static str>,
}

/// A named profile of a trainer's settings.
pub trait Profile: Copy + Eq + std::fmt::Debug + 'static {
    /// Every profile, the default first.
    const ALL: &'static [Self];
    /// The profile's name.
    fn name(self) -> &'static str;
    /// The seeds the course uses with this profile.
    fn seeds(self) -> &'static [u64];
    /// The profile's name on the page, with what it is for (Russian).
    fn label(self) -> &'static str;
    /// The profile called `name`.
    fn parse(name: &str) -> Result<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|p| p.name()).collect();
                Error::unknown(Name::Profile, name, &names)
            })
    }
}

/// A trainer's configuration described by a schema (written by [`settings!`](crate::settings)).
pub trait Settings:
    Sized + Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned
{
    /// Its profiles.
    type Profile: Profile;
    /// Its fields, in the order of the form.
    const FIELDS: &'static [Field];
    /// The settings of a profile.
    fn for_profile(profile: Self::Profile) -> Self;
    /// Relations between fields that no single bound expresses (products of sizes, …).
    fn check_relations(&self) -> Result<()>;

    /// The field called `name`.
    fn field(name: &str) -> Result<&'static Field> {
        Self::FIELDS.iter().find(|f| f.name == name).ok_or_else(|| {
            let names: Vec<&str> = Self::FIELDS.iter().map(|f| f.name).collect();
            Error::unknown(Name::Setting, name, &names)
        })
    }

    /// The settings as a JSON object, one member per field.
    fn to_json(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            // A derived Serialize of a struct of plain fields is always an object.
            _ => Map::new(),
        }
    }

    /// Every field within its bounds, then the relations.
    fn validate(&self) -> Result<()> {
        let values = self.to_json();
        for f in Self::FIELDS {
            f.kind
                .check(f.name, values.get(f.name).unwrap_or(&Value::Null))?;
        }
        // JSON writes NaN as null, which an optional field reads as "off": a value that does
        // not survive the round trip is not finite.
        let back: Option<Self> = serde_json::from_value(Value::Object(values.clone())).ok();
        if back.as_ref() != Some(self) {
            let f = Self::FIELDS
                .iter()
                .find(|f| values.get(f.name).is_some_and(Value::is_null))
                .map_or("settings", |f| f.name);
            return Err(Error::non_finite(f, 0));
        }
        self.check_relations()
    }

    /// These settings with the members of `overrides` replaced; each value is checked
    /// against its field before it is used, unknown names are errors.
    fn with_json(&self, overrides: &Map<String, Value>) -> Result<Self> {
        let mut values = self.to_json();
        for (name, value) in overrides {
            let f = Self::field(name)?;
            f.kind.check(name, value)?;
            values.insert(name.clone(), value.clone());
        }
        let merged: Self = serde_json::from_value(Value::Object(values))
            .map_err(|e| Error::parse("settings", "", e))?;
        merged.validate()?;
        Ok(merged)
    }

    /// These settings with `name=value` pairs (CLI `--set`, URL parameters) applied.
    fn with_text(&self, pairs: &[(String, String)]) -> Result<Self> {
        let mut overrides = Map::new();
        for (name, text) in pairs {
            let f = Self::field(name)?;
            overrides.insert(name.clone(), f.kind.parse_text(name, text)?);
        }
        self.with_json(&overrides)
    }

    /// The fields whose value differs from `base`, as `(field, base text, own text)`.
    fn differences(&self, base: &Self) -> Vec<(&'static Field, String, String)> {
        let (a, b) = (base.to_json(), self.to_json());
        Self::FIELDS
            .iter()
            .filter_map(|f| {
                let (x, y) = (a.get(f.name)?, b.get(f.name)?);
                (x != y).then(|| (f, f.kind.to_text(x), f.kind.to_text(y)))
            })
            .collect()
    }

    /// The overrides of `base` that give these settings, as text (for `--set` and URLs).
    fn overrides_of(&self, base: &Self) -> Vec<(String, String)> {
        self.differences(base)
            .into_iter()
            .map(|(f, _, own)| (f.name.to_string(), own))
            .collect()
    }
}

/// The schema of `S` as JSON (keys sorted, as `pgbook settings NAME --json` prints it): one
/// object per field with `name`, `type`, bounds or `choices`, `default` per profile, `label`,
/// `help`, `unit` and `group`; plus the profiles with their seeds.
pub fn schema_json<S: Settings>() -> Value {
    serde_json::to_value(schema::<S>()).unwrap_or(Value::Null)
}

/// The settings a run asks for: a profile and its overrides as text (what a URL and the
/// CLI carry), resolved and checked in one place.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Request {
    /// The profile's name.
    pub profile: String,
    /// `name=value` overrides of that profile.
    #[serde(default)]
    pub set: Vec<(String, String)>,
}

impl Request {
    /// The settings this request describes, checked.
    pub fn resolve<S: Settings>(&self) -> Result<(S::Profile, S)> {
        let profile = S::Profile::parse(&self.profile)?;
        let settings = S::for_profile(profile).with_text(&self.set)?;
        Ok((profile, settings))
    }
}

#[cfg(test)]
mod tests;

/// The Russian name of an argument or setting of `S`'s runs for messages: one of `S`'s own
/// settings (its label, never another trainer's), or one of the few arguments that are not
/// settings.
pub fn label_ru<S: Settings>(name: &str) -> Option<String> {
    S::FIELDS
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.label)
        .or_else(|| argument_label_ru(name))
        .map(|l| format!("«{l}» ({name})"))
}

/// The Russian name of an argument that is not a setting (seeds, profiles, a figure's
/// parameters): what messages of no particular trainer can name.
pub fn argument_label_ru(name: &str) -> Option<&'static str> {
    match name {
        "seed" => Some("начальное значение"),
        "seeds" => Some("список начальных значений"),
        "profile" => Some("профиль"),
        "eps" | "clip_epsilon" => Some("ε — порог клиппирования"),
        "group_size" => Some("размер группы G"),
        "lambda" => Some("λ — параметр GAE"),
        "run" => Some("номер запуска"),
        "qr_text" => Some("текст QR-кода"),
        _ => None,
    }
}
