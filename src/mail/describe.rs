//! Plain-English lines for mails: events, hands and decisions. Events are
//! described from their wire form, field by field, so every variant's
//! events read without a sentence per event type; a field the redaction
//! blanked (`null`) is left out, so a description never says more than the
//! redacted event it was made from.

use hexpost_engine::{DevCounts, Event, LegalAction, ResourceCounts};
use serde_json::Value;

/// The players' names by seat; automated seats are named by their number.
pub struct Names(pub [String; 2]);

impl Names {
    pub fn of(&self, seat: u64) -> String {
        match self.0.get(seat as usize) {
            Some(name) => name.clone(),
            None => format!("the automated seat {seat}"),
        }
    }
}

/// Fields whose number is a seat.
const SEAT_FIELDS: [&str; 10] = [
    "seat", "to", "by", "thief", "victim", "from", "first", "owner", "neutral", "winner",
];

/// `dice_rolled` → `dice rolled`.
pub fn words(snake: &str) -> String {
    snake.replace('_', " ")
}

/// One event, e.g. `Ada: dice rolled (dice 3 and 4, total 7)`.
pub fn event(event: &Event, names: &Names) -> String {
    let Ok(Value::Object(fields)) = serde_json::to_value(event) else {
        return String::new();
    };
    let kind = fields
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("event");
    let mut parts = Vec::new();
    for (key, value) in &fields {
        if key == "type" || key == "seat" {
            continue;
        }
        if let Some(text) = field(key, value, names) {
            parts.push(text);
        }
    }
    let mut line = match fields.get("seat").and_then(Value::as_u64) {
        Some(seat) => format!("{}: {}", names.of(seat), words(kind)),
        None => capitalised(&words(kind)),
    };
    if !parts.is_empty() {
        line.push_str(&format!(" ({})", parts.join(", ")));
    }
    line
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn field(key: &str, value: &Value, names: &Names) -> Option<String> {
    let shown = match value {
        Value::Null => return None,
        Value::Bool(true) => return Some(words(key)),
        Value::Bool(false) => return None,
        Value::Number(n) if SEAT_FIELDS.contains(&key) => names.of(n.as_u64()?),
        Value::Array(items) => list(items, names),
        Value::Object(map) => counts(map),
        Value::String(s) => words(s),
        other => other.to_string(),
    };
    Some(format!("{} {shown}", words(key)))
}

/// Dice (`3 and 4`) or (seat, count) pairs (`Ada 2, Grace 1`).
fn list(items: &[Value], names: &Names) -> String {
    let pairs: Option<Vec<String>> = items
        .iter()
        .map(|item| match item.as_array().map(Vec::as_slice) {
            Some([seat, n]) => Some(format!("{} {n}", names.of(seat.as_u64()?))),
            _ => None,
        })
        .collect();
    match pairs {
        Some(pairs) if !items.is_empty() => pairs.join(", "),
        _ => {
            let plain: Vec<String> = items.iter().map(plain).collect();
            plain.join(" and ")
        }
    }
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => words(s),
        other => other.to_string(),
    }
}

/// A map of card counts: `2 brick, 1 ore`, or `nothing`.
fn counts(map: &serde_json::Map<String, Value>) -> String {
    let listed: Vec<String> = map
        .iter()
        .filter_map(|(name, n)| match n.as_u64() {
            Some(0) => None,
            Some(n) => Some(format!("{n} {}", words(name))),
            None => Some(format!("{} {}", words(name), plain(n))),
        })
        .collect();
    if listed.is_empty() {
        "nothing".into()
    } else {
        listed.join(", ")
    }
}

fn serialized_counts(v: impl serde::Serialize) -> String {
    match serde_json::to_value(v) {
        Ok(Value::Object(map)) => counts(&map),
        _ => String::new(),
    }
}

pub fn resources(r: &ResourceCounts) -> String {
    serialized_counts(r)
}

pub fn dev_cards(d: &DevCounts) -> String {
    serialized_counts(d)
}

/// The kinds of decision a seat is asked for, each once, in the engine's
/// order: `roll dice`, `build road`, ….
pub fn decisions(legal: &[LegalAction]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for action in legal {
        let kind = serde_json::to_value(action)
            .ok()
            .and_then(|v| v.get("type").and_then(Value::as_str).map(words));
        if let Some(kind) = kind
            && !out.contains(&kind)
        {
            out.push(kind);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexpost_engine::Seat;

    fn names() -> Names {
        Names(["Ada".into(), "Grace".into()])
    }

    #[test]
    fn events_read_as_sentences() {
        let rolled = Event::DiceRolled {
            seat: Seat(0),
            dice: [3, 4],
            total: 7,
        };
        assert_eq!(
            event(&rolled, &names()),
            "Ada: dice rolled (dice 3 and 4, total 7)"
        );
        let stole = Event::Stole {
            thief: Seat(1),
            victim: Seat(0),
            resource: Some(hexpost_engine::Resource::Ore),
        };
        assert_eq!(
            event(&stole, &names()),
            "Stole (resource ore, thief Grace, victim Ada)"
        );
    }

    #[test]
    fn what_redaction_hides_is_not_described() {
        use hexpost_engine::Redact;
        let bought = Event::DevCardBought {
            seat: Seat(0),
            card: Some(hexpost_engine::DevCard::Knight),
        };
        assert!(event(&bought, &names()).contains("knight"));
        let shown = event(&bought.redacted_for(Some(Seat(1))), &names());
        assert_eq!(shown, "Ada: dev card bought");
    }

    #[test]
    fn hands_list_what_is_there() {
        let hand = ResourceCounts::new(2, 0, 0, 0, 1);
        assert_eq!(resources(&hand), "2 brick, 1 ore");
        assert_eq!(resources(&ResourceCounts::default()), "nothing");
    }
}
