//! The Python sources of `www/python/` (one function per file, named by it), compiled in so
//! that the notebook and the page's solutions are the very text the tests run, and the stubs
//! derived from them.

use super::unknown_function;
use crate::Result;

macro_rules! sources {
    ($($name:literal),* $(,)?) => {
        /// Every function of `www/python/` and its file's text.
        pub const SOURCES: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../../../www/python/", $name, ".py"))),)*
        ];
    };
}

sources!(
    "surrogate_grad",
    "reward_to_go",
    "discounted_score_weights",
    "leave_one_out_baselines",
    "group_zscore_advantages",
    "gae_advantages",
    "ppo_clipped_terms",
    "ppo_diagnostics",
    "token_log_probs",
    "response_token_mask",
    "masked_token_ppo_terms",
    "aggregate_token_terms",
    "rloo_advantages",
    "broadcast_sequence_advantages",
    "group_advantages",
    "kl_estimators",
);

/// The Python checker the notebook runs (`check(...)`, `summary()`).
pub const CHECKER: &str = include_str!("../../../www/python/check.py");

/// The text of function `name`'s file.
pub fn source(name: &str) -> Result<&'static str> {
    SOURCES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .ok_or_else(|| unknown_function(name))
}

/// What the reader starts from: the file's imports, the signature and the docstring of
/// `def name(…)`, and a body that raises `NotImplementedError`.
pub fn stub(name: &str) -> Result<String> {
    let text = source(name)?;
    let lines: Vec<&str> = text.lines().collect();
    let def = lines
        .iter()
        .position(|l| l.starts_with(&format!("def {name}(")))
        .ok_or_else(|| unknown_function(name))?;
    // The signature ends at the first line ending in ':' (a long one wraps).
    let mut end = def;
    while !lines[end].trim_end().ends_with(':') && end + 1 < lines.len() {
        end += 1;
    }
    let mut out: Vec<&str> = lines[..=end].to_vec();
    let mut i = end + 1;
    if lines
        .get(i)
        .is_some_and(|l| l.trim_start().starts_with("\"\"\""))
    {
        let one_line = lines[i].trim().len() > 3 && lines[i].trim().ends_with("\"\"\"");
        out.push(lines[i]);
        if !one_line {
            i += 1;
            while i < lines.len() {
                out.push(lines[i]);
                if lines[i].trim_end().ends_with("\"\"\"") {
                    break;
                }
                i += 1;
            }
        }
    }
    let mut stub = out.join("\n");
    stub.push_str("\n    raise NotImplementedError(\"напишите эту функцию\")\n");
    Ok(stub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stub_keeps_the_signature_and_docstring_and_drops_the_body() {
        let s = stub("gae_advantages").unwrap();
        assert!(s.starts_with("import numpy as np"));
        assert!(s.contains("def gae_advantages(rewards, values, next_values"));
        assert!(s.contains("→ advantages [T].\n    \"\"\"\n    raise NotImplementedError"));
        assert!(!s.contains("running"), "{s}");
        let one = stub("discounted_score_weights").unwrap();
        assert!(
            one.contains("(reward_to_go — выше).\"\"\"\n    raise NotImplementedError"),
            "{one}"
        );
        assert!(stub("nothing").is_err());
    }
}
