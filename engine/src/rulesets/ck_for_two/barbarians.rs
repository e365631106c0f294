//! The barbarians (RULES.md §6.6): each ship face moves the ship a space;
//! the seventh is an attack, resolved at once: the cities on the board
//! against the real players' active knights.

use super::state::BARBARIAN_SPACES;
use super::{add_vp, cities, ck, ck_mut, progress};
use crate::cards::Track;
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::{BuildingKind, GameState};

/// The ship moves a space; on the seventh it attacks.
pub(super) fn advance(s: &mut GameState, ev: &mut Vec<Event>) {
    let c = ck_mut(s);
    c.barbarians += 1;
    let position = c.barbarians;
    ev.push(Event::BarbariansAdvanced { position });
    if position >= BARBARIAN_SPACES {
        attack(s, ev);
    }
}

/// The barbarians' strength: every city on the board, a metropolis
/// counting once like any city.
pub fn strength(s: &GameState) -> u8 {
    s.buildings
        .iter()
        .flatten()
        .filter(|b| b.kind == BuildingKind::City)
        .count() as u8
}

/// A real player can lose a city when they own one without a metropolis.
fn eligible_cities(s: &GameState, seat: Seat) -> Vec<crate::board::NodeId> {
    let c = ck(s);
    super::cities_of(s, seat)
        .filter(|&n| !c.has_metropolis(n))
        .collect()
}

fn attack(s: &mut GameState, ev: &mut Vec<Event>) {
    let active = s.active;
    let order = [active, active.opponent()];
    let strength = strength(s);
    let contributions = order.map(|seat| ck(s).active_strength(seat));
    let defence = contributions.iter().sum::<u8>();
    ev.push(Event::BarbarianAttack {
        strength,
        defence,
        contributions: order.iter().copied().zip(contributions).collect(),
    });
    if strength > defence {
        barbarians_win(s, order, contributions, ev);
    } else {
        catan_wins(s, order, contributions, ev);
    }
    let c = ck_mut(s);
    for k in &mut c.knights {
        k.active = false;
    }
    c.barbarians = 0;
    c.attacks += 1;
    let attacks = c.attacks;
    ev.push(Event::BarbariansReturned { attacks });
}

/// Among the players owning a city without a metropolis, those with the
/// lowest contribution each lose one: automatically when they have one
/// such city, by their choice otherwise (both asked at once).
fn barbarians_win(
    s: &mut GameState,
    order: [Seat; 2],
    contributions: [u8; 2],
    ev: &mut Vec<Event>,
) {
    let eligible: Vec<usize> = (0..2)
        .filter(|&i| !eligible_cities(s, order[i]).is_empty())
        .collect();
    let Some(lowest) = eligible.iter().map(|&i| contributions[i]).min() else {
        return;
    };
    let mut owed = Vec::new();
    for i in eligible {
        if contributions[i] != lowest {
            continue;
        }
        let seat = order[i];
        match eligible_cities(s, seat).as_slice() {
            [only] => cities::pillage(s, seat, *only, ev),
            _ => owed.push(seat),
        }
    }
    if !owed.is_empty() {
        s.phases.push(Phase::Variant(Step::CityLosses { owed }));
    }
}

/// The single highest contributor (at least 1) is the Defender of Catan;
/// tied highest contributors each draw a progress card of a deck they
/// choose, the active player first.
fn catan_wins(s: &mut GameState, order: [Seat; 2], contributions: [u8; 2], ev: &mut Vec<Event>) {
    let best = contributions[0].max(contributions[1]);
    if best == 0 {
        return;
    }
    let leaders: Vec<Seat> = (0..2)
        .filter(|&i| contributions[i] == best)
        .map(|i| order[i])
        .collect();
    if let [seat] = leaders.as_slice() {
        let c = ck_mut(s);
        c.player_mut(*seat).defenders += 1;
        c.defenders_left = c.defenders_left.saturating_sub(1);
        add_vp(s, *seat, 1);
        ev.push(Event::DefenderOfCatan { seat: *seat });
    } else {
        s.phases
            .push(Phase::Variant(Step::DefenderDraws { seats: leaders }));
    }
}

/// The city a player owed a loss picks.
pub(super) fn lose_city(
    s: &mut GameState,
    seat: Seat,
    node: crate::board::NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::CityLosses { owed }) = s.phase() else {
        unreachable!("routed here only in the city-loss step");
    };
    let mut owed = owed.clone();
    if !owed.contains(&seat) {
        return Err(ActionError::NotYourDecision {
            awaiting: owed.iter().copied().collect(),
        });
    }
    if !eligible_cities(s, seat).contains(&node) {
        return Err(ActionError::InvalidChoice {
            reason: "a city of yours without a metropolis",
        });
    }
    cities::pillage(s, seat, node, ev);
    owed.retain(|&o| o != seat);
    if owed.is_empty() {
        s.pop_phase();
    } else if let Some(Phase::Variant(Step::CityLosses { owed: o })) = s.phases.last_mut() {
        *o = owed;
    }
    Ok(())
}

/// The cities `seat` may be made to lose now.
pub(super) fn city_loss_choices(s: &GameState, seat: Seat) -> Vec<crate::board::NodeId> {
    eligible_cities(s, seat)
}

/// The decks a tied defender may draw from: the non-empty ones.
pub(super) fn defender_decks(s: &GameState) -> Vec<Track> {
    Track::ALL
        .into_iter()
        .filter(|t| ck(s).decks[t.index()].size > 0)
        .collect()
}

/// The first tied defender draws from `track`; once both have, the
/// opponent's progress limit is checked.
pub(super) fn defender_draw(
    s: &mut GameState,
    seat: Seat,
    track: Option<Track>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::DefenderDraws { seats }) = s.phase() else {
        unreachable!("routed here only in the defenders' step");
    };
    let mut seats = seats.clone();
    if seats.first() != Some(&seat) {
        return Err(ActionError::NotYourDecision {
            awaiting: seats.first().copied().into_iter().collect(),
        });
    }
    if let Some(t) = track {
        if ck(s).decks[t.index()].size == 0 {
            return Err(ActionError::InvalidChoice {
                reason: "that deck is empty",
            });
        }
        progress::draw(s, seat, t, ev);
    }
    seats.remove(0);
    if seats.is_empty() {
        s.pop_phase();
        progress::owe_off_turn_discard(s);
    } else if let Some(Phase::Variant(Step::DefenderDraws { seats: st })) = s.phases.last_mut() {
        *st = seats;
    }
    Ok(())
}
