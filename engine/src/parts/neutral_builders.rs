//! Neutral builders (RULES.md §3, seed 001): two neutral colours with a
//! start settlement each, for which the real players build a free piece
//! whenever they build a road or a settlement.

use crate::actions::LegalAction;
use crate::board::{Board, EdgeSet, NodeId, NodeSet, topology};
use crate::error::ActionError;
use crate::events::Event;
use crate::options::{NeutralStart, Revision};
use crate::parts::buildings::Built;
use crate::phases::{Phase, Piece};
use crate::rulesets::Step;
use crate::seats::{Seat, SeatKind};
use crate::state::GameState;

/// Our marked start spots for the neutral colours (seat 2, seat 3): nodes
/// mirrored through the board centre, each touching three land hexes, on
/// the beginner board mountains 10 / fields 12 / hills 6 and fields 4 /
/// pasture 5 / pasture 11 (nine pips each), neither touching the desert.
pub const FIXED_NEUTRAL_NODES: [NodeId; 2] = [12, 41];

/// The node at the mirror image of `n` through the board centre.
pub fn mirror(n: NodeId) -> Option<NodeId> {
    let t = topology();
    let p = &t.nodes[n as usize];
    t.nodes
        .iter()
        .find(|m| m.x == -p.x && m.y == -p.y)
        .map(|m| m.id)
}

/// Every mirrored pair of start spots on `board`: nodes touching three land
/// hexes, neither touching the desert, not adjacent (lower id first).
pub fn mirrored_start_pairs(board: &Board) -> Vec<[NodeId; 2]> {
    let t = topology();
    let desert = board.desert();
    let fits = |n: NodeId| {
        let hexes = &t.nodes[n as usize].hexes;
        hexes.len() == 3 && !hexes.iter().any(|h| Some(*h) == desert)
    };
    t.nodes
        .iter()
        .filter_map(|n| Some([n.id, mirror(n.id)?]))
        .filter(|&[a, b]| {
            a < b && fits(a) && fits(b) && !t.nodes[a as usize].neighbors.contains(&b)
        })
        .collect()
}

/// The valid mirrored pair nearest the marked spots (fewest steps from
/// node 12 to the pair's first node; the lower ids on a tie), for a board
/// whose desert touches a marked spot.
pub fn nearest_valid_pair(board: &Board) -> Option<[NodeId; 2]> {
    let t = topology();
    let mut dist = [u8::MAX; crate::board::topology::NODE_COUNT];
    let mut queue = std::collections::VecDeque::from([FIXED_NEUTRAL_NODES[0]]);
    dist[FIXED_NEUTRAL_NODES[0] as usize] = 0;
    while let Some(n) = queue.pop_front() {
        for &m in &t.nodes[n as usize].neighbors {
            if dist[m as usize] == u8::MAX {
                dist[m as usize] = dist[n as usize] + 1;
                queue.push_back(m);
            }
        }
    }
    mirrored_start_pairs(board)
        .into_iter()
        .min_by_key(|&[a, b]| (dist[a as usize].min(dist[b as usize]), a))
}

/// Where the neutral colours start. With the fixed spots, from revision 1
/// a board whose desert touches one of them falls back to the nearest
/// valid pair (RULES.md §3: the spots never touch the desert); revision 0
/// kept the marked spots on every board.
pub fn start_nodes(s: &mut GameState) -> [NodeId; 2] {
    match s.rules.neutral_start {
        NeutralStart::Fixed => {
            let valid = mirrored_start_pairs(&s.board).contains(&FIXED_NEUTRAL_NODES);
            if valid || s.rules.revision < Revision::NEUTRAL_START_AWAY_FROM_DESERT {
                FIXED_NEUTRAL_NODES
            } else {
                nearest_valid_pair(&s.board).unwrap_or(FIXED_NEUTRAL_NODES)
            }
        }
        NeutralStart::Random => {
            let pairs = mirrored_start_pairs(&s.board);
            match pairs.len() {
                0 => FIXED_NEUTRAL_NODES,
                n => pairs[s.rng.below(n as u32) as usize],
            }
        }
    }
}

impl GameState {
    /// Adds the two neutral colours, each with its start settlement.
    pub(crate) fn add_neutral_builders(&mut self, ev: &mut Vec<Event>) {
        let seats = [
            self.add_automated_seat(SeatKind::Neutral),
            self.add_automated_seat(SeatKind::Neutral),
        ];
        let nodes = start_nodes(self);
        for (seat, node) in seats.into_iter().zip(nodes) {
            self.place_settlement(seat, node, true, ev);
        }
    }

    pub fn neutrals(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats_of(SeatKind::Neutral)
    }

    pub(crate) fn neutral_settlement_sites(&self, n: Seat) -> NodeSet {
        if self.player(n).settlements_left == 0 {
            return Default::default();
        }
        self.settlement_sites(n, false)
    }

    pub(crate) fn neutral_road_sites(&self, n: Seat) -> EdgeSet {
        if self.player(n).roads_left == 0 {
            return Default::default();
        }
        self.road_sites(n, None)
    }

    /// After a real player built outside set-up: the neutral piece they
    /// owe, with the settlement-to-road fallback, or nothing when no
    /// neutral can take one.
    pub(crate) fn owe_neutral_piece(&mut self, owner: Seat, built: Built, ev: &mut Vec<Event>) {
        let owed = match built {
            Built::Road(_) => Piece::Road,
            Built::Settlement(_) => Piece::Settlement,
            Built::SetupCity(_) => return,
        };
        self.owe_neutral(owner, owed, ev);
    }

    /// `owner` owes a neutral `owed` piece: a settlement falls back to a
    /// road when no neutral can take one, and nothing is owed when no
    /// neutral can take a road either.
    pub(crate) fn owe_neutral(&mut self, owner: Seat, owed: Piece, ev: &mut Vec<Event>) {
        let any_settlement = || {
            self.neutrals()
                .any(|n| !self.neutral_settlement_sites(n).is_empty())
        };
        let any_road = || {
            self.neutrals()
                .any(|n| !self.neutral_road_sites(n).is_empty())
        };
        let piece = if owed == Piece::Settlement && any_settlement() {
            Piece::Settlement
        } else if any_road() {
            Piece::Road
        } else {
            ev.push(Event::NeutralBuildSkipped {
                seat: owner,
                piece: owed,
            });
            return;
        };
        self.phases
            .push(Phase::Variant(Step::NeutralBuild { seat: owner, piece }));
    }

    /// The owed neutral piece, placed for `neutral`.
    pub(crate) fn build_for_neutral(
        &mut self,
        neutral: Seat,
        built: Built,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Phase::Variant(Step::NeutralBuild { piece, .. }) = *self.phase() else {
            return Err(ActionError::WrongPhase {
                action: match built {
                    Built::Road(_) => "build_neutral_road",
                    _ => "build_neutral_settlement",
                },
                phase: self.phase().name(),
            });
        };
        if !matches!(self.players.get(neutral.index()), Some(p) if p.kind == SeatKind::Neutral) {
            return Err(ActionError::NotANeutral { seat: neutral });
        }
        match (piece, built) {
            (Piece::Road, Built::Road(edge)) => {
                if self.player(neutral).roads_left == 0 {
                    return Err(ActionError::NoPiecesLeft { piece: "road" });
                }
                self.check_road_site(neutral, edge, None)?;
                self.pop_phase();
                self.place_road(neutral, edge, true, ev);
            }
            (Piece::Settlement, Built::Settlement(node)) => {
                if self.player(neutral).settlements_left == 0 {
                    return Err(ActionError::NoPiecesLeft {
                        piece: "settlement",
                    });
                }
                self.check_settlement_site(neutral, node, false)?;
                self.pop_phase();
                self.place_settlement(neutral, node, true, ev);
            }
            (Piece::Road, _) => return Err(ActionError::WrongNeutralPiece { expected: "road" }),
            (Piece::Settlement | Piece::City, _) => {
                return Err(ActionError::WrongNeutralPiece {
                    expected: "settlement",
                });
            }
        }
        // The neutral piece may have taken the last edge a Road Building card
        // still had to fill; that step then ends here.
        if let Some(Phase::RoadBuilding { .. }) = self.phases.last() {
            let top = self.phases.len() - 1;
            self.finish_road_building_if_done(top);
        }
        Ok(())
    }

    /// The neutral pieces `seat` may place for the owed `piece`.
    pub(crate) fn legal_neutral_builds(&self, piece: Piece, out: &mut Vec<LegalAction>) {
        for n in self.neutrals() {
            match piece {
                Piece::Settlement => {
                    let nodes = self.neutral_settlement_sites(n);
                    if !nodes.is_empty() {
                        out.push(LegalAction::BuildNeutralSettlement { neutral: n, nodes });
                    }
                }
                Piece::Road => {
                    let edges = self.neutral_road_sites(n);
                    if !edges.is_empty() {
                        out.push(LegalAction::BuildNeutralRoad { neutral: n, edges });
                    }
                }
                Piece::City => {}
            }
        }
    }
}
