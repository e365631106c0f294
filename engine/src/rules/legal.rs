//! The single source of what a seat may do now. `apply` accepts every
//! concrete action these entries describe, except where the outcome depends
//! on facts the seat may not see (the bank's hidden composition), in which
//! case `apply` refuses with `bank_shortage` and changes nothing.

use crate::actions::{LegalAction, MaritimeOption};
use crate::board::topology::NODE_COUNT;
use crate::board::topology::{bits, bits128};
use crate::board::{EdgeId, EdgeSet, NodeId, NodeSet, ResourceSet, topology};
use crate::state::{BuildingKind, GameState, Phase, Piece};
use crate::types::{DevCard, Resource, Seat, cost};
use crate::variants;

impl GameState {
    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// Like `legal_actions`, reusing `out`'s allocation.
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        out.clear();
        if self.is_over() || !seat.is_real() {
            return;
        }
        match self.phase() {
            Phase::Setup => {
                let Some(step) = self.current_setup_step() else {
                    return;
                };
                if step.seat != seat {
                    return;
                }
                match step.piece {
                    Piece::Settlement => out.push(LegalAction::BuildSettlement {
                        nodes: self.settlement_sites(step.owner, true),
                        free: true,
                    }),
                    Piece::Road => out.push(LegalAction::BuildRoad {
                        edges: self.road_sites(step.owner, self.setup_anchor),
                        free: true,
                    }),
                }
            }
            Phase::BeforeRoll => {
                if seat == self.active {
                    out.push(LegalAction::RollDice);
                    self.legal_dev_plays(seat, out);
                }
            }
            Phase::Main => {
                if seat == self.active {
                    self.legal_main(seat, out);
                } else if let Some(o) = &self.offer
                    && o.to == seat
                {
                    if self.player(seat).hand.contains(&o.receive) {
                        out.push(LegalAction::AcceptTrade);
                    }
                    out.push(LegalAction::DeclineTrade);
                }
            }
            Phase::Discard { owed } => {
                if let Some(&(_, n)) = owed.iter().find(|(s, n)| *s == seat && *n > 0) {
                    out.push(LegalAction::Discard { count: n });
                }
            }
            Phase::MoveRobber { seat: mover } => {
                if *mover == seat {
                    out.push(LegalAction::MoveRobber {
                        targets: self.robber_targets(seat),
                    });
                }
            }
            Phase::RoadBuilding { seat: builder, .. } => {
                if *builder == seat {
                    out.push(LegalAction::BuildRoad {
                        edges: self.road_sites(seat, None),
                        free: true,
                    });
                }
            }
            Phase::Ended | Phase::Variant(_) => {}
        }
        variants::hooks(self.rules.variant).legal_actions(self, seat, out);
    }

    fn legal_main(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        let p = self.player(seat);
        out.push(LegalAction::EndTurn);
        if p.roads_left > 0 && p.hand.contains(&cost::ROAD) {
            let edges = self.road_sites(seat, None);
            if !edges.is_empty() {
                out.push(LegalAction::BuildRoad { edges, free: false });
            }
        }
        if p.settlements_left > 0 && p.hand.contains(&cost::SETTLEMENT) {
            let nodes = self.settlement_sites(seat, false);
            if !nodes.is_empty() {
                out.push(LegalAction::BuildSettlement { nodes, free: false });
            }
        }
        if p.cities_left > 0 && p.hand.contains(&cost::CITY) {
            let nodes: NodeSet = (0..NODE_COUNT as NodeId)
                .filter(|&n| {
                    matches!(self.buildings[n as usize],
                        Some(b) if b.owner == seat && b.kind == BuildingKind::Settlement)
                })
                .collect();
            if !nodes.is_empty() {
                out.push(LegalAction::BuildCity { nodes });
            }
        }
        if !self.dev_deck.is_empty() && p.hand.contains(&cost::DEV_CARD) {
            out.push(LegalAction::BuyDevelopmentCard);
        }
        self.legal_dev_plays(seat, out);
        let mut options = Vec::new();
        let ratios = if p.hand.0.iter().any(|&n| n >= 2) {
            self.trade_ratios(seat)
        } else {
            [4; 5]
        };
        for give in Resource::ALL {
            let ratio = ratios[give.index()];
            if p.hand[give] >= ratio {
                options.push(MaritimeOption {
                    give,
                    ratio,
                    receive: ResourceSet::ALL.without(give),
                });
            }
        }
        if !options.is_empty() {
            out.push(LegalAction::MaritimeTrade { options });
        }
        match &self.offer {
            None if p.hand.total() > 0 && !self.rules.no_player_trade => {
                out.push(LegalAction::OfferTrade)
            }
            Some(o) if o.from == seat => out.push(LegalAction::WithdrawTrade),
            _ => {}
        }
    }

    fn legal_dev_plays(&self, seat: Seat, out: &mut Vec<LegalAction>) {
        if self.dev_played_this_turn {
            return;
        }
        let cards = self.player(seat).dev_cards;
        if cards.get(DevCard::Knight) > 0 {
            out.push(LegalAction::PlayKnight {
                targets: self.robber_targets(seat),
            });
        }
        if cards.get(DevCard::RoadBuilding) > 0
            && self.player(seat).roads_left > 0
            && self.any_road_site(seat)
        {
            out.push(LegalAction::PlayRoadBuilding);
        }
        if cards.get(DevCard::YearOfPlenty) > 0 && self.year_of_plenty_count() > 0 {
            out.push(LegalAction::PlayYearOfPlenty {
                count: self.year_of_plenty_count(),
            });
        }
        if cards.get(DevCard::Monopoly) > 0 {
            out.push(LegalAction::PlayMonopoly);
        }
    }

    /// Nodes where `owner` may settle. Outside set-up only nodes at the end
    /// of one of the owner's roads can qualify, so only those are checked.
    pub(crate) fn settlement_sites(&self, owner: Seat, free_site: bool) -> NodeSet {
        let topo = topology();
        let candidates: u64 = if free_site {
            (1u64 << NODE_COUNT) - 1
        } else {
            let mut mask = 0u64;
            for (e, r) in self.roads.iter().enumerate() {
                if *r == Some(owner) {
                    for n in topo.edges[e].nodes {
                        mask |= 1 << n;
                    }
                }
            }
            mask
        };
        bits(candidates)
            .map(|n| n as NodeId)
            .filter(|&n| self.check_settlement_site(owner, n, free_site).is_ok())
            .collect()
    }

    /// Edges where `owner` may build a road: with an anchor, the edges at
    /// it; otherwise only edges touching the owner's network are checked.
    pub(crate) fn road_sites(&self, owner: Seat, anchor: Option<NodeId>) -> EdgeSet {
        let topo = topology();
        let mut nodes = 0u64;
        match anchor {
            Some(a) => nodes |= 1 << a,
            None => {
                for (e, r) in self.roads.iter().enumerate() {
                    if *r == Some(owner) {
                        for n in topo.edges[e].nodes {
                            nodes |= 1 << n;
                        }
                    }
                }
                for (n, b) in self.buildings.iter().enumerate() {
                    if matches!(b, Some(b) if b.owner == owner) {
                        nodes |= 1 << n;
                    }
                }
            }
        }
        let mut edges = 0u128;
        for n in bits(nodes) {
            for &e in &topo.nodes[n].edges {
                edges |= 1 << e;
            }
        }
        bits128(edges)
            .map(|e| e as EdgeId)
            .filter(|&e| self.check_road_site(owner, e, anchor).is_ok())
            .collect()
    }
}
