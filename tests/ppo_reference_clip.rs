//! Lesson 5 asks the reader to compare an unclipped run's share of ratios outside 1 ± ε with
//! the clipped runs': without clipping that share is measured against the ε the run would have
//! had, so it is not 0 by construction.

use pgbook::rl::DiagnosticsAccumulator;
use pgbook::train::ppo::{PpoConfig, PpoTrainer};
use pgbook::train::Trainer;

#[test]
fn an_unclipped_run_reports_ratios_outside_the_reference_band() {
    let mut config = PpoConfig::smoke();
    config.clip_coef = None;
    config.num_updates = 6;
    let mut trainer = PpoTrainer::new(config, 11).expect("valid settings");
    let mut outside = 0.0_f64;
    let mut active = 0.0_f64;
    while !trainer.is_finished() {
        let report = trainer.step().expect("a finite update");
        assert_eq!(report.clip_epsilon, None, "the run itself is unclipped");
        outside = outside.max(report.ratio_outside_fraction);
        active = active.max(report.active_clip_fraction);
    }
    assert!(outside > 0.0, "outside fraction {outside}");
    assert!(active > 0.0, "active clip fraction {active}");
}

#[test]
fn the_reference_applies_only_without_clipping() {
    // Ratio e^0.5 ≈ 1.65 with a positive advantage: outside 1 ± 0.2 and clipped.
    let mut reference = DiagnosticsAccumulator::with_reference_epsilon(0.2);
    reference.add(0.5, 1.0, f64::INFINITY);
    let d = reference.finish().expect("one sample");
    assert_eq!(d.ratio_outside_fraction, 1.0);
    assert_eq!(d.active_clip_fraction, 1.0);
    // A clipped sample keeps its own ε (0.9: the ratio is inside).
    let mut own = DiagnosticsAccumulator::with_reference_epsilon(0.2);
    own.add(0.5, 1.0, 0.9);
    assert_eq!(
        own.finish().expect("one sample").ratio_outside_fraction,
        0.0
    );
    // Without a reference, ε = ∞ counts nothing outside.
    let mut plain = DiagnosticsAccumulator::default();
    plain.add(0.5, 1.0, f64::INFINITY);
    assert_eq!(
        plain.finish().expect("one sample").ratio_outside_fraction,
        0.0
    );
}
