//! The token inspector's entry points: one group of a trained network's policy file, or of the
//! untrained network of a settings request, with every token's loss terms
//! ([`crate::train::sequence::inspect`]). Runs on the page's thread: one iteration's batch and
//! its PPO epochs, milliseconds for the book's profiles.

use super::{js_error_of, to_js, JsResult};
use crate::train::sequence::inspect::inspection_stream;
use crate::train::sequence::{SequenceConfig, SequenceTrainer};
use crate::train::settings::{seeds, Request};
use crate::{Error, Result};
use wasm_bindgen::prelude::*;

fn inspect(trainer: Result<SequenceTrainer>, group: f64, draw: f64) -> JsResult<JsValue> {
    let inspection = trainer.and_then(|t| {
        let group = super::whole_number("group", group)?;
        let draw = super::whole_number("draw", draw)? as u64;
        t.inspect_group(
            group,
            Some(inspection_stream(t.seed(), t.iteration(), draw)),
        )
    });
    to_js(&inspection.map_err(js_error_of("sequence"))?)
}

/// Group `group` (from 0) of a batch drawn by the network of `policy` (a policy file's text),
/// fresh draw number `draw`: `GroupInspection` as a plain object.
#[wasm_bindgen(unchecked_return_type = "GroupInspection")]
pub fn inspect_policy(policy: &str, group: f64, draw: f64) -> JsResult<JsValue> {
    inspect(SequenceTrainer::from_policy_file(policy), group, draw)
}

/// The same for the untrained network of `request` (JSON `{"profile": …, "set": [[k, v], …]}`)
/// and `seed`.
#[wasm_bindgen(unchecked_return_type = "GroupInspection")]
pub fn inspect_untrained(request: &str, seed: f64, group: f64, draw: f64) -> JsResult<JsValue> {
    let make = || -> Result<SequenceTrainer> {
        let request: Request =
            serde_json::from_str(request).map_err(|e| Error::parse("settings", request, e))?;
        let (_, config) = request.resolve::<SequenceConfig>()?;
        SequenceTrainer::new(config, seeds::check_seed(seed)?)
    };
    inspect(make(), group, draw)
}
