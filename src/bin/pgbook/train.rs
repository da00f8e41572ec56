//! `pgbook train NAME`: any trainer's `step()` in a loop, one path for all of them — settings
//! from a profile, `--config file.json` and `--set key=value`, seeds by the core's seed rule,
//! JSON lines or text, every option checked before any work. Timing happens here: the library
//! never reads a clock, so that it runs unchanged in a Web Worker.

use crate::args::Args;
use crate::out;
use pgbook::class::{code_of, ClassKind};
use pgbook::plots::{self, Theme};
use pgbook::train::cartpole::Evaluation;
use pgbook::train::compare::Extra;
use pgbook::train::curves::aggregate;
use pgbook::train::lines::{report_line, summary_line};
use pgbook::train::links;
use pgbook::train::settings::{seeds, Profile, Settings};
use pgbook::train::Trainer;
use pgbook::{Error, Result};
use plotters::prelude::*;
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What the text output of trainer `T` says (the JSON lines are the same for all), written
/// once per kind of trainer (the registry's panel markers: `CartPole`, `Sequence`).
pub trait TextOutput<T: Trainer> {
    /// The first line: what runs.
    fn header(config: &T::Config, profile: &str, seeds: &[u64]) -> String;
    /// The lines printed when a seed's run is done.
    fn seed_text(run: &FinishedRun<T>) -> String;
    /// The results table's own columns of a configuration's finished runs (`pgbook prepared`).
    fn final_extras(finished: &[&[T::Report]]) -> Vec<Extra>;
    /// Figures written by `--svg-dir`; `D` adds the trainer's diagnostics figure if any.
    fn write_svgs<D: SvgDiagnostics<T>>(
        dir: &std::path::Path,
        profile: &str,
        runs: &[FinishedRun<T>],
    ) -> Result<()>;
}

/// A trainer's diagnostics figure for `--svg-dir` (the registry's diagnostics markers).
pub trait SvgDiagnostics<T: Trainer> {
    /// Writes the first run's diagnostics figure to `dir`, if the trainer has one.
    fn write(dir: &std::path::Path, profile: &str, first: &FinishedRun<T>) -> Result<()>;
}

impl<T: Trainer> SvgDiagnostics<T> for pgbook::train::registry::NoDiagnostics {
    fn write(_: &std::path::Path, _: &str, _: &FinishedRun<T>) -> Result<()> {
        Ok(())
    }
}

/// A CartPole trainer's learning curve over its seeds (median and IQR of the greedy
/// evaluations) as `{trainer}_{profile}_learning_curve.svg` in `dir`.
pub fn write_learning_curve(
    dir: &std::path::Path,
    trainer: &str,
    profile: &str,
    evaluations: &[Vec<Evaluation>],
) -> Result<()> {
    let curve = aggregate(evaluations)?;
    let path = dir.join(format!("{trainer}_{profile}_learning_curve.svg"));
    let root = plots::marks::Recording::new(SVGBackend::new(&path, (900, 500))).into_drawing_area();
    let data = plots::learning_curve::Data {
        curve: &curve,
        profile,
        x_end: 0.0,
    };
    plots::learning_curve::draw(&root, &data, &Theme::default())?;
    root.present().map_err(|e| Error::io(path.display(), e))
}

/// One seed's finished run.
pub struct FinishedRun<T: Trainer> {
    /// The seed.
    pub seed: u64,
    /// The trainer after its last step.
    pub trainer: T,
    /// Every report.
    pub reports: Vec<T::Report>,
    /// Wall time of the run.
    pub wall_s: f64,
}

/// The options `train` reads (for `--help`).
pub const OPTIONS: &str = "\
  --profile NAME        a profile of the trainer (see `pgbook settings NAME`)
  --set KEY=VALUE       override one setting; repeatable
  --config FILE.json    override settings from a JSON object
  --seeds 11,37,...     seeds (default: the profile's course seeds)
  --seed N              one seed
  --threads N           seeds trained side by side (default 2)
  --json                JSON lines: one per step, one summary per seed
  --svg-dir DIR         also write the run's figures as SVG
  --class-code          print each seed's class result code (one a line) instead
  --url                 print the book's link that starts this run (and train nothing)
  --url-base URL        the book's address for --url (default http://127.0.0.1:8000/;
                        file:///…/pgbook.html: the book in one file, state in the fragment)
  --KEY VALUE           any setting by name, dashes for underscores (--group-size 4)";

/// Everything the command line asked for, read and checked before anything runs.
pub struct Job<T: Trainer> {
    pub config: T::Config,
    profile: String,
    seeds: Vec<u64>,
    threads: usize,
    json: bool,
    svg_dir: Option<PathBuf>,
    /// `--url`: the link to print instead of training.
    url: Option<String>,
}

pub fn parse<T: Trainer>(args: &Args) -> Result<Job<T>> {
    let profile_name = args
        .text("profile")
        .unwrap_or_else(|| <T::Config as Settings>::Profile::ALL[0].name().to_string());
    let profile = <T::Config as Settings>::Profile::parse(&profile_name)?;
    let mut config = T::Config::for_profile(profile);
    if let Some(path) = args.text("config") {
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let value: Value =
            serde_json::from_str(&text).map_err(|e| Error::parse(&path, text.as_str(), e))?;
        let Value::Object(overrides) = value else {
            return Err(Error::parse(&path, text.as_str(), "expected a JSON object"));
        };
        config = config.with_json(&overrides)?;
    }
    // Every setting is also an option of its own: `--group-size 4` is `--set group_size=4`.
    let mut pairs = Vec::new();
    for f in <T::Config as Settings>::FIELDS {
        if let Some(v) = args.text(&f.name.replace('_', "-")) {
            pairs.push((f.name.to_string(), v));
        }
    }
    for kv in args.all("set") {
        if kv.trim_start().starts_with('{') {
            // `--set '{"update_epochs": 10}'`: a JSON object of overrides.
            let value: Value =
                serde_json::from_str(&kv).map_err(|e| Error::parse("--set", kv.as_str(), e))?;
            if let Value::Object(overrides) = value {
                config = config.with_json(&overrides)?;
            }
            continue;
        }
        let Some((k, v)) = kv.split_once('=') else {
            return Err(Error::parse("--set", kv.as_str(), "expected KEY=VALUE"));
        };
        pairs.push((k.trim().to_string(), v.to_string()));
    }
    config = config.with_text(&pairs)?;
    // A run whose memory cannot fit is refused before it starts (per seed: each thread holds one).
    T::cost(&config).check_memory(pgbook::train::cost::NATIVE_BUDGET_BYTES)?;
    let seeds = match (args.text("seed"), args.text("seeds")) {
        (Some(_), Some(_)) => {
            return Err(Error::parse(
                "--seed",
                "",
                "give either --seed or --seeds, not both",
            ));
        }
        (Some(s), None) => vec![seeds::parse_seed(&s)?],
        (None, Some(list)) => seeds::parse_seeds(&list)?,
        (None, None) => profile.seeds().to_vec(),
    };
    let threads: usize = args.get("threads")?.unwrap_or(2);
    if !(1..=64).contains(&threads) {
        let rule = pgbook::error::Rule::WholeNumber { min: 1, max: 64 };
        return Err(Error::range("threads", rule, threads));
    }
    let svg_dir = args.text("svg-dir").map(PathBuf::from);
    if let Some(dir) = &svg_dir {
        // An unwritable directory is reported now, not after training.
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display(), e))?;
        let probe = dir.join(".pgbook-write-test");
        std::fs::write(&probe, b"").map_err(|e| Error::io(dir.display(), e))?;
        let _ = std::fs::remove_file(probe);
    }
    let url = if args.flag("url") {
        let base = args.text("url-base");
        let base = base.as_deref().unwrap_or(links::DEFAULT_BASE);
        let set = config.overrides_of(&T::Config::for_profile(profile));
        Some(links::run_link::<T>(base, &profile_name, &set, &seeds)?)
    } else {
        None
    };
    Ok(Job {
        url,
        config,
        profile: profile_name,
        seeds,
        threads,
        json: args.flag("json"),
        svg_dir,
    })
}

/// Runs `train NAME` for trainer `T`.
pub fn train<T, F, D>(args: Args) -> Result<()>
where
    T: Trainer + Send,
    T::Config: Sync,
    T::Report: Send,
    F: TextOutput<T> + ClassKind<T>,
    D: SvgDiagnostics<T>,
{
    let job = parse::<T>(&args)?;
    let class_code = args.flag("class-code");
    args.finish()?;
    if let Some(url) = &job.url {
        out::line(url);
        return Ok(());
    }
    if class_code {
        // One code per seed, in the seeds' order: what the page's class run shows.
        for run in run_seeds::<T, F>(&job.config, &job.seeds, job.threads, Output::Quiet)? {
            out::line(&code_of::<T, F>(&run.trainer, &run.reports)?.encode());
        }
        return Ok(());
    }
    if !job.json {
        out::line(&F::header(&job.config, &job.profile, &job.seeds));
    }
    let started = Instant::now();
    let output = match job.json {
        true => Output::Lines,
        false => Output::Text,
    };
    let runs = run_seeds::<T, F>(&job.config, &job.seeds, job.threads, output)?;
    if !job.json {
        out::line(&format!(
            "total wall time {:.2} s on {} thread(s)",
            started.elapsed().as_secs_f64(),
            job.threads.min(job.seeds.len())
        ));
    }
    for run in &runs {
        if job.json {
            let mut extra = Map::new();
            extra.insert("wall_s".into(), run.wall_s.into());
            if let Some(per_s) = env_steps_per_s(&run.trainer, run.wall_s) {
                extra.insert("env_steps_per_s".into(), per_s.into());
            }
            out::line(&summary_line::<T>(&run.trainer.summary(), &extra)?);
        }
    }
    if let Some(dir) = &job.svg_dir {
        F::write_svgs::<D>(dir, &job.profile, &runs)?;
    }
    Ok(())
}

/// Environment steps per second, for trainers that count them.
fn env_steps_per_s<T: Trainer>(t: &T, wall_s: f64) -> Option<f64> {
    let p = t.progress();
    (p.unit == pgbook::train::ProgressUnit::EnvSteps).then(|| p.done as f64 / wall_s)
}

/// What a run prints while it trains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A JSON line per report (`--json`).
    Lines,
    /// The trainer's text when a seed is done.
    Text,
    /// Nothing (`pgbook prepared --json` prints its table at the end).
    Quiet,
}

/// Runs every seed, `threads` at a time; each run is independent and deterministic.
pub fn run_seeds<T, F>(
    config: &T::Config,
    seeds: &[u64],
    threads: usize,
    output: Output,
) -> Result<Vec<FinishedRun<T>>>
where
    T: Trainer + Send,
    T::Config: Sync,
    T::Report: Send,
    F: TextOutput<T>,
{
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<FinishedRun<T>>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(seeds.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&seed) = seeds.get(i) else { break };
                let run = run_one::<T>(config, seed, output == Output::Lines);
                if let Ok(run) = &run {
                    if output == Output::Text {
                        out::line(&F::seed_text(run));
                    }
                }
                if let Ok(mut r) = results.lock() {
                    r.push((i, run));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn run_one<T: Trainer>(config: &T::Config, seed: u64, json: bool) -> Result<FinishedRun<T>> {
    let started = Instant::now();
    let mut trainer = T::new(config.clone(), seed)?;
    let mut reports = Vec::new();
    while !trainer.is_finished() {
        let report = trainer.step()?;
        if json {
            out::line(&report_line::<T>(seed, &report)?);
        }
        reports.push(report);
    }
    Ok(FinishedRun {
        seed,
        trainer,
        reports,
        wall_s: started.elapsed().as_secs_f64(),
    })
}

/// `pgbook settings NAME [--json]`: the trainer's schema.
pub fn settings<S: Settings>(args: Args) -> Result<()> {
    let json = args.flag("json");
    args.finish()?;
    if json {
        out::line(&pgbook::train::settings::schema_json::<S>().to_string());
        return Ok(());
    }
    let profiles: Vec<&str> = S::Profile::ALL.iter().map(|p| p.name()).collect();
    out::line(&format!("profiles: {}", profiles.join(", ")));
    for p in S::Profile::ALL {
        out::line(&format!("  {} seeds {:?}", p.name(), p.seeds()));
    }
    let defaults: Vec<Map<String, Value>> = S::Profile::ALL
        .iter()
        .map(|&p| S::for_profile(p).to_json())
        .collect();
    for f in S::FIELDS {
        let values: Vec<String> = defaults
            .iter()
            .map(|d| f.kind.to_text(d.get(f.name).unwrap_or(&Value::Null)))
            .collect();
        let bounds = serde_json::to_value(f.kind.describe()).unwrap_or_default();
        out::line(&format!(
            "{:<22} {:<30} {bounds}\n{:<22} {} — {}",
            f.name,
            values.join(" | "),
            "",
            f.label,
            f.help
        ));
    }
    Ok(())
}
