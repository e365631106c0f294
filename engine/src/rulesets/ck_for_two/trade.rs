//! Trade with the bank (RULES.md §6.11): one unit per action, a resource
//! or a commodity for any other card, at the player's best ratio from
//! harbors, the Merchant Guild, a Merchant Fleet and the merchant.

use super::ck;
use super::state::ABILITY_LEVEL;
use super::wire::BankTradeOption;
use crate::actions::LegalAction;
use crate::board::{CardSet, HarborKind, topology};
use crate::cards::{Card, CardKind, Cards, Track};
use crate::error::ActionError;
use crate::events::Event;
use crate::seats::Seat;
use crate::state::GameState;

/// `seat`'s ratio for giving `card` to the bank: 4, 3 with a generic
/// harbor, 2 with the resource's harbor, the merchant on a hex of that
/// resource, the Merchant Guild for a commodity, or a Merchant Fleet
/// naming the card.
pub fn ratio(s: &GameState, seat: Seat, card: Card) -> u8 {
    ratios(s, seat)[card.index()]
}

/// `seat`'s ratio for every card, in card order (see `ratio`).
pub fn ratios(s: &GameState, seat: Seat) -> [u8; 8] {
    let c = ck(s);
    let harbors = s.trade_ratios(seat);
    let commodity = if c.player(seat).level(Track::Trade) >= ABILITY_LEVEL {
        2
    } else if harbors.contains(&3) || generic_harbor(s, seat) {
        3
    } else {
        4
    };
    let merchant = c
        .merchant
        .filter(|m| m.owner == seat)
        .and_then(|m| s.board.tiles[m.hex as usize].terrain.resource());
    std::array::from_fn(|i| {
        let card = Card::ALL[i];
        if c.fleet.contains(card) && s.active == seat {
            return 2;
        }
        match card.resource() {
            Some(r) if merchant == Some(r) => 2,
            Some(r) => harbors[r.index()],
            None => commodity,
        }
    })
}

/// Whether `seat` has a building on a generic harbor.
fn generic_harbor(s: &GameState, seat: Seat) -> bool {
    topology().harbor_nodes.iter().any(|&(n, slot)| {
        s.board.harbors[slot as usize] == HarborKind::Generic
            && s.building_at(n).is_some_and(|b| b.owner == seat)
    })
}

pub(super) fn bank_trade(
    s: &mut GameState,
    seat: Seat,
    give: Card,
    receive: Card,
    asked: Option<u8>,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if give == receive {
        return Err(ActionError::InvalidTrade {
            reason: "give and receive must be different cards",
        });
    }
    let best = ratio(s, seat, give);
    match asked {
        Some(r) if r < best => {
            return Err(ActionError::InvalidTrade {
                reason: "you have no such rate for that card",
            });
        }
        Some(r) if r > best => {
            return Err(ActionError::InvalidTrade {
                reason: "a better ratio is available to you; trade at your best ratio",
            });
        }
        _ => {}
    }
    let gave = Cards::single(give, best);
    if !s.player(seat).hand.contains(&gave) {
        return Err(ActionError::CannotAfford { cost: gave });
    }
    if s.bank[receive] == 0 {
        return Err(match (receive.resource(), receive.commodity()) {
            (Some(resource), _) => ActionError::BankShortage { resource },
            (_, Some(commodity)) => ActionError::CommodityShortage { commodity },
            _ => unreachable!("a card is a resource or a commodity"),
        });
    }
    let p = s.player_mut(seat);
    p.hand.sub(&gave);
    p.hand[receive] += 1;
    s.bank.add(&gave);
    s.bank[receive] -= 1;
    ev.push(Event::BankTraded {
        seat,
        gave,
        received: receive,
    });
    Ok(())
}

/// The bank trades `seat` can afford now.
pub(super) fn legal(s: &GameState, seat: Seat, out: &mut Vec<LegalAction>) {
    let hand = s.player(seat).hand;
    if !hand.counts().iter().any(|&n| n >= 2) {
        return;
    }
    let ratios = ratios(s, seat);
    let options: Vec<BankTradeOption> = Card::ALL
        .iter()
        .filter_map(|&give| {
            let ratio = ratios[give.index()];
            (hand[give] >= ratio).then(|| BankTradeOption {
                give,
                ratio,
                receive: CardSet::ALL.without(give),
            })
        })
        .collect();
    if !options.is_empty() {
        out.push(LegalAction::BankTrade { options });
    }
}
