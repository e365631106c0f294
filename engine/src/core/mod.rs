//! The core every ruleset plays on: the board, the seats, the cards and
//! their bundles, the dice and the seeded generator they are thrown from,
//! the phase stack, and the game state that holds them with the parts'
//! state (see `crate::parts`) and the ruleset's own (`crate::rulesets`).
//! Nothing here knows a rule of any ruleset.

pub mod board;
pub mod cards;
pub mod dice;
pub mod phases;
pub mod rng;
pub mod seats;
pub mod state;
mod stored;
