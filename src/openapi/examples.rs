//! Examples for the OpenAPI document's schemas. Small types carry theirs as
//! `#[schema(example = …)]`; the engine's composite types and the server's
//! game responses get theirs here, from games played through the engine and
//! logged with the service's own hash chain. Seeds, ids and clock readings
//! are fixed, so the document is reproducible, and every example is what
//! the server would send for that game: a change to the engine or to the
//! wire types changes the examples with it.

use crate::api::problem::Problem;
use crate::describe;
use crate::service::audit::{self, ServerAction};
use crate::service::chain::{Entry, NewRows};
use crate::service::games::{
    self as svc, CreateGame, Created, GameDetail, GameSummary, PlayerInfo,
};
use crate::service::moves::{self, MoveOutcome};
use crate::service::{Now, timeouts};
use crate::store::games::{GameRow, MoveRow, status, timeout_policy};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::{Bid, Step};
use hexpost_engine::sim::{self, Policy};
use hexpost_engine::{
    Action, Event, GameConfig, GameState, Phase, Redact, Revision, Seat, Variant,
};
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::LazyLock;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{OpenApi, RefOr};

/// Sets the generated examples on their component schemas.
pub struct Examples;

impl utoipa::Modify for Examples {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for (name, example) in EXAMPLES.iter() {
            if let Some(RefOr::T(schema)) = components.schemas.get_mut(*name) {
                set_example(schema, example.clone());
            }
        }
    }
}

fn set_example(schema: &mut Schema, example: Value) {
    match schema {
        Schema::Array(s) => s.example = Some(example),
        Schema::Object(s) => s.example = Some(example),
        Schema::OneOf(s) => s.example = Some(example),
        Schema::AllOf(s) => s.example = Some(example),
        Schema::AnyOf(s) => s.example = Some(example),
        _ => {}
    }
}

/// Built once: each HTTP worker completes its own copy of the document.
static EXAMPLES: LazyLock<BTreeMap<&'static str, Value>> = LazyLock::new(examples);

const GAME_ID: &str = "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4";
const INVITE_TOKEN: &str = "5014f9af3a684fdd64a775c1c4c532ee66b1b96cb56b1d02";
/// The creator and the invited opponent.
const ADA: i64 = 1;
const GRACE: i64 = 2;
/// 2026-01-01T00:00:00Z; the log advances a minute a row.
const CREATED_AT_MS: i64 = 1_767_225_600_000;
const MINUTE_MS: i64 = 60_000;
/// Bounds every search for a game situation; all are reached in far fewer
/// actions, and one that is not leaves its schema without an example, which
/// the spec test reports.
const MAX_ACTIONS: usize = 5_000;

fn display_name(user: i64) -> &'static str {
    if user == ADA { "Ada" } else { "Grace" }
}

fn value(v: impl Serialize) -> Value {
    serde_json::to_value(v).expect("example values serialize")
}

/// A game as the server stores it: the game row and its log.
struct LoggedGame {
    row: GameRow,
    log: Vec<MoveRow>,
    seats: [i64; 2],
    state: GameState,
}

impl LoggedGame {
    /// Logs an entry and the automated steps after it as the server does,
    /// at the example's clock; returns all their events and the entry's row.
    fn record(&mut self, entry: Entry, events: &[Event]) -> Option<(Vec<Event>, MoveRow)> {
        let at = CREATED_AT_MS + (self.row.move_number + 1) * MINUTE_MS;
        let mut rows = NewRows::after(&self.row, at);
        rows.push(entry, events, &self.state).ok()?;
        let mut all = events.to_vec();
        all.extend(rows.automated_steps(&mut self.state).ok()?);
        svc::finish_update(&mut self.row, &self.state, &self.seats, &rows);
        timeouts::after_decision(
            &mut self.row,
            [false, false],
            &self.state,
            None,
            Now::at(at),
        )
        .ok()?;
        let row = rows.rows().first()?.clone();
        self.log.extend_from_slice(rows.rows());
        Some((all, row))
    }

    fn play(&mut self, seat: Seat, action: &Action) -> Option<(Vec<Event>, MoveRow)> {
        let events = self.state.apply_decision(seat, action).ok()?;
        let user = self.seats[seat.index()];
        self.record(Entry::player(seat.0, user, action, None).ok()?, &events)
    }
}

/// `svc::summary` without the database: `seats` are the users by seat.
fn summary(row: &GameRow, seats: &[i64], viewer: i64) -> GameSummary {
    let players = seats
        .iter()
        .enumerate()
        .map(|(seat, &user_id)| PlayerInfo {
            seat: seat as u8,
            user_id,
            display_name: display_name(user_id).into(),
        })
        .collect();
    svc::summary_of(row, players, viewer)
}

/// A random legal action of the first awaited seat. A `builder` builds
/// whenever it can and offers no trades, so that its game moves on as
/// players' games do instead of wandering for dozens of turns.
fn next_action(state: &GameState, choices: &mut GameRng, builder: bool) -> Option<(Seat, Action)> {
    let seat = *state.awaiting().first()?;
    let mut legal = state.legal_actions(seat);
    if builder && legal.iter().any(builds) {
        legal.retain(builds);
    }
    let policy = Policy {
        domestic_trade: !builder,
    };
    Some((
        seat,
        sim::random_action_with(state, seat, &legal, choices, policy)?,
    ))
}

fn builds(l: &LegalAction) -> bool {
    matches!(
        l,
        LegalAction::BuildRoad { .. }
            | LegalAction::BuildSettlement { .. }
            | LegalAction::BuildCity { .. }
    )
}

/// Plays random legal actions until `found` sees what it looks for.
fn play_until<T>(
    mut state: GameState,
    choices: &mut GameRng,
    mut found: impl FnMut(&GameState) -> Option<T>,
) -> Option<T> {
    for _ in 0..MAX_ACTIONS {
        if let Some(t) = found(&state) {
            return Some(t);
        }
        let (seat, action) = next_action(&state, choices, false)?;
        // The legal lists hide the bank, so a listed action may still be
        // refused; the game is then unchanged and the next choice differs.
        let _ = state.apply(seat, &action);
    }
    None
}

/// The first entry of any awaited seat's legal actions that `pick` takes.
fn legal_entry<T>(state: &GameState, pick: impl Fn(LegalAction) -> Option<T>) -> Option<T> {
    state
        .awaiting()
        .iter()
        .flat_map(|&seat| state.legal_actions(seat))
        .find_map(pick)
}

/// A game in `variant` from `seed`, played until `found`.
fn variant_game<T>(
    variant: Variant,
    seed: u64,
    found: impl FnMut(&GameState) -> Option<T>,
) -> Option<T> {
    let (state, _) = GameState::new(&GameConfig::new(variant), seed).ok()?;
    play_until(state, &mut GameRng::from_seed(seed), found)
}

fn examples() -> BTreeMap<&'static str, Value> {
    let mut out = BTreeMap::new();
    standard_game(&mut out);
    variant_states(&mut out);
    topology(&mut out);
    for (name, example) in &crate::openapi::ck_examples::found().schemas {
        out.insert(name, example.clone());
    }
    out.insert("u8", json!(12));
    out
}

/// The request the example game was created from.
fn create_request() -> Value {
    json!({
        "variant": "standard",
        "options": {"vp_target": 12},
        "time_limit_hours": 48,
        "opponent_email": "grace@example.org"
    })
}

/// Ada creates a game and invites Grace, who accepts; they play until a
/// roll pays out and lets the roller build, the move most examples show.
fn standard_game(out: &mut BTreeMap<&'static str, Value>) -> Option<()> {
    let request = create_request();
    let create: CreateGame = serde_json::from_value(request.clone()).ok()?;
    let config = GameConfig {
        variant: Variant::parse(&create.variant)?,
        options: serde_json::from_value(create.options.clone()).ok()?,
        revision: Some(Revision::CURRENT),
    };
    let seed: [u8; 32] = Sha256::digest(b"Ada vs Grace").into();
    let seed_hash = audit::sha256_hex(&seed);
    let row = GameRow {
        id: GAME_ID.into(),
        variant: create.variant.clone(),
        config: serde_json::to_string(&config).ok()?,
        status: status::OPEN.into(),
        created_by: ADA,
        seed: hex::encode(seed),
        chain_head: audit::genesis(GAME_ID, &seed_hash),
        seed_hash,
        state: None,
        move_number: 0,
        awaiting: String::new(),
        winner_seat: None,
        time_limit_secs: i64::from(create.time_limit_hours?) * 3600,
        creator_seat: create.creator_seat.map(i32::from),
        created_at: CREATED_AT_MS,
        updated_at: CREATED_AT_MS,
        finished_at: None,
        timeout_policy: timeout_policy::AUTO.into(),
        max_auto_decisions: svc::DEFAULT_MAX_AUTO_DECISIONS as i32,
        vacation_days: svc::DEFAULT_VACATION_DAYS as i32,
        clocks: String::new(),
        wake_at: None,
        version: 0,
        committed_from: None,
    };
    out.insert("CreateGame", request);
    out.insert(
        "Created",
        value(Created {
            game: summary(&row, &[], ADA),
            invite_token: Some(INVITE_TOKEN.into()),
        }),
    );

    let (seats, roll_off) = audit::roll_off(&seed, ADA, GRACE, None);
    let (state, events) = GameState::opening(&config, GameRng::from_seed_bytes(seed)).ok()?;
    let mut game = LoggedGame {
        row,
        log: Vec::new(),
        seats,
        state,
    };
    game.row.status = status::ACTIVE.into();
    let start = Entry::server(None, &ServerAction::Start { seats, roll_off }).ok()?;
    game.record(start, &events)?;
    let setup = game.state.view(Some(Seat(0))).setup_step?;
    out.insert("SetupStep", value(setup));
    out.insert("Piece", value(setup.piece));

    // The shown move: the first roll that pays out and lets the roller build.
    let mut choices = GameRng::from_seed(u64::from_le_bytes(seed[..8].try_into().ok()?));
    let mut shown = None;
    for _ in 0..MAX_ACTIONS {
        let expected = game.row.move_number;
        let (seat, action) = next_action(&game.state, &mut choices, true)?;
        let Some((events, _)) = game.play(seat, &action) else {
            continue;
        };
        if action == Action::RollDice
            && events.iter().any(|e| matches!(e, Event::Produced { .. }))
            && game.state.legal_actions(seat).iter().any(builds)
        {
            shown = Some((seat, expected, events));
            break;
        }
    }
    let (mover, expected, events) = shown?;
    let user = game.seats[mover.index()];
    let viewer = Some(mover);
    out.insert(
        "MoveRequest",
        json!({"expected_move_number": expected, "action": Action::RollDice}),
    );
    let events: Vec<Event> = events.iter().map(|e| e.redacted_for(viewer)).collect();
    let view = game.state.view(viewer);
    let legal = game.state.legal_actions(mover);
    let produced = events.iter().find(|e| matches!(e, Event::Produced { .. }));
    out.insert("Event", value(produced?));
    let summary = summary(&game.row, &game.seats, user);
    let table = svc::table_of(&summary.players, &game.state);
    let legal_text = svc::legal_action_text(&legal, &table);
    out.insert(
        "MoveOutcome",
        value(MoveOutcome {
            move_number: game.row.move_number,
            text: events
                .iter()
                .map(|e| describe::event_unredacted(e, &table))
                .collect(),
            events,
            view: view.clone(),
            legal_actions: legal.clone(),
            legal_action_text: legal_text.clone(),
            status: game.row.status.clone(),
            chain_head: game.row.chain_head.clone(),
        }),
    );

    // Rolling twice, as the moves endpoint refuses it.
    let refused = game.state.clone().apply(mover, &Action::RollDice).err()?;
    let problem = Problem::from(&moves::illegal_move(&refused, game.row.move_number));
    out.insert("Problem", value(&problem));
    out.insert("IllegalMoveProblem", value(&problem));
    out.insert("ActionError", value(&refused));

    // The richest entry of the list, and one action it allows.
    let entry = legal.iter().max_by_key(|l| l.weight())?;
    out.insert("LegalAction", value(entry));
    let hand = game.state.player(mover).hand;
    let action = sim::choose_random(
        std::slice::from_ref(entry),
        hand,
        None,
        &mut choices,
        Policy::default(),
    )?;
    out.insert("Action", value(action));

    out.insert("GameView", value(&view));
    out.insert("Board", value(&view.board));
    out.insert("Rules", value(&view.rules));
    out.insert("GameConfig", value(&config));
    out.insert("PublicPlayer", value(&view.players[0]));
    out.insert("SeatKind", value(view.players[0].kind));
    out.insert("OwnHand", value(view.you.as_ref()?));
    out.insert("PlacedBuilding", value(view.buildings.first()?));
    out.insert("BuildingKind", value(view.buildings.first()?.kind));
    out.insert("PlacedRoad", value(view.roads.first()?));

    out.insert("PlayerInfo", value(&summary.players[0]));
    out.insert("GameSummary", value(&summary));
    let detail = GameDetail {
        summary,
        chain_head: Some(game.row.chain_head.clone()),
        seed: None,
        config: value(&config),
        view: Some(view),
        legal_actions: legal,
        legal_action_text: legal_text,
    };
    // The shown move sent again once it was played.
    let stale = moves::stale_move(expected, game.row.move_number, &detail);
    out.insert("StaleMoveProblem", value(Problem::from(&stale)));
    out.insert("GameDetail", value(detail));

    let players = [(0, game.seats[0]), (1, game.seats[1])];
    let report = audit::verify(&game.row, &players, &game.log);
    out.insert("VerifyReport", value(&report));
    // A row edited after it was written.
    let mut tampered = game.log.clone();
    tampered.last_mut()?.created_at += MINUTE_MS;
    let divergence = audit::verify(&game.row, &players, &tampered).divergence?;
    out.insert("Divergence", value(divergence));

    // What may come later in the same game.
    let offer = play_until(game.state.clone(), &mut choices, |s| s.offer.clone())?;
    out.insert("TradeOffer", value(offer));
    let target = play_until(game.state.clone(), &mut choices, |s| {
        legal_entry(s, |l| match l {
            LegalAction::MoveRobber { targets } | LegalAction::PlayKnight { targets } => {
                targets.into_iter().find(|t| !t.victims.is_empty())
            }
            _ => None,
        })
    })?;
    out.insert("RobberTarget", value(target));
    let maritime = play_until(game.state.clone(), &mut choices, |s| {
        legal_entry(s, |l| match l {
            LegalAction::MaritimeTrade { options } => options.into_iter().next(),
            _ => None,
        })
    })?;
    out.insert("MaritimeOption", value(maritime));

    // A log row as the other player reads it: a bought development card,
    // shown without the card and committed to in the row's skeleton.
    for _ in 0..MAX_ACTIONS {
        let (seat, action) = next_action(&game.state, &mut choices, false)?;
        let action = if game
            .state
            .legal_actions(seat)
            .contains(&LegalAction::BuyDevelopmentCard)
        {
            Action::BuyDevelopmentCard
        } else {
            action
        };
        let Some((events, row)) = game.play(seat, &action) else {
            continue;
        };
        if events
            .iter()
            .any(|e| matches!(e, Event::DevCardBought { .. }))
        {
            let reader = Some(Some(seat.opponent()));
            let names = game.seats.map(|u| display_name(u).to_string());
            let table = crate::describe::Table::of_state(names, &game.state);
            let entry = crate::service::moves::log_entry(&game.row, reader, row, &table).ok()?;
            out.insert("GameStreamData", value(&entry));
            out.insert(
                "GameStreamEvent",
                json!({"event": "move", "id": entry.seq, "data": &entry}),
            );
            out.insert("LogEntry", value(&entry));
            out.insert("Skeleton", value(entry.public?));
            break;
        }
    }
    Some(())
}

/// Each variant's public data, and the shadow auction as seat 0 sees it
/// while the bids are sealed.
fn variant_states(out: &mut BTreeMap<&'static str, Value>) -> Option<()> {
    use hexpost_engine::rulesets::VariantState;
    let variant = |v: Variant| -> Option<VariantState> {
        Some(GameState::new(&GameConfig::new(v), 1).ok()?.0.variant)
    };
    let two = variant(Variant::CatanForTwo)?;
    if let VariantState::CatanForTwo(tokens) = &two {
        out.insert("Tokens", value(tokens));
    }
    out.insert("VariantState", value(&two));
    if let VariantState::NeutralTrader(trader) = variant(Variant::NeutralTrader)? {
        out.insert("TraderState", value(trader));
    }
    if let VariantState::Shadow(shadow) = variant(Variant::Shadow)? {
        out.insert("ShadowState", value(shadow));
    }

    // Seat 0 has bid; seat 1's answer, if any, is still sealed.
    let phase = variant_game(Variant::Shadow, 1, |s| {
        let phase = s.phase().redacted_for(Some(Seat(0)));
        match &phase {
            Phase::Variant(Step::Auction(a)) if matches!(a.bids[0], Bid::Cards(_)) => Some(phase),
            _ => None,
        }
    })?;
    if let Phase::Variant(step) = &phase {
        out.insert("Step", value(step));
        if let Step::Auction(auction) = step {
            out.insert("Auction", value(auction));
            out.insert("Bid", value(auction.bids[0]));
        }
    }
    out.insert("Phase", value(&phase));
    Some(())
}

/// The board's geometry, cut to its first hex with the nodes and edges
/// around it.
fn topology(out: &mut BTreeMap<&'static str, Value>) {
    let full = hexpost_engine::topology_view();
    let hex = full.hexes[0].clone();
    let nodes = hex
        .nodes
        .iter()
        .map(|&n| full.nodes[n as usize].clone())
        .collect::<Vec<_>>();
    let edges = hex
        .edges
        .iter()
        .map(|&e| full.edges[e as usize].clone())
        .collect::<Vec<_>>();
    out.insert("HexGeom", value(&hex));
    out.insert("NodeGeom", value(&nodes[0]));
    out.insert("EdgeGeom", value(&edges[0]));
    out.insert(
        "TopologyView",
        value(hexpost_engine::view::TopologyView {
            hexes: vec![hex],
            nodes,
            edges,
            ..full
        }),
    );
}
