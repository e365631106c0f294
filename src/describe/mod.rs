//! The one wording of the game: a sentence per event and a phrase per
//! decision, read the same in the mails, the web client (the `text` of log
//! rows) and the replies of play by e-mail. Every function here is pure: what
//! it says depends on the event, its reader, the players' names and the
//! board, nothing else.
//!
//! An event is redacted for its reader before it is described, so a
//! sentence never says more than that reader may know ("Bob bought a
//! development card", never which).

mod cards;
mod cities_knights;
mod core_game;
mod decisions;
mod holdings;
mod places;
mod position;
mod variants;

pub use cards::{cards, dev_cards};
pub use decisions::{decision, decisions};
pub use holdings::holdings;
pub use position::{Outlined, position};

use hexpost_engine::board::Board;
use hexpost_engine::seats::SeatKind;
use hexpost_engine::{Event, GameState, GameView, Redact, Seat};

/// What a sentence may name: the players, the automated seats and the board.
#[derive(Clone, Debug)]
pub struct Table {
    /// The real players' display names, by seat.
    names: [String; 2],
    /// Every seat's kind, by seat.
    kinds: Vec<SeatKind>,
    board: Board,
}

/// The colours of the automated seats, by seat (the first two are the
/// real players'), as the web client draws them.
const COLOURS: [&str; 4] = ["red", "blue", "white", "orange"];

/// The colour `seat` plays in, if it has one.
pub fn seat_colour(seat: Seat) -> Option<&'static str> {
    COLOURS.get(seat.index()).copied()
}

/// An automated seat by its kind and colour: "neutral white", "fictional
/// orange".
pub fn automated_seat(seat: Seat, kind: SeatKind) -> String {
    let colour = seat_colour(seat).map_or_else(|| format!("seat {}", seat.0), str::to_string);
    match kind {
        SeatKind::Fictional => format!("fictional {colour}"),
        _ => format!("neutral {colour}"),
    }
}

impl Table {
    pub fn new(names: [String; 2], kinds: Vec<SeatKind>, board: Board) -> Table {
        Table {
            names,
            kinds,
            board,
        }
    }

    pub fn of_state(names: [String; 2], state: &GameState) -> Table {
        let kinds = state.players.iter().map(|p| p.kind).collect();
        Table::new(names, kinds, state.board.clone())
    }

    pub fn of_view(names: [String; 2], view: &GameView) -> Table {
        let kinds = view.players.iter().map(|p| p.kind).collect();
        Table::new(names, kinds, view.board.clone())
    }

    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// A real player by name, an automated seat by its kind and colour:
    /// "neutral white", "fictional orange".
    pub fn seat(&self, seat: Seat) -> String {
        if let Some(name) = self.names.get(seat.index()) {
            return name.clone();
        }
        let kind = self.kinds.get(seat.index()).copied();
        automated_seat(seat, kind.unwrap_or(SeatKind::Neutral))
    }

    /// "Ada's", "neutral white's".
    fn seats(&self, seat: Seat) -> String {
        format!("{}'s", self.seat(seat))
    }

    fn board(&self) -> &Board {
        &self.board
    }
}

/// `event` in one sentence, as `reader` may know it (None: as the public
/// sees it; an admin's whole log describes the event as it is, with
/// [`event_unredacted`]).
pub fn event(event: &Event, reader: Option<Seat>, table: &Table) -> String {
    event_unredacted(&event.redacted_for(reader), table)
}

/// `event` in one sentence, everything it carries said: for an event
/// already redacted for its reader, or for a reader who sees everything.
pub fn event_unredacted(event: &Event, table: &Table) -> String {
    let text = core_game::sentence(event, table)
        .or_else(|| variants::sentence(event, table))
        .or_else(|| cities_knights::sentence(event, table))
        .unwrap_or_else(|| "Something happened.".into());
    capitalised(&text)
}

/// "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A variant as a sentence names it: "Cities & Knights for two".
pub fn variant(id: &str) -> String {
    match id {
        "catan_for_two" => "Catan for two".into(),
        "neutral_trader" => "neutral trader".into(),
        "shadow" => "shadow players".into(),
        "ck_for_two" => "Cities & Knights for two".into(),
        other => words(other),
    }
}

/// `dice_rolled` → `dice rolled`: a wire name as words.
pub fn words(snake: &str) -> String {
    snake.replace('_', " ")
}

#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod tests;
