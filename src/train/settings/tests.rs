use super::*;
use crate::error::ErrorKind;
use crate::train::ppo::{PpoConfig, PpoProfile};
use crate::train::sequence::SequenceConfig;

fn every_profile_is_valid_and_round_trips<S: Settings>() {
    for &p in S::Profile::ALL {
        let s = S::for_profile(p);
        s.validate().unwrap();
        // Every field's text form reads back to the same value.
        let base = S::for_profile(S::Profile::ALL[0]);
        assert_eq!(base.with_text(&s.overrides_of(&base)).unwrap(), s);
        for f in S::FIELDS {
            let v = &s.to_json()[f.name];
            assert_eq!(
                &f.kind.parse_text(f.name, &f.kind.to_text(v)).unwrap(),
                v,
                "{}",
                f.name
            );
            assert!(!f.label.is_empty() && !f.help.is_empty());
        }
    }
    assert_eq!(
        S::FIELDS.len(),
        S::for_profile(S::Profile::ALL[0]).to_json().len()
    );
}

#[test]
fn profiles_are_valid_and_every_value_round_trips_through_text() {
    // Every trainer of the registry, none forgotten.
    for &name in crate::train::registry::NAMES {
        crate::by_trainer!(name, T => every_profile_is_valid_and_round_trips::<<T as crate::train::Trainer>::Config>(), other => panic!("{other}"));
    }
}

#[test]
fn text_overrides_are_strict_and_name_the_setting() {
    let base = PpoConfig::full();
    let set = |k: &str, v: &str| base.with_text(&[(k.to_string(), v.to_string())]);
    assert_eq!(set("gamma", "0.98").unwrap().gamma, 0.98);
    assert_eq!(
        set("hidden_sizes", "32, 16").unwrap().hidden_sizes,
        vec![32, 16]
    );
    for (k, v) in [
        ("gamma", ""),
        ("gamma", " 0.9"),
        ("gamma", "0x10"),
        ("gamma", "inf"),
        ("gamma", "1.5"),
        ("num_envs", "8.0"),
        ("num_envs", "-1"),
        ("num_envs", "99999999999999999999999"),
        ("norm_adv", "yes"),
        ("hidden_sizes", ""),
        ("hidden_sizes", "64,0"),
    ] {
        let e = set(k, v).unwrap_err();
        assert_eq!(e.arg(), Some(k), "{k}={v}: {e}");
    }
    let e = set("gama", "0.9").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unknown { name, .. } if name == "gama"));
    let e = set("minibatch_size", "1000").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Range { arg, .. } if arg == "minibatch_size"));
}

#[test]
fn differences_name_each_changed_field_with_both_values() {
    let mut c = PpoConfig::full();
    c.gamma = 0.98;
    c.anneal_clip = false;
    let d: Vec<(&str, String, String)> = c
        .differences(&PpoConfig::full())
        .into_iter()
        .map(|(f, a, b)| (f.name, a, b))
        .collect();
    assert_eq!(
        d,
        vec![
            ("gamma", "0.99".into(), "0.98".into()),
            ("anneal_clip", "true".into(), "false".into())
        ]
    );
}

#[test]
fn the_schema_lists_every_field_with_bounds_defaults_and_russian_text() {
    let schema = schema_json::<PpoConfig>();
    let fields = schema["fields"].as_array().unwrap();
    assert_eq!(fields.len(), PpoConfig::FIELDS.len());
    let gamma = fields.iter().find(|f| f["name"] == "gamma").unwrap();
    assert_eq!(gamma["type"], "real");
    assert_eq!(
        (gamma["min"].as_f64(), gamma["max"].as_f64()),
        (Some(0.0), Some(1.0))
    );
    assert_eq!(gamma["default"]["full"], 0.99);
    assert_eq!(gamma["default"]["cleanrl"], 0.99);
    let mb = fields
        .iter()
        .find(|f| f["name"] == "minibatch_size")
        .unwrap();
    assert_eq!(
        (
            mb["default"]["full"].as_u64(),
            mb["default"]["cleanrl"].as_u64()
        ),
        (Some(64), Some(128))
    );
    assert!(gamma["label"].as_str().unwrap().contains('γ'));
    assert_eq!(schema["profiles"][1]["name"], "full");
    assert_eq!(
        schema["profiles"][1]["seeds"],
        serde_json::json!([11, 37, 71, 101, 131])
    );
    let reduction = &schema_json::<SequenceConfig>()["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "reduction")
        .unwrap()
        .clone();
    // Lesson 7's three and Dr. GRPO's constant_length.
    assert_eq!(reduction["choices"].as_array().unwrap().len(), 4);
}

#[test]
fn a_request_resolves_a_profile_and_its_overrides() {
    let r = Request {
        profile: "full".into(),
        set: vec![("gamma".into(), "0.98".into())],
    };
    let (p, c) = r.resolve::<PpoConfig>().unwrap();
    assert_eq!((p, c.gamma), (PpoProfile::Full, 0.98));
    let bad = Request {
        profile: "huge".into(),
        set: vec![],
    };
    assert!(bad.resolve::<PpoConfig>().is_err());
}

#[test]
fn the_seed_rule_is_the_same_for_text_and_numbers() {
    use seeds::*;
    assert_eq!(parse_seed("11").unwrap(), 11);
    assert_eq!(parse_seed(&MAX_SEED.to_string()).unwrap(), MAX_SEED);
    for bad in [
        "",
        "-1",
        "1.5",
        "0x10",
        "9007199254740992",
        "1000000000000000000000",
    ] {
        assert!(parse_seed(bad).is_err(), "{bad}");
    }
    assert_eq!(check_seed(1_000_000_001.0).unwrap(), 1_000_000_001);
    assert!(check_seed(9_007_199_254_740_992.0).is_err());
    assert!(check_seed(f64::NAN).is_err() && check_seed(-1.0).is_err() && check_seed(0.5).is_err());
    assert_eq!(parse_seeds("11, 37").unwrap(), vec![11, 37]);
    assert!(parse_seeds("11,11").is_err() && parse_seeds("").is_err());
}
