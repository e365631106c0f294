//! The committed scheme of the move log's hash chain: what a row's hash
//! covers, so that a player can check every hash they are shown without
//! it telling them anything they may not see (docs/architecture.md, "The
//! log's hash chain").
//!
//! A row's hash is SHA-256 over the canonical JSON array
//! `["hexpost-row-v1", game_id, seq, prev, actor, seat, user_id, action,
//! jws, events, state_hash, created_at]`, where `prev`, `action`, `jws` and
//! `events` form the row's public skeleton ([`Skeleton`]): each part in
//! clear if nobody is kept from it, otherwise `{"hidden": H, "commit": C}`
//! with `H` what a spectator may see of it and `C` = SHA-256(salt ‖
//! canonical JSON of the part). An event is hidden when its redaction for
//! a spectator differs from it; the action and the signed move when the
//! move was a sealed answer (`GameState::sealed_answers`); the link to the
//! row before when that row is of the plain scheme of earlier releases.
//!
//! Each part has its own 32-byte salt, HMAC-SHA256 keyed by the game's
//! seed, which the server alone holds until the game ends and then
//! publishes: during the game nobody can try candidates against a
//! commitment, afterwards anyone can check them all.
//!
//! Canonical JSON is serde_json's compact text of a `Value`: object keys
//! sorted, no whitespace (the order in which the API serves them).

use super::audit::sha256_hex;
use crate::store::games::{GameRow, MoveRow};
use hexpost_engine::{Event, Redact};
use hmac::{Hmac, KeyInit, Mac};
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

/// How a row's hash was computed.
#[derive(Serialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[schema(example = "committed")]
pub enum Scheme {
    /// Earlier releases: SHA-256 over the stored row, hidden parts in
    /// clear (see `audit::plain_row_hash`). Players are shown neither
    /// these hashes nor the links to them until the game is over.
    Plain,
    /// SHA-256 over the public skeleton, hidden parts committed to.
    Committed,
}

impl Scheme {
    /// The scheme of row `seq` of `game`.
    pub fn of(game: &GameRow, seq: i64) -> Scheme {
        Self::from_first(game.committed_from, seq)
    }

    /// The scheme of row `seq` in a game whose first committed row is
    /// `committed_from`.
    pub fn from_first(committed_from: Option<i64>, seq: i64) -> Scheme {
        match committed_from {
            Some(first) if seq >= first => Scheme::Committed,
            _ => Scheme::Plain,
        }
    }
}

/// True when row `seq` is the first committed row after plain ones: its
/// link to the row before is committed to, not in clear.
pub fn bridges(committed_from: Option<i64>, seq: i64) -> bool {
    committed_from == Some(seq) && seq > 1
}

/// A part of a row that may be committed to; it names the part's salt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Prev,
    Action,
    Jws,
    /// The event at this index of the row's events.
    Event(usize),
}

impl Part {
    /// The part's name: `prev`, `action`, `jws`, or `event:N` (N from 0).
    pub fn label(self) -> String {
        match self {
            Part::Prev => "prev".into(),
            Part::Action => "action".into(),
            Part::Jws => "jws".into(),
            Part::Event(i) => format!("event:{i}"),
        }
    }
}

/// The salts of one game's parts.
#[derive(Clone)]
pub struct Salts {
    keyed: Hmac<Sha256>,
    game_id: String,
}

impl Salts {
    pub fn new(seed: &[u8; 32], game_id: &str) -> Salts {
        Salts {
            keyed: Hmac::<Sha256>::new_from_slice(seed).expect("HMAC takes a key of any length"),
            game_id: game_id.to_string(),
        }
    }

    /// HMAC-SHA256(seed, `hexpost-salt-v1:GAME:SEQ:PART`).
    pub fn salt(&self, seq: i64, part: Part) -> [u8; 32] {
        let mut mac = self.keyed.clone();
        mac.update(format!("hexpost-salt-v1:{}:{seq}:{}", self.game_id, part.label()).as_bytes());
        mac.finalize().into_bytes().into()
    }
}

/// The text every hash of the scheme is taken over.
pub fn canonical(value: &Value) -> String {
    value.to_string()
}

/// SHA-256(salt ‖ canonical JSON of `value`), as hex.
pub fn commit(salt: &[u8; 32], value: &Value) -> String {
    let mut h = Sha256::new();
    h.update(salt);
    h.update(canonical(value).as_bytes());
    hex::encode(h.finalize())
}

/// The parts of a row its hash covers besides its plain fields: each in
/// clear, or as `{"hidden": …, "commit": …}`.
#[derive(Serialize, ToSchema, Clone, Debug, PartialEq)]
pub struct Skeleton {
    /// The previous row's hash; committed to when that row is of the plain
    /// scheme.
    #[schema(value_type = Value)]
    pub prev: Value,
    /// The action or server entry; committed to while it was a sealed
    /// answer when written.
    #[schema(value_type = Object)]
    pub action: Value,
    /// The signed move (or null); committed to with a sealed answer.
    #[schema(value_type = Value)]
    pub jws: Value,
    /// Each event, or a commitment with what a spectator may see of it.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
}

/// What a row's skeleton is built from.
pub struct Contents<'a> {
    pub seq: i64,
    pub prev_hash: &'a str,
    /// The row before is of the plain scheme.
    pub bridge: bool,
    /// The stored JSON text of the action or server entry.
    pub action: &'a str,
    pub jws: Option<&'a str>,
    /// The action and signed move were a sealed answer.
    pub sealed: bool,
    pub events: &'a [Event],
}

/// A row's skeleton with the parts it commits to, in order.
pub struct Built {
    pub skeleton: Skeleton,
    pub committed: Vec<Part>,
}

impl Contents<'_> {
    pub fn build(&self, salts: &Salts) -> Built {
        let mut committed = Vec::new();
        let mut part = |part: Part, clear: Value, hidden: Value| -> Value {
            committed.push(part);
            json!({"hidden": hidden, "commit": commit(&salts.salt(self.seq, part), &clear)})
        };
        let prev = Value::from(self.prev_hash);
        let prev = if self.bridge {
            part(Part::Prev, prev, Value::Null)
        } else {
            prev
        };
        let action = serde_json::from_str(self.action).unwrap_or(Value::Null);
        let action = if self.sealed {
            part(Part::Action, action, Value::Null)
        } else {
            action
        };
        let jws = match self.jws {
            Some(jws) if self.sealed => part(Part::Jws, Value::from(jws), Value::Null),
            other => Value::from(other),
        };
        let events = self
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let public = e.redacted_for(None);
                let clear = serde_json::to_value(e).unwrap_or_default();
                if public == *e {
                    clear
                } else {
                    let hidden = serde_json::to_value(public).unwrap_or_default();
                    part(Part::Event(i), clear, hidden)
                }
            })
            .collect();
        Built {
            skeleton: Skeleton {
                prev,
                action,
                jws,
                events,
            },
            committed,
        }
    }
}

impl Built {
    /// The skeleton of `row`, stored with `events`, in a game whose first
    /// committed row is `committed_from`.
    pub fn of_row(
        row: &MoveRow,
        events: &[Event],
        committed_from: Option<i64>,
        salts: &Salts,
    ) -> Built {
        Contents {
            seq: row.seq,
            prev_hash: &row.prev_hash,
            bridge: bridges(committed_from, row.seq),
            action: &row.action,
            jws: row.jws.as_deref(),
            sealed: row.sealed,
            events,
        }
        .build(salts)
    }
}

/// The committed scheme's hash of `row` with its `skeleton`.
pub fn row_hash(row: &MoveRow, skeleton: &Skeleton) -> String {
    let canonical = json!([
        "hexpost-row-v1",
        row.game_id,
        row.seq,
        skeleton.prev,
        row.actor,
        row.seat,
        row.user_id,
        skeleton.action,
        skeleton.jws,
        skeleton.events,
        row.state_hash,
        row.created_at
    ]);
    sha256_hex(canonical.to_string().as_bytes())
}

/// The chain head as a player may be shown it: withheld while the game
/// runs if it is the hash of a plain row, which could be tried against
/// candidates for what the row hides.
pub fn head_for_players(game: &GameRow) -> Option<String> {
    let plain_head = game.move_number > 0 && Scheme::of(game, game.move_number) == Scheme::Plain;
    let running = game.status == crate::store::games::status::ACTIVE;
    (!(plain_head && running)).then(|| game.chain_head.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexpost_engine::{DevCard, Seat};

    #[test]
    fn canonical_json_sorts_keys_and_has_no_whitespace() {
        let v = json!({"type": "x", "b": [1, {"z": null, "a": "é\""}], "a": 2});
        assert_eq!(
            canonical(&v),
            r#"{"a":2,"b":[1,{"a":"é\"","z":null}],"type":"x"}"#
        );
    }

    #[test]
    fn salts_differ_by_game_row_part_and_seed() {
        let a = Salts::new(&[1; 32], "g");
        let salts = [
            a.salt(1, Part::Event(0)),
            a.salt(1, Part::Event(1)),
            a.salt(2, Part::Event(0)),
            a.salt(1, Part::Action),
            a.salt(1, Part::Jws),
            a.salt(1, Part::Prev),
            Salts::new(&[1; 32], "h").salt(1, Part::Event(0)),
            Salts::new(&[2; 32], "g").salt(1, Part::Event(0)),
        ];
        for (i, x) in salts.iter().enumerate() {
            for y in &salts[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert_eq!(a.salt(1, Part::Event(0)), salts[0], "deterministic");
    }

    #[test]
    fn only_what_a_spectator_may_not_see_is_committed_to() {
        let events = [
            Event::TurnStarted {
                seat: Seat(0),
                turn: 3,
            },
            Event::DevCardBought {
                seat: Seat(0),
                card: Some(DevCard::Monopoly),
            },
        ];
        let salts = Salts::new(&[9; 32], "g");
        let contents = Contents {
            seq: 7,
            prev_hash: "p",
            bridge: false,
            action: r#"{"type":"buy_development_card"}"#,
            jws: Some("a.b.c"),
            sealed: false,
            events: &events,
        };
        let built = contents.build(&salts);
        assert_eq!(built.committed, vec![Part::Event(1)]);
        let s = &built.skeleton;
        assert_eq!(s.prev, json!("p"));
        assert_eq!(s.action, json!({"type": "buy_development_card"}));
        assert_eq!(s.jws, json!("a.b.c"));
        assert_eq!(s.events[0], serde_json::to_value(&events[0]).unwrap());
        let card = serde_json::to_value(&events[1]).unwrap();
        assert_eq!(
            s.events[1],
            json!({
                "hidden": {"type": "dev_card_bought", "seat": 0, "card": null},
                "commit": commit(&salts.salt(7, Part::Event(1)), &card),
            })
        );

        let sealed = Contents {
            sealed: true,
            bridge: true,
            ..contents
        }
        .build(&salts);
        assert_eq!(
            sealed.committed,
            vec![Part::Prev, Part::Action, Part::Jws, Part::Event(1)]
        );
        let s = &sealed.skeleton;
        assert_eq!(s.action["hidden"], Value::Null);
        assert_eq!(
            s.jws["commit"],
            commit(&salts.salt(7, Part::Jws), &json!("a.b.c"))
        );
        assert_eq!(
            s.prev["commit"],
            commit(&salts.salt(7, Part::Prev), &json!("p"))
        );
    }
}
