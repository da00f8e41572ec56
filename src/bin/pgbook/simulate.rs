//! `pgbook simulate baselines`: the notebook's first experiment.

use crate::args::Args;
use pgbook::rl::simulate_group_baseline_bias;
use pgbook::Result;

/// `--group-size` takes one size or a comma-separated list (one report, or JSON line, each).
pub fn baselines(args: Args) -> Result<()> {
    let group_sizes: Vec<usize> = args.list("group-size")?.unwrap_or_else(|| vec![8]);
    let groups = args.get("groups")?.unwrap_or(80_000);
    let seed = args.get("seed")?.unwrap_or(2026);
    let json = args.flag("json");
    args.finish()?;
    for (i, group_size) in group_sizes.into_iter().enumerate() {
        if i > 0 && !json {
            outln!("\n");
        }
        report(group_size, groups, seed, json)?;
    }
    Ok(())
}

fn report(group_size: usize, groups: usize, seed: u64, json: bool) -> Result<()> {
    let r = simulate_group_baseline_bias(group_size, groups, seed)?;
    if json {
        let value = serde_json::json!({
            "group_size": group_size, "groups": groups, "seed": seed,
            "exact": r.exact, "plain_mean": r.plain_mean, "same_group_mean": r.same_group_mean,
            "rloo_mean": r.rloo_mean, "predicted_same_group": r.predicted_same_group,
            "plain_std": r.plain_std, "same_group_std": r.same_group_std, "rloo_std": r.rloo_std,
        });
        outln!("{value}");
        return Ok(());
    }
    let z = |mean: f64, expect: f64, std: f64| (mean - expect) / (std / (groups as f64).sqrt());
    outln!("Bandit: 3 actions, logits [0, 1, -1], success probabilities [0.8, 0.3, 0.5]");
    outln!("group size {group_size}, groups {groups}, seed {seed}; component 0 of the gradient\n");
    outln!("{:<22}{:>14}", "exact", format!("{:.6}", r.exact));
    outln!(
        "{:<22}{:>14}",
        "predicted_same_group",
        format!("{:.6}", r.predicted_same_group)
    );
    outln!(
        "\n{:<22}{:>14}{:>14}{:>22}",
        "estimator",
        "mean",
        "std",
        "z vs expectation"
    );
    let rows = [
        ("plain", r.plain_mean, r.plain_std, r.exact),
        (
            "same_group",
            r.same_group_mean,
            r.same_group_std,
            r.predicted_same_group,
        ),
        ("rloo", r.rloo_mean, r.rloo_std, r.exact),
    ];
    for (name, mean, std, expect) in rows {
        outln!(
            "{name:<22}{mean:>14.6}{std:>14.6}{:>22.2}",
            z(mean, expect, std)
        );
    }
    outln!(
        "\nsame_group vs exact: z = {:.1} (the (G-1)/G shrinkage)",
        z(r.same_group_mean, r.exact, r.same_group_std)
    );
    Ok(())
}
