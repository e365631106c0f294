//! hexpost's rules engine for two-player Catan variants.
//!
//! Pure and deterministic: no I/O, no clock, no threads. A game is a
//! [`GameState`] created from a [`GameConfig`] and a seed; [`GameState::apply`]
//! takes one seat's [`Action`], runs every automated step that follows, and
//! returns the [`Event`]s. [`GameState::legal_actions`] lists what a seat may
//! do, and [`GameState::view`] is what it may see.

pub mod actions;
pub mod board;
pub mod error;
pub mod events;
pub mod invariants;
pub mod options;
pub mod rng;
mod rules;
#[cfg(feature = "openapi")]
mod schema;
pub mod sim;
pub mod state;
pub mod testkit;
mod timeout;
pub mod types;
pub mod variants;
pub mod view;

pub use actions::{Action, LegalAction, MaritimeOption, RobberTarget};
pub use error::ActionError;
pub use events::Event;
pub use options::{GameConfig, GameOptions, Rules, Variant};
pub use state::{GameState, Phase};
pub use types::{DevCard, Resource, ResourceCounts, Seat};
pub use view::{GameView, topology_view};
