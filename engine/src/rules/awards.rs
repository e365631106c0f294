//! Longest road and largest army (RULES.md §1).

use crate::board::topology::bits;
use crate::board::{NodeId, topology};
use crate::events::Event;
use crate::state::GameState;
use crate::types::Seat;

pub const MIN_LONGEST_ROAD: u8 = 5;
pub const MIN_LARGEST_ARMY: u8 = 3;

impl GameState {
    /// Length of the longest simple path of `seat`'s roads. A path may end
    /// at, but not pass through, a node holding another player's building.
    pub fn longest_road_of(&self, seat: Seat) -> u8 {
        self.longest_road_within(seat, u128::MAX)
    }

    /// The longest trail of `seat` among the own edges in `scope`.
    fn longest_road_within(&self, seat: Seat, scope: u128) -> u8 {
        let topo = topology();
        let mut own = 0u128;
        let mut touched = 0u64;
        let mut degree = [0u8; crate::board::topology::NODE_COUNT];
        for (e, owner) in self.roads.iter().enumerate() {
            if *owner == Some(seat) && scope & (1 << e) != 0 {
                own |= 1 << e;
                for &n in &topo.edges[e].nodes {
                    touched |= 1 << n;
                    degree[n as usize] += 1;
                }
            }
        }
        // A longest trail can be rotated or extended to start at a node that
        // is a dead end, a junction or blocked; only a component that is a
        // pure cycle of such-less nodes needs an arbitrary start. So start
        // from those nodes, then from one node of each component they miss.
        let mut starts = 0u64;
        for n in bits(touched) {
            if degree[n] != 2 || self.blocked_for(seat, n as NodeId) {
                starts |= 1 << n;
            }
        }
        let mut uncovered = own & !self.edges_reachable(seat, starts, own);
        while uncovered != 0 {
            let e = uncovered.trailing_zeros() as usize;
            let n = topo.edges[e].nodes[0];
            starts |= 1 << n;
            uncovered &= !self.edges_reachable(seat, 1 << n, own);
        }
        bits(starts)
            .map(|n| self.road_walk(seat, n as NodeId, 0))
            .max()
            .unwrap_or(0)
    }

    /// True when another player's building stands on `node`.
    fn blocked_for(&self, seat: Seat, node: NodeId) -> bool {
        matches!(self.buildings[node as usize], Some(b) if b.owner != seat)
    }

    /// Own edges reachable from `from` without passing through a blocked node.
    fn edges_reachable(&self, seat: Seat, from: u64, own: u128) -> u128 {
        let topo = topology();
        let mut seen = 0u128;
        let mut frontier: Vec<NodeId> = bits(from).map(|n| n as NodeId).collect();
        let mut visited = from;
        while let Some(n) = frontier.pop() {
            for &e in &topo.nodes[n as usize].edges {
                if own & (1 << e) == 0 || seen & (1 << e) != 0 {
                    continue;
                }
                seen |= 1 << e;
                let [a, b] = topo.edges[e as usize].nodes;
                let next = if a == n { b } else { a };
                if visited & (1 << next) == 0 && !self.blocked_for(seat, next) {
                    visited |= 1 << next;
                    frontier.push(next);
                }
            }
        }
        seen
    }

    /// Longest road by brute force: a walk from every node. Slow; the
    /// reference the fast version is tested against.
    pub fn longest_road_reference(&self, seat: Seat) -> u8 {
        (0..crate::board::topology::NODE_COUNT as NodeId)
            .map(|n| self.road_walk(seat, n, 0))
            .max()
            .unwrap_or(0)
    }

    /// After `seat` built `edge`: trails only grow, and only those through
    /// the new edge's part of the network, so only that part is searched.
    pub(crate) fn extend_road_length(&mut self, seat: Seat, edge: crate::board::EdgeId) {
        let topo = topology();
        let own: u128 = self
            .roads
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(seat))
            .fold(0, |m, (e, _)| m | (1 << e));
        let [a, b] = topo.edges[edge as usize].nodes;
        let part = self.edges_reachable(seat, (1 << a) | (1 << b), own);
        let len = self.longest_road_within(seat, part);
        let p = self.player_mut(seat);
        p.road_length = p.road_length.max(len);
    }

    pub(crate) fn refresh_road_length(&mut self, seat: Seat) {
        let len = self.longest_road_of(seat);
        self.player_mut(seat).road_length = len;
    }

    fn road_walk(&self, seat: Seat, node: NodeId, used: u128) -> u8 {
        let topo = topology();
        let mut best = 0;
        for &e in &topo.nodes[node as usize].edges {
            if used & (1u128 << e) != 0 || self.roads[e as usize] != Some(seat) {
                continue;
            }
            let [a, b] = topo.edges[e as usize].nodes;
            let next = if a == node { b } else { a };
            let len = 1 + if self.blocked_for(seat, next) {
                0
            } else {
                self.road_walk(seat, next, used | (1u128 << e))
            };
            best = best.max(len);
        }
        best
    }

    /// Moves the card after road lengths changed (callers refresh the
    /// lengths they affected).
    pub(crate) fn update_longest_road(&mut self, ev: &mut Vec<Event>) {
        let lengths: Vec<u8> = self.players.iter().map(|p| p.road_length).collect();
        let (from, to, length) = self.reassign(self.longest_road, &lengths, MIN_LONGEST_ROAD);
        if from != to {
            self.longest_road = to;
            ev.push(Event::LongestRoadChanged { from, to, length });
        }
    }

    pub(crate) fn update_largest_army(&mut self, ev: &mut Vec<Event>) {
        let knights: Vec<u8> = self.players.iter().map(|p| p.knights_played).collect();
        let (from, to, knights) = self.reassign(self.largest_army, &knights, MIN_LARGEST_ARMY);
        if from != to {
            self.largest_army = to;
            ev.push(Event::LargestArmyChanged { from, to, knights });
        }
    }

    /// After a player gave up a played knight (catan_for_two's discard for
    /// tokens): the holder keeps the card only while at the minimum and
    /// strictly ahead of everyone; otherwise it is set aside, and then a
    /// single player with the most knights (at least the minimum) takes it.
    pub(crate) fn reevaluate_largest_army_strictly(&mut self, ev: &mut Vec<Event>) {
        let knights: Vec<u8> = self.players.iter().map(|p| p.knights_played).collect();
        let max = knights.iter().copied().max().unwrap_or(0);
        let mut leaders = knights.iter().enumerate().filter(|&(_, &v)| v == max);
        let single_leader = match (leaders.next(), leaders.next()) {
            (Some((i, _)), None) if max >= MIN_LARGEST_ARMY => Some(self.players[i].seat),
            _ => None,
        };
        let holder = self.largest_army;
        if single_leader != holder {
            self.move_award(holder, single_leader);
            self.largest_army = single_leader;
            ev.push(Event::LargestArmyChanged {
                from: holder,
                to: single_leader,
                knights: max,
            });
        }
    }

    /// The rule both awards share: the holder keeps the card while at the
    /// minimum and tied for the most; otherwise the one seat alone at the
    /// most (and at the minimum) takes it; a tie, or nobody at the minimum,
    /// sets it aside. Moves the 2 VP and returns (old, new, the most).
    fn reassign(
        &mut self,
        holder: Option<Seat>,
        values: &[u8],
        min: u8,
    ) -> (Option<Seat>, Option<Seat>, u8) {
        let max = values.iter().copied().max().unwrap_or(0);
        let new_holder = match holder {
            Some(h) if values[h.index()] == max && max >= min => Some(h),
            _ => {
                let mut leaders = values.iter().enumerate().filter(|&(_, &v)| v == max);
                match (leaders.next(), leaders.next()) {
                    (Some((i, _)), None) if max >= min => Some(self.players[i].seat),
                    _ => None,
                }
            }
        };
        if new_holder != holder {
            self.move_award(holder, new_holder);
        }
        (holder, new_holder, max)
    }

    fn move_award(&mut self, from: Option<Seat>, to: Option<Seat>) {
        if let Some(f) = from {
            self.player_mut(f).visible_vp -= 2;
        }
        if let Some(t) = to {
            self.player_mut(t).visible_vp += 2;
        }
    }
}
