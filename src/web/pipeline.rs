//! Lesson 10's pipeline figure on the sequence panel: one run's SFT loss, pass@k by stage,
//! success per level and dead groups ([`PipelineRun`]), drawn from the run's reports as the
//! panel's board holds them.

use super::{canvas, js_error_of, to_js, JsResult};
use crate::plots::{self, Theme};
use crate::train::sequence::pipeline_run::PipelineRun;
use crate::train::sequence::IterationReport;
use crate::Error;
use wasm_bindgen::prelude::*;

/// Draws the pipeline of `reports` (one run's reports, a JSON array) on `canvas_id` and returns
/// its description (`{text, table}`), or `null` without drawing when the run has neither SFT
/// nor pass@k.
#[wasm_bindgen(unchecked_return_type = "Description | null")]
pub fn draw_pipeline_run(canvas_id: &str, reports: &str) -> JsResult<JsValue> {
    let reports: Vec<IterationReport> = serde_json::from_str(reports)
        .map_err(|e| Error::parse("reports", "", e))
        .map_err(js_error_of("sequence"))?;
    let Some(run) = PipelineRun::of(&reports) else {
        return Ok(JsValue::NULL);
    };
    canvas::with_canvas(canvas_id, |area, dpr| {
        plots::pipeline_run::draw(area, &run, &Theme::for_dpr(dpr))
    })
    .map_err(js_error_of("sequence"))?;
    to_js(&run.describe())
}
