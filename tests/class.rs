//! Class result codes end to end: twelve seeds' codes merged into the band and table the
//! runs themselves give; the CLI's `--class-code` equal to the core's; refusals (a forged
//! fingerprint, other numbers, a duplicate, a truncated code, another configuration), in the
//! core and as the CLI's exit code 2.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::class::merge::{merge, verify};
use pgbook::class::{checkpoints, code_of, Code};
use pgbook::error::{CodeProblem, ErrorKind};
use pgbook::train::a2c::{A2cConfig, A2cTrainer};
use pgbook::train::cartpole::CartPoleTrainer;
use pgbook::train::compare::config_result;
use pgbook::train::curves::aggregate;
use pgbook::train::registry::CartPole;
use pgbook::train::settings::Settings;
use pgbook::train::{Score, Trainer};
use std::process::Command;

/// The cheap class configuration the page test uses too: A2C's smoke profile cut to 40
/// updates, evaluated every 4 (eleven evaluations, eight of them in a code).
const SETS: [&str; 4] = ["--set", "num_updates=40", "--set", "evaluation_every=4"];

fn config() -> A2cConfig {
    let pairs =
        [("num_updates", "40"), ("evaluation_every", "4")].map(|(k, v)| (k.into(), v.into()));
    A2cConfig::smoke().with_text(&pairs).unwrap()
}

fn problem(e: pgbook::Error) -> CodeProblem {
    match e.kind() {
        ErrorKind::ClassCode { problem, .. } => problem.clone(),
        other => panic!("{other:?}"),
    }
}

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pgbook"))
        .args(args)
        .output()
        .expect("the CLI runs")
}

#[test]
fn twelve_codes_merge_into_the_band_and_table_of_their_runs() {
    let seeds: Vec<u64> = (1..=12).collect();
    let (mut codes, mut evaluations, mut finished) = (vec![], vec![], vec![]);
    for &seed in &seeds {
        let mut t = A2cTrainer::new(config(), seed).unwrap();
        let mut reports = vec![];
        while !t.is_finished() {
            reports.push(t.step().unwrap());
        }
        codes.push(
            code_of::<A2cTrainer, CartPole>(&t, &reports)
                .unwrap()
                .encode(),
        );
        evaluations.push(t.evaluations().to_vec());
        finished.push(t.summary().score());
    }
    let longest = codes.iter().map(String::len).max().unwrap();
    assert!(longest <= 120, "{longest}: {codes:?}");
    // Pasted in another order, with blank lines: the same class.
    let text = codes
        .iter()
        .rev()
        .map(|c| format!("{c}\n\n"))
        .collect::<String>();
    let class = merge(&text, None).unwrap();
    assert!(class.refused.is_empty());
    assert_eq!(class.rows.iter().map(|r| r.seed).collect::<Vec<_>>(), seeds);
    // The band is the runs' own band on the code's checkpoints.
    let full = aggregate(&evaluations).unwrap();
    let keep = checkpoints(full.env_steps.len());
    assert_eq!(keep.len(), 8);
    assert_eq!(
        class.curve.env_steps,
        keep.iter().map(|&i| full.env_steps[i]).collect::<Vec<_>>()
    );
    for (k, &i) in keep.iter().enumerate() {
        assert_eq!(class.curve.median[k].to_bits(), full.median[i].to_bits());
        assert_eq!(class.curve.q25[k].to_bits(), full.q25[i].to_bits());
        assert_eq!(class.curve.q75[k].to_bits(), full.q75[i].to_bits());
    }
    let rows: Vec<_> = finished
        .iter()
        .map(|&s| (s, &[][..]))
        .collect::<Vec<((f64, Option<u64>), &[()])>>();
    let table = config_result(0, "a2c", 12, &rows, |_| Vec::new());
    assert_eq!(class.result, table);

    // The CLI's codes are the core's, and its merge prints the same band.
    let mut args = vec![
        "train",
        "a2c",
        "--profile",
        "smoke",
        "--seeds",
        "1,2,3",
        "--class-code",
    ];
    args.extend(SETS);
    let out = cli(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .collect::<Vec<_>>(),
        codes[..3]
    );
    let dir = std::env::temp_dir().join(format!("pgbook-class-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("codes.txt");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    let out = cli(&["class", "merge", path, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["curve"]["median"],
        serde_json::to_value(&class.curve.median).unwrap()
    );
    let out = cli(&["class", "merge", path]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("class: a2c") && table.contains("band:"),
        "{table}"
    );

    // A duplicate and a truncated code: exit 2, the line and the reason.
    let bad = format!("{}\n{}\n{}\n", codes[0], codes[1], codes[0]);
    std::fs::write(&file, bad).unwrap();
    let out = cli(&["class", "merge", path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 3") && err.contains("seed 1 was already handed in"),
        "{err}"
    );
    std::fs::write(&file, &codes[0][..codes[0].len() - 4]).unwrap();
    let out = cli(&["class", "merge", path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"));
    // --verify recomputes: a forged fingerprint exits 2.
    let mut forged = Code::decode(&codes[1]).unwrap();
    forged.fingerprint ^= 1;
    std::fs::write(&file, format!("{}\n{}\n", codes[0], forged.encode())).unwrap();
    let mut args = vec![
        "class",
        "merge",
        path,
        "--trainer",
        "a2c",
        "--profile",
        "smoke",
        "--verify",
    ];
    args.extend(SETS);
    let out = cli(&args);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("fingerprint is forged"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn forged_duplicate_truncated_and_foreign_codes_are_refused_with_reasons() {
    let code = pgbook::class::run_code::<A2cTrainer, CartPole>(&config(), 5).unwrap();
    let text = code.encode();
    assert_eq!(
        verify::<A2cTrainer, CartPole>(&config(), &text).unwrap(),
        code
    );
    let forged = Code {
        fingerprint: code.fingerprint ^ 0x10,
        ..code.clone()
    };
    let e = verify::<A2cTrainer, CartPole>(&config(), &forged.encode()).unwrap_err();
    assert_eq!(problem(e.clone()), CodeProblem::Fingerprint(5));
    assert!(e.russian(&|_| None).contains("отпечаток подделан"));
    let numbers = Code {
        score: code.score + 1.0,
        ..code.clone()
    };
    let e = verify::<A2cTrainer, CartPole>(&config(), &numbers.encode()).unwrap_err();
    assert_eq!(problem(e), CodeProblem::Numbers(5));
    let other = A2cConfig {
        gamma: 0.9,
        ..config()
    };
    let e = verify::<A2cTrainer, CartPole>(&other, &text).unwrap_err();
    assert_eq!(problem(e), CodeProblem::OtherConfig);
    // In a merge: each line refused with its reason, the rest kept.
    let foreign = Code {
        config: code.config ^ 1,
        seed: 6,
        ..code.clone()
    };
    let pasted = [
        text.clone(),
        text.clone(),
        text[..20].to_string(),
        foreign.encode(),
    ]
    .join("\n");
    let class = merge(&pasted, None).unwrap();
    assert_eq!(class.rows.len(), 1);
    let reasons: Vec<(usize, &str)> = class
        .refused
        .iter()
        .map(|r| (r.line, r.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons[0].1.contains("строке 2") && reasons[0].1.contains("уже сдано"),
        "{reasons:?}"
    );
    assert!(reasons[1].1.contains("контрольная сумма"), "{reasons:?}");
    assert!(reasons[2].1.contains("другой конфигурации"), "{reasons:?}");
    assert_eq!(problem(merge("", None).unwrap_err()), CodeProblem::Empty);
}
