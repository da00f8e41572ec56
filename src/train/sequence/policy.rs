//! Which network a sequence run trains — the `policy` setting — and, for each network, how its
//! shape follows from the settings. A network behind [`crate::nn::SequencePolicy`] joins the
//! trainer here (its [`Policy`] impl), as an arm of [`super::trainer`]'s `ByPolicy`, and as
//! a choice of the setting.

use super::config::{PolicyKind, SequenceConfig};
use crate::error::{Error, Result, Rule};
use crate::nn::{Gru, GruShape, PolicyCost, Precision, SequencePolicy};
use crate::nn::{Transformer, TransformerShape};

/// A network the sequence trainer can train: the settings it answers to and its shape from
/// them.
pub trait Policy: SequencePolicy {
    /// The `policy` setting that picks this network.
    const KIND: PolicyKind;
    /// The `precision` setting that picks this network's scalar.
    const PRECISION: Precision;
    /// The network's shape under `config` (vocabulary and actions from its task).
    fn shape_of(config: &SequenceConfig) -> Self::Shape;

    /// An error unless `config` names this network and scalar.
    fn check_config(config: &SequenceConfig) -> Result<()> {
        if config.policy != Self::KIND {
            let rule = Rule::OneOf(vec![Self::KIND.name().into()]);
            return Err(Error::range("policy", rule, config.policy.name()));
        }
        if config.precision != Self::PRECISION {
            let rule = Rule::OneOf(vec![Self::PRECISION.name().into()]);
            return Err(Error::range("precision", rule, config.precision.name()));
        }
        Ok(())
    }
}

impl Policy for Gru {
    const KIND: PolicyKind = PolicyKind::Gru;
    const PRECISION: Precision = Precision::F64;
    fn shape_of(config: &SequenceConfig) -> GruShape {
        GruShape {
            vocab: config.task.vocab_size(),
            embed: config.embed_dim,
            hidden: config.hidden_dim,
            outputs: config.task.num_actions(),
        }
    }
}

/// The transformer in either scalar (`precision`).
macro_rules! transformer_policy {
    ($($scalar:ty => $precision:expr),*) => {$(
        impl Policy for Transformer<$scalar> {
            const KIND: PolicyKind = PolicyKind::Transformer;
            const PRECISION: Precision = $precision;
            fn shape_of(config: &SequenceConfig) -> TransformerShape {
                config.transformer_shape()
            }
        }
    )*};
}
transformer_policy!(f64 => Precision::F64, f32 => Precision::F32);

impl SequenceConfig {
    /// The transformer's shape under these settings (whatever `policy` says).
    pub fn transformer_shape(&self) -> TransformerShape {
        TransformerShape {
            vocab: self.task.vocab_size(),
            outputs: self.task.num_actions(),
            model: self.model_dim,
            heads: self.heads,
            layers: self.layers,
            mlp: self.mlp_dim,
            context: self.context_len,
        }
    }

    /// What the network these settings name costs (the one cost model: the memory bound,
    /// the work bound and the page's estimate all read it).
    pub fn policy_cost(&self) -> PolicyCost {
        match self.policy {
            PolicyKind::Gru => Gru::cost(&Gru::shape_of(self)),
            PolicyKind::Transformer => match self.precision {
                Precision::F64 => Transformer::<f64>::cost(&self.transformer_shape()),
                Precision::F32 => Transformer::<f32>::cost(&self.transformer_shape()),
            },
        }
    }
}
