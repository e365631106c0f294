//! Variant behaviour behind small hooks. The base rules call these at fixed
//! points; each variant overrides only what it changes, so the base rules
//! carry no `if variant == …` branches. A variant keeps its data in
//! [`VariantState`] and its pending decisions as [`Step`]s on the phase
//! stack.

pub mod catan_for_two;
mod common;
pub mod neutral_trader;
pub mod shadow;
mod standard;
mod steps;

pub use common::roll_off;
pub use steps::{Auction, Bid, Step};

use crate::actions::{Action, LegalAction};
use crate::board::{EdgeId, HexId, NodeId};
use crate::error::ActionError;
use crate::events::Event;
use crate::options::Variant;
use crate::state::GameState;
use crate::types::{Resource, Seat};
use serde::{Deserialize, Serialize};

/// What a player just built, for `after_build`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    Road(EdgeId),
    Settlement(NodeId),
}

/// A variant's own data, public to every viewer.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "variant", rename_all = "snake_case")]
pub enum VariantState {
    #[default]
    None,
    CatanForTwo(catan_for_two::Tokens),
    NeutralTrader(neutral_trader::TraderState),
    Shadow(shadow::ShadowState),
}

pub trait VariantHooks: Sync {
    /// At game creation, once the board, the bank, the deck and the two
    /// real players exist: add automated seats, starting pieces and the
    /// variant's state, change the set-up queue.
    fn init(&self, _state: &mut GameState, _ev: &mut Vec<Event>) {}

    /// After a road or settlement is placed (set-up included), for any owner.
    fn after_build(
        &self,
        _state: &mut GameState,
        _owner: Seat,
        _built: Built,
        _ev: &mut Vec<Event>,
    ) {
    }

    /// Does `seat` collect production (and starting resources)?
    fn receives_resources(&self, _state: &GameState, _seat: Seat) -> bool {
        true
    }

    /// A real player's roll was shown and is about to be resolved.
    fn on_roll(&self, _state: &mut GameState, _seat: Seat, _total: u8, _ev: &mut Vec<Event>) {}

    /// A real turn has ended. Returns true when the variant put an
    /// automated turn in between, which then starts `next`'s turn itself
    /// (`GameState::start_turn`).
    fn between_turns(
        &self,
        _state: &mut GameState,
        _ended: Seat,
        _next: Seat,
        _ev: &mut Vec<Event>,
    ) -> bool {
        false
    }

    /// A real player's turn has begun: reset the variant's once-per-turn flags.
    fn turn_started(&self, _state: &mut GameState, _seat: Seat, _ev: &mut Vec<Event>) {}

    /// One automated step, if an automated seat must act now: returns the
    /// seat it acted for (a neutral or fictional seat, or the real seat whose
    /// automatic roll it made), or `None` when a real player's decision is
    /// awaited. Called in a loop after every action.
    fn automated_step(&self, _state: &mut GameState, _ev: &mut Vec<Event>) -> Option<Seat> {
        None
    }

    /// The variant's own actions, and every action while one of its steps is
    /// on top of the stack. `None`: not the variant's, the base rules decide.
    fn dispatch(
        &self,
        _state: &mut GameState,
        _seat: Seat,
        _action: &Action,
        _ev: &mut Vec<Event>,
    ) -> Option<Result<(), ActionError>> {
        None
    }

    /// Adds the variant's entries to `seat`'s legal actions (after the base
    /// game's, which are empty while a variant step is on top).
    fn legal_actions(&self, _state: &GameState, _seat: Seat, _out: &mut Vec<LegalAction>) {}

    /// May the robber be put on a removed hex?
    fn robber_may_enter_removed(&self, _state: &GameState) -> bool {
        false
    }

    /// After the robber moved (and stole) by a seven or a knight.
    fn after_robber_moved(
        &self,
        _state: &mut GameState,
        _mover: Seat,
        _hex: HexId,
        _ev: &mut Vec<Event>,
    ) {
    }

    /// After a Monopoly took its cards from the other seats.
    fn after_monopoly(
        &self,
        _state: &mut GameState,
        _seat: Seat,
        _resource: Resource,
        _ev: &mut Vec<Event>,
    ) {
    }
}

pub fn hooks(variant: Variant) -> &'static dyn VariantHooks {
    match variant {
        Variant::Standard | Variant::Duel => &standard::Standard,
        Variant::CatanForTwo => &catan_for_two::CatanForTwo,
        Variant::NeutralTrader => &neutral_trader::NeutralTrader,
        Variant::Shadow => &shadow::Shadow,
    }
}
