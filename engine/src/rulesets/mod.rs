//! The rulesets, one per variant of RULES.md, and [`AnyRuleset`], the one
//! enum that dispatches over them (as a chess library's variant position
//! dispatches over its variants): nothing else in the engine branches on
//! the variant.
//!
//! | ruleset | variants | RULES.md |
//! |---|---|---|
//! | [`standard::Standard`] | `standard`, `duel` | §1, §2 |
//! | [`catan_for_two::CatanForTwo`] | `catan_for_two` | §3 |
//! | [`neutral_trader::NeutralTrader`] | `neutral_trader` | §4 |
//! | [`shadow::Shadow`] | `shadow` | §5 |
//! | [`ck_for_two::CkForTwo`] | `ck_for_two` | §6 |
//!
//! A ruleset keeps its own data in [`VariantState`] and its pending
//! decisions as [`Step`]s on the phase stack.

pub mod base;
pub mod catan_for_two;
pub mod ck_for_two;
mod common;
pub mod neutral_trader;
pub mod shadow;
pub mod standard;
mod steps;

pub use common::roll_off;
pub use steps::{Auction, Bid, Step};

use crate::actions::{Action, LegalAction};
use crate::board::HexId;
use crate::cards::{Cards, Resource};
use crate::contract::Ruleset;
use crate::error::ActionError;
use crate::events::Event;
use crate::hidden::Redact;
use crate::options::Variant;
use crate::parts::buildings::Built;
use crate::rng::GameRng;
use crate::seats::Seat;
use crate::state::GameState;
use serde::{Deserialize, Serialize};

/// A variant's own data, as the viewer may see it.
// What a seat may see of it is the ruleset's `public_state`, by default
// its `Redact` form; only ck_for_two keeps secrets in it (the progress
// cards in hand and the decks).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "variant", rename_all = "snake_case")]
pub enum VariantState {
    #[default]
    None,
    CatanForTwo(crate::parts::trade_tokens::Tokens),
    NeutralTrader(neutral_trader::TraderState),
    Shadow(shadow::ShadowState),
    CkForTwo(Box<ck_for_two::CkState>),
}

impl VariantState {
    /// The trade tokens, in the rulesets that use them.
    pub fn tokens(&self) -> Option<&crate::parts::trade_tokens::Tokens> {
        match self {
            VariantState::CatanForTwo(t) => Some(t),
            VariantState::CkForTwo(c) => Some(&c.tokens),
            _ => None,
        }
    }

    pub fn tokens_mut(&mut self) -> Option<&mut crate::parts::trade_tokens::Tokens> {
        match self {
            VariantState::CatanForTwo(t) => Some(t),
            VariantState::CkForTwo(c) => Some(&mut c.tokens),
            _ => None,
        }
    }
}

impl Redact for VariantState {
    /// ck_for_two's progress cards in hand and decks are hidden; the other
    /// rulesets keep nothing hidden in their own state.
    fn redacted_for(&self, viewer: Option<Seat>) -> VariantState {
        match self {
            VariantState::CkForTwo(c) => VariantState::CkForTwo(Box::new(c.redacted_for(viewer))),
            other => other.clone(),
        }
    }
}

/// The ruleset of a game, chosen by its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyRuleset {
    Standard(standard::Standard),
    CatanForTwo(catan_for_two::CatanForTwo),
    NeutralTrader(neutral_trader::NeutralTrader),
    Shadow(shadow::Shadow),
    CkForTwo(ck_for_two::CkForTwo),
}

impl AnyRuleset {
    pub fn of(variant: Variant) -> AnyRuleset {
        match variant {
            Variant::Standard | Variant::Duel => AnyRuleset::Standard(standard::Standard),
            Variant::CatanForTwo => AnyRuleset::CatanForTwo(catan_for_two::CatanForTwo),
            Variant::NeutralTrader => AnyRuleset::NeutralTrader(neutral_trader::NeutralTrader),
            Variant::Shadow => AnyRuleset::Shadow(shadow::Shadow),
            Variant::CkForTwo => AnyRuleset::CkForTwo(ck_for_two::CkForTwo),
        }
    }
}

/// Calls `$call` on the ruleset inside `$self`.
macro_rules! each {
    ($self:ident, $r:ident => $call:expr) => {
        match $self {
            AnyRuleset::Standard($r) => $call,
            AnyRuleset::CatanForTwo($r) => $call,
            AnyRuleset::NeutralTrader($r) => $call,
            AnyRuleset::Shadow($r) => $call,
            AnyRuleset::CkForTwo($r) => $call,
        }
    };
}

impl Ruleset for AnyRuleset {
    fn init(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        each!(self, r => r.init(s, ev))
    }
    fn deals_development_cards(&self) -> bool {
        each!(self, r => r.deals_development_cards())
    }
    fn card_supply(&self) -> Cards {
        each!(self, r => r.card_supply())
    }
    fn apply(
        &self,
        s: &mut GameState,
        seat: Seat,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        each!(self, r => r.apply(s, seat, action, ev))
    }
    fn after_action(&self, s: &mut GameState, ev: &mut Vec<Event>) {
        each!(self, r => r.after_action(s, ev))
    }
    fn legal_actions(&self, s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
        each!(self, r => r.legal_actions(s, seat, out))
    }
    fn automated_step(&self, s: &mut GameState, ev: &mut Vec<Event>) -> Option<Seat> {
        each!(self, r => r.automated_step(s, ev))
    }
    fn timeout_decision(&self, s: &GameState, seat: Seat) -> Option<Action> {
        each!(self, r => r.timeout_decision(s, seat))
    }
    fn public_state(&self, s: &GameState, viewer: Option<Seat>) -> VariantState {
        each!(self, r => r.public_state(s, viewer))
    }
    fn perturb_hidden(&self, s: &mut GameState, viewer: Seat, rng: &mut GameRng) {
        each!(self, r => r.perturb_hidden(s, viewer, rng))
    }
    fn opponent_hand_shown(&self, s: &GameState, viewer: Seat) -> bool {
        each!(self, r => r.opponent_hand_shown(s, viewer))
    }
    fn visible_vp(&self, s: &GameState, seat: Seat) -> u8 {
        each!(self, r => r.visible_vp(s, seat))
    }
    fn check(&self, s: &GameState) -> Result<(), String> {
        each!(self, r => r.check(s))
    }
    fn after_build(&self, s: &mut GameState, owner: Seat, built: Built, ev: &mut Vec<Event>) {
        each!(self, r => r.after_build(s, owner, built, ev))
    }
    fn receives_resources(&self, s: &GameState, seat: Seat) -> bool {
        each!(self, r => r.receives_resources(s, seat))
    }
    fn discard_limit(&self, s: &GameState, seat: Seat) -> u8 {
        each!(self, r => r.discard_limit(s, seat))
    }
    fn on_roll(&self, s: &mut GameState, seat: Seat, total: u8, ev: &mut Vec<Event>) {
        each!(self, r => r.on_roll(s, seat, total, ev))
    }
    fn between_turns(
        &self,
        s: &mut GameState,
        ended: Seat,
        next: Seat,
        ev: &mut Vec<Event>,
    ) -> bool {
        each!(self, r => r.between_turns(s, ended, next, ev))
    }
    fn turn_started(&self, s: &mut GameState, seat: Seat, ev: &mut Vec<Event>) {
        each!(self, r => r.turn_started(s, seat, ev))
    }
    fn city_pieces_as_settlements(&self, s: &GameState, seat: Seat) -> u8 {
        each!(self, r => r.city_pieces_as_settlements(s, seat))
    }
    fn occupied_nodes(&self, s: &GameState) -> u64 {
        each!(self, r => r.occupied_nodes(s))
    }
    fn piece_blockers(&self, s: &GameState, seat: Seat) -> u64 {
        each!(self, r => r.piece_blockers(s, seat))
    }
    fn robber_may_enter_removed(&self, s: &GameState) -> bool {
        each!(self, r => r.robber_may_enter_removed(s))
    }
    fn after_robber_moved(&self, s: &mut GameState, mover: Seat, hex: HexId, ev: &mut Vec<Event>) {
        each!(self, r => r.after_robber_moved(s, mover, hex, ev))
    }
    fn after_monopoly(
        &self,
        s: &mut GameState,
        seat: Seat,
        resource: Resource,
        ev: &mut Vec<Event>,
    ) {
        each!(self, r => r.after_monopoly(s, seat, resource, ev))
    }
}
