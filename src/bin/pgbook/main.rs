//! `pgbook`: the textbook's engine on the command line — reproducible runs, JSON lines on
//! stdout, SVG figures on request, and benchmarks.

mod args;
mod ppo;
mod sequence;
mod simulate;

use args::Args;
use pgbook::{Error, Result};
use std::process::ExitCode;

const USAGE: &str = "\
pgbook — «Градиенты политики: от REINFORCE к PPO» on the command line

USAGE:
  pgbook simulate baselines [--group-size 8|2,4,8,16] [--groups 80000] [--seed 2026] [--json]
  pgbook train ppo --profile smoke|full [--seeds 11,37,...] [--threads 2] [--json] [--svg-dir DIR]
                   [--set '{\"update_epochs\": 10}']   (override config fields)
  pgbook bench ppo [--json] [--updates 60] [--repeats 3] [--kernels avx512|avx2|portable]
                   (widest SIMD path allowed; portable is what wasm runs)
  pgbook train sequence --profile smoke|full [--seed 5 | --seeds 5,6,7] [--reduction token_mean]
                        [--iterations N] [--json] [--svg-dir DIR]
  pgbook help
";

/// Options that take no value, across all commands.
const FLAGS: &[&str] = &["json"];

fn run(argv: &[String]) -> Result<()> {
    let words: Vec<&str> = argv
        .iter()
        .take_while(|a| !a.starts_with("--"))
        .map(String::as_str)
        .collect();
    let args = Args::parse(&argv[words.len()..], FLAGS)?;
    match words.as_slice() {
        ["simulate", "baselines"] => simulate::baselines(&args)?,
        ["train", "ppo"] => ppo::train(&args)?,
        ["bench", "ppo"] => ppo::bench(&args)?,
        ["train", "sequence"] => {
            let job = sequence::parse(&args)?;
            args.finish()?;
            return sequence::train(&job);
        }
        [] | ["help"] => {
            print!("{USAGE}");
            return Ok(());
        }
        _ => {
            eprint!("{USAGE}");
            return Err(Error::unknown("command", words.join(" "), &[]));
        }
    }
    args.finish()
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
