//! Settlements and cities (RULES.md §1 "Costs", the distance rule, piece
//! limits), and which nodes and harbors are in play.

use crate::board::topology::{NODE_COUNT, bits};
use crate::board::{HexId, NodeId, NodeSet, topology};
use crate::cards::{Cards, cost};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::seats::Seat;
use crate::state::{Building, BuildingKind, GameState};

/// What a player just built, for `Ruleset::after_build`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    Road(crate::board::EdgeId),
    Settlement(NodeId),
    /// A city placed in set-up (Cities & Knights).
    SetupCity(NodeId),
}

impl GameState {
    pub fn hex_in_play(&self, hex: HexId) -> bool {
        self.board.in_play(hex)
    }

    /// A node may hold a building only if every hex it touches is in play.
    pub(crate) fn node_in_play(&self, node: NodeId) -> bool {
        self.board.removed == 0
            || topology().nodes[node as usize]
                .hexes
                .iter()
                .all(|&h| self.hex_in_play(h))
    }

    /// A harbor counts only if a building can stand on one of its nodes.
    pub fn harbor_reachable(&self, slot: u8) -> bool {
        topology()
            .harbor_nodes
            .iter()
            .any(|&(n, s)| s == slot && self.node_in_play(n))
    }

    /// Can `owner` put a settlement on `node`? In set-up (`free_site`) no
    /// road connection is needed.
    pub(crate) fn check_settlement_site(
        &self,
        owner: Seat,
        node: NodeId,
        free_site: bool,
    ) -> Result<(), ActionError> {
        let occupied = self.ruleset().occupied_nodes(self);
        self.settlement_site(owner, node, free_site, occupied)
    }

    /// `check_settlement_site` with the nodes the ruleset's own pieces
    /// occupy already known.
    fn settlement_site(
        &self,
        owner: Seat,
        node: NodeId,
        free_site: bool,
        occupied: u64,
    ) -> Result<(), ActionError> {
        if node as usize >= NODE_COUNT || !self.node_in_play(node) {
            return Err(ActionError::InvalidNode { node });
        }
        if self.buildings[node as usize].is_some() || occupied & (1 << node) != 0 {
            return Err(ActionError::Occupied);
        }
        let topo = topology();
        let n = &topo.nodes[node as usize];
        if n.neighbors
            .iter()
            .any(|&m| self.buildings[m as usize].is_some())
        {
            return Err(ActionError::DistanceRule);
        }
        if !free_site
            && !n
                .edges
                .iter()
                .any(|&e| self.roads[e as usize] == Some(owner))
        {
            return Err(ActionError::NotConnected);
        }
        Ok(())
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
        let occupied = self.ruleset().occupied_nodes(self);
        bits(candidates)
            .map(|n| n as NodeId)
            .filter(|&n| self.settlement_site(owner, n, free_site, occupied).is_ok())
            .collect()
    }

    /// `owner`'s settlements, where a city may go.
    pub(crate) fn city_sites(&self, owner: Seat) -> NodeSet {
        (0..NODE_COUNT as NodeId)
            .filter(|&n| {
                matches!(self.buildings[n as usize],
                    Some(b) if b.owner == owner && b.kind == BuildingKind::Settlement)
            })
            .collect()
    }

    /// A bit per node holding a building of another colour than `seat`.
    pub(crate) fn others_buildings(&self, seat: Seat) -> u64 {
        self.buildings
            .iter()
            .enumerate()
            .filter(|(_, b)| matches!(b, Some(b) if b.owner != seat))
            .fold(0, |m, (n, _)| m | (1 << n))
    }

    pub(crate) fn place_settlement(
        &mut self,
        owner: Seat,
        node: NodeId,
        free: bool,
        ev: &mut Vec<Event>,
    ) {
        self.buildings[node as usize] = Some(Building {
            owner,
            kind: BuildingKind::Settlement,
        });
        let p = self.player_mut(owner);
        p.settlements_left -= 1;
        p.visible_vp += 1;
        ev.push(Event::SettlementBuilt {
            seat: owner,
            node,
            free,
        });
        self.cut_roads_at(owner, node, ev);
        self.ruleset()
            .after_build(self, owner, Built::Settlement(node), ev);
    }

    pub(crate) fn check_afford(&self, seat: Seat, price: &Cards) -> Result<(), ActionError> {
        if !self.player(seat).hand.contains(price) {
            return Err(ActionError::CannotAfford { cost: *price });
        }
        Ok(())
    }

    /// Pays `price` from `seat`'s hand to the bank.
    pub(crate) fn spend(&mut self, seat: Seat, price: &Cards) {
        self.player_mut(seat).hand.sub(price);
        self.bank.add(price);
    }

    pub(crate) fn build_settlement(
        &mut self,
        seat: Seat,
        node: NodeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.player(seat).settlements_left == 0 {
            return Err(ActionError::NoPiecesLeft {
                piece: "settlement",
            });
        }
        self.check_afford(seat, &cost::SETTLEMENT)?;
        self.check_settlement_site(seat, node, false)?;
        self.spend(seat, &cost::SETTLEMENT);
        self.place_settlement(seat, node, false, ev);
        Ok(())
    }

    pub(crate) fn build_city(
        &mut self,
        seat: Seat,
        node: NodeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if node as usize >= NODE_COUNT {
            return Err(ActionError::InvalidNode { node });
        }
        match self.buildings[node as usize] {
            Some(Building {
                owner,
                kind: BuildingKind::Settlement,
            }) if owner == seat => {}
            _ => return Err(ActionError::NotYourSettlement),
        }
        if self.player(seat).cities_left == 0 {
            return Err(ActionError::NoPiecesLeft { piece: "city" });
        }
        self.check_afford(seat, &cost::CITY)?;
        self.spend(seat, &cost::CITY);
        self.upgrade_to_city(seat, node, ev);
        Ok(())
    }

    /// Puts a city straight on an empty `node` (a set-up city): a city piece
    /// from the supply.
    pub(crate) fn place_city(&mut self, owner: Seat, node: NodeId, ev: &mut Vec<Event>) {
        self.buildings[node as usize] = Some(Building {
            owner,
            kind: BuildingKind::City,
        });
        let p = self.player_mut(owner);
        p.cities_left -= 1;
        p.visible_vp += 2;
        ev.push(Event::CityBuilt { seat: owner, node });
        self.cut_roads_at(owner, node, ev);
    }

    /// A new building of `owner` on `node` can cut other players' roads
    /// through it: their lengths and Longest Road are re-evaluated.
    fn cut_roads_at(&mut self, owner: Seat, node: NodeId, ev: &mut Vec<Event>) {
        let topo = topology();
        for &e in &topo.nodes[node as usize].edges {
            if let Some(other) = self.roads[e as usize]
                && other != owner
            {
                self.refresh_road_length(other);
            }
        }
        self.update_longest_road(ev);
    }

    /// Puts a city on `seat`'s settlement at `node` (already validated and
    /// paid): the settlement piece returns to the supply.
    pub(crate) fn upgrade_to_city(&mut self, seat: Seat, node: NodeId, ev: &mut Vec<Event>) {
        self.buildings[node as usize] = Some(Building {
            owner: seat,
            kind: BuildingKind::City,
        });
        let p = self.player_mut(seat);
        p.cities_left -= 1;
        p.settlements_left += 1;
        p.visible_vp += 1;
        ev.push(Event::CityBuilt { seat, node });
    }
}
