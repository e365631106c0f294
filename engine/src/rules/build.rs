//! Building roads, settlements and cities (RULES.md §1 "Costs", distance
//! and connection rules, piece limits).

use crate::board::topology::{EDGE_COUNT, NODE_COUNT};
use crate::board::{EdgeId, HexId, NodeId, topology};
use crate::error::ActionError;
use crate::events::Event;
use crate::state::{Building, BuildingKind, GameState, Phase};
use crate::types::{ResourceCounts, Seat, cost};
use crate::variants::{self, Built};

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

    pub(crate) fn edge_in_play(&self, edge: EdgeId) -> bool {
        self.board.removed == 0
            || topology().edges[edge as usize]
                .hexes
                .iter()
                .all(|&h| self.hex_in_play(h))
    }

    /// Can `owner` put a settlement on `node`? In set-up (`free_site`) no
    /// road connection is needed.
    pub(crate) fn check_settlement_site(
        &self,
        owner: Seat,
        node: NodeId,
        free_site: bool,
    ) -> Result<(), ActionError> {
        if node as usize >= NODE_COUNT || !self.node_in_play(node) {
            return Err(ActionError::InvalidNode { node });
        }
        if self.buildings[node as usize].is_some() {
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

    /// Can `owner` put a road on `edge`? With an anchor (set-up) the road
    /// must touch that node; otherwise it must continue the owner's network
    /// without passing through another player's building.
    pub(crate) fn check_road_site(
        &self,
        owner: Seat,
        edge: EdgeId,
        anchor: Option<NodeId>,
    ) -> Result<(), ActionError> {
        if edge as usize >= EDGE_COUNT || !self.edge_in_play(edge) {
            return Err(ActionError::InvalidEdge { edge });
        }
        if self.roads[edge as usize].is_some() {
            return Err(ActionError::Occupied);
        }
        let ends = topology().edges[edge as usize].nodes;
        if let Some(a) = anchor {
            return if ends.contains(&a) {
                Ok(())
            } else {
                Err(ActionError::SetupRoadMustTouchSettlement)
            };
        }
        if ends.iter().any(|&n| self.road_connects_at(owner, n, edge)) {
            Ok(())
        } else {
            Err(ActionError::NotConnected)
        }
    }

    /// True when a new road of `owner` at `node` (other than `except`) would
    /// join the owner's network there.
    fn road_connects_at(&self, owner: Seat, node: NodeId, except: EdgeId) -> bool {
        match self.buildings[node as usize] {
            Some(b) if b.owner == owner => true,
            Some(_) => false,
            None => topology().nodes[node as usize]
                .edges
                .iter()
                .any(|&e| e != except && self.roads[e as usize] == Some(owner)),
        }
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
        // A settlement can cut other players' roads through its node.
        let topo = topology();
        for &e in &topo.nodes[node as usize].edges {
            if let Some(other) = self.roads[e as usize]
                && other != owner
            {
                self.refresh_road_length(other);
            }
        }
        self.update_longest_road(ev);
        variants::hooks(self.rules.variant).after_build(self, owner, Built::Settlement(node), ev);
    }

    pub(crate) fn place_road(
        &mut self,
        owner: Seat,
        edge: EdgeId,
        free: bool,
        ev: &mut Vec<Event>,
    ) {
        self.roads[edge as usize] = Some(owner);
        self.player_mut(owner).roads_left -= 1;
        ev.push(Event::RoadBuilt {
            seat: owner,
            edge,
            free,
        });
        self.extend_road_length(owner, edge);
        self.update_longest_road(ev);
        variants::hooks(self.rules.variant).after_build(self, owner, Built::Road(edge), ev);
    }

    fn check_afford(&self, seat: Seat, price: &ResourceCounts) -> Result<(), ActionError> {
        if !self.player(seat).hand.contains(price) {
            return Err(ActionError::CannotAfford { cost: *price });
        }
        Ok(())
    }

    fn spend(&mut self, seat: Seat, price: &ResourceCounts) {
        self.player_mut(seat).hand.sub(price);
        self.bank.add(price);
    }

    pub(super) fn build_road(
        &mut self,
        seat: Seat,
        edge: EdgeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.player(seat).roads_left == 0 {
            return Err(ActionError::NoPiecesLeft { piece: "road" });
        }
        self.check_afford(seat, &cost::ROAD)?;
        self.check_road_site(seat, edge, None)?;
        self.spend(seat, &cost::ROAD);
        self.place_road(seat, edge, false, ev);
        Ok(())
    }

    pub(super) fn build_settlement(
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

    pub(super) fn build_city(
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
        self.buildings[node as usize] = Some(Building {
            owner: seat,
            kind: BuildingKind::City,
        });
        let p = self.player_mut(seat);
        p.cities_left -= 1;
        p.settlements_left += 1;
        p.visible_vp += 1;
        ev.push(Event::CityBuilt { seat, node });
        Ok(())
    }

    /// A road placed with the Road Building card.
    pub(super) fn free_road(
        &mut self,
        seat: Seat,
        edge: EdgeId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Phase::RoadBuilding {
            seat: builder,
            remaining,
        } = *self.phase()
        else {
            unreachable!("dispatch only routes here in RoadBuilding");
        };
        if seat != builder {
            return Err(ActionError::NotYourDecision {
                awaiting: std::iter::once(builder).collect(),
            });
        }
        if self.player(seat).roads_left == 0 {
            return Err(ActionError::NoPiecesLeft { piece: "road" });
        }
        self.check_road_site(seat, edge, None)?;
        let depth = self.phases.len();
        self.place_road(seat, edge, true, ev);
        // A variant may have pushed its own step above ours; find ours by depth.
        if let Some(Phase::RoadBuilding { remaining: r, .. }) = self.phases.get_mut(depth - 1) {
            *r = remaining - 1;
        }
        self.finish_road_building_if_done(depth - 1);
        Ok(())
    }

    /// Ends the Road Building step at `index` when no road is left to place.
    pub(crate) fn finish_road_building_if_done(&mut self, index: usize) {
        if let Some(Phase::RoadBuilding { seat, remaining }) = self.phases.get(index).cloned()
            && (remaining == 0 || self.player(seat).roads_left == 0 || !self.any_road_site(seat))
        {
            self.phases.remove(index);
        }
    }

    pub(crate) fn any_road_site(&self, seat: Seat) -> bool {
        !self.road_sites(seat, None).is_empty()
    }
}
