//! The number dice: a pair thrown for production, fair or drawn from a
//! balanced deck; and the event die of Cities & Knights, always fair.
//! Rulesets throw further dice (roll-offs) with [`GameRng::die`].

use super::cards::Track;
use super::rng::GameRng;
use serde::{Deserialize, Serialize};

/// How the two dice are produced.
///
/// Balanced dice: a deck of the 36 ordered outcomes of two dice. Each roll
/// draws one card uniformly from what is left; when 5 or fewer cards remain
/// before a roll, the deck is refilled to all 36. Over a cycle every total
/// comes up exactly as often as its probability says, while the last few
/// cards keep some uncertainty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Dice {
    Fair,
    Balanced { remaining: Vec<u8> },
}

pub const BALANCED_REFILL_AT: usize = 5;

impl Dice {
    pub fn new(balanced: bool) -> Dice {
        if balanced {
            Dice::Balanced {
                remaining: full_deck(),
            }
        } else {
            Dice::Fair
        }
    }

    pub fn roll(&mut self, rng: &mut GameRng) -> [u8; 2] {
        match self {
            Dice::Fair => [rng.die(), rng.die()],
            Dice::Balanced { remaining } => {
                if remaining.len() <= BALANCED_REFILL_AT {
                    *remaining = full_deck();
                }
                let i = rng.below(remaining.len() as u32) as usize;
                let card = remaining.swap_remove(i);
                [card / 6 + 1, card % 6 + 1]
            }
        }
    }
}

fn full_deck() -> Vec<u8> {
    (0..36).collect()
}

/// A face of the event die (RULES.md §6.1): three faces show the
/// barbarian ship, one each a gate of the three tracks.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventFace {
    Ship,
    /// The yellow gate.
    Trade,
    /// The blue gate.
    Politics,
    /// The green gate.
    Science,
}

impl EventFace {
    /// Thrown from the game's generator as a fair d6: 1–3 the ship, 4 the
    /// blue gate, 5 the green, 6 the yellow.
    pub fn throw(rng: &mut GameRng) -> EventFace {
        match rng.die() {
            1..=3 => EventFace::Ship,
            4 => EventFace::Politics,
            5 => EventFace::Science,
            _ => EventFace::Trade,
        }
    }

    /// The track whose gate the face shows, if it shows one.
    pub fn gate(self) -> Option<Track> {
        match self {
            EventFace::Ship => None,
            EventFace::Trade => Some(Track::Trade),
            EventFace::Politics => Some(Track::Politics),
            EventFace::Science => Some(Track::Science),
        }
    }
}
