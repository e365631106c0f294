//! What more than one ruleset uses: roll-offs between the real players.

use crate::events::{Event, RollOffPurpose};
use crate::seats::Seat;
use crate::state::GameState;

/// Rounds after which a roll-off stops re-rolling ties. Two fair dice tie
/// with probability 1/6, so this is never reached in practice; it only
/// bounds the loop (seat 0 would win the last tie).
const MAX_ROLL_OFF_ROUNDS: usize = 64;

/// The server rolls one die for each real player, again while tied; the
/// higher roll wins. Logged with every round.
pub fn roll_off(state: &mut GameState, purpose: RollOffPurpose, ev: &mut Vec<Event>) -> Seat {
    let mut rounds = Vec::new();
    let winner = loop {
        let r = [state.rng.die(), state.rng.die()];
        rounds.push(r);
        if r[0] != r[1] || rounds.len() >= MAX_ROLL_OFF_ROUNDS {
            break if r[0] >= r[1] { Seat(0) } else { Seat(1) };
        }
    };
    ev.push(Event::RollOff {
        purpose,
        rounds,
        winner,
    });
    winner
}

/// The real seat with fewer visible VP, or a roll-off when they tie.
/// Visible VP only: hidden VP cards must not decide anything the opponent
/// can observe.
pub fn fewer_visible_vp_or_roll_off(
    state: &mut GameState,
    purpose: RollOffPurpose,
    ev: &mut Vec<Event>,
) -> Seat {
    let vp = |s: &GameState, seat: Seat| s.player(seat).visible_vp;
    match vp(state, Seat(0)).cmp(&vp(state, Seat(1))) {
        std::cmp::Ordering::Less => Seat(0),
        std::cmp::Ordering::Greater => Seat(1),
        std::cmp::Ordering::Equal => roll_off(state, purpose, ev),
    }
}
