//! One client of the load generator: two registered users who play game
//! after game against each other, learning only from what the API serves.

use crate::player;
use hdrhistogram::Histogram;
use hexpost_engine::rng::GameRng;
use hexpost_engine::{GameView, LegalAction};
use reqwest::Client;
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// What one client measured.
pub struct Tally {
    pub moves: u64,
    /// Move latency in microseconds.
    pub latency: Histogram<u64>,
    pub games_finished: u64,
    /// Moves the rules refused (the random player may offer a trade the
    /// bank cannot serve); expected, and not timed.
    pub rejected: u64,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            moves: 0,
            // 1 µs to 60 s at three significant digits.
            latency: Histogram::new_with_bounds(1, 60_000_000, 3).expect("valid bounds"),
            games_finished: 0,
            rejected: 0,
        }
    }
}

impl Tally {
    pub fn merge(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.latency.add(&other.latency).expect("same bounds");
        self.games_finished += other.games_finished;
        self.rejected += other.rejected;
    }
}

pub struct Pair {
    http: Client,
    base: String,
    variant: String,
    /// Bearer tokens of the creator (seat of whoever the server put there)
    /// and of the invited opponent.
    tokens: [String; 2],
    opponent_email: String,
    rng: GameRng,
}

/// Whose turn it is in the current game, as last served.
struct Turn {
    who: usize,
    move_number: i64,
    view: GameView,
    legal: Vec<LegalAction>,
}

/// The part of a game or move answer a player acts on, parsed straight
/// into engine types: the generator shares the machine with the server,
/// so it should spend as little as it can.
#[derive(Deserialize)]
struct Served {
    status: String,
    move_number: i64,
    view: Option<GameView>,
    legal_actions: Vec<LegalAction>,
}

impl Pair {
    /// Two new players, their accounts made by the admin holding
    /// `admin_token`, each signed in.
    pub async fn register(
        http: Client,
        base: &str,
        admin_token: &str,
        name: &str,
        variant: &str,
        seed: u64,
    ) -> Result<Pair, String> {
        let mut tokens = Vec::new();
        for who in ["a", "b"] {
            let email = format!("{name}{who}@load.example");
            send(
                http.post(format!("{base}/api/v1/admin/users"))
                    .bearer_auth(admin_token)
                    .json(&json!({
                        "email": email,
                        "display_name": format!("{name}{who}"),
                        "password": "load test password",
                    })),
            )
            .await?;
            let body = send(http.post(format!("{base}/api/v1/auth/token")).json(&json!({
                "email": email,
                "password": "load test password",
            })))
            .await?;
            tokens.push(field_str(&body, "/access_token")?);
        }
        let [a, b] = <[String; 2]>::try_from(tokens).expect("two users");
        Ok(Pair {
            http,
            base: base.to_string(),
            variant: variant.to_string(),
            tokens: [a, b],
            opponent_email: format!("{name}b@load.example"),
            rng: GameRng::from_seed(seed),
        })
    }

    /// Plays until `until`, timing moves sent from `measure_from` on.
    pub async fn play(
        &mut self,
        measure_from: Instant,
        until: Instant,
        interval: Option<Duration>,
        offset: Option<Duration>,
    ) -> Result<Tally, String> {
        let mut tally = Tally::default();
        let mut due = interval.map(|_| Instant::now() + offset.unwrap_or_default());
        'games: while Instant::now() < until {
            let id = self.new_game().await?;
            let mut turn = self.whose_turn(&id, None).await?;
            loop {
                if let Some(d) = due {
                    let now = Instant::now();
                    if d > now {
                        tokio::time::sleep_until(d.into()).await;
                    }
                }
                let sent = due.unwrap_or_else(Instant::now);
                if sent >= until {
                    break 'games;
                }
                let action = player::choose_in(&turn.view, &turn.legal, &mut self.rng);
                let reply = self
                    .http
                    .post(format!("{}/api/v1/games/{id}/moves", self.base))
                    .bearer_auth(&self.tokens[turn.who])
                    .json(&json!({"expected_move_number": turn.move_number, "action": action}))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let status = reply.status().as_u16();
                let bytes = reply.bytes().await.map_err(|e| e.to_string())?;
                let done = Instant::now();
                if let (Some(d), Some(i)) = (due.as_mut(), interval) {
                    *d += i;
                }
                if status != 200 {
                    let body: Value = serde_json::from_slice(&bytes).unwrap_or_default();
                    if status == 422
                        && body.pointer("/reason/code") == Some(&json!("bank_shortage"))
                    {
                        tally.rejected += 1;
                        continue;
                    }
                    // Any other refusal means the server or this client is
                    // wrong, and the run's figures cannot be trusted.
                    return Err(format!("move answered {status}: {body}"));
                }
                let served: Served = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
                if sent >= measure_from {
                    tally.moves += 1;
                    let micros = done.duration_since(sent).as_micros() as u64;
                    tally.latency.saturating_record(micros.max(1));
                }
                if served.status != "active" {
                    tally.games_finished += 1;
                    continue 'games;
                }
                turn = match (served.view, served.legal_actions) {
                    (Some(view), legal) if !legal.is_empty() => Turn {
                        who: turn.who,
                        move_number: served.move_number,
                        view,
                        legal,
                    },
                    _ => self.whose_turn(&id, Some(1 - turn.who)).await?,
                };
            }
        }
        Ok(tally)
    }

    async fn new_game(&self) -> Result<String, String> {
        let created = send(
            self.http
                .post(format!("{}/api/v1/games", self.base))
                .bearer_auth(&self.tokens[0])
                .json(&json!({"variant": self.variant, "options": {}, "opponent_email": self.opponent_email})),
        )
        .await?;
        let id = field_str(&created, "/game/id")?;
        let token = field_str(&created, "/invite_token")?;
        send(
            self.http
                .post(format!("{}/api/v1/invitations/{token}/accept", self.base))
                .bearer_auth(&self.tokens[1])
                .json(&json!({})),
        )
        .await?;
        Ok(id)
    }

    /// Asks the server who is awaited, `first` before the other player.
    async fn whose_turn(&self, id: &str, first: Option<usize>) -> Result<Turn, String> {
        let order = match first {
            Some(w) => [w, 1 - w],
            None => [0, 1],
        };
        for who in order {
            let game: Served = serde_json::from_value(
                send(
                    self.http
                        .get(format!("{}/api/v1/games/{id}", self.base))
                        .bearer_auth(&self.tokens[who]),
                )
                .await?,
            )
            .map_err(|e| e.to_string())?;
            if let (Some(view), false) = (game.view, game.legal_actions.is_empty()) {
                return Ok(Turn {
                    who,
                    move_number: game.move_number,
                    view,
                    legal: game.legal_actions,
                });
            }
        }
        Err(format!("game {id} is active but nobody may act"))
    }
}

async fn send(request: reqwest::RequestBuilder) -> Result<Value, String> {
    let reply = request.send().await.map_err(|e| e.to_string())?;
    let status = reply.status();
    let body: Value = reply.json().await.map_err(|e| e.to_string())?;
    if status.is_success() {
        Ok(body)
    } else {
        Err(format!("{status}: {body}"))
    }
}

fn field_str(body: &Value, pointer: &str) -> Result<String, String> {
    body.pointer(pointer)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("no {pointer} in {body}"))
}
