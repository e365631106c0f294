//! The Science (green) progress cards (RULES.md §6.13): Alchemist, Crane
//! (played with an improvement, `cities`), Engineer, Inventor,
//! Irrigation, Medicine, Mining, Printer (laid down, `progress`), Road
//! Building and Smith.

use super::progress::{refused, spend_card};
use super::wire::{InventorHex, ProgressOption, ProgressPlay, inventor_pairs};
use super::{cities, ck, knights, roll};
use crate::board::topology::HEX_COUNT;
use crate::board::{HexId, Terrain, topology};
use crate::cards::{Cards, ProgressCard, Resource};
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::GameState;

/// Numbers an Inventor may move.
const MOVABLE_NUMBERS: [u8; 6] = [3, 4, 5, 9, 10, 11];

pub(super) fn play(
    s: &mut GameState,
    seat: Seat,
    play: &ProgressPlay,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    use ProgressPlay as P;
    match *play {
        P::Alchemist { yellow, red } => {
            if !(1..=6).contains(&yellow) || !(1..=6).contains(&red) {
                return Err(refused(ProgressCard::Alchemist, "each die shows 1 to 6"));
            }
            spend_card(s, seat, ProgressCard::Alchemist, ev);
            roll::first_roll(s, seat, Some([yellow, red]), ev)
        }
        P::Engineer { node } => cities::build_wall(s, seat, node, true, ev),
        P::Inventor { hexes } => inventor(s, seat, hexes, ev),
        P::Irrigation => harvest(s, seat, ProgressCard::Irrigation, Terrain::Fields, ev),
        P::Mining => harvest(s, seat, ProgressCard::Mining, Terrain::Mountains, ev),
        P::Medicine { node } => cities::build_city(s, seat, node, true, ev),
        P::RoadBuilding => road_building(s, seat, ev),
        P::Smith { node } => knights::smith(s, seat, node, ev),
        _ => unreachable!("routed here for science cards only"),
    }
}

/// The hexes whose number tokens an Inventor may move.
fn movable_hexes(s: &GameState) -> Vec<InventorHex> {
    (0..HEX_COUNT as HexId)
        .filter_map(|hex| {
            let number = s.board.tiles[hex as usize].number?;
            MOVABLE_NUMBERS
                .contains(&number)
                .then_some(InventorHex { hex, number })
        })
        .collect()
}

fn inventor(
    s: &mut GameState,
    seat: Seat,
    [a, b]: [HexId; 2],
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let movable = movable_hexes(s);
    let number = |h: HexId| movable.iter().find(|m| m.hex == h).map(|m| m.number);
    match (number(a), number(b)) {
        (Some(x), Some(y)) if x != y => {}
        (Some(_), Some(_)) => {
            return Err(refused(
                ProgressCard::Inventor,
                "the two numbers must differ",
            ));
        }
        _ => {
            return Err(refused(
                ProgressCard::Inventor,
                "both hexes must carry a 3, 4, 5, 9, 10 or 11",
            ));
        }
    }
    spend_card(s, seat, ProgressCard::Inventor, ev);
    let tiles = &mut s.board.tiles;
    let (na, nb) = (tiles[a as usize].number, tiles[b as usize].number);
    tiles[a as usize].number = nb;
    tiles[b as usize].number = na;
    ev.push(Event::NumberTokensSwapped {
        seat,
        hexes: vec![a, b],
    });
    Ok(())
}

/// Hexes of `terrain` touching one of `seat`'s settlements or cities.
fn harvest_hexes(s: &GameState, seat: Seat, terrain: Terrain) -> u8 {
    let topo = topology();
    (0..HEX_COUNT)
        .filter(|&h| {
            s.board.tiles[h].terrain == terrain
                && topo.hexes[h]
                    .nodes
                    .iter()
                    .any(|&n| s.building_at(n).is_some_and(|b| b.owner == seat))
        })
        .count() as u8
}

/// Irrigation, Mining: 2 cards per hex of the terrain touching the
/// player's buildings, as far as the bank holds them.
fn harvest(
    s: &mut GameState,
    seat: Seat,
    card: ProgressCard,
    terrain: Terrain,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    let resource: Resource = terrain.resource().expect("fields and mountains produce");
    let hexes = harvest_hexes(s, seat, terrain);
    if hexes == 0 {
        return Err(refused(card, "none of your buildings touches such a hex"));
    }
    let n = (2 * hexes).min(s.bank[resource]);
    if n == 0 {
        return Err(ActionError::BankShortage { resource });
    }
    spend_card(s, seat, card, ev);
    let got = Cards::single(resource, n);
    s.bank.sub(&got);
    s.player_mut(seat).hand.add(&got);
    ev.push(Event::Harvested {
        seat,
        resources: got,
    });
    Ok(())
}

fn road_building(s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) -> Result<(), ActionError> {
    let roads_left = s.player(seat).roads_left;
    if roads_left == 0 {
        return Err(ActionError::NoPiecesLeft { piece: "road" });
    }
    if !s.any_road_site(seat) {
        return Err(refused(
            ProgressCard::RoadBuilding,
            "you have no legal edge",
        ));
    }
    spend_card(s, seat, ProgressCard::RoadBuilding, ev);
    s.phases.push(Phase::RoadBuilding {
        seat,
        remaining: roads_left.min(2),
    });
    Ok(())
}

/// The science cards `seat` may play now, each with its choices.
pub(super) fn options(s: &GameState, seat: Seat, out: &mut Vec<ProgressOption>) {
    let hand = ck(s).player(seat).hand();
    if hand[ProgressCard::Engineer] > 0 {
        let nodes = cities::wall_sites(s, seat);
        if !nodes.is_empty() {
            out.push(ProgressOption::Engineer { nodes });
        }
    }
    if hand[ProgressCard::Inventor] > 0 {
        let hexes = movable_hexes(s);
        if inventor_pairs(&hexes).next().is_some() {
            out.push(ProgressOption::Inventor { hexes });
        }
    }
    if hand[ProgressCard::Irrigation] > 0 && harvest_hexes(s, seat, Terrain::Fields) > 0 {
        out.push(ProgressOption::Irrigation);
    }
    if hand[ProgressCard::Mining] > 0 && harvest_hexes(s, seat, Terrain::Mountains) > 0 {
        out.push(ProgressOption::Mining);
    }
    if hand[ProgressCard::Medicine] > 0
        && s.player(seat)
            .hand
            .contains(&crate::cards::cost::MEDICINE_CITY)
    {
        let nodes = cities::city_sites(s, seat);
        if !nodes.is_empty() {
            out.push(ProgressOption::Medicine { nodes });
        }
    }
    if hand[ProgressCard::RoadBuilding] > 0
        && s.player(seat).roads_left > 0
        && s.any_road_site(seat)
    {
        out.push(ProgressOption::RoadBuilding);
    }
    if hand[ProgressCard::Smith] > 0 {
        let nodes = knights::promotable(s, seat);
        if !nodes.is_empty() {
            out.push(ProgressOption::Smith { nodes });
        }
    }
}
