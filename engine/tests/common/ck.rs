//! Helpers for the ck_for_two scenario tests (RULES.md §6): the game after
//! set-up on the beginner board, and throws of the three dice.
//!
//! Beginner board spots used throughout (hex: terrain number):
//! node 31 touches 10 forest 3, 11 mountains 8, 15 pasture 5 (inland);
//! node 44 touches 13 mountains 3, 16 hills 5, 17 fields 6 (inland);
//! node 24 touches 5 pasture 4, 9 the desert, 10 forest 3 (inland);
//! node 37 touches 11 mountains 8, 15 pasture 5 (coast).
//! The neutral colours start on nodes 12 (seat 2) and 41 (seat 3).
#![allow(dead_code)]

use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::{CkState, KnightLevel};
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Action, Event, Phase, ResourceCounts, Seat, Variant};

pub const N2: Seat = Seat(2);
pub const N3: Seat = Seat(3);

pub const BASIC: KnightLevel = KnightLevel::Basic;
pub const STRONG: KnightLevel = KnightLevel::Strong;
pub const MIGHTY: KnightLevel = KnightLevel::Mighty;

/// An event die face as the die value that shows it.
pub const SHIP: u8 = 1;
pub const POLITICS: u8 = 4;
pub const SCIENCE: u8 = 5;
pub const TRADE: u8 = 6;

/// Hand counts over all eight kinds: brick, lumber, wool, grain, ore,
/// paper, cloth, coin.
pub const fn cards(counts: [u8; 8]) -> ResourceCounts {
    ResourceCounts::from_counts(counts)
}

/// A ck_for_two game after set-up (skipped), seat 0 to roll on turn 1.
pub fn game() -> Scenario {
    Scenario::after_setup(Variant::CkForTwo)
}

/// `game()` in seat 0's main phase.
pub fn main_phase() -> Scenario {
    let mut s = game();
    s.main_phase(Seat(0));
    s
}

pub fn ck(s: &Scenario) -> &CkState {
    s.ck()
}

pub fn step(s: &Scenario) -> Option<Step> {
    match s.state.phase() {
        Phase::Variant(step) => Some(step.clone()),
        _ => None,
    }
}

/// Rolls for `seat` with the dice of both rolls given as
/// (yellow, red, event die value), and returns every event.
pub fn roll(s: &mut Scenario, seat: Seat, first: [u8; 3], second: [u8; 3]) -> Vec<Event> {
    let mut faces = first.to_vec();
    faces.extend(second);
    s.rig_dice(&faces);
    s.ok(seat, Action::RollDice)
}

/// Rolls roll 1 only: the second is left to whatever the dice give, after
/// a decision roll 1 awaits.
pub fn roll_first(s: &mut Scenario, seat: Seat, first: [u8; 3]) -> Vec<Event> {
    s.rig_dice(&first);
    s.ok(seat, Action::RollDice)
}

/// Throws that do nothing on the beginner board for players at level 0
/// with no building on a 2 or a 12: a politics gate and a 2 (1 + 1), or a
/// 12 (6 + 6).
pub const QUIET_2: [u8; 3] = [1, 1, POLITICS];
pub const QUIET_12: [u8; 3] = [6, 6, POLITICS];

/// The events of a kind, as produced.
pub fn produced(ev: &[Event], seat: Seat) -> ResourceCounts {
    let mut total = ResourceCounts::ZERO;
    for e in ev {
        if let Event::Produced { seat: s, resources } = e
            && *s == seat
        {
            total.add(resources);
        }
    }
    total
}

/// Puts `node`'s knight's active flag as activated in an earlier turn.
pub fn ready_knight(s: &mut Scenario, seat: Seat, node: u8, level: KnightLevel) {
    s.knight(seat, node, level, true);
}

/// Plays a progress card for `seat`.
pub fn play(
    s: &mut Scenario,
    seat: Seat,
    play: hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay,
) -> Vec<Event> {
    s.ok(seat, Action::PlayProgress { play })
}

/// Playing `play` is refused as a card that cannot be played now.
pub fn refused_card(
    s: &mut Scenario,
    seat: Seat,
    play: hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay,
) -> hexpost_engine::ActionError {
    s.refused(seat, Action::PlayProgress { play })
}

/// The progress-card entries `seat` is offered now, by card.
pub fn offered(
    s: &Scenario,
    seat: Seat,
) -> Vec<hexpost_engine::rulesets::ck_for_two::wire::ProgressOption> {
    s.state
        .legal_actions(seat)
        .into_iter()
        .filter_map(|l| match l {
            hexpost_engine::LegalAction::PlayProgress { play } => Some(*play),
            _ => None,
        })
        .collect()
}

/// Whether `card` is among the cards `seat` is offered to play.
pub fn offers(s: &Scenario, seat: Seat, card: hexpost_engine::cards::ProgressCard) -> bool {
    offered(s, seat)
        .iter()
        .any(|o| serde_json::to_value(o).unwrap()["card"] == serde_json::to_value(card).unwrap())
}

/// Gives `seat` four science cards (Crane, Smith, Mining, Irrigation).
pub fn four_science_cards(s: &mut Scenario, seat: Seat) {
    use hexpost_engine::cards::ProgressCard as C;
    for c in [C::Crane, C::Smith, C::Mining, C::Irrigation] {
        s.progress(seat, c);
    }
}
