//! Longest Road (RULES.md §1), and the rule it shares with Largest Army
//! for who holds an award.

use crate::board::topology::bits;
use crate::board::{NodeId, topology};
use crate::contract::Ruleset;
use crate::events::Event;
use crate::seats::Seat;
use crate::state::GameState;

pub const MIN_LONGEST_ROAD: u8 = 5;

impl GameState {
    /// Length of the longest simple path of `seat`'s roads. A path may end
    /// at, but not pass through, a node another colour blocks (its
    /// building, or a piece the ruleset says blocks roads).
    pub fn longest_road_of(&self, seat: Seat) -> u8 {
        let all = self.own_roads(seat);
        let blocked = self.road_blockers(seat);
        longest_trail(all, blocked, all)
    }

    /// Longest road by brute force: a walk from every node. Slow; the
    /// reference the fast version is tested against.
    pub fn longest_road_reference(&self, seat: Seat) -> u8 {
        let own = self.own_roads(seat);
        let blocked = self.road_blockers(seat);
        (0..crate::board::topology::NODE_COUNT as NodeId)
            .map(|n| road_walk(own, blocked, n, 0))
            .max()
            .unwrap_or(0)
    }

    /// Nodes `seat`'s roads cannot pass through: another colour's building,
    /// or another colour's piece that the ruleset says blocks roads.
    fn road_blockers(&self, seat: Seat) -> u64 {
        self.others_buildings(seat) | self.ruleset().piece_blockers(self, seat)
    }

    /// A bit per edge holding a road of `seat`.
    fn own_roads(&self, seat: Seat) -> u128 {
        self.roads
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(seat))
            .fold(0, |m, (e, _)| m | (1 << e))
    }

    /// After `seat` built `edge`: trails only grow, and only those through
    /// the new edge's part of the network, so only that part is searched.
    pub(crate) fn extend_road_length(&mut self, seat: Seat, edge: crate::board::EdgeId) {
        let all = self.own_roads(seat);
        let blocked = self.road_blockers(seat);
        let [a, b] = topology().edges[edge as usize].nodes;
        let part = edges_reachable(blocked, (1 << a) | (1 << b), all);
        let len = longest_trail(all, blocked, part);
        let p = self.player_mut(seat);
        p.road_length = p.road_length.max(len);
    }

    pub(crate) fn refresh_road_length(&mut self, seat: Seat) {
        let len = self.longest_road_of(seat);
        self.player_mut(seat).road_length = len;
    }

    /// Moves the card after road lengths changed (callers refresh the
    /// lengths they affected).
    pub(crate) fn update_longest_road(&mut self, ev: &mut Vec<Event>) {
        let lengths: Vec<u8> = self.players.iter().map(|p| p.road_length).collect();
        let holder = self.longest_road;
        let (to, length) = self.reassign_award(holder, &lengths, MIN_LONGEST_ROAD);
        if holder != to {
            self.longest_road = to;
            ev.push(Event::LongestRoadChanged {
                from: holder,
                to,
                length,
            });
        }
    }

    /// The rule both awards share: the holder keeps the card while at the
    /// minimum and tied for the most; otherwise the one seat alone at the
    /// most (and at the minimum) takes it; a tie, or nobody at the minimum,
    /// sets it aside. Moves the 2 VP and returns the new holder and the
    /// most.
    pub(crate) fn reassign_award(
        &mut self,
        holder: Option<Seat>,
        values: &[u8],
        min: u8,
    ) -> (Option<Seat>, u8) {
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
        (new_holder, max)
    }

    pub(crate) fn move_award(&mut self, from: Option<Seat>, to: Option<Seat>) {
        if let Some(f) = from {
            self.player_mut(f).visible_vp -= 2;
        }
        if let Some(t) = to {
            self.player_mut(t).visible_vp += 2;
        }
    }
}

/// The longest trail over the `all` edges that starts in `scope`'s part of
/// them, passing through no `blocked` node (a trail may end there).
fn longest_trail(all: u128, blocked: u64, scope: u128) -> u8 {
    let topo = topology();
    let own = all & scope;
    let mut touched = 0u64;
    let mut degree = [0u8; crate::board::topology::NODE_COUNT];
    for e in crate::board::topology::bits128(own) {
        for &n in &topo.edges[e].nodes {
            touched |= 1 << n;
            degree[n as usize] += 1;
        }
    }
    // A longest trail can be rotated or extended to start at a node that
    // is a dead end, a junction or blocked; only a component that is a
    // pure cycle of such-less nodes needs an arbitrary start. So start
    // from those nodes, then from one node of each component they miss.
    let mut starts = 0u64;
    for n in bits(touched) {
        if degree[n] != 2 || blocked & (1 << n) != 0 {
            starts |= 1 << n;
        }
    }
    let mut uncovered = own & !edges_reachable(blocked, starts, own);
    while uncovered != 0 {
        let e = uncovered.trailing_zeros() as usize;
        let n = topo.edges[e].nodes[0];
        starts |= 1 << n;
        uncovered &= !edges_reachable(blocked, 1 << n, own);
    }
    // The walks may use every road of the seat: the scope only chooses
    // where they start.
    bits(starts)
        .map(|n| road_walk(all, blocked, n as NodeId, 0))
        .max()
        .unwrap_or(0)
}

/// Own edges reachable from `from` without passing through a blocked node.
fn edges_reachable(blocked: u64, from: u64, own: u128) -> u128 {
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
            if visited & (1 << next) == 0 && blocked & (1 << next) == 0 {
                visited |= 1 << next;
                frontier.push(next);
            }
        }
    }
    seen
}

/// The longest trail of `own` edges from `node`, not passing through a
/// blocked node (a trail may end there).
fn road_walk(own: u128, blocked: u64, node: NodeId, used: u128) -> u8 {
    let topo = topology();
    let mut best = 0;
    for &e in &topo.nodes[node as usize].edges {
        if used & (1u128 << e) != 0 || own & (1u128 << e) == 0 {
            continue;
        }
        let [a, b] = topo.edges[e as usize].nodes;
        let next = if a == node { b } else { a };
        let len = 1 + if blocked & (1 << next) != 0 {
            0
        } else {
            road_walk(own, blocked, next, used | (1u128 << e))
        };
        best = best.max(len);
    }
    best
}
