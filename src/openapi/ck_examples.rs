//! Examples of the Cities & Knights schemas, events and progress cards for
//! the OpenAPI document, all taken from games the engine plays from fixed
//! seeds with players who buy city improvements and play their progress
//! cards (`sim::improver_action`): what seat 0's view shows, the entries it
//! is offered with a play the engine accepted, and the events as seat 0
//! reads them, each the first of its kind. At random, players seldom buy
//! an improvement and so draw no progress card. The one event these
//! players never come to, the bank short of a commodity owed to both at
//! once, comes from a game steered to it by legal moves
//! (`ck_shortage`).

use crate::openapi::action_pairs::member_name;
use crate::openapi::ck_shortage;
use hexpost_engine::actions::LegalAction;
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::CkState;
use hexpost_engine::rulesets::ck_for_two::wire::ProgressOption;
use hexpost_engine::sim::{self, Policy};
use hexpost_engine::{Action, Event, GameConfig, GameState, Redact, Seat, Variant};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{OpenApi, RefOr};

/// The schemas only Cities & Knights uses; each example comes from here.
pub const SCHEMAS: [&str; 23] = [
    "BankTradeOption",
    "Card",
    "CardSet",
    "CkPlayer",
    "CkState",
    "Commodity",
    "DeserterTarget",
    "EventFace",
    "HandCounts",
    "ImprovementOption",
    "InventorHex",
    "Knight",
    "KnightLevel",
    "KnightMoves",
    "KnightRemoval",
    "Merchant",
    "ProgressCard",
    "ProgressCounts",
    "ProgressDeck",
    "ProgressHand",
    "ProgressOption",
    "ProgressPlay",
    "Track",
];

/// The `oneOf` schemas whose members get an example each from here, with
/// the property that names a member.
pub const MEMBERS: [(&str, &str); 3] = [
    ("Event", "type"),
    ("ProgressOption", "card"),
    ("ProgressPlay", "card"),
];

/// The first of the events Cities & Knights adds; they follow it in the
/// `Event` schema, as in the engine's enum.
pub const FIRST_CK_EVENT: &str = "stole_commodity";

/// What the games showed: examples by schema, and by (`oneOf` schema,
/// member name).
#[derive(Debug, Default)]
pub struct Found {
    pub schemas: BTreeMap<&'static str, Value>,
    pub members: BTreeMap<(&'static str, String), Value>,
    /// Events seen only in part (the opponent's drawn card hidden): kept
    /// until one seat 0 sees whole comes up.
    partial: BTreeSet<String>,
}

impl Found {
    /// Whether a member has its example, whole.
    fn shows(&self, key: &(&'static str, String)) -> bool {
        self.members.contains_key(key) && !self.partial.contains(&key.1)
    }
}

pub fn found() -> &'static Found {
    &FOUND
}

static FOUND: LazyLock<Found> = LazyLock::new(collect);

/// The seeds tried in turn, and the actions each game may take: games
/// follow one another until every kind has come up (docs/performance.md,
/// "Live event streams", measures what this costs).
const FIRST_SEED: u64 = 1;
const MAX_GAMES: u64 = 40;
const MAX_ACTIONS: usize = 4_000;

fn value(v: impl Serialize) -> Value {
    serde_json::to_value(v).expect("example values serialize")
}

/// The seeded games' examples, then what only the steered game showed
/// (`ck_shortage`: the bank short of a commodity owed to both).
fn collect() -> Found {
    let wanted = wanted_members();
    let steered_events = ck_shortage::events();
    let mut steered = Found::default();
    steered_events.iter().for_each(|e| event(e, &mut steered));
    let mut found = Found::default();
    for seed in FIRST_SEED..FIRST_SEED + MAX_GAMES {
        play(seed, &mut found);
        let members_done = wanted.iter().all(|k| found.shows(k) || steered.shows(k));
        if members_done && SCHEMAS.iter().all(|s| found.schemas.contains_key(s)) {
            break;
        }
    }
    steered_events.iter().for_each(|e| event(e, &mut found));
    found
}

/// Every member name `MEMBERS` wants: C&K's events, and every progress card
/// that is played (not Crane, played with an improvement, nor the two
/// victory cards, laid down).
pub fn wanted_members() -> Vec<(&'static str, String)> {
    use utoipa::PartialSchema;
    let tags = |schema: RefOr<Schema>, tag: &str| -> Vec<String> {
        let RefOr::T(Schema::OneOf(one_of)) = schema else {
            return Vec::new();
        };
        one_of
            .items
            .iter()
            .filter_map(|m| match m {
                RefOr::T(Schema::Object(o)) => member_name(o, tag),
                _ => None,
            })
            .collect()
    };
    let events = tags(Event::schema(), "type");
    let ck_events = events
        .iter()
        .skip_while(|k| k.as_str() != FIRST_CK_EVENT)
        .map(|k| ("Event", k.clone()));
    let cards = tags(ProgressOption::schema(), "card");
    ck_events
        .chain(cards.iter().map(|c| ("ProgressOption", c.clone())))
        .chain(cards.iter().map(|c| ("ProgressPlay", c.clone())))
        .collect()
}

fn play(seed: u64, found: &mut Found) -> Option<()> {
    let (mut state, _) = GameState::new(&GameConfig::new(Variant::CkForTwo), seed).ok()?;
    let mut choices = GameRng::from_seed(seed);
    // The lists hide the bank, so a listed action may be refused: then one
    // chosen at random among all, as the same choice might be refused again.
    let mut refused = false;
    for _ in 0..MAX_ACTIONS {
        let seat = *state.awaiting().first()?;
        let legal = state.legal_actions(seat);
        look(&state, seat, &legal, &mut choices, found);
        let action = if refused {
            let policy = Policy {
                domestic_trade: false,
            };
            sim::random_action_with(&state, seat, &legal, &mut choices, policy)
        } else {
            sim::improver_action(&state, seat, &legal, &mut choices)
        }?;
        match state.apply(seat, &action) {
            Ok(events) => {
                refused = false;
                events.iter().for_each(|e| event(e, found));
            }
            Err(_) => refused = true,
        }
    }
    Some(())
}

fn kind(v: &Value, tag: &str) -> Option<String> {
    v[tag].as_str().map(str::to_string)
}

/// The first event of each kind as seat 0 reads it, whole where one comes up.
fn event(e: &Event, found: &mut Found) {
    let seen = e.redacted_for(Some(Seat(0)));
    let whole = seen == *e;
    let Some(name) = kind(&value(&seen), "type") else {
        return;
    };
    let key = ("Event", name.clone());
    let had = found.members.contains_key(&key);
    if had && !(whole && found.partial.contains(&name)) {
        return;
    }
    if whole {
        found.partial.remove(&name);
    } else {
        found.partial.insert(name);
    }
    found.members.insert(key, value(&seen));
    match &seen {
        Event::ImprovementBought { track, .. } => {
            found.schemas.entry("Track").or_insert(value(track));
            let commodity = track.commodity();
            found.schemas.entry("Commodity").or_insert(value(commodity));
        }
        Event::EventDieRolled { face, .. } => {
            found.schemas.entry("EventFace").or_insert(value(face));
        }
        Event::KnightRemoved { reason, .. } => {
            found
                .schemas
                .entry("KnightRemoval")
                .or_insert(value(reason));
        }
        Event::ProgressDrawn {
            card: Some(card), ..
        } => {
            found.schemas.entry("ProgressCard").or_insert(value(card));
        }
        _ => {}
    }
}

/// What seat 0's view shows, and what `seat` is offered now.
fn look(
    state: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    choices: &mut GameRng,
    found: &mut Found,
) {
    if let VariantState::CkForTwo(ck) = state.view(Some(Seat(0))).variant {
        view(&ck, found);
    }
    for entry in legal {
        offered(state, seat, entry, choices, found);
    }
}

fn first(found: &mut Found, schema: &'static str, example: impl FnOnce() -> Option<Value>) {
    if !found.schemas.contains_key(schema)
        && let Some(v) = example()
    {
        found.schemas.insert(schema, v);
    }
}

fn view(ck: &CkState, found: &mut Found) {
    let own = &ck.players[0];
    first(found, "ProgressHand", || {
        (own.progress.count >= 2).then(|| value(&own.progress))
    });
    first(found, "ProgressCounts", || {
        let cards = own.progress.cards.filter(|_| own.progress.count >= 2);
        cards.map(value)
    });
    first(found, "CkPlayer", || {
        let levels = own.levels.iter().filter(|&&l| l > 0).count();
        (own.progress.count >= 1 && levels >= 2).then(|| value(own))
    });
    let strong = ck
        .knights
        .iter()
        .find(|k| k.owner.index() < 2 && k.active && k.level.strength() > 1);
    first(found, "Knight", || strong.map(value));
    first(found, "KnightLevel", || strong.map(|k| value(k.level)));
    first(found, "Merchant", || ck.merchant.map(value));
    first(found, "ProgressDeck", || {
        ck.decks.iter().find(|d| d.size < 18).map(value)
    });
    first(found, "HandCounts", || {
        let counts = ck.hand_counts?[0];
        (counts.resources > 0 && counts.commodities > 0).then(|| value(counts))
    });
    first(found, "CkState", || {
        let rich = ck.attacks > 0
            && ck.barbarians > 0
            && ck.metropolises.iter().any(Option::is_some)
            && ck.merchant.is_some()
            && !ck.walls.is_empty()
            && strong.is_some()
            && own.progress.count > 0;
        rich.then(|| value(ck))
    });
}

/// Records what `entry` shows the first time its kind is offered, with a
/// play made from it that the engine accepts.
fn offered(
    state: &GameState,
    seat: Seat,
    entry: &LegalAction,
    choices: &mut GameRng,
    found: &mut Found,
) {
    match entry {
        LegalAction::BuyImprovement { options } => {
            first(found, "ImprovementOption", || options.first().map(value));
        }
        LegalAction::MoveKnight { moves } => {
            first(found, "KnightMoves", || moves.first().map(value));
        }
        LegalAction::BankTrade { options } => {
            let commodity = options.iter().find(|o| o.give.commodity().is_some());
            first(found, "BankTradeOption", || commodity.map(value));
            first(found, "Card", || commodity.map(|o| value(o.give)));
            first(found, "CardSet", || commodity.map(|o| value(o.receive)));
        }
        LegalAction::PlayProgress { play } => {
            progress_offered(state, seat, entry, play, choices, found);
        }
        _ => {}
    }
}

fn progress_offered(
    state: &GameState,
    seat: Seat,
    entry: &LegalAction,
    option: &ProgressOption,
    choices: &mut GameRng,
    found: &mut Found,
) {
    match option {
        ProgressOption::Inventor { hexes } => {
            first(found, "InventorHex", || hexes.first().map(value));
        }
        ProgressOption::Deserter { targets } => {
            first(found, "DeserterTarget", || targets.first().map(value));
        }
        _ => {}
    }
    let Some(card) = kind(&value(option), "card") else {
        return;
    };
    if found.members.contains_key(&("ProgressPlay", card.clone())) {
        return;
    }
    let policy = Policy::default();
    let one = std::slice::from_ref(entry);
    let Some(Action::PlayProgress { play }) =
        sim::random_action_with(state, seat, one, choices, policy)
    else {
        return;
    };
    let accepted = state
        .clone()
        .apply(seat, &Action::PlayProgress { play: play.clone() })
        .is_ok();
    if accepted {
        first(found, "ProgressOption", || Some(value(option)));
        first(found, "ProgressPlay", || Some(value(&play)));
        found
            .members
            .insert(("ProgressOption", card.clone()), value(option));
        found.members.insert(("ProgressPlay", card), value(&play));
    }
}

/// Sets the members' examples (the schemas' own are set with the others').
pub struct CkMembers;

impl utoipa::Modify for CkMembers {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for (schema, tag) in MEMBERS {
            let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get_mut(schema) else {
                continue;
            };
            for member in &mut one_of.items {
                let RefOr::T(Schema::Object(object)) = member else {
                    continue;
                };
                let example =
                    member_name(object, tag).and_then(|name| FOUND.members.get(&(schema, name)));
                if let Some(example) = example {
                    object.example = Some(example.clone());
                }
            }
        }
    }
}
