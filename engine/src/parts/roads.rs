//! Roads (RULES.md §1 "Costs", connection rules, piece limits) and the
//! free roads of Road Building.

use crate::board::topology::{EDGE_COUNT, bits, bits128};
use crate::board::{EdgeId, EdgeSet, NodeId, topology};
use crate::cards::cost;
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::parts::buildings::Built;
use crate::phases::Phase;
use crate::seats::Seat;
use crate::state::GameState;

impl GameState {
    pub(crate) fn edge_in_play(&self, edge: EdgeId) -> bool {
        self.board.removed == 0
            || topology().edges[edge as usize]
                .hexes
                .iter()
                .all(|&h| self.hex_in_play(h))
    }

    /// Can `owner` put a road on `edge`? With an anchor (set-up) the road
    /// must touch that node; otherwise it must continue the owner's network
    /// without passing through another colour's building (or a piece of
    /// another colour the ruleset says blocks roads).
    pub(crate) fn check_road_site(
        &self,
        owner: Seat,
        edge: EdgeId,
        anchor: Option<NodeId>,
    ) -> Result<(), ActionError> {
        let blocked = self.ruleset().piece_blockers(self, owner);
        self.road_site(owner, edge, anchor, blocked)
    }

    /// `check_road_site` with the nodes the ruleset's pieces block known.
    fn road_site(
        &self,
        owner: Seat,
        edge: EdgeId,
        anchor: Option<NodeId>,
        blocked: u64,
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
        if ends
            .iter()
            .any(|&n| self.road_connects_at(owner, n, edge, blocked))
        {
            Ok(())
        } else {
            Err(ActionError::NotConnected)
        }
    }

    /// True when a new road of `owner` at `node` (other than `except`) would
    /// join the owner's network there.
    fn road_connects_at(&self, owner: Seat, node: NodeId, except: EdgeId, blocked: u64) -> bool {
        match self.buildings[node as usize] {
            Some(b) if b.owner == owner => true,
            Some(_) => false,
            None if blocked & (1 << node) != 0 => false,
            None => topology().nodes[node as usize]
                .edges
                .iter()
                .any(|&e| e != except && self.roads[e as usize] == Some(owner)),
        }
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
        let blocked = self.ruleset().piece_blockers(self, owner);
        bits128(edges)
            .map(|e| e as EdgeId)
            .filter(|&e| self.road_site(owner, e, anchor, blocked).is_ok())
            .collect()
    }

    pub(crate) fn any_road_site(&self, seat: Seat) -> bool {
        !self.road_sites(seat, None).is_empty()
    }

    pub(crate) fn place_road(
        &mut self,
        owner: Seat,
        edge: EdgeId,
        free: bool,
        ev: &mut Vec<Event>,
    ) {
        self.put_road(owner, edge, free, ev);
        self.ruleset()
            .after_build(self, owner, Built::Road(edge), ev);
    }

    /// Puts a road on the board without telling the ruleset: a road moved
    /// rather than built (Cities & Knights' Diplomat), which owes nothing.
    pub(crate) fn put_road(&mut self, owner: Seat, edge: EdgeId, free: bool, ev: &mut Vec<Event>) {
        self.roads[edge as usize] = Some(owner);
        self.player_mut(owner).roads_left -= 1;
        ev.push(Event::RoadBuilt {
            seat: owner,
            edge,
            free,
        });
        self.extend_road_length(owner, edge);
        self.update_longest_road(ev);
    }

    /// Takes the road on `edge` off the board, back to its owner's supply,
    /// and re-evaluates Longest Road.
    pub(crate) fn take_road(&mut self, edge: EdgeId, ev: &mut Vec<Event>) -> Option<Seat> {
        let owner = self.roads[edge as usize].take()?;
        self.player_mut(owner).roads_left += 1;
        self.refresh_road_length(owner);
        self.update_longest_road(ev);
        Some(owner)
    }

    pub(crate) fn build_road(
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

    /// A road placed with the Road Building card.
    pub(crate) fn free_road(
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
        // A ruleset may have pushed its own step above ours; find ours by depth.
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
}
