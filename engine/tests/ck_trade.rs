//! ck_for_two (RULES.md §6.11, §6.14, §6.15): trade with commodities, the
//! bank's rates and the merchant, trade tokens, and victory at 13.

use crate::common::ck::*;
use crate::common::{S0, S1};
use hexpost_engine::actions::LegalAction;
use hexpost_engine::board::CardSet;
use hexpost_engine::cards::{Card, ProgressCard, Track};
use hexpost_engine::events::TokenReason;
use hexpost_engine::rulesets::Step;
use hexpost_engine::rulesets::ck_for_two::wire::BankTradeOption;
use hexpost_engine::testkit::Scenario;
use hexpost_engine::{Action, ActionError, Event, Phase, Resource, ResourceCounts};

fn bank_options(s: &Scenario) -> Vec<BankTradeOption> {
    s.state
        .legal_actions(S0)
        .into_iter()
        .find_map(|l| match l {
            LegalAction::BankTrade { options } => Some(options),
            _ => None,
        })
        .unwrap_or_default()
}

fn ratio_of(s: &Scenario, give: Card) -> Option<u8> {
    bank_options(s)
        .iter()
        .find(|o| o.give == give)
        .map(|o| o.ratio)
}

// ---- 6.11 Trade and the merchant ----

#[test]
fn domestic_trade_may_include_commodities() {
    let mut s = main_phase();
    s.give(S0, cards([0, 0, 0, 0, 0, 1, 0, 0]))
        .give(S1, cards([0, 0, 0, 0, 0, 0, 0, 2]));
    s.ok(
        S0,
        Action::OfferTrade {
            give: cards([0, 0, 0, 0, 0, 1, 0, 0]),
            receive: cards([0, 0, 0, 0, 0, 0, 0, 2]),
        },
    );
    s.ok(S1, Action::AcceptTrade);
    assert_eq!(s.hand(S0), cards([0, 0, 0, 0, 0, 0, 0, 2]));
    assert_eq!(s.hand(S1), cards([0, 0, 0, 0, 0, 1, 0, 0]));
}

#[test]
fn bank_a_commodity_goes_four_to_one_and_three_to_one_at_a_generic_harbor_for_any_card() {
    let mut s = main_phase();
    s.give(S0, cards([0, 0, 0, 0, 0, 4, 0, 0]));
    assert_eq!(
        bank_options(&s),
        vec![BankTradeOption {
            give: Card::Paper,
            ratio: 4,
            receive: CardSet::ALL.without(Card::Paper),
        }]
    );
    let ev = s.ok(
        S0,
        Action::BankTrade {
            give: Card::Paper,
            receive: Card::Brick,
            ratio: None,
        },
    );
    assert!(ev.contains(&Event::BankTraded {
        seat: S0,
        gave: cards([0, 0, 0, 0, 0, 4, 0, 0]),
        received: Card::Brick
    }));
    // Node 1 is on slot 0, a 3:1 harbor.
    let mut s = main_phase();
    s.settlement(S0, 1)
        .give(S0, cards([0, 0, 0, 0, 0, 3, 0, 0]));
    assert_eq!(ratio_of(&s, Card::Paper), Some(3));
    s.ok(
        S0,
        Action::BankTrade {
            give: Card::Paper,
            receive: Card::Coin,
            ratio: Some(3),
        },
    );
    assert_eq!(s.hand(S0), cards([0, 0, 0, 0, 0, 0, 0, 1]));
}

#[test]
fn bank_a_resource_harbor_serves_only_its_resource() {
    // Node 6 is on slot 1, the grain harbor.
    let mut s = main_phase();
    s.settlement(S0, 6)
        .give(S0, cards([0, 0, 0, 2, 0, 3, 0, 0]));
    assert_eq!(ratio_of(&s, Card::Grain), Some(2));
    assert_eq!(ratio_of(&s, Card::Paper), None, "paper stays 4:1");
    s.ok(
        S0,
        Action::BankTrade {
            give: Card::Grain,
            receive: Card::Cloth,
            ratio: Some(2),
        },
    );
    assert_eq!(s.hand(S0), cards([0, 0, 0, 0, 0, 3, 1, 0]));
    // The base game's maritime action is a bank trade of resources.
    let mut s = main_phase();
    s.settlement(S0, 6)
        .give(S0, cards([0, 0, 0, 2, 0, 0, 0, 0]));
    s.ok(
        S0,
        Action::MaritimeTrade {
            give: Resource::Grain,
            receive: Resource::Ore,
            ratio: None,
        },
    );
    assert_eq!(s.hand(S0), ResourceCounts::new(0, 0, 0, 0, 1));
}

#[test]
fn bank_one_card_per_action_at_the_best_ratio_and_a_short_bank_refuses() {
    let mut s = main_phase();
    s.give(S0, cards([0, 0, 0, 0, 0, 8, 0, 0]));
    assert!(matches!(
        s.refused(
            S0,
            Action::BankTrade {
                give: Card::Paper,
                receive: Card::Paper,
                ratio: None
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    assert!(matches!(
        s.refused(
            S0,
            Action::BankTrade {
                give: Card::Paper,
                receive: Card::Ore,
                ratio: Some(3)
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    s.give(S1, cards([0, 0, 0, 0, 0, 0, 0, 12]));
    assert_eq!(
        s.refused(
            S0,
            Action::BankTrade {
                give: Card::Paper,
                receive: Card::Coin,
                ratio: None
            }
        ),
        ActionError::CommodityShortage {
            commodity: hexpost_engine::Commodity::Coin
        }
    );
}

#[test]
fn merchant_its_controller_trades_the_hexs_resource_two_to_one_and_holds_one_vp() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .progress(S0, ProgressCard::Merchant)
        .give(S0, ResourceCounts::new(0, 0, 0, 0, 2));
    let vp = s.state.player(S0).visible_vp;
    let ev = s.ok(
        S0,
        Action::PlayProgress {
            play: hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay::Merchant { hex: 11 },
        },
    );
    assert!(ev.contains(&Event::MerchantPlaced {
        seat: S0,
        hex: 11,
        from: None
    }));
    assert_eq!(s.state.player(S0).visible_vp, vp + 1);
    assert_eq!(ratio_of(&s, Card::Ore), Some(2), "hex 11 is mountains");
    s.ok(
        S0,
        Action::BankTrade {
            give: Card::Ore,
            receive: Card::Paper,
            ratio: Some(2),
        },
    );
    // The robber on the merchant's hex does not matter.
    s.barbarians(0, 1)
        .robber(11)
        .give(S0, ResourceCounts::new(0, 0, 0, 0, 2));
    assert_eq!(ratio_of(&s, Card::Ore), Some(2));
    s.check();
}

#[test]
fn merchant_on_the_desert_is_allowed_and_gives_its_vp_only() {
    let mut s = main_phase();
    s.settlement(S0, 24).progress(S0, ProgressCard::Merchant);
    s.ok(
        S0,
        Action::PlayProgress {
            play: hexpost_engine::rulesets::ck_for_two::wire::ProgressPlay::Merchant { hex: 9 },
        },
    );
    assert_eq!(s.ck().merchant.map(|m| m.hex), Some(9));
    s.give(S0, ResourceCounts::new(3, 3, 3, 3, 3));
    for r in Resource::ALL {
        assert_eq!(ratio_of(&s, Card::from(r)), None, "{r} stays 4:1");
    }
    s.check();
}

// ---- 6.14 Trade tokens ----

#[test]
fn tokens_earned_for_own_settlements_desert_2_coast_1_both_3_never_for_a_neutral() {
    let mut s = main_phase();
    s.settlement(S0, 31)
        .road_path(S0, &[31, 25, 19, 24])
        .road_path(N3, &[41, 45, 49])
        .give(S0, ResourceCounts::new(1, 1, 1, 1, 0));
    let ev = s.ok(S0, Action::BuildSettlement { node: 24 });
    // The neutral settlement owed for it (its only site, so placed without
    // asking) is on the coast and earns nothing.
    assert!(ev.contains(&Event::SettlementBuilt {
        seat: N3,
        node: 49,
        free: true
    }));
    let earned: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, Event::TokensEarned { .. }))
        .collect();
    assert_eq!(
        earned,
        vec![&Event::TokensEarned {
            seat: S0,
            tokens: 2,
            reason: TokenReason::Desert
        }]
    );
    assert_eq!(s.ck().tokens.held, [7, 5]);
    s.check();
}

#[test]
fn tokens_an_upgrade_or_a_pillage_earns_nothing() {
    let mut s = main_phase();
    s.settlement(S0, 24)
        .give(S0, ResourceCounts::new(0, 0, 0, 2, 3));
    let ev = s.ok(S0, Action::BuildCity { node: 24 });
    assert!(!ev.iter().any(|e| matches!(e, Event::TokensEarned { .. })));
    let mut s = game();
    s.city(S0, 24).barbarians(6, 0);
    let ev = roll(&mut s, S0, [1, 1, SHIP], QUIET_12);
    assert!(ev.iter().any(|e| matches!(e, Event::CityPillaged { .. })));
    assert!(!ev.iter().any(|e| matches!(e, Event::TokensEarned { .. })));
}

#[test]
fn token_actions_once_per_turn_cost_one_when_not_ahead_else_two() {
    let mut s = main_phase();
    s.barbarians(0, 1)
        .robber(11)
        .settlement(S0, 31)
        .settlement(S1, 2);
    let costs: Vec<u8> = s
        .state
        .legal_actions(S0)
        .iter()
        .filter_map(|l| match l {
            LegalAction::RobberToDesert { cost } => Some(*cost),
            _ => None,
        })
        .collect();
    assert_eq!(costs, [1], "tied on VP");
    s.ok(S0, Action::RobberToDesert);
    assert_eq!(s.ck().tokens.held[0], 4);
    s.robber(11);
    assert_eq!(
        s.refused(S0, Action::RobberToDesert),
        ActionError::TokenActionUsed
    );
    let mut s = main_phase();
    s.barbarians(0, 1)
        .robber(11)
        .settlement(S0, 31)
        .settlement(S0, 44);
    s.ok(S0, Action::RobberToDesert);
    assert_eq!(s.ck().tokens.held[0], 3, "ahead on VP: 2 tokens");
}

#[test]
fn forced_trade_resources_only_sets_the_commodities_aside_and_gives_back_resources() {
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(0, 0, 2, 0, 0))
        .give(S0, cards([0, 0, 0, 0, 0, 1, 0, 0]))
        .give(S1, ResourceCounts::new(1, 0, 0, 0, 0))
        .give(S1, cards([0, 0, 0, 0, 0, 0, 3, 0]));
    let ev = s.ok(S0, Action::ForcedTradeResources);
    assert!(ev.contains(&Event::TokensPaid {
        seat: S0,
        tokens: 1
    }));
    assert!(ev.contains(&Event::ForcedTradeDrew {
        seat: S0,
        from: S1,
        cards: Some(ResourceCounts::new(1, 0, 0, 0, 0))
    }));
    assert_eq!(
        step(&s),
        Some(Step::ForcedTradeGive {
            seat: S0,
            to: S1,
            resources_only: true
        })
    );
    assert_eq!(
        s.state.legal_actions(S0),
        vec![LegalAction::ForcedTradeGive {
            count: 2,
            resources_only: true
        }]
    );
    assert!(matches!(
        s.refused(
            S0,
            Action::ForcedTradeGive {
                cards: cards([0, 0, 1, 0, 0, 1, 0, 0])
            }
        ),
        ActionError::InvalidTrade { .. }
    ));
    s.ok(
        S0,
        Action::ForcedTradeGive {
            cards: ResourceCounts::new(1, 0, 1, 0, 0),
        },
    );
    assert_eq!(s.hand(S1), cards([1, 0, 1, 0, 0, 0, 3, 0]));
    assert_eq!(s.hand(S0), cards([0, 0, 1, 0, 0, 1, 0, 0]));
    s.check();
}

#[test]
fn forced_trade_resources_only_refused_without_their_resources_or_two_of_mine() {
    let mut s = main_phase();
    s.give(S0, ResourceCounts::new(0, 0, 2, 0, 0))
        .give(S1, cards([0, 0, 0, 0, 0, 0, 3, 0]));
    assert_eq!(
        s.refused(S0, Action::ForcedTradeResources),
        ActionError::OpponentHasNoCards
    );
    let mut s = main_phase();
    s.give(S0, cards([0, 0, 0, 0, 0, 5, 0, 0]))
        .give(S1, ResourceCounts::new(1, 0, 0, 0, 0));
    assert_eq!(
        s.refused(S0, Action::ForcedTradeResources),
        ActionError::TooFewCardsToGive { held: 1 }
    );
}

#[test]
fn forced_trade_over_all_cards_costs_twice_and_may_give_back_commodities() {
    let mut s = main_phase();
    s.give(S0, cards([0, 0, 0, 0, 0, 2, 0, 0]))
        .give(S1, cards([0, 0, 0, 0, 0, 0, 0, 1]));
    assert!(
        s.state
            .legal_actions(S0)
            .contains(&LegalAction::ForcedTrade { cost: 2 })
    );
    let ev = s.ok(S0, Action::ForcedTrade);
    assert!(ev.contains(&Event::TokensPaid {
        seat: S0,
        tokens: 2
    }));
    s.ok(
        S0,
        Action::ForcedTradeGive {
            cards: cards([0, 0, 0, 0, 0, 1, 0, 1]),
        },
    );
    assert_eq!(s.hand(S1), cards([0, 0, 0, 0, 0, 1, 0, 1]));
    // Ahead on VP, it costs 4.
    let mut s = main_phase();
    s.settlement(S0, 31)
        .tokens(S0, 3)
        .give(S0, ResourceCounts::new(2, 0, 0, 0, 0))
        .give(S1, ResourceCounts::new(2, 0, 0, 0, 0));
    assert_eq!(
        s.refused(S0, Action::ForcedTrade),
        ActionError::NoTokens { cost: 4, held: 3 }
    );
}

#[test]
fn robber_to_the_desert_after_the_first_attack_steals_nothing() {
    let mut s = main_phase();
    s.barbarians(0, 1)
        .robber(11)
        .settlement(S1, 31)
        .give(S1, ResourceCounts::new(1, 0, 0, 0, 0));
    let ev = s.ok(S0, Action::RobberToDesert);
    assert!(ev.contains(&Event::RobberMoved { seat: S0, hex: 9 }));
    assert!(!ev.iter().any(|e| matches!(e, Event::Stole { .. })));
    assert_eq!(s.hand(S1), ResourceCounts::new(1, 0, 0, 0, 0));
}

// ---- 6.15 Victory points ----

#[test]
fn victory_every_vp_is_visible_and_recounted_from_its_sources() {
    let mut s = main_phase();
    // Settlement 1, city 2, metropolis city 4, Defender 1, Printer 1,
    // merchant 1: 10.
    s.settlement(S0, 2)
        .city(S0, 31)
        .city(S0, 44)
        .levels(S0, [4, 0, 0])
        .metropolis(Track::Trade, 44)
        .defenders(S0, 1)
        .merchant(S0, 11);
    s.ck_mut().player_mut(S0).laid_down[ProgressCard::Printer] = 1;
    s.ck_mut().decks[Track::Science.index()]
        .cards
        .as_mut()
        .unwrap()
        .retain(|c| *c != ProgressCard::Printer);
    s.ck_mut().decks[Track::Science.index()].size = 17;
    s.state.player_mut(S0).visible_vp += 1;
    assert_eq!(s.state.player(S0).visible_vp, 10);
    assert_eq!(s.state.recount_visible_vp(S0), 10);
    assert_eq!(s.state.total_vp(S0), 10, "no hidden points");
    s.check();
}

#[test]
fn victory_at_13_on_ones_own_turn() {
    let mut s = main_phase();
    s.city(S0, 31)
        .city(S0, 44)
        .city(S0, 7)
        .city(S0, 19)
        .settlement(S0, 2)
        .settlement(S0, 37)
        .road_path(S0, &[2, 6, 10])
        .give(S0, ResourceCounts::new(1, 1, 1, 1, 0));
    assert_eq!(s.state.player(S0).visible_vp, 10);
    s.defenders(S0, 2);
    let ev = s.ok(S0, Action::BuildSettlement { node: 10 });
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::GameWon { seat, victory_points: 13, .. } if *seat == S0))
    );
    assert_eq!(s.state.phase(), &Phase::Ended);
}

#[test]
fn victory_neutrals_can_hold_longest_road_and_never_win() {
    let mut s = main_phase();
    s.road_path(N2, &[12, 8, 4, 1, 5, 9]);
    assert_eq!(s.state.longest_road, Some(N2));
    assert_eq!(s.state.player(N2).visible_vp, 3);
    s.check();
    s.ok(S0, Action::EndTurn);
    assert!(s.state.winner.is_none());
    assert_eq!(s.state.active, S1);
}
