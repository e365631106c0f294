//! The Trade (yellow) progress cards (RULES.md §6.13): Commercial Harbor,
//! Master Merchant, Merchant, Merchant Fleet, Resource Monopoly and Trade
//! Monopoly.

use super::politics::{opponent_leads, owe_cards};
use super::progress::{refused, spend_card};
use super::state::Merchant;
use super::wire::{ProgressOption, ProgressPlay};
use super::{add_vp, ck, ck_mut, trade};
use crate::board::topology::HEX_COUNT;
use crate::board::{CardSet, HexId, ResourceSet, topology};
use crate::cards::{Card, CardKind, Cards, ProgressCard, Resource};
use crate::error::ActionError;
use crate::events::Event;
use crate::phases::Phase;
use crate::rulesets::Step;
use crate::seats::Seat;
use crate::state::GameState;

/// Master Merchant takes this many cards (all, if fewer).
const MASTER_MERCHANT_TAKES: u8 = 2;
/// Resource Monopoly takes this many of the named resource.
const RESOURCE_MONOPOLY_TAKES: u8 = 2;

pub(super) fn play(
    s: &mut GameState,
    seat: Seat,
    play: &ProgressPlay,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    use ProgressCard as C;
    use ProgressPlay as P;
    let opponent = seat.opponent();
    let theirs = s.player(opponent).hand;
    match *play {
        P::CommercialHarbor { resource } => {
            if s.player(seat).hand[resource] == 0 {
                return Err(ActionError::CardsNotHeld);
            }
            if theirs.commodities().is_empty() {
                return Err(refused(
                    C::CommercialHarbor,
                    "the opponent holds no commodity",
                ));
            }
            spend_card(s, seat, C::CommercialHarbor, ev);
            let given = Cards::single(resource, 1);
            s.player_mut(seat).hand.sub(&given);
            s.player_mut(opponent).hand.add(&given);
            ev.push(Event::CardsGiven {
                seat,
                to: opponent,
                cards: Some(given),
            });
            owe_cards(s, opponent, seat, 1, true, ev);
        }
        P::MasterMerchant => {
            if !opponent_leads(s, seat) || theirs.is_empty() {
                return Err(refused(
                    C::MasterMerchant,
                    "the opponent must have more VP than you and hold a card",
                ));
            }
            spend_card(s, seat, C::MasterMerchant, ev);
            ev.push(Event::HandShown {
                seat,
                of: opponent,
                cards: Some(theirs),
            });
            if theirs.total() <= MASTER_MERCHANT_TAKES as u32 {
                take(s, seat, &theirs, ev);
            } else {
                s.phases.push(Phase::Variant(Step::MasterMerchantPick {
                    seat,
                    count: MASTER_MERCHANT_TAKES,
                }));
            }
        }
        P::Merchant { hex } => {
            if !merchant_hexes(s, seat).contains(&hex) {
                return Err(refused(
                    C::Merchant,
                    "a land hex touching one of your buildings (another one, if you control the merchant)",
                ));
            }
            spend_card(s, seat, C::Merchant, ev);
            let from = ck(s).merchant.map(|m| m.owner);
            ck_mut(s).merchant = Some(Merchant { owner: seat, hex });
            if let Some(f) = from {
                add_vp(s, f, -1);
            }
            add_vp(s, seat, 1);
            ev.push(Event::MerchantPlaced { seat, hex, from });
        }
        P::MerchantFleet { named: card } => {
            if !fleet_cards(s, seat).contains(card) {
                return Err(refused(C::MerchantFleet, "you already trade that card 2:1"));
            }
            spend_card(s, seat, C::MerchantFleet, ev);
            let c = ck_mut(s);
            c.fleet = c.fleet.with(card);
            ev.push(Event::MerchantFleet { seat, card });
        }
        P::ResourceMonopoly { resource } => {
            if theirs.resources().is_empty() {
                return Err(refused(
                    C::ResourceMonopoly,
                    "the opponent holds no resource card",
                ));
            }
            spend_card(s, seat, C::ResourceMonopoly, ev);
            let n = theirs[resource].min(RESOURCE_MONOPOLY_TAKES);
            take(s, seat, &Cards::single(resource, n), ev);
        }
        P::TradeMonopoly { commodity } => {
            if theirs.commodities().is_empty() {
                return Err(refused(C::TradeMonopoly, "the opponent holds no commodity"));
            }
            spend_card(s, seat, C::TradeMonopoly, ev);
            let n = theirs[commodity].min(1);
            take(s, seat, &Cards::single(commodity, n), ev);
        }
        _ => unreachable!("routed here for trade cards only"),
    }
    Ok(())
}

/// `seat` takes `cards` from the opponent.
fn take(s: &mut GameState, seat: Seat, cards: &Cards, ev: &mut Vec<Event>) {
    let from = seat.opponent();
    s.player_mut(from).hand.sub(cards);
    s.player_mut(seat).hand.add(cards);
    ev.push(Event::CardsTaken {
        seat,
        from,
        cards: Some(*cards),
    });
}

/// Master Merchant: the cards taken from the hand shown.
pub(super) fn take_cards(
    s: &mut GameState,
    seat: Seat,
    count: u8,
    cards: &Cards,
    ev: &mut Vec<Event>,
) -> Result<(), ActionError> {
    if cards.total() != count as u32 {
        return Err(ActionError::WrongDiscardCount {
            expected: count,
            got: cards.total(),
        });
    }
    if !s.player(seat.opponent()).hand.contains(cards) {
        return Err(ActionError::InvalidChoice {
            reason: "cards the opponent holds",
        });
    }
    s.pop_phase();
    take(s, seat, cards, ev);
    Ok(())
}

/// Land hexes where `seat` may put the merchant: touching one of its
/// settlements or cities, the desert included; not where it stands if
/// `seat` controls it already.
pub(super) fn merchant_hexes(s: &GameState, seat: Seat) -> Vec<HexId> {
    let topo = topology();
    let own = ck(s).merchant.filter(|m| m.owner == seat).map(|m| m.hex);
    (0..HEX_COUNT as HexId)
        .filter(|&h| {
            Some(h) != own
                && topo.hexes[h as usize]
                    .nodes
                    .iter()
                    .any(|&n| s.building_at(n).is_some_and(|b| b.owner == seat))
        })
        .collect()
}

/// Cards a Merchant Fleet would improve: those `seat` trades worse than 2:1.
fn fleet_cards(s: &GameState, seat: Seat) -> CardSet {
    Card::ALL
        .iter()
        .copied()
        .filter(|&c| trade::ratio(s, seat, c) > 2)
        .fold(CardSet::default(), CardSet::with)
}

/// The trade cards `seat` may play now, each with its choices.
pub(super) fn options(s: &GameState, seat: Seat, out: &mut Vec<ProgressOption>) {
    let hand = ck(s).player(seat).hand();
    let mine = s.player(seat).hand;
    let theirs = s.player(seat.opponent()).hand;
    if hand[ProgressCard::CommercialHarbor] > 0 && !theirs.commodities().is_empty() {
        let resources = Resource::ALL
            .into_iter()
            .filter(|&r| mine[r] > 0)
            .fold(ResourceSet::default(), |m, r| {
                ResourceSet(m.0 | 1 << r.index())
            });
        if !resources.is_empty() {
            out.push(ProgressOption::CommercialHarbor { resources });
        }
    }
    if hand[ProgressCard::MasterMerchant] > 0 && opponent_leads(s, seat) && !theirs.is_empty() {
        out.push(ProgressOption::MasterMerchant);
    }
    if hand[ProgressCard::Merchant] > 0 {
        let hexes = merchant_hexes(s, seat);
        if !hexes.is_empty() {
            out.push(ProgressOption::Merchant { hexes });
        }
    }
    if hand[ProgressCard::MerchantFleet] > 0 {
        let cards = fleet_cards(s, seat);
        if !cards.is_empty() {
            out.push(ProgressOption::MerchantFleet { cards });
        }
    }
    if hand[ProgressCard::ResourceMonopoly] > 0 && !theirs.resources().is_empty() {
        out.push(ProgressOption::ResourceMonopoly);
    }
    if hand[ProgressCard::TradeMonopoly] > 0 && !theirs.commodities().is_empty() {
        out.push(ProgressOption::TradeMonopoly);
    }
}
