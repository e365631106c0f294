//! The board pictures of one mail: each scene its context carries (the
//! mail's own, or each game's in a digest) drawn as an inline image, and
//! replaced in the context by what the HTML template needs to show it
//! (`picture`: its Content-ID, alt text and size).

use super::picture::{self, Changed, Scene};
use super::sender::InlineImage;
use crate::describe::Table;
use hexpost_engine::{Event, GameState, Redact, Seat};
use serde_json::{Value, json};

/// The context's key of the scene queued with a mail (`service::notify`).
pub const BOARD: &str = "board";

/// The most games of one digest drawn: each picture adds some 10 kB.
const MOST_DIGEST_PICTURES: usize = 10;

/// The scene of a mail's picture, to queue with it under [`BOARD`]: the
/// board as the player of `seat` sees it, the places that `events` changed
/// (as that player sees them) outlined.
pub fn board(state: &GameState, seat: Seat, table: &Table, events: &[Event]) -> Value {
    let mut changed = Changed::default();
    for event in events {
        changed.note(&event.redacted_for(Some(seat)));
    }
    json!(Scene::of(&state.view(Some(seat)), table.names(), changed))
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use hexpost_engine::{GameConfig, GameState, Seat, Variant};

    fn board() -> Value {
        let (state, _) = GameState::new(&GameConfig::new(Variant::Standard), 3).unwrap();
        let names = ["Ada".to_string(), "Bob".to_string()];
        serde_json::to_value(Scene::of(
            &state.view(Some(Seat(0))),
            &names,
            Default::default(),
        ))
        .unwrap()
    }

    #[test]
    fn each_scene_becomes_an_inline_image_the_template_can_show() {
        let mut mail = json!({"player": "Ada", BOARD: board()});
        let images = attach(&mut mail, "your_move.1", "h.example");
        assert_eq!(images.len(), 1);
        assert_eq!(images[0].content_id, "board0.your_move.1@h.example");
        assert!(images[0].png.starts_with(b"\x89PNG"));
        assert!(
            mail.get(BOARD).is_none(),
            "the scene is not rendered as text"
        );
        assert_eq!(mail["picture"]["cid"], "board0.your_move.1@h.example");
        assert!(
            mail["picture"]["alt"]
                .as_str()
                .unwrap()
                .contains("Ada (red): nothing on the board")
        );

        // A digest: a picture for each game that has a board, none for one
        // that has none, and nothing for the digest itself.
        let mut digest = json!({"games": [{BOARD: board()}, {"move_number": 4}]});
        let images = attach(&mut digest, "digest.7.2026-11-27", "h.example");
        assert_eq!(images.len(), 1);
        assert_eq!(
            digest["games"][0]["picture"]["cid"],
            "board1.digest.7.2026-11-27@h.example"
        );
        assert!(digest.get("picture").is_none());
        assert!(digest["games"][1].get("picture").is_none());

        // A scene queued before scenes kept their alt text (and when they
        // named the seats instead) is drawn, with a plain alt text.
        let mut old = board();
        let fields = old.as_object_mut().unwrap();
        fields
            .remove("alt")
            .expect("an alt text kept with the scene");
        fields.insert("seats".into(), json!(["Ada (red)", "Bob (blue)"]));
        let mut queued_before = json!({BOARD: old});
        assert_eq!(attach(&mut queued_before, "m", "h").len(), 1);
        assert_eq!(queued_before["picture"]["alt"], "The board as it stands.");

        // A scene that cannot be drawn: the mail goes without a picture.
        let mut broken = json!({BOARD: {"tiles": "no"}});
        assert!(attach(&mut broken, "m", "h").is_empty());
        assert_eq!(broken["picture"], Value::Null);
    }
}
