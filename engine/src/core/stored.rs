//! The stored JSON form of a game state.
//!
//! The server stores the state as JSON and hashes it into the move log, and
//! verification replays a game and compares those hashes, so a stored
//! state must serialize back byte for byte, whatever the in-memory layout
//! becomes. This module is that form, frozen: the fields in the order
//! games were first stored with, the development-card part spread over the
//! state and its players as it was then. A part or a ruleset that adds data
//! adds fields that are left out when absent, so states of games that do
//! not have it read as before.

use super::board::{Board, HexId, NodeId};
use super::cards::{Cards, DevCard, DevCounts};
use super::dice::Dice;
use super::phases::{Phase, Setup, SetupStep};
use super::rng::GameRng;
use super::seats::{Seat, SeatKind};
use super::state::{Building, GameState, Player};
use crate::options::Rules;
use crate::parts::dev_cards::{DevCards, DevHand};
use crate::parts::trade::TradeOffer;
use crate::rulesets::VariantState;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize)]
struct StateRef<'a> {
    rules: &'a Rules,
    board: &'a Board,
    players: Vec<PlayerRef<'a>>,
    buildings: &'a [Option<Building>],
    roads: &'a [Option<Seat>],
    robber: HexId,
    bank: &'a Cards,
    #[serde(skip_serializing_if = "Option::is_none")]
    dev_deck: Option<&'a [DevCard]>,
    dice: &'a Dice,
    rng: &'a GameRng,
    phases: &'a [Phase],
    setup: &'a [SetupStep],
    setup_pos: usize,
    setup_anchor: Option<NodeId>,
    active: Seat,
    turn: u32,
    last_roll: Option<[u8; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dev_played_this_turn: Option<bool>,
    offer: &'a Option<TradeOffer>,
    longest_road: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    largest_army: Option<Option<Seat>>,
    winner: Option<Seat>,
    variant: &'a VariantState,
}

#[derive(Serialize)]
struct PlayerRef<'a> {
    seat: Seat,
    kind: SeatKind,
    hand: &'a Cards,
    #[serde(skip_serializing_if = "Option::is_none")]
    dev_cards: Option<&'a DevCounts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new_dev_cards: Option<&'a DevCounts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    knights_played: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    knights_discarded: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    played_dev: Option<&'a DevCounts>,
    roads_left: u8,
    settlements_left: u8,
    cities_left: u8,
    visible_vp: u8,
    road_length: u8,
}

impl Serialize for GameState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let dev = self.dev.as_ref();
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let hand = dev.and_then(|d| d.hands.get(i));
                PlayerRef {
                    seat: p.seat,
                    kind: p.kind,
                    hand: &p.hand,
                    dev_cards: hand.map(|h| &h.cards),
                    new_dev_cards: hand.map(|h| &h.new_cards),
                    knights_played: hand.map(|h| h.knights_played),
                    knights_discarded: hand.map(|h| h.knights_discarded),
                    played_dev: hand.map(|h| &h.played),
                    roads_left: p.roads_left,
                    settlements_left: p.settlements_left,
                    cities_left: p.cities_left,
                    visible_vp: p.visible_vp,
                    road_length: p.road_length,
                }
            })
            .collect();
        StateRef {
            rules: &self.rules,
            board: &self.board,
            players,
            buildings: &self.buildings,
            roads: &self.roads,
            robber: self.robber,
            bank: &self.bank,
            dev_deck: dev.map(|d| d.deck.as_slice()),
            dice: &self.dice,
            rng: &self.rng,
            phases: &self.phases,
            setup: &self.setup.steps,
            setup_pos: self.setup.pos,
            setup_anchor: self.setup.anchor,
            active: self.active,
            turn: self.turn,
            last_roll: self.last_roll,
            dev_played_this_turn: dev.map(|d| d.played_this_turn),
            offer: &self.offer,
            longest_road: self.longest_road,
            largest_army: dev.map(|d| d.largest_army),
            winner: self.winner,
            variant: &self.variant,
        }
        .serialize(s)
    }
}

#[derive(Deserialize)]
struct StoredState {
    rules: Rules,
    board: Board,
    players: Vec<StoredPlayer>,
    buildings: Vec<Option<Building>>,
    roads: Vec<Option<Seat>>,
    robber: HexId,
    bank: Cards,
    dev_deck: Option<Vec<DevCard>>,
    dice: Dice,
    rng: GameRng,
    phases: Vec<Phase>,
    setup: Vec<SetupStep>,
    setup_pos: usize,
    setup_anchor: Option<NodeId>,
    active: Seat,
    turn: u32,
    last_roll: Option<[u8; 2]>,
    #[serde(default)]
    dev_played_this_turn: bool,
    offer: Option<TradeOffer>,
    longest_road: Option<Seat>,
    #[serde(default)]
    largest_army: Option<Seat>,
    winner: Option<Seat>,
    #[serde(default)]
    variant: VariantState,
}

#[derive(Deserialize)]
struct StoredPlayer {
    seat: Seat,
    kind: SeatKind,
    hand: Cards,
    #[serde(default)]
    dev_cards: DevCounts,
    #[serde(default)]
    new_dev_cards: DevCounts,
    #[serde(default)]
    knights_played: u8,
    #[serde(default)]
    knights_discarded: u8,
    #[serde(default)]
    played_dev: DevCounts,
    roads_left: u8,
    settlements_left: u8,
    cities_left: u8,
    visible_vp: u8,
    road_length: u8,
}

impl<'de> Deserialize<'de> for GameState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = StoredState::deserialize(d)?;
        let dev = s.dev_deck.map(|deck| DevCards {
            deck,
            hands: s
                .players
                .iter()
                .map(|p| DevHand {
                    cards: p.dev_cards,
                    new_cards: p.new_dev_cards,
                    knights_played: p.knights_played,
                    knights_discarded: p.knights_discarded,
                    played: p.played_dev,
                })
                .collect(),
            played_this_turn: s.dev_played_this_turn,
            largest_army: s.largest_army,
        });
        Ok(GameState {
            rules: s.rules,
            board: s.board,
            players: s
                .players
                .into_iter()
                .map(|p| Player {
                    seat: p.seat,
                    kind: p.kind,
                    hand: p.hand,
                    roads_left: p.roads_left,
                    settlements_left: p.settlements_left,
                    cities_left: p.cities_left,
                    visible_vp: p.visible_vp,
                    road_length: p.road_length,
                })
                .collect(),
            buildings: s.buildings,
            roads: s.roads,
            robber: s.robber,
            bank: s.bank,
            dice: s.dice,
            rng: s.rng,
            phases: s.phases,
            setup: Setup {
                steps: s.setup,
                pos: s.setup_pos,
                anchor: s.setup_anchor,
            },
            active: s.active,
            turn: s.turn,
            last_roll: s.last_roll,
            offer: s.offer,
            longest_road: s.longest_road,
            dev,
            winner: s.winner,
            variant: s.variant,
        })
    }
}
