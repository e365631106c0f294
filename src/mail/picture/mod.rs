//! The board picture in the mails that ask for a decision or end a game:
//! the board as its reader may see it (`Scene`), drawn as a small palette
//! PNG with its alt text. No I/O and no fonts (digits are strokes), so a
//! picture is cheap enough to draw for every mail as it is sent
//! (docs/performance.md, "The board picture in mails").

pub mod colours;
mod draw;
mod fixed_layer;
pub mod geometry;
mod glyphs;
mod palette;
pub mod scene;
mod sprites;

pub use scene::{Changed, Scene};

/// A rendered board.
pub struct Picture {
    pub png: Vec<u8>,
    pub alt: String,
    pub width: u32,
    pub height: u32,
}

/// The picture's palette indices: its layout's fixed layer with the
/// scene's pieces put on it.
fn indices(scene: &Scene, frame: &geometry::Frame) -> Result<Vec<u8>, String> {
    let layer = fixed_layer::of(scene, frame)?;
    let mut indices = layer.indices.clone();
    for piece in draw::pieces(scene) {
        sprites::of(piece, frame)?.put_on(&mut indices, frame.width as usize);
    }
    Ok(indices)
}

/// The alt text of a scene queued before scenes kept their own.
const OLD_SCENE_ALT: &str = "The board as it stands.";

/// Draws `scene`.
pub fn render(scene: &Scene) -> Result<Picture, String> {
    let frame = geometry::Frame::new(scene.ck.is_some());
    Ok(Picture {
        png: palette::png(&indices(scene, &frame)?, frame.width, frame.height)?,
        alt: if scene.alt.is_empty() {
            OLD_SCENE_ALT.into()
        } else {
            scene.alt.clone()
        },
        width: frame.width,
        height: frame.height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexpost_engine::rng::GameRng;
    use hexpost_engine::{GameConfig, GameState, Redact, Seat, Variant};

    /// Every 40th position of a random game of `variant`, as its first
    /// player sees it, with the places of the last 40 actions outlined.
    fn scenes(variant: Variant) -> Vec<Scene> {
        let names = ["Ada".to_string(), "Bob".to_string()];
        let (mut s, _) = GameState::new(&GameConfig::new(variant), 5).unwrap();
        let mut rng = GameRng::from_seed(9);
        let (mut out, mut changed) = (Vec::new(), Changed::default());
        for step in 1..=1200 {
            let Some(&seat) = s.awaiting().first() else {
                break;
            };
            let legal = s.legal_actions(seat);
            let action = hexpost_engine::sim::random_action(&s, seat, &legal, &mut rng).unwrap();
            for event in s.apply(seat, &action).unwrap() {
                changed.note(&event.redacted_for(Some(Seat(0))));
            }
            if step % 40 == 0 {
                let seen = std::mem::take(&mut changed);
                out.push(Scene::of(&s.view(Some(Seat(0))), &names, seen));
            }
        }
        out
    }

    /// The kept layer and pieces add up to the picture drawn in one go,
    /// pixel for pixel, in every variant, whatever was drawn before.
    #[test]
    fn kept_pieces_make_the_picture_drawn_in_one_go() {
        let mut checked = 0;
        for variant in Variant::ALL {
            for scene in scenes(variant) {
                let frame = geometry::Frame::new(scene.ck.is_some());
                let whole = draw::scene(&scene, &frame).unwrap();
                assert_eq!(
                    indices(&scene, &frame).unwrap(),
                    palette::indices(whole.data()).unwrap(),
                    "{variant:?}"
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} pictures");
    }
}
