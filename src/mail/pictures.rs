//! The board pictures of one mail: each scene its context carries (the
//! mail's own, or each game's in a digest) drawn as an inline image, and
//! replaced in the context by what the HTML template needs to show it
//! (`picture`: its Content-ID, alt text and size).

use super::picture::{self, Scene};
use super::sender::InlineImage;
use serde_json::{Value, json};

/// The context's key of the scene queued with a mail (`service::notify`).
pub const BOARD: &str = "board";

/// The most games of one digest drawn: each picture adds some 10 kB.
const MOST_DIGEST_PICTURES: usize = 10;

/// Draws the boards of `context` (a mail's `message_id` on `host`) and
/// returns them as inline images, in the order the mail shows them.
pub fn attach(context: &mut Value, message_id: &str, host: &str) -> Vec<InlineImage> {
    let mut images = Vec::new();
    let cid = |n: usize| format!("board{n}.{message_id}@{host}");
    images.extend(draw(context, cid(0)));
    if let Some(games) = context.get_mut("games").and_then(Value::as_array_mut) {
        for (n, game) in games.iter_mut().enumerate() {
            if n < MOST_DIGEST_PICTURES {
                images.extend(draw(game, cid(n + 1)));
            } else if let Some(fields) = game.as_object_mut() {
                fields.remove(BOARD);
                fields.insert("picture".into(), Value::Null);
            }
        }
    }
    images
}

/// The picture of `item`'s scene, if it has one; a scene that cannot be
/// drawn costs the mail its picture, never the mail.
fn draw(item: &mut Value, content_id: String) -> Option<InlineImage> {
    let fields = item.as_object_mut()?;
    let board = fields.remove(BOARD)?;
    let drawn = serde_json::from_value::<Scene>(board)
        .map_err(|e| e.to_string())
        .and_then(|scene| picture::render(&scene));
    match drawn {
        Ok(p) => {
            let shown =
                json!({"cid": content_id, "alt": p.alt, "width": p.width, "height": p.height});
            fields.insert("picture".into(), shown);
            Some(InlineImage {
                content_id,
                png: p.png,
            })
        }
        Err(error) => {
            tracing::warn!(%error, "board picture not drawn; the mail goes without it");
            fields.insert("picture".into(), Value::Null);
            None
        }
    }
}
