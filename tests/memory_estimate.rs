//! The memory a run is refused for is counted, not guessed: each trainer's estimate
//! (`Trainer::cost`) against the peak bytes it really holds over its first steps, measured by
//! a counting allocator (per thread, so that the other tests running beside it do not count).
use pgbook::train::settings::{Profile, Settings};
use pgbook::train::{a2c, ppo, reinforce, sequence, Trainer};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// How far the estimate may be from the measured peak, either way.
const FACTOR: f64 = 2.0;

struct Counting;

thread_local! {
    static LIVE: Cell<u64> = const { Cell::new(0) };
    static PEAK: Cell<u64> = const { Cell::new(0) };
}

fn count(delta: i64) {
    // `try_with`: the thread's counters may already be gone while it exits.
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add_signed(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Peak bytes held while `T` is built and does `steps` steps (from what was live before).
fn measured_peak<T: Trainer>(config: T::Config, steps: usize) -> u64 {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let mut trainer = T::new(config, 1).expect("a valid configuration");
    for _ in 0..steps {
        trainer.step().expect("a step");
    }
    drop(trainer);
    PEAK.with(Cell::get) - base
}

fn check<T: Trainer>(what: &str, config: T::Config, steps: usize) {
    let estimate = T::cost(&config).bytes as f64;
    let measured = measured_peak::<T>(config, steps) as f64;
    let ratio = estimate / measured;
    eprintln!("{what}: estimate {estimate:.0} B, measured peak {measured:.0} B, ratio {ratio:.2}");
    assert!(
        (1.0 / FACTOR..=FACTOR).contains(&ratio),
        "{what}: estimate {estimate} against measured {measured} (ratio {ratio:.2})"
    );
}

fn ppo_with(pairs: &[(&str, &str)]) -> ppo::PpoConfig {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    ppo::PpoConfig::smoke()
        .with_text(&pairs)
        .expect("valid settings")
}

#[test]
fn ppo_memory_estimate_is_within_a_factor_of_two_of_what_it_allocates() {
    let big = [
        ("num_envs", "16"),
        ("num_steps", "256"),
        ("minibatch_size", "4096"),
        ("hidden_sizes", "256,256"),
        ("num_updates", "2"),
        ("update_epochs", "1"),
    ];
    check::<ppo::PpoTrainer>("ppo f32 large minibatch", ppo_with(&big), 1);
    let mut f64_big = big.to_vec();
    f64_big.push(("precision", "f64"));
    check::<ppo::PpoTrainer>("ppo f64 large minibatch", ppo_with(&f64_big), 1);
    let buffer = [
        ("num_envs", "64"),
        ("num_steps", "512"),
        ("minibatch_size", "256"),
        ("num_updates", "2"),
        ("update_epochs", "1"),
    ];
    check::<ppo::PpoTrainer>("ppo large rollout", ppo_with(&buffer), 1);
}

#[test]
fn a2c_reinforce_and_sequence_memory_estimates_are_within_a_factor_of_two() {
    let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let a2c = a2c::A2cConfig::for_profile(<a2c::A2cConfig as Settings>::Profile::ALL[0])
        .with_text(&pairs(&[
            ("num_envs", "64"),
            ("num_steps", "128"),
            ("hidden_sizes", "256,256"),
            ("num_updates", "2"),
        ]))
        .expect("valid settings");
    check::<a2c::A2cTrainer>("a2c", a2c, 1);
    let reinforce = reinforce::ReinforceConfig::for_profile(
        <reinforce::ReinforceConfig as Settings>::Profile::ALL[0],
    )
    .with_text(&pairs(&[
        ("episodes_per_update", "64"),
        ("env_step_budget", "40000"),
        ("hidden_sizes", "256,256"),
    ]))
    .expect("valid settings");
    // REINFORCE's bound assumes 500-step episodes; an untrained policy's are short, so its
    // count is checked at the batch the first update really collected.
    let estimate = reinforce::batch_bytes(&reinforce, 0) as f64;
    let per_step = reinforce::batch_bytes(&reinforce, 1) as f64 - estimate;
    let mut trainer = reinforce::ReinforceTrainer::new(reinforce, 1).expect("valid");
    drop(trainer.step());
    let collected = trainer.progress().done as f64;
    drop(trainer);
    let measured = measured_peak::<reinforce::ReinforceTrainer>(
        reinforce::ReinforceConfig::for_profile(
            <reinforce::ReinforceConfig as Settings>::Profile::ALL[0],
        )
        .with_text(&pairs(&[
            ("episodes_per_update", "64"),
            ("env_step_budget", "40000"),
            ("hidden_sizes", "256,256"),
        ]))
        .expect("valid settings"),
        1,
    ) as f64;
    let ratio = (estimate + per_step * collected) / measured;
    eprintln!("reinforce ({collected} steps): ratio {ratio:.2}");
    assert!(
        (1.0 / FACTOR..=FACTOR).contains(&ratio),
        "reinforce: ratio {ratio:.2}"
    );
    let sequence = sequence::SequenceConfig::for_profile(
        <sequence::SequenceConfig as Settings>::Profile::ALL[0],
    )
    .with_text(&pairs(&[
        ("prompts_per_iteration", "64"),
        ("group_size", "64"),
        ("hidden_dim", "128"),
    ]))
    .expect("valid settings");
    check::<sequence::SequenceTrainer>("sequence", sequence, 1);
    // The transformer in both precisions: its activations (attention's weights included), the
    // parameters with the reference and Adam, the KV caches of the sampled answers.
    for precision in ["f32", "f64"] {
        let transformer = sequence::SequenceConfig::for_profile(
            <sequence::SequenceConfig as Settings>::Profile::ALL[0],
        )
        .with_text(&pairs(&[
            ("policy", "transformer"),
            ("precision", precision),
            ("prompts_per_iteration", "16"),
            ("group_size", "32"),
            ("model_dim", "64"),
            ("heads", "4"),
            ("mlp_dim", "256"),
            ("eval_samples_per_prompt", "16"),
        ]))
        .expect("valid settings");
        let what = format!("transformer {precision}");
        check::<sequence::SequenceTrainer>(&what, transformer, 1);
    }
}

#[test]
fn the_cli_refuses_a_run_whose_memory_cannot_fit_naming_its_settings() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pgbook"))
        .args([
            "train",
            "ppo",
            "--profile",
            "smoke",
            "--seed",
            "1",
            "--set",
            "num_envs=64",
            "--set",
            "num_steps=4096",
            "--set",
            "minibatch_size=262144",
            "--set",
            "hidden_sizes=1024,1024,1024,1024",
            "--set",
            "num_updates=1",
            "--set",
            "update_epochs=1",
        ])
        .output()
        .expect("the CLI runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("GiB") && err.contains("minibatch_size") && err.contains("hidden_sizes"),
        "{err}"
    );
}
