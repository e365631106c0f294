//! Shared helpers for the scenario tests. Every scenario starts from
//! `hexpost_engine::testkit::Scenario` (beginner board) and asserts exact
//! outcomes.
#![allow(dead_code)]

pub mod ck;

use hexpost_engine::invariants::check_state;
use hexpost_engine::seats::SeatList;
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Action, Event, ResourceCounts, Seat};

/// How many of `n` random complete games a property test plays: every one
/// in an optimised build (`cargo test --release -p hexpost-engine`, the
/// thorough run), a quarter in the everyday test build, whose debug
/// assertions make each game slower and which runs on every change
/// (docs/testing.md). A set plays at least 20, so a share asserted of it
/// (nine in ten finish) still means something. The seeds stay fixed.
pub fn games(n: u32) -> u32 {
    if cfg!(debug_assertions) {
        n.min(n.div_ceil(4).max(20))
    } else {
        n
    }
}

pub const S0: Seat = Seat(0);
pub const S1: Seat = Seat(1);

/// Resource counts in the engine's order: brick, lumber, wool, grain, ore.
pub const fn rc(brick: u8, lumber: u8, wool: u8, grain: u8, ore: u8) -> ResourceCounts {
    ResourceCounts::new(brick, lumber, wool, grain, ore)
}

/// A full bank minus `taken`.
pub fn bank_minus(taken: ResourceCounts) -> ResourceCounts {
    let mut b = ResourceCounts::new(19, 19, 19, 19, 19);
    b.sub(&taken);
    b
}

pub fn seats(list: &[Seat]) -> SeatList {
    list.iter().copied().collect()
}

/// Conservation, recounts and "somebody is awaited" all hold.
pub fn consistent(s: &Scenario) {
    if let Err(e) = check_state(&s.state) {
        panic!("inconsistent state: {e}");
    }
}

/// Rolls `total` (rigged through the real dice) for `seat` and returns the
/// events after the `DiceRolled` one, which is checked.
pub fn roll(s: &mut Scenario, seat: Seat, total: u8) -> Vec<Event> {
    s.rig_next_roll(total);
    let mut ev = s.ok(seat, Action::RollDice);
    match ev.first() {
        Some(Event::DiceRolled {
            seat: who,
            dice,
            total: t,
        }) => {
            assert_eq!((*who, *t, dice[0] + dice[1]), (seat, total, total));
            assert!((1..=6).contains(&dice[0]) && (1..=6).contains(&dice[1]));
        }
        other => panic!("expected DiceRolled first, got {other:?}"),
    }
    ev.remove(0);
    ev
}
