//! Use cases. Each public function runs in one database transaction and
//! returns what the API sends back; the API layer only maps HTTP to these.

pub mod account_data;
pub mod accounts;
pub mod archive;
pub mod audit;
pub mod chain;
pub mod commitments;
pub mod deadlines;
pub mod email;
pub mod feed;
pub mod game_cache;
pub mod games;
pub mod housekeeping;
pub mod moves;
pub mod notify;
pub mod sessions;
pub mod timeouts;
pub mod whole_numbers;

use crate::error::Error;
use crate::store::games::GameRow;
use hexpost_engine::{GameConfig, GameState};

/// The moment a use case runs at (from the server's clock), with the
/// settings its rules need: a decision's clock, the pace of "your move"
/// mails, the bound on invitations.
#[derive(Clone, Copy, Debug)]
pub struct Now {
    pub at: i64,
    /// See `config::DeadlineConfig::reminder_percent`.
    pub reminder_percent: u32,
    /// See `config::DeadlineConfig::turn_mail`.
    pub turn_mail: crate::config::TurnMailPacing,
    /// Invitations an account may send in a day to addresses without an
    /// account (`INVITATIONS_PER_DAY`); 0 sets no bound.
    pub invitations_per_day: i64,
}

impl Now {
    /// A moment with the default settings (the CLI, examples).
    pub fn at(at: i64) -> Now {
        Now {
            at,
            reminder_percent: 25,
            turn_mail: Default::default(),
            invitations_per_day: 0,
        }
    }

    pub fn limits(&self, game: &GameRow) -> deadlines::Limits {
        deadlines::Limits {
            decision_ms: game.time_limit_secs.saturating_mul(1000),
            remind_fraction: f64::from(self.reminder_percent) / 100.0,
        }
    }
}

/// Loads the engine state of an active or finished game.
pub fn engine_state(game: &GameRow) -> Result<GameState, Error> {
    let text = game
        .state
        .as_deref()
        .ok_or_else(|| Error::conflict("game_not_started", "the game has not started yet"))?;
    serde_json::from_str(text).map_err(|e| Error::internal(format!("game {} state: {e}", game.id)))
}

pub fn game_config(game: &GameRow) -> Result<GameConfig, Error> {
    serde_json::from_str(&game.config)
        .map_err(|e| Error::internal(format!("game {} config: {e}", game.id)))
}
