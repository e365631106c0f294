//! Rule revisions: a game plays by the revision it was created under for
//! all its life. Revision 1 fixed two deviations from RULES.md; games of
//! revision 0 keep playing as they did (their stored logs are replayed in
//! `stored_games.rs`).

use crate::common::*;
use hexpost_engine::board::{LayoutKind, topology};
use hexpost_engine::rulesets::catan_for_two::{FIXED_NEUTRAL_NODES, mirrored_start_pairs};
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{
    Action, Event, GameConfig, GameState, ResourceCounts, Revision, Seat, Variant,
};

fn config(variant: Variant, revision: Option<u32>, options: &[(&str, &str)]) -> GameConfig {
    let mut c = GameConfig::new(variant);
    c.revision = revision;
    for (k, v) in options {
        c.set_option(k, v).unwrap();
    }
    c
}

fn neutral_nodes(state: &GameState) -> Vec<u8> {
    state
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_some_and(|b| !b.owner.is_real()))
        .map(|(n, _)| n as u8)
        .collect()
}

#[test]
fn a_game_records_the_revision_it_was_created_under() {
    let new = GameConfig::new(Variant::Standard);
    assert_eq!(new.revision, Some(Revision::CURRENT));
    assert_eq!(new.resolve().unwrap().revision, Revision::CURRENT);
    // A configuration stored before revisions were recorded has none.
    let stored: GameConfig =
        serde_json::from_str(r#"{"variant":"standard","options":{}}"#).unwrap();
    assert_eq!(stored.revision, None);
    assert_eq!(stored.resolve().unwrap().revision, Revision::FIRST);
    // Its state and view read as they always have.
    let (state, _) = GameState::new(&stored, 3).unwrap();
    let json = serde_json::to_string(&state).unwrap();
    assert!(!json.contains("revision"), "{json}");
    let (state, _) = GameState::new(&new, 3).unwrap();
    assert_eq!(state.view(None).rules.revision, Revision::CURRENT);
    // A revision this engine does not know is refused, not guessed at.
    let mut future = GameConfig::new(Variant::Standard);
    future.revision = Some(Revision::CURRENT + 1);
    assert_eq!(future.resolve().unwrap_err().option, "revision");
}

/// RULES.md §3: the marked neutral start spots never touch the desert.
/// Seed 5's random board has the desert beside node 12.
#[test]
fn catan_for_two_fixed_spots_beside_the_desert_give_way_to_the_nearest_valid_pair() {
    let t = topology();
    let old = config(Variant::CatanForTwo, Some(0), &[]);
    let (state, _) = GameState::new(&old, 5).unwrap();
    let desert = state.board.desert().unwrap();
    assert!(t.nodes[12].hexes.contains(&desert));
    assert_eq!(
        neutral_nodes(&state),
        FIXED_NEUTRAL_NODES.to_vec(),
        "revision 0 keeps the marked spots"
    );

    let new = config(Variant::CatanForTwo, Some(1), &[]);
    let (state, _) = GameState::new(&new, 5).unwrap();
    let nodes = neutral_nodes(&state);
    assert_ne!(nodes, FIXED_NEUTRAL_NODES.to_vec());
    let pair = [nodes[0], nodes[1]];
    assert!(
        mirrored_start_pairs(&state.board).contains(&pair),
        "{pair:?}"
    );
    for n in pair {
        assert!(!t.nodes[n as usize].hexes.contains(&desert));
    }
    // The nearest valid pair: here the only one beside the marked spot.
    assert_eq!(pair, [8, 45]);
    let beside_12 = |p: &[u8; 2]| p.iter().any(|n| t.nodes[12].neighbors.contains(n));
    let near: Vec<_> = mirrored_start_pairs(&state.board)
        .into_iter()
        .filter(beside_12)
        .collect();
    assert_eq!(near, vec![[8, 45]]);
    consistent(&Scenario { state });
}

#[test]
fn catan_for_two_fixed_spots_off_the_desert_are_the_same_in_every_revision() {
    for revision in [0, 1] {
        let mut c = config(Variant::CatanForTwo, Some(revision), &[]);
        c.options.board = Some(LayoutKind::Beginner);
        let (state, _) = GameState::new(&c, 5).unwrap();
        assert_eq!(neutral_nodes(&state), FIXED_NEUTRAL_NODES.to_vec());
    }
    // A random board with the desert away from them: seed 11.
    let boards: Vec<Vec<u8>> = [0, 1]
        .map(|r| {
            let (state, _) =
                GameState::new(&config(Variant::CatanForTwo, Some(r), &[]), 11).unwrap();
            neutral_nodes(&state)
        })
        .to_vec();
    assert_eq!(boards[0], FIXED_NEUTRAL_NODES.to_vec());
    assert_eq!(boards[0], boards[1]);
}

/// The neutral with a settlement on node 12 and eight cards (no lumber,
/// so it owes no road); seat 0 rolls a seven.
fn neutral_holding_eight(revision: u32) -> (Scenario, Vec<Event>) {
    const N: Seat = Seat(2);
    let mut c = config(
        Variant::NeutralTrader,
        Some(revision),
        &[("discard_limit", "9")],
    );
    c.options.board = Some(LayoutKind::Beginner);
    let mut s = Scenario::from_config(&c);
    s.skip_setup();
    s.settlement(N, 12);
    s.give(N, ResourceCounts::new(4, 0, 2, 1, 1))
        .rig_next_roll(7);
    let ev = s.ok(S0, Action::RollDice);
    s.check();
    (s, ev)
}

/// RULES.md §4: the neutral discards when it holds more than 7, whatever
/// the players' limit.
#[test]
fn the_neutral_trader_discards_above_seven_whatever_the_players_limit() {
    let (s, ev) = neutral_holding_eight(1);
    assert!(ev.contains(&Event::Discarded {
        seat: Seat(2),
        cards: ResourceCounts::new(0, 0, 2, 1, 1),
    }));
    assert_eq!(s.hand(Seat(2)), ResourceCounts::new(4, 0, 0, 0, 0));

    let (s, ev) = neutral_holding_eight(0);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::DiscardsRequired { .. })),
        "revision 0 held the neutral to the players' limit of 9"
    );
    assert_eq!(s.hand(Seat(2)).total(), 8);
}
