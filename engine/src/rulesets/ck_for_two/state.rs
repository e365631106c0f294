//! The ruleset's own data (RULES.md §6.1): trade tokens, the barbarians,
//! each player's improvements and progress cards, the progress decks,
//! knights, walls, tipped cities, metropolises and the merchant. The
//! progress cards in hand and the decks are secret: what a seat may see of
//! them is this state's `Redact` form, the same mechanism as every other
//! hidden fact.

use crate::board::{CardSet, HexId, NodeId, NodeSet};
use crate::cards::{Cards, ProgressCard, ProgressCounts, Track};
use crate::hidden::Redact;
use crate::parts::trade_tokens::Tokens;
use crate::rng::GameRng;
use crate::seats::Seat;
use crate::state::GameState;
use serde::{Deserialize, Serialize};

/// Knights of each level in a colour's supply (a neutral uses no mighty ones).
pub const KNIGHTS_PER_LEVEL: u8 = 2;
pub const WALLS_PER_PLAYER: u8 = 3;
/// The ship's spaces: the move onto the last one is the attack.
pub const BARBARIAN_SPACES: u8 = 7;
pub const DEFENDER_CARDS: u8 = 6;
/// Progress cards a player may hold (VP cards excepted) outside their turn.
pub const PROGRESS_LIMIT: u8 = 4;
pub const COMMODITIES_IN_BANK: u8 = 12;
/// The level whose first buyer places the track's metropolis.
pub const METROPOLIS_LEVEL: u8 = 4;
pub const TOP_LEVEL: u8 = 5;
/// The level with the track's ability (Merchant Guild, Fortress, Aqueduct).
pub const ABILITY_LEVEL: u8 = 3;

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnightLevel {
    Basic,
    Strong,
    Mighty,
}

impl KnightLevel {
    pub const ALL: [KnightLevel; 3] =
        [KnightLevel::Basic, KnightLevel::Strong, KnightLevel::Mighty];

    /// Its strength against the barbarians and other knights: 1, 2, 3.
    pub fn strength(self) -> u8 {
        self as u8 + 1
    }

    pub fn next(self) -> Option<KnightLevel> {
        match self {
            KnightLevel::Basic => Some(KnightLevel::Strong),
            KnightLevel::Strong => Some(KnightLevel::Mighty),
            KnightLevel::Mighty => None,
        }
    }
}

/// A knight on the board.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knight {
    pub node: NodeId,
    pub owner: Seat,
    pub level: KnightLevel,
    pub active: bool,
    /// Activated this turn: it may not act before the next one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub activated: bool,
    /// Promoted this turn: once per knight per turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub promoted: bool,
}

/// A player's progress cards: the count is public, the cards are not.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressHand {
    pub count: u8,
    /// Null where the viewer may not see them.
    pub cards: Option<ProgressCounts>,
}

/// A progress deck: its size is public, its cards (the top last) are not.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressDeck {
    pub size: u8,
    /// Null in every view.
    pub cards: Option<Vec<ProgressCard>>,
}

/// What a real player has of Cities & Knights.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CkPlayer {
    /// City improvement levels by track: trade, politics, science.
    pub levels: [u8; 3],
    pub progress: ProgressHand,
    /// Printer and Constitution, laid down face up (1 VP each).
    pub laid_down: ProgressCounts,
    /// Defender of Catan awards (1 VP each).
    pub defenders: u8,
}

impl CkPlayer {
    pub fn level(&self, track: Track) -> u8 {
        self.levels[track.index()]
    }

    /// The cards in hand (the true state always knows them).
    pub fn hand(&self) -> ProgressCounts {
        self.progress.cards.unwrap_or_default()
    }
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Merchant {
    pub owner: Seat,
    pub hex: HexId,
}

/// A real player's cards in hand by class, public in every view (RULES.md §6.16).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandCounts {
    pub resources: u8,
    pub commodities: u8,
}

/// The ruleset's state.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CkState {
    pub tokens: Tokens,
    /// The ship's space, 0 (start) to 6; the seventh move attacks.
    pub barbarians: u8,
    /// Attacks resolved so far; the robber is locked until the first.
    pub attacks: u16,
    /// By real seat.
    pub players: [CkPlayer; 2],
    /// By track: trade, politics, science.
    pub decks: [ProgressDeck; 3],
    /// Every knight on the board, by node.
    pub knights: Vec<Knight>,
    /// Nodes of cities that have a wall.
    pub walls: NodeSet,
    /// Settlements standing on a city piece: pillaged cities whose owner
    /// had no settlement piece.
    pub tipped: NodeSet,
    /// By track: the city holding the track's metropolis.
    pub metropolises: [Option<NodeId>; 3],
    pub merchant: Option<Merchant>,
    pub defenders_left: u8,
    /// This turn's Merchant Fleets: cards the active player trades 2:1.
    pub fleet: CardSet,
    /// The real players' resource and commodity cards, in views only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_counts: Option<[HandCounts; 2]>,
    /// The opponent's hand while the viewer picks from it with the Master
    /// Merchant, in that viewer's view only: the card showed it to them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_hand: Option<Cards>,
}

impl CkState {
    /// The game's start: 5 tokens each, three shuffled decks of 18.
    pub fn new(rng: &mut GameRng) -> CkState {
        let decks = Track::ALL.map(|track| {
            let mut cards: Vec<ProgressCard> = ProgressCard::ALL
                .into_iter()
                .filter(|c| c.track() == track)
                .flat_map(|c| std::iter::repeat_n(c, c.copies() as usize))
                .collect();
            rng.shuffle(&mut cards);
            ProgressDeck {
                size: cards.len() as u8,
                cards: Some(cards),
            }
        });
        let player = CkPlayer {
            progress: ProgressHand {
                count: 0,
                cards: Some(ProgressCounts::ZERO),
            },
            ..CkPlayer::default()
        };
        CkState {
            tokens: Tokens::at_start(),
            players: [player.clone(), player],
            decks,
            defenders_left: DEFENDER_CARDS,
            ..CkState::default()
        }
    }

    pub fn player(&self, seat: Seat) -> &CkPlayer {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut CkPlayer {
        &mut self.players[seat.index()]
    }

    pub fn knight_at(&self, node: NodeId) -> Option<&Knight> {
        self.knights.iter().find(|k| k.node == node)
    }

    pub fn knight_at_mut(&mut self, node: NodeId) -> Option<&mut Knight> {
        self.knights.iter_mut().find(|k| k.node == node)
    }

    /// Puts `knight` on the board, keeping the list in node order.
    pub fn put_knight(&mut self, knight: Knight) {
        let pos = self.knights.partition_point(|k| k.node < knight.node);
        self.knights.insert(pos, knight);
    }

    pub fn take_knight(&mut self, node: NodeId) -> Option<Knight> {
        let pos = self.knights.iter().position(|k| k.node == node)?;
        Some(self.knights.remove(pos))
    }

    /// A bit per node holding a knight.
    pub fn knight_nodes(&self) -> u64 {
        self.knights.iter().fold(0, |m, k| m | (1 << k.node))
    }

    /// `owner`'s knights of `level` on the board.
    pub fn knights_of(&self, owner: Seat, level: KnightLevel) -> u8 {
        self.knights
            .iter()
            .filter(|k| k.owner == owner && k.level == level)
            .count() as u8
    }

    /// The active knights' strength of `seat`.
    pub fn active_strength(&self, seat: Seat) -> u8 {
        self.knights
            .iter()
            .filter(|k| k.owner == seat && k.active)
            .map(|k| k.level.strength())
            .sum()
    }

    /// The holder of `track`'s metropolis, found on the board.
    pub fn metropolis_of(&self, s: &GameState, track: Track) -> Option<(Seat, NodeId)> {
        let node = self.metropolises[track.index()]?;
        Some((s.building_at(node)?.owner, node))
    }

    pub fn has_metropolis(&self, node: NodeId) -> bool {
        self.metropolises.contains(&Some(node))
    }

    /// Draws the top card of `track`'s deck.
    pub fn draw(&mut self, track: Track) -> Option<ProgressCard> {
        let deck = &mut self.decks[track.index()];
        let card = deck.cards.as_mut()?.pop()?;
        deck.size -= 1;
        Some(card)
    }

    /// A played or discarded card goes face down under its deck.
    pub fn put_under(&mut self, card: ProgressCard) {
        let deck = &mut self.decks[card.track().index()];
        deck.cards.get_or_insert_with(Vec::new).insert(0, card);
        deck.size += 1;
    }

    /// Adds `card` to `seat`'s hand.
    pub fn hold(&mut self, seat: Seat, card: ProgressCard) {
        let p = &mut self.player_mut(seat).progress;
        p.cards.get_or_insert_with(ProgressCounts::default)[card] += 1;
        p.count += 1;
    }

    /// Takes `card` out of `seat`'s hand (the caller checked it is there).
    pub fn release(&mut self, seat: Seat, card: ProgressCard) {
        let p = &mut self.player_mut(seat).progress;
        if let Some(cards) = &mut p.cards {
            cards[card] -= 1;
        }
        p.count -= 1;
    }

    pub fn holds(&self, seat: Seat, card: ProgressCard) -> bool {
        self.player(seat).hand()[card] > 0
    }
}

impl Redact for CkState {
    /// The opponent's progress cards and every deck's cards are left out;
    /// their counts stay.
    fn redacted_for(&self, viewer: Option<Seat>) -> CkState {
        let mut out = self.clone();
        for (i, p) in out.players.iter_mut().enumerate() {
            if viewer != Some(Seat(i as u8)) {
                p.progress.cards = None;
            }
        }
        for d in &mut out.decks {
            d.cards = None;
        }
        out
    }
}

impl CkState {
    /// For the hidden-information test: the cards of every hand but the
    /// viewer's swapped with cards of the same deck, and every deck
    /// shuffled; every count stays.
    pub fn perturb_hidden(&mut self, viewer: Seat, rng: &mut GameRng) {
        for i in 0..self.players.len() {
            if i == viewer.index() {
                continue;
            }
            let held: Vec<ProgressCard> = self.players[i]
                .hand()
                .iter()
                .flat_map(|(c, n)| std::iter::repeat_n(c, n as usize))
                .collect();
            for card in held {
                let deck = &mut self.decks[card.track().index()];
                let Some(cards) = deck.cards.as_mut().filter(|c| !c.is_empty()) else {
                    continue;
                };
                let k = rng.below(cards.len() as u32) as usize;
                let other = std::mem::replace(&mut cards[k], card);
                if let Some(hand) = &mut self.players[i].progress.cards {
                    hand[card] -= 1;
                    hand[other] += 1;
                }
            }
        }
        for d in &mut self.decks {
            if let Some(cards) = &mut d.cards {
                rng.shuffle(cards);
            }
        }
    }

    /// Every progress card is in a deck, a hand or laid down: 54, each kind
    /// as often as RULES.md §6.13 says.
    pub fn check_progress(&self) -> Result<(), String> {
        let mut seen = ProgressCounts::ZERO;
        for (t, d) in self.decks.iter().enumerate() {
            let cards = d.cards.as_ref().ok_or("a deck without its cards")?;
            if cards.len() != d.size as usize {
                return Err(format!(
                    "deck {t}: size {} but {} cards",
                    d.size,
                    cards.len()
                ));
            }
            for &c in cards {
                if c.track().index() != t {
                    return Err(format!("{c} in deck {t}"));
                }
                seen[c] += 1;
            }
        }
        for (i, p) in self.players.iter().enumerate() {
            let hand = p.progress.cards.ok_or("a hand without its cards")?;
            if hand.total() != p.progress.count as u32 {
                return Err(format!(
                    "seat {i}: progress count {} but {} cards",
                    p.progress.count,
                    hand.total()
                ));
            }
            if ProgressCard::ALL
                .iter()
                .any(|c| c.is_victory_point() && hand[*c] > 0)
            {
                return Err(format!("seat {i} holds a victory-point card in hand"));
            }
            seen.add(&hand);
            seen.add(&p.laid_down);
        }
        for &c in ProgressCard::ALL.iter() {
            if seen[c] != c.copies() {
                return Err(format!("{} {c} cards, not {}", seen[c], c.copies()));
            }
        }
        let total = seen.total();
        if total != 54 {
            return Err(format!("{total} progress cards, not 54"));
        }
        Ok(())
    }

    /// The card kinds a player holds, in kind order.
    pub fn held_kinds(&self, seat: Seat) -> impl Iterator<Item = ProgressCard> + '_ {
        let hand = self.player(seat).hand();
        ProgressCard::ALL.into_iter().filter(move |&c| hand[c] > 0)
    }
}
