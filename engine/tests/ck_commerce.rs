//! ck_for_two (RULES.md §6.13): the 18 Trade (yellow) progress cards —
//! each card's effect and each condition under which it cannot be played.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::board::CardSet;
use hexpost_engine::cards::{Card, ProgressCard as C};
use hexpost_engine::rulesets::ck_for_two::wire::{ProgressOption, ProgressPlay as P};
use hexpost_engine::rulesets::{Step, VariantState};
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{
    Action, ActionError, Commodity, Event, Phase, Redact, Resource, ResourceCounts,
};

// ---- Commercial Harbor (2) ----

#[test]
fn commercial_harbor_gives_a_named_resource_and_takes_back_a_commodity_of_the_opponents_choice() {
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(0, 0, 0, 1, 0))
        .give(S1, cards([0, 0, 0, 0, 0, 1, 0, 2]))
        .progress(S0, C::CommercialHarbor);
    let ev = play(
        &mut s,
        S0,
        P::CommercialHarbor {
            resource: Resource::Grain,
        },
    );
    assert!(ev.contains(&Event::CardsGiven {
        seat: S0,
        to: S1,
        cards: Some(ResourceCounts::new(0, 0, 0, 1, 0))
    }));
    assert_eq!(
        step(&s),
        Some(Step::GiveCards {
            seat: S1,
            to: S0,
            count: 1,
            commodities_only: true
        })
    );
    assert!(matches!(
        s.refused(
            S1,
            Action::GiveCards {
                cards: ResourceCounts::new(0, 0, 0, 1, 0)
            }
        ),
        ActionError::InvalidChoice { .. }
    ));
    s.ok(
        S1,
        Action::GiveCards {
            cards: cards([0, 0, 0, 0, 0, 0, 0, 1]),
        },
    );
    assert_eq!(s.hand(S0), cards([0, 0, 0, 0, 0, 0, 0, 1]));
    assert_eq!(s.hand(S1), cards([0, 0, 0, 1, 0, 1, 0, 1]));
    assert_eq!(s.state.phase(), &Phase::Main);
    s.check();
}

#[test]
fn commercial_harbor_is_one_exchange_and_refused_without_a_resource_or_their_commodity() {
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(0, 0, 0, 1, 0))
        .give(S1, cards([0, 0, 0, 0, 0, 0, 1, 0]))
        .progress(S0, C::CommercialHarbor);
    play(
        &mut s,
        S0,
        P::CommercialHarbor {
            resource: Resource::Grain,
        },
    );
    assert_eq!(
        s.hand(S0),
        cards([0, 0, 0, 0, 0, 0, 1, 0]),
        "their only commodity"
    );
    assert_eq!(s.state.phase(), &Phase::Main);
    let mut s = main_phase();
    s.give(S1, cards([0, 0, 0, 0, 0, 0, 1, 0]))
        .give(S0, cards([0, 0, 0, 0, 0, 1, 0, 0]))
        .progress(S0, C::CommercialHarbor);
    assert!(!offers(&s, S0, C::CommercialHarbor));
    assert_eq!(
        refused_card(
            &mut s,
            S0,
            P::CommercialHarbor {
                resource: Resource::Ore
            }
        ),
        ActionError::CardsNotHeld
    );
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(1, 0, 0, 0, 0))
        .give(S1, ResourceCounts::new(0, 3, 0, 0, 0))
        .progress(S0, C::CommercialHarbor);
    assert!(!offers(&s, S0, C::CommercialHarbor));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::CommercialHarbor {
                resource: Resource::Brick
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Master Merchant (2) ----

#[test]
fn master_merchant_sees_a_leading_opponents_hand_and_takes_two_cards_of_choice() {
    let mut s = main_phase();
    s.settlement(S1, 31)
        .give(S1, cards([0, 2, 0, 0, 1, 0, 0, 1]))
        .progress(S0, C::MasterMerchant);
    let ev = play(&mut s, S0, P::MasterMerchant);
    let shown = ev
        .iter()
        .find(|e| matches!(e, Event::HandShown { .. }))
        .unwrap();
    assert_eq!(
        shown,
        &Event::HandShown {
            seat: S0,
            of: S1,
            cards: Some(cards([0, 2, 0, 0, 1, 0, 0, 1]))
        }
    );
    assert_eq!(
        shown.redacted_for(None),
        Event::HandShown {
            seat: S0,
            of: S1,
            cards: None
        }
    );
    assert_eq!(
        s.state.legal_actions(S0),
        vec![LegalAction::TakeCards { count: 2 }]
    );
    // The picking player's view shows the hand they pick from; no other.
    let shown = |s: &Scenario, viewer| match s.state.view(viewer).variant {
        VariantState::CkForTwo(c) => c.shown_hand,
        other => panic!("{other:?}"),
    };
    assert_eq!(shown(&s, Some(S0)), Some(cards([0, 2, 0, 0, 1, 0, 0, 1])));
    assert_eq!(shown(&s, Some(S1)), None);
    assert_eq!(shown(&s, None), None);
    assert!(matches!(
        s.refused(
            S0,
            Action::TakeCards {
                cards: ResourceCounts::new(2, 0, 0, 0, 0)
            }
        ),
        ActionError::InvalidChoice { .. }
    ));
    let ev = s.ok(
        S0,
        Action::TakeCards {
            cards: cards([0, 0, 0, 0, 1, 0, 0, 1]),
        },
    );
    assert!(ev.contains(&Event::CardsTaken {
        seat: S0,
        from: S1,
        cards: Some(cards([0, 0, 0, 0, 1, 0, 0, 1]))
    }));
    assert_eq!(s.hand(S1), ResourceCounts::new(0, 2, 0, 0, 0));
    assert_eq!(shown(&s, Some(S0)), None, "only while picking");
    s.check();
}

#[test]
fn master_merchant_takes_all_when_fewer_and_is_refused_unless_the_opponent_leads() {
    let mut s = main_phase();
    s.settlement(S1, 31)
        .give(S1, ResourceCounts::new(0, 0, 1, 0, 0))
        .progress(S0, C::MasterMerchant);
    play(&mut s, S0, P::MasterMerchant);
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(s.state.phase(), &Phase::Main);
    let mut s = main_phase();
    s.give(S1, ResourceCounts::new(0, 0, 3, 0, 0))
        .progress(S0, C::MasterMerchant);
    assert!(!offers(&s, S0, C::MasterMerchant));
    assert!(matches!(
        refused_card(&mut s, S0, P::MasterMerchant),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Merchant (6) ----

#[test]
fn merchant_goes_on_a_hex_touching_the_players_building_and_moves_with_the_next_merchant_played() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .settlement(S1, 44)
        .progress(S0, C::Merchant)
        .progress(S0, C::Merchant)
        .progress(S1, C::Merchant);
    let hexes = offered(&s, S0)
        .into_iter()
        .find_map(|o| match o {
            ProgressOption::Merchant { hexes } => Some(hexes),
            _ => None,
        })
        .unwrap();
    assert_eq!(hexes, vec![10, 11, 15]);
    assert!(matches!(
        refused_card(&mut s, S0, P::Merchant { hex: 13 }),
        ActionError::ProgressCardRefused { .. }
    ));
    play(&mut s, S0, P::Merchant { hex: 11 });
    // Controlling it, the player may move it, but not onto the same hex.
    assert!(matches!(
        refused_card(&mut s, S0, P::Merchant { hex: 11 }),
        ActionError::ProgressCardRefused { .. }
    ));
    play(&mut s, S0, P::Merchant { hex: 15 });
    assert_eq!(s.ck().merchant.map(|m| (m.owner, m.hex)), Some((S0, 15)));
    // The opponent's Merchant takes it and its point.
    let (vp0, vp1) = (s.state.player(S0).visible_vp, s.state.player(S1).visible_vp);
    s.main_phase(S1);
    let ev = s.ok(
        S1,
        Action::PlayProgress {
            play: P::Merchant { hex: 13 },
        },
    );
    assert!(ev.contains(&Event::MerchantPlaced {
        seat: S1,
        hex: 13,
        from: Some(S0)
    }));
    assert_eq!(s.state.player(S0).visible_vp, vp0 - 1);
    assert_eq!(s.state.player(S1).visible_vp, vp1 + 1);
    s.check();
}

// ---- Merchant Fleet (2) ----

#[test]
fn merchant_fleet_trades_the_named_card_two_to_one_for_the_rest_of_the_turn() {
    let mut s = main_phase();
    s.give(S0, cards([0, 0, 0, 0, 0, 0, 4, 0]))
        .progress(S0, C::MerchantFleet);
    let ev = play(&mut s, S0, P::MerchantFleet { named: Card::Cloth });
    assert!(ev.contains(&Event::MerchantFleet {
        seat: S0,
        card: Card::Cloth
    }));
    s.ok(
        S0,
        Action::BankTrade {
            give: Card::Cloth,
            receive: Card::Ore,
            ratio: Some(2),
        },
    );
    s.ok(
        S0,
        Action::BankTrade {
            give: Card::Cloth,
            receive: Card::Grain,
            ratio: Some(2),
        },
    );
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 0, 0, 1, 1));
    // Over with the turn.
    s.ok(S0, Action::EndTurn);
    assert!(s.ck().fleet.is_empty());
    s.check();
}

#[test]
fn merchant_fleet_is_refused_for_a_card_already_traded_two_to_one() {
    let mut s = main_phase();
    s.settlement(S0, 6).progress(S0, C::MerchantFleet);
    let cards = offered(&s, S0)
        .into_iter()
        .find_map(|o| match o {
            ProgressOption::MerchantFleet { cards } => Some(cards),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        cards,
        CardSet::ALL.without(Card::Grain),
        "node 6 is on the grain harbor"
    );
    assert!(matches!(
        refused_card(&mut s, S0, P::MerchantFleet { named: Card::Grain }),
        ActionError::ProgressCardRefused { .. }
    ));
}

// ---- Resource Monopoly (4), Trade Monopoly (2) ----

#[test]
fn resource_monopoly_the_opponent_gives_two_of_the_named_resource_or_all_if_fewer() {
    let mut s = main_phase();
    s.give(S1, ResourceCounts::new(0, 0, 3, 0, 1))
        .progress(S0, C::ResourceMonopoly)
        .progress(S0, C::ResourceMonopoly);
    let ev = play(
        &mut s,
        S0,
        P::ResourceMonopoly {
            resource: Resource::Wool,
        },
    );
    assert!(ev.contains(&Event::CardsTaken {
        seat: S0,
        from: S1,
        cards: Some(ResourceCounts::new(0, 0, 2, 0, 0))
    }));
    play(
        &mut s,
        S0,
        P::ResourceMonopoly {
            resource: Resource::Ore,
        },
    );
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 0, 2, 0, 1));
    assert_eq!(s.hand(S1), ResourceCounts::new(0, 0, 1, 0, 0));
    assert_eq!(
        s.hand(N2),
        ResourceCounts::ZERO,
        "neutrals are never reached"
    );
    s.check();
}

#[test]
fn resource_monopoly_is_refused_when_the_opponent_holds_no_resource_card() {
    let mut s = main_phase();
    s.give(S1, cards([0, 0, 0, 0, 0, 3, 0, 0]))
        .progress(S0, C::ResourceMonopoly);
    assert!(!offers(&s, S0, C::ResourceMonopoly));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::ResourceMonopoly {
                resource: Resource::Wool
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
}

#[test]
fn trade_monopoly_the_opponent_gives_one_of_the_named_commodity() {
    let mut s = main_phase();
    s.give(S1, cards([0, 0, 0, 0, 0, 0, 3, 0]))
        .progress(S0, C::TradeMonopoly);
    play(
        &mut s,
        S0,
        P::TradeMonopoly {
            commodity: Commodity::Cloth,
        },
    );
    assert_eq!(s.hand(S0), cards([0, 0, 0, 0, 0, 0, 1, 0]));
    let mut s = main_phase();
    s.give(S1, ResourceCounts::new(3, 0, 0, 0, 0))
        .progress(S0, C::TradeMonopoly);
    assert!(!offers(&s, S0, C::TradeMonopoly));
    assert!(matches!(
        refused_card(
            &mut s,
            S0,
            P::TradeMonopoly {
                commodity: Commodity::Coin
            }
        ),
        ActionError::ProgressCardRefused { .. }
    ));
}
