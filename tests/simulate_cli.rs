//! `hexpost simulate` as a user runs it: one JSON line on success, a clear
//! message and a non-zero exit on bad input.

use std::process::Command;

fn hexpost(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn prints_one_json_line_of_figures() {
    let out = hexpost(&[
        "simulate",
        "--variant",
        "duel",
        "--games",
        "4",
        "--seed",
        "9",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["variant"], "duel");
    assert_eq!(v["games"], 4);
    assert_eq!(v["checks"], true);
    let finished = v["finished"].as_u64().unwrap();
    let wins = v["wins"].as_array().unwrap();
    assert_eq!(
        wins.iter().map(|w| w.as_u64().unwrap()).sum::<u64>(),
        finished
    );
    for key in [
        "mean_turns",
        "mean_actions",
        "elapsed_s",
        "games_per_s",
        "actions_per_s",
    ] {
        assert!(v[key].as_f64().unwrap() > 0.0, "{key}");
    }
}

#[test]
fn same_seed_same_figures() {
    let a = hexpost(&["simulate", "--games", "3", "--seed", "5", "--no-checks"]);
    let b = hexpost(&["simulate", "--games", "3", "--seed", "5", "--no-checks"]);
    let pick = |o: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (
            v["mean_actions"].clone(),
            v["wins"].clone(),
            v["mean_turns"].clone(),
        )
    };
    assert_eq!(pick(&a), pick(&b));
}

#[test]
fn unknown_variant_and_bad_options_are_refused() {
    let out = hexpost(&["simulate", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant `chess`"));

    let out = hexpost(&["simulate", "--option", "vp_target"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("KEY=VALUE"));

    let out = hexpost(&["simulate", "--option", "no_such_option=1"]);
    assert_eq!(out.status.code(), Some(2));

    let out = hexpost(&["simulate", "--option", "vp_target=99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("vp_target"));
}

/// An earlier revision of the rules plays as it did: seed 5's random board
/// puts a marked catan_for_two start spot beside the desert, which only
/// revision 1 moves, so the two revisions play different games.
#[test]
fn games_of_an_earlier_revision_can_be_simulated() {
    let figures = |revision: &str| {
        let out = hexpost(&[
            "simulate",
            "--variant",
            "catan_for_two",
            "--games",
            "1",
            "--seed",
            "5",
            "--revision",
            revision,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["mean_actions"].clone()
    };
    assert_ne!(figures("0"), figures("1"));
    let out = hexpost(&["simulate", "--revision", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("revision 99"));
}

/// Cities & Knights for two plays to a winner with the checks on, every
/// legal action possible (its random games are long: see
/// docs/performance.md), and the same seed gives the same figures.
#[test]
fn ck_for_two_games_play_to_a_winner_and_replay() {
    let run = || {
        let out = hexpost(&[
            "simulate",
            "--variant",
            "ck_for_two",
            "--games",
            "4",
            "--seed",
            "3",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let a = run();
    assert_eq!(a["variant"], "ck_for_two");
    assert_eq!(a["finished"], 4);
    assert_eq!(a["checks"], true);
    let b = run();
    assert_eq!(
        (&a["mean_actions"], &a["wins"]),
        (&b["mean_actions"], &b["wins"])
    );
}
