//! Cities, city walls, improvements and metropolises (RULES.md §6.7,
//! §6.8), and a city's loss to the barbarians (§6.6).

use super::state::{METROPOLIS_LEVEL, TOP_LEVEL, WALLS_PER_PLAYER};
use super::{add_vp, cities_of, ck, ck_mut, progress};
use crate::board::topology::NODE_COUNT;
use crate::board::{NodeId, NodeSet};
use crate::cards::{Cards, ProgressCard, Track, cost};
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::{Building, BuildingKind, GameState};

/// Walls under `seat`'s cities.
pub(super) fn walls_of(s: &GameState, seat: Seat) -> u8 {
    ck(s)
        .walls
        .iter()
        .filter(|&n| s.building_at(n).is_some_and(|b| b.owner == seat))
        .count() as u8
}

/// Can `seat` put a city on `node`? Returns whether the settlement there
/// is a tipped city (which needs no city piece).
fn check_city_site(s: &GameState, seat: Seat, node: NodeId) -> Result<bool, ActionError> {
    if node as usize >= NODE_COUNT {
        return Err(ActionError::InvalidNode { node });
    }
    match s.building_at(node) {
        Some(Building {
            owner,
            kind: BuildingKind::Settlement,
        }) if owner == seat => {}
        _ => return Err(ActionError::NotYourSettlement),
    }
    let tipped = ck(s).tipped.contains(node);
    if !tipped && s.player(seat).cities_left == 0 {
        return Err(ActionError::NoPiecesLeft { piece: "city" });
    }
    Ok(tipped)
}

/// A city for the normal price, or with Medicine's.
pub(super) fn build_city(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    medicine: bool,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let price = if medicine {
        cost::MEDICINE_CITY
    } else {
        cost::CITY
    };
    let tipped = check_city_site(s, seat, node)?;
    s.check_afford(seat, &price)?;
    if medicine {
        progress::spend_card(s, seat, ProgressCard::Medicine, ev);
    }
    s.spend(seat, &price);
    if tipped {
        // The city piece is already there: it only stands up again.
        ck_mut(s).tipped.remove(node);
        s.buildings[node as usize] = Some(Building {
            owner: seat,
            kind: BuildingKind::City,
        });
        add_vp(s, seat, 1);
        ev.push(Event::CityBuilt { seat, node });
    } else {
        s.upgrade_to_city(seat, node, ev);
    }
    Ok(())
}

/// `seat`'s settlements that can become cities (piece-wise).
pub(super) fn city_sites(s: &GameState, seat: Seat) -> NodeSet {
    s.city_sites(seat)
        .iter()
        .filter(|&n| check_city_site(s, seat, n).is_ok())
        .collect()
}

fn check_wall_site(s: &GameState, seat: Seat, node: NodeId) -> Result<(), ActionError> {
    if node as usize >= NODE_COUNT {
        return Err(ActionError::InvalidNode { node });
    }
    if !matches!(s.building_at(node), Some(b) if b.owner == seat && b.kind == BuildingKind::City) {
        return Err(ActionError::WallRefused {
            reason: "a wall goes under one of your cities",
        });
    }
    if ck(s).walls.contains(node) {
        return Err(ActionError::WallRefused {
            reason: "that city already has a wall",
        });
    }
    if walls_of(s, seat) >= WALLS_PER_PLAYER {
        return Err(ActionError::NoPiecesLeft { piece: "city wall" });
    }
    Ok(())
}

/// A wall for 2 brick, or free (Engineer).
pub(super) fn build_wall(
    s: &mut GameState,
    seat: Seat,
    node: NodeId,
    free: bool,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    check_wall_site(s, seat, node)?;
    if free {
        progress::spend_card(s, seat, ProgressCard::Engineer, ev);
    } else {
        s.check_afford(seat, &cost::WALL)?;
        s.spend(seat, &cost::WALL);
    }
    ck_mut(s).walls.insert(node);
    ev.push(Event::WallBuilt { seat, node, free });
    Ok(())
}

pub(super) fn wall_sites(s: &GameState, seat: Seat) -> NodeSet {
    if walls_of(s, seat) >= WALLS_PER_PLAYER {
        return NodeSet::default();
    }
    cities_of(s, seat)
        .filter(|&n| !ck(s).walls.contains(n))
        .collect()
}

/// The barbarians take `seat`'s city on `node`: a settlement again (a
/// settlement piece for the city piece), or, with no settlement piece
/// left, the city piece tipped over; its wall goes back to the supply.
pub(super) fn pillage(s: &mut GameState, seat: Seat, node: NodeId, ev: &mut Vec<Event>) {
    s.buildings[node as usize] = Some(Building {
        owner: seat,
        kind: BuildingKind::Settlement,
    });
    let p = s.player_mut(seat);
    let tipped = p.settlements_left == 0;
    if !tipped {
        p.settlements_left -= 1;
        p.cities_left += 1;
    }
    let c = ck_mut(s);
    if tipped {
        c.tipped.insert(node);
    }
    let wall = c.walls.remove(node);
    add_vp(s, seat, -1);
    ev.push(Event::CityPillaged {
        seat,
        node,
        tipped,
        wall,
    });
}

/// Whether `seat` has a city, and a city without a metropolis.
#[derive(Clone, Copy)]
pub(super) struct OwnCities {
    any: bool,
    without_metropolis: bool,
}

pub(super) fn own_cities(s: &GameState, seat: Seat) -> OwnCities {
    let c = ck(s);
    let mut out = OwnCities {
        any: false,
        without_metropolis: false,
    };
    for n in cities_of(s, seat) {
        out.any = true;
        out.without_metropolis |= !c.has_metropolis(n);
    }
    out
}

/// The level `seat` would buy next on `track`, and its price.
pub(super) fn check_improvement(
    s: &GameState,
    seat: Seat,
    track: Track,
    crane: bool,
) -> Result<(u8, Cards), ActionError> {
    check_improvement_with(s, seat, track, crane, own_cities(s, seat))
}

/// `check_improvement` with `seat`'s cities already looked at.
pub(super) fn check_improvement_with(
    s: &GameState,
    seat: Seat,
    track: Track,
    crane: bool,
    cities: OwnCities,
) -> Result<(u8, Cards), ActionError> {
    let refused = |reason| ActionError::ImprovementRefused { track, reason };
    let c = ck(s);
    let level = c.player(seat).level(track) + 1;
    if level > TOP_LEVEL {
        return Err(refused("the track is complete"));
    }
    let (any_city, free_city) = (cities.any, cities.without_metropolis);
    if !any_city {
        return Err(refused("it needs a city of yours on the board"));
    }
    let holds_metropolis = c.metropolis_of(s, track).is_some_and(|(h, _)| h == seat);
    if level >= METROPOLIS_LEVEL && !holds_metropolis && !free_city {
        return Err(refused(
            "levels 4 and 5 need a city of yours without a metropolis",
        ));
    }
    if crane && !c.holds(seat, ProgressCard::Crane) {
        return Err(ActionError::ProgressCardNotHeld {
            card: ProgressCard::Crane,
        });
    }
    let price = Cards::single(track.commodity(), level - u8::from(crane));
    s.check_afford(seat, &price)?;
    Ok((level, price))
}

pub(super) fn buy_improvement(
    s: &mut GameState,
    seat: Seat,
    track: Track,
    crane: bool,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let (level, price) = check_improvement(s, seat, track, crane)?;
    if crane {
        progress::spend_card(s, seat, ProgressCard::Crane, ev);
    }
    s.spend(seat, &price);
    ck_mut(s).player_mut(seat).levels[track.index()] = level;
    ev.push(Event::ImprovementBought {
        seat,
        track,
        level,
        paid: price,
        crane,
    });
    if metropolis_due(s, seat, track, level) {
        let choices = metropolis_sites(s, seat);
        match choices.iter().collect::<Vec<_>>().as_slice() {
            [only] => place_metropolis(s, seat, track, *only, ev),
            _ => s
                .phases
                .push(Phase::Variant(Step::Metropolis { seat, track })),
        }
    }
    Ok(())
}

/// The first to reach level 4 takes the metropolis; reaching 5 takes it
/// from a holder still at 4.
fn metropolis_due(s: &GameState, seat: Seat, track: Track, level: u8) -> bool {
    let c = ck(s);
    match c.metropolis_of(s, track) {
        None => level >= METROPOLIS_LEVEL,
        Some((holder, _)) => {
            holder != seat && level == TOP_LEVEL && c.player(holder).level(track) < TOP_LEVEL
        }
    }
}

/// `seat`'s cities without a metropolis.
pub(super) fn metropolis_sites(s: &GameState, seat: Seat) -> NodeSet {
    let c = ck(s);
    cities_of(s, seat)
        .filter(|&n| !c.has_metropolis(n))
        .collect()
}

fn place_metropolis(
    s: &mut GameState,
    seat: Seat,
    track: Track,
    node: NodeId,
    ev: &mut Vec<Event>,
) {
    let from = ck(s).metropolis_of(s, track).map(|(h, _)| h);
    ck_mut(s).metropolises[track.index()] = Some(node);
    if let Some(f) = from {
        add_vp(s, f, -2);
    }
    add_vp(s, seat, 2);
    ev.push(Event::MetropolisPlaced {
        seat,
        track,
        node,
        from,
    });
}

/// The city chosen for the metropolis owed.
pub(super) fn choose_metropolis(
    s: &mut GameState,
    seat: Seat,
    track: Track,
    node: NodeId,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if !metropolis_sites(s, seat).contains(node) {
        return Err(ActionError::InvalidChoice {
            reason: "a city of yours without a metropolis",
        });
    }
    s.pop_phase();
    place_metropolis(s, seat, track, node, ev);
    Ok(())
}
