//! Use cases. Each public function runs in one database transaction and
//! returns what the API sends back; the API layer only maps HTTP to these.

pub mod archive;
pub mod audit;
pub mod chain;
pub mod games;
pub mod housekeeping;
pub mod moves;
pub mod notify;

use crate::api::problem::ApiError;
use crate::store::games::GameRow;
use hexpost_engine::{GameConfig, GameState};

/// Loads the engine state of an active or finished game.
pub fn engine_state(game: &GameRow) -> Result<GameState, ApiError> {
    let text = game
        .state
        .as_deref()
        .ok_or_else(|| ApiError::conflict("game_not_started", "the game has not started yet"))?;
    serde_json::from_str(text)
        .map_err(|e| ApiError::internal(format!("game {} state: {e}", game.id)))
}

pub fn game_config(game: &GameRow) -> Result<GameConfig, ApiError> {
    serde_json::from_str(&game.config)
        .map_err(|e| ApiError::internal(format!("game {} config: {e}", game.id)))
}
