//! Steering a game served over the API to a position that random play
//! reaches only by luck. The server draws each game's seed, so the test
//! reads the game's stored state (its dice and decks to come included),
//! searches with the engine for moves that lead to the position, and then
//! makes exactly those moves over the API, where the same engine gives the
//! same results. Nothing is written to the database behind the server's
//! back; the moves are ordinary requests of the two players.

use super::{Api, TestServer, game};
use hexpost_engine::rng::GameRng;
use hexpost_engine::{Action, GameState, LegalAction, Seat};
use serde_json::Value;

/// Chooses `seat`'s action from its legal list.
pub type Policy = fn(&GameState, Seat, &[LegalAction], &mut GameRng) -> Option<Action>;

/// How many continuations `reach` searches before it gives up.
pub const TRIES: u64 = 400;

pub struct Steer<'a> {
    server: &'a TestServer,
    players: [&'a Api; 2],
    /// The index into `players` of each seat.
    by_seat: [usize; 2],
    id: String,
    /// The state the server holds now.
    pub state: GameState,
    move_number: i64,
}

impl<'a> Steer<'a> {
    pub fn new(server: &'a TestServer, players: [&'a Api; 2], id: &str) -> Steer<'a> {
        let first = game(players[0], id);
        let by_seat = if first["your_seat"] == 0 {
            [0, 1]
        } else {
            [1, 0]
        };
        Steer {
            server,
            players,
            by_seat,
            id: id.to_string(),
            state: stored_state(server, id),
            move_number: first["move_number"].as_i64().unwrap(),
        }
    }

    /// The index into the players given to `new` of `seat`'s player.
    pub fn who(&self, seat: Seat) -> usize {
        self.by_seat[seat.index()]
    }

    pub fn player(&self, seat: Seat) -> &'a Api {
        self.players[self.who(seat)]
    }

    pub fn move_number(&self) -> i64 {
        self.move_number
    }

    /// Searches continuations of the game, each with its own stream of
    /// `policy`'s choices and at most `max_actions` long, for the first
    /// state where `goal` finds what it wants; makes that continuation's
    /// moves over the API and returns what `goal` found.
    pub fn reach<T>(
        &mut self,
        policy: Policy,
        max_actions: usize,
        goal: impl Fn(&GameState) -> Option<T>,
    ) -> T {
        self.try_reach(TRIES, policy, max_actions, goal)
            .unwrap_or_else(|| panic!("no continuation of {TRIES} reached the position"))
    }

    /// `reach`, giving up after `tries` continuations.
    pub fn try_reach<T>(
        &mut self,
        tries: u64,
        policy: Policy,
        max_actions: usize,
        goal: impl Fn(&GameState) -> Option<T>,
    ) -> Option<T> {
        let (path, found) =
            (0..tries).find_map(|attempt| self.search(attempt, policy, max_actions, &goal))?;
        for (seat, action) in &path {
            self.play(*seat, action);
        }
        assert_eq!(
            serde_json::to_value(&self.state).unwrap(),
            serde_json::from_str::<Value>(&stored_text(self.server, &self.id)).unwrap(),
            "the server went elsewhere"
        );
        Some(found)
    }

    /// Reads the game again after the server moved it on by itself (the
    /// deadline sweeper).
    pub fn resync(&mut self) {
        self.state = stored_state(self.server, &self.id);
        let seen = game(self.players[0], &self.id);
        self.move_number = seen["move_number"].as_i64().unwrap();
    }

    fn search<T>(
        &self,
        attempt: u64,
        policy: Policy,
        max_actions: usize,
        goal: &impl Fn(&GameState) -> Option<T>,
    ) -> Option<(Vec<(Seat, Action)>, T)> {
        let mut state = self.state.clone();
        let mut choices = GameRng::from_seed(attempt);
        let mut path = Vec::new();
        for _ in 0..max_actions {
            if let Some(found) = goal(&state) {
                return Some((path, found));
            }
            let seat = *state.awaiting().first()?;
            let legal = state.legal_actions(seat);
            let action = policy(&state, seat, &legal, &mut choices)?;
            // The lists hide the bank: a listed action may still be refused.
            if state.apply(seat, &action).is_ok() {
                path.push((seat, action));
            }
        }
        None
    }

    /// Makes `seat`'s move over the API; the local state follows.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Value {
        let body = serde_json::to_value(action).unwrap();
        let out = self
            .player(seat)
            .submit(&self.id, self.move_number, &body)
            .ok()
            .clone();
        self.state.apply(seat, action).unwrap();
        self.move_number = out["move_number"].as_i64().unwrap();
        out
    }
}

fn stored_text(server: &TestServer, id: &str) -> String {
    let mut conn = server.db().get().unwrap();
    let row = hexpost::store::games::get(&mut conn, id).unwrap().unwrap();
    row.state.unwrap()
}

fn stored_state(server: &TestServer, id: &str) -> GameState {
    serde_json::from_str(&stored_text(server, id)).unwrap()
}

/// A player who buys improvements and keeps every progress card drawn
/// (`sim::improver_action` without playing them): progress hands fill up.
pub fn collector(
    s: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    rng: &mut GameRng,
) -> Option<Action> {
    let keep: Vec<LegalAction> = legal
        .iter()
        .filter(|l| !matches!(l, LegalAction::PlayProgress { .. }))
        .cloned()
        .collect();
    hexpost_engine::sim::improver_action(s, seat, &keep, rng)
}

/// The first awaited seat's probe that the engine refuses with `code`.
pub fn refused_with(
    state: &GameState,
    code: &str,
    probes: impl Fn(&GameState, Seat) -> Vec<Action>,
) -> Option<(Seat, Action)> {
    state.awaiting().iter().find_map(|&seat| {
        probes(state, seat)
            .into_iter()
            .find(|a| {
                state
                    .clone()
                    .apply(seat, a)
                    .is_err_and(|e| e.code() == code)
            })
            .map(|a| (seat, a))
    })
}
