//! A settings type's schema as typed structs: what `pgbook settings NAME --json` prints and
//! what the page builds its forms from (tsify declares the same structs for TypeScript, so
//! the page's checks follow a renamed field).

use super::kind::OFF;
use super::{Field, Group, Kind, Profile, Settings};
use crate::error::Bound;
use serde::Serialize;
use serde_json::{Map, Value};

/// Every field of a trainer's settings and its profiles.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Schema {
    pub profiles: Vec<ProfileSpec>,
    pub fields: Vec<FieldSpec>,
}

/// A profile: its name, its Russian label and the seeds the course uses with it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ProfileSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub seeds: &'static [u64],
}

/// One setting: its kind and bounds, its default per profile and its Russian text.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct FieldSpec {
    pub name: &'static str,
    #[serde(flatten)]
    pub kind: KindSpec,
    /// The value in each profile, by the profile's name.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown>"))]
    pub default: Map<String, Value>,
    pub label: &'static str,
    pub help: &'static str,
    pub unit: Option<&'static str>,
    pub group: Group,
    pub group_label: &'static str,
}

/// A field's kind for the page: the type and whichever bounds, choices and «off» it has.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct KindSpec {
    #[serde(rename = "type")]
    #[cfg_attr(
        target_arch = "wasm32",
        tsify(type = "\"int\" | \"real\" | \"bool\" | \"choice\" | \"int_list\"")
    )]
    pub kind: &'static str,
    /// Smallest allowed (a number; `null` for an unbounded real).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional, type = "number | null"))]
    pub min: Option<Value>,
    /// Largest allowed (a number; `null` for an unbounded real).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional, type = "number | null"))]
    pub max: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_open: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_open: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<&'static [&'static str]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_len: Option<usize>,
    /// Whether «off» (`null`) is allowed, and its text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub off: Option<&'static str>,
}

impl Kind {
    /// The kind for the page and `pgbook settings --json`.
    pub fn describe(&self) -> KindSpec {
        let bound = |b: &Option<Bound>| Some(b.map_or(Value::Null, |b| b.value.into()));
        let open = |b: &Option<Bound>| Some(b.is_some_and(|b| b.open));
        match *self {
            Kind::Int { min, max } => KindSpec {
                kind: "int",
                min: Some(min.into()),
                max: Some(max.into()),
                ..KindSpec::default()
            },
            Kind::Real { min, max } => KindSpec {
                kind: "real",
                min: bound(&min),
                max: bound(&max),
                min_open: open(&min),
                max_open: open(&max),
                ..KindSpec::default()
            },
            Kind::Bool => KindSpec {
                kind: "bool",
                ..KindSpec::default()
            },
            Kind::Choice(choices) => KindSpec {
                kind: "choice",
                choices: Some(choices),
                ..KindSpec::default()
            },
            Kind::IntList { min, max, max_len } => KindSpec {
                kind: "int_list",
                min: Some(min.into()),
                max: Some(max.into()),
                max_len: Some(max_len),
                ..KindSpec::default()
            },
            Kind::Optional(inner) => KindSpec {
                optional: Some(true),
                off: Some(OFF),
                ..inner.describe()
            },
        }
    }
}

/// The schema of `S`.
pub fn schema<S: Settings>() -> Schema {
    let profiles: Vec<(S::Profile, Map<String, Value>)> = S::Profile::ALL
        .iter()
        .map(|&p| (p, S::for_profile(p).to_json()))
        .collect();
    let field = |f: &Field| FieldSpec {
        name: f.name,
        kind: f.kind.describe(),
        default: profiles
            .iter()
            .map(|(p, values)| {
                let v = values.get(f.name).cloned().unwrap_or(Value::Null);
                (p.name().to_string(), v)
            })
            .collect(),
        label: f.label,
        help: f.help,
        unit: f.unit,
        group: f.group,
        group_label: f.group.label(),
    };
    Schema {
        profiles: S::Profile::ALL
            .iter()
            .map(|p| ProfileSpec {
                name: p.name(),
                label: p.label(),
                seeds: p.seeds(),
            })
            .collect(),
        fields: S::FIELDS.iter().map(field).collect(),
    }
}
