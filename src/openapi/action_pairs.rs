//! How each legal-action entry becomes the action a client sends, shown on
//! the OpenAPI document's `LegalAction` and `Action` schemas: for every
//! kind, an entry offered in a real game and an action made from it that
//! the engine accepted there. Games of every variant are played from fixed
//! seeds until each kind has been offered, so the pairs are reproducible
//! and change when the engine's lists or actions do.

use hexpost_engine::actions::LegalAction;
use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{self, Policy};
use hexpost_engine::{Action, GameConfig, GameState, Seat, Variant};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::LazyLock;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{OpenApi, RefOr};

/// A legal-action entry and an action made from it, as JSON.
#[derive(Clone, Debug)]
pub struct Pair {
    pub entry: Value,
    pub action: Value,
}

/// The pairs by kind (the entries' `type`).
pub fn pairs() -> &'static BTreeMap<String, Pair> {
    &PAIRS
}

static PAIRS: LazyLock<BTreeMap<String, Pair>> = LazyLock::new(collect);

/// Games per configuration at most, and in a row without a new kind: the
/// rarest (a metropolis) took 43 games in a row without a new kind and 55
/// in all when this was written.
const MAX_GAMES: u64 = 200;
const FRUITLESS_GAMES: u32 = 60;

/// Only Cities & Knights has kinds that take many games to come up; the
/// other variants offer all theirs in the first few.
fn fruitless_games(config: &GameConfig) -> u32 {
    if config.variant == Variant::CkForTwo {
        FRUITLESS_GAMES
    } else {
        5
    }
}
/// Actions per game at most.
const MAX_ACTIONS: usize = 3_000;

/// Every variant, and the option some kinds need: Shadow's re-roll vote
/// exists only when the players agree on re-rolls.
fn configs() -> Vec<GameConfig> {
    let mut out: Vec<GameConfig> = Variant::ALL.into_iter().map(GameConfig::new).collect();
    let mut agree = GameConfig::new(Variant::Shadow);
    if let Ok(options) = serde_json::from_value(json!({"removal_reroll": "agree"})) {
        agree.options = options;
        out.push(agree);
    }
    out
}

fn kind(entry: &LegalAction) -> Option<String> {
    serde_json::to_value(entry).ok()?["type"]
        .as_str()
        .map(str::to_string)
}

/// Every kind the `LegalAction` schema lists.
pub fn all_kinds() -> Vec<String> {
    use utoipa::PartialSchema;
    let RefOr::T(Schema::OneOf(one_of)) = LegalAction::schema() else {
        return Vec::new();
    };
    one_of
        .items
        .iter()
        .filter_map(|m| match m {
            RefOr::T(Schema::Object(o)) => member_name(o, "type"),
            _ => None,
        })
        .collect()
}

fn collect() -> BTreeMap<String, Pair> {
    let wanted = all_kinds().len();
    let mut out = BTreeMap::new();
    let policy = Policy::default();
    for config in configs() {
        let mut fruitless = 0;
        for seed in 1..=MAX_GAMES {
            if out.len() == wanted || fruitless == fruitless_games(&config) {
                break;
            }
            let before = out.len();
            play(&config, seed, policy, &mut out);
            fruitless = if out.len() == before {
                fruitless + 1
            } else {
                0
            };
        }
    }
    out
}

/// Plays one game at random, recording each kind the first time it is
/// offered with an action for it the engine accepts.
fn play(config: &GameConfig, seed: u64, policy: Policy, out: &mut BTreeMap<String, Pair>) {
    let Ok((mut state, _)) = GameState::new(config, seed) else {
        return;
    };
    let mut rng = GameRng::from_seed(seed);
    for _ in 0..MAX_ACTIONS {
        let Some(&seat) = state.awaiting().first() else {
            return;
        };
        // Both seats: some entries are offered to the one not awaited (an
        // answer to the open trade offer).
        for seat in [Seat(0), Seat(1)] {
            record(&state, seat, policy, &mut rng, out);
        }
        let mut legal = state.legal_actions(seat);
        // Improvements whenever they can be bought: at random they rarely
        // reach the level that brings a metropolis.
        if legal.iter().any(improves) {
            legal.retain(improves);
        }
        // Random players who remove their knights for tokens lose their
        // cities to the barbarians (docs/performance.md, "Finishing"), which
        // some kinds need, and with them the improved cities others need:
        // every other game they keep their knights (a removal offered is
        // still recorded above).
        if seed.is_multiple_of(2) && legal.len() > 1 {
            legal.retain(|l| !matches!(l, LegalAction::RemoveKnight { .. }));
        }
        let Some(action) = sim::random_action_with(&state, seat, &legal, &mut rng, policy) else {
            return;
        };
        // The lists hide the bank, so a listed action may be refused; the
        // game is then unchanged and the next choice differs.
        let _ = state.apply(seat, &action);
    }
}

fn improves(l: &LegalAction) -> bool {
    matches!(l, LegalAction::BuyImprovement { .. })
}

fn record(
    state: &GameState,
    seat: Seat,
    policy: Policy,
    rng: &mut GameRng,
    out: &mut BTreeMap<String, Pair>,
) {
    for entry in state.legal_actions(seat) {
        let Some(kind) = kind(&entry) else { continue };
        if out.contains_key(&kind) {
            continue;
        }
        let one = std::slice::from_ref(&entry);
        let Some(action) = sim::random_action_with(state, seat, one, rng, policy) else {
            continue;
        };
        if accepted(state, seat, &action) {
            let pair = Pair {
                entry: json!(entry),
                action: json!(action),
            };
            out.insert(kind, pair);
        }
    }
}

fn accepted(state: &GameState, seat: Seat, action: &Action) -> bool {
    state.clone().apply(seat, action).is_ok()
}

/// Shows each pair on the `oneOf` member of its kind: the entry as the
/// `LegalAction` member's example, with the action in its description, and
/// the action as the `Action` member's example.
pub struct ActionPairs;

impl utoipa::Modify for ActionPairs {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        for (schema, legal) in [("LegalAction", true), ("Action", false)] {
            let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get_mut(schema) else {
                continue;
            };
            for member in &mut one_of.items {
                let RefOr::T(Schema::Object(object)) = member else {
                    continue;
                };
                let Some(pair) = member_name(object, "type").and_then(|k| PAIRS.get(&k)) else {
                    continue;
                };
                if legal {
                    object.example = Some(pair.entry.clone());
                    let sent = format!("Sent as, for example: `{}`.", pair.action);
                    object.description = Some(match object.description.take() {
                        Some(d) => format!("{d}\n\n{sent}"),
                        None => sent,
                    });
                } else {
                    object.example = Some(pair.action.clone());
                }
            }
        }
    }
}

/// The single value of a tagged member's `tag` property: its name.
pub fn member_name(object: &utoipa::openapi::schema::Object, tag: &str) -> Option<String> {
    let RefOr::T(Schema::Object(tag)) = object.properties.get(tag)? else {
        return None;
    };
    tag.enum_values
        .as_ref()?
        .first()?
        .as_str()
        .map(str::to_string)
}
