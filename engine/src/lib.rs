//! hexpost's rules engine for two-player Catan variants.
//!
//! Pure and deterministic: no I/O, no clock, no threads. A game is a
//! [`GameState`] created from a [`GameConfig`] and a seed; [`GameState::apply`]
//! takes one seat's [`Action`], runs every automated step that follows, and
//! returns the [`Event`]s. [`GameState::legal_actions`] lists what a seat may
//! do, and [`GameState::view`] is what it may see.
//!
//! How it is built: a small core (`core`: board, seats, cards, dice, the
//! seeded generator, the phase stack, the state), the base game's concerns
//! as parts (`parts`), and one ruleset per variant (`rulesets`) that
//! composes the parts; `contract` is what a ruleset is.

pub mod actions;
pub mod contract;
mod core;
pub mod error;
pub mod events;
mod game;
pub mod hidden;
pub mod invariants;
pub mod options;
pub mod parts;
pub mod rulesets;
#[cfg(feature = "openapi")]
mod schema;
pub mod sim;
#[cfg(feature = "testkit")]
pub mod testkit;
mod timeout;
pub mod view;

pub use crate::core::{board, cards, dice, phases, rng, seats, state};
pub use actions::{Action, LegalAction, MaritimeOption, RobberTarget};
pub use cards::{Card, Cards, Commodity, DevCard, DevCounts, Resource, ResourceCounts};
pub use contract::Ruleset;
pub use error::ActionError;
pub use events::Event;
pub use hidden::Redact;
pub use options::{GameConfig, GameOptions, Revision, Rules, Variant};
pub use phases::Phase;
pub use seats::Seat;
pub use state::GameState;
pub use view::{GameView, topology_view};
