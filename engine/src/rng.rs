//! The game's randomness. The generator is ChaCha8 (a named, portable
//! algorithm whose output does not change between crate versions), seeded
//! per game and stored inside the state, so a game replays exactly from its
//! seed and actions.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    pub fn from_seed(seed: u64) -> Self {
        GameRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Seeds from 32 bytes, the form the server stores and later reveals.
    pub fn from_seed_bytes(seed: [u8; 32]) -> Self {
        GameRng(ChaCha8Rng::from_seed(seed))
    }

    pub fn die(&mut self) -> u8 {
        self.0.random_range(1..=6u8)
    }

    /// Uniform in `0..n`; `n` must be positive.
    pub fn below(&mut self, n: u32) -> u32 {
        self.0.random_range(0..n)
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        items.shuffle(&mut self.0);
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_round_trip_keeps_position() {
        let mut a = GameRng::from_seed(7);
        let mut b = GameRng::from_seed(7);
        for _ in 0..10 {
            assert_eq!(a.die(), b.die());
        }
        let json = serde_json::to_string(&a).unwrap();
        let mut c: GameRng = serde_json::from_str(&json).unwrap();
        assert_eq!(a, c);
        assert_eq!(a.next_u64(), c.next_u64());
    }
}
