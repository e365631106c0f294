//! Games stored by earlier versions of the engine still replay exactly.
//!
//! A correspondence game lives for weeks and its log is verified by replay,
//! so the engine must reproduce, for every stored game, the very state
//! JSON and events it wrote: their hashes are in the chain. The fixtures in
//! `tests/fixtures/stored/` are complete random games, one per variant and
//! option set, recorded with the engine of the revision they name. Each row
//! is one log row as the server writes it (the opening, a player's
//! decision, or one automated step), with the SHA-256 of the state JSON and
//! of the events JSON after it (first 16 hex digits), and the last state in
//! full, so a stored state must also still load.
//!
//! `random-games-revision-0.json` pins more: the digest of twenty random
//! games (every action and the final state) of each case's configuration
//! at revision 0, as the engine computed it both before and after it
//! became a set of rulesets.
//!
//! Recording (only ever for a new fixture; never re-record an old one):
//! `cargo test -p hexpost-engine --test rules -- --ignored --exact stored_games::record`.

use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{Checks, play_game};
use hexpost_engine::{Action, Event, GameConfig, GameState, Seat, Variant};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// A stored game: how it was created and every log row after that.
#[derive(Serialize, Deserialize)]
struct Fixture {
    /// The revision of the rules the game was created under.
    revision: u32,
    config: GameConfig,
    seed: u64,
    rows: Vec<Row>,
    /// The state after the last row, exactly as stored.
    final_state: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Row {
    /// The player's decision, absent for the opening and automated steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    action: Option<Action>,
    /// The automated seat that acted, for an automated step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    auto: Option<Seat>,
    state: String,
    events: String,
}

/// A stored game: its file name, variant, options and seed.
type Case = (
    &'static str,
    Variant,
    &'static [(&'static str, &'static str)],
    u64,
);

/// The games recorded before revisions were: each option set RULES.md
/// names is covered; the catan_for_two game with fixed start spots is on a
/// board where a marked spot touches the desert, the case a later revision
/// fixes. Their random games are also pinned at revision 0.
const CASES: &[Case] = &[
    ("standard", Variant::Standard, &[], 11),
    (
        "standard-beginner-options",
        Variant::Standard,
        &[
            ("board", "beginner"),
            ("friendly_robber", "true"),
            ("balanced_dice", "true"),
            ("vp_target", "8"),
        ],
        12,
    ),
    ("duel", Variant::Duel, &[], 13),
    ("catan_for_two-fixed-desert", Variant::CatanForTwo, &[], 5),
    (
        "catan_for_two-random-start",
        Variant::CatanForTwo,
        &[("neutral_start", "random"), ("no_player_trade", "true")],
        15,
    ),
    ("neutral_trader", Variant::NeutralTrader, &[], 16),
    (
        "neutral_trader-discard-9",
        Variant::NeutralTrader,
        &[("discard_limit", "9"), ("no_player_trade", "true")],
        17,
    ),
    ("shadow-edited", Variant::Shadow, &[], 18),
    (
        "shadow-1998-agree",
        Variant::Shadow,
        &[
            ("edition", "1998"),
            ("removal_reroll", "agree"),
            ("reroll_six", "true"),
        ],
        19,
    ),
    (
        "shadow-edited-never",
        Variant::Shadow,
        &[("removal_reroll", "never"), ("balanced_dice", "true")],
        20,
    ),
];

/// Games recorded later, under the revision current when they were
/// (written in the fixture): Cities & Knights for two, with its defaults
/// and with every option that changes its play.
const LATER_CASES: &[Case] = &[
    ("ck_for_two", Variant::CkForTwo, &[], 21),
    (
        "ck_for_two-options",
        Variant::CkForTwo,
        &[
            ("neutral_start", "random"),
            ("balanced_dice", "true"),
            ("friendly_robber", "true"),
            ("discard_limit", "9"),
        ],
        22,
    ),
];

fn every_case() -> impl Iterator<Item = &'static Case> {
    CASES.iter().chain(LATER_CASES)
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored")
}

fn short_hash(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))[..16].to_string()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn row(state: &GameState, events: &[Event]) -> Row {
    Row {
        seat: None,
        action: None,
        auto: None,
        state: short_hash(&serde_json::to_string(state).unwrap()),
        events: short_hash(&serde_json::to_string(events).unwrap()),
    }
}

/// Plays `decisions` the way the server logs them: the opening, then each
/// decision followed by the automated steps it triggers, a row each.
/// Calls `each` with every row as it is made; returns the final state.
fn replay(
    config: &GameConfig,
    seed: u64,
    decisions: impl IntoIterator<Item = (Seat, Action)>,
    mut each: impl FnMut(Row) -> Result<(), String>,
) -> Result<GameState, String> {
    let (mut state, events) =
        GameState::opening(config, GameRng::from_seed(seed)).map_err(|e| e.to_string())?;
    each(row(&state, &events))?;
    let automated = |state: &mut GameState,
                     each: &mut dyn FnMut(Row) -> Result<(), String>|
     -> Result<(), String> {
        let mut events = Vec::new();
        while let Some(seat) = state.automated_step(&mut events) {
            each(Row {
                auto: Some(seat),
                ..row(state, &events)
            })?;
            events.clear();
        }
        Ok(())
    };
    automated(&mut state, &mut each)?;
    for (seat, action) in decisions {
        let events = state
            .apply_decision(seat, &action)
            .map_err(|e| format!("{seat} {action:?} refused: {e}"))?;
        each(Row {
            seat: Some(seat),
            action: Some(action),
            ..row(&state, &events)
        })?;
        automated(&mut state, &mut each)?;
    }
    Ok(state)
}

fn config(variant: Variant, options: &[(&str, &str)]) -> GameConfig {
    let mut c = GameConfig::new(variant);
    for (k, v) in options {
        c.set_option(k, v).unwrap();
    }
    c
}

#[test]
#[ignore = "writes fixtures; run only to add a new one"]
fn record() {
    std::fs::create_dir_all(dir()).unwrap();
    let only = std::env::var("HEXPOST_RECORD").ok();
    for &(name, variant, options, seed) in every_case() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let path = dir().join(format!("{name}.json"));
        assert!(
            !path.exists() || only.is_some(),
            "{name}: a recorded fixture is never recorded again"
        );
        let config = config(variant, options);
        let game = play_game(&config, seed, 1000, Checks::None).unwrap();
        assert!(game.winner.is_some(), "{name}: the game ends");
        let mut rows = Vec::new();
        let state = replay(&config, seed, game.actions.clone(), |r| {
            rows.push(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(state, game.final_state);
        let fixture = Fixture {
            revision: config.revision.unwrap_or(0),
            config,
            seed,
            rows,
            final_state: serde_json::to_string(&state).unwrap(),
        };
        std::fs::write(&path, one_row_per_line(&fixture)).unwrap();
    }
}

/// The fixture's JSON with each row on a line of its own, so that a
/// reader can follow a game in it.
fn one_row_per_line(f: &Fixture) -> String {
    let rows: Vec<String> = f.rows.iter().map(json).collect();
    format!(
        "{{\"revision\":{},\"config\":{},\"seed\":{},\"rows\":[\n{}\n],\n\"final_state\":{}}}\n",
        f.revision,
        json(&f.config),
        f.seed,
        rows.join(",\n"),
        json(&f.final_state)
    )
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// Seeds of the pinned random games of each case.
const PINNED_SEEDS: std::ops::Range<u64> = 1000..1020;

/// The digest of the pinned random games of `config` at revision 0.
fn random_games_digest(config: &GameConfig) -> String {
    let mut config = config.clone();
    config.revision = Some(0);
    let mut h = Sha256::new();
    for seed in PINNED_SEEDS {
        let game = play_game(&config, seed, 1000, Checks::None).unwrap();
        h.update(json(&game.actions));
        h.update(json(&game.final_state));
    }
    hex(&h.finalize())
}

fn pinned_path() -> PathBuf {
    dir().join("random-games-revision-0.json")
}

#[test]
#[ignore = "writes fixtures; run only to add a new one"]
fn record_pinned_random_games() {
    assert!(!pinned_path().exists(), "never recorded again");
    let digests: std::collections::BTreeMap<&str, String> = CASES
        .iter()
        .map(|&(name, variant, options, _)| (name, random_games_digest(&config(variant, options))))
        .collect();
    std::fs::write(
        pinned_path(),
        serde_json::to_string_pretty(&digests).unwrap() + "\n",
    )
    .unwrap();
}

#[test]
fn random_games_of_revision_0_play_as_they_always_have() {
    let text = std::fs::read_to_string(pinned_path()).unwrap();
    let pinned: std::collections::BTreeMap<String, String> = serde_json::from_str(&text).unwrap();
    assert_eq!(pinned.len(), CASES.len());
    for &(name, variant, options, _) in CASES {
        assert_eq!(
            random_games_digest(&config(variant, options)),
            pinned[name],
            "{name}: random games of revision 0 changed"
        );
    }
}

fn fixtures() -> Vec<(String, Fixture)> {
    let mut out = Vec::new();
    for &(name, ..) in every_case() {
        let path = dir().join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.push((name.to_string(), serde_json::from_str(&text).unwrap()));
    }
    out
}

#[test]
fn every_stored_game_replays_to_the_same_states_and_events() {
    for (name, f) in fixtures() {
        assert_eq!(
            f.config.revision.unwrap_or(0),
            f.revision,
            "{name}: the game replays under the revision it names"
        );
        let decisions: Vec<(Seat, Action)> = f
            .rows
            .iter()
            .filter_map(|r| Some((r.seat?, r.action.clone()?)))
            .collect();
        let mut expected = f.rows.iter().enumerate();
        let state = replay(&f.config, f.seed, decisions, |got| {
            let (i, want) = expected.next().ok_or("more rows than stored")?;
            if &got != want {
                return Err(format!("row {i}: stored {want:?}, replayed {got:?}"));
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name} (revision {}): {e}", f.revision));
        assert!(expected.next().is_none(), "{name}: fewer rows than stored");
        assert!(state.is_over(), "{name}: the stored game ended");
        assert_eq!(
            serde_json::to_string(&state).unwrap(),
            f.final_state,
            "{name}: the final state is stored byte for byte"
        );
    }
}

#[test]
fn a_stored_state_loads_and_serializes_back_byte_for_byte() {
    for (name, f) in fixtures() {
        let state: GameState = serde_json::from_str(&f.final_state)
            .unwrap_or_else(|e| panic!("{name}: the stored state loads: {e}"));
        assert_eq!(
            serde_json::to_string(&state).unwrap(),
            f.final_state,
            "{name}"
        );
    }
}

#[test]
fn the_catan_for_two_fixture_has_a_marked_spot_beside_the_desert() {
    let (_, f) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "catan_for_two-fixed-desert")
        .unwrap();
    let (state, _) = GameState::new(&f.config, f.seed).unwrap();
    let desert = state.board.desert().unwrap();
    let t = hexpost_engine::board::topology();
    assert!(
        [12u8, 41]
            .iter()
            .any(|&n| t.nodes[n as usize].hexes.contains(&desert)),
        "seed {} puts a marked spot beside the desert",
        f.seed
    );
}
