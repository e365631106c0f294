//! The board's fixed layer, made once per layout: the sea, fields,
//! harbors and number tokens are the same in every mail of a game (and of
//! every game dealt the same board). A mail's picture starts from a copy
//! of its palette indices and puts only its pieces on it. The layer itself
//! is put together from kept pieces (`sprites`), not drawn: a worker with
//! more games in play than layouts kept makes a layer for most mails, and
//! drawing one cost several pictures' time (docs/performance.md, "The
//! board picture in mails").

use super::geometry::Frame;
use super::scene::Scene;
use super::{draw, palette, sprites};
use hexpost_engine::board::{HarborKind, Terrain};
use std::sync::{Arc, LazyLock};

/// Layouts kept: a layer is some 0.2 MB (a byte a pixel), so at most
/// about 15 MB, enough for the games a worker round's mails come from.
const LAYOUTS_KEPT: usize = 64;

/// Everything the fixed layer is drawn from.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Layout {
    tiles: Vec<(Terrain, Option<u8>)>,
    removed: u32,
    harbors: Vec<HarborKind>,
    harbors_out: Vec<u8>,
    /// The picture has the barbarian track below the board (a taller frame).
    track: bool,
}

impl Layout {
    fn of(scene: &Scene) -> Layout {
        Layout {
            tiles: scene.tiles.iter().map(|t| (t.terrain, t.number)).collect(),
            removed: scene.removed,
            harbors: scene.harbors.clone(),
            harbors_out: scene.harbors_out.clone(),
            track: scene.ck.is_some(),
        }
    }
}

/// A layout's layer, as palette indices.
pub struct Layer {
    pub indices: Vec<u8>,
}

static LAYERS: LazyLock<quick_cache::sync::Cache<Layout, Arc<Layer>>> =
    LazyLock::new(|| quick_cache::sync::Cache::new(LAYOUTS_KEPT));

/// The fixed layer of `scene`'s layout, made now or kept from before.
pub fn of(scene: &Scene, frame: &Frame) -> Result<Arc<Layer>, String> {
    LAYERS.get_or_insert_with(&Layout::of(scene), || {
        let width = frame.width as usize;
        let mut indices = vec![palette::SEA; width * frame.height as usize];
        for piece in draw::fixed_pieces(scene) {
            sprites::of(piece, frame)?.put_on(&mut indices, width);
        }
        Ok(Arc::new(Layer { indices }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexpost_engine::{GameConfig, GameState, Seat, Variant};

    /// The board of a new game of `variant` dealt from `seed`, as its
    /// first player sees it.
    fn scene_in(variant: Variant, seed: u64) -> Scene {
        let (state, _) = GameState::new(&GameConfig::new(variant), seed).unwrap();
        let names = ["Ada".to_string(), "Bob".to_string()];
        Scene::of(&state.view(Some(Seat(0))), &names, Default::default())
    }

    fn scene(seed: u64) -> Scene {
        scene_in(Variant::Standard, seed)
    }

    /// The layer put together from kept pieces is the one drawn in one
    /// go, in every variant's layouts.
    #[test]
    fn kept_fixed_pieces_make_the_layer_drawn_in_one_go() {
        for variant in Variant::ALL {
            for seed in 0..8 {
                let scene = scene_in(variant, seed);
                let frame = Frame::new(scene.ck.is_some());
                let drawn = palette::indices(draw::fixed(&scene, &frame).unwrap().data()).unwrap();
                assert!(
                    of(&scene, &frame).unwrap().indices == drawn,
                    "{variant:?}, seed {seed}"
                );
            }
        }
    }

    /// A picture drawn on a kept layer is the one drawn on a layer of its
    /// own, whichever part of the layout differs from the kept one's.
    #[test]
    fn a_kept_layer_serves_only_its_own_layout() {
        let first = scene(11);
        let frame = Frame::new(false);
        let mut others = Vec::new();
        let mut robbed = first.clone();
        robbed.robber = (first.robber + 1) % first.tiles.len() as u8;
        robbed.changed.hexes = vec![robbed.robber];
        others.push(robbed);
        let mut tiles = first.clone();
        tiles.tiles.swap(0, 1);
        others.push(tiles);
        let mut removed = first.clone();
        removed.removed = 1 << 3;
        others.push(removed);
        let mut harbors = first.clone();
        harbors.harbors.swap(0, 1);
        harbors.harbors_out = vec![2];
        others.push(harbors);
        others.push(scene(12));

        let kept = super::super::indices(&first, &frame).unwrap();
        for other in &others {
            let drawn = super::super::indices(other, &frame).unwrap();
            let own = palette::indices(draw::scene(other, &frame).unwrap().data()).unwrap();
            assert!(drawn == own, "a layer of another layout was used");
            assert!(drawn != kept, "the scene changed nothing drawn");
        }
    }
}
