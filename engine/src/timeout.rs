//! The decision the server takes for a player whose time ran out, when the
//! game's timeout policy is to play on rather than forfeit.
//!
//! It must be safe: it never spends a card or a token by choice, never
//! offers or accepts a trade, and never plays a development card. Where a
//! decision cannot be declined (a discard, the robber, a set-up placement,
//! a road owed to a neutral) it takes the first legal choice in a fixed
//! order, so the same state always gets the same decision and a replay of
//! the log reproduces it.

use crate::actions::{Action, LegalAction};
use crate::cards::{Card, CardKind, Cards};
use crate::seats::Seat;
use crate::state::GameState;

/// The kinds of decision in the order a timeout prefers them: first the
/// ones that decline or end something, then the unavoidable ones.
const PREFERENCE: [fn(&LegalAction, Cards) -> Option<Action>; 14] = [
    |l, _| matches!(l, LegalAction::DeclineTrade).then_some(Action::DeclineTrade),
    |l, _| matches!(l, LegalAction::DeclineNeutralTrade).then_some(Action::DeclineNeutralTrade),
    |l, _| matches!(l, LegalAction::PassBid).then_some(Action::PassBid),
    |l, _| matches!(l, LegalAction::Concede).then_some(Action::Concede),
    |l, _| matches!(l, LegalAction::VoteReroll).then_some(Action::VoteReroll { reroll: false }),
    |l, _| matches!(l, LegalAction::EndTurn).then_some(Action::EndTurn),
    |l, _| matches!(l, LegalAction::RollDice).then_some(Action::RollDice),
    |l, hand| match l {
        LegalAction::Discard { count } => Some(Action::Discard {
            cards: first_cards(hand, *count),
        }),
        LegalAction::ForcedTradeGive { count, .. } => Some(Action::ForcedTradeGive {
            cards: first_cards(hand, *count),
        }),
        _ => None,
    },
    |l, _| match l {
        LegalAction::MoveRobber { targets } => targets.first().map(|t| Action::MoveRobber {
            hex: t.hex,
            victim: t.victims.first().copied(),
        }),
        _ => None,
    },
    |l, _| match l {
        LegalAction::BuildSettlement { nodes, free: true } => {
            nodes.nth(0).map(|node| Action::BuildSettlement { node })
        }
        _ => None,
    },
    |l, _| match l {
        LegalAction::BuildRoad { edges, free: true } => {
            edges.nth(0).map(|edge| Action::BuildRoad { edge })
        }
        _ => None,
    },
    |l, _| match l {
        LegalAction::BuildNeutralSettlement { neutral, nodes } => {
            nodes.nth(0).map(|node| Action::BuildNeutralSettlement {
                neutral: *neutral,
                node,
            })
        }
        _ => None,
    },
    |l, _| match l {
        LegalAction::BuildNeutralRoad { neutral, edges } => {
            edges.nth(0).map(|edge| Action::BuildNeutralRoad {
                neutral: *neutral,
                edge,
            })
        }
        _ => None,
    },
    // An auction that must be opened with a bid: the smallest one.
    |l, hand| match l {
        LegalAction::Bid if hand.total() > 0 => Some(Action::Bid {
            cards: first_cards(hand, 1),
        }),
        _ => None,
    },
];

/// The base game's safe decision for the awaited `seat`: the first legal
/// choice in the order of `PREFERENCE`.
pub(crate) fn base_decision(s: &GameState, seat: Seat) -> Option<Action> {
    let legal = s.legal_actions(seat);
    let hand = s.player(seat).hand;
    PREFERENCE
        .iter()
        .find_map(|pick| legal.iter().find_map(|l| pick(l, hand)))
}

/// `n` cards of `hand`, taken in card order: brick, lumber, wool, grain,
/// ore, then the commodities paper, cloth, coin.
pub(crate) fn first_cards(hand: Cards, n: u8) -> Cards {
    let mut out = Cards::ZERO;
    let mut left = n;
    for &c in Card::ALL {
        let take = hand[c].min(left);
        out[c] = take;
        left -= take;
    }
    out
}
