//! What one seat (or a spectator) may see. The opponent's hand and
//! development cards appear only as counts; the deck order, the dice deck,
//! the bank's composition and the RNG never appear. The bank's composition
//! is hidden because, with two players, it would reveal the opponent's hand
//! (every card is in the bank or in a hand).

use crate::board::topology::{EdgeGeom, HexGeom, NodeGeom, topology};
use crate::board::{Board, EdgeId, HexId, NodeId};
use crate::cards::{Cards, DevCounts};
use crate::contract::Ruleset;
use crate::hidden::Redact;
use crate::options::Rules;
use crate::parts::trade::TradeOffer;
use crate::phases::{Phase, SetupStep};
use crate::rulesets::VariantState;
use crate::seats::{Seat, SeatKind, SeatList};
use crate::state::{BuildingKind, GameState};
use serde::{Deserialize, Serialize};

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedBuilding {
    pub node: NodeId,
    pub owner: Seat,
    pub kind: BuildingKind,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedRoad {
    pub edge: EdgeId,
    pub owner: Seat,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicPlayer {
    pub seat: Seat,
    pub kind: SeatKind,
    pub resource_count: u32,
    pub dev_card_count: u32,
    pub knights_played: u8,
    /// Played knights discarded for trade tokens (catan_for_two).
    pub knights_discarded: u8,
    pub played_dev: DevCounts,
    pub roads_left: u8,
    pub settlements_left: u8,
    pub cities_left: u8,
    pub visible_vp: u8,
    pub road_length: u8,
    /// Total VP, hidden cards included: shown once the game is over.
    pub final_vp: Option<u8>,
    /// The hand of an automated seat (the neutral trader's), public.
    pub public_hand: Option<Cards>,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OwnHand {
    pub resources: Cards,
    /// Playable development cards.
    pub dev_cards: DevCounts,
    /// Bought this turn, playable from your next turn.
    pub new_dev_cards: DevCounts,
    /// Your VP including hidden victory point cards.
    pub total_vp: u8,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    /// Whose view this is; null for a spectator.
    pub viewer: Option<Seat>,
    pub rules: Rules,
    pub board: Board,
    pub robber: HexId,
    pub buildings: Vec<PlacedBuilding>,
    pub roads: Vec<PlacedRoad>,
    pub players: Vec<PublicPlayer>,
    pub you: Option<OwnHand>,
    pub phase: Phase,
    pub setup_step: Option<SetupStep>,
    pub awaiting: SeatList,
    pub active: Seat,
    pub turn: u32,
    pub last_roll: Option<[u8; 2]>,
    pub dev_played_this_turn: bool,
    pub bank_total: u32,
    pub dev_deck_remaining: u32,
    pub offer: Option<TradeOffer>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub winner: Option<Seat>,
    /// Harbor slots no building can reach (all their nodes touch removed hexes).
    pub harbors_out: Vec<u8>,
    /// The variant's own public data (trade tokens, the shadow removal roll).
    pub variant: VariantState,
}

/// The fixed geometry, for clients to draw the board.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Serialize)]
pub struct TopologyView {
    /// x is in units of sqrt(3)/2 hex radii, y in half radii.
    pub coordinate_note: &'static str,
    pub hexes: Vec<HexGeom>,
    pub nodes: Vec<NodeGeom>,
    pub edges: Vec<EdgeGeom>,
    /// Harbor slot i sits on edge `harbor_edges[i]`; its kind is `board.harbors[i]`.
    pub harbor_edges: Vec<EdgeId>,
}

pub fn topology_view() -> TopologyView {
    let t = topology();
    TopologyView {
        coordinate_note: "pointy-top hexes; x unit = sqrt(3)/2 hex radius, y unit = 1/2 hex radius; ids run top to bottom, left to right",
        hexes: t.hexes.clone(),
        nodes: t.nodes.clone(),
        edges: t.edges.clone(),
        harbor_edges: t.harbor_edges.to_vec(),
    }
}

impl GameState {
    /// The view of `viewer` (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> GameView {
        let over = self.is_over();
        GameView {
            viewer,
            rules: self.rules.clone(),
            board: self.board.clone(),
            robber: self.robber,
            buildings: self
                .buildings
                .iter()
                .enumerate()
                .filter_map(|(n, b)| {
                    b.map(|b| PlacedBuilding {
                        node: n as NodeId,
                        owner: b.owner,
                        kind: b.kind,
                    })
                })
                .collect(),
            roads: self
                .roads
                .iter()
                .enumerate()
                .filter_map(|(e, r)| {
                    r.map(|owner| PlacedRoad {
                        edge: e as EdgeId,
                        owner,
                    })
                })
                .collect(),
            players: self
                .players
                .iter()
                .map(|p| {
                    let dev = self.dev_hand(p.seat);
                    PublicPlayer {
                        seat: p.seat,
                        kind: p.kind,
                        resource_count: p.hand.total(),
                        dev_card_count: dev.count(),
                        knights_played: dev.knights_played,
                        knights_discarded: dev.knights_discarded,
                        played_dev: dev.played,
                        roads_left: p.roads_left,
                        settlements_left: p.settlements_left,
                        cities_left: p.cities_left,
                        visible_vp: p.visible_vp,
                        road_length: p.road_length,
                        final_vp: over.then(|| self.total_vp(p.seat)),
                        public_hand: p.hand_is_public().then_some(p.hand),
                    }
                })
                .collect(),
            you: viewer.filter(|s| s.index() < self.players.len()).map(|s| {
                let dev = self.dev_hand(s);
                OwnHand {
                    resources: self.player(s).hand,
                    dev_cards: dev.cards,
                    new_dev_cards: dev.new_cards,
                    total_vp: self.total_vp(s),
                }
            }),
            phase: self.phase().redacted_for(viewer),
            setup_step: matches!(self.phase(), Phase::Setup)
                .then(|| self.current_setup_step())
                .flatten(),
            awaiting: self.awaiting(),
            active: self.active,
            turn: self.turn,
            last_roll: self.last_roll,
            dev_played_this_turn: self.dev_played_this_turn(),
            bank_total: self.bank.total(),
            dev_deck_remaining: self.dev_deck().len() as u32,
            offer: self.offer.clone(),
            longest_road: self.longest_road,
            largest_army: self.largest_army(),
            winner: self.winner,
            harbors_out: (0..crate::board::topology::HARBOR_COUNT as u8)
                .filter(|&slot| !self.harbor_reachable(slot))
                .collect(),
            variant: self.ruleset().public_state(self, viewer),
        }
    }
}
