//! Variant behaviour behind small hooks. The base rules call these at fixed
//! points; each variant overrides only what it changes, so the base rules
//! carry no `if variant == …` branches.

mod standard;

use crate::board::{EdgeId, NodeId};
use crate::events::Event;
use crate::options::Variant;
use crate::state::GameState;
use crate::types::Seat;

/// What a player just built, for `after_build`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    Road(EdgeId),
    Settlement(NodeId),
}

pub trait VariantHooks: Sync {
    /// After a road or settlement is placed (set-up included).
    fn after_build(
        &self,
        _state: &mut GameState,
        _owner: Seat,
        _built: Built,
        _ev: &mut Vec<Event>,
    ) {
    }

    /// After a real player's turn ended and the next real turn began
    /// (fictional turns go here).
    fn after_turn(&self, _state: &mut GameState, _ended: Seat, _ev: &mut Vec<Event>) {}

    /// One automated step, if an automated seat must act now; returns false
    /// when a real player's decision is awaited. Called in a loop after every
    /// action.
    fn automated_step(&self, _state: &mut GameState, _ev: &mut Vec<Event>) -> bool {
        false
    }
}

pub fn hooks(variant: Variant) -> &'static dyn VariantHooks {
    match variant {
        Variant::Standard | Variant::Duel => &standard::Standard,
    }
}
