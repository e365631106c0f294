//! The games this instance has just written, so that the next move of the
//! same game need not read it again: a turn is several moves in a row
//! (roll, build, trade, end), and each would otherwise begin by reading the
//! row, and parsing the state, that the one before it wrote.
//!
//! A copy may be stale: another instance, or a writer here that locks the
//! row (a reminder, a vacation, a resignation, the sweeper), may have
//! changed the game since. That is safe because a move is written only if
//! the game row is still the version it was computed from
//! (`store::change`); a move computed from a stale copy writes nothing,
//! and is then read and checked again from the database like any move
//! that lost a race. The copy never decides a refusal either: a move it
//! cannot apply is checked again against the database before the client
//! hears why.
//!
//! With the game the copy keeps what a "your move" mail needs when the
//! turn passes: the events of the last log rows, as current as the game
//! row, and the players' accounts, whose own version the write checks as
//! well (a player may change their mail settings on any instance).

use super::chain::RecentEvents;
use crate::store::games::GameRow;
use crate::store::users::User;
use hexpost_engine::GameState;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A game as this instance last wrote it.
pub struct CachedGame {
    pub game: GameRow,
    pub state: GameState,
    /// The users in seat 0 and 1 (they do not change once a game runs).
    pub seat_users: [i64; 2],
    /// The events of the game's last log rows, for the next "your move"
    /// mail.
    pub recent: RecentEvents,
    /// The players' accounts, once a move has read them for a mail; a
    /// move that uses them is written only if neither has changed.
    pub people: Option<Arc<[User; 2]>>,
}

pub struct GameCache {
    /// None when the cache is switched off (a capacity of 0).
    games: Option<quick_cache::sync::Cache<String, Arc<CachedGame>>>,
    /// Moves by how their copy served them, in `Used` order.
    moves: [AtomicU64; 3],
}

/// How a move used the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Used {
    /// The move was answered from the copy: one read fewer.
    Hit,
    /// There was a copy, but the move was read again from the database:
    /// the copy was stale, or the move was refused.
    ReadAgain,
    /// There was no copy.
    Miss,
}

impl Used {
    pub const ALL: [Used; 3] = [Used::Hit, Used::ReadAgain, Used::Miss];

    pub fn label(self) -> &'static str {
        match self {
            Used::Hit => "hit",
            Used::ReadAgain => "read_again",
            Used::Miss => "miss",
        }
    }
}

impl GameCache {
    /// Keeps up to `capacity` games, the least recently used going first.
    pub fn new(capacity: usize) -> GameCache {
        GameCache {
            games: (capacity > 0).then(|| quick_cache::sync::Cache::new(capacity)),
            moves: Default::default(),
        }
    }

    pub fn count(&self, used: Used) {
        self.moves[used as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The moves counted so far with `used`.
    pub fn counted(&self, used: Used) -> u64 {
        self.moves[used as usize].load(Ordering::Relaxed)
    }

    /// How many games have a copy here now.
    pub fn kept(&self) -> usize {
        self.games.as_ref().map_or(0, |games| games.len())
    }

    pub fn get(&self, game_id: &str) -> Option<Arc<CachedGame>> {
        self.games.as_ref()?.get(game_id)
    }

    /// Keeps `game` as written; a game that is no longer active is
    /// dropped instead, as no move can follow.
    pub fn keep(&self, game: CachedGame) {
        let Some(games) = &self.games else { return };
        if game.game.status == crate::store::games::status::ACTIVE {
            games.insert(game.game.id.clone(), Arc::new(game));
        } else {
            games.remove(game.game.id.as_str());
        }
    }

    pub fn forget(&self, game_id: &str) {
        if let Some(games) = &self.games {
            games.remove(game_id);
        }
    }
}
