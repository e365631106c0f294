//! Game lifecycle: create, invite, accept or decline, cancel, resign, and
//! reading games.

use super::Now;
use super::audit::{self, ServerAction};
use super::chain::{Entry, NewRows};
use super::deadlines::{ClockView, Clocks};
use super::notify;
use super::timeouts;
use super::{engine_state, game_config};
use crate::describe::{self, Table};
use crate::error::Error;
use crate::store::DbConnection;
use crate::store::games::{self as db, GameRow, ListFilter, status, timeout_policy};
use hexpost_engine::rng::GameRng;
use hexpost_engine::{GameConfig, GameState, LegalAction, Seat};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const DEFAULT_TIME_LIMIT_HOURS: u32 = 72;

#[derive(Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The variant id. (The schema is the engine's list of variants;
    /// the field is read as text so that another name is refused with
    /// `unknown_variant`, not a body error.)
    #[schema(value_type = hexpost_engine::Variant, example = "standard")]
    pub variant: String,
    /// Game options (RULES.md); omitted ones take the variant's preset.
    #[serde(default)]
    #[schema(value_type = Option<hexpost_engine::GameOptions>, example = json!({"vp_target": 12, "board": "random"}))]
    pub options: serde_json::Value,
    /// Time per decision, in hours (1 to 720). Default 72.
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(minimum = 1, maximum = 720)]
    pub time_limit_hours: Option<u32>,
    /// Sit in seat 0 (moves first) or 1; omitted: a roll-off decides.
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(minimum = 0, maximum = 1)]
    pub creator_seat: Option<u8>,
    /// Invite this address at once.
    #[schema(format = "email", max_length = 254)]
    pub opponent_email: Option<String>,
    /// What happens when a player's time for a decision runs out. Default
    /// `auto`.
    pub timeout_policy: Option<TimeoutPolicy>,
    /// With `auto`: the automatic decisions the server takes for a player
    /// in a row before their next timeout makes them forfeit (0 to 20).
    /// Default 3.
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(minimum = 0, maximum = 20)]
    pub max_auto_decisions: Option<u32>,
    /// Days of vacation each player may take in this game, which stop
    /// their clock (0 to 60). Default 7.
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(minimum = 0, maximum = 60)]
    pub vacation_days: Option<u32>,
}

/// `auto`: the server takes a safe decision for the late player (end the
/// turn, discard the first cards, decline, pass…; never spends, builds at
/// a cost, trades or plays a card) and logs it as automated; `forfeit`:
/// the late player loses.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[schema(example = "auto")]
pub enum TimeoutPolicy {
    Auto,
    Forfeit,
}

impl TimeoutPolicy {
    fn stored(self) -> &'static str {
        match self {
            TimeoutPolicy::Auto => timeout_policy::AUTO,
            TimeoutPolicy::Forfeit => timeout_policy::FORFEIT,
        }
    }

    fn from_stored(s: &str) -> TimeoutPolicy {
        if s == timeout_policy::FORFEIT {
            TimeoutPolicy::Forfeit
        } else {
            TimeoutPolicy::Auto
        }
    }
}

pub const DEFAULT_MAX_AUTO_DECISIONS: u32 = 3;
pub const DEFAULT_VACATION_DAYS: u32 = 7;

#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct PlayerInfo {
    pub seat: u8,
    pub user_id: i64,
    pub display_name: String,
}

#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    /// `open` (waiting for the opponent), `active`, `finished`, `cancelled`, `declined`.
    pub status: String,
    pub created_by: i64,
    pub players: Vec<PlayerInfo>,
    /// Your seat, when you play in this game.
    pub your_seat: Option<u8>,
    /// The number of log rows; send it as `expected_move_number`.
    pub move_number: i64,
    /// True when the game waits for a decision of yours.
    pub awaiting_you: bool,
    pub winner_seat: Option<u8>,
    pub time_limit_secs: i64,
    pub timeout_policy: TimeoutPolicy,
    pub max_auto_decisions: u32,
    pub vacation_days: u32,
    /// Each seat's deadline and vacation; empty before the game starts.
    pub clocks: Vec<ClockView>,
    pub created_at: i64,
    pub updated_at: i64,
    /// SHA-256 of the game's seed, published at creation.
    pub seed_hash: String,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct GameDetail {
    #[serde(flatten)]
    pub summary: GameSummary,
    /// Hash of the last log row. Null while the game runs when that row
    /// was written by an earlier release under the plain scheme, whose
    /// hash covers what the row hides (docs/architecture.md, "The log's
    /// hash chain").
    #[schema(required = true)]
    pub chain_head: Option<String>,
    /// The seed, revealed once the game is over, so anyone can replay it.
    pub seed: Option<String>,
    #[schema(value_type = hexpost_engine::GameConfig)]
    pub config: serde_json::Value,
    /// Your view of the game; null before the game starts.
    pub view: Option<hexpost_engine::GameView>,
    /// What you may do now; empty when nothing is awaited from you.
    pub legal_actions: Vec<LegalAction>,
    /// Each entry of `legal_actions` as a phrase, at the same index: the
    /// words the mails ask for the decision with ("build a road", "discard
    /// 4 cards", "build a settlement for neutral white").
    #[schema(example = json!(["build a road", "build a settlement", "trade with the bank", "end your turn"]))]
    pub legal_action_text: Vec<String>,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct Created {
    pub game: GameSummary,
    /// The invitation token, when an opponent was invited; it is also
    /// e-mailed to them.
    pub invite_token: Option<String>,
}

/// A game read for a change by one of its players.
pub struct Seated {
    pub game: GameRow,
    /// The users in seat 0 and 1.
    pub seat_users: [i64; 2],
    /// The seat of the player who asked.
    pub seat: u8,
}

/// Locks the game (inside a write transaction) and finds the seat of
/// `user`, who must play in it.
pub fn lock_seated(conn: &mut DbConnection, game_id: &str, user: i64) -> Result<Seated, Error> {
    seated_in(conn, game_id, user, true)
}

/// `lock_seated` without the lock: for a change that is written only if
/// the game row is still the version read (a move).
pub fn read_seated(conn: &mut DbConnection, game_id: &str, user: i64) -> Result<Seated, Error> {
    seated_in(conn, game_id, user, false)
}

fn seated_in(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
    lock: bool,
) -> Result<Seated, Error> {
    let (game, seats) =
        db::with_seats(conn, game_id, lock)?.ok_or_else(|| Error::not_found("game"))?;
    let seat = seats
        .iter()
        .position(|u| *u == Some(user))
        .ok_or_else(|| Error::forbidden("you do not play in this game"))?;
    let [Some(a), Some(b)] = seats else {
        return Err(Error::internal(format!(
            "game {game_id} has a seat without a player"
        )));
    };
    Ok(Seated {
        game,
        seat_users: [a, b],
        seat: seat as u8,
    })
}

/// Moves, resignations and vacations need a game in play.
pub fn require_active(game: &GameRow) -> Result<(), Error> {
    if game.status == status::ACTIVE {
        Ok(())
    } else {
        Err(Error::conflict(
            "game_not_active",
            format!("the game is {}", game.status),
        ))
    }
}

pub fn summary(conn: &mut DbConnection, game: &GameRow, viewer: i64) -> Result<GameSummary, Error> {
    Ok(summary_of(game, seated(conn, &game.id)?, viewer))
}

fn seated(conn: &mut DbConnection, game_id: &str) -> Result<Vec<PlayerInfo>, Error> {
    Ok(db::seated(conn, game_id)?
        .into_iter()
        .map(player_info)
        .collect())
}

fn player_info((seat, user_id, display_name): (i32, i64, String)) -> PlayerInfo {
    PlayerInfo {
        seat: seat as u8,
        user_id,
        display_name,
    }
}

/// The summary of `game`, seated by `players`, as `viewer` sees it.
pub fn summary_of(game: &GameRow, players: Vec<PlayerInfo>, viewer: i64) -> GameSummary {
    GameSummary {
        id: game.id.clone(),
        variant: game.variant.clone(),
        status: game.status.clone(),
        created_by: game.created_by,
        your_seat: players.iter().find(|p| p.user_id == viewer).map(|p| p.seat),
        players,
        move_number: game.move_number,
        awaiting_you: game.awaiting.contains(&format!(",{viewer},")),
        winner_seat: game.winner_seat.map(|s| s as u8),
        time_limit_secs: game.time_limit_secs,
        timeout_policy: TimeoutPolicy::from_stored(&game.timeout_policy),
        max_auto_decisions: game.max_auto_decisions.max(0) as u32,
        vacation_days: game.vacation_days.max(0) as u32,
        clocks: if game.clocks.is_empty() {
            Vec::new()
        } else {
            Clocks::parse(&game.clocks, game.vacation_days)
                .map(|c| c.view())
                .unwrap_or_default()
        },
        created_at: game.created_at,
        updated_at: game.updated_at,
        seed_hash: game.seed_hash.clone(),
    }
}

pub fn detail(conn: &mut DbConnection, game: &GameRow, viewer: i64) -> Result<GameDetail, Error> {
    detail_of(game, seated(conn, &game.id)?, viewer)
}

/// One game as `user` may see it, if they play in it or created it.
pub fn detail_for(conn: &mut DbConnection, game_id: &str, user: i64) -> Result<GameDetail, Error> {
    let (game, players) =
        db::with_players(conn, game_id)?.ok_or_else(|| Error::not_found("game"))?;
    let players = players.into_iter().map(player_info).collect::<Vec<_>>();
    may_read(&game, user, players.iter().map(|p| p.user_id))?;
    detail_of(&game, players, user)
}

fn detail_of(game: &GameRow, players: Vec<PlayerInfo>, viewer: i64) -> Result<GameDetail, Error> {
    let summary = summary_of(game, players, viewer);
    let seat = summary.your_seat.map(Seat);
    let (view, legal_actions, legal_action_text) = match &game.state {
        Some(_) => {
            let state = engine_state(game)?;
            let legal = match seat {
                Some(s) if game.status == status::ACTIVE => state.legal_actions(s),
                _ => Vec::new(),
            };
            let text = legal_action_text(&legal, &table_of(&summary.players, &state));
            (Some(state.view(seat)), legal, text)
        }
        None => (None, Vec::new(), Vec::new()),
    };
    let over = game.status == status::FINISHED;
    Ok(GameDetail {
        summary,
        chain_head: super::commitments::head_for_players(game),
        seed: over.then(|| game.seed.clone()),
        config: serde_json::from_str(&game.config).unwrap_or_default(),
        view,
        legal_actions,
        legal_action_text,
    })
}

/// What the sentences about a game name: the players seated in it, by
/// seat, and its board.
pub fn table_of(players: &[PlayerInfo], state: &GameState) -> Table {
    let name = |seat: u8| {
        players
            .iter()
            .find(|p| p.seat == seat)
            .map_or_else(String::new, |p| p.display_name.clone())
    };
    Table::of_state([name(0), name(1)], state)
}

/// Each of `legal` in the describer's words, in the same order.
pub fn legal_action_text(legal: &[LegalAction], table: &Table) -> Vec<String> {
    legal.iter().map(|l| describe::decision(l, table)).collect()
}

/// The game, if `user` plays in it or created it (admins see all).
/// `load_for` a non-admin, with the reader's seat (none for a game they
/// created but do not sit in).
pub fn load_with_seat(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
) -> Result<(GameRow, Option<hexpost_engine::Seat>), Error> {
    let game = load_for(conn, game_id, user, false)?;
    let seat = db::players(conn, &game.id)?
        .into_iter()
        .find(|(_, u)| *u == user)
        .map(|(s, _)| hexpost_engine::Seat(s as u8));
    Ok((game, seat))
}

pub fn load_for(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
    admin: bool,
) -> Result<GameRow, Error> {
    let (game, seats) =
        db::with_seats(conn, game_id, false)?.ok_or_else(|| Error::not_found("game"))?;
    if !admin {
        may_read(&game, user, seats.into_iter().flatten())?;
    }
    Ok(game)
}

/// A game is readable by its creator and its players.
fn may_read(
    game: &GameRow,
    user: i64,
    mut players: impl Iterator<Item = i64>,
) -> Result<(), Error> {
    if game.created_by == user || players.any(|u| u == user) {
        Ok(())
    } else {
        Err(Error::forbidden("you do not play in this game"))
    }
}

fn parse_config(req: &CreateGame) -> Result<GameConfig, Error> {
    let variant = hexpost_engine::Variant::parse(&req.variant).ok_or_else(|| {
        let ids: Vec<_> = hexpost_engine::Variant::ALL
            .iter()
            .map(|v| v.id())
            .collect();
        Error::unprocessable(
            "unknown_variant",
            format!(
                "unknown variant `{}`; expected one of {}",
                req.variant,
                ids.join(", ")
            ),
        )
    })?;
    let options = if req.options.is_null() {
        Default::default()
    } else if !req.options.is_object() {
        return Err(Error::unprocessable(
            "invalid_options",
            "options must be an object",
        ));
    } else {
        let mut options = req.options.clone();
        super::whole_numbers::normalize(&mut options);
        serde_json::from_value(options)
            .map_err(|e| Error::unprocessable("invalid_options", e.to_string()))?
    };
    // A new game plays by the rules of today for all its life.
    let config = GameConfig {
        variant,
        options,
        revision: Some(hexpost_engine::Revision::CURRENT),
    };
    config.resolve().map_err(|e| {
        Error::unprocessable("invalid_options", e.to_string()).with("option", e.option)
    })?;
    Ok(config)
}

pub fn create(
    conn: &mut DbConnection,
    user: i64,
    req: &CreateGame,
    now: Now,
) -> Result<Created, Error> {
    let config = parse_config(req)?;
    let hours = req.time_limit_hours.unwrap_or(DEFAULT_TIME_LIMIT_HOURS);
    if !(1..=720).contains(&hours) {
        return Err(Error::unprocessable(
            "invalid_time_limit",
            "time_limit_hours must be 1 to 720",
        ));
    }
    let max_auto = req.max_auto_decisions.unwrap_or(DEFAULT_MAX_AUTO_DECISIONS);
    if max_auto > 20 {
        return Err(Error::unprocessable(
            "invalid_max_auto_decisions",
            "max_auto_decisions must be 0 to 20",
        ));
    }
    let vacation_days = req.vacation_days.unwrap_or(DEFAULT_VACATION_DAYS);
    if vacation_days > 60 {
        return Err(Error::unprocessable(
            "invalid_vacation_days",
            "vacation_days must be 0 to 60",
        ));
    }
    if let Some(s) = req.creator_seat
        && s > 1
    {
        return Err(Error::unprocessable(
            "invalid_seat",
            "creator_seat must be 0 or 1",
        ));
    }
    let opponent = match &req.opponent_email {
        Some(e) => Some(super::email::normalize(e)?),
        None => None,
    };
    let seed: [u8; 32] = rand::rng().random();
    let id = uuid::Uuid::new_v4().to_string();
    let seed_hash = audit::sha256_hex(&seed);
    let moment = now;
    let now = now.at;
    let row = GameRow {
        chain_head: audit::genesis(&id, &seed_hash),
        id,
        variant: config.variant.id().to_string(),
        config: serde_json::to_string(&config).map_err(Error::internal)?,
        status: status::OPEN.into(),
        created_by: user,
        seed: hex::encode(seed),
        seed_hash,
        state: None,
        move_number: 0,
        awaiting: String::new(),
        winner_seat: None,
        time_limit_secs: hours as i64 * 3600,
        creator_seat: req.creator_seat.map(i32::from),
        created_at: now,
        updated_at: now,
        finished_at: None,
        timeout_policy: req
            .timeout_policy
            .unwrap_or(TimeoutPolicy::Auto)
            .stored()
            .into(),
        max_auto_decisions: max_auto as i32,
        vacation_days: vacation_days as i32,
        clocks: String::new(),
        wake_at: None,
        version: 0,
        // Set by the first rows written: the start row.
        committed_from: None,
    };
    crate::store::write_tx(conn, |conn| {
        require_live_account(conn, user)?;
        db::insert_game(conn, &row)?;
        let invite_token = match &opponent {
            Some(email) => Some(invite_in_tx(conn, &row, user, email, moment)?),
            None => None,
        };
        Ok(Created {
            game: summary(conn, &row, user)?,
            invite_token,
        })
    })
}

/// A fresh invitation token; only its hash is stored.
fn invite_in_tx(
    conn: &mut DbConnection,
    game: &GameRow,
    user: i64,
    email: &str,
    now: Now,
) -> Result<String, Error> {
    if game.created_by != user {
        return Err(Error::forbidden("only the game's creator invites"));
    }
    if game.status != status::OPEN {
        return Err(Error::conflict(
            "game_not_open",
            "the game is no longer waiting for an opponent",
        ));
    }
    // The creator cannot accept their own invitation (`own_game`), so the
    // game would wait for an opponent who can never come.
    let creator = crate::store::users::by_id(conn, user)?;
    if creator.is_some_and(|c| c.email == email) {
        return Err(Error::conflict(
            "self_invitation",
            "invite your opponent's address, not your own",
        ));
    }
    let (at, limit) = (now.at, now.invitations_per_day);
    // Anyone may sign up and invite: addresses nobody has proven are not
    // to be mailed in bulk from here.
    if limit > 0 && crate::store::users::by_email(conn, email)?.is_none() {
        let day = super::deadlines::DAY_MS;
        let sent = db::invitations_to_strangers(conn, user, at - day)?;
        if sent.len() as i64 >= limit {
            let frees_at = sent[sent.len() - limit as usize] + day;
            let secs = ((frees_at - at).max(1000) as u64).div_ceil(1000);
            return Err(Error::invitations_limited(limit, secs));
        }
    }
    let bytes: [u8; 24] = rand::rng().random();
    let token = hex::encode(bytes);
    let id = uuid::Uuid::new_v4().to_string();
    db::insert_invitation(
        conn,
        &id,
        &game.id,
        email,
        &audit::sha256_hex(token.as_bytes()),
    )?;
    notify::invitation(conn, game, &id, email, &token, at)?;
    Ok(token)
}

pub fn invite(
    conn: &mut DbConnection,
    user: i64,
    game_id: &str,
    email: &str,
    now: Now,
) -> Result<String, Error> {
    let email = super::email::normalize(email)?;
    crate::store::write_tx(conn, |conn| {
        let game = db::lock(conn, game_id)?.ok_or_else(|| Error::not_found("game"))?;
        invite_in_tx(conn, &game, user, &email, now)
    })
}

fn pending_invitation(conn: &mut DbConnection, token: &str) -> Result<db::Invitation, Error> {
    let inv = db::invitation_by_token_hash(conn, &audit::sha256_hex(token.trim().as_bytes()))?;
    still_pending(inv)
}

fn pending_invitation_by_id(conn: &mut DbConnection, id: &str) -> Result<db::Invitation, Error> {
    still_pending(db::invitation_by_id(conn, id)?)
}

fn still_pending(inv: Option<db::Invitation>) -> Result<db::Invitation, Error> {
    let inv = inv.ok_or_else(|| Error::not_found("invitation"))?;
    if inv.status != "pending" {
        return Err(Error::conflict(
            "invitation_used",
            format!("the invitation was already {}", inv.status),
        ));
    }
    Ok(inv)
}

/// What an invitation is for, before accepting (no account needed).
pub fn invitation_info(conn: &mut DbConnection, token: &str) -> Result<GameSummary, Error> {
    let inv = pending_invitation(conn, token)?;
    let game = db::get(conn, &inv.game_id)?.ok_or_else(|| Error::not_found("game"))?;
    summary(conn, &game, 0)
}

/// Accepting starts the game: seats by roll-off (or the creator's choice),
/// the engine state from the seed, and the first log row.
pub fn accept(
    conn: &mut DbConnection,
    user: i64,
    token: &str,
    now: Now,
) -> Result<GameDetail, Error> {
    crate::store::write_tx(conn, |conn| {
        let inv = pending_invitation(conn, token)?;
        accept_in_tx(conn, user, &inv, now)
    })
}

/// [`accept`] for the invitation of id `invitation_id` (a reply to the
/// invitation mail, whose address names it).
pub fn accept_by_id(
    conn: &mut DbConnection,
    user: i64,
    invitation_id: &str,
    now: Now,
) -> Result<GameDetail, Error> {
    crate::store::write_tx(conn, |conn| {
        let inv = pending_invitation_by_id(conn, invitation_id)?;
        accept_in_tx(conn, user, &inv, now)
    })
}

fn accept_in_tx(
    conn: &mut DbConnection,
    user: i64,
    inv: &db::Invitation,
    now: Now,
) -> Result<GameDetail, Error> {
    let mut game = db::lock(conn, &inv.game_id)?.ok_or_else(|| Error::not_found("game"))?;
    if game.status != status::OPEN {
        return Err(Error::conflict(
            "game_not_open",
            "the game is no longer waiting for an opponent",
        ));
    }
    if game.created_by == user {
        return Err(Error::conflict(
            "own_game",
            "you cannot accept an invitation to your own game",
        ));
    }
    require_live_account(conn, user)?;
    db::set_invitation_status(conn, &inv.id, "accepted")?;
    let seed = audit::decode_seed(&game.seed).ok_or_else(|| Error::internal("bad seed"))?;
    let (seats, rolls) = audit::roll_off(
        &seed,
        game.created_by,
        user,
        game.creator_seat.map(|s| s as u8),
    );
    db::set_seats(conn, &game.id, &[(0, seats[0]), (1, seats[1])])?;
    let config = game_config(&game)?;
    let (mut state, events) = GameState::opening(&config, GameRng::from_seed_bytes(seed))
        .map_err(|e| Error::internal(e.to_string()))?;
    let action = ServerAction::Start {
        seats,
        roll_off: rolls,
    };
    let mut rows = NewRows::after(&game, now.at);
    rows.push(Entry::server(None, &action)?, &events, &state)?;
    rows.automated_steps(&mut state)?;
    game.status = status::ACTIVE.into();
    finish_update(&mut game, &state, &seats, &rows);
    timeouts::after_decision(&mut game, [false, false], &state, None, now)?;
    notify::accepted(conn, &game, user, rows.at())?;
    notify::after_move(
        conn,
        &mut game,
        &state,
        &seats,
        Some(user),
        &mut rows,
        now.turn_mail,
    )?;
    rows.write(conn, &mut game)?;
    detail(conn, &game, user)
}

/// An access token outlives its session by up to an hour: a deleted or
/// disabled account still holding one starts nothing new with it.
fn require_live_account(conn: &mut DbConnection, user: i64) -> Result<(), Error> {
    match crate::store::users::by_id(conn, user)? {
        Some(u) if u.deleted_at.is_none() && u.disabled_at.is_none() => Ok(()),
        Some(u) if u.deleted_at.is_none() => {
            Err(Error::forbidden("an admin disabled this account"))
        }
        _ => Err(Error::unauthorized("the account no longer exists")),
    }
}

pub fn decline(conn: &mut DbConnection, token: &str, now: Now) -> Result<(), Error> {
    crate::store::write_tx(conn, |conn| {
        let inv = pending_invitation(conn, token)?;
        decline_in_tx(conn, &inv, now)
    })
}

/// [`decline`] for the invitation of id `invitation_id`.
pub fn decline_by_id(conn: &mut DbConnection, invitation_id: &str, now: Now) -> Result<(), Error> {
    crate::store::write_tx(conn, |conn| {
        let inv = pending_invitation_by_id(conn, invitation_id)?;
        decline_in_tx(conn, &inv, now)
    })
}

fn decline_in_tx(conn: &mut DbConnection, inv: &db::Invitation, now: Now) -> Result<(), Error> {
    let mut game = db::lock(conn, &inv.game_id)?.ok_or_else(|| Error::not_found("game"))?;
    db::set_invitation_status(conn, &inv.id, "declined")?;
    if game.status == status::OPEN {
        game.status = status::DECLINED.into();
        game.updated_at = now.at;
        db::save(conn, &mut game)?;
        notify::declined(conn, &game, &inv.email, game.updated_at)?;
    }
    Ok(())
}

pub fn cancel(
    conn: &mut DbConnection,
    user: i64,
    game_id: &str,
    now: Now,
) -> Result<GameSummary, Error> {
    crate::store::write_tx(conn, |conn| {
        let mut game = db::lock(conn, game_id)?.ok_or_else(|| Error::not_found("game"))?;
        if game.created_by != user {
            return Err(Error::forbidden("only the game's creator cancels it"));
        }
        if game.status != status::OPEN {
            return Err(Error::conflict(
                "game_not_open",
                "only a game that has not started can be cancelled",
            ));
        }
        game.status = status::CANCELLED.into();
        game.updated_at = now.at;
        db::save(conn, &mut game)?;
        summary(conn, &game, user)
    })
}

pub fn resign(
    conn: &mut DbConnection,
    user: i64,
    game_id: &str,
    now: Now,
) -> Result<GameDetail, Error> {
    crate::store::write_tx(conn, |conn| {
        let Seated {
            mut game,
            seat_users,
            seat,
        } = lock_seated(conn, game_id, user)?;
        require_active(&game)?;
        let state = engine_state(&game)?;
        let mut rows = NewRows::after(&game, now.at);
        let entry = Entry::resign(seat, user)?;
        rows.push(entry, &[], &state)?;
        end_without_engine_winner(&mut game, &rows, 1 - seat as usize);
        timeouts::after_decision(&mut game, [false, false], &state, None, now)?;
        notify::after_move(
            conn,
            &mut game,
            &state,
            &seat_users,
            Some(user),
            &mut rows,
            now.turn_mail,
        )?;
        rows.write(conn, &mut game)?;
        detail(conn, &game, user)
    })
}

pub fn list(
    conn: &mut DbConnection,
    user: i64,
    filter: ListFilter,
    page: i64,
    per_page: i64,
) -> Result<Vec<GameSummary>, Error> {
    let offset = page.saturating_sub(1).saturating_mul(per_page);
    let rows = db::list_for_user(conn, user, filter, offset, per_page)?;
    rows.iter().map(|g| summary(conn, g, user)).collect()
}

/// Ends the game with `winner` (a resignation or a forfeit: the engine
/// knows no winner) after the log rows of `rows`.
pub fn end_without_engine_winner(game: &mut GameRow, rows: &NewRows, winner: usize) {
    rows.point(game);
    game.status = status::FINISHED.into();
    game.winner_seat = Some(winner as i32);
    game.awaiting = String::new();
    game.updated_at = rows.at();
    game.finished_at = Some(game.updated_at);
}

/// Updates the game row's summary fields from the engine state.
pub fn finish_update(game: &mut GameRow, state: &GameState, seats: &[i64; 2], rows: &NewRows) {
    game.state = rows.state_json().map(str::to_string);
    rows.point(game);
    // Only the two real seats map to users; automated seats never wait.
    let awaited: Vec<i64> = state
        .awaiting()
        .iter()
        .filter_map(|s| seats.get(s.index()).copied())
        .collect();
    game.awaiting = db::awaiting_column(&awaited);
    game.updated_at = rows.at();
    if let Some(w) = state.winner {
        game.status = status::FINISHED.into();
        game.winner_seat = Some(w.0 as i32);
        game.finished_at = Some(game.updated_at);
        game.awaiting = String::new();
    }
}
