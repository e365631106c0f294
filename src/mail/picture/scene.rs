//! What a board picture shows: the board as one reader may see it, taken
//! from their view of the game when the mail is queued and kept with the
//! mail, so the picture shows the position of the mail's move however late
//! it is drawn. Only the public board is copied: no hand, deck or card can
//! reach the picture, because nothing here holds one.

use crate::describe;
use hexpost_engine::board::{EdgeId, HarborKind, HexId, NodeId, Tile};
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::state::KnightLevel;
use hexpost_engine::view::{PlacedBuilding, PlacedRoad};
use hexpost_engine::{Event, GameView};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// Indexed by hex id.
    pub tiles: Vec<Tile>,
    /// Hexes out of the game, a bit per hex id.
    #[serde(default)]
    pub removed: u32,
    /// Indexed by harbor slot.
    pub harbors: Vec<HarborKind>,
    /// Harbor slots no building can reach.
    #[serde(default)]
    pub harbors_out: Vec<u8>,
    pub robber: HexId,
    pub buildings: Vec<PlacedBuilding>,
    pub roads: Vec<PlacedRoad>,
    /// Cities & Knights' pieces on the board, in the variant that has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ck: Option<CkPieces>,
    /// What changed since the reader's last decision, outlined.
    #[serde(default)]
    pub changed: Changed,
    /// What the picture shows, in words (`describe::position`), for
    /// readers who cannot see it; empty in the scenes of mails queued
    /// before it was kept.
    #[serde(default)]
    pub alt: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CkPieces {
    pub knights: Vec<KnightPiece>,
    pub walls: Vec<NodeId>,
    pub metropolises: Vec<NodeId>,
    /// The barbarian ship's space, 0 (start) to `BARBARIAN_TRACK - 1`.
    pub barbarians: u8,
    /// The merchant's hex and its owner's seat.
    pub merchant: Option<(HexId, u8)>,
}

/// Spaces of the barbarian track: the seventh move attacks.
pub const BARBARIAN_TRACK: u8 = 7;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KnightPiece {
    pub node: NodeId,
    pub owner: u8,
    /// 1 (basic) to 3 (mighty).
    pub level: u8,
    pub active: bool,
}

/// Board places an event touched; sorted, without repeats.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Changed {
    pub hexes: Vec<HexId>,
    pub nodes: Vec<NodeId>,
    pub edges: Vec<EdgeId>,
}

impl Changed {
    /// Adds the places `event` built on, moved to or changed. Pieces that
    /// left the board leave nothing to outline.
    pub fn note(&mut self, event: &Event) {
        match event {
            Event::RoadBuilt { edge, .. } => self.edges.push(*edge),
            Event::SettlementBuilt { node, .. }
            | Event::CityBuilt { node, .. }
            | Event::CityPillaged { node, .. }
            | Event::WallBuilt { node, .. }
            | Event::MetropolisPlaced { node, .. }
            | Event::KnightPlaced { node, .. }
            | Event::KnightActivated { node, .. }
            | Event::KnightPromoted { node, .. } => self.nodes.push(*node),
            Event::KnightMoved { to, .. } | Event::KnightRetreated { to, .. } => {
                self.nodes.push(*to)
            }
            Event::KnightDisplaced { from, node, .. } => {
                self.nodes.extend(from.iter().copied());
                self.nodes.push(*node);
            }
            Event::RobberMoved { hex, .. } | Event::MerchantPlaced { hex, .. } => {
                self.hexes.push(*hex)
            }
            Event::HexesRemoved { hexes, .. } | Event::NumberTokensSwapped { hexes, .. } => {
                self.hexes.extend(hexes.iter().copied())
            }
            _ => {}
        }
    }

    fn tidy(&mut self) {
        for list in [&mut self.hexes, &mut self.nodes, &mut self.edges] {
            list.sort_unstable();
            list.dedup();
        }
    }

    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty() && self.nodes.is_empty() && self.edges.is_empty()
    }
}

impl Scene {
    /// The board of `view`, the players named `names` (by real seat), the
    /// places `changed` outlined and told in the alt text.
    pub fn of(view: &GameView, names: &[String; 2], mut changed: Changed) -> Scene {
        changed.tidy();
        let table = describe::Table::of_view(names.clone(), view);
        let outlined = describe::Outlined {
            hexes: &changed.hexes,
            nodes: &changed.nodes,
            edges: &changed.edges,
        };
        let alt = describe::position(view, &table, outlined);
        Scene {
            alt,
            tiles: view.board.tiles.clone(),
            removed: view.board.removed,
            harbors: view.board.harbors.clone(),
            harbors_out: view.harbors_out.clone(),
            robber: view.robber,
            buildings: view.buildings.clone(),
            roads: view.roads.clone(),
            ck: ck_pieces(&view.variant),
            changed,
        }
    }

    pub fn is_removed(&self, hex: HexId) -> bool {
        self.removed & (1 << hex) != 0
    }
}

fn ck_pieces(variant: &VariantState) -> Option<CkPieces> {
    let VariantState::CkForTwo(ck) = variant else {
        return None;
    };
    Some(CkPieces {
        knights: ck
            .knights
            .iter()
            .map(|k| KnightPiece {
                node: k.node,
                owner: k.owner.0,
                level: match k.level {
                    KnightLevel::Basic => 1,
                    KnightLevel::Strong => 2,
                    KnightLevel::Mighty => 3,
                },
                active: k.active,
            })
            .collect(),
        walls: ck.walls.iter().collect(),
        metropolises: ck.metropolises.iter().flatten().copied().collect(),
        barbarians: ck.barbarians.min(BARBARIAN_TRACK - 1),
        merchant: ck.merchant.as_ref().map(|m| (m.hex, m.owner.0)),
    })
}
