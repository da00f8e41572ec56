//! A trained transformer policy as one JSON file: the run's whole settings, its seed, how far
//! it trained, the network's shape and its weights (in its own scalar: f32 weights print in
//! their shortest f32 form, f64 in theirs, and both come back to the bit). The page keeps it
//! with each finished seed and draws lesson 8's attention figure from it; a later lesson can
//! load it to train on.

use super::config::PolicyKind;
use super::config::SequenceConfig;
use crate::error::{Error, Result, Rule};
use crate::nn::{Precision, Scalar, Transformer, TransformerShape};
use crate::train::settings::Settings;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What the file says it is.
pub const FORMAT: &str = "pgbook-sequence-policy";
/// The version of its layout.
pub const VERSION: u32 = 1;

/// The file as written: the weights in the network's own scalar.
#[derive(Serialize)]
struct Out<'a, S: Serialize> {
    format: &'static str,
    version: u32,
    trainer: &'static str,
    settings: Map<String, Value>,
    seed: u64,
    iteration: usize,
    shape: TransformerShape,
    params: &'a [S],
}

/// The file as read back.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PolicyFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// Every setting of the run, by name.
    pub settings: Map<String, Value>,
    /// The run's seed.
    pub seed: u64,
    /// Iterations done when it was saved.
    pub iteration: usize,
    /// The network's sizes.
    pub shape: TransformerShape,
    /// Its parameters, flat (f32 ones read exactly: their shortest form rounds back).
    pub params: Vec<f64>,
}

/// A transformer in either scalar, as a file holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyTransformer {
    /// Single precision.
    F32(Transformer<f32>),
    /// Double precision.
    F64(Transformer<f64>),
}

/// The file of a transformer run's current network.
pub fn to_json<S: Scalar + Serialize>(
    config: &SequenceConfig,
    seed: u64,
    iteration: usize,
    net: &Transformer<S>,
) -> Result<String> {
    let out = Out {
        format: FORMAT,
        version: VERSION,
        trainer: "sequence",
        settings: config.to_json(),
        seed,
        iteration,
        shape: net.shape(),
        params: &net.params,
    };
    serde_json::to_string(&out).map_err(|e| Error::parse("policy", "", e))
}

impl PolicyFile {
    /// Reads a file and builds its network: the format and version must be this one's, the
    /// settings must name a transformer whose shape is the file's, and the weights must be
    /// finite and as many as the shape has.
    pub fn parse(text: &str) -> Result<(PolicyFile, SequenceConfig, AnyTransformer)> {
        let file: PolicyFile = serde_json::from_str(text).map_err(|e| {
            let start: String = text.chars().take(40).collect();
            Error::parse("policy", start, e)
        })?;
        if file.format != FORMAT {
            return Err(Error::range("format", Rule::one_of(&[FORMAT]), file.format));
        }
        if file.version != VERSION {
            return Err(Error::range("version", Rule::one_of(&["1"]), file.version));
        }
        let config = SequenceConfig::for_profile(super::SequenceProfile::Transformer)
            .with_json(&file.settings)?;
        if config.policy != PolicyKind::Transformer {
            let rule = Rule::one_of(&["transformer"]);
            return Err(Error::range("policy", rule, config.policy.name()));
        }
        if config.transformer_shape() != file.shape {
            let (want, got) = (
                shape_dims(&config.transformer_shape()),
                shape_dims(&file.shape),
            );
            return Err(Error::shape("shape", want, got));
        }
        if let Some(i) = file.params.iter().position(|p| !p.is_finite()) {
            return Err(Error::non_finite("params", i));
        }
        let net = match config.precision {
            Precision::F32 => {
                let params = file.params.iter().map(|&p| p as f32).collect();
                AnyTransformer::F32(Transformer::from_params(file.shape, params)?)
            }
            Precision::F64 => {
                AnyTransformer::F64(Transformer::from_params(file.shape, file.params.clone())?)
            }
        };
        Ok((file, config, net))
    }
}

fn shape_dims(s: &TransformerShape) -> Vec<usize> {
    vec![
        s.vocab, s.outputs, s.model, s.heads, s.layers, s.mlp, s.context,
    ]
}
