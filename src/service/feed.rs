//! Signals that a game changed, fanned out in-process to the live event
//! streams (`api::streams`). A signal says only which game is at which
//! move number, in which status, and whom it awaits: each stream reads
//! what it shows from the log, redacted for its reader, so a signal carries
//! nothing hidden and a lost or merged one costs only a later read.
//!
//! On PostgreSQL a move's signal goes out with its write
//! (`store::change`), any other change's is announced with `pg_notify`
//! after it was committed, and every instance's listener
//! (`workers::feed_listener`) publishes it to its own streams, this one's
//! included; on SQLite, one instance by nature, it is published here
//! directly.

use crate::error::Error;
use crate::store::DbConnection;
use crate::store::games::{self as db, GameRow};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// The PostgreSQL channel the signals travel on.
pub const CHANNEL: &str = crate::store::change::SIGNAL_CHANNEL;

/// A game's state after a change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSignal {
    pub game: String,
    pub move_number: i64,
    pub status: String,
    /// The accounts the game awaits.
    pub awaiting: Vec<i64>,
    /// The accounts seated in the game.
    pub players: Vec<i64>,
}

/// Signals an account stream has not read yet, at most `INBOX_CAPACITY`;
/// past that the oldest are dropped and the stream is told to read its
/// games again.
pub struct AccountInbox {
    queue: Mutex<Inbox>,
    wake: Notify,
}

#[derive(Default)]
struct Inbox {
    signals: VecDeque<GameSignal>,
    overflowed: bool,
}

const INBOX_CAPACITY: usize = 64;

impl AccountInbox {
    /// The signals queued, and whether some were dropped before them.
    pub fn take(&self) -> (Vec<GameSignal>, bool) {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        let overflowed = std::mem::take(&mut q.overflowed);
        (q.signals.drain(..).collect(), overflowed)
    }

    /// Woken when a signal is queued.
    pub fn wake(&self) -> &Notify {
        &self.wake
    }

    fn push(&self, signal: GameSignal) {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        if q.signals.len() == INBOX_CAPACITY {
            q.signals.pop_front();
            q.overflowed = true;
        }
        q.signals.push_back(signal);
        drop(q);
        self.wake.notify_one();
    }
}

/// The streams this instance holds, by what they watch.
pub struct Feed {
    per_user: usize,
    /// Streams this instance holds at most, whoever holds them.
    max_total: usize,
    inner: Mutex<Watchers>,
    closing: tokio_util::sync::CancellationToken,
}

#[derive(Default)]
struct Watchers {
    next: u64,
    games: HashMap<String, Vec<(u64, Arc<Notify>)>>,
    accounts: HashMap<i64, Vec<(u64, Arc<AccountInbox>)>>,
    open: HashMap<i64, usize>,
    total: usize,
}

impl Feed {
    /// A feed allowing `per_user` streams per account, and `max_total` in
    /// all, at once.
    pub fn new(per_user: usize, max_total: usize) -> Feed {
        Feed {
            per_user,
            max_total,
            inner: Mutex::default(),
            closing: Default::default(),
        }
    }

    /// Cancelled when the server begins to stop: every stream ends.
    pub fn closing(&self) -> &tokio_util::sync::CancellationToken {
        &self.closing
    }

    fn watchers(&self) -> std::sync::MutexGuard<'_, Watchers> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Wakes every stream that watches the signal's game or one of its
    /// players' accounts. Never blocks: a game stream's wake-ups merge into
    /// one, an account's inbox is bounded.
    pub fn publish(&self, signal: &GameSignal) {
        let w = self.watchers();
        for (_, wake) in w.games.get(&signal.game).into_iter().flatten() {
            wake.notify_one();
        }
        for user in &signal.players {
            for (_, inbox) in w.accounts.get(user).into_iter().flatten() {
                inbox.push(signal.clone());
            }
        }
    }

    /// A place for one more stream of `user`, refused past the cap.
    pub fn open(self: &Arc<Self>, user: i64) -> Result<Slot, Error> {
        if self.closing.is_cancelled() {
            return Err(Error::unavailable("the server is stopping; connect again"));
        }
        let mut w = self.watchers();
        if w.total >= self.max_total {
            return Err(Error::streams_full(self.max_total));
        }
        let open = w.open.entry(user).or_default();
        if *open >= self.per_user {
            return Err(Error::too_many_streams(self.per_user));
        }
        *open += 1;
        w.total += 1;
        w.next += 1;
        Ok(Slot {
            feed: self.clone(),
            user,
            id: w.next,
            watching: None,
        })
    }

    /// How many streams `user` holds open on this instance.
    pub fn open_streams(&self, user: i64) -> usize {
        self.watchers().open.get(&user).copied().unwrap_or(0)
    }
}

enum Watching {
    Game(String),
    Account,
}

/// One open stream: it counts against its account's cap, and stops being
/// woken, when dropped (the client went away).
pub struct Slot {
    feed: Arc<Feed>,
    user: i64,
    id: u64,
    watching: Option<Watching>,
}

impl Slot {
    /// Woken whenever `game` changes.
    pub fn watch_game(&mut self, game: &str) -> Arc<Notify> {
        let wake = Arc::new(Notify::new());
        let mut w = self.feed.watchers();
        w.games
            .entry(game.to_string())
            .or_default()
            .push((self.id, wake.clone()));
        self.watching = Some(Watching::Game(game.to_string()));
        wake
    }

    /// Receives the signals of the account's games.
    pub fn watch_account(&mut self) -> Arc<AccountInbox> {
        let inbox = Arc::new(AccountInbox {
            queue: Mutex::default(),
            wake: Notify::new(),
        });
        let mut w = self.feed.watchers();
        w.accounts
            .entry(self.user)
            .or_default()
            .push((self.id, inbox.clone()));
        self.watching = Some(Watching::Account);
        inbox
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut w = self.feed.watchers();
        w.total = w.total.saturating_sub(1);
        if let Some(open) = w.open.get_mut(&self.user) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                w.open.remove(&self.user);
            }
        }
        let id = self.id;
        match self.watching.take() {
            Some(Watching::Game(game)) => remove(&mut w.games, &game, id),
            Some(Watching::Account) => remove(&mut w.accounts, &self.user, id),
            None => {}
        }
    }
}

fn remove<K: std::hash::Hash + Eq, T>(map: &mut HashMap<K, Vec<(u64, T)>>, key: &K, id: u64) {
    if let Some(list) = map.get_mut(key) {
        list.retain(|(i, _)| *i != id);
        if list.is_empty() {
            map.remove(key);
        }
    }
}

impl GameSignal {
    /// The signal of `game` as written, seated by `players`.
    pub fn of(game: &GameRow, players: Vec<i64>) -> GameSignal {
        GameSignal {
            game: game.id.clone(),
            move_number: game.move_number,
            status: game.status.clone(),
            awaiting: game
                .awaiting
                .split(',')
                .filter_map(|u| u.parse().ok())
                .collect(),
            players,
        }
    }
}

/// The signal of `game_id` as it is stored now.
pub fn signal_of(conn: &mut DbConnection, game_id: &str) -> Result<Option<GameSignal>, Error> {
    let Some((game, seats)) = db::with_seats(conn, game_id, false)? else {
        return Ok(None);
    };
    Ok(Some(GameSignal::of(
        &game,
        seats.into_iter().flatten().collect(),
    )))
}

/// A change whose signal went with its write (`store::change::Change`'s
/// `signal`): PostgreSQL sent it as the change committed; SQLite, one
/// instance by nature, publishes it here.
pub fn written(conn: &DbConnection, feed: &Feed, signal: &GameSignal) {
    if let DbConnection::Sqlite(_) = conn {
        feed.publish(signal);
    }
}

/// Announces that `game_id` changed; call it once the change is committed.
/// A failure is logged, never the caller's: the change stands, and streams
/// find it at their next heartbeat.
pub fn announce(conn: &mut DbConnection, feed: &Feed, game_id: &str) {
    if let Err(e) = try_announce(conn, feed, game_id) {
        tracing::warn!(game = game_id, error = %e, "a game change was not announced");
    }
}

fn try_announce(conn: &mut DbConnection, feed: &Feed, game_id: &str) -> Result<(), Error> {
    use diesel::RunQueryDsl;
    let Some(signal) = signal_of(conn, game_id)? else {
        return Ok(());
    };
    match conn {
        DbConnection::Pg(pg) => {
            let payload = serde_json::to_string(&signal).map_err(Error::internal)?;
            diesel::sql_query("SELECT pg_notify($1, $2)")
                .bind::<diesel::sql_types::Text, _>(CHANNEL)
                .bind::<diesel::sql_types::Text, _>(payload)
                .execute(pg)
                .map_err(Error::internal)?;
        }
        DbConnection::Sqlite(_) => feed.publish(&signal),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    fn signal(n: i64) -> GameSignal {
        GameSignal {
            game: "g".into(),
            move_number: n,
            status: "active".into(),
            awaiting: vec![1],
            players: vec![1, 2],
        }
    }

    #[test]
    fn an_unread_inbox_keeps_the_newest_signals_and_says_it_dropped_some() {
        let feed = Arc::new(Feed::new(2, 100));
        let mut slot = feed.open(1).unwrap();
        let inbox = slot.watch_account();
        for n in 0..(INBOX_CAPACITY as i64 + 10) {
            feed.publish(&signal(n));
        }
        let (signals, overflowed) = inbox.take();
        assert!(overflowed);
        assert_eq!(signals.len(), INBOX_CAPACITY);
        assert_eq!(signals[0].move_number, 10);
        let (rest, overflowed) = inbox.take();
        assert!(rest.is_empty() && !overflowed);
    }

    #[test]
    fn the_cap_counts_open_slots_and_a_dropped_one_frees_its_place() {
        let feed = Arc::new(Feed::new(2, 100));
        let a = feed.open(1).unwrap();
        let _b = feed.open(1).unwrap();
        assert_eq!(feed.open(1).err().unwrap().code, "too_many_streams");
        assert!(feed.open(2).is_ok(), "another account has its own cap");
        drop(a);
        assert_eq!(feed.open_streams(1), 1);
        assert!(feed.open(1).is_ok());
    }

    #[test]
    fn the_instance_cap_counts_every_accounts_streams() {
        let feed = Arc::new(Feed::new(2, 3));
        let kept: Vec<Slot> = (0..3).map(|user| feed.open(user).unwrap()).collect();
        let full = feed.open(9).err().unwrap();
        assert_eq!((full.code, full.status.as_u16()), ("streams_full", 503));
        assert_eq!(full.retry_after, Some(30));
        drop(kept);
        assert!(feed.open(9).is_ok(), "closed streams free their places");
    }

    #[test]
    fn a_game_stream_is_woken_only_by_its_game_and_stops_being_woken_when_dropped() {
        let feed = Arc::new(Feed::new(2, 100));
        let mut slot = feed.open(1).unwrap();
        let wake = slot.watch_game("g");
        let mut other = signal(1);
        other.game = "h".into();
        feed.publish(&other);
        assert!(wake.notified().now_or_never().is_none());
        feed.publish(&signal(1));
        feed.publish(&signal(2));
        assert!(wake.notified().now_or_never().is_some());
        // Two signals merged into one wake-up.
        assert!(wake.notified().now_or_never().is_none());
        drop(slot);
        assert!(feed.watchers().games.is_empty());
    }
}
