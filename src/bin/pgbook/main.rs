//! `pgbook`: the textbook's engine on the command line — reproducible runs, JSON lines on
//! stdout, SVG figures on request, the settings' schemas, and benchmarks.

#[macro_use]
mod out;
mod args;
mod cartpole;
mod class;
mod notebook;
mod ppo;
mod prepared;
mod replay;
mod sequence;
mod simulate;
mod train;

use args::Args;
use pgbook::error::Name;
use pgbook::train::registry::NAMES;
use pgbook::train::Trainer;
use pgbook::{by_trainer, Error, Result};
use std::process::ExitCode;

const USAGE: &str = "\
pgbook — «Градиенты политики: от REINFORCE к PPO» on the command line

USAGE:
  pgbook train TRAINER [OPTIONS]       train, print a summary per seed (or JSON lines)
  pgbook settings TRAINER [--json]     every setting: bounds, defaults per profile, help
  pgbook replay FILE.json [--reset-seed N] [--json]
                                             a policy file from the book: its greedy episode
  pgbook simulate baselines [--group-size 8|2,4,8,16] [--groups 80000] [--seed 2026] [--json]
  pgbook prepared ID [--seeds 201,202] [--threads 1] [--json]
                                       a lesson's prepared comparison: its table, and
                                       whether the lesson's prediction held (ID: masks, kl, …)
  pgbook bench ppo [--json] [--updates 60] [--repeats 3] [--kernels avx512|avx2|portable]
                   [--precision f64|f32]
                   (widest SIMD path allowed; portable is what wasm runs; the networks' scalar)
  pgbook bench transformer [--json] [--repeats 3] [--kernels avx512|avx2|portable]
                   [--precision f32|f64] [--clock wall|cpu]
                   (the transformer profile's network: tokens/s sampled through the KV cache
                   and trained forward + backward, GFLOP/s; both precisions unless one is given;
                   --clock cpu: the thread's CPU time, for a machine shared with other work)
  pgbook notebook [--teacher] [--out FILE.ipynb]
                                             the coding exercises as a Jupyter notebook (stubs;
                                             --teacher: with the solutions)
  pgbook class merge FILE [--json] [--trainer NAME [TRAIN OPTIONS] [--verify]]
                                       a class's result codes (one a line): its table and
                                       band; --trainer: the class's configuration, --verify:
                                       every seed recomputed (a forged code exits 2)
  pgbook help | --help | COMMAND --help

TRAIN OPTIONS:
";

/// Options that take no value, across all commands.
const FLAGS: &[&str] = &["json", "help", "url", "teacher", "class-code", "verify"];
/// Options that may be given more than once.
const REPEATABLE: &[&str] = &["set"];

fn usage() -> String {
    format!(
        "{USAGE}{}\nTRAINERS: {}\n",
        train::OPTIONS,
        NAMES.join(", ")
    )
}

fn run(argv: &[String]) -> Result<()> {
    let words: Vec<&str> = argv
        .iter()
        .take_while(|a| !a.starts_with("--"))
        .map(String::as_str)
        .collect();
    let args = Args::parse(&argv[words.len()..], FLAGS, REPEATABLE)?;
    if args.flag("help") || matches!(words.as_slice(), [] | ["help", ..]) {
        out::line(&usage());
        return Ok(());
    }
    let unknown = || {
        eprint!("{}", usage());
        let mut known: Vec<String> = Vec::new();
        for verb in ["train", "settings"] {
            known.extend(NAMES.iter().map(|n| format!("{verb} {n}")));
        }
        known.extend(
            [
                "simulate baselines",
                "replay FILE",
                "prepared ID",
                "bench ppo",
                "bench transformer",
                "notebook",
                "class merge FILE",
            ]
            .map(String::from),
        );
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        Err(Error::unknown(Name::Command, words.join(" "), &known))
    };
    match words.as_slice() {
        ["train", name] => by_trainer!(name, <T, F, D> => train::train::<T, F, D>(args),
            _other => unknown()),
        ["settings", name] => {
            by_trainer!(name, T => train::settings::<<T as Trainer>::Config>(args),
            _other => unknown())
        }
        ["simulate", "baselines"] => simulate::baselines(args),
        ["replay", path] => replay::replay(path, args),
        ["prepared", id] => prepared::prepared(id, args),
        ["bench", "ppo"] => ppo::bench(args),
        ["bench", "transformer"] => sequence::bench_transformer(args),
        ["notebook"] => notebook::notebook(args),
        ["class", "merge", path] => class::merge(path, args),
        _ => unknown(),
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pgbook: {e}");
            ExitCode::from(2)
        }
    }
}
