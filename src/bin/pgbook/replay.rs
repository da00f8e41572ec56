//! `pgbook replay FILE`: a policy file (downloaded from the book's PPO panel) played greedily
//! on CartPole — the same episode the page shows for it.

use crate::args::Args;
use pgbook::train::policy::{self, PolicyFile};
use pgbook::{Error, Result};

/// Prints what the policy is and its greedy episode's return (with `--json`, one line with
/// every state); `--reset-seed N` starts from another reset than the page's.
pub fn replay(path: &str, args: Args) -> Result<()> {
    let reset: Option<u64> = args.get("reset-seed")?;
    let json = args.flag("json");
    args.finish()?;
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let (file, actor) = PolicyFile::parse(&text)?;
    let reset = reset.unwrap_or_else(|| file.replay_seed());
    let r = policy::replay(&actor, file.precision()?, reset);
    if json {
        let value = serde_json::json!({
            "kind": "replay", "trainer": file.trainer, "seed": file.seed, "update": file.update,
            "env_steps": file.env_steps, "reset_seed": r.reset_seed,
            "episode_return": r.episode_return, "states": r.states,
        });
        outln!("{value}");
        return Ok(());
    }
    let sizes: Vec<String> = file.sizes.iter().map(usize::to_string).collect();
    outln!(
        "{} policy, seed {}, after {} updates ({} env steps), layers {}",
        file.trainer,
        file.seed,
        file.update,
        file.env_steps,
        sizes.join("x")
    );
    outln!(
        "greedy episode from reset seed {}: return {} ({} steps)",
        r.reset_seed,
        r.episode_return,
        r.states.len() - 1
    );
    Ok(())
}
