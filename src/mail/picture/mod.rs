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

pub use scene::{Changed, Scene};

/// A rendered board.
pub struct Picture {
    pub png: Vec<u8>,
    pub alt: String,
    pub width: u32,
    pub height: u32,
}

/// The alt text of a scene queued before scenes kept their own.
const OLD_SCENE_ALT: &str = "The board as it stands.";

/// Draws `scene`.
pub fn render(scene: &Scene) -> Result<Picture, String> {
    let frame = geometry::Frame::new(scene.ck.is_some());
    let layer = fixed_layer::of(scene, &frame)?;
    let pixmap = draw::on(&layer.pixmap, scene, &frame);
    let indexed = layer
        .indexed
        .over(layer.pixmap.data(), pixmap.data(), frame.width as usize)?;
    Ok(Picture {
        png: indexed.png(frame.width, frame.height)?,
        alt: if scene.alt.is_empty() {
            OLD_SCENE_ALT.into()
        } else {
            scene.alt.clone()
        },
        width: frame.width,
        height: frame.height,
    })
}
