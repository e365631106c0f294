//! RULES.md §1 Trade: maritime (4:1, 3:1 generic harbor, 2:1 specific
//! harbor) and domestic offers between the two players.
//!
//! Beginner harbors used here: generic 3:1 on nodes 1 and 5, grain 2:1 on
//! nodes 6 and 10. Node 12 touches no harbor.

use crate::common::*;
use hexpost_engine::board::{HarborKind, topology};
use hexpost_engine::events::TradeEnd;
use hexpost_engine::parts::trade::TradeOffer;
use hexpost_engine::testkit::{Scenario, edge};
use hexpost_engine::{Action, ActionError, Event, Resource, ResourceCounts};

use Resource::*;

fn maritime(give: Resource, receive: Resource, ratio: Option<u8>) -> Action {
    Action::MaritimeTrade {
        give,
        receive,
        ratio,
    }
}

fn offer(give: ResourceCounts, receive: ResourceCounts) -> Action {
    Action::OfferTrade { give, receive }
}

/// Seat 0 to act after the roll with a settlement on `node`.
fn at(node: u8) -> Scenario {
    let mut s = Scenario::standard();
    s.settlement(S0, node).main_phase(S0);
    s
}

fn harbor_at(node: u8) -> Option<HarborKind> {
    let s = Scenario::standard();
    topology().node_harbor[node as usize].map(|slot| s.state.board.harbors[slot as usize])
}

#[test]
fn harbor_positions_used_by_these_tests() {
    assert_eq!(harbor_at(1), Some(HarborKind::Generic));
    assert_eq!(harbor_at(5), Some(HarborKind::Generic));
    assert_eq!(harbor_at(6), Some(HarborKind::Specific(Grain)));
    assert_eq!(harbor_at(10), Some(HarborKind::Specific(Grain)));
    assert_eq!(harbor_at(9), None);
    assert_eq!(harbor_at(12), None);
}

#[test]
fn four_to_one_with_the_bank() {
    let mut s = at(12);
    s.give(S0, rc(5, 0, 0, 0, 0));
    assert_eq!(s.state.trade_ratios(S0), [4; 5]);
    assert_eq!(
        s.ok(S0, maritime(Brick, Ore, None)),
        vec![Event::MaritimeTraded {
            seat: S0,
            gave: rc(4, 0, 0, 0, 0),
            received: Ore
        }]
    );
    assert_eq!(s.hand(S0), rc(1, 0, 0, 0, 1));
    assert_eq!(s.state.bank, bank_minus(rc(1, 0, 0, 0, 1)));
    // Three left of a kind is not enough at 4:1.
    s.give(S0, rc(0, 0, 3, 0, 0));
    assert_eq!(
        s.refused(S0, maritime(Wool, Ore, Some(4))),
        ActionError::CannotAfford {
            cost: rc(0, 0, 4, 0, 0)
        }
    );
    consistent(&s);
}

#[test]
fn three_to_one_with_a_generic_harbor() {
    let mut s = at(1);
    s.give(S0, rc(0, 0, 3, 0, 0));
    assert_eq!(s.state.trade_ratios(S0), [3; 5]);
    assert_eq!(
        s.ok(S0, maritime(Wool, Grain, Some(3))),
        vec![Event::MaritimeTraded {
            seat: S0,
            gave: rc(0, 0, 3, 0, 0),
            received: Grain
        }]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 0, 1, 0));
    assert_eq!(s.state.bank, bank_minus(rc(0, 0, 0, 1, 0)));
}

#[test]
fn a_city_on_the_other_node_of_the_harbor_counts_too() {
    let mut s = Scenario::standard();
    s.city(S0, 5).main_phase(S0).give(S0, rc(0, 3, 0, 0, 0));
    s.ok(S0, maritime(Lumber, Brick, None));
    assert_eq!(s.hand(S0), rc(1, 0, 0, 0, 0));
    // A settlement next to a harbor node, not on it, gets nothing.
    let s = at(9);
    assert_eq!(s.state.trade_ratios(S0), [4; 5]);
}

#[test]
fn two_to_one_with_a_specific_harbor_for_its_resource_only() {
    let mut s = at(6);
    s.give(S0, rc(0, 0, 3, 2, 0));
    assert_eq!(s.state.trade_ratios(S0), [4, 4, 4, 2, 4]);
    assert_eq!(
        s.ok(S0, maritime(Grain, Ore, Some(2))),
        vec![Event::MaritimeTraded {
            seat: S0,
            gave: rc(0, 0, 0, 2, 0),
            received: Ore
        }]
    );
    assert_eq!(s.hand(S0), rc(0, 0, 3, 0, 1));
    // Wool is still 4:1.
    assert_eq!(
        s.refused(S0, maritime(Wool, Ore, Some(2))),
        ActionError::HarborNotOwned {
            resource: Wool,
            ratio: 2,
            best: 4
        }
    );
    assert_eq!(
        s.refused(S0, maritime(Wool, Ore, None)),
        ActionError::CannotAfford {
            cost: rc(0, 0, 4, 0, 0)
        }
    );
}

#[test]
fn specific_and_generic_harbors_combine_per_resource() {
    let mut s = Scenario::standard();
    s.settlement(S0, 6).settlement(S0, 1);
    assert_eq!(s.state.trade_ratios(S0), [3, 3, 3, 2, 3]);
}

#[test]
fn asking_for_a_harbor_you_do_not_own_is_refused() {
    let mut s = at(12);
    s.give(S0, rc(4, 0, 0, 0, 0));
    assert_eq!(
        s.refused(S0, maritime(Brick, Ore, Some(2))),
        ActionError::HarborNotOwned {
            resource: Brick,
            ratio: 2,
            best: 4
        }
    );
    assert_eq!(
        s.refused(S0, maritime(Brick, Ore, Some(3))),
        ActionError::HarborNotOwned {
            resource: Brick,
            ratio: 3,
            best: 4
        }
    );
    // The opponent's harbor is not yours.
    s.settlement(S1, 6);
    assert_eq!(
        s.refused(S0, maritime(Brick, Ore, Some(2))),
        ActionError::HarborNotOwned {
            resource: Brick,
            ratio: 2,
            best: 4
        }
    );
    assert_eq!(s.state.trade_ratio(S0, Grain), 4);
    // A generic harbor does not give 2:1.
    let mut g = at(1);
    g.give(S0, rc(4, 0, 0, 0, 0));
    assert_eq!(
        g.refused(S0, maritime(Brick, Ore, Some(2))),
        ActionError::HarborNotOwned {
            resource: Brick,
            ratio: 2,
            best: 3
        }
    );
}

#[test]
fn the_bank_must_hold_the_resource_you_ask_for() {
    let mut s = at(12);
    s.give(S0, rc(4, 0, 0, 0, 0)).give(S1, rc(0, 0, 0, 0, 19));
    assert_eq!(
        s.refused(S0, maritime(Brick, Ore, None)),
        ActionError::BankShortage { resource: Ore }
    );
    s.ok(S0, maritime(Brick, Grain, None));
    assert_eq!(s.hand(S0), rc(0, 0, 0, 1, 0));
}

#[test]
fn maritime_trade_needs_two_different_resources_after_the_roll() {
    let mut s = at(12);
    s.give(S0, rc(4, 0, 0, 0, 0));
    assert_eq!(
        s.refused(S0, maritime(Brick, Brick, None)),
        ActionError::InvalidTrade {
            reason: "give and receive must be different resources"
        }
    );
    assert_eq!(
        s.refused(S1, maritime(Brick, Ore, None)),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    s.before_roll(S0);
    assert_eq!(
        s.refused(S0, maritime(Brick, Ore, None)),
        ActionError::WrongPhase {
            action: "maritime_trade",
            phase: "before the roll"
        }
    );
}

/// Seat 0 (active, rolled) holds 2 brick + 1 lumber; seat 1 holds 1 grain
/// + 3 ore.
fn traders() -> Scenario {
    let mut s = at(0);
    s.road(S0, edge(0, 4));
    s.give(S0, rc(2, 1, 0, 0, 0)).give(S1, rc(0, 0, 0, 1, 3));
    s
}

#[test]
fn an_offer_waits_for_the_opponent_and_accepting_swaps_exactly() {
    let mut s = traders();
    let give = rc(2, 0, 0, 0, 0);
    let receive = rc(0, 0, 0, 1, 2);
    assert_eq!(
        s.ok(S0, offer(give, receive)),
        vec![Event::TradeOffered {
            seat: S0,
            to: S1,
            give,
            receive
        }]
    );
    assert_eq!(
        s.state.offer,
        Some(TradeOffer {
            from: S0,
            to: S1,
            give,
            receive
        })
    );
    assert_eq!(&*s.state.awaiting(), &[S0, S1]);
    // Nothing moves until the answer.
    assert_eq!(s.hand(S0), rc(2, 1, 0, 0, 0));
    assert_eq!(
        s.ok(S1, Action::AcceptTrade),
        vec![Event::TradeAccepted {
            seat: S0,
            by: S1,
            give,
            receive
        }]
    );
    assert_eq!(s.hand(S0), rc(0, 1, 0, 1, 2));
    assert_eq!(s.hand(S1), rc(2, 0, 0, 0, 1));
    assert_eq!(s.state.bank, bank_minus(rc(2, 1, 0, 1, 3)));
    assert_eq!(s.state.offer, None);
    assert_eq!(&*s.state.awaiting(), &[S0]);
    consistent(&s);
}

#[test]
fn declining_changes_no_cards() {
    let mut s = traders();
    s.ok(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 0, 0, 1)));
    assert_eq!(
        s.ok(S1, Action::DeclineTrade),
        vec![Event::TradeDeclined { seat: S0, by: S1 }]
    );
    assert_eq!(s.hand(S0), rc(2, 1, 0, 0, 0));
    assert_eq!(s.hand(S1), rc(0, 0, 0, 1, 3));
    assert_eq!(s.state.offer, None);
    assert_eq!(
        s.refused(S1, Action::AcceptTrade),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
}

#[test]
fn the_offerer_may_withdraw() {
    let mut s = traders();
    s.ok(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 0, 0, 1)));
    // Only the offerer withdraws; only the opponent answers.
    assert_eq!(
        s.refused(S1, Action::WithdrawTrade),
        ActionError::WrongPhase {
            action: "withdraw_trade",
            phase: "answering a trade offer"
        }
    );
    assert_eq!(
        s.ok(S0, Action::WithdrawTrade),
        vec![Event::TradeWithdrawn {
            seat: S0,
            reason: TradeEnd::Withdrawn
        }]
    );
    assert_eq!(s.state.offer, None);
    assert_eq!(
        s.refused(S0, Action::WithdrawTrade),
        ActionError::NoOpenOffer
    );
    assert_eq!(
        s.refused(S1, Action::AcceptTrade),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
}

#[test]
fn only_the_active_player_offers_and_only_the_opponent_answers() {
    let mut s = traders();
    assert_eq!(
        s.refused(S1, offer(rc(0, 0, 0, 1, 0), rc(1, 0, 0, 0, 0))),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    s.ok(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 0, 0, 1)));
    // The opponent, now awaited, still cannot make an offer of their own.
    assert_eq!(
        s.refused(S1, offer(rc(0, 0, 0, 1, 0), rc(1, 0, 0, 0, 0))),
        ActionError::WrongPhase {
            action: "offer_trade",
            phase: "answering a trade offer"
        }
    );
    // The offerer cannot answer their own offer.
    assert_eq!(s.refused(S0, Action::AcceptTrade), ActionError::NoOpenOffer);
    assert_eq!(
        s.refused(S0, Action::DeclineTrade),
        ActionError::NoOpenOffer
    );
    // One open offer at a time.
    assert_eq!(
        s.refused(S0, offer(rc(0, 1, 0, 0, 0), rc(0, 0, 0, 1, 0))),
        ActionError::OfferAlreadyOpen
    );
    // No offers before the roll.
    let mut b = traders();
    b.before_roll(S0);
    assert_eq!(
        b.refused(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 0, 0, 1))),
        ActionError::WrongPhase {
            action: "offer_trade",
            phase: "before the roll"
        }
    );
}

#[test]
fn giving_for_nothing_or_the_same_resource_both_ways_is_not_a_trade() {
    let mut s = traders();
    let nothing = "both sides must hold at least one card: giving cards away is not a trade";
    assert_eq!(
        s.refused(S0, offer(rc(1, 0, 0, 0, 0), ResourceCounts::ZERO)),
        ActionError::InvalidTrade { reason: nothing }
    );
    assert_eq!(
        s.refused(S0, offer(ResourceCounts::ZERO, rc(0, 0, 0, 0, 1))),
        ActionError::InvalidTrade { reason: nothing }
    );
    assert_eq!(
        s.refused(S0, offer(rc(1, 0, 0, 0, 0), rc(1, 0, 0, 1, 0))),
        ActionError::InvalidTrade {
            reason: "a resource cannot be on both sides of a trade"
        }
    );
    assert_eq!(
        s.refused(S0, offer(rc(3, 0, 0, 0, 0), rc(0, 0, 0, 0, 1))),
        ActionError::CardsNotHeld
    );
}

#[test]
fn accepting_needs_the_cards_asked_for() {
    let mut s = traders();
    s.ok(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 2, 0, 0)));
    assert_eq!(
        s.refused(S1, Action::AcceptTrade),
        ActionError::CannotAfford {
            cost: rc(0, 0, 2, 0, 0)
        }
    );
    assert!(s.state.offer.is_some());
    s.ok(S1, Action::DeclineTrade);
}

#[test]
fn an_open_offer_lapses_when_the_turn_ends() {
    let mut s = traders();
    s.ok(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 0, 0, 1)));
    assert_eq!(
        s.ok(S0, Action::EndTurn),
        vec![
            Event::TradeWithdrawn {
                seat: S0,
                reason: TradeEnd::TurnEnded
            },
            Event::TurnEnded { seat: S0 },
            Event::TurnStarted { seat: S1, turn: 2 },
        ]
    );
    assert_eq!(s.state.offer, None);
    assert_eq!(
        s.refused(S1, Action::AcceptTrade),
        ActionError::WrongPhase {
            action: "accept_trade",
            phase: "before the roll"
        }
    );
    assert_eq!(s.hand(S0), rc(2, 1, 0, 0, 0));
}

#[test]
fn an_open_offer_stays_open_while_the_offerer_plays_on() {
    let mut s = traders();
    s.give(S0, rc(0, 0, 4, 0, 0));
    s.ok(S0, offer(rc(1, 0, 0, 0, 0), rc(0, 0, 0, 0, 1)));
    // A maritime trade that keeps the offered brick leaves the offer open.
    s.ok(S0, maritime(Wool, Lumber, None));
    assert!(s.state.offer.is_some());
    s.ok(S1, Action::AcceptTrade);
    assert_eq!(s.hand(S0), rc(1, 2, 0, 0, 1));
}

#[test]
fn an_open_offer_lapses_when_the_offerer_can_no_longer_pay() {
    let mut s = traders();
    // Offers both bricks, then spends one on a road.
    s.ok(S0, offer(rc(2, 0, 0, 0, 0), rc(0, 0, 0, 0, 1)));
    assert_eq!(
        s.ok(S0, Action::BuildRoad { edge: edge(4, 8) }),
        vec![
            Event::RoadBuilt {
                seat: S0,
                edge: edge(4, 8),
                free: false
            },
            Event::TradeWithdrawn {
                seat: S0,
                reason: TradeEnd::OffererCannotPay
            },
        ]
    );
    assert_eq!(s.state.offer, None);
    assert_eq!(
        s.refused(S1, Action::AcceptTrade),
        ActionError::NotYourDecision {
            awaiting: seats(&[S0])
        }
    );
    assert_eq!(s.hand(S0), rc(1, 0, 0, 0, 0));
    assert_eq!(s.hand(S1), rc(0, 0, 0, 1, 3));
}
