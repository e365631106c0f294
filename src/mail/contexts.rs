//! What each mail about a game says, as its templates get it: pure
//! functions of the game, the reader and what happened, so the same facts
//! always make the same mail (the snapshot and hidden-information tests
//! build mails with them as `service::notify` does).

use crate::commands;
use crate::describe::{self, Table};
use hexpost_engine::{Event, GameState, GameView, Seat};
use serde_json::{Value, json};

/// The most events one "your move" mail lists (the latest ones).
pub const MAX_EVENTS: usize = 60;

/// The most events of one game a digest lists (the latest ones).
pub const DIGEST_EVENTS: usize = 15;

/// Names the game a mail is about: its id (for the links) and variant.
pub fn about_game(context: &mut Value, game_id: &str, variant: &str) {
    context["game_id"] = game_id.into();
    context["variant"] = describe::variant(variant).into();
}

/// The invitation, to an address that may have no account yet.
pub fn invitation(inviter: &str, token: &str, time_limit_hours: i64) -> Value {
    json!({"inviter": inviter, "token": token, "time_limit_hours": time_limit_hours})
}

/// A mail of the account lifecycle: to `email`, for the account named
/// `player`, with `code` (empty: none) and the query of the web client's
/// link that enters it (`email=…&code=…`, in the link's fragment so that
/// no server's log holds it).
pub fn account(player: &str, email: &str, code: &str) -> Value {
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    let link_query = format!(
        "email={}&code={}",
        utf8_percent_encode(email, NON_ALPHANUMERIC),
        utf8_percent_encode(code, NON_ALPHANUMERIC)
    );
    json!({"player": player, "email": email, "code": code, "link_query": link_query})
}

/// The answer to a reply to an invitation that did not start the game:
/// declined, or why the reply was not taken (`failure`: code, detail).
pub fn invitation_answer(inviter: &str, failure: Option<(&str, &str)>) -> Value {
    json!({
        "inviter": inviter,
        "failure": failure.map(|(code, detail)| json!({"code": code, "detail": detail})),
    })
}

/// To the game's creator: `opponent` accepted.
pub fn accepted(player: &str, opponent: &str) -> Value {
    json!({"player": player, "opponent": opponent})
}

/// To the game's creator: the invitation to `invitee` was declined.
pub fn declined(player: &str, invitee: &str) -> Value {
    json!({"player": player, "invitee": invitee})
}

/// The digest: `games`, each made by [`digest_game`].
pub fn digest(player: &str, games: Vec<Value>) -> Value {
    json!({"player": player, "games": games})
}

/// One game of a digest: what its "your move" mail would say, with fewer
/// events.
pub fn digest_game(turn: &Turn, events: &[Event], game_id: &str, variant: &str) -> Value {
    let mut item = your_move(turn, events);
    if let Some(lines) = item["events"].as_array_mut() {
        let cut = lines.len().saturating_sub(DIGEST_EVENTS);
        lines.drain(..cut);
        let omitted = item["events_omitted"].as_u64().unwrap_or(0) + cut as u64;
        item["events_omitted"] = omitted.into();
    }
    about_game(&mut item, game_id, variant);
    item
}

/// Where a game stands for the player of `seat`.
pub struct Turn<'a> {
    pub state: &'a GameState,
    pub seat: Seat,
    pub table: &'a Table,
    pub move_number: i64,
    /// When the decision awaited from the reader times out, in their time.
    pub deadline: Option<String>,
}

impl Turn<'_> {
    fn player(&self) -> &str {
        &self.table.names()[self.seat.index()]
    }

    fn opponent(&self) -> &str {
        &self.table.names()[1 - self.seat.index()]
    }

    fn decisions(&self) -> Vec<String> {
        describe::decisions(&self.state.legal_actions(self.seat), self.table)
    }

    /// The codes a reply may use for these decisions.
    fn commands(&self) -> Vec<commands::MenuLine> {
        commands::menu(&self.state.legal_actions(self.seat), self.table)
    }
}

/// "Your move", and each game of a digest: the decision and its deadline,
/// the `events` since the reader's last decision (as they may see them),
/// their hand and the scores.
pub fn your_move(turn: &Turn, events: &[Event]) -> Value {
    let (lines, omitted) = latest_lines(events, turn.seat, turn.table);
    let view = turn.state.view(Some(turn.seat));
    let own = view.you.as_ref();
    let hand = |f: fn(&hexpost_engine::view::OwnHand) -> String| own.map(f);
    json!({
        "player": turn.player(),
        "opponent": turn.opponent(),
        "move_number": turn.move_number,
        "decisions": turn.decisions(),
        "commands": turn.commands(),
        "deadline": turn.deadline,
        "events": lines,
        "events_omitted": omitted,
        "hand": hand(|h| describe::cards(&h.resources)),
        "dev_cards": hand(|h| describe::dev_cards(&h.dev_cards)),
        "new_dev_cards": hand(|h| describe::dev_cards(&h.new_dev_cards)),
        "holdings": describe::holdings(&view, turn.seat),
        "your_vp": own.map(|h| h.total_vp),
        "scores": scores(&view, turn.table, |p| p.visible_vp),
    })
}

/// The answer to a reply mail (`inbound`): `report` (what the reply
/// applied, or why it stopped), then the game as "your move" shows it, and
/// while it runs, the commands the reader may give now.
pub fn answer(turn: &Turn, events: &[Event], running: bool, report: Value) -> Value {
    let mut context = your_move(turn, events);
    let legal = if running {
        turn.state.legal_actions(turn.seat)
    } else {
        Vec::new()
    };
    context["menu"] = json!(crate::commands::menu(&legal, turn.table));
    context["status"] = if running { "active" } else { "over" }.into();
    if let (Some(context), Value::Object(report)) = (context.as_object_mut(), report) {
        context.extend(report);
    }
    context
}

/// The answer to a mail that was not read as a reply: why (`code`, and a
/// sentence).
pub fn refusal(player: &str, code: &str, detail: &str) -> Value {
    json!({"player": player, "code": code, "detail": detail})
}

/// A reminder that the deadline approaches.
pub fn reminder(turn: &Turn, hours_left: i64, forfeit: bool) -> Value {
    json!({
        "player": turn.player(),
        "opponent": turn.opponent(),
        "move_number": turn.move_number,
        "deadline": turn.deadline,
        "hours_left": hours_left,
        "decisions": turn.decisions(),
        "commands": turn.commands(),
        "forfeit": forfeit,
    })
}

/// How a timeout left the reader's count of automatic decisions.
pub struct Automatic {
    pub in_a_row: u32,
    pub max: i32,
}

/// What the server decided for the reader when their time ran out
/// (`taken`: its events), and what is awaited now (`over`: the game ended,
/// by the engine or by a forfeit).
pub fn timeout(turn: &Turn, taken: &[Event], automatic: Automatic, over: bool) -> Value {
    let again = !over && turn.state.winner.is_none() && turn.state.awaiting().contains(&turn.seat);
    json!({
        "player": turn.player(),
        "opponent": turn.opponent(),
        "move_number": turn.move_number,
        "taken": taken
            .iter()
            .map(|e| describe::event(e, Some(turn.seat), turn.table))
            .collect::<Vec<_>>(),
        "automatic_in_a_row": automatic.in_a_row,
        "max_auto_decisions": automatic.max,
        "your_turn_again": again,
        "decisions": if again { turn.decisions() } else { Vec::new() },
        "commands": if again { turn.commands() } else { Vec::new() },
        "deadline": turn.deadline,
        "over": over,
    })
}

/// How a finished game ended and how to check it.
pub struct Ending<'a> {
    /// "Ada won", "Bob resigned, Ada won".
    pub result: &'a str,
    pub seed: &'a str,
    pub seed_hash: &'a str,
}

/// The last `MAX_EVENTS` of `events` in sentences, as `reader` may know
/// them, and how many earlier ones were left out.
fn latest_lines(events: &[Event], reader: Seat, table: &Table) -> (Vec<String>, usize) {
    let omitted = events.len().saturating_sub(MAX_EVENTS);
    let lines = events[omitted..]
        .iter()
        .map(|e| describe::event(e, Some(reader), table))
        .collect();
    (lines, omitted)
}

/// Game over, to the player of `reader`: the result, the `events` that
/// ended it (since the reader's last decision, or from it when it was the
/// last move; as they may see them), the final scores and the seed, now
/// public.
pub fn game_over(
    state: &GameState,
    reader: Seat,
    table: &Table,
    ending: &Ending,
    events: &[Event],
) -> Value {
    let view = state.view(None);
    let (lines, omitted) = latest_lines(events, reader, table);
    json!({
        "player": table.names()[reader.index()],
        "opponent": table.names()[1 - reader.index()],
        "result": ending.result,
        "events": lines,
        "events_omitted": omitted,
        "scores": scores(&view, table, |p| p.final_vp.unwrap_or(p.visible_vp)),
        "seed": ending.seed,
        "seed_hash": ending.seed_hash,
    })
}

/// `Ada 7 VP` for each real seat.
fn scores(
    view: &GameView,
    table: &Table,
    vp: impl Fn(&hexpost_engine::view::PublicPlayer) -> u8,
) -> Vec<String> {
    view.players
        .iter()
        .filter(|p| p.seat.is_real())
        .map(|p| format!("{} {} VP", table.seat(p.seat), vp(p)))
        .collect()
}
