//! What lies on the fixed topology: terrain, number tokens and harbor kinds.

use super::topology::{HARBOR_COUNT, HEX_COUNT, HexId, topology};
use crate::cards::Resource;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "fields")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Forest,
    Pasture,
    Fields,
    Hills,
    Mountains,
    Desert,
}

impl Terrain {
    pub fn resource(self) -> Option<Resource> {
        match self {
            Terrain::Forest => Some(Resource::Lumber),
            Terrain::Pasture => Some(Resource::Wool),
            Terrain::Fields => Some(Resource::Grain),
            Terrain::Hills => Some(Resource::Brick),
            Terrain::Mountains => Some(Resource::Ore),
            Terrain::Desert => None,
        }
    }
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = json!({"kind": "specific", "resource": "ore"}))
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "resource")]
pub enum HarborKind {
    /// 3:1 any resource.
    Generic,
    /// 2:1 of one resource.
    Specific(Resource),
}

impl HarborKind {
    pub fn ratio(self) -> u8 {
        match self {
            HarborKind::Generic => 3,
            HarborKind::Specific(_) => 2,
        }
    }
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = json!({"terrain": "fields", "number": 6}))
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    pub terrain: Terrain,
    /// The number token; `None` on the desert.
    pub number: Option<u8>,
}

#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(example = "random")
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LayoutKind {
    /// The printed beginner layout of RULES.md §1.
    Beginner,
    /// Terrain, numbers and harbor kinds shuffled.
    #[default]
    Random,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Indexed by hex id.
    pub tiles: Vec<Tile>,
    /// Indexed by harbor slot (see `Topology::harbor_edges`).
    pub harbors: Vec<HarborKind>,
    /// Hexes taken out of the game (a bit per hex id), as the shadow
    /// variant does; they produce nothing and nothing may touch them.
    #[serde(default)]
    pub removed: u32,
}

use Terrain::*;
const BEGINNER: [(Terrain, u8); HEX_COUNT] = [
    (Mountains, 10),
    (Pasture, 2),
    (Forest, 9),
    (Fields, 12),
    (Hills, 6),
    (Pasture, 4),
    (Hills, 10),
    (Fields, 9),
    (Forest, 11),
    (Desert, 0),
    (Forest, 3),
    (Mountains, 8),
    (Forest, 8),
    (Mountains, 3),
    (Fields, 4),
    (Pasture, 5),
    (Hills, 5),
    (Fields, 6),
    (Pasture, 11),
];

/// Harbor kinds of the beginner frame, slot by slot clockwise from the top.
/// The printed frame's assignment is not part of RULES.md; this one is ours
/// (docs/rules.md) and keeps each 2:1 harbor next to a hex of another kind.
const BEGINNER_HARBORS: [HarborKind; HARBOR_COUNT] = [
    HarborKind::Generic,
    HarborKind::Specific(Resource::Grain),
    HarborKind::Specific(Resource::Ore),
    HarborKind::Generic,
    HarborKind::Specific(Resource::Wool),
    HarborKind::Generic,
    HarborKind::Generic,
    HarborKind::Specific(Resource::Brick),
    HarborKind::Specific(Resource::Lumber),
];

const TERRAIN_SET: [(Terrain, usize); 6] = [
    (Forest, 4),
    (Pasture, 4),
    (Fields, 4),
    (Hills, 3),
    (Mountains, 3),
    (Desert, 1),
];
const NUMBER_SET: [u8; 18] = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];

impl Board {
    pub fn beginner() -> Board {
        Board {
            tiles: BEGINNER
                .iter()
                .map(|&(terrain, n)| Tile {
                    terrain,
                    number: (n != 0).then_some(n),
                })
                .collect(),
            harbors: BEGINNER_HARBORS.to_vec(),
            removed: 0,
        }
    }

    /// A shuffled board. With `no_adjacent_red`, numbers are re-dealt until
    /// no 6 or 8 touches another 6 or 8 (a few tries on average).
    pub fn random(rng: &mut GameRng, no_adjacent_red: bool) -> Board {
        let mut terrains: Vec<Terrain> = TERRAIN_SET
            .iter()
            .flat_map(|&(t, n)| std::iter::repeat_n(t, n))
            .collect();
        rng.shuffle(&mut terrains);
        let mut numbers = NUMBER_SET.to_vec();
        let tiles = loop {
            rng.shuffle(&mut numbers);
            let mut it = numbers.iter();
            let tiles: Vec<Tile> = terrains
                .iter()
                .map(|&terrain| Tile {
                    terrain,
                    number: if terrain == Desert {
                        None
                    } else {
                        it.next().copied()
                    },
                })
                .collect();
            if !no_adjacent_red || !has_adjacent_red(&tiles) {
                break tiles;
            }
        };
        let mut harbors = BEGINNER_HARBORS.to_vec();
        rng.shuffle(&mut harbors);
        Board {
            tiles,
            harbors,
            removed: 0,
        }
    }

    pub fn in_play(&self, hex: HexId) -> bool {
        (hex as usize) < self.tiles.len() && self.removed & (1 << hex) == 0
    }

    pub fn desert(&self) -> Option<HexId> {
        self.tiles
            .iter()
            .position(|t| t.terrain == Desert)
            .map(|i| i as HexId)
    }
}

fn is_red(n: Option<u8>) -> bool {
    matches!(n, Some(6) | Some(8))
}

pub fn has_adjacent_red(tiles: &[Tile]) -> bool {
    let topo = topology();
    topo.hexes.iter().any(|h| {
        is_red(tiles[h.id as usize].number)
            && h.neighbors
                .iter()
                .any(|&o| is_red(tiles[o as usize].number))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beginner_layout_matches_rules_text() {
        let b = Board::beginner();
        let t = topology();
        let at = |q, r| b.tiles[t.hex_by_axial(q, r).unwrap() as usize];
        assert_eq!(
            at(0, -2),
            Tile {
                terrain: Mountains,
                number: Some(10)
            }
        );
        assert_eq!(
            at(0, 0),
            Tile {
                terrain: Desert,
                number: None
            }
        );
        assert_eq!(
            at(0, 2),
            Tile {
                terrain: Pasture,
                number: Some(11)
            }
        );
        assert_eq!(
            at(-2, 2),
            Tile {
                terrain: Hills,
                number: Some(5)
            }
        );
    }

    #[test]
    fn random_boards_have_the_full_set_and_no_adjacent_reds() {
        for seed in 0..200 {
            let mut rng = GameRng::from_seed(seed);
            let b = Board::random(&mut rng, true);
            assert!(!has_adjacent_red(&b.tiles), "seed {seed}");
            let mut nums: Vec<u8> = b.tiles.iter().filter_map(|t| t.number).collect();
            nums.sort();
            assert_eq!(nums, NUMBER_SET);
            assert_eq!(b.tiles.iter().filter(|t| t.terrain == Desert).count(), 1);
            assert_eq!(
                b.harbors
                    .iter()
                    .filter(|h| **h == HarborKind::Generic)
                    .count(),
                4
            );
        }
    }
}
