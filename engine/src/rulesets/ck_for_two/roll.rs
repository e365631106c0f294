//! The turn's two rolls (RULES.md §6.4): each throws the number dice and
//! the event die, resolves the event die first (the barbarians or a gate's
//! progress draws), then the number dice: a seven (§6.5) or production
//! (§6.3) and the Aqueduct (§6.7). The number dice wait as a
//! `Step::NumberDice` under whatever the event die asks of the players.

use super::state::ABILITY_LEVEL;
use super::{barbarians, ck, progress};
use crate::board::topology;
use crate::board::{Terrain, topology::HEX_COUNT};
use crate::cards::{Cards, Resource, Track};
use crate::dice::EventFace;
use crate::error::ActionError;
use crate::events::Event;
use crate::parts::production::Owed;
use crate::phases::Phase;
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::{BuildingKind, GameState, MAX_SEATS};

/// Bounds the second roll's re-throws of the number dice (as
/// catan_for_two's): never reached in practice; past it the last throw stands.
const MAX_RETHROWS: usize = 256;

/// Roll 1, by `roll_dice` or with the Alchemist's `chosen` number dice.
pub(super) fn first_roll(
    s: &mut GameState,
    seat: Seat,
    chosen: Option<[u8; 2]>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if let Some(top) = s.phases.last_mut() {
        *top = Phase::Main;
    }
    let (dice, face) = throw(s, seat, chosen, ev);
    let total = dice[0] + dice[1];
    s.phases
        .push(Phase::Variant(Step::SecondRoll { seat, first: total }));
    s.phases.push(Phase::Variant(Step::NumberDice {
        seat,
        total,
        repeat_of: None,
    }));
    resolve_event(s, seat, face, dice[1], ev);
    Ok(())
}

/// Roll 2 (an automated step once roll 1 is resolved).
pub(super) fn second_roll(s: &mut GameState, seat: Seat, first: u8, ev: &mut Vec<Event>) {
    s.pop_phase();
    let (dice, face) = throw(s, seat, None, ev);
    s.phases.push(Phase::Variant(Step::NumberDice {
        seat,
        total: dice[0] + dice[1],
        repeat_of: Some(first),
    }));
    resolve_event(s, seat, face, dice[1], ev);
}

/// Throws the number dice (yellow, red), or takes the chosen ones, then
/// the event die.
fn throw(
    s: &mut GameState,
    seat: Seat,
    chosen: Option<[u8; 2]>,
    ev: &mut Vec<Event>,
) -> ([u8; 2], EventFace) {
    let dice = chosen.unwrap_or_else(|| s.dice.roll(&mut s.rng));
    let face = EventFace::throw(&mut s.rng);
    s.last_roll = Some(dice);
    ev.push(Event::DiceRolled {
        seat,
        dice,
        total: dice[0] + dice[1],
    });
    ev.push(Event::EventDieRolled { seat, face });
    (dice, face)
}

/// The event die, resolved before the number dice are used: the ship
/// moves (and may attack), or a gate deals its progress cards.
fn resolve_event(s: &mut GameState, seat: Seat, face: EventFace, red: u8, ev: &mut Vec<Event>) {
    match face.gate() {
        None => barbarians::advance(s, ev),
        Some(track) => gate(s, seat, track, red, ev),
    }
}

/// Every real player at level L ≥ 1 of `track` draws when the red die is
/// at most L + 1, the active player first.
fn gate(s: &mut GameState, active: Seat, track: Track, red: u8, ev: &mut Vec<Event>) {
    for seat in [active, active.opponent()] {
        let level = ck(s).player(seat).level(track);
        if level >= 1 && red <= level + 1 {
            progress::draw(s, seat, track, ev);
        }
    }
    progress::owe_off_turn_discard(s);
}

/// The number dice of a roll, once the event die's decisions are answered.
pub(super) fn use_number_dice(
    s: &mut GameState,
    seat: Seat,
    mut total: u8,
    repeat_of: Option<u8>,
    ev: &mut Vec<Event>,
) {
    if let Some(first) = repeat_of {
        for _ in 0..MAX_RETHROWS {
            if total != first {
                break;
            }
            ev.push(Event::SecondRollRepeated {
                seat,
                dice: s.last_roll.unwrap_or_default(),
                total,
            });
            let dice = s.dice.roll(&mut s.rng);
            total = dice[0] + dice[1];
            s.last_roll = Some(dice);
            ev.push(Event::DiceRolled { seat, dice, total });
        }
    }
    if total == 7 {
        seven(s, seat, ev);
    } else {
        produce(s, total, ev);
    }
}

/// Discards as §1 (each wall raising its owner's limit); the robber only
/// once the barbarians have attacked.
fn seven(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) {
    if robber_unlocked(s) {
        s.start_seven(seat, ev);
    } else {
        s.require_discards(ev);
    }
}

/// What a building on a hex of `terrain` yields: a settlement one
/// resource; a city two brick or grain, or one resource and its commodity.
pub fn yield_of(terrain: Terrain, kind: BuildingKind) -> Cards {
    let Some(r) = terrain.resource() else {
        return Cards::ZERO;
    };
    let mut c = Cards::single(r, 1);
    if kind == BuildingKind::City {
        match r.commodity() {
            Some(m) => c[m] += 1,
            None => c[r] += 1,
        }
    }
    c
}

/// Production of `total` (the robber's hex yields nothing; neutrals never
/// receive), then the Aqueduct for those who received nothing.
fn produce(s: &mut GameState, total: u8, ev: &mut Vec<Event>) {
    let topo = topology();
    let mut owed: Owed = [Cards::ZERO; MAX_SEATS];
    for h in 0..HEX_COUNT {
        let tile = s.board.tiles[h];
        if tile.number != Some(total) || h as u8 == s.robber {
            continue;
        }
        for &node in &topo.hexes[h].nodes {
            if let Some(b) = s.buildings[node as usize]
                && b.owner.is_real()
            {
                owed[b.owner.index()].add(&yield_of(tile.terrain, b.kind));
            }
        }
    }
    let paid = s.pay_out(owed, ev);
    let bank_has_resources = !s.bank.resources().is_empty();
    let owed: Vec<Seat> = GameState::real_seats()
        .into_iter()
        .filter(|&seat| {
            paid[seat.index()].is_empty()
                && bank_has_resources
                && ck(s).player(seat).level(Track::Science) >= ABILITY_LEVEL
        })
        .collect();
    if !owed.is_empty() {
        s.phases.push(Phase::Variant(Step::Aqueduct { owed }));
    }
}

/// A player owed the Aqueduct takes a resource of their choice, or none.
pub(super) fn aqueduct_pick(
    s: &mut GameState,
    seat: Seat,
    resource: Option<Resource>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let Phase::Variant(Step::Aqueduct { owed }) = s.phase() else {
        unreachable!("routed here only in the Aqueduct step");
    };
    let mut owed = owed.clone();
    if !owed.contains(&seat) {
        return Err(ActionError::NotYourDecision {
            awaiting: owed.iter().copied().collect(),
        });
    }
    match resource {
        Some(r) if s.bank[r] == 0 => return Err(ActionError::BankShortage { resource: r }),
        Some(r) => {
            s.bank[r] -= 1;
            s.player_mut(seat).hand[r] += 1;
            ev.push(Event::AqueductTaken { seat, resource: r });
        }
        None => ev.push(Event::AqueductDeclined { seat }),
    }
    owed.retain(|&o| o != seat);
    if owed.is_empty() {
        s.pop_phase();
    } else if let Some(Phase::Variant(Step::Aqueduct { owed: o })) = s.phases.last_mut() {
        *o = owed;
    }
    Ok(())
}

/// Whether the robber may move: only once the barbarians have attacked.
pub(super) fn robber_unlocked(s: &GameState) -> bool {
    ck(s).attacks > 0
}
