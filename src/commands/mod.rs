//! The short text commands a player writes in a reply mail, one per line,
//! and the menu of them a mail lists: `R` rolls the dice, `E` ends the
//! turn. Codes are case-insensitive.

use crate::describe::Table;
use hexpost_engine::{Action, LegalAction};

/// One line of a mail's menu: what to write, and what it does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MenuLine {
    pub code: String,
    pub text: String,
}

/// Why a line is not a command the player may give now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub code: &'static str,
    pub detail: String,
}

/// The commands `legal` allows, in the order the engine lists them.
pub fn menu(legal: &[LegalAction], _table: &Table) -> Vec<MenuLine> {
    legal
        .iter()
        .filter_map(|action| match action {
            LegalAction::RollDice => Some(("R", "roll the dice")),
            LegalAction::EndTurn => Some(("E", "end your turn")),
            _ => None,
        })
        .map(|(code, text)| MenuLine {
            code: code.into(),
            text: text.into(),
        })
        .collect()
}

/// The action `line` asks for, if it is one of `legal`.
pub fn parse(line: &str, legal: &[LegalAction]) -> Result<Action, CommandError> {
    let (action, allowed) = match line.trim().to_ascii_uppercase().as_str() {
        "R" => (Action::RollDice, legal.contains(&LegalAction::RollDice)),
        "E" => (Action::EndTurn, legal.contains(&LegalAction::EndTurn)),
        _ => {
            return Err(CommandError {
                code: "unknown_command",
                detail: format!("`{}` is not a command", line.trim()),
            });
        }
    };
    if allowed {
        Ok(action)
    } else {
        Err(CommandError {
            code: "not_allowed_now",
            detail: format!(
                "`{}` is not among the commands you may give now",
                line.trim()
            ),
        })
    }
}

/// The command that stands for `action`.
pub fn encode(action: &Action) -> String {
    match action {
        Action::RollDice => "R".into(),
        Action::EndTurn => "E".into(),
        other => format!("{other:?}"),
    }
}
