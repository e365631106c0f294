//! The commands of play by e-mail: the short lines a player writes in a
//! reply (`R`, `S14`, `T wool ore`, `K 12 bob`), and the menu a mail shows
//! of them. Pure: a line and the seat's legal actions in, an [`Action`] or
//! a [`CommandError`] out, so the inbound mail, the web client and the API
//! can all read and show the same codes. docs/play-by-email.md is the
//! grammar's reference.

mod encode;
mod menu;
mod parse;
mod words;

pub use encode::encode;
pub use menu::{MenuLine, menu};
pub use parse::{parse, parse_for};

use std::fmt;

/// Why a command line was not read as a legal action. `code` is stable and
/// machine-readable, like the API's problem codes; `detail` says in words
/// what was wrong and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub code: &'static str,
    pub detail: String,
}

impl CommandError {
    pub fn new(code: &'static str, detail: impl Into<String>) -> CommandError {
        CommandError {
            code,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.detail)
    }
}

impl std::error::Error for CommandError {}

/// Every code a [`CommandError`] may carry, for documentation and tests.
pub const ERROR_CODES: [&str; 20] = [
    "empty_command",
    "unknown_command",
    "not_legal_now",
    "ambiguous_command",
    "missing_argument",
    "extra_argument",
    "bad_number",
    "bad_node",
    "bad_edge",
    "bad_hex",
    "unknown_card",
    "ambiguous_card",
    "card_not_allowed",
    "wrong_count",
    "unknown_player",
    "ambiguous_player",
    "bad_player",
    "unknown_track",
    "unknown_progress_card",
    "bad_choice",
];

/// The answer to an invitation mail: a different context from a game's
/// decisions, so it has its own two words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvitationReply {
    Accept,
    Decline,
}

/// Reads the answer to an invitation: `ACCEPT` (or `YES`) and `DECLINE`
/// (or `NO`).
pub fn parse_invitation(line: &str) -> Result<InvitationReply, CommandError> {
    let words = words::split(line);
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => Err(CommandError::new("empty_command", "the line is empty")),
        ["accept" | "yes" | "a"] => Ok(InvitationReply::Accept),
        ["decline" | "no"] => Ok(InvitationReply::Decline),
        [word, ..] => Err(CommandError::new(
            "unknown_command",
            format!("\"{word}\" does not answer an invitation; write ACCEPT or DECLINE"),
        )),
    }
}
